/* The pipeline behind the public API: decode -> parse -> statistics ->
 * page scores -> labels, with metadata and the block list on the side
 * (pipeline.h lists the stages). One function per step; each step returns
 * WINNOW_OK or the failure it recorded on the engine. */
#include "pipeline.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "../blocks/list.h"
#include "../classify/apply.h"
#include "../confidence/confidence.h"
#include "../pagetype/pagetype.h"
#include "../parse/parser.h"
#include "../score/page_score.h"
#include "../score/site_score.h"
#include "../score/why.h"
#include "../select/select.h"
#include "../site/model.h"
#include "../site/signals.h"

/* What a freed page's arena keeps for the next page (winnow_doc_free) */
#define ARENA_KEEP ((size_t)256 << 20)
/* and of the scratch arena: a stage's temporaries on an ordinary page
 * (a large page's, given back before its text is rendered) */
#define SCRATCH_KEEP ((size_t)4 << 20)

/* Auto mode: the model is used when the site has min_pages pages counted
 * (besides this page, when it is left out). */
static int site_applies(const wn_site_model *m, const winnow_site_options *opt, const wn_page_signals *sig)
{
    if (!m || opt->mode == WINNOW_MODE_PAGE) return 0;
    if (opt->mode == WINNOW_MODE_SITE) return 1;
    unsigned min_pages = opt->min_pages ? opt->min_pages : 5;
    double counted = m->clock;
    if (opt->exclude_self && wn_site_model_self_weight(m, sig->imatch) > 0) counted -= 1.0;
    return counted + 1e-9 >= (double)min_pages;
}

static const char *arena_str(wn_arena *a, const char *s, int *oom)
{
    if (!s) return NULL;
    const char *c = wn_arena_strndup(a, s, strlen(s));
    if (!c) *oom = 1;
    return c;
}

/* The caller's word on where the page came from, kept with the document. */
static int copy_source(winnow_doc *d, const winnow_input *in)
{
    int oom = 0;
    d->src_record = -1;
    d->src_url = arena_str(&d->arena, in->url, &oom);
    if (in->source) {
        d->src_file = arena_str(&d->arena, in->source->file, &oom);
        d->src_record_id = arena_str(&d->arena, in->source->record_id, &oom);
        d->src_record = in->source->record >= 0 ? in->source->record : -1;
    }
    return oom ? -1 : 0;
}

/* The caller's input as this library's structures: in and its source,
 * read as far as their struct_size goes (util/structs.h). */
static winnow_status read_input(winnow_engine *e, const winnow_input *caller, winnow_input *in, winnow_source *src)
{
    if (!caller) return wn_engine_fail(e, WINNOW_E_ARG, "no input given");
    memset(in, 0, sizeof *in);
    if (wn_struct_in(in, sizeof *in, caller, WN_INPUT_V1) != 0)
        return wn_engine_fail(e, WINNOW_E_ARG,
                              "winnow_input.struct_size is not sizeof (winnow_input) of a "
                              "winnow.h this library reads");
    if (in->source) {
        memset(src, 0, sizeof *src);
        src->record = -1;
        if (wn_struct_in(src, sizeof *src, in->source, WN_SOURCE_V1) != 0)
            return wn_engine_fail(e, WINNOW_E_ARG,
                                  "winnow_source.struct_size is not sizeof (winnow_source) of a "
                                  "winnow.h this library reads");
        in->source = src;
    }
    return WINNOW_OK;
}

/* The input's size against the engine's limit. */
static winnow_status check_size(winnow_engine *e, const winnow_input *in)
{
    if (!in->data && in->len) return wn_engine_fail(e, WINNOW_E_ARG, "no input given");
    if (in->len == 0) return wn_engine_fail(e, WINNOW_E_EMPTY, "input is empty (0 bytes)");
    if (in->len > e->opt.max_input_bytes || in->len >= UINT32_MAX / 4) {
        char msg[160];
        snprintf(msg, sizeof msg, "input is %zu bytes, over the limit of %zu bytes", in->len,
                 e->opt.max_input_bytes < UINT32_MAX / 4 ? e->opt.max_input_bytes : (size_t)UINT32_MAX / 4);
        return wn_engine_fail(e, WINNOW_E_TOO_LARGE, msg);
    }
    return WINNOW_OK;
}

