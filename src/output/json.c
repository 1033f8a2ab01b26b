/* JSON: metadata, main text and the scored blocks as one object; and the
 * block segmentation as JSON lines (one object per block). */
#include "render.h"

#include <stdio.h>
#include <string.h>

#include "../score/records.h"
#include "../util/url.h"

static void json_kv(wn_buf *b, const char *key, const char *v, int comma)
{
    if (comma) wn_buf_putc(b, ',');
    wn_buf_printf(b, "\"%s\":\"", key);
    wn_buf_json_str(b, v, strlen(v));
    wn_buf_putc(b, '"');
}

static void json_kv_or_null(wn_buf *b, const char *key, const char *v, int comma)
{
    if (v)
        json_kv(b, key, v, comma);
    else
        wn_buf_printf(b, "%s\"%s\":null", comma ? "," : "", key);
}

/* Most bytes of a block's text in the blocks and JSON outputs. */
#define BLOCK_TEXT_MAX 4096

static void block_json(const winnow_doc *d, uint32_t k, wn_buf *b, wn_buf *scratch, int with_text)
{
    winnow_block blk;
    wn_block_info(d, k, &blk);
    uint32_t i = d->blocks[k];
    const wn_stats *s = &d->stats[i];
    wn_buf_printf(b, "{\"i\":%u,\"parent\":%ld,\"tag\":\"", k, blk.parent);
    wn_buf_json_str(b, blk.tag, strlen(blk.tag));
    wn_buf_puts(b, "\",\"path\":\"");
    wn_buf_json_str(b, blk.path, strlen(blk.path));
    wn_buf_printf(b, "\",\"src_begin\":%zu,\"src_len\":%zu,\"line\":%u,\"depth\":%u,\"sibling_index\":%u",
                  blk.src_begin, blk.src_len, blk.line, blk.depth, blk.sibling_index);
    wn_buf_printf(b,
                  ",\"chars\":%u,\"words\":%u,\"distinct_words\":%u,\"punct\":%u,\"link_chars\":%u,"
                  "\"links\":%u,\"images\":%u",
                  blk.chars, blk.words, blk.distinct_words, blk.punct, blk.link_chars, blk.links, blk.images);
    wn_buf_puts(b, ",\"tags\":{");
    int first = 1;
    for (int h = 0; h < WN_HIST_N; h++) {
        if (!s->hist[h]) continue;
        wn_buf_printf(b, "%s\"%s\":%u", first ? "" : ",", wn_hist_names[h], s->hist[h]);
        first = 0;
    }
    wn_buf_puts(b, "}");
    const wn_node *x = &d->dom.nodes[i];
    size_t cl = 0, il = 0;
    const char *cls = wn_node_attr(&d->dom, x, "class", &cl);
    const char *id = wn_node_attr(&d->dom, x, "id", &il);
    wn_buf_puts(b, ",\"class\":\"");
    if (cls) wn_buf_json_str(b, cls, cl);
    wn_buf_puts(b, "\",\"id\":\"");
    if (id) wn_buf_json_str(b, id, il);
    wn_buf_printf(b, "\",\"fingerprint\":\"%016llx\",\"templateness\":%.4f,\"content\":%s",
                  (unsigned long long)blk.fingerprint, blk.templateness, blk.is_content ? "true" : "false");
    if (with_text) {
        wn_buf_clear(scratch);
        /* raw text: the page text is case-folded */
        wn_node_text(&d->dom, i, scratch, NULL, NULL);
        /* A block's text holds its nested blocks' text again: cut at
         * BLOCK_TEXT_MAX bytes (on a character boundary) so that deep
         * nesting cannot make the output quadratic in the page. */
        size_t n = scratch->len, cut = n;
        if (cut > BLOCK_TEXT_MAX) {
            cut = BLOCK_TEXT_MAX;
            while (cut > 0 && ((unsigned char)scratch->data[cut] & 0xC0) == 0x80) cut--;
        }
        wn_buf_puts(b, ",\"text\":\"");
        wn_buf_json_str(b, scratch->data ? scratch->data : "", cut);
        wn_buf_putc(b, '"');
        if (cut < n) wn_buf_printf(b, ",\"text_bytes\":%zu,\"text_truncated\":true", n);
    }
    wn_buf_putc(b, '}');
}

