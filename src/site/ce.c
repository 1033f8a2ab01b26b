#include "ce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
/* inlined: the hashes are the library's, without a call per short string */
#define XXH_INLINE_ALL
#include <xxhash.h>

enum { DIM_IMAGES = 1, DIM_LINKS = 2, DIM_FIRST_TERM = 16 };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

#define CSWAP(a, b)                                                                                                    \
    do {                                                                                                               \
        uint32_t x_ = v[a], y_ = v[b];                                                                                 \
        v[a] = x_ < y_ ? x_ : y_;                                                                                      \
        v[b] = x_ < y_ ? y_ : x_;                                                                                      \
    } while (0)

/* Batcher's odd-even merge sort network for 16 inputs (63 comparators) */
static void sort16(uint32_t *v)
{
    CSWAP(0, 1);
    CSWAP(2, 3);
    CSWAP(0, 2);
    CSWAP(1, 3);
    CSWAP(1, 2);
    CSWAP(4, 5);
    CSWAP(6, 7);
    CSWAP(4, 6);
    CSWAP(5, 7);
    CSWAP(5, 6);
    CSWAP(0, 4);
    CSWAP(2, 6);
    CSWAP(2, 4);
    CSWAP(1, 5);
    CSWAP(3, 7);
    CSWAP(3, 5);
    CSWAP(1, 2);
    CSWAP(3, 4);
    CSWAP(5, 6);
    CSWAP(8, 9);
    CSWAP(10, 11);
    CSWAP(8, 10);
    CSWAP(9, 11);
    CSWAP(9, 10);
    CSWAP(12, 13);
    CSWAP(14, 15);
    CSWAP(12, 14);
    CSWAP(13, 15);
    CSWAP(13, 14);
    CSWAP(8, 12);
    CSWAP(10, 14);
    CSWAP(10, 12);
    CSWAP(9, 13);
    CSWAP(11, 15);
    CSWAP(11, 13);
    CSWAP(9, 10);
    CSWAP(11, 12);
    CSWAP(13, 14);
    CSWAP(0, 8);
    CSWAP(4, 12);
    CSWAP(4, 8);
    CSWAP(2, 10);
    CSWAP(6, 14);
    CSWAP(6, 10);
    CSWAP(2, 4);
    CSWAP(6, 8);
    CSWAP(10, 12);
    CSWAP(1, 9);
    CSWAP(5, 13);
    CSWAP(5, 9);
    CSWAP(3, 11);
    CSWAP(7, 15);
    CSWAP(7, 11);
    CSWAP(3, 5);
    CSWAP(7, 9);
    CSWAP(11, 13);
    CSWAP(1, 2);
    CSWAP(3, 4);
    CSWAP(5, 6);
    CSWAP(7, 8);
    CSWAP(9, 10);
    CSWAP(11, 12);
    CSWAP(13, 14);
}
#undef CSWAP

static void sort_small(uint32_t *v, uint32_t n)
{
    uint32_t b[16];
    memcpy(b, v, n * sizeof *v);
    for (uint32_t i = n; i < 16; i++) b[i] = UINT32_MAX;
    sort16(b);
    memcpy(v, b, n * sizeof *v);
}

/* Sorts a unit's dims. Comparisons on hash dims are coin flips, so
 * nothing here branches on them: quicksort with branchless partitions
 * into < pivot, == pivot, > pivot (many words repeat), and a sorting
 * network for the last 16 or fewer. */
static void sort_dims(uint32_t *v, uint32_t n)
{
    while (n > 16) {
        uint32_t a = v[0], b = v[n / 2], c = v[n - 1];
        uint32_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        /* branchless partitions: [< pivot | == pivot | > pivot] */
        uint32_t lt = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t x = v[i];
            v[i] = v[lt];
            v[lt] = x;
            lt += x < pivot;
        }
        uint32_t le = lt;
        for (uint32_t i = lt; i < n; i++) {
            uint32_t x = v[i];
            v[i] = v[le];
            v[le] = x;
            le += x <= pivot;
        }
        /* the smaller side first, the larger by iteration */
        if (lt < n - le) {
            sort_dims(v, lt);
            v += le;
            n -= le;
        } else {
            sort_dims(v + le, n - le);
            n = lt;
        }
    }
    if (n > 1) sort_small(v, n);
}

