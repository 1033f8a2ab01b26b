/* The learned unit decision (units.h): each unit's feature row, and the
 * trees' verdict on it. */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dom/tags.h"
#include "../util/token.h"

#define MODEL_MAGIC "winnow-units 1"

static const char *const feature_names[WN_UNIT_NFEAT] = {
    "keep",            /* the rules' decision */
    "in_block",        /* inside the content block */
    "in_block_parent", /* inside the block's parent */
    "in_block_grand",  /* inside its grandparent */
    "log_chars",       /* the unit's own text */
    "log_words",
    "link_share",
    "stop_share",
    "comma_share",
    "code",
    "raw",   /* content value of the text alone */
    "value", /* content value after hints, site and classifier */
    "templ",
    "clf", /* the classifier's P(template), -1 when none */
    "smoothed",
    "boiler",       /* under trusted boilerplate */
    "content_hint", /* under a content landmark */
    "after_marker", /* after a comment marker */
    "depth",
    "position",      /* share of the page's unit text before it */
    "heading_level", /* 1..6 for h1..h6, else 0 */
    "tag_li",
    "tag_cell",
    "tag_p",
    "tag_dd",
    "tag_other",
    "type_article", /* the type the strategy was chosen by (an unsure type reads as article) */
    "type_forum",
    "type_product",
    "type_listing",
    "type_documentation",
    "type_service",
    "type_other",
    "page_kept_share", /* share of the page's unit text kept */
    "block_share",     /* share of the page's unit text in the block */
    "prev_keep",
    "next_keep",
    "prev_value",
    "next_value",
    "parent_kept_share", /* of the other unit text under the parent */
    "grand_kept_share",
    "shape_log_count", /* units of the same tag path on the page */
    "shape_kept_share",
    "log_units",
    "log_images",
    "log_links",
    "self_hint",   /* its own class or id names a hint */
    "parent_list", /* its parent is a list */
    "log_page_chars",
    "after_colon", /* the text before it, or before its list or table, ends with a colon */
};

const char *wn_unit_feature_name(unsigned k) { return k < WN_UNIT_NFEAT ? feature_names[k] : ""; }

static float share(double a, double b) { return b > 0 ? (float)(a / b) : 0.0f; }

typedef struct shape {
    uint64_t path;
    uint32_t unit;
} shape;

static int by_path(const void *a, const void *b)
{
    const shape *x = a, *y = b;
    return x->path < y->path ? -1 : x->path > y->path;
}

/* Whether unit u is kept and shown: the outputs walk the content block
 * and the headline, so a unit kept elsewhere does not come out. */
static int shown(const winnow_doc *d, uint32_t u)
{
    const wn_labels *lb = &d->labels;
    if (!lb->keep[u]) return 0;
    return (lb->container != WN_NONE && wn_node_within(&d->dom, lb->container, u)) ||
           (lb->headline != WN_NONE && wn_node_within(&d->dom, lb->headline, u));
}

/* Whether node i is a unit the step decides: one with text of its own,
 * not the headline (whether the headline comes out is the caller's choice,
 * winnow_options.include_title, which the step leaves alone) and not code
 * (a <pre>: the code selection's passes, code.c, decide code samples; the
 * bench corpora hold too few for the model to learn them). */
static int decided(const winnow_doc *d, const wn_page_scores *ps, uint32_t i)
{
    const wn_labels *lb = &d->labels;
    if (lb->unit[i] != i || ps->own[i].chars == 0) return 0;
    for (uint32_t a = i; a != 0 && a != WN_NONE; a = d->dom.nodes[a].parent)
        if (d->dom.nodes[a].tag == WN_TAG_PRE) return 0;
    if (lb->headline != WN_NONE && wn_node_within(&d->dom, lb->headline, i)) return 0;
    if (ps->title_heading != WN_NONE && wn_node_within(&d->dom, ps->title_heading, i)) return 0;
    return 1;
}

/* What the feature rows of one page read besides the page itself: its
 * units (own text, in document order), the text of units under each node
 * and of the shown ones, and how many units share each unit's tag path. */
