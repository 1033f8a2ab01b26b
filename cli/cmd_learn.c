/* winnow learn: count pages into their sites' models, save them in one
 * transaction; with --batch, then extract every page with its site model. */
#include <errno.h>
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

static int extract_kept(const cli_opts *o, cli_inputs *in, winnow_engine *e, kept_page *pages, size_t n,
                        cli_manifest *manifest, int *no_content)
{
    int failed = 0;
    cli_progress_start("learn --batch: extracting", o->quiet);
    for (size_t i = 0; i < n && !cli_inputs_stopped(in); i++) {
        cli_page *p = &pages[i].page;
        winnow_source src = {p->file, p->record, p->record_id};
        winnow_input input = {p->data, p->len, p->charset, p->url, &src};
        winnow_doc *doc = NULL;
        winnow_status s = winnow_extract_site(e, &input, pages[i].site, &o->site_opt, &doc);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", p->source, winnow_engine_error(e));
            cli_manifest_page(manifest, p, "", s, winnow_engine_error(e));
            failed++;
        } else {
            if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) (*no_content)++;
            failed += cli_output_page(o, in, manifest, p, doc, s, 1);
            winnow_doc_free(doc);
        }
        cli_progress_tick(i + 1, (double)(i + 1) / (double)n);
    }
    cli_progress_end();
    return failed;
}

int cmd_learn(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--db --site --half-life --batch --output --format --quiet --max-bytes --no-title --mode "
                       "--method --charset --model --no-model --no-smooth --rule --recursive --input-format "
                       "--input-list");
    if (rc) { cli_opts_free(&o); return rc == CLI_DONE ? EXIT_OK : rc; }
    if (o.ninputs == 0) { fprintf(stderr, "winnow: learn needs pages (directories, WARC or JSONL files)\n"); cli_opts_free(&o); return EXIT_USAGE; }
    if (!o.db_path && !o.batch) { fprintf(stderr, "winnow: learn needs --db PATH (or --batch)\n"); cli_opts_free(&o); return EXIT_USAGE; }

    winnow_sitedb *db = NULL;
    if (o.db_path) {
        char err[512];
        db = winnow_sitedb_open(o.db_path, 1, err, sizeof err);
        if (!db) { fprintf(stderr, "winnow: %s\n", err); cli_opts_free(&o); return EXIT_SOME_FAILED; }
    }
    cli_progress_start("learn", o.quiet);
    cli_sites *sites = cli_sites_new(db, o.half_life);
    cli_inputs *in = cli_inputs_open(&o);
    winnow_engine *e = cli_engine_new(&o);
    kept_page *kept = NULL;
    size_t nkept = 0, capkept = 0;
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

    double t0 = now_s();
    size_t pages = 0, counted = 0, duplicates = 0, bytes = 0;
    int failed = 0, no_site_reported = 0;
    cli_page page;
    while (cli_inputs_next(in, &page)) {
        pages++;
        bytes += page.len;
        char name[256], err[512] = "";
        cli_site_name(&o, &page, name, sizeof name);
        if (!*name) {
            if (!no_site_reported++)
                cli_report("winnow: %s: no URL to tell the page's site: give --site NAME\n", page.source);
            cli_manifest_page(manifest, &page, "", WINNOW_E_ARG, "no URL to tell the page's site: give --site NAME");
            failed++;
            cli_page_free(&page);
            cli_inputs_page_done(in);
            continue;
        }
        winnow_site *site = cli_sites_get(sites, name, err, sizeof err, NULL);
        if (!site) {
            cli_report("winnow: %s: %s\n", page.source, err);
            cli_manifest_page(manifest, &page, "", WINNOW_E_IO, err);
            failed++;
            cli_page_free(&page);
            cli_inputs_page_done(in);
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
        cli_inputs_page_done(in);
    }
    cli_progress_end();
    failed += cli_inputs_failed(in);
    double t_learn = now_s() - t0;

    winnow_site **all;
    size_t nsites = cli_sites_all(sites, &all);
    if (db) {
        double t1 = now_s();
        if (winnow_sitedb_save(db, all, nsites) != WINNOW_OK) {
            fprintf(stderr, "winnow: saving to %s failed: %s (the database keeps its previous state)\n", o.db_path,
                    winnow_sitedb_error(db));
            failed++;
        }
        t_learn += now_s() - t1;
    }
    if (!o.quiet)
        fprintf(stderr,
                "learned %zu pages (%zu counted, %zu duplicates, %d failed) of %zu site%s in %.2f s, %.1f pages/s, %.1f MB/s\n",
                pages, counted, duplicates, failed, nsites, nsites == 1 ? "" : "s", t_learn,
                t_learn > 0 ? (double)pages / t_learn : 0.0, t_learn > 0 ? (double)bytes / 1e6 / t_learn : 0.0);

    int no_content = 0;
    if (o.batch) failed += extract_kept(&o, in, e, kept, nkept, manifest, &no_content);
    if (cli_manifest_close(manifest, !cli_inputs_stopped(in)) != 0) failed++;
    for (size_t i = 0; i < nkept; i++) cli_page_free(&kept[i].page);
    free(kept);
    winnow_engine_free(e);
    int skipped = cli_inputs_skipped(in);
    cli_inputs_close(in);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return cli_exit_status(failed, skipped, no_content);
}
