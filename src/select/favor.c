/* The precision/recall dial (winnow_options.favor, --favor): the last
 * step of the selection, over what the strategy kept. Its rows of the
 * rule table (FAVOR_*) are neutral at their defaults; the presets of
 * src/rules/rules.c set them, with other rows, for precision or recall.
 *
 *   precision  the edges of the kept text are left out: what is not
 *              running text (or is mostly links) before its first and
 *              after its last running text; never all of it
 *   recall     the content block widens by FAVOR_WIDEN_LEVELS ancestors,
 *              every keepable unit there kept, and running text anywhere
 *              outside boilerplate worth FAVOR_RUNNING_MIN_VALUE is kept
 *
 * Reads labels (unit, value, keep, container, headline) and the page
 * scores; writes labels.keep, labels.container, labels.headline. */
#include "passes.h"

/* Whether kept unit i is running text, with a stop or a comma, and not
 * mostly links: a label ("Filed under ...") is not. */
static int running(const winnow_doc *d, const wn_page_scores *ps, uint32_t i)
{
    const wn_unit_stats *o = &ps->own[i];
    return d->labels.value[i] > 0.0f && (float)o->link_chars <= 0.5f * (float)o->chars && o->stops + o->commas > 0;
}

static void favor_precision(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    if (WN_RULE(d, FAVOR_TRIM_EDGES) <= 0.0f) return;
    /* the first and last kept running text: without any, nothing is
     * left out (a page of fragments keeps them) */
    uint32_t first = WN_NONE, last = WN_NONE;
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i && lb->keep[i] && running(d, ps, i)) {
            if (first == WN_NONE) first = i;
            last = i;
        }
    if (first == WN_NONE) return;
    /* before the first: all but headings (the article's own title and
     * subtitle); after the last and its subtree: all */
    const uint32_t end = last + dom->nodes[last].size;
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || !lb->keep[i] || i == lb->headline) continue;
        if ((i < first && !wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING)) || i >= end) {
            lb->keep[i] = 0;
            if (d->explain) d->explain->sel_why[i] = WN_WHY_FAVOR_TRIMMED;
        }
    }
}

static void favor_recall(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    uint32_t c = lb->container;
    if (c == WN_NONE) return;
    int levels = (int)WN_RULE(d, FAVOR_WIDEN_LEVELS);
    if (levels > 0) {
        for (; levels > 0 && c != dom->body && dom->nodes[c].parent != WN_NONE && dom->nodes[c].parent != 0; levels--)
            c = dom->nodes[c].parent;
        for (uint32_t i = c; i < c + dom->nodes[c].size; i++)
            if (lb->unit[i] == i && !lb->keep[i] && lb->value[i] > 0.0f && wn_unit_keepable(d, ps, i)) {
                lb->keep[i] = 1;
                wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_FAVOR_WIDENED);
            }
        lb->container = c;
        /* a headline now inside the block comes out in its place */
        if (lb->headline != WN_NONE && wn_node_within(dom, c, lb->headline)) lb->headline = WN_NONE;
    }
    const float min_value = WN_RULE(d, FAVOR_RUNNING_MIN_VALUE);
    if (min_value >= wn_rule_defs[WN_RULE_FAVOR_RUNNING_MIN_VALUE].off) return; /* off: no walk over the page */
    int added = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || lb->keep[i] || ps->boiler[i] || lb->value[i] < min_value) continue;
        lb->keep[i] = 1;
        wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_FAVOR_RUNNING);
        added = 1;
    }
    /* the walk then covers the whole body, as for lone paragraphs */
    if (added) {
        lb->container = dom->body;
        lb->headline = WN_NONE;
    }
}

void wn_favor(winnow_doc *d, const wn_page_scores *ps)
{
    favor_precision(d, ps);
    favor_recall(d, ps);
}
