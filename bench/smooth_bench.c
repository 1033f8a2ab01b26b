/* winnow-smooth-bench: cost and quality of isotonic smoothing on real pages.
 *
 *   winnow-smooth-bench [--rounds N] [--jitter A] DIR...
 *
 * For every *.html / *.htm page of the directories (read into memory before
 * any timing) it runs winnow_extract, takes per-node scores from
 * page_scores() below, and measures
 *   1. time: the parser alone (myhtml, nothing copied out: bench.c's
 *      parse-only floor) against wn_smooth_page with default options (tree
 *      building, the k-level program, mapping back to the DOM), each the
 *      fastest of N rounds; printed for the 10 largest pages and summed
 *      over all pages (target: smoothing <= 0.10 of parsing);
 *   2. quality of the level approximation: on pages whose tree fits the
 *      exact program, (cost_k - cost_exact) / cost_exact for k = 8, 16, 32,
 *      64, mean and max.
 * Output is `name value` lines. One thread. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "doc.h"
#include "parse/parser.h"
#include "smooth/isotonic.h"
#include "smooth/smooth_page.h"
#include "winnow.h"

/* The score the smoother is fed: the node classifier's P(template) (the
 * built-in model; unscored nodes 0.5, they are not tree nodes), or with
 * --no-model the page scorer's per-node templateness, which takes few
 * distinct values. --jitter A adds uniform noise in [-A, A] (clamped to
 * [0, 1], same seed on every page) into buf. */
static const float *page_scores(const winnow_doc *d, double jitter, float *buf)
{
    const float *src = d->labels.clf ? d->labels.clf : d->labels.templ;
    if (!src) return NULL;
    uint64_t st = 0x2545f4914f6cdd1dull;
    for (uint32_t i = 0; i < d->dom.count; i++) {
        double v = src[i] < 0 ? 0.5 : src[i];
        if (jitter > 0) {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            double u = (double)(st >> 11) / 9007199254740992.0; /* [0, 1) */
            v += jitter * (2 * u - 1);
        }
        buf[i] = (float)(v < 0 ? 0 : v > 1 ? 1 : v);
    }
    return buf;
}

typedef struct bpage {
    char *name; /* corpus/file */
    char *data;
    size_t len;
} bpage;

typedef struct result {
    const bpage *pg;
    uint32_t dom_nodes, tree_nodes;
    double parse_s, smooth_s;
} result;

static const uint32_t ks[] = { 8, 16, 32, 64 };
#define NK (sizeof ks / sizeof ks[0])

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int is_html(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1 << 16;
            char *g = realloc(buf, nc);
            if (!g) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = g;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Appends the pages of dir to *pages. Returns 0 when dir cannot be read. */
static int load_dir(const char *dir, bpage **pages, size_t *count, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "winnow-smooth-bench: %s: %s\n", dir, strerror(errno));
        return 0;
    }
    /* name pages corpus/file: the corpus is the directory above html/ */
    char label[PATH_MAX];
    snprintf(label, sizeof label, "%s", dir);
    size_t ll = strlen(label);
    while (ll > 1 && label[ll - 1] == '/') label[--ll] = '\0';
    char *base = strrchr(label, '/');
    if (base && strcmp(base, "/html") == 0) {
        *base = '\0';
        base = strrchr(label, '/');
    }
    const char *corpus = base ? base + 1 : label;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!is_html(de->d_name)) continue;
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        size_t len = 0;
        char *data = slurp(path, &len);
        if (!data) {
            fprintf(stderr, "winnow-smooth-bench: skipping %s\n", path);
            continue;
        }
        if (*count == *cap) {
            size_t nc = *cap ? *cap * 2 : 256;
            bpage *np = realloc(*pages, nc * sizeof *np);
            if (!np) {
                fprintf(stderr, "winnow-smooth-bench: out of memory\n");
                exit(1);
            }
            *pages = np;
            *cap = nc;
        }
        size_t nl = strlen(corpus) + strlen(de->d_name) + 2;
        char *name = malloc(nl);
        if (!name) {
            fprintf(stderr, "winnow-smooth-bench: out of memory\n");
            exit(1);
        }
        snprintf(name, nl, "%s/%s", corpus, de->d_name);
        (*pages)[(*count)++] = (bpage){ name, data, len };
    }
    closedir(d);
    return 1;
}

static int by_size_desc(const void *a, const void *b)
{
    size_t x = ((const result *)a)->pg->len, y = ((const result *)b)->pg->len;
    return (x < y) - (x > y);
}

