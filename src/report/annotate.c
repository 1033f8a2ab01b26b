/* winnow annotate and winnow site --report (report.h): the page as winnow
 * read it, written again as HTML with its verdicts on it.
 *
 * Safety: the page's own markup is written from winnow's DOM, never copied
 * from the input. What a browser could load or run is gone before that:
 * the parser drops scripts, styles, iframes, SVG, media, templates and
 * hidden elements (WN_TF_SKIP); here <link>, <meta>, <base> and every
 * other head element go, images and inputs become text placeholders,
 * element names outside a fixed list become <span>, and only a handful of
 * attributes that load nothing survive (colspan, rowspan, dir, lang, list
 * numbering), checked character by character. Text and attribute values
 * are escaped, written as valid UTF-8 without control characters. A
 * Content-Security-Policy <meta> allows only inline styles and the one
 * script carrying this report's random nonce, so even a mistake here could
 * neither load nor run anything.
 *
 * Structure: the DOM came from an HTML5 parser, so written out again with
 * the same tags it parses back to the same tree; the few tags mapped to
 * others (a <form> becomes a <div>, an unknown element a <span>) may let a
 * parser close an element a little earlier, never drop one: every block
 * candidate is in the report. */
/*
 * This file puts the report together; its parts are frame.c, blocks.c
 * and page.c (report_internal.h). */
#include "report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../doc.h"
#include "../pipeline/pipeline.h"
#include "../site/model.h"
#include "../site/site_api.h"
#include "../site/signals.h"

/* ---- the whole report ---- */

static void source_line(rout *o, const winnow_doc *d)
{
    puts_(o, "<p class=\"wn-src\">");
    int any = 0;
    if (d->src_file) {
        puts_(o, "source: ");
        esc_s(o, d->src_file, 0);
        if (d->src_record >= 0) wn_buf_printf(&o->b, ", record %lld", d->src_record);
        any = 1;
    }
    const char *url = d->src_url ? d->src_url : d->meta.field[WINNOW_META_URL];
    if (url && *url) {
        puts_(o, any ? " &middot; URL: " : "URL: ");
        esc_s(o, url, 0);
        any = 1;
    }
    if (!any) puts_(o, "source: (not given)");
    puts_(o, "</p>\n");
}

static winnow_status finish(rout *o)
{
    flush(o, 1);
    winnow_status st = o->b.oom ? WINNOW_E_NOMEM : o->failed ? WINNOW_E_IO : WINNOW_OK;
    wn_buf_free(&o->b);
    return st;
}

static double template_threshold(const wn_site_model *m, double share)
{
    double pages = wn_site_model_pages(m);
    double t = share * pages;
    if (pages >= 2.0 && t < 1.5) t = 1.5;
    return t;
}

