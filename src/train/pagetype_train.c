/* Page type training (winnow train --page-types): the page type stage's
 * features of labelled pages, one-vs-rest logistic regression fitted by
 * liblinear, its model file, and held-out evaluation (folds by site, or
 * one corpus left out). The features are the library's own (the pipeline
 * runs each page as winnow_extract does), so a model scores what it was
 * trained on. */
#include "winnow_train.h"

#include <linear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doc.h"
#include "../pagetype/pagetype.h"
#include "../pipeline/pipeline.h"
#include "../util/fnv.h"
#include "train_internal.h"

typedef struct pt_example {
    float x[WN_PT_MAX_FEATURES];
    int label;       /* winnow_page_type */
    unsigned corpus; /* index into the set's corpus names */
    uint64_t site;   /* hash of the site's name */
} pt_example;

struct winnow_pt_set {
    pt_example *ex;
    size_t n, cap;
    char **corpus;
    unsigned ncorpus;
};

winnow_status winnow_pt_set_new(winnow_pt_set **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = calloc(1, sizeof **out);
    return *out ? WINNOW_OK : WINNOW_E_NOMEM;
}

void winnow_pt_set_free(winnow_pt_set *s)
{
    if (!s) return;
    for (unsigned k = 0; k < s->ncorpus; k++) free(s->corpus[k]);
    free(s->corpus);
    free(s->ex);
    free(s);
}

size_t winnow_pt_set_count(const winnow_pt_set *s) { return s ? s->n : 0; }

winnow_status winnow_pt_set_add(winnow_pt_set *s, winnow_engine *e, const winnow_input *in, winnow_page_type label,
                                const char *corpus, const char *site)
{
    if (!s || !e || !in || label <= WINNOW_PAGE_UNKNOWN || label >= WINNOW_PAGE_TYPE_COUNT) return WINNOW_E_ARG;
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, &d);
    if (WINNOW_FAILED(st)) return st;
    if (!d->page_type_x) { /* a forced kind: no features */
        winnow_doc_free(d);
        return WINNOW_E_ARG;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        pt_example *ex = realloc(s->ex, cap * sizeof *ex);
        if (!ex) {
            winnow_doc_free(d);
            return WINNOW_E_NOMEM;
        }
        s->ex = ex;
        s->cap = cap;
    }
    int c = wn_train_name_index(&s->corpus, &s->ncorpus, corpus ? corpus : "");
    if (c < 0) {
        winnow_doc_free(d);
        return WINNOW_E_NOMEM;
    }
    pt_example *x = &s->ex[s->n++];
    memset(x, 0, sizeof *x);
    memcpy(x->x, d->page_type_x, wn_pt_feature_count() * sizeof *x->x);
    x->label = (int)label;
    x->corpus = (unsigned)c;
    x->site = wn_fnv_more(WN_FNV_OFFSET, site ? site : "", site ? strlen(site) : 0);
    winnow_doc_free(d);
    return WINNOW_OK;
}

static void quiet(const char *s) { (void)s; }

/* Fits on the examples with use[i] set: one weight row per kind present. */
static int fit(const winnow_pt_set *s, const unsigned char *use, double C, int balanced, wn_pt_model *m, char *err,
               size_t cap)
{
    unsigned nf = wn_pt_feature_count();
    size_t n = 0, per[WINNOW_PAGE_TYPE_COUNT] = { 0 };
    for (size_t i = 0; i < s->n; i++)
        if (use[i]) {
            n++;
            per[s->ex[i].label]++;
        }
    struct feature_node *pool = malloc((n ? n : 1) * (nf + 2) * sizeof *pool);
    struct feature_node **rows = malloc((n ? n : 1) * sizeof *rows);
    double *y = malloc((n ? n : 1) * sizeof *y);
    if (!pool || !rows || !y) {
        free(pool);
        free(rows);
        free(y);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    size_t r = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!use[i]) continue;
        struct feature_node *row = pool + r * (nf + 2);
        unsigned k = 0;
        for (unsigned f = 0; f < nf; f++)
            if (s->ex[i].x[f] != 0) row[k++] = (struct feature_node){ (int)f + 1, s->ex[i].x[f] };
        row[k++] = (struct feature_node){ (int)nf + 1, 1.0 };
        row[k] = (struct feature_node){ -1, 0 };
        rows[r] = row;
        y[r] = s->ex[i].label;
        r++;
    }
    /* balanced: each kind weighs as much in all as the others, so that the
     * few product or forum pages are not outvoted by the many articles */
    int wl[WINNOW_PAGE_TYPE_COUNT];
    double wv[WINNOW_PAGE_TYPE_COUNT];
    int nw = 0, kinds = 0;
    for (int t = 0; t < WINNOW_PAGE_TYPE_COUNT; t++) kinds += per[t] > 0;
    for (int t = 0; balanced && t < WINNOW_PAGE_TYPE_COUNT; t++)
        if (per[t]) {
            wl[nw] = t;
            wv[nw] = (double)n / ((double)kinds * (double)per[t]);
            nw++;
        }
    if (kinds == 1) {
        /* pages of one kind only (the article corpora without wcxb-dev):
         * the model can but say that kind */
        memset(m, 0, sizeof *m);
        m->nclass = 1;
        for (int t = 0; t < WINNOW_PAGE_TYPE_COUNT; t++)
            if (per[t]) m->kind[0] = t;
        free(pool);
        free(rows);
        free(y);
        return 0;
    }
    struct problem prob = { .l = (int)n, .n = (int)nf + 1, .y = y, .x = rows, .bias = 1.0 };
    struct parameter par = { .solver_type = L2R_LR,
                             .eps = 0.001,
                             .C = C,
                             .p = 0.1,
                             .nr_weight = nw,
                             .weight_label = nw ? wl : NULL,
                             .weight = nw ? wv : NULL };
    set_print_string_function(quiet);
    int rc = -1;
    const char *msg = kinds < 1 ? "no examples" : check_parameter(&prob, &par);
    if (msg) {
        snprintf(err, cap, "liblinear: %s", msg);
    } else {
        struct model *lm = train(&prob, &par);
        if (lm) {
            memset(m, 0, sizeof *m);
            int nc = get_nr_class(lm);
            m->nclass = (unsigned)nc;
            for (int k = 0; k < nc; k++) {
                m->kind[k] = lm->label[k];
                for (unsigned f = 0; f < nf; f++) m->w[k][f] = get_decfun_coef(lm, (int)f + 1, k);
                /* the bias is the last feature's weight (its value is 1) */
                m->w[k][nf] = get_decfun_coef(lm, (int)nf + 1, k);
            }
            free_and_destroy_model(&lm);
            rc = 0;
        } else {
            snprintf(err, cap, "liblinear failed to train");
        }
    }
    free(pool);
    free(rows);
    free(y);
    return rc;
}

