/* Stage 5, second opinion: when the selection keeps (nearly) none of the
 * page's running text.
 *
 * The scorer's hints are evidence, not verdicts: a class name such as
 * "subscriber-premium" or "nav-single" on the element that wraps the
 * article sinks the whole article, and what is left to select is a bio, a
 * caption or the headline alone. Such a failure shows as a selection that
 * keeps a small share of the running text of the best block found without
 * any hint. Then independent candidates are tried, each with evidence that
 * does not depend on the names that failed:
 *
 *   1. landmark     the <article>/<main>/role=main/itemprop=articleBody
 *                   element holding the most running text;
 *   2. description  the block around the paragraph that the page's own
 *                   summary (og:description, JSON-LD, <meta>) quotes;
 *   3. unhinted     the best block by text density alone.
 *
 * Reader comments are a class of their own, not a hint that can fail: text
 * under a trusted comment name counts as no running text in the check and
 * in the candidates.
 *
 * Inside the chosen block units are kept by their text alone (running text,
 * or short plain fragments that are not link lists); a boilerplate name
 * inside it still counts, except a name of the kind that sank the block
 * (the parts of a "subscriber" box are "subscriber" boxes too). The first
 * candidate that keeps several times what the selection kept wins; the
 * path taken is reported (winnow_doc_source, "content_source" in JSON).
 *
 * The check costs one pass over the units; the candidates are computed
 * only for a weak selection. */
#include "select.h"

#include "../score/links.h"

#include <string.h>

/* Units kept by their text alone inside candidate c; returns the positive
 * running text they hold. With apply (non-zero: the reason, wn_why, a page
 * explained records), marks them kept. Units in a dialog (shut) are not
 * kept. */
static float keep_by_text(winnow_doc *d, const wn_page_scores *ps, const float *pos0, const uint8_t *shut,
                          uint16_t *inner, uint32_t c, int apply)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint16_t veto = (uint16_t)((ps->boiler[c] | ps->self_hint[c]) & WN_HINT_BOILER);
    float prose = 0.0f;
    uint32_t end = c + dom->nodes[c].size;
    inner[c] = 0;
    for (uint32_t i = c; i < end; i++) {
        const wn_node *x = &dom->nodes[i];
        if (i > c) {
            uint16_t h = (uint16_t)(ps->self_hint[i] & WN_HINT_BOILER & ~veto);
            int trusted = pos0[i] < WN_RULE(d, FALLBACK_INNER_TRUST) * pos0[c];
            inner[i] = (uint16_t)(inner[x->parent] | (trusted ? h : 0));
        }
        if (x->tag == WN_TAG_TEXT || lb->unit[i] != i) continue;
        const wn_unit_stats *o = &ps->own[i];
        if (apply && d->explain) {
            d->explain->in_block[i] = 1;
            if (o->chars && inner[i] && !(ps->boiler[i] & (WN_HINT_SCRIPT | WN_HINT_COMMENT)))
                d->explain->sel_why[i] = WN_WHY_FALLBACK_INNER;
        }
        if (o->chars == 0 || inner[i] || shut[i] || (ps->boiler[i] & (WN_HINT_SCRIPT | WN_HINT_COMMENT))) continue;
        float r = ps->raw[i];
        if (r <= 0.0f && wn_mostly_links(d, o->link_chars, o->chars)) continue;
        if (r > 0.0f) prose += r;
        if (apply) {
            lb->keep[i] = 1;
            if (d->explain) d->explain->sel_why[i] = (uint8_t)apply;
        }
    }
    return prose;
}

/* The unit whose text quotes the most of the description's first words. */
static uint32_t description_unit(const winnow_doc *d, const wn_page_scores *ps, const char *desc)
{
    enum { DESC_WORDS = 24, UNIT_WORDS = 256 };
    uint64_t dw[DESC_WORDS], uw[UNIT_WORDS];
    size_t nd = wn_words_of(desc, strlen(desc), dw, DESC_WORDS);
    if ((float)nd < WN_RULE(d, FALLBACK_DESC_MIN_WORDS)) return WN_NONE;
    const wn_dom *dom = &d->dom;
    uint32_t best = WN_NONE;
    size_t best_shared = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (d->labels.unit[i] != i || ps->raw[i] <= 0.0f) continue;
        const wn_stats *s = &d->stats[i];
        size_t nu = wn_words_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, uw, UNIT_WORDS);
        size_t shared = wn_words_shared(dw, nd, uw, nu);
        if (shared > best_shared) {
            best_shared = shared;
            best = i;
        }
    }
    return (float)best_shared >= WN_RULE(d, FALLBACK_DESC_SHARE) * (float)nd ? best : WN_NONE;
}

