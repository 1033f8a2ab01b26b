#include "parser.h"

#include <ctype.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <strings.h>

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
static inline const char *mh_attr_key(const myhtml_tree_attr_t *a, size_t *length) { return mh_string(&a->key, length); }
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
    if (!n || !n->token) return (myhtml_position_t){0, 0};
    return (myhtml_position_t){n->token->raw_begin, n->token->raw_length};
}
static inline myhtml_position_t mh_element_position(const myhtml_tree_node_t *n)
{
    if (!n || !n->token) return (myhtml_position_t){0, 0};
    return (myhtml_position_t){n->token->element_begin, n->token->element_length};
}

#define TAG_IGNORE 0xFFFFu
/* scratch arrays larger than this are not kept for the next page */
#define KEEP_SCRATCH_BYTES ((size_t)8 << 20)

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
    uint32_t *nl;       /* offsets of the page's newlines */
    size_t nl_cap;
    /* elements copied while open (see harvest) */
    struct spine_ent *spine;
    size_t nspine, spine_cap;
    size_t chunk;       /* input piece fed to the tree builder at a time; 0: the default */
    int keep_blank;     /* keep white-space-only text between line breaks */
    /* end-tag tokens of the piece being parsed (see free_closers) */
    myhtml_token_node_t **closers;
    size_t nclosers, closers_cap;
    int closers_oom;
    unsigned node_bytes; /* node budget: page bytes per node, 0 none (wn_parser_set_node_budget) */
    uint32_t node_floor; /* ... and the nodes every page gets whatever its size */
};

static int grow(void **ptr, size_t *cap, size_t need, size_t elem)
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
static void shrink(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need == 0) need = 1;
    if (!*ptr || *cap <= need) return;
    void *n = realloc(*ptr, need * elem);
    if (!n) return;
    *ptr = n;
    *cap = need;
}

wn_parser *wn_parser_new(unsigned max_depth)
{
    wn_parser *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->max_depth = max_depth ? max_depth : 512;
    p->mh = myhtml_create();
    if (!p->mh || myhtml_init(p->mh, MyHTML_OPTIONS_PARSE_MODE_SINGLE, 1, 0) != MyHTML_STATUS_OK) goto fail;
    p->tree = myhtml_tree_create();
    if (!p->tree || myhtml_tree_init(p->tree, p->mh) != MyHTML_STATUS_OK) goto fail;
    for (myhtml_tag_id_t id = 0; id < MyHTML_TAG_LAST_ENTRY; id++) {
        size_t len = 0;
        const char *name = myhtml_tag_name_by_id(p->tree, id, &len);
        p->tagmap[id] = name ? (uint16_t)wn_tag_lookup(name, len) : WN_TAG_UNKNOWN;
    }
    p->tagmap[MyHTML_TAG__TEXT] = WN_TAG_TEXT;
    p->tagmap[MyHTML_TAG__UNDEF] = TAG_IGNORE;
    p->tagmap[MyHTML_TAG__COMMENT] = TAG_IGNORE;
    p->tagmap[MyHTML_TAG__DOCTYPE] = TAG_IGNORE;
    p->tagmap[MyHTML_TAG__END_OF_FILE] = TAG_IGNORE;
    return p;
fail:
    wn_parser_free(p);
    return NULL;
}

void wn_parser_free(wn_parser *p)
{
    if (!p) return;
    if (p->tree) myhtml_tree_destroy(p->tree);
    if (p->mh) myhtml_destroy(p->mh);
    free(p->nodes);
    free(p->attrs);
    free(p->text);
    free(p->jsonld);
    free(p->jsonld_len);
    free(p->nl);
    free(p->spine);
    free(p->closers);
    free(p);
}

static uint16_t map_tag(const wn_parser *p, myhtml_tree_node_t *n)
{
    myhtml_tag_id_t id = mh_tag_id(n);
    if (id < MyHTML_TAG_LAST_ENTRY) return p->tagmap[id];
    return WN_TAG_UNKNOWN; /* custom element */
}

static int ci_contains_nospace(const char *v, size_t n, const char *needle)
{
    /* "display : none" and "DISPLAY:NONE" both match "display:none" */
    size_t nl = strlen(needle);
    for (size_t i = 0; i < n; i++) {
        /* a match begins at the needle's first letter (one begun at white
         * space is also tried from the letter after it) */
        if ((char)tolower((unsigned char)v[i]) != needle[0]) continue;
        size_t a = i, b = 0;
        while (a < n && b < nl) {
            char c = (char)tolower((unsigned char)v[a]);
            if (c == ' ' || c == '\t') { a++; continue; }
            if (c != needle[b]) break;
            a++;
            b++;
        }
        if (b == nl) return 1;
    }
    return 0;
}

/* Whether "at" begins with the NUL-terminated word w, within n bytes. */
static int starts(const char *at, size_t n, const char *w)
{
    size_t wl = strlen(w);
    return wl <= n && memcmp(at, w, wl) == 0;
}

/* Whether a class value holds one of the screen-reader-only idioms
 * (sr-only, off-screen, offscreen, visually-hidden, visuallyhidden,
 * screen-reader, screenreader, element-invisible) anywhere. Each idiom
 * has one 's', and the letter after it tells which idioms it can be in:
 * each is tried where it would begin, at the 's' less its offset. */