/* Dims with counts from a unit's sorted dims. */
static int make_vec(wn_arena *a, const uint32_t *dims, uint32_t n, wn_ce_vec *v)
{
    memset(v, 0, sizeof *v);
    if (!n) return 0;
    uint32_t distinct = 1;
    for (uint32_t k = 1; k < n; k++) distinct += dims[k] != dims[k - 1];
    v->dims = wn_arena_alloc(a, (size_t)distinct * (sizeof(uint32_t) + sizeof(float)));
    if (!v->dims) return -1;
    v->vals = (float *)(void *)(v->dims + distinct);
    if (n < (1u << 24)) {
        /* counts below 2^24 are exact as floats, and the sum of their
         * squares (below 2^48) is exact in any order: the same values as
         * the general loop below, without a branch per dim */
        uint32_t j = 0, c = 1;
        v->dims[0] = dims[0];
        for (uint32_t k = 1; k < n; k++) {
            uint32_t fresh = dims[k] != dims[k - 1];
            v->vals[j] = (float)c;
            j += fresh;
            c = fresh ? 1 : c + 1;
            v->dims[j] = dims[k];
        }
        v->vals[j] = (float)c;
        uint64_t squares = 0;
        for (uint32_t k = 0; k < distinct; k++) {
            uint64_t x = (uint64_t)v->vals[k];
            squares += x * x;
        }
        v->n = distinct;
        v->norm = (float)sqrt((double)squares);
        return 0;
    }
    double norm = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (v->n && v->dims[v->n - 1] == dims[k]) {
            v->vals[v->n - 1] += 1.0f;
            continue;
        }
        v->dims[v->n] = dims[k];
        v->vals[v->n] = 1.0f;
        v->n++;
    }
    for (uint32_t k = 0; k < v->n; k++) norm += (double)v->vals[k] * v->vals[k];
    v->norm = (float)sqrt(norm);
    return 0;
}

int wn_ce_page_compute(winnow_doc *d, wn_ce_page *out)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    wn_arena *a = &d->arena;
    memset(out, 0, sizeof *out);
    uint64_t *bpath = wn_arena_alloc(a, (size_t)n * sizeof(uint64_t));
    uint32_t *slot = wn_arena_alloc(a, (size_t)n * sizeof(uint32_t));
    uint32_t *ndims = wn_arena_calloc(a, n, sizeof(uint32_t));
    if (!bpath || !slot || !ndims) return -1;
    /* block paths: the chain of line-breaking tags only, as FastCE's
     * "hierarchical tree of blocks" */
    bpath[0] = 0x51ed270b27u;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint64_t p = bpath[x->parent];
        if (x->tag != WN_TAG_TEXT && lb->unit[i] == i) p = XXH3_64bits_withSeed(x->name, strlen(x->name), p);
        bpath[i] = p;
    }
    /* dims per unit: its own words, images and links */
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint32_t u = lb->unit[i];
        if (x->tag == WN_TAG_TEXT) {
            if (!(x->flags & WN_NF_HIDDEN)) ndims[u] += d->stats[i].w_end - d->stats[i].w_begin;
        } else if (x->tag == WN_TAG_IMG || (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK))) {
            ndims[u]++;
        }
    }
    uint32_t count = 0;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i && ndims[i]) {
            slot[i] = count++;
            total += ndims[i];
        }
    out->units = wn_arena_alloc(a, ((size_t)count + 1) * sizeof(uint32_t));
    out->paths = wn_arena_alloc(a, ((size_t)count + 1) * sizeof(uint64_t));
    out->vecs = wn_arena_calloc(a, (size_t)count + 1, sizeof(wn_ce_vec));
    uint32_t *dims = wn_arena_alloc(a, (total + 1) * sizeof(uint32_t));
    uint32_t *start = wn_arena_alloc(a, ((size_t)count + 1) * sizeof(uint32_t));
    uint32_t *fill = wn_arena_calloc(a, (size_t)count + 1, sizeof(uint32_t));
    if (!out->units || !out->paths || !out->vecs || !dims || !start || !fill) return -1;
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i && ndims[i]) {
            uint32_t k = slot[i];
            out->units[k] = i;
            out->paths[k] = bpath[i];
            start[k] = off;
            off += ndims[i];
        }
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint32_t u = lb->unit[i];
        if (!ndims[u]) continue;
        uint32_t k = slot[u];
        uint32_t *dst = dims + start[k];
        if (x->tag == WN_TAG_TEXT) {
            if (x->flags & WN_NF_HIDDEN) continue;
            for (uint32_t w = d->stats[i].w_begin; w < d->stats[i].w_end; w++) {
                uint32_t dim = (uint32_t)(d->page_text.words[w] >> 32);
                dst[fill[k]++] = dim < DIM_FIRST_TERM ? dim + DIM_FIRST_TERM : dim;
            }
        } else if (x->tag == WN_TAG_IMG) {
            dst[fill[k]++] = DIM_IMAGES;
        } else if (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK)) {
            dst[fill[k]++] = DIM_LINKS;
        }
    }
    for (uint32_t k = 0; k < count; k++) {
        sort_dims(dims + start[k], fill[k]);
        if (make_vec(a, dims + start[k], fill[k], &out->vecs[k]) != 0) return -1;
    }
    out->count = count;
    return 0;
}

