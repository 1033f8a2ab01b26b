/* The node classifier's pieces: model files (write, read back, refuse
 * damaged ones), batch prediction of each model kind, the Naive Bayes word
 * table, and the features of a real page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_fixture.h"
#include "check.h"
#include "classify/classifier.h"
#include "classify/features.h"
#include "doc.h"

static char *write_to_string(const wn_classifier *c, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    int r = wn_classifier_write(c, f);
    fclose(f);
    if (r != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A two-bucket tree model and a linear one, built by hand. */
static void make_trees(wn_classifier *c)
{
    memset(c, 0, sizeof *c);
    c->kind = WN_CLF_BOOST;
    c->nbuckets = 2;
    c->edges[0] = 3.0f;
    c->edges[1] = INFINITY;
    snprintf(c->settings, sizeof c->settings, "hand made");
    for (int b = 0; b < 2; b++) {
        wn_clf_bucket *bk = &c->bucket[b];
        bk->ntrees = 2;
        bk->tree_start = calloc(3, sizeof(uint32_t));
        bk->nodes = calloc(4, sizeof(wn_tree_node));
        bk->tree_start[0] = 0;
        bk->tree_start[1] = 3;
        bk->tree_start[2] = 4;
        /* tree 0: anchor_text < 0.5 ? -1 : +1 (bucket 1: doubled) */
        bk->nodes[0] = (wn_tree_node){ WN_F_ANCHOR_TEXT, 0.5f, 1, 2, 0 };
        bk->nodes[1] = (wn_tree_node){ -1, 0, 0, 0, -1.0f * (float)(b + 1) };
        bk->nodes[2] = (wn_tree_node){ -1, 0, 0, 0, 1.0f * (float)(b + 1) };
        /* tree 1: a lone leaf */
        bk->nodes[3] = (wn_tree_node){ -1, 0, 0, 0, 0.25f };
    }
    c->nb.prior = 0.5;
    c->nb.count = 2;
    c->nb.word = malloc(2 * sizeof(uint64_t));
    c->nb.weight = malloc(2 * sizeof(float));
    c->nb.word[0] = 0x11;
    c->nb.word[1] = 0x2001;
    c->nb.weight[0] = 1.5f;
    c->nb.weight[1] = -2.0f;
}

static void test_tree_model_round_trip(void)
{
    wn_classifier c, back;
    make_trees(&c);
    size_t len;
    char *text = write_to_string(&c, &len);
    CHECK(text != NULL);
    char err[256];
    CHECK_EQ(wn_classifier_parse(text, len, &back, err, sizeof err), 0);
    CHECK_EQ(back.kind, WN_CLF_BOOST);
    CHECK_EQ(back.nbuckets, 2);
    CHECK_EQ(back.nb.count, 2);
    float x[3][WN_NFEAT];
    memset(x, 0, sizeof x);
    x[0][WN_F_LOG_CHARS] = 1.0f;
    x[0][WN_F_ANCHOR_TEXT] = 0.9f; /* bucket 0: 1 + 0.25 */
    x[1][WN_F_LOG_CHARS] = 5.0f;
    x[1][WN_F_ANCHOR_TEXT] = 0.1f; /* bucket 1: -2 + 0.25 */
    x[2][WN_F_LOG_CHARS] = 5.0f;
    x[2][WN_F_ANCHOR_TEXT] = 0.9f; /* bucket 1: 2 + 0.25 */
    float p[3], q[3];
    wn_classifier_predict(&c, &x[0][0], 3, p);
    wn_classifier_predict(&back, &x[0][0], 3, q);
    for (int i = 0; i < 3; i++) CHECK(fabsf(p[i] - q[i]) < 1e-6f);
    CHECK(fabsf(p[0] - 1.0f / (1.0f + expf(-1.25f))) < 1e-5f);
    CHECK(fabsf(p[1] - 1.0f / (1.0f + expf(1.75f))) < 1e-5f);
    CHECK(fabsf(p[2] - 1.0f / (1.0f + expf(-2.25f))) < 1e-5f);
    /* word table: exact keys, bit 0 ignored, unknown words 0 */
    CHECK(wn_nb_weight(&back.nb, 0x10) == 1.5f);
    CHECK(wn_nb_weight(&back.nb, 0x2001) == -2.0f);
    CHECK(wn_nb_weight(&back.nb, 0x30) == 0.0f);
    /* a second write of what was read is byte-identical */
    size_t len2;
    char *text2 = write_to_string(&back, &len2);
    CHECK(text2 && len2 == len && memcmp(text, text2, len) == 0);
    free(text2);
    wn_classifier_free(&back);

    /* every truncation of the file is refused with a message, never read
     * as a smaller model */
    int accepted = 0, silent = 0;
    for (size_t cut = 0; cut + 1 < len; cut++) {
        err[0] = '\0';
        if (wn_classifier_parse(text, cut, &back, err, sizeof err) == 0) {
            accepted++;
            wn_classifier_free(&back);
        } else if (!err[0])
            silent++;
    }
    CHECK_EQ(accepted, 0);
    CHECK_EQ(silent, 0);
    free(text);
    wn_classifier_free(&c);
}

