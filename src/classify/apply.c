#include "apply.h"

#include <string.h>

/* scored nodes per block: a multiple of the classifier's row groups */
#define FEATURE_BLOCK 128

void wn_classify_options_default(wn_classify_options *o)
{
    memset(o, 0, sizeof *o);
    o->smooth = 1;
    wn_smooth_options_default(&o->so);
}

int wn_classify_page(winnow_doc *d, wn_page_scores *ps, const wn_classifier *clf, const wn_classify_options *o,
                     const char *url)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    wn_node_features nf;
    wn_feature_rows fr;
    /* the features' per-node tables are scratch, given back once the rows
     * are scored */
    wn_arena *scratch = wn_doc_scratch(d);
    wn_arena_mark scratch_mark = wn_arena_save(scratch);
    if (wn_features_begin(d, ps, url, &clf->nb, scratch, &nf, &fr) != 0) return -1;
    if (nf.count == 0) {
        wn_arena_release(scratch, scratch_mark);
        return 0;
    }
    lb->clf = wn_arena_alloc(&d->arena, (size_t)n * sizeof(float));
    if (!lb->clf) return -1;
    /* rows a block at a time: a block's features stay in cache while the
     * trees read them, and a large page's matrix is never whole */
    float x[FEATURE_BLOCK * WN_NFEAT], p[FEATURE_BLOCK];
    for (uint32_t r0 = 0; r0 < nf.count; r0 += FEATURE_BLOCK) {
        uint32_t r1 = nf.count - r0 < FEATURE_BLOCK ? nf.count : r0 + FEATURE_BLOCK;
        wn_features_rows(&fr, r0, r1, x);
        wn_classifier_predict(clf, x, r1 - r0, p);
        for (uint32_t r = r0; r < r1; r++) lb->clf[nf.node[r]] = p[r - r0];
    }
    for (uint32_t i = 0; i < n; i++)
        if (nf.row_of[i] < 0) lb->clf[i] = -1.0f;
    wn_arena_release(scratch, scratch_mark);

    /* per node templateness: smoothed, or the raw score inherited by
     * unscored nodes from their nearest scored ancestor */
    float *y = wn_arena_alloc(&d->arena, (size_t)n * sizeof(float));
    if (!y) return -1;
    if (o->smooth) {
        lb->smoothed = y;
        lb->segment = wn_arena_calloc(&d->arena, n, 1);
        if (!lb->segment) return -1;
        /* the solution's cost is not used here: not computed. The scores
         * and the solver's scratch (its tree, a row of levels a node) are
         * page arena scratch, given back when it is done */
        wn_arena_mark smooth_mark = wn_arena_save(scratch);
        float *score = wn_arena_alloc(scratch, (size_t)n * sizeof(float));
        if (!score) return -1;
        for (uint32_t i = 0; i < n; i++) score[i] = lb->clf[i] >= 0 ? lb->clf[i] : 0.5f;
        /* the penalty and the minimum area are the page's rules (the
         * caller's levels kept) */
        wn_smooth_options so = o->so;
        so.c = WN_RULE(d, SMOOTH_PENALTY);
        so.min_area = WN_RULE(d, SMOOTH_MIN_AREA);
        if (wn_smooth_page(d, score, &so, scratch, y, lb->segment, NULL) != 0) return -1;
        wn_arena_release(scratch, smooth_mark);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            if (lb->clf[i] >= 0)
                y[i] = lb->clf[i];
            else
                y[i] = i > 0 ? y[dom->nodes[i].parent] : 0.5f;
        }
    }

    /* units: the classifier's verdict moves the heuristic value; the value
     * scale is characters (running text ~ +chars, boilerplate ~ -chars).
     * How far (CLASSIFIER_WEIGHT) was measured on the five evaluation
     * corpora with a model trained without their sites: 0.25 and 0.35 do
     * best, 0.15 gives back half of the gain, 0.5 and above lose on l3s-gn1
     * and readability (the classifier's labels call small unique nodes
     * template more often than the heuristic does) */
    const float wgt = WN_RULE(d, CLASSIFIER_WEIGHT);
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
        float c = (float)ps->own[i].chars;
        float t = y[i];
        float v = (1.0f - wgt) * lb->value[i] + wgt * c * (1.0f - 2.0f * t);
        lb->value[i] = v;
        float tt = 0.5f - v / (2.0f * c);
        lb->templ[i] = tt < 0 ? 0 : (tt > 1 ? 1 : tt);
    }
    return 0;
}
