/* Copying the tree builder's nodes into the DOM: one node (its tag, flags,
 * attributes, text and source position) and a whole subtree in document
 * order, with the node budget (past it an element is flattened into its
 * parent's text). Called for the whole tree of a small page and by
 * harvest.c for the final parts of a large one. */
#include "parser_internal.h"

#include <string.h>

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
        if (nl[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo + 1;
}

size_t wn_parse_attr_count(myhtml_tree_node_t *n)
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
    else if (!ok && raw.length && raw.begin > 0)
        beg = raw.begin - 1;
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
void wn_parse_set_position(build_ctx *b, wn_node *x, myhtml_tree_node_t *n)
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
    /* the merged node is link text when more than MERGED_LINK_SHARE of its
     * text is: a page of a million links stays a link list past the budget.
     * Compared in double: for 0.5 the same as 2 * link > total (both sums
     * stay far below 2^53, so exact) */
    if (b->merge_node != last) {
        b->merge_node = last;
        b->merge_total = x->text_len;
        b->merge_link = (x->flags & WN_NF_LINK) ? x->text_len : 0;
    }
    b->merge_total += len;
    if (b->flat_link || (dom->nodes[parent].flags & WN_NF_LINK)) b->merge_link += len;
    if ((double)b->merge_link > b->merged_link_share * (double)b->merge_total)
        x->flags |= WN_NF_LINK;
    else
        x->flags &= (uint16_t)~WN_NF_LINK;
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

/* Attribute names common enough to share one static copy instead of one
 * per attribute: on a page of attributed elements the names were as many
 * bytes as the values. Any other name is copied. */
static const struct {
    const char *name;
    size_t len;
} common_names[] = {
#define N(s)                                                                                                           \
    {                                                                                                                  \
        s, sizeof s - 1                                                                                                \
    }
    N("class"),    N("id"),       N("href"),       N("src"),         N("style"),    N("title"),     N("alt"),
    N("rel"),      N("type"),     N("name"),       N("content"),     N("property"), N("role"),      N("lang"),
    N("dir"),      N("width"),    N("height"),     N("target"),      N("loading"),  N("srcset"),    N("sizes"),
    N("hidden"),   N("tabindex"), N("value"),      N("for"),         N("itemprop"), N("itemscope"), N("itemtype"),
    N("datetime"), N("decoding"), N("aria-label"), N("aria-hidden"), N("data-src"), N("data-id"),   N("colspan"),
    N("rowspan"),  N("media"),    N("charset"),    N("action"),      N("method"),   N("onclick"),   N("aria-expanded"),
#undef N
};

static const char *common_name(const char *k, size_t kl)
{
    for (size_t i = 0; i < sizeof common_names / sizeof common_names[0]; i++)
        if (common_names[i].len == kl && !memcmp(common_names[i].name, k, kl)) return common_names[i].name;
    return NULL;
}

/* Copies node n under parent. *idx is its index, WN_NONE when skipped;
 * *descend says whether its children follow. */
int wn_parse_emit_node(build_ctx *b, myhtml_tree_node_t *n, uint32_t parent, uint32_t *idx, int *descend)
{
    wn_parser *p = b->p;
    wn_dom *dom = b->dom;
    wn_arena *arena = b->arena;
    *idx = WN_NONE;
    *descend = 0;
    uint16_t t;
    int keep = wn_parse_classify(p, n, &t);
    if (keep == VISIT_SKIP && t == WN_TAG_SCRIPT && wn_parse_is_jsonld(n)) {
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
            parent < dom->count && !wn_parse_is_hidden(p, n))
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
    if (par->last_child != WN_NONE)
        dom->nodes[par->last_child].next_sibling = i;
    else
        par->first_child = i;
    par->last_child = i;
    *idx = i;

    wn_parse_set_position(b, x, n);

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
        /* the name (unless a common one) and the value, each
         * NUL-terminated, in one allocation */
        const char *known = kl ? common_name(k, kl) : NULL;
        size_t own = known ? 0 : kl + 1;
        char *name = wn_arena_bytes(arena, own + vl + 1);
        if (!name) return WN_PARSE_NOMEM;
        char *value = name + own;
        if (!known) {
            if (kl) memcpy(name, k, kl);
            name[kl] = '\0';
        }
        if (vl) memcpy(value, v, vl);
        value[vl] = '\0';
        at->name = known ? known : name;
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
int wn_parse_emit_subtree(build_ctx *b, myhtml_tree_node_t *root, uint32_t parent)
{
    uint32_t i;
    int descend;
    uint32_t before = b->flattened;
    int rc = wn_parse_emit_node(b, root, parent, &i, &descend);
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
        rc = wn_parse_emit_node(b, n, parent, &i, &descend);
        if (rc != BUILD_OK) return rc;
        if (descend) {
            if (!grow((void **)&b->walk, &b->walk_cap, depth + 1, sizeof *b->walk)) return WN_PARSE_NOMEM;
            uint8_t kind = b->flattened != before ? b->flat_last : 0;
            if (kind & FLAT_LINK) b->flat_link++;
            b->walk[depth++] = (walk_ent){ parent, kind };
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
