/* Private to records.c, teasers.c and record_words.c: the page view the
 * record detectors share (shapes and masses of the page's elements), and
 * the helpers one of these files calls in another. Not part of records.h. */
#ifndef WN_RECORDS_INTERNAL_H
#define WN_RECORDS_INTERNAL_H

#include "records.h"

typedef struct page {
    winnow_doc *d;
    const wn_page_scores *ps;
    const float *pos; /* positive running text per subtree */
    uint64_t *cls;    /* class tokens without digits, 0 when none */
    uint64_t *kids;   /* sequence of element children's tags, repeats folded, 0 when none */
    uint8_t *have;    /* bit 0: cls computed, bit 1: kids computed */
} page;

/* record_words.c: words and dates of the case-folded page text */
int wn_each_word(const char *t, size_t n, int (*fn)(const char *w, size_t len, void *ctx), void *ctx);
int wn_date_word(const char *w, size_t len, void *ctx);
int wn_reply_word(const char *w, size_t len, void *ctx);
int wn_marker_word(const char *w, size_t len, void *ctx);
void wn_date_span(const char *s, size_t n, size_t *b, size_t *e);

/* records.c: the page view */
const char *wn_text_of(const winnow_doc *d, uint32_t i, size_t *n);
int wn_visible_element(const wn_dom *dom, const wn_stats *st, uint32_t c);
int wn_alike(const page *pg, uint32_t a, uint32_t b);
float wn_text_beside(const page *pg, uint32_t parent, uint32_t first, uint32_t last, int after);
int wn_cmp_float(const void *a, const void *b);

/* teasers.c */
int wn_teaser_runs(page *pgp, float *mass, uint32_t *kid, uint8_t *region);

#endif
