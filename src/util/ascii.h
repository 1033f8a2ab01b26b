/* ASCII classes and case of single bytes, the same in every locale (the C
 * library's isalpha and tolower read the locale, which a host program such
 * as Python sets). Bytes past ASCII are no letters here. */
#ifndef WN_UTIL_ASCII_H
#define WN_UTIL_ASCII_H

/* Whether byte c is an ASCII letter. */
static inline int wn_ascii_alpha(unsigned char c) { return (unsigned char)((c | 0x20) - 'a') < 26; }
/* Whether byte c is an ASCII letter or digit. */
static inline int wn_ascii_alnum(unsigned char c) { return wn_ascii_alpha(c) || (unsigned char)(c - '0') < 10; }
/* Byte c with an ASCII capital made small. */
static inline char wn_ascii_lower(unsigned char c) { return (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c); }

#endif
