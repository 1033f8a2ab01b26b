/* Teasers told by structure: a headline link over a short summary,
 * repeated (wn_teaser_runs), and the page's own host (wn_page_host). The
 * page view and its helpers are in records.c. */
#include "records_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- teasers: a headline link over a short summary, repeated ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t wn_page_host(winnow_doc *d)
{
    if (d->page_host) return d->page_host;
    const wn_dom *dom = &d->dom;
    if (d->src_url && wn_url_host(d->src_url) > 1) return d->page_host = wn_url_host(d->src_url);
    uint64_t host = 1;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < dom->count; i++) cap += dom->nodes[i].tag == WN_TAG_A;
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(s);
    uint64_t *h = cap ? wn_arena_alloc(s, (size_t)cap * sizeof *h) : NULL;
    if (!h) return d->page_host = host;
    uint32_t m = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (dom->nodes[i].tag != WN_TAG_A) continue;
        const char *href = wn_node_attr(dom, &dom->nodes[i], "href", NULL);
        uint64_t k = href ? wn_url_host(href) : 0;
        if (k > 1) h[m++] = k;
    }
    qsort(h, m, sizeof *h, cmp_u64);
    uint32_t best = 0;
    for (uint32_t i = 0, j; i < m; i = j) {
        for (j = i; j < m && h[j] == h[i]; j++) {}
        if (j - i > best) best = j - i, host = h[i];
    }
    wn_arena_release(s, mark);
    return d->page_host = host;
}

/* Whether a link before node `before`, from node b on, holds a picture and
 * goes where href does. */
static int picture_link(const wn_dom *dom, uint32_t b, uint32_t before, const char *href)
{
    for (uint32_t a = b; a < before; a++) {
        const wn_node *x = &dom->nodes[a];
        if (x->tag != WN_TAG_A) continue;
        const char *h = wn_node_attr(dom, x, "href", NULL);
        if (!h || strcmp(h, href) != 0) continue;
        for (uint32_t j = a + 1; j < a + x->size; j++)
            if (dom->nodes[j].tag == WN_TAG_IMG) return 1;
    }
    return 0;
}

enum { TEASER_PLAIN = 1, TEASER_CARD = 2 };

/* Whether the record of sibling elements kid[0..k) is a teaser: it opens
 * with a line that is a link of a headline's words to another page of
 * this site, and unlinked text follows in its other lines or element:
 * TEASER_CARD when a picture before the headline links the same page,
 * TEASER_PLAIN for other teasers, 0 for none. */
static int teaser_like(page *pg, const uint32_t *kid, uint32_t k)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t b = kid[0], e = kid[k - 1] + dom->nodes[kid[k - 1]].size;
    uint32_t start = st[b].nt_begin;
    for (uint32_t i = b; i < e; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || !st[i].chars || (x->flags & WN_NF_HIDDEN)) continue;
        /* the first text of the record: a headline link or no teaser */
        if (st[i].nt_begin > start + 1) return 0;
        if (x->tag != WN_TAG_A) continue;
        /* the link is its line: a link that opens a sentence ("Chapter 1
         * - gives an overview") is the text's own */
        uint32_t u = d->labels.unit[i];
        if ((double)st[i].chars < (double)WN_RULE(d, TEASER_LINK_LINE_SHARE) * pg->ps->own[u].chars) return 0;
        const char *href = wn_node_attr(dom, x, "href", NULL);
        if (!href || href[0] == '#' || !href[0]) return 0;
        /* another page of this site: a link to elsewhere is a citation */
        uint64_t host = wn_url_host(href);
        if (host == 1 || (host && host != wn_page_host(pg->d))) return 0;
        size_t n;
        const char *t = wn_text_of(d, i, &n);
        /* a name of a word or two is a headline under a picture linking
         * the same page (a card: a product's, a recipe's) */
        const int card = picture_link(dom, b, i, href);
        float min_words = WN_RULE(d, TEASER_HEADLINE_WORDS);
        if (card && WN_RULE(d, TEASER_CARD_WORDS) < min_words) min_words = WN_RULE(d, TEASER_CARD_WORDS);
        if (wn_word_units(st[i].words, st[i].cjk) < min_words || wn_has_date(t, n)) return 0;
        float summary = 0.0f;
        for (uint32_t r = 0; r < k; r++) summary += (float)(st[kid[r]].chars - st[kid[r]].link_chars);
        if (summary < WN_RULE(d, TEASER_MIN_SUMMARY) || summary > WN_RULE(d, TEASER_MAX_SUMMARY)) return 0;
        return card ? TEASER_CARD : TEASER_PLAIN;
    }
    return 0;
}

/* Text that ends cut short: "…", "...", "[…]", "[...]", "(…)". */
static int ends_cut(const char *t, size_t n)
{
    while (n && t[n - 1] == ' ') n--;
    if (n && (t[n - 1] == ']' || t[n - 1] == ')')) n--;
    return n >= 3 && (memcmp(t + n - 3, "\xe2\x80\xa6", 3) == 0 || memcmp(t + n - 3, "...", 3) == 0);
}

/* Whether the record kid[0..k) is an excerpt of another post: it holds a
 * link or a picture, and its running text is one passage cut short with
 * an ellipsis. */
