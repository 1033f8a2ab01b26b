/* libFuzzer target for the partial-file reader and the merge
 * (src/site/partial.c through the public API): each input is the bytes of
 * a partial file, uncompressed (the reader takes plain files as well as
 * gzip ones, and the fuzzer then mutates the records themselves).
 *
 * The fuzz build reads past checksums that do not match (partial.c,
 * FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION): a real reader refuses such a
 * file at its first sum, which would leave the records behind it unfuzzed.
 *
 * Contracts:
 * - winnow_partial_check either accepts the file, with counts that fit its
 *   size, or fails with a status and a message;
 * - a file the check refuses, the merge refuses too, before writing: the
 *   new database stays without sites;
 * - a merge that fails says why;
 * - whatever happened, the database is sound (winnow_sitedb_check);
 * - every merged site loads and judges a page;
 * - merging the same file again counts nothing (pages merged already are
 *   duplicates). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contracts.h"
#include "winnow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_partial", what); }

#define MAX_SITES 8

typedef struct names {
    char name[MAX_SITES][256];
    int n, total;
} names;

static int note_site(void *ctx, const winnow_site_summary *s)
{
    names *ns = ctx;
    contract(s->name != NULL, "a listed site has no name");
    if (ns->n < MAX_SITES) snprintf(ns->name[ns->n++], sizeof ns->name[0], "%s", s->name);
    ns->total++;
    return 0;
}

static void count_problem(void *ctx, const char *what)
{
    contract(what && *what, "a problem without words");
    ++*(size_t *)ctx;
}

static char part[64], db_path[64];

static void remove_files(void)
{
    unlink(part);
    fuzz_remove_sqlite(db_path);
}

static const char page[] = "<html><body><nav>Home | About</nav><article><p>The first paragraph of a page "
                           "judged with a merged model.</p></article></body></html>";

static int sound(winnow_sitedb *db)
{
    size_t problems = 0;
    winnow_sitedb_report rep = { sizeof rep };
    return winnow_sitedb_check(db, count_problem, &problems, &rep) == WINNOW_OK && problems == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static winnow_engine *engine;
    if (!engine) {
        contract(winnow_engine_new(NULL, &engine) == WINNOW_OK, "winnow_engine_new failed");
        snprintf(part, sizeof part, "/tmp/winnow-fuzz-partial-%ld.wpart", (long)getpid());
        snprintf(db_path, sizeof db_path, "/tmp/winnow-fuzz-partial-%ld.db", (long)getpid());
        atexit(remove_files);
    }
    remove_files();
    FILE *f = fopen(part, "wb");
    contract(f != NULL, "cannot write the temporary file");
    if (size) contract(fwrite(data, 1, size, f) == size, "cannot write the temporary file");
    fclose(f);

    char err[1024] = "";
    winnow_partial_info info = { sizeof info };
    winnow_status checked = winnow_partial_check(part, &info, err, sizeof err);
    if (checked == WINNOW_OK) /* every page takes at least 16 bytes, every site 21 */
        contract(info.sites * 21 + info.pages * 16 <= size && info.ce_pages <= info.pages,
                 "a check that counts more than the file can hold");
    else
        contract(WINNOW_FAILED(checked) && err[0], "a failed check without its status or words");

    winnow_sitedb *db = NULL;
    winnow_status st = winnow_sitedb_open(db_path, WINNOW_SITEDB_WRITE, &db, err, sizeof err);
    contract(st == WINNOW_OK, "cannot create the database");
    const char *parts[1] = { part };
    winnow_merge_report rep = { sizeof rep };
    st = winnow_sitedb_merge(db, parts, 1, NULL, &rep);
    if (st != WINNOW_OK) contract(WINNOW_FAILED(st) && winnow_sitedb_error(db)[0], "a failed merge without words");
    if (checked != WINNOW_OK) contract(WINNOW_FAILED(st), "a merge took a file the check refuses");
    contract(sound(db), "a merge left the database damaged");

    names ns = { .n = 0 };
    contract(winnow_sitedb_list(db, note_site, &ns) == WINNOW_OK, "cannot list the merged sites");
    if (checked != WINNOW_OK) contract(ns.total == 0, "a refused file left sites in the database");
    if (st == WINNOW_OK) contract((size_t)ns.total == rep.sites && rep.sites == info.sites, "merged sites miscounted");
    for (int i = 0; i < ns.n; i++) {
        winnow_site *site = NULL;
        contract(winnow_site_load(db, ns.name[i], 0, &site) == WINNOW_OK, "a merged site does not load");
        winnow_site_options so;
        winnow_site_options_default(&so, sizeof so);
        so.mode = WINNOW_MODE_SITE;
        winnow_input in = { sizeof in, page, sizeof page - 1, NULL, NULL, NULL };
        winnow_doc *doc = NULL;
        st = winnow_extract_site(engine, &in, site, &so, &doc);
        contract(!WINNOW_FAILED(st) && doc != NULL, "a merged site did not judge a page");
        winnow_doc_free(doc);
        winnow_site_free(site);
    }

    if (checked == WINNOW_OK) {
        winnow_merge_report again = { sizeof again };
        st = winnow_sitedb_merge(db, parts, 1, NULL, &again);
        contract(st == WINNOW_OK, "merging a file merged already failed");
        contract(again.counted == 0, "merging a file merged already counted pages again");
        contract(sound(db), "merging again left the database damaged");
    }
    winnow_sitedb_close(db);
    return 0;
}
