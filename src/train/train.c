/* Training node classifiers from automatic site-level labels.
 *
 * Labels (Kolcz & Yih, Chakrabarti et al.), per site, after counting the
 * site's block fingerprints over all its pages:
 *  - template: a block candidate whose text occurs on >= 10% of the site's
 *    pages (and on at least 2), or any node with more than 85% of its text
 *    inside such blocks;
 *  - content: a block candidate whose text no other page has, all of whose
 *    sub-blocks are unique too, and only the top-most such block (Kolcz &
 *    Yih's control of the class imbalance);
 *  - everything else is left out.
 * Identical feature vectors are kept once in the training set.
 *
 * The text Naive Bayes score is a feature of the final model. So that the
 * model learns how far to trust it on unseen sites, the training rows get
 * it from a Naive Bayes fitted on the other half of the training sites
 * (cross-fitting); the model file stores one fitted on all of them.
 *
 * A client of the pipeline, not part of libwinnow (winnow_train.h). */
#include "winnow_train.h"

#include <linear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xgboost/c_api.h>
#include <xxhash.h>

#include "../classify/classifier.h"
#include "../classify/features.h"
#include "../classify/nb.h"
#include "../doc.h"
#include "../pipeline/pipeline.h"
#include "../site/site_api.h"
#include "train_internal.h"

#define WORDS_PER_EXAMPLE 24
#define TEMPLATE_SHARE 0.10
#define CHAKRABARTI_SHARE 0.85

typedef struct example {
    float x[WN_NFEAT];
    uint32_t site;
    uint32_t words_off; /* sampled word occurrences in the trainer's pool */
    uint16_t nwords;
    uint8_t label;     /* 1 template, 0 content */
    uint32_t nw_total; /* word occurrences of the node */
} example;

struct winnow_trainer {
    winnow_train_options o;
    example *ex;
    size_t n, cap;
    uint64_t *words;
    size_t nwords, wcap;
    char **site_names;
    size_t sites, pages;
    XXH3_state_t *digest;
    char error[512];
};

/* ---- small deterministic generator (splitmix64) ---- */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

winnow_model_kind winnow_model_kind_parse(const char *name)
{
    return name ? (winnow_model_kind)wn_clf_kind_parse(name) : WINNOW_MODEL_UNKNOWN;
}
const char *winnow_model_kind_name(winnow_model_kind kind) { return wn_clf_kind_name((int)kind); }

winnow_status winnow_train_options_default(winnow_train_options *o, size_t struct_size)
{
    if (!o || struct_size < sizeof *o) return WINNOW_E_ARG;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->kind = WINNOW_MODEL_BOOST;
    o->buckets = 1;
    o->seed = 1;
    o->per_page = 40;
    o->threads = 2;
    return WINNOW_OK;
}

winnow_status winnow_trainer_new(const winnow_train_options *o, winnow_trainer **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (o && o->struct_size < sizeof *o) return WINNOW_E_ARG;
    winnow_trainer *t = calloc(1, sizeof *t);
    if (!t) return WINNOW_E_NOMEM;
    if (o)
        t->o = *o;
    else
        winnow_train_options_default(&t->o, sizeof t->o);
    if (!t->o.kind) t->o.kind = WINNOW_MODEL_BOOST;
    if (!t->o.buckets) t->o.buckets = 1;
    if (t->o.buckets > WN_MAX_BUCKETS) t->o.buckets = WN_MAX_BUCKETS;
    if (!t->o.per_page) t->o.per_page = 40;
    if (!t->o.threads) t->o.threads = 2;
    t->digest = XXH3_createState();
    if (!t->digest) {
        free(t);
        return WINNOW_E_NOMEM;
    }
    XXH3_64bits_reset(t->digest);
    *out = t;
    return WINNOW_OK;
}

void winnow_trainer_free(winnow_trainer *t)
{
    if (!t) return;
    free(t->ex);
    free(t->words);
    for (size_t s = 0; s < t->sites; s++) free(t->site_names[s]);
    free(t->site_names);
    XXH3_freeState(t->digest);
    free(t);
}

const char *winnow_trainer_error(const winnow_trainer *t) { return t ? t->error : ""; }

void winnow_trainer_summary(const winnow_trainer *t, winnow_train_summary *out)
{
    memset(out, 0, sizeof *out);
    if (!t) return;
    out->sites = t->sites;
    out->pages = t->pages;
    out->examples = t->n;
    for (size_t i = 0; i < t->n; i++) {
        if (t->ex[i].label)
            out->template_examples++;
        else
            out->content_examples++;
    }
}

/* ---- pass 2: labels and features of one page ---- */

typedef struct page_ctx {
    winnow_trainer *t;
    const wn_site_model *m;
    uint32_t site;
    const char *url;
    uint64_t rng;
    int oom;
} page_ctx;