static int offscreen_class(const char *v, size_t n)
{
    for (const char *q = v, *end = v + n; (q = memchr(q, 's', (size_t)(end - q))) != NULL && q + 1 < end; q++) {
        size_t at = (size_t)(q - v), left = n - at;
        switch (q[1]) {
        case 'r':
            if (starts(q, left, "sr-only")) return 1;
            break;
        case 'c':
            if (starts(q, left, "screen-reader") || starts(q, left, "screenreader")) return 1;
            if (at >= 4 && starts(q - 4, left + 4, "off-screen")) return 1;
            if (at >= 3 && starts(q - 3, left + 3, "offscreen")) return 1;
            break;
        case 'u':
            if (at >= 2 && (starts(q - 2, left + 2, "visually-hidden") || starts(q - 2, left + 2, "visuallyhidden")))
                return 1;
            break;
        case 'i':
            if (at >= 12 && starts(q - 12, left + 12, "element-invisible")) return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

static int is_hidden(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (!k) continue;
        if (kl == 6 && memcmp(k, "hidden", 6) == 0) return 1;
        if (kl == 5 && memcmp(k, "style", 5) == 0) {
            const char *v = mh_attr_value(a, &vl);
            if (v && (ci_contains_nospace(v, vl, "display:none") || ci_contains_nospace(v, vl, "visibility:hidden")))
                return 1;
        }
        if (kl == 5 && memcmp(k, "class", 5) == 0) {
            /* the accessibility idioms for text only screen readers get
             * ("Image caption", "Skip to content"): not on the page */
            const char *v = mh_attr_value(a, &vl);
            /* class names are case-sensitive and these idioms lower-case:
             * a plain substring search, cheap enough for every element */
            if (v && vl >= 7 && memchr(v, 'e', vl) && offscreen_class(v, vl)) return 1;
        }
    }
    return 0;
}

static int is_jsonld(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (k && kl == 4 && memcmp(k, "type", 4) == 0) {
            const char *v = mh_attr_value(a, &vl);
            return v && ci_contains_nospace(v, vl, "ld+json");
        }
    }
    return 0;
}

enum { VISIT_SKIP, VISIT_KEEP };

/* The same keep/skip rule drives the counting pass and the building pass. */
static int classify(const wn_parser *p, myhtml_tree_node_t *n, uint16_t *tag)
{
    uint16_t t = map_tag(p, n);
    *tag = t;
    if (t == TAG_IGNORE) return VISIT_SKIP;
    if (t == WN_TAG_TEXT) return VISIT_KEEP;
    if (mh_namespace(n) == MyHTML_NAMESPACE_SVG && t != WN_TAG_SVG) return VISIT_SKIP;
    if (wn_tag_flags[t] & WN_TF_SKIP) return VISIT_SKIP;
    if (is_hidden(n)) return VISIT_SKIP;
    return VISIT_KEEP;
}

static myhtml_tree_node_t *next_in_walk(myhtml_tree_node_t *n, myhtml_tree_node_t *root, int *ups)
{
    *ups = 0;
    while (n && n != root && !mh_next(n)) {
        n = mh_parent(n);
        (*ups)++;
    }
    if (!n || n == root) return NULL;
    return mh_next(n);
}

/* Offsets of '\n' in the input, for line numbers by binary search. */
static uint32_t line_of(const uint32_t *nl, uint32_t count, size_t pos)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nl[mid] < pos) lo = mid + 1;
        else hi = mid;
    }
    return lo + 1;
}

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

/* The DOM is built while the tree builder runs. A large page is fed to it
 * in pieces, and after each piece the nodes that can no longer change are
 * copied out and deleted from its tree, so that its tree (some 18 bytes per
 * byte of a page of short elements) never holds the whole page.
 *
 * Copying follows document order. The "spine" is the chain of elements
 * copied while still open, from the document down; its deepest element's
 * children are copied in order while they are final:
 *  - a closed child is final when it is not the last child (text may be
 *    appended to a trailing text node) and, if it is text, the next child
 *    is not an open table (text foster-parented out of a table joins the
 *    text node just before it);
 *  - an open child joins the spine when nothing can move the children it
 *    already has: an HTML element that is not a formatting element (the
 *    adoption agency moves children of elements below one), not part of a
 *    table (foster parenting), not a template, not in another namespace;
 *    else copying waits for it to close;
 *  - a spine element whose children are all copied leaves the spine when
 *    it closes.
 * The html element's children wait for the body to exist: until then
 * elements after </head> go into the head. Nodes the tree builder may
 * still point at (the active formatting
 * elements, the head, form, html and body element pointers) are copied but
 * stay in its tree. Two changes of copied elements remain possible: the
 * html and body start tags add attributes to open elements, and a frameset
 * removes the body. Both are checked when a spine element is finished; if
 * either happened, the page is parsed again whole. */
typedef struct spine_ent spine_ent;
struct spine_ent {
    myhtml_tree_node_t *mh;
    uint32_t idx;                /* its index in the DOM (its parent's when flattened) */
    myhtml_tree_node_t *cursor;  /* last child copied but kept in the tree, NULL: none */
    size_t nattr;                /* attributes when copied */
    uint8_t flat;                /* past the node budget: read as its parent's text */
    uint8_t flat_kind;           /* ... and then its FLAT_* bits */
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
    int chunked;        /* the tree builder was fed in pieces */
    uint32_t line_hint; /* newlines before the last position asked (line_at) */
    wn_dom_store *store; /* where the arrays go: NULL, copied into the arena */
    /* per harvest: open elements and pinned nodes with their ancestors, sorted */
    const void **open, **pinned;
    size_t nopen, npinned, open_cap, pinned_cap;
    /* the node budget: past `budget` nodes, elements are not copied and
     * their text joins the text before it (flatten) */
    uint32_t budget;
    uint32_t flattened;  /* elements read as text */
    char pending_sep;    /* a flattened block began or ended since the last text: '\n' */
    uint32_t flat_link;  /* flattened links open around the text being read */
    uint8_t flat_last;   /* the FLAT_* bits of the element flattened last */
    uint32_t merge_node; /* the text node merged into last, and its bytes: */
    uint64_t merge_link, merge_total; /* of link text, and in all */
    walk_ent *walk;
    size_t walk_cap;
} build_ctx;

enum { BUILD_OK = 0, BUILD_REDO = 100 }; /* or a wn_parse_status */

static size_t attr_count(myhtml_tree_node_t *n)
{
    size_t k = 0;
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) k++;
    return k;
}

/* Fed in pieces, the tree builder sometimes counts a piece's offset twice
 * in where an element's tag begins (its end, begin + length, and the tag
 * name's raw position stay right). A begin that does not point at "<" or
 * "</" just before the tag name is replaced by the byte before the name. */
