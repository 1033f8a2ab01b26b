/* Stage 4 -> 5 (page level, learned): node classifier scores, smoothed
 * over the DOM tree, turned into the unit values the selection reads.
 *
 * Every scored node gets P(template) from the classifier in one batch;
 * Chakrabarti et al.'s regularized isotonic regression then makes the
 * scores monotone down the tree (a template node's descendants are
 * template) and piecewise constant (segments). The heuristic page scorer's
 * values stay the base: a unit the smoothed classifier calls template
 * loses value in proportion, one it calls content gains, so the selection
 * (maximum-weight subtree) works unchanged on better evidence.
 *
 * Contract (only where no site model judged the page): reads the page
 * scores, the statistics and the page text; writes d->labels.clf, smoothed
 * and segment (smooth/smooth_page.h) and rewrites d->labels.value and templ. */
#ifndef WN_CLASSIFY_APPLY_H
#define WN_CLASSIFY_APPLY_H

#include "../doc.h"
#include "../score/page_score.h"
#include "../smooth/smooth_page.h"
#include "classifier.h"

typedef struct wn_classify_options {
    int smooth; /* isotonic smoothing of the scores (default on) */
    wn_smooth_options so;
    /* how far the classifier moves a unit's value: rule CLASSIFIER_WEIGHT */
} wn_classify_options;

void wn_classify_options_default(wn_classify_options *o);

/* Scores, smooths and re-values the page's units. Per-node P(template)
 * before and after smoothing are kept in d->labels (clf_score, smoothed). */
int wn_classify_page(winnow_doc *d, wn_page_scores *ps, const wn_classifier *clf, const wn_classify_options *o,
                     const char *url);

#endif
