/* The winnow command-line tool: shared pieces of the commands. Everything
 * that extracts or learns is libwinnow's; this side parses options, walks
 * inputs and writes files. */
#ifndef WINNOW_CLI_H
#define WINNOW_CLI_H

#include <getopt.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "winnow.h"
#include "winnow_apps.h"

/* Exit statuses (docs/cli.md "Exit status", the usage text): the first that
 * applies of 2 (before anything ran), 5, 1, 4, 3, else 0; learn stopped by
 * a signal: 128 + the signal. */
enum { EXIT_OK = 0, EXIT_SOME_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_CONTENT = 3, EXIT_SKIPPED = 4, EXIT_DB_DAMAGED = 5 };
/* The exit status of a run from its counts. */
int cli_exit_status(int failed, int skipped, int no_content);
/* The exit status of a failed site database call: EXIT_DB_DAMAGED for a
 * damaged database, EXIT_SOME_FAILED otherwise. */
int cli_db_exit(winnow_status s);

typedef struct cli_opts {
    winnow_format format;
    const char *output;
    const char *charset;
    const char *url;
    const char *db_path;
    const char *partial;         /* learn --partial: the partial file to write */
    const char *site;            /* --site: every input belongs to this site */
    const char *model;           /* --model: node classifier file instead of the built-in one */
    const char *unit_model;      /* --unit-model: units model file instead of the built-in one */
    const char *page_type_model; /* --page-type-model: page type model file instead of the built-in one */
    winnow_options lib;
    winnow_site_options site_opt;
    double half_life;
    size_t commit_every; /* learn --commit-every: pages per transaction */
    int jobs;
    int quiet;
    int overwrite;                /* --overwrite: write into a directory that holds other files */
    int batch;                    /* learn --batch */
    int all;                      /* site: list every fingerprint, not only templates */
    int comments;                 /* extract --comments: reader comments after the main text */
    int blocks;                   /* extract --blocks: jsonl lines carry the blocks */
    unsigned body;                /* extract --body: json and jsonl body fields (WINNOW_BODY bits; 0: text) */
    int report;                   /* site --report: the HTML report instead of the table */
    const char *record;           /* annotate, site --report: the page (record number or URL) */
    winnow_reader_options reader; /* --input-format, -r, --max-bytes */
    const char **inputs;          /* the command line's and --input-list's */
    int ninputs, capinputs;
    char *list_data;       /* --input-list: the file's bytes, which inputs point into */
    const char *rules[32]; /* --rule NAME=VALUE, applied to every engine */
    int nrules;
    /* dedup, index, search (cli/cmd_dedup.c, cli/cmd_index.c) */
    int names;                  /* name every page as -o would (dedup, index: the page's id) */
    winnow_dedup_options dedup; /* --sketch, --min-matches, --lsh, --rows */
    int pairs;                  /* dedup --pairs: the pairs instead of the clusters */
    const char *site_db;        /* index --site-db: site models (--db is the index) */
    size_t limit;               /* search -n, --limit */
    int raw;                    /* search --raw: FTS5 query syntax */
} cli_opts;

/* Option parsing shared by the commands (getopt_long: --name=VALUE, -fVALUE,
 * grouped flags, options after inputs, -- ends the options): argv[1] is the
 * command, `allowed` lists the long options it takes, space separated
 * (--help and --version always). Returns 0; EXIT_USAGE after a message;
 * or CLI_DONE when --help or --version was answered (exit 0). Free with
 * cli_opts_free() in every case. */
#define CLI_DONE (-1)
int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed);
void cli_opts_free(cli_opts *o);
/* The message for getopt_long's '?' or ':' (c) at optind `at` of av:
 * unknown, not the command's, ambiguous, without its value, or given one
 * it does not take. known: every option of the tool; taken: the command's. */
void cli_option_error(const char *cmd, int c, int at, char *const *av, const struct option *known,
                      const struct option *taken);
/* Strict numbers for options: digits only (no sign, no blanks), in range. */
int cli_parse_count(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);
/* Usage of a command (NULL: the top-level usage); NULL for an unknown one. */
const char *cli_usage(const char *cmd);

/* Inputs: every record of every input, in order, shared by worker threads. */
typedef struct cli_page {
    char *url, *charset, *id, *source;
    char *file;       /* the file the page was read from ("-" for stdin) */
    long long record; /* its record number in file (WARC, JSONL), -1 for a whole file */
    char *record_id;  /* WARC-Record-ID, NULL when none */
    char *name;       /* with -o: its output name without extension, unique in the run */
    size_t seq;       /* its place in input order (the manifest's line) */
    char *data;
    size_t len;
} cli_page;

