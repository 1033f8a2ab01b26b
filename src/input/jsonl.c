/* JSONL reader: one JSON object per line, the page in "html" (or, when
 * that is absent, "content" or "body"), its address in "url" and an
 * optional "charset". Other members are skipped whatever they hold.
 *
 * A line is parsed in one pass that only notes where the wanted strings
 * are; only those are then decoded (a line may carry the page twice, as
 * "html" and "content", and be many megabytes long). A malformed line is
 * skipped with a warning; the file goes on. */
#include "input/reader_internal.h"

#include <stdlib.h>
#include <string.h>

/* Containers nested deeper than this inside a skipped value make the line
 * malformed (a real page record never comes close). */
#define SKIP_DEPTH 256

typedef struct jsonl_state {
    wn_in *in; /* owned */
    wn_buf line;
    wn_buf key;  /* decoded member name */
    wn_buf html; /* decoded page */
    size_t lineno;
    size_t line_max; /* longer lines are skipped without being stored whole */
} jsonl_state;

/* A string value found on the line: the bytes between its quotes. */
typedef struct span {
    const char *p;
    size_t n;
    int set;
} span;

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

/* p is at an opening quote: returns the position after the closing one,
 * NULL if the string does not end on this line. */
static const char *skip_string(const char *p, const char *end)
{
    p++;
    for (;;) {
        /* jump to the next quote or backslash */
        const char *q = p;
        while (q < end && *q != '"' && *q != '\\') q++;
        if (q == end) return NULL;
        if (*q == '"') return q + 1;
        if (end - q < 2) return NULL;
        p = q + 2; /* an escape: its second byte is never the closing quote */
    }
}

static int hex4(const char *p, const char *end, unsigned *out)
{
    if (end - p < 4) return 0;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int c = (unsigned char)p[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return 0;
        v = v << 4 | (unsigned)d;
    }
    *out = v;
    return 1;
}

static void put_utf8(wn_buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    wn_buf_put(b, u, n);
}

/* Length of the UTF-8 sequence a lead byte announces (1 for anything else),
 * so an invalid escape like "\é" is replaced whole. */
static size_t utf8_lead_len(unsigned char c, size_t avail)
{
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 1;
    return n <= avail ? n : avail;
}

#define REPLACEMENT 0xFFFDu

/* Decodes the string body s[0..n) (no quotes) into b, escapes resolved:
 * \uXXXX with surrogate pairs; lone surrogates and invalid escapes become
 * U+FFFD. Raw bytes (even invalid UTF-8) pass through for the decoder. */
static void decode_string(const char *s, size_t n, wn_buf *b)
{
    wn_buf_clear(b);
    /* an escape never grows by more than half: "\x" (2 bytes) -> U+FFFD (3) */
    wn_buf_reserve(b, n + n / 2 + 4);
    const char *p = s, *end = s + n;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        if (!bs) {
            wn_buf_put(b, p, (size_t)(end - p));
            break;
        }
        wn_buf_put(b, p, (size_t)(bs - p));
        p = bs + 1;
        if (p == end) { /* cannot come from skip_string, kept for safety */
            put_utf8(b, REPLACEMENT);
            break;
        }
        char c = *p++;
        switch (c) {
        case '"': wn_buf_putc(b, '"'); break;
        case '\\': wn_buf_putc(b, '\\'); break;
        case '/': wn_buf_putc(b, '/'); break;
        case 'b': wn_buf_putc(b, '\b'); break;
        case 'f': wn_buf_putc(b, '\f'); break;
        case 'n': wn_buf_putc(b, '\n'); break;
        case 'r': wn_buf_putc(b, '\r'); break;
        case 't': wn_buf_putc(b, '\t'); break;
        case 'u': {
            unsigned cp;
            if (!hex4(p, end, &cp)) { /* "\u" without four hex digits: only "\u" is replaced */
                put_utf8(b, REPLACEMENT);
                break;
            }
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' && hex4(p + 2, end, &lo) && lo >= 0xDC00 &&
                    lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                } else {
                    cp = REPLACEMENT; /* a high surrogate alone; what follows is decoded on its own */
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = REPLACEMENT;
            }
            put_utf8(b, cp);
            break;
        }
        default:
            p += utf8_lead_len((unsigned char)c, (size_t)(end - p) + 1) - 1;
            put_utf8(b, REPLACEMENT);
            break;
        }
    }
}