winnow_status wn_report_page(winnow_engine *e, const winnow_input *in, const wn_report_options *opt,
                             winnow_write_fn write, void *ctx)
{
    if (!e || !in || !opt || !write) return WINNOW_E_ARG;
    winnow_site_options so;
    winnow_site_options_default(&so, sizeof so);
    const winnow_site_options *sop = opt->site_opt ? opt->site_opt : &so;
    const wn_site_model *m = opt->site ? wn_site_unwrap(opt->site) : NULL;
    site_hook hook = { m, sop, NULL, NULL, NULL };
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_EXPLAIN, in, m && sop->mode != WINNOW_MODE_PAGE ? &hook : NULL, &d);
    if (WINNOW_FAILED(st)) return st;

    double pages = m ? wn_site_model_pages(m) : 0.0;
    double threshold = m && opt->site_report ? template_threshold(m, opt->template_share) : 0.0;
    blockinfo *bi = wn_report_block_infos(d, m, threshold);
    int32_t *nearest = malloc(((size_t)d->dom.count + 1) * sizeof *nearest);
    char *text = NULL;
    size_t text_len = 0;
    if (!bi || !nearest || winnow_render_alloc(d, WINNOW_FORMAT_TEXT, &text, &text_len) != WINNOW_OK) {
        free(bi);
        free(nearest);
        free(text);
        winnow_doc_free(d);
        return WINNOW_E_NOMEM;
    }
    {
        uint32_t next = 0;
        for (uint32_t i = 0; i < d->dom.count; i++) {
            if (next < d->nblocks && d->blocks[next] == i)
                nearest[i] = (int32_t)next++;
            else
                nearest[i] = i ? nearest[d->dom.nodes[i].parent] : -1;
        }
    }
    unsigned counts[V_N] = { 0 }, why_count[WN_WHY_COUNT] = { 0 };
    unsigned badges = 0;
    for (uint32_t k = 0; k < d->nblocks; k++) {
        counts[bi[k].verdict]++;
        why_count[bi[k].why]++;
        badges += bi[k].badge;
    }

    rout o = { .write = write, .ctx = ctx };
    wn_buf_init(&o.b);
    char nonce[33];
    wn_report_make_nonce(nonce);
    const char *title = d->meta.field[WINNOW_META_TITLE] && *d->meta.field[WINNOW_META_TITLE]
                            ? d->meta.field[WINNOW_META_TITLE]
                            : d->dom.title;
    char head_title[512];
    snprintf(head_title, sizeof head_title, "%s: %s", opt->command ? opt->command : "winnow annotate",
             title && *title ? title : "(untitled page)");
    wn_report_head(&o, head_title, nonce);

    puts_(&o, "<header id=\"wn-bar\">\n<h1>");
    esc_s(&o, opt->command ? opt->command : "winnow annotate", 0);
    if (opt->site_name) {
        puts_(&o, " ");
        esc_s(&o, opt->site_name, 0);
    }
    puts_(&o, ": ");
    esc_s(&o, title && *title ? title : "(untitled page)", 0);
    puts_(&o, "</h1>\n");
    source_line(&o, d);
    if (opt->page_note) {
        puts_(&o, "<p class=\"wn-note\">");
        esc_s(&o, opt->page_note, 0);
        puts_(&o, "</p>\n");
    }
    uint64_t kept = wn_kept_chars(d);
    wn_buf_printf(&o.b,
                  "<p class=\"wn-sum\" data-status=\"%s\">%s, content chosen by %s: %llu of %u characters kept; "
                  "%u blocks",
                  winnow_status_name(d->status), winnow_status_name(d->status), winnow_doc_source(d),
                  (unsigned long long)kept, d->stats[0].chars, d->nblocks);
    if (m) {
        wn_buf_printf(&o.b, "; site model %s (weight %.2f)", d->site_pages > 0 ? "applied" : "not applied", pages);
        if (!(d->site_pages > 0))
            puts_(&o, sop->mode == WINNOW_MODE_PAGE ? " in page mode" : ": too few pages for --mode auto");
        if (opt->site_report)
            wn_buf_printf(&o.b,
                          "; %u template blocks (block fingerprint on at least %.0f%% of the site's pages) marked "
                          "with their document frequency",
                          badges, 100.0 * opt->template_share);
    } else {
        wn_buf_printf(&o.b, "; page mode%s", d->labels.clf ? ", node classifier" : ", heuristic scorer alone");
    }
    /* the kind of page, as judged or forced (reported only: the content
     * is chosen the same way whatever the kind) */
    wn_buf_printf(&o.b, "; page type %s (confidence %.2f)", winnow_page_type_name((winnow_page_type)d->page_type),
                  (double)d->page_type_conf);
    if (d->warning[0]) {
        puts_(&o, "; warning: ");
        esc_s(&o, d->warning, 0);
    }
    puts_(&o, "</p>\n");
    wn_report_legend(&o, counts);
    wn_report_views(&o, opt->site_report);
    wn_report_reasons_table(&o, d->rules, why_count);
    puts_(&o, "</header>\n");

    /* the page, with the page's language */
    puts_(&o, "<main id=\"wn-page\" class=\"wn-view wn-page\"");
    if (d->dom.lang && wn_report_lang_like(d->dom.lang, strlen(d->dom.lang))) {
        puts_(&o, " lang=\"");
        esc_s(&o, d->dom.lang, 1);
        puts_(&o, "\"");
    }
    puts_(&o, ">\n");
    page_ctx pc = { d, bi, nearest, pages };
    int rc = wn_report_write_page(&o, &pc);
    puts_(&o, "\n</main>\n");

    /* the extracted text, and the comments found */
    puts_(&o, "<section id=\"wn-text\" class=\"wn-view\" hidden>\n<h2>Extracted text</h2>\n<pre>");
    esc(&o, text, text_len, 0);
    puts_(&o, "</pre>\n");
    size_t nc = winnow_doc_comment_count(d);
    if (nc) {
        wn_buf_printf(&o.b, "<h2>Reader comments (%zu)</h2>\n", nc);
        for (size_t k = 0; k < nc; k++) {
            winnow_comment c = { sizeof c };
            if (winnow_doc_comment(d, k, &c) != WINNOW_OK) continue;
            puts_(&o, "<pre>-- ");
            esc_s(&o, *c.author ? c.author : "(no author)", 0);
            if (*c.date) {
                puts_(&o, ", ");
                esc_s(&o, c.date, 0);
            }
            puts_(&o, "\n");
            esc_s(&o, c.text, 0);
            puts_(&o, "</pre>\n");
            flush(&o, 0);
        }
    }
    puts_(&o, "</section>\n");
    if (opt->site_report) wn_report_fingerprints(&o, opt, pages, 1);
    wn_report_tail(&o, nonce);
    free(text);
    free(bi);
    free(nearest);
    winnow_doc_free(d);
    if (rc != 0) {
        wn_buf_free(&o.b);
        return WINNOW_E_NOMEM;
    }
    return finish(&o);
}

