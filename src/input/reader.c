/* Page readers: the dispatcher behind winnow_reader_open() (a path's kind,
 * a name's ending or the first bytes decide which reader serves it), the
 * helpers every reader shares, and the public winnow_reader_* calls. The
 * readers themselves are elsewhere: files.c (directory, file, stdin),
 * warc.c, jsonl.c; the gzip-transparent stream they read is stream.c. */
#include "input/reader_internal.h"
#include "util/structs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ======================================================================
 * Shared reader helpers
 * ====================================================================== */

void wn_reader_fail(winnow_reader *r, winnow_status st, const char *fmt, ...)
{
    r->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
}

void wn_reader_set_warning(winnow_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->warning, sizeof r->warning, fmt, ap);
    va_end(ap);
}

int wn_reader_damaged(winnow_reader *r, winnow_record *rec, long long number, long long offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->warning, sizeof r->warning, fmt, ap);
    va_end(ap);
    wn_buf_clear(&r->source);
    if (offset >= 0)
        wn_buf_printf(&r->source, "%s#%lld", r->name, offset);
    else
        wn_buf_printf(&r->source, "%s:%lld", r->name, number);
    /* the warning names the record by its locator (the source) and says it
     * was skipped, as for a caller that skips such records; the record's
     * error is the reason alone: the record carries its source, callers
     * name it their own way (the CLI and the Dask driver by its output
     * name), and it is handed out, not skipped */
    const char *why = r->warning;
    size_t sl = r->source.len;
    if (!r->source.oom && !strncmp(why, wn_buf_cstr(&r->source), sl) && !strncmp(why + sl, ": ", 2)) why += sl + 2;
    size_t wl = strlen(why);
    if (wl > 9 && !strcmp(why + wl - 9, "; skipped")) wl -= 9; /* handed out, not skipped */
    wn_buf_clear(&r->damage);
    wn_buf_put(&r->damage, why, wl);
    wn_buf_clear(&r->id);
    wn_buf_printf(&r->id, "%05lld", number);
    if (r->damage.oom || r->source.oom || r->id.oom) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", r->name);
        return -1;
    }
    rec->data = "";
    rec->len = 0;
    rec->source = wn_buf_cstr(&r->source);
    rec->id = wn_buf_cstr(&r->id);
    rec->file = r->path;
    rec->number = number;
    rec->error = wn_buf_cstr(&r->damage);
    return 1;
}

const char *wn_reader_str(wn_buf *b, const char *s, size_t n)
{
    wn_buf_clear(b);
    wn_buf_put(b, s, n);
    const char *c = wn_buf_cstr(b);
    return b->oom ? NULL : c;
}

int wn_ascii_ieq(const char *a, size_t an, const char *b)
{
    size_t i = 0;
    for (; i < an && b[i]; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
        if (x != y) return 0;
    }
    return i == an && !b[i];
}

int wn_ascii_iends(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && wn_ascii_ieq(s + n - m, m, suffix);
}

/* ======================================================================
 * Public API
 * ====================================================================== */

static int is_warc_name(const char *p) { return wn_ascii_iends(p, ".warc") || wn_ascii_iends(p, ".warc.gz"); }

static int is_jsonl_name(const char *p)
{
    return wn_ascii_iends(p, ".jsonl") || wn_ascii_iends(p, ".jsonl.gz") || wn_ascii_iends(p, ".ndjson") ||
           wn_ascii_iends(p, ".ndjson.gz");
}

/* What the first bytes of a stream (gzip undone) are: a WARC file starts
 * with "WARC/", JSON lines with '{' (after a BOM and blanks); anything
 * else is taken for a page. */
static winnow_input_format sniff(wn_in *in)
{
    const unsigned char *p;
    size_t n = wn_in_peek(in, 256, &p);
    if (n >= 5 && memcmp(p, "WARC/", 5) == 0) return WINNOW_INPUT_WARC;
    size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    return i < n && p[i] == '{' ? WINNOW_INPUT_JSONL : WINNOW_INPUT_HTML;
}

#define READER_OPTIONS_V1 WN_FIELD_END(winnow_reader_options, recursive)
#define RECORD_V1 WN_FIELD_END(winnow_record, record_id)
#define RECORD_V2 WN_FIELD_END(winnow_record, error)

static void reader_options_default(winnow_reader_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->max_record_bytes = WN_READER_DEFAULT_MAX;
    o->format = WINNOW_INPUT_AUTO;
}

