/* HTML: the kept subtree as clean HTML. Structure and meaning survive
 * (headings, paragraphs, lists, tables, quotes, code, links, images);
 * presentation, scripts and every attribute but href/src/alt/title go.
 *
 * The output is a fragment an HTML5 parser reads back as the same tree:
 *  - an element whose own context was left out gets it back: a content
 *    root that is a <tbody>, <tr> or cell is wrapped in <table> (and
 *    <tbody>, <tr>), an <li> outside a list in <ul>/<ol>, <dt>/<dd> in <dl>,
 *    <figcaption> in <figure>;
 *  - elements without kept content (a link whose text was dropped, a
 *    paragraph of template text) are left out; the cells of a row that has
 *    content stay, so that columns keep their places;
 *  - what a parser would close or move because an element between them was
 *    left out (a <button> or <object> let a <p> hold a block, a heading hold
 *    a heading, a link hold a link) is written so that it cannot: such a <p>
 *    or heading becomes a <div>, the outer link loses its tag;
 *  - a <pre> whose text starts with a line break gets the extra line break
 *    the parser drops. */
#include "render.h"

#include <stdlib.h>
#include <string.h>

/* per-node flags over the walked range */
enum {
    HF_CONTENT = 1 << 0, /* kept text that is not only white space, or a kept image, in the subtree */
    HF_PBLOCK = 1 << 1,  /* below: an element whose start tag closes an open <p> */
    HF_HEADING = 1 << 2, /* below: a heading with content */
    HF_LINK = 1 << 3,    /* below: a link with content */
    HF_WRAP_SHIFT = 4,   /* bits 4-7: the wrapper written around the element (enum wrap) */
};

enum wrap { WRAP_NONE, WRAP_UL, WRAP_OL, WRAP_DL, WRAP_FIGURE, WRAP_TABLE, WRAP_TBODY, WRAP_TR };

typedef struct html_out {
    wn_buf *b;
    uint8_t *flags; /* per DOM node */
    int after_pre;  /* the last thing written was a <pre> start tag */
    int pre_depth;  /* open <pre>s: inside one, no line break is added after a block */
    uint32_t root;  /* the root of the range being walked: the headline or the container */
} html_out;

static int keep_tag(unsigned t)
{
    switch (t) {
    case WN_TAG_P:
    case WN_TAG_H1:
    case WN_TAG_H2:
    case WN_TAG_H3:
    case WN_TAG_H4:
    case WN_TAG_H5:
    case WN_TAG_H6:
    case WN_TAG_UL:
    case WN_TAG_OL:
    case WN_TAG_LI:
    case WN_TAG_DL:
    case WN_TAG_DT:
    case WN_TAG_DD:
    case WN_TAG_TABLE:
    case WN_TAG_THEAD:
    case WN_TAG_TBODY:
    case WN_TAG_TFOOT:
    case WN_TAG_TR:
    case WN_TAG_TD:
    case WN_TAG_TH:
    case WN_TAG_CAPTION:
    case WN_TAG_BLOCKQUOTE:
    case WN_TAG_PRE:
    case WN_TAG_CODE:
    case WN_TAG_A:
    case WN_TAG_IMG:
    case WN_TAG_BR:
    case WN_TAG_HR:
    case WN_TAG_EM:
    case WN_TAG_STRONG:
    case WN_TAG_B:
    case WN_TAG_I:
    case WN_TAG_SUB:
    case WN_TAG_SUP:
    case WN_TAG_FIGURE:
    case WN_TAG_FIGCAPTION:
    case WN_TAG_Q:
    case WN_TAG_CITE:
    case WN_TAG_ABBR:
    case WN_TAG_KBD:
    case WN_TAG_SAMP:
    case WN_TAG_VAR:
    case WN_TAG_MARK:
    case WN_TAG_DEL:
    case WN_TAG_INS:
    case WN_TAG_SECTION:
    case WN_TAG_ARTICLE:
    case WN_TAG_DIV:
    case WN_TAG_TIME: return 1;
    default: return 0;
    }
}

