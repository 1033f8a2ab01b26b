/* winnow extract / winnow blocks */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct extract_worker {
    const cli_opts *o;
    cli_inputs *in;
    cli_sites *sites;
    cli_manifest *manifest;  /* with a directory of outputs */
    int many;
    int failed, no_content;
    atomic_int *warned_no_site;
} extract_worker;

/* --comments: after the main text, a blank line and each comment as a
 * "-- author, date" line over its text. */
static void *extract_run(void *arg)
{
    extract_worker *w = arg;
    const cli_opts *o = w->o;
    winnow_engine *e = cli_engine_new(o);
    if (!e) { w->failed++; return NULL; }
    cli_page page;
    while (cli_inputs_next(w->in, &page)) {
        const char *name = page.source ? page.source : "<stdin>";
        winnow_source src = {page.file, page.record, page.record_id};
        winnow_input input = {page.data, page.len, page.charset, page.url, &src};
        winnow_site *site = NULL;
        if (w->sites && o->site_opt.mode != WINNOW_MODE_PAGE) {
            char site_name[256], err[1200] = "";
            cli_site_name(o, &page, site_name, sizeof site_name);
            if (!*site_name) {
                if (atomic_exchange(w->warned_no_site, 1) == 0 && !o->quiet)
                    cli_report("winnow: %s: page has no URL to tell its site: page mode (use --site NAME)\n", name);
            } else if (!(site = cli_sites_get(w->sites, site_name, err, sizeof err))) {
                cli_report("winnow: %s: %s\n", name, err);
                cli_manifest_page(w->manifest, &page, "", WINNOW_E_IO, err);
                w->failed++;
                cli_page_free(&page);
                continue;
            }
        }
        winnow_doc *doc = NULL;
        winnow_status s = site ? winnow_extract_site(e, &input, site, &o->site_opt, &doc)
                               : winnow_extract(e, &input, &doc);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", name, winnow_engine_error(e));
            cli_manifest_page(w->manifest, &page, "", s, winnow_engine_error(e));
            w->failed++;
            cli_page_free(&page);
            continue;
        }
        if (s != WINNOW_OK && !o->quiet) cli_report("winnow: %s: warning: %s\n", name, winnow_doc_warning(doc));
        if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) w->no_content++;
        char *out_path = cli_output_path(o, &page, w->many);
        char err[1024] = "out of memory";
        winnow_status rs = o->output && !out_path ? WINNOW_E_NOMEM
                                                  : cli_write_doc(o, doc, out_path, w->many, err, sizeof err);
        if (rs != WINNOW_OK) {
            cli_report("winnow: %s: %s\n", name, err);
            cli_manifest_page(w->manifest, &page, "", rs, err);
            w->failed++;
        } else {
            const char *base = out_path ? strrchr(out_path, '/') : NULL;
            cli_manifest_page(w->manifest, &page, base ? base + 1 : out_path, s, winnow_doc_warning(doc));
        }
        free(out_path);
        winnow_doc_free(doc);
        cli_page_free(&page);
    }
    winnow_engine_free(e);
    return NULL;
}

int cmd_extract(int argc, char **argv, int blocks)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, 2, &o,
                       "--output --format --charset --url --no-title --max-bytes --jobs --quiet --db --site "
                       "--mode --method --exclude-self --model --no-model --no-smooth --rule --comments");
    if (rc) { free(o.inputs); return rc; }
    if (blocks == 1) o.format = WINNOW_FORMAT_BLOCKS;
    if (blocks == 2) o.format = WINNOW_FORMAT_SEGMENTS;
    if (o.ninputs == 0) {
        fprintf(stderr, "winnow: no input given (a file, a directory, a WARC or JSONL file, or - for stdin)\n");
        free(o.inputs);
        return EXIT_USAGE;
    }
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o.db_path && o.site_opt.mode != WINNOW_MODE_PAGE) {
        char err[1024];
        winnow_status st = winnow_sitedb_open_ex(o.db_path, 0, &db, err, sizeof err);
        if (st != WINNOW_OK) { fprintf(stderr, "winnow: %s\n", err); free(o.inputs); return cli_db_exit(st); }
        sites = cli_sites_new(db, o.half_life);
        if (!sites) { winnow_sitedb_close(db); free(o.inputs); return EXIT_SOME_FAILED; }
    }
    cli_inputs *in = cli_inputs_open(&o);
    if (!in) { free(o.inputs); return EXIT_SOME_FAILED; }
    int many = cli_inputs_many(in);
    cli_manifest *manifest = NULL;
    if (many && o.output) {
        if (cli_mkdir_p(o.output) != 0) {
            fprintf(stderr, "winnow: cannot create output directory %s: %s\n", o.output, strerror(errno));
            cli_inputs_close(in);
            free(o.inputs);
            return EXIT_SOME_FAILED;
        }
        if (!(manifest = cli_manifest_open(o.output))) {
            cli_inputs_close(in);
            free(o.inputs);
            return EXIT_SOME_FAILED;
        }
        cli_inputs_set_manifest(in, manifest);
    }
    int nthreads = o.output ? o.jobs : 1; /* pages on stdout must not interleave */
    extract_worker *ws = calloc((size_t)nthreads, sizeof *ws);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    int *started = calloc((size_t)nthreads, sizeof *started);
    atomic_int warned = 0;
    if (!ws || !tids || !started) return EXIT_SOME_FAILED;
    for (int t = 0; t < nthreads; t++) {
        ws[t] = (extract_worker){.o = &o, .in = in, .sites = sites, .manifest = manifest, .many = many,
                                 .warned_no_site = &warned};
        if (t > 0) started[t] = pthread_create(&tids[t], NULL, extract_run, &ws[t]) == 0;
    }
    extract_run(&ws[0]);
    int failed = cli_inputs_failed(in), no_content = 0;
    for (int t = 0; t < nthreads; t++) {
        if (t > 0 && started[t]) pthread_join(tids[t], NULL);
        failed += ws[t].failed;
        no_content += ws[t].no_content;
    }
    free(ws);
    free(tids);
    free(started);
    if (cli_manifest_close(manifest) != 0) failed++;
    cli_inputs_close(in);
    int damaged = sites && cli_sites_damaged(sites);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    free(o.inputs);
    if (damaged) return EXIT_DB_DAMAGED;
    if (failed) return EXIT_SOME_FAILED;
    return no_content ? EXIT_NO_CONTENT : EXIT_OK;
}
