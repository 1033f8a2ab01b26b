/* Cheap pre-scan of the markup that bounds element nesting.
 *
 * HTML5 tree construction checks "element in scope" by walking the stack of
 * open elements, so a page of 100,000 nested <div>s costs O(n^2) in any
 * conforming parser (20 s with myhtml here). A tokenizer-level count of
 * open elements, with the tags that close themselves or their siblings left
 * out, finds such input in one memchr-driven pass and drops the start tags
 * past the cap. Real pages nest a few dozen deep, so they pass unchanged. */
#include "parser.h"

#include "../util/ascii.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the scan must know of a start or end tag's name. */
enum { TAG_OTHER, TAG_CLOSES /* void, or closes its previous sibling */, TAG_RAW /* raw text inside */ };

/* The kind of the lower-case tag name name[0..len). The names are kept by
 * length, so a name is compared with at most eleven of them. Void elements:
 * area ... image. Implied end tags, where a new one closes the previous
 * sibling: p li dt dd option optgroup tr td th tbody thead tfoot colgroup
 * rb rt rp rtc. Raw text: script style textarea title xmp iframe noembed
 * noframes noscript. */
static int tag_kind(const char *name, size_t len)
{
    typedef struct named {
        const char *s;
        int kind;
    } named;
    enum { C = TAG_CLOSES, R = TAG_RAW };
    static const named by_len[9][12] = {
        { { "p", C } },
        { { "br", C },
          { "hr", C },
          { "li", C },
          { "dt", C },
          { "dd", C },
          { "tr", C },
          { "td", C },
          { "th", C },
          { "rb", C },
          { "rt", C },
          { "rp", C } },
        { { "col", C }, { "img", C }, { "wbr", C }, { "rtc", C }, { "xmp", R } },
        { { "area", C }, { "base", C }, { "link", C }, { "meta", C } },
        { { "embed", C },
          { "input", C },
          { "param", C },
          { "track", C },
          { "frame", C },
          { "image", C },
          { "tbody", C },
          { "thead", C },
          { "tfoot", C },
          { "style", R },
          { "title", R } },
        { { "source", C }, { "keygen", C }, { "option", C }, { "script", R }, { "iframe", R } },
        { { "bgsound", C }, { "noembed", R } },
        { { "basefont", C },
          { "optgroup", C },
          { "colgroup", C },
          { "textarea", R },
          { "noframes", R },
          { "noscript", R } },
    };
    if (len == 0 || len > 8) return TAG_OTHER;
    for (const named *x = by_len[len - 1]; x->s; x++)
        if (x->s[0] == name[0] && memcmp(x->s, name, len) == 0) return x->kind;
    return TAG_OTHER;
}

/* Case-insensitive search for "</name" from s[i]. */
static size_t find_end_tag(const char *s, size_t n, size_t i, const char *name, size_t len)
{
    while (i < n) {
        const char *p = memchr(s + i, '<', n - i);
        if (!p) return n;
        size_t j = (size_t)(p - s);
        if (j + 2 + len <= n && s[j + 1] == '/') {
            size_t k = 0;
            while (k < len && wn_ascii_lower((unsigned char)s[j + 2 + k]) == name[k]) k++;
            /* the name must end there, as the tokenizer's appropriate end
             * tag requires: "</titlevalue" does not close a <title> */
            size_t e = j + 2 + len;
            if (k == len && e < n &&
                (s[e] == '>' || s[e] == '/' || s[e] == ' ' || s[e] == '\t' || s[e] == '\n' || s[e] == '\r' ||
                 s[e] == '\f'))
                return j;
        }
        i = j + 1;
    }
    return n;
}

/* End of a tag starting at s[i] == '<': index after '>', quotes respected
 * (a quote after '=' or a space opens a value, whose end memchr finds: the
 * values are most of a tag's bytes). */
static size_t tag_end(const char *s, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        char c = s[i];
        if (c == '>') return i + 1;
        if ((c == '"' || c == '\'') && (s[i - 1] == '=' || s[i - 1] == ' ')) {
            const char *q = memchr(s + i + 1, c, n - i - 1);
            if (!q) return n;
            i = (size_t)(q - s);
        }
    }
    return n;
}

typedef struct editor {
    const char *s;
    char *out;
    size_t olen, ocap, copied; /* s[copied..] not yet copied to out */
    int oom;
} editor;

