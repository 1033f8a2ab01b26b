/* The confidence stage (contract in confidence.h): one pass over the
 * nodes for what was kept and what was left out, the page's status and
 * how the content was chosen, then one dot product and a sigmoid. */
#include "confidence.h"
#include "../util/token.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The features, in the order of the vector and of a model file's header.
 * Counts enter as log1p(count) / scale so that every value is about in
 * [0, 1] (one regularisation strength suits them all); shares and flags
 * as they are. */
/* clang-format off */
#define CONF_FEATURES(X)                                                                                               \
    X(st_partial) X(st_no_content) X(st_no_main) X(st_thin)                                                            \
    X(src_site) X(src_landmark) X(src_description) X(src_unhinted)                                                     \
    X(page_chars) X(kept_chars) X(kept_share) X(page_link_share) X(kept_link_share)                                    \
    X(kept_units) X(kept_unit_words) X(kept_regions) X(kept_punct) X(kept_stops) X(kept_cjk)                           \
    X(kept_value_share) X(left_value) X(kept_value_max_share)                                                          \
    X(clf_none) X(clf_kept) X(clf_left)                                                                                \
    X(headline) X(title) X(date) X(author) X(comments) X(posts) X(noscript) X(container_depth)
/* clang-format on */

#define CONF_ENUM(n) F_##n,
enum { CONF_FEATURES(CONF_ENUM) F_COUNT };
#define CONF_NAME(n) #n,
static const char *const feature_names[F_COUNT] = { CONF_FEATURES(CONF_NAME) };

_Static_assert(F_COUNT <= WN_CONF_MAX_FEATURES, "WN_CONF_MAX_FEATURES too small");

#define NF F_COUNT

unsigned wn_conf_feature_count(void) { return NF; }
const char *wn_conf_feature_name(unsigned k) { return k < NF ? feature_names[k] : ""; }

static float lg(double count, double scale)
{
    float v = (float)(log1p(count) / scale);
    return v > 1.5f ? 1.5f : v;
}

static float share(double part, double whole)
{
    if (!(whole > 0)) return 0;
    double s = part / whole;
    return (float)(s > 1 ? 1 : s < 0 ? 0 : s);
}

static int present(const char *s) { return s && *s; }

int wn_conf_features(winnow_doc *d, float *x)
{
    memset(x, 0, sizeof *x * NF);
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_labels *lb = &d->labels;
    x[F_st_partial] = d->status == WINNOW_PARTIAL;
    x[F_st_no_content] = d->status == WINNOW_NO_CONTENT;
    x[F_st_no_main] = d->status == WINNOW_NO_MAIN;
    x[F_st_thin] = d->status == WINNOW_THIN_MAIN;
    x[F_src_site] = lb->source == WN_SOURCE_SCORER && d->site_pages > 0;
    x[F_src_landmark] = lb->source == WN_SOURCE_LANDMARK;
    x[F_src_description] = lb->source == WN_SOURCE_DESCRIPTION;
    x[F_src_unhinted] = lb->source == WN_SOURCE_UNHINTED;
    double page_chars = dom->count ? st[0].chars : 0;
    x[F_page_chars] = lg(page_chars, 12);
    x[F_page_link_share] = share(dom->count ? st[0].link_chars : 0, page_chars);
    x[F_title] = present(d->meta.field[WINNOW_META_TITLE]);
    x[F_date] = present(d->meta.field[WINNOW_META_DATE]);
    x[F_author] = present(d->meta.field[WINNOW_META_AUTHOR]);
    x[F_comments] = lg((double)d->ncomments, 4);
    x[F_posts] = lg((double)d->nposts, 4);
    x[F_noscript] = d->noscript != 0;
    x[F_headline] = lb->headline != WN_NONE || lb->headline_inline != WN_NONE;
    if (lb->container != WN_NONE && lb->container < dom->count)
        x[F_container_depth] = lg(dom->nodes[lb->container].depth, 4);
    if (!lb->keep || !lb->unit || !dom->count) return 0; /* nothing selected */

    /* each unit's value counted once: a unit's text nodes need not be
     * contiguous (a nested block splits its parent's) */
    wn_arena *scratch = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(scratch);
    uint8_t *seen = wn_arena_calloc(scratch, dom->count, 1);
    if (!seen) return -1;
    double kept = 0, kept_links = 0, words = 0, punct = 0, stops = 0, cjk = 0;
    double value_kept = 0, value_left = 0, value_max = 0, value_kept_max = 0;
    double clf_kept = 0, clf_kept_chars = 0, clf_left = 0, clf_left_chars = 0;
    unsigned units = 0, regions = 0;
    int in_run = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (dom->nodes[i].tag != WN_TAG_TEXT || !st[i].chars) continue;
        const wn_stats *s = &st[i];
        int k = lb->keep[i] != 0;
        if (k) {
            kept += s->chars;
            kept_links += s->link_chars;
            words += s->words;
            punct += s->punct;
            stops += s->stops;
            cjk += s->cjk;
            if (!in_run) regions++;
        }
        in_run = k;
        if (lb->clf && lb->clf[i] >= 0) {
            if (k) {
                clf_kept += (double)lb->clf[i] * s->chars;
                clf_kept_chars += s->chars;
            } else {
                clf_left += (double)lb->clf[i] * s->chars;
                clf_left_chars += s->chars;
            }
        }
        uint32_t u = lb->unit[i];
        if (u >= dom->count || seen[u]) continue;
        seen[u] = 1;
        /* (a unit with kept text counts as kept) */
        double v = lb->value ? lb->value[u] : 0;
        if (k) units++;
        if (!(v > 0)) continue;
        if (k) {
            value_kept += v;
            if (v > value_kept_max) value_kept_max = v;
        } else {
            value_left += v;
        }
        if (v > value_max) value_max = v;
    }
    wn_arena_release(scratch, mark);
    x[F_kept_chars] = lg(kept, 12);
    x[F_kept_share] = share(kept, page_chars);
    x[F_kept_link_share] = share(kept_links, kept);
    x[F_kept_units] = lg(units, 6);
    x[F_kept_unit_words] = units ? lg(words / units, 6) : 0;
    x[F_kept_regions] = lg(regions, 5);
    x[F_kept_punct] = share(punct, words + 1);
    x[F_kept_stops] = share(4 * stops, words + 1);
    x[F_kept_cjk] = share(cjk, words);
    x[F_kept_value_share] = share(value_kept, value_kept + value_left);
    x[F_left_value] = lg(value_left, 10);
    x[F_kept_value_max_share] = value_max > 0 ? share(value_kept_max, value_max) : 0;
    x[F_clf_none] = lb->clf == NULL;
    x[F_clf_kept] = clf_kept_chars > 0 ? (float)(clf_kept / clf_kept_chars) : 0;
    x[F_clf_left] = clf_left_chars > 0 ? (float)(clf_left / clf_left_chars) : 0;
    return 0;
}

