/* The page's own markup in the report, written from winnow's DOM: which
 * elements are kept, mapped, turned into placeholders or dropped, the few
 * attributes that survive, and the walk that writes the page with each
 * block marked. Why this is safe: annotate.c's opening comment. */
#include "report_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the page's markup ---- */

enum { E_DROP, E_ELEM, E_TRANSPARENT, E_IMG, E_INPUT };

typedef struct emit {
    int kind;
    const char *name;
    int blk; /* a <span> standing for a line-breaking element */
    int is_void;
} emit;

static emit map_element(const wn_node *x)
{
    switch (x->tag) {
    case WN_TAG_A:
    case WN_TAG_ABBR:
    case WN_TAG_ADDRESS:
    case WN_TAG_ARTICLE:
    case WN_TAG_ASIDE:
    case WN_TAG_B:
    case WN_TAG_BDI:
    case WN_TAG_BDO:
    case WN_TAG_BLOCKQUOTE:
    case WN_TAG_BUTTON:
    case WN_TAG_CAPTION:
    case WN_TAG_CENTER:
    case WN_TAG_CITE:
    case WN_TAG_CODE:
    case WN_TAG_COLGROUP:
    case WN_TAG_DATA:
    case WN_TAG_DD:
    case WN_TAG_DEL:
    case WN_TAG_DFN:
    case WN_TAG_DIR:
    case WN_TAG_DIV:
    case WN_TAG_DL:
    case WN_TAG_DT:
    case WN_TAG_EM:
    case WN_TAG_FIELDSET:
    case WN_TAG_FIGCAPTION:
    case WN_TAG_FIGURE:
    case WN_TAG_FONT:
    case WN_TAG_FOOTER:
    case WN_TAG_H1:
    case WN_TAG_H2:
    case WN_TAG_H3:
    case WN_TAG_H4:
    case WN_TAG_H5:
    case WN_TAG_H6:
    case WN_TAG_HEADER:
    case WN_TAG_HGROUP:
    case WN_TAG_I:
    case WN_TAG_INS:
    case WN_TAG_KBD:
    case WN_TAG_LABEL:
    case WN_TAG_LEGEND:
    case WN_TAG_LI:
    case WN_TAG_MAIN:
    case WN_TAG_MARK:
    case WN_TAG_MENU:
    case WN_TAG_NAV:
    case WN_TAG_OBJECT:
    case WN_TAG_OL:
    case WN_TAG_P:
    case WN_TAG_PRE:
    case WN_TAG_Q:
    case WN_TAG_RP:
    case WN_TAG_RT:
    case WN_TAG_RUBY:
    case WN_TAG_S:
    case WN_TAG_SAMP:
    case WN_TAG_SECTION:
    case WN_TAG_SMALL:
    case WN_TAG_SPAN:
    case WN_TAG_STRIKE:
    case WN_TAG_STRONG:
    case WN_TAG_SUB:
    case WN_TAG_SUP:
    case WN_TAG_TABLE:
    case WN_TAG_TBODY:
    case WN_TAG_TD:
    case WN_TAG_TFOOT:
    case WN_TAG_TH:
    case WN_TAG_THEAD:
    case WN_TAG_TIME:
    case WN_TAG_TR:
    case WN_TAG_TT:
    case WN_TAG_U:
    case WN_TAG_UL:
    case WN_TAG_VAR: return (emit){ E_ELEM, wn_tag_names[x->tag], 0, 0 };
    case WN_TAG_BR:
    case WN_TAG_COL:
    case WN_TAG_HR:
    case WN_TAG_WBR: return (emit){ E_ELEM, wn_tag_names[x->tag], 0, 1 };
    /* a form would submit, a dialog or details hide what winnow read */
    case WN_TAG_FORM:
    case WN_TAG_DETAILS:
    case WN_TAG_SUMMARY:
    case WN_TAG_DIALOG:
    case WN_TAG_FRAMESET: return (emit){ E_ELEM, "div", 0, 0 };
    /* raw-text elements in a browser: their text, as the parser read it */
    case WN_TAG_XMP:
    case WN_TAG_LISTING:
    case WN_TAG_PLAINTEXT: return (emit){ E_ELEM, "pre", 0, 0 };
    case WN_TAG_NOFRAMES: return (emit){ E_ELEM, "span", 1, 0 };
    case WN_TAG_HTML:
    case WN_TAG_BODY: return (emit){ E_TRANSPARENT, NULL, 0, 0 };
    case WN_TAG_IMG: return (emit){ E_IMG, "span", 0, 0 };
    case WN_TAG_INPUT: return (emit){ E_INPUT, "span", 0, 0 }; /* (type=hidden: dropped by the writer) */
    case WN_TAG_HEAD:
    case WN_TAG_TITLE:
    case WN_TAG_BASE:
    case WN_TAG_LINK:
    case WN_TAG_META:
    case WN_TAG_AREA:
    case WN_TAG_FRAME:
    case WN_TAG_SCRIPT:
    case WN_TAG_STYLE:
    case WN_TAG_IFRAME:
    case WN_TAG_TEMPLATE:
    case WN_TAG_NOSCRIPT:
    case WN_TAG_NOEMBED:
    case WN_TAG_SVG:
    case WN_TAG_EMBED:
    case WN_TAG_PARAM:
    case WN_TAG_SOURCE:
    case WN_TAG_TRACK:
    case WN_TAG_AUDIO:
    case WN_TAG_VIDEO:
    case WN_TAG_CANVAS:
    case WN_TAG_SELECT:
    case WN_TAG_TEXTAREA:
    case WN_TAG_DATALIST: return (emit){ E_DROP, NULL, 0, 0 };
    default:
        /* anything else (option, meter, math, custom elements, names
         * winnow does not know): a span, a line of its own where winnow
         * breaks lines */
        return (emit){ E_ELEM, "span", wn_tag_has(x->tag, WN_TF_BREAK), 0 };
    }
}

