#include "site_score.h"

#include <string.h>

#include "../blocks/stats.h"

enum { VERDICT_TEMPLATE, VERDICT_UNIQUE, VERDICT_UNDECIDED };

/* One unit's site verdict applied to its value and templateness: template
 * units sink, unique running text rises (SITE_UNIQUE_BOOST), the rest keeps
 * its page value. */
static void apply_verdict(const winnow_doc *d, wn_labels *lb, wn_page_scores *ps, uint32_t u, int verdict,
                          int flag_unique, wn_site_judgement *out, wn_explain *ex, uint8_t why)
{
    uint32_t chars = ps->own[u].chars;
    float c = (float)chars;
    float v = lb->value[u];
    if (verdict == VERDICT_TEMPLATE) {
        v = -c;
        /* explaining: a page-level reason (a name, comments) stays the reason */
        if (ex && !(ps->boiler[u] & ~WN_HINT_SITE)) ex->boil_why[u] = why;
        ps->boiler[u] |= WN_HINT_SITE;
        if (lb->unique) lb->unique[u] = 0;
        out->template_units++;
        out->template_chars += chars;
    } else if (verdict == VERDICT_UNIQUE) {
        if (v > 0) v *= WN_RULE(d, SITE_UNIQUE_BOOST);
        if (flag_unique && lb->unique) lb->unique[u] = 1;
        out->unique_units++;
        out->unique_chars += chars;
    } else {
        out->undecided_units++;
        out->undecided_chars += chars;
    }
    lb->value[u] = v;
    float t = 0.5f - v / (2.0f * c);
    lb->templ[u] = t < 0 ? 0 : (t > 1 ? 1 : t);
}

/* A box of SITE_BOX_MIN_UNITS or more text units of which at least
 * SITE_BOX_TEMPLATE_SHARE of the text is the site's template (a "most
 * popular" list under a fixed heading, a related-stories column) is
 * template as a whole, its changing items too; a box holding
 * SITE_BOX_MAX_SHARE of the page's running text outside the template is the
 * article, whatever recurs in it. */

static int template_boxes(winnow_doc *d, wn_page_scores *ps, const uint8_t *unit_tmpl, wn_site_judgement *out)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    float *tch = wn_arena_calloc(&d->arena, n, sizeof(float));
    float *ch = wn_arena_calloc(&d->arena, n, sizeof(float));
    float *pos = wn_arena_calloc(&d->arena, n, sizeof(float));
    uint32_t *units = wn_arena_calloc(&d->arena, n, sizeof(uint32_t));
    uint8_t *box = wn_arena_calloc(&d->arena, n, 1);
    if (!tch || !ch || !pos || !units || !box) return -1;
    for (uint32_t u = 0; u < n; u++) {
        if (lb->unit[u] != u || ps->own[u].chars == 0) continue;
        ch[u] = (float)ps->own[u].chars;
        if (unit_tmpl[u])
            tch[u] = ch[u];
        else if (lb->value[u] > 0)
            pos[u] = lb->value[u];
        units[u] = 1;
    }
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        tch[p] += tch[i];
        ch[p] += ch[i];
        pos[p] += pos[i];
        units[p] += units[i];
    }
    float total = pos[0] > 1 ? pos[0] : 1;
    const float min_units = WN_RULE(d, SITE_BOX_MIN_UNITS), tmpl_share = WN_RULE(d, SITE_BOX_TEMPLATE_SHARE);
    const float max_share = WN_RULE(d, SITE_BOX_MAX_SHARE);
    for (uint32_t i = 1; i < n; i++) {
        box[i] = box[dom->nodes[i].parent];
        if (box[i] || dom->nodes[i].tag == WN_TAG_TEXT) continue;
        if ((float)units[i] >= min_units && ch[i] > 0 && tch[i] >= tmpl_share * ch[i] && pos[i] < max_share * total)
            box[i] = 1;
    }
    for (uint32_t u = 0; u < n; u++) {
        if (lb->unit[u] != u || ps->own[u].chars == 0 || !box[u] || unit_tmpl[u]) continue;
        apply_verdict(d, lb, ps, u, VERDICT_TEMPLATE, 0, out, d->explain, WN_WHY_SITE_BOX);
    }
    return 0;
}

