#include "sentence.h"

#include "text.h"

/* The length of t[0..n) without the spaces it ends with. */
size_t wn_trimmed_end(const char *t, size_t n)
{
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\n')) n--;
    return n;
}

/* The code point ending t[0..n), its first byte's offset in *at. */
static int32_t last_cp(const char *t, size_t n, size_t *at)
{
    size_t b = n - 1;
    while (b > 0 && n - b < 4 && ((unsigned char)t[b] & 0xC0) == 0x80) b--;
    size_t i = b;
    int32_t cp = wn_utf8_next(t, n, &i);
    if (i != n) { /* an invalid sequence: its last byte alone */
        b = n - 1;
        cp = 0xFFFD;
    }
    *at = b;
    return cp;
}

/* Whether the line t[0..n) ends as a sentence does: a stop of its script
 * (". ! ?", "\u3002", "\u061F", "\u0964", ...: wn_sentence_stop; the ';'
 * of Greek), maybe inside closing quotes or brackets of any script; a
 * ticker line "CPI +0.5% On Month" or a label "References:" does not. */
int wn_ends_sentence(const char *t, size_t n)
{
    size_t at;
    int32_t cp = 0;
    while (n) {
        if (t[n - 1] == ' ' || t[n - 1] == '\n') {
            n--;
            continue;
        }
        cp = last_cp(t, n, &at);
        if (!wn_closing_mark(cp)) break;
        n = at;
    }
    if (!n) return 0;
    if (wn_sentence_stop(cp)) return 1;
    if (cp != ';' || !at) return 0;
    size_t before;
    return wn_greek_letter(last_cp(t, at, &before));
}
