/* The page type stage (contract in pagetype.h): one pass over the DOM for
 * markup counts, microdata and og:type, one over the page text for prices,
 * the URL's path words, then a dot product per kind. */
#include "pagetype.h"
#include "../score/records.h"
#include "../util/token.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The features, in the order of the vector and of a model file's header.
 * Counts enter as log1p(count) / scale so that every value is about in
 * [0, 1] (one regularisation strength suits them all); shares and flags
 * as they are. */
/* clang-format off */
#define PT_FEATURES(X)                                                                                                 \
    X(chars) X(link_share) X(links) X(images) X(paragraphs) X(p_share) X(p_avg)                                        \
    X(headings) X(h1) X(list_items) X(tables) X(forms) X(inputs) X(buttons)                                            \
    X(pre) X(code_share) X(articles) X(times) X(navs) X(asides) X(quotes) X(comments)                                  \
    X(prices) X(has_price) X(run_max) X(run_records) X(run_share) X(dated_records) X(meta_author)                      \
    X(meta_date)                                                                                                       \
    X(ld_article) X(ld_tech) X(ld_product) X(ld_rating) X(ld_qa) X(ld_discussion)                                      \
    X(ld_comment) X(ld_list) X(ld_faq) X(ld_org) X(ld_breadcrumb) X(ld_webpage)                                        \
    X(ld_howto) X(ld_person)                                                                                           \
    X(md_article) X(md_tech) X(md_product) X(md_rating) X(md_qa) X(md_discussion)                                      \
    X(md_comment) X(md_list) X(md_faq) X(md_org) X(md_breadcrumb) X(md_webpage)                                        \
    X(md_howto) X(md_person)                                                                                           \
    X(og_article) X(og_product) X(og_website) X(og_other)                                                              \
    X(url_forum) X(url_product) X(url_docs) X(url_listing) X(url_article) X(url_date)                                  \
    X(url_service) X(url_root) X(url_depth) X(url_slug) X(url_id)
/* clang-format on */

#define PT_ENUM(n) F_##n,
enum { PT_FEATURES(PT_ENUM) F_COUNT };
#define PT_NAME(n) #n,
static const char *const feature_names[F_COUNT] = { PT_FEATURES(PT_NAME) };

_Static_assert(F_COUNT <= WN_PT_MAX_FEATURES, "WN_PT_MAX_FEATURES too small");
/* the two schema blocks follow WN_SCHEMA_* order */
_Static_assert(F_ld_person - F_ld_article + 1 == WN_SCHEMA_COUNT, "ld_* features out of step with WN_SCHEMA_*");
_Static_assert(F_md_person - F_md_article + 1 == WN_SCHEMA_COUNT, "md_* features out of step with WN_SCHEMA_*");

unsigned wn_pt_feature_count(void) { return F_COUNT; }
const char *wn_pt_feature_name(unsigned k) { return k < F_COUNT ? feature_names[k] : ""; }

static float lg(double count, double scale)
{
    float v = (float)(log1p(count) / scale);
    return v > 1.5f ? 1.5f : v;
}

/* ---- the URL's path words ---- */

/* Generic words of a path segment that name a kind of page on any site. */
static const char *const url_forum[] = { "forum",     "forums",     "thread",      "threads",   "t",
                                         "topic",     "topics",     "questions",   "question",  "q",
                                         "community", "discussion", "discussions", "board",     "boards",
                                         "viewtopic", "showthread", "comments",    "showtopic", "talk",
                                         "discuss",   NULL };
static const char *const url_product[] = { "product", "products", "p",   "dp",  "shop", "store",
                                           "item",    "items",    "buy", "sku", NULL };
static const char *const url_docs[] = { "docs",  "doc",    "documentation", "api",        "reference", "manual",
                                        "guide", "guides", "developer",     "developers", "sdk",       "wiki",
                                        "kb",    "help",   "learn",         "tutorial",   "tutorials", NULL };
