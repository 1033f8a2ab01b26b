/* winnow keywords: the top terms and two-word phrases of each page's main
 * text by TF-IDF; --build-df counts a collection into a DF table. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apptext.h"
#include "winnow_keywords.h"

const char cli_keywords_usage[] =
    "usage: winnow keywords [OPTIONS] INPUT...\n"
    "       winnow keywords --build-df [OPTIONS] INPUT... -o DF\n"
    "The top terms and two-word phrases of each page's main text by tf * idf against a\n"
    "document-frequency (DF) table: the built-in one (the main text of winnow's 7,359-page\n"
    "site corpus) or --df FILE. Terms are Unicode words, lowercased (scripts without spaces:\n"
    "character bigrams); stopwords are the terms in over --stop-share of the table's\n"
    "documents, whatever their language.\n"
    "\n"
    "INPUT: as for extract ('winnow help extract'), or text files with --plain.\n"
    "\n"
    "keywords:\n"
    "  -k, --top N           keywords per page (default 10)\n"
    "  -f, --format FORMAT   text (default: TERM<TAB>SCORE lines; with several pages each\n"
    "                        record starts with '# NAME URL' and a form-feed line separates\n"
    "                        records) or json (one object a line: name, source, url,\n"
    "                        keywords: term, score, tf, df, words)\n"
    "      --df FILE         the DF table (gzip or plain; see winnow(1) for the format)\n"
    "      --stop-share X    terms in more than this share of the documents are stopwords\n"
    "                        (default 0.1)\n"
    "      --no-phrases      single terms only\n"
    "\n"
    "building a DF table:\n"
    "      --build-df        count each input's text as one document, write the table to -o\n"
    "  -o, --output DF       where (gzip-compressed when it ends in .gz); pages without text\n"
    "                        are not counted\n"
    "      --min-df N        leave out terms in fewer than N documents, phrases in fewer than\n"
    "                        2N (default 3)\n"
    "\n" APP_COMMON_OPTIONS_TEXT "\n"
    "exit status: 0 done; 1 a page or input failed, or the DF table could not be read or\n"
    "written; 2 usage error; 3 some page had no main text (its record is empty)\n";

enum { K_DF = 300, K_STOP_SHARE, K_NO_PHRASES, K_BUILD_DF, K_MIN_DF };

static const struct option keyword_options[] = {
    { "top", required_argument, NULL, 'k' },
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "df", required_argument, NULL, K_DF },
    { "stop-share", required_argument, NULL, K_STOP_SHARE },
    { "no-phrases", no_argument, NULL, K_NO_PHRASES },
    { "build-df", no_argument, NULL, K_BUILD_DF },
    { "min-df", required_argument, NULL, K_MIN_DF },
    { NULL, 0, NULL, 0 },
};

typedef struct kw_run {
    winnow_keyword_options kopt;
    const char *df_path, *output;
    int json, build, many, records;
    unsigned min_df;
    winnow_df *df;
    winnow_df_builder *builder;
    int failed;
} kw_run;

static int kw_option(void *ctx, int c, const char *val)
{
    kw_run *r = ctx;
    unsigned long long v;
    switch (c) {
    case 'k':
        if (cli_parse_count("--top", val, 1, 100000, &v) != 0) return EXIT_USAGE;
        r->kopt.k = (unsigned)v;
        return 0;
    case 'f':
        if (!strcmp(val, "text"))
            r->json = 0;
        else if (!strcmp(val, "json"))
            r->json = 1;
        else {
            fprintf(stderr, "winnow: keywords: unknown format '%s' (text, json)\n", val);
            return EXIT_USAGE;
        }
        return 0;
    case 'o':
        if (!*val) {
            fprintf(stderr, "winnow: --output needs a path, got ''\n");
            return EXIT_USAGE;
        }
        r->output = val;
        return 0;
    case K_DF: r->df_path = val; return 0;
    case K_STOP_SHARE: {
        char *end = NULL;
        double x = strtod(val, &end);
        if (!end || *end || end == val || !(x > 0) || x > 1) {
            fprintf(stderr, "winnow: --stop-share needs a number above 0 and at most 1, got '%s'\n", val);
            return EXIT_USAGE;
        }
        r->kopt.stop_share = x;
        return 0;
    }
    case K_NO_PHRASES: r->kopt.phrases = 0; return 0;
    case K_BUILD_DF: r->build = 1; return 0;
    case K_MIN_DF:
        if (cli_parse_count("--min-df", val, 1, 1000000000, &v) != 0) return EXIT_USAGE;
        r->min_df = (unsigned)v;
        return 0;
    }
    return EXIT_USAGE;
}

static int kw_page(void *ctx, const char *name, const char *source, const char *url, const char *text, size_t len)
{
    kw_run *r = ctx;
    if (r->build) {
        /* a page without main text is no document of the collection */
        size_t k = 0;
        while (k < len && (text[k] == ' ' || text[k] == '\n' || text[k] == '\t' || text[k] == '\r')) k++;
        if (k == len) return 0;
        if (winnow_df_builder_add(r->builder, text, len) != WINNOW_OK) {
            fprintf(stderr, "winnow: out of memory\n");
            r->failed++;
            return 1;
        }
        return 0;
    }
    winnow_keywords *k = NULL;
    winnow_status s = winnow_keywords_extract(r->df, text, len, &r->kopt, &k);
    if (s != WINNOW_OK) {
        fprintf(stderr, "winnow: %s: %s\n", source, winnow_status_message(s));
        r->failed++;
        return 0;
    }
    size_t n = winnow_keywords_count(k);
    if (r->json) {
        fputs("{\"name\":", stdout);
        app_json_str(stdout, name);
        fputs(",\"source\":", stdout);
        app_json_str(stdout, source);
        fputs(",\"url\":", stdout);
        if (url)
            app_json_str(stdout, url);
        else
            fputs("null", stdout);
        fputs(",\"keywords\":[", stdout);
        for (size_t i = 0; i < n; i++) {
            winnow_keyword kw = { sizeof kw };
            winnow_keywords_get(k, i, &kw);
            fputs(i ? ",{\"term\":" : "{\"term\":", stdout);
            app_json_str(stdout, kw.term);
            printf(",\"score\":%.4f,\"tf\":%u,\"df\":%llu,\"words\":%d}", kw.score, kw.tf, kw.df, kw.words);
        }
        fputs("]}\n", stdout);
    } else {
        if (r->records++) fputs("\f\n", stdout);
        if (r->many) printf("# %s%s%s\n", name, url ? " " : "", url ? url : "");
        for (size_t i = 0; i < n; i++) {
            winnow_keyword kw = { sizeof kw };
            winnow_keywords_get(k, i, &kw);
            printf("%s\t%.4f\n", kw.term, kw.score);
        }
    }
    winnow_keywords_free(k);
    if (ferror(stdout)) {
        fprintf(stderr, "winnow: cannot write to stdout\n");
        r->failed++;
        return 1;
    }
    return 0;
}

