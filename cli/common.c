/* Input walking, output writing and the site cache shared by the commands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

int cli_write_file(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

const char *cli_format_ext(winnow_format f)
{
    switch (f) {
    case WINNOW_FORMAT_MARKDOWN: return ".md";
    case WINNOW_FORMAT_JSON: return ".json";
    case WINNOW_FORMAT_HTML: return ".html";
    case WINNOW_FORMAT_BLOCKS: return ".jsonl";
    case WINNOW_FORMAT_SEGMENTS: return ".segments.json";
    case WINNOW_FORMAT_JSONL: return ".jsonl";
    default: return ".txt";
    }
}

winnow_engine *cli_engine_new(const cli_opts *o)
{
    winnow_engine *e = NULL;
    winnow_status st = winnow_engine_new(&o->lib, &e);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_status_message(st));
        return NULL;
    }
    if (o->model && o->lib.classifier && winnow_engine_load_model(e, o->model) != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_engine_error(e));
        winnow_engine_free(e);
        return NULL;
    }
    if ((o->unit_model && winnow_engine_load_unit_model(e, o->unit_model) != WINNOW_OK) ||
        (o->page_type_model && winnow_engine_load_page_type_model(e, o->page_type_model) != WINNOW_OK)) {
        fprintf(stderr, "winnow: %s\n", winnow_engine_error(e));
        winnow_engine_free(e);
        return NULL;
    }
    for (int k = 0; k < o->nrules; k++) {
        const char *eq = strchr(o->rules[k], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->rules[k]), o->rules[k]);
        if (winnow_engine_set_rule(e, name, strtod(eq + 1, NULL)) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", winnow_engine_error(e));
            winnow_engine_free(e);
            return NULL;
        }
    }
    return e;
}

/* ---- inputs ---- */

struct cli_inputs {
    const cli_opts *o;
    int next_input;
    winnow_reader *reader;
    const char *reader_path;
    char *reader_stem;         /* jsonl ids: its container name, unique in the run */
    int reader_index;          /* its place among the inputs */
    int reader_fresh;          /* opened; whether it failed is not looked at yet */
    winnow_status open_status; /* how opening it went: reader is NULL unless OK */
    char open_error[700];
    size_t reader_skipped, reader_too_large; /* its skips accounted for so far */
    int failed;                              /* inputs and whole files that could not be read */
    int skipped;                             /* pages over --max-bytes */
    int input_warnings;                      /* the readers' warnings (damaged input read anyway) */
    int many;
    size_t count;
    size_t seq;       /* manifest lines handed out */
    cli_names *names; /* with -o: output names given so far */
    cli_manifest *manifest;
    cli_line_fn line_fn; /* lines of inputs without a page, besides the manifest */
    void *line_ctx;
    atomic_int stop;
    atomic_ullong pages_done;
    long long *sizes;                /* progress: each input's size, -1 unknown (NULL: no progress line) */
    unsigned long long bytes_before; /* of the inputs done */
    pthread_mutex_t lock;
};

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The length of p's container extension (".warc.gz", ...), 0 when it has none. */
static size_t container_ext(const char *p)
{
    static const char *const ext[] = { ".warc.gz", ".jsonl.gz", ".ndjson.gz", ".warc", ".jsonl", ".ndjson", ".gz" };
    size_t n = strlen(p);
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t e = strlen(ext[k]);
        if (n > e && !strcasecmp(p + n - e, ext[k])) return e;
    }
    return 0;
}

static int is_container(const winnow_reader *r)
{
    winnow_input_format f = winnow_reader_format(r);
    return f == WINNOW_INPUT_WARC || f == WINNOW_INPUT_JSONL;
}

static void open_reader(cli_inputs *in)
{
    in->reader_index = in->next_input;
    in->reader_path = in->o->inputs[in->next_input++];
    in->reader = NULL;
    in->open_status =
        winnow_reader_open(in->reader_path, &in->o->reader, &in->reader, in->open_error, sizeof in->open_error);
    in->reader_fresh = 1;
    in->reader_skipped = in->reader_too_large = 0;
}

static void close_reader(cli_inputs *in)
{
    free(in->reader_stem);
    in->reader_stem = NULL;
    if (in->sizes && in->sizes[in->reader_index] > 0)
        in->bytes_before += (unsigned long long)in->sizes[in->reader_index];
    winnow_reader_close(in->reader);
    in->reader = NULL;
}

