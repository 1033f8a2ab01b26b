/* Regularized tree isotonic regression (src/smooth/isotonic.c): the exact
 * program against brute force on thousands of small random trees, the
 * k-level program against the exact one, the level rule, inputs it must
 * refuse, and trees deep and wide enough to break anything recursive. */
#include <math.h>
#include <stdint.h>

#include "blocks/stats.h"
#include "check.h"
#include "doc.h"
#include "dom_fixture.h"
#include "json_check.h"
#include "smooth/isotonic.h"
#include "smooth/smooth_page.h"
#include "util/arena.h"

#define MAXN 64

/* xorshift64*: deterministic, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 33) % n;
}
static float rndf(void) { return (float)rnd(1u << 24) / (float)(1u << 24); }

typedef struct tree {
    uint32_t n;
    uint32_t parent[MAXN];
    float x[MAXN], w[MAXN], g[MAXN];
} tree;

static wn_iso_tree view(const tree *t) { return (wn_iso_tree){ t->n, t->parent, t->x, t->w, t->g }; }

/* A random tree of n nodes in one of several shapes, with scores that often
 * tie, weights that are often above 1 and penalties from tiny to large. */
static void random_tree(tree *t, uint32_t n)
{
    t->n = n;
    uint32_t shape = rnd(5);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = 0;
        if (i > 0) {
            switch (shape) {
            case 0: p = i - 1; break;                      /* chain */
            case 1: p = 0; break;                          /* star */
            case 2: p = i >= 2 ? (i - 1) & ~1u : 0; break; /* caterpillar: spine with leaves */
            default: p = rnd(i); break;                    /* random recursive tree */
            }
        }
        t->parent[i] = p;
    }
    uint32_t xmode = rnd(4);
    for (uint32_t i = 0; i < n; i++) {
        switch (xmode) {
        case 0: t->x[i] = rndf(); break;                           /* all distinct */
        case 1: t->x[i] = (float)rnd(4) / 3.0f; break;             /* heavy ties */
        case 2: t->x[i] = (float)rnd(11) / 10.0f; break;           /* a grid of 11 */
        default: t->x[i] = rnd(3) ? (float)rnd(2) : rndf(); break; /* mostly 0 and 1 */
        }
        uint32_t wm = rnd(3);
        t->w[i] = wm == 0 ? 1.0f : wm == 1 ? (float)(1 + rnd(6)) : 0.1f + 3 * rndf();
        uint32_t gm = rnd(4);
        t->g[i] = gm == 0 ? 0.01f * (1 + rnd(10)) : gm == 1 ? 2 * rndf() : gm == 2 ? (float)rnd(3) : 0.3f;
    }
}

/* Least cost over every y with values in lev[0..m) that meets the
 * constraint: backtracking over the nodes in pre-order, each node's level
 * at least its parent's, pruned on the partial cost (all terms are >= 0). */
static double brute(const tree *t, const float *lev, uint32_t m)
{
    int lvl[MAXN];
    double partial[MAXN + 1];
    double best = HUGE_VAL;
    uint32_t n = t->n;
    partial[0] = 0;
    int i = 0;
    lvl[0] = -1;
    while (i >= 0) {
        int lo = i ? lvl[t->parent[i]] : 0;
        lvl[i] = lvl[i] + 1 < lo ? lo : lvl[i] + 1;
        if (lvl[i] >= (int)m) {
            i--;
            continue;
        }
        double c = partial[i] + (double)t->w[i] * fabs((double)t->x[i] - (double)lev[lvl[i]]);
        if (i == 0 || lvl[i] != lvl[t->parent[i]]) c += t->g[i];
        if (c >= best) continue;
        if ((uint32_t)i == n - 1) {
            best = c;
            continue;
        }
        partial[i + 1] = c;
        i++;
        lvl[i] = -1;
    }
    return best;
}

/* Distinct x values ascending. */
static uint32_t distinct_x(const tree *t, float *v)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t j = 0;
        while (j < d && v[j] < t->x[i]) j++;
        if (j < d && v[j] == t->x[i]) continue;
        memmove(v + j + 1, v + j, (d - j) * sizeof *v);
        v[j] = t->x[i];
        d++;
    }
    return d;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

