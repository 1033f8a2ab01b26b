/* Document metadata: title, author, date, canonical URL, site name,
 * description and language from <title>, <meta name/property>, OpenGraph,
 * <link rel=canonical> and JSON-LD, in that order of growing trust. */
#ifndef WN_META_H
#define WN_META_H

#include "winnow.h"

#include "../decode/decode.h"
#include "../dom/dom.h"
#include "../util/arena.h"

typedef struct wn_meta {
    const char *field[WINNOW_META_COUNT];  /* never NULL after extraction; "" when unknown */
} wn_meta;

int wn_meta_extract(const wn_dom *dom, const wn_decode_info *dec, const char *url, wn_arena *arena,
                    wn_meta *out);

/* Collapse whitespace and trim: arena copy. */
const char *wn_meta_clean(wn_arena *arena, const char *s, size_t n);

/* JSON-LD: fills fields still empty from one <script type=application/ld+json>
 * payload. Tolerant: malformed JSON leaves the fields as they were. */
void wn_meta_from_jsonld(const char *json, size_t n, wn_arena *arena, wn_meta *m);

#endif
