/* Public API over the site store: open, load, save, list, inspect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_api.h"
#include "store.h"

struct winnow_sitedb {
    wn_store *store;
    char error[512];
};

winnow_sitedb *winnow_sitedb_open(const char *path, int writable, char *err, size_t errcap)
{
    char local[512];
    if (!err || !errcap) { err = local; errcap = sizeof local; }
    err[0] = '\0';
    if (!path || !*path) { snprintf(err, errcap, "no site database path given"); return NULL; }
    winnow_sitedb *db = calloc(1, sizeof *db);
    if (!db) { snprintf(err, errcap, "out of memory"); return NULL; }
    db->store = wn_store_open(path, writable, err, errcap);
    if (!db->store) { free(db); return NULL; }
    return db;
}

void winnow_sitedb_close(winnow_sitedb *db)
{
    if (!db) return;
    wn_store_close(db->store);
    free(db);
}

const char *winnow_sitedb_error(const winnow_sitedb *db)
{
    if (!db) return "";
    return db->error[0] ? db->error : wn_store_error(db->store);
}

winnow_status winnow_site_load(winnow_sitedb *db, const char *name, double half_life, winnow_site **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!db || !name || !*name) return WINNOW_E_ARG;
    wn_site_model *m = NULL;
    if (wn_store_load(db->store, name, &m) != 0) return WINNOW_E_IO;
    if (!m) m = wn_site_model_new(name, half_life);
    if (!m) return WINNOW_E_NOMEM;
    *out = wn_site_wrap(m);
    if (!*out) { wn_site_model_free(m); return WINNOW_E_NOMEM; }
    return WINNOW_OK;
}

winnow_status winnow_sitedb_save(winnow_sitedb *db, winnow_site *const *sites, size_t n)
{
    if (!db) return WINNOW_E_ARG;
    db->error[0] = '\0';
    if (wn_store_begin(db->store) != 0) return WINNOW_E_IO;
    for (size_t i = 0; i < n; i++) {
        wn_site_model *m = wn_site_unwrap(sites[i]);
        if (m && wn_store_save(db->store, m) != 0) {
            snprintf(db->error, sizeof db->error, "%s", wn_store_error(db->store));
            wn_store_rollback(db->store);
            return WINNOW_E_IO;
        }
    }
    if (wn_store_commit(db->store) != 0) {
        snprintf(db->error, sizeof db->error, "%s", wn_store_error(db->store));
        wn_store_rollback(db->store);
        return WINNOW_E_IO;
    }
    for (size_t i = 0; i < n; i++)
        if (wn_site_unwrap(sites[i])) wn_store_saved(wn_site_unwrap(sites[i]));
    return WINNOW_OK;
}

typedef struct list_ctx {
    int (*fn)(void *ctx, const winnow_site_summary *s);
    void *ctx;
} list_ctx;

static int list_row(void *c, const wn_site_row *row)
{
    list_ctx *lc = c;
    winnow_site_summary s = {row->name, row->pages, row->clock, row->half_life, (long long)row->updated,
                             (long long)row->keys};
    return lc->fn(lc->ctx, &s);
}

winnow_status winnow_sitedb_list(winnow_sitedb *db, int (*fn)(void *ctx, const winnow_site_summary *s), void *ctx)
{
    if (!db || !fn) return WINNOW_E_ARG;
    list_ctx lc = {fn, ctx};
    return wn_store_sites(db->store, list_row, &lc) == 0 ? WINNOW_OK : WINNOW_E_IO;
}

typedef struct tmpl_row {
    double df;
    uint8_t kind;
    const char *sample;
} tmpl_row;

static int cmp_tmpl(const void *a, const void *b)
{
    const tmpl_row *x = a, *y = b;
    if (x->df != y->df) return x->df > y->df ? -1 : 1;
    return x->kind - y->kind;
}

winnow_status winnow_site_templates(const winnow_site *s, double min_share,
                                    int (*fn)(void *ctx, const char *kind, double df, const char *sample), void *ctx)
{
    static const char *const kinds[WN_KEY_KINDS] = {"", "block", "path-block", "chunk", "table-chunk"};
    wn_site_model *m = wn_site_unwrap(s);
    if (!m || !fn) return WINNOW_E_ARG;
    double pages = wn_site_model_pages(m);
    double threshold = min_share * pages;
    /* as for judging pages: at least two pages' worth (aged), unless the
     * caller asks for everything */
    if (min_share > 0 && threshold < 1.5 && pages >= 2.0) threshold = 1.5;
    tmpl_row *rows = malloc((m->keys_count + 1) * sizeof *rows);
    if (!rows) return WINNOW_E_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < m->keys_cap; i++) {
        const wn_key_entry *e = &m->keys[i];
        if (!e->used) continue;
        double df = e->df * wn_site_model_decay(m, e->t);
        if (df + 1e-9 >= threshold && e->kind < WN_KEY_KINDS) rows[n++] = (tmpl_row){df, e->kind, wn_site_model_sample(m, e)};
    }
    qsort(rows, n, sizeof *rows, cmp_tmpl);
    for (size_t i = 0; i < n; i++)
        if (fn(ctx, kinds[rows[i].kind], rows[i].df, rows[i].sample ? rows[i].sample : "") != 0) break;
    free(rows);
    return WINNOW_OK;
}
