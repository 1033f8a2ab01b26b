/* Partials read back: the reader of the file (partial_format.h), its
 * check, and the merge of partials into a site database (partial.h). */
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

#define INFO_V1 WN_FIELD_END(winnow_partial_info, ce_pages)
#define MERGE_OPTIONS_V1 WN_FIELD_END(winnow_merge_options, commit_every)

/* ---- reading ---- */

/* The fuzz build (fuzz/fuzz_partial.c) reads past checksums that do not
 * match, so that the fuzzer's inputs reach the records behind them instead
 * of ending at the first sum; everything else is checked as always. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define SUM_MISMATCH(got, want) ((void)(got), (void)(want), 0)
#else
#define SUM_MISMATCH(got, want) ((got) != (want))
#endif

typedef struct reader {
    gzFile gz;
    const char *path;
    XXH3_state_t *file, *site;
    int in_site;         /* bytes read go into the site's checksum too */
    size_t sites, pages; /* read so far */
    size_t keys, ce_pages;
    char *last; /* the last site's name: the next must sort after it */
    char *url;  /* reading buffer */
    size_t url_cap;
    void *vec;
    size_t vec_cap;
    winnow_status status;
    char err[1024];
} reader;

static int rfail(reader *r, winnow_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rfail(reader *r, winnow_status st, const char *fmt, ...)
{
    int n = snprintf(r->err, sizeof r->err, "%s: ", r->path);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof r->err) vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    r->status = st;
    return -1;
}

static int damaged(reader *r, const char *what)
{
    return rfail(r, WINNOW_E_FORMAT,
                 "damaged partial file: %s (after %zu site%s; write it again with winnow learn "
                 "--partial)",
                 what, r->sites, r->sites == 1 ? "" : "s");
}

static int rd(reader *r, void *p, size_t n)
{
    unsigned char *d = p;
    size_t left = n;
    while (left) {
        unsigned chunk = left > (1u << 30) ? 1u << 30 : (unsigned)left;
        int got = gzread(r->gz, d, chunk);
        if (got <= 0) {
            int zerr = Z_OK;
            const char *msg = gzerror(r->gz, &zerr);
            if (zerr == Z_ERRNO) return rfail(r, WINNOW_E_IO, "cannot read: %s", strerror(errno));
            if (zerr != Z_OK && zerr != Z_BUF_ERROR) {
                char what[300];
                snprintf(what, sizeof what, "gzip: %s", msg);
                return damaged(r, what);
            }
            return damaged(r, "it ends too early (truncated)");
        }
        d += got;
        left -= (size_t)got;
    }
    XXH3_64bits_update(r->file, p, n);
    if (r->in_site) XXH3_64bits_update(r->site, p, n);
    return 0;
}