static int push_example(winnow_trainer *t, const float *x, uint32_t site, int label, const winnow_doc *d, uint32_t node)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        example *g = realloc(t->ex, cap * sizeof *g);
        if (!g) return -1;
        t->ex = g;
        t->cap = cap;
    }
    if (t->nwords + WORDS_PER_EXAMPLE > t->wcap) {
        size_t cap = t->wcap ? t->wcap * 2 : 65536;
        uint64_t *g = realloc(t->words, cap * sizeof *g);
        if (!g) return -1;
        t->words = g;
        t->wcap = cap;
    }
    example *e = &t->ex[t->n++];
    memcpy(e->x, x, sizeof e->x);
    e->site = site;
    e->label = (uint8_t)label;
    const wn_stats *s = &d->stats[node];
    uint32_t nw = s->w_end - s->w_begin;
    e->nw_total = nw;
    e->words_off = (uint32_t)t->nwords;
    /* evenly spaced occurrences: the Naive Bayes mean over them estimates
     * the mean over all the node's words */
    uint32_t take = nw < WORDS_PER_EXAMPLE ? nw : WORDS_PER_EXAMPLE;
    for (uint32_t k = 0; k < take; k++) {
        uint32_t pos = s->w_begin + (uint32_t)((uint64_t)k * nw / take);
        t->words[t->nwords++] = d->page_text.words[pos];
    }
    e->nwords = (uint16_t)take;
    return 0;
}

/* Keeps at most cap of the candidates (a seeded partial shuffle). */
static uint32_t sample(uint32_t *v, uint32_t n, uint32_t cap, uint64_t *rng)
{
    if (n <= cap) return n;
    for (uint32_t k = 0; k < cap; k++) {
        uint32_t j = k + (uint32_t)(rng_next(rng) % (n - k));
        uint32_t tmp = v[k];
        v[k] = v[j];
        v[j] = tmp;
    }
    return cap;
}

static int inspect_page(void *ctxp, winnow_doc *d, const wn_page_scores *ps, const wn_page_signals *sig)
{
    page_ctx *ctx = ctxp;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t n = dom->count;
    wn_arena *a = &d->arena;
    const wn_site_model *m = ctx->m;
    double pages = wn_site_model_pages(m);
    double self = wn_site_model_self_weight(m, sig->imatch);
    double tmpl_df = TEMPLATE_SHARE * pages > 2.0 ? TEMPLATE_SHARE * pages : 2.0;

    /* block verdicts: 1 template, 2 unique, 3 in between */
    uint8_t *verdict = wn_arena_calloc(a, n, 1);
    float *tchars = wn_arena_calloc(a, n, sizeof(float));
    uint8_t *nonunique_below = wn_arena_calloc(a, n, 1);
    uint8_t *allu_above = wn_arena_calloc(a, n, 1);
    uint32_t *tcand = wn_arena_alloc(a, (size_t)n * sizeof(uint32_t));
    uint32_t *ccand = wn_arena_alloc(a, (size_t)n * sizeof(uint32_t));
    if (!verdict || !tchars || !nonunique_below || !allu_above || !tcand || !ccand) return -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!st[i].is_block || !st[i].fingerprint) continue;
        double df = wn_site_model_df(m, WN_KEY_BLOCK, st[i].fingerprint);
        /* aged counts: a count of 1 is slightly below 1 */
        if (df + 1e-6 >= tmpl_df * 0.999 && df > 1.5)
            verdict[i] = 1;
        else if (df - self < 0.5)
            verdict[i] = 2;
        else
            verdict[i] = 3;
    }
    /* bottom-up: template text under each node, non-unique blocks below */
    for (uint32_t i = n; i-- > 0;) {
        if (verdict[i] == 1) tchars[i] = (float)st[i].chars;
        if (verdict[i] == 1 || verdict[i] == 3) nonunique_below[i] = 1;
        if (i > 0) {
            uint32_t p = dom->nodes[i].parent;
            if (verdict[p] != 1) tchars[p] += tchars[i];
            nonunique_below[p] |= nonunique_below[i];
        }
    }
    uint32_t nt = 0, nc = 0;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        int allu = verdict[i] == 2 && !nonunique_below[i];
        uint8_t above = i > 0 ? allu_above[x->parent] : 0;
        allu_above[i] = (uint8_t)(above | allu);
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN) || st[i].chars == 0) continue;
        if (verdict[i] == 1 || tchars[i] > CHAKRABARTI_SHARE * (float)st[i].chars)
            tcand[nt++] = i;
        else if (allu && !above)
            ccand[nc++] = i;
        /* "inside": every node within a top-most unique block is content
         * too (Chakrabarti et al. label all non-template nodes), so small
         * paragraphs are seen as content, not only whole articles */
        else if (ctx->t->o.labels == WINNOW_LABELS_INSIDE && above && st[i].chars >= WN_FEATURE_MIN_CHARS)
            ccand[nc++] = i;
    }
    if (nt == 0 && nc == 0) return 0;

    wn_node_features nf;
    if (wn_features_compute(d, ps, ctx->url, NULL, a, &nf) != 0) return -1;
    uint32_t cap = ctx->t->o.per_page;
    nt = sample(tcand, nt, cap, &ctx->rng);
    nc = sample(ccand, nc, cap, &ctx->rng);
    for (uint32_t k = 0; k < nt + nc; k++) {
        uint32_t i = k < nt ? tcand[k] : ccand[k - nt];
        int32_t r = nf.row_of[i];
        if (r < 0) continue;
        if (push_example(ctx->t, nf.x + (size_t)r * WN_NFEAT, ctx->site, k < nt, d, i) != 0) {
            ctx->oom = 1;
            return -1;
        }
    }
    return 0;
}

