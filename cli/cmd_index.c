/* winnow index / winnow search: pages' main text in an SQLite FTS5 index,
 * ranked by BM25 (include/winnow_apps.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

const char cli_index_usage[] =
    "usage: winnow index [OPTIONS] SOURCE... --db INDEX\n"
    "Stores each page's main text with its title, URL and site in INDEX, an SQLite file with\n"
    "an FTS5 table (created when missing), for 'winnow search'. A page is stored under its URL\n"
    "(else its id: the name extract -o would give it): indexing a page again replaces it, and\n"
    "an unchanged page is left as it is. A page whose text has the I-Match signature of a\n"
    "page already indexed (the same text under another URL) is stored as its duplicate and\n"
    "not indexed again (Ma, Goharian & Chowdhury); if the original is replaced or goes, its\n"
    "first duplicate takes its place. A summary goes to stderr.\n"
    "\n"
    "SOURCE: as INPUT of extract ('winnow help extract').\n"
    "\n"
    "      --db INDEX        the index file\n"
    "  -f, --format FMT      text (default: the main text, templates removed) or fulltext\n"
    "                        (every visible text of the page, nothing removed)\n"
    "      --site-db DB      extract with the site models in DB (--mode auto uses a site's\n"
    "                        model when it has >= 5 pages; --mode site always)\n"
    "      --site NAME, --mode MODE, --method M, --exclude-self: site models, as for extract\n"
    "      --charset, --no-title, --model, --no-model, --no-smooth, --rule: as for extract\n"
    "      --commit-every N  commit every N pages (default 1000): a crash keeps what was\n"
    "                        committed\n"
    "  -j, --jobs N          threads extracting pages (default 1; which of two duplicates is\n"
    "                        indexed then depends on the order they finish in)\n"
    "  -q, --quiet           no warnings, no summary and no progress line on stderr\n"
    "  -r, --recursive, --input-list FILE, --input-format F, --max-bytes N: as for extract\n"
    "\n"
    "exit status: 0 done; 1 some page or input failed (the others are indexed), or the index\n"
    "cannot be written; 2 usage error; 5 the index or the site database is damaged (nothing\n"
    "is written into it)\n";

const char cli_search_usage[] =
    "usage: winnow search [OPTIONS] INDEX QUERY\n"
    "The pages of INDEX (from 'winnow index') that best match QUERY, best first, ranked by\n"
    "BM25 over title and text (words stemmed, case and accents folded). QUERY's words are\n"
    "searched for, any of them; pages that have more of them, and rarer ones, rank higher.\n"
    "Each hit: rank, score, id and URL on one line, the title on the next, then a snippet of\n"
    "the text with the matched words in [brackets].\n"
    "\n"
    "  -n, --limit N         hits at most (default 10)\n"
    "      --raw             QUERY is FTS5 syntax: AND, OR, NOT, \"a phrase\", prefix*,\n"
    "                        title:word, NEAR(a b, 5)\n"
    "  -f, --format FMT      text (default) or json: one JSON object a hit (rank, score, id,\n"
    "                        url, title, site, snippet, duplicates)\n"
    "\n"
    "exit status: 0 searched (no hit too: \"no match\" on stderr); 1 the index cannot be\n"
    "read; 2 usage error (no query, a query without a word, bad --raw syntax); 5 the index\n"
    "is damaged\n";

static int index_exit(winnow_status st)
{
    if (st == WINNOW_E_DB_DAMAGED) return EXIT_DB_DAMAGED;
    if (st == WINNOW_E_ARG) return EXIT_USAGE;
    return EXIT_SOME_FAILED;
}

typedef struct index_state {
    const cli_opts *o;
    cli_inputs *in;
    cli_sites *sites;
    winnow_index *ix;
    pthread_mutex_t lock; /* the index: one writer */
    size_t since_commit;
    atomic_int failed, fatal;
    size_t added, replaced, unchanged, duplicates;
} index_state;

