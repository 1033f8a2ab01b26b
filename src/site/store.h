/* Site models on disk: one SQLite file (WAL mode) holding every site's
 * key counts and counted pages. Learning writes in one transaction per
 * batch, so a crash leaves either the old or the new state; readers keep
 * reading while a writer commits. */
#ifndef WN_SITE_STORE_H
#define WN_SITE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define WN_STORE_FORMAT 1
#define WN_STORE_APP_ID 0x57696e6e /* "Winn" */

typedef struct wn_store wn_store;

/* writable: create the file and schema when missing. On failure returns NULL
 * and writes a message into err. */
wn_store *wn_store_open(const char *path, int writable, char *err, size_t errcap);
void wn_store_close(wn_store *s);
const char *wn_store_error(const wn_store *s);

/* Loads a site (NULL with no error when it does not exist). */
int wn_store_load(wn_store *s, const char *site, wn_site_model **out);
/* Writes the model's dirty entries; call inside begin/commit. */
int wn_store_save(wn_store *s, wn_site_model *m);
/* After a successful commit the in-memory model matches the file. */
void wn_store_saved(wn_site_model *m);
int wn_store_begin(wn_store *s);
int wn_store_commit(wn_store *s);
int wn_store_rollback(wn_store *s);

typedef struct wn_site_row {
    char name[256];
    double clock, pages, half_life;
    int64_t updated;
    int64_t keys;
} wn_site_row;

/* Calls fn for every site in name order. */
int wn_store_sites(wn_store *s, int (*fn)(void *ctx, const wn_site_row *row), void *ctx);

#endif