/* A new page on the engine's spare buffers, with the caller's source. */
static winnow_status new_doc(winnow_engine *e, const winnow_input *in, winnow_doc **out)
{
    winnow_doc *d = calloc(1, sizeof *d);
    if (!d) return wn_engine_fail(e, WINNOW_E_NOMEM, NULL);
    d->engine = e;
    d->rules = &e->rules;
    d->scratch = &e->scratch;
    if (e->have_spare) {
        d->arena = e->spare_arena;
        d->utf8 = e->spare_utf8;
        e->have_spare = 0;
    } else {
        wn_arena_init(&d->arena);
        wn_buf_init(&d->utf8);
    }
    /* the caller's URL first: the scorer's teaser test reads the page's host */
    if (copy_source(d, in) != 0) {
        winnow_doc_free(d);
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while copying the page's source");
    }
    *out = d;
    return WINNOW_OK;
}

/* The characters of text (not white space) the parsed page shows, counted
 * up to max. */
static float shown_chars(const winnow_doc *d, float max)
{
    size_t shown = 0;
    for (size_t i = 0; i < d->dom.text_len && (float)shown < max; i++) shown += (unsigned char)d->dom.text[i] > ' ';
    return (float)shown;
}

/* A page whose content a script shows once it has loaded (React's
 * streamed <div hidden>, a wrapper at visibility:hidden until the styles
 * load): when the parsed page shows less than HIDDEN_MAX_TEXT characters
 * and skipped such elements, it is parsed again with them built, and that
 * parse is kept when it shows HIDDEN_MIN_RATIO times the text (else the
 * page is parsed as it was). *rules gets show_hidden when it is kept. */
static wn_parse_status hidden_parse(winnow_engine *e, winnow_doc *d, const char *text, size_t text_len,
                                    wn_parse_rules *rules)
{
    const float max_text = WN_RULE(d, HIDDEN_MAX_TEXT);
    if (max_text <= 0.0f || !wn_parser_script_hidden(e->parser)) return WN_PARSE_OK;
    float shown = shown_chars(d, max_text);
    if (shown >= max_text) return WN_PARSE_OK;
    const float need = WN_RULE(d, HIDDEN_MIN_RATIO) * (shown > 0.0f ? shown : 1.0f);
    for (int show = 1; show >= 0; show--) {
        rules->show_hidden = show;
        wn_parser_reclaim(e->parser, d->dom_store);
        memset(d->dom_store, 0, sizeof *d->dom_store);
        wn_parse_status ps = wn_parser_parse_store(e->parser, text, text_len, &d->arena, &d->dom, d->dom_store, rules);
        if (ps != WN_PARSE_OK || !show || shown_chars(d, need) >= need) return ps;
    }
    return WN_PARSE_OK;
}

/* A page a script renders, its content in <noscript> (parse/noscript.c):
 * when the parsed page shows less than NOSCRIPT_MAX_TEXT characters and
 * its body's <noscript> elements hold NOSCRIPT_MIN_RATIO times that, the
 * page is parsed again with their markup built. Sets d->noscript. */
static wn_parse_status noscript_parse(winnow_engine *e, winnow_doc *d, const char *text, size_t text_len,
                                      const wn_parse_rules *rules)
{
    const float max_text = WN_RULE(d, NOSCRIPT_MAX_TEXT);
    if (max_text <= 0.0f) return WN_PARSE_OK;
    float shown = shown_chars(d, max_text);
    if (shown >= max_text) return WN_PARSE_OK;
    size_t ulen = 0, held = 0;
    char *u = wn_noscript_unwrap(text, text_len, &ulen, &held);
    if (!u) return WN_PARSE_OK;
    wn_parse_status ps = WN_PARSE_OK;
    if ((float)held >= WN_RULE(d, NOSCRIPT_MIN_RATIO) * (shown > 0.0f ? shown : 1.0f)) {
        wn_parser_reclaim(e->parser, d->dom_store);
        memset(d->dom_store, 0, sizeof *d->dom_store);
        ps = wn_parser_parse_store(e->parser, u, ulen, &d->arena, &d->dom, d->dom_store, rules);
        d->noscript = 1;
    }
    free(u);
    return ps;
}

