/* Regularized tree isotonic regression: see isotonic.h for the problem, the
 * recurrence and the memory plan. */
#include "isotonic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ISO_NONE UINT32_MAX

/* ---- allocation: the caller's arena, or malloc blocks freed at the end ---- */

#define ISO_MAX_BLOCKS 16

typedef struct iso_mem {
    wn_arena *arena;
    void *blk[ISO_MAX_BLOCKS];
    int nblk;
} iso_mem;

static void *iso_alloc(iso_mem *m, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    if (bytes == 0) bytes = 1;
    if (m->arena) return wn_arena_alloc(m->arena, bytes);
    if (m->nblk == ISO_MAX_BLOCKS) return NULL; /* more blocks than any path here takes */
    void *p = malloc(bytes);
    if (p) m->blk[m->nblk++] = p;
    return p;
}

static void iso_release(iso_mem *m)
{
    for (int i = 0; i < m->nblk; i++) free(m->blk[i]);
    m->nblk = 0;
}

/* ---- input checks ---- */

static int iso_valid(const wn_iso_tree *t)
{
    if (!t) return 0;
    if (t->n == 0) return 1;
    if (!t->parent || !t->x || !t->w || !t->gamma) return 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (i > 0 && t->parent[i] >= i) return 0;
        /* Negative weights or penalties would make the L1 median argument
         * (Lemma 3) and the tie rule meaningless; NaN would break sorting. */
        if (!isfinite(t->x[i]) || !isfinite(t->w[i]) || !isfinite(t->gamma[i])) return 0;
        if (t->w[i] < 0 || t->gamma[i] < 0) return 0;
    }
    return 1;
}

double wn_iso_cost(const wn_iso_tree *t, const float *y)
{
    if (!t || (t->n && (!y || !t->parent || !t->x || !t->w || !t->gamma))) return HUGE_VAL;
    double c = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (i == 0) {
            c += t->gamma[0];
        } else {
            uint32_t p = t->parent[i];
            if (p >= i || y[i] < y[p]) return HUGE_VAL;
            if (y[i] != y[p]) c += t->gamma[i];
        }
        c += (double)t->w[i] * fabs((double)t->x[i] - (double)y[i]);
    }
    return c;
}

/* ---- sorting the scores: LSD radix sort on order-preserving float keys ----
 *
 * A page can have 200,000 nodes and the sort would otherwise be the largest
 * term after the O(n k) program; four counting passes (fewer when a byte is
 * the same everywhere, as the top byte is for scores in [0, 1]) beat qsort's
 * comparator calls several times over. */

typedef struct iso_kv {
    uint32_t key;
    float w;
} iso_kv;

