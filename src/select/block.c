/* Candidate blocks: the content is the subtree whose units' values sum
 * highest, each weighted by SELECT_DECAY per level above it (a
 * maximum-weight subtree: it takes in running text and stops where adding
 * an ancestor would bring in more boilerplate than text). Title anchoring
 * keeps the best block inside the headline's article; the page's own
 * header and footer never hold it. */
#include "passes.h"

float *wn_block_scores(winnow_doc *d)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    /* score[i]: unit values in the subtree, each weighted by DECAY^distance.
     * Running text scores its own block and, less and less, the blocks
     * above it; a list of teasers, each item a few levels down, adds little
     * to the list that holds it, while an article body whose paragraphs
     * are its children collects them all. */
    float *score = wn_arena_array(wn_doc_scratch(d), n, sizeof(float));
    if (!score) return NULL;
    for (uint32_t i = 0; i < n; i++) score[i] = lb->unit[i] == i ? lb->value[i] : 0.0f;
    const float decay = WN_RULE(d, SELECT_DECAY);
    for (uint32_t i = n; i-- > 1;) score[dom->nodes[i].parent] += decay * score[i];
    return score;
}

uint32_t wn_best_block(const winnow_doc *d, const float *score, float *best_score)
{
    const wn_dom *dom = &d->dom;
    uint32_t best = WN_NONE;
    *best_score = 0.0f;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (score[i] > *best_score) {
            *best_score = score[i];
            best = i;
        }
    }
    return best;
}

/* Title anchoring: the article is the running text under the page's
 * headline (the <h1>-<h3> whose words are the <title>'s). Its region is
 * the largest element around the headline that holds no other headline of
 * the same rank (a heading of that tag with several words): the next
 * article of an endless page, a teaser list or a bio stays outside.
 * Returns WN_NONE when the page has no such headline. */
uint32_t wn_anchor_region(const winnow_doc *d, const wn_page_scores *ps, uint32_t *peers_out, uint32_t *npeers_out)
{
    const wn_dom *dom = &d->dom;
    *npeers_out = 0;
    uint32_t h = ps->title_heading;
    if (h == WN_NONE) return WN_NONE;
    /* headlines of the same rank elsewhere, in document order */
    unsigned tag = dom->nodes[h].tag;
    uint32_t np = 0;
    const float min_words = WN_RULE(d, ANCHOR_PEER_MIN_WORDS);
    uint64_t hw[64];
    size_t hn =
        wn_words_of(d->page_text.text + d->stats[h].nt_begin, d->stats[h].nt_end - d->stats[h].nt_begin, hw, 64);
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag != tag || i == h || (x->flags & WN_NF_HIDDEN) ||
            wn_word_units(d->stats[i].words, d->stats[i].cjk) < min_words)
            continue;
        /* a reply's "Re: <headline>" in a thread is the same story */
        if (hn >= 2) {
            uint64_t pw[64];
            size_t pn = wn_words_of(d->page_text.text + d->stats[i].nt_begin, d->stats[i].nt_end - d->stats[i].nt_begin,
                                    pw, 64);
            if ((float)wn_words_shared(hw, hn, pw, pn) >= WN_RULE(d, TITLE_WORD_SHARE) * (float)hn) continue;
        }
        peers_out[np++] = i;
    }
    *npeers_out = np;
    uint32_t a = h, next = 0; /* next: first peer at or after a's start */
    for (;;) {
        uint32_t p = dom->nodes[a].parent;
        if (p == WN_NONE || p == 0) break;
        uint32_t end = p + dom->nodes[p].size;
        while (next < np && peers_out[next] < p) next++;
        if (next < np && peers_out[next] < end) break; /* p holds another headline */
        a = p;
    }
    return a;
}

int wn_holds_peer(const wn_dom *dom, uint32_t c, const uint32_t *peers, uint32_t np)
{
    for (uint32_t k = 0; k < np; k++)
        if (wn_node_within(dom, c, peers[k])) return 1;
    return 0;
}

/* The best block outside the page's header and footer: WN_NONE when no
 * block there has a positive score. */
uint32_t wn_best_outside_frames(const winnow_doc *d, const float *score, const uint8_t *frame)
{
    const wn_dom *dom = &d->dom;
    uint32_t best = WN_NONE;
    float best_score = 0.0f;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN) || frame[i]) continue;
        if (score[i] > best_score) {
            best_score = score[i];
            best = i;
        }
    }
    return best;
}

/* A data table's body (or head or foot) found as the best block comes
 * with its table: the caption and the header row, which score little or
 * nothing (short labels), name the columns of the data the body holds. */
uint32_t wn_whole_table(const winnow_doc *d, uint32_t b)
{
    const wn_dom *dom = &d->dom;
    if (b == WN_NONE || WN_RULE(d, TABLE_WHOLE) <= 0.0f) return b;
    unsigned t = dom->nodes[b].tag;
    if (t != WN_TAG_TBODY && t != WN_TAG_THEAD && t != WN_TAG_TFOOT) return b;
    uint32_t p = dom->nodes[b].parent;
    if (p == WN_NONE || (dom->nodes[p].flags & WN_NF_HIDDEN) || !wn_data_table(d, p)) return b;
    return p;
}

/* Whether element t is a data table: a <table> with a caption or header
 * cells, the markup of data (a layout table has neither). */
int wn_data_table(const winnow_doc *d, uint32_t t)
{
    const wn_dom *dom = &d->dom;
    if (t == WN_NONE || dom->nodes[t].tag != WN_TAG_TABLE) return 0;
    for (uint32_t i = t + 1; i < t + dom->nodes[t].size; i++) {
        unsigned g = dom->nodes[i].tag;
        if (g == WN_TAG_TABLE)
            i += dom->nodes[i].size - 1; /* a nested table's are its own */
        else if (g == WN_TAG_CAPTION || g == WN_TAG_TH || g == WN_TAG_THEAD)
            return 1;
    }
    return 0;
}
