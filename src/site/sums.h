/* Checksums of stored site models (site database format 2).
 *
 * Every row a site owns (fingerprints, counted pages, ContentExtractor
 * training pages and blocks) has a 64-bit hash of its values; a site's
 * body checksum is their sum (so it does not depend on row order, and the
 * model in memory gives the same value as the rows on disk). The site's
 * head checksum covers its `sites` row, its row counts and the body; the
 * database keeps the sum of all heads, so a site that vanishes is noticed
 * too. Hashes are XXH3 over a fixed little-endian encoding of the values. */
#ifndef WN_SITE_SUMS_H
#define WN_SITE_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* sample / url: NULL for SQL NULL */
uint64_t wn_sum_key(int64_t kind, int64_t key, double df, double t, const char *sample, size_t len);
uint64_t wn_sum_page(int64_t imatch, double t, const char *url, size_t len);
uint64_t wn_sum_ce_page(int64_t page, int64_t imatch);
uint64_t wn_sum_ce_block(int64_t page, int64_t path, const void *vec, size_t len);

typedef struct wn_site_sums {
    uint64_t body;
    int64_t nkeys, npages;
} wn_site_sums;

/* The sums of the rows a model is stored as. 0, or -1 on OOM. */
int wn_site_model_sums(const wn_site_model *m, wn_site_sums *out);

uint64_t wn_sum_head(int64_t id, const char *name, double clock, double pages, double half_life, int64_t created,
                     int64_t updated, const wn_site_sums *sums);

#endif
