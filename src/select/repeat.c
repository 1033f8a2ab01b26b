/* After the selection: a block kept twice. A responsive page renders a
 * section once for each screen size (a product's specifications for the
 * phone and for the desktop) and its style sheet shows one; winnow reads
 * no style sheet, so the page's text holds the section two or three times.
 *
 * An element of REPEAT_MIN_CHARS characters or more with two kept units or
 * more, kept whole, whose text (the statistics' fingerprint of its
 * normalized text) is the text of the sibling just before it, kept whole
 * too, is left out. A paragraph quoted twice is one unit and stays, and so
 * does a reference's table or parameter list that recurs under another
 * function's heading: only a block of several lines right after its twin
 * is a copy. On a thread or a product's page (its type at
 * REGION_MIN_CONFIDENCE) the twin may be anywhere before: a reply quoting
 * an earlier post whole, a shop's description in a tab and again in the
 * accordion its phones show.
 *
 * Cost: two passes over the nodes. */
#include "passes.h"

#include <string.h>

/* Whether element i is a block kept whole: REPEAT_MIN_CHARS characters, two
 * kept units or more, every character kept. */
static int candidate(const winnow_doc *d, const uint32_t *kept, const uint32_t *units, uint32_t i, float min,
                     uint32_t min_units)
{
    const wn_stats *st = &d->stats[i];
    return d->dom.nodes[i].tag != WN_TAG_TEXT && units[i] >= min_units && (float)st->chars >= min &&
           kept[i] == st->chars && st->fingerprint;
}

static void drop(winnow_doc *d, uint32_t c)
{
    wn_labels *lb = &d->labels;
    for (uint32_t j = c; j < c + d->dom.nodes[c].size; j++) {
        if (d->explain && lb->unit[j] == j && lb->keep[j]) d->explain->sel_why[j] = WN_WHY_REPEATED;
        lb->keep[j] = 0;
    }
}

/* A quote's element: <blockquote>, or <aside> (Discourse's). */
static int quote_tag(unsigned t) { return t == WN_TAG_BLOCKQUOTE || t == WN_TAG_ASIDE; }

/* The quote that copy i is the body of: its quote element (up to three
 * levels up) when all the quote holds besides is an attribution of
 * COMMENT_LINE_CHARS or less ("oakleaf said:"), else i. */
static uint32_t quote_of(const winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    uint32_t q = i;
    if (WN_RULE(d, REPEAT_QUOTE_UNITS) <= 0.0f) return i;
    for (int up = 0; up < 3 && q != WN_NONE; up++, q = dom->nodes[q].parent) {
        if (!quote_tag(dom->nodes[q].tag)) continue;
        float rest = (float)d->stats[q].chars - (float)d->stats[i].chars;
        return rest <= WN_RULE(d, COMMENT_LINE_CHARS) ? q : i;
    }
    return i;
}

/* On a thread or a product's page: a block whose text was kept whole
 * anywhere before (not around it) is a quote of an earlier post, or a
 * copy of a section for another screen size. cand: the candidates, for
 * the table's size. 0, or -1 when out of memory. */
static int drop_quotes(winnow_doc *d, const uint32_t *kept, const uint32_t *units, uint32_t cand, float min,
                       uint32_t min_units)
{
    const wn_dom *dom = &d->dom;
    size_t cap = 4;
    while (cap < 2 * (size_t)cand) cap *= 2;
    uint32_t *slot = wn_arena_alloc(wn_doc_scratch(d), cap * sizeof *slot);
    if (!slot) return -1;
    memset(slot, 0xff, cap * sizeof *slot); /* WN_NONE: empty */
    for (uint32_t i = 1; i < dom->count; i++) {
        if (!candidate(d, kept, units, i, min, min_units)) continue;
        const uint64_t f = d->stats[i].fingerprint;
        size_t k = (size_t)f & (cap - 1);
        while (slot[k] != WN_NONE && d->stats[slot[k]].fingerprint != f) k = (k + 1) & (cap - 1);
        if (slot[k] == WN_NONE) {
            slot[k] = i;
        } else if (!wn_node_within(dom, slot[k], i)) { /* (a wrapper of the same text is the same block) */
            drop(d, quote_of(d, i));
            i += dom->nodes[i].size - 1;
        }
    }
    return 0;
}

