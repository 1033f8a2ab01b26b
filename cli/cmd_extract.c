/* winnow extract / winnow blocks / winnow segments */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

typedef struct extract_worker {
    const cli_opts *o;
    cli_inputs *in;
    cli_sites *sites;
    cli_manifest *manifest; /* with a directory of outputs */
    cli_stream *stream;     /* --format jsonl: every page's line, in input order */
    int many;
    int failed, no_content;
    int written;                         /* pages whose output was written */
    int partial, no_text, no_main, thin; /* warnings by kind (WINNOW_PARTIAL, _NO_CONTENT, _NO_MAIN, _THIN_MAIN) */
    atomic_int *warned_no_site;
} extract_worker;

typedef struct line_buf {
    char *data;
    size_t len, cap;
} line_buf;

static int to_line(void *ctx, const char *data, size_t len)
{
    line_buf *b = ctx;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1) cap *= 2;
        char *n = realloc(b->data, cap);
        if (!n) return -1;
        b->data = n;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

/* The jsonl line of a page (doc NULL: it failed with s and error) goes to
 * the stream, in its place; an output that cannot be written stops the run
 * with one message. */
static void stream_line(const cli_opts *o, cli_inputs *in, cli_stream *stream, size_t seq, const char *id,
                        const winnow_input *input, const winnow_doc *doc, winnow_status s, const char *error)
{
    winnow_jsonl_options jo;
    winnow_jsonl_options_default(&jo, sizeof jo);
    jo.id = id;
    jo.site = o->site; /* else the URL's host, as for site models */
    jo.blocks = o->blocks;
    jo.comments = o->comments;
    jo.body = o->body;
    line_buf b = { 0 };
    winnow_status r = doc ? winnow_render_jsonl(doc, &jo, to_line, &b)
                          : winnow_render_jsonl_failure(input, s, error, &jo, to_line, &b);
    if (r != WINNOW_OK && doc) {
        /* the page's own line could not be made (out of memory): its failure line */
        b.len = 0;
        r = winnow_render_jsonl_failure(input, r, winnow_status_message(r), &jo, to_line, &b);
    }
    if (r != WINNOW_OK) {
        /* not even that: the run cannot keep its one line per page */
        free(b.data);
        if (cli_inputs_stop(in)) cli_report("winnow: out of memory writing %s\n", cli_stream_name(stream));
        cli_stream_abort(stream);
        return;
    }
    if (cli_stream_put(stream, seq, b.data, b.len) != 0) {
        char why[300];
        cli_stream_error(stream, why, sizeof why);
        if (cli_inputs_stop(in)) cli_report("winnow: cannot write %s: %s\n", cli_stream_name(stream), why);
        cli_stream_abort(stream);
    }
}

/* Lines of inputs without a page (cli_line_fn). */
typedef struct input_lines {
    const cli_opts *o;
    cli_inputs *in;
    cli_stream *stream;
} input_lines;

static void input_line(void *ctx, size_t seq, const cli_entry *e)
{
    input_lines *il = ctx;
    winnow_source src = { sizeof src, e->file, e->record, e->record_id };
    winnow_input input = { sizeof input, NULL, 0, NULL, e->url, &src };
    stream_line(il->o, il->in, il->stream, seq, NULL, &input, NULL, e->status, e->message);
}