static const char *const url_listing[] = { "category", "categories", "collections", "collection", "search",
                                           "tag",      "tags",       "archive",     "archives",   "c",
                                           "list",     "browse",     "page",        "author",     NULL };
static const char *const url_article[] = { "blog", "news",  "article", "articles", "story", "stories",
                                           "post", "posts", "press",   "insights", NULL };
static const char *const url_service[] = { "services", "service",    "solutions", "solution", "pricing",
                                           "features", "about",      "contact",   "company",  "industries",
                                           "platform", "enterprise", NULL };

static int word_in(const char *s, size_t n, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (strlen(list[k]) == n && !strncasecmp(list[k], s, n)) return 1;
    return 0;
}

static void url_features(const char *url, float *x)
{
    if (!url || !*url) return;
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    p = strchr(p, '/'); /* past the host */
    if (!p) {
        x[F_url_root] = 1;
        return;
    }
    const char *end = p + strcspn(p, "?#");
    unsigned segments = 0;
    int root = 1;
    while (p < end) {
        while (p < end && *p == '/') p++;
        const char *s = p;
        while (p < end && *p != '/') p++;
        size_t n = (size_t)(p - s);
        if (!n) continue;
        segments++;
        /* the first word, before an extension or a slug: forum.php,
         * index.html, thread-222085.html */
        size_t w = 0;
        while (w < n && s[w] != '.' && s[w] != '-' && s[w] != '_') w++;
        if (!(w == 5 && !strncasecmp(s, "index", 5))) root = 0;
        if (word_in(s, w, url_forum)) x[F_url_forum] = 1;
        if (word_in(s, w, url_product)) x[F_url_product] = 1;
        if (word_in(s, w, url_docs)) x[F_url_docs] = 1;
        if (word_in(s, w, url_listing)) x[F_url_listing] = 1;
        if (word_in(s, w, url_article)) x[F_url_article] = 1;
        if (word_in(s, w, url_service)) x[F_url_service] = 1;
        unsigned digits = 0, hyphens = 0;
        for (size_t k = 0; k < n; k++) {
            digits += s[k] >= '0' && s[k] <= '9';
            hyphens += s[k] == '-' || s[k] == '_';
        }
        /* a year as a segment of its own: dated stories */
        if (n == 4 && digits == 4 && (s[0] == '1' || s[0] == '2') && (s[1] == '9' || s[1] == '0'))
            x[F_url_date] = 1;
        else if (digits >= 4 && digits * 2 >= n)
            x[F_url_id] = 1;
        if (hyphens >= 3) x[F_url_slug] = 1; /* a title written into the path */
    }
    x[F_url_root] = (float)root;
    x[F_url_depth] = segments >= 6 ? 1.0f : (float)segments / 6.0f;
}

/* ---- prices ---- */

/* Length of a currency sign at t (0 when none). */
static size_t currency_at(const char *t, size_t n)
{
    if (t[0] == '$') return 1;
    if (n >= 2 && (unsigned char)t[0] == 0xC2 && ((unsigned char)t[1] == 0xA3 || (unsigned char)t[1] == 0xA5))
        return 2; /* pound, yen */
    if (n >= 3 && (unsigned char)t[0] == 0xE2 && (unsigned char)t[1] == 0x82 &&
        ((unsigned char)t[2] == 0xAC || (unsigned char)t[2] == 0xB9))
        return 3; /* euro, rupee */
    if (n >= 3 && (!memcmp(t, "usd", 3) || !memcmp(t, "eur", 3) || !memcmp(t, "gbp", 3))) return 3;
    return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Amounts with a currency sign before or after them ($12, 12,99 EUR). */
static unsigned count_prices(const char *t, size_t n)
{
    unsigned prices = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c != '$' && c != 0xC2 && c != 0xE2 && c != 'u' && c != 'e' && c != 'g') continue;
        size_t k = currency_at(t + i, n - i);
        if (!k) continue;
        size_t after = i + k;
        if (after < n && t[after] == ' ') after++;
        int before = i >= 1 && (is_digit(t[i - 1]) || (i >= 2 && t[i - 1] == ' ' && is_digit(t[i - 2])));
        if ((after < n && is_digit(t[after])) || before) prices++;
        i += k - 1;
    }
    return prices;
}

