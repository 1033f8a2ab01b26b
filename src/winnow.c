/* The pipeline behind the public API: decode -> parse -> statistics ->
 * page scores -> labels, with metadata and the block list on the side. */
#include "winnow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/list.h"
#include "doc.h"
#include "output/render.h"
#include "parse/parser.h"
#include "pipeline.h"
#include "classify/apply.h"
#include "score/page_score.h"
#include "score/records.h"
#include "score/site_score.h"
#include "select/select.h"
#include "site/model.h"
#include "site/site_api.h"
#include "site/signals.h"
#include "util/structs.h"

struct winnow_engine {
    winnow_options opt;
    wn_parser *parser;
    /* buffers handed to the next document, so a long run reuses memory */
    wn_arena spare_arena;
    wn_arena scratch;   /* stage temporaries of the page being run (doc.h) */
    wn_buf spare_utf8;
    int have_spare;
    /* page level, learned: the node classifier (read-only once loaded) */
    wn_classifier clf_store;
    const wn_classifier *clf;
    wn_classify_options smooth;
    wn_rules rules;     /* the scorer's and selection's rule values */
    /* class and id tokens seen on this engine's pages and their hint bits
     * (a fixed mapping: the cache only saves the lookups) */
    wn_hint_cache *hints;
    char error[512];
};

#define DEFAULT_MAX_INPUT ((size_t)256 << 20)
/* the node budget (winnow_options.node_bytes, node_floor) */
#define WN_NODE_BYTES 96u
#define WN_NODE_FLOOR 100000u
#define ARENA_KEEP ((size_t)256 << 20)
/* and of the scratch arena: a stage's temporaries on an ordinary page */
#define SCRATCH_KEEP ((size_t)32 << 20)

/* The first version of each growing structure ends at these fields
 * (util/structs.h): a caller's struct_size must reach that far. */
#define OPTIONS_V1 WN_FIELD_END(winnow_options, smooth)
#define SITE_OPTIONS_V1 WN_FIELD_END(winnow_site_options, min_pages)
#define INPUT_V1 WN_FIELD_END(winnow_input, source)
#define SOURCE_V1 WN_FIELD_END(winnow_source, record_id)
#define RULE_V1 WN_FIELD_END(winnow_rule, off_value)
#define BLOCK_V1 WN_FIELD_END(winnow_block, is_content)
#define COMMENT_V1 WN_FIELD_END(winnow_comment, text)
#define JSONL_OPTIONS_V1 WN_FIELD_END(winnow_jsonl_options, comments)

const char *winnow_version(void) { return WINNOW_VERSION_STRING; }
long winnow_version_number(void) { return WINNOW_VERSION_NUMBER; }

const char *winnow_status_name(winnow_status s)
{
    switch (s) {
    case WINNOW_OK: return "WINNOW_OK";
    case WINNOW_PARTIAL: return "WINNOW_PARTIAL";
    case WINNOW_NO_CONTENT: return "WINNOW_NO_CONTENT";
    case WINNOW_NO_MAIN: return "WINNOW_NO_MAIN";
    case WINNOW_END: return "WINNOW_END";
    case WINNOW_E_EMPTY: return "WINNOW_E_EMPTY";
    case WINNOW_E_BINARY: return "WINNOW_E_BINARY";
    case WINNOW_E_TOO_LARGE: return "WINNOW_E_TOO_LARGE";
    case WINNOW_E_NOMEM: return "WINNOW_E_NOMEM";
    case WINNOW_E_PARSE: return "WINNOW_E_PARSE";
    case WINNOW_E_IO: return "WINNOW_E_IO";
    case WINNOW_E_ARG: return "WINNOW_E_ARG";
    case WINNOW_E_DB_DAMAGED: return "WINNOW_E_DB_DAMAGED";
    case WINNOW_E_DB_READONLY: return "WINNOW_E_DB_READONLY";
    case WINNOW_E_DB_FORMAT: return "WINNOW_E_DB_FORMAT";
    case WINNOW_E_DB_BUSY: return "WINNOW_E_DB_BUSY";
    case WINNOW_E_FORMAT: return "WINNOW_E_FORMAT";
    case WINNOW_E_DB: return "WINNOW_E_DB";
    }
    return "WINNOW_UNKNOWN";
}

