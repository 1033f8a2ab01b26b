/* winnow-site-bench: the site-level figures on a directory of one site's
 * pages (all read into memory first; single thread).
 *
 *   learn_vs_parse R      winnow_site_learn pages/s over parse-only pages/s,
 *                         measured in the same run (median of rounds)
 *   fastce_vs_ce R        per-page detection time of ContentExtractor over
 *                         that of FastContentExtractor, same model, same pages
 *
 * usage: winnow-site-bench [--rounds N] [--learn-only] DIR
 * (--learn-only: learn_vs_parse alone, without the slow CE timing) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doc.h"
#include "parse/parser.h"
#include "site/ce.h"
#include "site/model.h"
#include "site/site_api.h"
#include "site/signals.h"

typedef struct page {
    char *data;
    size_t len;
} page;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[(n - 1) / 2];
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t load(const char *dir, page **out)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (!((l > 5 && !strcmp(e->d_name + l - 5, ".html")) || (l > 4 && !strcmp(e->d_name + l - 4, ".htm"))))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_name);
    *out = calloc(n + 1, sizeof **out);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc(len > 0 ? (size_t)len : 1);
        if (buf && len > 0 && fread(buf, 1, (size_t)len, f) == (size_t)len) {
            (*out)[k].data = buf;
            (*out)[k].len = (size_t)len;
            k++;
        } else {
            free(buf);
        }
        fclose(f);
    }
    free(names);
    return k;
}

int main(int argc, char **argv)
{
    int rounds = 5, learn_only = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--learn-only"))
            learn_only = 1;
        else
            dir = argv[i];
    }
    if (!dir || rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: winnow-site-bench [--rounds N] [--learn-only] DIR\n");
        return 2;
    }
    page *pages = NULL;
    size_t n = load(dir, &pages);
    if (n < 2) {
        fprintf(stderr, "winnow-site-bench: %s: need at least 2 pages\n", dir);
        return 2;
    }
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) bytes += pages[i].len;

    winnow_engine *e = NULL;

    winnow_engine_new(NULL, &e);
    wn_parser *p = wn_parser_new(512);
    wn_arena arena;
    wn_arena_init(&arena);
    double *t_parse = calloc((size_t)rounds, sizeof(double)), *t_learn = calloc((size_t)rounds, sizeof(double));
    winnow_site *site = NULL;
    for (int r = 0; r < rounds; r++) {
        double a = now_s();
        for (size_t i = 0; i < n; i++) {
            wn_dom dom;
            wn_parser_parse(p, pages[i].data, pages[i].len, &arena, &dom, 0);
            wn_arena_reset(&arena, (size_t)1 << 28);
        }
        double b = now_s();
        winnow_site_free(site);
        winnow_site_new("bench", 0, &site);
        for (size_t i = 0; i < n; i++) {
            winnow_input in = { sizeof in, pages[i].data, pages[i].len, NULL, NULL };
            int counted;
            winnow_site_learn(e, site, &in, &counted);
        }
        double c = now_s();
        t_parse[r] = b - a;
        t_learn[r] = c - b;
    }
    double mp = median(t_parse, rounds), ml = median(t_learn, rounds);
    printf("site %s: %zu pages, %.1f MB\n", dir, n, (double)bytes / 1e6);
    printf("%-12s %10s %10s %10s\n", "", "median_s", "pages/s", "MB/s");
    printf("%-12s %10.4f %10.1f %10.2f\n", "parse-only", mp, (double)n / mp, (double)bytes / 1e6 / mp);
    printf("%-12s %10.4f %10.1f %10.2f\n", "learn", ml, (double)n / ml, (double)bytes / 1e6 / ml);
    if (learn_only) {
        printf("learn_vs_parse %.3f\n", mp / ml);
        goto done;
    }

    /* CE vs FastCE detection on the same pages, against the site's model */
    wn_site_model *m = wn_site_unwrap(site);
    const wn_fastce_template *tmpl = wn_site_model_fastce(m);
    double t_ce = 0, t_fast = 0;
    size_t blocks = 0, ce_non = 0, fast_non = 0;
    for (size_t i = 0; i < n; i++) {
        winnow_doc *d = NULL;
        winnow_input in = { sizeof in, pages[i].data, pages[i].len, NULL, NULL };
        if (WINNOW_FAILED(winnow_extract(e, &in, &d))) continue;
        wn_ce_page cp;
        if (wn_ce_page_compute(d, &cp) == 0 && cp.count) {
            uint8_t *out = malloc(cp.count);
            for (int r = 0; r < rounds; r++) {
                double a = now_s();
                wn_ce_detect(&m->ce, &cp, out, UINT32_MAX);
                double b = now_s();
                t_ce += b - a;
                if (r == 0)
                    for (uint32_t k = 0; k < cp.count; k++) ce_non += out[k];
                a = now_s();
                wn_fastce_detect(&m->ce, tmpl, &cp, out);
                b = now_s();
                t_fast += b - a;
                if (r == 0)
                    for (uint32_t k = 0; k < cp.count; k++) fast_non += out[k];
            }
            blocks += cp.count;
            free(out);
        }
        winnow_doc_free(d);
    }
    double per_ce = t_ce / rounds / (double)n, per_fast = t_fast / rounds / (double)n;
    printf("training pages %u, training blocks %zu, template paths %zu, non-content blocks on them %zu\n", m->ce.pages,
           m->ce.count, tmpl ? tmpl->npaths : 0, tmpl ? tmpl->nnoncontent : 0);
    printf("detection per page: ContentExtractor %.1f us (non-content %zu of %zu blocks), FastCE %.1f us (%zu)\n",
           per_ce * 1e6, ce_non, blocks, per_fast * 1e6, fast_non);
    printf("learn_vs_parse %.3f\n", mp / ml);
    printf("fastce_vs_ce %.1f\n", per_fast > 0 ? per_ce / per_fast : 0.0);
done:
    winnow_site_free(site);
    winnow_engine_free(e);
    wn_parser_free(p);
    wn_arena_free(&arena);
    for (size_t i = 0; i < n; i++) free(pages[i].data);
    free(pages);
    free(t_parse);
    free(t_learn);
    return 0;
}