/* What every solution must satisfy: monotone, values among lev, and
 * segment_start saying exactly where the value changes. */
static int well_formed(const tree *t, const float *y, const uint8_t *seg, const float *lev, uint32_t m)
{
    for (uint32_t i = 0; i < t->n; i++) {
        int found = 0;
        for (uint32_t j = 0; j < m; j++) found |= y[i] == lev[j];
        if (!found) return 0;
        if (i == 0) {
            if (seg[0] != 1) return 0;
            continue;
        }
        uint32_t p = t->parent[i];
        if (y[i] < y[p]) return 0;
        if (seg[i] != (y[i] != y[p])) return 0;
    }
    return 1;
}

static void test_cost_function(void)
{
    /* root 0.2 -> child 0.9 -> grandchild 0.9 */
    uint32_t par[3] = { 0, 0, 1 };
    float x[3] = { 0.2f, 0.9f, 0.9f }, w[3] = { 1, 2, 1 }, g[3] = { 1, 0.5f, 0.25f };
    wn_iso_tree t = { 3, par, x, w, g };
    float y1[3] = { 0.2f, 0.2f, 0.2f }; /* one segment */
    CHECK(close_to(wn_iso_cost(&t, y1), 1 + 3 * ((double)0.9f - (double)0.2f)));
    float y2[3] = { 0.2f, 0.9f, 0.9f }; /* root and child pay, grandchild continues */
    CHECK(close_to(wn_iso_cost(&t, y2), 1.5));
    float y3[3] = { 0.9f, 0.2f, 0.9f }; /* child below its parent */
    CHECK(wn_iso_cost(&t, y3) == HUGE_VAL);
    uint32_t bad[3] = { 0, 2, 1 }; /* not pre-order */
    wn_iso_tree tb = { 3, bad, x, w, g };
    CHECK(wn_iso_cost(&tb, y2) == HUGE_VAL);
    wn_iso_tree empty = { 0, NULL, NULL, NULL, NULL };
    CHECK(wn_iso_cost(&empty, NULL) == 0);
}

/* Hand-checked cases: a segment opens exactly when it pays, and the
 * constraint points downwards (children no lower than parents). */
static void test_small_cases(void)
{
    uint32_t par[2] = { 0, 0 };
    float x[2] = { 0.2f, 0.9f }, w[2] = { 1, 1 }, g[2] = { 1, 0.3f };
    wn_iso_tree t = { 2, par, x, w, g };
    float y[2];
    uint8_t seg[2];
    CHECK_EQ(wn_iso_smooth_exact(&t, y, seg, NULL), 0);
    CHECK(y[0] == 0.2f && y[1] == 0.9f && seg[1] == 1); /* split: 1.3 < 1.7 */
    CHECK(close_to(wn_iso_cost(&t, y), 1 + (double)0.3f));
    g[1] = 0.8f;
    CHECK_EQ(wn_iso_smooth_exact(&t, y, seg, NULL), 0);
    CHECK(y[0] == y[1] && seg[1] == 0); /* 1.8 > 1.7: one segment */
    CHECK(close_to(wn_iso_cost(&t, y), 1 + ((double)0.9f - (double)0.2f)));

    /* A heavy child scored below its parent drags the parent down. */
    float x2[2] = { 0.8f, 0.1f }, w2[2] = { 1, 3 }, g2[2] = { 1, 1 };
    wn_iso_tree t2 = { 2, par, x2, w2, g2 };
    CHECK_EQ(wn_iso_smooth_exact(&t2, y, seg, NULL), 0);
    CHECK(y[0] == 0.1f && y[1] == 0.1f);

    /* Single node: its own score, one segment. */
    wn_iso_tree t1 = { 1, par, x2, w2, g2 };
    CHECK_EQ(wn_iso_smooth_levels(&t1, 4, y, seg, NULL), 0);
    CHECK(y[0] == 0.8f && seg[0] == 1);
}