const char *winnow_status_message(winnow_status s)
{
    switch (s) {
    case WINNOW_OK: return "success";
    case WINNOW_PARTIAL: return "extracted, but the input was damaged (see the warning)";
    case WINNOW_NO_CONTENT: return "the page has no visible text to extract";
    case WINNOW_NO_MAIN: return "the page has visible text but none of it was found to be main content";
    case WINNOW_END: return "no more records";
    case WINNOW_E_EMPTY: return "the input is empty";
    case WINNOW_E_BINARY: return "the input is not HTML or text";
    case WINNOW_E_TOO_LARGE: return "the input is larger than the configured limit";
    case WINNOW_E_NOMEM: return "out of memory";
    case WINNOW_E_PARSE: return "the HTML parser failed on this input";
    case WINNOW_E_IO: return "a file could not be opened, read or written, or the output could not be written";
    case WINNOW_E_ARG: return "invalid argument";
    case WINNOW_E_DB_DAMAGED: return "the site database is damaged";
    case WINNOW_E_DB_READONLY: return "the site database is read-only";
    case WINNOW_E_DB_FORMAT: return "the file is not a site database of a format this winnow reads";
    case WINNOW_E_DB_BUSY: return "another process kept the site database locked";
    case WINNOW_E_FORMAT: return "the file is not of the format it was read as";
    case WINNOW_E_DB: return "the site database failed";
    }
    return "unknown status";
}

static void options_default(winnow_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->max_input_bytes = DEFAULT_MAX_INPUT;
    o->max_depth = 512;
    o->include_title = 1;
    o->classifier = 1;
    o->smooth = 1;
    o->node_bytes = WN_NODE_BYTES;
    o->node_floor = WN_NODE_FLOOR;
}

winnow_status winnow_options_default(winnow_options *o, size_t struct_size)
{
    winnow_options d;
    options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_engine_new(const winnow_options *opt, winnow_engine **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    winnow_options o;
    options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, OPTIONS_V1) != 0) return WINNOW_E_ARG;
    winnow_engine *e = calloc(1, sizeof *e);
    if (!e) return WINNOW_E_NOMEM;
    e->opt = o;
    if (!e->opt.max_input_bytes) e->opt.max_input_bytes = DEFAULT_MAX_INPUT;
    if (!e->opt.max_depth) e->opt.max_depth = 512;
    e->parser = wn_parser_new(e->opt.max_depth);
    if (e->parser) wn_parser_set_node_budget(e->parser, e->opt.node_bytes, e->opt.node_floor);
    e->hints = calloc(1, sizeof *e->hints); /* keys zero: empty */
    if (!e->parser || !e->hints) {
        wn_parser_free(e->parser);
        free(e->hints);
        free(e);
        return WINNOW_E_NOMEM;
    }
    wn_arena_init(&e->spare_arena);
    wn_arena_init(&e->scratch);
    wn_buf_init(&e->spare_utf8);
    e->have_spare = 1;
    wn_classify_options_default(&e->smooth);
    e->smooth.smooth = e->opt.smooth;
    wn_rules_default(&e->rules);
    /* the model built into the library; a build without one (or one this
     * code cannot read) runs the heuristic scorer alone */
    if (e->opt.classifier && wn_default_model_len > 0) {
        char err[256];
        if (wn_classifier_parse((const char *)wn_default_model, wn_default_model_len, &e->clf_store, err, sizeof err) == 0)
            e->clf = &e->clf_store;
    }
    *out = e;
    return WINNOW_OK;
}

