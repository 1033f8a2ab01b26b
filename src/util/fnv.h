/* FNV-1a, 64 bits: the hash of class and id tokens (blocks/hints.c), of page
 * words (blocks/stats.c) and of DOM paths (blocks/list.c). One definition,
 * so that a word key computed in one file compares with one from another. */
#ifndef WN_FNV_H
#define WN_FNV_H

#include <stddef.h>
#include <stdint.h>

#define WN_FNV_OFFSET 0xcbf29ce484222325ull
#define WN_FNV_PRIME 0x100000001b3ull

/* FNV-1a of s[0..n) continued from h (WN_FNV_OFFSET to start one) */
static inline uint64_t wn_fnv_more(uint64_t h, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * WN_FNV_PRIME;
    return h;
}

#endif
