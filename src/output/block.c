/* A block as the public block API (winnow_doc_block) and the JSON and
 * blocks outputs show it. */
#include "render.h"

#include <string.h>

void wn_block_info(const winnow_doc *d, size_t k, winnow_block *b)
{
    uint32_t i = d->blocks[k];
    const wn_node *x = &d->dom.nodes[i];
    const wn_stats *s = &d->stats[i];
    memset(b, 0, sizeof *b);
    b->struct_size = sizeof *b;
    b->tag = x->name;
    b->path = d->block_path[k];
    b->src_begin = x->src_begin;
    b->src_len = x->src_len;
    b->line = x->line;
    b->depth = x->depth;
    b->sibling_index = x->sibling_index;
    b->parent = d->block_parent[k];
    b->chars = s->chars;
    b->words = s->words;
    b->distinct_words = s->distinct_words;
    b->punct = s->punct;
    b->link_chars = s->link_chars;
    b->links = s->links;
    b->images = s->images;
    b->fingerprint = s->fingerprint;
    b->templateness = d->labels.templ[i];
    b->is_content = b->templateness < 0.5;
}
