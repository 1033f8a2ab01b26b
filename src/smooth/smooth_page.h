/* Isotonic smoothing of a page's per-node templateness (Chakrabarti, Kumar &
 * Punera 2007, sections 4 and 5.3): from a processed page and one score per
 * DOM node to smoothed scores that never decrease going down the tree, and
 * the page's segmentation into the subtrees where the smoothed value
 * changes.
 *
 * The tree handed to the solver (src/smooth/isotonic.h):
 *   - nodes: the root (d->dom.body, which is the document node when the page
 *     has no <body>), and every element below it that is visible (not
 *     WN_NF_HIDDEN, nor under a hidden element), has text (d->stats chars >
 *     0) and is not small (chars >= min_area), each under its nearest such
 *     ancestor; text nodes are never tree nodes;
 *   - area: the paper measures rendered area in pixels; winnow does not
 *     render, so a node's area is its content size, A_i = the non-space
 *     characters of its subtree. It tracks rendered area well for text and
 *     ignores images and whitespace, which the classifier scores describe
 *     anyway;
 *   - small nodes (visible elements with text, but chars < min_area) are
 *     "hidden" as in the paper: not tree nodes, their classification unused,
 *     each adding 1 to the distance weight of its nearest kept ancestor
 *     (w_i = 1 + number of small elements folded into i): that node then
 *     counts as that many nodes all with its score;
 *   - penalty gamma_i = c * A / A_i, A the root's area (the paper's final
 *     choice, c = 0.01): splitting is cheap near the root and dear for
 *     small nodes;
 *   - x_i = score[i] clamped to [0, 1] (NaN counts as 0).
 *
 * Outputs are per DOM node: every node (text and hidden nodes too) gets the
 * smoothed value of its nearest tree node at or above it; nodes outside the
 * root's subtree (<head>, and <html> itself) get the root's value.
 * segment_start is 1 exactly on the tree nodes where a segment starts (the
 * root, and where the value changes).
 *
 * Memory: from `scratch` when given (it stays until the caller resets the
 * arena: O(tree nodes * levels) bytes plus O(DOM nodes)); with NULL a private
 * arena is used and freed before return. No global state.
 *
 * Contract: reads the DOM, the statistics and one score per node (the
 * classifier's, d->labels.clf); writes the smoothed scores and segment
 * starts (the caller puts them in d->labels.smoothed and segment). */
#ifndef WN_SMOOTH_PAGE_H
#define WN_SMOOTH_PAGE_H

#include <stdint.h>

#include "../doc.h"
#include "../util/arena.h"
#include "../util/buf.h"
#include "isotonic.h"

typedef struct wn_smooth_options {
    float c;         /* penalty scale, gamma_i = c * A / A_i; default
                         SMOOTH_PENALTY, 0.01 (the paper's) */
    float min_area;  /* elements with fewer characters are folded into an ancestor;
                         default SMOOTH_MIN_AREA, 20, about one line of text, the
                         counterpart of the paper's 2000 square pixels */
    uint32_t levels; /* candidate levels k, 1..256 (default 32). 0: the exact program
                         when the tree has at most WN_ISO_EXACT_MAX_NODES nodes, else
                         the default k */
} wn_smooth_options;

/* the paper's penalty and the minimum area are rows of the rule table
 * (SMOOTH_PENALTY, SMOOTH_MIN_AREA), defined there once: the classifier
 * reads the page's values, these names are the defaults */
#define WN_SMOOTH_DEFAULT_C (wn_rule_defs[WN_RULE_SMOOTH_PENALTY].def)
#define WN_SMOOTH_DEFAULT_MIN_AREA (wn_rule_defs[WN_RULE_SMOOTH_MIN_AREA].def)
#define WN_SMOOTH_DEFAULT_LEVELS 32u

void wn_smooth_options_default(wn_smooth_options *o);

/* The solver's tree for one page (all arrays in the arena passed to
 * wn_smooth_build_tree). */
typedef struct wn_smooth_tree {
    wn_iso_tree iso;  /* n, parent, x, w, gamma: what the solver reads */
    uint32_t *parent; /* the storage behind iso */
    float *x, *w, *gamma;
    uint32_t *dom;  /* tree node -> DOM node (dom[0] is the root) */
    uint32_t *near; /* DOM node -> nearest tree node at or above it,
                               WN_NONE outside the root's subtree */
    uint32_t root;  /* DOM index of the root */
    uint32_t area;  /* A: the root's characters (at least 1) */
} wn_smooth_tree;

/* Builds the tree as described above. score: one float per DOM node. o may
 * be NULL (defaults); arena is required. Returns 0, or -1 on invalid
 * arguments (a page without statistics, c or min_area not finite or c < 0)
 * or out of memory. */
int wn_smooth_build_tree(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *arena,
                         wn_smooth_tree *t);

/* Smooths the page. y_out (d->dom.count floats) gets every DOM node's
 * smoothed score; seg_out (d->dom.count bytes, may be NULL) the segment
 * starts; *cost_out (may be NULL) the cost of the solution. Returns 0 or -1
 * (as wn_smooth_build_tree, or the solver failing). */
int wn_smooth_page(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *scratch, float *y_out,
                   uint8_t *seg_out, double *cost_out);

/* Smooths the page and appends its nested segmentation to out as one JSON
 * object (no trailing newline):
 *   {"root":N,"tree_nodes":N,"levels":K,"cost":C,"segments":[SEG]}
 * with "levels" 0 when the exact program ran, and SEG, one per segment,
 * the root's first, children in document order:
 *   {"node":I,"tag":"div","path":"html.body.div","chars":N,"own_chars":N,
 *    "nodes":N,"score":S,"smoothed":Y,"children":[SEG,...]}
 * node: DOM index of the segment's top node; chars: characters of its
 * subtree; own_chars: those not inside a nested segment; nodes: tree nodes
 * in the segment plus the small elements folded into them (the weight the
 * solver saw); score: their weighted mean classifier score (the solver
 * fits their weighted median); smoothed: the segment's value. Returns 0 or
 * -1 (as wn_smooth_page, or out->oom set). */
int wn_smooth_segments_json(const winnow_doc *d, const float *score, const wn_smooth_options *o, wn_arena *scratch,
                            wn_buf *out);

#endif
