/* Whole-file pages: the readers for a directory (listed, sorted, each page
 * read whole and gunzipped when it is *.gz), for one file and for stdin.
 * Apart from the record-at-a-time WARC and JSONL readers because a page
 * here is one file's bytes, handed out whole (winnow_reader_take gives the
 * buffer away). reader.c opens them through the wn_ functions below. */
#include "input/reader_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ======================================================================
 * Whole-file pages: a directory, one file, stdin
 * ====================================================================== */

/* A page of a directory, or a problem met while listing it (reported
 * where the entry would have come). */
typedef struct dir_entry {
    char *rel; /* path below the directory */
    uint64_t size;
    char *problem; /* NULL for a page */
} dir_entry;

typedef struct file_state {
    dir_entry *entries; /* directory: pages sorted by relative path in byte order */
    size_t count, cap, next;
    int done;    /* one file or stdin: the page was handed out */
    wn_in *in;   /* one file or stdin: the stream the page is read from (owned) */
    wn_buf data; /* page bytes, reused from page to page */
    wn_buf raw;  /* a gzip file's bytes as stored */
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
            if (fd < 0)
                wn_reader_set_warning(r, "cannot open %s: %s; skipped", path, strerror(errno));
            else
                wn_reader_set_warning(r, "%s: not a regular file; skipped", path);
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
int wn_is_page_name(const char *name)
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
        return add_entry(f, rel, 0, msg) == 0
                   ? 0
                   : (wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory listing %s", r->name), -1);
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
        if (!wn_is_page_name(name)) continue;
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
        return add_entry(f, rel, 0, msg) == 0
                   ? 0
                   : (wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory listing %s", r->name), -1);
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

int wn_open_dir(winnow_reader *r, file_state *f)
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
    if (is_stdin)
        wn_reader_str(&r->id, "stdin", 5);
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

file_state *wn_new_file_state(winnow_reader *r)
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
int wn_open_stream_page(winnow_reader *r, wn_in *in)
{
    file_state *f = wn_new_file_state(r);
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
