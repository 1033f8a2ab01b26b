/* Stage 5: the selection. Runs the page's strategy (strategy.h), then
 * the steps every page shares: a listing page's block dropped, the
 * fallback's second opinion, text nodes following their units, the text
 * of a run straddling the block's start, and each element's
 * templateness. */
#include "passes.h"
#include "strategy.h"
#include "units.h"

#include "../score/records.h"

#include <string.h>

const wn_strategy wn_strategies[] = {
    { "article", wn_select_article, 1, 1 },
    { "region", wn_select_region, 0, 1 },
    { "product", wn_select_product, 0, 1 },
};
const size_t wn_strategy_count = sizeof wn_strategies / sizeof wn_strategies[0];

const wn_strategy *wn_strategy_for(const winnow_doc *d, const wn_page_scores *ps)
{
    (void)ps;
    /* a page made of parts, when the page type stage is sure enough of it
     * (a forced type is sure) */
    if (d->page_type_conf < WN_RULE(d, REGION_MIN_CONFIDENCE)) return &wn_strategies[0];
    switch (d->page_type) {
    case WINNOW_PAGE_PRODUCT: return &wn_strategies[2];
    case WINNOW_PAGE_FORUM:
    case WINNOW_PAGE_LISTING:
    case WINNOW_PAGE_SERVICE:
    case WINNOW_PAGE_DOCUMENTATION: return &wn_strategies[1];
    default: return &wn_strategies[0];
    }
}

/* A listing page (listing.c): its block is one teaser; nothing is the
 * page's own. Else the fallback's second opinion. Returns the block
 * (WN_NONE when none is left), or -1 in *err when out of memory. */
static uint32_t second_opinions(winnow_doc *d, const wn_page_scores *ps, uint32_t best, int include_title,
                                const wn_strategy *strategy, int *err)
{
    wn_labels *lb = &d->labels;
    const uint32_t n = d->dom.count;
    *err = 0;
    lb->teasers = 0;
    if (best != WN_NONE && strategy->listing_test && (lb->teasers = wn_listing_teasers(d, ps)) > 0) {
        if (d->explain)
            for (uint32_t i = 0; i < n; i++)
                if (lb->keep[i] && lb->unit[i] == i) d->explain->sel_why[i] = WN_WHY_LISTING;
        memset(lb->keep, 0, n);
        lb->container = lb->headline = lb->headline_inline = WN_NONE;
        lb->source = WN_SOURCE_LISTING;
        return WN_NONE;
    }
    if (!strategy->fallback)
        lb->source = WN_SOURCE_SCORER;
    else if (wn_fallback(d, ps, include_title) != 0)
        *err = -1;
    return best;
}

/* Characters of the units kept. */
static float kept_own(const winnow_doc *d, const wn_page_scores *ps)
{
    float k = 0.0f;
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (d->labels.keep[i] && d->labels.unit[i] == i) k += (float)ps->own[i].chars;
    return k;
}

/* A page the article strategy kept next to nothing of (less than
 * PARTS_THIN_SHARE of its visible text): a page made of parts (a
 * listing's cards, a landing page's sections) that no type said. Its
 * parts are selected (the region strategy, then the second opinions) and
 * kept when they keep PARTS_GAIN times as many characters, and
 * PARTS_MIN_CHARS at least; else the article's selection is put back. Not
 * on a listing of teasers (listing.c), which has no main content. Returns
 * the block; -1 in *err when out of memory. */
static uint32_t thin_parts(wn_selection *sel, uint32_t best, int *err)
{
    winnow_doc *d = sel->d;
    const wn_page_scores *ps = sel->ps;
    wn_labels *lb = &d->labels;
    const uint32_t n = d->dom.count;
    *err = 0;
    float share = WN_RULE(d, PARTS_THIN_SHARE);
    /* a page the type stage is unsure is an article: a landing page or a
     * listing half taken for one (a forced type is sure) */
    const int unsure = d->page_type == WINNOW_PAGE_ARTICLE   ? d->page_type_conf <= WN_RULE(d, PARTS_UNSURE_CONF)
                       : d->page_type == WINNOW_PAGE_UNKNOWN ? 0 /* (no judgement) */
                                                             : d->page_type_conf < WN_RULE(d, REGION_MIN_CONFIDENCE);
    const float sure_share = share;
    if (share > 0.0f && unsure && WN_RULE(d, PARTS_UNSURE_SHARE) > share) share = WN_RULE(d, PARTS_UNSURE_SHARE);
    const float old = kept_own(d, ps);
    /* (past the share of any article, a story's selection stays when the
     * parts add mostly links: the teasers around a news story are parts
     * too) */
    const int teaser_test = old >= sure_share * (float)d->stats[d->dom.body].chars;
    /* (a section front of teasers has no main content: listing.c) */
    if (share <= 0.0f || lb->source == WN_SOURCE_LISTING || old >= share * (float)d->stats[d->dom.body].chars)
        return best;
    wn_arena *s = wn_doc_scratch(d);
    uint8_t *keep = wn_arena_alloc(s, n);
    uint8_t *why = d->explain ? wn_arena_alloc(s, 2 * (size_t)n) : NULL;
    if (!keep || (d->explain && !why)) {
        *err = -1;
        return best;
    }
    memcpy(keep, lb->keep, n);
    if (why) {
        memcpy(why, d->explain->in_block, n);
        memcpy(why + n, d->explain->sel_why, n);
    }
    wn_labels saved = *lb;
    wn_selection was = *sel;
    memset(lb->keep, 0, n);
    if (why) {
        memset(d->explain->in_block, 0, n);
        memset(d->explain->sel_why, 0, n);
    }
    const wn_strategy *parts = &wn_strategies[1];
    if (parts->select(sel) != 0) {
        *err = -1;
        return best;
    }
    uint32_t b = second_opinions(d, ps, sel->best, sel->include_title, parts, err);
    if (*err) return best;
    /* an article whose body a script loads keeps its headline (and its
     * thin status), not the few related stories around it */
    const float now = kept_own(d, ps);
    float added = 0.0f, added_links = 0.0f;
    for (uint32_t i = 0; teaser_test && i < n; i++)
        if (lb->keep[i] && !keep[i] && lb->unit[i] == i) {
            added += (float)ps->own[i].chars;
            added_links += (float)ps->own[i].link_chars;
        }
    const int teasers =
        teaser_test && old >= WN_RULE(d, PARTS_STORY_CHARS) && added_links > WN_RULE(d, PARTS_UNSURE_LINKS) * added;
    if (!teasers && now >= WN_RULE(d, PARTS_MIN_CHARS) && now >= WN_RULE(d, PARTS_GAIN) * (old > 1.0f ? old : 1.0f))
        return b;
    memcpy(lb->keep, keep, n);
    if (why) {
        memcpy(d->explain->in_block, why, n);
        memcpy(d->explain->sel_why, why + n, n);
    }
    *lb = saved;
    *sel = was;
    return best;
}

