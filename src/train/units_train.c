/* Units training (winnow train --units): the learned unit decision's model
 * (src/select/units.h) from pages with gold main text.
 *
 * Each page runs through the pipeline as winnow_extract runs it, the model
 * off and every unit's feature row kept. A unit's label is the share of
 * its words that the gold text has in the same order: of its word
 * triples those the gold text has (pairs for a unit of two words; a lone
 * word, whether the gold text has it), so a menu's common words do not
 * pass for content. The trees (XGBoost, gradient boosting, logistic loss
 * on that share, each unit weighted by its words, as token F1 weighs
 * them) learn the share; the step keeps a unit when it is UNIT_KEEP_MIN
 * or more.
 *
 * Held-out figures: each corpus scored by a model fitted on the others,
 * and the corpus of folds (wcxb-dev) by folds of its sites, each fitted on
 * every page outside the fold. A page's figure is the token F1 of the
 * kept units' words against the gold words, with the rules' decisions and
 * with the model's. */
#include "winnow_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xgboost/c_api.h>

#include "../doc.h"
#include "../pipeline/engine.h"
#include "../pipeline/pipeline.h"
#include "../rules/rules.h"
#include "../select/units.h"
#include "../util/fnv.h"
#include "train_internal.h"

#define NF WN_UNIT_NFEAT

typedef struct unit_page {
    char *id;
    unsigned corpus;
    uint64_t site;
    uint32_t first, count; /* its rows */
    uint32_t gold_words;
} unit_page;

struct winnow_unit_set {
    float *x, *y, *w; /* rows: features, label (share of words in the gold), weight (words) */
    size_t n, cap;
    unit_page *pages;
    size_t npages, pcap;
    char **corpus;
    unsigned ncorpus;
};

winnow_status winnow_unit_set_new(winnow_unit_set **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = calloc(1, sizeof **out);
    return *out ? WINNOW_OK : WINNOW_E_NOMEM;
}

void winnow_unit_set_free(winnow_unit_set *s)
{
    if (!s) return;
    for (unsigned k = 0; k < s->ncorpus; k++) free(s->corpus[k]);
    for (size_t k = 0; k < s->npages; k++) free(s->pages[k].id);
    free(s->corpus);
    free(s->pages);
    free(s->x);
    free(s->y);
    free(s->w);
    free(s);
}

size_t winnow_unit_set_pages(const winnow_unit_set *s) { return s ? s->npages : 0; }
size_t winnow_unit_set_rows(const winnow_unit_set *s) { return s ? s->n : 0; }

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int has(const uint64_t *set, size_t n, uint64_t k) { return bsearch(&k, set, n, sizeof k, cmp_u64) != NULL; }

static uint64_t mix(uint64_t a, uint64_t b)
{
    return (a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2))) * WN_FNV_PRIME;
}

/* The label of a unit of m words w[0..m): the share of its word triples
 * (pairs, the word) that the gold text has. */
static float unit_label(const uint64_t *w, uint32_t m, const uint64_t *g1, size_t n1, const uint64_t *g2, size_t n2,
                        const uint64_t *g3, size_t n3)
{
    if (m == 0) return 0;
    if (m == 1) return has(g1, n1, w[0]) ? 1.0f : 0.0f;
    if (m == 2) return has(g2, n2, mix(w[0], w[1])) ? 1.0f : 0.0f;
    uint32_t hit = 0;
    for (uint32_t i = 0; i + 2 < m; i++) hit += has(g3, n3, mix(mix(w[i], w[i + 1]), w[i + 2]));
    return (float)hit / (float)(m - 2);
}

static int grow(winnow_unit_set *s, size_t more)
{
    if (s->n + more <= s->cap) return 0;
    size_t cap = s->cap ? s->cap : 65536;
    while (cap < s->n + more) cap *= 2;
    float *x = realloc(s->x, cap * NF * sizeof *x);
    if (!x) return -1;
    s->x = x;
    float *y = realloc(s->y, cap * sizeof *y);
    if (!y) return -1;
    s->y = y;
    float *w = realloc(s->w, cap * sizeof *w);
    if (!w) return -1;
    s->w = w;
    s->cap = cap;
    return 0;
}

