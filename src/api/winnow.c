/* The public API's facade (winnow.h): engines and their options, one
 * page's extraction, rendering, and the page's accessors. The work is the
 * pipeline's (pipeline/pipeline.c) and the renderers' (output/); the site
 * entry points are api/site.c, the status names util/status.c. */
#include "winnow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doc.h"
#include "../output/render.h"
#include "../pipeline/engine.h"
#include "../pipeline/pipeline.h"
#include "../score/records.h"
#include "../util/structs.h"
#include "../util/url.h"

#define DEFAULT_MAX_INPUT ((size_t)256 << 20)
/* the node budget (winnow_options.node_bytes, node_floor) */
#define WN_NODE_BYTES 96u
#define WN_NODE_FLOOR 100000u

/* The first version of each growing structure ends at these fields
 * (util/structs.h): a caller's struct_size must reach that far. The input
 * structures' are engine.h's. */
#define OPTIONS_V1 WN_FIELD_END(winnow_options, smooth)
#define RULE_V1 WN_FIELD_END(winnow_rule, off_value)
#define BLOCK_V1 WN_FIELD_END(winnow_block, is_content)
#define COMMENT_V1 WN_FIELD_END(winnow_comment, text)
#define JSONL_OPTIONS_V1 WN_FIELD_END(winnow_jsonl_options, comments)
#define JSON_OPTIONS_V1 WN_FIELD_END(winnow_json_options, reserved)

const char *winnow_version(void) { return WINNOW_VERSION_STRING; }
long winnow_version_number(void) { return WINNOW_VERSION_NUMBER; }

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

static const char *const favor_names[WINNOW_FAVOR_COUNT] = { "balanced", "precision", "recall" };

winnow_status winnow_favor_parse(const char *name, winnow_favor *out)
{
    for (int f = 0; name && out && f < WINNOW_FAVOR_COUNT; f++)
        if (!strcmp(name, favor_names[f])) {
            *out = (winnow_favor)f;
            return WINNOW_OK;
        }
    return WINNOW_E_ARG;
}

const char *winnow_favor_name(winnow_favor f)
{
    return (int)f >= 0 && f < WINNOW_FAVOR_COUNT ? favor_names[f] : "unknown";
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
    if (o.page_type < 0 || o.page_type >= WINNOW_PAGE_TYPE_COUNT) return WINNOW_E_ARG;
    if (o.favor < 0 || o.favor >= WINNOW_FAVOR_COUNT) return WINNOW_E_ARG;
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
    wn_rules_favor(&e->rules, e->opt.favor);
    /* the model built into the library; a build without one (or one this
     * code cannot read) runs the heuristic scorer alone */
    if (e->opt.classifier && wn_default_model_len > 0) {
        char err[256];
        if (wn_classifier_parse((const char *)wn_default_model, wn_default_model_len, &e->clf_store, err, sizeof err) ==
            0)
            e->clf = &e->clf_store;
    }
    /* the page type model built in, likewise: without one kinds are unknown */
    if (wn_pagetype_model_len > 0) {
        char err[256];
        if (wn_pt_model_parse((const char *)wn_pagetype_model, wn_pagetype_model_len, &e->pt_store, err, sizeof err) ==
            0)
            e->pt = &e->pt_store;
    }
    /* and the confidence model: without one, confidence is -1 */
    if (wn_confidence_model_len > 0) {
        char err[256];
        if (wn_conf_model_parse((const char *)wn_confidence_model, wn_confidence_model_len, &e->conf, err,
                                sizeof err) != 0)
            memset(&e->conf, 0, sizeof e->conf);
    }
    /* and the learned unit decision's: without one, the rules decide */
    if (wn_units_model_len > 0) {
        char err[256];
        if (wn_unit_model_parse((const char *)wn_units_model, wn_units_model_len, &e->units_store, err, sizeof err) ==
            0)
            e->units = &e->units_store;
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
    wn_unit_model_free(&e->units_store);
    wn_arena_free(&e->scratch);
    if (e->have_spare) {
        wn_arena_free(&e->spare_arena);
        wn_buf_free(&e->spare_utf8);
    }
    free(e);
}

const char *winnow_engine_error(const winnow_engine *e) { return e ? e->error : ""; }

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

/* The whole of file path into b (initialized here; the caller frees it),
 * or an error in e->error. */
static winnow_status read_model_file(winnow_engine *e, const char *path, wn_buf *b)
{
    wn_buf_init(b);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(e->error, sizeof e->error, "cannot open %s", path);
        return WINNOW_E_IO;
    }
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && !b->oom) wn_buf_put(b, chunk, got);
    int oom = b->oom, rerr = ferror(f);
    fclose(f);
    if (oom || rerr) {
        wn_buf_free(b);
        snprintf(e->error, sizeof e->error, "%s %s", oom ? "out of memory reading" : "cannot read", path);
        return oom ? WINNOW_E_NOMEM : WINNOW_E_IO;
    }
    return WINNOW_OK;
}