static myhtml_position_t chunked_element_position(const build_ctx *b, myhtml_tree_node_t *n, myhtml_position_t pos)
{
    size_t end = pos.begin + pos.length; /* wraps back when length is off the other way */
    myhtml_position_t raw = mh_raw_position(n);
    size_t beg = pos.begin;
    int ok = beg < b->srclen && b->src[beg] == '<' && beg < raw.begin &&
             (raw.begin - beg == 1 || (raw.begin - beg == 2 && b->src[beg + 1] == '/'));
    if (!ok && raw.length && raw.begin >= 2 && b->src[raw.begin - 1] == '/' && b->src[raw.begin - 2] == '<')
        beg = raw.begin - 2; /* an end tag read as an element: </br>, </p> */
    else if (!ok && raw.length && raw.begin > 0) beg = raw.begin - 1;
    pos.begin = beg;
    pos.length = end >= beg ? end - beg : 0;
    return pos;
}

/* line_of with a hint: nodes mostly come in source order, each a few
 * lines after the last, so the newlines just past the last answer are
 * tried before a binary search. */
static uint32_t line_at(build_ctx *b, size_t pos)
{
    uint32_t k = b->line_hint, n = b->nlines;
    const uint32_t *nl = b->nl;
    if (k <= n && (k == 0 || nl[k - 1] < pos)) {
        uint32_t stop = n - k > 8 ? k + 8 : n;
        while (k < stop && nl[k] < pos) k++;
        if (k == stop && k < n && nl[k] < pos) k = line_of(nl, n, pos) - 1;
    } else {
        k = line_of(nl, n, pos) - 1;
    }
    b->line_hint = k;
    return k + 1;
}

/* Where node n is in the source. */
static void set_position(build_ctx *b, wn_node *x, myhtml_tree_node_t *n)
{
    size_t srclen = b->srclen;
    myhtml_position_t pos = x->tag == WN_TAG_TEXT ? mh_raw_position(n) : mh_element_position(n);
    if (b->chunked && x->tag != WN_TAG_TEXT) pos = chunked_element_position(b, n, pos);
    if (pos.begin > srclen) pos.begin = srclen;
    if (pos.length > srclen - pos.begin) pos.length = srclen - pos.begin;
    x->src_begin = (uint32_t)pos.begin;
    x->src_len = (uint32_t)pos.length;
    x->line = line_at(b, pos.begin);
}

static uint8_t flat_kind(myhtml_tree_node_t *n, uint16_t t)
{
    uint8_t k = 0;
    if (t == WN_TAG_BR || wn_tag_has(t, WN_TF_BREAK | WN_TF_TABLE)) k |= FLAT_BREAK;
    if (t == WN_TAG_A && myhtml_attribute_by_key(n, "href", 4)) k |= FLAT_LINK;
    return k;
}

/* Past the node budget an element is not copied: its children go to its
 * parent (*idx is the parent's index) and its text joins the text around
 * it, a block's on a line of its own. The title and the page's JSON-LD
 * come before any budget runs out (they are in the head). */
static int flatten_element(build_ctx *b, myhtml_tree_node_t *n, uint16_t t, uint32_t parent, uint32_t *idx,
                           int *descend)
{
    b->flattened++;
    b->flat_last = flat_kind(n, t);
    if (b->flat_last & FLAT_BREAK) b->pending_sep = '\n';
    *idx = parent;
    *descend = mh_child(n) != NULL;
    return BUILD_OK;
}


/* Past the node budget, text whose parent's last child is the last text
 * copied is appended to it (after the line break of a flattened block),
 * so a page's nodes stay within the budget and its text is all there.
 * *merged is 0 when it cannot be, and the text gets a node of its own. */
static int merge_text(build_ctx *b, myhtml_tree_node_t *n, uint32_t parent, uint32_t *idx, int *merged)
{
    wn_parser *p = b->p;
    wn_dom *dom = b->dom;
    *merged = 0;
    uint32_t last = dom->nodes[parent].last_child;
    if (last == WN_NONE) return BUILD_OK;
    wn_node *x = &dom->nodes[last];
    if (x->tag != WN_TAG_TEXT || (size_t)x->text_begin + x->text_len + 1 != dom->text_len) return BUILD_OK;
    size_t len = 0;
    const char *s = mh_node_text(n, &len);
    size_t sep = b->pending_sep ? 1 : 0;
    if (dom->text_len + sep + len + 1 >= UINT32_MAX || (size_t)x->text_len + sep + len >= UINT32_MAX)
        return WN_PARSE_TOO_LARGE;
    /* in flattened text a line break is a block's end: the text's own are
     * spaces (outside <pre>, where they are the same when shown) */
    int pre = (x->flags & WN_NF_PRE) != 0;
    if (!(x->flags & WN_NF_FLAT) && !pre)
        for (char *q = dom->text + x->text_begin, *e = q + x->text_len; q < e; q++)
            if (*q == '\n') *q = ' ';
    x->flags |= WN_NF_FLAT;
    /* the merged node is link text when most of its text is: a page of a
     * million links stays a link list past the budget */
    if (b->merge_node != last) {
        b->merge_node = last;
        b->merge_total = x->text_len;
        b->merge_link = (x->flags & WN_NF_LINK) ? x->text_len : 0;
    }
    b->merge_total += len;
    if (b->flat_link || (dom->nodes[parent].flags & WN_NF_LINK)) b->merge_link += len;
    if (2 * b->merge_link > b->merge_total) x->flags |= WN_NF_LINK;
    else x->flags &= (uint16_t)~WN_NF_LINK;
    if (!grow((void **)&p->text, &p->text_cap, dom->text_len + sep + len + 1, 1)) return WN_PARSE_NOMEM;
    dom->text = p->text;
    char *end = dom->text + dom->text_len - 1; /* over the terminating NUL */
    if (sep) *end++ = b->pending_sep;
    if (s && len) memcpy(end, s, len);
    if (!pre)
        for (size_t k = 0; k < len; k++)
            if (end[k] == '\n') end[k] = ' ';
    end[len] = '\0';
    x->text_len += (uint32_t)(sep + len);
    dom->text_len += sep + len;
    myhtml_position_t pos = mh_raw_position(n);
    size_t stop = pos.begin + pos.length;
    if (stop > b->srclen) stop = b->srclen;
    if (stop > x->src_begin) x->src_len = (uint32_t)(stop - x->src_begin);
    b->pending_sep = 0;
    *idx = last;
    *merged = 1;
    return BUILD_OK;
}

