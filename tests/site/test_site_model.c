/* Site models in memory (winnow_site_new, winnow_site_learn,
 * winnow_site_templates, winnow_extract_site): ageing of template evidence,
 * duplicates, leave-one-out, and what site mode keeps and drops.
 *
 * Ageing: a count made at page clock t is worth 2^-((T - t) / half_life)
 * at clock T, and so is the page mass; a fingerprint is template while its
 * aged document frequency is at least 10% of the aged page mass (and at
 * least 2 pages). So after a redesign, template A's blocks stop being
 * template once enough pages of template B have been learned; with a long
 * half-life they stay template. */
#include <math.h>

#include "check.h"
#include "site/model.h"
#include "site/site_api.h"
#include "site_pages.h"
#include "winnow.h"

static winnow_engine *engine;

static double geometric(unsigned n, double h)
{
    double s = 0;
    for (unsigned i = 0; i < n; i++) s += exp2(-(double)i / h);
    return s;
}

static int learn(winnow_site *s, char t, unsigned k, const char *url)
{
    size_t len;
    char *html = site_page(t, k, &len);
    winnow_input in = { sizeof in, html, len, NULL, url };
    int counted = -1;
    winnow_status st = winnow_site_learn(engine, s, &in, &counted);
    free(html);
    if (st != WINNOW_OK) {
        fprintf(stderr, "learn %c%u: %s: %s\n", t, k, winnow_status_name(st), winnow_engine_error(engine));
        return -1;
    }
    return counted;
}

static void learn_range(winnow_site *s, char t, unsigned from, unsigned to)
{
    for (unsigned k = from; k < to; k++) CHECK_EQ(learn(s, t, k, NULL), 1);
}

/* Text of page (t, k) with a site model (NULL: page mode), malloc'd. */
static char *extract_with(const winnow_site *s, char t, unsigned k, winnow_mode mode, int exclude_self)
{
    size_t len;
    char *html = site_page(t, k, &len);
    winnow_input in = { sizeof in, html, len, NULL, NULL };
    winnow_site_options o;
    winnow_site_options_default(&o, sizeof o);
    o.mode = mode;
    o.exclude_self = exclude_self;
    winnow_doc *d = NULL;
    winnow_status st = s ? winnow_extract_site(engine, &in, s, &o, &d) : winnow_extract(engine, &in, &d);
    free(html);
    if (WINNOW_FAILED(st)) {
        fprintf(stderr, "extract %c%u: %s\n", t, k, winnow_engine_error(engine));
        return strdup("");
    }
    char *text = NULL;
    winnow_render_alloc(d, WINNOW_FORMAT_TEXT, &text, NULL);
    winnow_doc_free(d);
    return text ? text : strdup("");
}

/* ---- template listing ---- */

typedef struct find_ctx {
    const char *kind;
    const char *prefix; /* case-folded start of the sample */
    double df;
    int found;
} find_ctx;

static int find_row(void *ctx, const char *kind, double df, const char *sample)
{
    find_ctx *f = ctx;
    if (!strcmp(kind, f->kind) && !strncmp(sample, f->prefix, strlen(f->prefix))) {
        f->found++;
        f->df = df;
    }
    return 0;
}

/* Aged document frequency of the block whose sample starts with prefix,
 * among the fingerprints listed at min_share; -1 when it is not listed. */
static double listed_df(const winnow_site *s, double min_share, const char *kind, const char *prefix)
{
    find_ctx f = { kind, prefix, 0, 0 };
    if (winnow_site_templates(s, min_share, find_row, &f) != WINNOW_OK) return -2;
    return f.found ? f.df : -1;
}

/* samples are the case-folded text */
static const char note_a[] = "the millbrook courier has been written, edited and printed";
static const char note_b[] = "courier online is supported by readers who pay";
static const char nav_a[] = "home local news politics business culture sport weather opinion";
static const char nav_b[] = "front page region economy arts and books games climate letters podcasts";
static const char footer_a[] = "copyright 2024 the millbrook courier";
static const char footer_b[] = "courier online, 12 quay road";

static void check_article_kept(const char *text, char t, unsigned k)
{
    for (unsigned i = 0;; i++) {
        char *p = site_page_paragraph(t, k, i);
        if (!p) break;
        CHECK_HAS(text, p);
        free(p);
    }
}