static int excerpt_like(const page *pg, const uint32_t *kid, uint32_t k)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    uint32_t b = kid[0], e = kid[k - 1] + dom->nodes[kid[k - 1]].size;
    int pointer = 0, cut = 0, passages = 0;
    for (uint32_t i = b; i < e; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (x->tag == WN_TAG_IMG || (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK))) pointer = 1;
        if (d->labels.unit[i] != i) continue;
        const wn_unit_stats *o = &pg->ps->own[i];
        float plain = (float)(o->chars - o->link_chars);
        if (plain < WN_RULE(d, TEASER_MIN_SUMMARY)) continue;
        if (plain > WN_RULE(d, TEASER_MAX_EXCERPT)) return 0;
        /* a passage, not a line ending "and more ..." */
        if (plain < WN_RULE(d, TEASER_MIN_EXCERPT)) return 0;
        passages++;
        size_t n;
        const char *t = wn_text_of(d, i, &n);
        cut |= ends_cut(t, n);
    }
    return pointer && cut && passages == 1;
}

/* Teaser runs outside the regions already marked: WN_REGION_TEASER added
 * to region; kid and mass are scratch of a node each. */
int wn_teaser_runs(page *pgp, float *mass, uint32_t *kid, uint8_t *region)
{
    page pg = *pgp;
    winnow_doc *d = pg.d;
    const wn_page_scores *ps = pg.ps;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t n = dom->count;
    const float min_records = WN_RULE(d, TEASER_MIN_RECORDS);
    const uint32_t title = ps->title_heading;
    /* only on an article page: a headline that matches the title; a list
     * page's teasers are its content */
    if (title == WN_NONE || min_records > (float)n) return 0;
    const float share = WN_RULE(d, TEASER_SHARE), post_ratio = WN_RULE(d, TEASER_POST_RATIO);
    const float min_post = WN_RULE(d, COMMENT_MIN_POST);
    int found = 0;
    for (uint32_t p = 1; p < n; p++) {
        const wn_node *px = &dom->nodes[p];
        if (px->tag == WN_TAG_TEXT || region[p] || (px->flags & WN_NF_HIDDEN) || pg.pos[p] <= 0.0f ||
            (ps->boiler[p] & WN_HINT_BOILER) || wn_node_within(dom, p, title))
            continue;
        uint32_t m = 0;
        for (uint32_t c = px->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (wn_visible_element(dom, st, c)) kid[m++] = c;
        for (uint32_t s = 0; s < m;) {
            /* records of one element wn_alike to the next, or pairs (a <dt>
             * headline and its <dd>, an <h3> and its <p>) */
            uint32_t len1 = 1;
            while (s + len1 < m && wn_alike(&pg, kid[s + len1 - 1], kid[s + len1])) len1++;
            uint32_t len2 = 0;
            if (len1 == 1)
                while (s + len2 + 3 < m && wn_alike(&pg, kid[s + len2], kid[s + len2 + 2]) &&
                       dom->nodes[kid[s + len2 + 1]].tag == dom->nodes[kid[s + len2 + 3]].tag &&
                       dom->nodes[kid[s + len2]].tag != dom->nodes[kid[s + len2 + 1]].tag)
                    len2 += 2;
            uint32_t period = len2 ? 2 : 1, len = len2 ? len2 + 2 : len1;
            uint32_t count = len / period, liked = 0, excerpts = 0, cards = 0, nm = 0;
            /* (rows: a data table, not a list of stories) */
            unsigned tag = dom->nodes[kid[s]].tag;
            if ((float)count >= min_records && tag != WN_TAG_TR && tag != WN_TAG_TD && tag != WN_TAG_TH) {
                for (uint32_t r = s; r + period <= s + len; r += period) {
                    float rm = 0.0f;
                    for (uint32_t k = r; k < r + period; k++) rm += pg.pos[kid[k]];
                    mass[nm++] = rm;
                    int kind = teaser_like(&pg, kid + r, period);
                    if (kind)
                        liked++, cards += kind == TEASER_CARD;
                    else if (excerpt_like(&pg, kid + r, period))
                        liked++, excerpts++;
                }
                qsort(mass, nm, sizeof *mass, wn_cmp_float);
                /* the page's own text: running text beside the run's
                 * parent or its ancestors, more than a few records' worth */
                float beside = wn_text_beside(&pg, p, kid[s], kid[s + len - 1], 0);
                float after = wn_text_beside(&pg, p, kid[s], kid[s + len - 1], 1);
                if (after > beside) beside = after;
                /* a list of other stories stands apart: records among the
                 * paragraphs of an article (a "See also" list, links
                 * between paragraphs) are its own text */
                float run_pos = 0.0f;
                for (uint32_t k = s; k < s + len; k++) run_pos += pg.pos[kid[k]];
                float near = pg.pos[px->parent] - run_pos;
                /* excerpts cut short with an ellipsis say what they are
                 * wherever they stand */
                int cut = (float)excerpts >= WN_RULE(d, TEASER_EXCERPT_SHARE) * (float)count;
                float ratio = cut ? WN_RULE(d, TEASER_EXCERPT_POST_RATIO) : post_ratio;
                /* so do cards (a picture and a headline linking one page
                 * over a summary), set apart from the text or not */
                int apart = cut || (float)cards >= WN_RULE(d, TEASER_CARD_SHARE) * (float)count;
                if ((cut || (float)liked >= share * (float)count) && beside >= min_post &&
                    beside >= ratio * mass[nm / 2] && (apart || near < WN_RULE(d, TEASER_NEAR_TEXT) * mass[nm / 2])) {
                    uint32_t b = kid[s], e = kid[s + len - 1] + dom->nodes[kid[s + len - 1]].size;
                    for (uint32_t k = b; k < e; k++) region[k] |= WN_REGION_TEASER;
                    /* explaining: which rule made it a list of other posts */
                    if (cut && d->explain)
                        for (uint32_t k = b; k < e; k++)
                            if (!ps->boiler[k]) d->explain->boil_why[k] = WN_WHY_TEASER_EXCERPTS;
                    found += (int)count;
                }
            }
            s += len;
        }
    }
    return found;
}
