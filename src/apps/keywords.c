/* Document-frequency tables and keywords by TF-IDF (winnow_keywords.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "winnow_keywords.h"
#include "apps/apps.h"
#include "apps/terms.h"
#include "util/structs.h"

extern const unsigned char wn_default_df[];
extern const size_t wn_default_df_len;

void wn_apps_err(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || !cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

/* ---- reading whole files, gzip undone ---- */

int wn_apps_gunzip(const unsigned char *data, size_t len, char **out, size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return -1;
    size_t cap = len * 4 + 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        inflateEnd(&z);
        return -1;
    }
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)len;
    int rc = Z_OK;
    for (;;) {
        if (cap - n < 65536) {
            char *g = realloc(buf, cap * 2 + 1);
            if (!g) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = g;
            cap *= 2;
        }
        z.next_out = (unsigned char *)buf + n;
        z.avail_out = (uInt)(cap - n);
        rc = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
        if (rc == Z_STREAM_END) {
            /* concatenated members */
            if (z.avail_in > 0) {
                inflateReset(&z);
                continue;
            }
            break;
        }
        if (rc != Z_OK) break;
        if (z.avail_in == 0 && z.avail_out != 0) {
            rc = Z_DATA_ERROR;
            break;
        } /* cut short */
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return rc == Z_MEM_ERROR ? -1 : -2;
    }
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return 0;
}

winnow_status wn_apps_read_file(const char *path, char **out, size_t *len, char *err, size_t errcap)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        wn_apps_err(err, errcap, "cannot open %s: %s", path, strerror(errno));
        return WINNOW_E_IO;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *g = realloc(buf, cap * 2 + 1);
        if (!g) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = g;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        wn_apps_err(err, errcap, "out of memory reading %s", path);
        return WINNOW_E_NOMEM;
    }
    if (bad) {
        free(buf);
        wn_apps_err(err, errcap, "cannot read %s", path);
        return WINNOW_E_IO;
    }
    if (n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b) {
        char *plain = NULL;
        size_t plen = 0;
        int rc = wn_apps_gunzip((unsigned char *)buf, n, &plain, &plen);
        free(buf);
        if (rc == -1) {
            wn_apps_err(err, errcap, "out of memory reading %s", path);
            return WINNOW_E_NOMEM;
        }
        if (rc) {
            wn_apps_err(err, errcap, "%s: damaged gzip data", path);
            return WINNOW_E_FORMAT;
        }
        buf = plain;
        n = plen;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return WINNOW_OK;
}

/* The next line of data[*pos..len) into *line (NUL-terminated in place,
 * without its LF); 0 at the end. */
int wn_apps_no_more_lines(char *data, size_t len, size_t *pos, size_t lineno, const char *name,
                          unsigned long long terms, char *err, size_t errcap)
{
    char *line;
    while (wn_apps_line(data, len, pos, &line)) {
        lineno++;
        if (*line) {
            wn_apps_err(err, errcap, "%s: line %zu: more lines than the %llu terms its header announces", name, lineno,
                        terms);
            return -1;
        }
    }
    return 0;
}

winnow_status wn_apps_load_file(const char *path, int have_out, char **data, size_t *len, char *err, size_t errcap)
{
    *data = NULL;
    *len = 0;
    if (!path || !have_out) {
        wn_apps_err(err, errcap, "no path given");
        return WINNOW_E_ARG;
    }
    return wn_apps_read_file(path, data, len, err, errcap);
}

int wn_apps_line(char *data, size_t len, size_t *pos, char **line)
{
    if (*pos >= len) return 0;
    char *s = data + *pos;
    char *nl = memchr(s, '\n', len - *pos);
    if (nl) {
        *nl = '\0';
        *pos = (size_t)(nl - data) + 1;
    } else {
        data[len] = '\0';
        *pos = len;
    }
    *line = s;
    return 1;
}

