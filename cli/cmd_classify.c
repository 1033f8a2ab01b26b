/* winnow classify: page classification by multinomial Naive Bayes over the
 * bag of words of each page's main text: train a model, apply it, or
 * measure it by cross-validation (every class at once, or every 2-class
 * problem: Chakrabarti, Kumar & Punera, section 6.3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apptext.h"
#include "winnow_keywords.h"

const char cli_classify_usage[] =
    "usage: winnow classify --train (--labels FILE | --label-by-name) [OPTIONS] INPUT... -o MODEL\n"
    "       winnow classify --nb MODEL [OPTIONS] INPUT...\n"
    "       winnow classify --cv N [--pairs] (--labels FILE | --label-by-name) [OPTIONS] INPUT...\n"
    "Multinomial Naive Bayes over the bag of words of each page's main text (the terms of\n"
    "'winnow help keywords', without phrases).\n"
    "\n"
    "INPUT: as for extract ('winnow help extract'), or text files with --plain.\n"
    "\n"
    "classify:\n"
    "      --train           fit a model on the labelled pages and write it to -o\n"
    "  -o, --output MODEL    where (gzip-compressed when it ends in .gz)\n"
    "      --nb MODEL        label each page with MODEL: NAME<TAB>LABEL<TAB>PROBABILITY lines\n"
    "      --cv N            N-fold cross-validation, stratified by label: prints the accuracy\n"
    "      --pairs           with --cv: every 2-class problem (each pair of labels) on its own,\n"
    "                        a line each (LABEL_A<TAB>LABEL_B<TAB>ACCURACY), then their mean\n"
    "      --invert          with --cv: train on one fold and test on the others, each fold\n"
    "                        in turn (few training pages: --cv 10 on 10 pages a label trains\n"
    "                        on one page a label)\n"
    "      --labels FILE     labels: NAME<TAB>LABEL lines (NAME as the page's name: the file\n"
    "                        stem, or CONTAINER record number); pages without one are left out\n"
    "      --label-by-name   label = the page's name up to its last '_' (topic_7: topic)\n"
    "      --alpha A         Laplace smoothing count (default 0.1)\n"
    "      --seed N          the folds' shuffle (default 1)\n"
    "\n" APP_COMMON_OPTIONS_TEXT "\n"
    "exit status: 0 done; 1 a page or input failed, or a model could not be read or\n"
    "written; 2 usage error\n";

enum { C_TRAIN = 300, C_NB, C_CV, C_PAIRS, C_LABELS, C_LABEL_BY_NAME, C_ALPHA, C_SEED, C_INVERT };

static const struct option classify_options[] = {
    { "output", required_argument, NULL, 'o' },
    { "train", no_argument, NULL, C_TRAIN },
    { "nb", required_argument, NULL, C_NB },
    { "cv", required_argument, NULL, C_CV },
    { "pairs", no_argument, NULL, C_PAIRS },
    { "labels", required_argument, NULL, C_LABELS },
    { "label-by-name", no_argument, NULL, C_LABEL_BY_NAME },
    { "alpha", required_argument, NULL, C_ALPHA },
    { "seed", required_argument, NULL, C_SEED },
    { "invert", no_argument, NULL, C_INVERT },
    { NULL, 0, NULL, 0 },
};

typedef struct labelled {
    char *name, *label;
    winnow_bag *bag;
    int fold;
} labelled;

typedef struct cl_run {
    const char *output, *nb, *labels_path;
    unsigned folds;
    int train, pairs, by_name, invert;
    unsigned long long seed;
    winnow_textclass_options topt;
    /* --labels: name -> label */
    char **lname, **llabel;
    size_t nlabels;
    char *labels_data;
    /* pages kept */
    labelled *p;
    size_t n, cap, unlabelled;
    winnow_textclass *model; /* --nb */
    int failed;
} cl_run;