/* Whether an articleBody holds markup (some sites give HTML there): a '<'
 * before a letter or '/'. */
static int body_has_markup(const char *s)
{
    for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<'))
        if ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') || p[1] == '/') return 1;
    return 0;
}

/* A page a script renders whose text is in its JSON-LD: an article's
 * articleBody, which news sites give search engines. When the parsed page
 * shows less than LD_BODY_MAX_TEXT characters and the articleBody holds
 * LD_BODY_MIN_RATIO times that, the page is parsed again as its own head
 * and a body made of the article: its headline and the articleBody, a
 * paragraph a line (markup in it kept as markup). Sets d->ld_body. */
static wn_parse_status ld_body_parse(winnow_engine *e, winnow_doc *d, const char *text, size_t text_len,
                                     const wn_parse_rules *rules)
{
    const float max_text = WN_RULE(d, LD_BODY_MAX_TEXT);
    if (max_text <= 0.0f || d->dom.jsonld_count == 0) return WN_PARSE_OK;
    float shown = shown_chars(d, max_text);
    if (shown >= max_text) return WN_PARSE_OK;
    const char *title = NULL, *body = wn_meta_ld_body(&d->dom, &d->arena, &title);
    if (!body) return WN_PARSE_OK;
    size_t held = 0;
    for (const char *p = body; *p; p++) held += (unsigned char)*p > ' ';
    if ((float)held < WN_RULE(d, LD_BODY_MIN_RATIO) * (shown > 0.0f ? shown : 1.0f)) return WN_PARSE_OK;
    wn_buf b;
    wn_buf_init(&b);
    /* the page's own head: its title, metadata and JSON-LD */
    const char *head_end = memmem(text, text_len, "</head", 6);
    if (!head_end) head_end = memmem(text, text_len, "</HEAD", 6);
    if (head_end)
        wn_buf_put(&b, text, (size_t)(head_end - text));
    else
        wn_buf_puts(&b, "<html><head>");
    wn_buf_puts(&b, "</head><body><article>");
    if (title && *title) {
        wn_buf_puts(&b, "<h1>");
        wn_buf_html_escape(&b, title, strlen(title), 0);
        wn_buf_puts(&b, "</h1>");
    }
    if (body_has_markup(body)) {
        wn_buf_puts(&b, body);
    } else {
        for (const char *p = body; *p;) {
            size_t n = strcspn(p, "\n");
            size_t lead = 0;
            while (lead < n && (unsigned char)p[lead] <= ' ') lead++;
            if (n > lead) {
                wn_buf_puts(&b, "<p>");
                wn_buf_html_escape(&b, p + lead, n - lead, 0);
                wn_buf_puts(&b, "</p>");
            }
            p += n;
            if (*p) p++;
        }
    }
    wn_buf_puts(&b, "</article></body></html>");
    wn_parse_status ps = WN_PARSE_OK;
    if (b.oom) {
        ps = WN_PARSE_NOMEM;
    } else {
        wn_parser_reclaim(e->parser, d->dom_store);
        memset(d->dom_store, 0, sizeof *d->dom_store);
        ps = wn_parser_parse_store(e->parser, b.data, b.len, &d->arena, &d->dom, d->dom_store, rules);
        d->ld_body = 1;
    }
    wn_buf_free(&b);
    return ps;
}