static winnow_status label_page(winnow_unit_set *s, winnow_doc *d, const char *gold, size_t gold_len, unit_page *pg)
{
    winnow_status rc = WINNOW_E_NOMEM;
    const uint32_t n = d->dom.count, nu = d->nunit_x;
    uint64_t *g = malloc((gold_len + 1) * sizeof *g);
    uint64_t *g2 = malloc((gold_len + 1) * sizeof *g2), *g3 = malloc((gold_len + 1) * sizeof *g3);
    uint32_t *ord = malloc((size_t)n * sizeof *ord), *start = calloc((size_t)nu + 1, sizeof *start);
    uint32_t *fill = calloc((size_t)nu + 1, sizeof *fill);
    uint64_t *words = NULL;
    if (!g || !g2 || !g3 || !ord || !start || !fill) goto out;
    uint32_t ng = wn_word_keys(gold, gold_len, g, (uint32_t)(gold_len + 1));
    size_t n2 = 0, n3 = 0;
    for (uint32_t i = 0; i + 1 < ng; i++) g2[n2++] = mix(g[i], g[i + 1]);
    for (uint32_t i = 0; i + 2 < ng; i++) g3[n3++] = mix(mix(g[i], g[i + 1]), g[i + 2]);
    pg->gold_words = ng;
    qsort(g, ng, sizeof *g, cmp_u64);
    qsort(g2, n2, sizeof *g2, cmp_u64);
    qsort(g3, n3, sizeof *g3, cmp_u64);
    for (uint32_t i = 0; i < n; i++) ord[i] = UINT32_MAX;
    for (uint32_t j = 0; j < nu; j++) ord[d->unit_nodes[j]] = j;
    /* each unit's words, in order: its text nodes' */
    const wn_page_text *pt = &d->page_text;
    for (uint32_t t = 0; t < n; t++) {
        if (d->dom.nodes[t].tag != WN_TAG_TEXT) continue;
        uint32_t j = ord[d->labels.unit[t]];
        if (j != UINT32_MAX) start[j + 1] += d->stats[t].w_end - d->stats[t].w_begin;
    }
    for (uint32_t j = 0; j < nu; j++) start[j + 1] += start[j];
    words = malloc(((size_t)start[nu] + 1) * sizeof *words);
    if (!words || grow(s, nu) != 0) goto out;
    for (uint32_t t = 0; t < n; t++) {
        if (d->dom.nodes[t].tag != WN_TAG_TEXT) continue;
        uint32_t j = ord[d->labels.unit[t]];
        if (j == UINT32_MAX) continue;
        for (uint32_t k = d->stats[t].w_begin; k < d->stats[t].w_end && k < pt->nwords; k++)
            words[start[j] + fill[j]++] = pt->words[k];
    }
    pg->first = (uint32_t)s->n;
    pg->count = nu;
    for (uint32_t j = 0; j < nu; j++) {
        memcpy(s->x + s->n * NF, d->unit_x + (size_t)j * NF, NF * sizeof(float));
        s->y[s->n] = unit_label(words + start[j], fill[j], g, ng, g2, n2, g3, n3);
        s->w[s->n] = (float)fill[j];
        s->n++;
    }
    rc = WINNOW_OK;
out:
    free(g);
    free(g2);
    free(g3);
    free(ord);
    free(start);
    free(fill);
    free(words);
    return rc;
}

winnow_status winnow_unit_set_add(winnow_unit_set *s, winnow_engine *e, const winnow_input *in, const char *gold,
                                  size_t gold_len, const char *corpus, const char *site, const char *id, int page_type)
{
    if (!s || !e || !in || !gold || page_type < 0 || page_type >= WINNOW_PAGE_TYPE_COUNT) return WINNOW_E_ARG;
    /* the rules' decisions, every unit's row; the page type forced when
     * given */
    const wn_unit_model *m = e->units;
    int forced = e->opt.page_type;
    e->units = NULL;
    e->units_collect = 1;
    if (page_type != WINNOW_PAGE_UNKNOWN) e->opt.page_type = page_type;
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, &d);
    e->units = m;
    e->units_collect = 0;
    e->opt.page_type = forced;
    if (WINNOW_FAILED(st)) return st;
    winnow_status rc = WINNOW_OK;
    if (s->npages == s->pcap) {
        size_t cap = s->pcap ? s->pcap * 2 : 256;
        unit_page *p = realloc(s->pages, cap * sizeof *p);
        if (!p)
            rc = WINNOW_E_NOMEM;
        else {
            s->pages = p;
            s->pcap = cap;
        }
    }
    int c = rc == WINNOW_OK ? wn_train_name_index(&s->corpus, &s->ncorpus, corpus ? corpus : "") : 0;
    if (c < 0) rc = WINNOW_E_NOMEM;
    if (rc == WINNOW_OK) {
        unit_page *pg = &s->pages[s->npages];
        memset(pg, 0, sizeof *pg);
        pg->corpus = (unsigned)c;
        pg->site = wn_fnv_more(WN_FNV_OFFSET, site ? site : "", site ? strlen(site) : 0);
        pg->id = strdup(id ? id : "");
        if (!pg->id) rc = WINNOW_E_NOMEM;
        if (rc == WINNOW_OK) rc = label_page(s, d, gold, gold_len, pg);
        if (rc == WINNOW_OK)
            s->npages++;
        else
            free(pg->id);
    }
    winnow_doc_free(d);
    return rc;
}

