#include "buf.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wn_buf_init(wn_buf *b) { memset(b, 0, sizeof *b); }

void wn_buf_free(wn_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void wn_buf_clear(wn_buf *b)
{
    b->len = 0;
    b->oom = 0;
}

int wn_buf_reserve(wn_buf *b, size_t extra)
{
    if (b->oom) return 0;
    if (extra > SIZE_MAX - b->len - 1) {
        b->oom = 1;
        return 0;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->oom = 1;
        return 0;
    }
    b->data = d;
    b->cap = cap;
    return 1;
}

void wn_buf_put(wn_buf *b, const void *p, size_t n)
{
    if (!n || !wn_buf_reserve(b, n)) return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void wn_buf_putc(wn_buf *b, char c)
{
    if (!wn_buf_reserve(b, 1)) return;
    b->data[b->len++] = c;
}

void wn_buf_puts(wn_buf *b, const char *s) { wn_buf_put(b, s, strlen(s)); }

void wn_buf_printf(wn_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        wn_buf_put(b, small, (size_t)n);
        return;
    }
    if (!wn_buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void wn_buf_json_str(wn_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\') run++;
        if (run > i) {
            wn_buf_put(b, s + i, run - i);
            i = run;
            continue;
        }
        unsigned c = s[i];
        if (c == '"') {
            wn_buf_put(b, "\\\"", 2);
            i++;
        } else if (c == '\\') {
            wn_buf_put(b, "\\\\", 2);
            i++;
        } else if (c == '\n') {
            wn_buf_put(b, "\\n", 2);
            i++;
        } else if (c == '\t') {
            wn_buf_put(b, "\\t", 2);
            i++;
        } else if (c == '\r') {
            wn_buf_put(b, "\\r", 2);
            i++;
        } else if (c < 0x20) {
            wn_buf_printf(b, "\\u%04x", c);
            i++;
        } else {
            size_t k = wn_utf8_seq_len(s + i, n - i);
            if (k) {
                wn_buf_put(b, s + i, k);
                i += k;
            } else {
                wn_buf_put(b, "\xEF\xBF\xBD", 3);
                i++;
            }
        }
    }
}

void wn_buf_html_escape(wn_buf *b, const char *s, size_t n, int attr)
{
    size_t i = 0, start = 0;
    for (; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = attr ? "&quot;" : NULL; break;
        default: break;
        }
        if (rep) {
            wn_buf_put(b, s + start, i - start);
            wn_buf_puts(b, rep);
            start = i + 1;
        }
    }
    wn_buf_put(b, s + start, i - start);
}

const char *wn_buf_cstr(wn_buf *b)
{
    if (!wn_buf_reserve(b, 0)) return "";
    b->data[b->len] = '\0';
    return b->data;
}
