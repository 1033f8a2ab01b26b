/* Page readers: the dispatcher behind winnow_reader_open(), the readers for
 * a directory, a single file and stdin, and the gzip-transparent input
 * stream (wn_in) that the WARC and JSONL readers parse from. */
#include "input/reader_internal.h"
#include "util/structs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ======================================================================
 * wn_in: buffered input, gzip undone on the fly
 * ====================================================================== */

#define IN_RAW_CAP ((size_t)256 << 10)
#define IN_OUT_CAP ((size_t)256 << 10)

static int in_fail(wn_in *s, const char *what)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->err, sizeof s->err, "%s: %s", s->name, what);
    }
    return -1;
}

static int in_oom(wn_in *s, const char *what)
{
    if (!s->failed) s->oom = 1;
    return in_fail(s, what);
}

winnow_status wn_in_status(const wn_in *s) { return s->oom ? WINNOW_E_NOMEM : WINNOW_E_IO; }

static int in_read_error(wn_in *s)
{
    char m[160];
    snprintf(m, sizeof m, "read error: %s", strerror(errno ? errno : EIO));
    return in_fail(s, m);
}

/* Appends file bytes to the compressed buffer; returns how many came. */
static size_t raw_fill(wn_in *s)
{
    if (s->raw_pos > 0) {
        memmove(s->raw, s->raw + s->raw_pos, s->raw_len - s->raw_pos);
        s->raw_off += s->raw_pos;
        s->raw_len -= s->raw_pos;
        s->raw_pos = 0;
    }
    if (s->raw_len == IN_RAW_CAP) return 0;
    errno = 0;
    size_t n = fread(s->raw + s->raw_len, 1, IN_RAW_CAP - s->raw_len, s->fp);
    if (n == 0 && ferror(s->fp)) in_read_error(s);
    s->raw_len += n;
    return n;
}

/* The start of a gzip member: ID1 ID2, CM = deflate, reserved flag bits clear. */
static int gz_magic_at(const unsigned char *p)
{
    return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (p[3] & 0xE0) == 0;
}

/* Moves raw_pos to the next gzip member start. 1 found, 0 none before the end. */
static int gz_find_member(wn_in *s)
{
    for (;;) {
        size_t have = s->raw_len - s->raw_pos;
        const unsigned char *p = s->raw + s->raw_pos;
        size_t i = 0;
        while (i + 4 <= have) {
            const unsigned char *q = memchr(p + i, 0x1f, have - 3 - i);
            if (!q) { i = have - 3; break; }
            i = (size_t)(q - p);
            if (gz_magic_at(q)) { s->raw_pos += i; return 1; }
            i++;
        }
        /* keep the last 3 bytes: a magic may straddle the refill */
        if (have > 3) s->raw_pos += have - 3;
        if (raw_fill(s) == 0) {
            s->raw_pos = s->raw_len;
            return 0;
        }
    }
}

/* Starts inflating the member at raw_pos (skipping non-gzip bytes first).
 * 1 started, 0 end of data, -1 failure. */
static int gz_start_member(wn_in *s, int quiet_skip)
{
    while (s->raw_len - s->raw_pos < 4) {
        size_t before = s->raw_len - s->raw_pos;
        raw_fill(s);
        if (s->failed) return -1;
        if (s->raw_len - s->raw_pos == before) break;
    }
    size_t have = s->raw_len - s->raw_pos;
    if (have == 0) { s->eof = 1; return 0; }
    if (have < 4 || !gz_magic_at(s->raw + s->raw_pos)) {
        uint64_t at = s->raw_off + s->raw_pos;
        int found = gz_find_member(s);
        if (s->failed) return -1;
        uint64_t skipped = s->raw_off + s->raw_pos - at;
        if (!found) {
            if (!quiet_skip)
                snprintf(s->warn, sizeof s->warn, "%s: %llu bytes of non-gzip data at the end (offset %llu) ignored",
                         s->name, (unsigned long long)skipped, (unsigned long long)at);
            s->eof = 1;
            return 0;
        }
        if (!quiet_skip)
            snprintf(s->warn, sizeof s->warn, "%s: %llu bytes of non-gzip data at offset %llu skipped", s->name,
                     (unsigned long long)skipped, (unsigned long long)at);
    }
    int zr;
    if (!s->z_init) {
        zr = inflateInit2(&s->z, 16 + MAX_WBITS); /* 16: gzip wrapper only */
        s->z_init = zr == Z_OK;
    } else {
        zr = inflateReset(&s->z);
    }
    if (zr != Z_OK) return in_oom(s, "cannot start zlib (out of memory)");
    s->member_off = s->raw_off + s->raw_pos;
    s->member_pos = s->out_base + s->out_len;
    s->z_live = 1;
    return 1;
}