void winnow_engine_free(winnow_engine *e)
{
    if (!e) return;
    wn_parser_free(e->parser);
    free(e->hints);
    if (e->clf) wn_classifier_free(&e->clf_store);
    wn_arena_free(&e->scratch);
    if (e->have_spare) {
        wn_arena_free(&e->spare_arena);
        wn_buf_free(&e->spare_utf8);
    }
    free(e);
}

const char *winnow_engine_error(const winnow_engine *e) { return e ? e->error : ""; }

static winnow_status fail(winnow_engine *e, winnow_status s, const char *detail)
{
    snprintf(e->error, sizeof e->error, "%s", detail && *detail ? detail : winnow_status_message(s));
    return s;
}

winnow_status winnow_engine_load_model(winnow_engine *e, const char *path)
{
    if (!e) return WINNOW_E_ARG;
    e->error[0] = '\0';
    if (!path) {
        if (e->clf) wn_classifier_free(&e->clf_store);
        e->clf = NULL;
        return WINNOW_OK;
    }
    wn_classifier c;
    winnow_status st = wn_classifier_load(path, &c, e->error, sizeof e->error);
    if (st != WINNOW_OK) return st;
    if (e->clf) wn_classifier_free(&e->clf_store);
    e->clf_store = c;
    e->clf = &e->clf_store;
    return WINNOW_OK;
}

int winnow_engine_has_model(const winnow_engine *e) { return e && e->clf; }

