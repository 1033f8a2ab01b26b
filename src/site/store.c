#include "store.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sums.h"

struct wn_store {
    sqlite3 *db;
    int writable;      /* opened to write, and the file passed its checks */
    int wal;           /* this connection put the file in WAL mode */
    int format;        /* 1: no checksums (read as it is), 2 */
    char *path;        /* named in every message */
    winnow_status status;
    char error[1024];
};

/* Format 1's tables; format 2 adds `sums`. The texts are what SQLite keeps
 * in sqlite_master, compared on every open (schema_matches). */
static const char schema_v1[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sites("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
    "  clock REAL NOT NULL, pages REAL NOT NULL, half_life REAL NOT NULL,"
    "  created INTEGER NOT NULL, updated INTEGER NOT NULL);"
    /* kind: 1 block text, 2 path+block text, 3 text unit chunk, 4 table chunk */
    "CREATE TABLE IF NOT EXISTS keys("
    "  site INTEGER NOT NULL, kind INTEGER NOT NULL, key INTEGER NOT NULL,"
    "  df REAL NOT NULL, t REAL NOT NULL, sample TEXT,"
    "  PRIMARY KEY(site, kind, key)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS pages("
    "  site INTEGER NOT NULL, imatch INTEGER NOT NULL, t REAL NOT NULL, url TEXT,"
    "  PRIMARY KEY(site, imatch)) WITHOUT ROWID;"
    /* ContentExtractor training blocks of the first 30 pages; FastCE's
     * preparation phase runs on them when a CE method is first used */
    "CREATE TABLE IF NOT EXISTS ce_pages("
    "  site INTEGER NOT NULL, page INTEGER NOT NULL, imatch INTEGER NOT NULL,"
    "  PRIMARY KEY(site, page)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS ce_blocks("
    "  site INTEGER NOT NULL, page INTEGER NOT NULL, path INTEGER NOT NULL, vec BLOB NOT NULL);"
    "CREATE INDEX IF NOT EXISTS ce_blocks_site ON ce_blocks(site);";

/* A site's checksums (sums.h): row counts, the sum of its rows' hashes and
 * the head checksum over its `sites` row and these. */
static const char schema_v2_sums[] =
    "CREATE TABLE IF NOT EXISTS sums("
    "  site INTEGER PRIMARY KEY, nkeys INTEGER NOT NULL, npages INTEGER NOT NULL,"
    "  body INTEGER NOT NULL, head INTEGER NOT NULL);";

/* ---- failures ---- */

/* One line: a damaged name or SQLite's report can hold any byte. */
static void one_line(char *msg)
{
    for (unsigned char *c = (unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f) *c = *c == '\n' || *c == '\t' ? ' ' : '?';
}

static int fail(wn_store *s, winnow_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(wn_store *s, winnow_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    one_line(s->error);
    s->status = st;
    return -1;
}

static winnow_status status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_CORRUPT: case SQLITE_NOTADB: case SQLITE_FORMAT: case SQLITE_MISMATCH: return WINNOW_E_DB_DAMAGED;
    case SQLITE_READONLY: return WINNOW_E_DB_READONLY;
    case SQLITE_BUSY: case SQLITE_LOCKED: return WINNOW_E_DB_BUSY;
    case SQLITE_NOMEM: return WINNOW_E_NOMEM;
    /* the file or the disk, as opposed to the database in it */
    case SQLITE_IOERR: case SQLITE_CANTOPEN: case SQLITE_FULL: case SQLITE_PERM: return WINNOW_E_IO;
    default: return WINNOW_E_DB;
    }
}

/* A failed SQLite call, worded by what it means. */
static int fail_sql(wn_store *s, const char *what)
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
    default:
        return fail(s, status_of(rc), "%s: %s: %s", s->path, what, msg);
    }
}

static int exec(wn_store *s, const char *sql, const char *what)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) return fail_sql(s, what);
    return 0;
}

static int prepare(wn_store *s, sqlite3_stmt **st, const char *sql, const char *what)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return fail_sql(s, what);
    }
    return 0;
}

/* First column of the first row as an integer (0 when there is no row). */
static int query_int(wn_store *s, const char *sql, long long *out, const char *what)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, sql, what) != 0) return -1;
    int rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail_sql(s, what);
}

/* ---- opening ---- */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* The file format versions in an SQLite header: bytes 18 (write) and 19
 * (read), 1 for rollback-journal mode, 2 for WAL mode; 0, 0 when unread. */
static void header_versions(const char *path, int *write, int *read)
{
    unsigned char h[20];
    *write = *read = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    if (fread(h, 1, sizeof h, f) == sizeof h) {
        *write = h[18];
        *read = h[19];
    }
    fclose(f);
}

/* The file's header says WAL mode. */
static int wal_header(const char *path)
{
    int w, r;
    header_versions(path, &w, &r);
    return w == 2 && r == 2;
}

static int exists(const char *path, const char *suffix)
{
    char buf[4200];
    snprintf(buf, sizeof buf, "%s%s", path, suffix);
    return access(buf, F_OK) == 0;
}

/* "file:PATH?immutable=1" with the characters URIs reserve escaped. */
static char *immutable_uri(const char *path)
{
    size_t n = strlen(path);
    char *u = malloc(n * 3 + 32);
    if (!u) return NULL;
    char *p = u + sprintf(u, "file:");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("/._-~", *c))
            *p++ = (char)*c;
        else
            p += sprintf(p, "%%%02X", *c);
    }
    strcpy(p, "?immutable=1");
    return u;
}

/* The schema SQLite keeps for a format, from an in-memory database. */
static int reference_schema(int format, char ***rows, size_t *n)
{
    sqlite3 *mem = NULL;
    sqlite3_stmt *st = NULL;
    *rows = NULL;
    *n = 0;
    int ok = sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
             sqlite3_exec(mem, schema_v1, NULL, NULL, NULL) == SQLITE_OK &&
             (format < 2 || sqlite3_exec(mem, schema_v2_sums, NULL, NULL, NULL) == SQLITE_OK) &&
             sqlite3_prepare_v2(mem,
                                "SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') "
                                "FROM sqlite_master ORDER BY name",
                                -1, &st, NULL) == SQLITE_OK;
    size_t cap = 0;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **r = realloc(*rows, cap * sizeof *r);
            if (!r) { ok = 0; break; }
            *rows = r;
        }
        (*rows)[*n] = strdup((const char *)sqlite3_column_text(st, 0));
        if (!(*rows)[(*n)++]) ok = 0;
    }
    sqlite3_finalize(st);
    sqlite3_close(mem);
    return ok ? 0 : -1;
}

