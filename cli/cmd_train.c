/* winnow train: label nodes of many sites by site-level detection, fit a
 * node classifier, write the model; --cv N measures it across sites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "winnow_train.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Site name of a source: its file name without directories and the
 * .warc.gz / .warc / .jsonl(.gz) extension. */
static void source_site(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/') b--;
    static const char *const ext[] = {".warc.gz", ".warc", ".jsonl.gz", ".jsonl", ".ndjson"};
    size_t e = n;
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t l = strlen(ext[k]);
        if (e - b > l && !strncmp(path + e - l, ext[k], l)) { e -= l; break; }
    }
    snprintf(out, cap, "%.*s", (int)(e - b), path + b);
}

static int listed(const char *list, const char *name)
{
    if (!list) return 0;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == n && !strncmp(p, name, n)) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

static const char train_usage[] =
    "usage: winnow train SOURCE... -o MODEL [options]\n"
    "       winnow train SOURCE... --cv N [options]\n"
    "Each SOURCE (a .warc/.warc.gz file, a directory or a JSONL file) is one site.\n"
    "  -o, --output MODEL    write the fitted model file\n"
    "      --kind K          boost (default), forest, logreg, nb\n"
    "      --cv N            N-fold cross-site validation: prints recall_at_p90\n"
    "      --all-kinds       with --cv: every kind, one line each\n"
    "      --curve FILE      with --cv: write the precision-recall curve (TSV)\n"
    "      --buckets N       one model per node-size bucket (Chakrabarti: 4); default 1\n"
    "      --labels L        content examples: top (top-most unique blocks, default) or\n"
    "                        inside (also every node inside them)\n"
    "      --exclude A,B     leave out the sources whose site name is listed\n"
    "      --seed N, --per-page N, --rounds N, --depth N, --threads N\n"
    "  -v, --verbose         progress on stderr\n";

int cmd_train(int argc, char **argv)
{
    winnow_train_options to;
    winnow_train_options_default(&to);
    const char *output = NULL, *curve = NULL, *exclude = NULL;
    unsigned folds = 0;
    int all_kinds = 0;
    const char **src = calloc((size_t)argc + 1, sizeof *src);
    int nsrc = 0;
    if (!src) return EXIT_SOME_FAILED;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_VALUE                                                              \
    if (!v) { fprintf(stderr, "winnow: %s needs a value\n", a); free(src); return EXIT_USAGE; } \
    i++
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) { NEEDS_VALUE; output = v; }
        else if (!strcmp(a, "--kind")) {
            NEEDS_VALUE;
            to.kind = winnow_model_kind_parse(v);
            if (!to.kind) { fprintf(stderr, "winnow: unknown model kind '%s' (boost, forest, logreg, nb)\n", v); free(src); return EXIT_USAGE; }
        }
        else if (!strcmp(a, "--cv")) { NEEDS_VALUE; folds = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--curve")) { NEEDS_VALUE; curve = v; }
        else if (!strcmp(a, "--exclude")) { NEEDS_VALUE; exclude = v; }
        else if (!strcmp(a, "--buckets")) { NEEDS_VALUE; to.buckets = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--seed")) { NEEDS_VALUE; to.seed = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--per-page")) { NEEDS_VALUE; to.per_page = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--rounds")) { NEEDS_VALUE; to.rounds = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--depth")) { NEEDS_VALUE; to.depth = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--threads")) { NEEDS_VALUE; to.threads = (unsigned)strtoul(v, NULL, 10); }
        else if (!strcmp(a, "--labels")) {
            NEEDS_VALUE;
            if (!strcmp(v, "top")) to.labels = WINNOW_LABELS_TOP;
            else if (!strcmp(v, "inside")) to.labels = WINNOW_LABELS_INSIDE;
            else { fprintf(stderr, "winnow: --labels is top or inside\n"); free(src); return EXIT_USAGE; }
        }
        else if (!strcmp(a, "--all-kinds")) all_kinds = 1;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) to.verbose = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(train_usage, stdout); free(src); return EXIT_OK; }
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "winnow: unknown option %s\n%s", a, train_usage); free(src); return EXIT_USAGE; }
        else src[nsrc++] = a;
