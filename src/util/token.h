/* The model files' reader: their text is tokens apart by white space
 * (select/units.c, confidence/confidence.c and pagetype/pagetype.c read
 * theirs with it). */
#ifndef WN_UTIL_TOKEN_H
#define WN_UTIL_TOKEN_H

#include <stddef.h>
#include <string.h>

static inline int wn_token_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

/* The next token of text[0, n) from *at into tok (NUL-terminated, cut to
 * cap - 1 bytes); *at moves past it. 0 at the end of the text. */
static inline int wn_next_token(const char *text, size_t n, size_t *at, char *tok, size_t cap)
{
    size_t i = *at;
    while (i < n && wn_token_space(text[i])) i++;
    size_t s = i;
    while (i < n && !wn_token_space(text[i])) i++;
    *at = i;
    if (i == s) return 0;
    size_t l = i - s < cap - 1 ? i - s : cap - 1;
    memcpy(tok, text + s, l);
    tok[l] = '\0';
    return 1;
}

#endif
