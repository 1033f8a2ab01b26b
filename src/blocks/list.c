/* The block list of a page (list.h). */
#include "list.h"

int wn_blocks_list(winnow_doc *d, int paths)
{
    const wn_dom *dom = &d->dom;
    uint32_t nb = 0;
    for (uint32_t i = 0; i < dom->count; i++)
        if (d->stats[i].is_block) nb++;
    d->blocks = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(uint32_t));
    if (!d->blocks) return -1;
    if (!paths) {
        nb = 0;
        for (uint32_t i = 0; i < dom->count; i++)
            if (d->stats[i].is_block) d->blocks[nb++] = i;
        d->nblocks = nb;
        return 0;
    }
    d->block_parent = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(long));
    d->block_path = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(char *));
    /* node -> block index, to find enclosing blocks top-down */
    long *enclosing = wn_arena_alloc(&d->arena, (size_t)dom->count * sizeof(long));
    if (!d->blocks || !d->block_parent || !d->block_path || !enclosing) return -1;
    nb = 0;
    char path[1024];
    for (uint32_t i = 0; i < dom->count; i++) {
        long up = i ? enclosing[dom->nodes[i].parent] : -1;
        if (d->stats[i].is_block) {
            d->blocks[nb] = i;
            d->block_parent[nb] = up;
            size_t pl = wn_node_path(dom, i, path, sizeof path);
            d->block_path[nb] = wn_arena_strndup(&d->arena, path, pl);
            if (!d->block_path[nb]) return -1;
            enclosing[i] = (long)nb++;
        } else {
            enclosing[i] = up;
        }
    }
    d->nblocks = nb;
    return 0;
}
