/* Option parsing, input walking, output naming and the site cache shared
 * by the commands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

void cli_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&report_lock);
    vfprintf(stderr, fmt, ap);
    pthread_mutex_unlock(&report_lock);
    va_end(ap);
}

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
    default: return ".txt";
    }
}

static int parse_double(const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !end || *end || !(v > 0)) return -1;
    *out = v;
    return 0;
}

/* `allowed` lists the long options a command takes, space separated. */
static int allowed_opt(const char *allowed, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = allowed; (p = strstr(p, name)) != NULL; p += n)
        if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

int cli_parse(int argc, char **argv, int first, cli_opts *o, const char *allowed)
{
    memset(o, 0, sizeof *o);
    winnow_options_default(&o->lib);
    winnow_site_options_default(&o->site_opt);
    o->format = WINNOW_FORMAT_TEXT;
    o->jobs = 1;
    o->commit_every = 1000;
    o->inputs = calloc((size_t)argc + 1, sizeof *o->inputs);
    if (!o->inputs) return EXIT_SOME_FAILED;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' || a[1] == '\0') { o->inputs[o->ninputs++] = a; continue; }
        const char *name = a;
        if (!strcmp(a, "-o")) name = "--output";
        else if (!strcmp(a, "-f")) name = "--format";
        else if (!strcmp(a, "-j")) name = "--jobs";
        else if (!strcmp(a, "-q")) name = "--quiet";
        if (!allowed_opt(allowed, name)) {
            fprintf(stderr, "winnow: %s does not take option '%s' (try 'winnow help')\n", argv[1], a);
            return EXIT_USAGE;
        }
        int flag = !strcmp(name, "--quiet") || !strcmp(name, "--no-title") || !strcmp(name, "--exclude-self") ||
                   !strcmp(name, "--batch") || !strcmp(name, "--all") || !strcmp(name, "--no-model") ||
                   !strcmp(name, "--no-smooth") || !strcmp(name, "--comments");
        if (!flag) {
            if (!val) { fprintf(stderr, "winnow: option %s needs a value\n", a); return EXIT_USAGE; }
            i++;
        }
        if (!strcmp(name, "--output")) o->output = val;
        else if (!strcmp(name, "--format")) {
            if (!winnow_format_parse(val, &o->format)) {
                fprintf(stderr, "winnow: unknown format '%s' (text, markdown, json, html, blocks)\n", val);
                return EXIT_USAGE;
            }
        } else if (!strcmp(name, "--charset")) o->charset = val;
        else if (!strcmp(name, "--url")) o->url = val;
        else if (!strcmp(name, "--db")) o->db_path = val;
        else if (!strcmp(name, "--site")) o->site = val;
        else if (!strcmp(name, "--no-title")) o->lib.include_title = 0;
        else if (!strcmp(name, "--quiet")) o->quiet = 1;
        else if (!strcmp(name, "--exclude-self")) o->site_opt.exclude_self = 1;
        else if (!strcmp(name, "--batch")) o->batch = 1;
        else if (!strcmp(name, "--all")) o->all = 1;
        else if (!strcmp(name, "--model")) o->model = val;
        else if (!strcmp(name, "--no-model")) o->lib.classifier = 0;
        else if (!strcmp(name, "--no-smooth")) o->lib.smooth = 0;
        else if (!strcmp(name, "--comments")) o->comments = 1;
        else if (!strcmp(name, "--rule")) {
            const char *eq = strchr(val, '=');
            char *end = NULL;
            if (eq) strtod(eq + 1, &end);
            if (!eq || eq == val || !end || end == eq + 1 || *end) {
                fprintf(stderr, "winnow: --rule needs NAME=NUMBER, got '%s' ('winnow rules' lists them)\n", val);
                return EXIT_USAGE;
            }
            int known = 0;
            for (int k = 0; k < winnow_rule_count() && !known; k++) {
                winnow_rule r;
                winnow_rule_info(k, &r);
                known = strlen(r.name) == (size_t)(eq - val) && !strncmp(r.name, val, (size_t)(eq - val));
            }
            if (!known) {
                fprintf(stderr, "winnow: no rule named '%.*s' ('winnow rules' lists them)\n", (int)(eq - val), val);
                return EXIT_USAGE;
            }
            if (o->nrules == (int)(sizeof o->rules / sizeof o->rules[0])) {
                fprintf(stderr, "winnow: too many --rule options\n");
                return EXIT_USAGE;
            }
            o->rules[o->nrules++] = val;
        } else if (!strcmp(name, "--max-bytes")) {
            char *end = NULL;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (errno || !end || *end || v == 0) {
                fprintf(stderr, "winnow: --max-bytes needs a positive number, got '%s'\n", val);
                return EXIT_USAGE;
            }
            o->lib.max_input_bytes = (size_t)v;
        } else if (!strcmp(name, "--jobs")) {
            o->jobs = atoi(val);
            if (o->jobs < 1 || o->jobs > 256) {
                fprintf(stderr, "winnow: --jobs needs a number from 1 to 256, got '%s'\n", val);
                return EXIT_USAGE;
            }
        } else if (!strcmp(name, "--commit-every")) {
            char *end = NULL;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (errno || !end || *end || v == 0 || val[0] == '-') {
                fprintf(stderr, "winnow: --commit-every needs a positive number of pages, got '%s'\n", val);
                return EXIT_USAGE;
            }
            o->commit_every = (size_t)v;
        } else if (!strcmp(name, "--half-life")) {
            if (parse_double(val, &o->half_life) != 0) {
                fprintf(stderr, "winnow: --half-life needs a positive number of pages, got '%s'\n", val);
                return EXIT_USAGE;
            }
        } else if (!strcmp(name, "--mode")) {
            if (!strcmp(val, "auto")) o->site_opt.mode = WINNOW_MODE_AUTO;
            else if (!strcmp(val, "site")) o->site_opt.mode = WINNOW_MODE_SITE;
            else if (!strcmp(val, "page")) o->site_opt.mode = WINNOW_MODE_PAGE;
            else { fprintf(stderr, "winnow: unknown mode '%s' (auto, site, page)\n", val); return EXIT_USAGE; }
        } else if (!strcmp(name, "--method")) {
            static const struct { const char *name; winnow_method m; } methods[] = {
                {"auto", WINNOW_METHOD_AUTO}, {"blocks", WINNOW_METHOD_BLOCKS},
                {"path-blocks", WINNOW_METHOD_PATH_BLOCKS}, {"chunks", WINNOW_METHOD_CHUNKS},
                {"table-chunks", WINNOW_METHOD_TABLE_CHUNKS}, {"ce", WINNOW_METHOD_CE},
                {"fastce", WINNOW_METHOD_FASTCE},
            };
            size_t k = 0;
            while (k < sizeof methods / sizeof methods[0] && strcmp(methods[k].name, val) != 0) k++;
            if (k == sizeof methods / sizeof methods[0]) {
                fprintf(stderr, "winnow: unknown method '%s' (auto, blocks, path-blocks, chunks, table-chunks, ce, fastce)\n", val);
                return EXIT_USAGE;
            }
            o->site_opt.method = methods[k].m;
        } else {
            fprintf(stderr, "winnow: unknown option '%s' (try 'winnow help')\n", a);
            return EXIT_USAGE;
        }
    }
    return 0;
}

