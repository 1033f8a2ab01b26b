/* A page rendered by script, with its content in <noscript>.
 *
 * An HTML5 parser with scripting on (as browsers run, and as winnow
 * parses) reads <noscript> as raw text: its markup is never built.
 * Pages whose content a script renders often carry the same content,
 * for crawlers and readers without scripts, inside a <noscript> in the
 * body (a forum's whole thread, a shop's product grid). wn_noscript_unwrap
 * finds how much text such elements hold and writes the page again
 * without their tags, so a second parse builds what they hold as any
 * other markup. The pipeline decides when to use it (the rules
 * NOSCRIPT_MAX_TEXT and NOSCRIPT_MIN_RATIO). */
#include <stdlib.h>
#include <string.h>

#include "parser.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* Whether s[i..] is `name` (lower case) followed by a space, '>' or '/'. */
static int name_at(const char *s, size_t n, size_t i, const char *name, size_t len)
{
    if (i + len >= n) return 0;
    for (size_t k = 0; k < len; k++)
        if (lower((unsigned char)s[i + k]) != name[k]) return 0;
    char c = s[i + len];
    return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Whether s[i..] opens tag `name`: "<name". */
static int opens(const char *s, size_t n, size_t i, const char *name, size_t len)
{
    return s[i] == '<' && name_at(s, n, i + 1, name, len);
}

/* Whether s[i..] closes tag `name`: "</name". */
static int closes(const char *s, size_t n, size_t i, const char *name, size_t len)
{
    return s[i] == '<' && i + 1 < n && s[i + 1] == '/' && name_at(s, n, i + 2, name, len);
}

/* The index just past the '>' that ends the tag at i (n when none). */
static size_t tag_end(const char *s, size_t n, size_t i)
{
    const char *gt = memchr(s + i, '>', n - i);
    return gt ? (size_t)(gt - s) + 1 : n;
}

char *wn_noscript_unwrap(const char *s, size_t n, size_t *out_len, size_t *text_chars)
{
    *out_len = 0;
    *text_chars = 0;
    /* the body's: a <noscript> in the head holds a tracking pixel or a style */
    size_t start = 0;
    for (size_t i = 0; i < n; i++)
        if (opens(s, n, i, "body", 4)) {
            start = i;
            break;
        }
    char *out = NULL;
    size_t o = 0, copied = 0, text = 0;
    for (size_t i = start; i < n; i++) {
        if (!opens(s, n, i, "noscript", 8)) continue;
        if (!out && !(out = malloc(n + 1))) return NULL;
        memcpy(out + o, s + copied, i - copied);
        o += i - copied;
        size_t j = tag_end(s, n, i), content = j;
        /* its content runs to the first </noscript (raw text ends there) */
        int in_tag = 0;
        for (; j < n; j++) {
            if (closes(s, n, j, "noscript", 8)) break;
            if (s[j] == '<')
                in_tag = 1;
            else if (s[j] == '>')
                in_tag = 0;
            else if (!in_tag && (unsigned char)s[j] > ' ')
                text++;
        }
        memcpy(out + o, s + content, j - content);
        o += j - content;
        i = j < n ? tag_end(s, n, j) : n;
        copied = i;
        i--; /* the loop's i++ */
    }
    if (!out) return NULL;
    memcpy(out + o, s + copied, n - copied);
    o += n - copied;
    out[o] = '\0';
    *out_len = o;
    *text_chars = text;
    return out;
}