winnow_status winnow_extract(winnow_engine *e, const winnow_input *in, winnow_doc **out)
{
    return wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, out);
}

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
    if (!caller) return fail(e, WINNOW_E_ARG, "no input given");
    memset(in, 0, sizeof *in);
    if (wn_struct_in(in, sizeof *in, caller, INPUT_V1) != 0)
        return fail(e, WINNOW_E_ARG, "winnow_input.struct_size is not sizeof (winnow_input) of a winnow.h this "
                                     "library reads");
    if (in->source) {
        memset(src, 0, sizeof *src);
        src->record = -1;
        if (wn_struct_in(src, sizeof *src, in->source, SOURCE_V1) != 0)
            return fail(e, WINNOW_E_ARG, "winnow_source.struct_size is not sizeof (winnow_source) of a winnow.h "
                                         "this library reads");
        in->source = src;
    }
    return WINNOW_OK;
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
    winnow_status rs = read_input(e, caller, &input, &source);
    if (rs != WINNOW_OK) return rs;
    const winnow_input *in = &input;
    if (!in->data && in->len) return fail(e, WINNOW_E_ARG, "no input given");
    if (in->len == 0) return fail(e, WINNOW_E_EMPTY, "input is empty (0 bytes)");
    if (in->len > e->opt.max_input_bytes || in->len >= UINT32_MAX / 4) {
        char msg[160];
        snprintf(msg, sizeof msg, "input is %zu bytes, over the limit of %zu bytes", in->len,
                 e->opt.max_input_bytes < UINT32_MAX / 4 ? e->opt.max_input_bytes : (size_t)UINT32_MAX / 4);
        return fail(e, WINNOW_E_TOO_LARGE, msg);
    }

    winnow_doc *d = calloc(1, sizeof *d);
    if (!d) return fail(e, WINNOW_E_NOMEM, NULL);
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
        return fail(e, WINNOW_E_NOMEM, "out of memory while copying the page's source");
    }
    char err[256];
    const char *text = NULL;
    size_t text_len = 0;
    wn_decode_status ds =
        wn_decode_view(in->data, in->len, in->charset, &d->utf8, &text, &text_len, &d->decode, err, sizeof err);
    winnow_status rc = WINNOW_OK;
    if (ds == WN_DECODE_NOMEM) { rc = fail(e, WINNOW_E_NOMEM, "out of memory while decoding"); goto failed; }
    if (ds == WN_DECODE_EMPTY) { rc = fail(e, WINNOW_E_EMPTY, err); goto failed; }
    if (ds == WN_DECODE_BINARY) { rc = fail(e, WINNOW_E_BINARY, err); goto failed; }

    d->dom_store = wn_arena_alloc(&d->arena, sizeof *d->dom_store);
    if (!d->dom_store) { rc = fail(e, WINNOW_E_NOMEM, "out of memory while building the DOM"); goto failed; }
    /* the DOM's arrays stay the parser's, lent to the page: no copy */
    wn_parse_status ps = wn_parser_parse_store(e->parser, text, text_len, &d->arena, &d->dom, d->dom_store);
    if (ps == WN_PARSE_NOMEM) { rc = fail(e, WINNOW_E_NOMEM, "out of memory while building the DOM"); goto failed; }
    if (ps == WN_PARSE_TOO_LARGE) { rc = fail(e, WINNOW_E_TOO_LARGE, "page has too many nodes"); goto failed; }
    if (ps != WN_PARSE_OK) { rc = fail(e, WINNOW_E_PARSE, "the HTML parser rejected the input"); goto failed; }

    int learning = mode == WN_RUN_LEARN;
    if ((learning ? wn_stats_compute_learn(&d->dom, &d->arena, &d->stats, &d->page_text)
                 : wn_stats_compute(&d->dom, &d->arena, &d->stats, &d->page_text, e->hints)) != 0) {
        rc = fail(e, WINNOW_E_NOMEM, "out of memory while computing statistics");
        goto failed;
    }
    int extracting = mode == WN_RUN_EXTRACT || mode == WN_RUN_EXPLAIN;
    if (mode == WN_RUN_EXPLAIN && wn_explain_begin(d) != 0) {
        rc = fail(e, WINNOW_E_NOMEM, "out of memory while explaining");
        goto failed;
    }
    wn_page_scores pscore;
    memset(&pscore, 0, sizeof pscore);
    /* learning: no page scores (the signals find the text units themselves) */
    if (wn_blocks_list(d, !learning) != 0 || (!learning && wn_page_score(d, &pscore) != 0)) {
        rc = fail(e, WINNOW_E_NOMEM, "out of memory while scoring");
        goto failed;
    }
    if (hook) {
        wn_page_signals local, *sig = hook->signals_out ? hook->signals_out : &local;
        if (wn_signals_compute(d, sig) != 0) {
            rc = fail(e, WINNOW_E_NOMEM, "out of memory while fingerprinting");
            goto failed;
        }
        /* atomic blocks for ContentExtractor: while a site still takes
         * training pages, or when a CE method judges the page */
        int learning_ce = hook->signals_out && hook->model && hook->model->ce.pages < WN_CE_TRAINING_PAGES;
        int judging_ce = hook->opt && (hook->opt->method == WINNOW_METHOD_CE || hook->opt->method == WINNOW_METHOD_FASTCE);
        if (learning_ce || judging_ce) {
            sig->ce = wn_arena_alloc(&d->arena, sizeof *sig->ce);
            if (!sig->ce || wn_ce_page_compute(d, sig->ce) != 0) {
                rc = fail(e, WINNOW_E_NOMEM, "out of memory while building ContentExtractor blocks");
                goto failed;
            }
        }
        if (hook->opt && site_applies(hook->model, hook->opt, sig)) {
            wn_site_judgement j;
            if (wn_site_score(d, &pscore, sig, hook->model, hook->opt->method, hook->opt->exclude_self, &j) != 0) {
                rc = fail(e, WINNOW_E_NOMEM, "out of memory while applying the site model");
                goto failed;
            }
            d->site_pages = j.pages;
            d->site_template_chars = j.template_chars;
            d->site_unique_chars = j.unique_chars;
        }
        if (hook->inspect && hook->inspect(hook->inspect_ctx, d, &pscore, sig) != 0) {
            rc = fail(e, WINNOW_E_NOMEM, "out of memory while inspecting the page");
            goto failed;
        }
    }
    /* page level, learned: where no site model judged the page */
    if (extracting && e->clf && d->site_pages == 0) {
        if (wn_classify_page(d, &pscore, e->clf, &e->smooth, in->url) != 0) {
            rc = fail(e, WINNOW_E_NOMEM, "out of memory while classifying nodes");
            goto failed;
        }
    }
    if (!extracting) goto status; /* no content selection or metadata */
    /* metadata first: the selection's fallback reads the description */
    wn_meta_extract(&d->dom, &d->decode, in->url, &d->arena, &d->meta);
    if (wn_select(d, &pscore, e->opt.include_title) != 0) {
        rc = fail(e, WINNOW_E_NOMEM, "out of memory while selecting content");
        goto failed;
    }
    wn_explain_finish(d);