int wn_site_score(winnow_doc *d, wn_page_scores *ps, const wn_page_signals *sig, const wn_site_model *m, int method,
                  int exclude_self, wn_site_judgement *out)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    memset(out, 0, sizeof *out);
    /* the page's own weight in the counts: left out with exclude_self, else
     * text seen only on this page must still count as unique */
    double own = wn_site_model_self_weight(m, sig->imatch);
    double self = exclude_self ? own : 0.0;
    double unique_below = exclude_self ? 0.5 : own + 0.5;
    double pages = wn_site_model_pages(m) - self;
    out->pages = pages;
    if (pages < 0.5) return 0; /* no other page to compare with */
    /* ">= 10% of the pages and >= 2 pages" (SITE_TEMPLATE_PERCENT,
     * SITE_MIN_PAGES); with fewer than 2 other pages, all of them */
    /* "2 pages" in aged counts: two pages learned a while ago weigh a little
     * under 2, so the bar is 1.5 */
    const double min_pages = WN_RULE(d, SITE_MIN_PAGES);
    double min_df = pages < min_pages ? pages : min_pages - 0.5;
    /* (a percentage: 10 / 100.0 is the very double the literal 0.1 is; 0.1f
     * would not be) */
    const double share = WN_RULE(d, SITE_TEMPLATE_PERCENT) / 100.0;
    /* the page's own occurrence shows nothing about recurrence: in batch
     * mode the bar is min_df pages besides this one, as in leave-one-out */
    double threshold = share * pages > min_df + (self > 0 ? 0 : own) ? share * pages : min_df + (self > 0 ? 0 : own);
    threshold -= 1e-6;

    int use_blocks = method == WINNOW_METHOD_BLOCKS || method == WINNOW_METHOD_AUTO;
    int use_path = method == WINNOW_METHOD_PATH_BLOCKS;
    int use_chunks = method == WINNOW_METHOD_CHUNKS || method == WINNOW_METHOD_AUTO;
    int use_tables = method == WINNOW_METHOD_TABLE_CHUNKS;

    lb->unique = wn_arena_calloc(&d->arena, n, 1);
    uint8_t *unit_tmpl = wn_arena_calloc(&d->arena, n, 1);
    if (!unit_tmpl) return -1;
    uint8_t *tmpl = wn_arena_calloc(&d->arena, n, 1);
    if (!tmpl) return -1;
    int use_ce = method == WINNOW_METHOD_CE || method == WINNOW_METHOD_FASTCE;
    if (use_ce) {
        /* atomic-block verdicts, computed on this page's blocks only */
        const wn_ce_model *ce = &m->ce;
        if (!sig->ce || !ce->pages) return 0;
        uint8_t *non = wn_arena_calloc(&d->arena, (size_t)sig->ce->count + 1, 1);
        if (!non) return -1;
        uint32_t self_page = exclude_self ? wn_ce_model_page_of(ce, sig->imatch) : UINT32_MAX;
        if (method == WINNOW_METHOD_CE) {
            wn_ce_detect(ce, sig->ce, non, self_page);
        } else if (self_page != UINT32_MAX) {
            /* leave-one-out: a template prepared without this page */
            wn_fastce_template t;
            if (wn_fastce_prepare(ce, self_page, &t) != 0) return -1;
            wn_fastce_detect(ce, &t, sig->ce, non);
            wn_fastce_template_free(&t);
        } else {
            const wn_fastce_template *t = wn_site_model_fastce(m);
            if (!t) return -1;
            wn_fastce_detect(ce, t, sig->ce, non);
        }
        for (uint32_t k = 0; k < sig->ce->count; k++) tmpl[sig->ce->units[k]] = non[k];
        for (uint32_t u = 0; u < n; u++) {
            if (lb->unit[u] != u || ps->own[u].chars == 0) continue;
            apply_verdict(d, lb, ps, u, tmpl[u] ? VERDICT_TEMPLATE : VERDICT_UNIQUE, 0, out, d->explain,
                          WN_WHY_SITE_TEMPLATE);
        }
        return 0;
    }
    if (use_blocks || use_path) {
        uint8_t kind = use_path ? WN_KEY_PATH_BLOCK : WN_KEY_BLOCK;
        for (uint32_t k = 0; k < sig->nkeys; k++) {
            const wn_page_key *pk = &sig->keys[k];
            if (pk->kind != kind) continue;
            double df = wn_site_model_df(m, kind, pk->key) - self;
            if (df >= threshold) tmpl[pk->node] = 1;
        }
        /* a block that recurs makes everything inside it template */
        for (uint32_t i = 1; i < n; i++)
            if (tmpl[dom->nodes[i].parent]) tmpl[i] = 1;
    }
    if (use_tables) {
        for (uint32_t i = 0; i < n; i++) {
            if (!sig->table_chunk[i]) continue;
            double df = wn_site_model_df(m, WN_KEY_TABLE_CHUNK, sig->table_chunk[i]) - self;
            if (df >= threshold) tmpl[i] = 1;
        }
    }
    for (uint32_t u = 0; u < n; u++) {
        if (lb->unit[u] != u || ps->own[u].chars == 0) continue;
        int is_template = tmpl[u];
        if (use_tables && !is_template) {
            /* template when all of the unit's text sits in template chunks */
            int any = 0, all = 1;
            for (uint32_t i = u + 1; i < u + dom->nodes[u].size; i++) {
                if (dom->nodes[i].tag != WN_TAG_TEXT || lb->unit[i] != u || !sig->table_chunk[i]) continue;
                any = 1;
                if (!tmpl[i]) all = 0;
            }
            is_template = any && all;
        }
        double df_chunk = sig->unit_chunk[u] ? wn_site_model_df(m, WN_KEY_CHUNK, sig->unit_chunk[u]) - self : 0.0;
        if (use_chunks && df_chunk >= threshold) is_template = 1;
        unit_tmpl[u] = (uint8_t)is_template;
        /* unique: no other page has this text */
        int verdict = is_template ? VERDICT_TEMPLATE : df_chunk < unique_below ? VERDICT_UNIQUE : VERDICT_UNDECIDED;
        apply_verdict(d, lb, ps, u, verdict, 1, out, d->explain, WN_WHY_SITE_TEMPLATE);
    }
    if (template_boxes(d, ps, unit_tmpl, out) != 0) return -1;
    return 0;
}