/* Element templateness: kept units in [0, .5], dropped ones in [.5, 1],
 * weighted by characters over the subtree. 0, or -1 when out of memory. */
static int element_templateness(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    wn_arena *s = wn_doc_scratch(d);
    float *wsum = wn_arena_array(s, n, sizeof(float));
    float *csum = wn_arena_array(s, n, sizeof(float));
    if (!wsum || !csum) return -1;
    for (uint32_t i = 0; i < n; i++) {
        wsum[i] = csum[i] = 0.0f;
        if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
        float t = lb->templ[i];
        float lab = lb->keep[i] ? 0.5f * t : 0.5f + 0.5f * t;
        csum[i] = (float)ps->own[i].chars;
        wsum[i] = lab * csum[i];
    }
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        wsum[p] += wsum[i];
        csum[p] += csum[i];
    }
    for (uint32_t i = 0; i < n; i++) lb->templ[i] = csum[i] > 0 ? wsum[i] / csum[i] : 1.0f;
    return 0;
}

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    /* every array here is scratch, given back at the end (on failure the
     * pipeline resets the scratch arena) */
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark scratch_mark = wn_arena_save(s);
    wn_selection sel = { d, ps, include_title, NULL, WN_NONE, WN_NONE, WN_NONE, 0 };
    lb->reviews = NULL; /* (the product strategy's, in scratch) */
    sel.score = wn_block_scores(d);
    if (!sel.score) return -1;
    const wn_strategy *strategy = wn_strategy_for(d, ps);
    if (strategy->select(&sel) != 0) return -1;
    int err;
    uint32_t best = second_opinions(d, ps, sel.best, include_title, strategy, &err);
    if (err) return -1;
    if (strategy == &wn_strategies[0]) {
        best = thin_parts(&sel, best, &err);
        if (err) return -1;
    }
    wn_favor(d, ps);
    if (wn_units_learned(d, ps) != 0) return -1;
    /* a headline inside the content block that the block keeps comes out
     * in its place, not before the block as well (a thread's block is
     * often the whole page, its <h1> in it) */
    if (lb->headline != WN_NONE && lb->container != WN_NONE && lb->headline_inline == WN_NONE &&
        wn_node_within(dom, lb->container, lb->headline) && lb->keep[lb->unit[lb->headline]])
        lb->headline = WN_NONE;
    if (lb->source == WN_SOURCE_SCORER && best == WN_NONE)
        lb->source = sel.framed != WN_NONE ? WN_SOURCE_FRAME : WN_SOURCE_NONE;
    /* text nodes follow their unit, except text after a comment marker
     * in a unit that began before it */
    for (uint32_t i = 0; i < n; i++)
        if (dom->nodes[i].tag == WN_TAG_TEXT)
            lb->keep[i] = lb->keep[lb->unit[i]] && !(ps->after_marker[i] && !ps->after_marker[lb->unit[i]]);
    /* an inline headline (kept, not a unit) keeps its own text, not its
     * unit's */
    if (lb->headline_inline != WN_NONE)
        for (uint32_t i = lb->headline_inline; i < lb->headline_inline + dom->nodes[lb->headline_inline].size; i++)
            if (dom->nodes[i].tag == WN_TAG_TEXT) lb->keep[i] = 1;
    if (best != WN_NONE && lb->source == WN_SOURCE_SCORER && wn_keep_straddling(d, ps, best) != 0) return -1;
    if (wn_drop_repeated_blocks(d) != 0) return -1;
    if (element_templateness(d, ps) != 0) return -1;
    lb->reviews = NULL;
    wn_arena_release(s, scratch_mark);
    /* a thread's posts, as records (a thread's text is kept as it is) */
    d->posts = NULL;
    d->nposts = 0;
    if (d->page_type == WINNOW_PAGE_FORUM && wn_thread_posts(d, ps) != 0) return -1;
    return 0;
}
