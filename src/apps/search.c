/* A search index of pages' main text (winnow_apps.h): SQLite FTS5 ranked
 * with BM25, pages keyed by URL (or name) so that indexing again replaces,
 * and I-Match duplicates stored once in the index (Ma, Goharian &
 * Chowdhury index a duplicate's text once).
 *
 * Schema: `pages` holds every page put (text included, so that a
 * duplicate can take its original's place when that goes); `fts` is an
 * external-content FTS5 table over pages(title, body) holding only the
 * pages that are not duplicates (dup_of IS NULL). */
#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "winnow_apps.h"
#include "../util/structs.h"

#define INDEX_APP_ID 0x776e6978 /* "wnix" */
#define INDEX_FORMAT 1
#define PAGE_V1 WN_FIELD_END(winnow_index_page, text_len)
#define COUNTS_V1 WN_FIELD_END(winnow_index_counts, indexed)
#define SEARCH_V1 WN_FIELD_END(winnow_search_options, snippet_words)

struct winnow_index {
    sqlite3 *db;
    char *path;
    int writable;
    int in_tx;
    char error[1024];
};

static const char schema[] =
    "CREATE TABLE pages(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT, url TEXT, title TEXT, "
    "site TEXT, body TEXT, imatch INTEGER NOT NULL, dup_of INTEGER);"
    "CREATE INDEX pages_imatch ON pages(imatch) WHERE dup_of IS NULL;"
    "CREATE INDEX pages_dup ON pages(dup_of) WHERE dup_of IS NOT NULL;"
    "CREATE VIRTUAL TABLE fts USING fts5(title, body, content='pages', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2');";

static winnow_status status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return WINNOW_OK;
    case SQLITE_NOMEM: return WINNOW_E_NOMEM;
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT:
    case SQLITE_MISMATCH: return WINNOW_E_DB_DAMAGED;
    case SQLITE_NOTADB: return WINNOW_E_DB_FORMAT;
    case SQLITE_READONLY: return WINNOW_E_DB_READONLY;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return WINNOW_E_DB_BUSY;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_FULL:
    case SQLITE_PERM: return WINNOW_E_IO;
    default: return WINNOW_E_DB;
    }
}

static winnow_status fail(winnow_index *ix, winnow_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static winnow_status fail(winnow_index *ix, winnow_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ix->error, sizeof ix->error, fmt, ap);
    va_end(ap);
    return st;
}

/* An SQLite failure while doing `what`, in words; damage says so. */
static winnow_status db_fail(winnow_index *ix, const char *what)
{
    int rc = sqlite3_extended_errcode(ix->db);
    winnow_status st = status_of(rc);
    if (st == WINNOW_OK) st = WINNOW_E_DB;
    if (st == WINNOW_E_DB_DAMAGED || st == WINNOW_E_DB_FORMAT)
        return fail(ix, WINNOW_E_DB_DAMAGED, "index %s is damaged (%s: %s); index the pages again into a new file",
                    ix->path, what, sqlite3_errmsg(ix->db));
    return fail(ix, st, "index %s: %s: %s", ix->path, what, sqlite3_errmsg(ix->db));
}

static int exec(winnow_index *ix, const char *sql) { return sqlite3_exec(ix->db, sql, NULL, NULL, NULL); }

