/* Directory outputs: unique file names, files that appear whole, and the
 * manifest that ties every output back to its input.
 *
 * Names. A page's name is its own: the file stem for a whole file ("ID" for
 * ID.html), the container's name without its extension and the record
 * number for a WARC or JSONL record ("crawl-00042" for record 42 of
 * crawl.warc.gz). When an earlier page of the run already has the name
 * (ASCII case ignored, for case-insensitive file systems) the page gets the
 * first free "NAME~2", "NAME~3", ... Names are given as pages are read, in
 * input order under the inputs' lock, so they never depend on which thread
 * extracts what.
 *
 * Files. Each output is written to a new hidden file in the same directory
 * and renamed into place when complete: a reader of OUT never sees half a
 * page, and a failed write leaves no file. The rename waits until the page's
 * manifest line is written (lines go out in input order), so a run killed
 * at any moment leaves no output that its manifest does not list: the next
 * run into OUT removes every file of it (guard.c).
 *
 * Manifest. OUT/manifest.tsv: a header line, then one line per input page in
 * input order (lines of pages done out of order by other threads wait), see
 * cli.h. It is written in place, each line flushed as it is complete, so a
 * run that is killed still leaves the record of what it wrote (its last line
 * may be cut; every line before it is whole). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- names ---- */

typedef struct name_slot {
    char *name;    /* NULL: free slot */
    unsigned next; /* the suffix to try first when this name comes again (0: 2) */
} name_slot;

struct cli_names {
    name_slot *slots;
    size_t cap, count; /* cap is a power of two */
};

static unsigned char lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the lower-cased bytes */
    for (; *s; s++) h = (h ^ lower((unsigned char)*s)) * 1099511628211ull;
    return h;
}

static int name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lower((unsigned char)*a) != lower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* The slot holding s, or the free slot where it would go. */
static name_slot *name_find(cli_names *n, const char *s)
{
    size_t i = (size_t)name_hash(s) & (n->cap - 1);
    while (n->slots[i].name && !name_eq(n->slots[i].name, s)) i = (i + 1) & (n->cap - 1);
    return &n->slots[i];
}

static int names_grow(cli_names *n)
{
    size_t cap = n->cap ? n->cap * 2 : 256;
    name_slot *old = n->slots;
    size_t old_cap = n->cap;
    n->slots = calloc(cap, sizeof *n->slots);
    if (!n->slots) {
        n->slots = old;
        return -1;
    }
    n->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name) *name_find(n, old[i].name) = old[i];
    free(old);
    return 0;
}

cli_names *cli_names_new(void)
{
    cli_names *n = calloc(1, sizeof *n);
    if (n && names_grow(n) != 0) {
        free(n);
        return NULL;
    }
    return n;
}

void cli_names_free(cli_names *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->cap; i++) free(n->slots[i].name);
    free(n->slots);
    free(n);
}

/* Adds s (taking it); its slot. NULL on OOM (s freed). */
static name_slot *names_add(cli_names *n, char *s)
{
    if ((n->count + 1) * 2 > n->cap && names_grow(n) != 0) {
        free(s);
        return NULL;
    }
    name_slot *slot = name_find(n, s);
    slot->name = s;
    slot->next = 0;
    n->count++;
    return slot;
}

/* Longest prefix of s of at most max bytes that does not cut a UTF-8 sequence. */
static size_t utf8_prefix(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) return n;
    n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

char *cli_names_take(cli_names *n, const char *base)
{
    /* room for "~N", the longest extension and the temporary file's decoration */
    char clean[CLI_NAME_MAX + 1];
    size_t len = utf8_prefix(base, CLI_NAME_MAX);
    memcpy(clean, base, len);
    clean[len] = '\0';
    for (char *p = clean; *p; p++)
        if (*p == '/') *p = '_'; /* never a path: stems and record numbers hold no '/', but be sure */
    if (!*clean) snprintf(clean, sizeof clean, "page");

    name_slot *slot = name_find(n, clean);
    if (!slot->name) {
        char *s = strdup(clean);
        if (!s || !names_add(n, s)) return NULL; /* names_add frees s when it fails */
        return strdup(clean);
    }
    /* taken: the first free NAME~k, starting where the last search for this
     * name ended (so many pages of one name cost no more than one each) */
    unsigned k = slot->next ? slot->next : 2;
    char cand[CLI_NAME_MAX + 16];
    for (;; k++) {
        snprintf(cand, sizeof cand, "%s~%u", clean, k);
        if (!name_find(n, cand)->name) break;
    }
    slot->next = k + 1; /* before names_add: a resize moves the slots */
    char *s = strdup(cand);
    if (!s || !names_add(n, s)) return NULL;
    return strdup(cand);
}