typedef struct unit_page {
    uint32_t *units, nu;
    float *cc, *kc;
    uint32_t *shape_count, *shape_kept;
    double total, kept, before; /* before: the units' text ahead of the next row */
    uint32_t c, cp, cg;         /* the content block, its parent and grandparent */
    float block_share;
    int type;
    uint8_t *colon; /* per node: the visible text before it ends with a colon */
} unit_page;

/* Whether text t[0..n), trailing white space trimmed, ends with a colon
 * (ASCII, or the full-width one of CJK text). */
static int ends_with_colon(const char *t, uint32_t n)
{
    if (n && t[n - 1] == ':') return 1;
    return n >= 3 && (unsigned char)t[n - 3] == 0xEF && (unsigned char)t[n - 2] == 0xBC &&
           (unsigned char)t[n - 1] == 0x9A;
}

/* Per node, whether the last text before it that is not white space
 * ends with a colon: prose that introduces what follows ("Many patches
 * were sent for review:"). Text under hidden elements is not read. */
static void colon_flags(const wn_dom *dom, uint8_t *colon)
{
    uint8_t last = 0;
    uint32_t hidden_end = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        colon[i] = last;
        const wn_node *x = &dom->nodes[i];
        if (i < hidden_end) continue;
        if (x->flags & WN_NF_HIDDEN) {
            hidden_end = i + x->size;
            continue;
        }
        if (x->tag != WN_TAG_TEXT) continue;
        const char *t = dom->text + x->text_begin;
        uint32_t n = x->text_len;
        while (n && wn_token_space(t[n - 1])) n--;
        if (n) last = (uint8_t)ends_with_colon(t, n); /* white space alone changes nothing */
    }
}

/* The node whose preceding text introduces unit u: its list or table
 * (up to four levels up: a table cell's paragraph), else u. */
static uint32_t introduced(const wn_dom *dom, uint32_t u)
{
    uint32_t a = u;
    for (int k = 0; k < 4 && a != 0 && a != WN_NONE; k++) {
        a = dom->nodes[a].parent;
        if (a == WN_NONE) break;
        if (wn_tag_has(dom->nodes[a].tag, WN_TF_LIST) || dom->nodes[a].tag == WN_TAG_TABLE) return a;
    }
    return u;
}

/* The units and the page's sums: units in arena a, the rest in the
 * scratch arena. 0, or -1 when out of memory. */
static int unit_page_init(winnow_doc *d, const wn_page_scores *ps, wn_arena *a, unit_page *up)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    const uint32_t n = dom->count;
    wn_arena *s = wn_doc_scratch(d);
    memset(up, 0, sizeof *up);
    uint32_t nu = 0;
    for (uint32_t i = 0; i < n; i++)
        if (decided(d, ps, i)) nu++;
    up->nu = nu;
    if (nu == 0) return 0;
    uint32_t *units = wn_arena_array(a, nu, sizeof *units);
    /* text of units under each node, and of kept units */
    float *cc = wn_arena_array(s, n, sizeof *cc);
    float *kc = wn_arena_array(s, n, sizeof *kc);
    shape *sh = wn_arena_array(s, nu, sizeof *sh);
    uint32_t *shape_count = wn_arena_array(s, nu, sizeof *shape_count);
    uint32_t *shape_kept = wn_arena_array(s, nu, sizeof *shape_kept);
    uint8_t *colon = wn_arena_array(s, n, 1);
    if (!units || !cc || !kc || !sh || !shape_count || !shape_kept || !colon) return -1;
    colon_flags(dom, colon);
    uint32_t k = 0;
    double total = 0, kept = 0;
    const uint32_t c = lb->container;
    for (uint32_t i = 0; i < n; i++) {
        cc[i] = kc[i] = 0;
        if (!decided(d, ps, i)) continue;
        units[k] = i;
        sh[k].path = d->stats[i].path_hash;
        sh[k].unit = k;
        k++;
        cc[i] = (float)ps->own[i].chars;
        kc[i] = shown(d, i) ? cc[i] : 0;
        total += cc[i];
        kept += kc[i];
    }
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        cc[p] += cc[i];
        kc[p] += kc[i];
    }
    /* units of one tag path: a record's parts repeat it */
    qsort(sh, nu, sizeof *sh, by_path);
    for (uint32_t b = 0; b < nu;) {
        uint32_t e = b, nk = 0;
        while (e < nu && sh[e].path == sh[b].path) nk += shown(d, units[sh[e++].unit]);
        for (uint32_t j = b; j < e; j++) {
            shape_count[sh[j].unit] = e - b;
            shape_kept[sh[j].unit] = nk;
        }
        b = e;
    }
    up->units = units;
    up->cc = cc;
    up->kc = kc;
    up->shape_count = shape_count;
    up->shape_kept = shape_kept;
    up->colon = colon;
    up->total = total;
    up->kept = kept;
    up->c = c;
    up->cp = c != WN_NONE && c != 0 ? dom->nodes[c].parent : WN_NONE;
    up->cg = up->cp != WN_NONE && up->cp != 0 ? dom->nodes[up->cp].parent : WN_NONE;
    up->block_share = c != WN_NONE ? share(cc[c], total) : 0.0f;
    up->type = d->page_type_conf >= WN_RULE(d, REGION_MIN_CONFIDENCE) ? d->page_type : WINNOW_PAGE_ARTICLE;
    return 0;
}

