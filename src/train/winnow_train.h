/* The training layer: node classifiers fitted from site-level labels.
 *
 * This sits above the extraction pipeline and is not part of libwinnow: it
 * runs the pipeline on many sites' pages through the library's internal
 * hook (src/pipeline/pipeline.h), labels their nodes and fits models with liblinear
 * and XGBoost. Only the command-line tool links it (libwinnow_train.a, see
 * CMakeLists.txt), so programs that only extract never load those
 * libraries. Models it writes are read back by winnow_engine_load_model().
 */
#ifndef WINNOW_TRAIN_H
#define WINNOW_TRAIN_H

#include <stdio.h>

#include "winnow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Node classifier training (site-independent detection, Kolcz & Yih;
 * Chakrabarti, Kumar & Punera). Site-level detection labels the nodes of
 * many sites' pages without hand labels: blocks on >= 10% of a site's
 * pages, and nodes with more than 85% of their text inside such blocks,
 * are template; the top-most blocks whose text and sub-blocks occur on no
 * other page are content; the rest is left out. A classifier trained on
 * those labels then scores nodes of pages from sites never seen.
 * ------------------------------------------------------------------------ */

typedef enum winnow_model_kind {
    WINNOW_MODEL_UNKNOWN = 0, /* what winnow_model_kind_parse() gives for a name it does not know */
    WINNOW_MODEL_NB = 1,      /* text Naive Bayes over block words */
    WINNOW_MODEL_LOGREG = 2,  /* logistic regression (liblinear) */
    WINNOW_MODEL_FOREST = 3,  /* random forest (XGBoost) */
    WINNOW_MODEL_BOOST = 4,   /* gradient-boosted trees (XGBoost) */
} winnow_model_kind;

/* "nb", "logreg", "forest", "boost" (and "lr", "rf", "gbt"); 0 when unknown. */
winnow_model_kind winnow_model_kind_parse(const char *name);
const char *winnow_model_kind_name(winnow_model_kind kind);

/* Content examples: the top-most unique blocks only (Kolcz & Yih's control
 * of the class imbalance), or also every node inside them (closer to
 * Chakrabarti et al., who label all non-template nodes). */
typedef enum winnow_labels { WINNOW_LABELS_TOP = 0, WINNOW_LABELS_INSIDE = 1 } winnow_labels;

typedef struct winnow_train_options {
    size_t struct_size;     /* sizeof (winnow_train_options): set by the _default() */
    winnow_model_kind kind; /* default BOOST */
    unsigned buckets;       /* separate models per node size (Chakrabarti: 4); default 1 */
    unsigned seed;          /* sampling, folds and tree randomness; default 1 */
    unsigned per_page;      /* at most this many examples per class and page; default 40 */
    unsigned rounds;        /* boosting rounds / forest trees; default 100 */
    unsigned depth;         /* tree depth; default 6 (boost) / 10 (forest) */
    unsigned threads;       /* XGBoost threads; default 2 */
    int verbose;            /* progress on stderr */
    winnow_labels labels;   /* content examples: TOP (default) or INSIDE */
} winnow_train_options;

/* Fills *o with the defaults; WINNOW_E_ARG when struct_size is too small
 * for this structure (the library's convention, see winnow_options_default). */
winnow_status winnow_train_options_default(winnow_train_options *o, size_t struct_size);

typedef struct winnow_trainer winnow_trainer;

/* A new trainer in *out. o may be NULL for the defaults. WINNOW_E_ARG for
 * out NULL or an o->struct_size this library does not take, WINNOW_E_NOMEM. */
winnow_status winnow_trainer_new(const winnow_train_options *o, winnow_trainer **out);
void winnow_trainer_free(winnow_trainer *t);
const char *winnow_trainer_error(const winnow_trainer *t);

/* Labels one site's pages (two passes: count the site's blocks, then label
 * and describe every page's nodes) and keeps the examples. Pages that fail
 * to parse are skipped. The engine is used for parsing only. */
winnow_status winnow_trainer_add_site(winnow_trainer *t, winnow_engine *e, const char *site, const winnow_input *pages,
                                      size_t n);

