/* Confidence training (winnow train --confidence): the confidence stage's
 * features of labelled pages (label: the kept text's token F1 against the
 * gold text is WN_CONF_LABEL_F1 or more), a logistic regression fitted by
 * liblinear, its model file, and held-out probabilities (each corpus by a
 * model of the others; folds of sites). The features are the library's
 * own: the pipeline runs each page as winnow_extract does. */
#include "winnow_train.h"

#include <linear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xgboost/c_api.h>

#include "../confidence/confidence.h"
#include "../doc.h"
#include "../pipeline/pipeline.h"
#include "../util/fnv.h"
#include "train_internal.h"

typedef struct conf_example {
    float x[WN_CONF_MAX_FEATURES];
    int label;       /* 1 good, 0 not, -1 unknown (not fitted, not scored) */
    unsigned corpus; /* index into the set's corpus names */
    uint64_t site;   /* hash of the site's name */
} conf_example;

struct winnow_conf_set {
    conf_example *ex;
    size_t n, cap;
    char **corpus;
    unsigned ncorpus;
};

winnow_status winnow_conf_set_new(winnow_conf_set **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = calloc(1, sizeof **out);
    return *out ? WINNOW_OK : WINNOW_E_NOMEM;
}

void winnow_conf_set_free(winnow_conf_set *s)
{
    if (!s) return;
    for (unsigned k = 0; k < s->ncorpus; k++) free(s->corpus[k]);
    free(s->corpus);
    free(s->ex);
    free(s);
}

size_t winnow_conf_set_count(const winnow_conf_set *s) { return s ? s->n : 0; }

winnow_status winnow_conf_set_add(winnow_conf_set *s, winnow_engine *e, const winnow_input *in, int label,
                                  const char *corpus, const char *site, winnow_write_fn text, void *text_ctx)
{
    if (!s || !e || !in || label < -1 || label > 1) return WINNOW_E_ARG;
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, &d);
    if (WINNOW_FAILED(st)) return st;
    winnow_status rc = WINNOW_OK;
    if (!d->confidence_x) rc = WINNOW_E_ARG;
    if (rc == WINNOW_OK && text) rc = winnow_render(d, WINNOW_FORMAT_TEXT, text, text_ctx);
    if (rc == WINNOW_OK && s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        conf_example *ex = realloc(s->ex, cap * sizeof *ex);
        if (!ex)
            rc = WINNOW_E_NOMEM;
        else {
            s->ex = ex;
            s->cap = cap;
        }
    }
    int c = rc == WINNOW_OK ? wn_train_name_index(&s->corpus, &s->ncorpus, corpus ? corpus : "") : 0;
    if (c < 0) rc = WINNOW_E_NOMEM;
    if (rc == WINNOW_OK) {
        conf_example *x = &s->ex[s->n++];
        memset(x, 0, sizeof *x);
        memcpy(x->x, d->confidence_x, wn_conf_feature_count() * sizeof *x->x);
        x->label = label;
        x->corpus = (unsigned)c;
        x->site = wn_fnv_more(WN_FNV_OFFSET, site ? site : "", site ? strlen(site) : 0);
    }
    winnow_doc_free(d);
    return rc;
}

static void quiet(const char *s) { (void)s; }

