/* winnow-bench: throughput and memory figures on a directory of pages.
 *
 *   winnow-bench [--rounds N] DIR    parse-only vs full extraction
 *   winnow-bench --pages N DIR       RSS over N extractions with one engine
 *
 * Every *.html / *.htm file of DIR is read into memory before any timing, so
 * disk I/O is never measured. Everything runs on one thread. See README.md. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "winnow.h"
#include "dom/dom.h"
#include "parse/parser.h"
#include "util/arena.h"

#define MAX_ROUNDS 1000

typedef struct page {
    char *name;
    char *data;
    size_t len;
} page;

typedef struct corpus {
    page *pages;
    size_t count, cap;
    size_t total_bytes, largest;
} corpus;

/* Counters for one pass of full extraction. */
typedef struct extract_stats {
    size_t failed, partial, no_content, render_failed;
    size_t out_bytes;
} extract_stats;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Current resident set in KiB, from /proc/self/statm (ru_maxrss only gives
 * the peak, which cannot show memory being returned). -1 if unavailable. */
static long rss_now_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = -1;
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long rss_peak_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss; /* KiB on Linux */
}

static int has_html_ext(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0);
}

static int page_cmp(const void *a, const void *b) { return strcmp(((const page *)a)->name, ((const page *)b)->name); }

/* Reads a whole regular file; NULL (errno set) on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        errno = EIO;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Loads every *.html / *.htm regular file of dir, sorted by name so runs are
 * repeatable. Unreadable files are reported and skipped. Returns 0 when the
 * directory itself cannot be read. */
static int load_corpus(const char *dir, corpus *c)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "winnow-bench: cannot read directory %s: %s\n", dir, strerror(errno));
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!has_html_ext(de->d_name)) continue;
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        size_t len = 0;
        char *data = read_file(path, &len);
        if (!data) {
            fprintf(stderr, "winnow-bench: skipping %s: %s\n", path, strerror(errno));
            continue;
        }
        if (c->count == c->cap) {
            size_t ncap = c->cap ? c->cap * 2 : 256;
            page *np = realloc(c->pages, ncap * sizeof *np);
            if (!np) {
                fprintf(stderr, "winnow-bench: out of memory\n");
                exit(1);
            }
            c->pages = np;
            c->cap = ncap;
        }
        c->pages[c->count++] = (page){ strdup(de->d_name), data, len };
        c->total_bytes += len;
        if (len > c->largest) c->largest = len;
    }
    closedir(d);
    qsort(c->pages, c->count, sizeof *c->pages, page_cmp);
    return 1;
}

/* Render sink: counts the bytes so the renderer does all its work. */
static int count_bytes(void *ctx, const char *data, size_t len)
{
    (void)data;
    *(size_t *)ctx += len;
    return 0;
}

/* Full public-API path for one page. With verbose, failures go to stderr. */
static void extract_one(winnow_engine *e, const page *pg, extract_stats *s, int verbose)
{
    winnow_input in = { sizeof in, pg->data, pg->len, NULL, NULL };
    winnow_doc *doc = NULL;
    winnow_status st = winnow_extract(e, &in, &doc);
    if (WINNOW_FAILED(st)) {
        s->failed++;
        if (verbose)
            fprintf(stderr, "winnow-bench: %s: %s: %s\n", pg->name, winnow_status_name(st), winnow_engine_error(e));
        return;
    }
    if (st == WINNOW_PARTIAL) s->partial++;
    if (st == WINNOW_NO_CONTENT) s->no_content++;
    if (winnow_render(doc, WINNOW_FORMAT_TEXT, count_bytes, &s->out_bytes) != WINNOW_OK) s->render_failed++;
    winnow_doc_free(doc);
}

static double time_extract(winnow_engine *e, const corpus *c, extract_stats *s, int verbose)
{
    double t0 = now_seconds();
    for (size_t i = 0; i < c->count; i++) extract_one(e, &c->pages[i], s, verbose);
    return now_seconds() - t0;
}

/* Parser floor: myhtml builds its tree, nothing is copied out (build_dom 0).
 * Raw bytes, no decode: myhtml tolerates NULs and invalid UTF-8. */
