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

/* Hash of a text node's normalized text, 0 when it is only spaces: the
 * node's fingerprint (XXH3 of the same trimmed text; text_cp counts the
 * code points of that text). */
static uint64_t segment_hash(const winnow_doc *d, uint32_t i)
{
    const wn_stats *s = &d->stats[i];
    return s->text_cp ? s->fingerprint | 1 : 0;
}

static void insertion_sort(wn_page_key *keys, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        wn_page_key k = keys[i];
        uint32_t j = i;
        while (j > 0 && keys[j - 1].key > k.key) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = k;
    }
}

/* LSD radix sort on the low `bytes` bytes of the keys, 8 bits a pass
 * (passes where every key has the same byte are skipped). Stable. tmp
 * holds n keys. */
static void radix_sort(wn_page_key *keys, wn_page_key *tmp, uint32_t n, int bytes)
{
    uint32_t count[8][256];
    memset(count, 0, sizeof count);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t k = keys[i].key;
        for (int b = 0; b < bytes; b++) count[b][(k >> (8 * b)) & 0xff]++;
    }
    wn_page_key *src = keys, *dst = tmp;
    for (int b = 0; b < bytes; b++) {
        if (count[b][(src[0].key >> (8 * b)) & 0xff] == n) continue;
        uint32_t sum = 0;
        for (int v = 0; v < 256; v++) {
            uint32_t c = count[b][v];
            count[b][v] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) dst[count[b][(src[i].key >> (8 * b)) & 0xff]++] = src[i];
        wn_page_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) memcpy(keys, src, (size_t)n * sizeof *keys);
}

/* Sorts keys[0..n) by key, stably: buckets by the top byte (hash keys
 * spread evenly over them), then each bucket by insertion, or by radix
 * when it is large (many keys sharing a top byte). tmp holds n keys. */
static void sort_keys(wn_page_key *keys, wn_page_key *tmp, uint32_t n)
{
    if (n <= 32) {
        insertion_sort(keys, n);
        return;
    }
    uint32_t start[257];
    memset(start, 0, sizeof start);
    for (uint32_t i = 0; i < n; i++) start[(keys[i].key >> 56) + 1]++;
    for (int v = 0; v < 256; v++) start[v + 1] += start[v];
    uint32_t fill[256];
    memcpy(fill, start, sizeof fill);
    for (uint32_t i = 0; i < n; i++) tmp[fill[keys[i].key >> 56]++] = keys[i];
    memcpy(keys, tmp, (size_t)n * sizeof *keys);
    for (int v = 0; v < 256; v++) {
        uint32_t b = start[v], m = start[v + 1] - b;
        if (m <= 32)
            insertion_sort(keys + b, m);
        else
            radix_sort(keys + b, tmp, m, 7);
    }
}

/* Sorts one kind's keys (added in increasing node order) by key and keeps
 * the first of each: the key's first node. Returns the count kept. */
static uint32_t sort_unique(wn_page_key *keys, wn_page_key *tmp, uint32_t n)
{
    sort_keys(keys, tmp, n);
    uint32_t u = 0;
    for (uint32_t k = 0; k < n; k++)
        if (u == 0 || keys[u - 1].key != keys[k].key) keys[u++] = keys[k];
    return u;
}

/* Text unit of node i, as the page scorer finds them (wn_page_score), for
 * a page that was not scored (learning): the nearest visible
 * line-breaking element at or above it; unit[] holds the earlier nodes'. */
static uint32_t unit_of(const wn_dom *dom, const uint32_t *unit, uint32_t i)
{
    if (i == 0) return 0;
    const wn_node *x = &dom->nodes[i];
    if (x->tag == WN_TAG_TEXT) return unit[x->parent];
    return (wn_tag_has(x->tag, WN_TF_BREAK) && !(x->flags & WN_NF_HIDDEN)) ? i : unit[x->parent];
}

/* I-Match (Chowdhury et al., as Ma et al. use it): a fingerprint of the
 * page's set of distinct terms. The set is hashed without sorting: each
 * distinct term's hash is mixed and summed, which does not depend on order.
 * Terms without a letter (dates, counters, view counts) are left out so
 * that two fetches of one page match. Used for a page's whole text here and
 * for any text's words by src/apps/dedup.c (near-duplicates, the index). */
uint64_t wn_imatch(const uint64_t *w, uint32_t n, wn_arena *a)
{
    uint32_t cap = 1024, bits = 10, count = 0;
    /* a page has far fewer distinct terms than words: start small, grow
     * at half full */
    while (cap < n / 2) {
        cap <<= 1;
        bits++;
    }
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
        if (++count * 2 >= cap) {
            uint64_t *bigger = wn_arena_calloc(a, (size_t)cap * 2, sizeof(uint64_t));
            if (!bigger) return 0;
            for (uint32_t k = 0; k < cap; k++) {
                if (!set[k]) continue;
                uint32_t s2 = (uint32_t)((set[k] * 0x9E3779B97F4A7C15ull) >> (64 - (bits + 1)));
                while (bigger[s2]) s2 = (s2 + 1) & (cap * 2 - 1);
                bigger[s2] = set[k];
            }
            set = bigger;
            cap *= 2;
            bits++;
        }
    }
    return sig ? sig | 1 : 0;
}