int main(int argc, char **argv)
{
    int rounds = 5, argi = 1, use_model = 1;
    double jitter = 0;
    while (argi + 1 < argc) {
        if (strcmp(argv[argi], "--no-model") == 0) {
            use_model = 0;
            argi++;
            continue;
        }
        if (strcmp(argv[argi], "--rounds") == 0) {
            rounds = atoi(argv[argi + 1]);
            if (rounds < 1) rounds = 1;
        } else if (strcmp(argv[argi], "--jitter") == 0) {
            jitter = atof(argv[argi + 1]);
        } else {
            break;
        }
        argi += 2;
    }
    if (argi >= argc) {
        fprintf(stderr, "usage: winnow-smooth-bench [--no-model] [--rounds N] [--jitter A] DIR...\n");
        return 2;
    }
    bpage *pages = NULL;
    size_t npages = 0, cap = 0;
    for (int i = argi; i < argc; i++)
        if (!load_dir(argv[i], &pages, &npages, &cap)) return 1;

    winnow_options eo;
    winnow_options_default(&eo, sizeof eo);
    eo.classifier = use_model;
    winnow_engine *e = NULL;
    winnow_engine_new(&eo, &e);
    wn_parser *parser = wn_parser_new(512);
    result *res = calloc(npages ? npages : 1, sizeof *res);
    if (!e || !parser || !res) {
        fprintf(stderr, "winnow-smooth-bench: cannot start\n");
        return 1;
    }
    wn_arena arena, parse_arena;
    wn_arena_init(&arena);
    wn_arena_init(&parse_arena);
    wn_smooth_options opt;
    wn_smooth_options_default(&opt);

    size_t nres = 0, failed = 0, exact_pages = 0, too_big = 0, solver_failed = 0;
    double loss_sum[NK] = { 0 }, loss_max[NK] = { 0 };
    size_t loss_zero[NK] = { 0 };
    double exact_s = 0, levels32_s = 0;
    uint64_t tree_total = 0, dom_total = 0;
    uint32_t tree_max = 0;

    for (size_t p = 0; p < npages; p++) {
        const bpage *pg = &pages[p];
        winnow_input in = { sizeof in, pg->data, pg->len, NULL, NULL };
        winnow_doc *doc = NULL;
        if (WINNOW_FAILED(winnow_extract(e, &in, &doc)) || !doc) {
            failed++;
            continue;
        }
        uint32_t count = doc->dom.count;
        float *y = malloc((count ? count : 1) * sizeof *y), *sbuf = malloc((count ? count : 1) * sizeof *sbuf);
        uint8_t *seg = malloc(count ? count : 1);
        const float *score = sbuf ? page_scores(doc, jitter, sbuf) : NULL;
        if (!score || !doc->stats || !y || !seg || count == 0) {
            failed++;
            free(y);
            free(seg);
            free(sbuf);
            winnow_doc_free(doc);
            continue;
        }

        /* 1. timing, fastest of `rounds` each */
        double best_parse = 1e30, best_smooth = 1e30;
        int ok = 1;
        for (int r = 0; r < rounds && ok; r++) {
            wn_dom dom;
            memset(&dom, 0, sizeof dom);
            double t0 = now_s();
            wn_parse_status ps = wn_parser_parse(parser, pg->data, pg->len, &parse_arena, &dom, 0);
            double t1 = now_s();
            wn_arena_reset(&parse_arena, 0);
            double cost;
            int rc = wn_smooth_page(doc, score, &opt, &arena, y, seg, &cost);
            double t2 = now_s();
            wn_arena_reset(&arena, (size_t)64 << 20);
            if (ps != WN_PARSE_OK || rc != 0) ok = 0;
            if (t1 - t0 < best_parse) best_parse = t1 - t0;
            if (t2 - t1 < best_smooth) best_smooth = t2 - t1;
        }
        if (!ok) {
            solver_failed++;
            free(y);
            free(seg);
            free(sbuf);
            winnow_doc_free(doc);
            continue;
        }

        /* 2. level approximation against the exact program */
        wn_smooth_tree t;
        if (wn_smooth_build_tree(doc, score, &opt, &arena, &t) != 0) {
            solver_failed++;
        } else {
            uint32_t n = t.iso.n;
            res[nres] = (result){ pg, count, n, best_parse, best_smooth };
            nres++;
            tree_total += n;
            dom_total += count;
            if (n > tree_max) tree_max = n;
            float *ty = wn_arena_alloc(&arena, (size_t)n * sizeof *ty);
            if (!ty) {
                fprintf(stderr, "winnow-smooth-bench: out of memory\n");
                return 1;
            }
            if (n > WN_ISO_EXACT_MAX_NODES) {
                too_big++;
            } else {
                double t0 = now_s();
                int rc = wn_iso_smooth_exact(&t.iso, ty, NULL, &arena);
                exact_s += now_s() - t0;
                double ce = wn_iso_cost(&t.iso, ty);
                if (rc != 0) {
                    solver_failed++;
                } else {
                    exact_pages++;
                    for (size_t j = 0; j < NK; j++) {
                        t0 = now_s();
                        rc = wn_iso_smooth_levels(&t.iso, ks[j], ty, NULL, &arena);
                        if (ks[j] == 32) levels32_s += now_s() - t0;
                        double ck = wn_iso_cost(&t.iso, ty);
                        double loss = rc == 0 && ce > 0 ? (ck - ce) / ce : 0;
                        if (loss < 0) {
                            fprintf(stderr, "winnow-smooth-bench: %s: k=%u below exact (%.9g < %.9g)\n", pg->name,
                                    ks[j], ck, ce);
                        }
                        if (loss <= 1e-12) loss_zero[j]++;
                        loss_sum[j] += loss;
                        if (loss > loss_max[j]) loss_max[j] = loss;
                    }
                }
            }
        }
        wn_arena_reset(&arena, (size_t)64 << 20);
        free(y);
        free(seg);
        free(sbuf);
        winnow_doc_free(doc);
    }

    double parse_total = 0, smooth_total = 0;
    for (size_t i = 0; i < nres; i++) {
        parse_total += res[i].parse_s;
        smooth_total += res[i].smooth_s;
    }
    printf("pages %zu\n", nres);
    printf("pages_failed %zu\n", failed + solver_failed);
    printf("rounds %d\n", rounds);
    printf("jitter %.3f\n", jitter);
    printf("levels_default %u\n", opt.levels);
    printf("min_area_default %.0f\n", (double)opt.min_area);
    printf("dom_nodes_mean %.0f\n", nres ? (double)dom_total / (double)nres : 0.0);
    printf("tree_nodes_mean %.0f\n", nres ? (double)tree_total / (double)nres : 0.0);
    printf("tree_nodes_max %u\n", tree_max);
    printf("parse_ms_total %.3f\n", parse_total * 1e3);
    printf("smooth_ms_total %.3f\n", smooth_total * 1e3);
    printf("smooth_vs_parse_all %.4f\n", parse_total > 0 ? smooth_total / parse_total : 0.0);

    qsort(res, nres, sizeof *res, by_size_desc);
    double lp = 0, ls = 0;
    for (size_t i = 0; i < nres && i < 10; i++) {
        const result *r = &res[i];
        printf("large.%s.bytes %zu\n", r->pg->name, r->pg->len);
        printf("large.%s.dom_nodes %u\n", r->pg->name, r->dom_nodes);
        printf("large.%s.tree_nodes %u\n", r->pg->name, r->tree_nodes);
        printf("large.%s.parse_ms %.3f\n", r->pg->name, r->parse_s * 1e3);
        printf("large.%s.smooth_ms %.3f\n", r->pg->name, r->smooth_s * 1e3);
        printf("large.%s.smooth_vs_parse %.4f\n", r->pg->name, r->parse_s > 0 ? r->smooth_s / r->parse_s : 0.0);
        lp += r->parse_s;
        ls += r->smooth_s;
    }
    printf("smooth_vs_parse_largest10 %.4f\n", lp > 0 ? ls / lp : 0.0);

    printf("exact_pages %zu\n", exact_pages);
    printf("exact_refused_pages %zu\n", too_big);
    printf("exact_ms_total %.3f\n", exact_s * 1e3);
    printf("levels32_ms_total_on_exact_pages %.3f\n", levels32_s * 1e3);
    for (size_t j = 0; j < NK; j++) {
        double n = exact_pages ? (double)exact_pages : 1;
        printf("loss_mean.k%u %.6f\n", ks[j], loss_sum[j] / n);
        printf("loss_max.k%u %.6f\n", ks[j], loss_max[j]);
        printf("loss_zero_share.k%u %.4f\n", ks[j], (double)loss_zero[j] / n);
    }

    wn_arena_free(&arena);
    wn_arena_free(&parse_arena);
    wn_parser_free(parser);
    winnow_engine_free(e);
    for (size_t i = 0; i < npages; i++) {
        free(pages[i].name);
        free(pages[i].data);
    }
    free(pages);
    free(res);
    return 0;
}
