/* Site models on disk: one SQLite file holding every site's key counts,
 * counted pages and ContentExtractor training blocks.
 *
 * Format 2 (PRAGMA user_version) adds checksums (sums.h): a table `sums`
 * with a row per site, and the sum of all sites' head checksums in `meta`.
 * Format 1 files are read as they are (without checksums) and upgraded by
 * the first writer.
 *
 * Writers: a writer checks the whole file first (SQLite's integrity check,
 * the schema, every site's checksums) and refuses a damaged one before
 * writing anything. While a writer is open the file is in WAL mode, so
 * readers keep reading while it commits; each save is one transaction (a
 * crash leaves the state of the last commit). On close the writer
 * checkpoints and puts the file back in rollback-journal mode, so that a
 * file at rest is one file that readers can use from a read-only folder.
 * A save that finds a site changed by another writer since it was loaded
 * replays the pages counted since onto the stored state (model.h, the
 * journal) instead of overwriting it.
 *
 * Readers: opened read-write when the file and its folder can be written
 * (only so that the last connection to close can remove the -wal and -shm
 * files), read-only otherwise, and read-only with SQLite's immutable flag
 * when a file left in WAL mode has no -wal file and cannot be written.
 * What they read is checked against the checksums. */
#ifndef WN_SITE_STORE_H
#define WN_SITE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "winnow.h"

#define WN_STORE_FORMAT 2
#define WN_STORE_APP_ID 0x57696e6e /* "Winn" */

typedef struct wn_store wn_store;

/* writable: create the file and schema when missing, check the file and
 * upgrade an older format. On failure returns NULL, with the reason in
 * *status (WINNOW_E_DB_READONLY, WINNOW_E_DB_DAMAGED, WINNOW_E_DB_FORMAT,
 * WINNOW_E_DB_BUSY, WINNOW_E_IO, WINNOW_E_NOMEM) and a message in err. */
wn_store *wn_store_open(const char *path, int writable, winnow_status *status, char *err, size_t errcap);
void wn_store_close(wn_store *s);
const char *wn_store_error(const wn_store *s);
/* The status of the last failure. */
winnow_status wn_store_status(const wn_store *s);

/* Loads a site, checked against its checksums (NULL with no error when it
 * does not exist). 0, or -1 (status and error set). */
int wn_store_load(wn_store *s, const char *site, wn_site_model **out);

/* Saves the changed models in one transaction. A model whose site another
 * writer saved since it was loaded is merged: use[i] is then a new model
 * (the stored state with models[i]'s journal replayed) that replaces
 * models[i] from now on; otherwise use[i] is NULL. After a failure nothing
 * was written and the models are as they were. 0, or -1. */
int wn_store_save(wn_store *s, wn_site_model *const *models, size_t n, wn_site_model **use);

typedef struct wn_site_row {
    const char *name;
    double clock, pages, half_life;
    int64_t updated;
    int64_t keys;
} wn_site_row;

/* Calls fn for every site in name order, after checking every row read. */
int wn_store_sites(wn_store *s, int (*fn)(void *ctx, const wn_site_row *row), void *ctx);

typedef struct wn_store_report {
    int format;
    size_t sites, keys, pages, ce_pages, ce_blocks;
    size_t problems;
} wn_store_report;

/* The whole file: SQLite's integrity check, the schema, the catalogue of
 * sites and every site's rows against its checksums. Calls problem() for
 * each problem found (at most 100 from SQLite's check). 0 when sound, 1
 * when problems were found, -1 when the check itself failed. */
int wn_store_check(wn_store *s, void (*problem)(void *ctx, const char *what), void *ctx, wn_store_report *out);

#endif
