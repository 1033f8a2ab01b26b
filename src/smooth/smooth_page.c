/* Page -> isotonic smoothing tree -> per-node smoothed scores and segments.
 * See smooth_page.h for the mapping and its approximations. */
#include "smooth_page.h"

#include <math.h>
#include <string.h>

void wn_smooth_options_default(wn_smooth_options *o)
{
    o->c = WN_SMOOTH_DEFAULT_C;
    o->min_area = WN_SMOOTH_DEFAULT_MIN_AREA;
    o->levels = WN_SMOOTH_DEFAULT_LEVELS;
}

static float clamp01(float s) { return s > 0 ? (s < 1 ? s : 1) : 0; } /* NaN -> 0 */

int wn_smooth_build_tree(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *arena,
                         wn_smooth_tree *t)
{
    wn_smooth_options def;
    if (!o) {
        wn_smooth_options_default(&def);
        o = &def;
    }
    if (!d || !score || !arena || !t || !d->stats || d->dom.count == 0 || !d->dom.nodes) return -1;
    if (!isfinite(o->c) || o->c < 0 || !isfinite(o->min_area)) return -1;
    memset(t, 0, sizeof *t);
    const wn_dom *dom = &d->dom;
    const wn_node *nodes = dom->nodes;
    uint32_t count = dom->count;
    uint32_t r = dom->body < count ? dom->body : 0;
    uint32_t end = nodes[r].size <= count - r ? r + nodes[r].size : count;
    uint32_t cap = end - r; /* tree nodes are at most the root's subtree */

    t->near = wn_arena_alloc(arena, (size_t)count * sizeof *t->near);
    t->parent = wn_arena_alloc(arena, (size_t)cap * sizeof *t->parent);
    t->x = wn_arena_alloc(arena, (size_t)cap * sizeof *t->x);
    t->w = wn_arena_alloc(arena, (size_t)cap * sizeof *t->w);
    t->gamma = wn_arena_alloc(arena, (size_t)cap * sizeof *t->gamma);
    t->dom = wn_arena_alloc(arena, (size_t)cap * sizeof *t->dom);
    if (!t->near || !t->parent || !t->x || !t->w || !t->gamma || !t->dom) return -1;

    for (uint32_t i = 0; i < r; i++) t->near[i] = WN_NONE;
    for (uint32_t i = end; i < count; i++) t->near[i] = WN_NONE;
    uint32_t area = d->stats[r].chars ? d->stats[r].chars : 1;
    double ca = (double)o->c * area;
    t->root = r;
    t->area = area;

    /* Root: always a tree node, whatever its size; it pays c * A / A = c. */
    uint32_t n = 0;
    t->parent[0] = 0;
    t->x[0] = clamp01(score[r]);
    t->w[0] = 1;
    t->gamma[0] = (float)(ca / area);
    t->dom[0] = r;
    t->near[r] = n++;

    /* One forward pass: a node's parent comes before it, so its parent's
     * nearest tree node is known. hidden_end marks the end of the hidden
     * subtree being crossed (the parser already propagates WN_NF_HIDDEN to
     * descendants; this does not rely on it). */
    uint32_t hidden_end = 0;
    for (uint32_t i = r + 1; i < end; i++) {
        const wn_node *x = &nodes[i];
        uint32_t up = x->parent < count ? t->near[x->parent] : WN_NONE;
        if (up == WN_NONE) up = 0; /* malformed parent link: attach to the root */
        t->near[i] = up;
        if (x->flags & WN_NF_HIDDEN) {
            uint32_t e = x->size <= end - i ? i + x->size : end;
            if (e > hidden_end) hidden_end = e;
        }
        if (i < hidden_end || wn_node_is_text(x) || x->tag == WN_TAG_DOCUMENT) continue;
        uint32_t chars = d->stats[i].chars;
        if (chars == 0) continue;
        if ((float)chars < o->min_area) {
            t->w[up] += 1; /* folded: counts as one more node with up's score */
            continue;
        }
        t->parent[n] = up;
        t->x[n] = clamp01(score[i]);
        t->w[n] = 1;
        t->gamma[n] = (float)(ca / chars);
        t->dom[n] = i;
        t->near[i] = n++;
    }
    t->iso = (wn_iso_tree){ n, t->parent, t->x, t->w, t->gamma };
    return 0;
}

/* Builds and solves; ty/tseg are per tree node, *levels_used is 0 when the
 * exact program ran. */
static int smooth_run(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *a,
                      wn_smooth_tree *t, float **ty, uint8_t **tseg, uint32_t *levels_used)
{
    wn_smooth_options def;
    if (!o) {
        wn_smooth_options_default(&def);
        o = &def;
    }
    if (wn_smooth_build_tree(d, score, o, a, t) != 0) return -1;
    uint32_t n = t->iso.n;
    *ty = wn_arena_alloc(a, (size_t)n * sizeof **ty);
    *tseg = wn_arena_alloc(a, n);
    if (!*ty || !*tseg) return -1;
    if (o->levels == 0 && n <= WN_ISO_EXACT_MAX_NODES) {
        *levels_used = 0;
        return wn_iso_smooth_exact(&t->iso, *ty, *tseg, a);
    }
    uint32_t k = o->levels ? o->levels : WN_SMOOTH_DEFAULT_LEVELS;
    if (k > WN_ISO_MAX_LEVELS) k = WN_ISO_MAX_LEVELS; /* as the solver clamps it */
    *levels_used = k;
    return wn_iso_smooth_levels(&t->iso, k, *ty, *tseg, a);
}

