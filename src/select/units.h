/* The learned unit decision: the last word on each text unit, from a model
 * fitted on the gold text of the bench corpora.
 *
 * The rules before it (the strategy's block, the keep passes, the dial)
 * decide each unit; this step reads what they decided together with the
 * values they decided from (the unit's own counts and content value, its
 * templateness, the classifier's score, where it lies against the content
 * block, what its neighbours and the units of its shape were given, the
 * page type its strategy was chosen by) and lets gradient-boosted trees keep or drop it. The trees
 * were fitted (winnow train --units) to say whether a unit's words are in
 * the page's gold main text, so where the rules are right the model agrees
 * with them and where a kind of page makes them wrong it learns how. The
 * headline is not the model's to decide: whether it comes out is the
 * caller's choice (winnow_options.include_title).
 *
 * Contract: reads the DOM, the statistics, the page scores (own counts,
 * boilerplate marks, comment markers, raw values), d->labels (keep, unit,
 * value, templ, clf, smoothed, container, headline), the page type and its
 * probability, d->site_pages (a page a site model judged is left as it
 * is), and the rule REGION_MIN_CONFIDENCE; the rules UNIT_MODEL, UNIT_KEEP_MIN, UNIT_ADD_MIN,
 * UNIT_MAX_DROP and UNIT_MAX_ADD; writes labels.keep of units,
 * and when asked (d->unit_collect) d->unit_x, d->unit_nodes and
 * d->nunit_x: every unit's feature row, in the page arena. With no model
 * and no collecting it does nothing. */
#ifndef WN_SELECT_UNITS_H
#define WN_SELECT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "../classify/classifier.h"
#include "../doc.h"
#include "../score/page_score.h"

/* The feature row's length; wn_unit_feature_name() names each. */
#define WN_UNIT_NFEAT 50

typedef struct wn_unit_model {
    wn_clf_bucket trees; /* the classifier's tree layout: the nodes, base margin, flat layout */
    char trained[256];   /* what the model says it was fitted on */
} wn_unit_model;

const char *wn_unit_feature_name(unsigned k);

/* The model built into the library (models/units.wmodel, embedded by
 * cmake/embed.cmake; length 0 in a build without one). */
extern const unsigned char wn_units_model[];
extern const size_t wn_units_model_len;

/* Reads a model file's text: 0, or -1 (not a units model of this build's
 * features) or -2 (out of memory) with a message in err. */
int wn_unit_model_parse(const char *text, size_t n, wn_unit_model *m, char *err, size_t cap);
void wn_unit_model_free(wn_unit_model *m);

/* The model's probability that a row's unit is main content. */
float wn_unit_model_predict(const wn_unit_model *m, const float *x);
/* The same for rows rows of WN_UNIT_NFEAT features, in one batch. */
void wn_unit_model_predict_rows(const wn_unit_model *m, const float *x, uint32_t rows, float *p);
/* How the probabilities decide (the rules UNIT_KEEP_MIN, UNIT_ADD_MIN,
 * UNIT_MAX_DROP, UNIT_MAX_ADD): a unit the rules kept stays when its
 * probability is keep_min or more, one they left out comes in at add_min
 * or more; where the units dropped hold more than max_drop of the words
 * the rules kept, none is dropped, and where those added hold more than
 * max_add of them, none is added. */
typedef struct wn_unit_policy {
    float keep_min, add_min, max_drop, max_add;
} wn_unit_policy;

/* keep[j] for n units of probability p[j], the rules' decision rule[j] and
 * words[j] words (the step's decision, and the trainer's held-out one). */
void wn_units_decide(const wn_unit_policy *pol, const float *p, const uint8_t *rule, const float *words, uint32_t n,
                     uint8_t *keep);

/* The step (select.c runs it after the dial): 0, or -1 when out of memory. */
int wn_units_learned(winnow_doc *d, const wn_page_scores *ps);

#endif