winnow_status wn_report_site_only(const wn_report_options *opt, winnow_write_fn write, void *ctx)
{
    if (!opt || !write || !opt->site) return WINNOW_E_ARG;
    const wn_site_model *m = wn_site_unwrap(opt->site);
    rout o = { .write = write, .ctx = ctx };
    wn_buf_init(&o.b);
    char nonce[33];
    wn_report_make_nonce(nonce);
    char title[512];
    snprintf(title, sizeof title, "%s %s", opt->command ? opt->command : "winnow site --report",
             opt->site_name ? opt->site_name : "");
    wn_report_head(&o, title, nonce);
    puts_(&o, "<header id=\"wn-bar\">\n<h1>");
    esc_s(&o, title, 0);
    puts_(&o, "</h1>\n");
    if (opt->page_note) {
        puts_(&o, "<p class=\"wn-note\">");
        esc_s(&o, opt->page_note, 0);
        puts_(&o, "</p>\n");
    }
    puts_(&o, "</header>\n");
    wn_report_fingerprints(&o, opt, wn_site_model_pages(m), 0);
    wn_report_tail(&o, nonce);
    return finish(&o);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

winnow_status wn_report_coverage(winnow_engine *e, const winnow_input *in, const winnow_site *site, double share,
                                 size_t *fingerprints_out, size_t *chars_out)
{
    *fingerprints_out = 0;
    *chars_out = 0;
    const wn_site_model *m = wn_site_unwrap(site);
    if (!m) return WINNOW_E_ARG;
    winnow_doc *d = NULL;
    winnow_status st = winnow_extract(e, in, &d);
    if (WINNOW_FAILED(st)) return st;
    double threshold = template_threshold(m, share);
    /* distinct fingerprints: sorted copies */
    uint64_t *fp = malloc(((size_t)d->nblocks + 1) * sizeof *fp);
    uint8_t *tmpl = calloc((size_t)d->nblocks + 1, 1);
    if (!fp || !tmpl) {
        free(fp);
        free(tmpl);
        winnow_doc_free(d);
        return WINNOW_E_NOMEM;
    }
    size_t nfp = 0, chars = 0;
    for (uint32_t k = 0; k < d->nblocks; k++) {
        uint64_t f = d->stats[d->blocks[k]].fingerprint;
        if (!f || wn_site_model_df(m, WN_KEY_BLOCK, f) + 1e-9 < threshold) continue;
        tmpl[k] = 1;
        fp[nfp++] = f;
        long p = d->block_parent[k];
        if (p < 0 || !tmpl[p]) chars += d->stats[d->blocks[k]].chars;
    }
    qsort(fp, nfp, sizeof *fp, cmp_u64);
    size_t distinct = 0;
    for (size_t a = 0; a < nfp; a++) distinct += a == 0 || fp[a] != fp[a - 1];
    free(fp);
    free(tmpl);
    winnow_doc_free(d);
    *fingerprints_out = distinct;
    *chars_out = chars;
    return WINNOW_OK;
}