/* Kept tags whose start tag closes an open <p> (HTML5 "in body"). */
static int closes_p(unsigned t)
{
    switch (t) {
    case WN_TAG_ARTICLE:
    case WN_TAG_BLOCKQUOTE:
    case WN_TAG_DIV:
    case WN_TAG_DL:
    case WN_TAG_DT:
    case WN_TAG_DD:
    case WN_TAG_LI:
    case WN_TAG_FIGCAPTION:
    case WN_TAG_FIGURE:
    case WN_TAG_OL:
    case WN_TAG_UL:
    case WN_TAG_P:
    case WN_TAG_SECTION:
    case WN_TAG_PRE:
    case WN_TAG_TABLE:
    case WN_TAG_HR:
    case WN_TAG_H1:
    case WN_TAG_H2:
    case WN_TAG_H3:
    case WN_TAG_H4:
    case WN_TAG_H5:
    case WN_TAG_H6: return 1;
    default: return 0;
    }
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

static int image_kept(const winnow_doc *d, uint32_t i) { return d->labels.keep[d->labels.unit[i]] != 0; }

/* The root of the range being walked: the headline, then the container.
 * A headline inside the container is, in the container's walk, an element
 * like any other (an item of its list, not a root wrapped in a list of its
 * own). */
static uint32_t range_root(const html_out *h) { return h->root; }

static uint32_t written_parent(const winnow_doc *d, const html_out *h, uint32_t i);

/* Kept text that is not only white space. */
static int text_content(const winnow_doc *d, uint32_t i)
{
    const wn_node *x = &d->dom.nodes[i];
    if (!d->labels.keep[i]) return 0;
    for (uint32_t k = 0; k < x->text_len; k++)
        if (!is_space(d->dom.text[x->text_begin + k])) return 1;
    return 0;
}

/* A <div> the page put in a list around items of it (<ul><div><li>), and
 * nothing else: left out, so that the items stand in their list (a list
 * around them, to keep them valid, would nest them a level deeper). */
static int items_wrapper(const winnow_doc *d, const html_out *h, uint32_t i)
{
    int items = 0;
    for (uint32_t c = d->dom.nodes[i].first_child; c != WN_NONE; c = d->dom.nodes[c].next_sibling) {
        const wn_node *y = &d->dom.nodes[c];
        if (y->tag == WN_TAG_TEXT) {
            if (text_content(d, c)) return 0;
        } else if (y->tag == WN_TAG_LI) {
            items |= (h->flags[c] & HF_CONTENT) != 0;
        } else if ((h->flags[c] & HF_CONTENT) || y->tag == WN_TAG_BR || y->tag == WN_TAG_HR) {
            return 0;
        }
    }
    if (!items) return 0;
    uint32_t p = written_parent(d, h, i);
    unsigned pt = p == WN_NONE ? WN_TAG_UNKNOWN : d->dom.nodes[p].tag;
    return pt == WN_TAG_UL || pt == WN_TAG_OL;
}

/* A block that holds a line break and nothing else: in a <pre>, an empty
 * line of code (a highlighter's <div><br></div>). */
static int lone_break(const winnow_doc *d, uint32_t i)
{
    int breaks = 0;
    for (uint32_t c = d->dom.nodes[i].first_child; c != WN_NONE; c = d->dom.nodes[c].next_sibling) {
        const wn_node *y = &d->dom.nodes[c];
        if (y->tag == WN_TAG_BR) {
            breaks++;
        } else if (y->tag == WN_TAG_TEXT) {
            for (uint32_t k = 0; k < y->text_len; k++)
                if (!is_space(d->dom.text[y->text_begin + k])) return 0;
        } else {
            return 0;
        }
    }
    return breaks > 0;
}

/* Whether element i is written as a tag. */
static int emitted(const winnow_doc *d, const html_out *h, uint32_t i)
{
    const uint8_t *fl = h->flags;
    const wn_node *x = &d->dom.nodes[i];
    if (!keep_tag(x->tag)) return 0;
    int root = i == range_root(h);
    switch (x->tag) {
    case WN_TAG_IMG: return image_kept(d, i);
    /* breaks and rules inside content; cells of a row with content; in a
     * <pre>, a break that is an empty line of the code */
    case WN_TAG_BR:
        if (root) return (fl[i] & HF_CONTENT) != 0;
        if (h->pre_depth && lone_break(d, x->parent)) return 1;
        if (fl[x->parent] & HF_CONTENT) return 1;
        /* a break in an inline element of its own (<span><br></span>)
         * breaks the line of the text around it (not between blocks, where
         * it would be an empty line) */
        for (uint32_t p = x->parent, hops = 0; p != WN_NONE && hops < 8; p = d->dom.nodes[p].parent, hops++) {
            if (fl[p] & HF_CONTENT) return !(fl[p] & HF_PBLOCK);
            if (p == range_root(h) || wn_tag_has(d->dom.nodes[p].tag, WN_TF_BREAK)) return 0;
        }
        return 0;
    case WN_TAG_HR:
    case WN_TAG_TD:
    case WN_TAG_TH: return root ? (fl[i] & HF_CONTENT) != 0 : (fl[x->parent] & HF_CONTENT) != 0;
    case WN_TAG_A: return (fl[i] & HF_CONTENT) && !(fl[i] & HF_LINK);
    case WN_TAG_DIV: return (fl[i] & HF_CONTENT) && !(!root && items_wrapper(d, h, i));
    default: return (fl[i] & HF_CONTENT) != 0;
    }
}

/* The tag name element i is written with. */
static const char *out_name(const winnow_doc *d, const html_out *h, uint32_t i)
{
    const uint8_t *fl = h->flags;
    const wn_node *x = &d->dom.nodes[i];
    if (x->tag == WN_TAG_P && (fl[i] & HF_PBLOCK)) return "div";
    if (wn_tag_has(x->tag, WN_TF_HEADING) && (fl[i] & HF_HEADING)) return "div";
    return x->name;
}

static void compute_flags(const winnow_doc *d, uint32_t root, uint8_t *fl)
{
    const wn_dom *dom = &d->dom;
    uint32_t end = root + dom->nodes[root].size;
    memset(fl + root, 0, end - root);
    for (uint32_t i = end; i-- > root;) {
        const wn_node *x = &dom->nodes[i];
        uint8_t up;
        if (x->tag == WN_TAG_TEXT) {
            up = 0;
            if (d->labels.keep[i]) {
                const char *s = dom->text + x->text_begin;
                for (uint32_t k = 0; k < x->text_len && !up; k++)
                    if (!is_space(s[k])) up = HF_CONTENT;
            }
        } else {
            if (x->tag == WN_TAG_IMG && image_kept(d, i)) fl[i] |= HF_CONTENT;
            up = fl[i] & (HF_CONTENT | HF_PBLOCK | HF_HEADING | HF_LINK);
            if (keep_tag(x->tag) && ((fl[i] & HF_CONTENT) || x->tag == WN_TAG_HR)) {
                if (closes_p(x->tag)) up |= HF_PBLOCK;
                if (wn_tag_has(x->tag, WN_TF_HEADING)) up |= HF_HEADING;
                if (x->tag == WN_TAG_A) up |= HF_LINK;
            }
        }
        if (i != root) fl[x->parent] |= up;
    }
}

/* The nearest written ancestor of i inside its range, WN_NONE when there is
 * none (the range's root, or more than a few unwritten elements between:
 * the element is then wrapped, which is always valid). */
static uint32_t written_parent(const winnow_doc *d, const html_out *h, uint32_t i)
{
    uint32_t root = range_root(h);
    uint32_t p = i;
    for (int hops = 0; hops < 64 && p != root; hops++) {
        p = d->dom.nodes[p].parent;
        if (p == WN_NONE || !wn_node_within(&d->dom, root, p)) return WN_NONE;
        if (emitted(d, h, p)) return p;
    }
    return WN_NONE;
}

static int parent_is(const winnow_doc *d, const html_out *h, uint32_t p, const char *name)
{
    return p != WN_NONE && !strcmp(out_name(d, h, p), name);
}

static enum wrap wrap_for(const winnow_doc *d, const html_out *h, uint32_t i)
{
    const wn_node *x = &d->dom.nodes[i];
    uint32_t p;
    switch (x->tag) {
    case WN_TAG_LI:
        p = written_parent(d, h, i);
        if (parent_is(d, h, p, "ul") || parent_is(d, h, p, "ol")) return WRAP_NONE;
        return x->parent != WN_NONE && d->dom.nodes[x->parent].tag == WN_TAG_OL ? WRAP_OL : WRAP_UL;
    case WN_TAG_DT:
    case WN_TAG_DD:
        p = written_parent(d, h, i);
        if (parent_is(d, h, p, "dl")) return WRAP_NONE;
        /* <dl><div><dt> is allowed too */
        if (parent_is(d, h, p, "div") && parent_is(d, h, written_parent(d, h, p), "dl")) return WRAP_NONE;
        return WRAP_DL;
    case WN_TAG_FIGCAPTION: return parent_is(d, h, written_parent(d, h, i), "figure") ? WRAP_NONE : WRAP_FIGURE;
    case WN_TAG_TBODY:
    case WN_TAG_THEAD:
    case WN_TAG_TFOOT:
    case WN_TAG_CAPTION: return parent_is(d, h, written_parent(d, h, i), "table") ? WRAP_NONE : WRAP_TABLE;
    case WN_TAG_TR:
        p = written_parent(d, h, i);
        return parent_is(d, h, p, "tbody") || parent_is(d, h, p, "thead") || parent_is(d, h, p, "tfoot") ? WRAP_NONE
                                                                                                         : WRAP_TBODY;
    case WN_TAG_TD:
    case WN_TAG_TH: return parent_is(d, h, written_parent(d, h, i), "tr") ? WRAP_NONE : WRAP_TR;
    default: return WRAP_NONE;
    }
}

/* The tags a wrapper opens, outermost first. */
static const char *const *wrap_tags(enum wrap w)
{
    static const char *const ul[] = { "ul", NULL }, *const ol[] = { "ol", NULL }, *const dl[] = { "dl", NULL },
                             *const fig[] = { "figure", NULL }, *const table[] = { "table", NULL },
                             *const tbody[] = { "table", "tbody", NULL },
                             *const tr[] = { "table", "tbody", "tr", NULL }, *const none[] = { NULL };
    switch (w) {
    case WRAP_UL: return ul;
    case WRAP_OL: return ol;
    case WRAP_DL: return dl;
    case WRAP_FIGURE: return fig;
    case WRAP_TABLE: return table;
    case WRAP_TBODY: return tbody;
    case WRAP_TR: return tr;
    default: return none;
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
    if (h->root == WN_NONE || !wn_node_within(&d->dom, h->root, i)) h->root = i; /* a walk begins */
    if (!emitted(d, h, i)) return;
    enum wrap w = wrap_for(d, h, i);
    h->flags[i] = (uint8_t)((h->flags[i] & 0x0F) | (unsigned)w << HF_WRAP_SHIFT);
    for (const char *const *t = wrap_tags(w); *t; t++) wn_buf_printf(h->b, "<%s>", *t);
    wn_buf_putc(h->b, '<');
    wn_buf_puts(h->b, out_name(d, h, i));
    if (x->tag == WN_TAG_A) attr_out(h->b, d, x, "href");
    if (x->tag == WN_TAG_IMG) {
        attr_out(h->b, d, x, "src");
        attr_out(h->b, d, x, "alt");
    }
    if (x->tag == WN_TAG_ABBR) attr_out(h->b, d, x, "title");
    if (x->tag == WN_TAG_TIME) attr_out(h->b, d, x, "datetime");
    wn_buf_putc(h->b, '>');
    h->after_pre = x->tag == WN_TAG_PRE;
    if (x->tag == WN_TAG_PRE) h->pre_depth++;
}

static void h_leave(void *ctx, const winnow_doc *d, uint32_t i)
{
    html_out *h = ctx;
    const wn_node *x = &d->dom.nodes[i];
    if (!emitted(d, h, i)) return;
    h->after_pre = 0;
    if (!wn_tag_has(x->tag, WN_TF_VOID)) {
        wn_buf_puts(h->b, "</");
        wn_buf_puts(h->b, out_name(d, h, i));
        wn_buf_putc(h->b, '>');
    }
    const char *const *t = wrap_tags((enum wrap)(h->flags[i] >> HF_WRAP_SHIFT));
    size_t n = 0;
    while (t[n]) n++;
    while (n--) wn_buf_printf(h->b, "</%s>", t[n]);
    if (x->tag == WN_TAG_PRE && h->pre_depth) h->pre_depth--;
    /* a line break between blocks, for reading; not inside a <pre>, where
     * it would be a line of the code (a highlighter's <div> a line) */
    if (wn_tag_has(x->tag, WN_TF_BREAK) && !h->pre_depth) wn_buf_putc(h->b, '\n');
}

static void h_text(void *ctx, const winnow_doc *d, uint32_t i)
{
    html_out *h = ctx;
    const wn_node *x = &d->dom.nodes[i];
    const char *s = d->dom.text + x->text_begin;
    size_t n = x->text_len;
    if (!n) return;
    /* a parser drops one line break right after <pre> */
    if (h->after_pre && s[0] == '\n') wn_buf_putc(h->b, '\n');
    h->after_pre = 0;
    /* a raw carriage return would be read back as a line feed */
    size_t start = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] != '\r') continue;
        wn_buf_html_escape(h->b, s + start, k - start, 0);
        wn_buf_puts(h->b, "&#13;");
        start = k + 1;
    }
    wn_buf_html_escape(h->b, s + start, n - start, 0);
}