static int ed_reserve(editor *e, size_t extra)
{
    if (e->oom) return 0;
    if (e->olen + extra + 1 <= e->ocap) return 1;
    size_t cap = e->ocap ? e->ocap : 4096;
    while (cap < e->olen + extra + 1) cap *= 2;
    char *o = realloc(e->out, cap);
    if (!o) {
        e->oom = 1;
        return 0;
    }
    e->out = o;
    e->ocap = cap;
    return 1;
}

/* Copy the source up to pos, then skip to resume (drop) or insert text. */
static void ed_edit(editor *e, size_t pos, size_t resume, const char *insert, size_t ilen)
{
    if (!ed_reserve(e, pos - e->copied + ilen)) return;
    memcpy(e->out + e->olen, e->s + e->copied, pos - e->copied);
    e->olen += pos - e->copied;
    memcpy(e->out + e->olen, insert, ilen);
    e->olen += ilen;
    e->copied = resume;
}

static int html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/* A tag's attributes past WN_MAX_ELEMENT_ATTRS, dropped. The tree builder
 * keeps every attribute of an open tag in its token (some 150 bytes each,
 * with its strings) until the element is copied, so one element of ten
 * million attributes, a 109 MB page, took 2.2 GB; no real element has a
 * thousand. The attributes are read as the tokenizer reads them (a name
 * up to white space, '/', '=' or '>'; a value quoted or up to white
 * space), from k (after the tag name) to the tag's '>' at te - 1; the
 * bytes from the first attribute past the cap to the end of the last are
 * cut. Only a tag of over two bytes an attribute can have that many, so
 * shorter tags are not read at all. */
static void cap_attrs(editor *e, const char *s, size_t k, size_t te, wn_repair_report *rep)
{
    if (te <= k || te - k <= 2 * (size_t)WN_MAX_ELEMENT_ATTRS) return;
    size_t end = te - 1, x = k, count = 0, cut = 0, last = k;
    while (x < end) {
        while (x < end && (html_space(s[x]) || s[x] == '/')) x++;
        if (x >= end) break;
        size_t b = x++; /* a name may begin with '=' */
        while (x < end && !html_space(s[x]) && s[x] != '/' && s[x] != '=') x++;
        size_t after = x;
        while (x < end && html_space(s[x])) x++;
        if (x < end && s[x] == '=') {
            x++;
            while (x < end && html_space(s[x])) x++;
            if (x < end && (s[x] == '"' || s[x] == '\'')) {
                const char *q = memchr(s + x + 1, s[x], end - x - 1);
                x = q ? (size_t)(q - s) + 1 : end;
            } else {
                while (x < end && !html_space(s[x])) x++;
            }
            after = x;
        } else {
            x = after; /* the white space may come before the next name */
        }
        if (++count == (size_t)WN_MAX_ELEMENT_ATTRS + 1) cut = b;
        last = after;
    }
    if (count <= WN_MAX_ELEMENT_ATTRS || last <= cut) return;
    ed_edit(e, cut, last, "", 0);
    rep->attrs_dropped += count - WN_MAX_ELEMENT_ATTRS;
}

static uint64_t name_key(const char *name, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
    return h;
}

