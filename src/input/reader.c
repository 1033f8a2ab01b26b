/* Page readers: the dispatcher behind winnow_reader_open(), the readers for
 * a directory, a single file and stdin, and the gzip-transparent input
 * stream (wn_in) that the WARC and JSONL readers parse from. */
#include "input/reader_internal.h"

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
    if (zr != Z_OK) return in_fail(s, "cannot start zlib (out of memory)");
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
        if (zr == Z_MEM_ERROR) return in_fail(s, "out of memory in zlib");
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
    memset(s, 0, sizeof *s);
    s->name = path;
    wn_buf_init(&s->back);
    s->fp = fopen(path, "rb");
    if (!s->fp) {
        snprintf(s->err, sizeof s->err, "cannot open %s: %s", path, strerror(errno));
        s->failed = 1;
        return -1;
    }
    s->out = malloc(IN_OUT_CAP);
    s->raw = malloc(IN_RAW_CAP);
    if (!s->out || !s->raw) return in_fail(s, "out of memory");
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
    if (s->fp) fclose(s->fp);
    if (s->z_init) inflateEnd(&s->z);
    free(s->raw);
    free(s->out);
    wn_buf_free(&s->back);
    memset(s, 0, sizeof *s);
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
            if (s->back.oom) { in_fail(s, "out of memory"); break; }
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
    if (!wn_buf_reserve(&s->back, n)) return in_fail(s, "out of memory");
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

void wn_reader_set_error(winnow_reader *r, const char *fmt, ...)
{
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

typedef struct file_state {
    char **names;   /* directory entries, sorted; NULL for one file / stdin */
    size_t count, next;
    int done;       /* one file or stdin: the page was handed out */
    wn_buf data;    /* page bytes, reused from page to page */
    wn_buf path;
} file_state;

static void file_close(winnow_reader *r)
{
    file_state *f = r->state;
    for (size_t i = 0; i < f->count; i++) free(f->names[i]);
    free(f->names);
    wn_buf_free(&f->data);
    wn_buf_free(&f->path);
    free(f);
}

/* Reads all of fd into f->data. 1 read, 0 too large (warning set), -1 out
 * of memory, -2 read error (errno says which). */
static int slurp_fd(winnow_reader *r, file_state *f, int fd, const char *name)
{
    wn_buf_clear(&f->data);
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > r->max_record) {
            wn_reader_set_warning(r, "%s: %llu bytes, over the %zu-byte limit; skipped", name,
                                  (unsigned long long)st.st_size, r->max_record);
            return 0;
        }
        if (!wn_buf_reserve(&f->data, (size_t)st.st_size + 1)) return -1;
    }
    for (;;) {
        if (f->data.len > r->max_record) {
            wn_reader_set_warning(r, "%s: over the %zu-byte limit; skipped", name, r->max_record);
            return 0;
        }
        /* grow only when full: a regular file fits the size reserved above */
        if (f->data.cap - f->data.len < 2 && !wn_buf_reserve(&f->data, 64 << 10)) return -1;
        /* never read more than one byte past the limit (a pipe or a growing file) */
        size_t room = f->data.cap - f->data.len - 1, left = r->max_record - f->data.len;
        if (left < SIZE_MAX) left++;
        ssize_t n = read(fd, f->data.data + f->data.len, room < left ? room : left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -2;
        }
        if (n == 0) break;
        f->data.len += (size_t)n;
    }
    return 1;
}

/* The part of a file name that names the page: without directories and
 * without the extension (ID for ID.html). */
static void set_stem(winnow_reader *r, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    wn_reader_str(&r->id, base, n);
}

