/* The site store's reads: one site loaded into a model, checked against
 * its checksums, and the list of sites (every row checked before the first
 * is shown). The sites query and its head columns are shared with the
 * checks (store_check.c). */
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

/* "SELECT SITE_COLUMNS FROM sites s, its sums u, TAIL": format 1 has no sums. */
const char *wn_store_site_query(const wn_store *s, char *buf, size_t cap, const char *extra, const char *tail)
{
    snprintf(buf, cap, "SELECT " SITE_COLUMNS "%s FROM sites s LEFT JOIN %s u ON u.site = s.id %s", extra,
             s->format >= 2 ? "sums" : "(SELECT 0 AS site, 0 AS nkeys, 0 AS npages, 0 AS body, 0 AS head WHERE 0)",
             tail);
    return buf;
}

/* The columns SITE_COLUMNS names, from column `col` on. */
void wn_store_read_head(sqlite3_stmt *st, int col, site_head *h)
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
int wn_store_head_ok(const site_head *h) { return h->has_sums && head_of(h) == h->head; }

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
        if (page < 0 || page >= WN_CE_TRAINING_PAGES) {
            odd = 1;
            continue;
        }
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
        if (page < 0 || page >= WN_CE_TRAINING_PAGES || wn_ce_vec_unpack(blob, len, &v) != 0) {
            odd = 1;
            continue;
        }
        int r = wn_ce_model_put_block(&m->ce, (uint32_t)page, (uint64_t)sqlite3_column_int64(st, 1), &v);
        wn_ce_vec_free(&v);
        if (r != 0) {
            sqlite3_finalize(st);
            return fail(s, WINNOW_E_NOMEM, "out of memory");
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail_sql(s, "reading ce_blocks");
    if (odd && s->format < 2)
        return fail(s, WINNOW_E_DB_DAMAGED,
                    "site database %s is damaged: site %s: a stored ContentExtractor block is "
                    "out of shape",
                    s->path, m->name);
    m->ce.dirty = 0;
    return 0;
}

static int damaged_site(wn_store *s, const char *site, const char *what)
{
    return fail(s, WINNOW_E_DB_DAMAGED,
                "site database %s is damaged: site %s: %s (winnow check --db %s lists every problem)", s->path, site,
                what, s->path);
}

int wn_store_load_site(wn_store *s, const char *site, wn_site_model **out)
{
    *out = NULL;
    sqlite3_stmt *st = NULL;
    char sql[512];
    if (prepare(s, &st, wn_store_site_query(s, sql, sizeof sql, "", "WHERE s.name = ?"), "reading sites") != 0)
        return -1;
    sqlite3_bind_text(st, 1, site, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(st);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return fail_sql(s, "reading sites");
    }
    site_head h;
    wn_store_read_head(st, 0, &h);
    if (s->format >= 2 && !wn_store_head_ok(&h)) {
        sqlite3_finalize(st);
        return damaged_site(s, site, h.has_sums ? "its record does not match its checksum" : "it has no checksum");
    }
    wn_site_model *m = wn_site_model_new(site, h.half_life);
    if (!m) {
        sqlite3_finalize(st);
        return fail(s, WINNOW_E_NOMEM, "out of memory");
    }
    m->id = h.id;
    m->clock = h.clock;
    m->pages = h.pages;
    m->half_life = h.half_life;
    m->updated = h.updated;
    m->stored_head = h.head;
    wn_site_sums want = h.sums;
    sqlite3_finalize(st);

    wn_site_sums got = { 0, 0, 0 };
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
    if (rc != SQLITE_DONE) {
        fail_sql(s, "reading keys");
        goto failed;
    }

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
    if (rc != SQLITE_DONE) {
        fail_sql(s, "reading pages");
        goto failed;
    }
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
    int rc = wn_store_load_site(s, site, out);
    sqlite3_exec(s->db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    return rc;
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
    problems pr = { NULL, NULL, 0, "" };
    uint64_t want = 0, sum = 0;
    if (wn_store_read_meta(s, &pr, &want) != 0) goto done;
    char sql[512];
    if (prepare(s, &st,
                wn_store_site_query(s, sql, sizeof sql, ", (SELECT count(*) FROM keys WHERE keys.site = s.id)",
                                    "ORDER BY s.name"),
                "listing sites") != 0)
        goto done;
    /* every row is read and checked before the first is shown */
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            listed *r = realloc(rows, cap * sizeof *r);
            if (!r) {
                fail(s, WINNOW_E_NOMEM, "out of memory");
                goto done;
            }
            rows = r;
        }
        listed *l = &rows[n];
        wn_store_read_head(st, 0, &l->h);
        l->keys = sqlite3_column_int64(st, 12);
        if (!(l->name = strdup(l->h.name))) {
            fail(s, WINNOW_E_NOMEM, "out of memory");
            goto done;
        }
        l->h.name = l->name;
        n++;
        sum += l->h.head;
        if (s->format < 2) continue;
        if (!wn_store_head_ok(&l->h)) {
            damaged_site(s, l->name, l->h.has_sums ? "its record does not match its checksum" : "it has no checksum");
            goto done;
        }
        if (l->keys != l->h.sums.nkeys) {
            damaged_site(s, l->name, "it has another number of fingerprints than its checksum counts");
            goto done;
        }
    }
    if (step != SQLITE_DONE) {
        fail_sql(s, "listing sites");
        goto done;
    }
    if (pr.count || (s->format >= 2 && sum != want)) {
        fail(s, WINNOW_E_DB_DAMAGED, "site database %s is damaged: %s (winnow check --db %s lists every problem)",
             s->path,
             pr.count ? pr.first : "the list of sites does not match its checksum (a site was lost or changed)",
             s->path);
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        const listed *l = &rows[i];
        wn_site_row row = { l->name, l->h.clock, l->h.pages, l->h.half_life, l->h.updated, l->keys };
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