/* ---- tests ---- */

static void test_page_mass_ages(void)
{
    winnow_site *s = NULL;
    winnow_site_new("ageing.example", 20, &s);
    CHECK(s != NULL);
    CHECK_STR(winnow_site_name(s), "ageing.example");
    CHECK(winnow_site_pages(s) == 0);
    for (unsigned n = 1; n <= 60; n++) {
        CHECK_EQ(learn(s, 'A', n, NULL), 1);
        if (fabs(winnow_site_pages(s) - geometric(n, 20)) > 1e-9) {
            fprintf(stderr, "after %u pages: %.12f, expected %.12f\n", n, winnow_site_pages(s), geometric(n, 20));
            CHECK(!"aged page mass");
            break;
        }
    }
    /* the mass converges to 1 / (1 - 2^(-1/h)), about h / ln 2 */
    CHECK(winnow_site_pages(s) < 1.0 / (1.0 - exp2(-1.0 / 20)));
    winnow_site_free(s);

    /* half_life 0 means the default, 1000 pages */
    winnow_site_new("default.example", 0, &s);
    learn_range(s, 'A', 0, 10);
    CHECK(fabs(winnow_site_pages(s) - geometric(10, 1000)) < 1e-9);
    winnow_site_free(s);
}

/* The aged document frequency of a block that was on every A page follows
 * the formula exactly, page after page of B. */
static void test_df_formula(void)
{
    const double h = 20;
    winnow_site *s = NULL;
    winnow_site_new("formula.example", h, &s);
    learn_range(s, 'A', 0, 30);
    double df0 = geometric(30, h);
    CHECK(fabs(listed_df(s, 0.0, "block", note_a) - df0) < 1e-9);
    CHECK(fabs(listed_df(s, 0.0, "chunk", note_a) - df0) < 1e-9);
    for (unsigned m = 1; m <= 40; m++) {
        CHECK_EQ(learn(s, 'B', m, NULL), 1);
        double want = df0 * exp2(-(double)m / h);
        double got = listed_df(s, 0.0, "block", note_a);
        if (fabs(got - want) > 1e-9) {
            fprintf(stderr, "after %u B pages: df %.12f, expected %.12f\n", m, got, want);
            CHECK(!"aged document frequency");
            break;
        }
    }
    winnow_site_free(s);
}

/* A's blocks leave the template list exactly when their aged frequency
 * falls under 10% of the aged page mass. */
static void test_fade_point(void)
{
    const double h = 20;
    winnow_site *s = NULL;
    winnow_site_new("fade.example", h, &s);
    learn_range(s, 'A', 0, 30);
    double dfa = geometric(30, h);
    unsigned expected = 0;
    for (unsigned m = 1; m < 1000 && !expected; m++) {
        double df = dfa * exp2(-(double)m / h), pages = geometric(30 + m, h);
        double threshold = 0.1 * pages < 2 ? 2 : 0.1 * pages;
        if (df + 1e-9 < threshold) expected = m;
    }
    CHECK(expected > 5 && expected < 200);
    unsigned left = 0;
    for (unsigned m = 1; m <= expected + 5; m++) {
        CHECK_EQ(learn(s, 'B', m, NULL), 1);
        int listed = listed_df(s, 0.1, "block", note_a) > 0;
        if (!listed && !left) left = m;
        if (listed && left) CHECK(!"A's note came back into the template list");
    }
    if (left != expected)
        fprintf(stderr, "A's note left the template list after %u B pages, expected %u\n", left, expected);
    CHECK_EQ(left, expected);
    winnow_site_free(s);
}

/* min_share 0 lists every fingerprint (winnow.h: "whose document
 * frequency is at least min_share of its pages"; `winnow site --all`:
 * "every fingerprint"), faded ones included. */
static void test_templates_min_share_zero(void)
{
    winnow_site *s = NULL;
    winnow_site_new("all.example", 20, &s);
    learn_range(s, 'A', 0, 30);
    learn_range(s, 'B', 0, 150);
    double old = listed_df(s, 0.0, "block", note_a);
    double want = geometric(30, 20) * exp2(-150.0 / 20);
    if (fabs(old - want) > 1e-9)
        fprintf(stderr, "A's note (aged df %.4f) is %s with min_share 0\n", want,
                old < 0 ? "not listed" : "listed wrong");
    CHECK(fabs(old - want) < 1e-9);
    winnow_site_free(s);
}