/* ---- whole files ---- */

FILE *cli_tmp_create(const char *path, char **tmp)
{
    *tmp = NULL;
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    size_t cap = strlen(path) + 64;
    char *t = malloc(cap);
    if (!t) {
        errno = ENOMEM;
        return NULL;
    }
    /* hidden, and never an output name (those do not end in ".tmp") */
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        snprintf(t, cap, "%.*s.%s.%ld-%u.tmp", (int)dir_len, path, base, (long)getpid(), attempt);
        int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == EEXIST) continue; /* left over by a crashed run with our pid */
            break;
        }
        FILE *f = fdopen(fd, "wb");
        if (!f) {
            int err = errno;
            close(fd);
            unlink(t);
            errno = err;
            break;
        }
        *tmp = t;
        return f;
    }
    free(t);
    return NULL;
}

int cli_tmp_close(FILE *f, char *tmp)
{
    int rc = 0, err = 0;
    errno = 0;
    if (fflush(f) != 0 || ferror(f)) {
        rc = -1;
        err = errno ? errno : EIO;
    }
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        err = errno;
    }
    if (rc != 0) {
        unlink(tmp);
        free(tmp);
        errno = err;
    }
    return rc;
}

int cli_tmp_commit(FILE *f, char *tmp, const char *path, int keep)
{
    if (cli_tmp_close(f, tmp) != 0) return -1;
    int err = keep && rename(tmp, path) != 0 ? errno : 0;
    if (err || !keep) unlink(tmp);
    free(tmp);
    if (err) errno = err;
    return err ? -1 : 0;
}

/* ---- manifest ---- */

/* A line waiting for its turn, with the file to rename once it is out. */
typedef struct pending_line {
    char *line;   /* NULL: a free slot */
    char *staged; /* or NULL */
    char *path;
} pending_line;

struct cli_manifest {
    char *path;
    FILE *f;
    int failed; /* a write failed: errno in err */
    int err;
    size_t next;           /* the sequence number of the next line to write */
    pending_line *pending; /* lines done out of order: pending[seq % cap] */
    size_t cap;            /* a power of two; holds lines next .. next + cap - 1 */
    pthread_mutex_t lock;
};

cli_manifest *cli_manifest_open(const char *dir)
{
    cli_manifest *m = calloc(1, sizeof *m);
    size_t n = strlen(dir) + 16;
    if (!m || !(m->path = malloc(n))) {
        free(m);
        fprintf(stderr, "winnow: out of memory\n");
        return NULL;
    }
    snprintf(m->path, n, "%s%smanifest.tsv", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/");
    m->f = fopen(m->path, "w");
    if (!m->f) {
        fprintf(stderr, "winnow: cannot write %s: %s\n", m->path, strerror(errno));
        free(m->path);
        free(m);
        return NULL;
    }
    pthread_mutex_init(&m->lock, NULL);
    if (fputs("output\tinput\trecord\trecord_id\turl\tstatus\tmessage\n", m->f) == EOF || fflush(m->f) != 0) {
        m->failed = 1;
        m->err = errno;
    }
    return m;
}

/* A field with its tabs, line ends and backslashes escaped (\t, \n, \r, \\). */
static void put_field(FILE *f, const char *s, int last)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '\t': fputs("\\t", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\\': fputs("\\\\", f); break;
        default: putc(*s, f);
        }
    }
    putc(last ? '\n' : '\t', f);
}