/* A progress line on stderr for runs longer than 2 s, when stderr is a
 * terminal and -q is not given: pages done, pages per second, and the
 * share done with the time left when the total is known (fraction >= 0).
 * cli_report clears it before a message. One at a time per process. */
void cli_progress_start(const char *what, int quiet);
void cli_progress_tick(unsigned long long pages, double fraction);
void cli_progress_end(void);
int cli_progress_on(void);
/* Erases the line until the next tick (before a page goes to stdout, which
 * may be the same terminal). */
void cli_progress_hide(void);

/* Output names, unique in a run (see outputs.c): base, else base~2, base~3,
 * ... (ASCII case ignored). Bases are cut to CLI_NAME_MAX bytes. */
#define CLI_NAME_MAX 180
typedef struct cli_names cli_names;
cli_names *cli_names_new(void);
char *cli_names_take(cli_names *n, const char *base); /* malloc'd; NULL on OOM */
void cli_names_free(cli_names *n);

/* OUT/manifest.tsv: a header, then one line per input page in input order
 * (seq), whatever order the lines come in: output name ("" when none was
 * written), input file, record number ("" for a whole file), WARC-Record-ID,
 * URL, status name, error or warning. Tabs, line ends and backslashes in a
 * field are written \t, \n, \r and \\. Thread-safe. */
typedef struct cli_entry {
    const char *output, *file;
    long long record;
    const char *record_id, *url;
    winnow_status status;
    const char *message;
    /* a complete temporary file (cli_tmp_close) to rename to path once the
     * line is in the manifest, or NULL: a run killed in between leaves a
     * listed name and a temporary, never an output that no manifest lists */
    const char *staged, *path;
} cli_entry;
typedef struct cli_manifest cli_manifest;
cli_manifest *cli_manifest_open(const char *dir);                       /* NULL after a message */
void cli_manifest_add(cli_manifest *m, size_t seq, const cli_entry *e); /* m may be NULL */
/* 0, or -1 after a message (always: a run stopped by a full disk must still
 * say that its manifest is missing); m may be NULL */
int cli_manifest_close(cli_manifest *m);
/* The line of a page: its source fields with the output name, status and message. */
void cli_manifest_page(cli_manifest *m, const cli_page *p, const char *output, winnow_status s, const char *msg);

/* A file that appears whole: cli_tmp_create opens a new hidden file beside
 * path (*tmp gets its name; NULL with errno on failure), cli_tmp_commit
 * closes it and renames it to path when keep is set, else removes it.
 * 0, or -1 with errno (the temporary file is gone either way). */
FILE *cli_tmp_create(const char *path, char **tmp);
int cli_tmp_commit(FILE *f, char *tmp, const char *path, int keep);
/* Closes a temporary file of cli_tmp_create for a later rename: 0, or -1
 * with errno after removing it (tmp is freed then). */
int cli_tmp_close(FILE *f, char *tmp);

/* Outputs that would destroy inputs or earlier files (guard.c).
 * cli_outputs_check: 0, or EXIT_USAGE after a message when an output
 * would be an input (-o FILE the same file as an input; -o DIR where
 * DIR/NAME.EXT could be one). cli_outputs_prepare, for a directory of
 * outputs before anything is written into it: 0 after removing winnow's own
 * earlier output there (the files its manifest.tsv lists, temporaries of a
 * killed run), or EXIT_USAGE after a message when DIR holds other files and
 * --overwrite is not given. */
int cli_outputs_check(const cli_opts *o, int many);
int cli_outputs_prepare(const cli_opts *o);

/* One stream of lines in input order, bounded (stream.c): extract --format
 * jsonl to stdout (path NULL) or a file (gzip when it ends in .gz). */
typedef struct cli_stream cli_stream;
cli_stream *cli_stream_open(const char *path, size_t window); /* NULL after a message */
/* Line seq (data malloc'd, taken); waits while seq is `window` or more
 * ahead of the next line to write. 0, or -1 when the output failed. */
int cli_stream_put(cli_stream *s, size_t seq, char *data, size_t len);
/* Wakes and turns away every waiting and later put (the run is stopping). */
void cli_stream_abort(cli_stream *s);
void cli_stream_error(cli_stream *s, char *out, size_t cap);
const char *cli_stream_name(const cli_stream *s);
/* Flushes and closes; 0, or -1 (said on stderr when report is set and no
 * write had failed before). */
