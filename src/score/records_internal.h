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
    int posts;        /* reading a thread's posts (posts.c): an author has two characters or more (not an
                       * avatar's initial) */
} page;

/* record_words.c: words and dates of the case-folded page text */
int wn_each_word(const char *t, size_t n, int (*fn)(const char *w, size_t len, void *ctx), void *ctx);
int wn_date_word(const char *w, size_t len, void *ctx);
int wn_reply_word(const char *w, size_t len, void *ctx);
int wn_relative_word(const char *w, size_t len, void *ctx);
int wn_has_word_month_date(const char *t, size_t n);
int wn_marker_word(const char *w, size_t len, void *ctx);
void wn_date_span(const char *s, size_t n, size_t *b, size_t *e);

/* records.c: the page view */
/* The shape tables of a page, in the scratch arena (pos: positive running
 * text per subtree, may be NULL for a reader of records alone); 0, -1 when
 * out of memory. */
int wn_page_init(page *pg, winnow_doc *d, const wn_page_scores *ps, const float *pos);
const char *wn_text_of(const winnow_doc *d, uint32_t i, size_t *n);
int wn_visible_element(const wn_dom *dom, const wn_stats *st, uint32_t c);
int wn_alike(const page *pg, uint32_t a, uint32_t b);
/* Element i's class tokens without those with digits or of alternation
 * ("odd", "even"), hashed; 0 without a class (and for text, the root). */
uint64_t wn_shape_cls(const page *pg, uint32_t i);
float wn_text_beside(const page *pg, uint32_t parent, uint32_t first, uint32_t last, int after);
int wn_cmp_float(const void *a, const void *b);

/* records.c: one record (a comment, a post) */

/* What one record shows. */
typedef struct record_signs {
    int lines, short_lines;
    uint32_t date, author; /* units or elements, WN_NONE when none */
    int reply, avatar, permalink;
    int headline; /* a line that is a link of several words: a teaser */
} record_signs;

/* Reads record r: its lines, the smallest element showing a date, the
 * first name-like element (a link first), reply links, avatars,
 * permalinks, a teaser's headline. */
void wn_read_record(const page *pg, uint32_t r, record_signs *rs);
/* Display text of node i into the page arena; with rs, the record's body
 * (without its author, date and short lines that are no sentences). NULL
 * when out of memory. */
const char *wn_display_text(const page *pg, uint32_t i, const record_signs *rs);
/* The date shown by element i (its text cut to the date), in the page arena. */
const char *wn_date_text(const page *pg, uint32_t i);
/* Record r as an entry: author, date, body ("" when not found); 0, -1 when
 * out of memory. */
int wn_record_entry(const page *pg, uint32_t r, const record_signs *rs, wn_comment *c);
/* A new entry at the end of the list *list of *count (capacity *cap, grown
 * in the page arena); NULL when out of memory. */
wn_comment *wn_record_push(winnow_doc *d, wn_comment **list, size_t *count, size_t *cap);

/* teasers.c */
int wn_teaser_runs(page *pgp, float *mass, uint32_t *kid, uint8_t *region);

#endif
