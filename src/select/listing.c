/* Stage 5, after the selection: a listing page, whose best block is one
 * teaser among several.
 *
 * A section front, a tag page or a blog's home page shows teasers: each a
 * headline linking to a story over a sentence or two of summary. The page
 * has no article of its own, and when the best block the scorer found is
 * the summary of one teaser, keeping it would serve a fragment of another
 * page's story as this page's content. None of the signs is a word of any
 * language:
 *
 *   - the selection keeps at most TEASER_MAX_SUMMARY characters of
 *     unlinked text in its block;
 *   - the block's first kept line follows a teaser headline: a heading
 *     element of TEASER_HEADLINE_WORDS words or more, most of its text one
 *     link to another page, and not the page's title (a post's own
 *     headline, permalinked, is the <title>'s);
 *   - the page shows LISTING_MIN_TEASERS or more such headlines under
 *     headings of one rank (its own among them: a listing's teasers are
 *     alike, a sidebar's are set apart), each followed by a summary of
 *     TEASER_MIN_SUMMARY to TEASER_MAX_SUMMARY unlinked characters.
 *
 * Then nothing is kept: the page is WINNOW_NO_MAIN, its warning names the
 * teasers, and JSON's content_source says "listing". A short article under
 * its own headline keeps its text, and an article page with a list of
 * teasers beside it keeps its article: its block is not one of them.
 *
 * Cost: nothing unless the selection is that short; then one pass over the
 * page's headings. */
#include "select.h"

#include <string.h>

/* The element holding i's text when i is wrapped alone (a <div> around a
 * heading): down through single children that hold all of it. */
static uint32_t unwrap(const wn_dom *dom, const wn_stats *st, uint32_t i)
{
    for (int depth = 0; depth < 4 && !wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING); depth++) {
        uint32_t only = WN_NONE;
        for (uint32_t c = dom->nodes[i].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (!st[c].chars) continue;
            if (only != WN_NONE || st[c].chars != st[i].chars) return i;
            only = c;
        }
        if (only == WN_NONE || dom->nodes[only].tag == WN_TAG_TEXT) return i;
        i = only;
    }
    return i;
}

/* The nearest element before i (a previous sibling of i or of one of its
 * ancestors below `top`) that holds text; WN_NONE when none. */
