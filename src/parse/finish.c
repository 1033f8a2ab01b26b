/* The passes over a finished DOM: subtree sizes and source ranges, blank
 * text between line breaks dropped, script links around blocks unlinked,
 * the arrays moved into the page (or handed to the caller), and heading
 * anchor glyphs hidden. They read only the DOM, not the tree builder. */
#include "parser_internal.h"

#include "../util/ascii.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* An <a href="javascript:..."> around paragraphs or sections goes nowhere:
 * it makes a click handler of a whole region, and the text inside is the
 * page's own, not link text (a script link around a word or two stays a
 * link: a button, a menu entry). */
static void unlink_script_wrappers(wn_dom *dom)
{
    for (uint32_t i = 1; i < dom->count; i++) {
        wn_node *x = &dom->nodes[i];
        if (x->tag != WN_TAG_A || !(x->flags & WN_NF_LINK)) continue;
        const char *href = wn_node_attr(dom, x, "href", NULL);
        while (href && (*href == ' ' || *href == '\t' || *href == '\n' || *href == '\r')) href++;
        if (!href || tolower((unsigned char)*href) != 'j' || strncasecmp(href, "javascript:", 11) != 0) continue;
        uint32_t end = i + x->size, k = i + 1;
        while (k < end && !(wn_tag_has(dom->nodes[k].tag, WN_TF_BLOCK) && dom->nodes[k].tag != WN_TAG_A)) k++;
        if (k == end) continue;
        for (k = i; k < end; k++) dom->nodes[k].flags &= (uint16_t)~WN_NF_LINK;
    }
}

/* A text node of white space alone between two line breaks (block or
 * table elements, <br>, the start or end of a block parent) shows nothing:
 * text output collapses it into the break beside it. Indented markup has
 * one such node between almost every pair of elements, a third of a
 * typical page's nodes; every later stage keeps arrays per node, so they
 * are dropped here, once. Inside <pre> white space is text and stays. */
static int breaks_line(const wn_dom *dom, uint32_t k)
{
    const wn_node *x = &dom->nodes[k];
    if (x->tag == WN_TAG_TEXT) return 0;
    return x->tag == WN_TAG_BR || wn_tag_has(x->tag, WN_TF_BREAK | WN_TF_TABLE);
}

static int blank_text(const wn_dom *dom, uint32_t k)
{
    /* HTML's white space */
    static const uint8_t space[256] = { [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1 };
    const wn_node *x = &dom->nodes[k];
    if (x->tag != WN_TAG_TEXT || (x->flags & WN_NF_PRE)) return 0;
    const unsigned char *t = (const unsigned char *)dom->text + x->text_begin;
    for (uint32_t j = 0; j < x->text_len; j++)
        if (!space[t[j]]) return 0;
    return 1;
}

static wn_parse_status drop_blank_text(wn_dom *dom)
{
    uint32_t n = dom->count;
    uint32_t *map = calloc(n, sizeof *map); /* 1: dropped; then old index -> new */
    if (!map) return WN_PARSE_NOMEM;
    uint32_t dropped = 0;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *par = &dom->nodes[i];
        if (par->tag == WN_TAG_TEXT || (par->flags & WN_NF_PRE)) continue;
        int edge = i == 0 || breaks_line(dom, i);
        /* each child's blankness is read once, as the next of the one before */
        uint32_t prev = WN_NONE, c = par->first_child;
        int blank = c != WN_NONE && blank_text(dom, c);
        while (c != WN_NONE) {
            uint32_t next = dom->nodes[c].next_sibling;
            int next_blank = next != WN_NONE && blank_text(dom, next);
            if (blank) {
                int left = prev == WN_NONE ? edge : breaks_line(dom, prev) || map[prev];
                int right = next == WN_NONE ? edge : breaks_line(dom, next) || next_blank;
                if (left && right) {
                    map[c] = 1;
                    dropped++;
                }
            }
            prev = c;
            c = next;
            blank = next_blank;
        }
    }
    if (dropped) {
        /* compact: map old index -> new, then relink children in order */
        uint32_t w = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (map[i]) {
                map[i] = WN_NONE;
                continue;
            }
            map[i] = w;
            if (w != i) dom->nodes[w] = dom->nodes[i];
            wn_node *x = &dom->nodes[w];
            x->parent = x->parent == WN_NONE ? WN_NONE : map[x->parent];
            x->first_child = x->last_child = x->next_sibling = WN_NONE;
            if (x->parent != WN_NONE) {
                wn_node *p = &dom->nodes[x->parent];
                if (p->last_child != WN_NONE)
                    dom->nodes[p->last_child].next_sibling = w;
                else
                    p->first_child = w;
                p->last_child = w;
            }
            w++;
        }
        if (dom->body) dom->body = map[dom->body];
        dom->count = w;
        for (uint32_t i = 0; i < w; i++) dom->nodes[i].size = 1;
        for (uint32_t i = w - 1; i > 0; i--) dom->nodes[dom->nodes[i].parent].size += dom->nodes[i].size;
    }
    free(map);
    return WN_PARSE_OK;
}