static char *format_line(const cli_entry *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    char rec[32] = "";
    if (e->record >= 0) snprintf(rec, sizeof rec, "%lld", e->record);
    put_field(f, e->output, 0);
    put_field(f, e->file, 0);
    put_field(f, rec, 0);
    put_field(f, e->record_id, 0);
    put_field(f, e->url, 0);
    put_field(f, winnow_status_name(e->status), 0);
    put_field(f, e->message, 1);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Writes a line, then renames its file into place. A failed rename loses
 * that page's output, which the line already lists: said at once, and the
 * manifest goes at the end of the run (cli_manifest_close). */
static void write_line(cli_manifest *m, pending_line *p)
{
    if (p->line && !m->failed && (fputs(p->line, m->f) == EOF || fflush(m->f) != 0)) {
        m->failed = 1;
        m->err = errno;
    }
    if (p->staged && rename(p->staged, p->path) != 0) {
        int err = errno;
        unlink(p->staged);
        cli_report("winnow: cannot write %s: %s\n", p->path, strerror(err));
        if (!m->failed) {
            m->failed = 1;
            m->err = err;
        }
    }
    free(p->line);
    free(p->staged);
    free(p->path);
    memset(p, 0, sizeof *p);
}

/* Makes room for line seq in the ring (seq >= m->next). */
static int ring_fit(cli_manifest *m, size_t seq)
{
    if (seq - m->next < m->cap) return 0;
    size_t cap = m->cap ? m->cap : 64;
    while (seq - m->next >= cap) cap *= 2;
    pending_line *ring = calloc(cap, sizeof *ring);
    if (!ring) return -1;
    for (size_t s = m->next; s < m->next + m->cap; s++) ring[s & (cap - 1)] = m->pending[s & (m->cap - 1)];
    free(m->pending);
    m->pending = ring;
    m->cap = cap;
    return 0;
}

void cli_manifest_add(cli_manifest *m, size_t seq, const cli_entry *e)
{
    if (!m) return;
    pending_line p = { format_line(e), NULL, NULL };
    if (e->staged && (!(p.staged = strdup(e->staged)) || !(p.path = strdup(e->path)))) {
        /* no memory to wait: the file goes into place now */
        if (rename(e->staged, e->path) != 0) unlink(e->staged);
        free(p.staged);
        p.staged = NULL;
    }
    pthread_mutex_lock(&m->lock);
    int lost = 0; /* the line cannot be written: its file still goes into place */
    if (!p.line) {
        m->failed = 1;
        m->err = ENOMEM;
        lost = 1;
    } else if (seq < m->next) {
        lost = 1; /* a second line for one page: a bug, but never a reason to lose the file */
    } else if (seq == m->next) {
        write_line(m, &p);
        m->next++;
        while (m->cap && m->pending[m->next & (m->cap - 1)].line) {
            write_line(m, &m->pending[m->next & (m->cap - 1)]);
            m->next++;
        }
    } else if (ring_fit(m, seq) != 0) {
        m->failed = 1;
        m->err = ENOMEM;
        lost = 1;
    } else {
        pending_line *slot = &m->pending[seq & (m->cap - 1)];
        free(slot->line); /* a second line for one page, as above: the later one stays */
        slot->line = NULL;
        write_line(m, slot);
        *slot = p;
    }
    if (lost) {
        free(p.line);
        p.line = NULL;
        write_line(m, &p);
    }
    pthread_mutex_unlock(&m->lock);
}

int cli_manifest_close(cli_manifest *m)
{
    if (!m) return 0;
    /* every page has its line by now; were one missing, the later lines
     * still go out in order */
    for (size_t i = 0; i < m->cap; i++) write_line(m, &m->pending[(m->next + i) & (m->cap - 1)]);
    int failed = m->failed;
    errno = 0;
    int rc = fclose(m->f) != 0 ? -1 : 0;
    int err = failed ? m->err : errno;
    if (rc != 0 || failed) {
        /* said even when the run was stopped already (by a full disk, say):
         * that message names the page that could not be written, not the
         * manifest. A manifest of an earlier run would now describe other
         * outputs: it goes too */
        int stale = unlink(m->path) == 0;
        cli_report("winnow: cannot write %s: %s; the run has no manifest%s\n", m->path, strerror(err ? err : EIO),
                   stale ? " (an earlier run's was removed)" : "");
        failed = 1;
    }
    free(m->pending);
    free(m->path);
    pthread_mutex_destroy(&m->lock);
    free(m);
    return failed ? -1 : 0;
}

void cli_manifest_page(cli_manifest *m, const cli_page *p, const char *output, winnow_status s, const char *msg)
{
    cli_entry e = { output ? output : "", p->file, p->record, p->record_id, p->url, s, msg ? msg : "", NULL, NULL };
    cli_manifest_add(m, p->seq, &e);
}
