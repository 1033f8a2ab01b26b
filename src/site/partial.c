/* Partials in memory and their writing (partial.h); the file's format is
 * in partial_format.h, its reading, checking and merging in
 * partial_read.c. */
#include "partial.h"
#include "partial_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>
#include <zlib.h>

#include "model.h"
#include "site_api.h"
#include "../util/buf.h"
#include "../util/url.h"
#include "../util/structs.h"

/* ---- the partial in memory ---- */

struct winnow_partial {
    double half_life;
    winnow_site **table; /* open addressing by name; cap is a power of two */
    size_t count, cap;
    char error[1024];
};

static void perr(winnow_partial *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(winnow_partial *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->error, sizeof p->error, fmt, ap);
    va_end(ap);
}

winnow_status winnow_partial_new(double half_life, winnow_partial **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!(half_life >= 0) || half_life > 1e300) return WINNOW_E_ARG;
    winnow_partial *p = calloc(1, sizeof *p);
    if (!p) return WINNOW_E_NOMEM;
    p->half_life = half_life > 0 ? half_life : WN_DEFAULT_HALF_LIFE;
    *out = p;
    return WINNOW_OK;
}

void winnow_partial_free(winnow_partial *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->cap; i++) winnow_site_free(p->table[i]);
    free(p->table);
    free(p);
}

const char *winnow_partial_error(const winnow_partial *p) { return p ? p->error : ""; }

static size_t name_slot(const char *name, size_t cap) { return (size_t)XXH3_64bits(name, strlen(name)) & (cap - 1); }

winnow_status winnow_partial_site(winnow_partial *p, const char *name, winnow_site **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!p) return WINNOW_E_ARG;
    p->error[0] = '\0';
    if (!name || !*name || strlen(name) > NAME_MAX_BYTES) {
        perr(p, "a site needs a name of 1 to %u bytes", NAME_MAX_BYTES);
        return WINNOW_E_ARG;
    }
    if (p->cap) {
        size_t h = name_slot(name, p->cap);
        while (p->table[h]) {
            if (!strcmp(winnow_site_name(p->table[h]), name)) {
                *out = p->table[h];
                return WINNOW_OK;
            }
            h = (h + 1) & (p->cap - 1);
        }
    }
    if ((p->count + 1) * 2 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        winnow_site **t = calloc(cap, sizeof *t);
        if (!t) {
            perr(p, "out of memory");
            return WINNOW_E_NOMEM;
        }
        for (size_t i = 0; i < p->cap; i++) {
            if (!p->table[i]) continue;
            size_t h = name_slot(winnow_site_name(p->table[i]), cap);
            while (t[h]) h = (h + 1) & (cap - 1);
            t[h] = p->table[i];
        }
        free(p->table);
        p->table = t;
        p->cap = cap;
    }
    wn_site_model *m = wn_site_model_new(name, p->half_life);
    winnow_site *s = m ? wn_site_wrap(m) : NULL;
    if (!s) {
        wn_site_model_free(m);
        perr(p, "out of memory");
        return WINNOW_E_NOMEM;
    }
    m->journal_only = 1;
    m->journal.on = 1;
    size_t h = name_slot(name, p->cap);
    while (p->table[h]) h = (h + 1) & (p->cap - 1);
    p->table[h] = s;
    p->count++;
    *out = s;
    return WINNOW_OK;
}

winnow_status wn_partial_site_for(winnow_partial *p, const char *site, const char *url, winnow_site **out)
{
    p->error[0] = '\0';
    char host[1024];
    if (!site) {
        size_t n = wn_url_site(url, host, sizeof host);
        if (!n) {
            perr(p, "the page has no URL with a host to name its site (give the site's name)");
            return WINNOW_E_ARG;
        }
        site = host;
    }
    return winnow_partial_site(p, site, out);
}

void wn_partial_fail(winnow_partial *p, const char *detail) { perr(p, "%s", detail); }

size_t winnow_partial_site_count(const winnow_partial *p)
{
    size_t n = 0;
    for (size_t i = 0; p && i < p->cap; i++) n += p->table[i] && wn_site_unwrap(p->table[i])->journal.npages > 0;
    return n;
}

size_t winnow_partial_page_count(const winnow_partial *p)
{
    size_t n = 0;
    for (size_t i = 0; p && i < p->cap; i++)
        if (p->table[i]) n += wn_site_unwrap(p->table[i])->journal.npages;
    return n;
}

/* ---- writing ---- */

