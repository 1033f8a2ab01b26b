/* Stage 4 (site level): templateness from a site's model.
 *
 * Each text unit is judged by how many of the site's pages carry the same
 * text: its own chunk (Ma et al., line-breaking delimiters), the table chunk
 * around it (Ma et al., table delimiters) and the block candidates that
 * contain it (Gibson et al. / Kolcz & Yih fingerprints, optionally keyed on
 * DOM path too). A document frequency of at least 10% of the site's pages
 * (and at least 2 pages) is template; text no other page has is unique;
 * the rest stays with the page scorer. Template units sink, unique running
 * text rises, and the same selection as in page mode picks the content.
 *
 * Contract: reads the page scores, the page's wn_page_signals (site/) and a
 * site model; rewrites d->labels.value and templ, writes labels.unique and a
 * wn_site_judgement, which the pipeline keeps in d->site_pages,
 * site_template_chars and site_unique_chars. */
#ifndef WN_SITE_SCORE_H
#define WN_SITE_SCORE_H

#include "../doc.h"
#include "../site/model.h"
#include "../site/signals.h"
#include "page_score.h"

typedef struct wn_site_judgement {
    double pages; /* site pages the judgement rests on (self excluded when asked) */
    uint32_t template_units, unique_units, undecided_units;
    uint64_t template_chars, unique_chars, undecided_chars;
} wn_site_judgement;

int wn_site_score(winnow_doc *d, wn_page_scores *ps, const wn_page_signals *sig, const wn_site_model *m, int method,
                  int exclude_self, wn_site_judgement *out);

#endif