winnow_status winnow_trainer_add_site(winnow_trainer *t, winnow_engine *e, const char *site, const winnow_input *pages,
                                      size_t n)
{
    if (!t || !e || !site || (!pages && n)) return WINNOW_E_ARG;
    t->error[0] = '\0';
    char **names = realloc(t->site_names, (t->sites + 1) * sizeof *names);
    if (!names) return WINNOW_E_NOMEM;
    t->site_names = names;
    names[t->sites] = strdup(site);
    if (!names[t->sites]) return WINNOW_E_NOMEM;
    uint32_t sid = (uint32_t)t->sites++;
    XXH3_64bits_update(t->digest, site, strlen(site) + 1);

    /* pass 1: the site's block fingerprints over all its pages */
    winnow_site *ws = NULL;
    winnow_status st = winnow_site_new(site, 0, &ws);
    if (st != WINNOW_OK) return st;
    for (size_t i = 0; i < n; i++) {
        int counted;
        winnow_status s = winnow_site_learn(e, ws, &pages[i], &counted);
        if (s == WINNOW_E_NOMEM) {
            winnow_site_free(ws);
            return s;
        }
        XXH3_64bits_update(t->digest, pages[i].data, pages[i].len);
    }
    /* pass 2: labels and features, each distinct page once */
    page_ctx ctx = { t, wn_site_unwrap(ws), sid, NULL, 0, 0 };
    ctx.rng = (uint64_t)t->o.seed * 0x9E3779B97F4A7C15ull ^ XXH3_64bits(site, strlen(site));
    uint64_t *seen = calloc(n + 1, sizeof *seen);
    size_t nseen = 0;
    winnow_status rc = WINNOW_OK;
    for (size_t i = 0; i < n && seen; i++) {
        wn_page_signals sig;
        ctx.url = pages[i].url;
        site_hook hook = { ctx.m, NULL, &sig, inspect_page, &ctx };
        winnow_doc *d = NULL;
        /* the signals (I-Match) come before inspection: a page already
         * seen under another URL is inspected again but its examples are
         * dropped below */
        size_t before = t->n, wbefore = t->nwords;
        winnow_status s = wn_pipeline_run(e, WN_RUN_TRAIN, &pages[i], &hook, &d);
        if (ctx.oom || s == WINNOW_E_NOMEM) {
            winnow_doc_free(d);
            rc = WINNOW_E_NOMEM;
            break;
        }
        if (WINNOW_FAILED(s)) continue;
        int dup = 0;
        for (size_t k = 0; k < nseen; k++)
            if (seen[k] == sig.imatch && sig.imatch) {
                dup = 1;
                break;
            }
        if (dup) {
            t->n = before;
            t->nwords = wbefore;
        } else {
            seen[nseen++] = sig.imatch;
            t->pages++;
        }
        winnow_doc_free(d);
    }
    if (!seen) rc = WINNOW_E_NOMEM;
    free(seen);
    winnow_site_free(ws);
    return rc;
}

/* ---- fitting ---- */

static void nb_fill(const winnow_trainer *t, const wn_nb_model *nb, example *e)
{
    double sum = 0;
    const uint64_t *w = t->words + e->words_off;
    for (uint32_t k = 0; k < e->nwords; k++) sum += wn_nb_weight(nb, w[k]);
    double mean = e->nwords ? sum / e->nwords : 0.0;
    e->x[WN_F_NB_MEAN] = e->nwords ? (float)mean : 0.0f;
    double z = e->nwords ? nb->prior + mean * e->nw_total : 0.0;
    e->x[WN_F_NB_SUM] = e->nwords ? (float)fmax(-50.0, fmin(50.0, z)) : 0.0f;
}

static int nb_fit(const winnow_trainer *t, const size_t *idx, size_t n, wn_nb_model *out)
{
    wn_nb_counts *c = wn_nb_counts_new();
    if (!c) return -1;
    for (size_t k = 0; k < n; k++) {
        const example *e = &t->ex[idx[k]];
        if (wn_nb_counts_add(c, t->words + e->words_off, e->nwords, e->label) != 0) {
            wn_nb_counts_free(c);
            return -1;
        }
    }
    int r = wn_nb_build(c, 5, 10000, out);
    wn_nb_counts_free(c);
    return r;
}