cli_inputs *cli_inputs_open(const cli_opts *o)
{
    cli_inputs *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->o = o;
    /* output names: for files in a directory, the jsonl lines' ids, and
     * the pages of dedup and index */
    if ((o->output || o->names || o->format == WINNOW_FORMAT_JSONL) && !(in->names = cli_names_new())) {
        free(in);
        return NULL;
    }
    pthread_mutex_init(&in->lock, NULL);
    in->many = o->ninputs > 1;
    if (o->output && (o->output[strlen(o->output) - 1] == '/' || is_dir(o->output))) in->many = 1;
    for (int i = 0; i < o->ninputs; i++)
        if (strcmp(o->inputs[i], "-") != 0 && is_dir(o->inputs[i])) in->many = 1;
    /* one file or stdin: a WARC or JSONL stream holds many pages, which only
     * its first bytes may tell */
    if (!in->many && o->ninputs == 1) {
        open_reader(in);
        if (in->reader && is_container(in->reader)) in->many = 1;
    }
    if (cli_progress_on() && (in->sizes = malloc((size_t)(o->ninputs ? o->ninputs : 1) * sizeof *in->sizes))) {
        for (int i = 0; i < o->ninputs; i++) {
            struct stat st;
            in->sizes[i] = strcmp(o->inputs[i], "-") != 0 && stat(o->inputs[i], &st) == 0 && S_ISREG(st.st_mode)
                               ? (long long)st.st_size
                               : -1;
        }
    }
    return in;
}

int cli_inputs_many(const cli_inputs *in) { return in->many; }
void cli_inputs_set_manifest(cli_inputs *in, cli_manifest *m) { in->manifest = m; }
void cli_inputs_set_lines(cli_inputs *in, cli_line_fn fn, void *ctx)
{
    in->line_fn = fn;
    in->line_ctx = ctx;
}
int cli_inputs_failed(const cli_inputs *in) { return in->failed; }
int cli_inputs_skipped(const cli_inputs *in) { return in->skipped; }
size_t cli_inputs_records(const cli_inputs *in) { return in->seq; }
int cli_inputs_warnings(const cli_inputs *in) { return in->input_warnings; }
void cli_inputs_page_done(cli_inputs *in) { atomic_fetch_add(&in->pages_done, 1); }
int cli_inputs_stop(cli_inputs *in) { return atomic_exchange(&in->stop, 1) == 0; }
int cli_inputs_stopped(cli_inputs *in) { return atomic_load(&in->stop); }

/* The manifest line of an input or file that has no page to show for it:
 * it cannot be opened or read, or was skipped. */
static void input_line(cli_inputs *in, winnow_status s, const char *message)
{
    cli_entry e = { "", in->reader_path, -1, NULL, NULL, s, message };
    size_t seq = in->seq++;
    cli_manifest_add(in->manifest, seq, &e);
    if (in->line_fn) in->line_fn(in->line_ctx, seq, &e);
}

/* Records the reader's skips since the last call: pages over --max-bytes
 * are skipped (exit 4); other skipped whole files failed (they were asked
 * for by name or directory), while WARC and JSONL skip non-HTML records as
 * a matter of course. Each gets its manifest line. */
static void account_skips(cli_inputs *in, const char *warning)
{
    size_t sk = winnow_reader_skipped(in->reader), tl = winnow_reader_too_large(in->reader);
    size_t new_tl = tl - in->reader_too_large, new_sk = sk - in->reader_skipped;
    size_t new_other = new_sk > new_tl ? new_sk - new_tl : 0;
    in->reader_skipped = sk;
    in->reader_too_large = tl;
    for (size_t k = 0; k < new_tl; k++) {
        in->skipped++;
        input_line(in, WINNOW_E_TOO_LARGE, warning);
    }
    if (!is_container(in->reader))
        for (size_t k = 0; k < new_other; k++) {
            in->failed++;
            input_line(in, WINNOW_E_IO, warning);
        }
}

/* The output name of a record: its own id, after its container's name
 * without the extension ("crawl-00042" for record 42 of crawl.warc.gz,
 * "stdin-00003" for line 3 of JSON lines on stdin); unique in the run. */