typedef struct writer {
    gzFile gz;
    XXH3_state_t *file, *site;
    wn_buf b;
    int failed; /* a write failed: errno or the gzip error tells */
    char why[256];
} writer;

static void put_u8(wn_buf *b, unsigned v) { wn_buf_putc(b, (char)(unsigned char)v); }
static void put_u32(wn_buf *b, uint32_t v)
{
    unsigned char x[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    wn_buf_put(b, x, 4);
}
static void put_u64(wn_buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}
static void put_f64(wn_buf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(b, bits);
}

/* Hands the buffer to gzip, through the checksums (the site's while a site
 * record is being written). */
static void flush(writer *w, int in_site)
{
    if (w->failed || !w->b.len) {
        wn_buf_clear(&w->b);
        return;
    }
    if (w->b.oom) {
        w->failed = 1;
        snprintf(w->why, sizeof w->why, "out of memory");
        return;
    }
    XXH3_64bits_update(w->file, w->b.data, w->b.len);
    if (in_site) XXH3_64bits_update(w->site, w->b.data, w->b.len);
    const char *d = w->b.data;
    size_t left = w->b.len;
    while (left) {
        unsigned chunk = left > (1u << 30) ? 1u << 30 : (unsigned)left;
        int got = gzwrite(w->gz, d, chunk);
        if (got <= 0) {
            int zerr;
            const char *msg = gzerror(w->gz, &zerr);
            snprintf(w->why, sizeof w->why, "%s", zerr == Z_ERRNO ? strerror(errno) : msg);
            w->failed = 1;
            break;
        }
        d += got;
        left -= (size_t)got;
    }
    wn_buf_clear(&w->b);
}

static void write_site(writer *w, const wn_site_model *m)
{
    const wn_journal *j = &m->journal;
    XXH3_64bits_reset(w->site);
    put_u8(&w->b, 'S');
    size_t nlen = strlen(m->name);
    put_u32(&w->b, (uint32_t)nlen);
    wn_buf_put(&w->b, m->name, nlen);
    put_f64(&w->b, m->half_life);
    put_u32(&w->b, (uint32_t)j->npages);
    for (size_t p = 0; p < j->npages && !w->failed; p++) {
        const wn_journal_page *jp = &j->pages[p];
        put_u64(&w->b, jp->imatch);
        const char *url = jp->url ? j->text + jp->url - 1 : NULL;
        size_t ulen = url ? strlen(url) : 0;
        if (ulen > URL_MAX_BYTES) {
            url = NULL;
            ulen = 0;
        } /* never learned: too long to be a URL */
        put_u32(&w->b, url ? (uint32_t)ulen + 1 : 0);
        if (url) wn_buf_put(&w->b, url, ulen);
        put_u32(&w->b, jp->ce_page);
        put_u32(&w->b, jp->nkeys);
        for (uint32_t k = 0; k < jp->nkeys; k++) {
            const wn_journal_key *jk = &j->keys[jp->key0 + k];
            const char *sample = jk->sample ? j->text + jk->sample - 1 : NULL;
            size_t slen = sample ? strlen(sample) : 0;
            put_u8(&w->b, jk->kind);
            put_u64(&w->b, jk->key);
            put_u8(&w->b, (unsigned)slen);
            wn_buf_put(&w->b, sample, slen);
        }
        if (w->b.len >= (1u << 20)) flush(w, 1);
    }
    put_u32(&w->b, (uint32_t)m->ce.count);
    void *vec = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < m->ce.count && !w->failed; i++) {
        const wn_ce_block *blk = &m->ce.blocks[i];
        size_t need = wn_ce_vec_pack(&blk->vec, vec, cap);
        if (need > cap) {
            void *nv = realloc(vec, need);
            if (!nv) {
                w->failed = 1;
                snprintf(w->why, sizeof w->why, "out of memory");
                break;
            }
            vec = nv;
            cap = need;
            wn_ce_vec_pack(&blk->vec, vec, cap);
        }
        put_u8(&w->b, blk->page);
        put_u64(&w->b, blk->path);
        put_u32(&w->b, (uint32_t)need);
        wn_buf_put(&w->b, vec, need);
        if (w->b.len >= (1u << 20)) flush(w, 1);
    }
    free(vec);
    flush(w, 1);
    put_u64(&w->b, XXH3_64bits_digest(w->site));
    flush(w, 0);
}

