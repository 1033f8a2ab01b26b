/* winnow train --units: the learned unit decision's model from corpora with
 * gold text. A thin client of the training layer (winnow_unit_* in
 * winnow_train.h): it reads each corpus's manifest.tsv (id, url, site),
 * the pages' HTML (DIR/html/ID.html or .html.gz) and gold text
 * (DIR/gold/ID.txt), and hands them over. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "winnow_train.h"

static const char units_usage[] =
    "usage: winnow train --units [options] MANIFEST.tsv...\n"
    "  Fits the learned unit decision's model on the corpora whose manifests are\n"
    "  given (pages in html/ID.html[.gz], gold text in gold/ID.txt beside each\n"
    "  manifest; the corpus is named after its folder).\n"
    "  -o FILE            write the model (what models/units.wmodel holds)\n"
    "  --eval FILE        held-out figures per corpus to FILE (each corpus by a model\n"
    "                     fitted on the others; --fold-corpus by folds of its sites)\n"
    "  --pages FILE       with --eval: each page's held-out figures (TSV)\n"
    "  --models DIR       with --eval: write each held-out model to DIR\n"
    "  --units-out FILE   with --eval: every unit's held-out row (TSV: page number,\n"
    "                     the rules' keep, probability, words, label, gold words)\n"
    "  --folds N          folds of sites of --fold-corpus (default 5)\n"
    "  --fold-corpus NAME the corpus scored by folds of its sites (default wcxb-dev)\n"
    "  --types FILE       TSV (corpus, id, type): each listed page runs with its type\n"
    "                     forced, e.g. types no model saw the page of (bench/units_eval.sh)\n"
    "  --rounds N, --depth N, --eta X   the trees (default 150, 6, 0.1)\n"
    "  --trained TEXT     what the model says it was trained on (default: the corpora\n"
    "                     and their pages)\n"
    "  -v, --verbose      progress on stderr\n";

/* Forced page types: "CORPUS\tID" -> type, sorted. */
typedef struct forced_type {
    char *key;
    int type;
} forced_type;
typedef struct forced_types {
    forced_type *v;
    size_t n;
} forced_types;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const forced_type *)a)->key, ((const forced_type *)b)->key);
}

static int read_types(forced_types *ft, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "winnow: cannot open %s\n", path);
        return -1;
    }
    static char line[1 << 16];
    char *cuts[8];
    size_t cap = 0;
    int rc = 0;
    unsigned lineno = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        int n = train_split(line, cuts, 8);
        if (n < 3 || (lineno == 1 && !strcmp(cuts[0], "corpus"))) continue;
        int t = (int)winnow_page_type_parse(cuts[2]);
        if (t == WINNOW_PAGE_UNKNOWN) {
            fprintf(stderr, "winnow: %s:%u: no page type %s\n", path, lineno, cuts[2]);
            rc = -1;
            break;
        }
        if (ft->n == cap) {
            cap = cap ? cap * 2 : 1024;
            forced_type *v = realloc(ft->v, cap * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            ft->v = v;
        }
        size_t len = strlen(cuts[0]) + strlen(cuts[1]) + 2;
        char *key = malloc(len);
        if (!key) {
            rc = -1;
            break;
        }
        snprintf(key, len, "%s\t%s", cuts[0], cuts[1]);
        ft->v[ft->n++] = (forced_type){ key, t };
    }
    fclose(f);
    if (ft->n) qsort(ft->v, ft->n, sizeof *ft->v, by_key);
    return rc;
}

static int type_of(const forced_types *ft, const char *corpus, const char *id)
{
    if (!ft->n) return WINNOW_PAGE_UNKNOWN;
    char key[1024];
    snprintf(key, sizeof key, "%s\t%s", corpus, id);
    forced_type probe = { key, 0 };
    const forced_type *hit = bsearch(&probe, ft->v, ft->n, sizeof *ft->v, by_key);
    return hit ? hit->type : WINNOW_PAGE_UNKNOWN;
}

/* The pages of one manifest into the set; -1 after a message. */
static int add_corpus(winnow_unit_set *set, winnow_engine *e, const char *manifest, const forced_types *ft, int verbose,
                      char *said, size_t said_cap)
{
    train_manifest *m = train_manifest_open(manifest);
    if (!m) return -1;
    unsigned added = 0, skipped = 0;
    int rc = 0;
    while (rc == 0 && train_manifest_next(m)) {
        size_t len = 0, glen = 0;
        char *html = train_manifest_html(m, &len), *gold = train_manifest_gold(m, &glen);
        if (!html || !gold) {
            free(html);
            free(gold);
            skipped++;
            continue;
        }
        winnow_input in = { sizeof in, html, len, NULL, *m->url ? m->url : NULL, NULL };
        winnow_status st =
            winnow_unit_set_add(set, e, &in, gold, glen, m->corpus, m->site, m->id, type_of(ft, m->corpus, m->id));
        free(html);
        free(gold);
        if (st == WINNOW_E_NOMEM) {
            fprintf(stderr, "winnow: out of memory\n");
            rc = -1;
        } else if (WINNOW_FAILED(st))
            skipped++;
        else
            added++;
    }
    size_t w = strlen(said);
    snprintf(said + w, said_cap - w, " %s:%u", m->corpus, added);
    if (verbose) fprintf(stderr, "winnow: %s: %u pages (%u skipped)\n", m->corpus, added, skipped);
    train_manifest_close(m);
    return rc;
}

static int parse_unsigned(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
    unsigned long long x;
    if (cli_parse_count(opt, v, lo, hi, &x) != 0) return -1;
    *out = (unsigned)x;
    return 0;
}

