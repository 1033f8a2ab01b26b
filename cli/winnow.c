/* winnow command-line tool: a thin client of libwinnow. It parses options,
 * lists inputs, reads files and writes outputs; all extraction is the
 * library's. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "winnow.h"

enum { EXIT_OK = 0, EXIT_SOME_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_CONTENT = 3 };

static const char usage_text[] =
    "usage: winnow COMMAND [OPTIONS] INPUT...\n"
    "\n"
    "commands:\n"
    "  extract INPUT...   print or write the main content of each page\n"
    "  blocks PAGE        print the block segmentation as JSON lines\n"
    "  version            print the version\n"
    "  help               print this text\n"
    "\n"
    "INPUT is an HTML file, a directory (every *.html and *.htm in it), or - for stdin.\n"
    "\n"
    "options:\n"
    "  -o, --output PATH     with one page: write to PATH; with a directory or several pages:\n"
    "                        PATH is a directory, and ID.html becomes PATH/ID.txt (.md, .json,\n"
    "                        .html or .jsonl by format)\n"
    "  -f, --format FORMAT   text (default), markdown, json, html, blocks\n"
    "      --charset NAME    the pages' charset as HTTP would declare it (overrides <meta>)\n"
    "      --url URL         the page's URL (one page)\n"
    "      --no-title        do not prepend the headline found outside the content block\n"
    "      --max-bytes N     refuse pages larger than N bytes (default 268435456)\n"
    "  -j, --jobs N          pages processed in parallel, one engine per thread (default 1)\n"
    "  -q, --quiet           no per-page warnings on stderr\n"
    "\n"
    "exit status: 0 every page produced content; 1 some page failed (its error is on stderr);\n"
    "             2 usage error; 3 nothing failed but some page had no content\n";

typedef struct cli_opts {
    winnow_format format;
    const char *output;
    const char *charset;
    const char *url;
    winnow_options lib;
    int jobs;
    int quiet;
} cli_opts;

typedef struct job {
    char *in_path;   /* NULL for stdin */
    char *out_path;  /* NULL for stdout */
} job;

typedef struct job_list {
    job *items;
    size_t count, cap;
} job_list;

static int add_job(job_list *l, const char *in, const char *out)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        job *n = realloc(l->items, cap * sizeof *n);
        if (!n) return -1;
        l->items = n;
        l->cap = cap;
    }
    job *j = &l->items[l->count++];
    j->in_path = in ? strdup(in) : NULL;
    j->out_path = out ? strdup(out) : NULL;
    return 0;
}

static const char *format_ext(winnow_format f)
{
    switch (f) {
    case WINNOW_FORMAT_MARKDOWN: return ".md";
    case WINNOW_FORMAT_JSON: return ".json";
    case WINNOW_FORMAT_HTML: return ".html";
    case WINNOW_FORMAT_BLOCKS: return ".jsonl";
    default: return ".txt";
    }
}

