/* Regularized tree isotonic regression (Chakrabarti, Kumar & Punera 2007,
 * "Page-level template detection via isotonic smoothing", section 4).
 *
 * Given a rooted tree in pre-order, a score x[i] per node (the classifier's
 * templateness), a distance weight w[i] > 0 and a segment penalty
 * gamma[i] > 0, find y with y[i] >= y[parent[i]] (templateness never
 * decreases going down) minimizing
 *
 *     cost(y) = sum_i gamma[i] * [i is the root or y[i] != y[parent[i]]]
 *             + sum_i w[i] * |x[i] - y[i]|
 *
 * A node whose value differs from its parent's starts a new segment and pays
 * its gamma (the paper's "compressed score"); the root always pays. By the
 * paper's Lemma 3 some optimal y takes only values among the x[i], so the
 * dynamic program runs over a finite, sorted set of candidate levels.
 *
 * The dynamic program (the paper's BUILDERROR / ISOTONESMOOTH): for every
 * node i and every candidate level j of its parent, err(i, j) is the least
 * cost of i's subtree when y[parent(i)] = level j, and val(i, j) the level i
 * takes then. err'(i, l) = w_i |x_i - level l| + gamma_i + sum over children
 * c of err(c, l) is the cost when i starts a segment at level l; then
 * err(i, j) = min(err'(i, j) - gamma_i, min_{l >= j} err'(i, l)): continue
 * the parent's segment, or open a new one at a level no lower. The paper
 * finds the constrained minimum with a heap (O(n^2 log n)); with the levels
 * sorted it is a suffix minimum, so the whole program is O(n * m) time for
 * m levels. Ties go to continuing the parent's segment, as in the paper.
 *
 * Implementation notes. No recursion: parent[i] < i, so a reverse loop is
 * a bottom-up pass and a forward loop a top-down one; trees 100,000 deep
 * are fine. The err rows are not kept per node: a node only needs the sum
 * of its children's rows, and a row is passed up to the parent in place
 * when the parent has no row yet (its last child, which a reverse loop
 * meets first), so a chain of any depth holds one row. Rows alive at once
 * are counted exactly by a cheap pre-pass and allocated once. What must be
 * kept per node is the back-pointer row val(i, .): n * m small integers
 * (one byte each when m <= 256). Costs are summed in double.
 *
 * Memory comes from `scratch` when it is not NULL (it stays allocated until
 * the caller resets the arena), otherwise from malloc, freed before return.
 * No global state: calls are thread-safe on distinct outputs.
 */
#ifndef WN_ISOTONIC_H
#define WN_ISOTONIC_H

#include <stdint.h>

#include "../util/arena.h"

typedef struct wn_iso_tree {
    uint32_t n;             /* nodes; node 0 is the root */
    const uint32_t *parent; /* parent[i] < i for i > 0; parent[0] is ignored */
    const float *x;         /* scores, finite (the page adapter keeps them in [0, 1]) */
    const float *w;         /* distance weights, finite and >= 0 */
    const float *gamma;     /* segment penalties, finite and >= 0 */
} wn_iso_tree;

/* wn_iso_smooth_exact refuses larger trees: its back-pointers take
 * n * (distinct x) 16-bit cells, 32 MiB at this cap. */
#define WN_ISO_EXACT_MAX_NODES 4096u
/* wn_iso_smooth_levels clamps k to this (one-byte back-pointers). */
#define WN_ISO_MAX_LEVELS 256u

/* cost(y) as above, in double. HUGE_VAL when y breaks the constraint
 * y[i] >= y[parent[i]] or the tree is malformed (parent[i] >= i). */
double wn_iso_cost(const wn_iso_tree *t, const float *y);

/* The paper's algorithm with every distinct x value as a candidate level:
 * an optimal y. y gets n values; segment_start (n bytes, may be NULL) gets 1
 * where a node starts a segment: the root, and every node whose value
 * differs from its parent's. Returns 0, or -1 on invalid input (parent[i] >=
 * i, non-finite or negative values), out of memory, or n above
 * WN_ISO_EXACT_MAX_NODES. n == 0 is valid and writes nothing. */
int wn_iso_smooth_exact(const wn_iso_tree *t, float *y, uint8_t *segment_start, wn_arena *scratch);

/* The same program restricted to at most k candidate levels chosen by
 * wn_iso_choose_levels (k is clamped to [1, WN_ISO_MAX_LEVELS]). O(n * k)
 * time; memory n * k bytes of back-pointers plus O(n) for the sort and the
 * node arrays plus k doubles per live row (one row for a chain, at most
 * depth + 1). When the distinct x values number <= k the levels are all of
 * them and the result is exactly optimal; otherwise y is optimal among
 * solutions on those levels, so its cost is never below the exact one.
 * Same outputs and return values as wn_iso_smooth_exact, with no size cap. */
int wn_iso_smooth_levels(const wn_iso_tree *t, uint32_t k, float *y, uint8_t *segment_start, wn_arena *scratch);

/* The candidate levels of wn_iso_smooth_levels, ascending, written to
 * levels (room for k, k clamped as above); returns how many (<= k; 0 when
 * n == 0) or -1 on invalid input or out of memory. Every level is one of
 * the x values (Lemma 3: nothing else can be optimal). The rule:
 *   - D distinct x values <= k: all of them (so the result is exact);
 *   - otherwise the smallest and the largest x (the optimum never leaves
 *     [min x, max x]), then the w-weighted quantiles at the centres of k - 2
 *     equal-weight bins: a segment's optimal value is the weighted median
 *     of its nodes' x, and the cost of rounding it to a level rises fastest
 *     where x is dense, so that is where levels are packed;
 *   - quantiles that land on the same value (a heavy tie) leave slots free;
 *     each goes to the x value nearest the middle of the widest remaining
 *     gap between chosen levels, so sparse stretches of the score range
 *     (small segments with unusual scores) still get a level nearby. */
int wn_iso_choose_levels(const wn_iso_tree *t, uint32_t k, float *levels, wn_arena *scratch);

#endif