status:
    d->status = WINNOW_OK;
    size_t w = 0;
    if (d->decode.replaced) {
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%zu invalid byte sequence%s replaced (read as %s)",
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
        w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s%u unclosed <title>/<script>-like element%s closed",
                              w ? "; " : "", d->dom.unclosed, d->dom.unclosed == 1 ? "" : "s");
        d->status = WINNOW_PARTIAL;
    }
    if (d->stats[0].chars == 0) {
        snprintf(d->warning, sizeof d->warning, "%s",
                 d->dom.body == 0 ? "the page has no <body> with text (a frameset or an empty document)"
                                  : "the page has no visible text");
        d->status = WINNOW_NO_CONTENT;
    } else if (extracting && wn_kept_chars(d) == 0) {
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
            snprintf(d->warning + at, sizeof d->warning - at, "%s%u characters of visible text, none of it main content",
                     at ? "; " : "", d->stats[0].chars);
        d->status = WINNOW_NO_MAIN;
    }
    d->scratch = NULL;
    wn_arena_reset(&e->scratch, SCRATCH_KEEP);
    *out = d;
    return d->status;

failed:
    d->scratch = NULL;
    wn_arena_reset(&e->scratch, SCRATCH_KEEP);
    winnow_doc_free(d);
    return rc;
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

const char *winnow_doc_warning(const winnow_doc *d) { return d ? d->warning : ""; }

const char *winnow_doc_source(const winnow_doc *d)
{
    if (!d) return "";
    switch (d->labels.source) {
    case WN_SOURCE_NONE: return "none";
    case WN_SOURCE_SCORER: return d->site_pages > 0 ? "site-model" : "scorer";
    case WN_SOURCE_LANDMARK: return "fallback-landmark";
    case WN_SOURCE_DESCRIPTION: return "fallback-description";
    case WN_SOURCE_UNHINTED: return "fallback-unhinted";
    case WN_SOURCE_LISTING: return "listing";
    case WN_SOURCE_FRAME: return "frame";
    }
    return "";
}

int winnow_rule_count(void) { return WN_RULE_COUNT; }

winnow_status winnow_rule_info(int i, winnow_rule *out)
{
    if (!out || i < 0 || i >= WN_RULE_COUNT) return WINNOW_E_ARG;
    winnow_rule r = {sizeof r, wn_rule_defs[i].name, wn_rule_defs[i].stage, wn_rule_defs[i].why,
                     wn_rule_defs[i].def, wn_rule_defs[i].off};
    return wn_struct_out(out, &r, sizeof r, RULE_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_engine_set_rule(winnow_engine *e, const char *name, double value)
{
    if (!e) return WINNOW_E_ARG;
    int i = wn_rule_find(name);
    if (i < 0) {
        snprintf(e->error, sizeof e->error, "no rule named '%s' (winnow_rule_info lists them)", name ? name : "");
        return WINNOW_E_ARG;
    }
    e->rules.v[i] = (float)value;
    return WINNOW_OK;
}

winnow_status winnow_format_parse(const char *name, winnow_format *out)
{
    static const struct { const char *name; winnow_format f; } map[] = {
        {"text", WINNOW_FORMAT_TEXT}, {"txt", WINNOW_FORMAT_TEXT}, {"markdown", WINNOW_FORMAT_MARKDOWN},
        {"md", WINNOW_FORMAT_MARKDOWN}, {"json", WINNOW_FORMAT_JSON}, {"html", WINNOW_FORMAT_HTML},
        {"blocks", WINNOW_FORMAT_BLOCKS}, {"segments", WINNOW_FORMAT_SEGMENTS}, {"fulltext", WINNOW_FORMAT_FULLTEXT},
        {"jsonl", WINNOW_FORMAT_JSONL}, {"ndjson", WINNOW_FORMAT_JSONL},
    };
    for (size_t i = 0; name && out && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i].name)) { *out = map[i].f; return WINNOW_OK; }
    return WINNOW_E_ARG;
}

