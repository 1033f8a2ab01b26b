/* Stage 2: UTF-8 text -> compact DOM.
 *
 * A thin adapter over an HTML5 tree builder (myhtml from Debian's
 * libmodest). Only src/parse/ knows the library (parser_internal.h says
 * which file does what): the rest of winnow sees wn_dom. One wn_parser per
 * thread; it is reused across pages.
 *
 * Contract: reads the decoded UTF-8 text; writes a wn_dom (winnow_doc.dom,
 * its arrays in a wn_dom_store: winnow_doc.dom_store) and the damage it
 * repaired (wn_dom.depth_capped, flattened, unclosed: the page's warning).
 * Knows nothing of the page record. */
#ifndef WN_PARSER_H
#define WN_PARSER_H

#include <stddef.h>

#include "../dom/dom.h"
#include "../util/arena.h"

typedef struct wn_parser wn_parser;

typedef enum wn_parse_status {
    WN_PARSE_OK = 0,
    WN_PARSE_NOMEM,
    WN_PARSE_FAILED,
    WN_PARSE_TOO_LARGE,
} wn_parse_status;

wn_parser *wn_parser_new(unsigned max_depth);
void wn_parser_free(wn_parser *p);

/* Parse `len` bytes of NUL-free UTF-8 into `dom`, allocating from `arena`.
 * With build_dom == 0 the parse runs and nothing is copied out (the
 * benchmark's parse-only floor). */
wn_parse_status wn_parser_parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                int build_dom);

/* The same, but for an ordinary page (arrays up to 8 MiB) the DOM's node,
 * attribute and text arrays are the parser's own, handed over in *store
 * instead of copied into the arena; they live until
 * wn_parser_reclaim(p, store), which lets the parser reuse them for a later
 * page (or frees them). A large page's are shrunk to their size and handed
 * over the same way; the parser does not keep them. The rest of the DOM
 * is in the arena. */
typedef struct wn_dom_store {
    wn_node *nodes;
    wn_attr *attrs;
    char *text;
    size_t nodes_cap, attrs_cap, text_cap;
} wn_dom_store;

/* The rule values the parse reads. The stage lies below the rule table,
 * and one parser serves every page of an engine, so the caller passes
 * them with each page (NULL: the defaults). */
typedef struct wn_parse_rules {
    double merged_link_share; /* MERGED_LINK_SHARE: merged text is link text past this share of it */
    int show_hidden;          /* build elements hidden until a script shows them (see wn_parse_is_hidden) */
    int hide_unread;          /* UNREAD_TEXT: copies for screen readers and spelled-out identifiers hidden */
    int show_tabpanels;       /* HIDDEN_TABPANEL: a hidden role="tabpanel" is built (a tab's content) */
    int hide_closed;          /* HIDDEN_CLOSED: a <dialog> not open and a popover are hidden */
    int show_controlled;      /* HIDDEN_CONTROLLED: a hidden accordion panel (aria-controls) is built */
} wn_parse_rules;
#define WN_PARSE_MERGED_LINK_SHARE 0.5 /* the default, for callers without a rule table */

wn_parse_status wn_parser_parse_store(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                      wn_dom_store *store, const wn_parse_rules *rules);
/* p may be NULL (the arrays are freed). */
void wn_parser_reclaim(wn_parser *p, wn_dom_store *store);

/* Pages over `bytes` are fed to the tree builder in pieces of that size,
 * the final part of its tree copied out and freed after each (0: the
 * default, 1 MiB). The DOM is the same for any size; tests set small ones. */
void wn_parser_set_chunk(wn_parser *p, size_t bytes);

/* The node budget: a page gets max(floor, its bytes / bytes_per_node)
 * nodes (bytes_per_node 0: no budget, the default for a parser). Past it,
 * elements are not copied: their children go to their parent and their
 * text is appended to the text before it, a block's after a line break.
 * Every later stage keeps arrays per node, so this bounds a page's memory
 * by its size for any shape of markup; dom->flattened counts the elements
 * read as text. */
void wn_parser_set_node_budget(wn_parser *p, unsigned bytes_per_node, uint32_t floor);

/* Text nodes of white space alone between two line breaks are dropped from
 * the DOM (they show nothing; see drop_blank_text). keep != 0 keeps them,
 * for tests that compare a DOM with the markup it came from. */
void wn_parser_keep_blank(wn_parser *p, int keep);

/* The elements the last parse skipped as hidden in a way scripts undo (the
 * hidden attribute, visibility:hidden): a page that shows little text and
 * has some is worth parsing again with wn_parse_rules.show_hidden. */
size_t wn_parser_script_hidden(const wn_parser *p);
/* The elements the last parse skipped as display:none (built when
 * wn_parse_rules.show_hidden is 2). */
size_t wn_parser_display_hidden(const wn_parser *p);

/* Stops pathological nesting before the tree builder sees it: start tags
 * that would open more than max_depth elements are dropped (browsers cap
 * DOM depth the same way). Returns NULL when nothing needs dropping, else
 * a malloc'd copy without those tags and its length in *out_len. Exposed for
 * tests. */
char *wn_depth_guard(const char *s, size_t n, unsigned max_depth, size_t *out_len, size_t *dropped);

/* The pre-scan behind wn_depth_guard, which also closes raw-text elements
 * (<title>, <script>, <style>, <textarea>...) that are never closed, at the
 * first markup after them, instead of letting them swallow the page. */
/* Attributes kept on one tag (cap_attrs in depth_guard.c says why). */
#define WN_MAX_ELEMENT_ATTRS 1000

typedef struct wn_repair_report {
    size_t dropped;       /* start tags dropped past max_depth */
    size_t closed;        /* end tags inserted for unclosed raw-text elements */
    size_t attrs_dropped; /* attributes past WN_MAX_ELEMENT_ATTRS on one tag */
    int oom;
} wn_repair_report;

char *wn_markup_repair(const char *s, size_t n, unsigned max_depth, size_t *out_len, wn_repair_report *rep);

/* A page whose content sits in <noscript> (noscript.c): a malloc'd copy
 * of the page without the tags of the <noscript> elements in its body, so
 * that a parse builds their markup, and in *text_chars the characters
 * (not white space) of text they hold. NULL when the body has no
 * <noscript> or when out of memory. */
char *wn_noscript_unwrap(const char *s, size_t n, size_t *out_len, size_t *text_chars);

#endif