/* Copies node n under parent. *idx is its index, WN_NONE when skipped;
 * *descend says whether its children follow. */
static int emit_node(build_ctx *b, myhtml_tree_node_t *n, uint32_t parent, uint32_t *idx, int *descend)
{
    wn_parser *p = b->p;
    wn_dom *dom = b->dom;
    wn_arena *arena = b->arena;
    *idx = WN_NONE;
    *descend = 0;
    uint16_t t;
    int keep = classify(p, n, &t);
    if (keep == VISIT_SKIP && t == WN_TAG_SCRIPT && is_jsonld(n)) {
        myhtml_tree_node_t *tx = mh_child(n);
        size_t len = 0;
        const char *s = tx ? mh_node_text(tx, &len) : NULL;
        size_t jcap = p->jsonld_cap;
        if (!grow((void **)&p->jsonld, &p->jsonld_cap, dom->jsonld_count + 1, sizeof(char *)) ||
            !grow((void **)&p->jsonld_len, &jcap, dom->jsonld_count + 1, sizeof(uint32_t)))
            return WN_PARSE_NOMEM;
        dom->jsonld = p->jsonld;
        dom->jsonld_len = p->jsonld_len;
        if (s && len < UINT32_MAX) {
            dom->jsonld[dom->jsonld_count] = wn_arena_strndup(arena, s, len);
            dom->jsonld_len[dom->jsonld_count] = (uint32_t)len;
            if (dom->jsonld[dom->jsonld_count]) dom->jsonld_count++;
        }
    }
    if (keep != VISIT_KEEP) {
        if ((t == WN_TAG_IFRAME || t == WN_TAG_VIDEO || t == WN_TAG_AUDIO || t == WN_TAG_EMBED || t == WN_TAG_CANVAS) &&
            parent < dom->count && !is_hidden(n))
            dom->nodes[parent].flags |= WN_NF_MEDIA;
        return BUILD_OK;
    }
    if (dom->count >= b->budget) {
        if (t != WN_TAG_TEXT) return flatten_element(b, n, t, parent, idx, descend);
        int merged;
        int rc = merge_text(b, n, parent, idx, &merged);
        if (rc != BUILD_OK || merged) return rc;
    }
    b->pending_sep = 0;
    if (dom->count >= UINT32_MAX - 1) return WN_PARSE_TOO_LARGE;
    if (!grow((void **)&p->nodes, &p->nodes_cap, (size_t)dom->count + 1, sizeof(wn_node))) return WN_PARSE_NOMEM;
    dom->nodes = p->nodes;
    uint32_t i = dom->count++;
    wn_node *x = &dom->nodes[i];
    wn_node *par = &dom->nodes[parent];
    memset(x, 0, sizeof *x);
    x->parent = parent;
    x->first_child = x->last_child = x->next_sibling = WN_NONE;
    x->tag = t;
    x->depth = par->depth + 1;
    x->flags = par->flags & (WN_NF_HIDDEN | WN_NF_LINK | WN_NF_PRE);
    if (par->last_child != WN_NONE) dom->nodes[par->last_child].next_sibling = i;
    else par->first_child = i;
    par->last_child = i;
    *idx = i;

    set_position(b, x, n);

    if (t == WN_TAG_TEXT) {
        size_t len = 0;
        const char *s = mh_node_text(n, &len);
        x->name = "#text";
        if (b->flat_link) x->flags |= WN_NF_LINK;
        if (dom->text_len + len + 1 >= UINT32_MAX) return WN_PARSE_TOO_LARGE;
        if (!grow((void **)&p->text, &p->text_cap, dom->text_len + len + 1, 1)) return WN_PARSE_NOMEM;
        dom->text = p->text;
        x->text_begin = (uint32_t)dom->text_len;
        if (s && len) memcpy(dom->text + dom->text_len, s, len);
        x->text_len = (uint32_t)len;
        dom->text_len += len;
        dom->text[dom->text_len++] = '\0';
        return BUILD_OK;
    }
    /* element siblings are counted in the parent's size field until the
     * final pass computes real subtree sizes */
    x->sibling_index = par->size < UINT16_MAX ? (uint16_t)par->size : UINT16_MAX;
    par->size++;
    if (t == WN_TAG_UNKNOWN) {
        size_t len = 0;
        const char *nm = myhtml_tag_name_by_id(p->tree, mh_tag_id(n), &len);
        x->name = nm ? wn_arena_strndup(arena, nm, len) : "unknown";
        if (!x->name) return WN_PARSE_NOMEM;
    } else {
        x->name = wn_tag_names[t];
    }
    x->attr_begin = dom->attr_count;
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        if (!grow((void **)&p->attrs, &p->attrs_cap, (size_t)dom->attr_count + 1, sizeof(wn_attr)))
            return WN_PARSE_NOMEM;
        dom->attrs = p->attrs;
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        const char *v = mh_attr_value(a, &vl);
        wn_attr *at = &dom->attrs[dom->attr_count];
        if (!k) kl = 0;
        if (!v) vl = 0;
        /* the name and the value, each NUL-terminated, in one allocation */
        char *name = wn_arena_alloc(arena, kl + vl + 2);
        if (!name) return WN_PARSE_NOMEM;
        char *value = name + kl + 1;
        if (kl) memcpy(name, k, kl);
        name[kl] = '\0';
        if (vl) memcpy(value, v, vl);
        value[vl] = '\0';
        at->name = name;
        at->value = value;
        at->name_len = (uint32_t)kl;
        at->value_len = (uint32_t)vl;
        dom->attr_count++;
        if (x->attr_count < UINT16_MAX) x->attr_count++;
    }
    if (t == WN_TAG_HEAD) x->flags |= WN_NF_HIDDEN;
    if (t == WN_TAG_PRE || t == WN_TAG_LISTING || t == WN_TAG_XMP || t == WN_TAG_PLAINTEXT) x->flags |= WN_NF_PRE;
    if (t == WN_TAG_A && wn_node_attr(dom, x, "href", NULL)) x->flags |= WN_NF_LINK;
    if (t == WN_TAG_BODY && dom->body == 0) dom->body = i;
    if (t == WN_TAG_HTML) {
        const char *lang = wn_node_attr(dom, x, "lang", NULL);
        if (lang) dom->lang = lang;
    }
    if (t == WN_TAG_TITLE && !b->have_title) {
        myhtml_tree_node_t *tx = mh_child(n);
        size_t len = 0;
        const char *s = tx ? mh_node_text(tx, &len) : NULL;
        if (s) {
            dom->title = wn_arena_strndup(arena, s, len);
            if (!dom->title) return WN_PARSE_NOMEM;
            b->have_title = 1;
        }
    }
    *descend = mh_child(n) != NULL;
    return BUILD_OK;
}

