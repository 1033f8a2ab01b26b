/* The site store's checks: the schema against the format's, meta, every
 * site's record against its head checksum (what a reader checks on open),
 * and the whole file (SQLite's integrity check, then every row of every
 * table against its site's checksums: what a writer checks on open and
 * `winnow check --db` runs). */
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

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
int wn_store_check_schema(wn_store *s, problems *pr)
{
    char **want;
    size_t nwant;
    if (wn_store_reference_schema(s->format, &want, &nwant) != 0) {
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
int wn_store_read_meta(wn_store *s, problems *pr, uint64_t *heads)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, "SELECT key, value FROM meta ORDER BY key", "reading meta") != 0) return -1;
    int rc, rows = 0, format_ok = 0, heads_ok = s->format < 2;
    *heads = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
        rows++;
        if (!k || !v) continue;
        if (!strcmp(k, "format"))
            format_ok = !strcmp(v, "winnow-sites");
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

/* Every site's row against its head checksum, and all heads against meta's
 * sum: what a reader checks on open, O(sites). */
int wn_store_check_catalogue(wn_store *s, problems *pr)
{
    uint64_t want;
    if (wn_store_read_meta(s, pr, &want) != 0) return -1;
    if (s->format < 2) return 0;
    sqlite3_stmt *st;
    char sql[512];
    if (prepare(s, &st, wn_store_site_query(s, sql, sizeof sql, "", "ORDER BY s.id"), "reading sites") != 0) return -1;
    int rc;
    uint64_t sum = 0;
    long long nsites = 0, nsums = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        site_head h;
        wn_store_read_head(st, 0, &h);
        nsites++;
        if (!h.has_sums)
            problem(pr, "site %s has no checksum", h.name);
        else if (!wn_store_head_ok(&h))
            problem(pr, "site %s: its record does not match its checksum", h.name);
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
    site_acc key = { .id = id };
    return bsearch(&key, acc, n, sizeof *acc, cmp_acc);
}

/* Scans one table and adds each row's hash to its site. */
static int scan_table(wn_store *s, const char *sql, const char *table, int kind, site_acc *acc, size_t n, size_t *rows,
                      problems *pr)
{
    sqlite3_stmt *st;
    if (prepare(s, &st, sql, table) != 0) return -1;
    int rc;
    long long orphans = 0;
    *rows = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        (*rows)++;
        site_acc *a = find_acc(acc, n, sqlite3_column_int64(st, 0));
        if (!a) {
            orphans++;
            continue;
        }
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
int wn_store_check_all(wn_store *s, problems *pr, wn_store_report *rep)
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
    if (step != SQLITE_DONE) {
        fail_sql(s, "checking integrity");
        goto done;
    }
    /* what follows reads the tables: not when they are not the format's */
    if (pr->count) {
        rc = 0;
        goto done;
    }
    if (wn_store_check_schema(s, pr) != 0) goto done;
    if (pr->count) {
        rc = 0;
        goto done;
    }
    if (wn_store_check_catalogue(s, pr) != 0) goto done;
    if (pr->count) {
        rc = 0;
        goto done;
    } /* the tables cannot be trusted to scan */

    char sql[512];
    if (prepare(s, &st, wn_store_site_query(s, sql, sizeof sql, "", "ORDER BY s.id"), "reading sites") != 0) goto done;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            site_acc *a = realloc(acc, cap * sizeof *a);
            if (!a) {
                sqlite3_finalize(st);
                fail(s, WINNOW_E_NOMEM, "out of memory");
                goto done;
            }
            acc = a;
        }
        site_head h;
        wn_store_read_head(st, 0, &h);
        acc[n] = (site_acc){ h.id, strdup(h.name), h.sums, { 0, 0, 0 }, h.has_sums };
        if (!acc[n++].name) {
            sqlite3_finalize(st);
            fail(s, WINNOW_E_NOMEM, "out of memory");
            goto done;
        }
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        fail_sql(s, "reading sites");
        goto done;
    }
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
            problem(pr, "site %s: %lld fingerprints and %lld pages stored, its checksum counts %lld and %lld", a->name,
                    (long long)a->got.nkeys, (long long)a->got.npages, (long long)a->want.nkeys,
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
    problems pr = { fn, ctx, 0, "" };
    wn_store_report local;
    if (!out) out = &local;
    if (wn_store_check_all(s, &pr, out) != 0) {
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
