/* The winnow command-line tool: shared pieces of the commands. Everything
 * that extracts or learns is libwinnow's; this side parses options, walks
 * inputs and writes files. */
#ifndef WINNOW_CLI_H
#define WINNOW_CLI_H

#include <pthread.h>
#include <stddef.h>

#include "winnow.h"

enum { EXIT_OK = 0, EXIT_SOME_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_CONTENT = 3 };

typedef struct cli_opts {
    winnow_format format;
    const char *output;
    const char *charset;
    const char *url;
    const char *db_path;
    const char *site;            /* --site: every input belongs to this site */
    const char *model;           /* --model: node classifier file instead of the built-in one */
    winnow_options lib;
    winnow_site_options site_opt;
    double half_life;
    int jobs;
    int quiet;
    int batch;                   /* learn --batch */
    int all;                     /* site: list every fingerprint, not only templates */
    int comments;                /* extract --comments: reader comments after the main text */
    const char **inputs;
    int ninputs;
    const char *rules[32];       /* --rule NAME=VALUE, applied to every engine */
    int nrules;
} cli_opts;

/* Option parsing shared by the commands; returns 0, or EXIT_USAGE after a message. */
int cli_parse(int argc, char **argv, int first, cli_opts *o, const char *allowed);

/* Inputs: every record of every input, in order, shared by worker threads. */
typedef struct cli_page {
    char *url, *charset, *id, *source;
    char *data;
    size_t len;
} cli_page;

typedef struct cli_inputs cli_inputs;
cli_inputs *cli_inputs_open(const cli_opts *o);
/* 1 page, 0 end; thread-safe. Errors and warnings of readers go to stderr. */
int cli_inputs_next(cli_inputs *in, cli_page *page);
void cli_page_free(cli_page *p);
int cli_inputs_failed(const cli_inputs *in);
int cli_inputs_many(const cli_inputs *in);  /* more than one page may come: -o is a directory */
void cli_inputs_close(cli_inputs *in);

/* Site of a page: --site, else the URL's host ("" when neither). */
void cli_site_name(const cli_opts *o, const cli_page *p, char *out, size_t cap);

/* Loaded site models by name, shared by threads (loads are serialised). */
typedef struct cli_sites cli_sites;
cli_sites *cli_sites_new(winnow_sitedb *db, double half_life);
winnow_site *cli_sites_get(cli_sites *s, const char *name, char *err, size_t errcap);
size_t cli_sites_all(cli_sites *s, winnow_site ***out);
void cli_sites_free(cli_sites *s);

/* An engine with the options' classifier; NULL after a message on stderr. */
winnow_engine *cli_engine_new(const cli_opts *o);

int cli_mkdir_p(const char *path);
char *cli_output_path(const cli_opts *o, const cli_page *p, int many);
const char *cli_format_ext(winnow_format f);
void cli_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_write_file(void *ctx, const char *data, size_t len);

int cmd_extract(int argc, char **argv, int blocks);
int cmd_learn(int argc, char **argv);
int cmd_sites(int argc, char **argv);
int cmd_site(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_rules(int argc, char **argv);

#endif
