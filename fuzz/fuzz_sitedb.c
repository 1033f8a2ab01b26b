/* libFuzzer target for the site database loader (src/site/store.c,
 * store_read.c and store_check.c through the public API): each input is the bytes of a site database file.
 *
 * The bytes are written to one temporary file, reused from input to input
 * (SQLite reads files, not memory), opened for reading, its sites listed
 * and loaded, their templates listed, a page extracted with each, and the
 * whole file checked. Contracts: a failure is a failure status with a
 * message; a site that loads judges a page; a check either finds the file
 * sound or reports at least one problem. Bytes that change a row fail its
 * checksum, so most inputs end at WINNOW_E_DB_DAMAGED: what is fuzzed is
 * the reading and refusing, where a damaged file must never be used. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contracts.h"
#include "winnow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_sitedb", what); }

#define MAX_SITES 8

typedef struct names {
    char name[MAX_SITES][128];
    int n;
} names;

static int note_site(void *ctx, const winnow_site_summary *s)
{
    names *ns = ctx;
    contract(s->name != NULL, "a listed site has no name");
    if (ns->n < MAX_SITES) snprintf(ns->name[ns->n++], sizeof ns->name[0], "%s", s->name);
    return 0;
}

static int note_template(void *ctx, const char *kind, double df, const char *sample)
{
    (void)df;
    (void)sample;
    contract(kind && *kind, "a template without its kind");
    ++*(int *)ctx;
    return 0;
}

static void count_problem(void *ctx, const char *what)
{
    contract(what && *what, "a problem without words");
    ++*(size_t *)ctx;
}

static char path[64];

static void remove_files(void) { fuzz_remove_sqlite(path); }

static const char page[] = "<html><body><nav>Home | About</nav><article><p>The first paragraph of a page "
                           "read from a container.</p></article></body></html>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static winnow_engine *engine;
    if (!engine) {
        contract(winnow_engine_new(NULL, &engine) == WINNOW_OK, "winnow_engine_new failed");
        snprintf(path, sizeof path, "/tmp/winnow-fuzz-sitedb-%ld.db", (long)getpid());
        atexit(remove_files);
    }
    remove_files();
    FILE *f = fopen(path, "wb");
    contract(f != NULL, "cannot write the temporary file");
    if (size) contract(fwrite(data, 1, size, f) == size, "cannot write the temporary file");
    fclose(f);

    winnow_sitedb *db = NULL;
    char err[1024] = "";
    winnow_status st = winnow_sitedb_open(path, WINNOW_SITEDB_READ, &db, err, sizeof err);
    if (st != WINNOW_OK) {
        contract(WINNOW_FAILED(st) && db == NULL && err[0], "a failed open without its status, or with a handle");
        return 0;
    }
    names ns = { .n = 0 };
    st = winnow_sitedb_list(db, note_site, &ns);
    contract(st == WINNOW_OK || (WINNOW_FAILED(st) && winnow_sitedb_error(db)[0]), "a failed listing without words");
    for (int i = 0; i < ns.n; i++) {
        winnow_site *site = NULL;
        st = winnow_site_load(db, ns.name[i], 0, &site);
        if (st != WINNOW_OK) {
            contract(WINNOW_FAILED(st) && site == NULL && winnow_sitedb_error(db)[0], "a failed load without words");
            continue;
        }
        int templates = 0;
        contract(winnow_site_templates(site, 0.0, note_template, &templates) == WINNOW_OK, "templates failed");
        winnow_site_options so;
        winnow_site_options_default(&so, sizeof so);
        so.mode = WINNOW_MODE_SITE;
        winnow_input in = { sizeof in, page, sizeof page - 1, NULL, NULL, NULL };
        winnow_doc *doc = NULL;
        st = winnow_extract_site(engine, &in, site, &so, &doc);
        contract(!WINNOW_FAILED(st) && doc != NULL, "a loaded site did not judge a page");
        winnow_doc_free(doc);
        winnow_site_free(site);
    }
    size_t problems = 0;
    winnow_sitedb_report rep = { sizeof rep };
    st = winnow_sitedb_check(db, count_problem, &problems, &rep);
    if (st == WINNOW_OK)
        contract(problems == 0 && rep.problems == 0, "a sound file with problems");
    else if (st == WINNOW_E_DB_DAMAGED)
        contract(problems > 0 && rep.problems == problems, "damage without problems");
    else
        contract(WINNOW_FAILED(st) && winnow_sitedb_error(db)[0], "a check that failed without words");
    winnow_sitedb_close(db);
    return 0;
}
