/* A strict JSON validator (RFC 8259) for checking renderer output from C:
 * objects, arrays, strings with escapes and valid UTF-8, numbers, literals.
 * It only says whether a text is one well-formed JSON value; nesting is
 * bounded because winnow's outputs are at most a few levels deep. */
#ifndef WINNOW_TEST_JSON_CHECK_H
#define WINNOW_TEST_JSON_CHECK_H

#include <stddef.h>
#include <string.h>

typedef struct json_cursor {
    const unsigned char *s;
    size_t n, i;
    int depth;
} json_cursor;

static inline int json_value(json_cursor *c);

static inline void json_ws(json_cursor *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r')) c->i++;
}

static inline int json_hex(unsigned char h)
{
    return (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
}

/* Length of the valid UTF-8 sequence at p, 0 when invalid. */
static inline size_t json_utf8(const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    size_t k;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        k = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        k = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        k = 4;
        min = 0x10000;
    } else
        return 0;
    if (left < k) return 0;
    unsigned cp = c & (0xFF >> (k + 1));
    for (size_t j = 1; j < k; j++) {
        if ((p[j] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[j] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return k;
}

static inline int json_string(json_cursor *c)
{
    if (c->i >= c->n || c->s[c->i] != '"') return 0;
    c->i++;
    while (c->i < c->n) {
        unsigned char ch = c->s[c->i];
        if (ch == '"') {
            c->i++;
            return 1;
        }
        if (ch < 0x20) return 0; /* control characters must be escaped */
        if (ch == '\\') {
            if (++c->i >= c->n) return 0;
            ch = c->s[c->i];
            if (ch == 'u') {
                if (c->i + 4 >= c->n) return 0;
                for (int k = 1; k <= 4; k++)
                    if (!json_hex(c->s[c->i + k])) return 0;
                c->i += 5;
            } else if (ch && strchr("\"\\/bfnrt", ch)) {
                c->i++;
            } else {
                return 0;
            }
            continue;
        }
        size_t k = json_utf8(c->s + c->i, c->n - c->i);
        if (!k) return 0;
        c->i += k;
    }
    return 0;
}

static inline int json_digits(json_cursor *c)
{
    size_t start = c->i;
    while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9') c->i++;
    return c->i > start;
}

static inline int json_number(json_cursor *c)
{
    if (c->i < c->n && c->s[c->i] == '-') c->i++;
    if (c->i < c->n && c->s[c->i] == '0')
        c->i++;
    else if (!json_digits(c))
        return 0;
    if (c->i < c->n && c->s[c->i] == '.') {
        c->i++;
        if (!json_digits(c)) return 0;
    }
    if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
        c->i++;
        if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-')) c->i++;
        if (!json_digits(c)) return 0;
    }
    return 1;
}

static inline int json_literal(json_cursor *c, const char *lit)
{
    size_t l = strlen(lit);
    if (c->n - c->i < l || memcmp(c->s + c->i, lit, l) != 0) return 0;
    c->i += l;
    return 1;
}

/* Members of an object or elements of an array, after the opening bracket. */
static inline int json_items(json_cursor *c, unsigned char close, int keyed)
{
    json_ws(c);
    if (c->i < c->n && c->s[c->i] == close) {
        c->i++;
        return 1;
    }
    for (;;) {
        json_ws(c);
        if (keyed) {
            if (!json_string(c)) return 0;
            json_ws(c);
            if (c->i >= c->n || c->s[c->i] != ':') return 0;
            c->i++;
        }
        if (!json_value(c)) return 0;
        json_ws(c);
        if (c->i >= c->n) return 0;
        if (c->s[c->i] == ',') {
            c->i++;
            continue;
        }
        if (c->s[c->i] == close) {
            c->i++;
            return 1;
        }
        return 0;
    }
}

static inline int json_value(json_cursor *c)
{
    json_ws(c);
    if (c->i >= c->n) return 0;
    unsigned char ch = c->s[c->i];
    if (ch == '{' || ch == '[') {
        if (++c->depth > 64) return 0;
        c->i++;
        int ok = json_items(c, ch == '{' ? '}' : ']', ch == '{');
        c->depth--;
        return ok;
    }
    if (ch == '"') return json_string(c);
    if (ch == 't') return json_literal(c, "true");
    if (ch == 'f') return json_literal(c, "false");
    if (ch == 'n') return json_literal(c, "null");
    return json_number(c);
}

/* 1 when s[0..n) is exactly one JSON value, surrounded by optional spaces. */
static inline int json_valid(const char *s, size_t n)
{
    json_cursor c = { (const unsigned char *)s, n, 0, 0 };
    if (!json_value(&c)) return 0;
    json_ws(&c);
    return c.i == n;
}

#endif
