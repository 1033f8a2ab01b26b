/* The text applications' shared options and page texts (apptext.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apptext.h"

enum { A_DB = 200, A_SITE, A_MODE, A_METHOD, A_MODEL, A_NO_MODEL, A_FULLTEXT, A_PLAIN, A_INPUT_FORMAT, A_MAX_BYTES };

static const struct option common_options[] = {
    { "db", required_argument, NULL, A_DB },
    { "site", required_argument, NULL, A_SITE },
    { "mode", required_argument, NULL, A_MODE },
    { "method", required_argument, NULL, A_METHOD },
    { "model", required_argument, NULL, A_MODEL },
    { "no-model", no_argument, NULL, A_NO_MODEL },
    { "fulltext", no_argument, NULL, A_FULLTEXT },
    { "plain", no_argument, NULL, A_PLAIN },
    { "input-format", required_argument, NULL, A_INPUT_FORMAT },
    { "max-bytes", required_argument, NULL, A_MAX_BYTES },
    { "recursive", no_argument, NULL, 'r' },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
};
#define NCOMMON (sizeof common_options / sizeof common_options[0])

void app_opts_free(app_opts *a) { cli_opts_free(&a->o); }

static int add_input(cli_opts *o, const char *path)
{
    if (o->ninputs == o->capinputs) {
        int cap = o->capinputs ? o->capinputs * 2 : 16;
        const char **n = realloc(o->inputs, (size_t)cap * sizeof *n);
        if (!n) return -1;
        o->inputs = n;
        o->capinputs = cap;
    }
    o->inputs[o->ninputs++] = path;
    return 0;
}

int app_parse(int argc, char **argv, app_opts *a, const struct option *extra, const char *extra_shorts, app_opt_fn fn,
              void *ctx, const char *usage)
{
    memset(a, 0, sizeof *a);
    cli_opts *o = &a->o;
    winnow_options_default(&o->lib, sizeof o->lib);
    winnow_site_options_default(&o->site_opt, sizeof o->site_opt);
    winnow_reader_options_default(&o->reader, sizeof o->reader);
    o->reader.damaged = 1; /* every record accounted for: bad ones get their line */
    o->names = 1;          /* pages named as extract -o names them */
    o->format = WINNOW_FORMAT_TEXT;
    o->jobs = 1;
    const char *cmd = argv[1];
    size_t nextra = 0;
    while (extra && extra[nextra].name) nextra++;
    struct option *table = calloc(NCOMMON + nextra + 1, sizeof *table);
    char shorts[128];
    if (!table) {
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    memcpy(table, common_options, sizeof common_options);
    if (nextra) memcpy(table + NCOMMON, extra, nextra * sizeof *table);
    snprintf(shorts, sizeof shorts, ":rqhV%s", extra_shorts ? extra_shorts : "");
    int ac = argc - 1, c, rc = 0;
    char **av = argv + 1;
    opterr = 0;
    optind = 1;
    while (!rc && (c = getopt_long(ac, av, shorts, table, NULL)) != -1) {
        const char *val = optarg;
        switch (c) {
        case 'h':
            fputs(usage, stdout);
            rc = CLI_DONE;
            break;
        case 'V':
            printf("winnow %s\n", winnow_version());
            rc = CLI_DONE;
            break;
        case 'q': o->quiet = 1; break;
        case 'r': o->reader.recursive = 1; break;
        case A_DB: o->db_path = val; break;
        case A_SITE: o->site = val; break;
        case A_MODE:
            if (cli_parse_mode(val, &o->site_opt.mode)) rc = EXIT_USAGE;
            break;
        case A_METHOD:
            if (cli_parse_method(val, &o->site_opt.method)) rc = EXIT_USAGE;
            break;
        case A_MODEL: o->model = val; break;
        case A_NO_MODEL: o->lib.classifier = 0; break;
        case A_FULLTEXT: a->text = APP_TEXT_FULL; break;
        case A_PLAIN: a->text = APP_TEXT_PLAIN; break;
        case A_INPUT_FORMAT:
            if (cli_parse_input_format(val, &o->reader.format)) rc = EXIT_USAGE;
            break;
        case A_MAX_BYTES: {
            unsigned long long v;
            if (cli_parse_count("--max-bytes", val, 1, (unsigned long long)SIZE_MAX, &v) != 0)
                rc = EXIT_USAGE;
            else
                o->lib.max_input_bytes = o->reader.max_record_bytes = (size_t)v;
            break;
        }
        case '?':
        case ':':
            cli_option_error(cmd, c, optind, av, table, table);
            rc = EXIT_USAGE;
            break;
        default: rc = fn ? fn(ctx, c, val) : EXIT_USAGE;
        }
    }
    free(table);
    if (rc) return rc;
    for (int i = optind; i < ac; i++)
        if (add_input(o, av[i]) != 0) {
            fprintf(stderr, "winnow: out of memory\n");
            return EXIT_SOME_FAILED;
        }
    if (o->site_opt.mode == WINNOW_MODE_SITE && !o->db_path) {
        fprintf(stderr, "winnow: --mode site needs --db DB (the site models to use)\n");
        return EXIT_USAGE;
    }
    if (a->text != APP_TEXT_MAIN && o->db_path) {
        fprintf(stderr, "winnow: --db applies to the main text, not to --fulltext or --plain\n");
        return EXIT_USAGE;
    }
    return 0;
}

