#include "nb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Filter bit of a key (mask: the filter's bits - 1), from the top half
 * of a multiplicative hash; its low bits are the key's home slot. */
static uint32_t index_hash(uint64_t word, uint32_t mask)
{
    return (uint32_t)((word * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

int wn_nb_index(wn_nb_model *m)
{
    free(m->slot_word);
    free(m->slot_weight);
    free(m->filter);
    m->slot_word = NULL;
    m->slot_weight = NULL;
    m->filter = NULL;
    m->slot_mask = 0;
    uint32_t cap = 512;
    while (cap < 2u * m->count) cap <<= 1; /* load factor at most 1/2 */
    uint64_t *sw = calloc(cap, sizeof *sw);
    float *sv = calloc(cap, sizeof *sv);
    uint64_t *fl = calloc(cap / 16, sizeof *fl); /* 4 * cap bits */
    if (!sw || !sv || !fl) {
        free(sw);
        free(sv);
        free(fl);
        return -1;
    }
    for (uint32_t k = 0; k < m->count; k++) {
        uint64_t w = m->word[k];
        if (!(w & 1)) continue; /* lookups set bit 0: an even key never matches */
        uint32_t h = index_hash(w, 4 * cap - 1), s = h & (cap - 1);
        fl[h >> 6] |= 1ull << (h & 63);
        while (sw[s] && sw[s] != w) s = (s + 1) & (cap - 1);
        if (sw[s]) continue; /* a repeated key (the file's are strictly sorted): the first wins, as in the search */
        sw[s] = w;
        sv[s] = m->weight[k];
    }
    m->slot_word = sw;
    m->slot_weight = sv;
    m->slot_mask = cap - 1;
    m->filter = fl;
    return 0;
}

float wn_nb_weight(const wn_nb_model *m, uint64_t word)
{
    word |= 1; /* as counted: bit 0 (has a letter) is not part of the identity */
    if (m->slot_word) {
        uint32_t h = index_hash(word, 4 * m->slot_mask + 3);
        if (!(m->filter[h >> 6] >> (h & 63) & 1)) return 0.0f;
        for (uint32_t s = h & m->slot_mask;; s = (s + 1) & m->slot_mask) {
            if (m->slot_word[s] == word) return m->slot_weight[s];
            if (!m->slot_word[s]) return 0.0f;
        }
    }
    uint32_t lo = 0, hi = m->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->word[mid] < word)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->count && m->word[lo] == word ? m->weight[lo] : 0.0f;
}

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

void wn_nb_weights(const wn_nb_model *m, const uint64_t *words, uint32_t n, float *out)
{
    if (!m->slot_word) {
        for (uint32_t i = 0; i < n; i++) out[i] = wn_nb_weight(m, words[i]);
        return;
    }
    /* in chunks: first every home slot the filter lets through is fetched
     * (loads the CPU overlaps), then the probes run on cached lines */
    enum { CHUNK = 32 };
    uint32_t fmask = 4 * m->slot_mask + 3;
    for (uint32_t base = 0; base < n; base += CHUNK) {
        uint32_t end = n - base < CHUNK ? n : base + CHUNK;
        for (uint32_t i = base; i < end; i++) {
            uint32_t h = index_hash(words[i] | 1, fmask);
            if (m->filter[h >> 6] >> (h & 63) & 1) {
                PREFETCH(&m->slot_word[h & m->slot_mask]);
                PREFETCH(&m->slot_weight[h & m->slot_mask]);
            }
        }
        for (uint32_t i = base; i < end; i++) {
            uint64_t word = words[i] | 1;
            uint32_t h = index_hash(word, fmask);
            out[i] = 0.0f;
            if (!(m->filter[h >> 6] >> (h & 63) & 1)) continue;
            for (uint32_t s = h & m->slot_mask;; s = (s + 1) & m->slot_mask) {
                if (m->slot_word[s] == word) {
                    out[i] = m->slot_weight[s];
                    break;
                }
                if (!m->slot_word[s]) break;
            }
        }
    }
}

struct wn_nb_counts {
    uint64_t *key;
    uint32_t (*n)[2];
    size_t cap, used;
    double tokens[2];
    double blocks[2];
};

wn_nb_counts *wn_nb_counts_new(void)
{
    wn_nb_counts *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->cap = 1u << 16;
    c->key = calloc(c->cap, sizeof *c->key);
    c->n = calloc(c->cap, sizeof *c->n);
    if (!c->key || !c->n) {
        wn_nb_counts_free(c);
        return NULL;
    }
    return c;
}

void wn_nb_counts_free(wn_nb_counts *c)
{
    if (!c) return;
    free(c->key);
    free(c->n);
    free(c);
}

static size_t slot_of(const uint64_t *keys, size_t cap, uint64_t k)
{
    size_t s = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
    while (keys[s] && keys[s] != k) s = (s + 1) & (cap - 1);
    return s;
}

static int grow(wn_nb_counts *c)
{
    size_t cap = c->cap * 2;
    uint64_t *key = calloc(cap, sizeof *key);
    uint32_t(*n)[2] = calloc(cap, sizeof *n);
    if (!key || !n) {
        free(key);
        free(n);
        return -1;
    }
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->key[i]) continue;
        size_t s = slot_of(key, cap, c->key[i]);
        key[s] = c->key[i];
        n[s][0] = c->n[i][0];
        n[s][1] = c->n[i][1];
    }
    free(c->key);
    free(c->n);
    c->key = key;
    c->n = n;
    c->cap = cap;
    return 0;
}

