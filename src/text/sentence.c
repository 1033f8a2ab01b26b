#include "sentence.h"

/* The length of t[0..n) without the spaces it ends with. */
size_t wn_trimmed_end(const char *t, size_t n)
{
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\n')) n--;
    return n;
}

/* Whether the line t[0..n) ends as a sentence does: a stop (". ! ?",
 * CJK's full stops), maybe inside closing quotes or brackets; a ticker
 * line "CPI +0.5% On Month" or a label "References:" does not. */
int wn_ends_sentence(const char *t, size_t n)
{
    while (n) {
        unsigned char c = (unsigned char)t[n - 1];
        if (c == ' ' || c == '\n' || c == '"' || c == '\'' || c == ')' || c == ']') {
            n--;
            continue;
        }
        /* closing curly quotes U+201D, U+2019 and the guillemet U+00BB */
        if (n >= 3 && (unsigned char)t[n - 3] == 0xE2 && (unsigned char)t[n - 2] == 0x80 && (c == 0x9D || c == 0x99)) {
            n -= 3;
            continue;
        }
        if (n >= 2 && (unsigned char)t[n - 2] == 0xC2 && c == 0xBB) {
            n -= 2;
            continue;
        }
        break;
    }
    if (!n) return 0;
    unsigned char c = (unsigned char)t[n - 1];
    if (c == '.' || c == '!' || c == '?') return 1;
    /* U+3002, U+FF01, U+FF1F */
    return n >= 3 && (((unsigned char)t[n - 3] == 0xE3 && (unsigned char)t[n - 2] == 0x80 && c == 0x82) ||
                      ((unsigned char)t[n - 3] == 0xEF && (unsigned char)t[n - 2] == 0xBC && (c == 0x81 || c == 0x9F)));
}