static void test_exact_vs_brute(void)
{
    int trees = 0, bad = 0;
    for (int it = 0; it < 4000; it++) {
        tree t;
        uint32_t n = 1 + rnd(7);
        random_tree(&t, n);
        wn_iso_tree v = view(&t);
        float y[MAXN], lev[MAXN];
        uint8_t seg[MAXN];
        uint32_t d = distinct_x(&t, lev);
        if (wn_iso_smooth_exact(&v, y, seg, NULL) != 0) {
            bad++;
            continue;
        }
        double want = brute(&t, lev, d), got = wn_iso_cost(&v, y);
        if (!close_to(got, want) || !well_formed(&t, y, seg, lev, d)) {
            if (bad++ < 5) fprintf(stderr, "  exact: n=%u cost %.9f, brute force %.9f\n", n, got, want);
        }
        trees++;
    }
    /* Eight nodes with at most four distinct values (ties everywhere). */
    for (int it = 0; it < 1000; it++) {
        tree t;
        random_tree(&t, 8);
        for (uint32_t i = 0; i < 8; i++) t.x[i] = (float)rnd(4) / 4.0f;
        wn_iso_tree v = view(&t);
        float y[MAXN], lev[MAXN];
        uint8_t seg[MAXN];
        uint32_t d = distinct_x(&t, lev);
        if (wn_iso_smooth_exact(&v, y, seg, NULL) != 0) {
            bad++;
            continue;
        }
        double want = brute(&t, lev, d), got = wn_iso_cost(&v, y);
        if (!close_to(got, want) || !well_formed(&t, y, seg, lev, d)) bad++;
        trees++;
    }
    printf("exact vs brute force: %d trees, %d mismatches\n", trees, bad);
    CHECK_EQ(bad, 0);
}

/* Lemma 3 checked directly: values off the x grid never help. A brute force
 * over a finer grid (x values plus midpoints and the ends of [0, 1]) finds
 * nothing cheaper than the exact program. */
static void test_lemma3(void)
{
    int bad = 0;
    for (int it = 0; it < 500; it++) {
        tree t;
        random_tree(&t, 1 + rnd(5));
        wn_iso_tree v = view(&t);
        float y[MAXN], lev[MAXN], fine[3 * MAXN];
        uint8_t seg[MAXN];
        uint32_t d = distinct_x(&t, lev), m = 0;
        fine[m++] = 0;
        for (uint32_t j = 0; j < d; j++) {
            if (lev[j] > fine[m - 1]) fine[m++] = lev[j];
            if (j + 1 < d) fine[m++] = (lev[j] + lev[j + 1]) / 2;
        }
        if (fine[m - 1] < 1) fine[m++] = 1;
        if (wn_iso_smooth_exact(&v, y, seg, NULL) != 0) {
            bad++;
            continue;
        }
        if (brute(&t, fine, m) < wn_iso_cost(&v, y) - 1e-9) bad++;
    }
    CHECK_EQ(bad, 0);
}

/* ---- the page adapter ---- */

typedef struct spage {
    page p;
    wn_stats *st;
    wn_page_text pt;
    winnow_doc d; /* only dom and stats are filled: all the adapter reads */
    float *score;
} spage;

/* hide_id: the parser drops hidden elements outright (only <head> keeps
 * WN_NF_HIDDEN), so the test marks that element's subtree hidden itself,
 * before the statistics, as the flag would be if it survived parsing. */
static int spage_open(spage *s, const char *html, const char *hide_id)
{
    memset(s, 0, sizeof *s);
    page_parse(&s->p, html);
    if (s->p.status != WN_PARSE_OK) return -1;
    uint32_t h = hide_id ? page_find_id(&s->p.dom, hide_id) : WN_NONE;
    if (h != WN_NONE)
        for (uint32_t j = h; j < h + s->p.dom.nodes[h].size; j++) s->p.dom.nodes[j].flags |= WN_NF_HIDDEN;
    const wn_stats_rules stats_rules = { .names = { wn_rule_defs[WN_RULE_ID_ANCHOR_WORDS].def,
                                                    wn_rule_defs[WN_RULE_NAME_SETTING_WORDS].def > 0.0f } };
    if (wn_stats_compute(&s->p.dom, &s->p.arena, &s->st, &s->pt, NULL, &stats_rules) != 0) return -1;
    s->d.dom = s->p.dom;
    s->d.stats = s->st;
    s->score = calloc(s->p.dom.count, sizeof *s->score);
    return s->score ? 0 : -1;
}

