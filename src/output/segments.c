/* Segmentation output: the page's nested segments after isotonic smoothing
 * (Chakrabarti et al.), with each segment's classifier and smoothed scores.
 * Pages scored without a classifier are segmented on the heuristic
 * scorer's templateness. */
#include <stdlib.h>

#include "../smooth/smooth_page.h"
#include "render.h"

void wn_render_segments(const winnow_doc *d, wn_out *o)
{
    uint32_t n = d->dom.count;
    float *score = malloc(((size_t)n + 1) * sizeof *score);
    if (!score) {
        o->nomem = 1;
        return;
    }
    const wn_labels *lb = &d->labels;
    for (uint32_t i = 0; i < n; i++) {
        float s = lb->clf ? lb->clf[i] : lb->templ[i];
        /* unscored nodes (text, hidden) are not tree nodes: any value */
        score[i] = s >= 0 ? s : 0.5f;
    }
    wn_smooth_options so;
    wn_smooth_options_default(&so);
    /* it fails only when an allocation does (the options are the defaults) */
    if (wn_smooth_segments_json(d, score, &so, NULL, &o->buf) != 0) o->nomem = 1;
    wn_buf_putc(&o->buf, '\n');
    free(score);
    wn_out_flush(o, 1);
}