/* Attribute values that load and run nothing, character by character. */
static int digits_only(const char *v, size_t n, size_t max)
{
    if (!n || n > max) return 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] < '0' || v[i] > '9') return 0;
    return 1;
}

int wn_report_lang_like(const char *v, size_t n)
{
    if (!n || n > 35) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) return 0;
    }
    return 1;
}

static void safe_attrs(rout *o, const wn_dom *dom, const wn_node *x)
{
    for (uint32_t a = x->attr_begin; a < x->attr_begin + x->attr_count && a < dom->attr_count; a++) {
        const wn_attr *at = &dom->attrs[a];
        const char *k = at->name, *v = at->value;
        size_t n = at->value_len;
        int ok = 0;
        if (!strcmp(k, "colspan") || !strcmp(k, "rowspan"))
            ok = (x->tag == WN_TAG_TD || x->tag == WN_TAG_TH) && digits_only(v, n, 4);
        else if (!strcmp(k, "span"))
            ok = (x->tag == WN_TAG_COL || x->tag == WN_TAG_COLGROUP) && digits_only(v, n, 4);
        else if (!strcmp(k, "start"))
            ok = x->tag == WN_TAG_OL && digits_only(v, n, 9);
        else if (!strcmp(k, "value"))
            ok = x->tag == WN_TAG_LI && digits_only(v, n, 9);
        else if (!strcmp(k, "reversed"))
            ok = x->tag == WN_TAG_OL, n = 0;
        else if (!strcmp(k, "type"))
            ok = (x->tag == WN_TAG_OL || x->tag == WN_TAG_LI) && n == 1 && v[0] && strchr("1aAiI", v[0]);
        else if (!strcmp(k, "dir"))
            ok = !strcmp(v, "ltr") || !strcmp(v, "rtl") || !strcmp(v, "auto");
        else if (!strcmp(k, "lang"))
            ok = wn_report_lang_like(v, n);
        if (!ok) continue;
        wn_buf_printf(&o->b, " %s=\"", k);
        esc(o, v, n, 1);
        wn_buf_putc(&o->b, '"');
    }
}

/* A short bit of an attribute for a placeholder: at most max bytes, cut
 * at a character boundary. */
static void attr_snip(rout *o, const wn_dom *dom, const wn_node *x, const char *name, size_t max)
{
    size_t n = 0;
    const char *v = wn_node_attr(dom, x, name, &n);
    if (!v || !n) return;
    size_t cut = n;
    if (cut > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80) cut--;
    }
    esc(o, v, cut, 0);
    if (cut < n) puts_(o, "\xE2\x80\xA6");
}