/* ---- the DOM ---- */

/* Whether two elements have the same tag and class attribute. */
static int same_shape(const wn_dom *dom, const wn_node *a, const wn_node *b)
{
    if (a->tag != b->tag || (a->tag == WN_TAG_UNKNOWN && strcmp(a->name, b->name))) return 0;
    size_t la = 0, lb = 0;
    const char *ca = wn_node_attr(dom, a, "class", &la), *cb = wn_node_attr(dom, b, "class", &lb);
    if (!ca || !cb) return !ca && !cb;
    return la == lb && !memcmp(ca, cb, la);
}

typedef struct runs {
    unsigned max_run; /* longest run of same-shaped siblings with text */
    unsigned records; /* records of runs of 3 or more holding 40+ characters each on average */
    uint64_t chars;   /* their text */
    unsigned dated;   /* the most records of one such run that open with a date (a thread's posts) */
} runs;

/* Whether record c's text opens with a date within its first
 * PT_DATE_SPAN characters: a post's header (an author, a date). */
#define PT_DATE_SPAN 160
static int opens_dated(const winnow_doc *d, uint32_t c)
{
    const wn_stats *s = &d->stats[c];
    if (!d->page_text.text || s->nt_end <= s->nt_begin) return 0;
    size_t n = s->nt_end - s->nt_begin;
    return wn_has_date(d->page_text.text + s->nt_begin, n < PT_DATE_SPAN ? n : PT_DATE_SPAN);
}

/* The records of a run, from its first, that open with a date. */
static unsigned dated_in_run(const winnow_doc *d, uint32_t first, unsigned run)
{
    const wn_dom *dom = &d->dom;
    unsigned dated = 0;
    for (uint32_t c = first; c != WN_NONE && run; c = dom->nodes[c].next_sibling) {
        const wn_node *x = &dom->nodes[c];
        if (x->tag == WN_TAG_TEXT || x->tag == WN_TAG_SCRIPT || x->tag == WN_TAG_STYLE) continue;
        dated += d->stats[c].chars >= 40 && opens_dated(d, c);
        run--;
    }
    return dated;
}

/* Runs of same-shaped element children of p: listings' cards, threads' posts. */
static void child_runs(const winnow_doc *d, uint32_t p, runs *r)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t prev = WN_NONE, run = 0, first = WN_NONE;
    uint64_t run_chars = 0;
    for (uint32_t c = dom->nodes[p].first_child;; c = dom->nodes[c].next_sibling) {
        int end = c == WN_NONE;
        const wn_node *x = end ? NULL : &dom->nodes[c];
        if (x && (x->tag == WN_TAG_TEXT || x->tag == WN_TAG_SCRIPT || x->tag == WN_TAG_STYLE)) continue;
        if (x && st[c].chars > 0 && prev != WN_NONE && same_shape(dom, &dom->nodes[prev], x)) {
            run++;
            run_chars += st[c].chars;
        } else {
            if (run > r->max_run) r->max_run = run;
            if (run >= 3 && run_chars >= 40u * run) {
                r->records += run;
                r->chars += run_chars;
                /* dates only where the run could hold more than the best,
                 * and not in a run of paragraphs (prose, no records) */
                if (run > r->dated && dom->nodes[first].tag != WN_TAG_P) {
                    unsigned dated = dated_in_run(d, first, run);
                    if (dated > r->dated) r->dated = dated;
                }
            }
            run = x && st[c].chars > 0 ? 1 : 0;
            run_chars = run ? st[c].chars : 0;
            first = c;
        }
        if (end) break;
        prev = c;
    }
}