#undef NEEDS_VALUE
    }
    if (nsrc == 0 || (!output && !folds)) { fputs(train_usage, stderr); free(src); return EXIT_USAGE; }
    if (folds == 1 || (folds && folds > (unsigned)nsrc)) {
        fprintf(stderr, "winnow: --cv needs 2 to %d folds (one site per source)\n", nsrc);
        free(src);
        return EXIT_USAGE;
    }

    winnow_options eo;
    winnow_options_default(&eo);
    eo.classifier = 0; /* the trainer only parses and counts */
    winnow_engine *e = winnow_engine_new(&eo);
    winnow_trainer *t = winnow_trainer_new(&to);
    if (!e || !t) { fprintf(stderr, "winnow: out of memory\n"); return EXIT_SOME_FAILED; }
    int failed = 0;
    double t0 = now_s();
    for (int s = 0; s < nsrc; s++) {
        char site[256];
        source_site(src[s], site, sizeof site);
        if (listed(exclude, site)) continue;
        winnow_reader *r = winnow_reader_open(src[s], 0);
        if (!r) { fprintf(stderr, "winnow: out of memory\n"); failed++; break; }
        if (*winnow_reader_error(r)) {
            fprintf(stderr, "winnow: %s: %s\n", src[s], winnow_reader_error(r));
            winnow_reader_close(r);
            failed++;
            continue;
        }
        winnow_input *pages = NULL;
        size_t n = 0, cap = 0;
        winnow_record rec;
        int rr;
        while ((rr = winnow_reader_next(r, &rec)) == 1) {
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                winnow_input *g = realloc(pages, cap * sizeof *g);
                if (!g) { rr = -1; break; }
                pages = g;
            }
            void *data = malloc(rec.len ? rec.len : 1);
            if (!data) { rr = -1; break; }
            memcpy(data, rec.data, rec.len);
            pages[n++] = (winnow_input){data, rec.len, rec.charset ? strdup(rec.charset) : NULL,
                                        rec.url ? strdup(rec.url) : NULL};
        }
        if (rr < 0) { fprintf(stderr, "winnow: %s: %s\n", src[s], *winnow_reader_error(r) ? winnow_reader_error(r) : "read failed"); failed++; }
        winnow_reader_close(r);
        winnow_status st = winnow_trainer_add_site(t, e, site, pages, n);
        if (WINNOW_FAILED(st)) { fprintf(stderr, "winnow: %s: %s\n", src[s], winnow_status_message(st)); failed++; }
        for (size_t k = 0; k < n; k++) {
            free((void *)pages[k].data);
            free((void *)pages[k].charset);
            free((void *)pages[k].url);
        }
        free(pages);
        if (to.verbose) {
            winnow_train_summary sm;
            winnow_trainer_summary(t, &sm);
            fprintf(stderr, "winnow: %s: %zu pages; %zu examples so far\n", site, n, sm.examples);
        }
    }
    winnow_train_summary sm;
    winnow_trainer_summary(t, &sm);
    fprintf(stderr, "labelled %zu sites, %zu pages: %zu examples (%zu template, %zu content) in %.1f s\n", sm.sites,
            sm.pages, sm.examples, sm.template_examples, sm.content_examples, now_s() - t0);

    if (folds && !failed) {
        int kinds[4] = {to.kind, 0, 0, 0}, nk = 1;
        if (all_kinds) { kinds[0] = WINNOW_MODEL_NB; kinds[1] = WINNOW_MODEL_LOGREG; kinds[2] = WINNOW_MODEL_FOREST; kinds[3] = WINNOW_MODEL_BOOST; nk = 4; }
        for (int k = 0; k < nk; k++) {
            winnow_cv_result res;
            double t1 = now_s();
            char curve_k[4096];
            const char *cp = curve;
            if (curve && nk > 1) { snprintf(curve_k, sizeof curve_k, "%s.%s", curve, winnow_model_kind_name(kinds[k])); cp = curve_k; }
            winnow_status st = winnow_trainer_cv(t, folds, kinds[k], cp, &res);
            if (WINNOW_FAILED(st)) { fprintf(stderr, "winnow: cross-validation: %s\n", winnow_trainer_error(t)); failed++; break; }
            printf("model %s folds %u test_examples %zu templates %zu recall_at_p80 %.4f average_precision %.4f seconds %.1f\n",
                   winnow_model_kind_name(kinds[k]), folds, res.test_examples, res.test_templates, res.recall_at_p80,
                   res.average_precision, now_s() - t1);
            printf("recall_at_p90 %.4f\n", res.recall_at_p90);
            fflush(stdout);
        }
    }
    if (output && !failed) {
        double t1 = now_s();
        if (winnow_trainer_save(t, output) != WINNOW_OK) {
            fprintf(stderr, "winnow: training failed: %s\n", winnow_trainer_error(t));
            failed++;
        } else {
            fprintf(stderr, "wrote %s (%s) in %.1f s\n", output, winnow_model_kind_name(to.kind), now_s() - t1);
        }
    }
    winnow_trainer_free(t);
    winnow_engine_free(e);
    free(src);
    return failed ? EXIT_SOME_FAILED : EXIT_OK;
}
