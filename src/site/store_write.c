/* The site store's writes: a save is one transaction over the changed
 * models (their changed rows, CE training blocks and checksums, then
 * meta's sum of all heads), merging a site that another writer saved
 * since it was loaded. */
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- writing ---- */

int wn_store_write_meta_heads(wn_store *s)
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

int wn_store_write_sums(wn_store *s, int64_t id, const wn_site_sums *sums, uint64_t head)
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
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return fail_sql(s, "writing ce_pages");
        }
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
            if (!nb) {
                rc = SQLITE_NOMEM;
                break;
            }
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
    if (!order) {
        sqlite3_finalize(st);
        return fail(s, WINNOW_E_NOMEM, "out of memory");
    }
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
        if (sample)
            sqlite3_bind_text(st, 6, sample, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 6);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            free(order);
            return fail_sql(s, "writing keys");
        }
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
        if (p->url)
            sqlite3_bind_text(st, 4, p->url, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 4);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return fail_sql(s, "writing pages");
        }
    }
    sqlite3_finalize(st);
    if (save_ce(s, m) != 0) return -1;

    /* the checksums, from the model: it holds every row the site has */
    wn_site_sums sums;
    if (wn_site_model_sums(m, &sums) != 0) return fail(s, WINNOW_E_NOMEM, "out of memory");
    *head = wn_sum_head(m->id, m->name, m->clock, m->pages, m->half_life, created, m->updated, &sums);
    return wn_store_write_sums(s, m->id, &sums, *head);
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
        return fail(s, WINNOW_E_DB_READONLY,
                    "%s was opened for reading (WINNOW_SITEDB_READ): open it for writing to save", s->path);
    uint64_t *heads = calloc(n + 1, sizeof *heads);
    if (!heads) return fail(s, WINNOW_E_NOMEM, "out of memory");
    if (exec(s, "BEGIN IMMEDIATE", "starting to save") != 0) {
        free(heads);
        return -1;
    }
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
            if (wn_store_load_site(s, m->name, &merged) != 0) goto failed;
            if (!merged && !(merged = wn_site_model_new(m->name, m->half_life))) {
                fail(s, WINNOW_E_NOMEM, "out of memory");
                goto failed;
            }
            use[i] = merged;
            if (wn_site_model_replay(merged, m, NULL) != 0) {
                fail(s, WINNOW_E_NOMEM, "out of memory");
                goto failed;
            }
            merged->journal.on = 1;
            target = merged;
        }
        if (write_site(s, target, &heads[i]) != 0) goto failed;
    }
    if (any && (wn_store_write_meta_heads(s) != 0 || exec(s, "COMMIT", "committing") != 0)) goto failed;
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
