/* Which units are kept: inside the content block by their value and
 * shape, in siblings that join the block, and around it (a standfirst, a
 * lone paragraph in site mode, an inline run straddling its start). */
#include "passes.h"

#include "../text/sentence.h"
#include "../util/token.h"

#include <string.h>

/* Whether unit u's text ends a sentence (wn_ends_sentence()). */
int wn_ends_sentence_unit(const winnow_doc *d, uint32_t u)
{
    return wn_ends_sentence(d->page_text.text + d->stats[u].nt_begin, d->stats[u].nt_end - d->stats[u].nt_begin);
}

/* Whether the one link in unit u shows an address as its text (a URL, a
 * mail address): written out by the author as part of the sentence, not a
 * way through the site. */
static int address_link(const winnow_doc *d, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = u; i < u + dom->nodes[u].size; i++) {
        if (dom->nodes[i].tag != WN_TAG_A || !(dom->nodes[i].flags & WN_NF_LINK)) continue;
        const char *t = d->page_text.text + d->stats[i].nt_begin;
        size_t n = d->stats[i].nt_end - d->stats[i].nt_begin;
        while (n && *t == ' ') {
            t++;
            n--;
        }
        while (n && t[n - 1] == ' ') n--;
        if (n < 6 || memchr(t, ' ', n)) return 0;
        return memmem(t, n, "://", 3) != NULL || (n > 4 && memcmp(t, "www.", 4) == 0) ||
               (memchr(t, '@', n) != NULL && memchr(t, '.', n) != NULL);
    }
    return 0;
}

/* Whether unit u may be kept inside the content block: 0 not, else why
 * (KEEP_RUNNING, KEEP_FRAGMENT, KEEP_CELL). */
/* Whether unit u is a header cell of a data table inside the content
 * block whose only boilerplate is its own header name ("headerSort"): a
 * <th> is a header; that is no page header (TABLE_HEADER_NAME). */
static int named_header_cell(const winnow_doc *d, const wn_page_scores *ps, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    if (dom->nodes[u].tag != WN_TAG_TH || ps->boiler[u] != WN_HINT_HEADER || WN_RULE(d, TABLE_HEADER_NAME) <= 0.0f)
        return 0;
    uint32_t row = dom->nodes[u].parent;
    return row != WN_NONE && !ps->boiler[row];
}

int wn_unit_keepable(const winnow_doc *d, const wn_page_scores *ps, uint32_t u)
{
    return wn_unit_keepable_pardoned(d, ps, u, 0);
}

int wn_unit_keepable_pardoned(const winnow_doc *d, const wn_page_scores *ps, uint32_t u, uint16_t pardon)
{
    const wn_unit_stats *o = &ps->own[u];
    if (o->chars == 0) return 0;
    if ((ps->boiler[u] & ~pardon) && !named_header_cell(d, ps, u)) return 0;
    if (d->labels.value[u] > 0) return KEEP_RUNNING;
    /* short plain fragments inside the content (subheadings, table cells,
     * captions) stay; link lists do not */
    if ((float)o->link_chars <= WN_RULE(d, KEEP_FRAGMENT_MAX_LINKS) * (float)o->chars) return KEEP_FRAGMENT;
    const wn_dom *dom = &d->dom;
    unsigned tag = dom->nodes[u].tag;
    /* a heading that links the page itself or its own anchor */
    if (wn_tag_has(tag, WN_TF_HEADING) && wn_self_linked(d, u, 0)) return KEEP_FRAGMENT;
    /* a sentence around one link ("On Saturday the director told Bild
     * that ...", "Download: <a>the installer</a>.", "It is explained
     * here: <a>https://...</a>"): one link is no list */
    if (d->stats[u].links == 1 && o->stops > 0 && !wn_tag_has(tag, WN_TF_HEADING) &&
        (float)(o->chars - o->link_chars) >= WN_RULE(d, ONE_LINK_PLAIN_CHARS) &&
        (wn_ends_sentence_unit(d, u) || address_link(d, u)))
        return KEEP_FRAGMENT;
    /* a table is data: a cell that is a link (a film title, an infobox
     * value) stays when its table is not mostly links */
    if (tag != WN_TAG_TD && tag != WN_TAG_TH) return 0;
    uint32_t t = dom->nodes[u].parent;
    for (int up = 0; t != WN_NONE && t != 0 && dom->nodes[t].tag != WN_TAG_TABLE && up < 3; up++)
        t = dom->nodes[t].parent;
    if (t == WN_NONE || t == 0 || dom->nodes[t].tag != WN_TAG_TABLE) return 0;
    /* a data table sits inside the content block, or is it (the block is
     * the table, its body or a row); a table around the block is layout */
    uint32_t c = d->labels.container;
    if (c == WN_NONE) return 0;
    int data =
        wn_node_within(dom, c, t) || (wn_tag_has(dom->nodes[c].tag, WN_TF_TABLE) && dom->nodes[c].tag != WN_TAG_TD &&
                                      dom->nodes[c].tag != WN_TAG_TH && wn_node_within(dom, t, c));
    if (!data) return 0;
    return (float)d->stats[t].link_chars <= WN_RULE(d, TABLE_CELL_MAX_LINKS) * (float)d->stats[t].chars ? KEEP_CELL : 0;
}

