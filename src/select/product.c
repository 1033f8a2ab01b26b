/* The product strategy: a shop's page of one product keeps its name, price,
 * description and specifications, not the shop around them (reviews,
 * other products, delivery and returns, the basket's controls).
 *
 *   1. the region strategy's selection (region.c): every part of the
 *      page's content region that is not its frame;
 *   2. lists in the region that are not the product's: an element of
 *      PRODUCT_RUN_MIN or more children of which PRODUCT_RUN_SHARE are
 *      dated posts with running text (reviews, questions) or cards of
 *      other products (a link, a picture, a price, at most
 *      PRODUCT_CARD_WORDS words) loses them, and the heading that opened
 *      the list when nothing of it is left; a review the page declares
 *      (schema.org microdata) goes too, and so do the reviews its names
 *      declare (PRODUCT_REVIEW_NAMES, wn_dom_reviews; the fallback
 *      takes no candidate there either);
 *   3. the product's anchors, from evidence every shop writes the same
 *      way: its name (the <h1>, the one naming the JSON-LD Product when
 *      several do, PRODUCT_NAME_SHARE) and its description (the smallest
 *      element quoting PRODUCT_DESC_SHARE of the first words of the JSON-LD
 *      Product's description, else the microdata's description, else
 *      the element quoting the page's <meta> description);
 *   4. the core: the smallest element holding both anchors. Going up from
 *      it to the region, each level's other children stay only when they
 *      are a section of the product: running text (PRODUCT_SECTION_PROSE)
 *      or specifications (PRODUCT_SPEC_ROWS key/value rows), or a heading
 *      opening such a section. The rest (a gallery's controls, a delivery
 *      box, a promise of free returns) goes.
 *
 * Without both anchors (or with a description that only repeats the
 * name) step 4 does not run: the region's parts stay, less step 2's
 * lists. */
#include "passes.h"
#include "strategy.h"

#include "../score/records.h"
#include "../text/words.h"

#include <string.h>
#include <strings.h>

enum { NAME_WORDS = 32, DESC_WORDS = 24, UNIT_WORDS = 256 };

/* Words of node i's text, at most cap. */
static size_t node_words(const winnow_doc *d, uint32_t i, uint64_t *out, size_t cap)
{
    const wn_stats *s = &d->stats[i];
    return wn_words_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, out, cap);
}

/* Whether element i is shown: neither it nor an ancestor hidden. */
static int shown(const wn_dom *dom, uint32_t i)
{
    for (uint32_t a = i; a != WN_NONE; a = dom->nodes[a].parent)
        if (dom->nodes[a].flags & WN_NF_HIDDEN) return 0;
    return 1;
}

/* The product's name: the shown <h1> naming the JSON-LD Product (most of
 * its words), else the first shown <h1> with text. */
static uint32_t name_anchor(const winnow_doc *d)
{
    const wn_dom *dom = &d->dom;
    uint64_t nw[NAME_WORDS], hw[NAME_WORDS];
    size_t nn = d->meta.ld_product_name
                    ? wn_words_of(d->meta.ld_product_name, strlen(d->meta.ld_product_name), nw, NAME_WORDS)
                    : 0;
    uint32_t first = WN_NONE;
    for (uint32_t i = dom->body; i < dom->body + dom->nodes[dom->body].size; i++) {
        if (dom->nodes[i].tag != WN_TAG_H1 || d->stats[i].chars == 0 || !shown(dom, i)) continue;
        if (first == WN_NONE) first = i;
        if (!nn) break;
        size_t nh = node_words(d, i, hw, NAME_WORDS);
        if ((float)wn_words_shared(nw, nn, hw, nh) >= WN_RULE(d, PRODUCT_NAME_SHARE) * (float)nn) return i;
    }
    return first;
}

/* Whether element i declares a schema.org type of which name is the last
 * part ("https://schema.org/Product"). */
static int itemtype_is(const wn_dom *dom, uint32_t i, const char *name)
{
    size_t n = 0;
    const char *t = wn_node_attr(dom, &dom->nodes[i], "itemtype", &n);
    size_t k = strlen(name);
    if (!t || n < k) return 0;
    /* a list of types: any of them */
    for (const char *p = t; (p = strstr(p, name)) != NULL; p += k) {
        char before = p > t ? p[-1] : '/';
        char after = p[k];
        if ((before == '/' || before == ':' || before == '#') && (after == '\0' || after == ' ')) return 1;
    }
    return 0;
}

/* The microdata description of a Product: the shown element with
 * itemprop=description inside an itemscope of type Product. */