static double time_parse(wn_parser *p, wn_arena *arena, const corpus *c, size_t *failed)
{
    double t0 = now_seconds();
    for (size_t i = 0; i < c->count; i++) {
        wn_dom dom;
        memset(&dom, 0, sizeof dom);
        if (wn_parser_parse(p, c->pages[i].data, c->pages[i].len, arena, &dom, 0) != WN_PARSE_OK) (*failed)++;
        wn_arena_reset(arena, 0);
    }
    return now_seconds() - t0;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n round times (the lower middle one when n is even, so it is
 * always a round that actually ran); also the fastest and slowest. */
static double median_of(const double *t, int n, double *min, double *max)
{
    double s[MAX_ROUNDS];
    memcpy(s, t, (size_t)n * sizeof *t);
    qsort(s, (size_t)n, sizeof *s, dbl_cmp);
    *min = s[0];
    *max = s[n - 1];
    return s[(n - 1) / 2];
}

static void print_row(const char *label, const corpus *c, const double *t, int rounds, double *pages_per_s)
{
    double lo, hi, med = median_of(t, rounds, &lo, &hi);
    *pages_per_s = (double)c->count / med;
    printf("%-12s %7zu %12zu %10.4f %10.4f %10.4f %10.1f %9.2f\n", label, c->count, c->total_bytes, med, lo, hi,
           *pages_per_s, (double)c->total_bytes / 1e6 / med);
}

static int run_throughput(const corpus *c, int rounds, long rss_loaded_kb)
{
    winnow_engine *e = NULL;
    winnow_engine_new(NULL, &e);
    /* the same pipeline without the node classifier, measured in the same rounds */
    winnow_options plain;
    winnow_options_default(&plain, sizeof plain);
    plain.classifier = 0;
    winnow_engine *e0 = NULL;
    winnow_engine_new(&plain, &e0);
    wn_parser *p = wn_parser_new(512);
    if (!e || !e0 || !p) {
        fprintf(stderr, "winnow-bench: cannot create engine or parser\n");
        return 1;
    }
    wn_arena arena;
    wn_arena_init(&arena);

    double t_parse[MAX_ROUNDS], t_extract[MAX_ROUNDS], t_plain[MAX_ROUNDS];
    extract_stats first = { 0 };
    size_t parse_failed = 0;
    for (int r = 0; r < rounds; r++) {
        /* Alternate which measurement goes first so that neither always
         * inherits the other's cache state or a burst of machine noise. */
        extract_stats s = { 0 }, s0 = { 0 };
        size_t pf = 0;
        if (r % 2 == 0) {
            t_parse[r] = time_parse(p, &arena, c, &pf);
            t_extract[r] = time_extract(e, c, &s, r == 0);
            t_plain[r] = time_extract(e0, c, &s0, 0);
        } else {
            t_plain[r] = time_extract(e0, c, &s0, 0);
            t_extract[r] = time_extract(e, c, &s, 0);
            t_parse[r] = time_parse(p, &arena, c, &pf);
        }
        if (r == 0) {
            first = s;
            parse_failed = pf;
        }
    }
    wn_arena_free(&arena);
    wn_parser_free(p);
    winnow_engine_free(e);
    winnow_engine_free(e0);

    long peak = rss_peak_kb();
    double pps_parse, pps_extract, pps_plain;
    printf("%-12s %7s %12s %10s %10s %10s %10s %9s\n", "", "pages", "bytes", "median_s", "min_s", "max_s", "pages/s",
           "MB/s");
    print_row("parse-only", c, t_parse, rounds, &pps_parse);
    print_row("extract", c, t_extract, rounds, &pps_extract);
    print_row("no-model", c, t_plain, rounds, &pps_plain);
    printf("\n");
    printf("%-24s %d (median round; order alternates)\n", "rounds", rounds);
    printf("%-24s %zu\n", "parse_failed", parse_failed);
    printf("%-24s %zu (partial %zu, no_content %zu, render_failed %zu)\n", "extract_failed", first.failed,
           first.partial, first.no_content, first.render_failed);
    printf("%-24s %zu\n", "text_output_bytes", first.out_bytes);
    printf("%-24s %zu\n", "largest_page_bytes", c->largest);
    printf("%-24s %ld\n", "rss_after_load_kb", rss_loaded_kb);
    printf("%-24s %ld\n", "peak_rss_kb", peak);
    /* The loaded corpus is itself resident, so the second ratio (peak minus
     * the RSS after loading) is the one that reflects the engine's needs. */
    double largest = c->largest ? (double)c->largest : 1.0;
    printf("%-24s %.2f\n", "peak_rss/largest_page", (double)peak * 1024 / largest);
    printf("%-24s %.2f\n", "(peak-loaded)/largest", (double)(peak - rss_loaded_kb) * 1024 / largest);
    printf("no_model_vs_parse %.3f\n", pps_plain / pps_parse);
    printf("extract_vs_parse %.3f\n", pps_extract / pps_parse);
    return 0;
}

/* Memory-growth mode: n_pages extractions cycling through the corpus with
 * one engine; current RSS at every 10% and the growth after warm-up. */
static int run_growth(const corpus *c, size_t n_pages)
{
    winnow_engine *e = NULL;
    winnow_engine_new(NULL, &e);
    if (!e) {
        fprintf(stderr, "winnow-bench: cannot create engine\n");
        return 1;
    }
    extract_stats s = { 0 };
    long rss_first = -1, rss_last = -1;
    int next = 1; /* next checkpoint, in tenths */
    double t0 = now_seconds();
    printf("%-6s %8s %10s %10s\n", "done", "pages", "rss_kb", "peak_kb");
    for (size_t i = 1; i <= n_pages; i++) {
        extract_one(e, &c->pages[(i - 1) % c->count], &s, i <= c->count);
        /* checkpoint k is reached at ceil(n_pages * k / 10) pages */
        while (next <= 10 && i >= (n_pages * (size_t)next + 9) / 10) {
            long rss = rss_now_kb();
            if (next == 1) rss_first = rss;
            rss_last = rss;
            printf("%5d%% %8zu %10ld %10ld\n", next * 10, i, rss, rss_peak_kb());
            fflush(stdout);
            next++;
        }
    }
    double secs = now_seconds() - t0;
    winnow_engine_free(e);
    printf("\n%-24s %zu pages of %zu in %.2f s (%.1f pages/s)\n", "processed", n_pages, c->count, secs,
           (double)n_pages / secs);
    printf("%-24s %zu (partial %zu, no_content %zu, render_failed %zu)\n", "extract_failed", s.failed, s.partial,
           s.no_content, s.render_failed);
    printf("%-24s %zu\n", "largest_page_bytes", c->largest);
    printf("%-24s %ld\n", "peak_rss_kb", rss_peak_kb());
    printf("rss_growth_kb %ld\n", rss_last - rss_first);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: winnow-bench [--rounds N] DIR\n"
               "       winnow-bench --pages N DIR\n"
               "Times parse-only and full extraction over every *.html/*.htm of DIR,\n"
               "or with --pages reports RSS over N extractions with one engine.\n");
}