/* Explaining: unit u is kept for reason why (running text), or as a
 * fragment or a table cell (how, from wn_unit_keepable). */
void wn_explain_keep(winnow_doc *d, uint32_t u, int how, uint8_t why)
{
    if (!d->explain) return;
    d->explain->sel_why[u] = how == KEEP_FRAGMENT ? WN_WHY_FRAGMENT_KEPT : how == KEEP_CELL ? WN_WHY_TABLE_CELL : why;
}

/* The first token of a class list v[0..n): *len bytes at the result. */
static const char *first_class(const char *v, size_t n, size_t *len)
{
    size_t a = 0;
    while (a < n && wn_token_space(v[a])) a++;
    size_t e = a;
    while (e < n && !wn_token_space(v[e])) e++;
    *len = e - a;
    return v + a;
}

/* Elements a and b: the same tag, and the same class list (or, with
 * first_only, the same first class token), or both without one. */
static int same_class(const wn_dom *dom, uint32_t a, uint32_t b, int first_only)
{
    const wn_node *x = &dom->nodes[a], *y = &dom->nodes[b];
    if (x->tag != y->tag || x->tag == WN_TAG_TEXT) return 0;
    size_t la = 0, lb = 0;
    const char *ca = wn_node_attr(dom, x, "class", &la), *cb = wn_node_attr(dom, y, "class", &lb);
    if (!ca || !cb) return !ca && !cb;
    if (first_only) {
        ca = first_class(ca, la, &la);
        cb = first_class(cb, lb, &lb);
    }
    return la == lb && memcmp(ca, cb, la) == 0;
}

/* Two elements of one shape: the same tag and the same class list. */
int wn_same_shape(const wn_dom *dom, uint32_t a, uint32_t b) { return same_class(dom, a, b, 0); }

/* Two elements of one kind: the same tag and the same first class (a
 * shop's cards add each item's id, category and stock to "product"). */
int wn_same_kind(const wn_dom *dom, uint32_t a, uint32_t b) { return same_class(dom, a, b, 1); }

/* Keep the units of subtree r (explaining: running text for reason why). */
void wn_keep_subtree(winnow_doc *d, const wn_page_scores *ps, uint32_t r, uint8_t why)
{
    const wn_node *c = &d->dom.nodes[r];
    for (uint32_t i = r; i < r + c->size; i++) {
        if (d->explain) d->explain->in_block[i] = 1;
        int how;
        if (d->labels.unit[i] == i && (how = wn_unit_keepable(d, ps, i))) {
            d->labels.keep[i] = 1;
            wn_explain_keep(d, i, how, why);
        }
    }
}

/* Siblings of self scoring at least min (and with shape, of self's tag
 * and class) join the content: their units are kept. Returns how many. */
int wn_join_siblings(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t self, float min, int shape,
                     const wn_join_guard *g, uint8_t why)
{
    const wn_dom *dom = &d->dom;
    uint32_t parent = dom->nodes[self].parent;
    if (parent == WN_NONE || parent == 0 || (dom->nodes[parent].flags & WN_NF_HIDDEN)) return 0;
    int joined = 0;
    for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (c == self || dom->nodes[c].tag == WN_TAG_TEXT || (shape && !wn_same_shape(dom, c, self))) continue;
        if (g->anchor != WN_NONE && !wn_node_within(dom, c, g->anchor) && wn_holds_peer(dom, c, g->peers, g->npeers))
            continue;
        if (score[c] >= min && !ps->boiler[c]) {
            wn_keep_subtree(d, ps, c, why);
            joined++;
        }
    }
    return joined;
}

/* Site mode: long paragraphs outside the content block that no other page
 * of the site has (a video's caption, a note beside the article) are
 * content too, unless they sit among links (teaser lists). Values are in
 * characters of plain text, after the x1.5 a unique unit gets: 300 is about
 * 200 characters of running text. */