static void schema_features(uint32_t bits, float *x, int first)
{
    for (int k = 0; k < WN_SCHEMA_COUNT; k++)
        if (bits & (1u << k)) x[first + k] = 1;
}

void wn_pt_features(winnow_doc *d, float *x)
{
    memset(x, 0, sizeof *x * F_COUNT);
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t body = dom->body < dom->count ? dom->body : 0;
    double chars = st[body].chars;
    unsigned paragraphs = 0, headings = 0, h1 = 0, items = 0, tables = 0, forms = 0, inputs = 0, buttons = 0;
    unsigned pre = 0, articles = 0, times = 0, navs = 0, asides = 0, quotes = 0;
    uint64_t p_chars = 0, code_chars = 0;
    uint32_t code_end = 0; /* end of the <pre>/<code> being counted: nested ones are inside it */
    uint32_t md = 0;
    runs r = { 0, 0, 0, 0 };
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *n = &dom->nodes[i];
        if (n->tag == WN_TAG_TEXT) continue;
        switch (n->tag) {
        case WN_TAG_P:
            paragraphs++;
            p_chars += st[i].chars;
            break;
        case WN_TAG_H1:
            h1++;
            headings++;
            break;
        case WN_TAG_H2:
        case WN_TAG_H3:
        case WN_TAG_H4:
        case WN_TAG_H5:
        case WN_TAG_H6: headings++; break;
        case WN_TAG_LI: items++; break;
        case WN_TAG_TABLE: tables++; break;
        case WN_TAG_FORM: forms++; break;
        /* (<select> and <textarea> are dropped with their subtree at build:
         * never seen here) */
        case WN_TAG_INPUT: inputs++; break;
        case WN_TAG_BUTTON: buttons++; break;
        case WN_TAG_ARTICLE: articles++; break;
        case WN_TAG_TIME: times++; break;
        case WN_TAG_NAV: navs++; break;
        case WN_TAG_ASIDE: asides++; break;
        case WN_TAG_BLOCKQUOTE: quotes++; break;
        case WN_TAG_PRE:
        case WN_TAG_CODE:
            if (n->tag == WN_TAG_PRE) pre++;
            if (i >= code_end) {
                code_chars += st[i].chars;
                code_end = i + n->size;
            }
            break;
        case WN_TAG_META:
            if (n->attr_count) {
                const char *key = wn_node_attr(dom, n, "property", NULL);
                if (key && !strcasecmp(key, "og:type")) {
                    const char *v = wn_node_attr(dom, n, "content", NULL);
                    if (!v) break;
                    if (!strncasecmp(v, "article", 7) || !strncasecmp(v, "blog", 4))
                        x[F_og_article] = 1;
                    else if (strcasestr(v, "product"))
                        x[F_og_product] = 1;
                    else if (!strcasecmp(v, "website"))
                        x[F_og_website] = 1;
                    else
                        x[F_og_other] = 1;
                }
            }
            break;
        default: break;
        }
        if (n->attr_count) {
            size_t len = 0;
            const char *it = wn_node_attr(dom, n, "itemtype", &len);
            /* one or more type URLs, space separated */
            for (size_t k = 0; it && k < len;) {
                while (k < len && it[k] == ' ') k++;
                size_t s = k;
                while (k < len && it[k] != ' ') k++;
                if (k > s) md |= wn_schema_bits(it + s, k - s);
            }
        }
        if (n->first_child != WN_NONE && n->first_child != n->last_child) child_runs(d, i, &r);
    }
    x[F_chars] = lg(chars, 12);
    x[F_link_share] = chars > 0 ? (float)(st[body].link_chars / chars) : 0;
    x[F_links] = lg(st[body].links, 8);
    x[F_images] = lg(st[body].images, 7);
    x[F_paragraphs] = lg(paragraphs, 6);
    x[F_p_share] = chars > 0 ? (float)(p_chars > chars ? 1.0 : (double)p_chars / chars) : 0;
    x[F_p_avg] = paragraphs ? lg((double)p_chars / paragraphs, 7) : 0;
    x[F_headings] = lg(headings, 5);
    x[F_h1] = h1 >= 3 ? 1.0f : (float)h1 / 3.0f;
    x[F_list_items] = lg(items, 7);
    x[F_tables] = lg(tables, 4);
    x[F_forms] = lg(forms, 3);
    x[F_inputs] = lg(inputs, 5);
    x[F_buttons] = lg(buttons, 5);
    x[F_pre] = lg(pre, 4);
    x[F_code_share] = chars > 0 ? (float)(code_chars > chars ? 1.0 : (double)code_chars / chars) : 0;
    x[F_articles] = lg(articles, 4);
    x[F_times] = lg(times, 5);
    x[F_navs] = lg(navs, 3);
    x[F_asides] = lg(asides, 3);
    x[F_quotes] = lg(quotes, 4);
    x[F_comments] = lg((double)d->ncomments, 4);
    unsigned prices = d->page_text.text ? count_prices(d->page_text.text, d->page_text.len) : 0;
    x[F_prices] = lg(prices, 4);
    x[F_has_price] = prices > 0;
    x[F_run_max] = lg(r.max_run, 5);
    x[F_run_records] = lg(r.records, 6);
    x[F_run_share] = chars > 0 ? (float)(r.chars > chars ? 1.0 : (double)r.chars / chars) : 0;
    x[F_dated_records] = lg(r.dated, 5);
    x[F_meta_author] = d->meta.field[WINNOW_META_AUTHOR] && *d->meta.field[WINNOW_META_AUTHOR];
    x[F_meta_date] = d->meta.field[WINNOW_META_DATE] && *d->meta.field[WINNOW_META_DATE];
    schema_features(d->meta.ld_types, x, F_ld_article);
    schema_features(md, x, F_md_article);
    /* the caller's URL, else the page's own word on it (canonical, og:url) */
    const char *url = d->src_url;
    if ((!url || !*url) && d->meta.field[WINNOW_META_URL]) url = d->meta.field[WINNOW_META_URL];
    url_features(url, x);
}