int cli_stream_close(cli_stream *s, int report);

typedef struct cli_inputs cli_inputs;
/* The line of an input or record that gives no page (cannot be read, over
 * --max-bytes, out of memory), with its sequence number: besides the
 * manifest, to the jsonl stream. */
typedef void (*cli_line_fn)(void *ctx, size_t seq, const cli_entry *e);
cli_inputs *cli_inputs_open(const cli_opts *o);
/* 1 page, 0 end; thread-safe. Errors and warnings of readers go to stderr;
 * inputs that cannot be read and whole files that are skipped get their
 * manifest line here (cli_inputs_set_manifest). */
int cli_inputs_next(cli_inputs *in, cli_page *page);
void cli_page_free(cli_page *p);
int cli_inputs_failed(const cli_inputs *in);
/* Pages skipped for being over --max-bytes (a warning each; exit 4). */
int cli_inputs_skipped(const cli_inputs *in);
/* Records accounted for so far (the manifest's lines: pages, and inputs
 * and records that gave none), and the readers' warnings. */
size_t cli_inputs_records(const cli_inputs *in);
int cli_inputs_warnings(const cli_inputs *in);
/* -o is a directory: more than one page may come (several inputs, a
 * directory, a WARC or JSONL file or stream), or -o ends with '/' or names
 * a directory. */
int cli_inputs_many(const cli_inputs *in);
void cli_inputs_set_manifest(cli_inputs *in, cli_manifest *m);
void cli_inputs_set_lines(cli_inputs *in, cli_line_fn fn, void *ctx);
/* A page is done (for the progress line). */
void cli_inputs_page_done(cli_inputs *in);
/* Stops the run: cli_inputs_next hands out no more pages. 1 for the call
 * that stopped it (which reports why), 0 when it was stopped already. */
int cli_inputs_stop(cli_inputs *in);
int cli_inputs_stopped(cli_inputs *in);
void cli_inputs_close(cli_inputs *in);

/* Site of a page: --site, else the URL's host ("" when neither). */
void cli_site_name(const cli_opts *o, const cli_page *p, char *out, size_t cap);

/* Loaded site models by name, shared by threads (loads are serialised). A
 * site that failed to load is not tried again: its pages get the same error. */
typedef struct cli_sites cli_sites;
cli_sites *cli_sites_new(winnow_sitedb *db, double half_life);
/* The sites of a partial (learn --partial): its models, owned by it. */
cli_sites *cli_sites_new_partial(winnow_partial *p);
/* The site database at path opened for reading, and the sites over it:
 * 0 with both set, or the exit status (cli_db_exit) with the reason on
 * stderr and neither. */
int cli_sites_open(const char *path, double half_life, winnow_sitedb **db, cli_sites **sites);
/* *loaded (may be NULL) is set when this call loaded the site: once per site.
 * NULL when the site cannot be had: err gets why, *status (may be NULL) the
 * status its pages get (WINNOW_E_DB_DAMAGED for a damaged site), and
 * *again (may be NULL) is set when an earlier call failed on the site
 * already: its error was reported then, so a site's error is said once and
 * each of its pages gets its status. */
winnow_site *cli_sites_get(cli_sites *s, const char *name, char *err, size_t errcap, int *loaded, winnow_status *status,
                           int *again);
/* A site failed to load because the database is damaged. */
int cli_sites_damaged(cli_sites *s);
size_t cli_sites_all(cli_sites *s, winnow_site ***out);
void cli_sites_free(cli_sites *s);

/* An engine with the options' classifier; NULL after a message on stderr. */
winnow_engine *cli_engine_new(const cli_opts *o);

int cli_mkdir_p(const char *path);
/* After a failed save, closed: when PATH-wal is still there (the disk too
 * full for the closing checkpoint), says what it is and that it must stay. */
void cli_wal_note(const char *path);
char *cli_output_path(const cli_opts *o, const cli_page *p, int many);
/* Renders doc in o->format to path (NULL: stdout; several pages of text or
 * markdown there are separated by a line holding a form feed). whole:
 * through a temporary file renamed into place (outputs in a directory);
 * with staged set, the complete temporary is left for the caller to rename
 * (*staged gets its malloc'd name; NULL when path was written in place).
 * WINNOW_OK, or a failure with "cannot write PATH: why" in err and *fatal
 * set when the failure is not the page's but the output's (stdout, or a
 * folder that cannot be written: no room, no permission, gone): the run
 * stops then. */