winnow_status winnow_reader_options_default(winnow_reader_options *o, size_t struct_size)
{
    winnow_reader_options d;
    reader_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, READER_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

/* A reader with its strings, not opened yet; NULL on OOM. */
static winnow_reader *reader_new(const char *path, const winnow_reader_options *opt)
{
    winnow_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    wn_buf_init(&r->url);
    wn_buf_init(&r->charset);
    wn_buf_init(&r->source);
    wn_buf_init(&r->id);
    wn_buf_init(&r->record_id);
    r->max_record = opt->max_record_bytes ? opt->max_record_bytes : WN_READER_DEFAULT_MAX;
    r->recursive = opt->recursive;
    r->damaged = opt->damaged;
    if (!(r->path = strdup(path))) {
        free(r);
        return NULL;
    }
    r->name = strcmp(path, "-") == 0 ? "<stdin>" : r->path;
    return r;
}

/* Opens the stream `in` (taken, freed on failure) as fmt says, sniffing
 * when AUTO. The outcome is in r->status. */
static void open_stream(winnow_reader *r, wn_in *in, winnow_input_format fmt)
{
    if (!in) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return;
    }
    if (fmt == WINNOW_INPUT_AUTO && !in->failed) fmt = sniff(in);
    if (in->failed) {
        wn_reader_fail(r, wn_in_status(in), "%s", in->err);
        wn_in_free(in);
        return;
    }
    if (fmt == WINNOW_INPUT_WARC)
        wn_warc_open(r, in);
    else if (fmt == WINNOW_INPUT_JSONL)
        wn_jsonl_open(r, in);
    else
        wn_open_stream_page(r, in);
}

/* The format a name's ending says; AUTO when it says none. */
static winnow_input_format format_by_name(const char *name)
{
    if (is_warc_name(name)) return WINNOW_INPUT_WARC;
    if (is_jsonl_name(name)) return WINNOW_INPUT_JSONL;
    if (wn_is_page_name(name)) return WINNOW_INPUT_HTML;
    return WINNOW_INPUT_AUTO;
}

static void open_path(winnow_reader *r, const char *path, winnow_input_format fmt)
{
    struct stat st;
    if (!strcmp(path, "-")) {
        if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) r->total_bytes = (unsigned long long)st.st_size;
    } else {
        if (stat(path, &st) != 0) {
            wn_reader_fail(r, WINNOW_E_IO, "cannot open %s: %s", path, strerror(errno));
            return;
        }
        if (S_ISDIR(st.st_mode)) {
            file_state *f = wn_new_file_state(r);
            if (f)
                wn_open_dir(r, f);
            else
                r->status = WINNOW_E_NOMEM;
            return;
        }
        if (S_ISREG(st.st_mode)) r->total_bytes = (unsigned long long)st.st_size;
        if (fmt == WINNOW_INPUT_AUTO) fmt = format_by_name(path);
    }
    open_stream(r, wn_in_new(path, r->name), fmt);
}

/* The end of both openers: the reader, or its failure in err. */
static winnow_status opened(winnow_reader *r, winnow_reader **out, char *err, size_t errcap)
{
    if (r->status == WINNOW_OK && r->error[0]) r->status = WINNOW_E_IO; /* a failure without its status */
    winnow_status st = r->status;
    if (st != WINNOW_OK) {
        if (err && errcap) snprintf(err, errcap, "%s", r->error[0] ? r->error : winnow_status_message(st));
        winnow_reader_close(r);
        return st;
    }
    *out = r;
    return WINNOW_OK;
}

/* Checks the arguments common to both openers; fills *o. */
static winnow_status open_args(const winnow_reader_options *opt, winnow_reader **out, winnow_reader_options *o,
                               char *err, size_t errcap)
{
    if (err && errcap) err[0] = '\0';
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    reader_options_default(o);
    if (opt && wn_struct_in(o, sizeof *o, opt, READER_OPTIONS_V1) != 0) {
        if (err && errcap)
            snprintf(err, errcap,
                     "winnow_reader_options.struct_size is not sizeof (winnow_reader_options) of a "
                     "winnow.h this library reads");
        return WINNOW_E_ARG;
    }
    return WINNOW_OK;
}