/* ---- the model ---- */

static const char *const type_names[WINNOW_PAGE_TYPE_COUNT] = { "unknown", "article",       "forum",   "product",
                                                                "listing", "documentation", "service", "other" };

const char *winnow_page_type_name(winnow_page_type t)
{
    return (int)t >= 0 && t < WINNOW_PAGE_TYPE_COUNT ? type_names[t] : "";
}

winnow_page_type winnow_page_type_parse(const char *name)
{
    for (int t = 1; name && t < WINNOW_PAGE_TYPE_COUNT; t++)
        if (!strcmp(name, type_names[t])) return (winnow_page_type)t;
    return WINNOW_PAGE_UNKNOWN;
}

unsigned wn_pt_predict(const wn_pt_model *m, const float *x, double *p)
{
    double sum = 0;
    for (unsigned k = 0; k < m->nclass; k++) {
        double z = m->w[k][F_COUNT];
        for (unsigned f = 0; f < F_COUNT; f++) z += m->w[k][f] * x[f];
        p[k] = 1.0 / (1.0 + exp(-z));
        sum += p[k];
    }
    unsigned best = 0;
    for (unsigned k = 0; k < m->nclass; k++) {
        p[k] = sum > 0 ? p[k] / sum : 1.0 / m->nclass;
        if (p[k] > p[best]) best = k;
    }
    return best;
}

