/* winnow train --page-types: the page type model from labelled corpora.
 * A thin client of the training layer (winnow_pt_* in winnow_train.h): it
 * reads each corpus's manifest.tsv (id, url, site and, when the corpus has
 * pages of several kinds, page_type; without that column every page is an
 * article), the pages' HTML (DIR/html/ID.html or .html.gz), and hands
 * them over. With --predictions, it keeps each page's corpus and id in the
 * order the pages were added, to name the held-out verdicts of --eval. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "winnow_train.h"

static const char pt_usage[] = "usage: winnow train --page-types [options] MANIFEST.tsv...\n"
                               "  Fits the page type model on the corpora whose manifests are given (the\n"
                               "  pages in html/ID.html[.gz] beside each manifest; the corpus is named after\n"
                               "  its folder) and writes it, or measures it on held-out pages.\n"
                               "  -o FILE            write the model (what models/pagetype.wmodel holds)\n"
                               "  --eval sites:NAME  accuracy and confusion matrix of corpus NAME in --folds\n"
                               "                     folds split by site, each fold scored by a model fitted\n"
                               "                     on NAME's other folds\n"
                               "  --eval corpora     each corpus scored by a model fitted on the others\n"
                               "  --folds N          folds of --eval sites (default 5)\n"
                               "  --predictions FILE with --eval, each held-out page's verdict to FILE (TSV:\n"
                               "                     corpus, id, predicted, confidence, true; header line)\n"
                               "  --models DIR       with --eval, each held-out model into DIR (made when\n"
                               "                     missing): NAME.foldF.wmodel, or CORPUS.wmodel for the\n"
                               "                     model of the other corpora (winnow extract\n"
                               "                     --page-type-model reads them)\n"
                               "  --cost C           liblinear's cost C (default 1)\n"
                               "  --balanced         weigh each kind of page the same in all\n"
                               "  -v, --verbose      progress on stderr\n";

/* The pages added to the set, in order: "CORPUS\tID" and the true kind. */
typedef struct pt_page {
    char *name;
    winnow_page_type label;
} pt_page;

typedef struct pt_pages {
    pt_page *p;
    size_t n, cap;
} pt_pages;

static int keep_page(pt_pages *pages, const char *corpus, const char *id, winnow_page_type label)
{
    if (pages->n == pages->cap) {
        size_t cap = pages->cap ? pages->cap * 2 : 256;
        pt_page *p = realloc(pages->p, cap * sizeof *p);
        if (!p) return -1;
        pages->p = p;
        pages->cap = cap;
    }
    size_t len = strlen(corpus) + strlen(id) + 2;
    char *name = malloc(len);
    if (!name) return -1;
    snprintf(name, len, "%s\t%s", corpus, id);
    pages->p[pages->n++] = (pt_page){ name, label };
    return 0;
}

static void free_pages(pt_pages *pages)
{
    for (size_t i = 0; i < pages->n; i++) free(pages->p[i].name);
    free(pages->p);
}

/* The held-out verdicts of the pages, one line each (pages not held out
 * left out); -1 after a message. */
static int write_predictions(const char *path, const pt_pages *pages, const winnow_pt_verdict *v)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "winnow: cannot write %s\n", path);
        return -1;
    }
    fputs("corpus\tid\tpredicted\tconfidence\ttrue\n", f);
    for (size_t i = 0; i < pages->n; i++)
        if (v[i].kind != WINNOW_PAGE_UNKNOWN)
            fprintf(f, "%s\t%s\t%.4f\t%s\n", pages->p[i].name, winnow_page_type_name(v[i].kind), v[i].confidence,
                    winnow_page_type_name(pages->p[i].label));
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "winnow: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* The pages of one manifest into the set (and, with pages, their names);
 * -1 after a message. */
static int add_corpus(winnow_pt_set *set, winnow_engine *e, const char *manifest, pt_pages *pages, int verbose)
{
    train_manifest *m = train_manifest_open(manifest);
    if (!m) return -1;
    unsigned added = 0, skipped = 0;
    int rc = 0;
    while (rc == 0 && train_manifest_next(m)) {
        const char *type = m->type ? m->type : "article";
        /* wcxb's collections are listings too (a collection of products, posts) */
        if (!strcmp(type, "collection")) type = "listing";
        winnow_page_type label = winnow_page_type_parse(type);
        if (label == WINNOW_PAGE_UNKNOWN) {
            skipped++;
            continue;
        }
        size_t len = 0;
        char *html = train_manifest_html(m, &len);
        if (!html) {
            skipped++;
            continue;
        }
        winnow_input in = { sizeof in, html, len, NULL, *m->url ? m->url : NULL, NULL };
        winnow_status st = winnow_pt_set_add(set, e, &in, label, m->corpus, m->site);
        free(html);
        if (st == WINNOW_E_NOMEM) {
            fprintf(stderr, "winnow: out of memory\n");
            rc = -1;
        } else if (WINNOW_FAILED(st)) {
            skipped++;
        } else {
            added++;
            if (pages && keep_page(pages, m->corpus, m->id, label) != 0) {
                fprintf(stderr, "winnow: out of memory\n");
                rc = -1;
            }
        }
    }
    if (verbose) fprintf(stderr, "winnow: %s: %u pages (%u skipped)\n", m->corpus, added, skipped);
    train_manifest_close(m);
    return rc;
}