float wn_ce_cosine(const wn_ce_vec *a, const wn_ce_vec *b)
{
    if (!a->n || !b->n || a->norm <= 0 || b->norm <= 0) return 0.0f;
    /* the cosine cannot exceed min(|a|,|b|)/max(|a|,|b|) only for
     * non-negative vectors of disjoint mass; no cheap bound, so merge */
    double dot = 0;
    uint32_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        if (a->dims[i] == b->dims[j]) {
            dot += (double)a->vals[i] * b->vals[j];
            i++;
            j++;
        } else if (a->dims[i] < b->dims[j])
            i++;
        else
            j++;
    }
    return (float)(dot / ((double)a->norm * b->norm));
}

/* A stored vector's dims and values share one allocation, dims first. */
static int vec_alloc(wn_ce_vec *v, uint32_t n)
{
    v->dims = malloc((size_t)n * (sizeof(uint32_t) + sizeof(float)));
    if (!v->dims) return -1;
    v->vals = (float *)(void *)(v->dims + n);
    return 0;
}

void wn_ce_vec_free(wn_ce_vec *v)
{
    free(v->dims);
    memset(v, 0, sizeof *v);
}

static int vec_copy(const wn_ce_vec *src, wn_ce_vec *dst)
{
    memset(dst, 0, sizeof *dst);
    if (!src->n) return 0;
    if (vec_alloc(dst, src->n) != 0) return -1;
    memcpy(dst->dims, src->dims, src->n * sizeof(uint32_t));
    memcpy(dst->vals, src->vals, src->n * sizeof(float));
    dst->n = src->n;
    dst->norm = src->norm;
    return 0;
}

size_t wn_ce_vec_pack(const wn_ce_vec *v, void *buf, size_t cap)
{
    size_t need = (size_t)v->n * 8;
    if (cap < need) return need;
    unsigned char *p = buf;
    for (uint32_t k = 0; k < v->n; k++) {
        memcpy(p + (size_t)k * 8, &v->dims[k], 4);
        memcpy(p + (size_t)k * 8 + 4, &v->vals[k], 4);
    }
    return need;
}

int wn_ce_vec_unpack(const void *buf, size_t len, wn_ce_vec *out)
{
    memset(out, 0, sizeof *out);
    if (len % 8) return -1;
    uint32_t n = (uint32_t)(len / 8);
    if (!n) return 0;
    if (vec_alloc(out, n) != 0) return -1;
    const unsigned char *p = buf;
    double norm = 0;
    for (uint32_t k = 0; k < n; k++) {
        memcpy(&out->dims[k], p + (size_t)k * 8, 4);
        memcpy(&out->vals[k], p + (size_t)k * 8 + 4, 4);
        if (k && out->dims[k] <= out->dims[k - 1]) {
            wn_ce_vec_free(out);
            return -1;
        }
        norm += (double)out->vals[k] * out->vals[k];
    }
    out->n = n;
    out->norm = (float)sqrt(norm);
    return 0;
}

void wn_ce_model_init(wn_ce_model *m) { memset(m, 0, sizeof *m); }