winnow_engine *cli_engine_new(const cli_opts *o)
{
    winnow_engine *e = winnow_engine_new(&o->lib);
    if (!e) { fprintf(stderr, "winnow: out of memory\n"); return NULL; }
    if (o->model && o->lib.classifier && winnow_engine_load_model(e, o->model) != WINNOW_OK) {
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
    int failed;
    int many;
    size_t count;
    size_t seq;              /* manifest lines handed out */
    cli_names *names;        /* with -o: output names given so far */
    cli_manifest *manifest;
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
    static const char *const ext[] = {".warc.gz", ".jsonl.gz", ".ndjson.gz", ".warc", ".jsonl", ".ndjson"};
    size_t n = strlen(p);
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t e = strlen(ext[k]);
        if (n > e && !strcasecmp(p + n - e, ext[k])) return e;
    }
    return 0;
}

static int is_container(const char *p) { return container_ext(p) > 0; }

cli_inputs *cli_inputs_open(const cli_opts *o)
{
    cli_inputs *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->o = o;
    if (o->output && !(in->names = cli_names_new())) {
        free(in);
        return NULL;
    }
    pthread_mutex_init(&in->lock, NULL);
    in->many = o->ninputs > 1;
    for (int i = 0; i < o->ninputs; i++)
        if (strcmp(o->inputs[i], "-") != 0 && (is_dir(o->inputs[i]) || is_container(o->inputs[i]))) in->many = 1;
    return in;
}

int cli_inputs_many(const cli_inputs *in) { return in->many; }
void cli_inputs_set_manifest(cli_inputs *in, cli_manifest *m) { in->manifest = m; }

/* The manifest line of an input that failed without a page to show for it
 * (it cannot be opened or read, a file was skipped). */