int wn_smooth_page(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *scratch, float *y_out,
                   uint8_t *seg_out, double *cost_out)
{
    if (!y_out) return -1;
    wn_arena local;
    wn_arena *a = scratch;
    if (!a) {
        wn_arena_init(&local);
        a = &local;
    }
    wn_smooth_tree t;
    float *ty;
    uint8_t *tseg;
    uint32_t levels;
    int rc = smooth_run(d, score, o, a, &t, &ty, &tseg, &levels);
    if (rc == 0) {
        for (uint32_t i = 0; i < d->dom.count; i++) {
            uint32_t k = t.near[i];
            y_out[i] = ty[k == WN_NONE ? 0 : k];
            if (seg_out) seg_out[i] = k != WN_NONE && t.dom[k] == i && tseg[k];
        }
        if (cost_out) *cost_out = wn_iso_cost(&t.iso, ty);
    }
    if (!scratch) wn_arena_free(&local);
    return rc;
}

/* ---- segmentation as JSON ---- */

static void emit_segment(wn_buf *out, const winnow_doc *d, uint32_t i, uint32_t own_chars, double nodes, double mean,
                         float smoothed)
{
    char path[1024];
    const wn_node *x = &d->dom.nodes[i];
    size_t pl = wn_node_path(&d->dom, i, path, sizeof path);
    const char *tag = x->name ? x->name : "";
    wn_buf_printf(out, "{\"node\":%u,\"tag\":\"", i);
    wn_buf_json_str(out, tag, strlen(tag));
    wn_buf_puts(out, "\",\"path\":\"");
    wn_buf_json_str(out, path, pl);
    wn_buf_printf(out,
                  "\",\"chars\":%u,\"own_chars\":%u,\"nodes\":%.0f,\"score\":%.4f,\"smoothed\":%.4f,\"children\":[",
                  d->stats[i].chars, own_chars, nodes, mean, (double)smoothed);
}

int wn_smooth_segments_json(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *scratch,
                            wn_buf *out)
{
    if (!out) return -1;
    wn_arena local;
    wn_arena *a = scratch;
    if (!a) {
        wn_arena_init(&local);
        a = &local;
    }
    wn_smooth_tree t;
    float *ty;
    uint8_t *tseg;
    uint32_t levels;
    int rc = smooth_run(d, score, o, a, &t, &ty, &tseg, &levels);
    uint32_t n = rc == 0 ? t.iso.n : 0;
    uint32_t *sid = NULL, *stack = NULL, *nested = NULL;
    double *sx = NULL, *sw = NULL;
    uint8_t *has_child = NULL;
    if (rc == 0) {
        sid = wn_arena_alloc(a, (size_t)n * sizeof *sid);
        stack = wn_arena_alloc(a, (size_t)n * sizeof *stack);
        nested = wn_arena_calloc(a, n, sizeof *nested);
        sx = wn_arena_calloc(a, n, sizeof *sx);
        sw = wn_arena_calloc(a, n, sizeof *sw);
        has_child = wn_arena_alloc(a, n);
        if (!sid || !stack || !nested || !sx || !sw || !has_child) rc = -1;
    }
    if (rc == 0) {
        /* Each tree node's segment (its nearest segment start at or above
         * it), the segment's weighted score sums, and the characters of the
         * segments nested directly inside each one. */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t s = (k == 0 || tseg[k]) ? k : sid[t.parent[k]];
            sid[k] = s;
            sx[s] += (double)t.w[k] * t.x[k];
            sw[s] += t.w[k];
            if (k > 0 && tseg[k]) nested[sid[t.parent[k]]] += d->stats[t.dom[k]].chars;
        }
        wn_buf_printf(out, "{\"root\":%u,\"tree_nodes\":%u,\"levels\":%u,\"cost\":%.6g,\"segments\":[", t.root, n,
                      levels, wn_iso_cost(&t.iso, ty));
        /* Segment starts come in document order; one is nested in another
         * exactly when it lies in that one's DOM subtree. An explicit stack
         * of open segments closes each one when the walk leaves its range. */
        uint32_t top = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (k != 0 && !tseg[k]) continue;
            uint32_t i = t.dom[k];
            while (top > 0) {
                uint32_t open = t.dom[stack[top - 1]];
                if (i - open < d->dom.nodes[open].size) break; /* i inside open's subtree */
                wn_buf_puts(out, "]}");
                top--;
            }
            if (top > 0) {
                if (has_child[top - 1]) wn_buf_putc(out, ',');
                has_child[top - 1] = 1;
            }
            uint32_t chars = d->stats[i].chars;
            uint32_t own = chars > nested[k] ? chars - nested[k] : 0;
            emit_segment(out, d, i, own, sw[k], sw[k] > 0 ? sx[k] / sw[k] : t.x[k], ty[k]);
            stack[top] = k;
            has_child[top] = 0;
            top++;
        }
        while (top-- > 0) wn_buf_puts(out, "]}");
        wn_buf_puts(out, "]}");
        if (out->oom) rc = -1;
    }
    if (!scratch) wn_arena_free(&local);
    return rc;
}
