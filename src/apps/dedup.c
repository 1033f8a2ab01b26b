/* Near-duplicate detection over pages' texts (winnow_apps.h): I-Match
 * signatures (the site learner's, src/site/signals.c) and bottom-k shingle
 * sketches as Chakrabarti, Kumar & Punera use them (6-word shingles of
 * lowercase alphanumerics, the 8 smallest hashes, a duplicate when 4
 * agree), compared all against all or on the candidates of LSH banding. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "winnow_apps.h"
#include "words.h"
#include "../site/signals.h"
#include "../util/arena.h"
#include "../util/structs.h"

#define OPTIONS_V1 WN_FIELD_END(winnow_dedup_options, imatch)
#define PAIR_V1 WN_FIELD_END(winnow_dedup_pair, duplicate)
#define CLUSTER_V1 WN_FIELD_END(winnow_dedup_cluster, members)
#define STATS_V1 WN_FIELD_END(winnow_dedup_stats, clustered)

/* One page: where its sketch and LSH signature start in the pools. */
typedef struct dd_page {
    size_t page; /* the caller's number */
    uint64_t imatch;
    size_t sketch;    /* offset in dd->hashes: sketch_size slots, then lsh_bands band keys */
    uint32_t nsketch; /* distinct shingle hashes kept (< sketch_size for short texts) */
    uint32_t words;
} dd_page;

struct winnow_dedup {
    winnow_dedup_options opt;
    pthread_mutex_t lock;
    dd_page *pages; /* in the order added; sorted by page number by a run */
    size_t npages, cap;
    uint64_t *hashes; /* per page: sketch_size + lsh_bands slots */
    size_t stride;
    int sorted; /* pages sorted by number since the last add */
    winnow_dedup_pair *pairs;
    size_t npairs, pairs_cap;
    size_t candidates;
    size_t *members;       /* clusters' members, one after another */
    size_t *cluster_start; /* cluster i: members[cluster_start[i] .. cluster_start[i + 1]) */
    size_t nclusters;
    char error[256];
};