static void spage_close(spage *s)
{
    free(s->score);
    page_free(&s->p);
}

/* Scores the subtree of the element with this id (DOM subtrees are index
 * ranges). */
static void score_subtree(spage *s, const char *id, float v)
{
    uint32_t i = page_find_id(&s->p.dom, id);
    if (i == WN_NONE) return;
    for (uint32_t j = i; j < i + s->p.dom.nodes[i].size; j++) s->score[j] = v;
}

static const char adapter_page[] =
    "<html><head><title>t</title></head><body>"
    "<nav id=nav><a href=/>Home</a> <a href=/a>About us</a> <a href=/c>Contact page link</a></nav>"
    "<article id=art><p id=p1>The first paragraph of the story runs on for a while.</p>"
    "<p id=p2>A second paragraph, also long enough to be its own node.</p></article>"
    "<div id=hid><p>Hidden text long enough to count if it were shown</p></div>"
    "<footer id=foot>Copyright 2024 Example Corporation, all rights reserved</footer>"
    "</body></html>";

static void test_page_adapter(void)
{
    spage s;
    if (spage_open(&s, adapter_page, "hid") != 0) {
        CHECK(0);
        spage_close(&s);
        return;
    }
    const wn_dom *dom = &s.p.dom;
    for (uint32_t i = 0; i < dom->count; i++) s.score[i] = 0.3f;
    score_subtree(&s, "nav", 0.95f);
    score_subtree(&s, "art", 0.05f);
    score_subtree(&s, "foot", 0.9f);
    uint32_t nav = page_find_id(dom, "nav"), art = page_find_id(dom, "art"), foot = page_find_id(dom, "foot");
    uint32_t hid = page_find_id(dom, "hid"), p1 = page_find_id(dom, "p1");
    if (nav == WN_NONE || art == WN_NONE || foot == WN_NONE || hid == WN_NONE || p1 == WN_NONE) {
        CHECK(0);
        spage_close(&s);
        return;
    }

    wn_arena a;
    wn_arena_init(&a);
    wn_smooth_tree t;
    CHECK_EQ(wn_smooth_build_tree(&s.d, s.score, NULL, &a, &t), 0);
    /* body, nav, article, p1, p2, footer; the links are under 20 characters
     * and fold into nav (weight 1 + 3); the hidden div is left out */
    CHECK_EQ(t.iso.n, 6);
    CHECK_EQ(t.root, dom->body);
    uint32_t tn = t.near[nav];
    CHECK(tn != WN_NONE && t.dom[tn] == nav && t.w[tn] == 4.0f);
    CHECK_EQ(t.near[hid], 0);
    CHECK_EQ(t.near[page_find(dom, WN_TAG_A, 0)], tn);
    CHECK(t.gamma[0] == WN_SMOOTH_DEFAULT_C);
    CHECK(fabsf(t.gamma[tn] - 0.01f * (float)t.area / (float)s.st[nav].chars) < 1e-6f);

    float *y = malloc(dom->count * sizeof *y), *y0 = malloc(dom->count * sizeof *y0);
    uint8_t *seg = malloc(dom->count);
    if (!y || !y0 || !seg) {
        CHECK(0);
        goto out;
    }
    double cost = -1, cost0 = -1;
    CHECK_EQ(wn_smooth_page(&s.d, s.score, NULL, NULL, y, seg, &cost), 0);
    CHECK(y[nav] == 0.95f && seg[nav] == 1);
    CHECK(y[foot] == 0.9f && seg[foot] == 1);
    CHECK(y[dom->body] <= 0.05f && seg[dom->body] == 1);
    CHECK(y[p1] == y[art] && seg[p1] == 0);
    CHECK(y[hid] == y[dom->body] && seg[hid] == 0);
    uint32_t link_text = dom->nodes[page_find(dom, WN_TAG_A, 1)].first_child;
    CHECK(y[link_text] == 0.95f && seg[link_text] == 0);
    CHECK(y[0] == y[dom->body]); /* the document node: the root's value */
    for (uint32_t i = dom->body + 1; i < dom->body + dom->nodes[dom->body].size; i++)
        CHECK(y[i] >= y[dom->nodes[i].parent]);
    CHECK(cost > 0 && isfinite(cost));

    /* the exact program agrees here (few distinct scores) */
    wn_smooth_options o;
    wn_smooth_options_default(&o);
    o.levels = 0;
    CHECK_EQ(wn_smooth_page(&s.d, s.score, &o, &a, y0, NULL, &cost0), 0);
    CHECK(memcmp(y, y0, dom->count * sizeof *y) == 0 && close_to(cost, cost0));
    /* a huge penalty: one segment, the root's */
    o.c = 1000;
    CHECK_EQ(wn_smooth_page(&s.d, s.score, &o, &a, y0, seg, NULL), 0);
    uint32_t starts = 0;
    for (uint32_t i = 0; i < dom->count; i++) starts += seg[i];
    CHECK_EQ(starts, 1);
    o.c = NAN;
    CHECK_EQ(wn_smooth_page(&s.d, s.score, &o, &a, y0, seg, NULL), -1);

    wn_buf b;
    wn_buf_init(&b);
    CHECK_EQ(wn_smooth_segments_json(&s.d, s.score, NULL, &a, &b), 0);
    const char *js = wn_buf_cstr(&b);
    CHECK(json_valid(js, b.len));
    CHECK_HAS(js, "\"tag\":\"nav\",\"path\":\"html.body.nav\"");
    CHECK_HAS(js, "\"tag\":\"footer\"");
    CHECK_HAS(js, "\"smoothed\":0.9500");
    CHECK_HAS(js, "{\"node\":");
    wn_buf_free(&b);
out:
    free(y);
    free(y0);
    free(seg);
    wn_arena_free(&a);
    spage_close(&s);
}