/* Copies the subtree of n (n included) under parent, in document order. */
static int emit_subtree(build_ctx *b, myhtml_tree_node_t *root, uint32_t parent)
{
    uint32_t i;
    int descend;
    uint32_t before = b->flattened;
    int rc = emit_node(b, root, parent, &i, &descend);
    if (rc != BUILD_OK || !descend) return rc;
    /* the walk's levels: the parent to go back to and whether the level
     * left was a flattened block (its end breaks the line) */
    size_t depth = 0;
    uint8_t root_kind = b->flattened != before ? b->flat_last : 0;
    if (root_kind & FLAT_LINK) b->flat_link++;
    parent = i;
    myhtml_tree_node_t *n = mh_child(root);
    while (n) {
        before = b->flattened;
        rc = emit_node(b, n, parent, &i, &descend);
        if (rc != BUILD_OK) return rc;
        if (descend) {
            if (!grow((void **)&b->walk, &b->walk_cap, depth + 1, sizeof *b->walk)) return WN_PARSE_NOMEM;
            uint8_t kind = b->flattened != before ? b->flat_last : 0;
            if (kind & FLAT_LINK) b->flat_link++;
            b->walk[depth++] = (walk_ent){parent, kind};
            parent = i;
            n = mh_child(n);
            continue;
        }
        int ups;
        n = next_in_walk(n, root, &ups);
        while (ups-- > 0 && depth > 0) {
            walk_ent w = b->walk[--depth];
            parent = w.parent;
            if (w.flat_kind & FLAT_BREAK) b->pending_sep = '\n';
            if (w.flat_kind & FLAT_LINK) b->flat_link--;
        }
    }
    if (root_kind & FLAT_BREAK) b->pending_sep = '\n';
    if (root_kind & FLAT_LINK) b->flat_link--;
    return BUILD_OK;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
    return x < y ? -1 : x > y;
}

static int in_set(const void **set, size_t n, const void *key)
{
    return n && bsearch(&key, set, n, sizeof *set, cmp_ptr) != NULL;
}

static int add_ptr(const void ***set, size_t *n, size_t *cap, const void *v)
{
    if (!grow((void **)set, cap, *n + 1, sizeof **set)) return 0;
    (*set)[(*n)++] = v;
    return 1;
}

/* The open elements, and every ancestor of a node the tree builder may
 * still point at (those subtrees are copied but not deleted). */
static int harvest_sets(build_ctx *b)
{
    myhtml_tree_t *tree = b->p->tree;
    b->nopen = b->npinned = 0;
    myhtml_tree_list_t *oe = tree->open_elements, *af = tree->active_formatting;
    for (size_t k = 0; oe && k < oe->length; k++)
        if (!add_ptr(&b->open, &b->nopen, &b->open_cap, oe->list[k])) return 0;
    myhtml_tree_node_t *pin[4] = {tree->node_head, tree->node_form, tree->node_html, tree->node_body};
    size_t naf = af ? af->length : 0;
    for (size_t k = 0; k < naf + 4; k++) {
        for (myhtml_tree_node_t *q = k < naf ? af->list[k] : pin[k - naf]; q; q = mh_parent(q))
            if (!add_ptr(&b->pinned, &b->npinned, &b->pinned_cap, q)) return 0;
    }
    if (b->nopen) qsort(b->open, b->nopen, sizeof *b->open, cmp_ptr);
    if (b->npinned) qsort(b->pinned, b->npinned, sizeof *b->pinned, cmp_ptr);
    return 1;
}

/* Frees a copied subtree's nodes, tokens and attribute records from the
 * tree builder's pools, leaves first. Their strings stay in its string
 * pool (about the page's text and attribute bytes) until the tree is
 * cleaned: that pool's free list grows in time quadratic in the strings
 * freed one by one. */
static void delete_subtree(myhtml_tree_t *tree, myhtml_tree_node_t *root)
{
    myhtml_tree_node_t *n = root;
    for (;;) {
        while (mh_child(n)) n = mh_child(n);
        myhtml_tree_node_t *up = n == root ? NULL : mh_parent(n);
        myhtml_token_node_t *tk = n->token;
        if (tk) {
            myhtml_token_attr_t *a = tk->attr_first;
            tk->attr_first = tk->attr_last = NULL;
            while (a) {
                myhtml_token_attr_t *next = a->next;
                mcobject_async_free(tree->token->attr_obj, a);
                a = next;
            }
            tk->str.data = NULL;
            tk->str.mchar = NULL;
        }
        myhtml_tree_node_delete(n);
        if (!up) return;
        n = up;
    }
}