static int fill_file_record(winnow_reader *r, file_state *f, const char *path, winnow_record *rec)
{
    set_stem(r, path);
    const char *source = wn_reader_str(&r->source, path, strlen(path));
    if (r->id.oom || !source) {
        wn_reader_set_error(r, "out of memory");
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
        wn_reader_set_warning(r, "%s: no .html or .htm files in this directory", r->path);
        return 0;
    }
    while (f->next < f->count) {
        const char *name = f->names[f->next++];
        wn_buf_clear(&f->path);
        wn_buf_printf(&f->path, "%s%s%s", r->path, wn_ascii_iends(r->path, "/") ? "" : "/", name);
        const char *path = wn_buf_cstr(&f->path);
        if (f->path.oom) {
            wn_reader_set_error(r, "out of memory");
            return -1;
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
        int got = slurp_fd(r, f, fd, path);
        int err = errno;
        close(fd);
        if (got == -1) {
            wn_reader_set_error(r, "out of memory reading %s", path);
            return -1;
        }
        if (got <= 0) {
            /* one unreadable page does not stop the directory */
            if (got == -2) wn_reader_set_warning(r, "cannot read %s: %s; skipped", path, strerror(err));
            r->skipped++;
            continue;
        }
        return fill_file_record(r, f, path, rec);
    }
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_page_name(const char *name)
{
    size_t n = strlen(name);
    return (n > 5 && wn_ascii_iends(name, ".html")) || (n > 4 && wn_ascii_iends(name, ".htm"));
}

static int open_dir(winnow_reader *r, file_state *f)
{
    DIR *d = opendir(r->path);
    if (!d) {
        wn_reader_set_error(r, "cannot open %s: %s", r->path, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d))) {
        if (!is_page_name(e->d_name)) continue;
        if (f->count == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **nn = realloc(f->names, ncap * sizeof *nn);
            if (!nn) goto oom;
            f->names = nn;
            cap = ncap;
        }
        if (!(f->names[f->count] = strdup(e->d_name))) goto oom;
        f->count++;
        errno = 0;
    }
    if (errno) {
        wn_reader_set_error(r, "cannot list %s: %s", r->path, strerror(errno));
        closedir(d);
        return -1;
    }
    closedir(d);
    if (f->count) qsort(f->names, f->count, sizeof *f->names, cmp_names);
    r->next = dir_next;
    return 0;
oom:
    closedir(d);
    wn_reader_set_error(r, "out of memory listing %s", r->path);
    return -1;
}

static int one_file_next(winnow_reader *r, winnow_record *rec)
{
    file_state *f = r->state;
    if (f->done) return 0;
    f->done = 1;
    int fd = open(r->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        wn_reader_set_error(r, "cannot open %s: %s", r->path, strerror(errno));
        return -1;
    }
    int got = slurp_fd(r, f, fd, r->path);
    int err = errno;
    close(fd);
    if (got == -1) {
        wn_reader_set_error(r, "out of memory reading %s", r->path);
        return -1;
    }
    if (got == -2) {
        wn_reader_set_error(r, "cannot read %s: %s", r->path, strerror(err));
        return -1;
    }
    if (got == 0) {
        r->skipped++; /* too large: a warning, like a large record in a WARC */
        return 0;
    }
    return fill_file_record(r, f, r->path, rec);
}

static int stdin_next(winnow_reader *r, winnow_record *rec)
{
    file_state *f = r->state;
    if (f->done) return 0;
    f->done = 1;
    int got = slurp_fd(r, f, STDIN_FILENO, "<stdin>");
    if (got == -1) {
        wn_reader_set_error(r, "out of memory reading stdin");
        return -1;
    }
    if (got == -2) {
        wn_reader_set_error(r, "cannot read stdin: %s", strerror(errno));
        return -1;
    }
    if (got == 0) {
        r->skipped++;
        return 0;
    }
    const char *source = wn_reader_str(&r->source, "<stdin>", 7);
    const char *id = wn_reader_str(&r->id, "stdin", 5);
    if (!source || !id) {
        wn_reader_set_error(r, "out of memory");
        return -1;
    }
    rec->data = f->data.data ? f->data.data : "";
    rec->len = f->data.len;
    rec->source = source;
    rec->id = id;
    rec->file = "-";
    rec->number = -1;
    return 1;
}

static int open_whole_files(winnow_reader *r, int kind)
{
    file_state *f = calloc(1, sizeof *f);
    if (!f) {
        wn_reader_set_error(r, "out of memory");
        return -1;
    }
    wn_buf_init(&f->data);
    wn_buf_init(&f->path);
    r->state = f;
    r->close_state = file_close;
    if (kind == 'd') return open_dir(r, f);
    r->next = kind == 's' ? stdin_next : one_file_next;
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

winnow_reader *winnow_reader_open(const char *path, size_t max_record_bytes)
{
    winnow_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    wn_buf_init(&r->url);
    wn_buf_init(&r->charset);
    wn_buf_init(&r->source);
    wn_buf_init(&r->id);
    wn_buf_init(&r->record_id);
    r->max_record = max_record_bytes ? max_record_bytes : WN_READER_DEFAULT_MAX;
    if (!path || !*path) {
        r->path = strdup("");
        wn_reader_set_error(r, "no input given (a file, a directory, a .warc[.gz], a .jsonl[.gz] or \"-\")");
        if (!r->path) { free(r); return NULL; }
        return r;
    }
    if (!(r->path = strdup(path))) {
        free(r);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        open_whole_files(r, 's');
        return r;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        wn_reader_set_error(r, "cannot open %s: %s", path, strerror(errno));
        return r;
    }
    if (S_ISDIR(st.st_mode)) open_whole_files(r, 'd');
    else if (is_warc_name(path)) wn_warc_open(r);
    else if (is_jsonl_name(path)) wn_jsonl_open(r);
    else open_whole_files(r, 'f');
    return r;
}

int winnow_reader_next(winnow_reader *r, winnow_record *rec)
{
    if (!r || !rec) return -1;
    memset(rec, 0, sizeof *rec);
    r->warning[0] = 0;
    if (r->error[0]) return -1; /* errors are final */
    if (!r->next) return 0;
    int got = r->next(r, rec);
    if (got < 0 && !r->error[0]) wn_reader_set_error(r, "%s: read failed", r->path);
    if (got <= 0) memset(rec, 0, sizeof *rec);
    return got;
}

const char *winnow_reader_error(const winnow_reader *r) { return r ? r->error : "no reader"; }

const char *winnow_reader_warning(const winnow_reader *r) { return r ? r->warning : ""; }

size_t winnow_reader_skipped(const winnow_reader *r) { return r ? r->skipped : 0; }

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