static uint32_t microdata_description(const winnow_doc *d)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = dom->body; i < dom->body + dom->nodes[dom->body].size; i++) {
        if (dom->nodes[i].tag == WN_TAG_TEXT || !itemtype_is(dom, i, "Product")) continue;
        for (uint32_t k = i + 1; k < i + dom->nodes[i].size; k++) {
            const char *p = wn_node_attr(dom, &dom->nodes[k], "itemprop", NULL);
            if (p && !strcasecmp(p, "description") && d->stats[k].chars > 0 && shown(dom, k)) return k;
        }
    }
    return WN_NONE;
}

/* The smallest shown element quoting the most of desc's first words, at
 * least PRODUCT_DESC_SHARE of them; WN_NONE when none does. */
static uint32_t quoting_element(const winnow_doc *d, const char *desc)
{
    uint64_t dw[DESC_WORDS], uw[UNIT_WORDS];
    size_t nd = desc ? wn_words_of(desc, strlen(desc), dw, DESC_WORDS) : 0;
    if ((float)nd < WN_RULE(d, FALLBACK_DESC_MIN_WORDS)) return WN_NONE;
    const wn_dom *dom = &d->dom;
    uint32_t best = WN_NONE;
    size_t best_shared = 0;
    const size_t need = (size_t)(WN_RULE(d, PRODUCT_DESC_SHARE) * (float)nd + 0.999f);
    for (uint32_t i = dom->body; i < dom->body + dom->nodes[dom->body].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || d->stats[i].words < need) continue;
        if (x->flags & WN_NF_HIDDEN) {
            i += x->size - 1;
            continue;
        }
        size_t nu = node_words(d, i, uw, UNIT_WORDS);
        size_t shared = wn_words_shared(dw, nd, uw, nu);
        /* in document order, a descendant quoting as much is smaller */
        if (shared >= best_shared && shared >= need) {
            best_shared = shared;
            best = i;
        }
    }
    return best;
}

static uint32_t description_anchor(const winnow_doc *d)
{
    uint32_t u = quoting_element(d, d->meta.ld_product_desc);
    if (u == WN_NONE) u = microdata_description(d);
    if (u == WN_NONE) u = quoting_element(d, d->meta.field[WINNOW_META_DESCRIPTION]);
    return u;
}

static uint32_t common_ancestor(const wn_dom *dom, uint32_t a, uint32_t b)
{
    while (a != WN_NONE && !wn_node_within(dom, a, b)) a = dom->nodes[a].parent;
    return a;
}

/* Whether element i is a key/value pair: two parts with text (cells, a
 * label and its value), no loose text beside them, no links. */
static int pair(const winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    unsigned parts = 0, full = 0;
    for (uint32_t k = dom->nodes[i].first_child; k != WN_NONE && parts <= 2; k = dom->nodes[k].next_sibling) {
        if (dom->nodes[k].tag == WN_TAG_TEXT) {
            if (d->stats[k].chars > 0) return 0;
            continue;
        }
        parts++;
        full += d->stats[k].chars > 0 && !(dom->nodes[k].flags & WN_NF_HIDDEN);
    }
    return parts == 2 && full == 2 && d->stats[i].links == 0;
}

/* The most key/value rows of one list under c: a definition list's terms,
 * or sibling pairs of one shape (a table's rows of two cells, a label over
 * its value). */
static unsigned spec_rows(const winnow_doc *d, uint32_t c)
{
    const wn_dom *dom = &d->dom;
    unsigned most = 0;
    for (uint32_t i = c; i < c + dom->nodes[c].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT) continue;
        if (x->flags & WN_NF_HIDDEN) {
            i += x->size - 1;
            continue;
        }
        unsigned rows = 0;
        uint32_t first = WN_NONE;
        for (uint32_t k = x->first_child; k != WN_NONE; k = dom->nodes[k].next_sibling) {
            const wn_node *y = &dom->nodes[k];
            if (y->tag == WN_TAG_TEXT || (y->flags & WN_NF_HIDDEN)) continue;
            if (y->tag == WN_TAG_DT)
                rows += d->stats[k].chars > 0;
            else if (pair(d, k) && (first == WN_NONE || wn_same_shape(dom, first, k))) {
                if (first == WN_NONE) first = k;
                rows++;
            }
        }
        if (rows > most) most = rows;
    }
    return most;
}

/* Running text kept under c: the positive values of its kept units. */
static float kept_prose(const winnow_doc *d, const wn_page_scores *ps, uint32_t c)
{
    const wn_dom *dom = &d->dom;
    float prose = 0.0f;
    for (uint32_t i = c; i < c + dom->nodes[c].size; i++)
        if (d->labels.unit[i] == i && d->labels.keep[i] && ps->raw[i] > 0.0f) prose += ps->raw[i];
    return prose;
}