static int tag_blocks_spine(myhtml_tree_node_t *n)
{
    if (mh_namespace(n) != MyHTML_NAMESPACE_HTML) return 1;
    switch (mh_tag_id(n)) {
    case MyHTML_TAG_A: case MyHTML_TAG_B: case MyHTML_TAG_BIG: case MyHTML_TAG_CODE: case MyHTML_TAG_EM:
    case MyHTML_TAG_FONT: case MyHTML_TAG_I: case MyHTML_TAG_NOBR: case MyHTML_TAG_S: case MyHTML_TAG_SMALL:
    case MyHTML_TAG_STRIKE: case MyHTML_TAG_STRONG: case MyHTML_TAG_TT: case MyHTML_TAG_U:
    case MyHTML_TAG_TABLE: case MyHTML_TAG_TBODY: case MyHTML_TAG_THEAD: case MyHTML_TAG_TFOOT: case MyHTML_TAG_TR:
    case MyHTML_TAG_TD: case MyHTML_TAG_TH: case MyHTML_TAG_CAPTION: case MyHTML_TAG_COLGROUP:
    case MyHTML_TAG_TEMPLATE: case MyHTML_TAG_SELECT: case MyHTML_TAG_APPLET: case MyHTML_TAG_OBJECT:
    case MyHTML_TAG_MARQUEE: case MyHTML_TAG__TEXT: case MyHTML_TAG__COMMENT:
    /* text-only elements: the title's text is read when it is copied */
    case MyHTML_TAG_HEAD: case MyHTML_TAG_TITLE: case MyHTML_TAG_TEXTAREA: case MyHTML_TAG_SCRIPT: case MyHTML_TAG_STYLE:
    case MyHTML_TAG_XMP: case MyHTML_TAG_IFRAME: case MyHTML_TAG_NOEMBED: case MyHTML_TAG_NOFRAMES:
    case MyHTML_TAG_NOSCRIPT: case MyHTML_TAG_PLAINTEXT:
        return 1;
    default:
        return 0;
    }
}

/* Copies what is final (everything when final is set) and, unless final,
 * deletes it from the tree builder's tree. */
static int harvest(build_ctx *b, int final)
{
    wn_parser *p = b->p;
    p->spine[0].mh = myhtml_tree_get_document(p->tree);
    if (!final && !harvest_sets(b)) return WN_PARSE_NOMEM;
    for (;;) {
        spine_ent *top = &p->spine[p->nspine - 1];
        int top_open = !final && (p->nspine == 1 || in_set(b->open, b->nopen, top->mh));
        myhtml_tree_node_t *c = top->cursor ? mh_next(top->cursor) : mh_child(top->mh);
        /* until the body exists, elements after </head> still go into the head */
        if (!final && top->mh == p->tree->node_html && !p->tree->node_body) return BUILD_OK;
        while (c) {
            myhtml_tree_node_t *next = mh_next(c);
            if (!final) {
                if (in_set(b->open, b->nopen, c)) {
                    if (tag_blocks_spine(c)) return BUILD_OK;
                    uint16_t t;
                    if (classify(p, c, &t) != VISIT_KEEP) return BUILD_OK;
                    /* everything before it is copied: it joins the spine */
                    uint32_t i;
                    int descend;
                    uint32_t before = b->flattened;
                    int rc = emit_node(b, c, top->idx, &i, &descend);
                    if (rc != BUILD_OK) return rc;
                    if (!grow((void **)&p->spine, &p->spine_cap, p->nspine + 1, sizeof *p->spine))
                        return WN_PARSE_NOMEM;
                    uint8_t flat = b->flattened != before;
                    uint8_t kind = flat ? b->flat_last : 0;
                    if (kind & FLAT_LINK) b->flat_link++;
                    p->spine[p->nspine++] = (spine_ent){c, i, NULL, attr_count(c), flat, kind};
                    break;
                }
                if (top_open && (!next || (mh_tag_id(c) == MyHTML_TAG__TEXT &&
                                           mh_tag_id(next) == MyHTML_TAG_TABLE &&
                                           in_set(b->open, b->nopen, next))))
                    return BUILD_OK;
            }
            int rc = emit_subtree(b, c, top->idx);
            if (rc != BUILD_OK) return rc;
            if (!final && !in_set(b->pinned, b->npinned, c)) delete_subtree(p->tree, c);
            else top->cursor = c;
            c = next;
        }
        if (c) continue; /* a new spine element */
        if (p->nspine == 1 || top_open) return BUILD_OK;
        /* the spine element is closed and all of it copied */
        spine_ent *up = &p->spine[p->nspine - 2];
        if (mh_parent(top->mh) != up->mh || attr_count(top->mh) != top->nattr) return BUILD_REDO;
        /* copied before its tag was read (an implied body), its place may
         * have changed since */
        if (!top->flat) set_position(b, &b->dom->nodes[top->idx], top->mh);
        if (top->flat_kind & FLAT_BREAK) b->pending_sep = '\n';
        if (top->flat_kind & FLAT_LINK) b->flat_link--;
        p->nspine--;
        if (!final && !in_set(b->pinned, b->npinned, top->mh) && !mh_child(top->mh))
            delete_subtree(p->tree, top->mh);
        else up->cursor = top->mh;
    }
}