/* Redesign with a short half-life: A's template ages out, B's takes over,
 * in the template list and in what extraction keeps. */
static void test_redesign_short_half_life(void)
{
    winnow_site *s = NULL;
    winnow_site_new("short.example", 20, &s);
    learn_range(s, 'A', 0, 30);
    CHECK(listed_df(s, 0.1, "block", note_a) > 0);
    CHECK(listed_df(s, 0.1, "chunk", nav_a) > 0 || listed_df(s, 0.1, "block", nav_a) > 0);
    CHECK(listed_df(s, 0.1, "block", footer_a) > 0);
    char *t = extract_with(s, 'A', 500, WINNOW_MODE_SITE, 0);
    CHECK_LACKS(t, "Millbrook Courier has been written");
    check_article_kept(t, 'A', 500);
    free(t);

    learn_range(s, 'B', 0, 150);
    CHECK_EQ(listed_df(s, 0.1, "block", note_a), -1);
    CHECK_EQ(listed_df(s, 0.1, "block", footer_a), -1);
    CHECK_EQ(listed_df(s, 0.1, "chunk", nav_a), -1);
    CHECK(listed_df(s, 0.1, "block", note_b) > 0);
    CHECK(listed_df(s, 0.1, "block", footer_b) > 0);
    CHECK(listed_df(s, 0.1, "chunk", nav_b) > 0 || listed_df(s, 0.1, "block", nav_b) > 0);

    /* an A page now: its note is no longer template, so the page scorer's
     * verdict stands and the note is kept, as in page mode */
    t = extract_with(s, 'A', 501, WINNOW_MODE_SITE, 0);
    CHECK_HAS(t, "Millbrook Courier has been written");
    check_article_kept(t, 'A', 501);
    free(t);
    /* a B page: B's note is template */
    t = extract_with(s, 'B', 502, WINNOW_MODE_SITE, 0);
    CHECK_LACKS(t, "Courier Online is supported by readers");
    CHECK_LACKS(t, "Registered charity");
    check_article_kept(t, 'B', 502);
    free(t);
    /* in page mode both notes are kept */
    t = extract_with(NULL, 'B', 502, WINNOW_MODE_PAGE, 0);
    CHECK_HAS(t, "Courier Online is supported by readers");
    free(t);
    winnow_site_free(s);
}

/* The same history with a long half-life: A's template is still template. */
static void test_redesign_long_half_life(void)
{
    const double lives[] = { 0 /* default, 1000 */, 1e6 };
    for (size_t i = 0; i < 2; i++) {
        winnow_site *s = NULL;
        winnow_site_new("long.example", lives[i], &s);
        learn_range(s, 'A', 0, 30);
        learn_range(s, 'B', 0, 150);
        CHECK(listed_df(s, 0.1, "block", note_a) > 0);
        CHECK(listed_df(s, 0.1, "block", footer_a) > 0);
        CHECK(listed_df(s, 0.1, "block", note_b) > 0);
        char *t = extract_with(s, 'A', 501, WINNOW_MODE_SITE, 0);
        CHECK_LACKS(t, "Millbrook Courier has been written");
        check_article_kept(t, 'A', 501);
        free(t);
        t = extract_with(s, 'B', 502, WINNOW_MODE_SITE, 0);
        CHECK_LACKS(t, "Courier Online is supported by readers");
        check_article_kept(t, 'B', 502);
        free(t);
        winnow_site_free(s);
    }
}

/* Site mode against page mode on the same pages: the note is kept by the
 * page scorer and dropped with the site model; the article stays. */