/* ---- fitting ---- */

#define XGB(call)                                                                                                      \
    do {                                                                                                               \
        if ((call) != 0) {                                                                                             \
            snprintf(err, cap, "xgboost: %s", XGBGetLastError());                                                      \
            goto out;                                                                                                  \
        }                                                                                                              \
    } while (0)

/* Fits the trees on the pages with use[page] set into m: 0, or -1 with err. */
static int fit(const winnow_unit_set *s, const unsigned char *use, const winnow_unit_params *p, wn_unit_model *m,
               char *err, size_t cap)
{
    int rc = -1;
    size_t rows = 0;
    memset(m, 0, sizeof *m);
    for (size_t k = 0; k < s->npages; k++)
        if (use[k]) rows += s->pages[k].count;
    float *x = malloc((rows ? rows : 1) * NF * sizeof *x), *y = malloc((rows ? rows : 1) * sizeof *y);
    float *w = malloc((rows ? rows : 1) * sizeof *w);
    DMatrixHandle dm = NULL;
    BoosterHandle bh = NULL;
    if (!x || !y || !w) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    if (rows == 0) {
        snprintf(err, cap, "no units to fit on");
        goto out;
    }
    size_t r = 0;
    for (size_t k = 0; k < s->npages; k++) {
        if (!use[k]) continue;
        const unit_page *pg = &s->pages[k];
        memcpy(x + r * NF, s->x + (size_t)pg->first * NF, (size_t)pg->count * NF * sizeof *x);
        memcpy(y + r, s->y + pg->first, pg->count * sizeof *y);
        for (uint32_t j = 0; j < pg->count; j++) w[r + j] = s->w[pg->first + j] > 0 ? s->w[pg->first + j] : 0.5f;
        r += pg->count;
    }
    XGB(XGDMatrixCreateFromMat(x, rows, NF, NAN, &dm));
    XGB(XGDMatrixSetFloatInfo(dm, "label", y, rows));
    XGB(XGDMatrixSetFloatInfo(dm, "weight", w, rows));
    XGB(XGBoosterCreate(&dm, 1, &bh));
    char buf[32];
    XGB(wn_train_xgb_binary(bh, p->seed, p->threads ? p->threads : 2));
    snprintf(buf, sizeof buf, "%g", p->eta > 0 ? p->eta : 0.1);
    XGB(XGBoosterSetParam(bh, "eta", buf));
    snprintf(buf, sizeof buf, "%u", p->depth ? p->depth : 6);
    XGB(XGBoosterSetParam(bh, "max_depth", buf));
    XGB(XGBoosterSetParam(bh, "subsample", "0.8"));
    XGB(XGBoosterSetParam(bh, "colsample_bytree", "0.8"));
    /* weights are words: a leaf holds at least a paragraph's worth */
    XGB(XGBoosterSetParam(bh, "min_child_weight", "50"));
    unsigned rounds = p->rounds ? p->rounds : 150;
    for (unsigned it = 0; it < rounds; it++) XGB(XGBoosterUpdateOneIter(bh, (int)it, dm));
    if (wn_train_xgb_bucket(bh, NF, &m->trees, err, cap) != 0) goto out;
    /* the converted trees give XGBoost's own probabilities */
    bst_ulong plen;
    const float *pred;
    XGB(XGBoosterPredict(bh, dm, 0, 0, 0, &plen, &pred));
    for (size_t k = 0; k < rows && k < plen && k < 5000; k++) {
        float q = wn_unit_model_predict(m, x + k * NF);
        if (fabsf(q - pred[k]) > 1e-3f) {
            snprintf(err, cap, "converted trees disagree with XGBoost on row %zu (%g vs %g)", k, (double)q,
                     (double)pred[k]);
            goto out;
        }
    }
    rc = 0;
out:
    if (rc != 0) wn_unit_model_free(m);
    if (bh) XGBoosterFree(bh);
    if (dm) XGDMatrixFree(dm);
    free(x);
    free(y);
    free(w);
    return rc;
}

