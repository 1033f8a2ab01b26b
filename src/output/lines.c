/* Text and Markdown: the kept content as lines. Paragraphs, headings, list
 * items, table rows and <pre> blocks each become lines; <pre> keeps its
 * line breaks. Markdown adds heading marks, list bullets, links, tables,
 * quotes and fenced code. */
#include "render.h"

#include <stdio.h>
#include <string.h>

#include "../text/text.h"

typedef struct lines {
    wn_buf *out;
    wn_buf line;
    int markdown;
    int pending_space;
    int in_pre;
    int quote_depth;
    int list_depth;
    char prefix[64];     /* put before the next line's text (bullet, heading mark) */
    int rows_in_table;   /* markdown: rows written in the current table */
    int cells_in_row;
    int table_depth;
    int link_open;       /* markdown: '[' written, waiting for "](url)" */
    size_t link_start;
    const char *link_href;
    int blank_before;    /* markdown: blank line before the next block */
} lines;

/* wn_buf_clear forgets a failed append: the output keeps it */
static void line_clear(lines *L)
{
    if (L->line.oom) L->out->oom = 1;
    wn_buf_clear(&L->line);
}

static void put_line(lines *L)
{
    if (L->line.oom) L->out->oom = 1;
    /* trim trailing spaces */
    while (L->line.len && L->line.data[L->line.len - 1] == ' ') L->line.len--;
    if (L->line.len == 0) { L->prefix[0] = '\0'; return; }
    if (L->markdown && L->blank_before && L->out->len) wn_buf_putc(L->out, '\n');
    if (L->markdown) {
        for (int q = 0; q < L->quote_depth; q++) wn_buf_put(L->out, "> ", 2);
    }
    wn_buf_puts(L->out, L->prefix);
    wn_buf_put(L->out, L->line.data, L->line.len);
    wn_buf_putc(L->out, '\n');
    line_clear(L);
    L->prefix[0] = '\0';
    L->pending_space = 0;
    L->blank_before = 0;
}

static void block_break(lines *L, int blank)
{
    put_line(L);
    if (blank) L->blank_before = 1;
}

static void append_text(lines *L, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        int32_t cp = wn_utf8_next(s, n, &i);
        if (L->in_pre) {
            if (cp == '\n') {
                if (L->markdown) {
                    wn_buf_put(L->out, L->line.data ? L->line.data : "", L->line.len);
                    wn_buf_putc(L->out, '\n');
                    line_clear(L);
                } else {
                    put_line(L);
                }
            } else if (cp != '\r') {
                wn_buf_put(&L->line, s + start, i - start);
            }
            continue;
        }
        if (wn_char_class(cp) == WN_CC_SPACE) {
            L->pending_space = 1;
            continue;
        }
        if (L->pending_space && L->line.len) wn_buf_putc(&L->line, ' ');
        L->pending_space = 0;
        if (L->markdown && L->table_depth && cp == '|') { wn_buf_put(&L->line, "\\|", 2); continue; }
        wn_buf_put(&L->line, s + start, i - start);
    }
}

static int heading_level(unsigned tag)
{
    switch (tag) {
    case WN_TAG_H1: return 1; case WN_TAG_H2: return 2; case WN_TAG_H3: return 3;
    case WN_TAG_H4: return 4; case WN_TAG_H5: return 5; case WN_TAG_H6: return 6;
    default: return 0;
    }
}

static void on_enter(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    const wn_node *x = &d->dom.nodes[i];
    unsigned t = x->tag;
    if (t == WN_TAG_BR) {
        if (L->in_pre) { wn_buf_putc(&L->line, '\n'); return; }
        if (L->table_depth && L->markdown) { L->pending_space = 1; return; }
        put_line(L);
        return;
    }
    if (t == WN_TAG_TD || t == WN_TAG_TH) {
        if (L->markdown) {
            if (L->cells_in_row == 0) wn_buf_puts(&L->line, "| ");
            else wn_buf_puts(&L->line, " | ");
        } else if (L->line.len) {
            wn_buf_putc(&L->line, '\t');
        }
        L->pending_space = 0;
        L->cells_in_row++;
        return;
    }
    if (t == WN_TAG_TR) { put_line(L); L->cells_in_row = 0; return; }
    if (t == WN_TAG_TABLE) {
        block_break(L, 1);
        L->table_depth++;
        L->rows_in_table = 0;
        L->cells_in_row = 0;
        return;
    }
    if (t == WN_TAG_PRE || t == WN_TAG_LISTING || t == WN_TAG_XMP || t == WN_TAG_PLAINTEXT) {
        block_break(L, 1);
        if (L->markdown && !L->in_pre) wn_buf_puts(L->out, L->out->len ? "\n```\n" : "```\n");
        L->in_pre++;
        return;
    }
    if (L->markdown && t == WN_TAG_A && !L->in_pre && !L->link_open) {
        const char *href = wn_node_attr(&d->dom, x, "href", NULL);
        /* a link wrapped around blocks (a "card") cannot be one Markdown
         * link: its text is written without brackets */
        int blocks_inside = 0;
        for (uint32_t k = i + 1; k < i + x->size && !blocks_inside; k++)
            blocks_inside = wn_tag_has(d->dom.nodes[k].tag, WN_TF_BREAK) || d->dom.nodes[k].tag == WN_TAG_BR;
        if (href && *href && strncmp(href, "javascript:", 11) != 0 && !blocks_inside) {
            if (L->pending_space && L->line.len) wn_buf_putc(&L->line, ' ');
            L->pending_space = 0;
            L->link_open = 1;
            L->link_start = L->line.len;
            L->link_href = href;
            wn_buf_putc(&L->line, '[');
        }
        return;
    }
    if (!wn_tag_has(t, WN_TF_BREAK) || L->in_pre) return;
    int level = heading_level(t);
    if (level) {
        block_break(L, 1);
        if (L->markdown) {
            memset(L->prefix, '#', (size_t)level);
            L->prefix[level] = ' ';
            L->prefix[level + 1] = '\0';
        }
        return;
    }
    if (t == WN_TAG_UL || t == WN_TAG_OL || t == WN_TAG_MENU || t == WN_TAG_DIR) {
        block_break(L, L->list_depth == 0);
        L->list_depth++;
        return;
    }
    if (t == WN_TAG_LI) {
        put_line(L);
        if (L->markdown) {
            int ordered = x->parent != WN_NONE && d->dom.nodes[x->parent].tag == WN_TAG_OL;
            int indent = L->list_depth > 1 ? (L->list_depth - 1) * 2 : 0;
            if (indent > 40) indent = 40;
            memset(L->prefix, ' ', (size_t)indent);
            if (ordered) snprintf(L->prefix + indent, sizeof L->prefix - (size_t)indent, "%u. ",
                                  (unsigned)x->sibling_index + 1);
            else snprintf(L->prefix + indent, sizeof L->prefix - (size_t)indent, "- ");
        }
        return;
    }
    if (t == WN_TAG_BLOCKQUOTE) { block_break(L, 1); L->quote_depth++; return; }
    block_break(L, t == WN_TAG_P || t == WN_TAG_DIV || t == WN_TAG_SECTION || t == WN_TAG_FIGURE);
}