int cmd_train_units(int argc, char **argv)
{
    const char *output = NULL, *eval = NULL, *pages = NULL, *models = NULL, *trained = NULL, *types = NULL,
               *units_out = NULL;
    forced_types ft = { NULL, 0 };
    const char *fold_corpus = "wcxb-dev";
    unsigned folds = 5;
    int verbose = 0;
    winnow_unit_params p = { 0, 0, 0, 1, 0 };
    const char **manifests = calloc((size_t)argc + 1, sizeof *manifests);
    int nm = 0;
    if (!manifests) return EXIT_SOME_FAILED;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--units")) continue;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(units_usage, stdout);
            free(manifests);
            return EXIT_OK;
        }
        if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
            continue;
        }
        int takes = !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--eval") || !strcmp(a, "--pages") ||
                    !strcmp(a, "--models") || !strcmp(a, "--folds") || !strcmp(a, "--fold-corpus") ||
                    !strcmp(a, "--rounds") || !strcmp(a, "--depth") || !strcmp(a, "--eta") || !strcmp(a, "--trained") ||
                    !strcmp(a, "--types") || !strcmp(a, "--units-out");
        if (takes && i + 1 >= argc) {
            fprintf(stderr, "winnow: %s needs a value\n", a);
            free(manifests);
            return EXIT_USAGE;
        }
        int bad = 0;
        if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            output = argv[++i];
        else if (!strcmp(a, "--eval"))
            eval = argv[++i];
        else if (!strcmp(a, "--pages"))
            pages = argv[++i];
        else if (!strcmp(a, "--models"))
            models = argv[++i];
        else if (!strcmp(a, "--fold-corpus"))
            fold_corpus = argv[++i];
        else if (!strcmp(a, "--trained"))
            trained = argv[++i];
        else if (!strcmp(a, "--types"))
            types = argv[++i];
        else if (!strcmp(a, "--units-out"))
            units_out = argv[++i];
        else if (!strcmp(a, "--folds"))
            bad = parse_unsigned(a, argv[++i], 2, 100, &folds);
        else if (!strcmp(a, "--rounds"))
            bad = parse_unsigned(a, argv[++i], 1, 5000, &p.rounds);
        else if (!strcmp(a, "--depth"))
            bad = parse_unsigned(a, argv[++i], 1, 12, &p.depth);
        else if (!strcmp(a, "--eta")) {
            char *end = NULL;
            p.eta = strtod(argv[++i], &end);
            if (!end || *end || !(p.eta > 0 && p.eta <= 1)) {
                fprintf(stderr, "winnow: --eta takes a number in (0, 1]\n");
                bad = 1;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "winnow: unknown option %s of train --units\n", a);
            bad = 1;
        } else
            manifests[nm++] = a;
        if (bad) {
            free(manifests);
            return EXIT_USAGE;
        }
    }
    if (!nm || (!output && !eval) || ((pages || models || units_out) && !eval)) {
        fputs(units_usage, stderr);
        free(manifests);
        return EXIT_USAGE;
    }
    winnow_engine *e = NULL;
    winnow_unit_set *set = NULL;
    if (winnow_engine_new(NULL, &e) != WINNOW_OK || winnow_unit_set_new(&set) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        winnow_engine_free(e);
        free(manifests);
        return EXIT_SOME_FAILED;
    }
    int rc = EXIT_OK;
    if (types && read_types(&ft, types) != 0) rc = EXIT_SOME_FAILED;
    char said[2048];
    snprintf(said, sizeof said, "XGBoost gbtree rounds=%u depth=%u eta=%g on", p.rounds ? p.rounds : 150,
             p.depth ? p.depth : 6, p.eta > 0 ? p.eta : 0.1);
    for (int k = 0; k < nm && rc == EXIT_OK; k++)
        if (add_corpus(set, e, manifests[k], &ft, verbose, said, sizeof said) != 0) rc = EXIT_SOME_FAILED;
    if (verbose && rc == EXIT_OK)
        fprintf(stderr, "winnow: %zu pages, %zu units\n", winnow_unit_set_pages(set), winnow_unit_set_rows(set));
    char err[512] = "";
    if (rc == EXIT_OK && eval) {
        FILE *fe = fopen(eval, "w"), *fp = pages ? fopen(pages, "w") : NULL;
        FILE *fu = units_out ? fopen(units_out, "w") : NULL;
        if (!fe || (pages && !fp) || (units_out && !fu)) {
            fprintf(stderr, "winnow: cannot write %s\n", !fe ? eval : pages && !fp ? pages : units_out);
            rc = EXIT_SOME_FAILED;
        } else {
            if (models) cli_mkdir_p(models);
            winnow_status st = winnow_unit_evaluate(set, &p, folds, fold_corpus, models, fp, fe, fu, err, sizeof err);
            if (st != WINNOW_OK) {
                fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
                rc = EXIT_SOME_FAILED;
            }
        }
        if (fe && fclose(fe) != 0) rc = EXIT_SOME_FAILED;
        if (fp && fclose(fp) != 0) rc = EXIT_SOME_FAILED;
        if (fu && fclose(fu) != 0) rc = EXIT_SOME_FAILED;
    }
    if (rc == EXIT_OK && output) {
        winnow_status st = winnow_unit_fit_save(set, &p, trained ? trained : said, output, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", *err ? err : winnow_status_message(st));
            rc = EXIT_SOME_FAILED;
        } else if (verbose)
            fprintf(stderr, "winnow: units model written to %s\n", output);
    }
    for (size_t k = 0; k < ft.n; k++) free(ft.v[k].key);
    free(ft.v);
    winnow_unit_set_free(set);
    winnow_engine_free(e);
    free(manifests);
    return rc;
}