static void *extract_run(void *arg)
{
    extract_worker *w = arg;
    const cli_opts *o = w->o;
    winnow_engine *e = cli_engine_new(o);
    if (!e) {
        w->failed++;
        return NULL;
    }
    cli_page page;
    while (cli_inputs_next(w->in, &page)) {
        const char *name = page.source ? page.source : "<stdin>";
        winnow_source src = { sizeof src, page.file, page.record, page.record_id };
        winnow_input input = { sizeof input, page.data, page.len, page.charset, page.url, &src };
        winnow_site *site = NULL;
        if (w->sites && o->site_opt.mode != WINNOW_MODE_PAGE) {
            char site_name[256], err[1200] = "";
            int loaded = 0, again = 0;
            winnow_status why = WINNOW_E_IO;
            cli_site_name(o, &page, site_name, sizeof site_name);
            if (!*site_name) {
                if (atomic_exchange(w->warned_no_site, 1) == 0 && !o->quiet)
                    cli_report("winnow: %s: page has no URL to tell its site: page mode (use --site NAME)\n", name);
            } else if (!(site = cli_sites_get(w->sites, site_name, err, sizeof err, &loaded, &why, &again))) {
                /* said once per site; every page gets its line with the status */
                if (!again) cli_report("winnow: %s: %s\n", name, err);
                cli_manifest_page(w->manifest, &page, "", why, err);
                if (w->stream) stream_line(o, w->in, w->stream, page.seq, page.name, &input, NULL, why, err);
                w->failed++;
                cli_page_free(&page);
                cli_inputs_page_done(w->in);
                continue;
            } else if (loaded && o->site_opt.mode == WINNOW_MODE_SITE && winnow_site_pages(site) <= 0 && !o->quiet) {
                /* once per site: its pages get no site evidence */
                cli_report("winnow: warning: %s has no pages of site %s ('winnow sites --db %s' lists its sites): "
                           "its pages are extracted as in page mode\n",
                           o->db_path, site_name, o->db_path);
            }
        }
        winnow_doc *doc = NULL;
        winnow_status s =
            site ? winnow_extract_site(e, &input, site, &o->site_opt, &doc) : winnow_extract(e, &input, &doc);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", name, winnow_engine_error(e));
            cli_manifest_page(w->manifest, &page, "", s, winnow_engine_error(e));
            if (w->stream)
                stream_line(o, w->in, w->stream, page.seq, page.name, &input, NULL, s, winnow_engine_error(e));
            w->failed++;
        } else {
            if (s != WINNOW_OK && !o->quiet) cli_report("winnow: %s: warning: %s\n", name, winnow_doc_warning(doc));
            if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) w->no_content++;
            w->partial += s == WINNOW_PARTIAL;
            w->no_text += s == WINNOW_NO_CONTENT;
            w->no_main += s == WINNOW_NO_MAIN;
            w->thin += s == WINNOW_THIN_MAIN;
            if (w->stream) {
                stream_line(o, w->in, w->stream, page.seq, page.name, &input, doc, s, NULL);
                w->written++;
            } else {
                int bad = cli_output_page(o, w->in, w->manifest, &page, doc, s, w->many);
                w->failed += bad;
                w->written += !bad;
            }
            winnow_doc_free(doc);
        }
        cli_page_free(&page);
        cli_inputs_page_done(w->in);
    }
    winnow_engine_free(e);
    return NULL;
}