/* After corrupt data in the member that started at `off`: look for the next
 * member from off + 1. Seeking back matters: a member cut short in the middle
 * of the file makes inflate swallow the start of the next one before it fails. */
static void gz_resync(wn_in *s, uint64_t off)
{
    s->z_live = 0;
    if (fseeko(s->fp, (off_t)off, SEEK_SET) == 0) {
        clearerr(s->fp);
        s->raw_off = off;
        s->raw_pos = s->raw_len = 0;
    }
    /* unseekable: carry on from where inflate stopped */
}

static int gz_more(wn_in *s)
{
    for (;;) {
        if (!s->z_live) {
            /* after corrupt data the skipped bytes were already warned about */
            int r = gz_start_member(s, s->quiet_skip);
            s->quiet_skip = 0;
            if (r <= 0) return r;
        }
        if (s->raw_pos == s->raw_len) {
            raw_fill(s);
            if (s->failed) return -1;
            if (s->raw_pos == s->raw_len) {
                s->truncated = 1;
                s->eof = 1;
                snprintf(s->warn, sizeof s->warn,
                         "%s: gzip data truncated at the end of the file (member at offset %llu)", s->name,
                         (unsigned long long)s->member_off);
                return 0;
            }
        }
        size_t in_have = s->raw_len - s->raw_pos, out_room = s->out_cap - s->out_len;
        s->z.next_in = s->raw + s->raw_pos;
        s->z.avail_in = (uInt)in_have;
        s->z.next_out = s->out + s->out_len;
        s->z.avail_out = (uInt)out_room;
        int zr = inflate(&s->z, Z_NO_FLUSH);
        size_t made = out_room - s->z.avail_out;
        s->raw_pos += in_have - s->z.avail_in;
        s->out_len += made;
        if (zr == Z_STREAM_END) {
            s->z_live = 0; /* the next call starts the next member, if any */
            if (made) return 1;
            continue;
        }
        if (zr == Z_OK || zr == Z_BUF_ERROR) {
            if (made) return 1;
            continue;
        }
        if (zr == Z_MEM_ERROR) return in_oom(s, "out of memory in zlib");
        /* Z_DATA_ERROR and friends: this member is damaged */
        snprintf(s->warn, sizeof s->warn, "%s: corrupt gzip data in the member at offset %llu (%s); skipped to the next member",
                 s->name, (unsigned long long)s->member_off, s->z.msg ? s->z.msg : "invalid data");
        s->gap = 1;
        s->gap_member_pos = s->member_pos;
        gz_resync(s, s->member_off + 1);
        s->quiet_skip = 1;
        return made ? 1 : 0;
    }
}

/* Appends decompressed bytes to `out`. 1 some came, 0 end or gap, -1 failure. */
static int in_more(wn_in *s)
{
    if (s->failed) return -1;
    if (s->eof || s->gap) return 0;
    if (s->out_pos == s->out_len) {
        s->out_base += s->out_len;
        s->out_pos = s->out_len = 0;
    } else if (s->out_len == s->out_cap) {
        memmove(s->out, s->out + s->out_pos, s->out_len - s->out_pos);
        s->out_base += s->out_pos;
        s->out_len -= s->out_pos;
        s->out_pos = 0;
    }
    if (!s->gz) {
        errno = 0;
        size_t n = fread(s->out + s->out_len, 1, s->out_cap - s->out_len, s->fp);
        if (n == 0) {
            if (ferror(s->fp)) return in_read_error(s);
            s->eof = 1;
            return 0;
        }
        s->out_len += n;
        return 1;
    }
    return gz_more(s);
}

int wn_in_open(wn_in *s, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        memset(s, 0, sizeof *s);
        s->name = path;
        wn_buf_init(&s->back);
        snprintf(s->err, sizeof s->err, "cannot open %s: %s", path, strerror(errno));
        s->failed = 1;
        return -1;
    }
    return wn_in_open_fp(s, fp, path, 1);
}

