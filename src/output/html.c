/* HTML: the kept subtree as clean HTML. Structure and meaning survive
 * (headings, paragraphs, lists, tables, quotes, code, links, images);
 * presentation, scripts and every attribute but href/src/alt/title go. */
#include "render.h"

#include <string.h>

typedef struct html_out {
    wn_buf *b;
} html_out;

static int keep_tag(unsigned t)
{
    switch (t) {
    case WN_TAG_P: case WN_TAG_H1: case WN_TAG_H2: case WN_TAG_H3: case WN_TAG_H4: case WN_TAG_H5:
    case WN_TAG_H6: case WN_TAG_UL: case WN_TAG_OL: case WN_TAG_LI: case WN_TAG_DL: case WN_TAG_DT:
    case WN_TAG_DD: case WN_TAG_TABLE: case WN_TAG_THEAD: case WN_TAG_TBODY: case WN_TAG_TFOOT:
    case WN_TAG_TR: case WN_TAG_TD: case WN_TAG_TH: case WN_TAG_CAPTION: case WN_TAG_BLOCKQUOTE:
    case WN_TAG_PRE: case WN_TAG_CODE: case WN_TAG_A: case WN_TAG_IMG: case WN_TAG_BR: case WN_TAG_HR:
    case WN_TAG_EM: case WN_TAG_STRONG: case WN_TAG_B: case WN_TAG_I: case WN_TAG_SUB: case WN_TAG_SUP:
    case WN_TAG_FIGURE: case WN_TAG_FIGCAPTION: case WN_TAG_Q: case WN_TAG_CITE: case WN_TAG_ABBR:
    case WN_TAG_KBD: case WN_TAG_SAMP: case WN_TAG_VAR: case WN_TAG_MARK: case WN_TAG_DEL: case WN_TAG_INS:
    case WN_TAG_SECTION: case WN_TAG_ARTICLE: case WN_TAG_DIV: case WN_TAG_TIME:
        return 1;
    default:
        return 0;
    }
}

static void attr_out(wn_buf *b, const winnow_doc *d, const wn_node *x, const char *name)
{
    size_t len = 0;
    const char *v = wn_node_attr(&d->dom, x, name, &len);
    if (!v) return;
    if (!strcmp(name, "href") && !strncmp(v, "javascript:", 11)) return;
    wn_buf_printf(b, " %s=\"", name);
    wn_buf_html_escape(b, v, len, 1);
    wn_buf_putc(b, '"');
}

static void h_enter(void *ctx, const winnow_doc *d, uint32_t i)
{
    html_out *h = ctx;
    const wn_node *x = &d->dom.nodes[i];
    if (!keep_tag(x->tag)) return;
    /* an image or element whose unit was dropped stays out */
    if (x->tag == WN_TAG_IMG && !d->labels.keep[d->labels.unit[i]]) return;
    wn_buf_putc(h->b, '<');
    wn_buf_puts(h->b, x->name);
    if (x->tag == WN_TAG_A) attr_out(h->b, d, x, "href");
    if (x->tag == WN_TAG_IMG) { attr_out(h->b, d, x, "src"); attr_out(h->b, d, x, "alt"); }
    if (x->tag == WN_TAG_ABBR) attr_out(h->b, d, x, "title");
    if (x->tag == WN_TAG_TIME) attr_out(h->b, d, x, "datetime");
    wn_buf_putc(h->b, '>');
}

static void h_leave(void *ctx, const winnow_doc *d, uint32_t i)
{
    html_out *h = ctx;
    const wn_node *x = &d->dom.nodes[i];
    if (!keep_tag(x->tag) || wn_tag_has(x->tag, WN_TF_VOID)) return;
    wn_buf_puts(h->b, "</");
    wn_buf_puts(h->b, x->name);
    wn_buf_putc(h->b, '>');
    if (wn_tag_has(x->tag, WN_TF_BREAK)) wn_buf_putc(h->b, '\n');
}

static void h_text(void *ctx, const winnow_doc *d, uint32_t i)
{
    html_out *h = ctx;
    const wn_node *x = &d->dom.nodes[i];
    wn_buf_html_escape(h->b, d->dom.text + x->text_begin, x->text_len, 0);
}

void wn_render_html(const winnow_doc *d, wn_out *o)
{
    wn_buf *b = &o->buf;
    const char *title = d->meta.field[WINNOW_META_TITLE];
    const char *lang = d->meta.field[WINNOW_META_LANGUAGE];
    wn_buf_puts(b, "<!DOCTYPE html>\n<html");
    if (*lang) { wn_buf_puts(b, " lang=\""); wn_buf_html_escape(b, lang, strlen(lang), 1); wn_buf_putc(b, '"'); }
    wn_buf_puts(b, ">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    wn_buf_html_escape(b, title, strlen(title), 0);
    wn_buf_puts(b, "</title>\n</head>\n<body>\n<article>\n");
    html_out h = {b};
    wn_walk_cb cb = {h_enter, h_leave, h_text};
    if (wn_walk_kept(d, &cb, &h) != 0) o->nomem = 1;
    wn_buf_puts(b, "\n</article>\n</body>\n</html>\n");
    wn_out_flush(o, 1);
}
