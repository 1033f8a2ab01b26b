/* A forum thread: the best block is one post of a run of records of one
 * shape, each opening with an author and a date; the whole run is kept. */
#include "passes.h"

#include "../score/records.h"

/* Whether record r opens with a post's header: its first line of text is
 * short (COMMENT_LINE_CHARS) and shows a date or a time; and holds no
 * heading. */
static int post_header(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_dom *dom = &d->dom;
    /* a post has no headings (a teaser, a layout row, an article has) */
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++)
        if (wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING)) return 0;
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++) {
        if (dom->nodes[i].tag == WN_TAG_TEXT || d->labels.unit[i] != i || ps->own[i].chars == 0) continue;
        /* a header line, not the post's first paragraph */
        const wn_stats *s = &d->stats[i];
        if ((float)ps->own[i].chars > WN_RULE(d, COMMENT_LINE_CHARS)) return 0;
        return wn_has_date(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
    }
    return 0;
}

/* A thread of posts found with the best block in one of them: the record
 * (the best block or an ancestor, up to four levels) that has at least
 * THREAD_MIN_RECORDS - 1 siblings of its shape holding text, most of them
 * opening with a post's header (an author and a date), with less running
 * text before the first record than in it (posts that open the content, not
 * comments under a post). WN_NONE when none. */
uint32_t wn_thread_record(const winnow_doc *d, const wn_page_scores *ps, uint32_t best)
{
    const wn_dom *dom = &d->dom;
    const float min = WN_RULE(d, THREAD_MIN_RECORDS);
    if (min <= 0.0f || min > 1e6f) return WN_NONE;
    uint32_t r = best;
    for (int up = 0; (float)up < WN_RULE(d, THREAD_MAX_LEVELS) && r != WN_NONE && r != 0 && r != dom->body;
         up++, r = dom->nodes[r].parent) {
        uint32_t p = dom->nodes[r].parent;
        if (p == WN_NONE || ps->boiler[r]) return WN_NONE;
        /* records named alike: a class on each (bare <div>s are any
         * layout); a row's cells are its columns, no records */
        size_t cl = 0;
        unsigned tag = dom->nodes[r].tag;
        if (tag == WN_TAG_TD || tag == WN_TAG_TH || !wn_node_attr(dom, &dom->nodes[r], "class", &cl) || cl == 0)
            continue;
        unsigned records = 0, headed = 0, texts = 0;
        uint32_t first = WN_NONE;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (d->stats[c].chars == 0 || !wn_same_shape(dom, c, r)) continue;
            if (first == WN_NONE) first = c;
            records++;
            headed += (unsigned)post_header(d, ps, c);
            /* a post is mostly its own words, not links */
            texts += (unsigned)wn_mostly_words(d, d->stats[c].link_chars, d->stats[c].chars);
        }
        if ((float)records < min) continue;
        if ((float)headed < WN_RULE(d, COMMENT_HEADER_SHARE) * (float)records || texts < records) return WN_NONE;
        /* the running text before the first record, against the record's */
        float before = 0.0f, own = 0.0f;
        for (uint32_t i = 1; i < first + dom->nodes[first].size; i++) {
            if (d->labels.unit[i] != i || d->labels.value[i] <= 0.0f || ps->boiler[i]) continue;
            if (i < first)
                before += d->labels.value[i];
            else
                own += d->labels.value[i];
        }
        return before < own ? r : WN_NONE;
    }
    return WN_NONE;
}
