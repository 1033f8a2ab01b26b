/* The page's own header and footer (its frame): the site's tagline, bio
 * or license line there is never the page's content. */
#include "passes.h"

#include <strings.h>

/* Whether node x is a page landmark of the site's frame (1: <header>,
 * <footer>, role=banner/contentinfo) or of the content (2: <article>,
 * <main>, role=main/article), or a part that scopes the headers and
 * footers inside it (3: FRAME_SECTION_SCOPE); 0 otherwise. */
static int landmark_kind(const winnow_doc *d, const wn_page_scores *ps, uint32_t i, float most)
{
    const wn_dom *dom = &d->dom;
    const wn_node *x = &dom->nodes[i];
    if (x->tag == WN_TAG_ARTICLE || x->tag == WN_TAG_MAIN) return 2;
    /* HTML5 scopes a header or footer to its nearest section, aside or
     * nav as to an article (3): the page's banner is none of theirs; but a
     * section around most of the page is a wrapper, its footer the site's */
    if ((x->tag == WN_TAG_SECTION || x->tag == WN_TAG_ASIDE || x->tag == WN_TAG_NAV) &&
        WN_RULE(d, FRAME_SECTION_SCOPE) > 0.0f && (float)d->stats[i].chars < most)
        return 3;
    if (x->tag == WN_TAG_HEADER || x->tag == WN_TAG_FOOTER) return 1;
    /* the scorer read the role already: only an element it found a
     * content landmark or a header or footer by its role or name can be
     * one (a role lookup for every element cost 0.3% of extraction) */
    if (!ps->landmark[i] && !(ps->self_hint[i] & (WN_HINT_HEADER | WN_HINT_FOOTER))) return 0;
    const char *role = wn_node_attr(dom, x, "role", NULL);
    if (!role) return 0;
    if (!strcasecmp(role, "main") || !strcasecmp(role, "article")) return 2;
    return !strcasecmp(role, "banner") || !strcasecmp(role, "contentinfo");
}

/* Marks (1) the nodes in the page's own header or footer: inside a frame
 * landmark holding less than FRAME_MAX_SHARE of the page's text (a header
 * wrapping the whole page is no frame), with no <article> or <main> above
 * it (HTML5: an article's header and footer are its title, byline and
 * tags), nor a smaller <section>, <aside> or <nav> of its own
 * (FRAME_SECTION_SCOPE); and the wrappers of one that hold no more text
 * (the <div class=page-footer> around a <footer>). One pass down the tree
 * and one up the wrappers. */
uint8_t *wn_frame_marks(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    uint32_t n = dom->count;
    uint8_t *st = wn_arena_calloc(wn_doc_scratch(d), n, 1); /* bit 1: in a frame, bit 2: in content */
    const float most = wn_frame_share_chars(d);
    if (!st) return NULL;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint8_t s = x->parent != WN_NONE ? st[x->parent] : 0;
        int k = x->tag == WN_TAG_TEXT ? 0 : landmark_kind(d, ps, i, most);
        if (k == 2 || (k == 3 && !(s & 1))) /* (a section inside a footer is the footer's) */
            s |= 2;
        else if (k == 1 && (float)d->stats[i].chars < most)
            s |= 1;
        st[i] = s;
    }
    for (uint32_t i = 0; i < n; i++) st[i] = st[i] == 1;
    /* the wrappers of a frame that hold no more text are the frame */
    for (uint32_t i = 1; i < n; i++) {
        if (!st[i] || st[dom->nodes[i].parent]) continue;
        for (uint32_t a = dom->nodes[i].parent; a != WN_NONE && a != 0 && a != dom->body; a = dom->nodes[a].parent) {
            if (d->stats[a].chars != d->stats[i].chars || landmark_kind(d, ps, a, most) >= 2) break;
            st[a] = 1;
        }
    }
    return st;
}