typedef struct winnow_train_summary {
    size_t sites, pages, examples, template_examples, content_examples;
} winnow_train_summary;
void winnow_trainer_summary(const winnow_trainer *t, winnow_train_summary *out);

/* Fits the model on every example added and writes the model file. */
winnow_status winnow_trainer_save(winnow_trainer *t, const char *path);

/* Cross-site cross-validation (no site on both sides): folds of sites,
 * train on the others, score the held-out sites' labelled nodes. Reports
 * template recall at precision 0.90, and writes the precision-recall curve
 * (threshold, precision, recall per line) to curve_path when not NULL. */
typedef struct winnow_cv_result {
    winnow_model_kind kind;
    double recall_at_p90, recall_at_p80, average_precision;
    size_t test_examples, test_templates;
} winnow_cv_result;
winnow_status winnow_trainer_cv(winnow_trainer *t, unsigned folds, winnow_model_kind kind, const char *curve_path,
                                winnow_cv_result *out);

/* ------------------------------------------------------------------------
 * Page type training (winnow train --page-types): pages with their kind,
 * the page type stage's features of each, one-vs-rest logistic regression
 * (liblinear). The model file is what the library embeds
 * (models/pagetype.wmodel).
 * ------------------------------------------------------------------------ */
typedef struct winnow_pt_set winnow_pt_set;
winnow_status winnow_pt_set_new(winnow_pt_set **out);
void winnow_pt_set_free(winnow_pt_set *s);
size_t winnow_pt_set_count(const winnow_pt_set *s);
/* Runs the pipeline on one page (e must not force a kind) and keeps its
 * features with its kind, its corpus and its site (for held-out splits).
 * The page's failure status when it cannot be extracted. */
winnow_status winnow_pt_set_add(winnow_pt_set *s, winnow_engine *e, const winnow_input *in, winnow_page_type label,
                                const char *corpus, const char *site);
/* Fits on every page (C: liblinear's cost; balanced: each kind weighs the
 * same in all) and writes the model file; err says why it failed. */
winnow_status winnow_pt_fit_save(const winnow_pt_set *s, double C, int balanced, const char *path, char *err,
                                 size_t cap);
/* One page's held-out verdict: the kind the model that did not see it
 * judged, and that kind's probability. */
typedef struct winnow_pt_verdict {
    winnow_page_type kind; /* WINNOW_PAGE_UNKNOWN: the page was not held out */
    double confidence;
} winnow_pt_verdict;
/* Held-out accuracy and the confusion matrix (Markdown) on out: within a
 * corpus name, `folds` folds of its pages split by site (trained on that
 * corpus's other folds); within NULL, each corpus scored by a model
 * fitted on all the others. verdicts, when not NULL, has room for
 * winnow_pt_set_count() and gets each page's verdict, in the order the
 * pages were added (pages of other corpora than within: UNKNOWN).
 * models, when not NULL, is a folder that gets each held-out model:
 * WITHIN.foldF.wmodel (F from 0) or CORPUS.wmodel, the model that scored
 * that fold or corpus (for `winnow extract --page-type-model`). */
winnow_status winnow_pt_evaluate(const winnow_pt_set *s, const char *within, unsigned folds, double C, int balanced,
                                 FILE *out, winnow_pt_verdict *verdicts, const char *models, char *err, size_t cap);

/* ------------------------------------------------------------------------
 * Confidence training (winnow train --confidence): pages with whether the
 * text winnow keeps of them is their main content (token F1 against the
 * gold text of 0.8 or more, bench/confidence.py), the confidence stage's
 * features of each, logistic regression (liblinear). The model file is
 * what the library embeds (models/confidence.wmodel).
 * ------------------------------------------------------------------------ */
typedef struct winnow_conf_set winnow_conf_set;
winnow_status winnow_conf_set_new(winnow_conf_set **out);
void winnow_conf_set_free(winnow_conf_set *s);
size_t winnow_conf_set_count(const winnow_conf_set *s);
/* Runs the pipeline on one page as winnow_extract does and keeps its
 * features with its label (1 good, 0 not, -1 unknown: neither fitted nor
 * scored), its corpus and its site (for held-out splits); when text is not
 * NULL, the page's main text (WINNOW_FORMAT_TEXT, what winnow extract
 * writes) goes to it. The page's failure status when it cannot be
 * extracted (then nothing is kept). */