static uint32_t text_before(const wn_dom *dom, const wn_stats *st, uint32_t i, uint32_t top)
{
    for (uint32_t x = i; x != WN_NONE && x != top && x != 0; x = dom->nodes[x].parent) {
        uint32_t p = dom->nodes[x].parent;
        if (p == WN_NONE) break;
        uint32_t prev = WN_NONE;
        for (uint32_t c = dom->nodes[p].first_child; c != x && c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (dom->nodes[c].tag != WN_TAG_TEXT && st[c].chars && !(dom->nodes[c].flags & WN_NF_HIDDEN))
                prev = c;
            else if (dom->nodes[c].tag == WN_TAG_TEXT && st[c].chars)
                prev = WN_NONE; /* loose text between */
        if (prev != WN_NONE) return prev;
        /* loose text of the parent before x: no heading right before it */
        for (uint32_t c = dom->nodes[p].first_child; c != x && c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (st[c].chars) return WN_NONE;
    }
    return WN_NONE;
}

/* The element after heading h (its next sibling holding text, or its
 * wrapper's when h is wrapped alone) that holds h's summary; WN_NONE when
 * none. */
static uint32_t text_after(const wn_dom *dom, const wn_stats *st, uint32_t h)
{
    for (int up = 0; up < 3 && h != WN_NONE && h != 0; up++) {
        for (uint32_t c = dom->nodes[h].next_sibling; c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (st[c].chars)
                return dom->nodes[c].tag == WN_TAG_TEXT || (dom->nodes[c].flags & WN_NF_HIDDEN) ? WN_NONE : c;
        uint32_t p = dom->nodes[h].parent;
        if (p == WN_NONE || st[p].chars != st[h].chars) return WN_NONE;
        h = p;
    }
    return WN_NONE;
}

/* Whether element h is a teaser's headline: a heading of several words,
 * most of it one link to another page, not the page's title. */
static int teaser_headline(const winnow_doc *d, uint32_t h, const wn_title *tt)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_node *x = &dom->nodes[h];
    if (!wn_tag_has(x->tag, WN_TF_HEADING) || (x->flags & WN_NF_HIDDEN)) return 0;
    if (wn_word_units(st[h].words, st[h].cjk) < WN_RULE(d, TEASER_HEADLINE_WORDS)) return 0;
    /* the link: inside the heading, or the heading inside it */
    uint32_t a = WN_NONE;
    for (uint32_t i = h; i < h + x->size && a == WN_NONE; i++)
        if (dom->nodes[i].tag == WN_TAG_A && 2 * st[i].chars >= st[h].chars) a = i;
    for (uint32_t p = x->parent, up = 0; a == WN_NONE && p != WN_NONE && up < 2; p = dom->nodes[p].parent, up++)
        if (dom->nodes[p].tag == WN_TAG_A) a = p;
    if (a == WN_NONE) return 0;
    const char *href = wn_node_attr(dom, &dom->nodes[a], "href", NULL);
    if (!href || !href[0] || href[0] == '#') return 0;
    if (wn_same_page(href, d->meta.field[WINNOW_META_URL])) return 0;
    return !(tt && wn_title_like(d, h, tt));
}

/* Whether heading h over its summary makes a teaser. */
static int teaser_at(const winnow_doc *d, uint32_t h, const wn_title *tt)
{
    if (!teaser_headline(d, h, tt)) return 0;
    uint32_t s = text_after(&d->dom, d->stats, h);
    if (s == WN_NONE) return 0;
    float plain = (float)(d->stats[s].chars - d->stats[s].link_chars);
    return plain >= WN_RULE(d, TEASER_MIN_SUMMARY) && plain <= WN_RULE(d, TEASER_MAX_SUMMARY);
}

uint32_t wn_listing_teasers(const winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    const wn_stats *st = d->stats;
    uint32_t c = lb->container;
    if (c == WN_NONE || WN_RULE(d, LISTING_MIN_TEASERS) <= 0.0f) return 0;
    /* the kept text of the block, and its first kept line */
    float plain = 0.0f;
    uint32_t first = WN_NONE;
    for (uint32_t i = c; i < c + dom->nodes[c].size; i++) {
        if (!lb->keep[i] || lb->unit[i] != i || dom->nodes[i].tag == WN_TAG_TEXT) continue;
        if (lb->headline_inline != WN_NONE && wn_node_within(dom, i, lb->headline_inline)) continue;
        plain += (float)(ps->own[i].chars - ps->own[i].link_chars);
        if (first == WN_NONE && ps->own[i].chars) first = i;
        if (plain > WN_RULE(d, TEASER_MAX_SUMMARY)) return 0;
    }
    if (first == WN_NONE) return 0;
    uint64_t words[64];
    wn_title title;
    const wn_title *tt = wn_title_init(d, words, &title) ? &title : NULL;
    /* the heading right before it, above it up to the block's parent */
    uint32_t top = dom->nodes[c].parent;
    uint32_t h = text_before(dom, st, first, top == WN_NONE ? c : top);
    if (h == WN_NONE) return 0;
    h = unwrap(dom, st, h);
    if (!teaser_at(d, h, tt)) return 0;
    /* and the page's other teasers under headings of its rank (a
     * listing's teasers are alike; a sidebar's are set apart) */
    uint32_t n = 0;
    const uint16_t tag = dom->nodes[h].tag;
    for (uint32_t i = 1; i < dom->count; i++)
        if (dom->nodes[i].tag == tag && teaser_at(d, i, tt)) n++;
    return (float)n >= WN_RULE(d, LISTING_MIN_TEASERS) ? n : 0;
}