static int has_html_ext(const char *name, size_t *stem)
{
    size_t n = strlen(name);
    if (n > 5 && !strcmp(name + n - 5, ".html")) { *stem = n - 5; return 1; }
    if (n > 4 && !strcmp(name + n - 4, ".htm")) { *stem = n - 4; return 1; }
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *join(const char *dir, const char *name, size_t name_len, const char *ext)
{
    size_t dl = strlen(dir), el = ext ? strlen(ext) : 0;
    char *p = malloc(dl + 1 + name_len + el + 1);
    if (!p) return NULL;
    memcpy(p, dir, dl);
    size_t o = dl;
    if (o && p[o - 1] != '/') p[o++] = '/';
    memcpy(p + o, name, name_len);
    o += name_len;
    if (el) memcpy(p + o, ext, el);
    p[o + el] = '\0';
    return p;
}

static int list_dir(const char *dir, const cli_opts *o, job_list *jobs)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "winnow: cannot open directory %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t stem;
        if (!has_html_ext(e->d_name, &stem)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) { closedir(d); free(names); return -1; }
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t stem = 0;
        has_html_ext(names[i], &stem);
        char *in = join(dir, names[i], strlen(names[i]), NULL);
        char *out = o->output ? join(o->output, names[i], stem, format_ext(o->format)) : NULL;
        if (!in || (o->output && !out) || add_job(jobs, in, out) != 0) rc = -1;
        free(in);
        free(out);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Whole file (or stdin) into a growing buffer reused across pages. */
static int read_all(FILE *f, char **buf, size_t *cap, size_t *len)
{
    *len = 0;
    for (;;) {
        if (*cap - *len < 65536) {
            size_t nc = *cap ? *cap * 2 : 1 << 20;
            char *nb = realloc(*buf, nc);
            if (!nb) return -1;
            *buf = nb;
            *cap = nc;
        }
        size_t r = fread(*buf + *len, 1, *cap - *len, f);
        *len += r;
        if (r == 0) return ferror(f) ? -1 : 0;
    }
}

static int write_file(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

typedef struct worker {
    const cli_opts *o;
    job_list *jobs;
    atomic_size_t *next;
    int failed, no_content;
    pthread_mutex_t *err_lock;
} worker;

static void report(worker *w, const char *path, const char *fmt, const char *detail)
{
    pthread_mutex_lock(w->err_lock);
    fprintf(stderr, fmt, path ? path : "<stdin>", detail);
    pthread_mutex_unlock(w->err_lock);
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    winnow_engine *e = winnow_engine_new(&w->o->lib);
    if (!e) { w->failed++; return NULL; }
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        size_t k = atomic_fetch_add(w->next, 1);
        if (k >= w->jobs->count) break;
        job *j = &w->jobs->items[k];
        FILE *in = j->in_path ? fopen(j->in_path, "rb") : stdin;
        if (!in) { report(w, j->in_path, "winnow: %s: cannot open: %s\n", strerror(errno)); w->failed++; continue; }
        int rr = read_all(in, &buf, &cap, &len);
        if (in != stdin) fclose(in);
        if (rr != 0) { report(w, j->in_path, "winnow: %s: read failed: %s\n", strerror(errno)); w->failed++; continue; }

        winnow_input input = {buf, len, w->o->charset, w->o->url};
        winnow_doc *doc = NULL;
        winnow_status s = winnow_extract(e, &input, &doc);
        if (WINNOW_FAILED(s)) {
            report(w, j->in_path, "winnow: %s: %s\n", winnow_engine_error(e));
            w->failed++;
            continue;
        }
        if (s != WINNOW_OK && !w->o->quiet) report(w, j->in_path, "winnow: %s: warning: %s\n", winnow_doc_warning(doc));
        if (s == WINNOW_NO_CONTENT) w->no_content++;
        FILE *out = j->out_path ? fopen(j->out_path, "wb") : stdout;
        if (!out) {
            report(w, j->out_path, "winnow: %s: cannot write: %s\n", strerror(errno));
            w->failed++;
            winnow_doc_free(doc);
            continue;
        }
        winnow_status rs = winnow_render(doc, w->o->format, write_file, out);
        if (out != stdout) {
            if (fclose(out) != 0) rs = WINNOW_E_IO;
        } else {
            fflush(stdout);
        }
        if (rs != WINNOW_OK) {
            report(w, j->out_path ? j->out_path : "<stdout>", "winnow: %s: %s\n", winnow_status_message(rs));
            w->failed++;
        }
        winnow_doc_free(doc);
    }
    free(buf);
    winnow_engine_free(e);
    return NULL;
}

static int mkdir_p(const char *path)
{
    char tmp[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp) return -1;
    memcpy(tmp, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (tmp[i] == '/' || tmp[i] == '\0') {
            char c = tmp[i];
            tmp[i] = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
            tmp[i] = c;
        }
    }
    return is_dir(path) ? 0 : -1;
}

static int parse_size(const char *s, size_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || !end || *end || v == 0) return -1;
    *out = (size_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fputs(usage_text, stderr); return EXIT_USAGE; }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) { fputs(usage_text, stdout); return 0; }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) { printf("winnow %s\n", winnow_version()); return 0; }
    int blocks = !strcmp(cmd, "blocks");
    if (!blocks && strcmp(cmd, "extract") != 0) {
        fprintf(stderr, "winnow: unknown command '%s' (try 'winnow help')\n", cmd);
        return EXIT_USAGE;
    }
    cli_opts o;
    memset(&o, 0, sizeof o);
    winnow_options_default(&o.lib);
    o.format = blocks ? WINNOW_FORMAT_BLOCKS : WINNOW_FORMAT_TEXT;
    o.jobs = 1;
    const char **inputs = calloc((size_t)argc, sizeof *inputs);
    if (!inputs) return EXIT_SOME_FAILED;
    int ninputs = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_VALUE()                                                          \
    do {                                                                       \
        if (!val) {                                                            \
            fprintf(stderr, "winnow: option %s needs a value\n", a);           \
            free(inputs);                                                      \
            return EXIT_USAGE;                                                 \
        }                                                                      \
        i++;                                                                   \
    } while (0)
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) { NEEDS_VALUE(); o.output = val; }
        else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
            NEEDS_VALUE();
            if (!winnow_format_parse(val, &o.format)) {
                fprintf(stderr, "winnow: unknown format '%s' (text, markdown, json, html, blocks)\n", val);
                free(inputs);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "--charset")) { NEEDS_VALUE(); o.charset = val; }
        else if (!strcmp(a, "--url")) { NEEDS_VALUE(); o.url = val; }
        else if (!strcmp(a, "--no-title")) o.lib.include_title = 0;
        else if (!strcmp(a, "--max-bytes")) {
            NEEDS_VALUE();
            if (parse_size(val, &o.lib.max_input_bytes) != 0) {
                fprintf(stderr, "winnow: --max-bytes needs a positive number, got '%s'\n", val);
                free(inputs);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            NEEDS_VALUE();
            o.jobs = atoi(val);
            if (o.jobs < 1 || o.jobs > 256) {
                fprintf(stderr, "winnow: --jobs needs a number from 1 to 256, got '%s'\n", val);
                free(inputs);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o.quiet = 1;
        else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "winnow: unknown option '%s' (try 'winnow help')\n", a);
            free(inputs);
            return EXIT_USAGE;
        } else inputs[ninputs++] = a;
#undef NEEDS_VALUE
    }
    if (ninputs == 0) {
        fprintf(stderr, "winnow: no input given (a file, a directory, or - for stdin)\n");
        free(inputs);
        return EXIT_USAGE;
    }

    int many = ninputs > 1;
    for (int i = 0; i < ninputs; i++)
        if (strcmp(inputs[i], "-") != 0 && is_dir(inputs[i])) many = 1;
    if (many && o.output && mkdir_p(o.output) != 0) {
        fprintf(stderr, "winnow: cannot create output directory %s: %s\n", o.output, strerror(errno));
        free(inputs);
        return EXIT_SOME_FAILED;
    }
    job_list jobs = {0};
    int list_failed = 0;
    for (int i = 0; i < ninputs; i++) {
        const char *in = inputs[i];
        if (!strcmp(in, "-")) { add_job(&jobs, NULL, many ? NULL : o.output); continue; }
        if (is_dir(in)) { if (list_dir(in, &o, &jobs) != 0) list_failed = 1; continue; }
        if (many && o.output) {
            const char *base = strrchr(in, '/');
            base = base ? base + 1 : in;
            size_t stem = strlen(base);
            if (!has_html_ext(base, &stem)) stem = strlen(base);
            char *out = join(o.output, base, stem, format_ext(o.format));
            add_job(&jobs, in, out);
            free(out);
        } else {
            add_job(&jobs, in, o.output);
        }
    }
    free(inputs);

    atomic_size_t next = 0;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    int nthreads = o.jobs;
    if ((size_t)nthreads > jobs.count) nthreads = jobs.count ? (int)jobs.count : 1;
    /* several pages to stdout must not interleave */
    if (!o.output) nthreads = 1;
    worker *ws = calloc((size_t)nthreads, sizeof *ws);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    if (!ws || !tids) return EXIT_SOME_FAILED;
    for (int t = 0; t < nthreads; t++) {
        ws[t] = (worker){.o = &o, .jobs = &jobs, .next = &next, .err_lock = &lock};
        if (t > 0 && pthread_create(&tids[t], NULL, run_worker, &ws[t]) != 0) ws[t].failed = -1;
    }
    run_worker(&ws[0]);
    int failed = list_failed, no_content = 0;
    for (int t = 0; t < nthreads; t++) {
        if (t > 0 && ws[t].failed != -1) pthread_join(tids[t], NULL);
        if (ws[t].failed == -1) ws[t].failed = 0;
        failed += ws[t].failed;
        no_content += ws[t].no_content;
    }
    for (size_t k = 0; k < jobs.count; k++) {
        free(jobs.items[k].in_path);
        free(jobs.items[k].out_path);
    }
    free(jobs.items);
    free(ws);
    free(tids);
    if (failed) return EXIT_SOME_FAILED;
    return no_content ? EXIT_NO_CONTENT : EXIT_OK;
}