/* A number or true/false/null. */
static const char *skip_scalar(const char *p, const char *end)
{
    static const char *const words[] = { "true", "false", "null" };
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(end - p) >= n && memcmp(p, words[i], n) == 0) return p + n;
    }
    const char *q = p;
    if (q < end && *q == '-') q++;
    if (q == end || *q < '0' || *q > '9') return NULL;
    while (q < end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-')) q++;
    return q;
}

/* A member name and its colon; returns the position after the colon. */
static const char *skip_key(const char *p, const char *end)
{
    if (p == end || *p != '"') return NULL;
    p = skip_string(p, end);
    if (!p) return NULL;
    p = skip_ws(p, end);
    return p < end && *p == ':' ? p + 1 : NULL;
}

/* Skips any JSON value, nested containers included, without recursion.
 * Returns the position after it, NULL when it is malformed. */
static const char *skip_value(const char *p, const char *end)
{
    char closers[SKIP_DEPTH];
    size_t depth = 0;
    for (;;) {
        /* here a value starts */
        p = skip_ws(p, end);
        if (p == end) return NULL;
        if (*p == '{' || *p == '[') {
            char close = *p == '{' ? '}' : ']';
            p = skip_ws(p + 1, end);
            if (p < end && *p == close) {
                p++; /* empty container: a complete value */
            } else {
                if (depth == SKIP_DEPTH) return NULL;
                closers[depth++] = close;
                if (close == '}' && !(p = skip_key(p, end))) return NULL;
                continue;
            }
        } else {
            p = *p == '"' ? skip_string(p, end) : skip_scalar(p, end);
            if (!p) return NULL;
        }
        /* a value ended: close containers until one goes on with ',' */
        for (;;) {
            if (depth == 0) return p;
            p = skip_ws(p, end);
            if (p == end) return NULL;
            if (*p == closers[depth - 1]) {
                depth--;
                p++;
                continue;
            }
            if (*p != ',') return NULL;
            p = skip_ws(p + 1, end);
            if (closers[depth - 1] == '}' && !(p = skip_key(p, end))) return NULL;
            break;
        }
    }
}

/* Finds the wanted members of the object on one line. Returns NULL when
 * the line is fine, else what is wrong with it. */
static const char *scan_line(jsonl_state *j, const char *p, const char *end, span *html, span *content, span *body,
                             span *url, span *charset)
{
    p = skip_ws(p, end);
    if (p == end || *p != '{') return "not a JSON object";
    p = skip_ws(p + 1, end);
    if (p < end && *p == '}') {
        p++;
    } else {
        for (;;) {
            if (p == end || *p != '"') return "expected a member name";
            const char *k = p;
            p = skip_string(p, end);
            if (!p) return "unterminated string";
            decode_string(k + 1, (size_t)(p - k - 2), &j->key);
            if (j->key.oom) return "out of memory";
            p = skip_ws(p, end);
            if (p == end || *p != ':') return "expected ':'";
            p = skip_ws(p + 1, end);
            span *want = NULL;
            const char *key = wn_buf_cstr(&j->key);
            if (strlen(key) == j->key.len) { /* a name with an escaped NUL matches nothing */
                if (!strcmp(key, "html"))
                    want = html;
                else if (!strcmp(key, "content"))
                    want = content;
                else if (!strcmp(key, "body"))
                    want = body;
                else if (!strcmp(key, "url"))
                    want = url;
                else if (!strcmp(key, "charset"))
                    want = charset;
            }
            if (p < end && *p == '"') {
                const char *v = p;
                p = skip_string(p, end);
                if (!p) return "unterminated string";
                if (want) { /* the last of duplicate members counts */
                    want->p = v + 1;
                    want->n = (size_t)(p - v - 2);
                    want->set = 1;
                }
            } else {
                p = skip_value(p, end);
                if (!p) return "invalid value";
                if (want) want->set = 0; /* null or not a string: as if absent */
            }
            p = skip_ws(p, end);
            if (p < end && *p == ',') {
                p = skip_ws(p + 1, end);
                continue;
            }
            if (p < end && *p == '}') {
                p++;
                break;
            }
            return "expected ',' or '}'";
        }
    }
    p = skip_ws(p, end);
    return p == end ? NULL : "text after the object";
}