static wn_parse_status build_begin(build_ctx *b)
{
    wn_parser *p = b->p;
    wn_dom *dom = b->dom;
    memset(dom, 0, sizeof *dom);
    b->flattened = 0;
    b->pending_sep = 0;
    b->flat_link = 0;
    b->merge_node = WN_NONE;
    if (!grow((void **)&p->nodes, &p->nodes_cap, 1, sizeof(wn_node))) return WN_PARSE_NOMEM;
    dom->nodes = p->nodes;
    dom->attrs = p->attrs;
    dom->text = p->text;
    dom->jsonld = p->jsonld;
    dom->jsonld_len = p->jsonld_len;
    dom->title = "";
    dom->lang = "";
    b->have_title = 0;

    wn_node *root = &dom->nodes[0];
    memset(root, 0, sizeof *root);
    root->parent = root->first_child = root->last_child = root->next_sibling = WN_NONE;
    root->tag = WN_TAG_DOCUMENT;
    root->name = "#document";
    root->src_len = (uint32_t)(b->srclen > UINT32_MAX ? UINT32_MAX : b->srclen);
    root->line = 1;
    dom->count = 1;
    dom->body = 0;
    if (!grow((void **)&p->spine, &p->spine_cap, 1, sizeof *p->spine)) return WN_PARSE_NOMEM;
    p->spine[0] = (spine_ent){myhtml_tree_get_document(p->tree), 0, NULL, 0};
    p->nspine = 1;
    return WN_PARSE_OK;
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
    static const uint8_t space[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1};
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
                if (left && right) { map[c] = 1; dropped++; }
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
            if (map[i]) { map[i] = WN_NONE; continue; }
            map[i] = w;
            if (w != i) dom->nodes[w] = dom->nodes[i];
            wn_node *x = &dom->nodes[w];
            x->parent = x->parent == WN_NONE ? WN_NONE : map[x->parent];
            x->first_child = x->last_child = x->next_sibling = WN_NONE;
            if (x->parent != WN_NONE) {
                wn_node *p = &dom->nodes[x->parent];
                if (p->last_child != WN_NONE) dom->nodes[p->last_child].next_sibling = w;
                else p->first_child = w;
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

static wn_parse_status build_end(build_ctx *b)
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

/* After a large page, what the parser holds for reuse goes back to the
 * system: the scratch arrays (the page has its copy in the arena) and the
 * tree builder's pools, which a cleaned tree keeps. Otherwise they would
 * stay resident through the rest of the page's pipeline, and every later
 * page would pay for the largest one. Ordinary pages keep both. */
#define KEEP_TREE_INPUT ((size_t)4 << 20)

static void release_large(wn_parser *p, size_t input_len)
{
    if (p->nodes_cap * sizeof(wn_node) + p->attrs_cap * sizeof(wn_attr) + p->text_cap > KEEP_SCRATCH_BYTES) {
        free(p->nodes);
        free(p->attrs);
        free(p->text);
        p->nodes = NULL;
        p->attrs = NULL;
        p->text = NULL;
        p->nodes_cap = p->attrs_cap = p->text_cap = 0;
    }
    if (p->nl_cap * sizeof *p->nl > KEEP_SCRATCH_BYTES) {
        free(p->nl);
        p->nl = NULL;
        p->nl_cap = 0;
    }
    if (input_len > KEEP_TREE_INPUT) {
        /* a fresh tree; should it fail, the next parse reports it */
        myhtml_tree_destroy(p->tree);
        p->tree = myhtml_tree_create();
        if (p->tree && myhtml_tree_init(p->tree, p->mh) != MyHTML_STATUS_OK) {
            myhtml_tree_destroy(p->tree);
            p->tree = NULL;
        }
#ifdef __GLIBC__
        /* the pools were many small blocks: free heap pages go back too,
         * before the rest of the pipeline maps its own */
        malloc_trim(0);
#endif
    }
}

/* The tree builder frees an element's token with the element, but an end
 * tag's token is never attached to anything: it stays in its pool until
 * the whole page is done, about 100 bytes a tag (on a page of tags nested
 * and closed, four times the page). Fed in pieces, the end tags of a
 * piece are noted as the tokenizer hands them over (before the tree
 * builder reads them), and once the piece is built they go back to the
 * pool. One the tree builder turned into a start tag (</br> is read as
 * <br>) is no longer an end tag and is left alone, as is one with
 * attributes (their strings are the pool's too). */
static void *note_closer(myhtml_tree_t *tree, myhtml_token_node_t *token, void *ctx)
{
    (void)tree;
    wn_parser *p = ctx;
    if ((token->type & MyHTML_TOKEN_TYPE_CLOSE) && !token->attr_first && !p->closers_oom) {
        if (grow((void **)&p->closers, &p->closers_cap, p->nclosers + 1, sizeof *p->closers))
            p->closers[p->nclosers++] = token;
        else
            p->closers_oom = 1; /* the rest wait for the end of the page */
    }
    return ctx;
}

static void free_closers(wn_parser *p)
{
    for (size_t k = 0; k < p->nclosers; k++) {
        myhtml_token_node_t *t = p->closers[k];
        if ((t->type & MyHTML_TOKEN_TYPE_CLOSE) && !t->attr_first) mcobject_async_free(p->tree->token->nodes_obj, t);
    }
    p->nclosers = 0;
}

/* Pages up to this size are parsed whole; larger ones in pieces of it. */
#ifndef CHUNK_BYTES
#define CHUNK_BYTES ((size_t)1 << 20) /* a build may set it smaller to test the piecewise path */
#endif

void wn_parser_set_chunk(wn_parser *p, size_t bytes) { p->chunk = bytes; }

void wn_parser_set_node_budget(wn_parser *p, unsigned bytes_per_node, uint32_t floor)
{
    p->node_bytes = bytes_per_node;
    /* room for the document's own elements whatever the setting */
    p->node_floor = floor < 64 ? 64 : floor;
}
void wn_parser_keep_blank(wn_parser *p, int keep) { p->keep_blank = keep; }

static wn_parse_status build_dom_from(build_ctx *b, const char *src, size_t srclen, size_t chunk)
{
    wn_parser *p = b->p;
    myhtml_tree_clean(p->tree);
    int rc = build_begin(b);
    if (rc != WN_PARSE_OK) return rc;
    b->chunked = srclen > chunk;
    p->nclosers = 0;
    p->closers_oom = 0;
    myhtml_callback_after_token_done_set(p->tree, b->chunked ? note_closer : NULL, p);
    if (!b->chunked) {
        if (myhtml_parse(p->tree, MyENCODING_UTF_8, src, srclen) != MyHTML_STATUS_OK) return WN_PARSE_FAILED;
    } else {
        myhtml_encoding_set(p->tree, MyENCODING_UTF_8);
        for (size_t off = 0, n; off < srclen; off += n) {
            /* a piece ends just after a '>': cut anywhere, the tree
             * builder loses or misplaces text at some cuts (found on the
             * bench pages with 1 KiB pieces; none with this rule) */
            n = srclen - off <= chunk ? srclen - off : chunk;
            while (off + n < srclen && src[off + n - 1] != '>') n++;
            if (myhtml_parse_chunk(p->tree, src + off, n) != MyHTML_STATUS_OK) return WN_PARSE_FAILED;
            rc = harvest(b, 0);
            if (rc != BUILD_OK) return rc;
            free_closers(p);
        }
        if (myhtml_parse_chunk_end(p->tree) != MyHTML_STATUS_OK) return WN_PARSE_FAILED;
    }
    rc = harvest(b, 1);
    if (rc != BUILD_OK) return rc;
    return build_end(b);
}

/* A heading's anchor glyph: a link to a place on the page whose text is
 * one symbol and no letter or digit ("#", "\u00B6", "\u00A7", a link
 * emoji), which documentation and blog generators put beside every
 * heading for copying its address. Not on the page's text: hidden. */
static void hide_anchor_glyphs(wn_dom *dom)
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
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { j++; continue; }
                if (c == 0xC2 && j + 1 < y->text_len && t[j + 1] == 0xA0) { j += 2; continue; }
                if (c < 0x80) {
                    if ((c | 0x20) - 'a' < 26u || c - '0' < 10u) other = 1;
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
        for (uint32_t k = i; k < i + x->size; k++) dom->nodes[k].flags |= WN_NF_HIDDEN | WN_NF_GLYPH;
    }
}

static wn_parse_status parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                             int build_dom, wn_dom_store *store)
{
    if (!p->tree) {
        p->tree = myhtml_tree_create();
        if (!p->tree) return WN_PARSE_NOMEM;
        if (myhtml_tree_init(p->tree, p->mh) != MyHTML_STATUS_OK) {
            myhtml_tree_destroy(p->tree);
            p->tree = NULL;
            return WN_PARSE_NOMEM;
        }
    }
    if (len >= UINT32_MAX) return WN_PARSE_TOO_LARGE;
    size_t glen = 0;
    wn_repair_report rep;
    char *guarded = wn_markup_repair(utf8, len, p->max_depth, &glen, &rep);
    if (rep.oom) return WN_PARSE_NOMEM;
    const char *src = guarded ? guarded : utf8;
    size_t srclen = guarded ? glen : len;

    wn_parse_status rc = WN_PARSE_OK;
    if (!build_dom) {
        myhtml_tree_clean(p->tree);
        if (myhtml_parse(p->tree, MyENCODING_UTF_8, src, srclen) != MyHTML_STATUS_OK) rc = WN_PARSE_FAILED;
    } else {
        build_ctx b;
        memset(&b, 0, sizeof b);
        b.p = p;
        b.arena = arena;
        b.dom = dom;
        b.src = src;
        b.srclen = srclen;
        b.store = store;
        b.budget = UINT32_MAX;
        if (p->node_bytes) {
            size_t want = srclen / p->node_bytes;
            if (want < p->node_floor) want = p->node_floor;
            if (want < UINT32_MAX) b.budget = (uint32_t)want;
        }
        /* newline index for line numbers: one pass, into the parser's
         * scratch (kept for the next page) */
        uint32_t nlines = 0;
        for (const char *q = src; (q = memchr(q, '\n', (size_t)(src + srclen - q))) != NULL; q++) {
            if (nlines == p->nl_cap && !grow((void **)&p->nl, &p->nl_cap, (size_t)nlines + 1, sizeof *p->nl)) {
                rc = WN_PARSE_NOMEM;
                break;
            }
            p->nl[nlines++] = (uint32_t)(q - src);
        }
        if (rc == WN_PARSE_OK) {
            b.nl = p->nl;
            b.nlines = nlines;
            int r = build_dom_from(&b, src, srclen, p->chunk ? p->chunk : CHUNK_BYTES);
            /* a copied element changed after all: the page again, whole */
            if (r == BUILD_REDO) r = build_dom_from(&b, src, srclen, SIZE_MAX);
            rc = r == BUILD_REDO ? WN_PARSE_FAILED : (wn_parse_status)r;
            if (rc == WN_PARSE_OK) hide_anchor_glyphs(dom);
        }
        free(b.open);
        free(b.pinned);
        free(b.walk);
        dom->flattened = b.flattened;
        dom->depth_capped = (uint32_t)(rep.dropped > UINT32_MAX ? UINT32_MAX : rep.dropped);
        dom->unclosed = (uint32_t)(rep.closed > UINT32_MAX ? UINT32_MAX : rep.closed);
    }
    myhtml_tree_clean(p->tree);
    free(guarded);
    release_large(p, srclen);
    return rc;
}

wn_parse_status wn_parser_parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                int build_dom)
{
    return parse(p, utf8, len, arena, dom, build_dom, NULL);
}

wn_parse_status wn_parser_parse_store(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                      wn_dom_store *store)
{
    memset(store, 0, sizeof *store);
    return parse(p, utf8, len, arena, dom, 1, store);
}

void wn_parser_reclaim(wn_parser *p, wn_dom_store *store)
{
    if (!store) return;
    /* the parser keeps one set, up to the size it keeps after a page */
    int keep = p && !p->nodes && !p->attrs && !p->text &&
               store->nodes_cap * sizeof(wn_node) + store->attrs_cap * sizeof(wn_attr) + store->text_cap <=
                   KEEP_SCRATCH_BYTES;
    if (keep) {
        p->nodes = store->nodes;
        p->attrs = store->attrs;
        p->text = store->text;
        p->nodes_cap = store->nodes_cap;
        p->attrs_cap = store->attrs_cap;
        p->text_cap = store->text_cap;
    } else {
        free(store->nodes);
        free(store->attrs);
        free(store->text);
    }
    memset(store, 0, sizeof *store);
}
