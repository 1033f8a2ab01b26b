/* Words of a text as hashes, for matching a line against the document
 * title or a page's description: no dictionary, no language, only
 * separators (the white space and punctuation of every script) between
 * words, pairs of characters for text written without spaces (CJK), and
 * folding (case, width, optional accents). */
#ifndef WN_WORDS_H
#define WN_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "../util/ascii.h" /* wn_ascii_alnum, which words' callers read too */

/* Words of s as hashes of their folded letters and digits, at most cap
 * of them; text without spaces gives a hash per pair of neighbouring
 * characters (and one for a character alone), each weighing half a word
 * (wn_words_weight). */
size_t wn_words_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* Stems of s's words of at least four letters (their first five letters,
 * folded, hashed: "withdraws" and "withdrawn" are one; counted in letters,
 * not bytes, so that a Cyrillic or Greek stem is as long), and the pairs
 * of characters of text without spaces, at most cap of them: the words a
 * headline shares with its article's first lines. */
size_t wn_stems_of(const char *s, size_t n, uint64_t *out, size_t cap);
/* How many of a's words are among b's (hashes, each counted once). */
size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);
/* Words as words: the n hashes of w counted as words of any script, a
 * pair of characters of text without spaces as half a word (a CJK word is
 * two characters or so), so that "three words" means as much in Japanese
 * as in English. */
double wn_words_weight(const uint64_t *w, size_t n);
/* Whether a's words are a run of b's: all of them, in order, next to each
 * other ("Tide pools" in "Tide pools | Coastal Notes"). */
int wn_words_run(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);
/* wn_words_shared, counted as wn_words_weight counts. */
double wn_words_shared_weight(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

#endif