int cmd_keywords(int argc, char **argv)
{
    kw_run r;
    memset(&r, 0, sizeof r);
    winnow_keyword_options_default(&r.kopt, sizeof r.kopt);
    r.min_df = 3;
    app_opts a;
    int rc = app_parse(argc, argv, &a, keyword_options, "k:f:o:", kw_option, &r, cli_keywords_usage);
    if (rc) {
        app_opts_free(&a);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (a.o.ninputs == 0) {
        fprintf(stderr, "winnow: no input given (try 'winnow help keywords')\n");
        app_opts_free(&a);
        return EXIT_USAGE;
    }
    if (r.build && !r.output) {
        fprintf(stderr, "winnow: --build-df needs -o DF (where to write the table)\n");
        app_opts_free(&a);
        return EXIT_USAGE;
    }
    if (!r.build && r.output) {
        fprintf(stderr, "winnow: keywords go to stdout; -o is for --build-df\n");
        app_opts_free(&a);
        return EXIT_USAGE;
    }
    if (r.build) {
        if (winnow_df_builder_new(&r.builder) != WINNOW_OK) {
            fprintf(stderr, "winnow: out of memory\n");
            app_opts_free(&a);
            return EXIT_SOME_FAILED;
        }
    } else if (r.df_path) {
        char err[1024];
        winnow_status s = winnow_df_load(r.df_path, &r.df, err, sizeof err);
        if (s != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", err);
            app_opts_free(&a);
            return EXIT_SOME_FAILED;
        }
    } else if (winnow_df_default(&r.df) != WINNOW_OK) {
        fprintf(stderr, "winnow: this winnow was built without its DF table (models/default.df.gz): use --df FILE\n");
        app_opts_free(&a);
        return EXIT_SOME_FAILED;
    }
    /* several pages: a header line each (a directory, a container, or several inputs) */
    r.many = a.o.ninputs > 1;
    for (int i = 0; i < a.o.ninputs; i++) {
        const char *p = a.o.inputs[i];
        struct stat st;
        if (strstr(p, ".warc") || strstr(p, ".jsonl") || strstr(p, ".ndjson") ||
            (strcmp(p, "-") != 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode)))
            r.many = 1;
    }
    app_counts c;
    app_each(&a, kw_page, &r, &c);
    int failed = c.failed + r.failed;
    if (r.build && !r.failed) {
        char err[1024];
        if (winnow_df_builder_docs(r.builder) == 0) {
            fprintf(stderr, "winnow: no page was read: no DF table written\n");
            failed++;
        } else if (winnow_df_builder_save(r.builder, r.output, r.min_df, err, sizeof err) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", err);
            failed++;
        } else if (!a.o.quiet) {
            winnow_df *check = NULL;
            winnow_df_load(r.output, &check, NULL, 0);
            fprintf(stderr, "winnow: %s: %llu documents, %zu terms (min_df %u)\n", r.output,
                    winnow_df_builder_docs(r.builder), winnow_df_size(check), r.min_df);
            winnow_df_free(check);
        }
    }
    if (fflush(stdout) != 0) failed++;
    winnow_df_free(r.df);
    winnow_df_builder_free(r.builder);
    app_opts_free(&a);
    if (c.damaged) return EXIT_DB_DAMAGED;
    return cli_exit_status(failed, c.skipped, r.build ? 0 : c.no_content);
}
