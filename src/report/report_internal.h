/* The report's private side, shared by its files: annotate.c (the whole
 * report: extracting the page, putting the parts together, coverage),
 * frame.c (the report's own parts: the head with its CSS and script, the
 * legend, the reasons table, the views, the fingerprint table), blocks.c
 * (each block's verdict, reasons and numbers, written as data-wn-*
 * attributes) and page.c (the page's own markup, made safe).
 *
 * The output helpers are static inline here: every file writes through
 * them, by the names they had when the report was one file. */
#ifndef WN_REPORT_INTERNAL_H
#define WN_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "../doc.h"
#include "../pipeline/pipeline.h"
#include "../site/model.h"

/* ---- output ---- */

typedef struct rout {
    wn_buf b;
    winnow_write_fn write;
    void *ctx;
    int failed;
} rout;

static inline void flush(rout *o, int force)
{
    if (o->failed || o->b.oom) return;
    if (!force && o->b.len < (64u << 10)) return;
    if (o->b.len && o->write(o->ctx, o->b.data, o->b.len) != 0) o->failed = 1;
    wn_buf_clear(&o->b);
}

static inline void puts_(rout *o, const char *s) { wn_buf_puts(&o->b, s); }

/* Valid UTF-8 of s[0..n) with &, <, > (and " in attributes) escaped;
 * invalid sequences, NUL and the other control characters but tab, line
 * feed, form feed and carriage return become U+FFFD. */
static inline void esc(rout *o, const char *s, size_t n, int attr)
{
    wn_buf *b = &o->b;
    static const char repl[] = "\xEF\xBF\xBD";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, start = 0;
    while (i < n) {
        unsigned c = p[i];
        const char *rep = NULL;
        size_t len = 1;
        if (c < 0x80) {
            if (c == '&')
                rep = "&amp;";
            else if (c == '<')
                rep = "&lt;";
            else if (c == '>')
                rep = "&gt;";
            else if (c == '"' && attr)
                rep = "&quot;";
            else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7F)
                rep = repl;
        } else {
            /* the length of a well-formed sequence, 0 when it is not one */
            size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            int ok = need && i + need <= n;
            for (size_t k = 1; ok && k < need; k++) ok = (p[i + k] & 0xC0) == 0x80;
            if (ok && need == 3) {
                unsigned c1 = p[i + 1];
                if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) ok = 0; /* overlong, surrogate */
            }
            if (ok && need == 4) {
                unsigned c1 = p[i + 1];
                if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) ok = 0; /* overlong, past U+10FFFF */
            }
            /* C1 controls (U+0080-U+009F) */
            if (ok && c == 0xC2 && p[i + 1] < 0xA0)
                rep = repl, len = 2;
            else if (ok)
                len = need;
            else
                rep = repl;
        }
        if (rep) {
            wn_buf_put(b, s + start, i - start);
            wn_buf_puts(b, rep);
            i += len;
            start = i;
        } else {
            i += len;
        }
    }
    wn_buf_put(b, s + start, i - start);
}

static inline void esc_s(rout *o, const char *s, int attr)
{
    if (s) esc(o, s, strlen(s), attr);
}

/* Verdict classes, in the legend's order. */
enum { V_CONTENT, V_TEMPLATE, V_COMMENTS, V_LINKLIST, V_BOILER, V_N };
static const char *const verdict_key[V_N] = { "content", "template", "comments", "linklist", "boilerplate" };

static inline int verdict_of_class(char cls)
{
    switch (cls) {
    case 'C': return V_CONTENT;
    case 'M': return V_COMMENTS;
    case 'L': return V_LINKLIST;
    case 'B': return V_BOILER;
    default: return V_TEMPLATE;
    }
}

typedef struct blockinfo {
    uint8_t verdict, why;
    uint8_t badge;     /* site report: an outermost template block */
    float heur, value; /* sums over its units */
    double df;         /* block fingerprint's document frequency, < 0 without a site */
} blockinfo;

typedef struct page_ctx {
    const winnow_doc *d;
    const blockinfo *bi;
    int32_t *nearest; /* per node: the nearest enclosing block, -1 when none */
    double pages;
} page_ctx;

/* frame.c */
void wn_report_make_nonce(char out[33]);
void wn_report_head(rout *o, const char *title, const char *nonce);
void wn_report_tail(rout *o, const char *nonce);
void wn_report_legend(rout *o, const unsigned *counts);
void wn_report_reasons_table(rout *o, const wn_rules *rules, const unsigned *count);
void wn_report_views(rout *o, int fps);
void wn_report_fingerprints(rout *o, const wn_report_options *opt, double pages, int hidden);

/* blocks.c */
blockinfo *wn_report_block_infos(const winnow_doc *d, const wn_site_model *m, double threshold);
void wn_report_block_attrs(rout *o, const winnow_doc *d, uint32_t k, const blockinfo *b, double pages);

/* page.c: the page's markup (0, or -1 out of memory), and the test the
 * page's lang attribute passes */
int wn_report_write_page(rout *o, const page_ctx *pc);
int wn_report_lang_like(const char *v, size_t n);

#endif