/* Opens element i (mapped by e). */
static void open_element(rout *o, const page_ctx *pc, uint32_t i, const emit *e, long k)
{
    const winnow_doc *d = pc->d;
    const wn_dom *dom = &d->dom;
    const wn_node *x = &dom->nodes[i];
    wn_buf_printf(&o->b, "<%s", e->name);
    /* classes: the block's verdict, a unit kept or left out against its
     * block's verdict, a span standing for a block, a link */
    char cls[160] = "";
    size_t cl = 0;
    if (k >= 0) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-b wn-v-%s", verdict_key[pc->bi[k].verdict]);
    const wn_labels *lb = &d->labels;
    if (lb->unit[i] == i && d->explain && d->explain->own && d->explain->own[i].chars) {
        long nb = pc->nearest[i];
        int block_content = nb >= 0 && pc->bi[nb].verdict == V_CONTENT;
        if (block_content && !lb->keep[i]) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-x");
        if (nb >= 0 && !block_content && lb->keep[i]) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-k");
    }
    if (e->blk) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-blk");
    if (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK)) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-a");
    if (e->kind == E_IMG) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-img");
    if (e->kind == E_INPUT) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-ctl");
    if (cl) wn_buf_printf(&o->b, " class=\"%s\"", cls + 1);
    if (e->kind == E_ELEM) safe_attrs(o, dom, x);
    if (x->tag == WN_TAG_BUTTON) puts_(o, " type=\"button\"");
    if (k >= 0) wn_report_block_attrs(o, d, (uint32_t)k, &pc->bi[k], pc->pages);
    wn_buf_putc(&o->b, '>');
    if (e->kind == E_IMG) {
        puts_(o, "image");
        size_t n = 0;
        if (wn_node_attr(dom, x, "alt", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "alt", 80);
        }
    } else if (e->kind == E_INPUT) {
        size_t n = 0;
        const char *t = wn_node_attr(dom, x, "type", &n);
        puts_(o, "input");
        if (t && n) {
            puts_(o, " ");
            attr_snip(o, dom, x, "type", 20);
        }
        if (wn_node_attr(dom, x, "value", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "value", 40);
        } else if (wn_node_attr(dom, x, "placeholder", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "placeholder", 40);
        }
    }
}

/* The page from its root's children on, pre-order with an explicit stack
 * (no recursion, whatever the depth). */
int wn_report_write_page(rout *o, const page_ctx *pc)
{
    const winnow_doc *d = pc->d;
    const wn_dom *dom = &d->dom;
    uint32_t root = dom->body;
    uint32_t end = root + dom->nodes[root].size;
    uint32_t *stack = malloc(((size_t)dom->count + 1) * sizeof *stack);
    const char **names = malloc(((size_t)dom->count + 1) * sizeof *names);
    if (!stack || !names) {
        free(stack);
        free(names);
        return -1;
    }
    size_t depth = 0;
    uint32_t next_block = 0;
    while (next_block < d->nblocks && d->blocks[next_block] <= root) next_block++;
    for (uint32_t i = root + 1; i < end;) {
        const wn_node *x = &dom->nodes[i];
        while (depth && i >= stack[depth - 1] + dom->nodes[stack[depth - 1]].size) {
            depth--;
            if (names[depth]) wn_buf_printf(&o->b, "</%s>", names[depth]);
        }
        if (x->tag == WN_TAG_TEXT) {
            /* the line break a parser drops after <pre> is doubled */
            uint32_t p = x->parent;
            unsigned pt = dom->nodes[p].tag;
            if (x->text_len && dom->text[x->text_begin] == '\n' && dom->nodes[p].first_child == i &&
                (pt == WN_TAG_PRE || pt == WN_TAG_LISTING || pt == WN_TAG_XMP || pt == WN_TAG_PLAINTEXT))
                wn_buf_putc(&o->b, '\n');
            esc(o, dom->text + x->text_begin, x->text_len, 0);
            i++;
            flush(o, 0);
            continue;
        }
        emit e = map_element(x);
        long k = -1;
        while (next_block < d->nblocks && d->blocks[next_block] < i) next_block++;
        if (next_block < d->nblocks && d->blocks[next_block] == i) k = next_block;
        if (e.kind == E_INPUT) {
            const char *t = wn_node_attr(dom, x, "type", NULL);
            if (t && !strcasecmp(t, "hidden")) e.kind = E_DROP;
        }
        if (e.kind == E_DROP || (x->flags & WN_NF_HIDDEN)) {
            i += x->size ? x->size : 1;
            continue;
        }
        if (e.kind == E_TRANSPARENT) {
            stack[depth] = i;
            names[depth++] = NULL;
            i++;
            continue;
        }
        open_element(o, pc, i, &e, k);
        if (e.kind == E_IMG || e.kind == E_INPUT) {
            wn_buf_printf(&o->b, "</%s>", e.name);
            i += x->size ? x->size : 1;
            continue;
        }
        if (e.is_void) {
            i += x->size ? x->size : 1;
            continue;
        }
        stack[depth] = i;
        names[depth++] = e.name;
        i++;
    }
    while (depth) {
        depth--;
        if (names[depth]) wn_buf_printf(&o->b, "</%s>", names[depth]);
    }
    free(stack);
    free(names);
    return 0;
}
