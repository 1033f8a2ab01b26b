/* A trained node classifier: how winnow scores nodes of one page of a site
 * it has never seen (Kolcz & Yih; Chakrabarti, Kumar & Punera).
 *
 * Kinds: the text Naive Bayes alone, logistic regression (trained with
 * liblinear), and tree ensembles (random forest, gradient boosting; trained
 * with XGBoost). Training needs those libraries; prediction does not: a
 * model file holds the weights or the trees themselves, and evaluating
 * them here keeps extraction free of their run-time state, thread-safe and
 * batched (all nodes of a page in one call). Optionally one model per
 * node-size bucket, as Chakrabarti et al. train four.
 *
 * Model file: line-oriented text, versioned ("winnow-model 1"), recording
 * the feature layout (version and names), the training corpus digest and
 * the settings, then the Naive Bayes word table and the per-bucket models.
 * The output is P(template) per node. */
#ifndef WN_CLASSIFIER_H
#define WN_CLASSIFIER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "features.h"
#include "nb.h"
#include "winnow.h"

#define WN_MODEL_FORMAT 1
#define WN_MAX_BUCKETS 8

typedef enum wn_clf_kind {
    WN_CLF_NB = 1,     /* text Naive Bayes score alone */
    WN_CLF_LOGREG = 2, /* logistic regression over standardized features */
    WN_CLF_FOREST = 3, /* random forest (XGBoost, one round of parallel trees) */
    WN_CLF_BOOST = 4,  /* gradient-boosted trees (XGBoost) */
} wn_clf_kind;

const char *wn_clf_kind_name(int kind);
int wn_clf_kind_parse(const char *s); /* 0 when unknown */

typedef struct wn_tree_node {
    int32_t feature; /* -1: leaf */
    float threshold; /* go to `yes` when x[feature] < threshold */
    int32_t yes, no; /* node indices within the tree */
    float leaf;
} wn_tree_node;

typedef struct wn_clf_bucket {
    /* logistic regression */
    float mean[WN_NFEAT], scale[WN_NFEAT], w[WN_NFEAT];
    float bias;
    /* trees: tree t is nodes[tree_start[t] .. tree_start[t+1]) */
    uint32_t ntrees;
    uint32_t *tree_start;
    wn_tree_node *nodes;
    float base_margin;
    int paired; /* every split's `no` child directly follows its `yes` child */
    /* prediction layout built by wn_clf_bucket_finish: every tree padded to
     * a perfect binary tree of depth flat_depth (a leaf above that depth
     * becomes splits whose two sides end in copies of it), so a walk is
     * flat_depth branch-free steps from node k to 2k+1 (x < threshold) or
     * 2k+2, and the leaf is read at k - (2^depth - 1). Tree t's splits are
     * flat_feature/flat_threshold[t * (2^depth - 1) ...], its leaves
     * flat_leaf[t * 2^depth ...]. NULL when a tree is deeper than
     * WN_FLAT_MAX_DEPTH (or out of memory): prediction then walks nodes. */
    uint32_t flat_depth;
    uint8_t *flat_feature;
    float *flat_threshold;
    float *flat_leaf;
} wn_clf_bucket;

#define WN_FLAT_MAX_DEPTH 8
_Static_assert(WN_NFEAT <= 256, "flat_feature holds feature indices in one byte");

typedef struct wn_classifier {
    int kind;
    uint32_t nbuckets;           /* 1, or one model per node size */
    float edges[WN_MAX_BUCKETS]; /* bucket b: log_chars < edges[b] (last is +inf) */
    wn_clf_bucket bucket[WN_MAX_BUCKETS];
    wn_nb_model nb;
    char digest[80]; /* training corpus digest */
    char settings[512];
    uint32_t sites, examples;
} wn_classifier;

/* Leaf value a tree gives one row of features. paired: every split's `no`
 * child directly follows its `yes` child, so the comparison picks the child
 * without a branch the CPU would mispredict. */
static inline float wn_tree_eval(const wn_tree_node *nodes, const float *f, int paired)
{
    int32_t k = 0;
    if (paired)
        while (nodes[k].feature >= 0) k = nodes[k].yes + !(f[nodes[k].feature] < nodes[k].threshold);
    else
        while (nodes[k].feature >= 0) k = f[nodes[k].feature] < nodes[k].threshold ? nodes[k].yes : nodes[k].no;
    return nodes[k].leaf;
}

/* Sets b->paired and builds the flat layout after the trees are in place
 * (and frees a previous flat layout). */
void wn_clf_bucket_finish(wn_clf_bucket *b);

/* Margins (before the sigmoid) of rows of features, each `stride` floats
 * from the last, by one bucket's trees: on the flat layout when it is
 * built, else by walking the nodes. For tree models of other feature rows
 * (the learned unit decision's, select/units.h) as well as this one's. */
void wn_clf_bucket_margins(const wn_clf_bucket *bk, const float *x, uint32_t rows, size_t stride, float *out);

/* Parses a model file's text. Returns 0, or -1 (the text is not a model
 * this code reads) or -2 (out of memory) with a message in err. */
int wn_classifier_parse(const char *text, size_t len, wn_classifier *out, char *err, size_t errcap);
/* A plain decimal (sign, digits, one point; no exponent; at most 15
 * significant digits and 22 after the point) into *v, rounded exactly as
 * strtod rounds it; 0 for any other text. The model parser's fast path. */
int wn_clf_plain_decimal(const char *t, double *v);
/* Reads and parses the model file at path: WINNOW_OK, or WINNOW_E_IO (it
 * cannot be opened or read), WINNOW_E_FORMAT (not a model this code
 * reads), WINNOW_E_NOMEM, with a message in err. */
winnow_status wn_classifier_load(const char *path, wn_classifier *out, char *err, size_t errcap);
int wn_classifier_write(const wn_classifier *c, FILE *f);
void wn_classifier_free(wn_classifier *c);

/* P(template) for rows of features (rows * WN_NFEAT floats), in one batch. */
void wn_classifier_predict(const wn_classifier *c, const float *x, uint32_t rows, float *out);

/* The model compiled into the library (models/default.wmodel); NULL data
 * when the build had none. */
extern const unsigned char wn_default_model[];
extern const size_t wn_default_model_len;

#endif
