/* winnow train --confidence: the confidence model from scored corpora.
 * A thin client of the training layer (winnow_conf_* in winnow_train.h):
 * it reads each corpus's manifest.tsv (id, url, site), the pages' HTML
 * (DIR/html/ID.html or .html.gz) and the labels file (corpus, id,
 * token_f1: what bench/confidence.py scored), and hands them over. With
 * --texts it writes each page's main text first, which is what the labels
 * are scored from (the same run of the pipeline as the features). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "winnow_train.h"

static const char conf_usage[] = "usage: winnow train --confidence [options] MANIFEST.tsv...\n"
                                 "  Fits the confidence model on the corpora whose manifests are given (the\n"
                                 "  pages in html/ID.html[.gz] beside each manifest; the corpus is named after\n"
                                 "  its folder): a page is good when the token F1 of its kept text against\n"
                                 "  its gold text is 0.8 or more.\n"
                                 "  --labels FILE      TSV with a header naming corpus, id and token_f1 (what\n"
                                 "                     bench/confidence.py writes); pages not in it are not used\n"
                                 "  --texts DIR        write each page's main text to DIR/CORPUS/ID.txt (what\n"
                                 "                     the labels are scored from)\n"
                                 "  -o FILE            write the model (what models/confidence.wmodel holds)\n"
                                 "  --predictions FILE each labelled page's held-out probabilities to FILE (TSV:\n"
                                 "                     corpus, id, site, label, p_corpus: fitted on the other\n"
                                 "                     corpora, p_site: fitted on the other folds of sites)\n"
                                 "  --folds N          folds of sites of --predictions (default 5)\n"
                                 "  --cost C           liblinear's cost C (default 1)\n"
                                 "  --boost            --predictions by boosted trees (XGBoost) instead, to\n"
                                 "                     compare (-o writes the logistic model only)\n"
                                 "  --trained TEXT     what the model says it was trained on (default: the\n"
                                 "                     corpora and their labelled pages)\n"
                                 "  -v, --verbose      progress on stderr\n";

typedef struct conf_label {
    char *key; /* "CORPUS\tID" */
    double f1;
} conf_label;

typedef struct conf_page {
    char *corpus, *id, *site;
    int label;
} conf_page;

typedef struct conf_run {
    conf_label *labels;
    size_t nlabels;
    conf_page *pages;
    size_t npages, cap;
    const char *texts;
    unsigned per_corpus[64];
    char *corpus_names[64];
    unsigned ncorpus;
    int verbose;
} conf_run;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const conf_label *)a)->key, ((const conf_label *)b)->key);
}

static char *join(const char *a, const char *b)
{
    size_t len = strlen(a) + strlen(b) + 2;
    char *k = malloc(len);
    if (k) snprintf(k, len, "%s\t%s", a, b);
    return k;
}

/* The labels file, sorted by key; -1 after a message. */
static int read_labels(conf_run *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "winnow: cannot open %s\n", path);
        return -1;
    }
    static char line[1 << 16];
    char *cuts[32];
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        fprintf(stderr, "winnow: %s is empty\n", path);
        return -1;
    }
    int c_corpus = train_column(line, "corpus"), c_id = train_column(line, "id"), c_f1 = train_column(line, "token_f1");
    if (c_corpus < 0 || c_id < 0 || c_f1 < 0) {
        fclose(f);
        fprintf(stderr, "winnow: %s has no corpus, id and token_f1 columns\n", path);
        return -1;
    }
    size_t cap = 0;
    unsigned lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        int n = train_split(line, cuts, 32);
        if (n <= c_corpus || n <= c_id || n <= c_f1) continue;
        char *end = NULL;
        double f1 = strtod(cuts[c_f1], &end);
        if (!end || end == cuts[c_f1] || *end || f1 < 0 || f1 > 1) {
            fclose(f);
            fprintf(stderr, "winnow: %s:%u: token_f1 is not a number in [0, 1]\n", path, lineno);
            return -1;
        }
        if (r->nlabels == cap) {
            cap = cap ? cap * 2 : 1024;
            conf_label *l = realloc(r->labels, cap * sizeof *l);
            if (!l) {
                fclose(f);
                return -1;
            }
            r->labels = l;
        }
        char *key = join(cuts[c_corpus], cuts[c_id]);
        if (!key) {
            fclose(f);
            return -1;
        }
        r->labels[r->nlabels++] = (conf_label){ key, f1 };
    }
    fclose(f);
    qsort(r->labels, r->nlabels, sizeof *r->labels, by_key);
    return 0;
}