int wn_in_open_fp(wn_in *s, FILE *fp, const char *name, int own)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    wn_buf_init(&s->back);
    s->fp = fp;
    s->own_fp = own;
    s->out = malloc(IN_OUT_CAP);
    s->raw = malloc(IN_RAW_CAP);
    if (!s->out || !s->raw) return in_oom(s, "out of memory");
    s->out_cap = IN_OUT_CAP;
    /* gzip or not is decided by the first bytes, whatever the name says */
    while (s->raw_len < 4 && raw_fill(s) > 0) {}
    if (s->failed) return -1;
    if (s->raw_len >= 4 && gz_magic_at(s->raw)) {
        s->gz = 1;
    } else {
        memcpy(s->out, s->raw, s->raw_len);
        s->out_len = s->raw_len;
        s->raw_len = 0;
        free(s->raw);
        s->raw = NULL;
    }
    return 0;
}

void wn_in_close(wn_in *s)
{
    if (s->fp && s->own_fp) fclose(s->fp);
    if (s->z_init) inflateEnd(&s->z);
    free(s->raw);
    free(s->out);
    wn_buf_free(&s->back);
    memset(s, 0, sizeof *s);
}

wn_in *wn_in_new(const char *path, const char *name)
{
    wn_in *s = malloc(sizeof *s);
    if (!s) return NULL;
    if (strcmp(path, "-") == 0) wn_in_open_fp(s, stdin, name, 0);
    else wn_in_open(s, path);
    s->name = name;
    return s;
}

void wn_in_free(wn_in *s)
{
    if (!s) return;
    wn_in_close(s);
    free(s);
}

uint64_t wn_in_file_pos(const wn_in *s)
{
    if (!s || !s->fp) return 0;
    off_t at = ftello(s->fp);
    return at > 0 ? (uint64_t)at : 0;
}

static int back_active(const wn_in *s) { return s->back_pos < s->back.len; }

size_t wn_in_avail(wn_in *s, const unsigned char **p)
{
    if (back_active(s)) {
        *p = (const unsigned char *)s->back.data + s->back_pos;
        return s->back.len - s->back_pos;
    }
    while (s->out_pos == s->out_len) {
        if (in_more(s) <= 0) {
            *p = NULL;
            return 0;
        }
    }
    *p = s->out + s->out_pos;
    return s->out_len - s->out_pos;
}

void wn_in_consume(wn_in *s, size_t n)
{
    if (back_active(s)) {
        s->back_pos += n;
        if (s->back_pos >= s->back.len) {
            wn_buf_clear(&s->back);
            s->back_pos = 0;
        }
    } else {
        s->out_pos += n;
    }
}

size_t wn_in_peek(wn_in *s, size_t n, const unsigned char **p)
{
    if (back_active(s)) {
        /* top the push-back queue up from the stream so the bytes are contiguous */
        while (s->back.len - s->back_pos < n) {
            if (s->out_pos == s->out_len && in_more(s) <= 0) break;
            size_t take = s->out_len - s->out_pos, want = n - (s->back.len - s->back_pos);
            if (take > want) take = want;
            wn_buf_put(&s->back, s->out + s->out_pos, take);
            if (s->back.oom) { in_oom(s, "out of memory"); break; }
            s->out_pos += take;
        }
        *p = (const unsigned char *)s->back.data + s->back_pos;
        size_t have = s->back.len - s->back_pos;
        return have < n ? have : n;
    }
    if (s->out_cap - s->out_pos < n) {
        memmove(s->out, s->out + s->out_pos, s->out_len - s->out_pos);
        s->out_base += s->out_pos;
        s->out_len -= s->out_pos;
        s->out_pos = 0;
    }
    while (s->out_len - s->out_pos < n && in_more(s) > 0) {}
    *p = s->out + s->out_pos;
    size_t have = s->out_len - s->out_pos;
    return have < n ? have : n;
}

size_t wn_in_read(wn_in *s, void *dst, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const unsigned char *p;
        size_t have = wn_in_avail(s, &p);
        if (!have) break;
        size_t take = n - done < have ? n - done : have;
        if (dst) memcpy((char *)dst + done, p, take);
        wn_in_consume(s, take);
        done += take;
    }
    return done;
}