static char *page_name(cli_inputs *in, const winnow_record *rec)
{
    const char *id = rec->id && *rec->id ? rec->id : "page";
    if (!is_container(in->reader)) return cli_names_take(in->names, id);
    const char *base = strrchr(in->reader_path, '/');
    base = base ? base + 1 : in->reader_path;
    size_t stem = strlen(base) - container_ext(base);
    if (!strcmp(in->reader_path, "-")) base = "stdin", stem = 5;
    if (in->o->format == WINNOW_FORMAT_JSONL && !in->o->batch) {
        /* jsonl ids (no files): the container's name is made unique once,
         * its records' ids are not kept, so memory stays flat however many
         * records come ("crawl-00042", "crawl~2-00042" for a second crawl) */
        if (!in->reader_stem) {
            char *b = strndup(base, stem);
            in->reader_stem = b ? cli_names_take(in->names, b) : NULL;
            free(b);
            if (!in->reader_stem) return NULL;
        }
        size_t n = strlen(in->reader_stem) + strlen(id) + 2;
        char *full = malloc(n);
        if (full) snprintf(full, n, "%s-%s", in->reader_stem, id);
        return full;
    }
    size_t n = stem + strlen(id) + 2;
    char *full = malloc(n);
    if (!full) return NULL;
    snprintf(full, n, "%.*s-%s", (int)stem, base, id);
    char *name = cli_names_take(in->names, full);
    free(full);
    return name;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* A record's name in messages: its output name, or without -o the name it
 * would have there but for a "~2" (names are not kept then). */
static char *record_label(cli_inputs *in, const cli_page *p)
{
    if (p && p->name) return strdup(p->name);
    const char *base = strrchr(in->reader_path, '/');
    base = base ? base + 1 : in->reader_path;
    size_t stem = strlen(base) - container_ext(base);
    if (!strcmp(in->reader_path, "-")) base = "stdin", stem = 5;
    const char *id = p && p->id ? p->id : "page";
    size_t n = stem + strlen(id) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%.*s-%s", (int)stem, base, id);
    return s;
}

/* Progress: the share of the inputs' bytes read, -1 when their total is not known. */
static double inputs_fraction(cli_inputs *in)
{
    if (!in->sizes) return -1;
    unsigned long long total = 0, done = in->bytes_before;
    for (int i = 0; i < in->o->ninputs; i++) {
        if (in->sizes[i] < 0) return -1;
        total += (unsigned long long)in->sizes[i];
    }
    if (in->reader) {
        unsigned long long d = 0;
        winnow_reader_progress(in->reader, &d, NULL);
        done += d;
    }
    return total ? (double)done / (double)total : -1;
}

int cli_inputs_next(cli_inputs *in, cli_page *page)
{
    memset(page, 0, sizeof *page);
    pthread_mutex_lock(&in->lock);
    int got = 0;
    while (!got && !atomic_load(&in->stop)) {
        if (!in->reader && !in->reader_fresh) {
            if (in->next_input >= in->o->ninputs) break;
            open_reader(in);
        }
        if (in->reader_fresh) {
            in->reader_fresh = 0;
            if (in->open_status != WINNOW_OK) {
                cli_report("winnow: %s\n", in->open_error);
                input_line(in, in->open_status, in->open_error);
                in->failed++;
                close_reader(in);
                continue;
            }
            unsigned long long total;
            if (in->sizes)
                in->sizes[in->reader_index] = winnow_reader_progress(in->reader, NULL, &total) ? (long long)total : -1;
        }
        winnow_record rec = { sizeof rec };
        winnow_status r = winnow_reader_next(in->reader, &rec);
        const char *warning = winnow_reader_warning(in->reader);
        int damaged = r == WINNOW_OK && rec.error;
        if (*warning && !damaged) {
            in->input_warnings++;
            if (!in->o->quiet) cli_report("winnow: warning: %s\n", warning);
        }
        account_skips(in, warning);
        if (damaged) {
            /* a record that holds no page (a bad JSONL line, a WARC record
             * the end of the file cut): a failure with its own line, so
             * that nothing of the input goes unaccounted */
            cli_page named = { .id = (char *)(rec.id ? rec.id : "page") };
            char *label = record_label(in, &named);
            cli_report("winnow: %s: %s\n", label ? label : in->reader_path, rec.error);
            free(label);
            cli_entry e = { "",         rec.file ? rec.file : in->reader_path,
                            rec.number, rec.record_id,
                            rec.url,    WINNOW_E_FORMAT,
                            rec.error };
            size_t seq = in->seq++;
            cli_manifest_add(in->manifest, seq, &e);
            if (in->line_fn) in->line_fn(in->line_ctx, seq, &e);
            in->failed++;
            continue;
        }
        if (r == WINNOW_OK) {
            /* a file's bytes are taken from the reader, not copied: a
             * large page is held once */
            size_t taken = 0;
            page->data = rec.len ? winnow_reader_take(in->reader, &taken) : NULL;
            if (!page->data) {
                page->data = malloc(rec.len ? rec.len : 1);
                if (!page->data) {
                    cli_report("winnow: out of memory\n");
                    in->failed++;
                    break;
                }
                if (rec.len) memcpy(page->data, rec.data, rec.len);
            }
            page->len = rec.len;
            page->url = dup_or_null(rec.url ? rec.url : in->o->url);
            page->charset = dup_or_null(rec.charset ? rec.charset : in->o->charset);
            page->source = dup_or_null(rec.source);
            page->id = dup_or_null(rec.id ? rec.id : "page");
            page->file = dup_or_null(rec.file ? rec.file : in->reader_path);
            page->record = rec.number;
            page->record_id = dup_or_null(rec.record_id);
            page->seq = in->seq++;
            if (in->names) page->name = page_name(in, &rec);
            if (is_container(in->reader) && (!in->names || page->name)) {
                /* a record is called what its output is called
                 * (CONTAINER-RECORD) in every message, not by a byte offset
                 * or a line number that no output name shows */
                free(page->source);
                page->source = record_label(in, page);
            }
            int oom = !page->id || !page->file || (in->names && !page->name) || (rec.source && !page->source) ||
                      (rec.record_id && !page->record_id) || ((rec.url || in->o->url) && !page->url) ||
                      ((rec.charset || in->o->charset) && !page->charset);
            if (oom) {
                cli_report("winnow: out of memory\n");
                in->failed++;
                cli_manifest_page(in->manifest, page, "", WINNOW_E_NOMEM, "out of memory");
                if (in->line_fn) {
                    cli_entry e = { "",
                                    page->file ? page->file : in->reader_path,
                                    page->record,
                                    page->record_id,
                                    page->url,
                                    WINNOW_E_NOMEM,
                                    "out of memory" };
                    in->line_fn(in->line_ctx, page->seq, &e);
                }
                cli_page_free(page);
                break;
            }
            in->count++;
            got = 1;
        } else {
            if (WINNOW_FAILED(r)) {
                cli_report("winnow: %s\n", winnow_reader_error(in->reader));
                input_line(in, r, winnow_reader_error(in->reader));
                in->failed++;
            }
            close_reader(in);
        }
    }
    if (in->sizes) cli_progress_tick(atomic_load(&in->pages_done), inputs_fraction(in));
    pthread_mutex_unlock(&in->lock);
    return got;
}

void cli_page_free(cli_page *p)
{
    free(p->data);
    free(p->url);
    free(p->charset);
    free(p->id);
    free(p->source);
    free(p->file);
    free(p->record_id);
    free(p->name);
    memset(p, 0, sizeof *p);
}

void cli_inputs_close(cli_inputs *in)
{
    if (!in) return;
    if (in->reader) winnow_reader_close(in->reader);
    free(in->reader_stem);
    cli_names_free(in->names);
    free(in->sizes);
    pthread_mutex_destroy(&in->lock);
    free(in);
}

void cli_site_name(const cli_opts *o, const cli_page *p, char *out, size_t cap)
{
    out[0] = '\0';
    if (o->site) {
        snprintf(out, cap, "%s", o->site);
        return;
    }
    winnow_url_site(p->url, out, cap);
}

/* ---- site cache ---- */

typedef struct failed_site {
    char *name, *error;
    winnow_status status;
} failed_site;

struct cli_sites {
    winnow_sitedb *db;
    winnow_partial *partial; /* its sites are the partial's (not listed here) */
    double half_life;
    winnow_site **sites;
    size_t count, cap;
    failed_site *failed;
    size_t nfailed;
    int damaged;
    pthread_mutex_t lock;
};

static void remember_failure(cli_sites *s, const char *name, const char *err, winnow_status st)
{
    failed_site *f = realloc(s->failed, (s->nfailed + 1) * sizeof *f);
    if (!f) return;
    s->failed = f;
    f[s->nfailed].name = strdup(name);
    f[s->nfailed].error = strdup(err);
    f[s->nfailed].status = st;
    if (f[s->nfailed].name && f[s->nfailed].error)
        s->nfailed++;
    else {
        free(f[s->nfailed].name);
        free(f[s->nfailed].error);
    }
}

cli_sites *cli_sites_new(winnow_sitedb *db, double half_life)
{
    cli_sites *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->db = db;
    s->half_life = half_life;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

int cli_sites_open(const char *path, double half_life, winnow_sitedb **db, cli_sites **sites)
{
    *db = NULL;
    *sites = NULL;
    char err[1024];
    winnow_status st = winnow_sitedb_open(path, WINNOW_SITEDB_READ, db, err, sizeof err);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        return cli_db_exit(st);
    }
    if (!(*sites = cli_sites_new(*db, half_life))) {
        fprintf(stderr, "winnow: out of memory\n");
        winnow_sitedb_close(*db);
        *db = NULL;
        return EXIT_SOME_FAILED;
    }
    return 0;
}

cli_sites *cli_sites_new_partial(winnow_partial *p)
{
    cli_sites *s = cli_sites_new(NULL, 0);
    if (s) s->partial = p;
    return s;
}

winnow_site *cli_sites_get(cli_sites *s, const char *name, char *err, size_t errcap, int *loaded, winnow_status *status,
                           int *again)
{
    if (loaded) *loaded = 0;
    if (again) *again = 0;
    winnow_status failure = WINNOW_E_IO;
    pthread_mutex_lock(&s->lock);
    if (s->partial) {
        winnow_site *site = NULL;
        winnow_status st = winnow_partial_site(s->partial, name, &site);
        if (st != WINNOW_OK) snprintf(err, errcap, "%s", winnow_partial_error(s->partial));
        if (status) *status = st;
        pthread_mutex_unlock(&s->lock);
        return site;
    }
    winnow_site *found = NULL;
    for (size_t i = 0; i < s->count && !found; i++)
        if (!strcmp(winnow_site_name(s->sites[i]), name)) found = s->sites[i];
    for (size_t i = 0; i < s->nfailed && !found; i++)
        if (!strcmp(s->failed[i].name, name)) {
            snprintf(err, errcap, "%s", s->failed[i].error);
            if (status) *status = s->failed[i].status;
            if (again) *again = 1;
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
    if (!found) {
        winnow_site *site = NULL;
        if (s->db) {
            winnow_status st = winnow_site_load(s->db, name, s->half_life, &site);
            if (st != WINNOW_OK) {
                snprintf(err, errcap, "cannot load site %s: %s", name, winnow_sitedb_error(s->db));
                if (st == WINNOW_E_DB_DAMAGED) s->damaged = 1;
                /* the load's own status: a damaged site's pages are
                 * WINNOW_E_DB_DAMAGED (exit 5), not a read error */
                failure = st;
                remember_failure(s, name, err, failure);
            }
        } else {
            winnow_status st = winnow_site_new(name, s->half_life, &site);
            if (st != WINNOW_OK) {
                snprintf(err, errcap, "%s", winnow_status_message(st));
                failure = st;
            }
        }
        if (site) {
            if (s->count == s->cap) {
                size_t cap = s->cap ? s->cap * 2 : 16;
                winnow_site **n = realloc(s->sites, cap * sizeof *n);
                if (!n) {
                    winnow_site_free(site);
                    site = NULL;
                    snprintf(err, errcap, "out of memory");
                } else {
                    s->sites = n;
                    s->cap = cap;
                }
            }
            if (site) s->sites[s->count++] = site;
            if (site && loaded) *loaded = 1;
            if (!site) failure = WINNOW_E_NOMEM;
        }
        found = site;
        if (!found && status) *status = failure;
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int cli_sites_damaged(cli_sites *s)
{
    pthread_mutex_lock(&s->lock);
    int d = s->damaged;
    pthread_mutex_unlock(&s->lock);
    return d;
}

size_t cli_sites_all(cli_sites *s, winnow_site ***out)
{
    *out = s->sites;
    return s->count;
}

void cli_sites_free(cli_sites *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->count; i++) winnow_site_free(s->sites[i]);
    free(s->sites);
    for (size_t i = 0; i < s->nfailed; i++) {
        free(s->failed[i].name);
        free(s->failed[i].error);
    }
    free(s->failed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* ---- outputs ---- */

void cli_wal_note(const char *path)
{
    char buf[4200];
    snprintf(buf, sizeof buf, "%s-wal", path);
    struct stat st;
    if (stat(buf, &st) != 0) return;
    fprintf(stderr,
            "winnow: %s-wal and -shm stay beside %s: SQLite's log, holding commits not yet copied into the file (do "
            "not remove them); the next command that opens the database with room to write copies them in and "
            "removes both\n",
            path, path);
}

int cli_mkdir_p(const char *path)
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

char *cli_output_path(const cli_opts *o, const cli_page *p, int many)
{
    if (!o->output) return NULL;
    if (!many) return strdup(o->output);
    /* names never hold '/' (cli_names_take), so OUT/NAME.EXT stays in OUT */
    const char *name = p->name && *p->name ? p->name : "page";
    const char *ext = cli_format_ext(o->format);
    size_t n = strlen(o->output) + strlen(name) + strlen(ext) + 2;
    char *path = malloc(n);
    if (!path) return NULL;
    snprintf(path, n, "%s%s%s%s", o->output, o->output[strlen(o->output) - 1] == '/' ? "" : "/", name, ext);
    return path;
}

static int wants_comments(const cli_opts *o)
{
    return o->comments && (o->format == WINNOW_FORMAT_TEXT || o->format == WINNOW_FORMAT_MARKDOWN);
}

/* Where rendered bytes go, and the last byte written. */
typedef struct sink {
    FILE *f;
    int last;
} sink;

static int sink_write(void *ctx, const char *data, size_t len)
{
    sink *s = ctx;
    if (len) s->last = (unsigned char)data[len - 1];
    return fwrite(data, 1, len, s->f) == len ? 0 : -1;
}

/* --comments: the comments after the main text, a header line each */
static winnow_status write_comments(const winnow_doc *doc, sink *out)
{
    size_t n = winnow_doc_comment_count(doc);
    for (size_t i = 0; i < n; i++) {
        winnow_comment c = { sizeof c };
        winnow_doc_comment(doc, i, &c);
        fprintf(out->f, "\n-- %s%s%s\n%s\n", c.author, *c.author && *c.date ? ", " : "", c.date, c.text);
        out->last = '\n';
    }
    return ferror(out->f) ? WINNOW_E_IO : WINNOW_OK;
}

/* Failures that every later page would meet too: the folder cannot be
 * written (no permission, read-only, full, gone) or no file can be opened. */
static int folder_errno(int e)
{
    return e == EACCES || e == EPERM || e == EROFS || e == ENOSPC || e == EDQUOT || e == ENOENT || e == ENOTDIR ||
           e == EIO || e == EMFILE || e == ENFILE;
}

/* The page in o's format: json with the body --body asks for. */
static winnow_status render_doc(const cli_opts *o, const winnow_doc *doc, sink *out)
{
    if (o->format == WINNOW_FORMAT_JSON && o->body) {
        winnow_json_options jo;
        winnow_json_options_default(&jo, sizeof jo);
        jo.body = o->body;
        return winnow_render_json(doc, &jo, sink_write, out);
    }
    return winnow_render(doc, o->format, sink_write, out);
}

/* Pages written to stdout so far, and the last byte; only one thread
 * writes there (pages to stdout are extracted by one thread). */
static size_t stdout_pages;
static int stdout_last = '\n';

winnow_status cli_write_doc(const cli_opts *o, const winnow_doc *doc, const char *path, int whole, char *err,
                            size_t errcap, int *fatal, char **staged_out)
{
    err[0] = '\0';
    if (staged_out) *staged_out = NULL;
    *fatal = 0;
    if (!path) {
        /* text and markdown: a line holding a form feed between pages */
        cli_progress_hide();
        int separate = o->format == WINNOW_FORMAT_TEXT || o->format == WINNOW_FORMAT_MARKDOWN ||
                       o->format == WINNOW_FORMAT_FULLTEXT;
        if (separate && stdout_pages > 0) {
            if (stdout_last != '\n') putchar('\n');
            fputs("\f\n", stdout);
        }
        sink out = { stdout, stdout_last };
        errno = 0;
        winnow_status rs = ferror(stdout) ? WINNOW_E_IO : render_doc(o, doc, &out);
        if (rs == WINNOW_OK && wants_comments(o)) rs = write_comments(doc, &out);
        if (fflush(stdout) != 0 && rs == WINNOW_OK) rs = WINNOW_E_IO;
        int saved = errno;
        stdout_last = out.last;
        stdout_pages++;
        if (rs != WINNOW_OK) {
            *fatal = rs == WINNOW_E_IO;
            if (rs == WINNOW_E_IO && saved)
                snprintf(err, errcap, "cannot write to stdout: %s", strerror(saved));
            else
                snprintf(err, errcap, "<stdout>: %s", winnow_status_message(rs));
        }
        return rs;
    }
    /* Written under a temporary name and renamed when complete, so that a
     * failed rendering leaves no half file: always for a run's own output
     * files, and for -o FILE when FILE is a regular file or new (a device,
     * a pipe or a symbolic link named by -o is written in place). */
    struct stat sb;
    int staged = whole || (lstat(path, &sb) != 0 ? errno == ENOENT : S_ISREG(sb.st_mode));
    char *tmp = NULL;
    FILE *f = staged ? cli_tmp_create(path, &tmp) : fopen(path, "wb");
    if (!f) {
        *fatal = whole && folder_errno(errno);
        snprintf(err, errcap, "cannot write %s: %s", path, strerror(errno));
        return WINNOW_E_IO;
    }
    sink out = { f, '\n' };
    errno = 0;
    winnow_status rs = render_doc(o, doc, &out);
    if (rs == WINNOW_OK && wants_comments(o)) rs = write_comments(doc, &out);
    int saved = errno;
    if (staged && staged_out && rs == WINNOW_OK) {
        if (cli_tmp_close(f, tmp) != 0) {
            rs = WINNOW_E_IO;
            saved = errno;
        } else {
            *staged_out = tmp;
        }
    } else if (staged) {
        if (cli_tmp_commit(f, tmp, path, rs == WINNOW_OK) != 0 && rs == WINNOW_OK) {
            rs = WINNOW_E_IO;
            saved = errno;
        }
    } else if (fclose(f) != 0 && rs == WINNOW_OK) {
        rs = WINNOW_E_IO;
        saved = errno;
    }
    if (rs != WINNOW_OK) {
        *fatal = whole && rs == WINNOW_E_IO && folder_errno(saved);
        snprintf(err, errcap, "cannot write %s: %s", path,
                 rs == WINNOW_E_IO && saved ? strerror(saved) : winnow_status_message(rs));
    }
    return rs;
}

int cli_output_page(const cli_opts *o, cli_inputs *in, cli_manifest *m, const cli_page *p, const winnow_doc *doc,
                    winnow_status s, int many)
{
    const char *name = p->source ? p->source : "<stdin>";
    char *out_path = cli_output_path(o, p, many);
    char err[1024] = "out of memory";
    int fatal = 0;
    char *staged = NULL; /* renamed into place after its manifest line (outputs.c) */
    winnow_status rs = o->output && !out_path
                           ? WINNOW_E_NOMEM
                           : cli_write_doc(o, doc, out_path, many, err, sizeof err, &fatal, m ? &staged : NULL);
    if (rs != WINNOW_OK) {
        /* one message for a folder or stdout that cannot be written, and no more pages */
        if (!fatal)
            cli_report("winnow: %s: %s\n", name, err);
        else if (cli_inputs_stop(in))
            cli_report("winnow: %s; stopped (no more pages are read)\n", err);
        cli_manifest_page(m, p, "", rs, err);
        free(out_path);
        return 1;
    }
    const char *base = out_path ? strrchr(out_path, '/') : NULL;
    const char *msg = winnow_doc_warning(doc);
    cli_entry e = {
        base ? base + 1 : out_path, p->file, p->record, p->record_id, p->url, s, msg ? msg : "", staged, out_path
    };
    cli_manifest_add(m, p->seq, &e);
    free(staged);
    free(out_path);
    return 0;
}

void cli_run_threads(int jobs, void *(*fn)(void *), void *arg)
{
    pthread_t *tids = jobs > 1 ? calloc((size_t)jobs, sizeof *tids) : NULL;
    int *started = jobs > 1 ? calloc((size_t)jobs, sizeof *started) : NULL;
    if (jobs > 1 && (!tids || !started)) {
        fprintf(stderr, "winnow: warning: cannot start threads (out of memory): one thread does all\n");
        jobs = 1;
    }
    for (int t = 1; t < jobs; t++) started[t] = pthread_create(&tids[t], NULL, fn, arg) == 0;
    fn(arg);
    for (int t = 1; t < jobs; t++)
        if (started[t]) pthread_join(tids[t], NULL);
    free(tids);
    free(started);
}