/* The feature rows of units j0 to j1 (rows in order: each call goes on
 * from the last one's j1) into x, row by row. */
static void unit_rows(const winnow_doc *d, const wn_page_scores *ps, unit_page *up, uint32_t j0, uint32_t j1, float *x)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    const uint32_t *units = up->units, nu = up->nu, c = up->c, cp = up->cp, cg = up->cg;
    const float *cc = up->cc, *kc = up->kc;
    const double total = up->total;
#define INSIDE(r, i) ((r) != WN_NONE && (i) >= (r) && (i) < (r) + dom->nodes[r].size)
    for (uint32_t j = j0; j < j1; j++) {
        const uint32_t u = units[j];
        const wn_node *nd = &dom->nodes[u];
        const wn_unit_stats *o = &ps->own[u];
        float *f = x + (size_t)(j - j0) * WN_UNIT_NFEAT;
        unsigned t = 0;
        f[t++] = shown(d, u);
        f[t++] = INSIDE(c, u);
        f[t++] = INSIDE(cp, u);
        f[t++] = INSIDE(cg, u);
        f[t++] = logf(1.0f + (float)o->chars);
        f[t++] = logf(1.0f + (float)o->words);
        f[t++] = share(o->link_chars, o->chars);
        f[t++] = share(o->stops, o->words);
        f[t++] = share(o->commas, o->words);
        f[t++] = o->code > 0;
        f[t++] = ps->raw ? ps->raw[u] : 0.0f;
        f[t++] = lb->value[u];
        f[t++] = lb->templ[u];
        f[t++] = lb->clf ? lb->clf[u] : -1.0f;
        f[t++] = lb->smoothed ? lb->smoothed[u] : -1.0f;
        f[t++] = ps->boiler[u] != 0;
        f[t++] = ps->content_hint[u] != 0;
        f[t++] = ps->after_marker[u] != 0;
        f[t++] = (float)(nd->depth < 60 ? nd->depth : 60);
        f[t++] = share(up->before, total);
        up->before += o->chars;
        f[t++] = nd->tag >= WN_TAG_H1 && nd->tag <= WN_TAG_H6 ? (float)(nd->tag - WN_TAG_H1 + 1) : 0.0f;
        f[t++] = nd->tag == WN_TAG_LI;
        f[t++] = nd->tag == WN_TAG_TD || nd->tag == WN_TAG_TH;
        f[t++] = nd->tag == WN_TAG_P;
        f[t++] = nd->tag == WN_TAG_DD || nd->tag == WN_TAG_DT;
        f[t++] = !(nd->tag >= WN_TAG_H1 && nd->tag <= WN_TAG_H6) && nd->tag != WN_TAG_LI && nd->tag != WN_TAG_TD &&
                 nd->tag != WN_TAG_TH && nd->tag != WN_TAG_P && nd->tag != WN_TAG_DD && nd->tag != WN_TAG_DT;
        for (int pt = WINNOW_PAGE_ARTICLE; pt <= WINNOW_PAGE_OTHER; pt++) f[t++] = up->type == pt;
        f[t++] = share(up->kept, total);
        f[t++] = up->block_share;
        f[t++] = j > 0 ? shown(d, units[j - 1]) : 0.0f;
        f[t++] = j + 1 < nu ? shown(d, units[j + 1]) : 0.0f;
        f[t++] = j > 0 ? lb->value[units[j - 1]] : 0.0f;
        f[t++] = j + 1 < nu ? lb->value[units[j + 1]] : 0.0f;
        uint32_t p = nd->parent, g = p != 0 ? dom->nodes[p].parent : 0;
        f[t++] = share(kc[p] - kc[u], cc[p] - cc[u]);
        f[t++] = share(kc[g] - kc[u], cc[g] - cc[u]);
        f[t++] = logf((float)up->shape_count[j]);
        f[t++] = share(up->shape_kept[j], up->shape_count[j]);
        f[t++] = logf((float)nu);
        f[t++] = logf(1.0f + (float)d->stats[u].images);
        f[t++] = logf(1.0f + (float)d->stats[u].links);
        f[t++] = ps->self_hint ? ps->self_hint[u] != 0 : 0.0f;
        f[t++] = wn_tag_has(dom->nodes[p].tag, WN_TF_LIST);
        f[t++] = logf(1.0f + (float)total);
        f[t++] = up->colon[introduced(dom, u)];
        (void)t; /* t == WN_UNIT_NFEAT: the unit test checks the names */
    }