winnow_status winnow_engine_load_unit_model(winnow_engine *e, const char *path)
{
    if (!e) return WINNOW_E_ARG;
    e->error[0] = '\0';
    if (!path) {
        e->units = NULL;
        return WINNOW_OK;
    }
    wn_buf b;
    winnow_status st = read_model_file(e, path, &b);
    if (st != WINNOW_OK) return st;
    wn_unit_model m;
    int rc = wn_unit_model_parse(b.data ? b.data : "", b.len, &m, e->error, sizeof e->error);
    wn_buf_free(&b);
    if (rc != 0) return rc == -2 ? WINNOW_E_NOMEM : WINNOW_E_FORMAT;
    wn_unit_model_free(&e->units_store);
    e->units_store = m;
    e->units = &e->units_store;
    return WINNOW_OK;
}

winnow_status winnow_engine_load_page_type_model(winnow_engine *e, const char *path)
{
    if (!e) return WINNOW_E_ARG;
    e->error[0] = '\0';
    if (!path) {
        e->pt = NULL;
        return WINNOW_OK;
    }
    wn_buf b;
    winnow_status st = read_model_file(e, path, &b);
    if (st != WINNOW_OK) return st;
    wn_pt_model *m = malloc(sizeof *m); /* (large: weights for every kind) */
    if (!m) {
        wn_buf_free(&b);
        snprintf(e->error, sizeof e->error, "out of memory reading %s", path);
        return WINNOW_E_NOMEM;
    }
    int rc = wn_pt_model_parse(b.data ? b.data : "", b.len, m, e->error, sizeof e->error);
    wn_buf_free(&b);
    if (rc == 0) {
        e->pt_store = *m;
        e->pt = &e->pt_store;
    }
    free(m);
    return rc == 0 ? WINNOW_OK : WINNOW_E_FORMAT;
}

winnow_status winnow_extract(winnow_engine *e, const winnow_input *in, winnow_doc **out)
{
    return wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, out);
}

const char *winnow_doc_warning(const winnow_doc *d) { return d ? d->warning : ""; }

const char *winnow_doc_source(const winnow_doc *d) { return d ? wn_doc_source_name(d) : ""; }

winnow_page_type winnow_doc_page_type(const winnow_doc *d, double *confidence)
{
    if (confidence) *confidence = d ? d->page_type_conf : 0;
    return d ? (winnow_page_type)d->page_type : WINNOW_PAGE_UNKNOWN;
}

double winnow_doc_confidence(const winnow_doc *d) { return d ? (double)d->confidence : -1.0; }

int winnow_rule_count(void) { return WN_RULE_COUNT; }

winnow_status winnow_rule_info(int i, winnow_rule *out)
{
    if (!out || i < 0 || i >= WN_RULE_COUNT) return WINNOW_E_ARG;
    winnow_rule r = { sizeof r,
                      wn_rule_defs[i].name,
                      wn_rule_defs[i].stage,
                      wn_rule_defs[i].why,
                      wn_rule_defs[i].def,
                      wn_rule_defs[i].off,
                      0,
                      0 };
    if (wn_rule_range(i, &r.min_value, &r.max_value, NULL) != 0) r.min_value = r.max_value = wn_rule_defs[i].def;
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
    if (wn_rule_check(i, value, e->error, sizeof e->error) != 0) return WINNOW_E_ARG;
    e->rules.v[i] = (float)value;
    return WINNOW_OK;
}

