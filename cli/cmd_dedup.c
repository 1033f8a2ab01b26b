/* winnow dedup: clusters of pages whose main text is the same or nearly
 * (include/winnow_apps.h), and the page text that dedup and index share. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

const char cli_dedup_usage[] =
    "usage: winnow dedup [OPTIONS] SOURCE...\n"
    "Clusters of pages whose main text is the same or nearly, as JSON lines on stdout (or\n"
    "-o FILE), one cluster a line: {\"cluster\", \"size\", \"representative\": {\"id\", \"url\"},\n"
    "\"members\": [{\"id\", \"url\", \"similarity\", \"exact\"}, ...]}; pages in no cluster are not\n"
    "listed. A summary goes to stderr. The representative is the cluster's first page in input\n"
    "order; a member's similarity is the share of its sketch that agrees with the\n"
    "representative's, and exact says the two have the same I-Match signature.\n"
    "\n"
    "Two pages are near-duplicates when their texts have the same I-Match signature (the\n"
    "same set of words, case folded, numbers left out) or when at least --min-matches of\n"
    "the --sketch smallest hashes of their 6-word shingles agree (Chakrabarti, Kumar &\n"
    "Punera: 4 of 8). Clusters join near-duplicate pairs transitively.\n"
    "\n"
    "SOURCE: as INPUT of extract ('winnow help extract'). A page's id is the name extract -o\n"
    "would give it (file stem, or CONTAINER-RECORD for WARC and JSONL).\n"
    "\n"
    "text compared:\n"
    "  -f, --format FMT      text (default: the main text, templates removed) or fulltext\n"
    "                        (every visible text of the page, nothing removed)\n"
    "      --db DB, --site NAME, --mode MODE, --method M, --exclude-self: site models, as\n"
    "                        for extract\n"
    "      --charset, --no-title, --model, --no-model, --no-smooth, --rule: as for extract\n"
    "\n"
    "near-duplicates:\n"
    "      --sketch K        shingle hashes kept per page (default 8)\n"
    "      --min-matches T   hashes that must agree (default 4, at most K)\n"
    "      --min-words N     texts of fewer words (a date line, a caption) are too short to\n"
    "                        judge: in no pair and no cluster, counted in the summary\n"
    "                        (default 10; 0 judges every text)\n"
    "      --lsh BANDS       compare only the candidate pairs of locality-sensitive hashing\n"
    "                        with BANDS bands (default 0: all pairs; for collections too large\n"
    "                        for that, e.g. --lsh 20): LSH may miss pairs, never adds any\n"
    "      --rows R          LSH: min-hashes per band (default 2)\n"
    "      --pairs           print every near-duplicate pair instead of the clusters:\n"
    "                        {\"a\": {\"id\", \"url\"}, \"b\": {...}, \"similarity\", \"matches\", \"exact\"}\n"
    "  -o, --output FILE     write the JSON lines to FILE\n"
    "\n"
    "run:\n"
    "  -j, --jobs N          threads extracting pages (default 1); the output is the same\n"
    "  -q, --quiet           no warnings, no summary and no progress line on stderr\n"
    "  -r, --recursive, --input-list FILE, --input-format F, --max-bytes N: as for extract\n"
    "\n"
    "exit status: 0 done; 1 some page or input failed (the others are compared), or the\n"
    "output could not be written; 2 usage error; 5 the site database is damaged\n";

/* ---- shared with index ---- */

winnow_status cli_page_text(const cli_opts *o, winnow_engine *e, cli_sites *sites, const cli_page *p, winnow_doc **docp,
                            char **text, size_t *len, char *err, size_t errcap)
{
    *text = NULL;
    *len = 0;
    if (docp) *docp = NULL;
    winnow_source src = { sizeof src, p->file, p->record, p->record_id };
    winnow_input input = { sizeof input, p->data, p->len, p->charset, p->url, &src };
    winnow_site *site = NULL;
    if (sites && o->site_opt.mode != WINNOW_MODE_PAGE) {
        char name[256];
        cli_site_name(o, p, name, sizeof name);
        winnow_status why = WINNOW_E_IO;
        int again = 0;
        if (*name && !(site = cli_sites_get(sites, name, err, errcap, NULL, &why, &again))) {
            if (again) *err = '\0'; /* said with the site's first page: the callers print a non-empty err */
            return why;
        }
    }
    winnow_doc *doc = NULL;
    winnow_status s = site ? winnow_extract_site(e, &input, site, &o->site_opt, &doc) : winnow_extract(e, &input, &doc);
    if (WINNOW_FAILED(s)) {
        snprintf(err, errcap, "%s", winnow_engine_error(e));
        return s;
    }
    winnow_format f = o->format == WINNOW_FORMAT_FULLTEXT ? WINNOW_FORMAT_FULLTEXT : WINNOW_FORMAT_TEXT;
    winnow_status r = winnow_render_alloc(doc, f, text, len);
    if (WINNOW_FAILED(r)) {
        snprintf(err, errcap, "cannot render the page: %s", winnow_status_message(r));
        winnow_doc_free(doc);
        return r;
    }
    if (docp)
        *docp = doc;
    else
        winnow_doc_free(doc);
    return s;
}

