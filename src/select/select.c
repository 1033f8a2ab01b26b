#include "select.h"

#include <string.h>

static int unit_keepable(const winnow_doc *d, const wn_page_scores *ps, uint32_t u)
{
    const wn_unit_stats *o = &ps->own[u];
    if (o->chars == 0) return 0;
    if (ps->boiler[u]) return 0;
    if (d->labels.value[u] > 0) return 1;
    /* short plain fragments inside the content (subheadings, table cells,
     * captions) stay; link lists do not */
    return o->link_chars * 2 <= o->chars;
}

static uint32_t find_headline(const winnow_doc *d, uint32_t container)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t best = WN_NONE;
    /* the last h1 before the container, else an h1 inside it is already kept */
    for (uint32_t i = 1; i < container; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag != WN_TAG_H1 || (x->flags & WN_NF_HIDDEN)) continue;
        if (i + x->size > container) continue; /* an ancestor of the container */
        const wn_stats *s = &st[i];
        if (s->chars < 10 || s->chars > 400 || s->link_chars * 2 > s->chars) continue;
        best = i;
    }
    return best;
}

/* Keep the units of subtree r. */
static void keep_subtree(winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_node *c = &d->dom.nodes[r];
    for (uint32_t i = r; i < r + c->size; i++)
        if (d->labels.unit[i] == i && unit_keepable(d, ps, i)) d->labels.keep[i] = 1;
}

/* Measured on the evaluation corpora: 0.7-0.9 all do well; 1.0 (a plain
 * subtree sum) takes in teaser lists, 0.5 loses deeply wrapped articles. */
#define DECAY 0.8f

/* Site mode: long paragraphs outside the content block that no other page
 * of the site has (a video's caption, a note beside the article) are
 * content too, unless they sit among links (teaser lists). Values are in
 * characters of plain text, after the x1.5 a unique unit gets: 300 is about
 * 200 characters of running text. */
#define LONE_MIN_VALUE 300.0f
#define LONE_MAX_LINK_DENSITY 0.15f

static void keep_lone_paragraphs(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    int added = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (lb->unit[i] != i || lb->keep[i] || !lb->unique[i] || ps->boiler[i] || lb->value[i] < LONE_MIN_VALUE)
            continue;
        uint32_t p = dom->nodes[i].parent;
        if (p == WN_NONE || (float)d->stats[p].link_chars >= LONE_MAX_LINK_DENSITY * (float)d->stats[p].chars) continue;
        lb->keep[i] = 1;
        added = 1;
    }
    /* the walk then covers the whole body, keeping only what is marked;
     * the headline, already marked, comes out in its place */
    if (added) {
        lb->container = dom->body;
        lb->headline = WN_NONE;
    }
}

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    /* score[i]: unit values in the subtree, each weighted by DECAY^distance.
     * Running text scores its own block and, less and less, the blocks
     * above it; a list of teasers, each item a few levels down, adds little
     * to the list that holds it, while an article body whose paragraphs
     * are its children collects them all. */
    float *score = wn_arena_calloc(&d->arena, n, sizeof(float));
    if (!score) return -1;
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i) score[i] = lb->value[i];
    for (uint32_t i = n; i-- > 1;) score[dom->nodes[i].parent] += DECAY * score[i];

    uint32_t best = WN_NONE;
    float best_score = 0.0f;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (score[i] > best_score) { best_score = score[i]; best = i; }
    }
    lb->container = best;
    lb->headline = WN_NONE;

    if (best == WN_NONE) {
        /* no running text anywhere: keep what is not a link list, so a
         * list page or a bare fragment still yields its words */
        for (uint32_t i = 0; i < n; i++)
            if (lb->unit[i] == i && unit_keepable(d, ps, i)) lb->keep[i] = 1;
        lb->container = dom->body;
    } else {
        /* Siblings that score well themselves join the content (an article
         * split into several blocks by an advertisement or a figure); the
         * container is then their parent, of which only those children are
         * kept. */
        uint32_t parent = dom->nodes[best].parent;
        float threshold = 0.2f * best_score > 40.0f ? 0.2f * best_score : 40.0f;
        int joined = 0;
        if (parent != WN_NONE && parent != 0 && !(dom->nodes[parent].flags & WN_NF_HIDDEN)) {
            for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
                if (c == best || dom->nodes[c].tag == WN_TAG_TEXT) continue;
                if (score[c] >= threshold && !ps->boiler[c]) { keep_subtree(d, ps, c); joined++; }
            }
        }
        keep_subtree(d, ps, best);
        if (joined) lb->container = parent;
        if (include_title) {
            uint32_t h = find_headline(d, lb->container);
            if (h != WN_NONE) { lb->headline = h; lb->keep[h] = 1; }
        }
        if (lb->unique) keep_lone_paragraphs(d, ps);
    }
    /* text nodes follow their unit */
    for (uint32_t i = 0; i < n; i++)
        if (dom->nodes[i].tag == WN_TAG_TEXT) lb->keep[i] = lb->keep[lb->unit[i]];

    /* element templateness: kept units in [0, .5], dropped ones in [.5, 1],
     * weighted by characters over the subtree */
    float *wsum = wn_arena_calloc(&d->arena, n, sizeof(float));
    float *csum = wn_arena_calloc(&d->arena, n, sizeof(float));
    if (!wsum || !csum) return -1;
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
        float t = lb->templ[i];
        float lab = lb->keep[i] ? 0.5f * t : 0.5f + 0.5f * t;
        csum[i] = (float)ps->own[i].chars;
        wsum[i] = lab * csum[i];
    }
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        wsum[p] += wsum[i];
        csum[p] += csum[i];
    }
    for (uint32_t i = 0; i < n; i++) lb->templ[i] = csum[i] > 0 ? wsum[i] / csum[i] : 1.0f;
    return 0;
}
