/* Stage 1: bytes -> UTF-8 text.
 *
 * Order of evidence: byte-order mark, the caller's charset (HTTP
 * Content-Type), <meta charset>/http-equiv/XML declaration in the first
 * 16 KiB, then statistical detection (uchardet). A declared charset is
 * validated before it is trusted: bytes that are valid UTF-8 are read as
 * UTF-8 whatever a meta tag claims, since legacy encodings almost never
 * produce valid multi-byte UTF-8 by accident. Invalid sequences become
 * U+FFFD and NUL bytes become U+FFFD, so every later stage sees valid,
 * NUL-free UTF-8.
 *
 * Contract: reads the caller's bytes and charset; writes the UTF-8 text
 * (in the caller's wn_buf when converted: winnow_doc.utf8) and a
 * wn_decode_info (winnow_doc.decode). Knows nothing of the page record. */
#ifndef WN_DECODE_H
#define WN_DECODE_H

#include <stddef.h>

#include "../util/buf.h"

typedef enum wn_charset_source {
    WN_CS_BOM,
    WN_CS_CALLER,
    WN_CS_META,
    WN_CS_DETECTED,
    WN_CS_VALID_UTF8, /* bytes validated as UTF-8 (declaration absent, ASCII, or overruled) */
    WN_CS_FALLBACK,   /* nothing usable: windows-1252 */
} wn_charset_source;

typedef struct wn_decode_info {
    char charset[40];  /* name of the encoding the bytes were read as */
    char declared[40]; /* what the page or caller declared, "" if nothing */
    wn_charset_source source;
    size_t replaced; /* U+FFFD substitutions made */
    int overruled;   /* a declaration was ignored because it did not fit the bytes */
} wn_decode_info;

typedef enum wn_decode_status {
    WN_DECODE_OK = 0,
    WN_DECODE_EMPTY,
    WN_DECODE_BINARY, /* err says what it looks like */
    WN_DECODE_NOMEM,
} wn_decode_status;

wn_decode_status wn_decode(const unsigned char *in, size_t n, const char *caller_charset, wn_buf *out,
                           wn_decode_info *info, char *err, size_t errcap);

/* Same, but when the input is already valid, NUL-free UTF-8 it is not
 * copied: *text then points into `in`, which must outlive its use. */
wn_decode_status wn_decode_view(const unsigned char *in, size_t n, const char *caller_charset, wn_buf *out,
                                const char **text, size_t *text_len, wn_decode_info *info, char *err, size_t errcap);

/* Exposed for tests. */
int wn_utf8_valid(const unsigned char *s, size_t n, size_t *invalid_count, int *has_non_ascii);
size_t wn_meta_charset(const unsigned char *s, size_t n, char *out, size_t cap);
const char *wn_charset_canonical(const char *label, char *buf, size_t cap);

#endif
