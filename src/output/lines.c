/* Text and Markdown: the kept content as lines. Paragraphs, headings, list
 * items, table rows and <pre> blocks each become lines; <pre> keeps its
 * line breaks. Markdown adds heading marks, list bullets, links, tables,
 * quotes and fenced code. */
#include "render.h"

#include <stdio.h>
#include <string.h>

#include "../text/text.h"

/* Markdown: an open quote, or an open list and the marker of its current
 * item. A marker waits for the item's first line, through the blocks that
 * open it (<p>, a list: "- - "); later lines of the item, and a list the
 * page put after the item, are indented to its text. */
typedef struct container {
    uint32_t node; /* the <blockquote>, the list, or an <li> outside any list */
    char quote;
    char waits;     /* the marker is not written yet */
    char old_waits; /* the item before's, given back when an item writes nothing */
    char synthetic; /* the marker was made for a list put directly in the list */
    int quote_used; /* a line was written inside the quote */
    long next;      /* the number of the list's next item (an <ol>'s start, else 1) */
    char marker[16];
    char old_marker[16];
} container;

enum { CONTAINERS_MAX = 32 };

/* plain text: a line this long is written from its own buffer */
#define LONG_LINE ((size_t)64 * 1024)

typedef struct lines {
    wn_buf *out;
    wn_out *flush; /* plain text: the output out belongs to, handed over a
                      line at a time (markdown rewinds out: it is not) */
    wn_buf line;
    int markdown;
    int pending_space;
    int in_pre;
    int pre_break; /* a block inside <pre> ended: its next text starts a line */
    int quote_depth;
    int list_depth;
    char prefix[16];        /* markdown: put before the next line's text (a heading's marks) */
    uint32_t data_table;    /* where the data table being written began (its <table>,
                            or the row group or row the walk started at), WN_NONE */
    int rows_in_table;      /* rows written in the data table */
    int table_cols;         /* markdown: its header's cells, as many as its widest row's */
    size_t empty_header_at; /* markdown: where the empty header given to a table without
                               one began in out ((size_t)-1: none, or keep it) */
    int cells_in_row;
    int cell_depth;    /* open <td>/<th> of the data table: inside one, blocks and
                            breaks become spaces, so that a row stays one line */
    size_t cell_start; /* where the current cell's text begins in line */
    int link_open;     /* markdown: '[' written, waiting for "](url)" */
    size_t link_start;
    const char *link_href;
    int blank_before;  /* markdown: blank line before the next block */
    int code_depth;    /* markdown: open inline <code>/<kbd>/<samp> */
    size_t code_start; /* where the outermost one's opening backticks begin */
    int code_ticks;    /* how many backticks open it: one more than its text's longest run */
    int code_broken;   /* a line ended inside it: the span was closed there */
    size_t code_end;   /* where the last span closed in line (0: none) */
    int fence_len;     /* markdown: backticks of the open code block's fence */
    size_t fence_at;   /* where its fence began in out ((size_t)-1: keep it) */
    size_t fence_end;  /* where its code begins in out */
    int heading_depth; /* markdown: open headings; a heading is one line */
    char heading_marks[8];
    uint32_t heading_list; /* markdown: a list that opens the heading, WN_NONE */
    /* markdown: the open quotes and lists, outermost first, which begin
     * every line written inside them in that order (a quote in an item is
     * indented to the item's text, a list in a quote follows its "> ") */
    container cont[CONTAINERS_MAX];
    int conts;
    int conts_over; /* opened beyond CONTAINERS_MAX: not written */
} lines;

/* wn_buf_clear forgets a failed append: the output keeps it */
static void line_clear(lines *L)
{
    if (L->line.oom) L->out->oom = 1;
    wn_buf_clear(&L->line);
    L->cell_start = 0;
    L->code_end = 0;
}

/* Where the text a space may follow begins: the cell's start in a cell. */
static size_t text_start(const lines *L) { return L->cell_depth ? L->cell_start : 0; }

/* Markdown: what begins every line written at the current place, in the
 * order the containers opened: a quote's "> ", a list item's waiting
 * marker, or spaces to an item's text column, so that CommonMark keeps the
 * line (a paragraph, a table row, a fence, a line of code) where it is */
static void line_lead(lines *L)
{
    if (!L->markdown) return;
    for (int k = 0; k < L->conts; k++) {
        container *c = &L->cont[k];
        if (c->quote) {
            wn_buf_put(L->out, "> ", 2);
            c->quote_used = 1;
        } else if (c->waits) {
            wn_buf_puts(L->out, c->marker);
            c->waits = 0;
        } else {
            for (size_t n = strlen(c->marker); n; n--) wn_buf_putc(L->out, ' ');
        }
    }
}

/* Markdown: a blank line between blocks, which inside a quote keeps its
 * ">" (a bare blank line would end the quote, and a list item in it) */
static void blank_line(lines *L)
{
    size_t at = L->out->len;
    for (int k = 0; k < L->conts; k++) {
        const container *c = &L->cont[k];
        if (c->quote && !c->quote_used) break;
        if (c->quote)
            wn_buf_put(L->out, "> ", 2);
        else if (!c->waits)
            for (size_t n = strlen(c->marker); n; n--) wn_buf_putc(L->out, ' ');
    }
    while (L->out->len > at && L->out->data[L->out->len - 1] == ' ') L->out->len--;
    wn_buf_putc(L->out, '\n');
}

/* Markdown: whether a list item's marker waits for its first line */
static int marker_waits(const lines *L)
{
    for (int k = 0; k < L->conts; k++)
        if (L->cont[k].waits) return 1;
    return 0;
}

