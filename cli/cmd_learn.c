/* winnow learn: count pages into their sites' models and save them in
 * batches (a transaction every --commit-every pages and every 30 s, so an
 * interrupted run keeps what it had saved); with --batch, then extract
 * every page with its site model.
 *
 * SIGINT and SIGTERM stop the run after the page being learned: what was
 * read is saved, a line says how many pages of how many sites the run
 * saved, and the exit status is 128 + the signal (130, 143). A second
 * signal stops at once; the batches saved so far stay. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

typedef struct kept_page {
    cli_page page;
    winnow_site *site;
} kept_page;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int extract_kept(const cli_opts *o, winnow_engine *e, kept_page *pages, size_t n, cli_manifest *manifest,
                        int *no_content)
{
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        cli_page *p = &pages[i].page;
        winnow_source src = {p->file, p->record, p->record_id};
        winnow_input input = {p->data, p->len, p->charset, p->url, &src};
        winnow_doc *doc = NULL;
        winnow_status s = winnow_extract_site(e, &input, pages[i].site, &o->site_opt, &doc);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", p->source, winnow_engine_error(e));
            cli_manifest_page(manifest, p, "", s, winnow_engine_error(e));
            failed++;
            continue;
        }
        if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) (*no_content)++;
        char *out_path = cli_output_path(o, p, 1);
        char err[1024] = "out of memory";
        winnow_status rs = o->output && !out_path ? WINNOW_E_NOMEM
                                                  : cli_write_doc(o, doc, out_path, 1, err, sizeof err);
        if (rs != WINNOW_OK) {
            cli_report("winnow: %s: %s\n", p->source, err);
            cli_manifest_page(manifest, p, "", rs, err);
            failed++;
        } else {
            const char *base = out_path ? strrchr(out_path, '/') : NULL;
            cli_manifest_page(manifest, p, base ? base + 1 : out_path, s, winnow_doc_warning(doc));
        }
        free(out_path);
        winnow_doc_free(doc);
    }
    return failed;
}

/* Set by SIGINT or SIGTERM: the signal's number. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND; /* a second signal ends the run at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Pages this run counted per site (cli_sites keeps sites in the order
 * they came): not saved yet, and saved. */
typedef struct tally {
    size_t *pending, *saved;
    size_t cap;
} tally;

static int tally_add(tally *t, cli_sites *sites, const winnow_site *site)
{
    winnow_site **all;
    size_t n = cli_sites_all(sites, &all), i = n;
    while (i > 0 && all[i - 1] != site) i--;
    if (i == 0) return 0;
    if (n > t->cap) {
        size_t cap = n * 2;
        size_t *p = realloc(t->pending, cap * sizeof *p), *q = p ? realloc(t->saved, cap * sizeof *q) : NULL;
        if (p) t->pending = p;
        if (!p || !q) return -1;
        t->saved = q;
        memset(t->pending + t->cap, 0, (cap - t->cap) * sizeof *p);
        memset(t->saved + t->cap, 0, (cap - t->cap) * sizeof *q);
        t->cap = cap;
    }
    t->pending[i - 1]++;
    return 0;
}

static void tally_saved(tally *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        t->saved[i] += t->pending[i];
        t->pending[i] = 0;
    }
}

static size_t tally_sum(const tally *t, size_t *sites)
{
    size_t pages = 0;
    *sites = 0;
    for (size_t i = 0; i < t->cap; i++) {
        pages += t->saved[i];
        *sites += t->saved[i] > 0;
    }
    return pages;
}

/* Saves what changed since the last save. A database another writer keeps
 * locked past the timeout is tried again at the next batch (last: up to
 * three times). */
