/* Selection strategies: one per kind of page.
 *
 * A strategy chooses a page's content block and marks the units to keep
 * (labels.keep, labels.container, labels.headline); wn_select() (select.c)
 * runs the strategy for the page, then the steps every page shares: the
 * listing-page test, the fallback, text nodes following their units, and
 * the element templateness. The article strategy (article.c) is the
 * selection as it was written for every page; the region strategy
 * (region.c) keeps the parts of a page made of parts; the product strategy
 * (product.c) narrows the region's to one product. A strategy for another
 * kind of page (a thread, a product, a listing, a
 * documentation page, a landing page) is a file of its own, a row of
 * wn_strategies[] and a test in wn_strategy_for(); the shared passes it
 * puts together are declared in passes.h. */
#ifndef WN_SELECT_STRATEGY_H
#define WN_SELECT_STRATEGY_H

#include "select.h"

/* What a strategy works on and what it hands back to wn_select(). */
typedef struct wn_selection {
    winnow_doc *d;
    const wn_page_scores *ps;
    int include_title;  /* keep the headline (wn_keep_headline) */
    const float *score; /* block scores (wn_block_scores): in, read only */
    uint32_t best;      /* out: the content block, WN_NONE when none */
    uint32_t framed;    /* out: the best block when it lay in the page's own header or footer and no other
                          * block scored (the page then has no main content), else WN_NONE */
    uint32_t region;    /* out (region strategy): the content region whose parts were kept, else WN_NONE */
    int parts_always;   /* in (region strategy): add the parts even to an article after all (the product
                         * strategy narrows them itself) */
} wn_selection;

typedef struct wn_strategy {
    const char *name; /* "article" */
    /* Chooses the block and marks what to keep; 0, or -1 when out of
     * memory. Allocations go to the document's scratch arena, which
     * wn_select() gives back. */
    int (*select)(wn_selection *sel);
    /* whether the listing test (listing.c) may drop the block as one
     * teaser of a list page: not where the list is the content */
    int listing_test;
    /* whether the fallback (fallback.c) may choose again when the
     * selection kept little of the running text: not where the strategy
     * left out running text on purpose (a dialog's) */
    int fallback;
} wn_strategy;

extern const wn_strategy wn_strategies[];
extern const size_t wn_strategy_count;

/* The strategy for the page: by its type, when the page type stage is sure
 * enough of it (REGION_MIN_CONFIDENCE); else the article's (the first row). */
const wn_strategy *wn_strategy_for(const winnow_doc *d, const wn_page_scores *ps);

/* article.c */
int wn_select_article(wn_selection *sel);
/* region.c */
int wn_select_region(wn_selection *sel);
/* product.c */
int wn_select_product(wn_selection *sel);

#endif