/* Naive Bayes columns of the training rows from a model fitted on the
 * other half of the training sites. */
static int nb_crossfit(winnow_trainer *t, const size_t *idx, size_t n)
{
    size_t *half[2];
    size_t cnt[2] = { 0, 0 };
    half[0] = malloc((n + 1) * sizeof(size_t));
    half[1] = malloc((n + 1) * sizeof(size_t));
    if (!half[0] || !half[1]) {
        free(half[0]);
        free(half[1]);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        uint32_t s = t->ex[idx[k]].site;
        int h = (int)(XXH3_64bits_withSeed(&s, sizeof s, t->o.seed) & 1);
        half[h][cnt[h]++] = idx[k];
    }
    int rc = 0;
    for (int h = 0; h < 2 && rc == 0; h++) {
        wn_nb_model other;
        if (nb_fit(t, half[1 - h], cnt[1 - h], &other) != 0) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < cnt[h]; k++) nb_fill(t, &other, &t->ex[half[h][k]]);
        wn_nb_free(&other);
    }
    free(half[0]);
    free(half[1]);
    return rc;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Identical feature vectors (and label) once. */
static size_t dedup(const winnow_trainer *t, size_t *idx, size_t n)
{
    size_t cap = 1024;
    while (cap < 2 * n + 2) cap <<= 1;
    uint64_t *set = calloc(cap, sizeof *set);
    if (!set) return n;
    size_t u = 0;
    for (size_t k = 0; k < n; k++) {
        const example *e = &t->ex[idx[k]];
        uint64_t h = XXH3_64bits_withSeed(e->x, sizeof e->x, e->label) | 1;
        size_t s = (size_t)(h >> 7) & (cap - 1);
        while (set[s] && set[s] != h) s = (s + 1) & (cap - 1);
        if (set[s]) continue;
        set[s] = h;
        idx[u++] = idx[k];
    }
    free(set);
    return u;
}

static void quiet(const char *s) { (void)s; }

static int fit_linear(winnow_trainer *t, const size_t *idx, size_t n, wn_clf_bucket *b)
{
    double sum[WN_NFEAT] = { 0 }, sq[WN_NFEAT] = { 0 };
    for (size_t k = 0; k < n; k++)
        for (int f = 0; f < WN_NFEAT; f++) {
            double v = t->ex[idx[k]].x[f];
            sum[f] += v;
            sq[f] += v * v;
        }
    for (int f = 0; f < WN_NFEAT; f++) {
        double mean = n ? sum[f] / n : 0, var = n ? sq[f] / n - mean * mean : 0;
        b->mean[f] = (float)mean;
        b->scale[f] = var > 1e-12 ? (float)(1.0 / sqrt(var)) : 0.0f;
    }
    struct feature_node *pool = malloc(n * (WN_NFEAT + 2) * sizeof *pool);
    struct feature_node **rows = malloc(n * sizeof *rows);
    double *y = malloc(n * sizeof *y);
    if (!pool || !rows || !y) {
        free(pool);
        free(rows);
        free(y);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        struct feature_node *r = pool + k * (WN_NFEAT + 2);
        const example *e = &t->ex[idx[k]];
        for (int f = 0; f < WN_NFEAT; f++) r[f] = (struct feature_node){ f + 1, (e->x[f] - b->mean[f]) * b->scale[f] };
        r[WN_NFEAT] = (struct feature_node){ WN_NFEAT + 1, 1.0 };
        r[WN_NFEAT + 1] = (struct feature_node){ -1, 0 };
        rows[k] = r;
        y[k] = e->label ? 1 : -1;
    }
    struct problem prob = { .l = (int)n, .n = WN_NFEAT + 1, .y = y, .x = rows, .bias = 1.0 };
    struct parameter par = { .solver_type = L2R_LR, .eps = 0.01, .C = 1.0, .p = 0.1 };
    set_print_string_function(quiet);
    const char *msg = check_parameter(&prob, &par);
    int rc = -1;
    if (msg) {
        snprintf(t->error, sizeof t->error, "liblinear: %s", msg);
    } else {
        struct model *m = train(&prob, &par);
        if (m) {
            double sign = m->label[0] == 1 ? 1.0 : -1.0;
            for (int f = 0; f < WN_NFEAT; f++) b->w[f] = (float)(sign * m->w[f]);
            b->bias = (float)(sign * m->w[WN_NFEAT]);
            free_and_destroy_model(&m);
            rc = 0;
        }
    }
    free(pool);
    free(rows);
    free(y);
    return rc;
}

/* Reads XGBoost's text dump of one tree ("id:[fK<thr] yes=a,no=b,..." and
 * "id:leaf=v" lines) into nodes numbered breadth-first, so that children
 * always come after their parent. */