/* A code span's opening or closing backticks: a space between them and
 * code that has backticks of its own */
static void put_ticks(wn_buf *b, int ticks, int closing)
{
    if (closing && ticks > 1) wn_buf_putc(b, ' ');
    for (int k = 0; k < ticks; k++) wn_buf_putc(b, '`');
    if (!closing && ticks > 1) wn_buf_putc(b, ' ');
}

/* the bytes put_ticks writes to open a span */
static size_t ticks_open_len(int ticks) { return (size_t)ticks + (ticks > 1); }

/* Markdown: where a backslash goes so that a line of text does not begin a
 * block (a list item "1. " or "- ", a heading "# ", a quote ">", a setext
 * underline "---" or "===", a fence "~~~"), or (size_t)-1 */
static size_t block_start_escape(const char *s, size_t n)
{
    if (n == 0) return (size_t)-1;
    size_t k = 0;
    while (k < n && k < 9 && s[k] >= '0' && s[k] <= '9') k++;
    if (k > 0 && k < n && (s[k] == '.' || s[k] == ')') && (k + 1 == n || s[k + 1] == ' ')) return k;
    if ((s[0] == '-' || s[0] == '+') && (n == 1 || s[1] == ' ')) return 0;
    if (s[0] == '>') return 0;
    if (s[0] == '#') {
        k = 0;
        while (k < n && s[k] == '#') k++;
        if (k <= 6 && (k == n || s[k] == ' ')) return 0;
    }
    if (n >= 3 && s[0] == '~' && s[1] == '~' && s[2] == '~') return 0;
    if (s[0] == '=' || s[0] == '-') {
        k = 0;
        while (k < n && (s[k] == s[0] || s[k] == ' ')) k++;
        if (k == n) return 0;
    }
    return (size_t)-1;
}

/* Markdown: where a backslash goes so that a heading's text does not end
 * in what CommonMark takes for the heading's closing marks (a run of '#'
 * after a space: "Part #"), or (size_t)-1 */
static size_t closing_hashes(const char *s, size_t n)
{
    size_t k = n;
    while (k && s[k - 1] == '#') k--;
    return k < n && (k == 0 || s[k - 1] == ' ') ? k : (size_t)-1;
}

static void put_line(lines *L)
{
    if (L->line.oom) L->out->oom = 1;
    if (L->code_depth && !L->code_broken) {
        /* a block inside inline code: its span ends with the line */
        L->code_broken = 1;
        size_t open = L->code_start + ticks_open_len(L->code_ticks);
        while (L->line.len > open && L->line.data[L->line.len - 1] == ' ') L->line.len--;
        if (L->line.len <= open)
            L->line.len = L->code_start < L->line.len ? L->code_start : L->line.len;
        else
            put_ticks(&L->line, L->code_ticks, 1);
    }
    /* trim trailing spaces, and the line breaks of a <pre> whose text was
     * left out (a gutter of line numbers leaves its <br>s) */
    while (L->line.len && (L->line.data[L->line.len - 1] == ' ' || L->line.data[L->line.len - 1] == '\n'))
        L->line.len--;
    if (L->line.len == 0) {
        if (!L->heading_depth) L->prefix[0] = '\0';
        return;
    }
    if (L->markdown && L->blank_before && L->out->len) blank_line(L);
    line_lead(L);
    int plain = L->markdown && L->prefix[0] == '\0';
    size_t esc = plain ? block_start_escape(L->line.data, L->line.len) : (size_t)-1;
    if (L->markdown && L->prefix[0] == '#') esc = closing_hashes(L->line.data, L->line.len);
    wn_buf_puts(L->out, L->prefix);
    if (esc != (size_t)-1) {
        wn_buf_put(L->out, L->line.data, esc);
        wn_buf_putc(L->out, '\\');
        wn_buf_put(L->out, L->line.data + esc, L->line.len - esc);
    } else if (L->flush && L->line.len >= LONG_LINE) {
        /* plain text: a long line goes out from where it is, after what
         * is before it, not copied behind that first (a page of one
         * 10 MB paragraph held it three times) */
        wn_out_flush(L->flush, 1);
        if (!L->flush->failed && !L->flush->nomem && L->flush->write(L->flush->ctx, L->line.data, L->line.len) != 0)
            L->flush->failed = 1;
    } else {
        wn_buf_put(L->out, L->line.data, L->line.len);
    }
    wn_buf_putc(L->out, '\n');
    line_clear(L);
    L->prefix[0] = '\0';
    L->pending_space = 0;
    L->blank_before = 0;
    /* a page's text is not held whole: it goes out in 64 KiB pieces */
    if (L->flush) wn_out_flush(L->flush, 0);
}

static void block_break(lines *L, int blank)
{
    put_line(L);
    if (blank) L->blank_before = 1;
}

/* A line break inside <pre> where a block begins or ends (<li>s or <div>s
 * of code lines without newlines of their own, as a browser shows them):
 * none at the start of a line, so that blocks that do carry their
 * newline do not get a blank line between them. */
static void pre_newline(lines *L)
{
    L->pre_break = 0;
    if (L->line.len == 0 || L->line.data[L->line.len - 1] == '\n') return;
    if (!L->markdown) {
        put_line(L);
        return;
    }
    line_lead(L);
    wn_buf_put(L->out, L->line.data, L->line.len);
    wn_buf_putc(L->out, '\n');
    line_clear(L);
}