static int query_int(winnow_index *ix, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            *out = 0;
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

winnow_status winnow_index_open(const char *path, winnow_index_access mode, winnow_index **out, char *err,
                                size_t errcap)
{
    char local[1024];
    if (!err || !errcap) {
        err = local;
        errcap = sizeof local;
    }
    err[0] = '\0';
    if (!out) {
        snprintf(err, errcap, "no handle to fill");
        return WINNOW_E_ARG;
    }
    *out = NULL;
    if (!path || !*path) {
        snprintf(err, errcap, "no index path given");
        return WINNOW_E_ARG;
    }
    if (mode != WINNOW_INDEX_READ && mode != WINNOW_INDEX_WRITE) {
        snprintf(err, errcap, "access is neither WINNOW_INDEX_READ nor WINNOW_INDEX_WRITE");
        return WINNOW_E_ARG;
    }
    winnow_index *ix = calloc(1, sizeof *ix);
    if (!ix || !(ix->path = strdup(path))) {
        free(ix);
        snprintf(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    ix->writable = mode == WINNOW_INDEX_WRITE;
    winnow_status st = WINNOW_OK;
    int found = access(path, F_OK) == 0;
    int flags = SQLITE_OPEN_NOMUTEX;
    if (!ix->writable) {
        if (!found) {
            st = fail(ix, WINNOW_E_IO, "no index at %s (make one with 'winnow index SOURCES --db %s')", path, path);
            goto failed;
        }
        flags |= SQLITE_OPEN_READONLY;
    } else {
        char *dir = dir_of(path);
        int dir_ok = dir && access(dir, W_OK) == 0;
        int dir_errno = errno;
        if (found && access(path, W_OK) != 0)
            st = fail(ix, WINNOW_E_DB_READONLY, "index %s is read-only: %s", path, strerror(errno));
        else if (!dir_ok)
            st = fail(ix, found ? WINNOW_E_DB_READONLY : WINNOW_E_IO,
                      "cannot %s index %s: folder %s cannot be written: %s", found ? "write" : "create", path,
                      dir ? dir : "?", strerror(dir_errno));
        free(dir);
        if (st != WINNOW_OK) goto failed;
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    }
    if (sqlite3_open_v2(path, &ix->db, flags, NULL) != SQLITE_OK) {
        st = fail(ix, ix->db ? WINNOW_E_IO : WINNOW_E_NOMEM, "cannot open index %s: %s", path,
                  ix->db ? sqlite3_errmsg(ix->db) : "out of memory");
        goto failed;
    }
    sqlite3_busy_timeout(ix->db, 30000);
    sqlite3_extended_result_codes(ix->db, 1);
    long long app = 0, ver = 0, tables = 0;
    if (query_int(ix, "PRAGMA application_id", &app) != SQLITE_OK ||
        query_int(ix, "PRAGMA user_version", &ver) != SQLITE_OK ||
        query_int(ix, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK) {
        int rc = sqlite3_extended_errcode(ix->db);
        if ((rc & 0xff) == SQLITE_NOTADB)
            st = fail(ix, WINNOW_E_DB_FORMAT, "%s is not a winnow index (not an SQLite file)", path);
        else
            st = db_fail(ix, "reading the header");
        goto failed;
    }
    if (tables > 0 && app != INDEX_APP_ID) {
        st = fail(ix, WINNOW_E_DB_FORMAT, "%s is an SQLite database but not a winnow index", path);
        goto failed;
    }
    if (tables > 0 && ver != INDEX_FORMAT) {
        st = fail(ix, WINNOW_E_DB_FORMAT, "%s has index format %lld; this winnow reads format %d", path, ver,
                  INDEX_FORMAT);
        goto failed;
    }
    if (tables == 0 && !ix->writable) {
        st = fail(ix, WINNOW_E_DB_FORMAT, "%s is not a winnow index (an empty file)", path);
        goto failed;
    }
    if (ix->writable && sqlite3_db_readonly(ix->db, "main") == 1) {
        st = fail(ix, WINNOW_E_DB_READONLY, "index %s is read-only (SQLite could open it for reading only)", path);
        goto failed;
    }
    if (tables > 0 && ix->writable) {
        /* nothing is written into a damaged file */
        sqlite3_stmt *q = NULL;
        int rc = sqlite3_prepare_v2(ix->db, "PRAGMA quick_check", -1, &q, NULL);
        const char *first = NULL;
        char msg[512] = "";
        if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
            first = (const char *)sqlite3_column_text(q, 0);
            snprintf(msg, sizeof msg, "%s", first ? first : "");
        }
        sqlite3_finalize(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE && rc != SQLITE_OK) {
            st = db_fail(ix, "checking the file");
            goto failed;
        }
        if (strcmp(msg, "ok") != 0) {
            st = fail(ix, WINNOW_E_DB_DAMAGED, "index %s is damaged (SQLite's check: %s); nothing was written", path,
                      msg);
            goto failed;
        }
    }
    if (tables == 0) {
        char sql[128];
        snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d;", INDEX_APP_ID, INDEX_FORMAT);
        if (exec(ix, "BEGIN IMMEDIATE") != SQLITE_OK || exec(ix, schema) != SQLITE_OK || exec(ix, sql) != SQLITE_OK) {
            int rc = sqlite3_extended_errcode(ix->db);
            const char *m = sqlite3_errmsg(ix->db);
            if (strstr(m, "fts5"))
                st = fail(ix, WINNOW_E_DB, "cannot create index %s: this SQLite has no FTS5 (%s)", path, m);
            else
                st = fail(ix, status_of(rc) ? status_of(rc) : WINNOW_E_DB, "cannot create index %s: %s", path, m);
            sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
            goto failed;
        }
        if (exec(ix, "COMMIT") != SQLITE_OK) {
            st = db_fail(ix, "creating the tables");
            goto failed;
        }
    }
    /* FTS5 merges its segments in the page cache: 64 MB instead of 2 */
    if (ix->writable) exec(ix, "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536");
    *out = ix;
    return WINNOW_OK;
failed:
    snprintf(err, errcap, "%s", ix->error);
    sqlite3_close(ix->db);
    free(ix->path);
    free(ix);
    return st;
}

winnow_status winnow_index_commit(winnow_index *ix)
{
    if (!ix) return WINNOW_E_ARG;
    if (!ix->in_tx) return WINNOW_OK;
    if (exec(ix, "COMMIT") != SQLITE_OK) return db_fail(ix, "committing");
    ix->in_tx = 0;
    return WINNOW_OK;
}

void winnow_index_close(winnow_index *ix)
{
    if (!ix) return;
    if (ix->in_tx && exec(ix, "COMMIT") != SQLITE_OK) exec(ix, "ROLLBACK");
    sqlite3_close(ix->db);
    free(ix->path);
    free(ix);
}

const char *winnow_index_error(const winnow_index *ix) { return ix ? ix->error : ""; }

static int begin(winnow_index *ix)
{
    if (ix->in_tx) return SQLITE_OK;
    int rc = exec(ix, "BEGIN IMMEDIATE");
    if (rc == SQLITE_OK) ix->in_tx = 1;
    return rc;
}

static sqlite3_stmt *prep(winnow_index *ix, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
    return st;
}

/* Runs a statement of one optional int64 parameter to its end. */
static int run1(winnow_index *ix, const char *sql, long long a, long long b)
{
    sqlite3_stmt *st = prep(ix, sql);
    if (!st) return -1;
    int n = sqlite3_bind_parameter_count(st);
    if (n >= 1) sqlite3_bind_int64(st, 1, a);
    if (n >= 2) sqlite3_bind_int64(st, 2, b);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* The page's row into the FTS index, or out of it (its stored values). */
static int fts_row(winnow_index *ix, long long id, int add)
{
    const char *sql = add ? "INSERT INTO fts(rowid, title, body) SELECT id, title, body FROM pages WHERE id = ?1"
                          : "INSERT INTO fts(fts, rowid, title, body) SELECT 'delete', id, title, body FROM pages "
                            "WHERE id = ?1";
    return run1(ix, sql, id, 0);
}

/* Removes page `id`; when it was indexed and has duplicates, the first of
 * them is indexed in its place and the others point to it. */
static int remove_row(winnow_index *ix, long long id, int indexed)
{
    if (indexed) {
        if (fts_row(ix, id, 0) != 0) return -1;
        long long heir = 0;
        sqlite3_stmt *st = prep(ix, "SELECT min(id) FROM pages WHERE dup_of = ?1");
        if (!st) return -1;
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) heir = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        if (rc != SQLITE_ROW) return -1;
        if (heir) {
            if (run1(ix, "UPDATE pages SET dup_of = NULL WHERE id = ?1", heir, 0) != 0 ||
                run1(ix, "UPDATE pages SET dup_of = ?1 WHERE dup_of = ?2", heir, id) != 0 || fts_row(ix, heir, 1) != 0)
                return -1;
        }
    }
    return run1(ix, "DELETE FROM pages WHERE id = ?1", id, 0);
}

static int same_text(sqlite3_stmt *st, int col, const char *s, size_t len)
{
    const unsigned char *v = sqlite3_column_text(st, col);
    size_t n = (size_t)sqlite3_column_bytes(st, col);
    if (!s) return v == NULL || n == 0;
    return v && n == len && memcmp(v, s, len) == 0;
}

winnow_status winnow_index_put(winnow_index *ix, const winnow_index_page *page, winnow_index_outcome *outcome,
                               char *dup_of, size_t dup_cap)
{
    if (!ix) return WINNOW_E_ARG;
    ix->error[0] = '\0';
    winnow_index_page p = { sizeof p };
    if (!page || wn_struct_in(&p, sizeof p, page, PAGE_V1) != 0)
        return fail(ix, WINNOW_E_ARG, "winnow_index_page.struct_size is not sizeof (winnow_index_page)");
    if (!p.key || !*p.key) return fail(ix, WINNOW_E_ARG, "a page needs a key (its URL or name)");
    if (!p.text && p.text_len) return fail(ix, WINNOW_E_ARG, "text is NULL with a length");
    if (!ix->writable) return fail(ix, WINNOW_E_ARG, "index %s was opened for reading", ix->path);
    if (dup_of && dup_cap) dup_of[0] = '\0';
    const char *text = p.text ? p.text : "";
    uint64_t sig = winnow_text_imatch(text, p.text_len);
    long long imatch = (long long)sig;
    if (begin(ix) != SQLITE_OK) return db_fail(ix, "starting a transaction");

    winnow_index_outcome what = WINNOW_INDEX_ADDED;
    /* the page under this key now */
    sqlite3_stmt *st =
        prep(ix, "SELECT id, dup_of IS NULL, imatch, url, title, site, body, name FROM pages WHERE key = ?1");
    if (!st) return db_fail(ix, "reading a page");
    sqlite3_bind_text(st, 1, p.key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    long long old = 0;
    int old_indexed = 0, unchanged = 0;
    if (rc == SQLITE_ROW) {
        old = sqlite3_column_int64(st, 0);
        old_indexed = sqlite3_column_int(st, 1);
        unchanged = sqlite3_column_int64(st, 2) == imatch && same_text(st, 3, p.url, p.url ? strlen(p.url) : 0) &&
                    same_text(st, 4, p.title, p.title ? strlen(p.title) : 0) &&
                    same_text(st, 5, p.site, p.site ? strlen(p.site) : 0) && same_text(st, 6, text, p.text_len) &&
                    same_text(st, 7, p.name, p.name ? strlen(p.name) : 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_fail(ix, "reading a page");
    if (unchanged) {
        if (outcome) *outcome = WINNOW_INDEX_UNCHANGED;
        return WINNOW_OK;
    }
    if (old) {
        if (remove_row(ix, old, old_indexed) != 0) return db_fail(ix, "replacing a page");
        what = WINNOW_INDEX_REPLACED;
    }
    /* an indexed page with the same text (I-Match) */
    long long orig = 0;
    if (sig) {
        st = prep(ix, "SELECT id, key FROM pages WHERE imatch = ?1 AND dup_of IS NULL ORDER BY id LIMIT 1");
        if (!st) return db_fail(ix, "looking for duplicates");
        sqlite3_bind_int64(st, 1, imatch);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            orig = sqlite3_column_int64(st, 0);
            if (dup_of && dup_cap) snprintf(dup_of, dup_cap, "%s", (const char *)sqlite3_column_text(st, 1));
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_fail(ix, "looking for duplicates");
    }
    st = prep(
        ix,
        "INSERT INTO pages(key, name, url, title, site, body, imatch, dup_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!st) return db_fail(ix, "adding a page");
    sqlite3_bind_text(st, 1, p.key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, p.name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, p.url, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, p.title, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, p.site, -1, SQLITE_STATIC);
    sqlite3_bind_text64(st, 6, text, p.text_len, SQLITE_STATIC, SQLITE_UTF8);
    sqlite3_bind_int64(st, 7, imatch);
    if (orig)
        sqlite3_bind_int64(st, 8, orig);
    else
        sqlite3_bind_null(st, 8);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return db_fail(ix, "adding a page");
    long long id = sqlite3_last_insert_rowid(ix->db);
    if (orig)
        what = WINNOW_INDEX_DUPLICATE;
    else if (fts_row(ix, id, 1) != 0)
        return db_fail(ix, "indexing a page");
    if (outcome) *outcome = what;
    return WINNOW_OK;
}

winnow_status winnow_index_remove(winnow_index *ix, const char *key, int *removed)
{
    if (removed) *removed = 0;
    if (!ix || !key) return WINNOW_E_ARG;
    ix->error[0] = '\0';
    if (!ix->writable) return fail(ix, WINNOW_E_ARG, "index %s was opened for reading", ix->path);
    if (begin(ix) != SQLITE_OK) return db_fail(ix, "starting a transaction");
    sqlite3_stmt *st = prep(ix, "SELECT id, dup_of IS NULL FROM pages WHERE key = ?1");
    if (!st) return db_fail(ix, "reading a page");
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    long long id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    int indexed = rc == SQLITE_ROW ? sqlite3_column_int(st, 1) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_fail(ix, "reading a page");
    if (id && remove_row(ix, id, indexed) != 0) return db_fail(ix, "removing a page");
    if (removed) *removed = id != 0;
    return WINNOW_OK;
}

winnow_status winnow_index_get_counts(winnow_index *ix, winnow_index_counts *c)
{
    if (!ix || !c) return WINNOW_E_ARG;
    ix->error[0] = '\0';
    winnow_index_counts r = { sizeof r };
    if (query_int(ix, "SELECT count(*) FROM pages", &r.pages) != SQLITE_OK ||
        query_int(ix, "SELECT count(*) FROM pages WHERE dup_of IS NULL", &r.indexed) != SQLITE_OK)
        return db_fail(ix, "counting pages");
    return wn_struct_out(c, &r, sizeof r, COUNTS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_search_options_default(winnow_search_options *o, size_t struct_size)
{
    winnow_search_options d = { sizeof d, 10, 0, 16 };
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, SEARCH_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

/* A plain query as FTS5 syntax: its words (runs of ASCII letters and
 * digits and of any non-ASCII bytes), each quoted, joined by OR. NULL
 * when it has no word; *oom on failure to allocate. */
static char *plain_query(const char *q, int *oom)
{
    size_t n = strlen(q);
    char *out = malloc(n * 6 + 16);
    *oom = !out;
    if (!out) return NULL;
    size_t len = 0, words = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)q[i];
        int word = c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
        if (!word) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n) {
            unsigned char d = (unsigned char)q[j];
            if (!(d >= 0x80 || (d >= '0' && d <= '9') || ((d | 0x20) >= 'a' && (d | 0x20) <= 'z'))) break;
            j++;
        }
        if (words++) {
            memcpy(out + len, " OR ", 4);
            len += 4;
        }
        out[len++] = '"';
        memcpy(out + len, q + i, j - i);
        len += j - i;
        out[len++] = '"';
        i = j;
    }
    out[len] = '\0';
    if (!words) {
        free(out);
        return NULL;
    }
    return out;
}

static const char *col_text(sqlite3_stmt *st, int c)
{
    const unsigned char *v = sqlite3_column_text(st, c);
    return v ? (const char *)v : "";
}

winnow_status winnow_index_search(winnow_index *ix, const char *query, const winnow_search_options *opt,
                                  winnow_hit_fn fn, void *ctx)
{
    if (!ix) return WINNOW_E_ARG;
    ix->error[0] = '\0';
    winnow_search_options o;
    winnow_search_options_default(&o, sizeof o);
    if (opt && wn_struct_in(&o, sizeof o, opt, SEARCH_V1) != 0)
        return fail(ix, WINNOW_E_ARG, "winnow_search_options.struct_size is not sizeof (winnow_search_options)");
    if (!query || !fn) return fail(ix, WINNOW_E_ARG, "no query or no callback");
    if (o.snippet_words < 1 || o.snippet_words > 64) return fail(ix, WINNOW_E_ARG, "snippet_words must be 1 to 64");
    char *match = NULL;
    if (o.raw) {
        const char *s = query;
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) return fail(ix, WINNOW_E_ARG, "empty query");
        match = strdup(query);
        if (!match) return fail(ix, WINNOW_E_NOMEM, "out of memory");
    } else {
        int oom = 0;
        match = plain_query(query, &oom);
        if (oom) return fail(ix, WINNOW_E_NOMEM, "out of memory");
        if (!match) return fail(ix, WINNOW_E_ARG, "the query has no word to search for");
    }
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT p.key, p.name, p.url, p.title, p.site, snippet(fts, 1, '[', ']', '...', %d), bm25(fts) AS s, "
             "(SELECT count(*) FROM pages d WHERE d.dup_of = p.id) "
             "FROM fts JOIN pages p ON p.id = fts.rowid WHERE fts MATCH ?1 ORDER BY s, p.id LIMIT ?2",
             o.snippet_words);
    sqlite3_stmt *st = NULL;
    winnow_status res = WINNOW_OK;
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK) {
        res = db_fail(ix, "searching");
        free(match);
        return res;
    }
    sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, o.limit > (size_t)INT64_MAX ? INT64_MAX : (sqlite3_int64)o.limit);
    size_t rank = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        winnow_hit h = { sizeof h };
        h.rank = ++rank;
        h.score = -sqlite3_column_double(st, 6);
        h.key = col_text(st, 0);
        h.name = col_text(st, 1);
        h.url = col_text(st, 2);
        h.title = col_text(st, 3);
        h.site = col_text(st, 4);
        h.snippet = col_text(st, 5);
        h.duplicates = sqlite3_column_int64(st, 7);
        if (fn(ctx, &h) != 0) {
            rc = SQLITE_DONE;
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        const char *m = sqlite3_errmsg(ix->db);
        if ((rc & 0xff) == SQLITE_ERROR && o.raw &&
            (strstr(m, "fts5") || strstr(m, "syntax") || strstr(m, "no such column")))
            res = fail(ix, WINNOW_E_ARG, "the query is not valid FTS5 syntax: %s", m);
        else
            res = db_fail(ix, "searching");
    }
    sqlite3_finalize(st);
    free(match);
    return res;
}