void wn_fastce_template_free(wn_fastce_template *t)
{
    free(t->paths);
    free(t->noncontent);
    memset(t, 0, sizeof *t);
}

void wn_ce_model_free(wn_ce_model *m)
{
    for (size_t i = 0; i < m->count; i++) wn_ce_vec_free(&m->blocks[i].vec);
    free(m->blocks);
    wn_fastce_template_free(&m->tmpl);
    memset(m, 0, sizeof *m);
}

int wn_ce_model_put_block(wn_ce_model *m, uint32_t page, uint64_t path, const wn_ce_vec *v)
{
    if (page >= WN_CE_TRAINING_PAGES) return -1;
    if (m->count == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        wn_ce_block *b = realloc(m->blocks, cap * sizeof *b);
        if (!b) return -1;
        m->blocks = b;
        m->cap = cap;
    }
    wn_ce_block *b = &m->blocks[m->count];
    memset(b, 0, sizeof *b);
    b->page = page;
    b->path = path;
    if (vec_copy(v, &b->vec) != 0) return -1;
    m->count++;
    if (page + 1 > m->pages) m->pages = page + 1;
    m->prepared = 0;
    return 0;
}

int wn_ce_model_add_page(wn_ce_model *m, const wn_ce_page *p, uint64_t imatch)
{
    if (m->pages >= WN_CE_TRAINING_PAGES) return 0;
    uint32_t page = m->pages;
    for (uint32_t k = 0; k < p->count; k++)
        if (wn_ce_model_put_block(m, page, p->paths[k], &p->vecs[k]) != 0) return -1;
    m->pages = page + 1;
    m->page_imatch[page] = imatch;
    m->dirty = 1;
    m->prepared = 0;
    return 1;
}

uint32_t wn_ce_model_page_of(const wn_ce_model *m, uint64_t imatch)
{
    for (uint32_t k = 0; imatch && k < m->pages && k < WN_CE_TRAINING_PAGES; k++)
        if (m->page_imatch[k] == imatch) return k;
    return UINT32_MAX;
}

static double ce_threshold(double pages)
{
    double min_pages = pages < WN_CE_MIN_PAGES ? pages : WN_CE_MIN_PAGES;
    double t = WN_CE_TEMPLATE_SHARE * pages > min_pages ? WN_CE_TEMPLATE_SHARE * pages : min_pages;
    return t - 1e-6;
}

/* Distinct training pages (other than `self` and `exclude`) holding a block
 * similar to v. Pages are at most 30: a bit set. */
static uint32_t similar_pages(const wn_ce_model *m, const wn_ce_vec *v, uint32_t self, uint32_t exclude, uint32_t need)
{
    uint64_t seen = 0;
    uint32_t found = 0;
    for (size_t i = 0; i < m->count && found < need; i++) {
        const wn_ce_block *b = &m->blocks[i];
        if (b->page == self || b->page == exclude || b->page >= 64) continue;
        if (seen >> b->page & 1u) continue;
        if (wn_ce_cosine(v, &b->vec) > WN_CE_SIMILAR) {
            seen |= 1ull << b->page;
            found++;
        }
    }
    return found;
}

int wn_ce_detect(const wn_ce_model *m, const wn_ce_page *p, uint8_t *out, uint32_t exclude)
{
    double pages = (double)m->pages - (exclude < m->pages ? 1.0 : 0.0);
    double thr = ce_threshold(pages);
    for (uint32_t k = 0; k < p->count; k++)
        out[k] = pages >= 1.0 && similar_pages(m, &p->vecs[k], UINT32_MAX, exclude, UINT32_MAX) >= thr;
    return 0;
}

static int cmp_by_path(const void *a, const void *b, void *ctx)
{
    const wn_ce_model *m = ctx;
    uint64_t x = m->blocks[*(const uint32_t *)a].path, y = m->blocks[*(const uint32_t *)b].path;
    return x < y ? -1 : x > y;
}

/* The template from content labels: content paths, and the non-content
 * blocks that share them. */
