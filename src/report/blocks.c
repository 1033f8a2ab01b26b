/* What the report says about each block: its verdict, reason and sums,
 * worked out bottom-up over the block tree (wn_report_block_infos), and
 * written as the data-wn-* attributes the hover box shows
 * (wn_report_block_attrs). */
#include "report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../site/signals.h"

static const char *const hint_names[16] = { "nav",     "header", "footer",  "sidebar", "comment", "share",
                                            "related", "ad",     "overlay", "meta",    "content", "title",
                                            "site",    "mixed",  "gallery", "script" };

static void hint_list(rout *o, uint16_t h)
{
    int first = 1;
    for (int k = 0; k < 16; k++)
        if (h & (1u << k)) {
            wn_buf_printf(&o->b, "%s%s", first ? "" : " ", hint_names[k]);
            first = 0;
        }
}

/* Verdicts, reasons and sums of every block, bottom-up over the block
 * tree: a block's class is the one of the most characters among its
 * units with its keep state (kept: content; left out: the class of their
 * reasons), its reason that of the largest such unit. */
blockinfo *wn_report_block_infos(const winnow_doc *d, const wn_site_model *m, double threshold)
{
    const wn_dom *dom = &d->dom;
    const wn_explain *ex = d->explain;
    const wn_labels *lb = &d->labels;
    uint32_t n = dom->count, nb = d->nblocks;
    blockinfo *bi = calloc((size_t)nb + 1, sizeof *bi);
    int32_t *blk = malloc((size_t)n * sizeof *blk);
    /* per block and class: characters, and the largest unit */
    double *mass = calloc(((size_t)nb + 1) * V_N, sizeof *mass);
    uint32_t *top = malloc(((size_t)nb + 1) * V_N * sizeof *top);
    if (!bi || !blk || !mass || !top) {
        free(bi), free(blk), free(mass), free(top);
        return NULL;
    }
    for (size_t k = 0; k < ((size_t)nb + 1) * V_N; k++) top[k] = WN_NONE;
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (next < nb && d->blocks[next] == i)
            blk[i] = (int32_t)next++;
        else
            blk[i] = i ? blk[dom->nodes[i].parent] : -1;
    }
    for (uint32_t u = 0; u < n; u++) {
        if (lb->unit[u] != u || !ex || !ex->own || ex->own[u].chars == 0 || blk[u] < 0) continue;
        size_t k = (size_t)blk[u];
        int v = lb->keep[u] ? V_CONTENT : verdict_of_class(wn_why_defs[ex->why[u]].cls);
        size_t at = k * V_N + (size_t)v;
        mass[at] += ex->own[u].chars;
        if (top[at] == WN_NONE || ex->own[top[at]].chars < ex->own[u].chars) top[at] = u;
        bi[k].heur += ex->heur[u];
        bi[k].value += lb->value[u];
    }
    /* children before parents: blocks in reverse document order */
    for (uint32_t k = nb; k-- > 0;) {
        long p = d->block_parent[k];
        if (p < 0) continue;
        for (int s = 0; s < V_N; s++) {
            size_t a = (size_t)k * V_N + (size_t)s, b = (size_t)p * V_N + (size_t)s;
            mass[b] += mass[a];
            if (top[a] != WN_NONE && (top[b] == WN_NONE || ex->own[top[b]].chars < ex->own[top[a]].chars))
                top[b] = top[a];
        }
        bi[p].heur += bi[k].heur;
        bi[p].value += bi[k].value;
    }
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t i = d->blocks[k];
        const double *ms = mass + (size_t)k * V_N;
        const uint32_t *tp = top + (size_t)k * V_N;
        if (lb->templ[i] < 0.5) {
            bi[k].verdict = V_CONTENT;
            bi[k].why = tp[V_CONTENT] != WN_NONE && ex ? ex->why[tp[V_CONTENT]] : WN_WHY_BEST_BLOCK;
        } else {
            int best = V_TEMPLATE;
            for (int v = V_TEMPLATE; v < V_N; v++)
                if (ms[v] > ms[best]) best = v;
            bi[k].verdict = (uint8_t)best;
            /* a block whose units were all kept and yet scores 0.5 (a
             * headline the site model finds on other pages): the reason
             * its text was kept for */
            uint32_t u = tp[best] != WN_NONE ? tp[best] : tp[V_CONTENT];
            bi[k].why = u != WN_NONE && ex ? ex->why[u] : WN_WHY_OUTSIDE;
        }
        bi[k].df = -1.0;
        if (m && d->stats[i].fingerprint) {
            bi[k].df = wn_site_model_df(m, WN_KEY_BLOCK, d->stats[i].fingerprint);
            long p = d->block_parent[k];
            bi[k].badge = threshold > 0 && bi[k].df + 1e-9 >= threshold && (p < 0 || !bi[p].badge);
        } else if (m) {
            bi[k].df = 0.0;
        }
    }
    free(blk);
    free(mass);
    free(top);
    return bi;
}

static void fmt_num(char *out, size_t cap, const char *fmt, double v)
{
    if (!isfinite(v))
        snprintf(out, cap, "-");
    else
        snprintf(out, cap, fmt, v);
}

void wn_report_block_attrs(rout *o, const winnow_doc *d, uint32_t k, const blockinfo *b, double pages)
{
    uint32_t i = d->blocks[k];
    const wn_stats *s = &d->stats[i];
    const wn_why_def *w = &wn_why_defs[b->why];
    char num[64];
    wn_buf_printf(&o->b, " data-wn-i=\"%u\" data-wn-v=\"%s\" data-wn-why=\"%s\" data-wn-rule=\"%s\" data-wn-path=\"", k,
                  verdict_key[b->verdict], w->name, w->rule ? w->rule : "");
    esc_s(o, d->block_path[k], 1);
    wn_buf_printf(&o->b, "\" data-wn-chars=\"%u\" data-wn-ld=\"%.2f\" data-wn-hints=\"", s->chars,
                  s->chars ? (double)s->link_chars / s->chars : 0.0);
    hint_list(o, d->explain && d->explain->self_hint ? d->explain->self_hint[i] : s->hints);
    puts_(o, "\" data-wn-trusted=\"");
    if (d->explain && d->explain->boiler) hint_list(o, d->explain->boiler[i]);
    fmt_num(num, sizeof num, "%.1f", b->heur);
    wn_buf_printf(&o->b, "\" data-wn-heur=\"%s\"", num);
    fmt_num(num, sizeof num, "%.1f", b->value);
    wn_buf_printf(&o->b, " data-wn-value=\"%s\"", num);
    const wn_labels *lb = &d->labels;
    if (lb->clf && lb->clf[i] >= 0)
        wn_buf_printf(&o->b, " data-wn-clf=\"%.3f\"", lb->clf[i]);
    else
        wn_buf_printf(&o->b, " data-wn-clf=\"%s\"", lb->clf ? "not scored" : "no classifier ran");
    if (lb->smoothed) wn_buf_printf(&o->b, " data-wn-smooth=\"%.3f\"", lb->smoothed[i]);
    wn_buf_printf(&o->b, " data-wn-t=\"%.3f\"", lb->templ[i]);
    if (b->df >= 0)
        wn_buf_printf(&o->b, " data-wn-df=\"%.1f of %.1f pages (%.0f%%)\"", b->df, pages,
                      pages > 0 ? 100.0 * b->df / pages : 0.0);
    if (b->badge)
        wn_buf_printf(&o->b, " data-wn-badge=\"df %.1f \xC2\xB7 %.0f%%\"", b->df,
                      pages > 0 ? 100.0 * b->df / pages : 0.0);
}