static void on_leave(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    unsigned t = d->dom.nodes[i].tag;
    if (t == WN_TAG_A && L->link_open && L->markdown) {
        L->link_open = 0;
        if (L->line.len == L->link_start + 1) { /* no text: drop the bracket */
            L->line.len = L->link_start;
            return;
        }
        wn_buf_puts(&L->line, "](");
        wn_buf_puts(&L->line, L->link_href);
        wn_buf_putc(&L->line, ')');
        return;
    }
    if (t == WN_TAG_TD || t == WN_TAG_TH) return;
    if (t == WN_TAG_TR) {
        if (L->markdown && L->cells_in_row) {
            while (L->line.len && L->line.data[L->line.len - 1] == ' ') L->line.len--;
            wn_buf_puts(&L->line, " |");
            int cells = L->cells_in_row;
            put_line(L);
            if (L->rows_in_table == 0) {
                wn_buf_putc(L->out, '|');
                for (int k = 0; k < cells; k++) wn_buf_puts(L->out, " --- |");
                wn_buf_putc(L->out, '\n');
            }
        } else {
            put_line(L);
        }
        if (L->cells_in_row) L->rows_in_table++;
        L->cells_in_row = 0;
        return;
    }
    if (t == WN_TAG_TABLE) {
        put_line(L);
        if (L->table_depth) L->table_depth--;
        L->blank_before = 1;
        return;
    }
    if (t == WN_TAG_PRE || t == WN_TAG_LISTING || t == WN_TAG_XMP || t == WN_TAG_PLAINTEXT) {
        if (L->in_pre) L->in_pre--;
        if (L->markdown && !L->in_pre) {
            if (L->line.len) { wn_buf_put(L->out, L->line.data, L->line.len); wn_buf_putc(L->out, '\n'); line_clear(L); }
            wn_buf_puts(L->out, "```\n");
            L->blank_before = 1;
        } else {
            put_line(L);
        }
        return;
    }
    if (!wn_tag_has(t, WN_TF_BREAK) || L->in_pre) return;
    if (t == WN_TAG_UL || t == WN_TAG_OL || t == WN_TAG_MENU || t == WN_TAG_DIR) {
        put_line(L);
        if (L->list_depth) L->list_depth--;
        if (!L->list_depth) L->blank_before = 1;
        return;
    }
    if (t == WN_TAG_BLOCKQUOTE) {
        put_line(L);
        if (L->quote_depth) L->quote_depth--;
        L->blank_before = 1;
        return;
    }
    put_line(L);
    if (t != WN_TAG_LI) L->blank_before = 1;
}

static void on_text(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    const wn_node *x = &d->dom.nodes[i];
    append_text(L, d->dom.text + x->text_begin, x->text_len);
}

static void render_into(const winnow_doc *d, wn_buf *out, int markdown)
{
    lines L;
    memset(&L, 0, sizeof L);
    L.out = out;
    L.markdown = markdown;
    wn_buf_init(&L.line);
    wn_walk_cb cb = {on_enter, on_leave, on_text};
    if (wn_walk_kept(d, &cb, &L) != 0) out->oom = 1;
    L.in_pre = 0;
    put_line(&L);
    if (L.line.oom) out->oom = 1;
    wn_buf_free(&L.line);
}

void wn_main_text(const winnow_doc *d, wn_buf *b) { render_into(d, b, 0); }

void wn_render_lines(const winnow_doc *d, wn_out *o, int markdown)
{
    render_into(d, &o->buf, markdown);
    wn_out_flush(o, 1);
}