wn_parse_status wn_parse_build_end(build_ctx *b)
{
    wn_dom *dom = b->dom;
    wn_arena *arena = b->arena;

    /* subtree sizes and source ranges, bottom-up over the pre-order array.
     * An element's range is the union of its own tag and its children's
     * ranges; elements the tree builder implied (a tbody, a missing body)
     * have no tag of their own and take their children's span. */
    for (uint32_t i = 0; i < dom->count; i++) {
        wn_node *x = &dom->nodes[i];
        x->size = 1;
        if (i > 0 && x->tag != WN_TAG_TEXT && x->src_len == 0) x->src_begin = UINT32_MAX; /* empty so far */
    }
    for (uint32_t i = dom->count - 1; i > 0; i--) {
        wn_node *x = &dom->nodes[i], *par = &dom->nodes[x->parent];
        par->size += x->size;
        if (x->parent == 0 || x->src_begin == UINT32_MAX) continue;
        uint64_t end = (uint64_t)x->src_begin + x->src_len;
        if (par->src_begin == UINT32_MAX) {
            par->src_begin = x->src_begin;
            par->src_len = x->src_len;
            continue;
        }
        uint64_t pend = (uint64_t)par->src_begin + par->src_len;
        if (x->src_begin < par->src_begin) par->src_begin = x->src_begin;
        if (end > pend) pend = end;
        par->src_len = (uint32_t)(pend - par->src_begin);
    }
    for (uint32_t i = 1; i < dom->count; i++)
        if (dom->nodes[i].src_begin == UINT32_MAX) dom->nodes[i].src_begin = 0; /* nothing inside either */
    /* after the source ranges: an element's range still spans the white
     * space it held */
    wn_parse_status drc = b->p->keep_blank ? WN_PARSE_OK : drop_blank_text(dom);
    if (drc != WN_PARSE_OK) return drc;
    unlink_script_wrappers(dom);
    wn_parser *p = b->p;
    /* the arrays go to the caller, which hands them back
     * (wn_parser_reclaim) when the page is done; a large page's are first
     * shrunk to their size, so that the growth's slack does not stay with
     * the page, and are freed then rather than kept */
    int give = b->store != NULL;
    if (give && p->nodes_cap * sizeof(wn_node) + p->attrs_cap * sizeof(wn_attr) + p->text_cap > KEEP_SCRATCH_BYTES) {
        /* shrunk in place (the allocator gives the tail of a large block
         * back) rather than copied: a copy would hold the page's DOM twice */
        shrink((void **)&p->nodes, &p->nodes_cap, dom->count, sizeof(wn_node));
        shrink((void **)&p->attrs, &p->attrs_cap, (size_t)dom->attr_count + 1, sizeof(wn_attr));
        shrink((void **)&p->text, &p->text_cap, dom->text_len + 1, 1);
        dom->nodes = p->nodes;
    }
    if (give) {
        if (!grow((void **)&p->attrs, &p->attrs_cap, 1, sizeof(wn_attr)) ||
            !grow((void **)&p->text, &p->text_cap, dom->text_len + 1, 1))
            return WN_PARSE_NOMEM;
        p->text[dom->text_len] = '\0';
        dom->attrs = p->attrs;
        dom->text = p->text;
        b->store->nodes = p->nodes;
        b->store->attrs = p->attrs;
        b->store->text = p->text;
        b->store->nodes_cap = p->nodes_cap;
        b->store->attrs_cap = p->attrs_cap;
        b->store->text_cap = p->text_cap;
        p->nodes = NULL;
        p->attrs = NULL;
        p->text = NULL;
        p->nodes_cap = p->attrs_cap = p->text_cap = 0;
    }
    /* move the finished arrays from the parser's scratch into the page */
    wn_node *nodes = give ? dom->nodes : wn_arena_alloc(arena, (size_t)dom->count * sizeof(wn_node));
    wn_attr *attrs = give ? dom->attrs : wn_arena_alloc(arena, ((size_t)dom->attr_count + 1) * sizeof(wn_attr));
    char *text = give ? dom->text : wn_arena_alloc(arena, dom->text_len + 1);
    const char **jsonld = wn_arena_alloc(arena, ((size_t)dom->jsonld_count + 1) * sizeof(char *));
    uint32_t *jsonld_len = wn_arena_alloc(arena, ((size_t)dom->jsonld_count + 1) * sizeof(uint32_t));
    if (!nodes || !attrs || !text || !jsonld || !jsonld_len) return WN_PARSE_NOMEM;
    if (!give) {
        memcpy(nodes, dom->nodes, (size_t)dom->count * sizeof(wn_node));
        if (dom->attr_count) memcpy(attrs, dom->attrs, (size_t)dom->attr_count * sizeof(wn_attr));
        if (dom->text_len) memcpy(text, dom->text, dom->text_len);
        text[dom->text_len] = '\0';
    }
    if (dom->jsonld_count) {
        memcpy(jsonld, dom->jsonld, (size_t)dom->jsonld_count * sizeof(char *));
        memcpy(jsonld_len, dom->jsonld_len, (size_t)dom->jsonld_count * sizeof(uint32_t));
    }
    dom->nodes = nodes;
    dom->attrs = attrs;
    dom->text = text;
    dom->jsonld = jsonld;
    dom->jsonld_len = jsonld_len;
    return WN_PARSE_OK;
}