winnow_status cli_write_doc(const cli_opts *o, const winnow_doc *doc, const char *path, int whole, char *err,
                            size_t errcap, int *fatal, char **staged);
/* The page's document written as cli_write_doc does, its manifest line,
 * and on an output failure that is fatal, the run stopped with one message.
 * 0 written, 1 failed. */
int cli_output_page(const cli_opts *o, cli_inputs *in, cli_manifest *m, const cli_page *p, const winnow_doc *doc,
                    winnow_status s, int many);
const char *cli_format_ext(winnow_format f);
void cli_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_write_file(void *ctx, const char *data, size_t len);

int cmd_extract(int argc, char **argv, int blocks);
int cmd_learn(int argc, char **argv);
int cmd_sites(int argc, char **argv);
int cmd_site(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_train_pagetype(int argc, char **argv);   /* train --page-types (winnow-train only) */
int cmd_train_confidence(int argc, char **argv); /* train --confidence (winnow-train only) */
int cmd_train_units(int argc, char **argv);      /* train --units (winnow-train only) */
/* shared by the three (cli/train_manifest.c): a whole file, gunzipped when
 * it is gzip (NULL when unreadable); a column's index in a TSV header (-1);
 * a TSV line cut in place into at most cap fields (their count) */
char *train_slurp(const char *path, size_t *len);
int train_column(char *header, const char *name);
int train_split(char *line, char **cuts, int cap);
/* A corpus's manifest.tsv read page by page (cli/train_manifest.c): open
 * (NULL after a message), next (1 with the page's id, url, site, the id
 * when the column is empty, and page_type, NULL without the column; 0 at
 * the end), the page's HTML (html/ID.html.gz, else html/ID.html) and gold
 * text (gold/ID.txt), NULL when unreadable, and close. */
#define TRAIN_MAX_COLUMNS 32
typedef struct train_manifest {
    FILE *f;
    char dir[4096], corpus[256]; /* the manifest's folder and its name */
    const char *id, *url, *site, *type;
    int c_id, c_url, c_site, c_type;
    char line[1 << 16];
    char *cuts[TRAIN_MAX_COLUMNS];
    int ncuts;
} train_manifest;
train_manifest *train_manifest_open(const char *path);
int train_manifest_next(train_manifest *m);
char *train_manifest_html(const train_manifest *m, size_t *len);
char *train_manifest_gold(const train_manifest *m, size_t *len);
void train_manifest_close(train_manifest *m);
int cmd_rules(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_check(int argc, char **argv);
/* Runs fn(arg) on jobs threads, this one among them, and waits for all: the
 * workers share arg and take their pages from it. */
void cli_run_threads(int jobs, void *(*fn)(void *), void *arg);
/* Seconds on the monotonic clock (cli/progress.c). */
double cli_now_s(void);
/* --mode, --method and --input-format values: 0, or -1 after a message on
 * stderr naming the values there are. */
int cli_parse_mode(const char *val, winnow_mode *out);
int cli_parse_method(const char *val, winnow_method *out);
int cli_parse_input_format(const char *val, winnow_input_format *out);
int cmd_merge(int argc, char **argv);
/* near-duplicates and search (cli/cmd_dedup.c, cli/cmd_index.c) */
int cmd_dedup(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_search(int argc, char **argv);
/* s as a JSON string, quotes included. */
void cli_json_string(FILE *f, const char *s);
/* The text dedup and index work on: the page extracted as the options say
 * (its site's model from sites, when given and the mode is not page) and
 * rendered as main text, or as full text with -f fulltext. *text is
 * malloc'd; *doc (may be NULL) is kept for its metadata (free it).
 * WINNOW_OK, a document status (NO_MAIN: an empty text), or a failure with
 * err filled (empty when it is the page's site that cannot be had and an
 * earlier page reported that: a site's error is said once). */
winnow_status cli_page_text(const cli_opts *o, winnow_engine *e, cli_sites *sites, const cli_page *p, winnow_doc **doc,
                            char **text, size_t *len, char *err, size_t errcap);
int cmd_annotate(int argc, char **argv);
/* winnow site NAME --report: the HTML report of the loaded site (pages
 * from o->inputs[1...]); an exit status. */
int cli_site_report(const cli_opts *o, const char *name, winnow_site *site);
int cmd_keywords(int argc, char **argv);
int cmd_classify(int argc, char **argv);

#endif