void wn_keep_lone_paragraphs(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    int added = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (lb->unit[i] != i || lb->keep[i] || !lb->unique[i] || ps->boiler[i] ||
            lb->value[i] < WN_RULE(d, LONE_MIN_VALUE))
            continue;
        uint32_t p = dom->nodes[i].parent;
        if (p == WN_NONE ||
            (float)d->stats[p].link_chars >= WN_RULE(d, LONE_MAX_LINK_DENSITY) * (float)d->stats[p].chars)
            continue;
        lb->keep[i] = 1;
        wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_LONE);
        added = 1;
    }
    /* the walk then covers the whole body, keeping only what is marked;
     * the headline, already marked, comes out in its place */
    if (added) {
        lb->container = dom->body;
        lb->headline = WN_NONE;
    }
}

/* Between a headline found outside the content block and the block itself:
 * running text there (a standfirst, a summary, a video's description) is
 * the article's, unless it sits among links or is a photo's caption. 100 is
 * about 20 words of plain text (letters, not spaces). */
void wn_keep_standfirst(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t h = lb->headline, c = lb->container;
    int added = 0;
    for (uint32_t i = h + dom->nodes[h].size; i < c; i++) {
        if (lb->unit[i] != i || lb->keep[i] || ps->boiler[i] || lb->value[i] < WN_RULE(d, STANDFIRST_MIN_VALUE))
            continue;
        if (i + dom->nodes[i].size > c) continue; /* an ancestor of the container */
        /* a caption: text in a box with an image, or in a figure; unless
         * the box is a video player's fallback (<object>), whose text
         * describes the video shown in its place */
        int caption = 0, player = 0;
        for (uint32_t a = i; a != WN_NONE && !wn_node_within(dom, a, c); a = dom->nodes[a].parent) {
            unsigned t = dom->nodes[a].tag;
            caption |= t == WN_TAG_FIGURE || t == WN_TAG_FIGCAPTION || d->stats[a].images ||
                       (d->stats[a].hints & WN_HINT_META);
            player |= t == WN_TAG_OBJECT;
        }
        if (caption && !player) continue;
        uint32_t p = dom->nodes[i].parent;
        if (p == WN_NONE ||
            (float)d->stats[p].link_chars >= WN_RULE(d, LONE_MAX_LINK_DENSITY) * (float)d->stats[p].chars)
            continue;
        lb->keep[i] = 1;
        wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_STANDFIRST);
        added = 1;
    }
    if (!added) return;
    /* a listicle's items before the block (its photo gallery): a heading
     * whose next unit with text was kept here (only this pass keeps units
     * between the headline and the block) is that text's heading
     * (STANDFIRST_HEADINGS) */
    if (WN_RULE(d, STANDFIRST_HEADINGS) > 0.0f) {
        uint32_t next = WN_NONE; /* the next unit with text after i */
        for (uint32_t i = c; i-- > h + dom->nodes[h].size;) {
            if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
            uint32_t after = next;
            next = i;
            if (after == WN_NONE || lb->keep[i] || !lb->keep[after] || ps->boiler[i] ||
                !wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING) || ps->own[i].link_chars || i + dom->nodes[i].size > c ||
                wn_node_within(dom, i, after))
                continue;
            lb->keep[i] = 1;
            wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_STANDFIRST);
        }
    }
    /* the walk covers the ancestor holding both, keeping only what is
     * marked; the headline comes out in its place */
    uint32_t a = c;
    while (a != WN_NONE && !wn_node_within(dom, a, h)) a = dom->nodes[a].parent;
    if (a == WN_NONE) a = dom->body;
    lb->container = a;
    lb->headline = WN_NONE;
}

/* An inline run that begins before the content block and goes on in it
 * ("16 January 2008 - <span class=story>The Council today ...<p>...") is
 * one unit rooted above the block: its text inside the block is the
 * block's first lines, kept when STRADDLE_MIN_CHARS long. */
int wn_keep_straddling(winnow_doc *d, const wn_page_scores *ps, uint32_t best)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    /* the straddling units are ancestors of the block: their text inside
     * it, counted by the unit's depth */
    const uint32_t end = best + dom->nodes[best].size, depth = dom->nodes[best].depth;
    float *inside = wn_arena_calloc(wn_doc_scratch(d), (size_t)depth + 1, sizeof(float));
    if (!inside) return -1;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = best + 1; i < end; i++) {
            uint32_t u = lb->unit[i];
            if (dom->nodes[i].tag != WN_TAG_TEXT || lb->keep[i] || u == WN_NONE || u >= best) continue;
            if (!wn_node_within(dom, u, best) || ps->after_marker[i]) continue;
            if (pass == 0)
                inside[dom->nodes[u].depth] += (float)d->stats[i].chars;
            else if (inside[dom->nodes[u].depth] >= WN_RULE(d, STRADDLE_MIN_CHARS) && wn_unit_keepable(d, ps, u))
                lb->keep[i] = 1;
        }
    return 0;
}
