/* Helpers shared by the DOM and statistics tests: parse a page into a
 * wn_dom through the real parser adapter, and find nodes in it by tag,
 * id or text. */
#ifndef WINNOW_TEST_DOM_FIXTURE_H
#define WINNOW_TEST_DOM_FIXTURE_H

#include <string.h>

#include "dom/dom.h"
#include "parse/parser.h"
#include "util/arena.h"

typedef struct page {
    wn_parser *parser;
    wn_arena arena;
    wn_dom dom;
    wn_parse_status status;
} page;

static inline void page_parse_depth(page *p, const char *html, size_t len, unsigned max_depth)
{
    memset(p, 0, sizeof *p);
    p->parser = wn_parser_new(max_depth);
    wn_arena_init(&p->arena);
    p->status = p->parser ? wn_parser_parse(p->parser, html, len, &p->arena, &p->dom, 1) : WN_PARSE_NOMEM;
}

static inline void page_parse(page *p, const char *html) { page_parse_depth(p, html, strlen(html), 512); }

static inline void page_free(page *p)
{
    wn_parser_free(p->parser);
    wn_arena_free(&p->arena);
}

/* The nth (0-based) element with tag `tag` in document order, WN_NONE if none. */
static inline uint32_t page_find(const wn_dom *d, unsigned tag, unsigned nth)
{
    for (uint32_t i = 0; i < d->count; i++)
        if (d->nodes[i].tag == tag && nth-- == 0) return i;
    return WN_NONE;
}

static inline uint32_t page_find_id(const wn_dom *d, const char *id)
{
    for (uint32_t i = 0; i < d->count; i++) {
        const char *v = wn_node_attr(d, &d->nodes[i], "id", NULL);
        if (v && strcmp(v, id) == 0) return i;
    }
    return WN_NONE;
}

static inline const char *node_text(const wn_dom *d, uint32_t i) { return d->text + d->nodes[i].text_begin; }

/* Does any text node of the page contain `needle`? */
static inline int page_has_text(const wn_dom *d, const char *needle)
{
    for (uint32_t i = 0; i < d->count; i++)
        if (d->nodes[i].tag == WN_TAG_TEXT && strstr(node_text(d, i), needle)) return 1;
    return 0;
}

static inline uint32_t page_max_depth(const wn_dom *d)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < d->count; i++)
        if (d->nodes[i].depth > m) m = d->nodes[i].depth;
    return m;
}

#endif