winnow_status wn_train_write_text(const char *path, const char *text, size_t len, char *err, size_t cap)
{
    FILE *f = fopen(path, "w");
    int bad = !f || fwrite(text, 1, len, f) != len;
    if (f && fclose(f) != 0) bad = 1;
    if (bad) snprintf(err, cap, "cannot write %s", path);
    return bad ? WINNOW_E_IO : WINNOW_OK;
}

int wn_train_name_index(char ***names, unsigned *n, const char *name)
{
    for (unsigned k = 0; k < *n; k++)
        if (!strcmp((*names)[k], name)) return (int)k;
    char **c = realloc(*names, (*n + 1) * sizeof *c);
    if (!c) return -1;
    *names = c;
    if (!(c[*n] = strdup(name))) return -1;
    return (int)(*n)++;
}

int wn_train_convert_tree(const char *dump, int nfeat, wn_tree_node **nodes, size_t *used, size_t *cap)
{
    typedef struct raw {
        int feature, yes, no, set;
        float thr, leaf;
    } raw;
    int maxid = -1;
    for (const char *p = dump; *p;) {
        while (*p == '\t' || *p == '\n') p++;
        if (!*p) break;
        int id = atoi(p);
        if (id > maxid) maxid = id;
        while (*p && *p != '\n') p++;
    }
    if (maxid < 0 || maxid > 1 << 20) return -1;
    raw *r = calloc((size_t)maxid + 1, sizeof *r);
    int *order = malloc(((size_t)maxid + 1) * sizeof(int));
    int *newid = malloc(((size_t)maxid + 1) * sizeof(int));
    if (!r || !order || !newid) {
        free(r);
        free(order);
        free(newid);
        return -1;
    }
    for (const char *p = dump; *p;) {
        while (*p == '\t' || *p == '\n') p++;
        if (!*p) break;
        int id = atoi(p);
        const char *colon = strchr(p, ':');
        if (!colon) break;
        raw *x = &r[id];
        x->set = 1;
        if (!strncmp(colon + 1, "leaf=", 5)) {
            x->feature = -1;
            x->leaf = strtof(colon + 6, NULL);
        } else {
            int f = 0, yes = 0, no = 0;
            char *e;
            const char *q = colon + 1;
            if (*q == '[') q++;
            if (*q == 'f') q++;
            f = (int)strtol(q, &e, 10);
            float thr = (*e == '<') ? strtof(e + 1, &e) : 0.0f;
            const char *ys = strstr(e, "yes="), *ns = strstr(e, "no=");
            if (ys) yes = atoi(ys + 4);
            if (ns) no = atoi(ns + 3);
            x->feature = f;
            x->thr = thr;
            x->yes = yes;
            x->no = no;
        }
        while (*p && *p != '\n') p++;
    }
    /* breadth-first renumbering */
    int head = 0, tail = 0, ok = r[0].set;
    for (int i = 0; i <= maxid; i++) newid[i] = -1;
    if (ok) {
        order[tail++] = 0;
        newid[0] = 0;
    }
    while (ok && head < tail) {
        raw *x = &r[order[head++]];
        if (x->feature < 0) continue;
        int kids[2] = { x->yes, x->no };
        for (int k = 0; k < 2; k++) {
            int c = kids[k];
            if (c < 0 || c > maxid || !r[c].set || newid[c] >= 0 || x->feature >= nfeat) {
                ok = 0;
                break;
            }
            newid[c] = tail;
            order[tail++] = c;
        }
    }
    if (ok) {
        if (*used + (size_t)tail > *cap) {
            size_t nc = (*cap ? *cap : 1024);
            while (nc < *used + (size_t)tail) nc *= 2;
            wn_tree_node *g = realloc(*nodes, nc * sizeof *g);
            if (!g)
                ok = 0;
            else {
                *nodes = g;
                *cap = nc;
            }
        }
    }
    if (ok) {
        for (int k = 0; k < tail; k++) {
            raw *x = &r[order[k]];
            wn_tree_node *o = &(*nodes)[*used + (size_t)k];
            o->feature = x->feature;
            o->threshold = x->thr;
            o->leaf = x->leaf;
            o->yes = x->feature >= 0 ? newid[x->yes] : 0;
            o->no = x->feature >= 0 ? newid[x->no] : 0;
        }
        *used += (size_t)tail;
    }
    free(r);
    free(order);
    free(newid);
    return ok ? 0 : -1;
}

int wn_train_xgb_binary(BoosterHandle bh, unsigned seed, unsigned threads)
{
    char buf[32];
    int rc;
    if ((rc = XGBoosterSetParam(bh, "objective", "binary:logistic")) != 0 ||
        (rc = XGBoosterSetParam(bh, "base_score", "0.5")) != 0 ||
        (rc = XGBoosterSetParam(bh, "tree_method", "hist")) != 0 || (rc = XGBoosterSetParam(bh, "verbosity", "0")) != 0)
        return rc;
    snprintf(buf, sizeof buf, "%u", seed);
    if ((rc = XGBoosterSetParam(bh, "seed", buf)) != 0) return rc;
    snprintf(buf, sizeof buf, "%u", threads);
    return XGBoosterSetParam(bh, "nthread", buf);
}