int wn_fallback(winnow_doc *d, const wn_page_scores *ps, int include_title)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    lb->source = WN_SOURCE_SCORER;

    /* a shop's reviews are a product page's reader comments: the product
     * strategy left them out, and they are no running text here either */
    const uint8_t *reviews = lb->reviews;
    /* what the selection kept, against all the running text: no block
     * holds more, so most pages are done here, before any array is made.
     * On a thread the posts are the content whatever their names (a
     * "replies" box holds them): the selection kept them on purpose
     * (region.c), and they count as running text here */
    const uint16_t comments = d->page_type == WINNOW_PAGE_FORUM ? 0 : WN_HINT_COMMENT;
    float kept = 0.0f, all = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || ps->raw[i] <= 0.0f || (ps->boiler[i] & comments) || (reviews && reviews[i])) continue;
        all += ps->raw[i];
        if (lb->keep[i]) kept += ps->raw[i];
    }
    if (all < WN_RULE(d, FALLBACK_MIN_PROSE) || kept >= WN_RULE(d, FALLBACK_WEAK_SHARE) * all) return 0;
    /* the best block by text alone; comments stay what they are */
    float *pos0 = wn_arena_calloc(wn_doc_scratch(d), n, sizeof(float));
    float *score0 = wn_arena_calloc(wn_doc_scratch(d), n, sizeof(float));
    /* dialogs wait to be opened: their text is no candidate's; nor is a
     * shop's reviews' */
    uint8_t *shut = wn_arena_calloc(wn_doc_scratch(d), n, 1);
    if (!pos0 || !score0 || !shut) return -1;
    const int dialogs = WN_RULE(d, FALLBACK_SKIP_DIALOGS) > 0.0f;
    for (uint32_t i = 1; i < n; i++)
        shut[i] = shut[dom->nodes[i].parent] || (reviews && reviews[i]) ||
                  (dialogs && dom->nodes[i].tag != WN_TAG_TEXT && wn_node_dialog(dom, i));
    for (uint32_t i = 0; i < n; i++)
        if (lb->unit[i] == i && !shut[i]) {
            float r = (ps->boiler[i] & WN_HINT_COMMENT) ? -(float)ps->own[i].chars : ps->raw[i];
            score0[i] = r;
            pos0[i] = r > 0.0f ? r : 0.0f;
        }
    const float decay = WN_RULE(d, SELECT_DECAY);
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        score0[p] += decay * score0[i];
        pos0[p] += pos0[i];
    }
    /* the page's own header and footer are the site's, whatever their
     * names: no candidate lies there */
    const uint8_t *frame = WN_RULE(d, FRAME_MAX_SHARE) > 0.0f ? wn_frame_marks(d, ps) : NULL;
    if (WN_RULE(d, FRAME_MAX_SHARE) > 0.0f && !frame) return -1;
    uint32_t best0 = WN_NONE;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN) || (frame && frame[i]) || shut[i]) continue;
        if (best0 == WN_NONE || score0[i] > score0[best0]) best0 = i;
    }
    if (best0 == WN_NONE || score0[best0] <= 0.0f) return 0;
    float prose0 = pos0[best0];
    if (prose0 < WN_RULE(d, FALLBACK_MIN_PROSE) || kept >= WN_RULE(d, FALLBACK_WEAK_SHARE) * prose0) return 0;

    float need = WN_RULE(d, FALLBACK_GAIN) * kept;
    if (need < WN_RULE(d, FALLBACK_MIN_PROSE)) need = WN_RULE(d, FALLBACK_MIN_PROSE);
    uint16_t *inner = wn_arena_alloc(wn_doc_scratch(d), (size_t)n * sizeof(uint16_t));
    if (!inner) return -1;

    uint32_t chosen = WN_NONE;
    wn_source how = WN_SOURCE_SCORER;
    /* 1. the landmark element with the most running text */
    float best_prose = 0.0f;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || pos0[i] < need || !ps->landmark[i]) continue;
        float p = keep_by_text(d, ps, pos0, shut, inner, i, 0);
        if (p >= need && p > best_prose) {
            best_prose = p;
            chosen = i;
            how = WN_SOURCE_LANDMARK;
        }
    }
    /* 2. the block around the paragraph the description quotes */
    const char *desc = d->meta.field[WINNOW_META_DESCRIPTION];
    if (chosen == WN_NONE && desc && *desc) {
        uint32_t u = description_unit(d, ps, desc);
        /* its best-scoring ancestor; for a paragraph under a name that
         * sank it, within the element that bears the name */
        uint32_t top = WN_NONE;
        int vetoed = u != WN_NONE && ps->boiler[u];
        for (uint32_t a = u; a != WN_NONE && a != 0; a = dom->nodes[a].parent) {
            if (vetoed && !ps->boiler[a]) break;
            if (top == WN_NONE || score0[a] > score0[top]) top = a;
        }
        if (top != WN_NONE && !(frame && frame[top]) && keep_by_text(d, ps, pos0, shut, inner, top, 0) >= need) {
            chosen = top;
            how = WN_SOURCE_DESCRIPTION;
        }
    }
    /* 3. the best block by text alone */
    if (chosen == WN_NONE) {
        if (keep_by_text(d, ps, pos0, shut, inner, best0, 0) >= need) {
            chosen = best0;
            how = WN_SOURCE_UNHINTED;
        }
    }
    if (chosen == WN_NONE) return 0;

    memset(lb->keep, 0, n);
    if (d->explain) {
        memset(d->explain->in_block, 0, n);
        memset(d->explain->sel_why, 0, n);
    }
    keep_by_text(d, ps, pos0, shut, inner, chosen,
                 how == WN_SOURCE_LANDMARK      ? WN_WHY_FALLBACK_LANDMARK
                 : how == WN_SOURCE_DESCRIPTION ? WN_WHY_FALLBACK_DESCRIPTION
                                                : WN_WHY_FALLBACK_UNHINTED);
    lb->container = chosen;
    lb->headline = WN_NONE;
    lb->headline_inline = WN_NONE;
    lb->source = how;
    if (include_title) wn_keep_headline(d, chosen);
    return 0;
}
