/* What the text applications (keywords, classify) share: their common
 * options, and the text of each input page: winnow's main text (page mode,
 * or site mode with --db), the page's full visible text (--fulltext), or
 * the input itself as plain text (--plain: gold files, any text). */
#ifndef WINNOW_CLI_APPTEXT_H
#define WINNOW_CLI_APPTEXT_H

#include "cli.h"

enum { APP_TEXT_MAIN = 0, APP_TEXT_FULL, APP_TEXT_PLAIN };

typedef struct app_opts {
    cli_opts o; /* inputs, reader, engine and site options */
    int text;   /* APP_TEXT_* */
} app_opts;

/* The long options every text application takes, to append to a
 * command's own table (app_parse does). */
#define APP_COMMON_OPTIONS_TEXT                                                                                        \
    "text:\n"                                                                                                          \
    "      (default)         winnow's main text of each page: page mode, or with --db the\n"                           \
    "                        site models as 'winnow extract --db' uses them\n"                                         \
    "      --fulltext        every visible text of the page, nothing removed (the baseline)\n"                         \
    "      --plain           the inputs are plain UTF-8 text files (a directory: its *.txt\n"                          \
    "                        files), not pages\n"                                                                      \
    "      --db DB, --site NAME, --mode MODE, --method M: site models, as for extract\n"                               \
    "      --model FILE, --no-model: page mode's node classifier, as for extract\n"                                    \
    "  -r, --recursive, --input-format F, --max-bytes N: inputs, as for extract\n"                                     \
    "  -q, --quiet           no warnings on stderr\n"

/* Command-specific options: a getopt_long table (its vals >= 300 or short
 * letters) and a handler that returns 0, or EXIT_USAGE after a message. */
typedef int (*app_opt_fn)(void *ctx, int c, const char *val);

/* Parses argv (argv[1] is the command). Returns 0, CLI_DONE (--help or
 * --version answered) or EXIT_USAGE. app_opts_free() in every case. */
int app_parse(int argc, char **argv, app_opts *a, const struct option *extra, const char *extra_shorts, app_opt_fn fn,
              void *ctx, const char *usage);
void app_opts_free(app_opts *a);

/* Called with each page's text: name (the file stem or record number),
 * source (file, or file#offset), url (NULL when unknown). A non-zero
 * return stops the run. */
typedef int (*app_page_fn)(void *ctx, const char *name, const char *source, const char *url, const char *text,
                           size_t len);

typedef struct app_counts {
    int failed, skipped, no_content, pages;
    int damaged; /* the site database is damaged */
} app_counts;

/* Every page of the inputs in order, its text to fn. */
int app_each(const app_opts *a, app_page_fn fn, void *ctx, app_counts *counts);

/* JSON string with quotes and escapes to f. */
void app_json_str(FILE *f, const char *s);

#endif
