/* The site store's file and schema: opening (which mode SQLite opens the
 * file in, the header and format checks, the checks of the file's
 * contents, WAL mode for a writer), creating the tables, the upgrade from
 * format 1 and closing. Reads, writes and the whole-file check are in
 * store_read.c, store_write.c and store_check.c (store_internal.h). */
#include "store_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Format 1's tables; format 2 adds `sums`. The texts are what SQLite keeps
 * in sqlite_master, compared on every open (wn_store_check_schema). */
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
static const char schema_v2_sums[] = "CREATE TABLE IF NOT EXISTS sums("
                                     "  site INTEGER PRIMARY KEY, nkeys INTEGER NOT NULL, npages INTEGER NOT NULL,"
                                     "  body INTEGER NOT NULL, head INTEGER NOT NULL);";

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
int wn_store_reference_schema(int format, char ***rows, size_t *n)
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
            if (!r) {
                ok = 0;
                break;
            }
            *rows = r;
        }
        (*rows)[*n] = strdup((const char *)sqlite3_column_text(st, 0));
        if (!(*rows)[(*n)++]) ok = 0;
    }
    sqlite3_finalize(st);
    sqlite3_close(mem);
    return ok ? 0 : -1;
}

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
        if (wn_store_load_site(s, (const char *)sqlite3_column_text(st, 0), &m) != 0 || !m) {
            sqlite3_finalize(st);
            if (!m && s->status == WINNOW_OK)
                fail(s, WINNOW_E_DB_DAMAGED, "%s: a site vanished while upgrading", s->path);
            goto failed;
        }
        wn_site_sums sums;
        long long created = 0;
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT created FROM sites WHERE id = %lld", (long long)m->id);
        int bad = wn_site_model_sums(m, &sums) != 0 || query_int(s, sql, &created, "upgrading the format") != 0;
        uint64_t head =
            bad ? 0 : wn_sum_head(m->id, m->name, m->clock, m->pages, m->half_life, created, m->updated, &sums);
        if (!bad) bad = wn_store_write_sums(s, m->id, &sums, head) != 0;
        wn_site_model_free(m);
        if (bad) {
            sqlite3_finalize(st);
            goto failed;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fail_sql(s, "upgrading the format");
        goto failed;
    }
    s->format = 2;
    if (wn_store_write_meta_heads(s) != 0 || exec(s, "PRAGMA user_version=2", "upgrading the format") != 0 ||
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

/* What SQLite opens and how: *flags gets the mode, *name the path or, for
 * a file read as immutable, *uri (allocated here, freed by the caller).
 * 0, or -1 with the reason. */
static int open_mode(wn_store *s, const char *path, const char *dir, int writable, int *flags, const char **name,
                     char **uri)
{
    int found = access(path, F_OK) == 0;
    if (writable) {
        /* refused here, before SQLite gets as far as "attempt to write a
         * readonly database" */
        if (found && access(path, W_OK) != 0) {
            fail(s, WINNOW_E_DB_READONLY, "database is read-only: %s (the file cannot be written: %s)", path,
                 strerror(errno));
            return -1;
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
            return -1;
        }
        *flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    } else if (found && access(path, W_OK) == 0 && access(dir, W_OK) == 0) {
        /* read-write only so that, closing last, it removes -wal and -shm */
        *flags |= SQLITE_OPEN_READWRITE;
    } else if (found && wal_header(path) && !exists(path, "-wal")) {
        /* left in WAL mode (by an older winnow, or a writer that was not
         * alone when it closed), and SQLite cannot create the -shm file it
         * reads such a file with: nothing is being written there (a writer
         * would have a -wal file), so read it as immutable */
        if (!(*uri = immutable_uri(path))) {
            fail(s, WINNOW_E_NOMEM, "out of memory");
            return -1;
        }
        *name = *uri;
        *flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    } else {
        *flags |= SQLITE_OPEN_READONLY;
    }
    return 0;
}

static int connect_db(wn_store *s, const char *path, const char *name, int flags, int writable)
{
    if (sqlite3_open_v2(name, &s->db, flags, NULL) != SQLITE_OK) {
        fail(s, s->db ? status_of(sqlite3_errcode(s->db)) : WINNOW_E_NOMEM, "cannot open site database %s: %s", path,
             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        if (s->status != WINNOW_E_NOMEM) s->status = WINNOW_E_IO;
        return -1;
    }
    sqlite3_busy_timeout(s->db, 30000);
    sqlite3_extended_result_codes(s->db, 1);
    if (writable && sqlite3_db_readonly(s->db, "main") == 1) {
        fail(s, WINNOW_E_DB_READONLY, "database is read-only: %s (SQLite could open it for reading only)", path);
        return -1;
    }
    return 0;
}

/* The header and the format: a foreign, newer or empty file is refused
 * here. Sets s->format; *tables gets the number of schema entries (0 for a
 * new file). */
static int check_header(wn_store *s, const char *path, int writable, long long *tables)
{
    long long app = 0, ver = 0;
    *tables = 0;
    /* reading the header is where a corrupt or foreign file shows. The
     * three values in one read transaction: another learn creating the
     * file commits its tables, application id and version at once, and
     * read one by one (tables already there, the id not yet seen) a file
     * being created looked like another program's database */
    int read_txn = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    if (query_int(s, "PRAGMA application_id", &app, "reading the header") != 0 ||
        query_int(s, "PRAGMA user_version", &ver, "reading the header") != 0 ||
        query_int(s, "SELECT count(*) FROM sqlite_master", tables, "reading the schema") != 0) {
        int rc = sqlite3_extended_errcode(s->db);
        if (read_txn) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        if ((rc & 0xff) == SQLITE_NOTADB)
            fail(s, WINNOW_E_DB_FORMAT, "%s is not a winnow site database (SQLite says: %s)", path,
                 sqlite3_errmsg(s->db));
        else if (!writable && ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN))
            fail(s, WINNOW_E_IO,
                 "cannot read %s: it is in WAL mode (a learn is running or was interrupted) and SQLite cannot "
                 "create the files it reads such a database with (SQLite says: %s)",
                 path, sqlite3_errmsg(s->db));
        return -1;
    }
    if (read_txn) sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (writable && sqlite3_db_readonly(s->db, "main") == 1) {
        /* writable file and folder, but SQLite will not write: its header
         * asks for a newer file format */
        int w, r;
        header_versions(path, &w, &r);
        fail(s, WINNOW_E_DB_FORMAT,
             "%s cannot be written by this SQLite: its header gives file format versions %d and %d (this SQLite "
             "writes 1 and 2)",
             path, w, r);
        return -1;
    }
    if (*tables > 0 && app != WN_STORE_APP_ID) {
        fail(s, WINNOW_E_DB_FORMAT, "%s is an SQLite database but not a winnow site database", path);
        return -1;
    }
    if (*tables > 0 && ver != 1 && ver != WN_STORE_FORMAT) {
        fail(s, WINNOW_E_DB_FORMAT, "%s has site database format %lld; this winnow reads formats 1 and %d%s", path, ver,
             WN_STORE_FORMAT, ver > WN_STORE_FORMAT ? " (it was written by a newer winnow)" : "");
        return -1;
    }
    if (*tables == 0 && !writable) {
        fail(s, WINNOW_E_DB_FORMAT, "%s holds no site models yet (run 'winnow learn' first)", path);
        return -1;
    }
    s->format = *tables > 0 ? (int)ver : WN_STORE_FORMAT;
    return 0;
}

/* What the file holds, checked before anything is read or written. */
static int check_contents(wn_store *s, const char *path, int writable, long long tables)
{
    problems pr = { NULL, NULL, 0, "" };
    if (tables > 0) {
        if (writable) {
            /* nothing is written into a damaged file */
            wn_store_report rep;
            if (wn_store_check_all(s, &pr, &rep) != 0) return -1;
        } else {
            /* one read transaction: a writer's commit between reading meta's
             * sum and the sites would look like damage */
            if (exec(s, "BEGIN", "starting a read") != 0) return -1;
            int bad = wn_store_check_schema(s, &pr) != 0 || (!pr.count && wn_store_check_catalogue(s, &pr) != 0);
            sqlite3_exec(s->db, bad ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
            if (bad) return -1;
        }
        if (pr.count) {
            fail(s, WINNOW_E_DB_DAMAGED, "site database %s is damaged: %s%s (winnow check --db %s lists %s)", path,
                 pr.first, writable ? "; nothing was written" : "", path,
                 pr.count > 1 ? "every problem" : "the problem");
            return -1;
        }
    }
    return 0;
}

/* The tables of a new file, in one transaction holding the write lock.
 * Read again under the lock: another learn may have created the file
 * since it was found empty (then there is nothing to create, but what is
 * there must be ours). */
static int create_tables(wn_store *s)
{
    char sql[160];
    snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d;", WN_STORE_APP_ID, WN_STORE_FORMAT);
    if (exec(s, "BEGIN IMMEDIATE", "creating the tables") != 0) return -1;
    long long tables = 0, app = 0;
    if (query_int(s, "SELECT count(*) FROM sqlite_master", &tables, "creating the tables") != 0 ||
        query_int(s, "PRAGMA application_id", &app, "creating the tables") != 0)
        goto failed;
    if (tables > 0 && app != WN_STORE_APP_ID) {
        fail(s, WINNOW_E_DB_FORMAT, "%s is an SQLite database but not a winnow site database", s->path);
        goto failed;
    }
    if (tables == 0 &&
        (exec(s, schema_v1, "creating the tables") != 0 || exec(s, schema_v2_sums, "creating the tables") != 0 ||
         exec(s, sql, "creating the tables") != 0 ||
         exec(s,
              "INSERT OR IGNORE INTO meta(key, value) VALUES('format', 'winnow-sites');"
              "INSERT OR IGNORE INTO meta(key, value) VALUES('sites', '0000000000000000')",
              "creating the tables") != 0))
        goto failed;
    if (exec(s, "COMMIT", "creating the tables") != 0) goto failed;
    return 0;
failed:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* A writer: WAL mode, then the tables of a new file or the upgrade of an
 * older format. */
static int start_writing(wn_store *s, int writable, long long tables)
{
    if (writable) {
        if (set_journal_mode(s, "PRAGMA journal_mode=WAL", 30000) != 0) return -1;
        s->wal = 1;
        if (exec(s, "PRAGMA synchronous=NORMAL", "setting synchronous") != 0) return -1;
        if (tables == 0) {
            if (create_tables(s) != 0) return -1;
        } else if (s->format < WN_STORE_FORMAT && upgrade(s) != 0) {
            return -1;
        }
        s->writable = 1;
    }
    return 0;
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
    int flags = SQLITE_OPEN_NOMUTEX; /* one connection per thread */
    const char *name = path;
    long long tables = 0;
    if (open_mode(s, path, dir, writable, &flags, &name, &uri) != 0 ||
        connect_db(s, path, name, flags, writable) != 0 || check_header(s, path, writable, &tables) != 0 ||
        check_contents(s, path, writable, tables) != 0 || start_writing(s, writable, tables) != 0)
        goto failed;
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