winnow_status winnow_dedup_options_default(winnow_dedup_options *o, size_t struct_size)
{
    winnow_dedup_options d = { sizeof d, 6, 8, 4, 0, 2, 1, WINNOW_DEDUP_MIN_WORDS };
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_dedup_new(const winnow_dedup_options *opt, winnow_dedup **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    winnow_dedup_options o;
    winnow_dedup_options_default(&o, sizeof o);
    if (opt && wn_struct_in(&o, sizeof o, opt, OPTIONS_V1) != 0) return WINNOW_E_ARG;
    if (o.shingle_words < 1 || o.shingle_words > 64 || o.sketch_size < 1 || o.sketch_size > 4096 || o.min_matches < 1 ||
        o.min_matches > o.sketch_size || o.lsh_bands > 1024 || (o.lsh_bands && (o.lsh_rows < 1 || o.lsh_rows > 64)))
        return WINNOW_E_ARG;
    winnow_dedup *dd = calloc(1, sizeof *dd);
    if (!dd) return WINNOW_E_NOMEM;
    dd->opt = o;
    dd->stride = o.sketch_size + o.lsh_bands;
    pthread_mutex_init(&dd->lock, NULL);
    *out = dd;
    return WINNOW_OK;
}

void winnow_dedup_free(winnow_dedup *dd)
{
    if (!dd) return;
    pthread_mutex_destroy(&dd->lock);
    free(dd->pages);
    free(dd->hashes);
    free(dd->pairs);
    free(dd->members);
    free(dd->cluster_start);
    free(dd);
}

const char *winnow_dedup_error(const winnow_dedup *dd) { return dd ? dd->error : ""; }

uint64_t winnow_text_imatch(const char *text, size_t len)
{
    if (!text && len) return 0;
    wn_words w;
    if (wn_text_words(text, len, &w) != 0) return 0;
    wn_arena a;
    wn_arena_init(&a);
    uint64_t sig = wn_imatch(w.hash, w.n, &a);
    wn_arena_free(&a);
    wn_text_words_free(&w);
    return sig;
}

/* Inserts h into the ascending array s[0..*n) of at most k distinct values,
 * dropping the largest when full. */
static void bottom_k_add(uint64_t *s, uint32_t *n, uint32_t k, uint64_t h)
{
    if (*n == k && h >= s[k - 1]) return;
    uint32_t lo = 0, hi = *n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (s[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < *n && s[lo] == h) return;
    uint32_t end = *n < k ? *n : k - 1;
    memmove(s + lo + 1, s + lo, (size_t)(end - lo) * sizeof *s);
    s[lo] = h;
    if (*n < k) (*n)++;
}

/* The shingle hashes of a text's words: each window of `width` words (the
 * whole text when it is shorter), hashed with XXH3. */
static uint64_t shingle_hash(const uint64_t *w, uint32_t width) { return XXH3_64bits(w, (size_t)width * sizeof *w); }

/* LSH: a one-permutation min-hash signature (Li, Owen & Zhang) of
 * bands * rows bins, empty bins filled from the next full one (Shrivastava
 * & Li's rotation), each band's rows hashed into one key. */
static void lsh_keys(const uint64_t *w, uint32_t nshingles, uint32_t width, unsigned bands, unsigned rows,
                     uint64_t *bins, uint64_t *keys)
{
    uint32_t nbins = bands * rows;
    for (uint32_t b = 0; b < nbins; b++) bins[b] = UINT64_MAX;
    for (uint32_t i = 0; i < nshingles; i++) {
        uint64_t h = shingle_hash(w + i, width);
        uint32_t bin = (uint32_t)(((h >> 32) * (uint64_t)nbins) >> 32);
        uint64_t v = h & 0xffffffffull;
        if (v < bins[bin]) bins[bin] = v;
    }
    for (uint32_t b = 0; b < nbins; b++) {
        if (bins[b] != UINT64_MAX) continue;
        /* the next full bin's value, marked by the distance */
        for (uint32_t d = 1; d < nbins; d++) {
            uint64_t v = bins[(b + d) % nbins];
            if (v != UINT64_MAX && v < (1ull << 32)) {
                bins[b] = v | ((uint64_t)d << 32);
                break;
            }
        }
    }
    for (unsigned band = 0; band < bands; band++)
        keys[band] = XXH3_64bits_withSeed(bins + (size_t)band * rows, rows * sizeof *bins, band) | 1;
}

winnow_status winnow_dedup_add(winnow_dedup *dd, size_t page, const char *text, size_t len)
{
    if (!dd || (!text && len)) return WINNOW_E_ARG;
    const winnow_dedup_options *o = &dd->opt;
    wn_words w;
    if (wn_text_words(text, len, &w) != 0) return WINNOW_E_NOMEM;
    uint64_t *slots = malloc((dd->stride + (size_t)o->lsh_bands * o->lsh_rows + 1) * sizeof *slots);
    wn_arena a;
    wn_arena_init(&a);
    if (!slots) {
        wn_text_words_free(&w);
        return WINNOW_E_NOMEM;
    }
    dd_page p = { page, wn_imatch(w.hash, w.n, &a), 0, 0, w.n };
    wn_arena_free(&a);
    uint32_t width = o->shingle_words, nshingles = 0;
    if (w.n > 0) {
        if (w.n < width) width = w.n;
        nshingles = w.n - width + 1;
    }
    for (uint32_t i = 0; i < nshingles; i++)
        bottom_k_add(slots, &p.nsketch, o->sketch_size, shingle_hash(w.hash + i, width));
    for (uint32_t i = p.nsketch; i < o->sketch_size; i++) slots[i] = 0;
    if (o->lsh_bands) {
        if (nshingles)
            lsh_keys(w.hash, nshingles, width, o->lsh_bands, o->lsh_rows, slots + dd->stride, slots + o->sketch_size);
        else
            memset(slots + o->sketch_size, 0, o->lsh_bands * sizeof *slots);
    }
    wn_text_words_free(&w);
    if (p.words < o->min_words) {
        /* too short to judge (WINNOW_DEDUP_MIN_WORDS): no sketch, no
         * signature, no LSH key, so it pairs with nothing */
        p.nsketch = 0;
        p.imatch = 0;
        memset(slots, 0, dd->stride * sizeof *slots);
    }

    winnow_status st = WINNOW_OK;
    pthread_mutex_lock(&dd->lock);
    if (dd->npages == dd->cap) {
        size_t cap = dd->cap ? dd->cap * 2 : 256;
        dd_page *np = realloc(dd->pages, cap * sizeof *np);
        if (np) dd->pages = np;
        uint64_t *nh = np ? realloc(dd->hashes, cap * dd->stride * sizeof *nh) : NULL;
        if (nh) {
            dd->hashes = nh;
            dd->cap = cap;
        } else
            st = WINNOW_E_NOMEM;
    }
    if (st == WINNOW_OK) {
        p.sketch = dd->npages * dd->stride;
        memcpy(dd->hashes + p.sketch, slots, dd->stride * sizeof *slots);
        dd->pages[dd->npages++] = p;
        dd->sorted = 0;
    }
    pthread_mutex_unlock(&dd->lock);
    free(slots);
    return st;
}

static int cmp_page(const void *x, const void *y)
{
    const dd_page *a = x, *b = y;
    return (a->page > b->page) - (a->page < b->page);
}

/* The page with number `page`, by binary search (pages sorted). */
static const dd_page *find_page(const winnow_dedup *dd, size_t page)
{
    size_t lo = 0, hi = dd->npages;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (dd->pages[mid].page < page)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < dd->npages && dd->pages[lo].page == page ? &dd->pages[lo] : NULL;
}

/* Compares two pages; 1 when near-duplicates. */
static int compare(const winnow_dedup *dd, const dd_page *x, const dd_page *y, winnow_dedup_pair *out)
{
    const uint64_t *a = dd->hashes + x->sketch, *b = dd->hashes + y->sketch;
    uint32_t i = 0, j = 0, m = 0;
    while (i < x->nsketch && j < y->nsketch) {
        if (a[i] == b[j]) {
            m++;
            i++;
            j++;
        } else if (a[i] < b[j])
            i++;
        else
            j++;
    }
    uint32_t compared = x->nsketch > y->nsketch ? x->nsketch : y->nsketch;
    int exact = x->imatch && x->imatch == y->imatch;
    /* a sketch of fewer than k hashes asks for the same share of what it has */
    uint32_t need =
        compared >= dd->opt.sketch_size
            ? dd->opt.min_matches
            : (uint32_t)(((uint64_t)dd->opt.min_matches * compared + dd->opt.sketch_size - 1) / dd->opt.sketch_size);
    if (need < 1) need = 1;
    int dup = (compared > 0 && m >= need) || (exact && dd->opt.imatch);
    if (out) {
        out->a = x->page < y->page ? x->page : y->page;
        out->b = x->page < y->page ? y->page : x->page;
        out->matches = m;
        out->compared = compared;
        out->similarity = exact ? 1.0 : compared ? (double)m / compared : 0.0;
        out->exact = exact;
        out->duplicate = dup;
    }
    return dup;
}

static int add_pair(winnow_dedup *dd, const winnow_dedup_pair *p)
{
    if (dd->npairs == dd->pairs_cap) {
        size_t cap = dd->pairs_cap ? dd->pairs_cap * 2 : 1024;
        winnow_dedup_pair *n = realloc(dd->pairs, cap * sizeof *n);
        if (!n) return -1;
        dd->pairs = n;
        dd->pairs_cap = cap;
    }
    dd->pairs[dd->npairs++] = *p;
    return 0;
}

/* Candidates by LSH: (key, page index) entries of every band and the
 * I-Match signatures, sorted; pages sharing a key are candidates. */
typedef struct lsh_entry {
    uint64_t key;
    uint32_t idx;
} lsh_entry;

static int cmp_entry(const void *x, const void *y)
{
    const lsh_entry *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int run_lsh(winnow_dedup *dd)
{
    size_t n = dd->npages, bands = dd->opt.lsh_bands;
    lsh_entry *e = malloc((n * (bands + 1) + 1) * sizeof *e);
    if (!e) return -1;
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
        const dd_page *p = &dd->pages[i];
        const uint64_t *keys = dd->hashes + p->sketch + dd->opt.sketch_size;
        if (p->nsketch)
            for (size_t b = 0; b < bands; b++) e[ne++] = (lsh_entry){ keys[b], (uint32_t)i };
        /* I-Match signatures are even keys' kin: kept apart by the low bit */
        if (p->imatch && dd->opt.imatch) e[ne++] = (lsh_entry){ p->imatch & ~1ull, (uint32_t)i };
    }
    qsort(e, ne, sizeof *e, cmp_entry);
    /* candidate pairs as (i << 32 | j), then made distinct */
    uint64_t *cand = NULL;
    size_t nc = 0, cc = 0;
    for (size_t s = 0; s < ne;) {
        size_t t = s + 1;
        while (t < ne && e[t].key == e[s].key) t++;
        for (size_t x = s; x < t; x++)
            for (size_t y = x + 1; y < t; y++) {
                if (e[x].idx == e[y].idx) continue;
                if (nc == cc) {
                    size_t ncap = cc ? cc * 2 : 4096;
                    uint64_t *nn = realloc(cand, ncap * sizeof *nn);
                    if (!nn) {
                        free(cand);
                        free(e);
                        return -1;
                    }
                    cand = nn;
                    cc = ncap;
                }
                cand[nc++] = ((uint64_t)e[x].idx << 32) | e[y].idx;
            }
        s = t;
    }
    free(e);
    if (nc) qsort(cand, nc, sizeof *cand, cmp_u64);
    int rc = 0;
    for (size_t k = 0; k < nc && rc == 0; k++) {
        if (k && cand[k] == cand[k - 1]) continue;
        dd->candidates++;
        winnow_dedup_pair p = { sizeof p };
        if (compare(dd, &dd->pages[cand[k] >> 32], &dd->pages[cand[k] & 0xffffffffu], &p)) rc = add_pair(dd, &p);
    }
    free(cand);
    return rc;
}

static size_t uf_find(size_t *parent, size_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int cmp_pair(const void *x, const void *y)
{
    const winnow_dedup_pair *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Clusters: connected components of the pairs (union-find on page
 * indexes, which follow page numbers once sorted). */
static int make_clusters(winnow_dedup *dd)
{
    size_t n = dd->npages;
    size_t *parent = malloc((n + 1) * sizeof *parent);
    size_t *count = calloc(n + 1, sizeof *count);
    if (!parent || !count) {
        free(parent);
        free(count);
        return -1;
    }
    for (size_t i = 0; i < n; i++) parent[i] = i;
    for (size_t k = 0; k < dd->npairs; k++) {
        size_t a = (size_t)(find_page(dd, dd->pairs[k].a) - dd->pages);
        size_t b = (size_t)(find_page(dd, dd->pairs[k].b) - dd->pages);
        size_t ra = uf_find(parent, a), rb = uf_find(parent, b);
        /* the smaller index (page number) stays the root: the representative */
        if (ra < rb)
            parent[rb] = ra;
        else if (rb < ra)
            parent[ra] = rb;
    }
    size_t clustered = 0, nclusters = 0;
    for (size_t i = 0; i < n; i++) count[uf_find(parent, i)]++;
    for (size_t i = 0; i < n; i++)
        if (count[i] >= 2) {
            nclusters++;
            clustered += count[i];
        }
    dd->members = malloc((clustered + 1) * sizeof *dd->members);
    dd->cluster_start = malloc((nclusters + 1) * sizeof *dd->cluster_start);
    size_t *slot = malloc((n + 1) * sizeof *slot);
    if (!dd->members || !dd->cluster_start || !slot) {
        free(parent);
        free(count);
        free(slot);
        return -1;
    }
    /* clusters in order of their root (the representative), members in order */
    size_t at = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        if (count[i] < 2) continue;
        dd->cluster_start[c++] = at;
        slot[i] = at;
        at += count[i];
    }
    dd->cluster_start[c] = at;
    dd->nclusters = nclusters;
    for (size_t i = 0; i < n; i++) {
        size_t r = uf_find(parent, i);
        if (count[r] >= 2) dd->members[slot[r]++] = dd->pages[i].page;
    }
    free(parent);
    free(count);
    free(slot);
    return 0;
}

winnow_status winnow_dedup_run(winnow_dedup *dd)
{
    if (!dd) return WINNOW_E_ARG;
    dd->error[0] = '\0';
    free(dd->members);
    free(dd->cluster_start);
    dd->members = dd->cluster_start = NULL;
    dd->npairs = dd->nclusters = dd->candidates = 0;
    if (!dd->sorted) {
        /* no pages (all failed, say): pages is NULL, which qsort may not be given */
        if (dd->npages) qsort(dd->pages, dd->npages, sizeof *dd->pages, cmp_page);
        dd->sorted = 1;
    }
    for (size_t i = 1; i < dd->npages; i++)
        if (dd->pages[i].page == dd->pages[i - 1].page) {
            snprintf(dd->error, sizeof dd->error, "page number %zu was added twice", dd->pages[i].page);
            return WINNOW_E_ARG;
        }
    if (dd->opt.lsh_bands && dd->npages > UINT32_MAX) {
        snprintf(dd->error, sizeof dd->error, "LSH takes at most %u pages", UINT32_MAX);
        return WINNOW_E_ARG;
    }
    int rc = 0;
    if (dd->opt.lsh_bands) {
        rc = run_lsh(dd);
    } else {
        for (size_t i = 0; i < dd->npages && rc == 0; i++)
            for (size_t j = i + 1; j < dd->npages && rc == 0; j++) {
                winnow_dedup_pair p = { sizeof p };
                if (compare(dd, &dd->pages[i], &dd->pages[j], &p)) rc = add_pair(dd, &p);
            }
        dd->candidates = dd->npages * (dd->npages ? dd->npages - 1 : 0) / 2;
    }
    if (rc == 0) {
        if (dd->npairs) qsort(dd->pairs, dd->npairs, sizeof *dd->pairs, cmp_pair);
        rc = make_clusters(dd);
    }
    if (rc != 0) {
        snprintf(dd->error, sizeof dd->error, "out of memory");
        return WINNOW_E_NOMEM;
    }
    return WINNOW_OK;
}

size_t winnow_dedup_pair_count(const winnow_dedup *dd) { return dd ? dd->npairs : 0; }

winnow_status winnow_dedup_pair_get(const winnow_dedup *dd, size_t i, winnow_dedup_pair *p)
{
    if (!dd || !p || i >= dd->npairs) return WINNOW_E_ARG;
    return wn_struct_out(p, &dd->pairs[i], sizeof dd->pairs[i], PAIR_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_dedup_compare(const winnow_dedup *dd, size_t a, size_t b, winnow_dedup_pair *p)
{
    if (!dd || !p) return WINNOW_E_ARG;
    winnow_dedup *m = (winnow_dedup *)dd; /* sorting is a cache, not a change the caller sees */
    if (!m->sorted) {
        pthread_mutex_lock(&m->lock);
        qsort(m->pages, m->npages, sizeof *m->pages, cmp_page);
        m->sorted = 1;
        pthread_mutex_unlock(&m->lock);
    }
    const dd_page *x = find_page(dd, a), *y = find_page(dd, b);
    if (!x || !y) return WINNOW_E_ARG;
    winnow_dedup_pair r = { sizeof r };
    compare(dd, x, y, &r);
    return wn_struct_out(p, &r, sizeof r, PAIR_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

size_t winnow_dedup_cluster_count(const winnow_dedup *dd) { return dd ? dd->nclusters : 0; }

winnow_status winnow_dedup_cluster_get(const winnow_dedup *dd, size_t i, winnow_dedup_cluster *c)
{
    if (!dd || !c || i >= dd->nclusters) return WINNOW_E_ARG;
    size_t s = dd->cluster_start[i];
    winnow_dedup_cluster r = { sizeof r, dd->members[s], dd->cluster_start[i + 1] - s, dd->members + s };
    return wn_struct_out(c, &r, sizeof r, CLUSTER_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_dedup_get_stats(const winnow_dedup *dd, winnow_dedup_stats *s)
{
    if (!dd || !s) return WINNOW_E_ARG;
    winnow_dedup_stats r = { sizeof r };
    r.pages = dd->npages;
    for (size_t i = 0; i < dd->npages; i++) {
        r.empty += dd->pages[i].words == 0;
        r.short_texts += dd->pages[i].words > 0 && dd->pages[i].words < dd->opt.min_words;
    }
    r.candidates = dd->candidates;
    r.pairs = dd->npairs;
    for (size_t i = 0; i < dd->npairs; i++) r.exact_pairs += dd->pairs[i].exact;
    r.clusters = dd->nclusters;
    r.clustered = dd->nclusters ? dd->cluster_start[dd->nclusters] : 0;
    return wn_struct_out(s, &r, sizeof r, STATS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}