static void test_refused_models(void)
{
    wn_classifier c, back;
    make_trees(&c);
    size_t len;
    char *text = write_to_string(&c, &len);
    char err[256];
    /* a child pointing backwards would loop: refused */
    char *loop = strdup(text);
    char *t = strstr(loop, "\ntree 3\n");
    CHECK(t != NULL);
    if (t) {
        char *line = t + strlen("\ntree 3\n");
        /* "5 0.5 1 2 0" (feature anchor_text) -> children 0 and 2 */
        char *one = strstr(line, " 1 2 0");
        if (one) one[1] = '0';
        CHECK(wn_classifier_parse(loop, strlen(loop), &back, err, sizeof err) != 0);
        CHECK_HAS(err, "invalid children");
    }
    free(loop);
    /* another feature layout */
    char *names = strdup(text);
    char *f = strstr(names, " log_words ");
    if (f) memcpy(f + 1, "log_wordz", 9);
    CHECK(wn_classifier_parse(names, strlen(names), &back, err, sizeof err) != 0);
    CHECK_HAS(err, "log_wordz");
    free(names);
    /* not a number */
    char *nan = strdup(text);
    char *b = strstr(nan, "hand made\nnb 0.5");
    if (b) memcpy(b + strlen("hand made\nnb "), "x.5", 3);
    CHECK(wn_classifier_parse(nan, strlen(nan), &back, err, sizeof err) != 0);
    free(nan);
    /* numbers past int32_t where a tree wants a feature index or a child
     * (found by fuzz_model: the conversion was undefined behaviour) */
    static const char *const node_lines[] = { "-2e+15 0.5 1 2 0", "5 0.5 1e12 2 0", "5 0.5 1 -3e10 0",
                                              "-1 0 9e99 0 0.5",  "5.5 0.5 1 2 0",  "5 0.5 1.5 2 0" };
    for (size_t i = 0; i < sizeof node_lines / sizeof node_lines[0]; i++) {
        char *bad = malloc(strlen(text) + 64);
        char *at = strstr(text, "\ntree 3\n");
        CHECK(at != NULL);
        if (!at) {
            free(bad);
            continue;
        }
        size_t head = (size_t)(at - text) + strlen("\ntree 3\n");
        const char *rest = strchr(text + head, '\n');
        sprintf(bad, "%.*s%s%s", (int)head, text, node_lines[i], rest);
        CHECK(wn_classifier_parse(bad, strlen(bad), &back, err, sizeof err) != 0);
        CHECK(strstr(err, "out of range") || strstr(err, "invalid children"));
        free(bad);
    }
    free(text);
    wn_classifier_free(&c);
}