winnow_status winnow_reader_open(const char *path, const winnow_reader_options *opt, winnow_reader **out, char *err,
                                 size_t errcap)
{
    winnow_reader_options o;
    winnow_status st = open_args(opt, out, &o, err, errcap);
    if (st != WINNOW_OK) return st;
    if (!path || !*path) {
        if (err && errcap)
            snprintf(err, errcap, "no input given (a file, a directory, a .warc[.gz], a .jsonl[.gz] or \"-\")");
        return WINNOW_E_ARG;
    }
    winnow_reader *r = reader_new(path, &o);
    if (!r) {
        if (err && errcap) snprintf(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    open_path(r, path, o.format);
    return opened(r, out, err, errcap);
}

/* A reader over the stream fp (taken: closed on failure) named name; o is
 * already checked. */
static winnow_status open_fp_as(FILE *fp, const char *name, const winnow_reader_options *o, unsigned long long total,
                                winnow_reader **out, char *err, size_t errcap)
{
    winnow_reader *r = reader_new(name, o);
    wn_in *in = r ? malloc(sizeof *in) : NULL;
    if (!in) {
        fclose(fp);
        winnow_reader_close(r);
        if (err && errcap) snprintf(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    r->total_bytes = total;
    wn_in_open_fp(in, fp, r->name, 1);
    open_stream(r, in, o->format);
    return opened(r, out, err, errcap);
}

winnow_status wn_reader_open_fp(FILE *fp, const char *name, const winnow_reader_options *opt, winnow_reader **out,
                                char *err, size_t errcap)
{
    winnow_reader_options o;
    winnow_status st = open_args(opt, out, &o, err, errcap);
    if (st != WINNOW_OK) {
        fclose(fp);
        return st;
    }
    return open_fp_as(fp, name, &o, 0, out, err, errcap);
}

winnow_status winnow_reader_open_memory(const void *data, size_t len, const char *name,
                                        const winnow_reader_options *opt, winnow_reader **out, char *err, size_t errcap)
{
    winnow_reader_options o;
    winnow_status st = open_args(opt, out, &o, err, errcap);
    if (st != WINNOW_OK) return st;
    if (!data && len) {
        if (err && errcap) snprintf(err, errcap, "no bytes given for %zu bytes of input", len);
        return WINNOW_E_ARG;
    }
    /* a stream over the caller's bytes: the readers of files and stdin
     * then serve memory too (fmemopen does not take a size of 0) */
    static const char none[1] = { 0 };
    FILE *fp = len ? fmemopen((void *)data, len, "rb") : fmemopen((void *)none, 1, "rb");
    if (fp && !len) fgetc(fp); /* at its end: no bytes */
    if (!fp) {
        if (err && errcap) snprintf(err, errcap, "cannot read from memory: %s", strerror(errno));
        return errno == ENOMEM ? WINNOW_E_NOMEM : WINNOW_E_IO;
    }
    if (!name || !*name) name = "<memory>";
    if (o.format == WINNOW_INPUT_AUTO) o.format = format_by_name(name);
    return open_fp_as(fp, name, &o, len, out, err, errcap);
}

winnow_status winnow_reader_next(winnow_reader *r, winnow_record *out)
{
    if (!r || !out) return WINNOW_E_ARG;
    winnow_record rec;
    memset(&rec, 0, sizeof rec);
    rec.struct_size = sizeof rec;
    if (wn_struct_out(out, &rec, sizeof rec, RECORD_V1) != 0) return WINNOW_E_ARG;
    r->warning[0] = 0;
    if (r->status != WINNOW_OK) return r->status; /* errors are final */
    if (!r->next) return WINNOW_END;
    int got;
    for (;;) {
        got = r->next(r, &rec);
        /* damaged records go to callers that know them; older ones skip
         * them, with the warning, as before */
        if (got <= 0 || !rec.error || (r->damaged && out->struct_size >= RECORD_V2)) break;
        memset(&rec, 0, sizeof rec);
    }
    if (got < 0 && r->status == WINNOW_OK) wn_reader_fail(r, WINNOW_E_IO, "%s: read failed", r->name);
    if (got <= 0) return got < 0 ? r->status : WINNOW_END;
    rec.struct_size = sizeof rec;
    wn_struct_out(out, &rec, sizeof rec, RECORD_V1);
    return WINNOW_OK;
}

const char *winnow_reader_error(const winnow_reader *r) { return r ? r->error : "no reader"; }

const char *winnow_reader_warning(const winnow_reader *r) { return r ? r->warning : ""; }

size_t winnow_reader_skipped(const winnow_reader *r) { return r ? r->skipped : 0; }

size_t winnow_reader_too_large(const winnow_reader *r) { return r ? r->too_large : 0; }

winnow_input_format winnow_reader_format(const winnow_reader *r) { return r ? r->format : WINNOW_INPUT_AUTO; }

void *winnow_reader_take(winnow_reader *r, size_t *len)
{
    size_t n = 0;
    void *p = r && r->take && r->status == WINNOW_OK ? r->take(r, &n) : NULL;
    if (len) *len = p ? n : 0;
    return p;
}

int winnow_reader_progress(const winnow_reader *r, unsigned long long *done, unsigned long long *total)
{
    unsigned long long d = 0, t = 0;
    if (r) {
        d = r->stream ? (unsigned long long)wn_in_file_pos(r->stream) : r->done_bytes;
        t = r->total_bytes;
        if (t && d > t) d = t;
    }
    if (done) *done = d;
    if (total) *total = t;
    return t > 0;
}

void winnow_reader_close(winnow_reader *r)
{
    if (!r) return;
    if (r->close_state && r->state) r->close_state(r);
    wn_buf_free(&r->url);
    wn_buf_free(&r->charset);
    wn_buf_free(&r->source);
    wn_buf_free(&r->id);
    wn_buf_free(&r->record_id);
    wn_buf_free(&r->damage);
    free(r->path);
    free(r);
}
