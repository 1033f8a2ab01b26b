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

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    float *sum = wn_arena_calloc(&d->arena, n, sizeof(float));
    if (!sum) return -1;
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i) sum[i] = lb->value[i];
    for (uint32_t i = n; i-- > 1;) sum[dom->nodes[i].parent] += sum[i];

    uint32_t best = WN_NONE;
    float best_sum = 0.0f;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (sum[i] > best_sum) { best_sum = sum[i]; best = i; }
    }
    lb->container = best;
    lb->headline = WN_NONE;

    if (best == WN_NONE) {
        /* no running text anywhere: keep what is not a link list, so a
         * list page or a bare fragment still yields its words */
        for (uint32_t i = 0; i < n; i++)
            if (lb->unit[i] == i && unit_keepable(d, ps, i)) lb->keep[i] = 1;
        if (dom->body) lb->container = dom->body;
    } else {
        const wn_node *c = &dom->nodes[best];
        for (uint32_t i = best; i < best + c->size; i++)
            if (lb->unit[i] == i && unit_keepable(d, ps, i)) lb->keep[i] = 1;
        if (include_title) {
            uint32_t h = find_headline(d, best);
            if (h != WN_NONE) { lb->headline = h; lb->keep[h] = 1; }
        }
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
