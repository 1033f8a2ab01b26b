/* Site evidence a page contributes and is judged by (issue: site-level
 * template detection). For one processed page:
 *  - block fingerprints (Gibson et al. as used by Kolcz & Yih): every block
 *    candidate's normalized text (WN_KEY_BLOCK), and the variant keyed on
 *    DOM path + text (WN_KEY_PATH_BLOCK);
 *  - text chunks (Ma, Goharian & Chowdhury): the text between the closest
 *    delimiter tags, with table tags as delimiters as in the paper
 *    (WN_KEY_TABLE_CHUNK) and with every line-breaking tag (WN_KEY_CHUNK,
 *    i.e. the text units the scorers work on);
 *  - an I-Match signature of the page, so that the same page under two URLs
 *    counts once.
 * Keys are deduplicated per page: document frequency counts pages.
 *
 * Contract: reads the DOM, the statistics, the page text and d->labels.unit
 * (computing the units itself when learning); writes a wn_page_signals (the
 * caller's: the site score reads it, learning adds it to the model). */
#ifndef WN_SIGNALS_H
#define WN_SIGNALS_H

#include <stdint.h>

#include "../doc.h"
#include "ce.h"

typedef enum wn_key_kind {
    WN_KEY_BLOCK = 1,
    WN_KEY_PATH_BLOCK = 2,
    WN_KEY_CHUNK = 3,
    WN_KEY_TABLE_CHUNK = 4,
} wn_key_kind;
#define WN_KEY_KINDS 5

typedef struct wn_page_key {
    uint64_t key;
    uint32_t node; /* a node carrying it (block element, or the unit / first text node of the chunk) */
    uint8_t kind;
} wn_page_key;

typedef struct wn_page_signals {
    wn_page_key *keys; /* distinct (kind, key) pairs of the page */
    uint32_t nkeys;
    uint64_t *unit_chunk;  /* per node: WN_KEY_CHUNK key of the node's text unit (0 when it has no text) */
    uint64_t *table_chunk; /* per node: WN_KEY_TABLE_CHUNK key for text nodes (0 otherwise) */
    uint64_t imatch;       /* I-Match signature */
    wn_ce_page *ce;        /* atomic blocks for ContentExtractor / FastCE, when computed */
} wn_page_signals;

int wn_signals_compute(winnow_doc *d, wn_page_signals *out);

/* I-Match signature of a sequence of word hashes (wn_page_text.words: bit 0
 * set for words with a letter; the others are left out): order-free, one
 * per set of distinct words, 0 when there is none or memory ran out
 * (scratch from a). */
uint64_t wn_imatch(const uint64_t *words, uint32_t n, wn_arena *a);

/* Display sample of a key's text (block or chunk), collapsed, at most cap-1 bytes. */
size_t wn_signals_sample(const winnow_doc *d, const wn_page_key *k, char *out, size_t cap);

#endif