static int write_model(const wn_unit_model *m, const char *trained, const char *path, char *err, size_t cap)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, cap, "cannot write %s", path);
        return -1;
    }
    fprintf(f, "winnow-units 1\ntrained %s\nfeatures %d", trained ? trained : "", NF);
    for (unsigned k = 0; k < NF; k++) fprintf(f, " %s", wn_unit_feature_name(k));
    fprintf(f, "\nbase_margin %.9g\ntrees %u\nnodes %u\n", (double)m->trees.base_margin, m->trees.ntrees,
            m->trees.tree_start[m->trees.ntrees]);
    for (uint32_t t = 0; t < m->trees.ntrees; t++) {
        uint32_t a = m->trees.tree_start[t], b = m->trees.tree_start[t + 1];
        fprintf(f, "tree %u\n", b - a);
        for (uint32_t i = a; i < b; i++) {
            const wn_tree_node *nd = &m->trees.nodes[i];
            if (nd->feature < 0)
                fprintf(f, "-1 0 0 0 %.9g\n", (double)nd->leaf);
            else
                fprintf(f, "%d %.9g %d %d 0\n", nd->feature, (double)nd->threshold, nd->yes, nd->no);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) snprintf(err, cap, "cannot write %s", path);
    return bad ? -1 : 0;
}

winnow_status winnow_unit_fit_save(const winnow_unit_set *s, const winnow_unit_params *p, const char *trained,
                                   const char *path, char *err, size_t cap)
{
    if (!s || !p || !path) return WINNOW_E_ARG;
    unsigned char *use = malloc(s->npages ? s->npages : 1);
    if (!use) return WINNOW_E_NOMEM;
    memset(use, 1, s->npages);
    wn_unit_model m;
    int rc = fit(s, use, p, &m, err, cap);
    free(use);
    if (rc != 0) return WINNOW_E_ARG;
    rc = write_model(&m, trained, path, err, cap);
    wn_unit_model_free(&m);
    return rc ? WINNOW_E_IO : WINNOW_OK;
}

/* ---- held-out figures ---- */

/* The decisions scored (wn_units_decide): the model alone at 0.5, and the
 * step's own at the rule table's defaults (UNIT_*); bench/units_policy.py
 * scores others from --units-out. */
#define NTH 2
static void decisions(wn_unit_policy *pol)
{
    wn_rules r;
    wn_rules_default(&r);
    pol[0] = (wn_unit_policy){ 0.5f, 0.5f, 1e30f, 1e30f };
    pol[1] = (wn_unit_policy){ r.v[WN_RULE_UNIT_KEEP_MIN], r.v[WN_RULE_UNIT_ADD_MIN], r.v[WN_RULE_UNIT_MAX_DROP],
                               r.v[WN_RULE_UNIT_MAX_ADD] };
}

/* Token F1 of the page's kept units' words (keep[j] for its rows). */
static double page_f1(const winnow_unit_set *s, const unit_page *pg, const unsigned char *keep)
{
    double kept = 0, hit = 0;
    for (uint32_t j = 0; j < pg->count; j++) {
        if (!keep[j]) continue;
        kept += s->w[pg->first + j];
        hit += s->w[pg->first + j] * s->y[pg->first + j];
    }
    if (hit > pg->gold_words) hit = pg->gold_words;
    if (pg->gold_words == 0) return kept == 0 ? 1.0 : 0.0;
    if (kept == 0 || hit == 0) return 0.0;
    double pr = hit / kept, re = hit / pg->gold_words;
    return 2 * pr * re / (pr + re);
}

static unsigned site_fold(const unit_page *pg, unsigned folds) { return (unsigned)(pg->site % folds); }