/* decode and parse: the input's bytes -> d->decode, d->utf8 -> d->dom */
static winnow_status decode_parse(winnow_engine *e, winnow_doc *d, const winnow_input *in)
{
    char err[256];
    const char *text = NULL;
    size_t text_len = 0;
    wn_decode_status ds =
        wn_decode_view(in->data, in->len, in->charset, &d->utf8, &text, &text_len, &d->decode, err, sizeof err);
    if (ds == WN_DECODE_NOMEM) return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while decoding");
    if (ds == WN_DECODE_EMPTY) return wn_engine_fail(e, WINNOW_E_EMPTY, err);
    if (ds == WN_DECODE_BINARY) return wn_engine_fail(e, WINNOW_E_BINARY, err);

    d->dom_store = wn_arena_alloc(&d->arena, sizeof *d->dom_store);
    if (!d->dom_store) return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while building the DOM");
    /* the DOM's arrays stay the parser's, lent to the page: no copy */
    /* per page: the parser is the engine's, the rules the page's */
    wn_parse_rules parse_rules = { .merged_link_share = WN_RULE(d, MERGED_LINK_SHARE),
                                   .show_hidden = d->display_shown ? 2 : 0,
                                   .hide_unread = WN_RULE(d, UNREAD_TEXT) > 0.0f,
                                   .show_tabpanels = WN_RULE(d, HIDDEN_TABPANEL) > 0.0f,
                                   .hide_closed = WN_RULE(d, HIDDEN_CLOSED) > 0.0f,
                                   .show_controlled = WN_RULE(d, HIDDEN_CONTROLLED) > 0.0f };
    wn_parse_status ps =
        wn_parser_parse_store(e->parser, text, text_len, &d->arena, &d->dom, d->dom_store, &parse_rules);
    if (ps == WN_PARSE_OK && !d->display_shown) ps = hidden_parse(e, d, text, text_len, &parse_rules);
    d->display_hidden = wn_parser_display_hidden(e->parser);
    if (ps == WN_PARSE_OK) ps = noscript_parse(e, d, text, text_len, &parse_rules);
    if (ps == WN_PARSE_OK && !d->noscript) ps = ld_body_parse(e, d, text, text_len, &parse_rules);
    if (ps == WN_PARSE_NOMEM) return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while building the DOM");
    if (ps == WN_PARSE_TOO_LARGE) return wn_engine_fail(e, WINNOW_E_TOO_LARGE, "page has too many nodes");
    if (ps != WN_PARSE_OK) return wn_engine_fail(e, WINNOW_E_PARSE, "the HTML parser rejected the input");
    return WINNOW_OK;
}

/* statistics, the block list and the page scores: d->stats, d->page_text,
 * d->blocks..., d->labels and *pscore (learning: no page scores, the
 * signals find the text units themselves) */
static winnow_status page_stages(winnow_engine *e, winnow_doc *d, wn_run_mode mode, wn_page_scores *pscore)
{
    int learning = mode == WN_RUN_LEARN;
    const wn_stats_rules stats_rules = { .names = wn_doc_name_rules(d) };
    d->hint_cache = e->hints;
    if ((learning ? wn_stats_compute_learn(&d->dom, &d->arena, &d->stats, &d->page_text)
                  : wn_stats_compute(&d->dom, &d->arena, &d->stats, &d->page_text, e->hints, &stats_rules)) != 0)
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while computing statistics");
    if (mode == WN_RUN_EXPLAIN && wn_explain_begin(d) != 0)
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while explaining");
    memset(pscore, 0, sizeof *pscore);
    wn_block_list bl;
    memset(&bl, 0, sizeof bl);
    int r = wn_blocks_list(&d->dom, d->stats, &d->arena, wn_doc_scratch(d), !learning, &bl);
    d->blocks = bl.blocks;
    d->block_parent = bl.block_parent;
    d->block_path = bl.block_path;
    d->nblocks = bl.nblocks;
    if (r != 0 || (!learning && wn_page_score(d, pscore) != 0))
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while scoring");
    return WINNOW_OK;
}

/* the site hook: the page's signals (into hook->signals_out when learning),
 * ContentExtractor blocks, the site model's verdict on d->labels and
 * d->site_*, and the hook's inspect */
