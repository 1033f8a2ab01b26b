#include "parser.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <myhtml/api.h>

#define TAG_IGNORE 0xFFFFu

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
    free(p);
}

static uint16_t map_tag(const wn_parser *p, myhtml_tree_node_t *n)
{
    myhtml_tag_id_t id = myhtml_node_tag_id(n);
    if (id < MyHTML_TAG_LAST_ENTRY) return p->tagmap[id];
    return WN_TAG_UNKNOWN; /* custom element */
}

static int ci_contains_nospace(const char *v, size_t n, const char *needle)
{
    /* "display : none" and "DISPLAY:NONE" both match "display:none" */
    size_t nl = strlen(needle);
    for (size_t i = 0; i < n; i++) {
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

static int is_hidden(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = myhtml_node_attribute_first(n); a; a = myhtml_attribute_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = myhtml_attribute_key(a, &kl);
        if (!k) continue;
        if (kl == 6 && memcmp(k, "hidden", 6) == 0) return 1;
        if (kl == 5 && memcmp(k, "style", 5) == 0) {
            const char *v = myhtml_attribute_value(a, &vl);
            if (v && (ci_contains_nospace(v, vl, "display:none") || ci_contains_nospace(v, vl, "visibility:hidden")))
                return 1;
        }
        if (kl == 5 && memcmp(k, "class", 5) == 0) {
            /* the accessibility idioms for text only screen readers get
             * ("Image caption", "Skip to content"): not on the page */
            static const char *const offscreen[] = {"sr-only", "off-screen", "offscreen", "visually-hidden",
                                                    "visuallyhidden", "screen-reader", "screenreader",
                                                    "element-invisible"};
            const char *v = myhtml_attribute_value(a, &vl);
            /* class names are case-sensitive and these idioms lower-case:
             * a plain substring search, cheap enough for every element */
            if (!v || vl < 7 || !memchr(v, 'e', vl)) continue;
            for (size_t j = 0; j < sizeof offscreen / sizeof offscreen[0]; j++)
                if (memmem(v, vl, offscreen[j], strlen(offscreen[j]))) return 1;
        }
    }
    return 0;
}

static int is_jsonld(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = myhtml_node_attribute_first(n); a; a = myhtml_attribute_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = myhtml_attribute_key(a, &kl);
        if (k && kl == 4 && memcmp(k, "type", 4) == 0) {
            const char *v = myhtml_attribute_value(a, &vl);
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
    if (myhtml_node_namespace(n) == MyHTML_NAMESPACE_SVG && t != WN_TAG_SVG) return VISIT_SKIP;
    if (wn_tag_flags[t] & WN_TF_SKIP) return VISIT_SKIP;
    if (is_hidden(n)) return VISIT_SKIP;
    return VISIT_KEEP;
}

static myhtml_tree_node_t *next_in_walk(myhtml_tree_node_t *n, myhtml_tree_node_t *root, int *ups)
{
    *ups = 0;
    while (n && n != root && !myhtml_node_next(n)) {
        n = myhtml_node_parent(n);
        (*ups)++;
    }
    if (!n || n == root) return NULL;
    return myhtml_node_next(n);
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
        if (!href || strncasecmp(href, "javascript:", 11) != 0) continue;
        uint32_t end = i + x->size, k = i + 1;
        while (k < end && !(wn_tag_has(dom->nodes[k].tag, WN_TF_BLOCK) && dom->nodes[k].tag != WN_TAG_A)) k++;
        if (k == end) continue;
        for (k = i; k < end; k++) dom->nodes[k].flags &= (uint16_t)~WN_NF_LINK;
    }
}

static wn_parse_status build_pass(wn_parser *p, myhtml_tree_node_t *doc, const char *src, size_t srclen,
                                  wn_arena *arena, wn_dom *dom)
{
    memset(dom, 0, sizeof *dom);
    if (!grow((void **)&p->nodes, &p->nodes_cap, 1, sizeof(wn_node))) return WN_PARSE_NOMEM;
    dom->nodes = p->nodes;
    dom->attrs = p->attrs;
    dom->text = p->text;
    dom->jsonld = p->jsonld;
    dom->jsonld_len = p->jsonld_len;
    dom->title = "";
    dom->lang = "";

    /* newline index for line numbers */
    uint32_t nlines = 0;
    for (const char *q = src; (q = memchr(q, '\n', (size_t)(src + srclen - q))) != NULL; q++) nlines++;
    uint32_t *nl = wn_arena_alloc(arena, ((size_t)nlines + 1) * sizeof(uint32_t));
    if (!nl) return WN_PARSE_NOMEM;
    nlines = 0;
    for (const char *q = src; (q = memchr(q, '\n', (size_t)(src + srclen - q))) != NULL; q++)
        nl[nlines++] = (uint32_t)(q - src);

    wn_node *root = &dom->nodes[0];
    memset(root, 0, sizeof *root);
    root->parent = root->first_child = root->last_child = root->next_sibling = WN_NONE;
    root->tag = WN_TAG_DOCUMENT;
    root->name = "#document";
    root->src_len = (uint32_t)(srclen > UINT32_MAX ? UINT32_MAX : srclen);
    root->line = 1;
    dom->count = 1;
    dom->body = 0;
    int have_title = 0;

    uint32_t parent = 0;
    myhtml_tree_node_t *n = myhtml_node_child(doc);
    while (n) {
        uint16_t t;
        int keep = classify(p, n, &t);
        if (keep == VISIT_SKIP && t == WN_TAG_SCRIPT && is_jsonld(n)) {
            myhtml_tree_node_t *tx = myhtml_node_child(n);
            size_t len = 0;
            const char *s = tx ? myhtml_node_text(tx, &len) : NULL;
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
        if (keep == VISIT_KEEP) {
            if (dom->count >= UINT32_MAX - 1) return WN_PARSE_TOO_LARGE;
            if (!grow((void **)&p->nodes, &p->nodes_cap, (size_t)dom->count + 1, sizeof(wn_node)))
                return WN_PARSE_NOMEM;
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

            myhtml_position_t pos = t == WN_TAG_TEXT ? myhtml_node_raw_position(n) : myhtml_node_element_position(n);
            if (pos.begin > srclen) pos.begin = srclen;
            if (pos.length > srclen - pos.begin) pos.length = srclen - pos.begin;
            x->src_begin = (uint32_t)pos.begin;
            x->src_len = (uint32_t)pos.length;
            x->line = line_of(nl, nlines, pos.begin);

            if (t == WN_TAG_TEXT) {
                size_t len = 0;
                const char *s = myhtml_node_text(n, &len);
                x->name = "#text";
                if (dom->text_len + len + 1 >= UINT32_MAX) return WN_PARSE_TOO_LARGE;
                if (!grow((void **)&p->text, &p->text_cap, dom->text_len + len + 1, 1)) return WN_PARSE_NOMEM;
                dom->text = p->text;
                x->text_begin = (uint32_t)dom->text_len;
                if (s && len) memcpy(dom->text + dom->text_len, s, len);
                x->text_len = (uint32_t)len;
                dom->text_len += len;
                dom->text[dom->text_len++] = '\0';
            } else {
                /* element siblings are counted in the parent's size field
                 * until the final pass computes real subtree sizes */
                x->sibling_index = par->size < UINT16_MAX ? (uint16_t)par->size : UINT16_MAX;
                par->size++;
                if (t == WN_TAG_UNKNOWN) {
                    size_t len = 0;
                    const char *nm = myhtml_tag_name_by_id(p->tree, myhtml_node_tag_id(n), &len);
                    x->name = nm ? wn_arena_strndup(arena, nm, len) : "unknown";
                    if (!x->name) return WN_PARSE_NOMEM;
                } else {
                    x->name = wn_tag_names[t];
                }
                x->attr_begin = dom->attr_count;
                for (myhtml_tree_attr_t *a = myhtml_node_attribute_first(n); a; a = myhtml_attribute_next(a)) {
                    if (!grow((void **)&p->attrs, &p->attrs_cap, (size_t)dom->attr_count + 1, sizeof(wn_attr)))
                        return WN_PARSE_NOMEM;
                    dom->attrs = p->attrs;
                    size_t kl = 0, vl = 0;
                    const char *k = myhtml_attribute_key(a, &kl);
                    const char *v = myhtml_attribute_value(a, &vl);
                    wn_attr *at = &dom->attrs[dom->attr_count];
                    at->name = wn_arena_strndup(arena, k ? k : "", k ? kl : 0);
                    at->value = wn_arena_strndup(arena, v ? v : "", v ? vl : 0);
                    if (!at->name || !at->value) return WN_PARSE_NOMEM;
                    at->name_len = (uint32_t)(k ? kl : 0);
                    at->value_len = (uint32_t)(v ? vl : 0);
                    dom->attr_count++;
                    if (x->attr_count < UINT16_MAX) x->attr_count++;
                }
                if (t == WN_TAG_HEAD) x->flags |= WN_NF_HIDDEN;
                if (t == WN_TAG_PRE || t == WN_TAG_LISTING || t == WN_TAG_XMP || t == WN_TAG_PLAINTEXT)
                    x->flags |= WN_NF_PRE;
                if (t == WN_TAG_A && wn_node_attr(dom, x, "href", NULL)) x->flags |= WN_NF_LINK;
                if (t == WN_TAG_BODY && dom->body == 0) dom->body = i;
                if (t == WN_TAG_HTML) {
                    const char *lang = wn_node_attr(dom, x, "lang", NULL);
                    if (lang) dom->lang = lang;
                }
                if (t == WN_TAG_TITLE && !have_title) {
                    myhtml_tree_node_t *tx = myhtml_node_child(n);
                    size_t len = 0;
                    const char *s = tx ? myhtml_node_text(tx, &len) : NULL;
                    if (s) {
                        dom->title = wn_arena_strndup(arena, s, len);
                        if (!dom->title) return WN_PARSE_NOMEM;
                        have_title = 1;
                    }
                }
                myhtml_tree_node_t *ch = myhtml_node_child(n);
                if (ch) {
                    parent = i;
                    n = ch;
                    continue;
                }
            }
        }
        int ups;
        n = next_in_walk(n, doc, &ups);
        while (ups-- > 0) parent = dom->nodes[parent].parent;
    }

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
    unlink_script_wrappers(dom);
    /* move the finished arrays from the parser's scratch into the page */
    wn_node *nodes = wn_arena_alloc(arena, (size_t)dom->count * sizeof(wn_node));
    wn_attr *attrs = wn_arena_alloc(arena, ((size_t)dom->attr_count + 1) * sizeof(wn_attr));
    char *text = wn_arena_alloc(arena, dom->text_len + 1);
    const char **jsonld = wn_arena_alloc(arena, ((size_t)dom->jsonld_count + 1) * sizeof(char *));
    uint32_t *jsonld_len = wn_arena_alloc(arena, ((size_t)dom->jsonld_count + 1) * sizeof(uint32_t));
    if (!nodes || !attrs || !text || !jsonld || !jsonld_len) return WN_PARSE_NOMEM;
    memcpy(nodes, dom->nodes, (size_t)dom->count * sizeof(wn_node));
    if (dom->attr_count) memcpy(attrs, dom->attrs, (size_t)dom->attr_count * sizeof(wn_attr));
    if (dom->text_len) memcpy(text, dom->text, dom->text_len);
    text[dom->text_len] = '\0';
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

wn_parse_status wn_parser_parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                int build_dom)
{
    if (len >= UINT32_MAX) return WN_PARSE_TOO_LARGE;
    size_t glen = 0;
    wn_repair_report rep;
    char *guarded = wn_markup_repair(utf8, len, p->max_depth, &glen, &rep);
    if (rep.oom) return WN_PARSE_NOMEM;
    const char *src = guarded ? guarded : utf8;
    size_t srclen = guarded ? glen : len;

    myhtml_tree_clean(p->tree);
    mystatus_t st = myhtml_parse(p->tree, MyENCODING_UTF_8, src, srclen);
    wn_parse_status rc = WN_PARSE_OK;
    if (st != MyHTML_STATUS_OK) rc = WN_PARSE_FAILED;
    else if (build_dom) {
        rc = build_pass(p, myhtml_tree_get_document(p->tree), src, srclen, arena, dom);
        dom->depth_capped = (uint32_t)(rep.dropped > UINT32_MAX ? UINT32_MAX : rep.dropped);
        dom->unclosed = (uint32_t)(rep.closed > UINT32_MAX ? UINT32_MAX : rep.closed);
    }
    myhtml_tree_clean(p->tree);
    free(guarded);
    return rc;
}