static void input_failed(cli_inputs *in, const char *message)
{
    /* the readers' words for a page over --max-bytes */
    winnow_status s = strstr(message, "-byte limit") ? WINNOW_E_TOO_LARGE : WINNOW_E_IO;
    cli_entry e = {"", in->reader_path, -1, NULL, NULL, s, message};
    cli_manifest_add(in->manifest, in->seq++, &e);
}

/* The output name of a record: its own id, after its container's name
 * without the extension ("crawl-00042" for record 42 of crawl.warc.gz);
 * unique in the run. */
static char *page_name(cli_inputs *in, const winnow_record *rec)
{
    const char *id = rec->id && *rec->id ? rec->id : "page";
    if (!is_container(in->reader_path)) return cli_names_take(in->names, id);
    const char *base = strrchr(in->reader_path, '/');
    base = base ? base + 1 : in->reader_path;
    size_t stem = strlen(base) - container_ext(base);
    size_t n = stem + strlen(id) + 2;
    char *full = malloc(n);
    if (!full) return NULL;
    snprintf(full, n, "%.*s-%s", (int)stem, base, id);
    char *name = cli_names_take(in->names, full);
    free(full);
    return name;
}

int cli_inputs_failed(const cli_inputs *in) { return in->failed; }

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

int cli_inputs_next(cli_inputs *in, cli_page *page)
{
    memset(page, 0, sizeof *page);
    pthread_mutex_lock(&in->lock);
    int got = 0;
    while (!got) {
        if (!in->reader) {
            if (in->next_input >= in->o->ninputs) break;
            in->reader_path = in->o->inputs[in->next_input++];
            in->reader = winnow_reader_open(in->reader_path, in->o->lib.max_input_bytes);
            if (!in->reader) { cli_report("winnow: out of memory\n"); in->failed++; break; }
            if (*winnow_reader_error(in->reader)) {
                cli_report("winnow: %s\n", winnow_reader_error(in->reader));
                input_failed(in, winnow_reader_error(in->reader));
                in->failed++;
                winnow_reader_close(in->reader);
                in->reader = NULL;
                continue;
            }
        }
        winnow_record rec;
        size_t skipped = winnow_reader_skipped(in->reader);
        int r = winnow_reader_next(in->reader, &rec);
        if (*winnow_reader_warning(in->reader) && !in->o->quiet)
            cli_report("winnow: warning: %s\n", winnow_reader_warning(in->reader));
        /* a skipped file was asked for by name or directory: it failed (WARC
         * and JSONL skip non-HTML records as a matter of course); the
         * reader's warning names it */
        if (!is_container(in->reader_path))
            for (size_t k = skipped; k < winnow_reader_skipped(in->reader); k++)
                input_failed(in, winnow_reader_warning(in->reader));
        if (r == 1) {
            page->data = malloc(rec.len ? rec.len : 1);
            if (!page->data) { cli_report("winnow: out of memory\n"); in->failed++; break; }
            if (rec.len) memcpy(page->data, rec.data, rec.len);
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
            int oom = !page->id || !page->file || (in->names && !page->name) || (rec.source && !page->source) ||
                      (rec.record_id && !page->record_id) || ((rec.url || in->o->url) && !page->url) ||
                      ((rec.charset || in->o->charset) && !page->charset);
            if (oom) {
                cli_report("winnow: out of memory\n");
                in->failed++;
                cli_manifest_page(in->manifest, page, "", WINNOW_E_NOMEM, "out of memory");
                cli_page_free(page);
                break;
            }
            in->count++;
            got = 1;
        } else {
            if (r < 0) {
                cli_report("winnow: %s\n", winnow_reader_error(in->reader));
                input_failed(in, winnow_reader_error(in->reader));
                in->failed++;
            }
            if (!is_container(in->reader_path)) in->failed += (int)winnow_reader_skipped(in->reader);
            winnow_reader_close(in->reader);
            in->reader = NULL;
        }
    }
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
    cli_names_free(in->names);
    pthread_mutex_destroy(&in->lock);
    free(in);
}

void cli_site_name(const cli_opts *o, const cli_page *p, char *out, size_t cap)
{
    out[0] = '\0';
    if (o->site) { snprintf(out, cap, "%s", o->site); return; }
    if (!p->url) return;
    const char *h = strstr(p->url, "://");
    h = h ? h + 3 : p->url;
    const char *at = strpbrk(h, "@/?#");
    if (at && *at == '@') h = at + 1; /* user:password@ */
    size_t n = strcspn(h, "/?#:");
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) out[i] = (char)((h[i] >= 'A' && h[i] <= 'Z') ? h[i] + 32 : h[i]);
    out[n] = '\0';
    if (!strncmp(out, "www.", 4)) memmove(out, out + 4, n - 3);
}

