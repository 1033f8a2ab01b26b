/* Words of a text as hashes, for matching a line against the document
 * title or a page's description: no dictionary, no language, only
 * separators (ASCII punctuation and the typographic marks of Latin, Greek
 * and Cyrillic text) between words, and case folding. */
#ifndef WN_WORDS_H
#define WN_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* Whether byte c is an ASCII letter or digit. */
static inline int wn_ascii_alnum(unsigned c) { return (c | 0x20) - 'a' < 26u || c - '0' < 10u; }

/* Words of s as hashes of their lower-cased letters and digits (bytes >=
 * 0x80 kept as they are), at most cap of them. */
size_t wn_words_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* Stems of s's words of at least four bytes (their first five bytes,
 * lower-cased, hashed: "withdraws" and "withdrawn" are one), at most cap
 * of them: the words a headline shares with its article's first lines. */
size_t wn_stems_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* How many of a's words are among b's. */
size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

#endif