typedef void (*problem_fn)(void *ctx, const char *what);

typedef struct problems {
    problem_fn fn;
    void *ctx;
    size_t count;
    char first[512];
} problems;

static void problem(problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    one_line(buf); /* SQLite's check writes several lines */
    if (!p->count++) snprintf(p->first, sizeof p->first, "%s", buf);
    if (p->fn) p->fn(p->ctx, buf);
}

/* The tables and indexes are exactly the format's. */
static int check_schema(wn_store *s, problems *pr)
{
    char **want;
    size_t nwant;
    if (reference_schema(s->format, &want, &nwant) != 0) {
        for (size_t i = 0; i < nwant; i++) free(want[i]);
        free(want);
        return fail(s, WINNOW_E_NOMEM, "out of memory");
    }
    sqlite3_stmt *st;
    if (prepare(s, &st,
                "SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') FROM sqlite_master "
                "ORDER BY name",
                "reading the schema") != 0) {
        for (size_t i = 0; i < nwant; i++) free(want[i]);
        free(want);
        return -1;
    }
    size_t i = 0;
    int rc, differs = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *have = (const char *)sqlite3_column_text(st, 0);
        if (i >= nwant || !have || strcmp(have, want[i]) != 0) differs = 1;
        i++;
    }
    sqlite3_finalize(st);
    for (size_t k = 0; k < nwant; k++) free(want[k]);
    free(want);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading the schema");
    if (differs || i != nwant) problem(pr, "the schema (tables and indexes) is not format %d's", s->format);
    return 0;
}

/* meta holds the format's name and (format 2) the sum of all head checksums. */
static int read_meta(wn_store *s, problems *pr, uint64_t *heads)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, "SELECT key, value FROM meta ORDER BY key", "reading meta") != 0) return -1;
    int rc, rows = 0, format_ok = 0, heads_ok = s->format < 2;
    *heads = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
        rows++;
        if (!k || !v) continue;
        if (!strcmp(k, "format")) format_ok = !strcmp(v, "winnow-sites");
        else if (!strcmp(k, "sites") && s->format >= 2 && strlen(v) == 16 && strspn(v, "0123456789abcdef") == 16) {
            *heads = strtoull(v, NULL, 16);
            heads_ok = 1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading meta");
    if (!format_ok || !heads_ok || rows != (s->format >= 2 ? 2 : 1))
        problem(pr, "the table meta does not hold what format %d keeps there", s->format);
    return 0;
}

#define SITE_COLUMNS                                                                                            \
    "s.id, s.name, s.clock, s.pages, s.half_life, s.created, s.updated, u.nkeys, u.npages, u.body, u.head, " \
    "u.site IS NOT NULL"

/* "SELECT SITE_COLUMNS FROM sites s, its sums u, TAIL": format 1 has no sums. */
static const char *site_query(const wn_store *s, char *buf, size_t cap, const char *extra, const char *tail)
{
    snprintf(buf, cap, "SELECT " SITE_COLUMNS "%s FROM sites s LEFT JOIN %s u ON u.site = s.id %s", extra,
             s->format >= 2 ? "sums" : "(SELECT 0 AS site, 0 AS nkeys, 0 AS npages, 0 AS body, 0 AS head WHERE 0)",
             tail);
    return buf;
}

typedef struct site_head {
    int64_t id, created, updated;
    const char *name;
    double clock, pages, half_life;
    wn_site_sums sums;
    uint64_t head;      /* as stored */
    int has_sums;
} site_head;

static void read_head(sqlite3_stmt *st, int col, site_head *h)
{
    h->id = sqlite3_column_int64(st, col);
    const unsigned char *name = sqlite3_column_text(st, col + 1);
    h->name = name ? (const char *)name : "";
    h->clock = sqlite3_column_double(st, col + 2);
    h->pages = sqlite3_column_double(st, col + 3);
    h->half_life = sqlite3_column_double(st, col + 4);
    h->created = sqlite3_column_int64(st, col + 5);
    h->updated = sqlite3_column_int64(st, col + 6);
    h->sums.nkeys = sqlite3_column_int64(st, col + 7);
    h->sums.npages = sqlite3_column_int64(st, col + 8);
    h->sums.body = (uint64_t)sqlite3_column_int64(st, col + 9);
    h->head = (uint64_t)sqlite3_column_int64(st, col + 10);
    h->has_sums = sqlite3_column_int(st, col + 11);
}

static uint64_t head_of(const site_head *h)
{
    return wn_sum_head(h->id, h->name, h->clock, h->pages, h->half_life, h->created, h->updated, &h->sums);
}

/* A site's row agrees with its head checksum. */
static int head_ok(const site_head *h) { return h->has_sums && head_of(h) == h->head; }

/* Every site's row against its head checksum, and all heads against meta's
 * sum: what a reader checks on open, O(sites). */
static int check_catalogue(wn_store *s, problems *pr)
{
    uint64_t want;
    if (read_meta(s, pr, &want) != 0) return -1;
    if (s->format < 2) return 0;
    sqlite3_stmt *st;
    char sql[512];
    if (prepare(s, &st, site_query(s, sql, sizeof sql, "", "ORDER BY s.id"), "reading sites") != 0) return -1;
    int rc;
    uint64_t sum = 0;
    long long nsites = 0, nsums = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        site_head h;
        read_head(st, 0, &h);
        nsites++;
        if (!h.has_sums) problem(pr, "site %s has no checksum", h.name);
        else if (!head_ok(&h)) problem(pr, "site %s: its record does not match its checksum", h.name);
        sum += h.head;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading sites");
    if (query_int(s, "SELECT count(*) FROM sums", &nsums, "reading sums") != 0) return -1;
    if (nsums != nsites) problem(pr, "%lld checksums for %lld sites", nsums, nsites);
    if (sum != want) problem(pr, "the list of sites does not match its checksum (a site was lost or changed)");
    return 0;
}

