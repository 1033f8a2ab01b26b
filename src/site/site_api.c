/* Public API over the site store: open, load, save, list, check, inspect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partial.h"
#include "site_api.h"
#include "store.h"
#include "../util/structs.h"

#define REPORT_V1 WN_FIELD_END(winnow_sitedb_report, problems)
#define MERGE_OPTIONS_V1 WN_FIELD_END(winnow_merge_options, commit_every)
#define MERGE_REPORT_V1 WN_FIELD_END(winnow_merge_report, duplicates)

struct winnow_sitedb {
    wn_store *store;
    char error[1024];
};

winnow_status winnow_sitedb_open(const char *path, winnow_sitedb_access access, winnow_sitedb **out, char *err,
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
        snprintf(err, errcap, "no site database path given");
        return WINNOW_E_ARG;
    }
    if (access != WINNOW_SITEDB_READ && access != WINNOW_SITEDB_WRITE) {
        snprintf(err, errcap, "access is neither WINNOW_SITEDB_READ nor WINNOW_SITEDB_WRITE");
        return WINNOW_E_ARG;
    }
    winnow_sitedb *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    winnow_status st = WINNOW_OK;
    db->store = wn_store_open(path, access == WINNOW_SITEDB_WRITE, &st, err, errcap);
    if (!db->store) {
        free(db);
        return st;
    }
    *out = db;
    return WINNOW_OK;
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

/* The store's failure, kept as the handle's error. */
static winnow_status store_failed(winnow_sitedb *db)
{
    snprintf(db->error, sizeof db->error, "%s", wn_store_error(db->store));
    winnow_status st = wn_store_status(db->store);
    return st == WINNOW_OK ? WINNOW_E_DB : st;
}

winnow_status winnow_site_load(winnow_sitedb *db, const char *name, double half_life, winnow_site **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!db || !name || !*name) return WINNOW_E_ARG;
    db->error[0] = '\0';
    wn_site_model *m = NULL;
    if (wn_store_load(db->store, name, &m) != 0) return store_failed(db);
    if (!m) m = wn_site_model_new(name, half_life);
    if (!m) return WINNOW_E_NOMEM;
    m->journal.on = 1; /* so that a save can merge with another learn's */
    *out = wn_site_wrap(m);
    if (!*out) {
        wn_site_model_free(m);
        return WINNOW_E_NOMEM;
    }
    return WINNOW_OK;
}

winnow_status winnow_sitedb_save(winnow_sitedb *db, winnow_site *const *sites, size_t n)
{
    if (!db || (n && !sites)) return WINNOW_E_ARG;
    db->error[0] = '\0';
    wn_site_model **models = calloc(2 * n + 1, sizeof *models);
    if (!models) return WINNOW_E_NOMEM;
    wn_site_model **use = models + n;
    for (size_t i = 0; i < n; i++) models[i] = wn_site_unwrap(sites[i]);
    winnow_status st = WINNOW_OK;
    if (wn_store_save(db->store, models, n, use) != 0)
        st = store_failed(db);
    else
        for (size_t i = 0; i < n; i++)
            if (use[i]) wn_site_rewrap(sites[i], use[i]);
    free(models);
    return st;
}

typedef struct list_ctx {
    winnow_site_fn fn;
    void *ctx;
} list_ctx;

static int list_row(void *c, const wn_site_row *row)
{
    list_ctx *lc = c;
    winnow_site_summary s = {
        sizeof s, row->name, row->pages, row->clock, row->half_life, (long long)row->updated, (long long)row->keys
    };
    return lc->fn(lc->ctx, &s);
}

winnow_status winnow_sitedb_list(winnow_sitedb *db, winnow_site_fn fn, void *ctx)
{
    if (!db || !fn) return WINNOW_E_ARG;
    db->error[0] = '\0';
    list_ctx lc = { fn, ctx };
    return wn_store_sites(db->store, list_row, &lc) == 0 ? WINNOW_OK : store_failed(db);
}