static int kept_any(const winnow_doc *d, uint32_t c)
{
    for (uint32_t i = c; i < c + d->dom.nodes[c].size; i++)
        if (d->labels.keep[i]) return 1;
    return 0;
}

/* Whether c is a section of the product: running text or specifications. */
static int product_section(const winnow_doc *d, const wn_page_scores *ps, uint32_t c)
{
    if (kept_prose(d, ps, c) >= WN_RULE(d, PRODUCT_SECTION_PROSE)) return 1;
    return (float)spec_rows(d, c) >= WN_RULE(d, PRODUCT_SPEC_ROWS);
}

/* Whether c is (or wraps no more than) a heading. */
static int heading_only(const winnow_doc *d, uint32_t c)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = c; i < c + dom->nodes[c].size; i++)
        if (wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING)) return d->stats[i].chars == d->stats[c].chars;
    return 0;
}

/* Leaves out subtree c (explaining: for reason why). */
static void drop_subtree(winnow_doc *d, uint32_t c, uint8_t why)
{
    if (d->explain)
        for (uint32_t i = c; i < c + d->dom.nodes[c].size; i++)
            if (d->labels.keep[i] && d->labels.unit[i] == i) d->explain->sel_why[i] = why;
    memset(d->labels.keep + c, 0, d->dom.nodes[c].size);
}

/* Whether the case-folded text t[0..n) shows a price: a currency sign or
 * an ISO 4217 code of a common currency next to a digit ("$22", "12,99 €",
 * "eur 15.49"). */
static int has_price(const char *t, size_t n)
{
    static const char *const signs[] = { "$",
                                         "\xe2\x82\xac",
                                         "\xc2\xa3",
                                         "\xc2\xa5",
                                         "\xe2\x82\xb9",
                                         "\xe2\x82\xa9",
                                         "\xe2\x82\xbd",
                                         "\xe2\x82\xba",
                                         "\xe2\x82\xaa",
                                         "usd",
                                         "eur",
                                         "gbp",
                                         "jpy",
                                         "chf",
                                         "aud",
                                         "cad",
                                         "sek",
                                         "nok",
                                         "dkk",
                                         "pln",
                                         "inr",
                                         "cny",
                                         NULL };
    for (int k = 0; signs[k]; k++) {
        size_t len = strlen(signs[k]);
        for (const char *p = t; p + len <= t + n && (p = memmem(p, (size_t)(t + n - p), signs[k], len)) != NULL; p++) {
            int word = len == 3 && wn_ascii_alnum((unsigned char)signs[k][0]);
            /* a code is a word of its own */
            if (word &&
                ((p > t && wn_ascii_alnum((unsigned char)p[-1])) ||
                 (p + len < t + n && wn_ascii_alnum((unsigned char)p[len]) && !(p[len] >= '0' && p[len] <= '9'))))
                continue;
            const char *a = p + len, *b = p;
            while (a < t + n && *a == ' ') a++;
            while (b > t && b[-1] == ' ') b--;
            if ((a < t + n && *a >= '0' && *a <= '9') || (b > t && b[-1] >= '0' && b[-1] <= '9')) return 1;
        }
    }
    return 0;
}

/* Whether record r is another product's card: a link, a picture, a price
 * and few words (its name). */
