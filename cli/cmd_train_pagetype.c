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
                               "  --cost C           liblinear's cost C (default 1)\n"
                               "  --balanced         weigh each kind of page the same in all\n"
                               "  -v, --verbose      progress on stderr\n";

/* The whole file, gunzipped when it is gzip (zlib reads plain files as they are). */
char *train_slurp(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
        int r = gzread(g, buf + n, (unsigned)(cap - n));
        if (r < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    gzclose(g);
    *len = n;
    return buf;
}

/* Column index of name in a tab-separated header line; -1 when absent. */
int train_column(char *header, const char *name)
{
    int k = 0;
    for (char *p = header; p; k++) {
        char *t = strchr(p, '\t');
        size_t l = t ? (size_t)(t - p) : strcspn(p, "\r\n");
        if (l == strlen(name) && !strncmp(p, name, l)) return k;
        p = t ? t + 1 : NULL;
    }
    return -1;
}

/* Field k of a tab-separated line, cut in place ("" past the end). */
static const char *field(char *line, int k, char **cuts, int ncuts)
{
    (void)line;
    return k >= 0 && k < ncuts ? cuts[k] : "";
}

int train_split(char *line, char **cuts, int cap)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; p && n < cap;) {
        cuts[n++] = p;
        char *t = strchr(p, '\t');
        if (t) *t++ = '\0';
        p = t;
    }
    return n;
}

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
    FILE *f = fopen(manifest, "r");
    if (!f) {
        fprintf(stderr, "winnow: cannot open %s\n", manifest);
        return -1;
    }
    char dir[4096], corpus[256];
    snprintf(dir, sizeof dir, "%s", manifest);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    const char *base = strrchr(dir, '/');
    snprintf(corpus, sizeof corpus, "%.255s", base ? base + 1 : dir);
    static char line[1 << 16];
    char *cuts[32];
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    int c_id = train_column(line, "id"), c_url = train_column(line, "url"), c_site = train_column(line, "site");
    int c_type = train_column(line, "page_type");
    unsigned added = 0, skipped = 0;
    while (fgets(line, sizeof line, f)) {
        int n = train_split(line, cuts, 32);
        const char *id = field(line, c_id, cuts, n), *url = field(line, c_url, cuts, n);
        const char *site = field(line, c_site, cuts, n), *type = c_type >= 0 ? field(line, c_type, cuts, n) : "article";
        if (!*id) continue;
        /* wcxb's collections are listings too (a collection of products, posts) */
        if (!strcmp(type, "collection")) type = "listing";
        winnow_page_type label = winnow_page_type_parse(type);
        if (label == WINNOW_PAGE_UNKNOWN) {
            skipped++;
            continue;
        }
        char path[8192];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/html/%s.html.gz", dir, id);
        char *html = train_slurp(path, &len);
        if (!html) {
            snprintf(path, sizeof path, "%s/html/%s.html", dir, id);
            html = train_slurp(path, &len);
        }
        if (!html) {
            skipped++;
            continue;
        }
        winnow_input in = { sizeof in, html, len, NULL, *url ? url : NULL, NULL };
        winnow_status st = winnow_pt_set_add(set, e, &in, label, corpus, *site ? site : id);
        free(html);
        if (st == WINNOW_E_NOMEM) {
            fclose(f);
            fprintf(stderr, "winnow: out of memory\n");
            return -1;
        }
        if (WINNOW_FAILED(st)) {
            skipped++;
            continue;
        }
        added++;
        if (pages && keep_page(pages, corpus, id, label) != 0) {
            fclose(f);
            fprintf(stderr, "winnow: out of memory\n");
            return -1;
        }
    }
    fclose(f);
    if (verbose) fprintf(stderr, "winnow: %s: %u pages (%u skipped)\n", corpus, added, skipped);
    return 0;
}

int cmd_train_pagetype(int argc, char **argv)
{
    const char *output = NULL, *eval = NULL, *predictions = NULL;
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
                    !strcmp(a, "--cost") || !strcmp(a, "--predictions");
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
    if (predictions && !eval) {
        fprintf(stderr, "winnow: --predictions needs --eval\n");
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
        if (verdicts || !predictions)
            st = winnow_pt_evaluate(set, within, folds, cost, balanced, stdout, verdicts, err, sizeof err);
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