/* A page nested as deep as the parser allows, each level with its own text
 * and a score rising with depth: every level is a segment, and neither the
 * adapter nor the JSON writer recurses. */
static void test_page_deep(void)
{
    enum { DEPTH = 500 };
    wn_buf h;
    wn_buf_init(&h);
    wn_buf_puts(&h, "<body>");
    for (int i = 0; i < DEPTH; i++) wn_buf_printf(&h, "<div>level %d text of this level", i);
    spage s;
    if (spage_open(&s, wn_buf_cstr(&h), NULL) != 0) {
        CHECK(0);
        spage_close(&s);
        wn_buf_free(&h);
        return;
    }
    const wn_dom *dom = &s.p.dom;
    for (uint32_t i = 0; i < dom->count; i++) s.score[i] = (float)dom->nodes[i].depth / 1000.0f;
    float *y = malloc(dom->count * sizeof *y);
    uint8_t *seg = malloc(dom->count);
    wn_buf b;
    wn_buf_init(&b);
    wn_smooth_options o;
    wn_smooth_options_default(&o);
    o.c = 1e-6f;
    o.levels = 256;
    if (y && seg) {
        CHECK_EQ(wn_smooth_page(&s.d, s.score, &o, NULL, y, seg, NULL), 0);
        uint32_t starts = 0;
        for (uint32_t i = 0; i < dom->count; i++) starts += seg[i];
        CHECK(starts > 250);
        CHECK_EQ(wn_smooth_segments_json(&s.d, s.score, &o, NULL, &b), 0);
        CHECK(b.len > 0 && b.data[b.len - 1] == '}');
    } else {
        CHECK(0);
    }
    wn_buf_free(&b);
    free(y);
    free(seg);
    spage_close(&s);
    wn_buf_free(&h);
}

/* The level program is the exact one on its levels: brute force over the
 * chosen levels agrees with it; with all distinct values as levels it is
 * the exact optimum; with fewer it is never below it. */