/* ---- the whole file ---- */

typedef struct site_acc {
    int64_t id;
    const char *name;
    wn_site_sums want, got;
    int has_sums;
} site_acc;

static int cmp_acc(const void *a, const void *b)
{
    int64_t x = ((const site_acc *)a)->id, y = ((const site_acc *)b)->id;
    return x < y ? -1 : x > y;
}

static site_acc *find_acc(site_acc *acc, size_t n, int64_t id)
{
    site_acc key = {.id = id};
    return bsearch(&key, acc, n, sizeof *acc, cmp_acc);
}

/* Scans one table and adds each row's hash to its site. */
static int scan_table(wn_store *s, const char *sql, const char *table, int kind, site_acc *acc, size_t n,
                      size_t *rows, problems *pr)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, sql, table) != 0) return -1;
    int rc;
    long long orphans = 0;
    *rows = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        (*rows)++;
        site_acc *a = find_acc(acc, n, sqlite3_column_int64(st, 0));
        if (!a) { orphans++; continue; }
        uint64_t h = 0;
        switch (kind) {
        case 'K': {
            const char *sample = (const char *)sqlite3_column_text(st, 5);
            h = wn_sum_key(sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_double(st, 3),
                           sqlite3_column_double(st, 4), sample, (size_t)sqlite3_column_bytes(st, 5));
            a->got.nkeys++;
            break;
        }
        case 'P': {
            const char *url = (const char *)sqlite3_column_text(st, 3);
            h = wn_sum_page(sqlite3_column_int64(st, 1), sqlite3_column_double(st, 2), url,
                            (size_t)sqlite3_column_bytes(st, 3));
            a->got.npages++;
            break;
        }
        case 'C': h = wn_sum_ce_page(sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)); break;
        default:
            h = wn_sum_ce_block(sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_blob(st, 3),
                                (size_t)sqlite3_column_bytes(st, 3));
        }
        a->got.body += h;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, table);
    if (orphans) problem(pr, "%lld rows of table %s belong to no site", orphans, table);
    return 0;
}

/* SQLite's integrity check, then every site's rows against its checksums,
 * in one read transaction. */
static int check_all(wn_store *s, problems *pr, wn_store_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->format = s->format;
    if (exec(s, "BEGIN", "starting a read") != 0) return -1;
    sqlite3_stmt *st;
    int rc = -1;
    site_acc *acc = NULL;
    size_t n = 0, cap = 0;
    if (prepare(s, &st, "PRAGMA integrity_check(100)", "checking integrity") != 0) goto done;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (!line || !strcmp(line, "ok")) continue;
        if (!strncmp(line, "*** in database main ***", 24)) line += 24;
        problem(pr, "SQLite's integrity check: %s", line + strspn(line, " \n"));
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) { fail_sql(s, "checking integrity"); goto done; }
    /* what follows reads the tables: not when they are not the format's */
    if (pr->count) { rc = 0; goto done; }
    if (check_schema(s, pr) != 0) goto done;
    if (pr->count) { rc = 0; goto done; }
    if (check_catalogue(s, pr) != 0) goto done;
    if (pr->count) { rc = 0; goto done; } /* the tables cannot be trusted to scan */

    char sql[512];
    if (prepare(s, &st, site_query(s, sql, sizeof sql, "", "ORDER BY s.id"), "reading sites") != 0) goto done;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            site_acc *a = realloc(acc, cap * sizeof *a);
            if (!a) { sqlite3_finalize(st); fail(s, WINNOW_E_NOMEM, "out of memory"); goto done; }
            acc = a;
        }
        site_head h;
        read_head(st, 0, &h);
        acc[n] = (site_acc){h.id, strdup(h.name), h.sums, {0, 0, 0}, h.has_sums};
        if (!acc[n++].name) { sqlite3_finalize(st); fail(s, WINNOW_E_NOMEM, "out of memory"); goto done; }
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) { fail_sql(s, "reading sites"); goto done; }
    rep->sites = n;
    if (scan_table(s, "SELECT site, kind, key, df, t, sample FROM keys", "keys", 'K', acc, n, &rep->keys, pr) != 0 ||
        scan_table(s, "SELECT site, imatch, t, url FROM pages", "pages", 'P', acc, n, &rep->pages, pr) != 0 ||
        scan_table(s, "SELECT site, page, imatch FROM ce_pages", "ce_pages", 'C', acc, n, &rep->ce_pages, pr) != 0 ||
        scan_table(s, "SELECT site, page, path, vec FROM ce_blocks", "ce_blocks", 'B', acc, n, &rep->ce_blocks, pr) !=
            0)
        goto done;
    for (size_t i = 0; i < n && s->format >= 2; i++) {
        const site_acc *a = &acc[i];
        if (a->got.nkeys != a->want.nkeys || a->got.npages != a->want.npages)
            problem(pr, "site %s: %lld fingerprints and %lld pages stored, its checksum counts %lld and %lld",
                    a->name, (long long)a->got.nkeys, (long long)a->got.npages, (long long)a->want.nkeys,
                    (long long)a->want.npages);
        else if (a->got.body != a->want.body)
            problem(pr, "site %s: its fingerprints, pages or training blocks do not match its checksum", a->name);
    }
    rc = 0;
done:
    for (size_t i = 0; i < n; i++) free((char *)acc[i].name);
    free(acc);
    exec(s, rc == 0 ? "COMMIT" : "ROLLBACK", "ending a read");
    rep->problems = pr->count;
    return rc;
}