/* Records (comments, posts) as JSON objects, comma-separated, into b. */
static void records_json(const wn_comment *list, size_t count, wn_buf *b)
{
    for (size_t k = 0; k < count; k++) {
        const wn_comment *c = &list[k];
        wn_buf_putc(b, '{');
        json_kv(b, "author", c->author, 0);
        json_kv(b, "date", c->date, 1);
        json_kv(b, "text", c->text, 1);
        wn_buf_puts(b, k + 1 < count ? "}," : "}");
    }
}

static void comments_json(const winnow_doc *d, wn_buf *b) { records_json(d->comments, d->ncomments, b); }

/* The blocks as JSON objects, comma-separated, into o's buffer (flushed as
 * it fills). */
static void blocks_json(const winnow_doc *d, wn_out *o)
{
    wn_buf scratch;
    wn_buf_init(&scratch);
    for (uint32_t k = 0; k < d->nblocks; k++) {
        if (k) wn_buf_putc(&o->buf, ',');
        block_json(d, k, &o->buf, &scratch, 1);
        if (scratch.oom) o->nomem = 1;
        wn_out_flush(o, 0);
    }
    wn_buf_free(&scratch);
}

void wn_render_blocks(const winnow_doc *d, wn_out *o)
{
    wn_buf scratch;
    wn_buf_init(&scratch);
    for (uint32_t k = 0; k < d->nblocks && !o->failed && !o->nomem; k++) {
        block_json(d, k, &o->buf, &scratch, 1);
        if (scratch.oom) o->nomem = 1;
        wn_buf_putc(&o->buf, '\n');
        wn_out_flush(o, 0);
    }
    wn_buf_free(&scratch);
    wn_out_flush(o, 1);
}

/* ---- the body: the main content in the formats asked for ---- */

/* The body formats in the order of their fields, with the fields' names. */
static const struct {
    winnow_format f;
    const char *key;
} body_fields[] = {
    { WINNOW_FORMAT_TEXT, "text" },
    { WINNOW_FORMAT_MARKDOWN, "markdown" },
    { WINNOW_FORMAT_HTML, "html" },
    { WINNOW_FORMAT_FULLTEXT, "fulltext" },
};
#define BODY_FIELDS (sizeof body_fields / sizeof body_fields[0])

int wn_body_ok(unsigned body) { return (body & ~(unsigned)WINNOW_BODY_ALL) == 0; }

static int to_buf(void *ctx, const char *data, size_t len)
{
    wn_buf *b = ctx;
    wn_buf_put(b, data, len);
    return b->oom ? -1 : 0;
}

/* The page rendered in f (a body format) into r: the bytes winnow_render
 * writes. 0, or -1 when an allocation failed. */
static int body_render(const winnow_doc *d, winnow_format f, wn_buf *r)
{
    if (f == WINNOW_FORMAT_TEXT) {
        wn_main_text(d, r);
        return r->oom ? -1 : 0;
    }
    wn_out ro;
    memset(&ro, 0, sizeof ro);
    wn_buf_init(&ro.buf);
    ro.write = to_buf;
    ro.ctx = r;
    switch (f) {
    case WINNOW_FORMAT_MARKDOWN: wn_render_lines(d, &ro, 1); break;
    case WINNOW_FORMAT_HTML: wn_render_html(d, &ro); break;
    default: wn_render_fulltext(d, &ro); break;
    }
    int failed = ro.nomem || ro.failed || ro.buf.oom || r->oom;
    wn_buf_free(&ro.buf);
    return failed ? -1 : 0;
}

/* The body fields, each after a comma: the renderings as JSON strings, or
 * null for a page that failed (d NULL). */