/* Fits on the labelled examples with use[i] set. */
static int fit(const winnow_conf_set *s, const unsigned char *use, double C, wn_conf_model *m, char *err, size_t cap)
{
    unsigned nf = wn_conf_feature_count();
    size_t n = 0, pos = 0;
    for (size_t i = 0; i < s->n; i++)
        if (use[i] && s->ex[i].label >= 0) {
            n++;
            pos += s->ex[i].label == 1;
        }
    memset(m, 0, sizeof *m);
    if (n == 0 || pos == 0 || pos == n) {
        snprintf(err, cap, "%s", n ? "the pages are all of one label: nothing to learn" : "no labelled pages");
        return -1;
    }
    struct feature_node *pool = malloc(n * (nf + 2) * sizeof *pool);
    struct feature_node **rows = malloc(n * sizeof *rows);
    double *y = malloc(n * sizeof *y);
    if (!pool || !rows || !y) {
        free(pool);
        free(rows);
        free(y);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    size_t r = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!use[i] || s->ex[i].label < 0) continue;
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
    /* unweighted: the probability is to be calibrated to the pages as
     * they come, not to balanced classes */
    struct problem prob = { .l = (int)n, .n = (int)nf + 1, .y = y, .x = rows, .bias = -1 };
    struct parameter par = { .solver_type = L2R_LR, .eps = 0.001, .C = C, .p = 0.1 };
    set_print_string_function(quiet);
    int rc = -1;
    const char *msg = check_parameter(&prob, &par);
    if (msg) {
        snprintf(err, cap, "liblinear: %s", msg);
    } else {
        struct model *lm = train(&prob, &par);
        if (lm) {
            /* liblinear's weights are for its first label (the first
             * example's): turn them to the good label's */
            double sign = lm->label[0] == 1 ? 1.0 : -1.0;
            for (unsigned f = 0; f <= nf; f++) m->w[f] = sign * get_decfun_coef(lm, (int)f + 1, 0);
            m->loaded = 1;
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

winnow_status winnow_conf_fit_save(const winnow_conf_set *s, double C, const char *trained, const char *path, char *err,
                                   size_t cap)
{
    if (!s || !path) return WINNOW_E_ARG;
    unsigned char *use = malloc(s->n ? s->n : 1);
    wn_conf_model *m = malloc(sizeof *m);
    if (!use || !m) {
        free(use);
        free(m);
        return WINNOW_E_NOMEM;
    }
    memset(use, 1, s->n);
    winnow_status st = WINNOW_OK;
    if (fit(s, use, C, m, err, cap) != 0) {
        st = WINNOW_E_ARG;
    } else {
        size_t len = wn_conf_model_write(m, trained, NULL, 0);
        char *text = malloc(len + 1);
        if (!text)
            st = WINNOW_E_NOMEM;
        else {
            wn_conf_model_write(m, trained, text, len + 1);
            st = wn_train_write_text(path, text, len, err, cap);
        }
        free(text);
    }
    free(use);
    free(m);
    return st;
}

/* p[i] for the labelled examples in test, by boosted trees (XGBoost)
 * fitted on the labelled ones in train: a comparison only, the library
 * reads logistic models. One setting, not tuned: 200 rounds of depth 4,
 * eta 0.05, subsample and column sample 0.8, min_child_weight 2. */
static int boost_split(const winnow_conf_set *s, const unsigned char *train, const unsigned char *test, double *p,
                       char *err, size_t cap)
{
    unsigned nf = wn_conf_feature_count();
    size_t n = 0, m = 0;
    for (size_t i = 0; i < s->n; i++) {
        n += train[i] && s->ex[i].label >= 0;
        m += test[i] && s->ex[i].label >= 0;
    }
    int rc = -1;
    float *x = malloc((n + m + 1) * nf * sizeof *x), *y = malloc((n + 1) * sizeof *y);
    DMatrixHandle dm = NULL, dt = NULL;
    BoosterHandle bh = NULL;
    bst_ulong plen = 0;
    const float *pred = NULL;
    if (!x || !y) goto out;
    size_t r = 0, q = n;
    for (size_t i = 0; i < s->n; i++) {
        if (s->ex[i].label < 0) continue;
        if (train[i]) {
            memcpy(x + r * nf, s->ex[i].x, nf * sizeof *x);
            y[r++] = (float)s->ex[i].label;
        } else if (test[i]) {
            memcpy(x + q++ * nf, s->ex[i].x, nf * sizeof *x);
        }
    }
#define XGB(call)                                                                                                      \
    do {                                                                                                               \
        if ((call) != 0) {                                                                                             \
            snprintf(err, cap, "xgboost: %s", XGBGetLastError());                                                      \
            goto out;                                                                                                  \
        }                                                                                                              \
    } while (0)
    XGB(XGDMatrixCreateFromMat(x, n, nf, NAN, &dm));
    XGB(XGDMatrixSetFloatInfo(dm, "label", y, n));
    XGB(XGDMatrixCreateFromMat(x + n * nf, m, nf, NAN, &dt));
    XGB(XGBoosterCreate(&dm, 1, &bh));
    static const char *const params[][2] = {
        { "objective", "binary:logistic" },
        { "tree_method", "hist" },
        { "verbosity", "0" },
        { "seed", "1" },
        { "nthread", "2" },
        { "eta", "0.05" },
        { "max_depth", "4" },
        { "subsample", "0.8" },
        { "colsample_bytree", "0.8" },
        { "min_child_weight", "2" },
    };
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++)
        XGB(XGBoosterSetParam(bh, params[k][0], params[k][1]));
    for (int it = 0; it < 200; it++) XGB(XGBoosterUpdateOneIter(bh, it, dm));
    XGB(XGBoosterPredict(bh, dt, 0, 0, 0, &plen, &pred));
#undef XGB
    if (plen != m) {
        snprintf(err, cap, "xgboost predicted %llu rows of %zu", (unsigned long long)plen, m);
        goto out;
    }
    q = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->ex[i].label >= 0 && !train[i] && test[i]) p[i] = pred[q++];
    rc = 0;
out:
    if (bh) XGBoosterFree(bh);
    if (dm) XGDMatrixFree(dm);
    if (dt) XGDMatrixFree(dt);
    free(x);
    free(y);
    return rc;
}

/* p[i] for the examples in test, by a model fitted on those in train. */
static int score_split(const winnow_conf_set *s, const unsigned char *train, const unsigned char *test, double C,
                       int boost, double *p, char *err, size_t cap)
{
    if (boost) return boost_split(s, train, test, p, err, cap);
    wn_conf_model m;
    if (fit(s, train, C, &m, err, cap) != 0) return -1;
    for (size_t i = 0; i < s->n; i++)
        if (test[i]) p[i] = wn_conf_predict(&m, s->ex[i].x);
    return 0;
}

winnow_status winnow_conf_evaluate(const winnow_conf_set *s, unsigned folds, double C, int boost, double *p_corpus,
                                   double *p_site, char *err, size_t cap)
{
    if (!s || folds < 2 || !p_corpus || !p_site) return WINNOW_E_ARG;
    for (size_t i = 0; i < s->n; i++) p_corpus[i] = p_site[i] = -1;
    unsigned char *train = malloc(s->n ? s->n : 1), *test = malloc(s->n ? s->n : 1);
    if (!train || !test) {
        free(train);
        free(test);
        return WINNOW_E_NOMEM;
    }
    winnow_status st = WINNOW_OK;
    /* each corpus scored by a model fitted on all the others */
    for (unsigned c = 0; st == WINNOW_OK && s->ncorpus > 1 && c < s->ncorpus; c++) {
        for (size_t i = 0; i < s->n; i++) {
            test[i] = s->ex[i].corpus == c;
            train[i] = !test[i];
        }
        if (score_split(s, train, test, C, boost, p_corpus, err, cap) != 0) st = WINNOW_E_ARG;
    }
    /* folds of sites over every corpus: a page's site (and so its
     * template) is never on both sides */
    for (unsigned f = 0; st == WINNOW_OK && f < folds; f++) {
        for (size_t i = 0; i < s->n; i++) {
            test[i] = s->ex[i].site % folds == f;
            train[i] = !test[i];
        }
        if (score_split(s, train, test, C, boost, p_site, err, cap) != 0) st = WINNOW_E_ARG;
    }
    free(train);
    free(test);
    return st;
}
