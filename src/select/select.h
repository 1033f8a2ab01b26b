/* Stage 5: templateness scores -> content labels.
 *
 * The main content is the subtree whose units' values sum highest (a
 * maximum-weight subtree: it takes in running text and stops where adding
 * an ancestor would bring in more boilerplate than text). Inside it, units
 * are kept unless they are link lists or sit under trusted boilerplate.
 * The page headline is kept when it precedes the content block.
 *
 * The selection runs one strategy per kind of page (strategy.h; today the
 * article's, article.c) over shared passes (passes.h lists the files).
 *
 * Contract: reads the DOM, the statistics and page text, the page scores
 * (a wn_page_scores: boilerplate marks, own counts, the title heading,
 * comment markers), d->labels' value, unit and templ (the units'
 * templateness), d->meta (the description for the fallback; the URL and
 * site name, with d->src_url, to tell a site's name from a headline and a
 * teaser's own page), the page's host and the rule table (d->rules);
 * writes d->labels: keep, container, headline, headline_inline, source and
 * teasers, and templ again as each element's templateness from what was
 * kept; when explaining, d->explain's in_block and sel_why. Its scratch
 * arrays are given back before it returns. */
#ifndef WN_SELECT_H
#define WN_SELECT_H

#include "../doc.h"
#include "../score/headline.h"
#include "../score/page_score.h"

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title);

/* After the selection: when it kept (nearly) none of the running text,
 * choose the content again from evidence independent of the hints
 * (fallback.c). Sets d->labels.source. */
int wn_fallback(winnow_doc *d, const wn_page_scores *ps, int include_title);

/* Marks (1) the nodes in the page's own header or footer: a <header>,
 * <footer>, role=banner or role=contentinfo holding less than
 * FRAME_MAX_SHARE of the page's text, with no <article> or <main> above
 * it, nor a <section>, <aside> or <nav> of that size (FRAME_SECTION_SCOPE),
 * and its wrappers that hold no more text. The selection and the
 * fallback both ask it. In the scratch arena; NULL when out of memory. */
uint8_t *wn_frame_marks(winnow_doc *d, const wn_page_scores *ps);

/* FRAME_MAX_SHARE of the page's text: an element holding less is a part
 * of the page, not a wrapper around most of it (the frame's test of its
 * landmarks and sections, and the region's of its items). */
static inline float wn_frame_share_chars(const winnow_doc *d)
{
    return WN_RULE(d, FRAME_MAX_SHARE) * (float)d->stats[d->dom.body].chars;
}

/* After the selection: when its block is the summary of one teaser on a
 * page showing LISTING_MIN_TEASERS or more (a listing page, listing.c),
 * the number of teasers; else 0. */
uint32_t wn_listing_teasers(const winnow_doc *d, const wn_page_scores *ps);
/* The page's headline for content block c, WN_NONE when none (headline.c). */
uint32_t wn_find_headline(const winnow_doc *d, uint32_t container);
/* Finds and keeps the headline of content block `container` (the
 * selection's and the fallback's): marks it kept, sets labels.headline when
 * it lies outside the block and labels.headline_inline when it is an
 * inline element rather than a unit. */
void wn_keep_headline(winnow_doc *d, uint32_t container);

#endif