static void body_json(const winnow_doc *d, unsigned body, wn_out *o)
{
    wn_buf *b = &o->buf;
    if (!body) body = WINNOW_BODY(WINNOW_FORMAT_TEXT);
    for (size_t k = 0; k < BODY_FIELDS; k++) {
        if (!(body & WINNOW_BODY(body_fields[k].f))) continue;
        wn_buf_printf(b, ",\"%s\":", body_fields[k].key);
        if (!d) {
            wn_buf_puts(b, "null");
            continue;
        }
        wn_buf r;
        wn_buf_init(&r);
        if (body_render(d, body_fields[k].f, &r) != 0) o->nomem = 1;
        wn_buf_putc(b, '"');
        wn_buf_json_str(b, r.data ? r.data : "", r.len);
        wn_buf_putc(b, '"');
        wn_buf_free(&r);
        wn_out_flush(o, 0);
    }
}

/* The kind of page and the model's probability of it (1 when forced). */
static void page_type_json(const winnow_doc *d, wn_buf *b)
{
    json_kv(b, "page_type", winnow_page_type_name((winnow_page_type)d->page_type), 1);
    wn_buf_printf(b, ",\"page_type_confidence\":%.3f", (double)d->page_type_conf);
    /* the chance that the text is the main content (confidence/): null
     * without a model */
    if (d->confidence >= 0)
        wn_buf_printf(b, ",\"confidence\":%.3f", (double)d->confidence);
    else
        wn_buf_puts(b, ",\"confidence\":null");
}

void wn_render_json(const winnow_doc *d, unsigned body, wn_out *o)
{
    wn_buf *b = &o->buf;
    wn_buf_putc(b, '{');
    for (int f = 0; f < WINNOW_META_COUNT; f++)
        json_kv(b, winnow_meta_name((winnow_meta_field)f), d->meta.field[f], f > 0);
    /* where the page came from, as the caller said: null when unknown */
    wn_buf_puts(b, ",\"source\":{");
    json_kv_or_null(b, "file", d->src_file, 0);
    if (d->src_record >= 0)
        wn_buf_printf(b, ",\"record\":%lld", d->src_record);
    else
        wn_buf_puts(b, ",\"record\":null");
    json_kv_or_null(b, "record_id", d->src_record_id, 1);
    json_kv_or_null(b, "url", d->src_url, 1);
    wn_buf_putc(b, '}');
    json_kv(b, "status", winnow_status_name(d->status), 1);
    if (d->warning[0]) json_kv(b, "warning", d->warning, 1);
    json_kv(b, "content_source", wn_doc_source_name(d), 1);
    page_type_json(d, b);
    if (d->labels.container != WN_NONE) {
        char path[1024];
        wn_node_path(&d->dom, d->labels.container, path, sizeof path);
        json_kv(b, "content_path", path, 1);
    }
    /* how much of the page is text, how much was kept, and what the site
     * model (if one was used) made of it */
    uint64_t kept = wn_kept_chars(d);
    wn_buf_printf(b, ",\"chars\":%u,\"content_chars\":%llu", d->stats[0].chars, (unsigned long long)kept);
    if (d->site_pages > 0)
        wn_buf_printf(b, ",\"site\":{\"pages\":%.1f,\"template_chars\":%llu,\"unique_chars\":%llu}", d->site_pages,
                      (unsigned long long)d->site_template_chars, (unsigned long long)d->site_unique_chars);
    body_json(d, body, o);
    wn_buf_puts(b, ",\"posts\":[");
    records_json(d->posts, d->nposts, b);
    wn_buf_puts(b, "],\"comments\":[");
    comments_json(d, b);
    wn_buf_puts(b, "],\"blocks\":[");
    blocks_json(d, o);
    wn_buf_puts(b, "]}\n");
    wn_out_flush(o, 1);
}

/* ---- JSON lines ---- */

static void jsonl_str_or_null(wn_buf *b, const char *key, const char *v)
{
    wn_buf_printf(b, ",\"%s\":", key);
    if (!v) {
        wn_buf_puts(b, "null");
        return;
    }
    wn_buf_putc(b, '"');
    wn_buf_json_str(b, v, strlen(v));
    wn_buf_putc(b, '"');
}

