/* Explaining a page: the reasons (rules/why.h) recorded for every unit
 * while the stages run, in d->explain (doc.h), only in the pipeline's
 * WN_RUN_EXPLAIN mode.
 *
 * Contract: wn_explain_begin allocates d->explain before the page scorer;
 * the scorer, the site scorer and the selection write raw_why, boil_why,
 * sel_why, in_block and heur as they decide; wn_explain_finish reads them
 * with d->labels and writes why. */
#ifndef WN_WHY_H
#define WN_WHY_H

#include "../doc.h"
#include "../rules/why.h"

/* Allocates d->explain for a page about to be scored; 0, or -1 out of memory. */
int wn_explain_begin(winnow_doc *d);
/* After the selection: each unit's final reason into d->explain->why. */
void wn_explain_finish(winnow_doc *d);

#endif