/* ---- site cache ---- */

int cli_db_exit(winnow_status s) { return s == WINNOW_E_DB_DAMAGED ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED; }

typedef struct failed_site {
    char *name, *error;
} failed_site;

struct cli_sites {
    winnow_sitedb *db;
    double half_life;
    winnow_site **sites;
    size_t count, cap;
    failed_site *failed;
    size_t nfailed;
    int damaged;
    pthread_mutex_t lock;
};

cli_sites *cli_sites_new(winnow_sitedb *db, double half_life)
{
    cli_sites *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->db = db;
    s->half_life = half_life;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static void remember_failure(cli_sites *s, const char *name, const char *err)
{
    failed_site *f = realloc(s->failed, (s->nfailed + 1) * sizeof *f);
    if (!f) return;
    s->failed = f;
    f[s->nfailed].name = strdup(name);
    f[s->nfailed].error = strdup(err);
    if (f[s->nfailed].name && f[s->nfailed].error) s->nfailed++;
    else { free(f[s->nfailed].name); free(f[s->nfailed].error); }
}

winnow_site *cli_sites_get(cli_sites *s, const char *name, char *err, size_t errcap)
{
    pthread_mutex_lock(&s->lock);
    winnow_site *found = NULL;
    for (size_t i = 0; i < s->count && !found; i++)
        if (!strcmp(winnow_site_name(s->sites[i]), name)) found = s->sites[i];
    for (size_t i = 0; i < s->nfailed && !found; i++)
        if (!strcmp(s->failed[i].name, name)) {
            snprintf(err, errcap, "%s", s->failed[i].error);
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
                remember_failure(s, name, err);
            }
        } else {
            site = winnow_site_new(name, s->half_life);
            if (!site) snprintf(err, errcap, "out of memory");
        }
        if (site) {
            if (s->count == s->cap) {
                size_t cap = s->cap ? s->cap * 2 : 16;
                winnow_site **n = realloc(s->sites, cap * sizeof *n);
                if (!n) { winnow_site_free(site); site = NULL; snprintf(err, errcap, "out of memory"); }
                else { s->sites = n; s->cap = cap; }
            }
            if (site) s->sites[s->count++] = site;
        }
        found = site;
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

/* --comments: the comments after the main text, a header line each */
static winnow_status write_comments(const winnow_doc *doc, FILE *out)
{
    size_t n = winnow_doc_comment_count(doc);
    for (size_t i = 0; i < n; i++) {
        winnow_comment c;
        winnow_doc_comment(doc, i, &c);
        fprintf(out, "\n-- %s%s%s\n%s\n", c.author, *c.author && *c.date ? ", " : "", c.date, c.text);
    }
    return ferror(out) ? WINNOW_E_IO : WINNOW_OK;
}

winnow_status cli_write_doc(const cli_opts *o, const winnow_doc *doc, const char *path, int whole, char *err,
                            size_t errcap)
{
    err[0] = '\0';
    if (!path) {
        winnow_status rs = winnow_render(doc, o->format, cli_write_file, stdout);
        if (rs == WINNOW_OK && wants_comments(o)) rs = write_comments(doc, stdout);
        if (fflush(stdout) != 0 && rs == WINNOW_OK) rs = WINNOW_E_IO;
        if (rs != WINNOW_OK) snprintf(err, errcap, "<stdout>: %s", winnow_status_message(rs));
        return rs;
    }
    char *tmp = NULL;
    FILE *out = whole ? cli_tmp_create(path, &tmp) : fopen(path, "wb");
    if (!out) {
        snprintf(err, errcap, "cannot write %s: %s", path, strerror(errno));
        return WINNOW_E_IO;
    }
    winnow_status rs = winnow_render(doc, o->format, cli_write_file, out);
    if (rs == WINNOW_OK && wants_comments(o)) rs = write_comments(doc, out);
    int saved = errno;
    if (whole) {
        if (cli_tmp_commit(out, tmp, path, rs == WINNOW_OK) != 0 && rs == WINNOW_OK) {
            rs = WINNOW_E_IO;
            saved = errno;
        }
    } else if (fclose(out) != 0 && rs == WINNOW_OK) {
        rs = WINNOW_E_IO;
        saved = errno;
    }
    if (rs != WINNOW_OK)
        snprintf(err, errcap, "cannot write %s: %s", path, rs == WINNOW_E_IO && saved ? strerror(saved) : winnow_status_message(rs));
    return rs;
}