int wn_pagetype_run(winnow_doc *d, const wn_pt_model *m, int forced)
{
    d->page_type_x = NULL;
    if (forced > WINNOW_PAGE_UNKNOWN && forced < WINNOW_PAGE_TYPE_COUNT) {
        d->page_type = forced;
        d->page_type_conf = 1.0f;
        return 0;
    }
    d->page_type = WINNOW_PAGE_UNKNOWN;
    d->page_type_conf = 0;
    float *x = wn_arena_alloc(&d->arena, sizeof *x * F_COUNT);
    if (!x) return -1;
    wn_pt_features(d, x);
    d->page_type_x = x;
    if (m && m->nclass) {
        double p[WINNOW_PAGE_TYPE_COUNT];
        unsigned best = wn_pt_predict(m, x, p);
        d->page_type = m->kind[best];
        d->page_type_conf = (float)p[best];
    }
    return 0;
}

#define MODEL_MAGIC "winnow-pagetype 1"

size_t wn_pt_model_write(const wn_pt_model *m, char *out, size_t cap)
{
    size_t w = 0;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int k_ = snprintf(out ? out + (w < cap ? w : cap) : NULL, out && w < cap ? cap - w : 0, __VA_ARGS__);          \
        if (k_ > 0) w += (size_t)k_;                                                                                   \
    } while (0)
    PUT("%s\nfeatures %u", MODEL_MAGIC, (unsigned)F_COUNT);
    for (unsigned f = 0; f < F_COUNT; f++) PUT(" %s", feature_names[f]);
    PUT("\n");
    for (unsigned k = 0; k < m->nclass; k++) {
        PUT("kind %s", winnow_page_type_name((winnow_page_type)m->kind[k]));
        for (unsigned f = 0; f <= F_COUNT; f++) PUT(" %.6g", m->w[k][f]);
        PUT("\n");
    }
#undef PUT
    return w;
}

/* The next whitespace-separated token of text[*at..n) into tok (cut to cap). */
int wn_pt_model_parse(const char *text, size_t n, wn_pt_model *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    size_t at = 0;
    char tok[64];
    if (n < strlen(MODEL_MAGIC) || memcmp(text, MODEL_MAGIC, strlen(MODEL_MAGIC))) {
        snprintf(err, cap, "not a page type model (no \"%s\" line)", MODEL_MAGIC);
        return -1;
    }
    at = strlen(MODEL_MAGIC);
    unsigned nf = 0;
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "features") ||
        !wn_next_token(text, n, &at, tok, sizeof tok) || sscanf(tok, "%u", &nf) != 1 || nf != F_COUNT) {
        snprintf(err, cap, "the model has another number of features than this build's %u", (unsigned)F_COUNT);
        return -1;
    }
    for (unsigned f = 0; f < F_COUNT; f++)
        if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, feature_names[f])) {
            snprintf(err, cap, "the model's feature %u is not this build's %s", f, feature_names[f]);
            return -1;
        }
    while (wn_next_token(text, n, &at, tok, sizeof tok)) {
        if (strcmp(tok, "kind") || m->nclass >= WINNOW_PAGE_TYPE_COUNT ||
            !wn_next_token(text, n, &at, tok, sizeof tok)) {
            snprintf(err, cap, "a line of the model is not \"kind NAME WEIGHTS\"");
            return -1;
        }
        winnow_page_type t = winnow_page_type_parse(tok);
        if (t == WINNOW_PAGE_UNKNOWN) {
            snprintf(err, cap, "the model names an unknown kind of page \"%s\"", tok);
            return -1;
        }
        m->kind[m->nclass] = (int)t;
        for (unsigned f = 0; f <= F_COUNT; f++) {
            char *e = NULL;
            double v = 0;
            if (wn_next_token(text, n, &at, tok, sizeof tok)) v = strtod(tok, &e);
            if (!e || e == tok || *e) {
                snprintf(err, cap, "the model's weights for %s are cut short or not numbers", winnow_page_type_name(t));
                return -1;
            }
            m->w[m->nclass][f] = v;
        }
        m->nclass++;
    }
    if (m->nclass < 2) {
        snprintf(err, cap, "the model scores fewer than two kinds of page");
        return -1;
    }
    return 0;
}