winnow_status winnow_format_parse(const char *name, winnow_format *out)
{
    static const struct {
        const char *name;
        winnow_format f;
    } map[] = {
        { "text", WINNOW_FORMAT_TEXT },         { "txt", WINNOW_FORMAT_TEXT },
        { "markdown", WINNOW_FORMAT_MARKDOWN }, { "md", WINNOW_FORMAT_MARKDOWN },
        { "json", WINNOW_FORMAT_JSON },         { "html", WINNOW_FORMAT_HTML },
        { "blocks", WINNOW_FORMAT_BLOCKS },     { "segments", WINNOW_FORMAT_SEGMENTS },
        { "fulltext", WINNOW_FORMAT_FULLTEXT }, { "jsonl", WINNOW_FORMAT_JSONL },
        { "ndjson", WINNOW_FORMAT_JSONL },
    };
    for (size_t i = 0; name && out && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i].name)) {
            *out = map[i].f;
            return WINNOW_OK;
        }
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
    case WINNOW_FORMAT_JSON: wn_render_json(d, 0, &o); break;
    case WINNOW_FORMAT_HTML: wn_render_html(d, &o); break;
    case WINNOW_FORMAT_BLOCKS: wn_render_blocks(d, &o); break;
    case WINNOW_FORMAT_SEGMENTS: wn_render_segments(d, &o); break;
    case WINNOW_FORMAT_FULLTEXT: wn_render_fulltext(d, &o); break;
    case WINNOW_FORMAT_JSONL: {
        wn_jsonl_opts jo = { NULL, NULL, 0, 0, 0 };
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

winnow_status winnow_body_parse(const char *list, unsigned *out)
{
    if (!list || !out || !*list) return WINNOW_E_ARG;
    unsigned body = 0;
    for (const char *p = list;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char name[16];
        winnow_format f;
        if (n == 0 || n >= sizeof name) return WINNOW_E_ARG;
        memcpy(name, p, n);
        name[n] = '\0';
        if (winnow_format_parse(name, &f) != WINNOW_OK || !(WINNOW_BODY(f) & WINNOW_BODY_ALL)) return WINNOW_E_ARG;
        body |= WINNOW_BODY(f);
        if (!end) break;
        p = end + 1;
    }
    *out = body;
    return WINNOW_OK;
}

winnow_status winnow_json_options_default(winnow_json_options *o, size_t struct_size)
{
    winnow_json_options d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, JSON_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_render_json(const winnow_doc *d, const winnow_json_options *opt, winnow_write_fn write, void *ctx)
{
    winnow_json_options jo;
    memset(&jo, 0, sizeof jo);
    jo.struct_size = sizeof jo;
    if (!d || !write || (opt && wn_struct_in(&jo, sizeof jo, opt, JSON_OPTIONS_V1) != 0) || !wn_body_ok(jo.body))
        return WINNOW_E_ARG;
    wn_out o;
    memset(&o, 0, sizeof o);
    wn_buf_init(&o.buf);
    o.write = write;
    o.ctx = ctx;
    wn_render_json(d, jo.body, &o);
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

/* The caller's options as the renderer takes them; -1 for a struct_size
 * this library does not take or a body that is no set of body formats. */
static int jsonl_opts_in(const winnow_jsonl_options *opt, wn_jsonl_opts *jo)
{
    winnow_jsonl_options o;
    jsonl_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, JSONL_OPTIONS_V1) != 0) return -1;
    if (!wn_body_ok(o.body)) return -1;
    *jo = (wn_jsonl_opts){ o.id, o.site, o.blocks != 0, o.comments != 0, o.body };
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
        if (wn_struct_in(&input, sizeof input, in, WN_INPUT_V1) != 0) return WINNOW_E_ARG;
        if (input.source) {
            memset(&source, 0, sizeof source);
            source.record = -1;
            if (wn_struct_in(&source, sizeof source, input.source, WN_SOURCE_V1) != 0) return WINNOW_E_ARG;
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
    if (st != WINNOW_OK) {
        wn_buf_free(&b);
        return st;
    }
    wn_buf_cstr(&b);
    if (b.oom) {
        wn_buf_free(&b);
        return WINNOW_E_NOMEM;
    }
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

size_t winnow_doc_comment_count(const winnow_doc *d) { return d ? d->ncomments : 0; }

winnow_status winnow_doc_comment(const winnow_doc *d, size_t i, winnow_comment *c)
{
    if (!d || !c || i >= d->ncomments) return WINNOW_E_ARG;
    winnow_comment r = { sizeof r, d->comments[i].author, d->comments[i].date, d->comments[i].text };
    return wn_struct_out(c, &r, sizeof r, COMMENT_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

size_t winnow_doc_post_count(const winnow_doc *d) { return d ? d->nposts : 0; }

winnow_status winnow_doc_post(const winnow_doc *d, size_t i, winnow_comment *p)
{
    if (!d || !p || i >= d->nposts) return WINNOW_E_ARG;
    winnow_comment r = { sizeof r, d->posts[i].author, d->posts[i].date, d->posts[i].text };
    return wn_struct_out(p, &r, sizeof r, COMMENT_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

size_t winnow_doc_block_count(const winnow_doc *d) { return d ? d->nblocks : 0; }

winnow_status winnow_doc_block(const winnow_doc *d, size_t k, winnow_block *out)
{
    if (!d || !out || k >= d->nblocks) return WINNOW_E_ARG;
    winnow_block b;
    wn_block_info(d, k, &b);
    return wn_struct_out(out, &b, sizeof b, BLOCK_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

size_t winnow_url_site(const char *url, char *out, size_t cap) { return wn_url_site(url, out, cap); }
