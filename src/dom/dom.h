/* Compact DOM: one page's elements and text in flat arrays inside the page
 * arena. Nodes are indexed in document (pre-)order, so a subtree is the
 * contiguous index range [i, i + size) and bottom-up passes are a reverse
 * loop over the array: no recursion anywhere, whatever the nesting depth. */
#ifndef WN_DOM_H
#define WN_DOM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tags.h"
#include "../util/buf.h"

#define WN_NONE UINT32_MAX

enum {
    WN_NF_HIDDEN = 1 << 0, /* hidden attribute / display:none / aria-hidden */
    WN_NF_LINK = 1 << 1,   /* inside an <a href> */
    WN_NF_PRE = 1 << 2,    /* inside <pre>: whitespace is kept */
    WN_NF_FLAT = 1 << 3,   /* text of elements past the node budget: '\n' ends a block's line */
    WN_NF_MEDIA = 1 << 4,  /* held a player or an embedded frame (<iframe>, <video>, <audio>,
                              * <embed>, <canvas>), dropped at build: a reader sees one there */
    WN_NF_UNREAD = 1 << 5, /* text no reader reads there: a heading's anchor glyph ("#", a
                              * pilcrow), a copy of the text beside it for screen readers, an
                              * identifier (a UUID); hidden too, and left out of every
                              * rendering, the full text's too */
};

typedef struct wn_attr {
    const char *name;  /* lower-case, NUL-terminated, in the arena */
    const char *value; /* NUL-terminated, entities decoded */
    uint32_t name_len, value_len;
} wn_attr;

typedef struct wn_node {
    uint32_t parent, first_child, last_child, next_sibling;
    uint32_t size;      /* nodes in the subtree including this one */
    uint32_t depth;     /* document node = 0 */
    uint32_t src_begin; /* element/text position in the decoded input */
    uint32_t src_len;
    uint32_t text_begin; /* TEXT: raw text in dom->text */
    uint32_t text_len;
    uint32_t attr_begin; /* index into dom->attrs */
    uint16_t attr_count;
    uint16_t tag;           /* wn_tag */
    uint16_t flags;         /* WN_NF_* */
    uint16_t sibling_index; /* element index among element siblings (saturating) */
    uint32_t line;          /* 1-based source line of src_begin */
    const char *name;       /* tag name, for tags outside the table too */
} wn_node;

typedef struct wn_dom {
    wn_node *nodes;
    uint32_t count;
    wn_attr *attrs;
    uint32_t attr_count;
    char *text; /* raw text of all text nodes, back to back */
    size_t text_len;
    uint32_t body;     /* <body> index or the root when there is none */
    const char *title; /* <title> text, whitespace collapsed, may be "" */
    /* <script type=application/ld+json> payloads, kept for metadata */
    const char **jsonld;
    uint32_t *jsonld_len;
    uint32_t jsonld_count;
    const char *lang; /* <html lang> or "" */
    /* set when the input was cut to stay within limits (depth, size) */
    uint32_t depth_capped;
    uint32_t flattened;     /* elements past the node budget read as text (wn_parser_set_node_budget) */
    uint32_t unclosed;      /* raw-text elements closed by the repair pass */
    uint32_t attrs_dropped; /* attributes past WN_MAX_ELEMENT_ATTRS on one tag, dropped by it */
} wn_dom;

static inline int wn_node_is_text(const wn_node *n) { return n->tag == WN_TAG_TEXT; }
/* Whether node i lies in the subtree of node root (root itself included). */
static inline int wn_node_within(const wn_dom *d, uint32_t root, uint32_t i)
{
    return i >= root && i < root + d->nodes[root].size;
}

/* Attribute value by lower-case name, NULL when absent. Inline: the
 * callers name a literal, so its length and the compare are constants. */
static inline const char *wn_node_attr(const wn_dom *d, const wn_node *n, const char *name, size_t *len)
{
    size_t nl = strlen(name);
    for (uint32_t k = 0; k < n->attr_count; k++) {
        const wn_attr *a = &d->attrs[n->attr_begin + k];
        if (a->name_len == nl && memcmp(a->name, name, nl) == 0) {
            if (len) *len = a->value_len;
            return a->value;
        }
    }
    return NULL;
}

/* Whether element i is a dialog, shown only when opened, as its markup
 * declares it: <dialog>, role=dialog or alertdialog, aria-modal=true (a
 * privacy policy, a size guide, a sign-up form waiting in the page). */
int wn_node_dialog(const wn_dom *d, uint32_t i);

/* A shop's reviews, as their names say: out[i] = 1 for every node in an
 * element whose class or id has the word reviews as a whole token, or
 * review when a sibling element is named either (one review alone is as
 * likely a critic's review that is the page's article). Tokens split at
 * anything not a letter or digit and where a lower case letter meets an
 * upper case one ("productReviews"). Not when its names also have
 * description or editorial (critics quoted in the product's description,
 * a book's editorial reviews), nor when it holds an <h1> (a shop may nest
 * the product's name with its rating). out has d->count bytes; linear in
 * the page. */
void wn_dom_reviews(const wn_dom *d, uint8_t *out);

/* Whether element i bears aria-hidden="true": shown, but not read out. */
int wn_node_aria_hidden(const wn_dom *d, uint32_t i);

/* Appends the display text of subtree i to out: its raw text nodes, hidden
 * ones left out, runs of whitespace and line-breaking elements as one
 * space. With skip, text nodes k for which skip(ctx, k) is non-zero are
 * left out too. */
void wn_node_text(const wn_dom *d, uint32_t i, wn_buf *out, int (*skip)(const void *ctx, uint32_t k), const void *ctx);

/* Writes the node's DOM path ("html.body.div.p") to out, truncated to cap. */
size_t wn_node_path(const wn_dom *d, uint32_t i, char *out, size_t cap);

#endif