static void test_linear_model(void)
{
    wn_classifier c;
    memset(&c, 0, sizeof c);
    c.kind = WN_CLF_LOGREG;
    c.nbuckets = 1;
    c.edges[0] = INFINITY;
    wn_clf_bucket *bk = &c.bucket[0];
    for (int k = 0; k < WN_NFEAT; k++) bk->scale[k] = 1.0f;
    bk->mean[WN_F_ANCHOR_TEXT] = 0.5f;
    bk->scale[WN_F_ANCHOR_TEXT] = 4.0f;
    bk->w[WN_F_ANCHOR_TEXT] = 1.0f;
    bk->bias = -0.5f;
    float x[WN_NFEAT] = { 0 }, p;
    x[WN_F_ANCHOR_TEXT] = 1.0f; /* z = -0.5 + 1 * (1 - 0.5) * 4 = 1.5 */
    wn_classifier_predict(&c, x, 1, &p);
    CHECK(fabsf(p - 1.0f / (1.0f + expf(-1.5f))) < 1e-5f);
    size_t len;
    char *text = write_to_string(&c, &len);
    wn_classifier back;
    char err[256];
    CHECK_EQ(wn_classifier_parse(text, len, &back, err, sizeof err), 0);
    float q;
    wn_classifier_predict(&back, x, 1, &q);
    CHECK(fabsf(p - q) < 1e-6f);
    wn_classifier_free(&back);
    free(text);
}

/* Features of a real page: one row per visible element with enough text, every
 * value finite, and the ones with a known answer right. */
static void test_page_features(void)
{
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.classifier = 0;
    winnow_engine *e = NULL;
    winnow_engine_new(&o, &e);
    winnow_input in = { sizeof in, article_page, strlen(article_page), NULL, "https://coastal.example/tide-pools" };
    winnow_doc *d = NULL;
    CHECK(WINNOW_FAILED(winnow_extract(e, &in, &d)) == 0);
    if (d) {
        wn_page_scores ps;
        /* recompute the page scores into the doc's arena */
        CHECK_EQ(wn_page_score(d, &ps), 0);
        wn_node_features nf;
        CHECK_EQ(wn_features_compute(d, &ps, in.url, NULL, &d->arena, &nf), 0);
        uint32_t expect = 0;
        for (uint32_t i = 0; i < d->dom.count; i++) {
            const wn_node *x = &d->dom.nodes[i];
            if (x->tag != WN_TAG_TEXT && !(x->flags & WN_NF_HIDDEN) && d->stats[i].chars >= WN_FEATURE_MIN_CHARS)
                expect++;
        }
        CHECK_EQ(nf.count, expect);
        int finite = 1;
        for (size_t k = 0; k < (size_t)nf.count * WN_NFEAT; k++) finite &= isfinite(nf.x[k]) != 0;
        CHECK(finite);
        /* the nav: all anchor text, links to the same site */
        for (uint32_t r = 0; r < nf.count; r++) {
            const wn_node *x = &d->dom.nodes[nf.node[r]];
            const float *f = nf.x + (size_t)r * WN_NFEAT;
            if (x->tag == WN_TAG_NAV) {
                CHECK(f[WN_F_ANCHOR_TEXT] > 0.99f);
                CHECK(f[WN_F_INTRA_SITE] > 0.99f);
                CHECK(f[WN_F_TAG_LANDMARK] == 1.0f);
            }
            if (x->tag == WN_TAG_H1) CHECK(f[WN_F_TITLE_COVER] > 0.5f); /* the headline carries the title's words */
            CHECK(f[WN_F_NB_SUM] == 0.0f);                              /* no word model given */
        }
        winnow_doc_free(d);
    }
    winnow_engine_free(e);
}

/* ---- the flat tree layout and the NB index against the plain lookups ---- */

static uint64_t rnd_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

static float rnd_unit(uint64_t *s) { return (float)(rnd_next(s) % 1000000) / 1000000.0f; }

/* Appends a random subtree of at most `depth` levels of splits, children
 * after their parent (the `no` child after the whole `yes` subtree). */
static int32_t grow_tree(wn_tree_node *nodes, int32_t *used, uint32_t depth, uint64_t *rng)
{
    int32_t k = (*used)++;
    if (depth == 0 || rnd_next(rng) % 4 == 0) {
        nodes[k] = (wn_tree_node){ -1, 0, 0, 0, rnd_unit(rng) - 0.5f };
        return k;
    }
    nodes[k].feature = (int32_t)(rnd_next(rng) % WN_NFEAT);
    nodes[k].threshold = rnd_unit(rng);
    nodes[k].leaf = 0;
    nodes[k].yes = grow_tree(nodes, used, depth - 1, rng);
    nodes[k].no = grow_tree(nodes, used, depth - 1, rng);
    return k;
}