static void test_levels_vs_exact(void)
{
    int same_bad = 0, below = 0, restricted_bad = 0, rule_bad = 0, compared = 0, lossy = 0;
    for (int it = 0; it < 3000; it++) {
        tree t;
        uint32_t small = it % 3 == 0;
        random_tree(&t, small ? 1 + rnd(7) : 1 + rnd(MAXN));
        wn_iso_tree v = view(&t);
        float xs[MAXN];
        uint32_t d = distinct_x(&t, xs);
        uint32_t k = 1 + rnd(12);
        float ye[MAXN], yk[MAXN], lev[WN_ISO_MAX_LEVELS];
        uint8_t se[MAXN], sk[MAXN];
        int m = wn_iso_choose_levels(&v, k, lev, NULL);
        if (wn_iso_smooth_exact(&v, ye, se, NULL) != 0 || wn_iso_smooth_levels(&v, k, yk, sk, NULL) != 0 || m < 1) {
            rule_bad++;
            continue;
        }
        /* the level rule: ascending x values, all of them when they fit,
         * else exactly k including both ends (the median alone when k = 1) */
        int ok = (uint32_t)m == (d <= k ? d : k);
        for (int j = 0; j < m; j++) {
            int found = 0;
            for (uint32_t i = 0; i < d; i++) found |= lev[j] == xs[i];
            ok &= found && (j == 0 || lev[j] > lev[j - 1]);
        }
        if (d > k && k >= 2) ok &= lev[0] == xs[0] && lev[m - 1] == xs[d - 1];
        if (!ok) rule_bad++;
        if (!well_formed(&t, yk, sk, lev, (uint32_t)m)) rule_bad++;

        double ce = wn_iso_cost(&v, ye), ck = wn_iso_cost(&v, yk);
        if (d <= k) {
            if (!close_to(ck, ce)) same_bad++;
        } else {
            compared++;
            if (ck < ce - 1e-9 * (1 + ce)) below++;
            if (ck > ce + 1e-9 * (1 + ce)) lossy++;
        }
        if (small && !close_to(ck, brute(&t, lev, (uint32_t)m))) restricted_bad++;
    }
    printf("levels: %d trees with more values than levels, %d of them above the exact cost\n", compared, lossy);
    CHECK_EQ(rule_bad, 0);
    CHECK_EQ(same_bad, 0);
    CHECK_EQ(below, 0);
    CHECK_EQ(restricted_bad, 0);
}

/* Same results whether memory comes from an arena or from malloc. */
static void test_arena(void)
{
    wn_arena a;
    wn_arena_init(&a);
    int bad = 0;
    for (int it = 0; it < 200; it++) {
        tree t;
        random_tree(&t, 1 + rnd(MAXN));
        wn_iso_tree v = view(&t);
        float y1[MAXN], y2[MAXN];
        uint8_t s1[MAXN], s2[MAXN];
        uint32_t k = 1 + rnd(20);
        if (wn_iso_smooth_levels(&v, k, y1, s1, NULL) || wn_iso_smooth_levels(&v, k, y2, s2, &a))
            bad++;
        else if (memcmp(y1, y2, t.n * sizeof *y1) || memcmp(s1, s2, t.n))
            bad++;
        if (wn_iso_smooth_exact(&v, y1, s1, NULL) || wn_iso_smooth_exact(&v, y2, s2, &a))
            bad++;
        else if (memcmp(y1, y2, t.n * sizeof *y1) || memcmp(s1, s2, t.n))
            bad++;
        wn_arena_reset(&a, 1 << 20);
    }
    wn_arena_free(&a);
    CHECK_EQ(bad, 0);
}