static winnow_status save_batch(const cli_opts *o, winnow_sitedb *db, cli_sites *sites, tally *t, int last)
{
    winnow_site **all;
    size_t n = cli_sites_all(sites, &all);
    winnow_status s;
    for (int attempt = 0;; attempt++) {
        s = winnow_sitedb_save(db, all, n);
        if (s != WINNOW_E_DB_BUSY || !last || attempt == 2) break;
    }
    if (s == WINNOW_OK) tally_saved(t);
    else if (s == WINNOW_E_DB_BUSY && !last && !o->quiet)
        fprintf(stderr, "winnow: warning: %s; trying again after the next batch\n", winnow_sitedb_error(db));
    return s;
}

int cmd_learn(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, 2, &o,
                       "--db --site --half-life --batch --output --format --quiet --max-bytes --no-title --mode "
                       "--method --charset --model --no-model --no-smooth --rule --commit-every");
    if (rc) { free(o.inputs); return rc; }
    if (o.ninputs == 0) { fprintf(stderr, "winnow: learn needs pages (directories, WARC or JSONL files)\n"); free(o.inputs); return EXIT_USAGE; }
    if (!o.db_path && !o.batch) { fprintf(stderr, "winnow: learn needs --db PATH (or --batch)\n"); free(o.inputs); return EXIT_USAGE; }

    /* before the database is opened: a signal while it is checked or
     * created still ends the run through the same path */
    catch_stop_signals();
    winnow_sitedb *db = NULL;
    if (o.db_path) {
        char err[1024];
        winnow_status st = winnow_sitedb_open_ex(o.db_path, 1, &db, err, sizeof err);
        if (st != WINNOW_OK) { fprintf(stderr, "winnow: %s\n", err); free(o.inputs); return cli_db_exit(st); }
    }
    cli_sites *sites = cli_sites_new(db, o.half_life);
    cli_inputs *in = cli_inputs_open(&o);
    winnow_engine *e = cli_engine_new(&o);
    kept_page *kept = NULL;
    size_t nkept = 0, capkept = 0;
    tally tl = {NULL, NULL, 0};
    if (!sites || !in || !e) { fprintf(stderr, "winnow: out of memory\n"); return EXIT_SOME_FAILED; }
    /* --batch -o OUT: OUT/NAME.txt for every page, and OUT/manifest.tsv */
    cli_manifest *manifest = NULL;
    if (o.batch && o.output) {
        if (cli_mkdir_p(o.output) != 0) {
            fprintf(stderr, "winnow: cannot create output directory %s: %s\n", o.output, strerror(errno));
            return EXIT_SOME_FAILED;
        }
        if (!(manifest = cli_manifest_open(o.output))) return EXIT_SOME_FAILED;
        cli_inputs_set_manifest(in, manifest);
    }

    double t0 = now_s(), last_save = t0;
    size_t pages = 0, counted = 0, duplicates = 0, bytes = 0, since_save = 0;
    int failed = 0, no_site_reported = 0;
    winnow_status save_status = WINNOW_OK;
    cli_page page;
    while (!stop_signal && cli_inputs_next(in, &page)) {
        pages++;
        bytes += page.len;
        char name[256], err[1200] = "";
        cli_site_name(&o, &page, name, sizeof name);
        if (!*name) {
            if (!no_site_reported++)
                cli_report("winnow: %s: no URL to tell the page's site: give --site NAME\n", page.source);
            cli_manifest_page(manifest, &page, "", WINNOW_E_ARG, "no URL to tell the page's site: give --site NAME");
            failed++;
            cli_page_free(&page);
            continue;
        }
        winnow_site *site = cli_sites_get(sites, name, err, sizeof err);
        if (!site) {
            cli_report("winnow: %s: %s\n", page.source, err);
            cli_manifest_page(manifest, &page, "", WINNOW_E_IO, err);
            failed++;
            cli_page_free(&page);
            if (cli_sites_damaged(sites)) break; /* nothing more is written into it */
            continue;
        }
        winnow_source src = {page.file, page.record, page.record_id};
        winnow_input input = {page.data, page.len, page.charset, page.url, &src};
        int was_counted = 0;
        winnow_status s = winnow_site_learn(e, site, &input, &was_counted);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", page.source, winnow_engine_error(e));
            cli_manifest_page(manifest, &page, "", s, winnow_engine_error(e));
            failed++;
        } else if (was_counted) {
            counted++;
            if (tally_add(&tl, sites, site) != 0) { fprintf(stderr, "winnow: out of memory\n"); return EXIT_SOME_FAILED; }
        } else {
            duplicates++;
        }
        if (o.batch && !WINNOW_FAILED(s)) {
            if (nkept == capkept) {
                capkept = capkept ? capkept * 2 : 256;
                kept_page *k = realloc(kept, capkept * sizeof *k);
                if (!k) { fprintf(stderr, "winnow: out of memory\n"); return EXIT_SOME_FAILED; }
                kept = k;
            }
            kept[nkept++] = (kept_page){page, site};
        } else {
            cli_page_free(&page);
        }
        if (db && (++since_save >= o.commit_every || now_s() - last_save >= 30.0)) {
            /* refused as busy: the next try is a batch later */
            save_status = save_batch(&o, db, sites, &tl, 0);
            if (save_status != WINNOW_OK && save_status != WINNOW_E_DB_BUSY) break;
            since_save = 0;
            last_save = now_s();
        }
    }
    failed += cli_inputs_failed(in);
    double t_learn = now_s() - t0;

    winnow_site **all;
    size_t nsites = cli_sites_all(sites, &all);
    if (cli_sites_damaged(sites)) save_status = WINNOW_E_DB_DAMAGED; /* found damaged meanwhile: no more writes */
    else if (db && (save_status == WINNOW_OK || save_status == WINNOW_E_DB_BUSY))
        save_status = save_batch(&o, db, sites, &tl, 1);
    if (db && save_status != WINNOW_OK && !cli_sites_damaged(sites)) {
        size_t saved_sites, saved = tally_sum(&tl, &saved_sites);
        fprintf(stderr, "winnow: saving to %s failed: %s (the database keeps what this run saved before: %zu pages of %zu site%s)\n",
                o.db_path, winnow_sitedb_error(db), saved, saved_sites, saved_sites == 1 ? "" : "s");
        failed++;
    }
    t_learn = now_s() - t0;
    if (!o.quiet)
        fprintf(stderr,
                "learned %zu pages (%zu counted, %zu duplicates, %d failed) of %zu site%s in %.2f s, %.1f pages/s, %.1f MB/s\n",
                pages, counted, duplicates, failed, nsites, nsites == 1 ? "" : "s", t_learn,
                t_learn > 0 ? (double)pages / t_learn : 0.0, t_learn > 0 ? (double)bytes / 1e6 / t_learn : 0.0);
    int sig = stop_signal;
    if (sig) {
        size_t saved_sites, saved = tally_sum(&tl, &saved_sites);
        if (db)
            fprintf(stderr,
                    "winnow: interrupted by %s: saved %zu page%s of %zu site%s in %s (%zu pages read); learning "
                    "the same inputs again goes on from there (pages learned already count as duplicates)\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM", saved, saved == 1 ? "" : "s", saved_sites,
                    saved_sites == 1 ? "" : "s", o.db_path, pages);
        else
            fprintf(stderr, "winnow: interrupted by %s after %zu pages; nothing was extracted\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM", pages);
    }

    int no_content = 0;
    if (o.batch && !sig) failed += extract_kept(&o, e, kept, nkept, manifest, &no_content);
    if (cli_manifest_close(manifest) != 0) failed++;
    for (size_t i = 0; i < nkept; i++) cli_page_free(&kept[i].page);
    free(kept);
    free(tl.pending);
    free(tl.saved);
    winnow_engine_free(e);
    cli_inputs_close(in);
    int damaged = cli_sites_damaged(sites) || save_status == WINNOW_E_DB_DAMAGED;
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    free(o.inputs);
    if (sig) return 128 + sig;
    if (damaged) return EXIT_DB_DAMAGED;
    if (failed) return EXIT_SOME_FAILED;
    return no_content ? EXIT_NO_CONTENT : EXIT_OK;
}
