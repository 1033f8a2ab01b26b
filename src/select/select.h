/* Stage 5: templateness scores -> content labels.
 *
 * The main content is the subtree whose units' values sum highest (a
 * maximum-weight subtree: it takes in running text and stops where adding
 * an ancestor would bring in more boilerplate than text). Inside it, units
 * are kept unless they are link lists or sit under trusted boilerplate.
 * The page headline is kept when it precedes the content block. */
#ifndef WN_SELECT_H
#define WN_SELECT_H

#include "../doc.h"
#include "../score/page_score.h"

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title);

#endif