/* A heading's anchor glyph: a link to a place on the page whose text is
 * one symbol and no letter or digit ("#", "\u00B6", "\u00A7", a link
 * emoji), which documentation and blog generators put beside every
 * heading for copying its address. Not on the page's text: hidden. */
void wn_parse_hide_anchor_glyphs(wn_dom *dom)
{
    for (uint32_t i = 0; i < dom->count; i++) {
        wn_node *x = &dom->nodes[i];
        if (x->tag != WN_TAG_A || !(x->flags & WN_NF_LINK) || (x->flags & WN_NF_HIDDEN)) continue;
        const char *href = wn_node_attr(dom, x, "href", NULL);
        if (!href || href[0] != '#' || !href[1]) continue;
        size_t symbol = 0;
        int other = 0;
        for (uint32_t k = i + 1; k < i + x->size && !other; k++) {
            const wn_node *y = &dom->nodes[k];
            if (y->tag != WN_TAG_TEXT) continue;
            const unsigned char *t = (const unsigned char *)dom->text + y->text_begin;
            for (uint32_t j = 0; j < y->text_len && !other;) {
                unsigned c = t[j];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    j++;
                    continue;
                }
                if (c == 0xC2 && j + 1 < y->text_len && t[j + 1] == 0xA0) {
                    j += 2;
                    continue;
                }
                if (c < 0x80) {
                    if (wn_ascii_alnum(c)) other = 1;
                    symbol++;
                    j++;
                    continue;
                }
                /* Latin-1 symbols, general punctuation and symbols,
                 * emoji; any other script is a word */
                size_t m = c == 0xC2 ? 2 : c == 0xE2 ? 3 : c == 0xF0 && j + 1 < y->text_len && t[j + 1] == 0x9F ? 4 : 0;
                if (!m) other = 1;
                symbol += m;
                j += m ? (uint32_t)m : 1;
            }
        }
        if (other || symbol == 0 || symbol > 4) continue;
        for (uint32_t k = i; k < i + x->size; k++) dom->nodes[k].flags |= WN_NF_HIDDEN | WN_NF_UNREAD;
    }
}

enum { COPY_MAX_NODES = 8, COPY_MAX_BYTES = 512 };

/* The text of node i's subtree (at most COPY_MAX_NODES nodes), white
 * space left out, into out (COPY_MAX_BYTES); its length, 0 when it is
 * longer, larger or already hidden. */
static size_t dense_text(const wn_dom *dom, uint32_t i, char *out)
{
    const wn_node *x = &dom->nodes[i];
    if (x->size > COPY_MAX_NODES || (x->flags & WN_NF_HIDDEN)) return 0;
    size_t n = 0;
    for (uint32_t k = i; k < i + x->size; k++) {
        const wn_node *y = &dom->nodes[k];
        if (y->tag != WN_TAG_TEXT) continue;
        if (y->flags & WN_NF_HIDDEN) return 0;
        const char *t = dom->text + y->text_begin;
        for (uint32_t j = 0; j < y->text_len; j++) {
            unsigned char c = (unsigned char)t[j];
            if (c <= ' ') continue;
            if (n == COPY_MAX_BYTES) return 0;
            out[n++] = (char)c;
        }
    }
    return n;
}

/* Whether s[0..n) holds a letter or digit (any byte past ASCII counts). */
static int has_word(const char *s, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        if (c >= 0x80 || wn_ascii_alnum(c)) return 1;
    }
    return 0;
}

/* Whether s[0..n) is a UUID: 8-4-4-4-12 hexadecimal digits. */
static int is_uuid(const char *s, size_t n)
{
    if (n != 36) return 0;
    for (size_t j = 0; j < 36; j++) {
        unsigned char c = (unsigned char)s[j];
        if (j == 8 || j == 13 || j == 18 || j == 23) {
            if (c != '-') return 0;
        } else if (!((unsigned)(c - '0') < 10u || (unsigned)((c | 0x20) - 'a') < 6u)) {
            return 0;
        }
    }
    return 1;
}