int wn_train_xgb_bucket(BoosterHandle bh, int nfeat, wn_clf_bucket *b, char *err, size_t cap)
{
    bst_ulong ntrees;
    const char **dump;
    if (XGBoosterDumpModelEx(bh, "", 0, "text", &ntrees, &dump) != 0) {
        snprintf(err, cap, "xgboost: %s", XGBGetLastError());
        return -1;
    }
    b->ntrees = (uint32_t)ntrees;
    b->tree_start = calloc((size_t)ntrees + 1, sizeof(uint32_t));
    if (!b->tree_start) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    size_t used = 0, ncap = 0;
    for (bst_ulong k = 0; k < ntrees; k++) {
        b->tree_start[k] = (uint32_t)used;
        if (wn_train_convert_tree(dump[k], nfeat, &b->nodes, &used, &ncap) != 0) {
            snprintf(err, cap, "cannot read XGBoost tree %llu", (unsigned long long)k);
            return -1;
        }
    }
    b->tree_start[ntrees] = (uint32_t)used;
    b->base_margin = 0.0f; /* logit(base_score 0.5) */
    wn_clf_bucket_finish(b);
    return 0;
}

#define XGB_CHECK(call)                                                                                                \
    do {                                                                                                               \
        if ((call) != 0) {                                                                                             \
            snprintf(t->error, sizeof t->error, "xgboost: %s", XGBGetLastError());                                     \
            goto out;                                                                                                  \
        }                                                                                                              \
    } while (0)

static int fit_trees(winnow_trainer *t, const size_t *idx, size_t n, int kind, wn_clf_bucket *b)
{
    int rc = -1;
    float *x = malloc(n * WN_NFEAT * sizeof *x), *y = malloc(n * sizeof *y);
    DMatrixHandle dm = NULL;
    BoosterHandle bh = NULL;
    if (!x || !y) goto out;
    for (size_t k = 0; k < n; k++) {
        memcpy(x + k * WN_NFEAT, t->ex[idx[k]].x, WN_NFEAT * sizeof(float));
        y[k] = t->ex[idx[k]].label;
    }
    XGB_CHECK(XGDMatrixCreateFromMat(x, n, WN_NFEAT, NAN, &dm));
    XGB_CHECK(XGDMatrixSetFloatInfo(dm, "label", y, n));
    XGB_CHECK(XGBoosterCreate(&dm, 1, &bh));
    char buf[32];
    XGB_CHECK(wn_train_xgb_binary(bh, t->o.seed, t->o.threads));
    unsigned rounds;
    if (kind == WN_CLF_FOREST) {
        rounds = 1;
        snprintf(buf, sizeof buf, "%u", t->o.rounds ? t->o.rounds : 100);
        XGB_CHECK(XGBoosterSetParam(bh, "num_parallel_tree", buf));
        XGB_CHECK(XGBoosterSetParam(bh, "eta", "1"));
        XGB_CHECK(XGBoosterSetParam(bh, "subsample", "0.632"));
        XGB_CHECK(XGBoosterSetParam(bh, "colsample_bynode", "0.33"));
        snprintf(buf, sizeof buf, "%u", t->o.depth ? t->o.depth : 10);
        XGB_CHECK(XGBoosterSetParam(bh, "max_depth", buf));
    } else {
        rounds = t->o.rounds ? t->o.rounds : 100;
        /* the same total step over fewer rounds: eta 0.2 at the default 100 */
        double eta = 20.0 / rounds;
        snprintf(buf, sizeof buf, "%.4f", eta < 0.05 ? 0.05 : eta > 0.5 ? 0.5 : eta);
        XGB_CHECK(XGBoosterSetParam(bh, "eta", buf));
        XGB_CHECK(XGBoosterSetParam(bh, "subsample", "0.8"));
        XGB_CHECK(XGBoosterSetParam(bh, "colsample_bytree", "0.8"));
        XGB_CHECK(XGBoosterSetParam(bh, "min_child_weight", "2"));
        snprintf(buf, sizeof buf, "%u", t->o.depth ? t->o.depth : 6);
        XGB_CHECK(XGBoosterSetParam(bh, "max_depth", buf));
    }
    for (unsigned it = 0; it < rounds; it++) XGB_CHECK(XGBoosterUpdateOneIter(bh, (int)it, dm));

    if (wn_train_xgb_bucket(bh, WN_NFEAT, b, t->error, sizeof t->error) != 0) goto out;

    /* the converted trees must give XGBoost's own margins */
    bst_ulong plen;
    const float *pred;
    XGB_CHECK(XGBoosterPredict(bh, dm, 1, 0, 0, &plen, &pred));
    size_t check = n < 5000 ? n : 5000;
    for (size_t k = 0; k < check && k < plen; k++) {
        const float *f = x + k * WN_NFEAT;
        double z = b->base_margin;
        for (uint32_t tr = 0; tr < b->ntrees; tr++) z += wn_tree_eval(b->nodes + b->tree_start[tr], f, b->paired);
        if (fabs(z - pred[k]) > 1e-3 * (1.0 + fabs(pred[k]))) {
            snprintf(t->error, sizeof t->error, "converted trees disagree with XGBoost on row %zu (%g vs %g)", k, z,
                     (double)pred[k]);
            goto out;
        }
    }
    rc = 0;
out:
    if (bh) XGBoosterFree(bh);
    if (dm) XGDMatrixFree(dm);
    free(x);
    free(y);
    return rc;
}

