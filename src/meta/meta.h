/* Document metadata: title, author, date, canonical URL, site name,
 * description and language from <title>, <meta name/property>, OpenGraph,
 * <link rel=canonical> and JSON-LD, in that order of growing trust.
 *
 * Contract: reads the DOM, the decode info and the caller's URL; writes a
 * wn_meta (winnow_doc.meta), which the selection's fallback and the outputs
 * read. It needs nothing else of the page: a layer under the page record. */
#ifndef WN_META_H
#define WN_META_H

#include "winnow.h"

#include "../decode/decode.h"
#include "../dom/dom.h"
#include "../util/arena.h"

#define WN_META_LD_TITLES 16

typedef struct wn_meta {
    const char *field[WINNOW_META_COUNT];  /* never NULL after extraction; "" when unknown */
    /* JSON-LD article objects (not web pages) in document order: their
     * headline and name (NULL when absent), from which wn_meta_extract
     * picks the title */
    const char *ld_headline[WN_META_LD_TITLES], *ld_name[WN_META_LD_TITLES];
    unsigned ld_count;
} wn_meta;

int wn_meta_extract(const wn_dom *dom, const wn_decode_info *dec, const char *url, wn_arena *arena,
                    wn_meta *out);

/* Collapse whitespace and trim: arena copy. */
const char *wn_meta_clean(wn_arena *arena, const char *s, size_t n);

/* JSON-LD: fills fields still empty from one <script type=application/ld+json>
 * payload, and adds its articles' headlines and names to ld_headline and
 * ld_name. Tolerant: malformed JSON leaves the fields as they were. */
void wn_meta_from_jsonld(const char *json, size_t n, wn_arena *arena, wn_meta *m);

#endif