winnow_status winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx)
{
    if (!d || !write) return WINNOW_E_ARG;
    wn_out o;
    memset(&o, 0, sizeof o);
    wn_buf_init(&o.buf);
    o.write = write;
    o.ctx = ctx;
    switch (f) {
    case WINNOW_FORMAT_TEXT: wn_render_lines(d, &o, 0); break;
    case WINNOW_FORMAT_MARKDOWN: wn_render_lines(d, &o, 1); break;
    case WINNOW_FORMAT_JSON: wn_render_json(d, &o); break;
    case WINNOW_FORMAT_HTML: wn_render_html(d, &o); break;
    case WINNOW_FORMAT_BLOCKS: wn_render_blocks(d, &o); break;
    case WINNOW_FORMAT_SEGMENTS: wn_render_segments(d, &o); break;
    case WINNOW_FORMAT_FULLTEXT: wn_render_fulltext(d, &o); break;
    case WINNOW_FORMAT_JSONL: {
        wn_jsonl_opts jo = {NULL, NULL, 0, 0};
        wn_render_jsonl(d, &jo, &o);
        break;
    }
    default: wn_buf_free(&o.buf); return WINNOW_E_ARG;
    }
    int oom = o.nomem || o.buf.oom;
    wn_buf_free(&o.buf);
    if (oom) return WINNOW_E_NOMEM;
    return o.failed ? WINNOW_E_IO : WINNOW_OK;
}

static void jsonl_options_default(winnow_jsonl_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

winnow_status winnow_jsonl_options_default(winnow_jsonl_options *o, size_t struct_size)
{
    winnow_jsonl_options d;
    jsonl_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, JSONL_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

/* The caller's options as the renderer takes them; -1 for a struct_size this library does not take. */
static int jsonl_opts_in(const winnow_jsonl_options *opt, wn_jsonl_opts *jo)
{
    winnow_jsonl_options o;
    jsonl_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, JSONL_OPTIONS_V1) != 0) return -1;
    *jo = (wn_jsonl_opts){o.id, o.site, o.blocks != 0, o.comments != 0};
    return 0;
}

winnow_status winnow_render_jsonl(const winnow_doc *d, const winnow_jsonl_options *opt, winnow_write_fn write,
                                  void *ctx)
{
    wn_jsonl_opts jo;
    if (!d || !write || jsonl_opts_in(opt, &jo) != 0) return WINNOW_E_ARG;
    wn_out o;
    memset(&o, 0, sizeof o);
    wn_buf_init(&o.buf);
    o.write = write;
    o.ctx = ctx;
    wn_render_jsonl(d, &jo, &o);
    int oom = o.nomem || o.buf.oom;
    wn_buf_free(&o.buf);
    if (oom) return WINNOW_E_NOMEM;
    return o.failed ? WINNOW_E_IO : WINNOW_OK;
}

