/* Partials: site learning as map-reduce (winnow.h, "Site learning as
 * map-reduce: partials"; the file format is in the README, "Partial
 * files").
 *
 * A partial is a set of journal-only site models (model.h): each records
 * the pages learned into it, in order, with their keys, display samples,
 * I-Match signature, URL and (the first 30 distinct pages) their
 * ContentExtractor blocks, and counts nothing. Merging replays the
 * journals onto the database's models with wn_site_model_replay, the same
 * steps learning takes, so a merge gives what one learn run gives. */
#ifndef WN_SITE_PARTIAL_H
#define WN_SITE_PARTIAL_H

#include <stddef.h>

#include "store.h"
#include "winnow.h"

#define WN_PARTIAL_FORMAT 1

typedef struct wn_merge_counts {
    size_t parts, sites, pages, counted, duplicates;
} wn_merge_counts;

/* Merges the partial files into the store (winnow_sitedb_merge). 0, or -1
 * with the status in *status and a message in err. */
int wn_partial_merge(wn_store *s, const char *const *paths, size_t n, size_t commit_every, wn_merge_counts *out,
                     winnow_status *status, char *err, size_t errcap);

/* winnow_partial_learn's steps below the pipeline (the learning itself is
 * api/site.c's): the partial's site of the page, named site or, when site
 * is NULL, after url's host (wn_url_site), its error cleared first;
 * WINNOW_OK, or the failure with the partial's error set. */
winnow_status wn_partial_site_for(winnow_partial *p, const char *site, const char *url, winnow_site **out);
/* Sets the partial's error (winnow_partial_error) to detail. */
void wn_partial_fail(winnow_partial *p, const char *detail);

#endif