static int build_template(const wn_ce_model *m, const uint8_t *content, uint32_t exclude, wn_fastce_template *t)
{
    memset(t, 0, sizeof *t);
    t->paths = malloc((m->count + 1) * sizeof(uint64_t));
    t->noncontent = malloc((m->count + 1) * sizeof(uint32_t));
    if (!t->paths || !t->noncontent) {
        wn_fastce_template_free(t);
        return -1;
    }
    for (size_t i = 0; i < m->count; i++)
        if (m->blocks[i].page != exclude && content[i]) t->paths[t->npaths++] = m->blocks[i].path;
    qsort(t->paths, t->npaths, sizeof(uint64_t), cmp_u64);
    size_t u = 0;
    for (size_t k = 0; k < t->npaths; k++)
        if (!u || t->paths[u - 1] != t->paths[k]) t->paths[u++] = t->paths[k];
    t->npaths = u;
    for (size_t i = 0; i < m->count; i++) {
        if (m->blocks[i].page == exclude || content[i]) continue;
        if (bsearch(&m->blocks[i].path, t->paths, t->npaths, sizeof(uint64_t), cmp_u64))
            t->noncontent[t->nnoncontent++] = (uint32_t)i;
    }
    qsort_r(t->noncontent, t->nnoncontent, sizeof(uint32_t), cmp_by_path, (void *)m);
    return 0;
}

/* ContentExtractor over the training pages: each block is judged against
 * the other training pages (page `exclude` left out entirely). */
/* Candidate pairs for the preparation phase, exactly.
 *
 * Comparing every training block with every other is O(B^2) cosines. But a
 * cosine above 0.9 needs shared mass: split each vector into its frequent
 * dims (words in many blocks) and rare ones. Two vectors sharing no rare dim
 * have cos <= (|a_freq|/|a|) * (|b_freq|/|b|) (Cauchy-Schwarz on the
 * frequent parts), so a block whose frequent share |a_freq|/|a| is below
 * 0.9 can only be similar to blocks that share one of its rare dims, found
 * through an inverted index. Blocks made mostly of frequent words (short
 * boilerplate like "and the") are compared with everything. */
typedef struct dim_count {
    uint32_t dim;
    uint32_t n;
} dim_count;

static int cmp_dim(const void *a, const void *b)
{
    uint32_t x = ((const dim_count *)a)->dim, y = ((const dim_count *)b)->dim;
    return x < y ? -1 : x > y;
}

static const dim_count *find_dim(const dim_count *t, size_t n, uint32_t dim)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t[mid].dim < dim)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && t[lo].dim == dim ? &t[lo] : NULL;
}

