/* The final reason of every unit of a page explained (why.h). */
#include "why.h"

#include <string.h>

#include "../doc.h"
#include "page_score.h"

int wn_explain_begin(winnow_doc *d)
{
    size_t n = d->dom.count;
    wn_explain *ex = wn_arena_calloc(&d->arena, 1, sizeof *ex);
    if (!ex) return -1;
    ex->raw_why = wn_arena_calloc(&d->arena, n, 1);
    ex->boil_why = wn_arena_calloc(&d->arena, n, 1);
    ex->sel_why = wn_arena_calloc(&d->arena, n, 1);
    ex->in_block = wn_arena_calloc(&d->arena, n, 1);
    ex->why = wn_arena_calloc(&d->arena, n, 1);
    ex->heur = wn_arena_calloc(&d->arena, n, sizeof(float));
    if (!ex->raw_why || !ex->boil_why || !ex->sel_why || !ex->in_block || !ex->why || !ex->heur) return -1;
    d->explain = ex;
    return 0;
}

void wn_explain_finish(winnow_doc *d)
{
    wn_explain *ex = d->explain;
    const wn_labels *lb = &d->labels;
    if (!ex || !ex->own || !lb->keep) return;
    for (uint32_t u = 0; u < d->dom.count; u++) {
        if (lb->unit[u] != u || ex->own[u].chars == 0) continue;
        uint8_t w;
        if (lb->keep[u])
            w = ex->sel_why[u] ? ex->sel_why[u] : WN_WHY_BEST_BLOCK;
        else if (ex->sel_why[u] == WN_WHY_FALLBACK_INNER)
            w = WN_WHY_FALLBACK_INNER;
        else if (ex->boiler[u])
            w = ex->boil_why[u] ? ex->boil_why[u] : WN_WHY_NAME;
        /* inside a kept subtree, not kept: no running text, and links */
        else if (ex->in_block[u])
            w = ex->heur[u] > 0.0f && lb->value[u] <= 0.0f ? WN_WHY_CLASSIFIER : WN_WHY_LINKS_IN_BLOCK;
        else if (ex->raw_why[u])
            w = ex->raw_why[u];
        else
            w = WN_WHY_OUTSIDE;
        ex->why[u] = w;
    }
}