#undef INSIDE
}

void wn_unit_model_predict_rows(const wn_unit_model *m, const float *x, uint32_t rows, float *p)
{
    wn_clf_bucket_margins(&m->trees, x, rows, WN_UNIT_NFEAT, p);
    for (uint32_t r = 0; r < rows; r++) p[r] = (float)(1.0 / (1.0 + exp(-(double)p[r])));
}

float wn_unit_model_predict(const wn_unit_model *m, const float *x)
{
    float p;
    wn_unit_model_predict_rows(m, x, 1, &p);
    return p;
}

void wn_units_decide(const wn_unit_policy *pol, const float *p, const uint8_t *rule, const float *words, uint32_t n,
                     uint8_t *keep)
{
    double kept = 0, dropped = 0, added = 0;
    for (uint32_t j = 0; j < n; j++) {
        keep[j] = p[j] >= (rule[j] ? pol->keep_min : pol->add_min);
        kept += rule[j] ? words[j] : 0;
        dropped += rule[j] && !keep[j] ? words[j] : 0;
        added += !rule[j] && keep[j] ? words[j] : 0;
    }
    /* a model that would drop (add) more than that share of what the rules
     * kept is not believed there */
    if (dropped > pol->max_drop * kept)
        for (uint32_t j = 0; j < n; j++) keep[j] |= rule[j];
    if (added > pol->max_add * kept)
        for (uint32_t j = 0; j < n; j++) keep[j] &= rule[j];
}

/* rows a batch of the model's predictions: the whole page's rows at once
 * would weigh as much as the page (49 floats a unit) */
#define UNIT_BATCH 1024u