static int card(const winnow_doc *d, uint32_t r)
{
    const wn_stats *s = &d->stats[r];
    return s->links > 0 && s->images > 0 && (float)s->words <= WN_RULE(d, PRODUCT_CARD_WORDS) &&
           has_price(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
}

/* Whether record r is a dated post (a review, an answer): a date beside
 * running text of its own, not a table's row. */
static int dated(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *s = &d->stats[r];
    if (s->chars == 0 || dom->nodes[r].tag == WN_TAG_TR || (float)spec_rows(d, r) >= WN_RULE(d, PRODUCT_SPEC_ROWS))
        return 0;
    int prose = 0;
    for (uint32_t i = r; i < r + dom->nodes[r].size && !prose; i++)
        prose = d->labels.unit[i] == i && dom->nodes[i].tag != WN_TAG_TEXT && ps->raw[i] > 0.0f;
    return prose && wn_has_date(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
}

/* Lists in the region: an element of PRODUCT_RUN_MIN or more children
 * with text, PRODUCT_RUN_SHARE of which are dated posts (reviews) or
 * cards (other products), loses those children. Returns the children
 * dropped. */
static unsigned drop_lists(winnow_doc *d, const wn_page_scores *ps, uint32_t region, const uint8_t *named)
{
    const wn_dom *dom = &d->dom;
    const float min = WN_RULE(d, PRODUCT_RUN_MIN), share = WN_RULE(d, PRODUCT_RUN_SHARE);
    unsigned dropped = 0;
    for (uint32_t p = region; p < region + dom->nodes[region].size; p++) {
        const wn_node *x = &dom->nodes[p];
        if (x->tag == WN_TAG_TEXT) continue;
        if (x->flags & WN_NF_HIDDEN) {
            p += x->size - 1;
            continue;
        }
        /* a review the page declares (schema.org microdata) */
        const char *prop = wn_node_attr(dom, x, "itemprop", NULL);
        if ((prop && (!strcasecmp(prop, "review") || !strcasecmp(prop, "reviews"))) || itemtype_is(dom, p, "Review") ||
            (named && p != region && named[p])) {
            drop_subtree(d, p, WN_WHY_PRODUCT_LIST);
            dropped++;
            p += x->size - 1;
            continue;
        }
        unsigned n = 0, dates = 0, cards = 0;
        for (uint32_t c = x->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (d->stats[c].chars == 0 || (dom->nodes[c].flags & WN_NF_HIDDEN)) continue;
            n++;
            if (dom->nodes[c].tag == WN_TAG_TEXT) continue;
            dates += dated(d, ps, c);
            cards += card(d, c);
        }
        int reviews = (float)dates >= min && (float)dates >= share * (float)n;
        int others = (float)cards >= min && (float)cards >= share * (float)n;
        if (!reviews && !others) continue;
        for (uint32_t c = x->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (dom->nodes[c].tag != WN_TAG_TEXT && (reviews ? dated(d, ps, c) : card(d, c))) {
                drop_subtree(d, c, WN_WHY_PRODUCT_LIST);
                dropped++;
            }
        /* the heading that opened the list, now that nothing of it is
         * left: "You may also like", "Reviews" */
        for (uint32_t a = p; a != region && !kept_any(d, a); a = dom->nodes[a].parent) {
            uint32_t prev = WN_NONE;
            for (uint32_t c = dom->nodes[dom->nodes[a].parent].first_child; c != a; c = dom->nodes[c].next_sibling)
                if (dom->nodes[c].tag != WN_TAG_TEXT && kept_any(d, c)) prev = c;
            if (prev != WN_NONE && heading_only(d, prev)) {
                drop_subtree(d, prev, WN_WHY_PRODUCT_LIST);
                break;
            }
        }
    }
    return dropped;
}

/* Step 3 at one level: the kept children of a's parent other than a stay
 * when they are sections of the product, or a heading opening one (or
 * opening a). */
static void keep_sections(winnow_doc *d, const wn_page_scores *ps, uint32_t a)
{
    const wn_dom *dom = &d->dom;
    /* the kept child before this one, when it is only a heading: it
     * stays with a section after it */
    uint32_t heading = WN_NONE;
    for (uint32_t c = dom->nodes[dom->nodes[a].parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (dom->nodes[c].tag == WN_TAG_TEXT || !kept_any(d, c)) continue;
        int section = c == a || product_section(d, ps, c);
        if (heading != WN_NONE && !section) drop_subtree(d, heading, WN_WHY_PRODUCT_ASIDE);
        heading = WN_NONE;
        if (section) continue;
        if (heading_only(d, c))
            heading = c;
        else
            drop_subtree(d, c, WN_WHY_PRODUCT_ASIDE);
    }
    if (heading != WN_NONE) drop_subtree(d, heading, WN_WHY_PRODUCT_ASIDE);
}

int wn_select_product(wn_selection *sel)
{
    winnow_doc *d = sel->d;
    const wn_page_scores *ps = sel->ps;
    const wn_dom *dom = &d->dom;
    sel->parts_always = 1;
    if (wn_select_region(sel) != 0) return -1;
    uint32_t region = sel->region;
    if (region == WN_NONE) return 0;
    /* reviews by name (wn_dom_reviews), unless the region lies in them:
     * names that say nothing; the fallback reads them too (scratch, until
     * the selection gives it back) */
    uint8_t *named = NULL;
    if (WN_RULE(d, PRODUCT_REVIEW_NAMES) > 0.0f) {
        if (!(named = wn_arena_array(wn_doc_scratch(d), dom->count, 1))) return -1;
        wn_dom_reviews(dom, named);
        if (named[region]) named = NULL;
    }
    d->labels.reviews = named;
    drop_lists(d, ps, region, named);
    uint32_t name = name_anchor(d);
    uint32_t desc = description_anchor(d);
    /* a description that only repeats the name says nothing of where the
     * product's text is */
    if (name == WN_NONE || desc == WN_NONE || wn_node_within(dom, name, desc)) return 0;
    uint32_t core = common_ancestor(dom, name, desc);
    if (core == WN_NONE || !wn_node_within(dom, region, core)) return 0;
    for (uint32_t a = core; a != region; a = dom->nodes[a].parent) keep_sections(d, ps, a);
    return 0;
}