int wn_in_getline(wn_in *s, wn_buf *line, size_t keep, size_t *total)
{
    wn_buf_clear(line);
    size_t len = 0;
    for (;;) {
        const unsigned char *p;
        size_t have = wn_in_avail(s, &p);
        if (!have) break;
        const unsigned char *nl = memchr(p, '\n', have);
        size_t take = nl ? (size_t)(nl - p) + 1 : have;
        if (line->len < keep) {
            size_t k = keep - line->len < take ? keep - line->len : take;
            wn_buf_put(line, p, k);
            if (line->oom) return -1;
        }
        wn_in_consume(s, take);
        len += take;
        if (nl) break;
    }
    if (total) *total = len;
    wn_buf_cstr(line);
    return len > 0;
}

int wn_in_unread(wn_in *s, const void *p, size_t n)
{
    if (!n) return 0;
    if (s->back_pos >= n) {
        s->back_pos -= n;
        memcpy(s->back.data + s->back_pos, p, n);
        return 0;
    }
    size_t rest = s->back.len - s->back_pos;
    if (!wn_buf_reserve(&s->back, n)) return in_oom(s, "out of memory");
    memmove(s->back.data + n, s->back.data + s->back_pos, rest);
    memcpy(s->back.data, p, n);
    s->back.len = n + rest;
    s->back_pos = 0;
    return 0;
}

uint64_t wn_in_tell(const wn_in *s)
{
    return s->out_base + s->out_pos - (s->back.len - s->back_pos);
}

uint64_t wn_in_record_offset(wn_in *s)
{
    const unsigned char *p;
    /* make sure the member holding the next byte has been started */
    if (wn_in_avail(s, &p) && s->gz && !back_active(s) && wn_in_tell(s) == s->member_pos) return s->member_off;
    return wn_in_tell(s);
}

void wn_in_clear_gap(wn_in *s) { s->gap = 0; }

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
 * Whole-file pages: a directory, one file, stdin
 * ====================================================================== */

/* A page of a directory, or a problem met while listing it (reported
 * where the entry would have come). */
typedef struct dir_entry {
    char *rel;        /* path below the directory */
    uint64_t size;
    char *problem;    /* NULL for a page */
} dir_entry;

typedef struct file_state {
    dir_entry *entries;  /* directory: pages sorted by relative path in byte order */
    size_t count, cap, next;
    int done;            /* one file or stdin: the page was handed out */
    wn_in *in;           /* one file or stdin: the stream the page is read from (owned) */
    wn_buf data;         /* page bytes, reused from page to page */
    wn_buf raw;          /* a gzip file's bytes as stored */
    wn_buf path;
} file_state;

static void file_close(winnow_reader *r)
{
    file_state *f = r->state;
    for (size_t i = 0; i < f->count; i++) {
        free(f->entries[i].rel);
        free(f->entries[i].problem);
    }
    free(f->entries);
    wn_in_free(f->in);
    wn_buf_free(&f->data);
    wn_buf_free(&f->raw);
    wn_buf_free(&f->path);
    free(f);
}

static void skip_too_large(winnow_reader *r, const char *name, uint64_t size, const char *how)
{
    r->skipped++;
    r->too_large++;
    if (size)
        wn_reader_set_warning(r, "%s: %llu bytes%s, over the %zu-byte limit; skipped", name, (unsigned long long)size,
                              how, r->max_record);
    else
        wn_reader_set_warning(r, "%s: over the %zu-byte limit%s; skipped", name, r->max_record, how);
}

/* Reads all of fd into dst. 1 read, 0 too large (skipped, warning set), -1
 * out of memory, -2 read error (errno says which). */
static int slurp_fd(winnow_reader *r, wn_buf *dst, int fd, const char *name)
{
    wn_buf_clear(dst);
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > r->max_record) {
            skip_too_large(r, name, (uint64_t)st.st_size, "");
            return 0;
        }
        if (!wn_buf_reserve(dst, (size_t)st.st_size + 1)) return -1;
    }
    for (;;) {
        if (dst->len > r->max_record) {
            skip_too_large(r, name, 0, "");
            return 0;
        }
        /* grow only when full: a regular file fits the size reserved above */
        if (dst->cap - dst->len < 2 && !wn_buf_reserve(dst, 64 << 10)) return -1;
        /* never read more than one byte past the limit (a pipe or a growing file) */
        size_t room = dst->cap - dst->len - 1, left = r->max_record - dst->len;
        if (left < SIZE_MAX) left++;
        ssize_t n = read(fd, dst->data + dst->len, room < left ? room : left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -2;
        }
        if (n == 0) break;
        dst->len += (size_t)n;
    }
    return 1;
}

