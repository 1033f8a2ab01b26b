#include "signals.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
    /* order-dependent combination of segment hashes */
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Hash of a text node's normalized text, 0 when it is only spaces. */
static uint64_t segment_hash(const winnow_doc *d, uint32_t i)
{
    const wn_stats *s = &d->stats[i];
    uint32_t b = s->nt_begin, e = s->nt_end;
    const char *t = d->page_text.text;
    while (b < e && t[b] == ' ') b++;
    while (e > b && t[e - 1] == ' ') e--;
    return e > b ? XXH3_64bits(t + b, e - b) | 1 : 0;
}

static int cmp_key(const void *a, const void *b)
{
    const wn_page_key *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* I-Match (Chowdhury et al., as Ma et al. use it): a fingerprint of the
 * page's set of distinct terms. The set is hashed without sorting: each
 * distinct term's hash is mixed and summed, which does not depend on order.
 * Terms without a letter (dates, counters, view counts) are left out so
 * that two fetches of one page match. */
static uint64_t imatch_signature(const winnow_doc *d, wn_arena *a)
{
    const uint64_t *w = d->page_text.words;
    uint32_t n = d->page_text.nwords, cap = 1024, bits = 10;
    while (cap < 2 * n) { cap <<= 1; bits++; }
    uint64_t *set = wn_arena_calloc(a, cap, sizeof(uint64_t));
    if (!set) return 0;
    uint64_t sig = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t h = w[i];
        if (!(h & 1)) continue; /* numbers only */
        uint32_t slot = (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> (64 - bits));
        while (set[slot] && set[slot] != h) slot = (slot + 1) & (cap - 1);
        if (set[slot]) continue;
        set[slot] = h;
        sig += mix(0x9E3779B97F4A7C15ull, h);
    }
    return sig ? sig | 1 : 0;
}

int wn_signals_compute(winnow_doc *d, wn_page_signals *out)
{
    const wn_dom *dom = &d->dom;
    uint32_t n = dom->count;
    wn_arena *a = &d->arena;
    memset(out, 0, sizeof *out);
    out->unit_chunk = wn_arena_calloc(a, n, sizeof(uint64_t));
    out->table_chunk = wn_arena_calloc(a, n, sizeof(uint64_t));
    uint64_t *chunk_of = wn_arena_calloc(a, (size_t)n + 1, sizeof(uint64_t));
    uint32_t *chunk_id = wn_arena_calloc(a, n, sizeof(uint32_t));
    uint8_t *boundary = wn_arena_calloc(a, (size_t)n + 1, 1);
    /* at most: 2 block keys per block, 1 chunk key per unit, 1 table chunk per text node */
    out->keys = wn_arena_alloc(a, ((size_t)n * 2 + 1) * sizeof(wn_page_key) + (size_t)d->nblocks * 2 * sizeof(wn_page_key));
    if (!out->unit_chunk || !out->table_chunk || !chunk_of || !chunk_id || !boundary || !out->keys) return -1;

    /* block fingerprints */
    uint32_t nk = 0;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        uint32_t i = d->blocks[b];
        uint64_t fp = d->stats[i].fingerprint;
        if (!fp) continue;
        out->keys[nk++] = (wn_page_key){fp, i, WN_KEY_BLOCK};
        out->keys[nk++] = (wn_page_key){mix(fp, d->stats[i].path_hash) | 1, i, WN_KEY_PATH_BLOCK};
    }

    /* chunks: text units (line-breaking delimiters) and table chunks */
    uint32_t chunk = 0;
    const wn_labels *lb = &d->labels;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (boundary[i]) chunk++;
        if (x->tag != WN_TAG_TEXT) {
            if (wn_tag_has(x->tag, WN_TF_TABLE) || x->tag == WN_TAG_MAP) {
                chunk++;
                if ((uint64_t)i + x->size <= n) boundary[i + x->size] = 1;
            }
            continue;
        }
        chunk_id[i] = chunk;
        if (x->flags & WN_NF_HIDDEN) continue;
        uint64_t h = segment_hash(d, i);
        if (!h) continue;
        uint32_t u = lb->unit[i];
        out->unit_chunk[u] = mix(out->unit_chunk[u], h) | 1;
        chunk_of[chunk] = mix(chunk_of[chunk], h) | 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (dom->nodes[i].tag != WN_TAG_TEXT || (dom->nodes[i].flags & WN_NF_HIDDEN)) continue;
        if (!segment_hash(d, i)) continue;
        uint64_t k = chunk_of[chunk_id[i]];
        out->table_chunk[i] = k;
        /* one key per text node; the sort below keeps one per chunk */
        out->keys[nk++] = (wn_page_key){k, i, WN_KEY_TABLE_CHUNK};
    }
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] == i && out->unit_chunk[i]) out->keys[nk++] = (wn_page_key){out->unit_chunk[i], i, WN_KEY_CHUNK};
        /* a node inherits its unit's chunk key, so lookups work from any node */
        else if (out->unit_chunk[lb->unit[i]]) out->unit_chunk[i] = out->unit_chunk[lb->unit[i]];
    }

    /* distinct per page: document frequency counts pages, not occurrences */
    qsort(out->keys, nk, sizeof *out->keys, cmp_key);
    uint32_t u = 0;
    for (uint32_t k = 0; k < nk; k++)
        if (u == 0 || out->keys[u - 1].kind != out->keys[k].kind || out->keys[u - 1].key != out->keys[k].key)
            out->keys[u++] = out->keys[k];
    out->nkeys = u;
    out->imatch = imatch_signature(d, a);
    return 0;
}

size_t wn_signals_sample(const winnow_doc *d, const wn_page_key *k, char *out, size_t cap)
{
    if (!cap) return 0;
    const wn_stats *s = &d->stats[k->node];
    const char *t = d->page_text.text;
    uint32_t b = s->nt_begin, e = s->nt_end;
    while (b < e && t[b] == ' ') b++;
    size_t len = e - b < cap - 1 ? e - b : cap - 1;
    /* do not cut a UTF-8 sequence in half */
    while (len > 0 && len < e - b && ((unsigned char)t[b + len] & 0xC0) == 0x80) len--;
    memcpy(out, t + b, len);
    out[len] = '\0';
    return len;
}