winnow_status winnow_sitedb_check(winnow_sitedb *db, winnow_problem_fn problem, void *ctx, winnow_sitedb_report *report)
{
    if (!db) return WINNOW_E_ARG;
    db->error[0] = '\0';
    if (report) {
        size_t size;
        memcpy(&size, report, sizeof size);
        if (size < REPORT_V1) {
            snprintf(db->error, sizeof db->error,
                     "winnow_sitedb_report.struct_size is not sizeof (winnow_sitedb_report)");
            return WINNOW_E_ARG;
        }
    }
    wn_store_report rep;
    int r = wn_store_check(db->store, problem, ctx, &rep);
    if (r < 0) return store_failed(db);
    if (report) {
        winnow_sitedb_report out = { sizeof out, rep.format,   rep.sites,     rep.keys,
                                     rep.pages,  rep.ce_pages, rep.ce_blocks, rep.problems };
        wn_struct_out(report, &out, sizeof out, REPORT_V1);
    }
    if (r > 0) {
        snprintf(db->error, sizeof db->error, "site database is damaged: %zu problem%s", rep.problems,
                 rep.problems == 1 ? "" : "s");
        return WINNOW_E_DB_DAMAGED;
    }
    return WINNOW_OK;
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

winnow_status winnow_site_templates(const winnow_site *s, double min_share, winnow_template_fn fn, void *ctx)
{
    static const char *const kinds[WN_KEY_KINDS] = { "", "block", "path-block", "chunk", "table-chunk" };
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
        if (df + 1e-9 >= threshold && e->kind < WN_KEY_KINDS)
            rows[n++] = (tmpl_row){ df, e->kind, wn_site_model_sample(m, e) };
    }
    qsort(rows, n, sizeof *rows, cmp_tmpl);
    for (size_t i = 0; i < n; i++)
        if (fn(ctx, kinds[rows[i].kind], rows[i].df, rows[i].sample ? rows[i].sample : "") != 0) break;
    free(rows);
    return WINNOW_OK;
}

winnow_status winnow_sitedb_merge(winnow_sitedb *db, const char *const *parts, size_t nparts,
                                  const winnow_merge_options *opt, winnow_merge_report *report)
{
    if (!db) return WINNOW_E_ARG;
    db->error[0] = '\0';
    winnow_merge_options o;
    winnow_merge_options_default(&o, sizeof o);
    if (opt && wn_struct_in(&o, sizeof o, opt, MERGE_OPTIONS_V1) != 0) {
        snprintf(db->error, sizeof db->error, "winnow_merge_options.struct_size is not sizeof (winnow_merge_options)");
        return WINNOW_E_ARG;
    }
    if (report) {
        size_t size;
        memcpy(&size, report, sizeof size);
        if (size < MERGE_REPORT_V1 || size > WN_STRUCT_MAX) {
            snprintf(db->error, sizeof db->error,
                     "winnow_merge_report.struct_size is not sizeof (winnow_merge_report)");
            return WINNOW_E_ARG;
        }
    }
    if (nparts && !parts) {
        snprintf(db->error, sizeof db->error, "no partial files given");
        return WINNOW_E_ARG;
    }
    for (size_t i = 0; i < nparts; i++)
        if (!parts[i] || !*parts[i]) {
            snprintf(db->error, sizeof db->error, "partial file %zu has no name", i + 1);
            return WINNOW_E_ARG;
        }
    wn_merge_counts c;
    winnow_status st = WINNOW_OK;
    int rc = wn_partial_merge(db->store, parts, nparts, o.commit_every, &c, &st, db->error, sizeof db->error);
    if (report) {
        winnow_merge_report out = { sizeof out, c.parts, c.sites, c.pages, c.counted, c.duplicates };
        wn_struct_out(report, &out, sizeof out, MERGE_REPORT_V1);
    }
    if (rc != 0) return st == WINNOW_OK ? WINNOW_E_DB : st;
    return WINNOW_OK;
}