static int rd_u8(reader *r, uint8_t *v) { return rd(r, v, 1); }
static int rd_u32(reader *r, uint32_t *v)
{
    unsigned char x[4];
    if (rd(r, x, 4)) return -1;
    *v = (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 | (uint32_t)x[3] << 24;
    return 0;
}
static int rd_u64(reader *r, uint64_t *v)
{
    uint32_t lo, hi;
    if (rd_u32(r, &lo) || rd_u32(r, &hi)) return -1;
    *v = (uint64_t)hi << 32 | lo;
    return 0;
}

static int grow_to(void **p, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    void *q = realloc(*p, need);
    if (!q) return -1;
    *p = q;
    *cap = need;
    return 0;
}

static void reader_close(reader *r)
{
    if (r->gz) gzclose(r->gz);
    XXH3_freeState(r->file);
    XXH3_freeState(r->site);
    free(r->last);
    free(r->url);
    free(r->vec);
    memset(r, 0, sizeof *r);
}

/* Opens the file and reads its header. 0, or -1 (r->status, r->err). */
static int reader_open(reader *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->file = XXH3_createState();
    r->site = XXH3_createState();
    if (!r->file || !r->site) return rfail(r, WINNOW_E_NOMEM, "out of memory");
    XXH3_64bits_reset(r->file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return rfail(r, WINNOW_E_IO, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        close(fd);
        return rfail(r, WINNOW_E_IO, "is a directory, not a partial file");
    }
    if (!(r->gz = gzdopen(fd, "rb"))) {
        close(fd);
        return rfail(r, WINNOW_E_NOMEM, "out of memory");
    }
    gzbuffer(r->gz, 1 << 17);
    unsigned char head[16];
    int got = gzread(r->gz, head, sizeof head);
    if (got < 0) {
        int zerr;
        const char *msg = gzerror(r->gz, &zerr);
        if (zerr == Z_ERRNO) return rfail(r, WINNOW_E_IO, "cannot read: %s", strerror(errno));
        return rfail(r, WINNOW_E_FORMAT, "not a winnow partial file (gzip: %s)", msg);
    }
    if (got < 8 || memcmp(head, MAGIC, 8) != 0)
        return rfail(r, WINNOW_E_FORMAT, "not a winnow partial file (winnow learn --partial writes them)");
    if (got < 16) return damaged(r, "it ends in its header");
    uint32_t format = (uint32_t)head[8] | (uint32_t)head[9] << 8 | (uint32_t)head[10] << 16 | (uint32_t)head[11] << 24;
    uint32_t flags = (uint32_t)head[12] | (uint32_t)head[13] << 8 | (uint32_t)head[14] << 16 | (uint32_t)head[15] << 24;
    if (format != WN_PARTIAL_FORMAT)
        return rfail(r, WINNOW_E_FORMAT,
                     "partial file of format %u; this winnow reads format %d (learn the shard "
                     "again with this winnow)",
                     format, WN_PARTIAL_FORMAT);
    if (flags != 0)
        return rfail(r, WINNOW_E_FORMAT, "partial file with features this winnow does not know (flags %#x)", flags);
    XXH3_64bits_update(r->file, head, sizeof head);
    return 0;
}

/* The end record, and nothing after it. */
static int read_end(reader *r)
{
    uint64_t sites, pages, sum;
    if (rd_u64(r, &sites) || rd_u64(r, &pages)) return -1;
    uint64_t want = XXH3_64bits_digest(r->file);
    unsigned char x[8];
    int got = gzread(r->gz, x, 8);
    if (got != 8) return damaged(r, "it ends too early (truncated)");
    sum = 0;
    for (int i = 7; i >= 0; i--) sum = sum << 8 | x[i];
    if (SUM_MISMATCH(sum, want)) return damaged(r, "the file does not match its checksum");
    if (sites != r->sites || pages != r->pages) return damaged(r, "its end record counts other sites or pages");
    unsigned char extra;
    got = gzread(r->gz, &extra, 1);
    if (got != 0) return damaged(r, "bytes follow its end record");
    int zerr;
    gzerror(r->gz, &zerr);
    if (zerr != Z_OK && zerr != Z_BUF_ERROR) return damaged(r, "its gzip stream does not end cleanly");
    return 0;
}

/* The next site into *out, a journal-only model (NULL when not wanted:
 * checked and dropped). 1 a site, 0 the end (checked), -1 a failure.
 * Longer than the house's 150 lines on purpose: it reads one site record
 * field by field in the file's order (partial_format.h), each read next to
 * the bound it is checked against; split into helpers, a reader would have
 * to follow the record across them to see that every field is bounded
 * before it is used. */
static int read_site(reader *r, wn_site_model **out)
{
    if (out) *out = NULL;
    uint8_t tag;
    if (rd_u8(r, &tag)) return -1;
    if (tag == 'E') return read_end(r) == 0 ? 0 : -1;
    if (tag != 'S') return damaged(r, "an unknown record");
    XXH3_64bits_reset(r->site);
    XXH3_64bits_update(r->site, &tag, 1);
    r->in_site = 1;
    wn_site_model *m = NULL;
    char *name = NULL;
    uint32_t nlen, npages, nblocks, next_ce = 0;
    double half_life;
    uint64_t bits;
    if (rd_u32(r, &nlen)) goto failed;
    if (nlen == 0 || nlen > NAME_MAX_BYTES) {
        damaged(r, "a site name of an impossible length");
        goto failed;
    }
    if (!(name = malloc(nlen + 1))) {
        rfail(r, WINNOW_E_NOMEM, "out of memory");
        goto failed;
    }
    if (rd(r, name, nlen)) goto failed;
    name[nlen] = '\0';
    if (strlen(name) != nlen) {
        damaged(r, "a site name holds a NUL byte");
        goto failed;
    }
    if (r->last && strcmp(r->last, name) >= 0) {
        damaged(r, "its sites are out of order");
        goto failed;
    }
    if (rd_u64(r, &bits)) goto failed;
    memcpy(&half_life, &bits, sizeof half_life);
    if (!(half_life > 0) || half_life > 1e300) {
        damaged(r, "a site's half-life is not a positive number");
        goto failed;
    }
    if (rd_u32(r, &npages)) goto failed;
    if (!(m = wn_site_model_new(name, half_life))) {
        rfail(r, WINNOW_E_NOMEM, "out of memory");
        goto failed;
    }
    m->journal_only = 1;
    m->journal.on = 1;
    wn_journal *j = &m->journal;
    for (uint32_t p = 0; p < npages; p++) {
        uint64_t imatch;
        uint32_t ulen, ce_page, nkeys;
        if (rd_u64(r, &imatch) || rd_u32(r, &ulen)) goto failed;
        if (ulen > URL_MAX_BYTES + 1) {
            damaged(r, "a URL of an impossible length");
            goto failed;
        }
        if (ulen && grow_to((void **)&r->url, &r->url_cap, ulen) != 0) {
            rfail(r, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
        if (ulen && rd(r, r->url, ulen - 1)) goto failed;
        if (ulen) {
            r->url[ulen - 1] = '\0';
            if (strlen(r->url) != ulen - 1) {
                damaged(r, "a URL holds a NUL byte");
                goto failed;
            }
        }
        const char *url = ulen ? r->url : NULL;
        if (rd_u32(r, &ce_page) || rd_u32(r, &nkeys)) goto failed;
        if (ce_page != NO_CE_PAGE) {
            /* training pages come in order: 0, 1, 2, ... */
            if (ce_page != next_ce || ce_page >= WN_CE_TRAINING_PAGES) {
                damaged(r, "a ContentExtractor page out of place");
                goto failed;
            }
            next_ce++;
        }
        if (nkeys > KEYS_MAX) {
            damaged(r, "a page with an impossible number of fingerprints");
            goto failed;
        }
        if (!out) {
            /* checking only: read and drop */
            for (uint32_t k = 0; k < nkeys; k++) {
                unsigned char kb[10];
                char sample[SAMPLE_MAX + 1];
                if (rd(r, kb, 10)) goto failed;
                if (kb[0] < WN_KEY_BLOCK || kb[0] > WN_KEY_TABLE_CHUNK || kb[9] > SAMPLE_MAX) {
                    damaged(r, "a fingerprint of an unknown kind");
                    goto failed;
                }
                if (kb[9] && rd(r, sample, kb[9])) goto failed;
                if (memchr(sample, '\0', kb[9])) {
                    damaged(r, "a sample holds a NUL byte");
                    goto failed;
                }
            }
            r->keys += nkeys;
            r->pages++;
            continue;
        }
        if (wn_journal_page_begin(j, nkeys, url) != 0) {
            rfail(r, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
        for (uint32_t k = 0; k < nkeys; k++) {
            unsigned char kb[10];
            char sample[SAMPLE_MAX + 1];
            if (rd(r, kb, 10)) goto failed;
            uint64_t key = 0;
            for (int b = 8; b >= 1; b--) key = key << 8 | kb[b];
            if (kb[0] < WN_KEY_BLOCK || kb[0] > WN_KEY_TABLE_CHUNK || kb[9] > SAMPLE_MAX) {
                damaged(r, "a fingerprint of an unknown kind");
                goto failed;
            }
            if (kb[9] && rd(r, sample, kb[9])) goto failed;
            sample[kb[9]] = '\0';
            if (strlen(sample) != kb[9]) {
                damaged(r, "a sample holds a NUL byte");
                goto failed;
            }
            wn_journal_key_put(j, k, kb[0], key, kb[9] ? sample : NULL, kb[9]);
        }
        wn_journal_page_end(j, imatch, url, ce_page, nkeys);
        r->keys += nkeys;
        r->pages++;
    }
    if (rd_u32(r, &nblocks)) goto failed;
    for (uint32_t b = 0; b < nblocks; b++) {
        uint8_t page;
        uint64_t path;
        uint32_t vlen;
        if (rd_u8(r, &page) || rd_u64(r, &path) || rd_u32(r, &vlen)) goto failed;
        if (page >= next_ce) {
            damaged(r, "a ContentExtractor block of no training page");
            goto failed;
        }
        if (vlen > VEC_MAX_BYTES) {
            damaged(r, "a ContentExtractor block of an impossible size");
            goto failed;
        }
        if (grow_to(&r->vec, &r->vec_cap, vlen + 1) != 0) {
            rfail(r, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
        if (rd(r, r->vec, vlen)) goto failed;
        wn_ce_vec v;
        if (wn_ce_vec_unpack(r->vec, vlen, &v) != 0) {
            damaged(r, "a ContentExtractor block that does not unpack");
            goto failed;
        }
        int rc = out ? wn_ce_model_put_block(&m->ce, page, path, &v) : 0;
        wn_ce_vec_free(&v);
        if (rc != 0) {
            rfail(r, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
    }
    m->ce.pages = next_ce;
    r->ce_pages += next_ce;
    r->in_site = 0;
    uint64_t want = XXH3_64bits_digest(r->site), sum;
    if (rd_u64(r, &sum)) goto failed;
    if (SUM_MISMATCH(sum, want)) {
        char what[NAME_MAX_BYTES / 64 + 128];
        snprintf(what, sizeof what, "site %.200s does not match its checksum", name);
        damaged(r, what);
        goto failed;
    }
    free(r->last);
    r->last = name;
    r->sites++;
    if (out)
        *out = m;
    else
        wn_site_model_free(m);
    return 1;
failed:
    r->in_site = 0;
    free(name);
    wn_site_model_free(m);
    return -1;
}

winnow_status winnow_partial_check(const char *path, winnow_partial_info *info, char *err, size_t errcap)
{
    char local[1024];
    if (!err || !errcap) {
        err = local;
        errcap = sizeof local;
    }
    err[0] = '\0';
    if (info) {
        size_t size;
        memcpy(&size, info, sizeof size);
        if (size < INFO_V1 || size > WN_STRUCT_MAX) {
            snprintf(err, errcap, "winnow_partial_info.struct_size is not sizeof (winnow_partial_info)");
            return WINNOW_E_ARG;
        }
    }
    if (!path || !*path) {
        snprintf(err, errcap, "no partial file given");
        return WINNOW_E_ARG;
    }
    reader r;
    int rc = reader_open(&r, path);
    while (rc == 0) {
        int got = read_site(&r, NULL);
        if (got < 0) rc = -1;
        if (got <= 0) break;
    }
    winnow_status st = rc == 0 ? WINNOW_OK : r.status;
    if (rc != 0)
        snprintf(err, errcap, "%s", r.err);
    else if (info) {
        winnow_partial_info out = { sizeof out, WN_PARTIAL_FORMAT, r.sites, r.pages, r.keys, r.ce_pages };
        wn_struct_out(info, &out, sizeof out, INFO_V1);
    }
    reader_close(&r);
    return st;
}

/* ---- merging ---- */

winnow_status winnow_merge_options_default(winnow_merge_options *o, size_t struct_size)
{
    if (!o) return WINNOW_E_ARG;
    winnow_merge_options d = { sizeof d, 10000 };
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, MERGE_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

/* Saves the batch and frees its models. */
static int save_batch(wn_store *s, wn_site_model **batch, size_t *n, winnow_status *status, char *err, size_t errcap)
{
    if (!*n) return 0;
    wn_site_model **use = calloc(*n, sizeof *use);
    int rc = use ? wn_store_save(s, batch, *n, use) : -1;
    if (!use) {
        *status = WINNOW_E_NOMEM;
        snprintf(err, errcap, "out of memory");
    } else if (rc != 0) {
        *status = wn_store_status(s) == WINNOW_OK ? WINNOW_E_DB : wn_store_status(s);
        snprintf(err, errcap, "%s", wn_store_error(s));
    }
    for (size_t i = 0; i < *n; i++) {
        wn_site_model_free(batch[i]);
        if (use) wn_site_model_free(use[i]);
    }
    free(use);
    *n = 0;
    return rc;
}

int wn_partial_merge(wn_store *s, const char *const *paths, size_t n, size_t commit_every, wn_merge_counts *out,
                     winnow_status *status, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    *status = WINNOW_OK;
    err[0] = '\0';
    if (!commit_every) commit_every = 10000;
    /* every part read and checked whole before anything is written */
    for (size_t i = 0; i < n; i++) {
        winnow_partial_info info = { sizeof info };
        winnow_status st = winnow_partial_check(paths[i], &info, err, errcap);
        if (st != WINNOW_OK) {
            *status = st;
            return -1;
        }
        out->pages += info.pages;
    }
    out->parts = n;
    reader *rs = calloc(n + 1, sizeof *rs);
    wn_site_model **cur = calloc(n + 1, sizeof *cur);
    wn_site_model **batch = NULL;
    size_t nbatch = 0, capbatch = 0, batch_pages = 0;
    int rc = -1;
    if (!rs || !cur) {
        *status = WINNOW_E_NOMEM;
        snprintf(err, errcap, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (reader_open(&rs[i], paths[i]) != 0 || read_site(&rs[i], &cur[i]) < 0) {
            *status = rs[i].status;
            snprintf(err, errcap, "%s", rs[i].err);
            goto done;
        }
    }
    for (;;) {
        /* the first name in order among the parts' current sites */
        const char *name = NULL;
        for (size_t i = 0; i < n; i++)
            if (cur[i] && (!name || strcmp(cur[i]->name, name) < 0)) name = cur[i]->name;
        if (!name) break;
        wn_site_model *dst = NULL;
        if (wn_store_load(s, name, &dst) != 0) {
            *status = wn_store_status(s) == WINNOW_OK ? WINNOW_E_DB : wn_store_status(s);
            snprintf(err, errcap, "%s", wn_store_error(s));
            goto done;
        }
        if (!dst) {
            /* new: the half-life of the first part that has it */
            for (size_t i = 0; i < n && !dst; i++)
                if (cur[i] && !strcmp(cur[i]->name, name) && !(dst = wn_site_model_new(name, cur[i]->half_life))) {
                    *status = WINNOW_E_NOMEM;
                    snprintf(err, errcap, "out of memory");
                    goto done;
                }
        }
        /* recorded, so that a save that finds another writer's meanwhile counts both */
        dst->journal.on = 1;
        out->sites++;
        char *key = strdup(name);
        if (!key) {
            wn_site_model_free(dst);
            *status = WINNOW_E_NOMEM;
            snprintf(err, errcap, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            if (!cur[i] || strcmp(cur[i]->name, key) != 0) continue;
            size_t counted = 0;
            if (wn_site_model_replay(dst, cur[i], &counted) != 0) {
                free(key);
                wn_site_model_free(dst);
                *status = WINNOW_E_NOMEM;
                snprintf(err, errcap, "out of memory");
                goto done;
            }
            out->counted += counted;
            out->duplicates += cur[i]->journal.npages - counted;
            batch_pages += cur[i]->journal.npages;
            wn_site_model_free(cur[i]);
            cur[i] = NULL;
            if (read_site(&rs[i], &cur[i]) < 0) {
                /* changed since it was checked */
                free(key);
                wn_site_model_free(dst);
                *status = rs[i].status;
                snprintf(err, errcap, "%s", rs[i].err);
                goto done;
            }
        }
        free(key);
        if (nbatch == capbatch) {
            size_t cap = capbatch ? capbatch * 2 : 64;
            wn_site_model **b = realloc(batch, cap * sizeof *b);
            if (!b) {
                wn_site_model_free(dst);
                *status = WINNOW_E_NOMEM;
                snprintf(err, errcap, "out of memory");
                goto done;
            }
            batch = b;
            capbatch = cap;
        }
        batch[nbatch++] = dst;
        if (batch_pages >= commit_every) {
            if (save_batch(s, batch, &nbatch, status, err, errcap) != 0) goto done;
            batch_pages = 0;
        }
    }
    if (save_batch(s, batch, &nbatch, status, err, errcap) != 0) goto done;
    rc = 0;
done:
    for (size_t i = 0; i < nbatch; i++) wn_site_model_free(batch[i]);
    free(batch);
    for (size_t i = 0; rs && cur && i < n; i++) {
        wn_site_model_free(cur[i]);
        if (rs[i].file || rs[i].gz) reader_close(&rs[i]);
    }
    free(rs);
    free(cur);
    return rc;
}