/* Random ensembles of each depth: the flat layout (depth <= 8) gives
 * exactly the node walk's probabilities, rows in groups and alone, NaN
 * features included; deeper trees keep the node walk. */
static void test_flat_trees(void)
{
    uint64_t rng = 42;
    enum { ROWS = 37, TREES = 20 };
    float *x = malloc(sizeof(float) * ROWS * WN_NFEAT);
    for (int i = 0; i < ROWS * WN_NFEAT; i++) x[i] = rnd_unit(&rng);
    x[3 * WN_NFEAT + 5] = NAN;
    x[20 * WN_NFEAT + 0] = NAN;
    for (uint32_t depth = 0; depth <= 9; depth++) {
        for (uint32_t nb = 1; nb <= 2; nb++) {
            wn_classifier c;
            memset(&c, 0, sizeof c);
            c.kind = WN_CLF_BOOST;
            c.nbuckets = nb;
            c.edges[0] = nb == 2 ? 0.5f : INFINITY;
            c.edges[1] = INFINITY;
            for (uint32_t b = 0; b < nb; b++) {
                wn_clf_bucket *bk = &c.bucket[b];
                bk->ntrees = TREES;
                bk->base_margin = 0.125f * (float)(b + 1);
                bk->tree_start = calloc(TREES + 1, sizeof(uint32_t));
                bk->nodes = calloc((size_t)TREES << (depth + 1), sizeof(wn_tree_node));
                int32_t used = 0;
                for (uint32_t t = 0; t < TREES; t++) {
                    bk->tree_start[t] = (uint32_t)used;
                    int32_t size = 0; /* node indices are relative to the tree */
                    grow_tree(bk->nodes + used, &size, depth, &rng);
                    used += size;
                }
                bk->tree_start[TREES] = (uint32_t)used;
                wn_clf_bucket_finish(bk);
                CHECK_EQ(bk->flat_leaf != NULL, depth <= WN_FLAT_MAX_DEPTH);
            }
            /* the same trees without the flat layout */
            wn_classifier plain = c;
            for (uint32_t b = 0; b < nb; b++) {
                plain.bucket[b].flat_feature = NULL;
                plain.bucket[b].flat_threshold = NULL;
                plain.bucket[b].flat_leaf = NULL;
            }
            for (uint32_t rows = 1; rows <= ROWS; rows += 6) {
                float p[ROWS], q[ROWS];
                wn_classifier_predict(&c, x, rows, p);
                wn_classifier_predict(&plain, x, rows, q);
                CHECK(memcmp(p, q, rows * sizeof *p) == 0);
            }
            wn_classifier_free(&c);
        }
    }
    free(x);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The hash index and the batch give the weights binary search gives, for
 * keys in the table (with or without bit 0), absent ones and even ones. */
static void test_nb_index(void)
{
    uint64_t rng = 7;
    enum { N = 3000, Q = 9000 };
    wn_nb_model m;
    memset(&m, 0, sizeof m);
    m.word = malloc(N * sizeof *m.word);
    m.weight = malloc(N * sizeof *m.weight);
    for (uint32_t k = 0; k < N; k++) m.word[k] = (rnd_next(&rng) << 12) | (k % 7 == 0 ? 0 : 1);
    qsort(m.word, N, sizeof *m.word, cmp_u64);
    uint32_t n = 0;
    for (uint32_t k = 0; k < N; k++)
        if (n == 0 || m.word[k] != m.word[n - 1]) m.word[n++] = m.word[k];
    m.count = n;
    for (uint32_t k = 0; k < n; k++) m.weight[k] = rnd_unit(&rng) - 0.5f;
    wn_nb_model plain = m; /* no index yet: binary search */
    CHECK_EQ(wn_nb_index(&m), 0);
    CHECK(m.slot_word != NULL);
    uint64_t *q = malloc(Q * sizeof *q);
    float *batch = malloc(Q * sizeof *batch);
    for (uint32_t i = 0; i < Q; i++) {
        uint64_t w = m.word[rnd_next(&rng) % n];
        switch (i % 3) {
        case 0: q[i] = w; break;
        case 1: q[i] = w & ~1ull; break;
        default: q[i] = rnd_next(&rng); break;
        }
    }
    wn_nb_weights(&m, q, Q, batch);
    int same = 1, hits = 0;
    for (uint32_t i = 0; i < Q; i++) {
        float a = wn_nb_weight(&plain, q[i]), b = wn_nb_weight(&m, q[i]);
        if (a != b || batch[i] != a) same = 0;
        hits += a != 0.0f;
    }
    CHECK(same);
    CHECK(hits > Q / 2);
    free(q);
    free(batch);
    wn_nb_free(&m);
}

/* The built-in model parses and is used by default. */
static void test_default_model(void)
{
    if (wn_default_model_len == 0) return; /* a build without a model file */
    wn_classifier c;
    char err[256];
    CHECK_EQ(wn_classifier_parse((const char *)wn_default_model, wn_default_model_len, &c, err, sizeof err), 0);
    wn_classifier_free(&c);
    winnow_engine *e = NULL;
    winnow_engine_new(NULL, &e);
    CHECK(winnow_engine_has_model(e));
    CHECK_EQ(winnow_engine_load_model(e, NULL), WINNOW_OK);
    CHECK(!winnow_engine_has_model(e));
    winnow_engine_free(e);
}

/* The model parser's fast path gives strtod's double, bit for bit, for
 * every number of the default model and for plain decimals of every shape
 * it takes; anything else it leaves to strtod. */
static void test_plain_decimal(void)
{
    const char *path = WINNOW_SOURCE_DIR "/models/default.wmodel";
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f) return;
    char tok[128];
    size_t taken = 0, tokens = 0;
    while (fscanf(f, "%127s", tok) == 1) {
        tokens++;
        double fast, slow;
        if (!wn_clf_plain_decimal(tok, &fast)) continue;
        taken++;
        char *e;
        slow = strtod(tok, &e);
        CHECK(*e == '\0');
        CHECK(memcmp(&fast, &slow, sizeof fast) == 0);
    }
    fclose(f);
    CHECK(taken > tokens / 2); /* the model is mostly plain decimals */
    /* every shape, rounding included: pseudo-random digit strings */
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int len = 1 + (int)(x % 17), point = (int)((x >> 8) % (uint64_t)(len + 2)) - 1;
        char b[64];
        int n = 0;
        if (x >> 20 & 1) b[n++] = '-';
        for (int k = 0; k < len; k++) {
            if (k == point) b[n++] = '.';
            b[n++] = (char)('0' + (x >> (24 + 2 * (k % 16))) % 10);
        }
        b[n] = '\0';
        double fast, slow;
        if (!wn_clf_plain_decimal(b, &fast)) continue;
        char *e;
        slow = strtod(b, &e);
        CHECK(*e == '\0');
        CHECK(memcmp(&fast, &slow, sizeof fast) == 0);
    }
    double v;
    CHECK(wn_clf_plain_decimal("-2.2226", &v) && v == -2.2226);
    CHECK(wn_clf_plain_decimal("0.000123", &v) && v == 0.000123);
    CHECK(wn_clf_plain_decimal("-0", &v) && v == 0 && signbit(v));
    CHECK(!wn_clf_plain_decimal("1e5", &v));
    CHECK(!wn_clf_plain_decimal("1.", &v));
    CHECK(!wn_clf_plain_decimal("-", &v));
    CHECK(!wn_clf_plain_decimal(".", &v));
    CHECK(!wn_clf_plain_decimal("1.2.3", &v));
    CHECK(!wn_clf_plain_decimal("nan", &v));
    CHECK(!wn_clf_plain_decimal("1234567890123456", &v)); /* 16 digits: strtod's */
}

int main(void)
{
    RUN(test_tree_model_round_trip);
    RUN(test_refused_models);
    RUN(test_linear_model);
    RUN(test_flat_trees);
    RUN(test_nb_index);
    RUN(test_page_features);
    RUN(test_default_model);
    RUN(test_plain_decimal);
    return CHECK_DONE();
}