char *wn_markup_repair(const char *s, size_t n, unsigned max_depth, size_t *out_len, wn_repair_report *rep)
{
    memset(rep, 0, sizeof *rep);
    if (max_depth == 0) max_depth = 512;
    /* the open elements as the tree builder will see them, by name: an end
     * tag closes the nearest open element of its name and is ignored when
     * there is none ("<div></x>" nests as deep as "<div>") */
    uint64_t *stack = malloc(((size_t)max_depth + 1) * sizeof *stack);
    if (!stack) {
        rep->oom = 1;
        return NULL;
    }
    size_t depth = 0, foreign = 0;
    const uint64_t svg = name_key("svg", 3), math = name_key("math", 4);
    editor ed = { .s = s };
    size_t i = 0;
    while (i < n) {
        const char *p = memchr(s + i, '<', n - i);
        if (!p) break;
        size_t j = (size_t)(p - s);
        if (j + 1 >= n) break;
        char c = s[j + 1];
        if (c == '!') {
            if (j + 3 < n && s[j + 2] == '-' && s[j + 3] == '-') {
                size_t k = j + 4, e = n;
                while (k + 2 < n) {
                    const char *d = memchr(s + k, '-', n - k - 2);
                    if (!d) break;
                    k = (size_t)(d - s);
                    if (s[k + 1] == '-' && s[k + 2] == '>') {
                        e = k + 3;
                        break;
                    }
                    k++;
                }
                i = e;
            } else {
                i = tag_end(s, n, j);
            }
            continue;
        }
        int end = (c == '/');
        size_t ns = j + 1 + (size_t)end;
        if (ns >= n || !wn_ascii_alpha((unsigned char)s[ns])) {
            i = j + 1;
            continue;
        }
        char name[16];
        size_t nl = 0, k = ns;
        while (k < n && (wn_ascii_alnum((unsigned char)s[k]) || s[k] == '-' || s[k] == ':')) {
            if (nl < sizeof name) name[nl] = wn_ascii_lower((unsigned char)s[k]);
            nl++;
            k++;
        }
        size_t te = tag_end(s, n, j);
        size_t keylen = nl <= sizeof name ? nl : sizeof name;
        uint64_t key = name_key(name, keylen);
        int known = nl <= sizeof name;
        if (end) {
            if (!(known && tag_kind(name, nl) == TAG_CLOSES)) {
                size_t at = depth;
                while (at > 0 && stack[at - 1] != key) at--;
                if (at > 0) {
                    for (size_t q = at - 1; q < depth; q++)
                        if (stack[q] == svg || stack[q] == math) foreign--;
                    depth = at - 1;
                }
            }
            cap_attrs(&ed, s, k, te, rep); /* an end tag's attributes are read too, then ignored */
            i = te;
            continue;
        }
        /* "/>" closes an element only in SVG and MathML; an HTML <div/> stays open */
        int selfclose = te >= 2 && s[te - 2] == '/' && (foreign > 0 || key == svg || key == math);
        int kind = known ? tag_kind(name, nl) : TAG_OTHER;
        if (kind == TAG_RAW) {
            /* An attribute quote never closed (a crawl that spliced two
             * scripts: src="/te.backgroundColor='yellow'; ...) runs the
             * start tag over its own end tag, and the element then takes
             * in the page up to the next one. Close the quote and the tag
             * before the end tag. */
            size_t inner = find_end_tag(s, te, k, name, nl);
            if (inner < te) {
                char q = 0;
                for (size_t x = k; x < inner; x++) {
                    char ch = s[x];
                    if (q) {
                        if (ch == q) q = 0;
                    } else if ((ch == '"' || ch == '\'') && (s[x - 1] == '=' || s[x - 1] == ' '))
                        q = ch;
                }
                char fix[2] = { q, '>' };
                ed_edit(&ed, inner, inner, q ? fix : fix + 1, q ? 2 : 1);
                rep->closed++;
                i = inner;
                continue;
            }
            cap_attrs(&ed, s, k, te, rep);
            size_t close = find_end_tag(s, n, te, name, nl);
            if (close >= n && te < n) {
                /* Never closed: a tree builder would swallow the rest of
                 * the page into this element (a damaged <title> blanks the
                 * whole page). Close it where its first markup starts. */
                const char *lt = memchr(s + te, '<', n - te);
                size_t at = lt ? (size_t)(lt - s) : n;
                char tag[24];
                int tl = snprintf(tag, sizeof tag, "</%.*s>", (int)nl, name);
                ed_edit(&ed, at, at, tag, (size_t)tl);
                rep->closed++;
                i = at;
            } else {
                i = close;
            }
            continue;
        }
        if (known && nl == 9 && memcmp(name, "plaintext", 9) == 0) break;
        if (kind == TAG_CLOSES || selfclose) {
            cap_attrs(&ed, s, k, te, rep);
            i = te;
            continue;
        }
        if (depth < max_depth) {
            stack[depth++] = key;
            if (key == svg || key == math) foreign++;
            cap_attrs(&ed, s, k, te, rep);
        } else {
            ed_edit(&ed, j, te, "", 0);
            rep->dropped++;
        }
        i = te;
    }
    free(stack);
    if (ed.oom) {
        free(ed.out);
        rep->oom = 1;
        return NULL;
    }
    if (!rep->dropped && !rep->closed && !rep->attrs_dropped) return NULL;
    ed_edit(&ed, n, n, "", 0);
    if (ed.oom) {
        free(ed.out);
        rep->oom = 1;
        return NULL;
    }
    ed.out[ed.olen] = '\0';
    *out_len = ed.olen;
    return ed.out;
}

char *wn_depth_guard(const char *s, size_t n, unsigned max_depth, size_t *out_len, size_t *dropped)
{
    wn_repair_report rep;
    char *out = wn_markup_repair(s, n, max_depth, out_len, &rep);
    if (dropped) *dropped = rep.dropped;
    return out;
}