static winnow_status site_stage(winnow_engine *e, winnow_doc *d, const site_hook *hook, wn_page_scores *pscore)
{
    wn_page_signals local, *sig = hook->signals_out ? hook->signals_out : &local;
    if (wn_signals_compute(d, sig) != 0) return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while fingerprinting");
    /* atomic blocks for ContentExtractor: while a site still takes
     * training pages, or when a CE method judges the page */
    int learning_ce = hook->signals_out && hook->model && hook->model->ce.pages < WN_CE_TRAINING_PAGES;
    int judging_ce = hook->opt && (hook->opt->method == WINNOW_METHOD_CE || hook->opt->method == WINNOW_METHOD_FASTCE);
    if (learning_ce || judging_ce) {
        sig->ce = wn_arena_alloc(&d->arena, sizeof *sig->ce);
        if (!sig->ce || wn_ce_page_compute(d, sig->ce) != 0)
            return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while building ContentExtractor blocks");
    }
    if (hook->opt && site_applies(hook->model, hook->opt, sig)) {
        wn_site_judgement j;
        if (wn_site_score(d, pscore, sig, hook->model, hook->opt->method, hook->opt->exclude_self, &j) != 0)
            return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while applying the site model");
        d->site_pages = j.pages;
        d->site_template_chars = j.template_chars;
        d->site_unique_chars = j.unique_chars;
    }
    if (hook->inspect && hook->inspect(hook->inspect_ctx, d, pscore, sig) != 0)
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while inspecting the page");
    return WINNOW_OK;
}

/* Every stage the mode runs, in order. */
static winnow_status run_stages(winnow_engine *e, winnow_doc *d, wn_run_mode mode, const winnow_input *in,
                                const site_hook *hook)
{
    winnow_status rc = decode_parse(e, d, in);
    if (rc != WINNOW_OK) return rc;
    int extracting = mode == WN_RUN_EXTRACT || mode == WN_RUN_EXPLAIN;
    wn_page_scores pscore;
    if ((rc = page_stages(e, d, mode, &pscore)) != WINNOW_OK) return rc;
    if (hook && (rc = site_stage(e, d, hook, &pscore)) != WINNOW_OK) return rc;
    /* page level, learned: where no site model judged the page */
    if (extracting && e->clf && d->site_pages == 0) {
        if (wn_classify_page(d, &pscore, e->clf, &e->smooth, in->url) != 0)
            return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while classifying nodes");
    }
    if (!extracting) return WINNOW_OK; /* no content selection or metadata */
    /* metadata first: the selection's fallback reads the description */
    const wn_meta_rules meta_rules = { .title_match_min_words = WN_RULE(d, TITLE_MATCH_MIN_WORDS) };
    wn_meta_extract(&d->dom, &d->decode, in->url, &d->arena, &d->meta, &meta_rules);
    /* the kind of page: it chooses the selection's strategy (select/strategy.h) */
    if (wn_pagetype_run(d, e->pt, e->opt.page_type) != 0)
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while judging the kind of page");
    d->unit_model = e->units;
    d->unit_collect = e->units_collect;
    if (wn_select(d, &pscore, e->opt.include_title) != 0)
        return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while selecting content");
    wn_explain_finish(d);
    return WINNOW_OK;
}

/* The unit the kept text opens with when it is the page's headline: the
 * headline the selection kept outside its block (or inline), else the
 * first kept unit when it is a heading or named a title; WN_NONE. */
static uint32_t kept_headline(const winnow_doc *d)
{
    const wn_labels *lb = &d->labels;
    if (lb->headline != WN_NONE) return lb->headline;
    if (lb->headline_inline != WN_NONE) return lb->headline_inline;
    for (uint32_t i = 0; i < d->dom.count; i++) {
        if (d->dom.nodes[i].tag != WN_TAG_TEXT || !lb->keep[i] || !d->stats[i].chars) continue;
        uint32_t u = lb->unit[i];
        if (u == WN_NONE) return WN_NONE;
        return wn_tag_has(d->dom.nodes[u].tag, WN_TF_HEADING) || (d->stats[u].hints & WN_HINT_TITLE) ? u : WN_NONE;
    }
    return WN_NONE;
}

/* Words of the kept text outside the headline h, in every script: a CJK
 * character (counted a word each by the statistics) weighs half a word,
 * as a CJK word is two characters or so. Counted up to past `limit`. */
static double kept_words_beyond(const winnow_doc *d, uint32_t h, double limit)
{
    const wn_dom *dom = &d->dom;
    double words = 0.0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (h != WN_NONE && i == h) {
            i += dom->nodes[h].size - 1; /* (its subtree) */
            continue;
        }
        if (dom->nodes[i].tag != WN_TAG_TEXT || !d->labels.keep[i]) continue;
        const wn_stats *s = &d->stats[i];
        words += (double)(s->words - s->cjk) + 0.5 * (double)s->cjk;
        if (words > limit) break;
    }
    return words;
}