winnow_status winnow_render_jsonl_failure(const winnow_input *in, winnow_status failure, const char *error,
                                          const winnow_jsonl_options *opt, winnow_write_fn write, void *ctx)
{
    wn_jsonl_opts jo;
    if (!write || jsonl_opts_in(opt, &jo) != 0) return WINNOW_E_ARG;
    winnow_input input;
    winnow_source source;
    const winnow_input *inp = NULL;
    if (in) {
        /* the caller's structures, as far as they go */
        memset(&input, 0, sizeof input);
        if (wn_struct_in(&input, sizeof input, in, INPUT_V1) != 0) return WINNOW_E_ARG;
        if (input.source) {
            memset(&source, 0, sizeof source);
            source.record = -1;
            if (wn_struct_in(&source, sizeof source, input.source, SOURCE_V1) != 0) return WINNOW_E_ARG;
            input.source = &source;
        }
        inp = &input;
    }
    wn_out o;
    memset(&o, 0, sizeof o);
    wn_buf_init(&o.buf);
    o.write = write;
    o.ctx = ctx;
    wn_render_jsonl_failure(inp, failure, error, &jo, &o);
    int oom = o.nomem || o.buf.oom;
    wn_buf_free(&o.buf);
    if (oom) return WINNOW_E_NOMEM;
    return o.failed ? WINNOW_E_IO : WINNOW_OK;
}

static int to_buf(void *ctx, const char *data, size_t len)
{
    wn_buf *b = ctx;
    wn_buf_put(b, data, len);
    return b->oom ? -1 : 0;
}

winnow_status winnow_render_alloc(const winnow_doc *d, winnow_format f, char **out, size_t *len)
{
    if (len) *len = 0;
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    wn_buf b;
    wn_buf_init(&b);
    winnow_status st = winnow_render(d, f, to_buf, &b);
    /* the only write that fails is one out of memory */
    if (st == WINNOW_E_IO) st = WINNOW_E_NOMEM;
    if (st != WINNOW_OK) { wn_buf_free(&b); return st; }
    wn_buf_cstr(&b);
    if (b.oom) { wn_buf_free(&b); return WINNOW_E_NOMEM; }
    *out = b.data ? b.data : calloc(1, 1);
    if (!*out) return WINNOW_E_NOMEM;
    if (len) *len = b.len;
    return WINNOW_OK;
}

const char *winnow_doc_meta(const winnow_doc *d, winnow_meta_field f)
{
    if (!d || f < 0 || f >= WINNOW_META_COUNT || !d->meta.field[f]) return "";
    return d->meta.field[f];
}

const char *winnow_meta_name(winnow_meta_field f)
{
    static const char *const names[WINNOW_META_COUNT] = {"title", "author", "date", "url", "site_name",
                                                         "description", "language", "charset"};
    return f >= 0 && f < WINNOW_META_COUNT ? names[f] : "";
}

size_t winnow_doc_comment_count(const winnow_doc *d) { return d ? d->ncomments : 0; }