int wn_store_check(wn_store *s, void (*fn)(void *ctx, const char *what), void *ctx, wn_store_report *out)
{
    problems pr = {fn, ctx, 0, ""};
    wn_store_report local;
    if (!out) out = &local;
    if (check_all(s, &pr, out) != 0) {
        if (s->status != WINNOW_E_DB_DAMAGED) return -1;
        /* SQLite meeting corruption while the check reads is a finding of
         * the check, not a check that could not run (found by fuzz_sitedb:
         * the file was reported damaged with 0 problems) */
        if (!pr.count) problem(&pr, "%s", s->error);
        out->problems = pr.count;
        return 1;
    }
    return pr.count ? 1 : 0;
}

/* ---- writing ---- */

static int write_meta_heads(wn_store *s)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, "SELECT head FROM sums", "reading sums") != 0) return -1;
    uint64_t sum = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) sum += (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading sums");
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO meta(key, value) VALUES('sites', '%016llx')",
             (unsigned long long)sum);
    return exec(s, sql, "writing meta");
}

static int write_sums(wn_store *s, int64_t id, const wn_site_sums *sums, uint64_t head)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, "INSERT OR REPLACE INTO sums(site, nkeys, npages, body, head) VALUES(?,?,?,?,?)",
                "writing sums") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, sums->nkeys);
    sqlite3_bind_int64(st, 3, sums->npages);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)sums->body);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)head);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail_sql(s, "writing sums");
}

static int load_site(wn_store *s, const char *site, wn_site_model **out);