double wn_conf_predict(const wn_conf_model *m, const float *x)
{
    double z = m->w[NF];
    for (unsigned f = 0; f < NF; f++) z += m->w[f] * x[f];
    return 1.0 / (1.0 + exp(-z));
}

int wn_confidence_run(winnow_doc *d, const wn_conf_model *m)
{
    d->confidence = -1;
    d->confidence_x = NULL;
    float *x = wn_arena_alloc(&d->arena, sizeof *x * NF);
    if (!x || wn_conf_features(d, x) != 0) return -1;
    d->confidence_x = x;
    if (m && m->loaded) d->confidence = (float)wn_conf_predict(m, x);
    return 0;
}

/* ---- the model file ---- */

#define MODEL_MAGIC "winnow-confidence 1"

size_t wn_conf_model_write(const wn_conf_model *m, const char *trained, char *out, size_t cap)
{
    size_t w = 0;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int k_ = snprintf(out ? out + (w < cap ? w : cap) : NULL, out && w < cap ? cap - w : 0, __VA_ARGS__);          \
        if (k_ > 0) w += (size_t)k_;                                                                                   \
    } while (0)
    PUT("%s\nlabel token_f1>=%.2f\n", MODEL_MAGIC, WN_CONF_LABEL_F1);
    /* what it was trained on: one line, free text */
    if (trained && *trained) {
        PUT("trained ");
        for (const char *p = trained; *p; p++) PUT("%c", *p == '\n' || *p == '\r' ? ' ' : *p);
        PUT("\n");
    }
    PUT("features %u", (unsigned)NF);
    for (unsigned f = 0; f < NF; f++) PUT(" %s", feature_names[f]);
    PUT("\nweights");
    for (unsigned f = 0; f <= NF; f++) PUT(" %.6g", m->w[f]);
    PUT("\n");
#undef PUT
    return w;
}

/* The next whitespace-separated token of text[*at..n) into tok (cut to cap). */
/* Past the rest of the line at *at. */
static void skip_line(const char *text, size_t n, size_t *at)
{
    while (*at < n && text[*at] != '\n') (*at)++;
}

int wn_conf_model_parse(const char *text, size_t n, wn_conf_model *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    size_t ml = strlen(MODEL_MAGIC);
    char tok[64];
    if (n < ml || memcmp(text, MODEL_MAGIC, ml) || (n > ml && text[ml] != '\n')) {
        snprintf(err, cap, "not a confidence model (no \"%s\" line)", MODEL_MAGIC);
        return -1;
    }
    size_t at = ml;
    char label[32];
    snprintf(label, sizeof label, "token_f1>=%.2f", WN_CONF_LABEL_F1);
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "label") ||
        !wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, label)) {
        snprintf(err, cap, "the model's label is not this build's %s", label);
        return -1;
    }
    size_t back = at;
    if (wn_next_token(text, n, &at, tok, sizeof tok) && !strcmp(tok, "trained"))
        skip_line(text, n, &at);
    else
        at = back;
    unsigned nf = 0;
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "features") ||
        !wn_next_token(text, n, &at, tok, sizeof tok) || sscanf(tok, "%u", &nf) != 1 || nf != NF) {
        snprintf(err, cap, "the model has another number of features than this build's %u", (unsigned)NF);
        return -1;
    }
    for (unsigned f = 0; f < NF; f++)
        if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, feature_names[f])) {
            snprintf(err, cap, "the model's feature %u is not this build's %s", f, feature_names[f]);
            return -1;
        }
    if (!wn_next_token(text, n, &at, tok, sizeof tok) || strcmp(tok, "weights")) {
        snprintf(err, cap, "the model has no \"weights\" line");
        return -1;
    }
    for (unsigned f = 0; f <= NF; f++) {
        char *e = NULL;
        double v = 0;
        if (wn_next_token(text, n, &at, tok, sizeof tok)) v = strtod(tok, &e);
        if (!e || e == tok || *e || !isfinite(v)) {
            snprintf(err, cap, "the model's weights are cut short or not numbers");
            return -1;
        }
        m->w[f] = v;
    }
    if (wn_next_token(text, n, &at, tok, sizeof tok)) {
        snprintf(err, cap, "the model has more than its weights (\"%s\")", tok);
        return -1;
    }
    m->loaded = 1;
    return 0;
}