/* Positive integer option value, or 0 when malformed. */
static long parse_count(const char *s, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return (errno || *end || end == s || v < 1 || v > max) ? 0 : v;
}

int main(int argc, char **argv)
{
    long rounds = 5, pages = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--rounds") == 0 && i + 1 < argc) {
            if (!(rounds = parse_count(argv[++i], MAX_ROUNDS))) {
                fprintf(stderr, "winnow-bench: --rounds wants 1..%d\n", MAX_ROUNDS);
                return 2;
            }
        } else if (strcmp(a, "--pages") == 0 && i + 1 < argc) {
            if (!(pages = parse_count(argv[++i], LONG_MAX))) {
                fprintf(stderr, "winnow-bench: --pages wants a positive count\n");
                return 2;
            }
        } else if (a[0] == '-' || dir) {
            usage(stderr);
            return 2;
        } else {
            dir = a;
        }
    }
    if (!dir) {
        usage(stderr);
        return 2;
    }

    corpus c = { 0 };
    if (!load_corpus(dir, &c)) return 2;
    if (c.count == 0) {
        fprintf(stderr, "winnow-bench: no readable *.html or *.htm files in %s\n", dir);
        return 2;
    }
    long rss_loaded = rss_now_kb();
    printf("corpus %s: %zu pages, %zu bytes (%.1f MB)\n\n", dir, c.count, c.total_bytes, (double)c.total_bytes / 1e6);
    fflush(stdout);

    int rc = pages ? run_growth(&c, (size_t)pages) : run_throughput(&c, (int)rounds, rss_loaded);
    for (size_t i = 0; i < c.count; i++) {
        free(c.pages[i].name);
        free(c.pages[i].data);
    }
    free(c.pages);
    return rc;
}