static void *index_worker(void *arg)
{
    index_state *s = arg;
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
        winnow_doc *doc = NULL;
        winnow_status st = cli_page_text(s->o, e, s->sites, &page, &doc, &text, &len, err, sizeof err);
        if (WINNOW_FAILED(st)) {
            if (*err) cli_report("winnow: %s: %s\n", name, err); /* empty: said before */
            atomic_fetch_add(&s->failed, 1);
        } else {
            char site[256];
            cli_site_name(s->o, &page, site, sizeof site);
            const char *id = page.name ? page.name : page.id;
            winnow_index_page ip = { sizeof ip,
                                     page.url ? page.url : id,
                                     id,
                                     page.url,
                                     winnow_doc_meta(doc, WINNOW_META_TITLE),
                                     *site ? site : NULL,
                                     text,
                                     len };
            winnow_index_outcome what;
            pthread_mutex_lock(&s->lock);
            winnow_status r = winnow_index_put(s->ix, &ip, &what, NULL, 0);
            if (r == WINNOW_OK) {
                s->added += what == WINNOW_INDEX_ADDED;
                s->replaced += what == WINNOW_INDEX_REPLACED;
                s->unchanged += what == WINNOW_INDEX_UNCHANGED;
                s->duplicates += what == WINNOW_INDEX_DUPLICATE;
                if (++s->since_commit >= s->o->commit_every) {
                    s->since_commit = 0;
                    r = winnow_index_commit(s->ix);
                }
            }
            if (r != WINNOW_OK) {
                /* the index, not the page: stop */
                if (cli_inputs_stop(s->in)) cli_report("winnow: %s\n", winnow_index_error(s->ix));
                atomic_store(&s->fatal, r == WINNOW_E_DB_DAMAGED ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED);
            }
            pthread_mutex_unlock(&s->lock);
            winnow_doc_free(doc);
        }
        free(text);
        cli_page_free(&page);
        cli_inputs_page_done(s->in);
    }
    winnow_engine_free(e);
    return NULL;
}

int cmd_index(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--db --format --charset --no-title --max-bytes --jobs --quiet --site-db --site --mode --method "
                       "--exclude-self --model --no-model --no-smooth --rule --recursive --input-format --input-list "
                       "--commit-every");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    o.names = 1;
    const char *usage_error = NULL;
    if (o.format != WINNOW_FORMAT_TEXT && o.format != WINNOW_FORMAT_FULLTEXT)
        usage_error = "index stores text: -f text (the main text) or -f fulltext";
    else if (!o.db_path)
        usage_error = "index needs --db INDEX (the index file, created when missing)";
    else if (o.ninputs == 0)
        usage_error = "no input given (a file, a directory, a WARC or JSONL file, or - for stdin)";
    else if (o.site_opt.mode == WINNOW_MODE_SITE && !o.site_db)
        usage_error = "--mode site needs --site-db DB (the site models to use)";
    if (usage_error) {
        fprintf(stderr, "winnow: %s\n", usage_error);
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o.site_db && o.site_opt.mode != WINNOW_MODE_PAGE) {
        int db_rc = cli_sites_open(o.site_db, o.half_life, &db, &sites);
        if (db_rc) {
            cli_opts_free(&o);
            return db_rc;
        }
    }
    winnow_index *ix = NULL;
    winnow_status st = winnow_index_open(o.db_path, WINNOW_INDEX_WRITE, &ix, err, sizeof err);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return st == WINNOW_E_DB_DAMAGED ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED;
    }
    double t0 = cli_now_s();
    cli_progress_start("index", o.quiet);
    index_state s = { .o = &o, .sites = sites, .ix = ix };
    pthread_mutex_init(&s.lock, NULL);
    s.in = cli_inputs_open(&o);
    if (!s.in) {
        winnow_index_close(ix);
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    cli_run_threads(o.jobs, index_worker, &s);
    cli_progress_end();
    int failed = atomic_load(&s.failed) + cli_inputs_failed(s.in);
    int skipped = cli_inputs_skipped(s.in);
    int fatal = atomic_load(&s.fatal);
    cli_inputs_close(s.in);
    if (!fatal && winnow_index_commit(ix) != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_index_error(ix));
        fatal = EXIT_SOME_FAILED;
    }
    double secs = cli_now_s() - t0;
    if (!o.quiet && !fatal) {
        winnow_index_counts c = { sizeof c };
        winnow_index_get_counts(ix, &c);
        size_t pages = s.added + s.replaced + s.unchanged + s.duplicates;
        fprintf(stderr,
                "winnow: index: %zu pages (%s): %zu added, %zu replaced, %zu unchanged, %zu duplicates not "
                "indexed again; %s holds %lld pages, %lld searchable; %.1f s, %.0f pages/s\n",
                pages, o.format == WINNOW_FORMAT_FULLTEXT ? "full text" : "main text", s.added, s.replaced, s.unchanged,
                s.duplicates, o.db_path, c.pages, c.indexed, secs, secs > 0 ? (double)pages / secs : 0.0);
    }
    winnow_index_close(ix);
    pthread_mutex_destroy(&s.lock);
    int damaged = sites && cli_sites_damaged(sites);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    if (fatal) return fatal;
    return damaged ? EXIT_DB_DAMAGED : cli_exit_status(failed, skipped, 0);
}