static void test_site_mode_drops_note(void)
{
    winnow_site *s = NULL;
    winnow_site_new("mode.example", 0, &s);
    learn_range(s, 'A', 0, 20);
    for (unsigned k = 0; k < 25; k++) { /* 20 learned pages, 5 new ones */
        char *page = extract_with(NULL, 'A', k, WINNOW_MODE_PAGE, 0);
        char *site = extract_with(s, 'A', k, WINNOW_MODE_SITE, 0);
        char *autom = extract_with(s, 'A', k, WINNOW_MODE_AUTO, 0);
        CHECK_HAS(page, "Millbrook Courier has been written");
        CHECK_LACKS(site, "Millbrook Courier has been written");
        CHECK_LACKS(site, "Copyright 2024");
        CHECK_LACKS(site, "Local news");
        CHECK_LACKS(site, "Related stories");
        CHECK_STR(autom, site); /* 20 pages >= min_pages */
        check_article_kept(page, 'A', k);
        check_article_kept(site, 'A', k);
        free(page);
        free(site);
        free(autom);
    }
    /* mode page ignores the model */
    char *p1 = extract_with(NULL, 'A', 3, WINNOW_MODE_PAGE, 0), *p2 = extract_with(s, 'A', 3, WINNOW_MODE_PAGE, 0);
    CHECK_STR(p2, p1);
    free(p1);
    free(p2);
    winnow_site_free(s);
}

static void test_duplicates_counted_once(void)
{
    winnow_site *s = NULL;
    winnow_site_new("dup.example", 0, &s);
    learn_range(s, 'A', 0, 10);
    double pages = winnow_site_pages(s);
    double df = listed_df(s, 0.0, "block", note_a);
    /* the same page again, and under another URL */
    CHECK_EQ(learn(s, 'A', 4, NULL), 0);
    CHECK_EQ(learn(s, 'A', 4, "https://dup.example/other-url"), 0);
    /* the same page with only a number changed (a view counter) */
    size_t len;
    char *html = site_page('A', 5, &len);
    char *at = strstr(html, "Story 5 |");
    CHECK(at != NULL);
    char *copy = malloc(len + 16);
    if (at) {
        size_t pre = (size_t)(at - html);
        memcpy(copy, html, pre);
        int n = sprintf(copy + pre, "Story 5 (1234 views) |");
        strcpy(copy + pre + n, at + strlen("Story 5 |"));
        winnow_input in = { sizeof in, copy, strlen(copy), NULL, "https://dup.example/counter" };
        int counted = -1;
        CHECK_EQ(winnow_site_learn(engine, s, &in, &counted), WINNOW_OK);
        CHECK_EQ(counted, 0);
    }
    free(copy);
    free(html);
    CHECK(winnow_site_pages(s) == pages);
    CHECK(listed_df(s, 0.0, "block", note_a) == df);
    /* a new page still counts */
    CHECK_EQ(learn(s, 'A', 10, NULL), 1);
    CHECK(winnow_site_pages(s) > pages);
    winnow_site_free(s);
}

/* Leave-one-out: with exclude_self, a learned page is judged as by a model
 * that never saw it (in site mode, where the page count plays no part). */
static void test_exclude_self(void)
{
    const unsigned n = 20, left_out[] = { 0, 7, 19 };
    winnow_site *all = NULL;
    winnow_site_new("loo.example", 0, &all);
    learn_range(all, 'A', 0, n);
    for (size_t i = 0; i < sizeof left_out / sizeof left_out[0]; i++) {
        unsigned k = left_out[i];
        winnow_site *others = NULL;
        winnow_site_new("loo.example", 0, &others);
        for (unsigned j = 0; j < n; j++)
            if (j != k) CHECK_EQ(learn(others, 'A', j, NULL), 1);
        char *a = extract_with(all, 'A', k, WINNOW_MODE_SITE, 1);
        char *b = extract_with(others, 'A', k, WINNOW_MODE_SITE, 0);
        CHECK_STR(a, b);
        check_article_kept(a, 'A', k);
        free(a);
        free(b);
        /* a page the model never saw: exclude_self changes nothing */
        a = extract_with(all, 'A', 100 + k, WINNOW_MODE_SITE, 1);
        b = extract_with(all, 'A', 100 + k, WINNOW_MODE_SITE, 0);
        CHECK_STR(a, b);
        free(a);
        free(b);
        winnow_site_free(others);
    }
    winnow_site_free(all);
}

/* Auto mode uses the model once the site has min_pages pages (5 by
 * default): a site of exactly 5 pages is judged as in site mode. */