/* On a thread: a quote (<blockquote>, <aside>) of QUOTE_SEEN_MIN_CHARS
 * characters or more whose kept lines are found in the page's text before
 * it, all but an attribution of COMMENT_LINE_CHARS or less: a reply
 * quoting part of an earlier post. A quote of a post on another page of
 * the thread, or of anything the page does not hold, stays. */
static void drop_seen_quotes(winnow_doc *d)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const float min = WN_RULE(d, QUOTE_SEEN_MIN_CHARS), line = WN_RULE(d, COMMENT_LINE_CHARS);
    const char *text = d->page_text.text;
    if (min <= 0.0f || !text) return;
    for (uint32_t q = 1; q < dom->count; q++) {
        if (!quote_tag(dom->nodes[q].tag) || (float)d->stats[q].chars < min) continue;
        float seen = 0.0f, rest = 0.0f;
        const uint32_t before = d->stats[q].nt_begin;
        for (uint32_t u = q; u < q + dom->nodes[q].size; u++) {
            if (lb->unit[u] != u || !lb->keep[u] || !d->stats[u].chars || dom->nodes[u].tag == WN_TAG_TEXT) continue;
            const wn_stats *s = &d->stats[u];
            size_t n = s->nt_end > s->nt_begin ? s->nt_end - s->nt_begin : 0;
            if (n >= 20 && memmem(text, before, text + s->nt_begin, n))
                seen += (float)s->chars;
            else
                rest += (float)s->chars;
        }
        if (seen >= min && rest <= line) {
            drop(d, q);
            q += dom->nodes[q].size - 1;
        }
    }
}

int wn_drop_repeated_blocks(winnow_doc *d)
{
    const float min = WN_RULE(d, REPEAT_MIN_CHARS);
    if (min <= 0.0f) return 0;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(s);
    uint32_t *kept = wn_arena_calloc(s, n, sizeof *kept);   /* kept characters in the subtree */
    uint32_t *units = wn_arena_calloc(s, n, sizeof *units); /* kept units with text in it */
    if (!kept || !units) return -1;
    /* on a thread or a product's page a copy of one unit goes too (a reply
     * quoting a one-paragraph post, REPEAT_QUOTE_UNITS); elsewhere a
     * paragraph quoted twice stays */
    const int quotes = (d->page_type == WINNOW_PAGE_FORUM || d->page_type == WINNOW_PAGE_PRODUCT) &&
                       d->page_type_conf >= WN_RULE(d, REGION_MIN_CONFIDENCE);
    const uint32_t min_units = quotes && WN_RULE(d, REPEAT_QUOTE_UNITS) > 0.0f ? 1 : 2;
    uint32_t cand = 0;
    for (uint32_t i = n; i-- > 1;) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT && lb->keep[i]) kept[i] = d->stats[i].chars;
        if (x->tag != WN_TAG_TEXT && lb->unit[i] == i && lb->keep[i] && d->stats[i].chars) units[i]++;
        if (x->tag != WN_TAG_TEXT && units[i] >= min_units && (float)d->stats[i].chars >= min &&
            kept[i] == d->stats[i].chars)
            cand++;
        kept[x->parent] += kept[i];
        units[x->parent] += units[i];
    }
    if (quotes) { /* copies anywhere before; on a thread, quotes of part of a post too */
        int r = cand >= 2 ? drop_quotes(d, kept, units, cand, min, min_units) : 0;
        wn_arena_release(s, mark);
        if (r == 0 && d->page_type == WINNOW_PAGE_FORUM) drop_seen_quotes(d);
        return r;
    }
    if (cand < 2) {
        wn_arena_release(s, mark);
        return 0;
    }
    /* each element's children in order, the last one with text at hand */
    for (uint32_t p = 0; p < n; p++) {
        if (dom->nodes[p].tag == WN_TAG_TEXT || units[p] < 4) continue;
        uint32_t prev = WN_NONE;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (!d->stats[c].chars) continue;
            uint32_t was = prev;
            prev = c;
            if (was == WN_NONE || d->stats[was].fingerprint != d->stats[c].fingerprint ||
                !candidate(d, kept, units, c, min, 2) || !candidate(d, kept, units, was, min, 2))
                continue;
            drop(d, c);
        }
    }
    wn_arena_release(s, mark);
    return 0;
}