int wn_units_learned(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_unit_model *m = d->unit_model;
    if (!d->unit_collect && (!m || WN_RULE(d, UNIT_MODEL) == 0)) return 0;
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(s);
    unit_page up;
    if (unit_page_init(d, ps, d->unit_collect ? &d->arena : s, &up) != 0) return -1;
    const uint32_t nu = up.nu, *units = up.units;
    if (d->unit_collect) {
        /* every row, kept for the trainer */
        float *x = nu ? wn_arena_array(&d->arena, (size_t)nu * WN_UNIT_NFEAT, sizeof *x) : NULL;
        if (nu && !x) return -1;
        if (nu) unit_rows(d, ps, &up, 0, nu, x);
        d->unit_x = x;
        d->unit_nodes = up.units;
        d->nunit_x = nu;
        up.before = 0;
    }
    /* a page with no content block is left as the rules left it (a
     * listing page's, a frame's: its status says so) */
    /* (a page a site model judged keeps its verdicts: the model learned
     * from pages judged alone, as the node classifier runs only there) */
    if (m && WN_RULE(d, UNIT_MODEL) != 0 && nu > 0 && d->labels.container != WN_NONE && d->site_pages == 0) {
        /* a thread's drops are many small ones (a vote count, a badge
         * line, a signature under each post) */
        const int thread = d->page_type == WINNOW_PAGE_FORUM && d->page_type_conf >= WN_RULE(d, REGION_MIN_CONFIDENCE);
        float max_drop = WN_RULE(d, UNIT_MAX_DROP);
        if (thread && WN_RULE(d, UNIT_MAX_DROP_THREAD) > max_drop) max_drop = WN_RULE(d, UNIT_MAX_DROP_THREAD);
        const wn_unit_policy pol = { WN_RULE(d, UNIT_KEEP_MIN), WN_RULE(d, UNIT_ADD_MIN), max_drop,
                                     WN_RULE(d, UNIT_MAX_ADD) };
        float *p = wn_arena_array(s, nu, sizeof *p), *words = wn_arena_array(s, nu, sizeof *words);
        uint8_t *rule = wn_arena_array(s, nu, 1), *k = wn_arena_array(s, nu, 1);
        const uint32_t batch = nu < UNIT_BATCH ? nu : UNIT_BATCH;
        float *x = wn_arena_array(s, (size_t)batch * WN_UNIT_NFEAT, sizeof *x);
        if (!p || !words || !rule || !k || !x) return -1;
        uint8_t *keep = d->labels.keep;
        for (uint32_t j0 = 0; j0 < nu; j0 += batch) {
            const uint32_t j1 = nu - j0 < batch ? nu : j0 + batch;
            unit_rows(d, ps, &up, j0, j1, x);
            wn_unit_model_predict_rows(m, x, j1 - j0, p + j0);
            for (uint32_t j = j0; j < j1; j++) {
                rule[j] = x[(size_t)(j - j0) * WN_UNIT_NFEAT] > 0.5f; /* feature 0: kept and shown */
                words[j] = (float)ps->own[units[j]].words;
            }
        }
        wn_units_decide(&pol, p, rule, words, nu, k);
        /* the content block widens to the units kept outside it (the
         * outputs walk the block and the headline) */
        const wn_dom *dom = &d->dom;
        uint32_t c = d->labels.container;
        for (uint32_t j = 0; j < nu; j++) {
            if (k[j] != rule[j] && d->explain)
                d->explain->sel_why[units[j]] = k[j] ? WN_WHY_UNIT_KEPT : WN_WHY_UNIT_DROPPED;
            keep[units[j]] = k[j];
            if (!k[j] || rule[j]) continue;
            while (c != 0 && !wn_node_within(dom, c, units[j])) c = dom->nodes[c].parent;
        }
        if (c != d->labels.container) {
            d->labels.container = c;
            /* a headline now inside the block comes out in its place */
            if (d->labels.headline != WN_NONE && wn_node_within(dom, c, d->labels.headline))
                d->labels.headline = WN_NONE;
        }
    }
    wn_arena_release(s, mark);
    return 0;
}

/* ---- the model file ---- */

static int number(const char *text, size_t n, size_t *at, double *v)
{
    char tok[64], *e;
    if (!wn_next_token(text, n, at, tok, sizeof tok)) return -1;
    if (wn_clf_plain_decimal(tok, v)) return 0; /* the fast path: most of a model's numbers */
    *v = strtod(tok, &e);
    return *e == '\0' && isfinite(*v) ? 0 : -1;
}