winnow_status winnow_conf_set_add(winnow_conf_set *s, winnow_engine *e, const winnow_input *in, int label,
                                  const char *corpus, const char *site, winnow_write_fn text, void *text_ctx);
/* Fits on every labelled page (C: liblinear's cost) and writes the model
 * file, with `trained` (one line: what it was fitted on) in it; err says
 * why it failed. */
winnow_status winnow_conf_fit_save(const winnow_conf_set *s, double C, const char *trained, const char *path, char *err,
                                   size_t cap);
/* Held-out probabilities of every labelled page, in the order the pages
 * were added (-1 for unlabelled ones): p_corpus by the model fitted on the
 * other corpora; p_site by the model fitted on the pages of the other
 * `folds` folds of sites (a site's fold: the FNV-1a hash of its name
 * modulo folds), every corpus pooled. Each has room for
 * winnow_conf_set_count(). boost: fitted by boosted trees (XGBoost, one
 * fixed setting) instead of the logistic regression, to compare them (the
 * library reads logistic models only). */
winnow_status winnow_conf_evaluate(const winnow_conf_set *s, unsigned folds, double C, int boost, double *p_corpus,
                                   double *p_site, char *err, size_t cap);

/* ------------------------------------------------------------------------
 * Units training (winnow train --units): the learned unit decision's model
 * (src/select/units.h) from pages with gold main text. Each page runs the
 * pipeline with the model off; every unit's feature row is labelled by the
 * share of its word triples the gold text has, and gradient-boosted trees
 * (XGBoost) learn it, each unit weighted by its words.
 * ------------------------------------------------------------------------ */

typedef struct winnow_unit_set winnow_unit_set;
typedef struct winnow_unit_params {
    unsigned rounds;  /* boosting rounds (0: 150) */
    unsigned depth;   /* tree depth (0: 6) */
    unsigned threads; /* 0: 2 */
    unsigned seed;
    double eta; /* step (0: 0.1) */
} winnow_unit_params;

winnow_status winnow_unit_set_new(winnow_unit_set **out);
void winnow_unit_set_free(winnow_unit_set *s);
size_t winnow_unit_set_pages(const winnow_unit_set *s);
size_t winnow_unit_set_rows(const winnow_unit_set *s);
/* Runs the page through the pipeline on e (its units model off for the
 * run; its type forced to page_type unless WINNOW_PAGE_UNKNOWN) and adds
 * its units, labelled against gold (UTF-8, gold_len bytes), under corpus
 * and site (for held-out folds) and id. */
winnow_status winnow_unit_set_add(winnow_unit_set *s, winnow_engine *e, const winnow_input *in, const char *gold,
                                  size_t gold_len, const char *corpus, const char *site, const char *id, int page_type);
/* Fits on every page and writes the model file (what models/units.wmodel
 * holds), saying `trained` in it. */
winnow_status winnow_unit_fit_save(const winnow_unit_set *s, const winnow_unit_params *p, const char *trained,
                                   const char *path, char *err, size_t cap);
/* Held-out figures: each corpus by a model fitted on the others; the
 * corpus named fold_corpus by `folds` folds of its sites (a site's fold:
 * its FNV-1a hash modulo folds), each by a model fitted on every page
 * outside the fold. Per page (to `pages`, TSV) and per corpus (to
 * `summary`): the word F1 of the kept units with the rules' decisions and
 * with the model's at several thresholds. With models_dir, each held-out
 * model is written there (CORPUS.wmodel, CORPUS.foldK.wmodel) for scoring
 * real extractions with --unit-model. With units_out, every unit's
 * held-out row (TSV, no header: page number, the rules' keep, the held-out
 * probability, words, label, the page's gold words), to compare
 * decisions. */
winnow_status winnow_unit_evaluate(const winnow_unit_set *s, const winnow_unit_params *p, unsigned folds,
                                   const char *fold_corpus, const char *models_dir, FILE *pages, FILE *summary,
                                   FILE *units_out, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