static void test_refusals(void)
{
    uint32_t par[3] = { 0, 0, 1 };
    float x[3] = { 0.1f, 0.5f, 0.9f }, w[3] = { 1, 1, 1 }, g[3] = { 0.1f, 0.1f, 0.1f };
    float y[3];
    uint8_t seg[3];
    wn_iso_tree t = { 3, par, x, w, g };
    CHECK_EQ(wn_iso_smooth_exact(&t, y, seg, NULL), 0);
    CHECK_EQ(wn_iso_smooth_levels(&t, 0, y, NULL, NULL), 0); /* k clamped to 1; seg may be NULL */
    CHECK(y[0] == y[1] && y[1] == y[2] && y[0] == 0.5f);     /* one level: the weighted median */

    uint32_t bad_par[3] = { 0, 0, 2 };
    wn_iso_tree tb = { 3, bad_par, x, w, g };
    CHECK_EQ(wn_iso_smooth_exact(&tb, y, seg, NULL), -1);
    CHECK_EQ(wn_iso_smooth_levels(&tb, 8, y, seg, NULL), -1);
    float xn[3] = { 0.1f, NAN, 0.9f };
    wn_iso_tree tn = { 3, par, xn, w, g };
    CHECK_EQ(wn_iso_smooth_levels(&tn, 8, y, seg, NULL), -1);
    float wneg[3] = { 1, -1, 1 };
    wn_iso_tree tw = { 3, par, x, wneg, g };
    CHECK_EQ(wn_iso_smooth_exact(&tw, y, seg, NULL), -1);
    CHECK_EQ(wn_iso_smooth_levels(&t, 8, NULL, seg, NULL), -1);
    wn_iso_tree empty = { 0, NULL, NULL, NULL, NULL };
    CHECK_EQ(wn_iso_smooth_exact(&empty, NULL, NULL, NULL), 0);
    CHECK_EQ(wn_iso_smooth_levels(&empty, 8, NULL, NULL, NULL), 0);

    /* above the node cap the exact program refuses, the level one runs */
    uint32_t n = WN_ISO_EXACT_MAX_NODES + 1;
    uint32_t *p = malloc(n * sizeof *p);
    float *xb = malloc(n * sizeof *xb), *wb = malloc(n * sizeof *wb), *yb = malloc(n * sizeof *yb);
    if (!p || !xb || !wb || !yb) {
        CHECK(0);
        free(p);
        free(xb);
        free(wb);
        free(yb);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        p[i] = i ? i - 1 : 0;
        xb[i] = (float)(i % 97) / 96.0f;
        wb[i] = 1;
    }
    wn_iso_tree big = { n, p, xb, wb, wb };
    CHECK_EQ(wn_iso_smooth_exact(&big, yb, NULL, NULL), -1);
    CHECK_EQ(wn_iso_smooth_levels(&big, 16, yb, NULL, NULL), 0);
    free(p);
    free(xb);
    free(wb);
    free(yb);
}

/* More than 256 distinct values: the exact program's 16-bit back-pointers.
 * A chain of 600 rising blocks has the answer y = x; on a random tree the
 * exact cost is at or below every level version's. */
static void test_exact_wide(void)
{
    enum { N = 3000, BLOCKS = 600 };
    static uint32_t p[N];
    static float x[N], w[N], g[N], y[N], yk[N];
    static uint8_t seg[N];
    for (uint32_t i = 0; i < N; i++) {
        p[i] = i ? i - 1 : 0;
        x[i] = (float)(i / (N / BLOCKS)) / (float)BLOCKS;
        w[i] = 1;
        g[i] = 1e-4f;
    }
    wn_iso_tree t = { N, p, x, w, g };
    CHECK_EQ(wn_iso_smooth_exact(&t, y, seg, NULL), 0);
    CHECK(memcmp(x, y, sizeof x) == 0);
    for (uint32_t i = 0; i < N; i++) {
        p[i] = i ? rnd(i) : 0;
        x[i] = rndf();
        w[i] = (float)(1 + rnd(3));
        g[i] = 0.05f * rndf();
    }
    CHECK_EQ(wn_iso_smooth_exact(&t, y, seg, NULL), 0);
    double ce = wn_iso_cost(&t, y);
    CHECK(isfinite(ce));
    for (uint32_t k = 2; k <= 256; k *= 2) {
        CHECK_EQ(wn_iso_smooth_levels(&t, k, yk, seg, NULL), 0);
        CHECK(wn_iso_cost(&t, yk) >= ce - 1e-9 * ce);
    }
}

/* 100,000-node chain in 16 blocks of equal score rising down the chain:
 * with a small penalty the optimum is y = x with one segment per block. */