static uint32_t float_key(float f)
{
    if (f == 0) f = 0.0f; /* -0 and +0 are one value */
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    /* Flip all bits of negatives and the sign bit of positives: unsigned
     * order of the keys is then numeric order of the floats. */
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

static float key_float(uint32_t k)
{
    uint32_t b = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Sorts a (n entries) using tmp; returns whichever buffer holds the result. */
static iso_kv *radix_sort(iso_kv *a, iso_kv *tmp, uint32_t n)
{
    uint32_t cnt[4][256];
    memset(cnt, 0, sizeof cnt);
    for (uint32_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) cnt[b][(a[i].key >> (8 * b)) & 255u]++;
    for (int b = 0; b < 4; b++) {
        uint32_t *c = cnt[b];
        if (c[(a[0].key >> (8 * b)) & 255u] == n) continue; /* one bucket: already in order */
        uint32_t sum = 0;
        for (int v = 0; v < 256; v++) {
            uint32_t k = c[v];
            c[v] = sum;
            sum += k;
        }
        for (uint32_t i = 0; i < n; i++) tmp[c[(a[i].key >> (8 * b)) & 255u]++] = a[i];
        iso_kv *s = a;
        a = tmp;
        tmp = s;
    }
    return a;
}

/* Distinct x values ascending (vals) and their summed weights (wts); returns
 * how many, or -1 out of memory. */
static int64_t iso_distinct(const wn_iso_tree *t, iso_mem *m, float **vals, double **wts)
{
    uint32_t n = t->n;
    iso_kv *a = iso_alloc(m, n, sizeof *a), *tmp = iso_alloc(m, n, sizeof *tmp);
    float *v = iso_alloc(m, n, sizeof *v);
    double *w = iso_alloc(m, n, sizeof *w);
    if (!a || !tmp || !v || !w) return -1;
    for (uint32_t i = 0; i < n; i++) a[i] = (iso_kv){ float_key(t->x[i]), t->w[i] };
    a = radix_sort(a, tmp, n);
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (d > 0 && float_key(v[d - 1]) == a[i].key) {
            w[d - 1] += a[i].w;
        } else {
            v[d] = key_float(a[i].key);
            w[d] = a[i].w;
            d++;
        }
    }
    *vals = v;
    *wts = w;
    return d;
}

/* The level rule documented at wn_iso_choose_levels. out has room for
 * min(k, n) floats; k >= 1. Returns the count or -1 out of memory. */
static int64_t iso_choose(const wn_iso_tree *t, uint32_t k, iso_mem *m, float *out)
{
    if (t->n == 0) return 0;
    float *v;
    double *w;
    int64_t dd = iso_distinct(t, m, &v, &w);
    if (dd < 0) return -1;
    uint32_t d = (uint32_t)dd;
    if (d <= k) {
        memcpy(out, v, (size_t)d * sizeof *v);
        return d;
    }
    if (k > WN_ISO_MAX_LEVELS) return -1; /* idx[] below; callers clamp k */
    double total = 0;
    for (uint32_t i = 0; i < d; i++) total += w[i];

    /* k == 1: one level for the whole tree, so the best is the weighted
     * median of all x (one segment, the root's). */
    if (k == 1) {
        double cum = 0;
        uint32_t i = 0;
        while (i + 1 < d && cum + w[i] < total / 2) cum += w[i++];
        out[0] = v[i];
        return 1;
    }

    uint8_t *sel = iso_alloc(m, d, 1);
    if (!sel) return -1;
    memset(sel, 0, d);
    sel[0] = sel[d - 1] = 1;
    /* Quantiles at the centres of k - 2 equal-weight bins, found in one walk
     * since the targets rise. */
    uint32_t bins = k - 2, i = 0;
    double cum = 0;
    for (uint32_t q = 0; q < bins; q++) {
        double target = total * ((double)q + 0.5) / (double)bins;
        while (i + 1 < d && cum + w[i] < target) cum += w[i++];
        sel[i] = 1;
    }
    /* Chosen indices in order, then fill the free slots gap by gap. */
    uint32_t idx[WN_ISO_MAX_LEVELS], cnt = 0;
    for (uint32_t j = 0; j < d; j++)
        if (sel[j]) idx[cnt++] = j;
    while (cnt < k) {
        uint32_t best = ISO_NONE;
        double gap = -1;
        for (uint32_t a = 0; a + 1 < cnt; a++) {
            if (idx[a + 1] - idx[a] < 2) continue; /* no unchosen value between */
            double g = (double)v[idx[a + 1]] - (double)v[idx[a]];
            if (g > gap) {
                gap = g;
                best = a;
            }
        }
        if (best == ISO_NONE) break;                         /* cannot happen while cnt < k < d */
        uint32_t lo = idx[best] + 1, hi = idx[best + 1] - 1; /* unchosen range [lo, hi] */
        double mid = ((double)v[idx[best]] + (double)v[idx[best + 1]]) / 2;
        /* first value >= mid in [lo, hi], else hi; then the nearer of it and
         * its predecessor */
        uint32_t a = lo, b = hi;
        while (a < b) {
            uint32_t c = a + (b - a) / 2;
            if ((double)v[c] < mid)
                a = c + 1;
            else
                b = c;
        }
        if (a > lo && mid - (double)v[a - 1] <= (double)v[a] - mid) a--;
        memmove(idx + best + 2, idx + best + 1, (size_t)(cnt - best - 1) * sizeof *idx);
        idx[best + 1] = a;
        cnt++;
    }
    for (uint32_t j = 0; j < cnt; j++) out[j] = v[idx[j]];
    return cnt;
}

/* ---- the dynamic program ---- */

/* BUILDERROR's step 4 for one node: e holds err'(i, l) for every level l on
 * entry and err(i, j) on return; row gets val(i, j). Walking j downwards
 * keeps min_{l >= j} err'(i, l) in one running minimum, and err'(i, j) is
 * read before it is overwritten. Two copies so the back-pointer width is
 * fixed inside the loop. */
static void finish_row8(double *e, uint8_t *row, uint32_t m, double g)
{
    double best = HUGE_VAL;
    uint32_t at = m - 1;
    for (uint32_t j = m; j-- > 0;) {
        double v = e[j];
        if (v < best) {
            best = v;
            at = j;
        }
        double cont = v - g; /* stay in the parent's segment: no new penalty */
        if (cont <= best) {
            e[j] = cont;
            row[j] = (uint8_t)j;
        } else {
            e[j] = best;
            row[j] = (uint8_t)at;
        }
    }
}

static void finish_row16(double *e, uint16_t *row, uint32_t m, double g)
{
    double best = HUGE_VAL;
    uint32_t at = m - 1;
    for (uint32_t j = m; j-- > 0;) {
        double v = e[j];
        if (v < best) {
            best = v;
            at = j;
        }
        double cont = v - g;
        if (cont <= best) {
            e[j] = cont;
            row[j] = (uint16_t)j;
        } else {
            e[j] = best;
            row[j] = (uint16_t)at;
        }
    }
}

/* Runs BUILDERROR bottom-up and ISOTONESMOOTH top-down over the sorted
 * levels lev[0..m) (1 <= m <= 65536). Returns 0 or -1 out of memory. */
static int iso_dp(const wn_iso_tree *t, const float *lev, uint32_t m, iso_mem *mem, float *y, uint8_t *seg)
{
    uint32_t n = t->n;
    const uint32_t *par = t->parent;
    int wide = m > 256;
    if ((size_t)n > SIZE_MAX / m) return -1;
    void *bp = iso_alloc(mem, (size_t)n * m, wide ? sizeof(uint16_t) : sizeof(uint8_t));
    uint32_t *slot = iso_alloc(mem, n, sizeof *slot);
    double *levd = iso_alloc(mem, m, sizeof *levd);
    if (!bp || !slot || !levd) return -1;
    /* Distances in double, as wn_iso_cost computes them, so the program's
     * optimum and the reported cost agree to rounding. */
    for (uint32_t j = 0; j < m; j++) levd[j] = lev[j];

    /* Pre-pass: how many err rows are alive at once. A node takes a fresh
     * row when no child handed one up; a row is released when it is added
     * into a parent that already has one. slot[] is a has-row flag here. */
    memset(slot, 0, (size_t)n * sizeof *slot);
    uint32_t live = 0, peak = 0;
    for (uint32_t i = n; i-- > 0;) {
        if (!slot[i] && ++live > peak) peak = live;
        if (i == 0) break;
        if (!slot[par[i]])
            slot[par[i]] = 1;
        else
            live--;
    }
    double *rows = iso_alloc(mem, (size_t)peak * m, sizeof *rows);
    uint32_t *freelist = iso_alloc(mem, peak, sizeof *freelist);
    if (!rows || !freelist) return -1;
    uint32_t nfree = peak;
    for (uint32_t r = 0; r < peak; r++) freelist[r] = r;
    for (uint32_t i = 0; i < n; i++) slot[i] = ISO_NONE; /* now: the node's row, if any */

    uint32_t root_level = 0;
    for (uint32_t i = n; i-- > 0;) {
        double xi = t->x[i], wi = t->w[i], gi = t->gamma[i];
        uint32_t r = slot[i];
        double *e;
        /* err'(i, l) = w_i |x_i - l| + gamma_i + sum of the children's err(c, l) */
        if (r == ISO_NONE) {
            r = freelist[--nfree];
            e = rows + (size_t)r * m;
            for (uint32_t j = 0; j < m; j++) e[j] = wi * fabs(xi - levd[j]) + gi;
        } else {
            e = rows + (size_t)r * m;
            for (uint32_t j = 0; j < m; j++) e[j] += wi * fabs(xi - levd[j]) + gi;
        }
        if (i == 0) {
            /* The root has no parent to continue: it always pays, and takes
             * the level with the least err' (the lowest on ties). */
            for (uint32_t j = 1; j < m; j++)
                if (e[j] < e[root_level]) root_level = j;
            break;
        }
        if (wide)
            finish_row16(e, (uint16_t *)bp + (size_t)i * m, m, gi);
        else
            finish_row8(e, (uint8_t *)bp + (size_t)i * m, m, gi);
        uint32_t p = par[i];
        if (slot[p] == ISO_NONE) {
            slot[p] = r; /* hand the row up in place */
        } else {
            double *pe = rows + (size_t)slot[p] * m;
            for (uint32_t j = 0; j < m; j++) pe[j] += e[j];
            freelist[nfree++] = r;
        }
    }

    /* ISOTONESMOOTH: each node's level from its parent's, in pre-order.
     * slot[] now holds the chosen level index. */
    slot[0] = root_level;
    y[0] = lev[root_level];
    if (seg) seg[0] = 1;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t pl = slot[par[i]];
        uint32_t l = wide ? ((const uint16_t *)bp)[(size_t)i * m + pl] : ((const uint8_t *)bp)[(size_t)i * m + pl];
        slot[i] = l;
        y[i] = lev[l];
        if (seg) seg[i] = l != pl;
    }
    return 0;
}