/* "NAME\tNUMBER": the number (digits only) in *v; 0 or -1. */
int wn_apps_field(const char *line, const char *name, unsigned long long *v)
{
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || line[n] != '\t' || !line[n + 1]) return -1;
    unsigned long long x = 0;
    for (const char *p = line + n + 1; *p; p++) {
        if (*p < '0' || *p > '9' || x > (~0ull - 9) / 10) return -1;
        x = x * 10 + (unsigned long long)(*p - '0');
    }
    *v = x;
    return 0;
}

/* Writing a file that appears whole, gzip-compressed when its name ends in .gz. */
struct wn_out {
    char *tmp;
    FILE *f;
    gzFile gz;
    int failed;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int wn_out_open(wn_out **o, const char *path, char *err, size_t errcap)
{
    wn_out *w = calloc(1, sizeof *w);
    size_t n = strlen(path);
    if (!w || !(w->tmp = malloc(n + 16))) {
        free(w);
        wn_apps_err(err, errcap, "out of memory");
        return -1;
    }
    snprintf(w->tmp, n + 16, "%s.tmp%ld", path, (long)getpid());
    if (ends_with(path, ".gz"))
        w->gz = gzopen(w->tmp, "wb9");
    else
        w->f = fopen(w->tmp, "wb");
    if (!w->gz && !w->f) {
        wn_apps_err(err, errcap, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        free(w->tmp);
        free(w);
        return -1;
    }
    *o = w;
    return 0;
}

void wn_out_write(wn_out *w, const char *s, size_t n)
{
    if (w->failed || !n) return;
    if (w->gz) {
        if (gzwrite(w->gz, s, (unsigned)n) != (int)n) w->failed = 1;
    } else if (fwrite(s, 1, n, w->f) != n)
        w->failed = 1;
}

int wn_out_close(wn_out *w, const char *path, int keep, char *err, size_t errcap)
{
    int bad = w->failed;
    if (w->gz)
        bad |= gzclose(w->gz) != Z_OK;
    else
        bad |= fclose(w->f) != 0;
    if (!bad && keep && rename(w->tmp, path) != 0) bad = 1;
    if (bad || !keep) remove(w->tmp);
    if (bad) wn_apps_err(err, errcap, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    free(w->tmp);
    free(w);
    return bad ? -1 : 0;
}

/* ---- the table ---- */

struct winnow_df {
    wn_termmap map; /* term hash -> its DF */
    unsigned long long docs;
    unsigned min_df;
};

void winnow_df_free(winnow_df *df)
{
    if (!df) return;
    wn_termmap_free(&df->map);
    free(df);
}

winnow_status wn_df_parse(char *data, size_t len, const char *name, winnow_df **out, char *err, size_t errcap)
{
    winnow_df *df = calloc(1, sizeof *df);
    if (!df) {
        wn_apps_err(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    size_t pos = 0, lineno = 0;
    char *line;
    unsigned long long v, terms = 0, min_df = 0;
    winnow_status st = WINNOW_E_FORMAT;
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        wn_apps_err(err, errcap, __VA_ARGS__);                                                                         \
        goto fail;                                                                                                     \
    } while (0)
    if (!wn_apps_line(data, len, &pos, &line)) BAD("%s: empty file: not a winnow DF table", name);
    lineno++;
    if (strncmp(line, "winnow-df\t", 10) != 0)
        BAD("%s: not a winnow DF table (its first line is not 'winnow-df<TAB>1')", name);
    if (wn_apps_field(line, "winnow-df", &v) != 0 || v != 1)
        BAD("%s: DF table of format version '%s': this winnow reads version 1", name, line + 10);
    if (!wn_apps_line(data, len, &pos, &line) || (lineno++, wn_apps_field(line, "docs", &v)) != 0 || v == 0)
        BAD("%s: line 2: 'docs<TAB>N' with N >= 1 expected", name);
    df->docs = v;
    if (!wn_apps_line(data, len, &pos, &line) || (lineno++, wn_apps_field(line, "min_df", &min_df)) != 0)
        BAD("%s: line 3: 'min_df<TAB>M' expected", name);
    df->min_df = (unsigned)min_df;
    if (!wn_apps_line(data, len, &pos, &line) || (lineno++, wn_apps_field(line, "terms", &terms)) != 0 ||
        terms > 100000000ull)
        BAD("%s: line 4: 'terms<TAB>T' expected", name);
    /* a term line takes 4 bytes at least: a header that claims more lines than
     * the file can hold reserves no more than the file can fill */
    if (wn_termmap_init(&df->map, (size_t)(terms < len / 4 ? terms : len / 4)) != 0) {
        st = WINNOW_E_NOMEM;
        BAD("out of memory");
    }
    const char *prev = NULL;
    for (unsigned long long t = 0; t < terms; t++) {
        if (!wn_apps_line(data, len, &pos, &line))
            BAD("%s: cut short: %llu term lines of the %llu its header announces", name, t, terms);
        lineno++;
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) BAD("%s: line %zu: 'TERM<TAB>DF' expected", name, lineno);
        *tab = '\0';
        unsigned long long d = 0;
        const char *p = tab + 1;
        if (!*p) BAD("%s: line %zu: no DF after the term", name, lineno);
        for (; *p; p++) {
            if (*p < '0' || *p > '9' || d > (~0ull - 9) / 10)
                BAD("%s: line %zu: DF '%s' is not a whole number", name, lineno, tab + 1);
            d = d * 10 + (unsigned long long)(*p - '0');
        }
        if (d < 1 || d > df->docs)
            BAD("%s: line %zu: DF %llu out of range (1 to docs = %llu)", name, lineno, d, df->docs);
        if (prev && strcmp(prev, line) >= 0)
            BAD("%s: line %zu: term '%s' out of order or repeated (terms are sorted by byte)", name, lineno, line);
        prev = line;
        int added;
        uint32_t *slot = wn_termmap_put(&df->map, wn_term_hash(line, (size_t)(tab - line)), &added);
        if (!slot) {
            st = WINNOW_E_NOMEM;
            BAD("out of memory");
        }
        *slot = d > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)d;
    }
    if (wn_apps_no_more_lines(data, len, &pos, lineno, name, terms, err, errcap) != 0) goto fail;
#undef BAD
    *out = df;
    return WINNOW_OK;
fail:
    winnow_df_free(df);
    return st;
}

winnow_status winnow_df_load(const char *path, winnow_df **out, char *err, size_t errcap)
{
    if (out) *out = NULL;
    char *data;
    size_t len;
    winnow_status st = wn_apps_load_file(path, out != NULL, &data, &len, err, errcap);
    if (st != WINNOW_OK) return st;
    st = wn_df_parse(data, len, path, out, err, errcap);
    free(data);
    return st;
}

winnow_status winnow_df_default(winnow_df **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (wn_default_df_len == 0) return WINNOW_E_FORMAT;
    char *data = NULL;
    size_t len = 0;
    int rc = wn_apps_gunzip(wn_default_df, wn_default_df_len, &data, &len);
    if (rc) return rc == -1 ? WINNOW_E_NOMEM : WINNOW_E_FORMAT;
    winnow_status st = wn_df_parse(data, len, "built-in DF table", out, NULL, 0);
    free(data);
    return st;
}

unsigned long long winnow_df_docs(const winnow_df *df) { return df ? df->docs : 0; }
size_t winnow_df_size(const winnow_df *df) { return df ? df->map.n : 0; }

static unsigned long long df_of(const winnow_df *df, uint64_t h)
{
    uint32_t v = wn_termmap_get(&df->map, h);
    return v == UINT32_MAX ? 0 : v;
}

unsigned long long winnow_df_lookup(const winnow_df *df, const char *term)
{
    if (!df || !term) return 0;
    return df_of(df, wn_term_hash(term, strlen(term)));
}

/* ---- building a table ---- */

typedef struct bterm {
    uint32_t df, last_doc, str;
    uint8_t phrase;
} bterm;

struct winnow_df_builder {
    wn_termmap map;
    bterm *t;
    size_t n, cap;
    wn_buf strings;
    unsigned long long docs;
    wn_tokens tk;
    wn_buf scratch;
};

winnow_status winnow_df_builder_new(winnow_df_builder **out)
{
    if (!out) return WINNOW_E_ARG;
    winnow_df_builder *b = calloc(1, sizeof *b);
    if (!b || wn_termmap_init(&b->map, 1 << 16) != 0) {
        free(b);
        *out = NULL;
        return WINNOW_E_NOMEM;
    }
    wn_buf_init(&b->strings);
    wn_buf_init(&b->scratch);
    wn_tokens_init(&b->tk);
    *out = b;
    return WINNOW_OK;
}

void winnow_df_builder_free(winnow_df_builder *b)
{
    if (!b) return;
    wn_termmap_free(&b->map);
    free(b->t);
    wn_buf_free(&b->strings);
    wn_buf_free(&b->scratch);
    wn_tokens_free(&b->tk);
    free(b);
}

unsigned long long winnow_df_builder_docs(const winnow_df_builder *b) { return b ? b->docs : 0; }

static int count_term(winnow_df_builder *b, const char *s, size_t n, int phrase)
{
    int added;
    uint32_t *slot = wn_termmap_put(&b->map, wn_term_hash(s, n), &added);
    if (!slot) return -1;
    if (added) {
        if (b->n == b->cap) {
            size_t cap = b->cap ? b->cap * 2 : 65536;
            bterm *g = realloc(b->t, cap * sizeof *g);
            if (!g) return -1;
            b->t = g;
            b->cap = cap;
        }
        size_t off = b->strings.len;
        wn_buf_put(&b->strings, s, n);
        wn_buf_putc(&b->strings, '\0');
        if (b->strings.oom || off > UINT32_MAX) return -1;
        b->t[b->n] = (bterm){ 0, UINT32_MAX, (uint32_t)off, (uint8_t)phrase };
        *slot = (uint32_t)b->n++;
    }
    bterm *t = &b->t[*slot];
    if (t->last_doc != (uint32_t)b->docs) {
        t->last_doc = (uint32_t)b->docs;
        t->df++;
    }
    return 0;
}

winnow_status winnow_df_builder_add(winnow_df_builder *b, const char *text, size_t len)
{
    if (!b || (!text && len)) return WINNOW_E_ARG;
    if (wn_tokenize(text ? text : "", len, &b->tk) != 0) return WINNOW_E_NOMEM;
    const wn_tokens *tk = &b->tk;
    for (size_t i = 0; i < tk->n; i++) {
        const char *s = tk->text.data + tk->t[i].off;
        if (count_term(b, s, tk->t[i].len, 0) != 0) return WINNOW_E_NOMEM;
        if (wn_tokens_phrase(tk, i)) {
            wn_buf_clear(&b->scratch);
            wn_buf_put(&b->scratch, s, tk->t[i].len);
            wn_buf_putc(&b->scratch, ' ');
            wn_buf_put(&b->scratch, tk->text.data + tk->t[i + 1].off, tk->t[i + 1].len);
            if (b->scratch.oom || count_term(b, b->scratch.data, b->scratch.len, 1) != 0) return WINNOW_E_NOMEM;
        }
    }
    b->docs++;
    return WINNOW_OK;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

winnow_status winnow_df_builder_save(winnow_df_builder *b, const char *path, unsigned min_df, char *err, size_t errcap)
{
    if (!b || !path) {
        wn_apps_err(err, errcap, "no path given");
        return WINNOW_E_ARG;
    }
    if (b->docs == 0) {
        wn_apps_err(err, errcap, "no documents counted: a DF table needs at least one");
        return WINNOW_E_ARG;
    }
    if (min_df < 1) min_df = 1;
    const char **keep = malloc((b->n ? b->n : 1) * sizeof *keep);
    if (!keep) {
        wn_apps_err(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    size_t nk = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->t[i].df >= (b->t[i].phrase ? 2 * min_df : min_df)) keep[nk++] = b->strings.data + b->t[i].str;
    /* sorted by string; each string's DF is found again by its hash */
    qsort(keep, nk, sizeof *keep, by_string);
    wn_out *o;
    if (wn_out_open(&o, path, err, errcap) != 0) {
        free(keep);
        return WINNOW_E_IO;
    }
    char line[256];
    int n = snprintf(line, sizeof line, "winnow-df\t1\ndocs\t%llu\nmin_df\t%u\nterms\t%zu\n", b->docs, min_df, nk);
    wn_out_write(o, line, (size_t)n);
    for (size_t i = 0; i < nk; i++) {
        const char *s = keep[i];
        size_t len = strlen(s);
        uint32_t idx = wn_termmap_get(&b->map, wn_term_hash(s, len));
        wn_out_write(o, s, len);
        n = snprintf(line, sizeof line, "\t%u\n", b->t[idx].df);
        wn_out_write(o, line, (size_t)n);
    }
    free(keep);
    return wn_out_close(o, path, 1, err, errcap) == 0 ? WINNOW_OK : WINNOW_E_IO;
}

/* ---- keywords ---- */

#define KW_OPTIONS_V1 WN_FIELD_END(winnow_keyword_options, phrases)
#define KW_V1 WN_FIELD_END(winnow_keyword, words)

static void kw_options_default(winnow_keyword_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->k = 10;
    o->stop_share = 0.1;
    o->phrases = 1;
}

winnow_status winnow_keyword_options_default(winnow_keyword_options *o, size_t struct_size)
{
    winnow_keyword_options d;
    kw_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, KW_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

typedef struct kterm {
    uint32_t tf, str, len; /* its string in the result's buffer */
    uint32_t w1, w2;       /* a phrase's words (indexes), else UINT32_MAX */
    unsigned long long df;
    double score;
    uint8_t stop, out;
} kterm;

struct winnow_keywords {
    winnow_keyword *k;
    size_t n;
    wn_buf strings;
};

/* A candidate as sorted: best score first, ties by term (no state outside
 * the array, so that threads may rank at once). */
typedef struct kcand {
    double score;
    const char *s;
    uint32_t len, idx;
} kcand;

static int by_score(const void *a, const void *b)
{
    const kcand *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

winnow_status winnow_keywords_extract(const winnow_df *df, const char *text, size_t len,
                                      const winnow_keyword_options *opt, winnow_keywords **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!df || (!text && len)) return WINNOW_E_ARG;
    winnow_keyword_options o;
    kw_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, KW_OPTIONS_V1) != 0) return WINNOW_E_ARG;
    if (!(o.stop_share > 0) || o.stop_share > 1) return WINNOW_E_ARG;

    winnow_status st = WINNOW_E_NOMEM;
    wn_tokens tk;
    wn_tokens_init(&tk);
    wn_termmap map = { 0 };
    kterm *t = NULL;
    kcand *order = NULL;
    uint32_t *tokterm = NULL;
    size_t nt = 0;
    winnow_keywords *res = calloc(1, sizeof *res);
    if (!res) goto done;
    wn_buf_init(&res->strings);
    if (wn_tokenize(text ? text : "", len, &tk) != 0) goto done;
    if (wn_termmap_init(&map, tk.n + 16) != 0) goto done;
    t = malloc((2 * tk.n + 1) * sizeof *t);
    tokterm = malloc((tk.n + 1) * sizeof *tokterm);
    if (!t || !tokterm) goto done;
    double stop_df = o.stop_share * (double)df->docs;
    double ln_n = log((double)df->docs + 1);
    /* words */
    for (size_t i = 0; i < tk.n; i++) {
        const char *s = tk.text.data + tk.t[i].off;
        uint64_t h = wn_term_hash(s, tk.t[i].len);
        int added;
        uint32_t *slot = wn_termmap_put(&map, h, &added);
        if (!slot) goto done;
        if (added) {
            kterm *k = &t[nt];
            memset(k, 0, sizeof *k);
            k->str = tk.t[i].off;
            k->len = tk.t[i].len;
            k->w1 = k->w2 = UINT32_MAX;
            k->df = df_of(df, h);
            k->stop = (double)k->df > stop_df;
            *slot = (uint32_t)nt++;
        }
        t[*slot].tf++;
        tokterm[i] = *slot;
    }
    /* phrases: their strings go after the tokens' in the same buffer */
    if (o.phrases) {
        for (size_t i = 0; i + 1 < tk.n; i++) {
            if (!wn_tokens_phrase(&tk, i) || t[tokterm[i]].stop || t[tokterm[i + 1]].stop) continue;
            if (!wn_buf_reserve(&tk.text, tk.t[i].len + 1 + tk.t[i + 1].len)) goto done;
            size_t off = tk.text.len;
            wn_buf_put(&tk.text, tk.text.data + tk.t[i].off, tk.t[i].len);
            wn_buf_putc(&tk.text, ' ');
            wn_buf_put(&tk.text, tk.text.data + tk.t[i + 1].off, tk.t[i + 1].len);
            if (tk.text.oom) goto done;
            size_t plen = tk.text.len - off;
            uint64_t h = wn_term_hash(tk.text.data + off, plen);
            int added;
            uint32_t *slot = wn_termmap_put(&map, h ^ 0x9E3779B97F4A7C15ull, &added);
            if (!slot) goto done;
            if (added) {
                kterm *k = &t[nt];
                memset(k, 0, sizeof *k);
                k->str = (uint32_t)off;
                k->len = (uint32_t)plen;
                k->w1 = tokterm[i];
                k->w2 = tokterm[i + 1];
                k->df = df_of(df, h);
                k->stop = (double)k->df > stop_df;
                *slot = (uint32_t)nt++;
            } else {
                tk.text.len = off; /* seen: drop the copy */
            }
            t[*slot].tf++;
        }
        /* a word whose every occurrence is in one candidate phrase gives way to it */
        for (size_t i = 0; i < nt; i++)
            if (t[i].w1 != UINT32_MAX && t[i].tf >= 2 && !t[i].stop) {
                if (t[t[i].w1].tf == t[i].tf) t[t[i].w1].out = 1;
                if (t[t[i].w2].tf == t[i].tf) t[t[i].w2].out = 1;
            }
    }
    order = malloc((nt + 1) * sizeof *order);
    if (!order) goto done;
    size_t nc = 0;
    for (size_t i = 0; i < nt; i++) {
        kterm *k = &t[i];
        if (k->stop || k->out || (k->w1 != UINT32_MAX && k->tf < 2)) continue;
        k->score = (double)k->tf * (ln_n - log((double)k->df + 1));
        if (!(k->score > 0)) continue;
        order[nc++] = (kcand){ k->score, tk.text.data + k->str, k->len, (uint32_t)i };
    }
    qsort(order, nc, sizeof *order, by_score);
    size_t want = nc < o.k ? nc : o.k;
    res->k = calloc(want ? want : 1, sizeof *res->k);
    if (!res->k) goto done;
    size_t *offs = malloc((want ? want : 1) * sizeof *offs);
    if (!offs) goto done;
    for (size_t j = 0; j < want; j++) {
        const kterm *k = &t[order[j].idx];
        offs[j] = res->strings.len;
        wn_buf_put(&res->strings, tk.text.data + k->str, k->len);
        wn_buf_putc(&res->strings, '\0');
        res->k[j] =
            (winnow_keyword){ sizeof(winnow_keyword), NULL, k->score, k->tf, k->df, k->w1 == UINT32_MAX ? 1 : 2 };
    }
    if (res->strings.oom) {
        free(offs);
        goto done;
    }
    for (size_t j = 0; j < want; j++) res->k[j].term = res->strings.data + offs[j];
    free(offs);
    res->n = want;
    st = WINNOW_OK;
done:
    wn_tokens_free(&tk);
    wn_termmap_free(&map);
    free(t);
    free(tokterm);
    free(order);
    if (st != WINNOW_OK)
        winnow_keywords_free(res);
    else
        *out = res;
    return st;
}

size_t winnow_keywords_count(const winnow_keywords *k) { return k ? k->n : 0; }

winnow_status winnow_keywords_get(const winnow_keywords *k, size_t i, winnow_keyword *out)
{
    if (!k || !out || i >= k->n) return WINNOW_E_ARG;
    return wn_struct_out(out, &k->k[i], sizeof k->k[i], KW_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

void winnow_keywords_free(winnow_keywords *k)
{
    if (!k) return;
    free(k->k);
    wn_buf_free(&k->strings);
    free(k);
}