/* 1 good, 0 not, -1 not labelled (or no labels). */
static int label_of(const conf_run *r, const char *corpus, const char *id)
{
    if (!r->nlabels) return -1;
    char *key = join(corpus, id);
    if (!key) return -1;
    conf_label probe = { key, 0 };
    const conf_label *l = bsearch(&probe, r->labels, r->nlabels, sizeof *r->labels, by_key);
    free(key);
    return l ? l->f1 >= 0.8 : -1;
}

static int write_file(void *ctx, const char *data, size_t len) { return fwrite(data, 1, len, ctx) == len ? 0 : -1; }

static int keep_page(conf_run *r, const char *corpus, const char *id, const char *site, int label)
{
    if (r->npages == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1024;
        conf_page *p = realloc(r->pages, cap * sizeof *p);
        if (!p) return -1;
        r->pages = p;
        r->cap = cap;
    }
    conf_page *p = &r->pages[r->npages];
    p->corpus = strdup(corpus);
    p->id = strdup(id);
    p->site = strdup(site);
    p->label = label;
    if (!p->corpus || !p->id || !p->site) {
        free(p->corpus);
        free(p->id);
        free(p->site);
        return -1;
    }
    r->npages++;
    return 0;
}

/* The pages of one manifest into the set; -1 after a message. */
static int add_corpus(conf_run *r, winnow_conf_set *set, winnow_engine *e, const char *manifest)
{
    train_manifest *m = train_manifest_open(manifest);
    if (!m) return -1;
    const char *corpus = m->corpus;
    char tdir[4096 + 300];
    if (r->texts) {
        snprintf(tdir, sizeof tdir, "%s/%s", r->texts, corpus);
        if (cli_mkdir_p(tdir) != 0) {
            fprintf(stderr, "winnow: cannot make %s\n", tdir);
            train_manifest_close(m);
            return -1;
        }
    }
    unsigned slot = r->ncorpus < 64 ? r->ncorpus : 63;
    if (r->ncorpus < 64) {
        r->corpus_names[r->ncorpus++] = strdup(corpus);
        r->per_corpus[slot] = 0;
    }
    unsigned added = 0, skipped = 0;
    int rc = 0;
    while (rc == 0 && train_manifest_next(m)) {
        const char *id = m->id, *site = m->site;
        int label = label_of(r, corpus, id);
        if (!r->texts && label < 0) { /* neither a text to write nor a label: nothing to do */
            skipped++;
            continue;
        }
        size_t len = 0;
        char *html = train_manifest_html(m, &len);
        if (!html) {
            skipped++;
            continue;
        }
        FILE *text = NULL;
        char path[8192];
        if (r->texts) {
            snprintf(path, sizeof path, "%s/%s.txt", tdir, id);
            if (!(text = fopen(path, "w"))) {
                free(html);
                fprintf(stderr, "winnow: cannot write %s: %s\n", path, strerror(errno));
                rc = -1;
                break;
            }
        }
        winnow_input in = { sizeof in, html, len, NULL, *m->url ? m->url : NULL, NULL };
        winnow_status st = winnow_conf_set_add(set, e, &in, label, corpus, site, text ? write_file : NULL, text);
        free(html);
        if (text && fclose(text) != 0) st = WINNOW_E_IO;
        if (st == WINNOW_E_NOMEM || st == WINNOW_E_IO) {
            fprintf(stderr, "winnow: %s\n", st == WINNOW_E_IO ? "cannot write a text" : "out of memory");
            rc = -1;
        } else if (WINNOW_FAILED(st)) {
            skipped++; /* (the scorer reads a missing text as empty output) */
        } else {
            added++;
            if (label >= 0) r->per_corpus[slot]++;
            if (keep_page(r, corpus, id, site, label) != 0) {
                fprintf(stderr, "winnow: out of memory\n");
                rc = -1;
            }
        }
    }
    if (r->verbose) fprintf(stderr, "winnow: %s: %u pages (%u skipped)\n", corpus, added, skipped);
    train_manifest_close(m);
    return rc;
}

static int write_predictions(const conf_run *r, const char *path, const double *pc, const double *ps)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "winnow: cannot write %s\n", path);
        return -1;
    }
    fputs("corpus\tid\tsite\tlabel\tp_corpus\tp_site\n", f);
    for (size_t i = 0; i < r->npages; i++) {
        const conf_page *p = &r->pages[i];
        if (p->label < 0) continue;
        fprintf(f, "%s\t%s\t%s\t%d\t%.4f\t%.4f\n", p->corpus, p->id, p->site, p->label, pc[i], ps[i]);
    }
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "winnow: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static void free_run(conf_run *r)
{
    for (size_t i = 0; i < r->nlabels; i++) free(r->labels[i].key);
    free(r->labels);
    for (size_t i = 0; i < r->npages; i++) {
        free(r->pages[i].corpus);
        free(r->pages[i].id);
        free(r->pages[i].site);
    }
    free(r->pages);
    for (unsigned k = 0; k < r->ncorpus; k++) free(r->corpus_names[k]);
}