/* Format 1 to 2: a checksum for every site, in one transaction. */
static int upgrade(wn_store *s)
{
    if (exec(s, "BEGIN IMMEDIATE", "upgrading the format") != 0) return -1;
    long long ver = 0;
    if (query_int(s, "PRAGMA user_version", &ver, "upgrading the format") != 0) goto failed;
    if (ver >= 2) return exec(s, "COMMIT", "upgrading the format"); /* another writer did it */
    if (exec(s, schema_v2_sums, "upgrading the format") != 0) goto failed;
    sqlite3_stmt *st;
    if (prepare(s, &st, "SELECT name FROM sites ORDER BY id", "upgrading the format") != 0) goto failed;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        wn_site_model *m = NULL;
        if (load_site(s, (const char *)sqlite3_column_text(st, 0), &m) != 0 || !m) {
            sqlite3_finalize(st);
            if (!m && s->status == WINNOW_OK) fail(s, WINNOW_E_DB_DAMAGED, "%s: a site vanished while upgrading", s->path);
            goto failed;
        }
        wn_site_sums sums;
        long long created = 0;
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT created FROM sites WHERE id = %lld", (long long)m->id);
        int bad = wn_site_model_sums(m, &sums) != 0 || query_int(s, sql, &created, "upgrading the format") != 0;
        uint64_t head = bad ? 0
                            : wn_sum_head(m->id, m->name, m->clock, m->pages, m->half_life, created, m->updated, &sums);
        if (!bad) bad = write_sums(s, m->id, &sums, head) != 0;
        wn_site_model_free(m);
        if (bad) { sqlite3_finalize(st); goto failed; }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { fail_sql(s, "upgrading the format"); goto failed; }
    s->format = 2;
    if (write_meta_heads(s) != 0 || exec(s, "PRAGMA user_version=2", "upgrading the format") != 0 ||
        exec(s, "COMMIT", "upgrading the format") != 0)
        goto failed;
    return 0;
failed:
    s->format = 1;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* PRAGMA journal_mode: taking the exclusive lock it needs can fail at once
 * with SQLITE_BUSY (SQLite does not wait where waiting could deadlock with
 * another connection's transaction), so it is tried again for up to
 * wait_ms. */
static int set_journal_mode(wn_store *s, const char *sql, int wait_ms)
{
    for (int waited = 0;; waited += 20) {
        int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        if (rc == SQLITE_OK) return 0;
        if (((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) || waited >= wait_ms)
            return fail_sql(s, "switching the journal mode");
        sqlite3_sleep(20);
    }
}

static void close_db(wn_store *s)
{
    if (s->db) sqlite3_close(s->db);
    s->db = NULL;
}

wn_store *wn_store_open(const char *path, int writable, winnow_status *status, char *err, size_t errcap)
{
    winnow_status local;
    if (!status) status = &local;
    *status = WINNOW_E_NOMEM;
    wn_store *s = calloc(1, sizeof *s);
    char *dir = dir_of(path), *uri = NULL;
    if (!s || !dir || !(s->path = strdup(path))) {
        snprintf(err, errcap, "out of memory");
        free(dir);
        if (s) free(s->path);
        free(s);
        return NULL;
    }
    problems pr = {NULL, NULL, 0, ""};
    int found = access(path, F_OK) == 0;
    int flags = SQLITE_OPEN_NOMUTEX; /* one connection per thread */
    const char *name = path;
    if (writable) {
        /* refused here, before SQLite gets as far as "attempt to write a
         * readonly database" */
        if (found && access(path, W_OK) != 0) {
            fail(s, WINNOW_E_DB_READONLY, "database is read-only: %s (the file cannot be written: %s)", path,
                 strerror(errno));
            goto failed;
        }
        if (access(dir, W_OK) != 0) {
            if (found)
                fail(s, WINNOW_E_DB_READONLY,
                     "database is read-only: %s (its folder %s cannot be written, and SQLite keeps its journal "
                     "there: %s)",
                     path, dir, strerror(errno));
            else
                fail(s, WINNOW_E_IO, "cannot create site database %s: folder %s cannot be written: %s", path, dir,
                     strerror(errno));
            goto failed;
        }
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    } else if (found && access(path, W_OK) == 0 && access(dir, W_OK) == 0) {
        /* read-write only so that, closing last, it removes -wal and -shm */
        flags |= SQLITE_OPEN_READWRITE;
    } else if (found && wal_header(path) && !exists(path, "-wal")) {
        /* left in WAL mode (by an older winnow, or a writer that was not
         * alone when it closed), and SQLite cannot create the -shm file it
         * reads such a file with: nothing is being written there (a writer
         * would have a -wal file), so read it as immutable */
        if (!(uri = immutable_uri(path))) { fail(s, WINNOW_E_NOMEM, "out of memory"); goto failed; }
        name = uri;
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    } else {
        flags |= SQLITE_OPEN_READONLY;
    }
    if (sqlite3_open_v2(name, &s->db, flags, NULL) != SQLITE_OK) {
        fail(s, s->db ? status_of(sqlite3_errcode(s->db)) : WINNOW_E_NOMEM, "cannot open site database %s: %s", path,
             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        if (s->status != WINNOW_E_NOMEM) s->status = WINNOW_E_IO;
        goto failed;
    }
    sqlite3_busy_timeout(s->db, 30000);
    sqlite3_extended_result_codes(s->db, 1);
    if (writable && sqlite3_db_readonly(s->db, "main") == 1) {
        fail(s, WINNOW_E_DB_READONLY, "database is read-only: %s (SQLite could open it for reading only)", path);
        goto failed;
    }

    long long app = 0, ver = 0, tables = 0;
    /* reading the header is where a corrupt or foreign file shows */
    if (query_int(s, "PRAGMA application_id", &app, "reading the header") != 0 ||
        query_int(s, "PRAGMA user_version", &ver, "reading the header") != 0 ||
        query_int(s, "SELECT count(*) FROM sqlite_master", &tables, "reading the schema") != 0) {
        int rc = sqlite3_extended_errcode(s->db);
        if ((rc & 0xff) == SQLITE_NOTADB)
            fail(s, WINNOW_E_DB_FORMAT, "%s is not a winnow site database (SQLite says: %s)", path,
                 sqlite3_errmsg(s->db));
        else if (!writable && ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN))
            fail(s, WINNOW_E_IO,
                 "cannot read %s: it is in WAL mode (a learn is running or was interrupted) and SQLite cannot "
                 "create the files it reads such a database with (SQLite says: %s)",
                 path, sqlite3_errmsg(s->db));
        goto failed;
    }
    if (writable && sqlite3_db_readonly(s->db, "main") == 1) {
        /* writable file and folder, but SQLite will not write: its header
         * asks for a newer file format */
        int w, r;
        header_versions(path, &w, &r);
        fail(s, WINNOW_E_DB_FORMAT,
             "%s cannot be written by this SQLite: its header gives file format versions %d and %d (this SQLite "
             "writes 1 and 2)",
             path, w, r);
        goto failed;
    }
    if (tables > 0 && app != WN_STORE_APP_ID) {
        fail(s, WINNOW_E_DB_FORMAT, "%s is an SQLite database but not a winnow site database", path);
        goto failed;
    }
    if (tables > 0 && ver != 1 && ver != WN_STORE_FORMAT) {
        fail(s, WINNOW_E_DB_FORMAT, "%s has site database format %lld; this winnow reads formats 1 and %d%s", path,
             ver, WN_STORE_FORMAT, ver > WN_STORE_FORMAT ? " (it was written by a newer winnow)" : "");
        goto failed;
    }
    if (tables == 0 && !writable) {
        fail(s, WINNOW_E_DB_FORMAT, "%s holds no site models yet (run 'winnow learn' first)", path);
        goto failed;
    }
    s->format = tables > 0 ? (int)ver : WN_STORE_FORMAT;

    if (tables > 0) {
        if (writable) {
            /* nothing is written into a damaged file */
            wn_store_report rep;
            if (check_all(s, &pr, &rep) != 0) goto failed;
        } else {
            /* one read transaction: a writer's commit between reading meta's
             * sum and the sites would look like damage */
            if (exec(s, "BEGIN", "starting a read") != 0) goto failed;
            int bad = check_schema(s, &pr) != 0 || (!pr.count && check_catalogue(s, &pr) != 0);
            sqlite3_exec(s->db, bad ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
            if (bad) goto failed;
        }
        if (pr.count) {
            fail(s, WINNOW_E_DB_DAMAGED, "site database %s is damaged: %s%s (winnow check --db %s lists %s)", path,
                 pr.first, writable ? "; nothing was written" : "", path,
                 pr.count > 1 ? "every problem" : "the problem");
            goto failed;
        }
    }
    if (writable) {
        char sql[160];
        snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d;", WN_STORE_APP_ID,
                 WN_STORE_FORMAT);
        if (set_journal_mode(s, "PRAGMA journal_mode=WAL", 30000) != 0) goto failed;
        s->wal = 1;
        if (exec(s, "PRAGMA synchronous=NORMAL", "setting synchronous") != 0) goto failed;
        if (tables == 0) {
            if (exec(s, "BEGIN IMMEDIATE", "creating the tables") != 0) goto failed;
            if (exec(s, schema_v1, "creating the tables") != 0 || exec(s, schema_v2_sums, "creating the tables") != 0 ||
                exec(s, sql, "creating the tables") != 0 ||
                exec(s,
                     "INSERT OR IGNORE INTO meta(key, value) VALUES('format', 'winnow-sites');"
                     "INSERT OR IGNORE INTO meta(key, value) VALUES('sites', '0000000000000000')",
                     "creating the tables") != 0 ||
                exec(s, "COMMIT", "creating the tables") != 0) {
                sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
                goto failed;
            }
        } else if (s->format < WN_STORE_FORMAT && upgrade(s) != 0) {
            goto failed;
        }
        s->writable = 1;
    }
    free(dir);
    free(uri);
    *status = WINNOW_OK;
    return s;
failed:
    snprintf(err, errcap, "%s", s->error);
    *status = s->status;
    free(dir);
    free(uri);
    wn_store_close(s);
    return NULL;
}

void wn_store_close(wn_store *s)
{
    if (!s) return;
    if (s->db && s->wal) {
        /* back to one file: the WAL's pages into the database, and rollback
         * mode, which readers can use without creating files; when other
         * connections are open this waits for nobody and leaves WAL mode on
         * (the last one to close removes the -wal and -shm files) */
        sqlite3_busy_timeout(s->db, 0);
        sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
        set_journal_mode(s, "PRAGMA journal_mode=DELETE", 0);
    }
    close_db(s);
    free(s->path);
    free(s);
}

const char *wn_store_error(const wn_store *s) { return s ? s->error : ""; }
winnow_status wn_store_status(const wn_store *s) { return s ? s->status : WINNOW_E_ARG; }

/* ---- loading ---- */

static int load_ce(wn_store *s, wn_site_model *m, uint64_t *body)
{
    sqlite3_stmt *st = NULL;
    int rc;
    if (prepare(s, &st, "SELECT page, imatch FROM ce_pages WHERE site = ? ORDER BY page", "reading ce_pages") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, m->id);
    int odd = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 page = sqlite3_column_int64(st, 0), imatch = sqlite3_column_int64(st, 1);
        *body += wn_sum_ce_page(page, imatch);
        if (page < 0 || page >= WN_CE_TRAINING_PAGES) { odd = 1; continue; }
        m->ce.page_imatch[page] = (uint64_t)imatch;
        if ((uint32_t)page + 1 > m->ce.pages) m->ce.pages = (uint32_t)page + 1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading ce_pages");
    if (prepare(s, &st, "SELECT page, path, vec FROM ce_blocks WHERE site = ? ORDER BY rowid", "reading ce_blocks") !=
        0)
        return -1;
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const void *blob = sqlite3_column_blob(st, 2);
        size_t len = (size_t)sqlite3_column_bytes(st, 2);
        sqlite3_int64 page = sqlite3_column_int64(st, 0);
        *body += wn_sum_ce_block(page, sqlite3_column_int64(st, 1), blob, len);
        wn_ce_vec v;
        if (page < 0 || page >= WN_CE_TRAINING_PAGES || wn_ce_vec_unpack(blob, len, &v) != 0) { odd = 1; continue; }
        int r = wn_ce_model_put_block(&m->ce, (uint32_t)page, (uint64_t)sqlite3_column_int64(st, 1), &v);
        wn_ce_vec_free(&v);
        if (r != 0) { sqlite3_finalize(st); return fail(s, WINNOW_E_NOMEM, "out of memory"); }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading ce_blocks");
    if (odd && s->format < 2)
        return fail(s, WINNOW_E_DB_DAMAGED, "site database %s is damaged: site %s: a stored ContentExtractor block is "
                    "out of shape", s->path, m->name);
    m->ce.dirty = 0;
    return 0;
}

static int damaged_site(wn_store *s, const char *site, const char *what)
{
    return fail(s, WINNOW_E_DB_DAMAGED,
                "site database %s is damaged: site %s: %s (winnow check --db %s lists every problem)", s->path, site,
                what, s->path);
}

static int load_site(wn_store *s, const char *site, wn_site_model **out)
{
    *out = NULL;
    sqlite3_stmt *st = NULL;
    char sql[512];
    if (prepare(s, &st, site_query(s, sql, sizeof sql, "", "WHERE s.name = ?"), "reading sites") != 0) return -1;
    sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) { sqlite3_finalize(st); return 0; }
    if (rc != SQLITE_ROW) { sqlite3_finalize(st); return fail_sql(s, "reading sites"); }
    site_head h;
    read_head(st, 0, &h);
    if (s->format >= 2 && !head_ok(&h)) {
        sqlite3_finalize(st);
        return damaged_site(s, site, h.has_sums ? "its record does not match its checksum" : "it has no checksum");
    }
    wn_site_model *m = wn_site_model_new(site, h.half_life);
    if (!m) { sqlite3_finalize(st); return fail(s, WINNOW_E_NOMEM, "out of memory"); }
    m->id = h.id;
    m->clock = h.clock;
    m->pages = h.pages;
    m->half_life = h.half_life;
    m->updated = h.updated;
    m->stored_head = h.head;
    wn_site_sums want = h.sums;
    sqlite3_finalize(st);

    wn_site_sums got = {0, 0, 0};
    if (prepare(s, &st, "SELECT kind, key, df, t, sample FROM keys WHERE site = ? ORDER BY kind, key",
                "reading keys") != 0)
        goto failed;
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *sample = (const char *)sqlite3_column_text(st, 4);
        sqlite3_int64 kind = sqlite3_column_int64(st, 0), key = sqlite3_column_int64(st, 1);
        double df = sqlite3_column_double(st, 2), t = sqlite3_column_double(st, 3);
        got.body += wn_sum_key(kind, key, df, t, sample, (size_t)sqlite3_column_bytes(st, 4));
        got.nkeys++;
        if (wn_site_model_put_key(m, (uint8_t)kind, (uint64_t)key, df, t, sample) != 0) {
            sqlite3_finalize(st);
            fail(s, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { fail_sql(s, "reading keys"); goto failed; }

    if (prepare(s, &st, "SELECT imatch, t, url FROM pages WHERE site = ? ORDER BY imatch", "reading pages") != 0)
        goto failed;
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *url = (const char *)sqlite3_column_text(st, 2);
        sqlite3_int64 imatch = sqlite3_column_int64(st, 0);
        double t = sqlite3_column_double(st, 1);
        got.body += wn_sum_page(imatch, t, url, (size_t)sqlite3_column_bytes(st, 2));
        got.npages++;
        if (wn_site_model_put_page(m, (uint64_t)imatch, t, url) != 0) {
            sqlite3_finalize(st);
            fail(s, WINNOW_E_NOMEM, "out of memory");
            goto failed;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { fail_sql(s, "reading pages"); goto failed; }
    if (load_ce(s, m, &got.body) != 0) goto failed;
    if (s->format >= 2 && (got.nkeys != want.nkeys || got.npages != want.npages || got.body != want.body)) {
        damaged_site(s, site, "its fingerprints, pages or training blocks do not match its checksum");
        goto failed;
    }
    *out = m;
    return 0;
failed:
    wn_site_model_free(m);
    return -1;
}

/* One read transaction: a learn committing meanwhile is seen whole or not
 * at all, never half. */
int wn_store_load(wn_store *s, const char *site, wn_site_model **out)
{
    *out = NULL;
    s->status = WINNOW_OK;
    if (exec(s, "BEGIN", "starting a read") != 0) return -1;
    int rc = load_site(s, site, out);
    sqlite3_exec(s->db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---- saving ---- */

/* SQLite orders INTEGER keys as signed 64-bit numbers. */
static int cmp_entry(const void *a, const void *b)
{
    const wn_key_entry *x = *(wn_key_entry *const *)a, *y = *(wn_key_entry *const *)b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    int64_t kx = (int64_t)x->key, ky = (int64_t)y->key;
    return kx < ky ? -1 : kx > ky;
}

static int save_ce(wn_store *s, wn_site_model *m)
{
    if (!m->ce.dirty) return 0;
    sqlite3_stmt *st = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM ce_blocks WHERE site = %lld; DELETE FROM ce_pages WHERE site = %lld;",
             (long long)m->id, (long long)m->id);
    if (exec(s, sql, "writing ce_pages") != 0) return -1;
    if (prepare(s, &st, "INSERT INTO ce_pages(site, page, imatch) VALUES(?,?,?)", "writing ce_pages") != 0) return -1;
    for (uint32_t p = 0; p < m->ce.pages; p++) {
        sqlite3_bind_int64(st, 1, m->id);
        sqlite3_bind_int(st, 2, (int)p);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)m->ce.page_imatch[p]);
        int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) { sqlite3_finalize(st); return fail_sql(s, "writing ce_pages"); }
    }
    sqlite3_finalize(st);
    if (prepare(s, &st, "INSERT INTO ce_blocks(site, page, path, vec) VALUES(?,?,?,?)", "writing ce_blocks") != 0)
        return -1;
    void *buf = NULL;
    size_t cap = 0;
    int rc = SQLITE_DONE;
    for (size_t i = 0; i < m->ce.count && rc == SQLITE_DONE; i++) {
        const wn_ce_block *b = &m->ce.blocks[i];
        size_t need = wn_ce_vec_pack(&b->vec, buf, cap);
        if (need > cap) {
            void *nb = realloc(buf, need);
            if (!nb) { rc = SQLITE_NOMEM; break; }
            buf = nb;
            cap = need;
            wn_ce_vec_pack(&b->vec, buf, cap);
        }
        sqlite3_bind_int64(st, 1, m->id);
        sqlite3_bind_int(st, 2, (int)b->page);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)b->path);
        sqlite3_bind_blob(st, 4, need ? buf : "", (int)need, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
    }
    free(buf);
    sqlite3_finalize(st);
    if (rc == SQLITE_NOMEM) return fail(s, WINNOW_E_NOMEM, "out of memory");
    if (rc != SQLITE_DONE) return fail_sql(s, "writing ce_blocks");
    return 0;
}

/* Writes the model's changed rows and its checksums; *head gets the new head. */
static int write_site(wn_store *s, wn_site_model *m, uint64_t *head)
{
    time_t now = time(NULL);
    sqlite3_stmt *st = NULL;
    if (prepare(s, &st,
                "INSERT INTO sites(name, clock, pages, half_life, created, updated) VALUES(?,?,?,?,?,?) "
                "ON CONFLICT(name) DO UPDATE SET clock=excluded.clock, pages=excluded.pages, "
                "half_life=excluded.half_life, updated=excluded.updated RETURNING id, created",
                "writing site") != 0)
        return -1;
    sqlite3_bind_text(st, 1, m->name, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 2, m->clock);
    sqlite3_bind_double(st, 3, m->pages);
    sqlite3_bind_double(st, 4, m->half_life);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)now);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)now);
    int rc = sqlite3_step(st);
    int64_t created = 0;
    if (rc == SQLITE_ROW) {
        m->id = sqlite3_column_int64(st, 0);
        created = sqlite3_column_int64(st, 1);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "writing site");
    m->updated = (int64_t)now;

    if (prepare(s, &st,
                "INSERT INTO keys(site, kind, key, df, t, sample) VALUES(?,?,?,?,?,?) "
                "ON CONFLICT(site, kind, key) DO UPDATE SET df=excluded.df, t=excluded.t, sample=excluded.sample",
                "writing keys") != 0)
        return -1;
    /* in primary-key order: B-tree inserts then append instead of splitting
     * pages all over the table (several times faster on a fresh site) */
    size_t ndirty = 0;
    for (size_t i = 0; i < m->keys_cap; i++) ndirty += m->keys[i].used && m->keys[i].dirty;
    wn_key_entry **order = malloc((ndirty + 1) * sizeof *order);
    if (!order) { sqlite3_finalize(st); return fail(s, WINNOW_E_NOMEM, "out of memory"); }
    ndirty = 0;
    for (size_t i = 0; i < m->keys_cap; i++)
        if (m->keys[i].used && m->keys[i].dirty) order[ndirty++] = &m->keys[i];
    qsort(order, ndirty, sizeof *order, cmp_entry);
    for (size_t i = 0; i < ndirty; i++) {
        wn_key_entry *e = order[i];
        sqlite3_bind_int64(st, 1, m->id);
        sqlite3_bind_int(st, 2, e->kind);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)e->key);
        sqlite3_bind_double(st, 4, e->df);
        sqlite3_bind_double(st, 5, e->t);
        const char *sample = wn_site_model_sample(m, e);
        if (sample) sqlite3_bind_text(st, 6, sample, -1, SQLITE_STATIC);
        else sqlite3_bind_null(st, 6);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) { sqlite3_finalize(st); free(order); return fail_sql(s, "writing keys"); }
    }
    free(order);
    sqlite3_finalize(st);

    if (prepare(s, &st,
                "INSERT INTO pages(site, imatch, t, url) VALUES(?,?,?,?) "
                "ON CONFLICT(site, imatch) DO UPDATE SET t=excluded.t, url=excluded.url",
                "writing pages") != 0)
        return -1;
    for (size_t i = 0; i < m->pages_cap; i++) {
        wn_page_entry *p = &m->page_tab[i];
        if (!p->used || !p->dirty) continue;
        sqlite3_bind_int64(st, 1, m->id);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)p->imatch);
        sqlite3_bind_double(st, 3, p->t);
        if (p->url) sqlite3_bind_text(st, 4, p->url, -1, SQLITE_STATIC);
        else sqlite3_bind_null(st, 4);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) { sqlite3_finalize(st); return fail_sql(s, "writing pages"); }
    }
    sqlite3_finalize(st);
    if (save_ce(s, m) != 0) return -1;

    /* the checksums, from the model: it holds every row the site has */
    wn_site_sums sums;
    if (wn_site_model_sums(m, &sums) != 0) return fail(s, WINNOW_E_NOMEM, "out of memory");
    *head = wn_sum_head(m->id, m->name, m->clock, m->pages, m->half_life, created, m->updated, &sums);
    return write_sums(s, m->id, &sums, *head);
}