static int is_gzip(const wn_buf *b)
{
    const unsigned char *p = (const unsigned char *)b->data;
    return b->len >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

/* A gzip-compressed page (ID.html.gz) read whole into f->data: undone in
 * place. 1 page, 0 skipped (warning set), -1 out of memory. */
static int gunzip_page(winnow_reader *r, file_state *f, const char *name)
{
    wn_buf t = f->raw;
    f->raw = f->data;
    f->data = t;
    const char *why = wn_inflate_all((const unsigned char *)f->raw.data, f->raw.len, 1, &f->data, r->max_record);
    if (!why) return 1;
    if (!strcmp(why, "out of memory")) return -1;
    if (f->data.len > r->max_record) {
        skip_too_large(r, name, 0, " once decompressed");
        return 0;
    }
    if (!strcmp(why, "compressed data cut short") && f->data.len) {
        wn_reader_set_warning(r, "%s: gzip data cut short; kept the %zu bytes decompressed", name, f->data.len);
        return 1;
    }
    r->skipped++;
    wn_reader_set_warning(r, "%s: cannot decompress: %s; skipped", name, why);
    return 0;
}

/* The part of a path that names the page: below the directory read
 * (rel), without the extension (ID for ID.html, ID.html.gz). */
static void set_stem(winnow_reader *r, const char *rel)
{
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    size_t n = strlen(base);
    if (n > 3 && wn_ascii_iends(base, ".gz")) {
        const char *dot = NULL;
        for (const char *p = base; p < base + n - 3; p++)
            if (*p == '.') dot = p;
        if (dot && dot != base) n -= 3;
    }
    const char *dot = NULL;
    for (const char *p = base; p < base + n; p++)
        if (*p == '.') dot = p;
    if (dot && dot != base) n = (size_t)(dot - base);
    wn_reader_str(&r->id, rel, (size_t)(base - rel) + n);
}

static int fill_record(winnow_reader *r, file_state *f, const char *path, const char *rel, winnow_record *rec)
{
    set_stem(r, rel);
    const char *source = wn_reader_str(&r->source, path, strlen(path));
    if (r->id.oom || !source) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    rec->url = NULL;
    rec->charset = NULL;
    rec->data = f->data.data ? f->data.data : "";
    rec->len = f->data.len;
    rec->source = source;
    rec->id = r->id.data;
    rec->file = source;
    rec->number = -1;
    return 1;
}

static int dir_next(winnow_reader *r, winnow_record *rec)
{
    file_state *f = r->state;
    if (f->count == 0 && !f->done) {
        f->done = 1;
        wn_reader_set_warning(r, "%s: no .html or .htm files (gzip too) in this directory%s", r->name,
                              r->recursive ? " or below" : "");
        return 0;
    }
    while (f->next < f->count) {
        const dir_entry *e = &f->entries[f->next++];
        r->done_bytes += e->size;
        wn_buf_clear(&f->path);
        wn_buf_printf(&f->path, "%s%s%s", r->path, wn_ascii_iends(r->path, "/") ? "" : "/", e->rel);
        const char *path = wn_buf_cstr(&f->path);
        if (f->path.oom) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
            return -1;
        }
        if (e->problem) {
            wn_reader_set_warning(r, "%s", e->problem);
            r->skipped++;
            continue;
        }
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            if (fd < 0) wn_reader_set_warning(r, "cannot open %s: %s; skipped", path, strerror(errno));
            else wn_reader_set_warning(r, "%s: not a regular file; skipped", path);
            if (fd >= 0) close(fd);
            r->skipped++;
            continue;
        }
        int got = slurp_fd(r, &f->data, fd, path);
        int err = errno;
        close(fd);
        if (got == 1 && is_gzip(&f->data)) got = gunzip_page(r, f, path);
        if (got == -1) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", path);
            return -1;
        }
        if (got <= 0) {
            /* one unreadable page does not stop the directory */
            if (got == -2) {
                wn_reader_set_warning(r, "cannot read %s: %s; skipped", path, strerror(err));
                r->skipped++;
            }
            continue;
        }
        return fill_record(r, f, path, e->rel, rec);
    }
    return 0;
}

static int cmp_entries(const void *a, const void *b)
{
    return strcmp(((const dir_entry *)a)->rel, ((const dir_entry *)b)->rel);
}