int cmd_train_confidence(int argc, char **argv)
{
    const char *output = NULL, *labels = NULL, *predictions = NULL, *trained = NULL;
    unsigned folds = 5;
    double cost = 1.0;
    int boost = 0;
    conf_run run;
    memset(&run, 0, sizeof run);
    const char **manifests = calloc((size_t)argc + 1, sizeof *manifests);
    int nm = 0;
    if (!manifests) return EXIT_SOME_FAILED;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--confidence")) continue;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(conf_usage, stdout);
            free(manifests);
            return EXIT_OK;
        }
        if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            run.verbose = 1;
            continue;
        }
        if (!strcmp(a, "--boost")) {
            boost = 1;
            continue;
        }
        int takes = !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--labels") || !strcmp(a, "--texts") ||
                    !strcmp(a, "--folds") || !strcmp(a, "--cost") || !strcmp(a, "--predictions") ||
                    !strcmp(a, "--trained");
        if (takes && i + 1 >= argc) {
            fprintf(stderr, "winnow: %s needs a value\n", a);
            free(manifests);
            return EXIT_USAGE;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            output = argv[++i];
        else if (!strcmp(a, "--labels"))
            labels = argv[++i];
        else if (!strcmp(a, "--texts"))
            run.texts = argv[++i];
        else if (!strcmp(a, "--predictions"))
            predictions = argv[++i];
        else if (!strcmp(a, "--trained"))
            trained = argv[++i];
        else if (!strcmp(a, "--folds")) {
            unsigned long long v;
            if (cli_parse_count("--folds", argv[++i], 2, 1000, &v) != 0) {
                free(manifests);
                return EXIT_USAGE;
            }
            folds = (unsigned)v;
        } else if (!strcmp(a, "--cost")) {
            char *end = NULL;
            cost = strtod(argv[++i], &end);
            if (!end || *end || !(cost > 0)) {
                fprintf(stderr, "winnow: --cost takes a positive number\n");
                free(manifests);
                return EXIT_USAGE;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "winnow: unknown option %s of train --confidence\n", a);
            free(manifests);
            return EXIT_USAGE;
        } else
            manifests[nm++] = a;
    }
    if (!nm || (!run.texts && !labels) || ((output || predictions) && !labels)) {
        if (nm && (output || predictions) && !labels)
            fprintf(stderr, "winnow: -o and --predictions need --labels\n");
        else
            fputs(conf_usage, stderr);
        free(manifests);
        return EXIT_USAGE;
    }
    winnow_engine *e = NULL;
    winnow_conf_set *set = NULL;
    if (winnow_engine_new(NULL, &e) != WINNOW_OK || winnow_conf_set_new(&set) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        winnow_engine_free(e);
        free(manifests);
        return EXIT_SOME_FAILED;
    }
    int rc = EXIT_OK;
    if (labels && read_labels(&run, labels) != 0) rc = EXIT_SOME_FAILED;
    for (int k = 0; k < nm && rc == EXIT_OK; k++)
        if (add_corpus(&run, set, e, manifests[k]) != 0) rc = EXIT_SOME_FAILED;
    char err[512] = "";
    if (rc == EXIT_OK && predictions) {
        double *pc = calloc(run.npages ? run.npages : 1, sizeof *pc);
        double *ps = calloc(run.npages ? run.npages : 1, sizeof *ps);
        winnow_status st = WINNOW_E_NOMEM;
        if (pc && ps) st = winnow_conf_evaluate(set, folds, cost, boost, pc, ps, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
            rc = EXIT_SOME_FAILED;
        } else if (write_predictions(&run, predictions, pc, ps) != 0) {
            rc = EXIT_SOME_FAILED;
        }
        free(pc);
        free(ps);
    }
    if (rc == EXIT_OK && output) {
        /* what it was fitted on, said in the file */
        char said[2048];
        size_t w = (size_t)snprintf(said, sizeof said, "liblinear L2R_LR C=%g on", cost);
        for (unsigned k = 0; k < run.ncorpus && w < sizeof said; k++)
            w += (size_t)snprintf(said + w, sizeof said - w, " %s:%u", run.corpus_names[k], run.per_corpus[k]);
        winnow_status st = winnow_conf_fit_save(set, cost, trained ? trained : said, output, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
            rc = EXIT_SOME_FAILED;
        } else if (run.verbose) {
            fprintf(stderr, "winnow: confidence model written to %s\n", output);
        }
    }
    free_run(&run);
    winnow_conf_set_free(set);
    winnow_engine_free(e);
    free(manifests);
    return rc;
}
