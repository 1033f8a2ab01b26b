/* A document in headed sections: a manual page, a reference page, a long
 * guide, written as a run of sibling elements of one shape (tag and class),
 * each opening with its heading (asciidoc's sect1, Sphinx's section, a
 * generator's <section>). The best block is often one of them, the longest
 * (the options of a manual page); the others score too little beside it to
 * join (JOIN_SHARE), yet they are the same document: its description, its
 * discussion, its configuration. When the best block or one of its
 * ancestors, up to SECTIONS_LEVELS above it, is such a section among
 * SECTIONS_MIN - 1 or more of its shape, every one of them holding running
 * text joins it. */
#include "passes.h"

/* Whether element s opens with a heading: the first element under it
 * holding text is an <h1>..<h6> (or lies in one). */
static int opens_with_heading(const winnow_doc *d, uint32_t s)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = s + 1; i < s + dom->nodes[s].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || d->stats[i].chars == 0) continue;
        if (wn_tag_has(x->tag, WN_TF_HEADING)) return 1;
        /* a wrapper around the heading and more: look inside */
        if (d->stats[i].chars == d->stats[s].chars) continue;
        return 0;
    }
    return 0;
}

/* Whether c holds running text of its own: a unit of positive value that
 * is not boilerplate. */
static int has_running_text(const winnow_doc *d, const wn_page_scores *ps, uint32_t c)
{
    for (uint32_t i = c; i < c + d->dom.nodes[c].size; i++)
        if (d->labels.unit[i] == i && d->labels.value[i] > 0.0f && !ps->boiler[i]) return 1;
    return 0;
}

uint32_t wn_join_headed_sections(winnow_doc *d, const wn_page_scores *ps, uint32_t best, const wn_join_guard *g)
{
    const wn_dom *dom = &d->dom;
    const float min = WN_RULE(d, SECTIONS_MIN);
    if (min <= 0.0f || min > 1e6f) return WN_NONE;
    uint32_t s = best;
    for (int up = 0; (float)up <= WN_RULE(d, SECTIONS_LEVELS) && s != WN_NONE && s != 0 && s != dom->body;
         up++, s = dom->nodes[s].parent) {
        uint32_t p = dom->nodes[s].parent;
        if (p == WN_NONE || ps->boiler[s] || dom->nodes[s].tag == WN_TAG_TEXT) return WN_NONE;
        if (!opens_with_heading(d, s)) continue;
        unsigned headed = 0;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
            headed += wn_same_shape(dom, c, s) && d->stats[c].chars > 0 && opens_with_heading(d, c);
        if ((float)headed < min) continue;
        int joined = 0;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (c == s || !wn_same_shape(dom, c, s) || ps->boiler[c] || !opens_with_heading(d, c) ||
                !has_running_text(d, ps, c))
                continue;
            if (g->anchor != WN_NONE && !wn_node_within(dom, c, g->anchor) &&
                wn_holds_peer(dom, c, g->peers, g->npeers))
                continue;
            wn_keep_subtree(d, ps, c, WN_WHY_SECTIONS);
            joined = 1;
        }
        if (!joined) return WN_NONE;
        wn_keep_subtree(d, ps, s, WN_WHY_SECTIONS);
        return p;
    }
    return WN_NONE;
}
