#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

struct wn_store {
    sqlite3 *db;
    int writable;
    char path[256];   /* named in every message */
    char error[512];
};

static const char schema[] =
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

static void set_err(wn_store *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s: %s: %s", s->path, what, s->db ? sqlite3_errmsg(s->db) : "no database");
}

static int exec(wn_store *s, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(s->error, sizeof s->error, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int pragma_int(wn_store *s, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

wn_store *wn_store_open(const char *path, int writable, char *err, size_t errcap)
{
    wn_store *s = calloc(1, sizeof *s);
    if (!s) { snprintf(err, errcap, "out of memory"); return NULL; }
    s->writable = writable;
    snprintf(s->path, sizeof s->path, "%s", path);
    int flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    flags |= SQLITE_OPEN_NOMUTEX; /* one connection per thread */
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errcap, "cannot open site database %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        wn_store_close(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 30000);
    sqlite3_extended_result_codes(s->db, 1);
    long long app = 0, ver = 0, tables = 0;
    /* reading the header is where a corrupt or foreign file shows */
    if (pragma_int(s, "PRAGMA application_id", &app) != 0 || pragma_int(s, "PRAGMA user_version", &ver) != 0 ||
        pragma_int(s, "SELECT count(*) FROM sqlite_master", &tables) != 0) {
        snprintf(err, errcap, "%s is not a winnow site database (SQLite says: %s)", path, sqlite3_errmsg(s->db));
        wn_store_close(s);
        return NULL;
    }
    if (tables > 0 && app != WN_STORE_APP_ID) {
        snprintf(err, errcap, "%s is an SQLite database but not a winnow site database", path);
        wn_store_close(s);
        return NULL;
    }
    if (tables > 0 && ver != WN_STORE_FORMAT) {
        snprintf(err, errcap, "%s has site database format %lld; this winnow reads format %d%s", path, ver,
                 WN_STORE_FORMAT, ver > WN_STORE_FORMAT ? " (it was written by a newer winnow)" : "");
        wn_store_close(s);
        return NULL;
    }
    if (tables == 0 && !writable) {
        snprintf(err, errcap, "%s holds no site models yet (run 'winnow learn' first)", path);
        wn_store_close(s);
        return NULL;
    }
    if (writable) {
        char sql[160];
        snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d;", WN_STORE_APP_ID, WN_STORE_FORMAT);
        if (exec(s, "PRAGMA journal_mode=WAL") != 0 || exec(s, "PRAGMA synchronous=NORMAL") != 0 ||
            exec(s, "BEGIN IMMEDIATE") != 0 || exec(s, schema) != 0 || exec(s, sql) != 0 ||
            exec(s, "INSERT OR IGNORE INTO meta(key, value) VALUES('format', 'winnow-sites')") != 0 ||
            exec(s, "COMMIT") != 0) {
            snprintf(err, errcap, "cannot initialise site database %s: %s", path, s->error);
            wn_store_close(s);
            return NULL;
        }
    }
    return s;
}

void wn_store_close(wn_store *s)
{
    if (!s) return;
    if (s->db) sqlite3_close(s->db);
    free(s);
}

const char *wn_store_error(const wn_store *s) { return s ? s->error : ""; }

int wn_store_begin(wn_store *s) { return exec(s, "BEGIN IMMEDIATE"); }
int wn_store_commit(wn_store *s) { return exec(s, "COMMIT"); }
int wn_store_rollback(wn_store *s) { return exec(s, "ROLLBACK"); }

static int load_ce(wn_store *s, wn_site_model *m)
{
    sqlite3_stmt *st = NULL;
    int rc;
    if (sqlite3_prepare_v2(s->db, "SELECT page, imatch FROM ce_pages WHERE site = ?", -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "reading ce_pages");
        return -1;
    }
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int page = sqlite3_column_int(st, 0);
        if (page < 0 || page >= WN_CE_TRAINING_PAGES) continue;
        m->ce.page_imatch[page] = (uint64_t)sqlite3_column_int64(st, 1);
        if ((uint32_t)page + 1 > m->ce.pages) m->ce.pages = (uint32_t)page + 1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { set_err(s, "reading ce_pages"); return -1; }
    if (sqlite3_prepare_v2(s->db, "SELECT page, path, vec FROM ce_blocks WHERE site = ? ORDER BY rowid", -1,
                           &st, NULL) != SQLITE_OK) {
        set_err(s, "reading ce_blocks");
        return -1;
    }
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        wn_ce_vec v;
        if (wn_ce_vec_unpack(sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2), &v) != 0) {
            snprintf(s->error, sizeof s->error, "site %s: a stored ContentExtractor block is damaged", m->name);
            sqlite3_finalize(st);
            return -1;
        }
        int r = wn_ce_model_put_block(&m->ce, (uint32_t)sqlite3_column_int(st, 0),
                                      (uint64_t)sqlite3_column_int64(st, 1), &v);
        wn_ce_vec_free(&v);
        if (r != 0) { rc = SQLITE_CORRUPT; break; }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { set_err(s, "reading ce_blocks"); return -1; }
    m->ce.dirty = 0;
    return 0;
}

static int save_ce(wn_store *s, wn_site_model *m)
{
    if (!m->ce.dirty) return 0;
    sqlite3_stmt *st = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM ce_blocks WHERE site = %lld; DELETE FROM ce_pages WHERE site = %lld;",
             (long long)m->id, (long long)m->id);
    if (exec(s, sql) != 0) return -1;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO ce_pages(site, page, imatch) VALUES(?,?,?)", -1, &st, NULL) !=
        SQLITE_OK) {
        set_err(s, "writing ce_pages");
        return -1;
    }
    for (uint32_t p = 0; p < m->ce.pages; p++) {
        sqlite3_bind_int64(st, 1, m->id);
        sqlite3_bind_int(st, 2, (int)p);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)m->ce.page_imatch[p]);
        int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) { set_err(s, "writing ce_pages"); sqlite3_finalize(st); return -1; }
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(s->db, "INSERT INTO ce_blocks(site, page, path, vec) VALUES(?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK) {
        set_err(s, "writing ce_blocks");
        return -1;
    }
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
    if (rc != SQLITE_DONE) { set_err(s, "writing ce_blocks"); return -1; }
    return 0;
}