void cli_json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                putc(*p, f);
        }
    }
    putc('"', f);
}

/* ---- dedup ---- */

typedef struct page_ref {
    char *id, *url;
} page_ref;

typedef struct dedup_state {
    const cli_opts *o;
    cli_inputs *in;
    cli_sites *sites;
    winnow_dedup *dd;
    pthread_mutex_t lock;
    page_ref *refs; /* by the page's place in input order (seq) */
    size_t nrefs;
    atomic_int failed, no_main;
} dedup_state;

static int remember(dedup_state *s, const cli_page *p)
{
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    if (p->seq >= s->nrefs) {
        size_t n = s->nrefs ? s->nrefs : 256;
        while (n <= p->seq) n *= 2;
        page_ref *r = realloc(s->refs, n * sizeof *r);
        if (r) {
            memset(r + s->nrefs, 0, (n - s->nrefs) * sizeof *r);
            s->refs = r;
            s->nrefs = n;
        }
    }
    if (p->seq < s->nrefs) {
        s->refs[p->seq].id = strdup(p->name ? p->name : p->id);
        s->refs[p->seq].url = p->url ? strdup(p->url) : NULL;
        if (!s->refs[p->seq].id || (p->url && !s->refs[p->seq].url)) rc = -1;
    } else {
        rc = -1;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static void *dedup_worker(void *arg)
{
    dedup_state *s = arg;
    winnow_engine *e = cli_engine_new(s->o);
    if (!e) {
        atomic_fetch_add(&s->failed, 1);
        return NULL;
    }
    cli_page page;
    while (cli_inputs_next(s->in, &page)) {
        const char *name = page.source ? page.source : "<stdin>";
        char err[1200] = "";
        char *text = NULL;
        size_t len = 0;
        winnow_status st = cli_page_text(s->o, e, s->sites, &page, NULL, &text, &len, err, sizeof err);
        if (WINNOW_FAILED(st)) {
            if (*err) cli_report("winnow: %s: %s\n", name, err); /* empty: said before */
            atomic_fetch_add(&s->failed, 1);
        } else {
            if (st == WINNOW_NO_MAIN || st == WINNOW_NO_CONTENT) atomic_fetch_add(&s->no_main, 1);
            winnow_status a = remember(s, &page) == 0 ? winnow_dedup_add(s->dd, page.seq, text, len) : WINNOW_E_NOMEM;
            if (a != WINNOW_OK) {
                cli_report("winnow: %s: %s\n", name, winnow_status_message(a));
                atomic_fetch_add(&s->failed, 1);
            }
        }
        free(text);
        cli_page_free(&page);
        cli_inputs_page_done(s->in);
    }
    winnow_engine_free(e);
    return NULL;
}

static void print_ref(FILE *f, const page_ref *r)
{
    fputs("{\"id\": ", f);
    cli_json_string(f, r->id);
    fputs(", \"url\": ", f);
    if (r->url)
        cli_json_string(f, r->url);
    else
        fputs("null", f);
    putc('}', f);
}

static void write_clusters(FILE *f, const dedup_state *s)
{
    size_t n = winnow_dedup_cluster_count(s->dd);
    for (size_t i = 0; i < n; i++) {
        winnow_dedup_cluster c = { sizeof c };
        winnow_dedup_cluster_get(s->dd, i, &c);
        fprintf(f, "{\"cluster\": %zu, \"size\": %zu, \"representative\": ", i + 1, c.size);
        print_ref(f, &s->refs[c.representative]);
        fputs(", \"members\": [", f);
        for (size_t k = 0; k < c.size; k++) {
            winnow_dedup_pair p = { sizeof p };
            if (k) fputs(", ", f);
            const page_ref *r = &s->refs[c.members[k]];
            fputs("{\"id\": ", f);
            cli_json_string(f, r->id);
            fputs(", \"url\": ", f);
            if (r->url)
                cli_json_string(f, r->url);
            else
                fputs("null", f);
            if (k == 0) {
                fputs(", \"similarity\": 1, \"exact\": true}", f);
                continue;
            }
            winnow_dedup_compare(s->dd, c.representative, c.members[k], &p);
            fprintf(f, ", \"similarity\": %.3g, \"exact\": %s}", p.similarity, p.exact ? "true" : "false");
        }
        fputs("]}\n", f);
    }
}

static void write_pairs(FILE *f, const dedup_state *s)
{
    size_t n = winnow_dedup_pair_count(s->dd);
    for (size_t i = 0; i < n; i++) {
        winnow_dedup_pair p = { sizeof p };
        winnow_dedup_pair_get(s->dd, i, &p);
        fputs("{\"a\": ", f);
        print_ref(f, &s->refs[p.a]);
        fputs(", \"b\": ", f);
        print_ref(f, &s->refs[p.b]);
        fprintf(f, ", \"similarity\": %.3g, \"matches\": %u, \"exact\": %s}\n", p.similarity, p.matches,
                p.exact ? "true" : "false");
    }
}

int cmd_dedup(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--output --format --charset --no-title --max-bytes --jobs --quiet --db --site --mode --method "
                       "--exclude-self --model --no-model --no-smooth --rule --recursive --input-format --input-list "
                       "--sketch --min-matches --min-words --lsh --rows --pairs");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    o.names = 1;
    if (o.format != WINNOW_FORMAT_TEXT && o.format != WINNOW_FORMAT_FULLTEXT) {
        fprintf(stderr, "winnow: dedup compares text: -f text (the main text) or -f fulltext\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.ninputs == 0) {
        fprintf(stderr, "winnow: no input given (a file, a directory, a WARC or JSONL file, or - for stdin)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.dedup.min_matches > o.dedup.sketch_size) {
        fprintf(stderr, "winnow: --min-matches %u is more than the sketch holds (--sketch %u)\n", o.dedup.min_matches,
                o.dedup.sketch_size);
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.site_opt.mode == WINNOW_MODE_SITE && !o.db_path) {
        fprintf(stderr, "winnow: --mode site needs --db DB (the site models to use)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    winnow_dedup *dd = NULL;
    if (winnow_dedup_new(&o.dedup, &dd) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o.db_path && o.site_opt.mode != WINNOW_MODE_PAGE) {
        int db_rc = cli_sites_open(o.db_path, o.half_life, &db, &sites);
        if (db_rc) {
            winnow_dedup_free(dd);
            cli_opts_free(&o);
            return db_rc;
        }
    }
    double t0 = cli_now_s();
    cli_progress_start("dedup", o.quiet);
    dedup_state s = { .o = &o, .sites = sites, .dd = dd };
    pthread_mutex_init(&s.lock, NULL);
    s.in = cli_inputs_open(&o);
    if (!s.in) {
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        winnow_dedup_free(dd);
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    cli_run_threads(o.jobs, dedup_worker, &s);
    cli_progress_end();
    double t1 = cli_now_s();
    int failed = atomic_load(&s.failed) + cli_inputs_failed(s.in);
    int skipped = cli_inputs_skipped(s.in);
    cli_inputs_close(s.in);
    int damaged = sites && cli_sites_damaged(sites);

    winnow_status st = winnow_dedup_run(dd);
    double t2 = cli_now_s();
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: dedup: %s\n", winnow_dedup_error(dd));
        failed++;
    } else {
        FILE *f = stdout;
        char *tmp = NULL;
        if (o.output && !(f = cli_tmp_create(o.output, &tmp))) {
            fprintf(stderr, "winnow: cannot write %s: %s\n", o.output, strerror(errno));
            failed++;
        } else {
            if (o.pairs)
                write_pairs(f, &s);
            else
                write_clusters(f, &s);
            if (o.output) {
                int bad = ferror(f);
                if (cli_tmp_commit(f, tmp, o.output, !bad) != 0 || bad) {
                    fprintf(stderr, "winnow: cannot write %s: %s\n", o.output, strerror(errno ? errno : EIO));
                    failed++;
                }
            } else if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "winnow: cannot write to stdout: %s\n", strerror(errno ? errno : EIO));
                failed++;
            }
        }
        if (!o.quiet) {
            winnow_dedup_stats ds = { sizeof ds };
            winnow_dedup_get_stats(dd, &ds);
            double secs = t2 - t0;
            fprintf(stderr,
                    "winnow: dedup: %zu pages (%s, %d without main text, %zu too short to judge: under %u "
                    "words, left out), %zu near-duplicate pairs (%zu exact), "
                    "%zu clusters holding %zu pages; %zu pairs compared (%s); %.1f s, %.0f pages/s "
                    "(pairs %.2f s)\n",
                    ds.pages, o.format == WINNOW_FORMAT_FULLTEXT ? "full text" : "main text", atomic_load(&s.no_main),
                    ds.short_texts, o.dedup.min_words, ds.pairs, ds.exact_pairs, ds.clusters, ds.clustered,
                    ds.candidates, o.dedup.lsh_bands ? "LSH candidates" : "all pairs", secs,
                    secs > 0 ? (double)ds.pages / secs : 0.0, t2 - t1);
        }
    }
    for (size_t i = 0; i < s.nrefs; i++) {
        free(s.refs[i].id);
        free(s.refs[i].url);
    }
    free(s.refs);
    pthread_mutex_destroy(&s.lock);
    winnow_dedup_free(dd);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return damaged ? EXIT_DB_DAMAGED : cli_exit_status(failed, skipped, 0);
}