static int label_blocks(const wn_ce_model *m, uint32_t exclude, uint8_t *content)
{
    double pages = (double)m->pages - (exclude < m->pages ? 1.0 : 0.0);
    double thr = ce_threshold(pages - 1.0);
    size_t nb = m->count;
    if (pages < 2.0) {
        for (size_t i = 0; i < nb; i++) content[i] = m->blocks[i].page != exclude;
        return 0;
    }
    /* block frequency of every dim */
    size_t total = 0;
    for (size_t i = 0; i < nb; i++) total += m->blocks[i].vec.n;
    dim_count *all = malloc((total + 1) * sizeof *all);
    if (!all) return -1;
    size_t k = 0;
    for (size_t i = 0; i < nb; i++)
        for (uint32_t j = 0; j < m->blocks[i].vec.n; j++) all[k++] = (dim_count){ m->blocks[i].vec.dims[j], 1 };
    qsort(all, total, sizeof *all, cmp_dim);
    size_t nd = 0;
    for (size_t i = 0; i < total; i++) {
        if (nd && all[nd - 1].dim == all[i].dim)
            all[nd - 1].n++;
        else
            all[nd++] = all[i];
    }
    uint32_t frequent = (uint32_t)(nb / 50 > 20 ? nb / 50 : 20);
    /* postings of rare dims: offsets into one array (counting sort) */
    size_t *start = calloc(nd + 1, sizeof *start);
    uint32_t *post = malloc((total + 1) * sizeof *post);
    uint32_t *stamp = malloc((nb + 1) * sizeof *stamp);
    uint32_t *cand = malloc((nb + 1) * sizeof *cand);
    if (!start || !post || !stamp || !cand) {
        free(all);
        free(start);
        free(post);
        free(stamp);
        free(cand);
        return -1;
    }
    for (size_t d = 0; d < nd; d++) start[d + 1] = start[d] + (all[d].n <= frequent ? all[d].n : 0);
    size_t *fill = calloc(nd + 1, sizeof *fill);
    if (!fill) {
        free(all);
        free(start);
        free(post);
        free(stamp);
        free(cand);
        return -1;
    }
    for (size_t i = 0; i < nb; i++) {
        const wn_ce_vec *v = &m->blocks[i].vec;
        for (uint32_t j = 0; j < v->n; j++) {
            const dim_count *dc = find_dim(all, nd, v->dims[j]);
            size_t d = (size_t)(dc - all);
            if (dc->n <= frequent) post[start[d] + fill[d]++] = (uint32_t)i;
        }
    }
    for (size_t i = 0; i < nb; i++) stamp[i] = UINT32_MAX;
    for (size_t i = 0; i < nb; i++) {
        const wn_ce_block *b = &m->blocks[i];
        content[i] = 0;
        if (b->page == exclude) continue;
        const wn_ce_vec *v = &b->vec;
        double freq2 = 0;
        for (uint32_t j = 0; j < v->n; j++)
            if (find_dim(all, nd, v->dims[j])->n > frequent) freq2 += (double)v->vals[j] * v->vals[j];
        uint32_t similar;
        if (v->norm <= 0 || sqrt(freq2) >= WN_CE_SIMILAR * v->norm) {
            /* enough similar pages settle it: stop counting there */
            similar = similar_pages(m, v, b->page, exclude, (uint32_t)ceil(thr));
        } else {
            size_t nc = 0;
            for (uint32_t j = 0; j < v->n; j++) {
                const dim_count *dc = find_dim(all, nd, v->dims[j]);
                if (dc->n > frequent) continue;
                size_t d = (size_t)(dc - all);
                for (size_t q = start[d]; q < start[d + 1]; q++) {
                    uint32_t c = post[q];
                    if (stamp[c] == (uint32_t)i) continue;
                    stamp[c] = (uint32_t)i;
                    cand[nc++] = c;
                }
            }
            uint64_t seen = 0;
            for (size_t q = 0; q < nc; q++) {
                const wn_ce_block *o = &m->blocks[cand[q]];
                if (o->page == b->page || o->page == exclude || o->page >= 64 || (seen >> o->page & 1u)) continue;
                if (wn_ce_cosine(v, &o->vec) > WN_CE_SIMILAR) seen |= 1ull << o->page;
            }
            similar = (uint32_t)__builtin_popcountll(seen);
        }
        content[i] = similar < thr;
    }
    free(all);
    free(start);
    free(fill);
    free(post);
    free(stamp);
    free(cand);
    return 0;
}

int wn_fastce_prepare(const wn_ce_model *m, uint32_t exclude, wn_fastce_template *t)
{
    uint8_t *content = calloc(m->count + 1, 1);
    if (!content) return -1;
    label_blocks(m, exclude, content);
    int rc = build_template(m, content, exclude, t);
    free(content);
    return rc;
}

int wn_ce_model_prepare(wn_ce_model *m)
{
    wn_fastce_template t;
    if (wn_fastce_prepare(m, UINT32_MAX, &t) != 0) return -1;
    wn_fastce_template_free(&m->tmpl);
    m->tmpl = t;
    m->prepared = 1;
    return 0;
}

int wn_fastce_detect(const wn_ce_model *m, const wn_fastce_template *t, const wn_ce_page *p, uint8_t *out)
{
    for (uint32_t k = 0; k < p->count; k++) {
        uint64_t path = p->paths[k];
        if (!bsearch(&path, t->paths, t->npaths, sizeof(uint64_t), cmp_u64)) {
            out[k] = 1;
            continue;
        }
        out[k] = 0;
        /* compare with the stored non-content blocks of the same path */
        size_t lo = 0, hi = t->nnoncontent;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (m->blocks[t->noncontent[mid]].path < path)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t j = lo; j < t->nnoncontent && m->blocks[t->noncontent[j]].path == path; j++)
            if (wn_ce_cosine(&p->vecs[k], &m->blocks[t->noncontent[j]].vec) > WN_CE_SIMILAR) {
                out[k] = 1;
                break;
            }
    }
    return 0;
}