static void test_deep_chain(void)
{
    uint32_t n = 100000, blocks = 16;
    uint32_t *p = malloc(n * sizeof *p);
    float *x = malloc(n * sizeof *x), *w = malloc(n * sizeof *w), *g = malloc(n * sizeof *g);
    float *y = malloc(n * sizeof *y);
    uint8_t *seg = malloc(n);
    if (!p || !x || !w || !g || !y || !seg) {
        CHECK(0);
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        p[i] = i ? i - 1 : 0;
        x[i] = (float)(i / (n / blocks)) / (float)(blocks - 1);
        w[i] = 1;
        g[i] = 0.5f;
    }
    wn_iso_tree t = { n, p, x, w, g };
    for (uint32_t k = 16; k <= 64; k *= 4) {
        CHECK_EQ(wn_iso_smooth_levels(&t, k, y, seg, NULL), 0);
        CHECK(memcmp(x, y, n * sizeof *x) == 0);
        uint32_t starts = 0;
        for (uint32_t i = 0; i < n; i++) starts += seg[i];
        CHECK_EQ(starts, blocks);
        CHECK(close_to(wn_iso_cost(&t, y), 0.5 * blocks));
    }
    /* Noisy scores: more values than levels. It runs, and the result is no
     * worse than any single segment on the same levels (one of the
     * solutions the program chose among). */
    for (uint32_t i = 0; i < n; i++) x[i] = (float)rnd(1000) / 999.0f;
    CHECK_EQ(wn_iso_smooth_levels(&t, 32, y, seg, NULL), 0);
    double c = wn_iso_cost(&t, y);
    float lev[32];
    int m = wn_iso_choose_levels(&t, 32, lev, NULL);
    CHECK_EQ(m, 32);
    double flat = HUGE_VAL;
    for (int j = 0; j < m; j++) {
        double one = 0.5;
        for (uint32_t i = 0; i < n; i++) one += fabs((double)x[i] - (double)lev[j]);
        if (one < flat) flat = one;
    }
    CHECK(isfinite(c) && c <= flat + 1e-6);
out:
    free(p);
    free(x);
    free(w);
    free(g);
    free(y);
    free(seg);
}

/* 200,000 leaves under one root, scores in {0, 0.5, 1}: the optimum is
 * found by trying the three root levels by hand (each leaf either stays in
 * the root's segment or pays its penalty for its own score, if not lower). */
static void test_wide_star(void)
{
    uint32_t n = 200001;
    uint32_t *p = malloc(n * sizeof *p);
    float *x = malloc(n * sizeof *x), *w = malloc(n * sizeof *w), *g = malloc(n * sizeof *g);
    float *y = malloc(n * sizeof *y);
    uint8_t *seg = malloc(n);
    if (!p || !x || !w || !g || !y || !seg) {
        CHECK(0);
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        p[i] = 0;
        x[i] = (float)rnd(3) / 2.0f;
        w[i] = (float)(1 + rnd(3));
        g[i] = 0.2f + (float)rnd(3);
    }
    wn_iso_tree t = { n, p, x, w, g };
    double best = HUGE_VAL;
    for (int r = 0; r < 3; r++) {
        double lvl = r / 2.0, c = g[0] + w[0] * fabs(x[0] - lvl);
        for (uint32_t i = 1; i < n; i++) {
            double stay = w[i] * fabs(x[i] - lvl), own = x[i] >= lvl ? (double)g[i] : HUGE_VAL;
            c += stay < own ? stay : own;
        }
        if (c < best) best = c;
    }
    CHECK_EQ(wn_iso_smooth_levels(&t, 32, y, seg, NULL), 0);
    CHECK(fabs(wn_iso_cost(&t, y) - best) <= 1e-9 * best);
    CHECK_EQ(wn_iso_smooth_levels(&t, 2, y, seg, NULL), 0); /* two of three values: not below */
    CHECK(wn_iso_cost(&t, y) >= best - 1e-9 * best);
out:
    free(p);
    free(x);
    free(w);
    free(g);
    free(y);
    free(seg);
}

int main(void)
{
    RUN(test_cost_function);
    RUN(test_small_cases);
    RUN(test_exact_vs_brute);
    RUN(test_lemma3);
    RUN(test_levels_vs_exact);
    RUN(test_arena);
    RUN(test_refusals);
    RUN(test_exact_wide);
    RUN(test_page_adapter);
    RUN(test_page_deep);
    RUN(test_deep_chain);
    RUN(test_wide_star);
    return CHECK_DONE();
}
