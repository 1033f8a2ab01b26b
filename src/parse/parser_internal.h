/* The parser's private side, shared by its files: parser.c (the parser
 * object, feeding the tree builder, the entry points), attrs.c (which of
 * the tree builder's nodes are kept, hidden or JSON-LD), copy.c (copying
 * nodes into the DOM, the node budget included), harvest.c (copying a
 * large page out piece by piece while it is parsed) and finish.c (the
 * passes over the finished DOM). Only these files and depth_guard.c know
 * the tree builder; the rest of winnow sees parser.h.
 *
 * grow and shrink are static inline here: every file grows arrays, by the
 * name they had when the parser was one file. */
#ifndef WN_PARSER_INTERNAL_H
#define WN_PARSER_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "parser.h"

#include <myhtml/myhtml.h>
/* the tree builder's state (open elements, active formatting elements,
 * element pointers) and its pools, read to copy the tree out piecewise */
#include <myhtml/tree.h>
#include <myhtml/token.h>

/* The tree builder's node and attribute accessors, read from the structures
 * its headers define (as harvest and delete_subtree already do) instead of
 * called through the shared library: the copy makes some ten such calls a
 * node, each a jump through the PLT for one or two loads. Each returns what
 * the library's function of the same name returns. */
static inline myhtml_tree_node_t *mh_child(const myhtml_tree_node_t *n) { return n->child; }
static inline myhtml_tree_node_t *mh_next(const myhtml_tree_node_t *n) { return n->next; }
static inline myhtml_tree_node_t *mh_parent(const myhtml_tree_node_t *n) { return n->parent; }
static inline myhtml_tag_id_t mh_tag_id(const myhtml_tree_node_t *n) { return n->tag_id; }
static inline myhtml_namespace_t mh_namespace(const myhtml_tree_node_t *n) { return n->ns; }
static inline myhtml_tree_attr_t *mh_attr_first(const myhtml_tree_node_t *n)
{
    return n->token ? n->token->attr_first : NULL;
}
static inline myhtml_tree_attr_t *mh_attr_next(const myhtml_tree_attr_t *a) { return a->next; }

/* a string's data and length, NULL and 0 when either is missing */
static inline const char *mh_string(const mycore_string_t *s, size_t *length)
{
    if (s->data && s->length) {
        *length = s->length;
        return s->data;
    }
    *length = 0;
    return NULL;
}
static inline const char *mh_attr_key(const myhtml_tree_attr_t *a, size_t *length)
{
    return mh_string(&a->key, length);
}
static inline const char *mh_attr_value(const myhtml_tree_attr_t *a, size_t *length)
{
    return mh_string(&a->value, length);
}
static inline const char *mh_node_text(const myhtml_tree_node_t *n, size_t *length)
{
    if (!n->token) {
        *length = 0;
        return NULL;
    }
    return mh_string(&n->token->str, length);
}
static inline myhtml_position_t mh_raw_position(const myhtml_tree_node_t *n)
{
    if (!n || !n->token) return (myhtml_position_t){ 0, 0 };
    return (myhtml_position_t){ n->token->raw_begin, n->token->raw_length };
}
static inline myhtml_position_t mh_element_position(const myhtml_tree_node_t *n)
{
    if (!n || !n->token) return (myhtml_position_t){ 0, 0 };
    return (myhtml_position_t){ n->token->element_begin, n->token->element_length };
}

#define TAG_IGNORE 0xFFFFu
/* scratch arrays larger than this are not kept for the next page */
#define KEEP_SCRATCH_BYTES ((size_t)8 << 20)

#define WN_PARSE_MAX_CONTROLLED 64 /* accordion panels remembered a page; more are let be */

struct wn_parser {
    myhtml_t *mh;
    myhtml_tree_t *tree;
    unsigned max_depth;
    uint16_t tagmap[MyHTML_TAG_LAST_ENTRY];
    /* scratch arrays the DOM is built in, kept across pages; the finished
     * DOM is copied into the page arena at its exact size */
    wn_node *nodes;
    size_t nodes_cap;
    wn_attr *attrs;
    size_t attrs_cap;
    char *text;
    size_t text_cap;
    const char **jsonld;
    uint32_t *jsonld_len;
    size_t jsonld_cap;
    uint32_t *nl; /* offsets of the page's newlines */
    size_t nl_cap;
    /* elements copied while open (see harvest) */
    struct spine_ent *spine;
    size_t nspine, spine_cap;
    size_t chunk;        /* input piece fed to the tree builder at a time; 0: the default */
    int keep_blank;      /* keep white-space-only text between line breaks */
    int show_hidden;     /* this parse's wn_parse_rules.show_hidden */
    int show_tabpanels;  /* this parse's wn_parse_rules.show_tabpanels */
    int hide_closed;     /* this parse's wn_parse_rules.hide_closed */
    int show_controlled; /* this parse's wn_parse_rules.show_controlled */
    /* hashes of the ids that aria-controls of an element with aria-expanded
     * names, as met in document order (an accordion's panels) */
    uint64_t controlled[WN_PARSE_MAX_CONTROLLED];
    unsigned ncontrolled;
    size_t script_hidden;  /* elements skipped as hidden in a way scripts undo (wn_parser_script_hidden) */
    size_t display_hidden; /* elements skipped as display:none (wn_parser_display_hidden) */
    /* end-tag tokens of the piece being parsed (see free_closers) */
    myhtml_token_node_t **closers;
    size_t nclosers, closers_cap;
    int closers_oom;
    int noting_closers;  /* the page is fed in pieces: token_done notes its end tags */
    unsigned node_bytes; /* node budget: page bytes per node, 0 none (wn_parser_set_node_budget) */
    uint32_t node_floor; /* ... and the nodes every page gets whatever its size */
};