void wn_render_html(const winnow_doc *d, wn_out *o)
{
    wn_buf *b = &o->buf;
    const char *title = d->meta.field[WINNOW_META_TITLE];
    const char *lang = d->meta.field[WINNOW_META_LANGUAGE];
    wn_buf_puts(b, "<!DOCTYPE html>\n<html");
    if (*lang) {
        wn_buf_puts(b, " lang=\"");
        wn_buf_html_escape(b, lang, strlen(lang), 1);
        wn_buf_putc(b, '"');
    }
    wn_buf_puts(b, ">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    wn_buf_html_escape(b, title, strlen(title), 0);
    wn_buf_puts(b, "</title>\n</head>\n<body>\n<article>\n");
    const wn_labels *lb = &d->labels;
    if (lb->container != WN_NONE) {
        html_out h = { b, malloc(d->dom.count ? d->dom.count : 1), 0, 0, WN_NONE };
        wn_walk_cb cb = { h_enter, h_leave, h_text };
        if (!h.flags)
            o->nomem = 1;
        else {
            if (lb->headline != WN_NONE) compute_flags(d, lb->headline, h.flags);
            compute_flags(d, lb->container, h.flags);
            if (wn_walk_kept(d, &cb, &h) != 0) o->nomem = 1;
        }
        free(h.flags);
    }
    wn_buf_puts(b, "\n</article>\n</body>\n</html>\n");
    wn_out_flush(o, 1);
}
