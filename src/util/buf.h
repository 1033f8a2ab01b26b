/* Growable byte buffer (malloc-backed) for output and decoded text. */
#ifndef WN_BUF_H
#define WN_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct wn_buf {
    char *data;
    size_t len;
    size_t cap;
    int oom; /* sticky: set when an append failed */
} wn_buf;

void wn_buf_init(wn_buf *b);
void wn_buf_free(wn_buf *b);
void wn_buf_clear(wn_buf *b);
int wn_buf_reserve(wn_buf *b, size_t extra);
void wn_buf_put(wn_buf *b, const void *p, size_t n);
void wn_buf_putc(wn_buf *b, char c);
void wn_buf_puts(wn_buf *b, const char *s);
void wn_buf_printf(wn_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* JSON string body (no quotes) with escapes; invalid UTF-8 becomes U+FFFD. */
void wn_buf_json_str(wn_buf *b, const char *s, size_t n);
/* HTML text/attribute escape. */
void wn_buf_html_escape(wn_buf *b, const char *s, size_t n, int attr);
/* NUL-terminate without counting the NUL in len. */
const char *wn_buf_cstr(wn_buf *b);

#endif