int wn_nb_counts_add(wn_nb_counts *c, const uint64_t *words, uint32_t nw, int label)
{
    int y = label ? 1 : 0;
    c->blocks[y] += 1;
    for (uint32_t i = 0; i < nw; i++) {
        if (c->used * 2 >= c->cap && grow(c) != 0) return -1;
        uint64_t k = words[i] | 1; /* 0 marks an empty slot; bit 0 is the has-letter flag */
        size_t s = slot_of(c->key, c->cap, k);
        if (!c->key[s]) {
            c->key[s] = k;
            c->used++;
        }
        c->n[s][y]++;
        c->tokens[y] += 1;
    }
    return 0;
}

typedef struct kept {
    uint64_t word;
    uint32_t total;
    float w;
} kept;

static int by_total_desc(const void *a, const void *b)
{
    const kept *x = a, *y = b;
    if (x->total != y->total) return x->total > y->total ? -1 : 1;
    return x->word < y->word ? -1 : x->word > y->word;
}

static int by_word(const void *a, const void *b)
{
    const kept *x = a, *y = b;
    return x->word < y->word ? -1 : x->word > y->word;
}

int wn_nb_build(const wn_nb_counts *c, uint32_t min_count, uint32_t max_words, wn_nb_model *out)
{
    memset(out, 0, sizeof *out);
    double b0 = c->blocks[0] + 1, b1 = c->blocks[1] + 1;
    out->prior = log(b1 / b0);
    size_t nk = 0;
    for (size_t i = 0; i < c->cap; i++)
        if (c->key[i] && c->n[i][0] + c->n[i][1] >= min_count) nk++;
    kept *k = malloc((nk + 1) * sizeof *k);
    if (!k) return -1;
    /* Laplace smoothing over the vocabulary actually kept */
    double v = (double)nk + 1;
    double d0 = c->tokens[0] + v, d1 = c->tokens[1] + v;
    nk = 0;
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->key[i] || c->n[i][0] + c->n[i][1] < min_count) continue;
        double p1 = (c->n[i][1] + 1.0) / d1, p0 = (c->n[i][0] + 1.0) / d0;
        k[nk++] = (kept){ c->key[i], c->n[i][0] + c->n[i][1], (float)log(p1 / p0) };
    }
    qsort(k, nk, sizeof *k, by_total_desc);
    if (nk > max_words) nk = max_words;
    qsort(k, nk, sizeof *k, by_word);
    out->word = malloc((nk + 1) * sizeof *out->word);
    out->weight = malloc((nk + 1) * sizeof *out->weight);
    if (!out->word || !out->weight) {
        free(k);
        wn_nb_free(out);
        return -1;
    }
    for (size_t i = 0; i < nk; i++) {
        out->word[i] = k[i].word;
        out->weight[i] = k[i].w;
    }
    out->count = (uint32_t)nk;
    free(k);
    wn_nb_index(out); /* without it (out of memory) lookups search the sorted keys */
    return 0;
}

void wn_nb_free(wn_nb_model *m)
{
    free(m->word);
    free(m->weight);
    free(m->slot_word);
    free(m->slot_weight);
    free(m->filter);
    memset(m, 0, sizeof *m);
}