/* id, source, url, site, status, warning, error: the keys every line has first. */
static void jsonl_head(wn_buf *b, const wn_jsonl_opts *jo, const char *file, long long record, const char *record_id,
                       const char *url, winnow_status st, const char *warning, const char *error)
{
    wn_buf_puts(b, "{\"id\":");
    if (jo->id) {
        wn_buf_putc(b, '"');
        wn_buf_json_str(b, jo->id, strlen(jo->id));
        wn_buf_putc(b, '"');
    } else {
        wn_buf_puts(b, "null");
    }
    wn_buf_puts(b, ",\"source\":{\"file\":");
    if (file) {
        wn_buf_putc(b, '"');
        wn_buf_json_str(b, file, strlen(file));
        wn_buf_putc(b, '"');
    } else {
        wn_buf_puts(b, "null");
    }
    if (record >= 0)
        wn_buf_printf(b, ",\"record\":%lld", record);
    else
        wn_buf_puts(b, ",\"record\":null");
    jsonl_str_or_null(b, "record_id", record_id);
    wn_buf_putc(b, '}');
    jsonl_str_or_null(b, "url", url);
    char host[1024];
    const char *site = jo->site;
    if (!site && wn_url_site(url, host, sizeof host)) site = host;
    jsonl_str_or_null(b, "site", site);
    jsonl_str_or_null(b, "status", winnow_status_name(st));
    jsonl_str_or_null(b, "warning", warning && *warning ? warning : NULL);
    jsonl_str_or_null(b, "error", error);
}

void wn_render_jsonl(const winnow_doc *d, const wn_jsonl_opts *jo, wn_out *o)
{
    wn_buf *b = &o->buf;
    jsonl_head(b, jo, d->src_file, d->src_record, d->src_record_id, d->src_url, d->status, d->warning, NULL);
    json_kv(b, "language", d->meta.field[WINNOW_META_LANGUAGE], 1);
    wn_buf_puts(b, ",\"metadata\":{");
    int first = 1;
    for (int f = 0; f < WINNOW_META_COUNT; f++) {
        if (f == WINNOW_META_LANGUAGE) continue;
        json_kv(b, winnow_meta_name((winnow_meta_field)f), d->meta.field[f], !first);
        first = 0;
    }
    wn_buf_putc(b, '}');
    json_kv(b, "content_source", wn_doc_source_name(d), 1);
    page_type_json(d, b);
    body_json(d, jo->body, o);
    wn_buf_puts(b, ",\"posts\":[");
    records_json(d->posts, d->nposts, b);
    wn_buf_putc(b, ']');
    if (jo->comments) {
        wn_buf_puts(b, ",\"comments\":[");
        comments_json(d, b);
        wn_buf_putc(b, ']');
    }
    if (jo->blocks) {
        wn_buf_puts(b, ",\"blocks\":[");
        blocks_json(d, o);
        wn_buf_putc(b, ']');
    }
    wn_buf_puts(b, "}\n");
    wn_out_flush(o, 1);
}

void wn_render_jsonl_failure(const winnow_input *in, winnow_status st, const char *error, const wn_jsonl_opts *jo,
                             wn_out *o)
{
    wn_buf *b = &o->buf;
    const winnow_source *src = in ? in->source : NULL;
    jsonl_head(b, jo, src ? src->file : NULL, src ? src->record : -1, src ? src->record_id : NULL, in ? in->url : NULL,
               st, NULL, error ? error : winnow_status_message(st));
    wn_buf_puts(b, ",\"language\":null,\"metadata\":null,\"content_source\":null,\"page_type\":null,\"page_type_"
                   "confidence\":null,\"confidence\":null");
    body_json(NULL, jo->body, o);
    wn_buf_puts(b, ",\"posts\":null");
    if (jo->comments) wn_buf_puts(b, ",\"comments\":null");
    if (jo->blocks) wn_buf_puts(b, ",\"blocks\":null");
    wn_buf_puts(b, "}\n");
    wn_out_flush(o, 1);
}