static int load_site(wn_store *s, const char *site, wn_site_model **out);

/* One read transaction: a learn committing meanwhile is seen whole or not
 * at all, never half. */
int wn_store_load(wn_store *s, const char *site, wn_site_model **out)
{
    *out = NULL;
    if (exec(s, "BEGIN") != 0) return -1;
    int rc = load_site(s, site, out);
    exec(s, rc == 0 ? "COMMIT" : "ROLLBACK");
    return rc;
}

static int load_site(wn_store *s, const char *site, wn_site_model **out)
{
    *out = NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT id, clock, pages, half_life, updated FROM sites WHERE name = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        set_err(s, "reading sites");
        return -1;
    }
    sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) { sqlite3_finalize(st); return 0; }
    if (rc != SQLITE_ROW) { set_err(s, "reading sites"); sqlite3_finalize(st); return -1; }
    wn_site_model *m = wn_site_model_new(site, sqlite3_column_double(st, 3));
    if (!m) { sqlite3_finalize(st); snprintf(s->error, sizeof s->error, "out of memory"); return -1; }
    m->id = sqlite3_column_int64(st, 0);
    m->clock = sqlite3_column_double(st, 1);
    m->pages = sqlite3_column_double(st, 2);
    m->updated = sqlite3_column_int64(st, 4);
    m->loaded_clock = m->clock;
    sqlite3_finalize(st);

    if (sqlite3_prepare_v2(s->db, "SELECT kind, key, df, t, sample FROM keys WHERE site = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        set_err(s, "reading keys");
        wn_site_model_free(m);
        return -1;
    }
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *sample = sqlite3_column_text(st, 4);
        if (wn_site_model_put_key(m, (uint8_t)sqlite3_column_int(st, 0), (uint64_t)sqlite3_column_int64(st, 1),
                                  sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
                                  (const char *)sample) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { set_err(s, "reading keys"); wn_site_model_free(m); return -1; }

    if (sqlite3_prepare_v2(s->db, "SELECT imatch, t, url FROM pages WHERE site = ?", -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "reading pages");
        wn_site_model_free(m);
        return -1;
    }
    sqlite3_bind_int64(st, 1, m->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (wn_site_model_put_page(m, (uint64_t)sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1),
                                   (const char *)sqlite3_column_text(st, 2)) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) { set_err(s, "reading pages"); wn_site_model_free(m); return -1; }
    if (load_ce(s, m) != 0) { wn_site_model_free(m); return -1; }
    *out = m;
    return 0;
}

/* SQLite orders INTEGER keys as signed 64-bit numbers. */
static int cmp_entry(const void *a, const void *b)
{
    const wn_key_entry *x = *(wn_key_entry *const *)a, *y = *(wn_key_entry *const *)b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    int64_t kx = (int64_t)x->key, ky = (int64_t)y->key;
    return kx < ky ? -1 : kx > ky;
}

int wn_store_save(wn_store *s, wn_site_model *m)
{
    if (!m->dirty) return 0;
    time_t now = time(NULL);
    sqlite3_stmt *st = NULL;
    /* another learn may have saved this site since it was loaded: its
     * counts would be overwritten, so refuse (the caller rolls back) */
    if (sqlite3_prepare_v2(s->db, "SELECT clock FROM sites WHERE name = ?", -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "reading site");
        return -1;
    }
    sqlite3_bind_text(st, 1, m->name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    double stored_clock = found ? sqlite3_column_double(st, 0) : -1.0;
    sqlite3_finalize(st);
    if (stored_clock != m->loaded_clock) {
        snprintf(s->error, sizeof s->error,
                 "%s: site %s was changed by another learn while this one ran; nothing was saved, run it again",
                 s->path, m->name);
        return -1;
    }
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO sites(name, clock, pages, half_life, created, updated) VALUES(?,?,?,?,?,?) "
                           "ON CONFLICT(name) DO UPDATE SET clock=excluded.clock, pages=excluded.pages, "
                           "half_life=excluded.half_life, updated=excluded.updated RETURNING id",
                           -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "writing site");
        return -1;
    }
    sqlite3_bind_text(st, 1, m->name, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 2, m->clock);
    sqlite3_bind_double(st, 3, m->pages);
    sqlite3_bind_double(st, 4, m->half_life);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)now);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)now);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) m->id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) { set_err(s, "writing site"); return -1; }
    m->updated = (int64_t)now;

    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO keys(site, kind, key, df, t, sample) VALUES(?,?,?,?,?,?) "
                           "ON CONFLICT(site, kind, key) DO UPDATE SET df=excluded.df, t=excluded.t, "
                           "sample=coalesce(keys.sample, excluded.sample)",
                           -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "writing keys");
        return -1;
    }
    /* in primary-key order: B-tree inserts then append instead of splitting
     * pages all over the table (several times faster on a fresh site) */
    size_t ndirty = 0;
    for (size_t i = 0; i < m->keys_cap; i++) ndirty += m->keys[i].used && m->keys[i].dirty;
    wn_key_entry **order = malloc((ndirty + 1) * sizeof *order);
    if (!order) { sqlite3_finalize(st); snprintf(s->error, sizeof s->error, "out of memory"); return -1; }
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
        if (rc != SQLITE_DONE) { set_err(s, "writing keys"); sqlite3_finalize(st); free(order); return -1; }
    }
    free(order);
    sqlite3_finalize(st);

    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO pages(site, imatch, t, url) VALUES(?,?,?,?) "
                           "ON CONFLICT(site, imatch) DO UPDATE SET t=excluded.t, url=excluded.url",
                           -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "writing pages");
        return -1;
    }
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
        if (rc != SQLITE_DONE) { set_err(s, "writing pages"); sqlite3_finalize(st); return -1; }
    }
    sqlite3_finalize(st);
    return save_ce(s, m);
}

void wn_store_saved(wn_site_model *m)
{
    m->loaded_clock = m->clock;
    m->ce.dirty = 0;
    for (size_t i = 0; i < m->keys_cap; i++) m->keys[i].dirty = 0;
    for (size_t i = 0; i < m->pages_cap; i++) m->page_tab[i].dirty = 0;
    m->dirty = 0;
}

int wn_store_sites(wn_store *s, int (*fn)(void *ctx, const wn_site_row *row), void *ctx)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT name, clock, pages, half_life, updated, "
                           "(SELECT count(*) FROM keys WHERE keys.site = sites.id) FROM sites ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK) {
        set_err(s, "listing sites");
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        wn_site_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.name, sizeof row.name, "%s", (const char *)sqlite3_column_text(st, 0));
        row.clock = sqlite3_column_double(st, 1);
        row.pages = sqlite3_column_double(st, 2);
        row.half_life = sqlite3_column_double(st, 3);
        row.updated = sqlite3_column_int64(st, 4);
        row.keys = sqlite3_column_int64(st, 5);
        if (fn(ctx, &row) != 0) break;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) { set_err(s, "listing sites"); return -1; }
    return 0;
}