static void test_auto_min_pages(void)
{
    for (unsigned n = 4; n <= 6; n++) {
        winnow_site *s = NULL;
        winnow_site_new("min.example", 0, &s);
        learn_range(s, 'A', 0, n);
        char *autom = extract_with(s, 'A', 50, WINNOW_MODE_AUTO, 0);
        char *site = extract_with(s, 'A', 50, WINNOW_MODE_SITE, 0);
        char *page = extract_with(NULL, 'A', 50, WINNOW_MODE_PAGE, 0);
        CHECK(strcmp(site, page) != 0); /* the note makes the difference */
        if (strcmp(autom, n >= 5 ? site : page) != 0)
            fprintf(stderr, "auto mode with %u pages (aged mass %.4f) behaves like %s mode\n", n, winnow_site_pages(s),
                    n >= 5 ? "page" : "site");
        CHECK_STR(autom, n >= 5 ? site : page);
        free(autom);
        free(site);
        free(page);
        winnow_site_free(s);
    }
}

/* Leave-one-out in auto mode near min_pages: the page's own contribution
 * left out, the model must be used (or not) as the model of the other
 * pages would be. */
static void test_exclude_self_min_pages(void)
{
    for (unsigned n = 5; n <= 7; n++) {
        winnow_site *all = NULL, *others = NULL;
        winnow_site_new("edge.example", 0, &all);
        winnow_site_new("edge.example", 0, &others);
        learn_range(all, 'A', 0, n);
        learn_range(others, 'A', 1, n);
        char *a = extract_with(all, 'A', 0, WINNOW_MODE_AUTO, 1);
        char *b = extract_with(others, 'A', 0, WINNOW_MODE_AUTO, 0);
        if (strcmp(a, b) != 0)
            fprintf(stderr, "auto mode, %u pages: exclude_self judges page 0 unlike a model of the %u others\n", n,
                    n - 1);
        CHECK_STR(a, b);
        free(a);
        free(b);
        winnow_site_free(all);
        winnow_site_free(others);
    }
}

static void test_arguments(void)
{
    winnow_site *s = NULL;
    winnow_site_new("args.example", 0, &s);
    int counted = 7;
    winnow_input in = { sizeof in, "<p>x</p>", 8, NULL, NULL };
    CHECK_EQ(winnow_site_learn(NULL, s, &in, &counted), WINNOW_E_ARG);
    CHECK_EQ(counted, 0);
    CHECK_EQ(winnow_site_learn(engine, NULL, &in, &counted), WINNOW_E_ARG);
    winnow_input empty = { sizeof empty, "", 0, NULL, NULL };
    CHECK_EQ(winnow_site_learn(engine, s, &empty, &counted), WINNOW_E_EMPTY);
    CHECK_EQ(counted, 0);
    CHECK(winnow_site_pages(s) == 0);
    CHECK_EQ(winnow_site_templates(NULL, 0.1, find_row, NULL), WINNOW_E_ARG);
    CHECK_EQ(winnow_site_templates(s, 0.1, NULL, NULL), WINNOW_E_ARG);
    /* an empty model lists nothing and extraction falls back to the page */
    CHECK_EQ(listed_df(s, 0.0, "block", ""), -1);
    char *a = extract_with(s, 'A', 1, WINNOW_MODE_SITE, 0), *b = extract_with(NULL, 'A', 1, WINNOW_MODE_PAGE, 0);
    CHECK_STR(a, b);
    free(a);
    free(b);
    winnow_site_free(s);
    winnow_site_free(NULL);
}

/* ---- replaying a journal (two learns of one site merged on save) ---- */

/* Every stored quantity of two models is the same: clock, page mass, each
 * key's count, clock and sample, each counted page, each ContentExtractor
 * training page and block. */