/* *.html, *.htm, and the same gzip-compressed (*.html.gz, *.htm.gz) */
static int is_page_name(const char *name)
{
    size_t n = strlen(name);
    return (n > 5 && wn_ascii_iends(name, ".html")) || (n > 4 && wn_ascii_iends(name, ".htm")) ||
           (n > 8 && wn_ascii_iends(name, ".html.gz")) || (n > 7 && wn_ascii_iends(name, ".htm.gz"));
}

static int add_entry(file_state *f, const char *rel, uint64_t size, const char *problem)
{
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        dir_entry *e = realloc(f->entries, cap * sizeof *e);
        if (!e) return -1;
        f->entries = e;
        f->cap = cap;
    }
    dir_entry *e = &f->entries[f->count];
    e->rel = strdup(rel);
    e->problem = problem ? strdup(problem) : NULL;
    e->size = size;
    if (!e->rel || (problem && !e->problem)) {
        free(e->rel);
        free(e->problem);
        return -1;
    }
    f->count++;
    return 0;
}

/* Lists the pages of directory `rel` (below r->path; "" for itself), and
 * with r->recursive those of its subdirectories. Symbolic links to
 * directories are not followed (no cycles). 0, or -1 on OOM or when the
 * top directory cannot be read (error set). */
static int list_dir(winnow_reader *r, file_state *f, const char *rel, unsigned depth)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s%s%s", r->path, *rel && !wn_ascii_iends(r->path, "/") ? "/" : "", rel);
    DIR *d = n > 0 && (size_t)n < sizeof dir ? opendir(dir) : NULL;
    if (!d) {
        char msg[4400];
        snprintf(msg, sizeof msg, "cannot open %s: %s%s", dir,
                 n > 0 && (size_t)n < sizeof dir ? strerror(errno) : "path too long", *rel ? "; skipped" : "");
        if (!*rel) {
            wn_reader_fail(r, WINNOW_E_IO, "%s", msg);
            return -1;
        }
        return add_entry(f, rel, 0, msg) == 0 ? 0 : (wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory listing %s", r->name), -1);
    }
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..")) continue;
        char sub[4096];
        int m = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name);
        if (m < 0 || (size_t)m >= sizeof sub) continue; /* deeper than any path can be */
        struct stat st;
        int have = fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0;
        int is_dir = have && S_ISDIR(st.st_mode);
        if (r->recursive && is_dir) {
            if (depth >= 256 || list_dir(r, f, sub, depth + 1) != 0) goto fail;
            continue;
        }
        if (!is_page_name(name)) continue;
        if (have && S_ISLNK(st.st_mode)) {
            struct stat target;
            if (fstatat(dirfd(d), name, &target, 0) == 0) {
                if (S_ISDIR(target.st_mode) && r->recursive) continue; /* not followed */
                st = target;
            }
        }
        if (add_entry(f, sub, have && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0, NULL) != 0) goto oom;
        errno = 0;
    }
    if (errno) {
        char msg[4400];
        snprintf(msg, sizeof msg, "cannot list %s: %s%s", dir, strerror(errno), *rel ? "; skipped" : "");
        closedir(d);
        if (!*rel) {
            wn_reader_fail(r, WINNOW_E_IO, "%s", msg);
            return -1;
        }
        return add_entry(f, rel, 0, msg) == 0 ? 0 : (wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory listing %s", r->name), -1);
    }
    closedir(d);
    return 0;
oom:
    wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory listing %s", r->name);
fail:
    closedir(d);
    if (!r->error[0]) wn_reader_fail(r, WINNOW_E_IO, "%s: directories nested too deep", r->name);
    return -1;
}

static int open_dir(winnow_reader *r, file_state *f)
{
    if (list_dir(r, f, "", 0) != 0) return -1;
    if (f->count) qsort(f->entries, f->count, sizeof *f->entries, cmp_entries);
    for (size_t i = 0; i < f->count; i++) r->total_bytes += f->entries[i].size;
    r->format = WINNOW_INPUT_HTML;
    r->next = dir_next;
    return 0;
}