/* Model m's file at path; err says why it could not be written. */
static winnow_status write_model(const wn_pt_model *m, const char *path, char *err, size_t cap)
{
    size_t len = wn_pt_model_write(m, NULL, 0);
    char *text = malloc(len + 1);
    if (!text) return WINNOW_E_NOMEM;
    wn_pt_model_write(m, text, len + 1);
    winnow_status st = wn_train_write_text(path, text, len, err, cap);
    free(text);
    return st;
}

winnow_status winnow_pt_fit_save(const winnow_pt_set *s, double C, int balanced, const char *path, char *err,
                                 size_t cap)
{
    if (!s || !path) return WINNOW_E_ARG;
    unsigned char *use = malloc(s->n ? s->n : 1);
    wn_pt_model *m = malloc(sizeof *m);
    if (!use || !m) {
        free(use);
        free(m);
        return WINNOW_E_NOMEM;
    }
    memset(use, 1, s->n);
    winnow_status st = WINNOW_OK;
    if (fit(s, use, C, balanced, m, err, cap) != 0) {
        st = WINNOW_E_FORMAT;
    } else if (m->nclass < 2) {
        snprintf(err, cap, "the pages are all of one kind: nothing to learn");
        st = WINNOW_E_ARG;
    } else {
        st = write_model(m, path, err, cap);
    }
    free(use);
    free(m);
    return st;
}

/* The examples in test scored by a model fitted on those in train; adds
 * to conf[truth][predicted] and, when verdicts is not NULL, puts each
 * test example's verdict there; with save, writes the model there. */
static int score_split(const winnow_pt_set *s, const unsigned char *train, const unsigned char *test, double C,
                       int balanced, unsigned conf[][WINNOW_PAGE_TYPE_COUNT], winnow_pt_verdict *verdicts,
                       const char *save, char *err, size_t cap)
{
    wn_pt_model *m = malloc(sizeof *m);
    if (!m) return -1;
    if (fit(s, train, C, balanced, m, err, cap) != 0 || (save && write_model(m, save, err, cap) != WINNOW_OK)) {
        free(m);
        return -1;
    }
    double p[WINNOW_PAGE_TYPE_COUNT];
    for (size_t i = 0; i < s->n; i++) {
        if (!test[i]) continue;
        unsigned best = wn_pt_predict(m, s->ex[i].x, p);
        conf[s->ex[i].label][m->kind[best]]++;
        if (verdicts) verdicts[i] = (winnow_pt_verdict){ (winnow_page_type)m->kind[best], p[best] };
    }
    free(m);
    return 0;
}