/* ---- public entry points ---- */

int wn_iso_choose_levels(const wn_iso_tree *t, uint32_t k, float *levels, wn_arena *scratch)
{
    if (!iso_valid(t) || !levels) return -1;
    if (k < 1) k = 1;
    if (k > WN_ISO_MAX_LEVELS) k = WN_ISO_MAX_LEVELS;
    iso_mem m = { scratch, { 0 }, 0 };
    int64_t c = iso_choose(t, k, &m, levels);
    iso_release(&m);
    return (int)c;
}

static int iso_smooth(const wn_iso_tree *t, uint32_t k, float *y, uint8_t *seg, wn_arena *scratch)
{
    if (t->n == 0) return 0;
    iso_mem m = { scratch, { 0 }, 0 };
    int rc = -1;
    float *lev = iso_alloc(&m, k < t->n ? k : t->n, sizeof *lev);
    if (lev) {
        int64_t c = iso_choose(t, k, &m, lev);
        if (c > 0) rc = iso_dp(t, lev, (uint32_t)c, &m, y, seg);
    }
    iso_release(&m);
    return rc;
}

int wn_iso_smooth_exact(const wn_iso_tree *t, float *y, uint8_t *segment_start, wn_arena *scratch)
{
    if (!iso_valid(t) || (t->n && !y) || t->n > WN_ISO_EXACT_MAX_NODES) return -1;
    /* k = n: every distinct value is a level (Lemma 3). */
    return iso_smooth(t, t->n, y, segment_start, scratch);
}

int wn_iso_smooth_levels(const wn_iso_tree *t, uint32_t k, float *y, uint8_t *segment_start, wn_arena *scratch)
{
    if (!iso_valid(t) || (t->n && !y)) return -1;
    if (k < 1) k = 1;
    if (k > WN_ISO_MAX_LEVELS) k = WN_ISO_MAX_LEVELS;
    return iso_smooth(t, k, y, segment_start, scratch);
}
