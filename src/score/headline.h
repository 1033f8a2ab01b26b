/* The page's headline, found by its words: the unit whose words are
 * (nearly) all the document title's and cover enough of it. Used by the
 * scorer (a boilerplate name on an ancestor of the headline is a layout
 * name) and by the selection (title anchoring, the headline kept before
 * the content block). */
#ifndef WN_HEADLINE_H
#define WN_HEADLINE_H

#include "../doc.h"

/* Words of s as hashes of their lower-cased letters and digits (bytes >=
 * 0x80 kept as they are), at most cap of them. */
size_t wn_words_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* Stems of s's words of at least four bytes (their first five bytes,
 * lower-cased, hashed: "withdraws" and "withdrawn" are one), at most cap
 * of them: the words a headline shares with its article's first lines. */
size_t wn_stems_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* How many of a's words are among b's. */
size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* The document title as words (in caller-provided storage) and as folded text. */
typedef struct wn_title {
    const uint64_t *words;
    size_t nwords;
    char lower[512];   /* the title, case-folded as the page text, spaces collapsed */
    size_t len;
} wn_title;

/* The document title into tt (words: room for 64); 0 when it has fewer
 * than two words (no evidence). */
int wn_title_init(const winnow_doc *d, uint64_t *words, wn_title *tt);
/* Whether unit i's words are (nearly all) the title's and cover
 * TITLE_COVER of it (or it is a heading carrying three or more of them). */
int wn_title_like(const winnow_doc *d, uint32_t i, const wn_title *tt);
/* The page's title heading: the first title-like <h1> (else <h2>/<h3>),
 * not a link; WN_NONE when the page has none. */
uint32_t wn_title_heading(const winnow_doc *d);

#endif