/* Fits a classifier on the examples idx[0..n) (reordered and NB columns
 * rewritten). */
static int fit(winnow_trainer *t, size_t *idx, size_t n, int kind, wn_classifier *c)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    if (n == 0) {
        snprintf(t->error, sizeof t->error, "no labelled examples to train on");
        return -1;
    }
    if (nb_fit(t, idx, n, &c->nb) != 0) goto oom;
    if (nb_crossfit(t, idx, n) != 0) goto oom;
    n = dedup(t, idx, n);
    c->examples = (uint32_t)n;
    /* node-size buckets: quantiles of log(chars) */
    c->nbuckets = kind == WN_CLF_NB ? 1 : t->o.buckets;
    float *lc = malloc((n + 1) * sizeof *lc);
    if (!lc) goto oom;
    for (size_t k = 0; k < n; k++) lc[k] = t->ex[idx[k]].x[WN_F_LOG_CHARS];
    qsort(lc, n, sizeof *lc, cmp_float);
    for (uint32_t b = 0; b + 1 < c->nbuckets; b++) c->edges[b] = lc[(size_t)((double)n * (b + 1) / c->nbuckets)];
    c->edges[c->nbuckets - 1] = INFINITY;
    free(lc);
    if (kind == WN_CLF_NB) return 0;
    size_t *sub = malloc((n + 1) * sizeof *sub);
    if (!sub) goto oom;
    for (uint32_t b = 0; b < c->nbuckets; b++) {
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            float v = t->ex[idx[k]].x[WN_F_LOG_CHARS];
            uint32_t bb = 0;
            while (bb + 1 < c->nbuckets && v >= c->edges[bb]) bb++;
            if (bb == b) sub[m++] = idx[k];
        }
        int r =
            kind == WN_CLF_LOGREG ? fit_linear(t, sub, m, &c->bucket[b]) : fit_trees(t, sub, m, kind, &c->bucket[b]);
        if (r != 0) {
            free(sub);
            if (!t->error[0]) snprintf(t->error, sizeof t->error, "training failed");
            wn_classifier_free(c);
            return -1;
        }
    }
    free(sub);
    return 0;
oom:
    snprintf(t->error, sizeof t->error, "out of memory while training");
    wn_classifier_free(c);
    return -1;
}

static void settings_string(const winnow_trainer *t, int kind, char *out, size_t cap)
{
    snprintf(out, cap, "kind=%s buckets=%u seed=%u per_page=%u rounds=%u depth=%u labels=df>=%.2f,chakrabarti>%.2f,%s",
             wn_clf_kind_name(kind), kind == WN_CLF_NB ? 1 : t->o.buckets, t->o.seed, t->o.per_page,
             t->o.rounds ? t->o.rounds : 100, t->o.depth ? t->o.depth : (kind == WN_CLF_FOREST ? 10 : 6),
             TEMPLATE_SHARE, CHAKRABARTI_SHARE,
             t->o.labels == WINNOW_LABELS_INSIDE ? "top-unique+inside" : "top-unique");
}

winnow_status winnow_trainer_save(winnow_trainer *t, const char *path)
{
    if (!t || !path) return WINNOW_E_ARG;
    t->error[0] = '\0';
    size_t *idx = malloc((t->n + 1) * sizeof *idx);
    if (!idx) return WINNOW_E_NOMEM;
    for (size_t k = 0; k < t->n; k++) idx[k] = k;
    wn_classifier c;
    int r = fit(t, idx, t->n, t->o.kind, &c);
    free(idx);
    if (r != 0) return WINNOW_E_ARG;
    snprintf(c.digest, sizeof c.digest, "xxh3:%016llx", (unsigned long long)XXH3_64bits_digest(t->digest));
    c.sites = (uint32_t)t->sites;
    settings_string(t, t->o.kind, c.settings, sizeof c.settings);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    winnow_status rc = WINNOW_OK;
    if (!f) {
        snprintf(t->error, sizeof t->error, "cannot write %.400s", tmp);
        rc = WINNOW_E_IO;
    } else {
        int w = wn_classifier_write(&c, f);
        if (fclose(f) != 0 || w != 0 || rename(tmp, path) != 0) {
            snprintf(t->error, sizeof t->error, "cannot write %.400s", path);
            remove(tmp);
            rc = WINNOW_E_IO;
        }
    }
    wn_classifier_free(&c);
    return rc;
}