static int jsonl_next(winnow_reader *r, winnow_record *rec)
{
    jsonl_state *j = r->state;
    for (;;) {
        size_t total;
        int got = wn_in_getline(j->in, &j->line, j->line_max, &total);
        if (got < 0) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", r->name);
            return -1;
        }
        if (j->in->failed) {
            wn_reader_fail(r, wn_in_status(j->in), "%s", j->in->err);
            return -1;
        }
        if (j->in->warn[0]) { /* damaged or truncated gzip */
            wn_reader_set_warning(r, "%s", j->in->warn);
            j->in->warn[0] = 0;
        }
        if (!got) {
            if (j->in->gap) {
                wn_in_clear_gap(j->in);
                continue;
            }
            return 0;
        }
        size_t lineno = ++j->lineno;
        if (total > j->line.len) {
            r->skipped++;
            r->too_large++;
            wn_reader_set_warning(r, "%s:%zu: line of %zu bytes, over the %zu-byte limit; skipped", r->name, lineno,
                                  total, j->line_max);
            continue;
        }
        const char *p = j->line.data, *end = p + j->line.len;
        if (lineno == 1 && end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* BOM */
        if (skip_ws(p, end) == end) continue;                                         /* blank lines are not records */

        span html = { 0 }, content = { 0 }, body = { 0 }, url = { 0 }, charset = { 0 };
        const char *why = scan_line(j, p, end, &html, &content, &body, &url, &charset);
        if (why && !strcmp(why, "out of memory")) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", r->name);
            return -1;
        }
        /* a line that is no page record is still a record of the file:
         * handed out as damaged, so that it is accounted for */
        if (why) {
            r->skipped++;
            return wn_reader_damaged(r, rec, (long long)lineno, -1, "%s:%zu: malformed JSON (%s); skipped", r->name,
                                     lineno, why);
        }
        const span *page = html.set ? &html : content.set ? &content : body.set ? &body : NULL;
        if (!page) {
            r->skipped++;
            if (url.set) decode_string(url.p, url.n, &r->url);
            int dg = wn_reader_damaged(r, rec, (long long)lineno, -1,
                                       "%s:%zu: no \"html\", \"content\" or \"body\" string; skipped", r->name, lineno);
            if (dg > 0 && url.set && !r->url.oom) rec->url = wn_buf_cstr(&r->url);
            return dg;
        }
        decode_string(page->p, page->n, &j->html);
        if (url.set) decode_string(url.p, url.n, &r->url);
        if (charset.set) decode_string(charset.p, charset.n, &r->charset);
        wn_buf_clear(&r->source);
        wn_buf_printf(&r->source, "%s:%zu", r->name, lineno);
        wn_buf_clear(&r->id);
        wn_buf_printf(&r->id, "%05zu", lineno);
        if (j->html.oom || r->url.oom || r->charset.oom || r->source.oom || r->id.oom) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", r->name);
            return -1;
        }
        if (j->html.len > r->max_record) {
            r->skipped++;
            r->too_large++;
            wn_reader_set_warning(r, "%s:%zu: page of %zu bytes, over the %zu-byte limit; skipped", r->name, lineno,
                                  j->html.len, r->max_record);
            continue;
        }
        rec->data = j->html.data ? j->html.data : "";
        rec->len = j->html.len;
        rec->url = url.set ? wn_buf_cstr(&r->url) : NULL;
        rec->charset = charset.set && r->charset.len ? wn_buf_cstr(&r->charset) : NULL;
        rec->source = wn_buf_cstr(&r->source);
        rec->id = wn_buf_cstr(&r->id);
        rec->file = r->path;
        rec->number = (long long)lineno;
        return 1;
    }
}

static void jsonl_close(winnow_reader *r)
{
    jsonl_state *j = r->state;
    wn_in_free(j->in);
    wn_buf_free(&j->line);
    wn_buf_free(&j->key);
    wn_buf_free(&j->html);
    free(j);
}

int wn_jsonl_open(winnow_reader *r, wn_in *in)
{
    if (!in && !(in = wn_in_new(r->path, r->name))) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    jsonl_state *j = calloc(1, sizeof *j);
    if (!j) {
        wn_in_free(in);
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    j->in = in;
    r->state = j;
    r->close_state = jsonl_close;
    r->stream = in;
    r->format = WINNOW_INPUT_JSONL;
    if (j->in->failed) {
        wn_reader_fail(r, wn_in_status(j->in), "%s", j->in->err);
        return -1;
    }
    /* Escaping makes a line longer than its page: allow twice the page
     * limit plus room for the other members. */
    size_t slack = (size_t)1 << 20;
    j->line_max = r->max_record > (SIZE_MAX - slack) / 2 ? SIZE_MAX : r->max_record * 2 + slack;
    r->next = jsonl_next;
    return 0;
}