static int cl_option(void *ctx, int c, const char *val)
{
    cl_run *r = ctx;
    unsigned long long v;
    switch (c) {
    case 'o':
        if (!*val) {
            fprintf(stderr, "winnow: --output needs a path, got ''\n");
            return EXIT_USAGE;
        }
        r->output = val;
        return 0;
    case C_TRAIN: r->train = 1; return 0;
    case C_NB: r->nb = val; return 0;
    case C_CV:
        if (cli_parse_count("--cv", val, 2, 1000000, &v) != 0) return EXIT_USAGE;
        r->folds = (unsigned)v;
        return 0;
    case C_PAIRS: r->pairs = 1; return 0;
    case C_INVERT: r->invert = 1; return 0;
    case C_LABELS: r->labels_path = val; return 0;
    case C_LABEL_BY_NAME: r->by_name = 1; return 0;
    case C_ALPHA: {
        char *end = NULL;
        double x = strtod(val, &end);
        if (!end || *end || end == val || !(x > 0) || x > 1e6) {
            fprintf(stderr, "winnow: --alpha needs a positive number, got '%s'\n", val);
            return EXIT_USAGE;
        }
        r->topt.alpha = x;
        return 0;
    }
    case C_SEED:
        if (cli_parse_count("--seed", val, 0, 0xFFFFFFFFull, &v) != 0) return EXIT_USAGE;
        r->seed = v;
        return 0;
    }
    return EXIT_USAGE;
}

static int read_labels(cl_run *r)
{
    FILE *f = fopen(r->labels_path, "rb");
    if (!f) {
        fprintf(stderr, "winnow: cannot open %s\n", r->labels_path);
        return -1;
    }
    size_t cap = 65536, n = 0;
    char *d = malloc(cap + 1);
    while (d) {
        n += fread(d + n, 1, cap - n, f);
        if (n < cap) break;
        char *g = realloc(d, cap * 2 + 1);
        if (!g) {
            free(d);
            d = NULL;
            break;
        }
        d = g;
        cap *= 2;
    }
    fclose(f);
    if (!d) {
        fprintf(stderr, "winnow: out of memory\n");
        return -1;
    }
    d[n] = '\0';
    r->labels_data = d;
    size_t lines = 1;
    for (size_t i = 0; i < n; i++) lines += d[i] == '\n';
    r->lname = malloc(lines * sizeof *r->lname);
    r->llabel = malloc(lines * sizeof *r->llabel);
    if (!r->lname || !r->llabel) {
        fprintf(stderr, "winnow: out of memory\n");
        return -1;
    }
    size_t lineno = 0;
    for (char *p = d; *p;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        lineno++;
        size_t l = strlen(p);
        if (l && p[l - 1] == '\r') p[--l] = '\0';
        if (l) {
            char *tab = strchr(p, '\t');
            if (!tab || tab == p || !tab[1] || strchr(tab + 1, '\t')) {
                fprintf(stderr, "winnow: %s: line %zu: NAME<TAB>LABEL expected\n", r->labels_path, lineno);
                return -1;
            }
            *tab = '\0';
            r->lname[r->nlabels] = p;
            r->llabel[r->nlabels++] = tab + 1;
        }
        if (!nl) break;
        p = nl + 1;
    }
    return 0;
}

static const char *label_of(cl_run *r, const char *name, char *buf, size_t cap)
{
    if (r->by_name) {
        const char *us = strrchr(name, '_');
        if (!us || us == name) return NULL;
        snprintf(buf, cap, "%.*s", (int)(us - name), name);
        return buf;
    }
    for (size_t i = 0; i < r->nlabels; i++)
        if (!strcmp(r->lname[i], name)) return r->llabel[i];
    return NULL;
}