/* A page of much visible text whose main content is its headline and a
 * handful of words (a byline, a date, a label), the rest left out: not a
 * success that looks like one. Sets the status and warning (after the input's own damage,
 * at w) and returns 1; 0 when the result is not thin. */
static int thin_status(winnow_doc *d, size_t w, uint64_t kept)
{
    const float max_words = WN_RULE(d, THIN_MAX_WORDS);
    /* (a page whose text was all kept is its own main content, however
     * few its words: one 2 MB word) */
    if (max_words < 0.0f || (float)d->stats[0].chars <= WN_RULE(d, THIN_PAGE_CHARS) || kept >= d->stats[0].chars)
        return 0;
    uint32_t h = kept_headline(d);
    double words = kept_words_beyond(d, h, (double)max_words);
    if (words > (double)max_words) return 0;
    size_t at = w && w + 2 < sizeof d->warning ? w : 0;
    if (at < sizeof d->warning)
        snprintf(d->warning + at, sizeof d->warning - at,
                 "%sonly %s%.0f word%s kept as main content (%llu characters) of %u characters of visible text",
                 at ? "; " : "", h != WN_NONE ? "the headline and " : "", words, words == 1.0 ? "" : "s",
                 (unsigned long long)kept, d->stats[0].chars);
    d->status = WINNOW_THIN_MAIN;
    return 1;
}

/* The page's status and warning: what damage the input had (decode, parse)
 * and, when it has no main content or little, why. */
static void page_status(const winnow_engine *e, winnow_doc *d, int extracting)
{
    d->status = WINNOW_OK;
    size_t w = 0;
    uint64_t kept = 0;
    if (d->decode.replaced) {
        w +=
            (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%zu invalid byte sequence%s replaced (read as %s)",
                             d->decode.replaced, d->decode.replaced == 1 ? "" : "s", d->decode.charset);
        d->status = WINNOW_PARTIAL;
    }
    if (d->dom.depth_capped && w < sizeof d->warning) {
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s%u start tags past nesting depth %u dropped",
                              w ? "; " : "", d->dom.depth_capped, e->opt.max_depth);
        d->status = WINNOW_PARTIAL;
    }
    if (d->dom.flattened && w < sizeof d->warning) {
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w,
                              "%s%u elements past the node budget read as text (%u nodes kept)", w ? "; " : "",
                              d->dom.flattened, d->dom.count);
        d->status = WINNOW_PARTIAL;
    }
    if (d->dom.unclosed && w < sizeof d->warning) {
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w,
                              "%s%u unclosed <title>/<script>-like element%s closed", w ? "; " : "", d->dom.unclosed,
                              d->dom.unclosed == 1 ? "" : "s");
        d->status = WINNOW_PARTIAL;
    }
    if (d->dom.attrs_dropped && w < sizeof d->warning) {
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s%u attributes past %d on one element dropped",
                              w ? "; " : "", d->dom.attrs_dropped, WN_MAX_ELEMENT_ATTRS);
        d->status = WINNOW_PARTIAL;
    }
    if (d->stats[0].chars == 0) {
        snprintf(d->warning, sizeof d->warning, "%s",
                 d->dom.body == 0 ? "the page has no <body> with text (a frameset or an empty document)"
                                  : "the page has no visible text");
        d->status = WINNOW_NO_CONTENT;
    } else if (extracting && (kept = wn_kept_chars(d)) > 0) {
        thin_status(d, w, kept);
    } else if (extracting) {
        /* visible text, none of it main content: never an empty result
         * that looks like success */
        size_t at = w && w + 2 < sizeof d->warning ? w : 0;
        if (d->labels.source == WN_SOURCE_LISTING)
            at += (size_t)snprintf(d->warning + at, sizeof d->warning - at,
                                   "%sa listing page: its best block was one of %u teasers (a headline link over a "
                                   "summary)",
                                   at ? "; " : "", d->labels.teasers);
        else if (d->labels.source == WN_SOURCE_FRAME)
            at += (size_t)snprintf(d->warning + at, sizeof d->warning - at,
                                   "%sits only block with running text was in the page's own header or footer",
                                   at ? "; " : "");
        if (at < sizeof d->warning)
            snprintf(d->warning + at, sizeof d->warning - at,
                     "%s%u characters of visible text, none of it main content", at ? "; " : "", d->stats[0].chars);
        d->status = WINNOW_NO_MAIN;
    }
}