static int same_model(const wn_site_model *a, const wn_site_model *b, const char *what)
{
    int same = a->clock == b->clock && a->pages == b->pages && a->keys_count == b->keys_count &&
               a->pages_count == b->pages_count && a->ce.pages == b->ce.pages && a->ce.count == b->ce.count;
    for (size_t i = 0; same && i < a->keys_cap; i++) {
        const wn_key_entry *e = &a->keys[i];
        if (!e->used) continue;
        const wn_key_entry *f = wn_site_model_find(b, e->kind, e->key);
        const char *sa = wn_site_model_sample(a, e), *sb = f ? wn_site_model_sample(b, f) : NULL;
        same = f && f->df == e->df && f->t == e->t && (sa ? sb && !strcmp(sa, sb) : !sb);
    }
    for (size_t i = 0; same && i < a->pages_cap; i++) {
        const wn_page_entry *p = &a->page_tab[i];
        if (!p->used) continue;
        same = wn_site_model_self_weight(b, p->imatch) == wn_site_model_self_weight(a, p->imatch);
    }
    for (uint32_t p = 0; same && p < a->ce.pages; p++) same = a->ce.page_imatch[p] == b->ce.page_imatch[p];
    for (size_t i = 0; same && i < a->ce.count; i++) {
        const wn_ce_block *x = &a->ce.blocks[i], *y = &b->ce.blocks[i];
        same = x->page == y->page && x->path == y->path && x->vec.n == y->vec.n &&
               !memcmp(x->vec.dims, y->vec.dims, x->vec.n * sizeof *x->vec.dims) &&
               !memcmp(x->vec.vals, y->vec.vals, x->vec.n * sizeof *x->vec.vals);
    }
    if (!same)
        fprintf(stderr, "%s: models differ (clock %g/%g, keys %zu/%zu, pages %zu/%zu, ce pages %u/%u)\n", what,
                a->clock, b->clock, a->keys_count, b->keys_count, a->pages_count, b->pages_count, a->ce.pages,
                b->ce.pages);
    return same;
}

/* Two runs start from one state (`base` pages of template A, half-life 25
 * so that ageing matters); one learns pages [a0, a1), the other [b0, b1),
 * some of them shared. Replaying the first's journal onto the second gives
 * exactly the model of learning base, then b, then a, one page after the
 * other: counts, clocks, samples, and the ContentExtractor training pages
 * (30 of them, taken in order, whoever learned them). */
static void replay_case(unsigned base, unsigned a0, unsigned a1, unsigned b0, unsigned b1)
{
    winnow_site *first = NULL, *second = NULL, *seq = NULL;
    winnow_site_new("r.example", 25, &first);
    winnow_site_new("r.example", 25, &second);
    winnow_site_new("r.example", 25, &seq);
    learn_range(first, 'A', 0, base);
    learn_range(second, 'A', 0, base);
    learn_range(seq, 'A', 0, base);
    wn_site_unwrap(first)->journal.on = 1;
    learn_range(first, 'A', a0, a1);
    learn_range(second, 'A', b0, b1);
    for (unsigned k = b0; k < b1; k++) CHECK(learn(seq, 'A', k, NULL) >= 0);
    for (unsigned k = a0; k < a1; k++) CHECK(learn(seq, 'A', k, NULL) >= 0);
    CHECK_EQ(wn_site_unwrap(first)->journal.npages, a1 - a0);
    CHECK_EQ(wn_site_model_replay(wn_site_unwrap(second), wn_site_unwrap(first), NULL), 0);
    char what[96];
    snprintf(what, sizeof what, "base %u, pages %u-%u replayed after %u-%u", base, a0, a1, b0, b1);
    CHECK(same_model(wn_site_unwrap(second), wn_site_unwrap(seq), what));
    /* and the merged model extracts as the sequential one does */
    char *x = extract_with(second, 'A', 77, WINNOW_MODE_SITE, 0), *y = extract_with(seq, 'A', 77, WINNOW_MODE_SITE, 0);
    CHECK_STR(x, y);
    free(x);
    free(y);
    winnow_site_free(first);
    winnow_site_free(second);
    winnow_site_free(seq);
}

static void test_replay_equals_sequential(void)
{
    replay_case(10, 10, 25, 25, 40); /* both runs still take training pages */
    replay_case(10, 10, 30, 30, 45); /* the second fills them: none of the first's replayed pages is one */
    replay_case(4, 4, 20, 12, 26);   /* pages 12-19 in both runs: counted once */
    replay_case(0, 0, 12, 12, 12);   /* onto an empty model */
}

int main(void)
{
    winnow_engine_new(NULL, &engine);
    if (!engine) return 1;
    RUN(test_page_mass_ages);
    RUN(test_df_formula);
    RUN(test_fade_point);
    RUN(test_redesign_short_half_life);
    RUN(test_templates_min_share_zero);
    RUN(test_redesign_long_half_life);
    RUN(test_site_mode_drops_note);
    RUN(test_duplicates_counted_once);
    RUN(test_exclude_self);
    RUN(test_auto_min_pages);
    RUN(test_exclude_self_min_pages);
    RUN(test_arguments);
    RUN(test_replay_equals_sequential);
    winnow_engine_free(engine);
    return CHECK_DONE();
}