static int cl_page(void *ctx, const char *name, const char *source, const char *url, const char *text, size_t len)
{
    cl_run *r = ctx;
    (void)url;
    winnow_bag *bag = NULL;
    if (winnow_bag_new(text, len, &bag) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        r->failed++;
        return 1;
    }
    if (r->model) {
        size_t l = 0;
        double prob = 0;
        if (winnow_textclass_predict(r->model, bag, &l, &prob) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s: cannot classify\n", source);
            r->failed++;
        } else {
            printf("%s\t%s\t%.4f\n", name, winnow_textclass_label(r->model, l), prob);
        }
        winnow_bag_free(bag);
        return 0;
    }
    char buf[512];
    const char *label = label_of(r, name, buf, sizeof buf);
    if (!label) {
        r->unlabelled++;
        winnow_bag_free(bag);
        return 0;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        labelled *g = realloc(r->p, cap * sizeof *g);
        if (!g) {
            winnow_bag_free(bag);
            fprintf(stderr, "winnow: out of memory\n");
            r->failed++;
            return 1;
        }
        r->p = g;
        r->cap = cap;
    }
    r->p[r->n] = (labelled){ strdup(name), strdup(label), bag, 0 };
    if (!r->p[r->n].name || !r->p[r->n].label) {
        fprintf(stderr, "winnow: out of memory\n");
        r->failed++;
        return 1;
    }
    r->n++;
    return 0;
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Distinct labels in first-seen order into *out; their count. */
static size_t distinct_labels(const cl_run *r, const char ***out)
{
    const char **l = malloc((r->n + 1) * sizeof *l);
    size_t n = 0;
    if (!l) return 0;
    for (size_t i = 0; i < r->n; i++) {
        size_t k = 0;
        while (k < n && strcmp(l[k], r->p[i].label) != 0) k++;
        if (k == n) l[n++] = r->p[i].label;
    }
    *out = l;
    return n;
}

/* Stratified folds: each label's pages shuffled, then dealt round. */
static void assign_folds(cl_run *r, const char **labels, size_t nl)
{
    uint64_t s = r->seed;
    size_t *idx = malloc((r->n + 1) * sizeof *idx);
    if (!idx) return;
    for (size_t l = 0; l < nl; l++) {
        size_t m = 0;
        for (size_t i = 0; i < r->n; i++)
            if (!strcmp(r->p[i].label, labels[l])) idx[m++] = i;
        for (size_t i = m; i > 1; i--) {
            size_t j = (size_t)(next_rand(&s) % i);
            size_t t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
        for (size_t i = 0; i < m; i++) r->p[idx[i]].fold = (int)(i % r->folds);
    }
    free(idx);
}

/* Cross-validated accuracy over the pages whose label is in `use` (NULL:
 * all): correct and tested counts. -1 out of memory. */
static int cross_validate(cl_run *r, const char *a, const char *b, size_t *correct, size_t *tested)
{
    *correct = *tested = 0;
    for (unsigned f = 0; f < r->folds; f++) {
        winnow_textclass *c = NULL;
        if (winnow_textclass_new(&r->topt, &c) != WINNOW_OK) return -1;
        int any = 0;
        for (size_t i = 0; i < r->n; i++) {
            const labelled *p = &r->p[i];
            if ((p->fold == (int)f) != r->invert || (a && strcmp(p->label, a) != 0 && strcmp(p->label, b) != 0))
                continue;
            if (winnow_textclass_add(c, p->bag, p->label) != WINNOW_OK) {
                winnow_textclass_free(c);
                return -1;
            }
            any = 1;
        }
        for (size_t i = 0; any && i < r->n; i++) {
            const labelled *p = &r->p[i];
            if ((p->fold != (int)f) != r->invert || (a && strcmp(p->label, a) != 0 && strcmp(p->label, b) != 0))
                continue;
            size_t l;
            if (winnow_textclass_predict(c, p->bag, &l, NULL) != WINNOW_OK) {
                winnow_textclass_free(c);
                return -1;
            }
            *correct += !strcmp(winnow_textclass_label(c, l), p->label);
            (*tested)++;
        }
        winnow_textclass_free(c);
    }
    return 0;
}

int cmd_classify(int argc, char **argv)
{
    cl_run r;
    memset(&r, 0, sizeof r);
    winnow_textclass_options_default(&r.topt, sizeof r.topt);
    r.seed = 1;
    app_opts a;
    int rc = app_parse(argc, argv, &a, classify_options, "o:", cl_option, &r, cli_classify_usage);
    int modes = r.train + (r.nb != NULL) + (r.folds > 0);
    if (!rc && a.o.ninputs == 0) {
        fprintf(stderr, "winnow: no input given (try 'winnow help classify')\n");
        rc = EXIT_USAGE;
    }
    if (!rc && modes != 1) {
        fprintf(stderr, "winnow: classify needs one of --train, --nb MODEL, --cv N\n");
        rc = EXIT_USAGE;
    }
    if (!rc && r.train && !r.output) {
        fprintf(stderr, "winnow: --train needs -o MODEL\n");
        rc = EXIT_USAGE;
    }
    if (!rc && !r.train && r.output) {
        fprintf(stderr, "winnow: -o is for --train\n");
        rc = EXIT_USAGE;
    }
    if (!rc && (r.pairs || r.invert) && !r.folds) {
        fprintf(stderr, "winnow: --pairs and --invert go with --cv N\n");
        rc = EXIT_USAGE;
    }
    if (!rc && !r.nb && !r.labels_path == !r.by_name) {
        fprintf(stderr, "winnow: --train and --cv need the labels: --labels FILE or --label-by-name\n");
        rc = EXIT_USAGE;
    }
    if (rc) {
        app_opts_free(&a);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (r.labels_path && read_labels(&r) != 0) rc = EXIT_SOME_FAILED;
    if (!rc && r.nb) {
        char err[1024];
        if (winnow_textclass_load(r.nb, &r.model, err, sizeof err) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", err);
            rc = EXIT_SOME_FAILED;
        }
    }
    app_counts c = { 0 };
    if (!rc) app_each(&a, cl_page, &r, &c);
    int failed = c.failed + r.failed;
    if (!rc && !failed && r.unlabelled && !a.o.quiet)
        fprintf(stderr, "winnow: %zu pages without a label left out\n", r.unlabelled);
    if (!rc && !failed && r.train) {
        winnow_textclass *m = NULL;
        char err[1024];
        if (winnow_textclass_new(&r.topt, &m) != WINNOW_OK) failed++;
        for (size_t i = 0; m && i < r.n; i++)
            if (winnow_textclass_add(m, r.p[i].bag, r.p[i].label) != WINNOW_OK) {
                failed++;
                break;
            }
        if (!failed && r.n == 0) {
            fprintf(stderr, "winnow: no labelled page: nothing to train\n");
            failed++;
        }
        if (!failed && winnow_textclass_save(m, r.output, err, sizeof err) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", err);
            failed++;
        } else if (!failed && !a.o.quiet) {
            fprintf(stderr, "winnow: %s: %zu pages, %zu labels\n", r.output, r.n, winnow_textclass_labels(m));
        }
        winnow_textclass_free(m);
    }
    if (!rc && !failed && r.folds) {
        const char **labels = NULL;
        size_t nl = distinct_labels(&r, &labels);
        if (nl < 2) {
            fprintf(stderr, "winnow: cross-validation needs pages of two labels at least\n");
            failed++;
        } else {
            assign_folds(&r, labels, nl);
            size_t correct, tested;
            if (r.pairs) {
                double sum = 0, min = 1;
                size_t np = 0;
                for (size_t i = 0; i < nl && !failed; i++)
                    for (size_t j = i + 1; j < nl && !failed; j++) {
                        if (cross_validate(&r, labels[i], labels[j], &correct, &tested) != 0) {
                            failed++;
                            break;
                        }
                        double acc = tested ? (double)correct / (double)tested : 0;
                        printf("%s\t%s\t%.4f\n", labels[i], labels[j], acc);
                        sum += acc;
                        if (acc < min) min = acc;
                        np++;
                    }
                if (!failed)
                    printf("pairs %zu folds %u mean_accuracy %.4f min_accuracy %.4f pages %zu labels %zu\n", np,
                           r.folds, np ? sum / (double)np : 0, min, r.n, nl);
            } else if (cross_validate(&r, NULL, NULL, &correct, &tested) != 0) {
                failed++;
            } else {
                printf("accuracy %.4f correct %zu pages %zu labels %zu folds %u\n",
                       tested ? (double)correct / (double)tested : 0, correct, tested, nl, r.folds);
            }
            if (failed) fprintf(stderr, "winnow: out of memory\n");
        }
        free(labels);
    }
    for (size_t i = 0; i < r.n; i++) {
        free(r.p[i].name);
        free(r.p[i].label);
        winnow_bag_free(r.p[i].bag);
    }
    free(r.p);
    free(r.lname);
    free(r.llabel);
    free(r.labels_data);
    winnow_textclass_free(r.model);
    app_opts_free(&a);
    if (rc) return rc;
    if (fflush(stdout) != 0) failed++;
    if (c.damaged) return EXIT_DB_DAMAGED;
    return failed ? EXIT_SOME_FAILED : EXIT_OK;
}