static void print_confusion(FILE *out, unsigned conf[][WINNOW_PAGE_TYPE_COUNT])
{
    unsigned right = 0, all = 0;
    fprintf(out, "| true \\ predicted |");
    for (int t = 1; t < WINNOW_PAGE_TYPE_COUNT; t++) fprintf(out, " %s |", winnow_page_type_name((winnow_page_type)t));
    fprintf(out, " recall |\n|---|");
    for (int t = 1; t <= WINNOW_PAGE_TYPE_COUNT; t++) fprintf(out, "---:|");
    fputc('\n', out);
    for (int a = 1; a < WINNOW_PAGE_TYPE_COUNT; a++) {
        unsigned row = 0;
        for (int b = 1; b < WINNOW_PAGE_TYPE_COUNT; b++) row += conf[a][b];
        if (!row) continue;
        fprintf(out, "| %s |", winnow_page_type_name((winnow_page_type)a));
        for (int b = 1; b < WINNOW_PAGE_TYPE_COUNT; b++) fprintf(out, " %u |", conf[a][b]);
        fprintf(out, " %.1f%% |\n", 100.0 * conf[a][a] / row);
        right += conf[a][a];
        all += row;
    }
    fprintf(out, "\naccuracy %u / %u = %.1f%%\n", right, all, all ? 100.0 * right / all : 0.0);
}

winnow_status winnow_pt_evaluate(const winnow_pt_set *s, const char *within, unsigned folds, double C, int balanced,
                                 FILE *out, winnow_pt_verdict *verdicts, const char *models, char *err, size_t cap)
{
    char save[4096];
    if (!s || !out || (within && folds < 2)) return WINNOW_E_ARG;
    for (size_t i = 0; verdicts && i < s->n; i++) verdicts[i] = (winnow_pt_verdict){ WINNOW_PAGE_UNKNOWN, 0 };
    unsigned char *train = malloc(s->n ? s->n : 1), *test = malloc(s->n ? s->n : 1);
    unsigned(*conf)[WINNOW_PAGE_TYPE_COUNT] = calloc(WINNOW_PAGE_TYPE_COUNT, sizeof *conf);
    if (!train || !test || !conf) {
        free(train);
        free(test);
        free(conf);
        return WINNOW_E_NOMEM;
    }
    winnow_status st = WINNOW_OK;
    if (within) {
        /* folds of one corpus's pages, split by site (a site's pages share
         * their template: a page's siblings must not teach its answer) */
        int c = -1;
        for (unsigned k = 0; k < s->ncorpus; k++)
            if (!strcmp(s->corpus[k], within)) c = (int)k;
        if (c < 0) {
            snprintf(err, cap, "no corpus named %s", within);
            st = WINNOW_E_ARG;
        }
        for (unsigned f = 0; st == WINNOW_OK && f < folds; f++) {
            for (size_t i = 0; i < s->n; i++) {
                int mine = s->ex[i].corpus == (unsigned)c;
                test[i] = mine && s->ex[i].site % folds == f;
                train[i] = mine && !test[i];
            }
            if (models) snprintf(save, sizeof save, "%s/%s.fold%u.wmodel", models, within, f);
            if (score_split(s, train, test, C, balanced, conf, verdicts, models ? save : NULL, err, cap) != 0)
                st = WINNOW_E_FORMAT;
        }
        if (st == WINNOW_OK) {
            fprintf(out, "%s, %u folds by site (trained on the other folds of %s only):\n\n", within, folds, within);
            print_confusion(out, conf);
        }
    } else {
        /* each corpus scored by a model fitted on all the others */
        for (unsigned c = 0; st == WINNOW_OK && c < s->ncorpus; c++) {
            unsigned(*one)[WINNOW_PAGE_TYPE_COUNT] = calloc(WINNOW_PAGE_TYPE_COUNT, sizeof *one);
            if (!one) {
                st = WINNOW_E_NOMEM;
                break;
            }
            unsigned n = 0;
            for (size_t i = 0; i < s->n; i++) {
                test[i] = s->ex[i].corpus == c;
                train[i] = !test[i];
                n += test[i];
            }
            if (models) snprintf(save, sizeof save, "%s/%s.wmodel", models, s->corpus[c]);
            if (score_split(s, train, test, C, balanced, one, verdicts, models ? save : NULL, err, cap) != 0)
                st = WINNOW_E_FORMAT;
            else {
                unsigned right = 0;
                for (int t = 0; t < WINNOW_PAGE_TYPE_COUNT; t++) right += one[t][t];
                fprintf(out, "left out %-16s %5u pages, %5.1f%% right", s->corpus[c], n, n ? 100.0 * right / n : 0.0);
                /* what the misses were taken for */
                fprintf(out, " (predicted:");
                for (int b = 1; b < WINNOW_PAGE_TYPE_COUNT; b++) {
                    unsigned col = 0;
                    for (int a = 0; a < WINNOW_PAGE_TYPE_COUNT; a++) col += one[a][b];
                    if (col) fprintf(out, " %s %u", winnow_page_type_name((winnow_page_type)b), col);
                }
                fprintf(out, ")\n");
                for (int a = 0; a < WINNOW_PAGE_TYPE_COUNT; a++)
                    for (int b = 0; b < WINNOW_PAGE_TYPE_COUNT; b++) conf[a][b] += one[a][b];
            }
            free(one);
        }
        if (st == WINNOW_OK) {
            fprintf(out, "\nall corpora, each scored by the model of the others:\n\n");
            print_confusion(out, conf);
        }
    }
    free(train);
    free(test);
    free(conf);
    return st;
}
