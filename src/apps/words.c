#include "words.h"

#include <stdlib.h>

#include "../text/text.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define WORD_KEY(h, alpha) (((h) & ~1ull) | (uint64_t)((alpha) != 0))

int wn_text_words(const char *text, size_t len, wn_words *w)
{
    w->hash = NULL;
    w->n = 0;
    /* at most one word per two bytes, plus one */
    size_t cap = len / 2 + 1;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (!(w->hash = malloc(cap * sizeof *w->hash))) return -1;
    uint64_t h = FNV_OFFSET;
    int in_word = 0, alpha = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char b = (unsigned char)text[i];
        int32_t cp;
        if (b < 0x80) {
            cp = b;
            i++;
        } else
            cp = wn_utf8_next(text, len, &i);
        wn_cclass cc = wn_char_class(cp);
        if (cc == WN_CC_WORD) {
            if (!in_word) {
                in_word = 1;
                alpha = 0;
                h = FNV_OFFSET;
            }
            char enc[4];
            size_t el = wn_utf8_put(enc, wn_fold(cp));
            for (size_t k = 0; k < el; k++) h = (h ^ (unsigned char)enc[k]) * FNV_PRIME;
            alpha |= !(cp >= '0' && cp <= '9');
            continue;
        }
        if (in_word && w->n < cap) w->hash[w->n++] = WORD_KEY(h, alpha);
        in_word = 0;
        if (cc == WN_CC_CJK && w->n < cap) {
            char enc[4];
            size_t el = wn_utf8_put(enc, wn_fold(cp));
            uint64_t c = FNV_OFFSET;
            for (size_t k = 0; k < el; k++) c = (c ^ (unsigned char)enc[k]) * FNV_PRIME;
            w->hash[w->n++] = WORD_KEY(c, 1);
        }
    }
    if (in_word && w->n < cap) w->hash[w->n++] = WORD_KEY(h, alpha);
    return 0;
}

void wn_text_words_free(wn_words *w)
{
    free(w->hash);
    w->hash = NULL;
    w->n = 0;
}