void app_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p == '\r')
            fputs("\\r", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* ---- plain text inputs ---- */

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int read_all(const char *path, char **out, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return -1;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *g = realloc(buf, cap * 2 + 1);
        if (!g) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = g;
        cap *= 2;
    }
    int bad = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf || bad) {
        free(buf);
        if (bad) errno = EIO;
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

static int plain_file(const char *path, app_page_fn fn, void *ctx, app_counts *c, int *stop)
{
    char *data = NULL;
    size_t len = 0;
    if (read_all(path, &data, &len) != 0) {
        fprintf(stderr, "winnow: cannot read %s: %s\n", path, strerror(errno));
        c->failed++;
        return 0;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[512];
    snprintf(name, sizeof name, "%s", base);
    if (ends_with(name, ".txt")) name[strlen(name) - 4] = '\0';
    c->pages++;
    if (fn(ctx, name, path, NULL, data, len) != 0) *stop = 1;
    free(data);
    return 0;
}

static void plain_each(const app_opts *a, app_page_fn fn, void *ctx, app_counts *c)
{
    int stop = 0;
    for (int i = 0; i < a->o.ninputs && !stop; i++) {
        const char *in = a->o.inputs[i];
        struct stat st;
        if (strcmp(in, "-") != 0 && stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(in);
            if (!d) {
                fprintf(stderr, "winnow: cannot read %s: %s\n", in, strerror(errno));
                c->failed++;
                continue;
            }
            char **names = NULL;
            size_t n = 0, cap = 0;
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (!ends_with(e->d_name, ".txt") || e->d_name[0] == '.') continue;
                if (n == cap) {
                    cap = cap ? cap * 2 : 64;
                    char **g = realloc(names, cap * sizeof *g);
                    if (!g) break;
                    names = g;
                }
                size_t l = strlen(in) + strlen(e->d_name) + 2;
                if (!(names[n] = malloc(l))) break;
                snprintf(names[n++], l, "%s/%s", in, e->d_name);
            }
            closedir(d);
            if (n) qsort(names, n, sizeof *names, by_name);
            for (size_t k = 0; k < n; k++) {
                if (!stop) plain_file(names[k], fn, ctx, c, &stop);
                free(names[k]);
            }
            free(names);
        } else {
            plain_file(in, fn, ctx, c, &stop);
        }
    }
}

/* ---- pages ---- */

int app_each(const app_opts *a, app_page_fn fn, void *ctx, app_counts *c)
{
    memset(c, 0, sizeof *c);
    if (a->text == APP_TEXT_PLAIN) {
        plain_each(a, fn, ctx, c);
        return 0;
    }
    const cli_opts *o = &a->o;
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o->db_path && o->site_opt.mode != WINNOW_MODE_PAGE) {
        int rc = cli_sites_open(o->db_path, o->half_life, &db, &sites);
        if (rc) {
            c->failed++;
            c->damaged = rc == EXIT_DB_DAMAGED;
            return -1;
        }
    }
    winnow_engine *e = cli_engine_new(o);
    cli_inputs *in = e ? cli_inputs_open(o) : NULL;
    if (!in) {
        winnow_engine_free(e);
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        c->failed++;
        return -1;
    }
    winnow_format fmt = a->text == APP_TEXT_FULL ? WINNOW_FORMAT_FULLTEXT : WINNOW_FORMAT_TEXT;
    int warned_no_site = 0;
    cli_page page;
    while (cli_inputs_next(in, &page)) {
        const char *name = page.source ? page.source : "<stdin>";
        winnow_source src = { sizeof src, page.file, page.record, page.record_id };
        winnow_input input = { sizeof input, page.data, page.len, page.charset, page.url, &src };
        winnow_site *site = NULL;
        if (sites) {
            char site_name[256], err[1200] = "";
            int loaded = 0, again = 0;
            cli_site_name(o, &page, site_name, sizeof site_name);
            if (!*site_name) {
                if (!warned_no_site++ && !o->quiet)
                    fprintf(stderr, "winnow: %s: page has no URL to tell its site: page mode (use --site NAME)\n",
                            name);
            } else if (!(site = cli_sites_get(sites, site_name, err, sizeof err, &loaded, NULL, &again))) {
                if (!again) fprintf(stderr, "winnow: %s: %s\n", name, err); /* once per site */
                c->failed++;
                cli_page_free(&page);
                continue;
            }
        }
        winnow_doc *doc = NULL;
        winnow_status s =
            site ? winnow_extract_site(e, &input, site, &o->site_opt, &doc) : winnow_extract(e, &input, &doc);
        int stop = 0;
        if (WINNOW_FAILED(s)) {
            fprintf(stderr, "winnow: %s: %s\n", name, winnow_engine_error(e));
            c->failed++;
        } else {
            if (s != WINNOW_OK && !o->quiet)
                fprintf(stderr, "winnow: %s: warning: %s\n", name, winnow_doc_warning(doc));
            if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) c->no_content++;
            char *text = NULL;
            size_t len = 0;
            winnow_status rs = winnow_render_alloc(doc, fmt, &text, &len);
            if (rs != WINNOW_OK) {
                fprintf(stderr, "winnow: %s: %s\n", name, winnow_status_message(rs));
                c->failed++;
            } else {
                c->pages++;
                /* the page's name as extract -o gives it (CONTAINER-RECORD for a
                 * record): two WARCs' records never share one */
                stop = fn(ctx, page.name ? page.name : page.id ? page.id : "page", name, page.url, text, len) != 0;
            }
            free(text);
            winnow_doc_free(doc);
        }
        cli_page_free(&page);
        cli_inputs_page_done(in);
        if (stop) break;
    }
    c->failed += cli_inputs_failed(in);
    c->skipped += cli_inputs_skipped(in);
    cli_inputs_close(in);
    winnow_engine_free(e);
    if (sites && cli_sites_damaged(sites)) c->damaged = 1;
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    return 0;
}