typedef struct search_out {
    int json;
    size_t hits;
} search_out;

static int print_hit(void *ctx, const winnow_hit *h)
{
    search_out *so = ctx;
    so->hits++;
    if (so->json) {
        fprintf(stdout, "{\"rank\": %zu, \"score\": %.4f, \"id\": ", h->rank, h->score);
        cli_json_string(stdout, h->name);
        fputs(", \"url\": ", stdout);
        cli_json_string(stdout, h->url);
        fputs(", \"title\": ", stdout);
        cli_json_string(stdout, h->title);
        fputs(", \"site\": ", stdout);
        cli_json_string(stdout, h->site);
        fputs(", \"snippet\": ", stdout);
        cli_json_string(stdout, h->snippet);
        fprintf(stdout, ", \"duplicates\": %lld}\n", h->duplicates);
    } else {
        printf("%zu. %.3f  %s", h->rank, h->score, *h->name ? h->name : h->key);
        if (*h->url) printf("  %s", h->url);
        if (h->duplicates) printf("  (+%lld duplicate%s)", h->duplicates, h->duplicates == 1 ? "" : "s");
        printf("\n   %s\n   ", *h->title ? h->title : "(no title)");
        /* the snippet on one line */
        for (const char *p = h->snippet; *p; p++) putchar(*p == '\n' || *p == '\r' || *p == '\t' ? ' ' : *p);
        printf("\n\n");
    }
    return 0;
}

int cmd_search(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "--limit --raw --format");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (o.format != WINNOW_FORMAT_TEXT && o.format != WINNOW_FORMAT_JSON) {
        fprintf(stderr, "winnow: search prints -f text (default) or -f json\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.ninputs != 2) {
        fprintf(stderr, "winnow: search needs INDEX and QUERY (%s)\n",
                o.ninputs < 2 ? "usage: winnow search INDEX \"query words\"" : "quote a query of several words");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    const char *path = o.inputs[0], *query = o.inputs[1];
    const char *q = query;
    while (*q == ' ' || *q == '\t' || *q == '\n') q++;
    if (!*q) {
        fprintf(stderr, "winnow: the query is empty\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_index *ix = NULL;
    winnow_status st = winnow_index_open(path, WINNOW_INDEX_READ, &ix, err, sizeof err);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        cli_opts_free(&o);
        return st == WINNOW_E_DB_DAMAGED ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED;
    }
    winnow_search_options so;
    winnow_search_options_default(&so, sizeof so);
    so.limit = o.limit;
    so.raw = o.raw;
    search_out out = { o.format == WINNOW_FORMAT_JSON, 0 };
    st = winnow_index_search(ix, query, &so, print_hit, &out);
    if (st == WINNOW_OK && out.hits == 0) fprintf(stderr, "winnow: no match for '%s' in %s\n", query, path);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_index_error(ix));
        winnow_index_close(ix);
        cli_opts_free(&o);
        return index_exit(st);
    }
    int rc2 = EXIT_OK;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "winnow: cannot write to stdout: %s\n", strerror(errno ? errno : EIO));
        rc2 = EXIT_SOME_FAILED;
    }
    winnow_index_close(ix);
    cli_opts_free(&o);
    return rc2;
}