static int cmp_site(const void *a, const void *b)
{
    return strcmp(winnow_site_name(*(winnow_site *const *)a), winnow_site_name(*(winnow_site *const *)b));
}

winnow_status winnow_partial_write(winnow_partial *p, const char *path)
{
    if (!p) return WINNOW_E_ARG;
    p->error[0] = '\0';
    if (!path || !*path) {
        perr(p, "no path to write the partial to");
        return WINNOW_E_ARG;
    }
    /* the sites with pages, by name */
    winnow_site **sites = malloc((p->count + 1) * sizeof *sites);
    size_t tlen = strlen(path) + 64;
    char *tmp = malloc(tlen);
    writer w = { 0 };
    wn_buf_init(&w.b);
    w.file = XXH3_createState();
    w.site = XXH3_createState();
    if (!sites || !tmp || !w.file || !w.site) {
        free(sites), free(tmp), XXH3_freeState(w.file), XXH3_freeState(w.site);
        perr(p, "out of memory");
        return WINNOW_E_NOMEM;
    }
    size_t n = 0, pages = 0;
    for (size_t i = 0; i < p->cap; i++) {
        if (!p->table[i]) continue;
        const wn_site_model *m = wn_site_unwrap(p->table[i]);
        if (!m->journal.npages) continue;
        sites[n++] = p->table[i];
        pages += m->journal.npages;
    }
    qsort(sites, n, sizeof *sites, cmp_site);

    /* a hidden file beside the target, renamed into place when whole */
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path) + 1 : 0;
    int fd = -1;
    for (unsigned attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, tlen, "%.*s.%s.%ld-%u.tmp", dir_len, path, path + dir_len, (long)getpid(), attempt);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    winnow_status st = WINNOW_OK;
    if (fd < 0) {
        perr(p, "cannot write %s: %s", path, strerror(errno));
        st = WINNOW_E_IO;
        goto done;
    }
    int fd2 = dup(fd);
    if (fd2 < 0 || !(w.gz = gzdopen(fd2, "wb6"))) {
        if (fd2 >= 0) close(fd2);
        perr(p, "cannot write %s: %s", path, strerror(errno ? errno : ENOMEM));
        st = WINNOW_E_IO;
        goto done;
    }
    gzbuffer(w.gz, 1 << 17);
    XXH3_64bits_reset(w.file);
    wn_buf_put(&w.b, MAGIC, sizeof MAGIC);
    put_u32(&w.b, WN_PARTIAL_FORMAT);
    put_u32(&w.b, 0);
    flush(&w, 0);
    for (size_t i = 0; i < n && !w.failed; i++) write_site(&w, wn_site_unwrap(sites[i]));
    put_u8(&w.b, 'E');
    put_u64(&w.b, n);
    put_u64(&w.b, pages);
    flush(&w, 0);
    if (!w.failed) {
        /* the last checksum is outside what it sums: written straight */
        put_u64(&w.b, XXH3_64bits_digest(w.file));
        if (gzwrite(w.gz, w.b.data, (unsigned)w.b.len) != (int)w.b.len) {
            int zerr;
            const char *msg = gzerror(w.gz, &zerr);
            snprintf(w.why, sizeof w.why, "%s", zerr == Z_ERRNO ? strerror(errno) : msg);
            w.failed = 1;
        }
    }
    errno = 0;
    int zrc = gzclose(w.gz);
    if (!w.failed && zrc != Z_OK) {
        w.failed = 1;
        snprintf(w.why, sizeof w.why, "%s", zrc == Z_ERRNO && errno ? strerror(errno) : "gzip failed to finish");
    }
    if (!w.failed && fsync(fd) != 0) {
        w.failed = 1;
        snprintf(w.why, sizeof w.why, "%s", strerror(errno));
    }
    if (close(fd) != 0 && !w.failed) {
        w.failed = 1;
        snprintf(w.why, sizeof w.why, "%s", strerror(errno));
    }
    fd = -1;
    if (!w.failed && rename(tmp, path) != 0) {
        w.failed = 1;
        snprintf(w.why, sizeof w.why, "%s", strerror(errno));
    }
    if (w.failed) {
        unlink(tmp);
        perr(p, "cannot write %s: %s", path, w.why);
        st = strcmp(w.why, "out of memory") ? WINNOW_E_IO : WINNOW_E_NOMEM;
    }
done:
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    wn_buf_free(&w.b);
    XXH3_freeState(w.file);
    XXH3_freeState(w.site);
    free(tmp);
    free(sites);
    return st;
}
