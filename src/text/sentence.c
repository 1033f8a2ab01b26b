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

/* The full stops of the scripts that have their own (". " is ASCII's):
 * ideographic and its full-width and half-width forms, Arabic (Urdu),
 * Devanagari's danda and double danda, Armenian, Ethiopic, Mongolian,
 * Myanmar, Khmer. */
static int full_stop(int32_t cp)
{
    switch (cp) {
    case '.':
    case 0x3002:
    case 0xFF0E:
    case 0xFF61:
    case 0x06D4:
    case 0x0964:
    case 0x0965:
    case 0x0589:
    case 0x1362:
    case 0x1803:
    case 0x104B:
    case 0x17D4: return 1;
    default: return 0;
    }
}

int wn_ends_full_stop(const char *t, size_t n)
{
    n = wn_trimmed_end(t, n);
    size_t at;
    return n && full_stop(last_cp(t, n, &at));
}

int wn_ends_colon(const char *t, size_t n)
{
    n = wn_trimmed_end(t, n);
    if (!n) return 0;
    size_t at;
    int32_t cp = last_cp(t, n, &at);
    /* ASCII's, the full-width and small forms, Ethiopic's */
    return cp == ':' || cp == 0xFF1A || cp == 0xFE55 || cp == 0xFE13 || cp == 0x1365 || cp == 0x1366;
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
