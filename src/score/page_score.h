/* Stage 4 (single page): templateness of every node from the page alone.
 *
 * Text is grouped into units (the nearest line-breaking element above each
 * text node). Each unit gets a content value: positive for running text
 * (long, punctuated, few links), negative for link lists, short fragments
 * and text under boilerplate landmarks (nav, aside, footer, ARIA roles,
 * class/id names such as sidebar, share, related, comment, gallery). A
 * class/id name is trusted only when the element it names does not hold
 * most of the page's running text: wrappers named "has-sidebar" do not sink
 * a page. Names that say only "comments" or "gallery" are trusted up to 90%
 * of the text (long comments under a short article), and not at all when
 * nearly all the text is under such names (a forum thread). Comments after
 * an empty <a name="comments"> marker, script text shown as text and
 * unrendered {{placeholders}} are boilerplate too; a <header> inside an
 * <article> is the article's own. Comment threads whose elements have no
 * such names are found by their structure (records.h): a run of records
 * of one shape after a longer post; not on a page that is a discussion.
 *
 * Contract: reads the DOM, the statistics, the block list and the rule
 * table (d->rules); writes a wn_page_scores (the caller's, read by the site
 * score, the classifier and the selection) and d->labels: allocates every
 * per-node array, fills templ, value and unit; finds the reader comments
 * (d->comments, records.h) and the page's host (d->page_host); when
 * explaining, d->explain's raw_why, boil_why and heur. */
#ifndef WN_PAGE_SCORE_H
#define WN_PAGE_SCORE_H

#include "../doc.h"

typedef struct wn_unit_stats {
    uint32_t chars, link_chars, stops, commas, words;
    uint32_t code; /* { } = ; outside <pre> and <code> */
} wn_unit_stats;

typedef struct wn_page_scores {
    wn_unit_stats *own;     /* per node: text owned directly by the unit */
    uint16_t *boiler;       /* per node: trusted boilerplate hints inherited from ancestors (or self) */
    uint8_t *content_hint;  /* per node: inside a trusted content landmark (article, main, itemprop) */
    uint8_t *after_marker;  /* per node: after a comment marker under the same parent, or inside such a node */
    uint8_t *landmark;      /* per element: itself <article>, <main>, role=main/article or itemprop=articleBody */
    float *raw;             /* per unit: content value of its own text alone, before any hint */
    uint16_t *self_hint;    /* per element: hint bits of its own name and landmark role */
    uint32_t title_heading; /* the page's title heading (headline.h), WN_NONE when none */
} wn_page_scores;

int wn_page_score(winnow_doc *d, wn_page_scores *ps);

#endif
