/* The one definition of a well-formed UTF-8 sequence (RFC 3629: no
 * overlongs, no surrogates, nothing past U+10FFFF), shared by the decoder
 * and the output escaping. */
#ifndef WN_UTF8_H
#define WN_UTF8_H

#include <stddef.h>

/* Length of the valid sequence at s (n bytes available), 0 if invalid. */
static inline size_t wn_utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)) return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
        if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90)) return 0;
        return 4;
    }
    return 0;
}

#endif