/* A page whose main part a script shows once it has loaded, hidden until
 * then with display:none (a shop's "lockdown" wrapper, a deferred block):
 * when its extraction kept less than DISPLAY_MIN_KEPT characters of its
 * visible text and the parse skipped display:none elements, the page is
 * extracted again with them built, and that run is kept when it keeps
 * DISPLAY_MIN_KEPT characters.
 * Not in site mode's learning or inspecting runs, which see a page once.
 * Returns the run kept (the other freed). */
static winnow_doc *display_retry(winnow_engine *e, winnow_doc *d, wn_run_mode mode, const winnow_input *in,
                                 const site_hook *hook)
{
    const float min_kept = WN_RULE(d, DISPLAY_MIN_KEPT);
    if (min_kept <= 0.0f || d->display_shown || d->ld_body || !d->display_hidden || d->stats[0].chars == 0 ||
        (float)wn_kept_chars(d) >= min_kept || (hook && (hook->signals_out || hook->inspect)))
        return d;
    char error[sizeof e->error];
    memcpy(error, e->error, sizeof error);
    winnow_doc *again = NULL;
    if (new_doc(e, in, &again) == WINNOW_OK) {
        again->display_shown = 1;
        if (run_stages(e, again, mode, in, hook) == WINNOW_OK && (float)wn_kept_chars(again) >= min_kept) {
            winnow_doc_free(d);
            return again;
        }
        winnow_doc_free(again);
    }
    memcpy(e->error, error, sizeof error); /* a failed second run leaves the first as it was */
    return d;
}

winnow_status wn_pipeline_run(winnow_engine *e, wn_run_mode mode, const winnow_input *caller, const site_hook *hook,
                              winnow_doc **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!e) return WINNOW_E_ARG;
    e->error[0] = '\0';
    winnow_input input;
    winnow_source source;
    winnow_status rc = read_input(e, caller, &input, &source);
    if (rc == WINNOW_OK) rc = check_size(e, &input);
    winnow_doc *d = NULL;
    if (rc == WINNOW_OK) rc = new_doc(e, &input, &d);
    if (rc != WINNOW_OK) return rc;

    rc = run_stages(e, d, mode, &input, hook);
    int extracting = mode == WN_RUN_EXTRACT || mode == WN_RUN_EXPLAIN;
    if (rc == WINNOW_OK && extracting) d = display_retry(e, d, mode, &input, hook);
    if (rc == WINNOW_OK) page_status(e, d, extracting);
    d->confidence = -1;
    /* how sure the extraction is: reads the status, so after it */
    if (rc == WINNOW_OK && extracting && wn_confidence_run(d, &e->conf) != 0)
        rc = wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while judging the confidence");
    d->scratch = NULL;
    int trim = e->scratch.cap_total > SCRATCH_KEEP;
    wn_arena_reset(&e->scratch, SCRATCH_KEEP);
#ifdef __GLIBC__
    /* heap memory the allocator would keep: the outputs rendered next
     * could not reuse it (they grow by realloc) */
    if (trim) malloc_trim(0);
#else
    (void)trim;
#endif
    if (rc != WINNOW_OK) {
        winnow_doc_free(d);
        return rc;
    }
    *out = d;
    return d->status;
}

void winnow_doc_free(winnow_doc *d)
{
    if (!d) return;
    winnow_engine *e = d->engine;
    wn_arena_free(&d->scratch_own);
    if (d->dom_store) wn_parser_reclaim(e ? e->parser : NULL, d->dom_store);
    if (e && !e->have_spare) {
        wn_arena_reset(&d->arena, ARENA_KEEP);
        wn_buf_clear(&d->utf8);
        e->spare_arena = d->arena;
        e->spare_utf8 = d->utf8;
        e->have_spare = 1;
    } else {
        wn_arena_free(&d->arena);
        wn_buf_free(&d->utf8);
    }
    free(d);
}