int cmd_extract(int argc, char **argv, int blocks)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--output --format --charset --url --no-title --max-bytes --jobs --quiet --db --site "
                       "--mode --method --exclude-self --model --no-model --unit-model --page-type-model --page-type "
                       "--favor --no-smooth --rule "
                       "--comments --recursive --input-format --input-list --blocks --body --overwrite");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (blocks == 1) o.format = WINNOW_FORMAT_BLOCKS;
    if (blocks == 2) o.format = WINNOW_FORMAT_SEGMENTS;
    if (o.ninputs == 0) {
        fprintf(stderr, "winnow: no input given (a file, a directory, a WARC or JSONL file, or - for stdin)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.site_opt.mode == WINNOW_MODE_SITE && !o.db_path) {
        fprintf(stderr, "winnow: --mode site needs --db DB (the site models to use)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o.db_path && o.site_opt.mode != WINNOW_MODE_PAGE) {
        int db_rc = cli_sites_open(o.db_path, o.half_life, &db, &sites);
        if (db_rc) {
            cli_opts_free(&o);
            return db_rc;
        }
    }
    int jsonl = o.format == WINNOW_FORMAT_JSONL;
    if (jsonl && o.output) {
        struct stat st;
        size_t n = strlen(o.output);
        if (o.output[n - 1] == '/' || (stat(o.output, &st) == 0 && S_ISDIR(st.st_mode))) {
            fprintf(stderr, "winnow: --format jsonl writes one stream: -o names a file (FILE.jsonl, or FILE.jsonl.gz "
                            "for gzip), not a directory\n");
            cli_sites_free(sites);
            winnow_sitedb_close(db);
            cli_opts_free(&o);
            return EXIT_USAGE;
        }
    }
    if (o.body && !jsonl && o.format != WINNOW_FORMAT_JSON) {
        fprintf(stderr, "winnow: --body is for --format json and jsonl (the other formats are a body: -f markdown "
                        "writes the Markdown alone)\n");
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.blocks && !jsonl) {
        fprintf(stderr, "winnow: --blocks is for --format jsonl (the json format always has the blocks; 'winnow "
                        "blocks' lists them)\n");
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    cli_progress_start(argv[1], o.quiet);
    cli_inputs *in = cli_inputs_open(&o);
    if (!in) {
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    int many = cli_inputs_many(in);
    /* before anything is written: no output may replace an input, nor a
     * directory's files that winnow did not write */
    rc = cli_outputs_check(&o, many);
    if (!rc && many && o.output && !jsonl) rc = cli_outputs_prepare(&o);
    if (rc) {
        cli_progress_end();
        cli_inputs_close(in);
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return rc;
    }
    cli_manifest *manifest = NULL;
    /* jsonl: one stream, in input order whatever the threads (a bounded
     * window of lines waits for the one before it) */
    cli_stream *stream = NULL;
    input_lines lines = { &o, in, NULL };
    if (jsonl) {
        if (!(stream = cli_stream_open(o.output, 64 * (size_t)o.jobs))) {
            cli_inputs_close(in);
            cli_sites_free(sites);
            winnow_sitedb_close(db);
            cli_opts_free(&o);
            return EXIT_SOME_FAILED;
        }
        lines.stream = stream;
        cli_inputs_set_lines(in, input_line, &lines);
    } else if (many && o.output) {
        if (cli_mkdir_p(o.output) != 0) {
            fprintf(stderr, "winnow: cannot create output directory %s: %s\n", o.output, strerror(errno));
            rc = EXIT_SOME_FAILED;
        } else if (!(manifest = cli_manifest_open(o.output))) {
            rc = EXIT_SOME_FAILED;
        }
        if (rc) {
            cli_inputs_close(in);
            cli_sites_free(sites);
            winnow_sitedb_close(db);
            cli_opts_free(&o);
            return rc;
        }
        cli_inputs_set_manifest(in, manifest);
    }
    /* pages on stdout must not interleave; jsonl lines go out in order anyway */
    int nthreads = o.output || jsonl ? o.jobs : 1;
    extract_worker *ws = calloc((size_t)nthreads, sizeof *ws);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    int *started = calloc((size_t)nthreads, sizeof *started);
    atomic_int warned = 0;
    if (!ws || !tids || !started) {
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    for (int t = 0; t < nthreads; t++) {
        ws[t] = (extract_worker){ .o = &o,
                                  .in = in,
                                  .sites = sites,
                                  .manifest = manifest,
                                  .stream = stream,
                                  .many = many,
                                  .warned_no_site = &warned };
        if (t > 0) started[t] = pthread_create(&tids[t], NULL, extract_run, &ws[t]) == 0;
    }
    extract_run(&ws[0]);
    int failed = cli_inputs_failed(in), no_content = 0, written = 0, partial = 0, no_text = 0, no_main = 0, thin = 0;
    for (int t = 0; t < nthreads; t++) {
        if (t > 0 && started[t]) pthread_join(tids[t], NULL);
        failed += ws[t].failed;
        no_content += ws[t].no_content;
        written += ws[t].written;
        partial += ws[t].partial;
        no_text += ws[t].no_text;
        no_main += ws[t].no_main;
        thin += ws[t].thin;
    }
    free(ws);
    free(tids);
    free(started);
    cli_progress_end();
    /* after a stop for an output that cannot be written, that one message says it */
    if (cli_manifest_close(manifest) != 0) failed++;
    if (stream && (cli_stream_close(stream, !cli_inputs_stopped(in)) != 0 || cli_inputs_stopped(in))) failed++;
    int skipped = cli_inputs_skipped(in);
    /* a run over many pages ends with its totals, so that what went wrong
     * among thousands of lines of stderr is not lost (not prefixed
     * "winnow:": that is for errors and warnings) */
    if (many && !o.quiet)
        cli_report("totals: %zu pages: %d written, %d empty, %d failed, %d skipped; warnings: %d repaired input "
                   "(WINNOW_PARTIAL), %d no text (WINNOW_NO_CONTENT), %d no main content (WINNOW_NO_MAIN), %d little "
                   "main content (WINNOW_THIN_MAIN), %d "
                   "damaged input\n",
                   cli_inputs_records(in), written, no_content, failed, skipped, partial, no_text, no_main, thin,
                   cli_inputs_warnings(in));
    cli_inputs_close(in);
    int damaged = sites && cli_sites_damaged(sites);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    /* a page of only its headline or a few words is said as an empty one is */
    return damaged ? EXIT_DB_DAMAGED : cli_exit_status(failed, skipped, no_content + thin);
}