int wn_signals_compute(winnow_doc *d, wn_page_signals *out)
{
    const wn_dom *dom = &d->dom;
    uint32_t n = dom->count;
    wn_arena *a = &d->arena;
    memset(out, 0, sizeof *out);
    /* a page that was not scored (learning) gets its text units in the
     * chunk pass below */
    int own_units = !d->labels.unit;
    if (own_units && !(d->labels.unit = wn_arena_alloc(a, ((size_t)n + 1) * sizeof(uint32_t)))) return -1;
    out->unit_chunk = wn_arena_calloc(a, n, sizeof(uint64_t));
    out->table_chunk = wn_arena_calloc(a, n, sizeof(uint64_t));
    uint64_t *chunk_of = wn_arena_calloc(a, (size_t)n + 1, sizeof(uint64_t));
    uint32_t *chunk_id = wn_arena_alloc(a, (size_t)n * sizeof(uint32_t));
    uint8_t *boundary = wn_arena_calloc(a, (size_t)n + 1, 1);
    /* at most: 2 block keys per block, 1 chunk key per unit, 1 table chunk per text node
     * (n each, table chunks kept apart at first) */
    size_t cap = (size_t)n * 2 + 1 + (size_t)d->nblocks * 2;
    out->keys = wn_arena_alloc(a, cap * sizeof(wn_page_key));
    wn_page_key *tmp = wn_arena_alloc(a, ((size_t)(n > d->nblocks ? n : d->nblocks) + 1) * sizeof(wn_page_key));
    if (!out->unit_chunk || !out->table_chunk || !chunk_of || !chunk_id || !boundary || !out->keys || !tmp) return -1;

    /* Keys come kind by kind, each sorted by key and distinct per page
     * (document frequency counts pages, not occurrences), each key with
     * the first node that carries it. */
    wn_page_key *keys = out->keys;
    uint32_t nk = 0, start;

    /* block fingerprints, then the same keyed on the DOM path */
    start = nk;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        uint32_t i = d->blocks[b];
        uint64_t fp = d->stats[i].fingerprint;
        if (fp) keys[nk++] = (wn_page_key){ fp, i, WN_KEY_BLOCK };
    }
    nk = start + sort_unique(keys + start, tmp, nk - start);
    start = nk;
    for (uint32_t b = 0; b < d->nblocks; b++) {
        uint32_t i = d->blocks[b];
        uint64_t fp = d->stats[i].fingerprint;
        if (fp) keys[nk++] = (wn_page_key){ mix(fp, d->stats[i].path_hash) | 1, i, WN_KEY_PATH_BLOCK };
    }
    nk = start + sort_unique(keys + start, tmp, nk - start);

    /* chunks: text units (line-breaking delimiters) and table chunks */
    uint32_t chunk = 0;
    uint32_t *unit = d->labels.unit;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (own_units) unit[i] = unit_of(dom, unit, i);
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
        out->table_chunk[i] = h; /* until the chunk's key replaces it below */
        uint32_t u = unit[i];
        out->unit_chunk[u] = mix(out->unit_chunk[u], h) | 1;
        chunk_of[chunk] = mix(chunk_of[chunk], h) | 1;
    }
    /* one pass for both: chunk keys from here, table chunk keys n
     * places further (there is room for n of each) */
    start = nk;
    wn_page_key *tables = keys + start + n;
    uint32_t nt = 0, last_chunk = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (unit[i] == i && out->unit_chunk[i]) keys[nk++] = (wn_page_key){ out->unit_chunk[i], i, WN_KEY_CHUNK };
        /* a node inherits its unit's chunk key, so lookups work from any node */
        else if (out->unit_chunk[unit[i]])
            out->unit_chunk[i] = out->unit_chunk[unit[i]];
        /* visible text nodes with text */
        if (!out->table_chunk[i]) continue;
        uint64_t k = chunk_of[chunk_id[i]];
        out->table_chunk[i] = k;
        /* a chunk's text nodes are consecutive: its first one carries the key */
        if (chunk_id[i] != last_chunk) tables[nt++] = (wn_page_key){ k, i, WN_KEY_TABLE_CHUNK };
        last_chunk = chunk_id[i];
    }
    nk = start + sort_unique(keys + start, tmp, nk - start);
    memmove(keys + nk, tables, (size_t)nt * sizeof *keys);
    start = nk;
    nk = start + sort_unique(keys + start, tmp, nt);
    out->nkeys = nk;
    out->imatch = wn_imatch(d->page_text.words, d->page_text.nwords, a);
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