/* Markdown: ASCII punctuation that text outside code spans escapes, or it
 * would be markup: a tag or character reference (< &), emphasis (* _),
 * a code span (`), an escape (\) */
static int md_special(unsigned char c) { return c == '<' || c == '&' || c == '*' || c == '_' || c == '`' || c == '\\'; }

static int ascii_alnum(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

/* ASCII bytes a line takes as they are, outside <pre>: not white space
 * (wn_char_class's spaces), nor a '|' escaped in a Markdown table */
static int plain_ascii(const lines *L, unsigned char c)
{
    return c < 0x80 && c != ' ' && (c < 0x09 || c > 0x0D) && !(c == '|' && L->markdown && L->data_table != WN_NONE) &&
           !(L->markdown && !L->code_depth && md_special(c));
}

static void append_text(lines *L, const char *s, size_t n, int flat)
{
    size_t i = 0;
    while (i < n) {
        if (!L->in_pre && plain_ascii(L, (unsigned char)s[i])) {
            /* a run of them at once: what the code point loop below does
             * to each, the first one's pending space included */
            size_t j = i + 1;
            while (j < n && plain_ascii(L, (unsigned char)s[j])) j++;
            if (L->pending_space && L->line.len > text_start(L)) wn_buf_putc(&L->line, ' ');
            L->pending_space = 0;
            wn_buf_put(&L->line, s + i, j - i);
            i = j;
            continue;
        }
        unsigned char b = (unsigned char)s[i];
        if (!L->in_pre && (b == ' ' || (b >= 0x09 && b <= 0x0D)) && !(flat && b == '\n')) {
            /* ASCII white space, as the code point loop below takes it,
             * without its calls */
            L->pending_space = 1;
            i++;
            continue;
        }
        size_t start = i;
        int32_t cp = wn_utf8_next(s, n, &i);
        if (flat && cp == '\n' && !L->in_pre) {
            /* a flattened block ended (wn_parser_set_node_budget) */
            put_line(L);
            continue;
        }
        if (L->in_pre) {
            if (L->pre_break) {
                if (cp == '\n')
                    L->pre_break = 0;
                else
                    pre_newline(L);
            }
            if (cp == '\n') {
                if (L->markdown) {
                    line_lead(L);
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
        /* a zero width no-break space joins what it stands between: the
         * text format takes it for a space, Markdown keeps it, as HTML does */
        if (wn_char_class(cp) == WN_CC_SPACE && !(L->markdown && cp == 0xFEFF)) {
            L->pending_space = 1;
            continue;
        }
        if (L->pending_space && L->line.len > text_start(L)) wn_buf_putc(&L->line, ' ');
        L->pending_space = 0;
        if (L->markdown && L->data_table != WN_NONE && cp == '|') {
            wn_buf_put(&L->line, "\\|", 2);
            continue;
        }
        if (L->markdown && !L->code_depth && cp < 0x80 && md_special((unsigned char)cp)) {
            /* text, not markup; an underscore inside a word is no emphasis
             * in CommonMark and stays as it is (snake_case) */
            int intraword = cp == '_' && L->line.len && ascii_alnum((unsigned char)L->line.data[L->line.len - 1]) &&
                            i < n && ascii_alnum((unsigned char)s[i]);
            if (!intraword) wn_buf_putc(&L->line, '\\');
            wn_buf_putc(&L->line, (char)cp);
            continue;
        }
        wn_buf_put(&L->line, s + start, i - start);
    }
}

static int heading_level(unsigned tag)
{
    switch (tag) {
    case WN_TAG_H1: return 1;
    case WN_TAG_H2: return 2;
    case WN_TAG_H3: return 3;
    case WN_TAG_H4: return 4;
    case WN_TAG_H5: return 5;
    case WN_TAG_H6: return 6;
    default: return 0;
    }
}

static int is_pre(unsigned t)
{
    return t == WN_TAG_PRE || t == WN_TAG_LISTING || t == WN_TAG_XMP || t == WN_TAG_PLAINTEXT;
}

/* Inside a cell: what would start or end a line (a paragraph, list,
 * heading, break, <pre>, a nested table's rows) is a space instead. */
static int breaks_in_cell(unsigned t)
{
    return t == WN_TAG_BR || t == WN_TAG_TR || t == WN_TAG_TABLE || is_pre(t) || wn_tag_has(t, WN_TF_BREAK);
}

/* A table of data, written row by row (one line each, its cells joined),
 * rather than a table used for layout (or a box), written as the blocks
 * its cells hold: a row has two cells or more, and no cell holds a
 * heading, code, a nested table or more than DATA_TABLE_CELL_MAX_CHARS
 * characters (a column of a page's text). */
static int is_data_table(const winnow_doc *d, uint32_t table)
{
    const wn_node *x = &d->dom.nodes[table];
    int columns = 0;
    for (uint32_t k = table + 1; k < table + x->size; k++) {
        unsigned t = d->dom.nodes[k].tag;
        if (t == WN_TAG_TABLE || is_pre(t) || wn_tag_has(t, WN_TF_HEADING)) return 0;
        if ((t == WN_TAG_TD || t == WN_TAG_TH) &&
            (double)d->stats[k].chars > (double)WN_RULE(d, DATA_TABLE_CELL_MAX_CHARS))
            return 0;
        if ((t == WN_TAG_TD || t == WN_TAG_TH) && d->dom.nodes[k].sibling_index > 0) columns = 2;
    }
    return columns > 1;
}

/* Whether the walk goes through node i (it started at or above it). */
static int walked(const winnow_doc *d, uint32_t i)
{
    uint32_t h = d->labels.headline, c = d->labels.container;
    return (h != WN_NONE && wn_node_within(&d->dom, h, i)) || (c != WN_NONE && wn_node_within(&d->dom, c, i));
}

/* Whether element i starts a data table: its <table>, or the row group or
 * row the walk started at inside one. */
static int starts_data_table(const lines *L, const winnow_doc *d, uint32_t i)
{
    unsigned t = d->dom.nodes[i].tag;
    if (L->data_table != WN_NONE || L->in_pre) return 0;
    if (t == WN_TAG_TABLE) return is_data_table(d, i);
    if (t != WN_TAG_TBODY && t != WN_TAG_THEAD && t != WN_TAG_TFOOT && t != WN_TAG_TR) return 0;
    uint32_t a = d->dom.nodes[i].parent;
    for (int hops = 0; a != WN_NONE && d->dom.nodes[a].tag != WN_TAG_TABLE && hops < 3; hops++)
        a = d->dom.nodes[a].parent;
    if (a == WN_NONE || d->dom.nodes[a].tag != WN_TAG_TABLE || walked(d, a)) return 0;
    return is_data_table(d, a);
}

/* A header row: inside <thead>, or of <th> cells only. */
static int header_row(const winnow_doc *d, uint32_t tr, int *cells)
{
    const wn_node *x = &d->dom.nodes[tr];
    int all_th = 1;
    *cells = 0;
    for (uint32_t c = x->first_child; c != WN_NONE; c = d->dom.nodes[c].next_sibling) {
        unsigned t = d->dom.nodes[c].tag;
        if (t != WN_TAG_TD && t != WN_TAG_TH) continue;
        (*cells)++;
        if (t != WN_TAG_TH) all_th = 0;
    }
    int in_thead = x->parent != WN_NONE && d->dom.nodes[x->parent].tag == WN_TAG_THEAD;
    return *cells > 0 && (in_thead || all_th);
}

/* The most cells a row of the data table that begins at element t has:
 * the width of its Markdown table, as GFM leaves out the cells of a row
 * past its header's */
static int table_width(const winnow_doc *d, uint32_t t)
{
    int width = 0;
    for (uint32_t k = t; k < t + d->dom.nodes[t].size; k++) {
        int cells = 0;
        if (d->dom.nodes[k].tag == WN_TAG_TR) header_row(d, k, &cells);
        if (cells > width) width = cells;
    }
    return width;
}

/* Markdown: '[' for a link, "](href)" follows at its end. */
static void open_link(lines *L, const winnow_doc *d, uint32_t i)
{
    const wn_node *x = &d->dom.nodes[i];
    /* inside a code span a link's markup would be code: its text alone */
    if (L->link_open || (L->code_depth && !L->code_broken)) return;
    const char *href = wn_node_attr(&d->dom, x, "href", NULL);
    /* a link wrapped around blocks (a "card") cannot be one Markdown
     * link: its text is written without brackets */
    int blocks_inside = 0;
    for (uint32_t k = i + 1; k < i + x->size && !blocks_inside; k++)
        blocks_inside = wn_tag_has(d->dom.nodes[k].tag, WN_TF_BREAK) || d->dom.nodes[k].tag == WN_TAG_BR;
    if (href && *href && strncmp(href, "javascript:", 11) != 0 && !blocks_inside) {
        if (L->pending_space && L->line.len > text_start(L)) wn_buf_putc(&L->line, ' ');
        L->pending_space = 0;
        L->link_open = 1;
        L->link_start = L->line.len;
        L->link_href = href;
        wn_buf_putc(&L->line, '[');
    }
}

/* The number of the first item of list element i: an <ol>'s start
 * attribute (CommonMark takes up to nine digits), else 1. */
static long list_start(const winnow_doc *d, uint32_t i)
{
    size_t len = 0;
    const char *v = d->dom.nodes[i].tag == WN_TAG_OL ? wn_node_attr(&d->dom, &d->dom.nodes[i], "start", &len) : NULL;
    long n = 0;
    size_t k = 0;
    while (v && k < len && v[k] == ' ') k++;
    if (!v || k == len || v[k] < '0' || v[k] > '9') return 1;
    for (; k < len && v[k] >= '0' && v[k] <= '9' && n < 100000000; k++) n = n * 10 + (v[k] - '0');
    return n;
}

static int is_list(unsigned t) { return t == WN_TAG_UL || t == WN_TAG_OL || t == WN_TAG_MENU || t == WN_TAG_DIR; }

static int is_inline_code(unsigned t) { return wn_tag_has(t, WN_TF_CODE); }

/* The longest run of backticks in the text under element i: a code span's
 * or a fence's backticks must be more (CommonMark) */
static int backtick_run(const winnow_doc *d, uint32_t i)
{
    int longest = 0;
    for (uint32_t k = i + 1; k < i + d->dom.nodes[i].size; k++) {
        const wn_node *c = &d->dom.nodes[k];
        if (!wn_node_is_text(c)) continue;
        const char *tx = d->dom.text + c->text_begin;
        int run = 0;
        for (uint32_t b = 0; b < c->text_len; b++) {
            run = tx[b] == '`' ? run + 1 : 0;
            if (run > longest) longest = run;
        }
    }
    return longest;
}

/* Markdown: inline code opens a code span, of one backtick more than the
 * longest run in its text (CommonMark: a span's fence is a run its text
 * lacks) */
static void open_code(lines *L, const winnow_doc *d, uint32_t i)
{
    if (L->code_depth++) return;
    int ticks = backtick_run(d, i) + 1;
    if (ticks > 30) ticks = 30;
    if (!L->pending_space && ticks == 1 && L->code_ticks == 1 && L->line.len && L->line.len == L->code_end) {
        /* right after a span of one backtick: one span, not "``" */
        L->line.len--;
        return;
    }
    if (L->pending_space && L->line.len > text_start(L)) wn_buf_putc(&L->line, ' ');
    L->pending_space = 0;
    L->code_ticks = ticks;
    L->code_start = L->line.len;
    put_ticks(&L->line, ticks, 0);
}

static void close_code(lines *L)
{
    if (!L->code_depth || --L->code_depth) return;
    if (L->code_broken) {
        L->code_broken = 0;
        return;
    }
    if (L->line.len <= L->code_start + ticks_open_len(L->code_ticks)) { /* no text: no span */
        if (L->line.len >= L->code_start) L->line.len = L->code_start;
        return;
    }
    /* a space inside the span's end stays outside it */
    put_ticks(&L->line, L->code_ticks, 1);
    L->code_end = L->line.len;
}

/* Markdown: a code block's language, its fence's info string: the first
 * "language-X" or "lang-X" class of the <pre> or of the <code> directly
 * in it (the convention of CommonMark's own HTML and of highlighters) */
static void fence_language(lines *L, const winnow_doc *d, uint32_t i)
{
    const wn_node *x = &d->dom.nodes[i];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            uint32_t c = i + 1; /* the first element child */
            while (c < i + x->size && wn_node_is_text(&d->dom.nodes[c])) c++;
            if (c >= i + x->size || d->dom.nodes[c].tag != WN_TAG_CODE) return;
            x = &d->dom.nodes[c];
        }
        const char *cls = wn_node_attr(&d->dom, x, "class", NULL);
        for (const char *p = cls; p && *p;) {
            while (*p == ' ' || *p == '\t' || *p == '\n') p++;
            const char *e = p;
            while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
            size_t skip = strncmp(p, "language-", 9) == 0 ? 9 : strncmp(p, "lang-", 5) == 0 ? 5 : 0;
            if (skip && (size_t)(e - p) > skip && (size_t)(e - p) - skip <= 32) {
                int ok = 1; /* an info string may not hold a backtick */
                for (const char *q = p + skip; q < e; q++) ok &= *q != '`';
                if (ok) {
                    wn_buf_put(L->out, p + skip, (size_t)(e - p) - skip);
                    return;
                }
            }
            p = e;
        }
    }
}

/* Markdown: the innermost open list, or NULL */
static container *innermost_list(lines *L)
{
    for (int k = L->conts - 1; k >= 0; k--)
        if (!L->cont[k].quote) return &L->cont[k];
    return NULL;
}

/* Markdown: a quote or a list opens (NULL past CONTAINERS_MAX). A list
 * the page put directly in a list, before any item of it (<ul><ul>,
 * invalid HTML a browser indents as nested), gets an item of its own to
 * nest in, as CommonMark nests only in items: "- - " */
static container *open_container(lines *L, uint32_t i, int quote)
{
    if (L->conts == CONTAINERS_MAX) {
        L->conts_over++;
        return NULL;
    }
    container *outer = L->conts ? &L->cont[L->conts - 1] : NULL;
    if (!quote && outer && !outer->quote && !outer->marker[0]) {
        snprintf(outer->marker, sizeof outer->marker, "- ");
        outer->waits = 1;
        outer->synthetic = 1;
    }
    container *c = &L->cont[L->conts++];
    memset(c, 0, sizeof *c);
    c->node = i;
    c->quote = (char)quote;
    c->next = 1;
    return c;
}

static void close_container(lines *L, uint32_t i)
{
    if (L->conts && L->cont[L->conts - 1].node == i) {
        L->conts--;
        /* a list that wrote nothing takes back the item made for it */
        container *outer = L->conts ? &L->cont[L->conts - 1] : NULL;
        if (outer && outer->synthetic && outer->waits) {
            outer->marker[0] = '\0';
            outer->waits = 0;
            outer->synthetic = 0;
        }
    } else if (L->conts_over) {
        L->conts_over--;
    }
}

/* Markdown: an item ends. One that wrote nothing has no marker: the item
 * before it is the one later lines of the list are indented to (and the
 * marker of an item it opens, still waiting, waits on); an item outside
 * any list closes its list. */
static void end_item(lines *L, uint32_t i)
{
    if (L->conts && L->cont[L->conts - 1].node == i) {
        L->conts--;
        return;
    }
    if (!L->list_depth) {
        if (L->conts_over) L->conts_over--;
        return;
    }
    container *c = L->conts_over ? NULL : innermost_list(L);
    if (c && c->waits && !c->synthetic) {
        memcpy(c->marker, c->old_marker, sizeof c->marker);
        c->waits = c->old_waits;
    }
}

/* The first byte of text (not white space) under element i, 0 when none. */
static unsigned char first_text_byte(const wn_dom *dom, uint32_t i)
{
    for (uint32_t k = i + 1; k < i + dom->nodes[i].size; k++) {
        const wn_node *y = &dom->nodes[k];
        if (y->tag != WN_TAG_TEXT) continue;
        for (uint32_t c = 0; c < y->text_len; c++) {
            unsigned char b = (unsigned char)dom->text[y->text_begin + c];
            if (b > ' ') return b;
        }
    }
    return 0;
}

/* The sibling before node i, WN_NONE when it is the first: the ancestor of
 * the node before it in document order that is its sibling. */
static uint32_t prev_sibling(const wn_dom *dom, uint32_t i)
{
    uint32_t parent = dom->nodes[i].parent;
    if (i == 0 || i - 1 == parent) return WN_NONE;
    uint32_t p = i - 1;
    while (p != WN_NONE && dom->nodes[p].parent != parent) p = dom->nodes[p].parent;
    return p;
}

/* Whether node i is a text node with more than white space. */
static int prose_text(const wn_dom *dom, uint32_t i)
{
    if (i == WN_NONE || dom->nodes[i].tag != WN_TAG_TEXT) return 0;
    for (uint32_t c = 0; c < dom->nodes[i].text_len; c++)
        if ((unsigned char)dom->text[dom->nodes[i].text_begin + c] > ' ') return 1;
    return 0;
}

/* Whether inline element i begins a field of its own that the markup
 * writes flush against the one before (INLINE_SIBLING_SPACE): its
 * previous sibling is an element, both have a class and the classes
 * differ (a name and its value, <span class=name>Pages</span><span
 * class=value>240</span>, which the site's style sheet sets apart), and
 * letters or digits meet there; not in code (highlighted tokens are
 * spans). A word split into spans of one class (a headline animated a
 * letter at a time) stays whole. */
static int field_boundary(const lines *L, const winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    const wn_node *x = &dom->nodes[i];
    if (!L->line.len || !ascii_alnum((unsigned char)L->line.data[L->line.len - 1])) return 0;
    if (x->parent == WN_NONE || !x->attr_count) return 0;
    uint32_t p = prev_sibling(dom, i);
    if (p == WN_NONE || dom->nodes[p].tag == WN_TAG_TEXT || wn_tag_has(dom->nodes[p].tag, WN_TF_BREAK)) return 0;
    /* a field holds more than a letter: one letter a span is a word spelled
     * out to foil copying ("Sponsored"), <sup> and <sub> are typography */
    if (d->stats[p].chars < 2 || d->stats[i].chars < 2 || x->tag == WN_TAG_SUP || x->tag == WN_TAG_SUB) return 0;
    size_t la = 0, lb = 0;
    const char *ca = wn_node_attr(dom, &dom->nodes[p], "class", &la), *cb = wn_node_attr(dom, x, "class", &lb);
    if (!ca || !cb || !la || !lb || (la == lb && !memcmp(ca, cb, la))) return 0;
    if (!ascii_alnum(first_text_byte(dom, i))) return 0;
    for (uint32_t k = x->parent; k != WN_NONE && !wn_tag_has(dom->nodes[k].tag, WN_TF_BREAK); k = dom->nodes[k].parent)
        if (is_inline_code(dom->nodes[k].tag)) return 0; /* inline ancestors: a code span */
    if (is_inline_code(x->tag) || is_inline_code(dom->nodes[p].tag)) return 0;
    /* fields, not words of a sentence: no text runs on either side of the two */
    return !prose_text(dom, prev_sibling(dom, p)) && !prose_text(dom, x->next_sibling);
}

static void on_enter(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    const wn_node *x = &d->dom.nodes[i];
    unsigned t = x->tag;
    if (!L->pending_space && !L->in_pre && !wn_tag_has(t, WN_TF_BREAK) && t != WN_TAG_BR &&
        WN_RULE(d, INLINE_SIBLING_SPACE) > 0.0f && field_boundary(L, d, i))
        L->pending_space = 1;
    if (t == WN_TAG_TD || t == WN_TAG_TH) {
        if (L->data_table == WN_NONE) {
            block_break(L, 1);
            return;
        } /* a layout cell: a block */
        if (L->cell_depth++) {
            L->pending_space = 1;
            return;
        }
        if (L->markdown) {
            if (L->cells_in_row == 0)
                wn_buf_puts(&L->line, "| ");
            else
                wn_buf_puts(&L->line, " | ");
        } else if (L->cells_in_row > 0) {
            wn_buf_putc(&L->line, '\t');
        }
        L->cell_start = L->line.len;
        L->pending_space = 0;
        L->cells_in_row++;
        return;
    }
    if (L->markdown && !L->in_pre && is_inline_code(t)) {
        open_code(L, d, i);
        return;
    }
    if (L->cell_depth && !L->in_pre) {
        if (breaks_in_cell(t))
            L->pending_space = 1;
        else if (L->markdown && t == WN_TAG_A)
            open_link(L, d, i);
        return;
    }
    if (L->markdown && L->heading_depth && !L->in_pre && !heading_level(t) &&
        (t == WN_TAG_BR || wn_tag_has(t, WN_TF_BREAK))) {
        /* a list that opens a heading (<h3><ol><li>): its items hold the
         * heading ("1. ### "); other line breaks and blocks inside a heading
         * are a space, or the rest of the heading would be a paragraph */
        if (is_list(t) && L->line.len == 0 && L->heading_list == WN_NONE) {
            L->heading_list = i;
        } else if (!(t == WN_TAG_LI && L->heading_list != WN_NONE && x->parent == L->heading_list)) {
            L->pending_space = 1;
            return;
        }
    }
    if (t == WN_TAG_BR) {
        if (L->in_pre) {
            wn_buf_putc(&L->line, '\n');
            return;
        }
        put_line(L);
        return;
    }
    if (starts_data_table(L, d, i)) {
        block_break(L, 1);
        L->data_table = i;
        L->rows_in_table = 0;
        L->cells_in_row = 0;
        L->empty_header_at = (size_t)-1;
        if (t == WN_TAG_TABLE) return;
    }
    if (t == WN_TAG_TR) {
        put_line(L);
        if (L->data_table == WN_NONE) return;
        L->cells_in_row = 0;
        int cells = 0;
        if (L->markdown && L->rows_in_table == 0) L->table_cols = table_width(d, L->data_table);
        if (L->markdown && L->rows_in_table == 0 && !header_row(d, i, &cells) && cells > 0) {
            /* Markdown's first row is the header: a table without one gets
             * an empty header, not its first data row promoted (taken back
             * if no row follows it: a marker it takes stays) */
            L->empty_header_at = marker_waits(L) ? (size_t)-1 : L->out->len;
            wn_buf_putc(&L->line, '|');
            for (int k = 0; k < L->table_cols; k++) wn_buf_puts(&L->line, " |");
            put_line(L);
            line_lead(L);
            wn_buf_putc(L->out, '|');
            for (int k = 0; k < L->table_cols; k++) wn_buf_puts(L->out, " --- |");
            wn_buf_putc(L->out, '\n');
            L->rows_in_table++;
        }
        return;
    }
    if (t == WN_TAG_TABLE) {
        block_break(L, 1);
        return;
    }
    if (is_pre(t)) {
        block_break(L, 1);
        if (L->markdown && !L->in_pre) {
            /* the fence: longer than any run of backticks in the code */
            int longest = backtick_run(d, i);
            L->fence_len = longest >= 3 ? (longest < 30 ? longest + 1 : 30) : 3;
            L->fence_at = marker_waits(L) ? (size_t)-1 : L->out->len; /* a marker it takes stays */
            if (L->out->len) blank_line(L);
            line_lead(L);
            for (int k = 0; k < L->fence_len; k++) wn_buf_putc(L->out, '`');
            fence_language(L, d, i);
            wn_buf_putc(L->out, '\n');
            L->fence_end = L->out->len;
        }
        L->in_pre++;
        return;
    }
    if (L->markdown && t == WN_TAG_A && !L->in_pre) {
        open_link(L, d, i);
        return;
    }
    if (L->in_pre && wn_tag_has(t, WN_TF_BREAK)) {
        pre_newline(L);
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
            memcpy(L->heading_marks, L->prefix, sizeof L->heading_marks);
            L->heading_depth++;
        }
        return;
    }
    if (is_list(t)) {
        block_break(L, L->list_depth == 0);
        L->list_depth++;
        if (L->markdown) {
            container *c = open_container(L, i, 0);
            if (c) c->next = list_start(d, i);
        }
        return;
    }
    if (t == WN_TAG_LI) {
        put_line(L);
        if (L->markdown) {
            /* an item outside any list is a list of its own */
            container *c = !L->list_depth ? open_container(L, i, 0) : L->conts_over ? NULL : innermost_list(L);
            if (c) {
                int ordered = x->parent != WN_NONE && d->dom.nodes[x->parent].tag == WN_TAG_OL;
                memcpy(c->old_marker, c->marker, sizeof c->marker);
                c->old_waits = c->waits;
                /* items counted, not siblings: a list the page put directly
                 * in the list is no item */
                if (ordered)
                    snprintf(c->marker, sizeof c->marker, "%ld. ", c->next++);
                else
                    snprintf(c->marker, sizeof c->marker, "- ");
                c->waits = 1;
                c->synthetic = 0;
            }
        }
        return;
    }
    if (t == WN_TAG_BLOCKQUOTE) {
        block_break(L, 1);
        L->quote_depth++;
        if (L->markdown) open_container(L, i, 1);
        return;
    }
    block_break(L, t == WN_TAG_P || t == WN_TAG_DIV || t == WN_TAG_SECTION || t == WN_TAG_FIGURE);
}

/* The data table ends: one whose rows were all empty leaves no empty
 * header of its own (share buttons' images) */
static void end_data_table(lines *L)
{
    if (L->markdown && L->rows_in_table == 1 && L->empty_header_at != (size_t)-1 && !L->out->oom)
        L->out->len = L->empty_header_at;
    L->data_table = WN_NONE;
    L->blank_before = 1;
}

static void on_leave(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    unsigned t = d->dom.nodes[i].tag;
    if (L->markdown && !L->in_pre && is_inline_code(t)) close_code(L);
    /* an inline headline (<b> in a line of its own, the one element kept
     * that is not a unit) ends its line */
    if (d->labels.keep[i] && d->labels.unit[i] != i && !wn_tag_has(t, WN_TF_BREAK) && !L->in_pre) {
        put_line(L);
        L->blank_before = 1;
        return;
    }
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
    if ((t == WN_TAG_TD || t == WN_TAG_TH) && L->data_table != WN_NONE) {
        if (L->cell_depth) L->cell_depth--;
        if (L->cell_depth) L->pending_space = 1;
        return;
    }
    if (L->cell_depth && !L->in_pre) {
        if (breaks_in_cell(t)) L->pending_space = 1;
        return;
    }
    if (L->markdown && L->heading_depth && !L->in_pre && wn_tag_has(t, WN_TF_BREAK)) {
        if (!heading_level(t) && L->heading_list != WN_NONE &&
            (i == L->heading_list || (t == WN_TAG_LI && d->dom.nodes[i].parent == L->heading_list))) {
            /* an item of the list that opens the heading: its line, then
             * the heading's marks for what follows */
            put_line(L);
            memcpy(L->prefix, L->heading_marks, sizeof L->heading_marks);
            if (t == WN_TAG_LI) {
                end_item(L, i);
                return;
            }
            close_container(L, i);
            if (L->list_depth) L->list_depth--;
            if (!L->list_depth) L->blank_before = 1;
            L->heading_list = WN_NONE;
            return;
        }
        if (!heading_level(t)) {
            L->pending_space = 1;
            return;
        }
        L->heading_depth--;
        put_line(L);
        /* a heading with no text kept: no marks (an item's marker waits on) */
        L->prefix[0] = '\0';
    }
    if (t == WN_TAG_TR && L->data_table != WN_NONE) {
        /* a row whose cells are all empty is left out; text drops the
         * tabs of empty cells at its end */
        size_t len = L->line.len;
        while (len && strchr(L->markdown ? " |" : "\t", L->line.data[len - 1])) len--;
        if (!L->markdown || len == 0) L->line.len = len;
        if (L->line.len == 0) L->cells_in_row = 0;
        if (L->markdown && L->cells_in_row) {
            while (L->line.len && L->line.data[L->line.len - 1] == ' ') L->line.len--;
            wn_buf_puts(&L->line, " |");
            int cells = L->cells_in_row;
            if (L->rows_in_table == 0) /* the header: as wide as the widest row */
                for (; cells < L->table_cols; cells++) wn_buf_puts(&L->line, " |");
            put_line(L);
            if (L->rows_in_table == 0) {
                line_lead(L);
                wn_buf_putc(L->out, '|');
                for (int k = 0; k < cells; k++) wn_buf_puts(L->out, " --- |");
                wn_buf_putc(L->out, '\n');
            }
        } else {
            put_line(L);
        }
        if (L->cells_in_row) L->rows_in_table++;
        L->cells_in_row = 0;
        if (i == L->data_table) end_data_table(L);
        return;
    }
    if (i == L->data_table) {
        put_line(L);
        end_data_table(L);
        return;
    }
    if (t == WN_TAG_TABLE || t == WN_TAG_TR) {
        put_line(L);
        L->blank_before = t == WN_TAG_TABLE;
        return;
    }
    if ((t == WN_TAG_THEAD || t == WN_TAG_TBODY || t == WN_TAG_TFOOT) && L->data_table != WN_NONE) {
        /* a row group ends inside its table: the rows go on without a blank
         * line, which would end a GFM table */
        put_line(L);
        return;
    }
    if (is_pre(t)) {
        if (L->in_pre) L->in_pre--;
        L->pre_break = 0;
        if (L->markdown && !L->in_pre) {
            /* the code's last line break (a trailing <br>, a final newline)
             * makes no line of its own, in a browser either */
            if (L->line.len && L->line.data[L->line.len - 1] == '\n') L->line.len--;
            if (L->line.len) {
                line_lead(L);
                wn_buf_put(L->out, L->line.data, L->line.len);
                wn_buf_putc(L->out, '\n');
                line_clear(L);
            }
            if (L->out->len == L->fence_end && L->fence_at != (size_t)-1 && !L->out->oom) {
                /* no code in it (a gutter of line numbers left out): no block */
                L->out->len = L->fence_at;
                return;
            }
            line_lead(L);
            for (int k = 0; k < L->fence_len; k++) wn_buf_putc(L->out, '`');
            wn_buf_putc(L->out, '\n');
            L->blank_before = 1;
        } else {
            put_line(L);
        }
        return;
    }
    if (L->in_pre && wn_tag_has(t, WN_TF_BREAK)) {
        L->pre_break = L->line.len != 0;
        return;
    }
    if (!wn_tag_has(t, WN_TF_BREAK) || L->in_pre) return;
    if (is_list(t)) {
        put_line(L);
        close_container(L, i);
        if (L->list_depth) L->list_depth--;
        if (!L->list_depth) L->blank_before = 1;
        return;
    }
    if (t == WN_TAG_BLOCKQUOTE) {
        put_line(L);
        close_container(L, i);
        if (L->quote_depth) L->quote_depth--;
        L->blank_before = 1;
        return;
    }
    put_line(L);
    if (t == WN_TAG_LI) {
        if (L->markdown) end_item(L, i);
    } else {
        L->blank_before = 1;
    }
}

static void on_text(void *ctx, const winnow_doc *d, uint32_t i)
{
    lines *L = ctx;
    const wn_node *x = &d->dom.nodes[i];
    append_text(L, d->dom.text + x->text_begin, x->text_len, (x->flags & WN_NF_FLAT) != 0);
}

static void render_into(const winnow_doc *d, wn_buf *out, wn_out *flush, int markdown, int all)
{
    lines L;
    memset(&L, 0, sizeof L);
    L.out = out;
    L.flush = markdown ? NULL : flush;
    L.markdown = markdown;
    L.data_table = WN_NONE;
    L.heading_list = WN_NONE;
    wn_buf_init(&L.line);
    wn_walk_cb cb = { on_enter, on_leave, on_text };
    if ((all ? wn_walk_all(d, &cb, &L) : wn_walk_kept(d, &cb, &L)) != 0) out->oom = 1;
    L.in_pre = 0;
    put_line(&L);
    if (L.line.oom) out->oom = 1;
    wn_buf_free(&L.line);
}

void wn_main_text(const winnow_doc *d, wn_buf *b) { render_into(d, b, NULL, 0, 0); }

void wn_render_lines(const winnow_doc *d, wn_out *o, int markdown)
{
    render_into(d, &o->buf, o, markdown, 0);
    wn_out_flush(o, 1);
}

void wn_render_fulltext(const winnow_doc *d, wn_out *o)
{
    render_into(d, &o->buf, o, 0, 1);
    wn_out_flush(o, 1);
}