/* The head stored for a site now, 0 when the database does not have it. */
static int stored_head(wn_store *s, const char *site, uint64_t *head)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, "SELECT u.head FROM sites s LEFT JOIN sums u ON u.site = s.id WHERE s.name = ?",
                "reading sites") != 0)
        return -1;
    sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    *head = rc == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail_sql(s, "reading sites");
}

int wn_store_save(wn_store *s, wn_site_model *const *models, size_t n, wn_site_model **use)
{
    s->status = WINNOW_OK;
    for (size_t i = 0; i < n; i++) use[i] = NULL;
    if (!s->writable)
        return fail(s, WINNOW_E_DB_READONLY, "%s was opened for reading (WINNOW_SITEDB_READ): open it for writing to save",
                    s->path);
    uint64_t *heads = calloc(n + 1, sizeof *heads);
    if (!heads) return fail(s, WINNOW_E_NOMEM, "out of memory");
    if (exec(s, "BEGIN IMMEDIATE", "starting to save") != 0) { free(heads); return -1; }
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        wn_site_model *m = models[i], *target = m;
        if (!m || !m->dirty) continue;
        if (m->journal_only) {
            fail(s, WINNOW_E_ARG, "%s: site %s is a partial's (winnow_partial_site): merge the partial instead",
                 s->path, m->name);
            goto failed;
        }
        any = 1;
        uint64_t now;
        if (stored_head(s, m->name, &now) != 0) goto failed;
        if (now != m->stored_head) {
            /* another learn saved this site since: count this run's pages
             * after its, rather than overwrite them */
            if (!m->journal.on) {
                fail(s, WINNOW_E_ARG, "%s: site %s is in the database already; save a model loaded from it", s->path,
                     m->name);
                goto failed;
            }
            wn_site_model *merged = NULL;
            if (load_site(s, m->name, &merged) != 0) goto failed;
            if (!merged && !(merged = wn_site_model_new(m->name, m->half_life))) {
                fail(s, WINNOW_E_NOMEM, "out of memory");
                goto failed;
            }
            use[i] = merged;
            if (wn_site_model_replay(merged, m, NULL) != 0) { fail(s, WINNOW_E_NOMEM, "out of memory"); goto failed; }
            merged->journal.on = 1;
            target = merged;
        }
        if (write_site(s, target, &heads[i]) != 0) goto failed;
    }
    if (any && (write_meta_heads(s) != 0 || exec(s, "COMMIT", "committing") != 0)) goto failed;
    if (!any) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        wn_site_model *m = use[i] ? use[i] : models[i];
        if (!m || !m->dirty) continue;
        m->stored_head = heads[i];
        m->ce.dirty = 0;
        for (size_t k = 0; k < m->keys_cap; k++) m->keys[k].dirty = 0;
        for (size_t k = 0; k < m->pages_cap; k++) m->page_tab[k].dirty = 0;
        m->dirty = 0;
        wn_journal_clear(&m->journal);
    }
    free(heads);
    return 0;