/* One page from a stream (a file or stdin), gzip undone. */
static int stream_next(winnow_reader *r, winnow_record *rec)
{
    file_state *f = r->state;
    if (f->done) return 0;
    f->done = 1;
    wn_in *in = f->in;
    wn_buf_clear(&f->data);
    struct stat st;
    /* a regular file too large as stored is skipped unread */
    if (!in->gz && fstat(fileno(in->fp), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > r->max_record) {
        skip_too_large(r, r->name, (uint64_t)st.st_size, "");
        return 0;
    }
    for (;;) {
        const unsigned char *p;
        size_t have = wn_in_avail(in, &p);
        if (!have) break;
        if (have > r->max_record - f->data.len) {
            skip_too_large(r, r->name, 0, in->gz ? " once decompressed" : "");
            return 0;
        }
        wn_buf_put(&f->data, p, have);
        if (f->data.oom) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory reading %s", r->name);
            return -1;
        }
        wn_in_consume(in, have);
    }
    if (in->failed) {
        wn_reader_fail(r, wn_in_status(in), "%s", in->err);
        return -1;
    }
    if (in->gap) {
        r->skipped++;
        wn_reader_set_warning(r, "%s; skipped", in->warn[0] ? in->warn : "corrupt gzip data");
        return 0;
    }
    if (in->warn[0]) wn_reader_set_warning(r, "%s", in->warn);
    int is_stdin = !strcmp(r->path, "-");
    const char *source = wn_reader_str(&r->source, r->name, strlen(r->name));
    if (!source) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    if (is_stdin) wn_reader_str(&r->id, "stdin", 5);
    else {
        const char *base = strrchr(r->path, '/');
        set_stem(r, base ? base + 1 : r->path);
    }
    if (r->id.oom) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    rec->data = f->data.data ? f->data.data : "";
    rec->len = f->data.len;
    rec->source = source;
    rec->id = r->id.data;
    rec->file = is_stdin ? "-" : source;
    rec->number = -1;
    return 1;
}

/* A file's bytes are a buffer of their own: handed over, not copied. */
static void *file_take(winnow_reader *r, size_t *len)
{
    file_state *f = r->state;
    if (!f || !f->data.data || f->data.oom) return NULL;
    char *p = f->data.data;
    *len = f->data.len;
    /* what was reserved past the page goes back (a regular file's buffer
     * fits it already) */
    if (f->data.cap > f->data.len + 1) {
        char *q = realloc(p, f->data.len + 1);
        if (q) p = q;
    }
    wn_buf_init(&f->data);
    return p;
}

static file_state *new_file_state(winnow_reader *r)
{
    file_state *f = calloc(1, sizeof *f);
    if (!f) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return NULL;
    }
    wn_buf_init(&f->data);
    wn_buf_init(&f->raw);
    wn_buf_init(&f->path);
    r->state = f;
    r->close_state = file_close;
    r->take = file_take;
    return f;
}

/* Takes the stream in (and frees it on failure). */
static int open_stream_page(winnow_reader *r, wn_in *in)
{
    file_state *f = new_file_state(r);
    if (!f) {
        wn_in_free(in);
        return -1;
    }
    f->in = in;
    r->stream = in;
    r->format = WINNOW_INPUT_HTML;
    if (in->failed) {
        wn_reader_fail(r, wn_in_status(in), "%s", in->err);
        return -1;
    }
    r->next = stream_next;
    return 0;
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
    if (fmt == WINNOW_INPUT_WARC) wn_warc_open(r, in);
    else if (fmt == WINNOW_INPUT_JSONL) wn_jsonl_open(r, in);
    else open_stream_page(r, in);
}

/* The format a name's ending says; AUTO when it says none. */
static winnow_input_format format_by_name(const char *name)
{
    if (is_warc_name(name)) return WINNOW_INPUT_WARC;
    if (is_jsonl_name(name)) return WINNOW_INPUT_JSONL;
    if (is_page_name(name)) return WINNOW_INPUT_HTML;
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
            file_state *f = new_file_state(r);
            if (f) open_dir(r, f);
            else r->status = WINNOW_E_NOMEM;
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
            snprintf(err, errcap, "winnow_reader_options.struct_size is not sizeof (winnow_reader_options) of a "
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
static winnow_status open_fp_as(FILE *fp, const char *name, const winnow_reader_options *o,
                                unsigned long long total, winnow_reader **out, char *err, size_t errcap)
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
    if (st != WINNOW_OK) { fclose(fp); return st; }
    return open_fp_as(fp, name, &o, 0, out, err, errcap);
}

winnow_status winnow_reader_open_memory(const void *data, size_t len, const char *name,
                                        const winnow_reader_options *opt, winnow_reader **out, char *err,
                                        size_t errcap)
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
    static const char none[1] = {0};
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
    int got = r->next(r, &rec);
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
    free(r->path);
    free(r);
}
