/* winnow train: label nodes of many sites by site-level detection, fit a
 * node classifier, write the model; --cv N measures it across sites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "winnow_train.h"

/* Site name of a source: its file name without directories and the
 * .warc.gz / .warc / .jsonl(.gz) extension. */
static void source_site(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/') b--;
    static const char *const ext[] = { ".warc.gz", ".warc", ".jsonl.gz", ".jsonl", ".ndjson" };
    size_t e = n;
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t l = strlen(ext[k]);
        if (e - b > l && !strncmp(path + e - l, ext[k], l)) {
            e -= l;
            break;
        }
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

/* cli_train_usage: in usage_train.c (winnow help train prints it without
 * running winnow-train) */
extern const char cli_train_usage[];

enum {
    T_KIND = 256,
    T_CV,
    T_CURVE,
    T_EXCLUDE,
    T_BUCKETS,
    T_SEED,
    T_PER_PAGE,
    T_ROUNDS,
    T_DEPTH,
    T_THREADS,
    T_LABELS,
    T_ALL_KINDS
};

static const struct option train_options[] = {
    { "output", required_argument, NULL, 'o' },
    { "kind", required_argument, NULL, T_KIND },
    { "cv", required_argument, NULL, T_CV },
    { "curve", required_argument, NULL, T_CURVE },
    { "exclude", required_argument, NULL, T_EXCLUDE },
    { "buckets", required_argument, NULL, T_BUCKETS },
    { "seed", required_argument, NULL, T_SEED },
    { "per-page", required_argument, NULL, T_PER_PAGE },
    { "rounds", required_argument, NULL, T_ROUNDS },
    { "depth", required_argument, NULL, T_DEPTH },
    { "threads", required_argument, NULL, T_THREADS },
    { "labels", required_argument, NULL, T_LABELS },
    { "all-kinds", no_argument, NULL, T_ALL_KINDS },
    { "verbose", no_argument, NULL, 'v' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
};

/* A number option of train into *out (unsigned); 0 or -1 after a message. */
static int train_count(const char *opt, const char *v, unsigned long long lo, unsigned long long hi, unsigned *out)
{
    unsigned long long x;
    if (cli_parse_count(opt, v, lo, hi, &x) != 0) return -1;
    *out = (unsigned)x;
    return 0;
}

int cmd_train(int argc, char **argv)
{
    /* the page type model: another kind of training, its own options */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--page-types")) return cmd_train_pagetype(argc, argv);
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--confidence")) return cmd_train_confidence(argc, argv);
        if (!strcmp(argv[i], "--units")) return cmd_train_units(argc, argv);
    }
    winnow_train_options to;
    winnow_train_options_default(&to, sizeof to);
    const char *output = NULL, *curve = NULL, *exclude = NULL;
    unsigned folds = 0;
    int all_kinds = 0;
    const char **src = calloc((size_t)argc + 1, sizeof *src);
    int nsrc = 0;
    if (!src) return EXIT_SOME_FAILED;
    int ac = argc - 1, c, bad = 0;
    char **av = argv + 1;
    opterr = 0;
    optind = 1;
    while (!bad && (c = getopt_long(ac, av, ":o:vhV", train_options, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'o': output = v; break;
        case T_KIND:
            to.kind = winnow_model_kind_parse(v);
            if (!to.kind) {
                fprintf(stderr, "winnow: unknown model kind '%s' (boost, forest, logreg, nb)\n", v);
                bad = 1;
            }
            break;
        case T_CV: bad = train_count("--cv", v, 2, 1000000, &folds) != 0; break;
        case T_CURVE: curve = v; break;
        case T_EXCLUDE: exclude = v; break;
        case T_BUCKETS: bad = train_count("--buckets", v, 1, 64, &to.buckets) != 0; break;
        case T_SEED: bad = train_count("--seed", v, 0, 0xFFFFFFFFull, &to.seed) != 0; break;
        case T_PER_PAGE: bad = train_count("--per-page", v, 1, 0xFFFFFFFFull, &to.per_page) != 0; break;
        case T_ROUNDS: bad = train_count("--rounds", v, 1, 100000, &to.rounds) != 0; break;
        case T_DEPTH: bad = train_count("--depth", v, 1, 64, &to.depth) != 0; break;
        case T_THREADS: bad = train_count("--threads", v, 1, 256, &to.threads) != 0; break;
        case T_LABELS:
            if (!strcmp(v, "top"))
                to.labels = WINNOW_LABELS_TOP;
            else if (!strcmp(v, "inside"))
                to.labels = WINNOW_LABELS_INSIDE;
            else {
                fprintf(stderr, "winnow: --labels is top or inside\n");
                bad = 1;
            }
            break;
        case T_ALL_KINDS: all_kinds = 1; break;
        case 'v': to.verbose = 1; break;
        case 'h':
            fputs(cli_train_usage, stdout);
            free(src);
            return EXIT_OK;
        case 'V':
            printf("winnow %s\n", winnow_version());
            free(src);
            return EXIT_OK;
        default: cli_option_error("train", c, optind, av, train_options, train_options); bad = 1;
        }
    }
    if (bad) {
        free(src);
        return EXIT_USAGE;
    }
    for (int i = optind; i < ac; i++) src[nsrc++] = av[i];
    if (nsrc == 0 || (!output && !folds)) {
        fputs(cli_train_usage, stderr);
        free(src);
        return EXIT_USAGE;
    }
    if (folds && folds > (unsigned)nsrc) {
        fprintf(stderr, "winnow: --cv needs 2 to %d folds (one site per source)\n", nsrc);
        free(src);
        return EXIT_USAGE;
    }

    winnow_options eo;
    winnow_options_default(&eo, sizeof eo);
    eo.classifier = 0; /* the trainer only parses and counts */
    winnow_engine *e = NULL;
    winnow_engine_new(&eo, &e);
    winnow_trainer *t = NULL;
    winnow_trainer_new(&to, &t);
    if (!e || !t) {
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    int failed = 0;
    double t0 = cli_now_s();
    for (int s = 0; s < nsrc; s++) {
        char site[256];
        source_site(src[s], site, sizeof site);
        if (listed(exclude, site)) continue;
        winnow_reader *r = NULL;
        char err[700];
        winnow_status os = winnow_reader_open(src[s], NULL, &r, err, sizeof err);
        if (os == WINNOW_E_NOMEM) {
            fprintf(stderr, "winnow: out of memory\n");
            failed++;
            break;
        }
        if (os != WINNOW_OK) {
            fprintf(stderr, "winnow: %s: %s\n", src[s], err);
            failed++;
            continue;
        }
        winnow_input *pages = NULL;
        size_t n = 0, cap = 0;
        winnow_record rec = { sizeof rec };
        winnow_status rr;
        while ((rr = winnow_reader_next(r, &rec)) == WINNOW_OK) {
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                winnow_input *g = realloc(pages, cap * sizeof *g);
                if (!g) {
                    rr = WINNOW_E_NOMEM;
                    break;
                }
                pages = g;
            }
            void *data = malloc(rec.len ? rec.len : 1);
            if (!data) {
                rr = WINNOW_E_NOMEM;
                break;
            }
            memcpy(data, rec.data, rec.len);
            pages[n++] = (winnow_input){ sizeof(winnow_input), data, rec.len, rec.charset ? strdup(rec.charset) : NULL,
                                         rec.url ? strdup(rec.url) : NULL };
        }
        if (WINNOW_FAILED(rr)) {
            fprintf(stderr, "winnow: %s: %s\n", src[s],
                    *winnow_reader_error(r) ? winnow_reader_error(r) : winnow_status_message(rr));
            failed++;
        }
        winnow_reader_close(r);
        winnow_status st = winnow_trainer_add_site(t, e, site, pages, n);
        if (WINNOW_FAILED(st)) {
            fprintf(stderr, "winnow: %s: %s\n", src[s], winnow_status_message(st));
            failed++;
        }
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
            sm.pages, sm.examples, sm.template_examples, sm.content_examples, cli_now_s() - t0);

    if (folds && !failed) {
        winnow_model_kind kinds[4] = { to.kind, WINNOW_MODEL_UNKNOWN, WINNOW_MODEL_UNKNOWN, WINNOW_MODEL_UNKNOWN };
        int nk = 1;
        if (all_kinds) {
            kinds[0] = WINNOW_MODEL_NB;
            kinds[1] = WINNOW_MODEL_LOGREG;
            kinds[2] = WINNOW_MODEL_FOREST;
            kinds[3] = WINNOW_MODEL_BOOST;
            nk = 4;
        }
        for (int k = 0; k < nk; k++) {
            winnow_cv_result res;
            double t1 = cli_now_s();
            char curve_k[4096];
            const char *cp = curve;
            if (curve && nk > 1) {
                snprintf(curve_k, sizeof curve_k, "%s.%s", curve, winnow_model_kind_name(kinds[k]));
                cp = curve_k;
            }
            winnow_status st = winnow_trainer_cv(t, folds, kinds[k], cp, &res);
            if (WINNOW_FAILED(st)) {
                fprintf(stderr, "winnow: cross-validation: %s\n", winnow_trainer_error(t));
                failed++;
                break;
            }
            printf("model %s folds %u test_examples %zu templates %zu recall_at_p80 %.4f average_precision %.4f "
                   "seconds %.1f\n",
                   winnow_model_kind_name(kinds[k]), folds, res.test_examples, res.test_templates, res.recall_at_p80,
                   res.average_precision, cli_now_s() - t1);
            printf("recall_at_p90 %.4f\n", res.recall_at_p90);
            fflush(stdout);
        }
    }
    if (output && !failed) {
        double t1 = cli_now_s();
        if (winnow_trainer_save(t, output) != WINNOW_OK) {
            fprintf(stderr, "winnow: training failed: %s\n", winnow_trainer_error(t));
            failed++;
        } else {
            fprintf(stderr, "wrote %s (%s) in %.1f s\n", output, winnow_model_kind_name(to.kind), cli_now_s() - t1);
        }
    }
    winnow_trainer_free(t);
    winnow_engine_free(e);
    free(src);
    return failed ? EXIT_SOME_FAILED : EXIT_OK;
}