void wn_unit_model_free(wn_unit_model *m)
{
    if (!m) return;
    free(m->trees.tree_start);
    free(m->trees.nodes);
    free(m->trees.flat_feature);
    free(m->trees.flat_threshold);
    free(m->trees.flat_leaf);
    memset(m, 0, sizeof *m);
}

int wn_unit_model_parse(const char *text, size_t n, wn_unit_model *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    size_t ml = strlen(MODEL_MAGIC), at = ml;
    char tok[64];
    double v;
    if (n < ml || memcmp(text, MODEL_MAGIC, ml) || (n > ml && text[ml] != '\n')) {
        snprintf(err, cap, "not a units model (no \"%s\" line)", MODEL_MAGIC);
        return -1;
    }
    /* trained: one line */
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "trained")) goto bad;
    while (at < n && text[at] == ' ') at++;
    size_t e = at;
    while (e < n && text[e] != '\n') e++;
    snprintf(m->trained, sizeof m->trained, "%.*s", (int)(e - at), text + at);
    at = e;
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "features") || number(text, n, &at, &v) ||
        v != WN_UNIT_NFEAT) {
        snprintf(err, cap, "the units model has other features than this build computes");
        return -1;
    }
    for (unsigned k = 0; k < WN_UNIT_NFEAT; k++)
        if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, feature_names[k])) {
            snprintf(err, cap, "the units model's feature %u is not %s", k, feature_names[k]);
            return -1;
        }
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "base_margin") || number(text, n, &at, &v))
        goto bad;
    m->trees.base_margin = (float)v;
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "trees") || number(text, n, &at, &v) || v < 0 ||
        v > 100000 || v != floor(v))
        goto bad;
    m->trees.ntrees = (uint32_t)v;
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "nodes") || number(text, n, &at, &v) || v < 0 ||
        v > 1e7 || v != floor(v))
        goto bad;
    uint32_t nn = (uint32_t)v;
    m->trees.tree_start = calloc((size_t)m->trees.ntrees + 1, sizeof *m->trees.tree_start);
    m->trees.nodes = calloc(nn ? nn : 1, sizeof *m->trees.nodes);
    if (!m->trees.tree_start || !m->trees.nodes) {
        wn_unit_model_free(m);
        snprintf(err, cap, "out of memory");
        return -2;
    }
    uint32_t k = 0;
    for (uint32_t t = 0; t < m->trees.ntrees; t++) {
        /* tree COUNT, then COUNT lines: feature threshold yes no leaf */
        if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "tree") || number(text, n, &at, &v) || v < 1 ||
            v > nn - k || v != floor(v))
            goto bad_free;
        uint32_t len = (uint32_t)v;
        m->trees.tree_start[t] = k;
        for (uint32_t i = 0; i < len; i++, k++) {
            double f, th, yes, no, leaf;
            if (number(text, n, &at, &f) || number(text, n, &at, &th) || number(text, n, &at, &yes) ||
                number(text, n, &at, &no) || number(text, n, &at, &leaf))
                goto bad_free;
            wn_tree_node *nd = &m->trees.nodes[k];
            if (f < -1 || f >= WN_UNIT_NFEAT || f != floor(f)) goto bad_free;
            nd->feature = (int32_t)f;
            nd->threshold = (float)th;
            nd->leaf = (float)leaf;
            if (nd->feature >= 0) {
                /* children inside the tree, after the node: no cycle */
                if (yes <= i || no <= i || yes >= len || no >= len || yes != floor(yes) || no != floor(no))
                    goto bad_free;
                nd->yes = (int32_t)yes;
                nd->no = (int32_t)no;
            }
        }
    }
    m->trees.tree_start[m->trees.ntrees] = k;
    if (k != nn) goto bad_free;
    wn_clf_bucket_finish(&m->trees);
    return 0;
bad_free:
    wn_unit_model_free(m);
bad:
    snprintf(err, cap, "the units model is damaged near byte %zu", at);
    return -1;
}