winnow_status winnow_doc_comment(const winnow_doc *d, size_t i, winnow_comment *c)
{
    if (!d || !c || i >= d->ncomments) return WINNOW_E_ARG;
    winnow_comment r = {sizeof r, d->comments[i].author, d->comments[i].date, d->comments[i].text};
    return wn_struct_out(c, &r, sizeof r, COMMENT_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

size_t winnow_doc_block_count(const winnow_doc *d) { return d ? d->nblocks : 0; }

winnow_status winnow_doc_block(const winnow_doc *d, size_t k, winnow_block *out)
{
    if (!d || !out || k >= d->nblocks) return WINNOW_E_ARG;
    uint32_t i = d->blocks[k];
    const wn_node *x = &d->dom.nodes[i];
    const wn_stats *s = &d->stats[i];
    winnow_block blk, *b = &blk;
    memset(b, 0, sizeof *b);
    b->struct_size = sizeof *b;
    b->tag = x->name;
    b->path = d->block_path[k];
    b->src_begin = x->src_begin;
    b->src_len = x->src_len;
    b->line = x->line;
    b->depth = x->depth;
    b->sibling_index = x->sibling_index;
    b->parent = d->block_parent[k];
    b->chars = s->chars;
    b->words = s->words;
    b->distinct_words = s->distinct_words;
    b->punct = s->punct;
    b->link_chars = s->link_chars;
    b->links = s->links;
    b->images = s->images;
    b->fingerprint = s->fingerprint;
    b->templateness = d->labels.templ[i];
    b->is_content = b->templateness < 0.5;
    return wn_struct_out(out, b, sizeof *b, BLOCK_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

/* ---- site models ---- */

struct winnow_site {
    wn_site_model *model;
};

winnow_status winnow_site_new(const char *name, double half_life, winnow_site **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!name) return WINNOW_E_ARG;
    winnow_site *s = calloc(1, sizeof *s);
    if (!s) return WINNOW_E_NOMEM;
    s->model = wn_site_model_new(name, half_life);
    if (!s->model) { free(s); return WINNOW_E_NOMEM; }
    *out = s;
    return WINNOW_OK;
}

void winnow_site_free(winnow_site *s)
{
    if (!s) return;
    wn_site_model_free(s->model);
    free(s);
}

const char *winnow_site_name(const winnow_site *s) { return s ? s->model->name : ""; }
double winnow_site_pages(const winnow_site *s) { return s ? wn_site_model_pages(s->model) : 0.0; }

winnow_site *wn_site_wrap(wn_site_model *m)
{
    winnow_site *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->model = m;
    return s;
}

wn_site_model *wn_site_unwrap(const winnow_site *s) { return s ? s->model : NULL; }

void wn_site_rewrap(winnow_site *s, wn_site_model *m)
{
    wn_site_model_free(s->model);
    s->model = m;
}

winnow_status winnow_site_learn(winnow_engine *e, winnow_site *s, const winnow_input *in, int *counted)
{
    if (counted) *counted = 0;
    if (!e || !s) return WINNOW_E_ARG;
    wn_page_signals sig;
    site_hook hook = {s->model, NULL, &sig, NULL, NULL};
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_LEARN, in, &hook, &d);
    if (WINNOW_FAILED(st)) return st;
    int r = wn_site_model_add_page(s->model, d, &sig, in->url);
    winnow_doc_free(d);
    if (r < 0) return fail(e, WINNOW_E_NOMEM, "out of memory while counting the page");
    if (counted) *counted = r;
    return st;
}

static void site_options_default(winnow_site_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->mode = WINNOW_MODE_AUTO;
    o->method = WINNOW_METHOD_AUTO;
    o->min_pages = 5;
}

winnow_status winnow_site_options_default(winnow_site_options *o, size_t struct_size)
{
    winnow_site_options d;
    site_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, SITE_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_extract_site(winnow_engine *e, const winnow_input *in, const winnow_site *site,
                                  const winnow_site_options *opt, winnow_doc **out)
{
    winnow_site_options o;
    site_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, SITE_OPTIONS_V1) != 0) {
        if (out) *out = NULL;
        if (!e || !out) return WINNOW_E_ARG;
        return fail(e, WINNOW_E_ARG, "winnow_site_options.struct_size is not sizeof (winnow_site_options) of a "
                                     "winnow.h this library reads");
    }
    if (!site) return wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, out);
    if (site->model->journal_only) {
        if (out) *out = NULL;
        if (!e || !out) return WINNOW_E_ARG;
        return fail(e, WINNOW_E_ARG, "a partial's site model only records pages: merge the partial into a site "
                                     "database and load the site from there");
    }
    site_hook hook = {site->model, &o, NULL, NULL, NULL};
    return wn_pipeline_run(e, WN_RUN_EXTRACT, in, &hook, out);
}

size_t winnow_url_site(const char *url, char *out, size_t cap)
{
    if (!out || !cap) return 0;
    out[0] = '\0';
    if (!url) return 0;
    const char *h = strstr(url, "://");
    h = h ? h + 3 : url;
    const char *at = strpbrk(h, "@/?#");
    if (at && *at == '@') h = at + 1; /* user:password@ */
    size_t n = strcspn(h, "/?#:");
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) out[i] = (char)((h[i] >= 'A' && h[i] <= 'Z') ? h[i] + 32 : h[i]);
    out[n] = '\0';
    if (!strncmp(out, "www.", 4)) {
        memmove(out, out + 4, n - 3);
        n -= 4;
    }
    return n;
}