static inline int grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *n = realloc(*ptr, c * elem);
    if (!n) return 0;
    *ptr = n;
    *cap = c;
    return 1;
}

/* Gives back what is over need (at least one element); a failed realloc
 * leaves the larger array, which is still correct. */
static inline void shrink(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need == 0) need = 1;
    if (!*ptr || *cap <= need) return;
    void *n = realloc(*ptr, need * elem);
    if (!n) return;
    *ptr = n;
    *cap = need;
}

/* A level of the spine: an element copied while still open (harvest.c
 * says which and why). */
typedef struct spine_ent spine_ent;
struct spine_ent {
    myhtml_tree_node_t *mh;
    uint32_t idx;               /* its index in the DOM (its parent's when flattened) */
    myhtml_tree_node_t *cursor; /* last child copied but kept in the tree, NULL: none */
    size_t nattr;               /* attributes when copied */
    uint8_t flat;               /* past the node budget: read as its parent's text */
    uint8_t flat_kind;          /* ... and then its FLAT_* bits */
};

/* What a flattened element's end means for the text after it: a block's
 * ends a line; a link's ends link text. */
enum { FLAT_BREAK = 1, FLAT_LINK = 2 };

/* A level of emit_subtree's walk: the DOM parent of the level's nodes and
 * the FLAT_* bits of the element walked into when it was flattened. */
typedef struct walk_ent {
    uint32_t parent;
    uint8_t flat_kind;
} walk_ent;

typedef struct build_ctx {
    wn_parser *p;
    wn_arena *arena;
    wn_dom *dom;
    const char *src;
    size_t srclen;
    uint32_t *nl, nlines;
    int have_title;
    int chunked;         /* the tree builder was fed in pieces */
    uint32_t line_hint;  /* newlines before the last position asked (line_at) */
    wn_dom_store *store; /* where the arrays go: NULL, copied into the arena */
    /* per harvest: open elements and pinned nodes with their ancestors, sorted */
    const void **open, **pinned;
    size_t nopen, npinned, open_cap, pinned_cap;
    /* the node budget: past `budget` nodes, elements are not copied and
     * their text joins the text before it (flatten) */
    uint32_t budget;
    uint32_t flattened;               /* elements read as text */
    char pending_sep;                 /* a flattened block began or ended since the last text: '\n' */
    uint32_t flat_link;               /* flattened links open around the text being read */
    uint8_t flat_last;                /* the FLAT_* bits of the element flattened last */
    uint32_t merge_node;              /* the text node merged into last, and its bytes: */
    uint64_t merge_link, merge_total; /* of link text, and in all */
    double merged_link_share;         /* MERGED_LINK_SHARE of this page (wn_parse_rules) */
    walk_ent *walk;
    size_t walk_cap;
} build_ctx;

enum { BUILD_OK = 0, BUILD_REDO = 100 }; /* or a wn_parse_status */

enum { VISIT_SKIP, VISIT_KEEP };

/* attrs.c: the keep/skip rule, and what the copy asks of an element. */
int wn_parse_classify(wn_parser *p, myhtml_tree_node_t *n, uint16_t *tag);
int wn_parse_is_hidden(const wn_parser *p, myhtml_tree_node_t *n);
int wn_parse_is_jsonld(myhtml_tree_node_t *n);

/* copy.c: one node, a whole subtree, and what harvest needs of the copy. */
size_t wn_parse_attr_count(myhtml_tree_node_t *n);
void wn_parse_set_position(build_ctx *b, wn_node *x, myhtml_tree_node_t *n);
int wn_parse_emit_node(build_ctx *b, myhtml_tree_node_t *n, uint32_t parent, uint32_t *idx, int *descend);
int wn_parse_emit_subtree(build_ctx *b, myhtml_tree_node_t *root, uint32_t parent);

/* harvest.c: the DOM's start, and the copy after each piece (final: the
 * last). */
wn_parse_status wn_parse_build_begin(build_ctx *b);
int wn_parse_harvest(build_ctx *b, int final);

/* finish.c: the DOM made final (sizes, ranges, blank text, the arrays into
 * the page), and the anchor glyphs hidden. */
wn_parse_status wn_parse_build_end(build_ctx *b);
void wn_parse_hide_anchor_glyphs(wn_dom *dom);
/* Text no reader reads (finish.c): a copy of the text just before it, an
 * identifier; marked WN_NF_HIDDEN | WN_NF_UNREAD. */
void wn_parse_hide_unread(wn_dom *dom);

#endif