typedef struct scored {
    float s;
    uint8_t y;
} scored;

static int by_score_desc(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    return x->s > y->s ? -1 : x->s < y->s;
}

winnow_status winnow_trainer_cv(winnow_trainer *t, unsigned folds, winnow_model_kind kind, const char *curve_path,
                                winnow_cv_result *out)
{
    if (!t || !out || folds < 2) return WINNOW_E_ARG;
    t->error[0] = '\0';
    memset(out, 0, sizeof *out);
    out->kind = kind ? kind : t->o.kind;
    if (t->sites < folds) {
        snprintf(t->error, sizeof t->error, "%u-fold cross-site validation needs at least %u sites, have %zu", folds,
                 folds, t->sites);
        return WINNOW_E_ARG;
    }
    /* sites shuffled into folds */
    uint32_t *fold = malloc(t->sites * sizeof *fold);
    uint32_t *perm = malloc(t->sites * sizeof *perm);
    size_t *train_idx = malloc((t->n + 1) * sizeof *train_idx);
    scored *res = malloc((t->n + 1) * sizeof *res);
    float *x = malloc((t->n + 1) * WN_NFEAT * sizeof *x);
    float *p = malloc((t->n + 1) * sizeof *p);
    winnow_status rc = WINNOW_OK;
    if (!fold || !perm || !train_idx || !res || !x || !p) {
        rc = WINNOW_E_NOMEM;
        goto done;
    }
    uint64_t rng = (uint64_t)t->o.seed * 0xD1B54A32D192ED03ull + 7;
    for (size_t s = 0; s < t->sites; s++) perm[s] = (uint32_t)s;
    for (size_t s = t->sites; s-- > 1;) {
        size_t j = (size_t)(rng_next(&rng) % (s + 1));
        uint32_t tmp = perm[s];
        perm[s] = perm[j];
        perm[j] = tmp;
    }
    for (size_t s = 0; s < t->sites; s++) fold[perm[s]] = (uint32_t)(s % folds);
    size_t nres = 0;
    for (unsigned f = 0; f < folds; f++) {
        size_t ntr = 0;
        for (size_t k = 0; k < t->n; k++)
            if (fold[t->ex[k].site] != f) train_idx[ntr++] = k;
        wn_classifier c;
        if (fit(t, train_idx, ntr, out->kind, &c) != 0) {
            rc = WINNOW_E_ARG;
            goto done;
        }
        size_t nte = 0;
        for (size_t k = 0; k < t->n; k++) {
            if (fold[t->ex[k].site] != f) continue;
            nb_fill(t, &c.nb, &t->ex[k]);
            memcpy(x + nte * WN_NFEAT, t->ex[k].x, WN_NFEAT * sizeof(float));
            res[nres + nte].y = t->ex[k].label;
            nte++;
        }
        wn_classifier_predict(&c, x, (uint32_t)nte, p);
        for (size_t k = 0; k < nte; k++) res[nres + k].s = p[k];
        nres += nte;
        wn_classifier_free(&c);
        if (t->o.verbose) fprintf(stderr, "winnow: cv fold %u/%u: %zu train, %zu test\n", f + 1, folds, ntr, nte);
    }
    qsort(res, nres, sizeof *res, by_score_desc);
    size_t pos = 0;
    for (size_t k = 0; k < nres; k++) pos += res[k].y;
    out->test_examples = nres;
    out->test_templates = pos;
    FILE *cf = curve_path ? fopen(curve_path, "w") : NULL;
    if (curve_path && !cf) {
        snprintf(t->error, sizeof t->error, "cannot write %.400s", curve_path);
        rc = WINNOW_E_IO;
        goto done;
    }
    if (cf) fprintf(cf, "threshold\tprecision\trecall\n");
    size_t tp = 0, fp = 0, step = nres / 400 + 1;
    double prev_recall = 0;
    for (size_t k = 0; k < nres; k++) {
        if (res[k].y)
            tp++;
        else
            fp++;
        /* a threshold sits between distinct scores */
        if (k + 1 < nres && res[k + 1].s == res[k].s) continue;
        double prec = (double)tp / (double)(tp + fp), rec = pos ? (double)tp / (double)pos : 0;
        out->average_precision += (rec - prev_recall) * prec;
        prev_recall = rec;
        if (prec >= 0.90 && rec > out->recall_at_p90) out->recall_at_p90 = rec;
        if (prec >= 0.80 && rec > out->recall_at_p80) out->recall_at_p80 = rec;
        if (cf && (k % step == 0 || k + 1 == nres)) fprintf(cf, "%.6f\t%.6f\t%.6f\n", res[k].s, prec, rec);
    }
    if (cf && fclose(cf) != 0) rc = WINNOW_E_IO;
done:
    free(fold);
    free(perm);
    free(train_idx);
    free(res);
    free(x);
    free(p);
    return rc;
}