int cmd_train_pagetype(int argc, char **argv)
{
    const char *output = NULL, *eval = NULL, *predictions = NULL, *models = NULL;
    unsigned folds = 5;
    double cost = 1.0;
    int balanced = 0, verbose = 0;
    const char **manifests = calloc((size_t)argc + 1, sizeof *manifests);
    int nm = 0;
    if (!manifests) return EXIT_SOME_FAILED;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--page-types")) continue;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(pt_usage, stdout);
            free(manifests);
            return EXIT_OK;
        }
        if (!strcmp(a, "--balanced")) {
            balanced = 1;
            continue;
        }
        if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
            continue;
        }
        int takes = !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--eval") || !strcmp(a, "--folds") ||
                    !strcmp(a, "--cost") || !strcmp(a, "--predictions") || !strcmp(a, "--models");
        if (takes && i + 1 >= argc) {
            fprintf(stderr, "winnow: %s needs a value\n", a);
            free(manifests);
            return EXIT_USAGE;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            output = argv[++i];
        else if (!strcmp(a, "--eval"))
            eval = argv[++i];
        else if (!strcmp(a, "--predictions"))
            predictions = argv[++i];
        else if (!strcmp(a, "--models"))
            models = argv[++i];
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
            fprintf(stderr, "winnow: unknown option %s of train --page-types\n", a);
            free(manifests);
            return EXIT_USAGE;
        } else
            manifests[nm++] = a;
    }
    const char *within = NULL;
    if (eval && !strncmp(eval, "sites:", 6))
        within = eval + 6;
    else if (eval && strcmp(eval, "corpora")) {
        fprintf(stderr, "winnow: --eval is sites:CORPUS or corpora\n");
        free(manifests);
        return EXIT_USAGE;
    }
    if ((predictions || models) && !eval) {
        fprintf(stderr, "winnow: %s needs --eval\n", predictions ? "--predictions" : "--models");
        free(manifests);
        return EXIT_USAGE;
    }
    if (!nm || (!output && !eval)) {
        fputs(pt_usage, stderr);
        free(manifests);
        return EXIT_USAGE;
    }

    /* the engine as winnow_extract's callers get it: the features are the
     * ones the stage computes in use */
    winnow_engine *e = NULL;
    winnow_pt_set *set = NULL;
    if (winnow_engine_new(NULL, &e) != WINNOW_OK || winnow_pt_set_new(&set) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        winnow_engine_free(e);
        free(manifests);
        return EXIT_SOME_FAILED;
    }
    int rc = EXIT_OK;
    pt_pages pages = { NULL, 0, 0 };
    for (int k = 0; k < nm && rc == EXIT_OK; k++)
        if (add_corpus(set, e, manifests[k], predictions ? &pages : NULL, verbose) != 0) rc = EXIT_SOME_FAILED;
    char err[512] = "";
    if (rc == EXIT_OK && eval) {
        winnow_pt_verdict *verdicts = predictions ? calloc(pages.n ? pages.n : 1, sizeof *verdicts) : NULL;
        winnow_status st = WINNOW_E_NOMEM;
        if (models) cli_mkdir_p(models);
        if (verdicts || !predictions)
            st = winnow_pt_evaluate(set, within, folds, cost, balanced, stdout, verdicts, models, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
            rc = EXIT_SOME_FAILED;
        } else if (predictions && write_predictions(predictions, &pages, verdicts) != 0) {
            rc = EXIT_SOME_FAILED;
        }
        free(verdicts);
    }
    if (rc == EXIT_OK && output) {
        winnow_status st = winnow_pt_fit_save(set, cost, balanced, output, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
            rc = EXIT_SOME_FAILED;
        } else if (verbose) {
            fprintf(stderr, "winnow: page type model of %zu pages written to %s\n", winnow_pt_set_count(set), output);
        }
    }
    free_pages(&pages);
    winnow_pt_set_free(set);
    winnow_engine_free(e);
    free(manifests);
    return rc;
}
