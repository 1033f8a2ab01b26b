/* The words of a text as the page statistics hash them (src/blocks/stats.c):
 * runs of word characters (letters, marks, digits), case folded, FNV-1a of
 * their UTF-8 with bit 0 set when the word has a letter; each character of
 * a script written without spaces (CJK) is a word of its own. I-Match
 * (wn_imatch) and the shingles of near-duplicate detection work on these. */
#ifndef WN_APPS_WORDS_H
#define WN_APPS_WORDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct wn_words {
    uint64_t *hash;
    uint32_t n;
} wn_words;

/* 0, or -1 when memory ran out (w is empty then). Free with wn_text_words_free. */
int wn_text_words(const char *text, size_t len, wn_words *w);
void wn_text_words_free(wn_words *w);

#endif