winnow_status winnow_unit_evaluate(const winnow_unit_set *s, const winnow_unit_params *p, unsigned folds,
                                   const char *fold_corpus, const char *models_dir, FILE *pages, FILE *summary,
                                   FILE *units_out, char *err, size_t cap)
{
    if (!s || !p || folds < 2) return WINNOW_E_ARG;
    winnow_status rc = WINNOW_E_NOMEM;
    unsigned char *use = malloc(s->npages + 1), *keep = malloc(2 * s->n + 1);
    double *model_f1 = calloc((s->npages + 1) * NTH, sizeof *model_f1),
           *rule_f1 = calloc(s->npages + 1, sizeof *rule_f1);
    if (!use || !keep || !model_f1 || !rule_f1) goto out;
    wn_unit_policy policies[NTH];
    decisions(policies);
    int fc = -1;
    for (unsigned c = 0; c < s->ncorpus; c++)
        if (fold_corpus && !strcmp(s->corpus[c], fold_corpus)) fc = (int)c;
    /* runs: one per corpus (its folds for the corpus of folds) */
    for (unsigned c = 0; c < s->ncorpus; c++) {
        unsigned nf = (int)c == fc ? folds : 1;
        for (unsigned f = 0; f < nf; f++) {
            size_t held = 0;
            for (size_t k = 0; k < s->npages; k++) {
                const unit_page *pg = &s->pages[k];
                int out_of = pg->corpus == c && ((int)c != fc || site_fold(pg, folds) == f);
                use[k] = !out_of;
                held += out_of;
            }
            if (held == 0) continue;
            wn_unit_model m;
            if (fit(s, use, p, &m, err, cap) != 0) {
                rc = WINNOW_E_ARG;
                goto out;
            }
            if (models_dir) {
                char path[4096], trained[256];
                if ((int)c == fc)
                    snprintf(path, sizeof path, "%s/%s.fold%u.wmodel", models_dir, s->corpus[c], f);
                else
                    snprintf(path, sizeof path, "%s/%s.wmodel", models_dir, s->corpus[c]);
                snprintf(trained, sizeof trained, "held out: %s%s", s->corpus[c],
                         (int)c == fc ? " (a fold of sites)" : "");
                if (write_model(&m, trained, path, err, cap) != 0) {
                    wn_unit_model_free(&m);
                    rc = WINNOW_E_IO;
                    goto out;
                }
            }
            for (size_t k = 0; k < s->npages; k++) {
                if (use[k]) continue;
                const unit_page *pg = &s->pages[k];
                float *q = malloc((pg->count + 1) * sizeof *q);
                if (!q) {
                    wn_unit_model_free(&m);
                    goto out;
                }
                unsigned char *rule = keep + pg->count;
                wn_unit_model_predict_rows(&m, s->x + (size_t)pg->first * NF, pg->count, q);
                for (uint32_t j = 0; j < pg->count; j++) {
                    keep[j] = rule[j] = s->x[(size_t)(pg->first + j) * NF] > 0.5f; /* feature 0: the rules' keep */
                }
                rule_f1[k] = page_f1(s, pg, keep);
                if (units_out)
                    for (uint32_t j = 0; j < pg->count; j++)
                        fprintf(units_out, "%zu\t%d\t%.4f\t%.0f\t%.4f\t%u\n", k, rule[j], (double)q[j],
                                (double)s->w[pg->first + j], (double)s->y[pg->first + j], pg->gold_words);
                for (unsigned t = 0; t < NTH; t++) {
                    wn_units_decide(&policies[t], q, rule, s->w + pg->first, pg->count, keep);
                    model_f1[k * NTH + t] = page_f1(s, pg, keep);
                }
                free(q);
            }
            wn_unit_model_free(&m);
        }
    }
    if (pages) {
        fprintf(pages, "corpus\tid\trules");
        for (unsigned t = 0; t < NTH; t++) fprintf(pages, "\t%s", t == 0 ? "model" : "step");
        fprintf(pages, "\n");
        for (size_t k = 0; k < s->npages; k++) {
            fprintf(pages, "%s\t%s\t%.4f", s->corpus[s->pages[k].corpus], s->pages[k].id, rule_f1[k]);
            for (unsigned t = 0; t < NTH; t++) fprintf(pages, "\t%.4f", model_f1[k * NTH + t]);
            fprintf(pages, "\n");
        }
    }
    if (summary) {
        fprintf(summary, "held-out word F1 of the kept units (mean per page)\ncorpus\tpages\trules");
        for (unsigned t = 0; t < NTH; t++) fprintf(summary, "\t%s", t == 0 ? "model>=0.5" : "step");
        fprintf(summary, "\n");
        for (unsigned c = 0; c < s->ncorpus; c++) {
            double r = 0, mt[NTH] = { 0 };
            size_t np = 0;
            for (size_t k = 0; k < s->npages; k++) {
                if (s->pages[k].corpus != c) continue;
                np++;
                r += rule_f1[k];
                for (unsigned t = 0; t < NTH; t++) mt[t] += model_f1[k * NTH + t];
            }
            if (!np) continue;
            fprintf(summary, "%s\t%zu\t%.4f", s->corpus[c], np, r / np);
            for (unsigned t = 0; t < NTH; t++) fprintf(summary, "\t%.4f", mt[t] / np);
            fprintf(summary, "\n");
        }
    }
    rc = WINNOW_OK;
out:
    free(use);
    free(keep);
    free(model_f1);
    free(rule_f1);
    return rc;
}