/* Whether node i is inside code (<code>, <kbd>, <samp>, <tt>, <var>): a
 * highlighter's spans repeat tokens ("59, 59"). */
static int in_code(const wn_dom *dom, uint32_t i)
{
    for (uint32_t a = dom->nodes[i].parent; a != WN_NONE && a != 0; a = dom->nodes[a].parent) {
        unsigned t = dom->nodes[a].tag;
        if (wn_tag_has(t, WN_TF_CODE) || t == WN_TAG_TT || t == WN_TAG_VAR) return 1;
        if (wn_tag_has(t, WN_TF_BREAK)) return 0;
    }
    return 0;
}

/* Whether element c is a <span> of one character (a letter of a word
 * spelled out a span at a time). */
static int one_letter_span(const wn_dom *dom, uint32_t c)
{
    if (c == WN_NONE || dom->nodes[c].tag != WN_TAG_SPAN || dom->nodes[c].size != 2) return 0;
    const wn_node *t = &dom->nodes[c + 1];
    return t->tag == WN_TAG_TEXT && t->text_len == 1 && (unsigned char)dom->text[t->text_begin] > ' ';
}

/* Whether element c is a <span> holding a UUID alone. */
static int uuid_span(const wn_dom *dom, uint32_t c, char *buf)
{
    if (dom->nodes[c].tag != WN_TAG_SPAN || dom->nodes[c].size != 2) return 0;
    const wn_node *t = &dom->nodes[c + 1];
    if (t->tag != WN_TAG_TEXT || t->text_len < 36 || t->text_len > 48) return 0;
    return is_uuid(buf, dense_text(dom, c, buf));
}

static void hide(wn_dom *dom, uint32_t i)
{
    for (uint32_t k = i; k < i + dom->nodes[i].size; k++) dom->nodes[k].flags |= WN_NF_HIDDEN | WN_NF_UNREAD;
}

/* Text no reader reads there:
 *   - a copy: a <span> outside code whose text (white space aside) is the
 *     text of the sibling just before it, when that is a text node or one
 *     of the two is aria-hidden. Shops print a price or a title twice,
 *     once for the eye (often aria-hidden) and once in a span that a
 *     screen reader alone reads, styled out of sight by a class of their
 *     own; the page text would say everything twice;
 *   - an identifier: a UUID alone in a <span> beside spans of one letter
 *     (a shop's "Sponsored" label spelled out a letter a span, UUID spans
 *     between them that its style sheet hides). A UUID in prose stays. */
void wn_parse_hide_unread(wn_dom *dom)
{
    char a[COPY_MAX_BYTES], b[COPY_MAX_BYTES];
    /* each element's children in order, the last one with text at hand */
    for (uint32_t q = 0; q < dom->count; q++) {
        const wn_node *parent = &dom->nodes[q];
        if (parent->tag == WN_TAG_TEXT || (parent->flags & (WN_NF_HIDDEN | WN_NF_PRE)) ||
            parent->first_child == WN_NONE)
            continue;
        int code = -1;   /* whether q is in code, asked once */
        int letters = 0; /* whether q has a child span of one letter */
        for (uint32_t c = parent->first_child; c != WN_NONE && !letters; c = dom->nodes[c].next_sibling)
            letters = one_letter_span(dom, c);
        uint32_t prev = WN_NONE; /* the last sibling with text */
        for (uint32_t c = parent->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            const wn_node *y = &dom->nodes[c];
            if (y->tag == WN_TAG_TEXT) {
                const char *t = dom->text + y->text_begin;
                uint32_t j = 0;
                while (j < y->text_len && (unsigned char)t[j] <= ' ') j++;
                if (j < y->text_len) prev = c;
                continue;
            }
            uint32_t was = prev;
            prev = c;
            if (y->tag != WN_TAG_SPAN || (y->flags & WN_NF_HIDDEN)) continue;
            if (letters && uuid_span(dom, c, a)) {
                hide(dom, c);
                continue;
            }
            if (was == WN_NONE) continue;
            size_t n = dense_text(dom, c, a);
            if (n < 3 || !has_word(a, n)) continue;
            size_t m = dense_text(dom, was, b);
            if (m != n || memcmp(a, b, n) != 0) continue;
            /* the same line read twice: after the text itself, or beside
             * an element the markup keeps from screen readers (a list's
             * items repeating a label are lines of their own by style) */
            if (dom->nodes[was].tag != WN_TAG_TEXT && !wn_node_aria_hidden(dom, was) && !wn_node_aria_hidden(dom, c))
                continue;
            if (code < 0) code = in_code(dom, c);
            if (!code) hide(dom, c);
        }
    }
}