failed:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        wn_site_model_free(use[i]);
        use[i] = NULL;
    }
    free(heads);
    return -1;
}

/* ---- listing ---- */

typedef struct listed {
    site_head h;
    char *name;
    long long keys;
} listed;

int wn_store_sites(wn_store *s, int (*fn)(void *ctx, const wn_site_row *row), void *ctx)
{
    s->status = WINNOW_OK;
    if (exec(s, "BEGIN", "starting a read") != 0) return -1;
    sqlite3_stmt *st = NULL;
    listed *rows = NULL;
    size_t n = 0, cap = 0;
    int rc = -1, step;
    problems pr = {NULL, NULL, 0, ""};
    uint64_t want = 0, sum = 0;
    if (read_meta(s, &pr, &want) != 0) goto done;
    char sql[512];
    if (prepare(s, &st,
                site_query(s, sql, sizeof sql, ", (SELECT count(*) FROM keys WHERE keys.site = s.id)",
                           "ORDER BY s.name"),
                "listing sites") != 0)
        goto done;
    /* every row is read and checked before the first is shown */
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            listed *r = realloc(rows, cap * sizeof *r);
            if (!r) { fail(s, WINNOW_E_NOMEM, "out of memory"); goto done; }
            rows = r;
        }
        listed *l = &rows[n];
        read_head(st, 0, &l->h);
        l->keys = sqlite3_column_int64(st, 12);
        if (!(l->name = strdup(l->h.name))) { fail(s, WINNOW_E_NOMEM, "out of memory"); goto done; }
        l->h.name = l->name;
        n++;
        sum += l->h.head;
        if (s->format < 2) continue;
        if (!head_ok(&l->h)) {
            damaged_site(s, l->name, l->h.has_sums ? "its record does not match its checksum" : "it has no checksum");
            goto done;
        }
        if (l->keys != l->h.sums.nkeys) {
            damaged_site(s, l->name, "it has another number of fingerprints than its checksum counts");
            goto done;
        }
    }
    if (step != SQLITE_DONE) { fail_sql(s, "listing sites"); goto done; }
    if (pr.count || (s->format >= 2 && sum != want)) {
        fail(s, WINNOW_E_DB_DAMAGED,
             "site database %s is damaged: %s (winnow check --db %s lists every problem)", s->path,
             pr.count ? pr.first : "the list of sites does not match its checksum (a site was lost or changed)",
             s->path);
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        const listed *l = &rows[i];
        wn_site_row row = {l->name, l->h.clock, l->h.pages, l->h.half_life, l->h.updated, l->keys};
        if (fn(ctx, &row) != 0) break;
    }
    rc = 0;
done:
    sqlite3_finalize(st);
    if (rc != 0) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    for (size_t i = 0; i < n; i++) free(rows[i].name);
    free(rows);
    return rc;
}
