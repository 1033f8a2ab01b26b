/* The site store's private side, shared by its four files: store.c (the
 * schema, opening, format upgrades, closing), store_check.c (checking a
 * file against its checksums), store_read.c (loading and listing sites)
 * and store_write.c (saving models). store.h says what the store does.
 *
 * The small failure and SQL helpers are static inline here rather than
 * functions of one file: every file calls them on nearly every line, by
 * the short names they had when the store was one file. */
#ifndef WN_SITE_STORE_INTERNAL_H
#define WN_SITE_STORE_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "store.h"
#include "sums.h"

struct wn_store {
    sqlite3 *db;
    int writable; /* opened to write, and the file passed its checks */
    int wal;      /* this connection put the file in WAL mode */
    int format;   /* 1: no checksums (read as it is), 2 */
    char *path;   /* named in every message */
    winnow_status status;
    char error[1024];
};

/* ---- failures ---- */

/* One line: a damaged name or SQLite's report can hold any byte. */
static inline void one_line(char *msg)
{
    for (unsigned char *c = (unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f) *c = *c == '\n' || *c == '\t' ? ' ' : '?';
}

static inline int fail(wn_store *s, winnow_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline int fail(wn_store *s, winnow_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    one_line(s->error);
    s->status = st;
    return -1;
}

static inline winnow_status status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
    case SQLITE_MISMATCH: return WINNOW_E_DB_DAMAGED;
    case SQLITE_READONLY: return WINNOW_E_DB_READONLY;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return WINNOW_E_DB_BUSY;
    case SQLITE_NOMEM: return WINNOW_E_NOMEM;
    /* the file or the disk, as opposed to the database in it */
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_FULL:
    case SQLITE_PERM: return WINNOW_E_IO;
    default: return WINNOW_E_DB;
    }
}

/* A failed SQLite call, worded by what it means. */
static inline int fail_sql(wn_store *s, const char *what)
{
    int rc = s->db ? sqlite3_extended_errcode(s->db) : SQLITE_NOMEM;
    const char *msg = s->db ? sqlite3_errmsg(s->db) : "out of memory";
    switch (status_of(rc)) {
    case WINNOW_E_DB_DAMAGED:
        return fail(s, WINNOW_E_DB_DAMAGED, "site database %s is damaged: %s: %s", s->path, what, msg);
    case WINNOW_E_DB_READONLY:
        return fail(s, WINNOW_E_DB_READONLY, "database is read-only: %s (%s: %s)", s->path, what, msg);
    case WINNOW_E_DB_BUSY:
        return fail(s, WINNOW_E_DB_BUSY, "%s: %s: another process held the database locked too long (%s)", s->path,
                    what, msg);
    case WINNOW_E_IO:
        /* said in plain words: SQLite's "database or disk is full" leaves the
         * reader to guess which, and "disk I/O error" which way it went */
        if ((rc & 0xff) == SQLITE_FULL)
            return fail(s, WINNOW_E_IO, "%s: %s: the disk is full (SQLite says: %s)", s->path, what, msg);
        if ((rc & 0xff) == SQLITE_IOERR)
            return fail(s, WINNOW_E_IO, "%s: %s: a read or write of the file failed (SQLite says: %s)", s->path, what,
                        msg);
        return fail(s, WINNOW_E_IO, "%s: %s: %s", s->path, what, msg);
    default: return fail(s, status_of(rc), "%s: %s: %s", s->path, what, msg);
    }
}

static inline int exec(wn_store *s, const char *sql, const char *what)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) return fail_sql(s, what);
    return 0;
}

static inline int prepare(wn_store *s, sqlite3_stmt **st, const char *sql, const char *what)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return fail_sql(s, what);
    }
    return 0;
}

/* First column of the first row as an integer (0 when there is no row). */
static inline int query_int(wn_store *s, const char *sql, long long *out, const char *what)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, sql, what) != 0) return -1;
    int rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail_sql(s, what);
}

/* ---- across the files ---- */

/* Problems found by a check: counted, the first kept for a message, each
 * passed to fn when there is one (store_check.c). */
typedef void (*problem_fn)(void *ctx, const char *what);

typedef struct problems {
    problem_fn fn;
    void *ctx;
    size_t count;
    char first[512];
} problems;

/* A site's `sites` row and its `sums` row, as wn_store_site_query() reads
 * them (store_read.c). */
#define SITE_COLUMNS                                                                                                   \
    "s.id, s.name, s.clock, s.pages, s.half_life, s.created, s.updated, u.nkeys, u.npages, u.body, u.head, "           \
    "u.site IS NOT NULL"

typedef struct site_head {
    int64_t id, created, updated;
    const char *name;
    double clock, pages, half_life;
    wn_site_sums sums;
    uint64_t head; /* as stored */
    int has_sums;
} site_head;

/* store.c: the schema SQLite keeps for a format, from an in-memory database. */
int wn_store_reference_schema(int format, char ***rows, size_t *n);

/* store_check.c: the checks the opener runs (a writer the whole file, a
 * reader the schema and the catalogue), and meta, which listing reads too. */
int wn_store_check_schema(wn_store *s, problems *pr);
int wn_store_read_meta(wn_store *s, problems *pr, uint64_t *heads);
int wn_store_check_catalogue(wn_store *s, problems *pr);
int wn_store_check_all(wn_store *s, problems *pr, wn_store_report *rep);

/* store_read.c: the sites query and its head columns, and one site loaded
 * (inside a transaction the caller holds; the upgrade and a merging save
 * load too). */
const char *wn_store_site_query(const wn_store *s, char *buf, size_t cap, const char *extra, const char *tail);
void wn_store_read_head(sqlite3_stmt *st, int col, site_head *h);
int wn_store_head_ok(const site_head *h);
int wn_store_load_site(wn_store *s, const char *site, wn_site_model **out);

/* store_write.c: a site's checksum row, and meta's sum of all heads (the
 * upgrade writes both too). */
int wn_store_write_meta_heads(wn_store *s);
int wn_store_write_sums(wn_store *s, int64_t id, const wn_site_sums *sums, uint64_t head);

#endif
