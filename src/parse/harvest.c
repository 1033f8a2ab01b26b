/* Copying a large page out of the tree builder piece by piece while it is
 * parsed (wn_parse_harvest), and the DOM's start (wn_parse_build_begin).
 *
 * The DOM is built while the tree builder runs. A large page is fed to it
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
#include "parser_internal.h"

#include <string.h>

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const void *const *)a, y = (uintptr_t) * (const void *const *)b;
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
    myhtml_tree_node_t *pin[4] = { tree->node_head, tree->node_form, tree->node_html, tree->node_body };
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
    case MyHTML_TAG_A:
    case MyHTML_TAG_B:
    case MyHTML_TAG_BIG:
    case MyHTML_TAG_CODE:
    case MyHTML_TAG_EM:
    case MyHTML_TAG_FONT:
    case MyHTML_TAG_I:
    case MyHTML_TAG_NOBR:
    case MyHTML_TAG_S:
    case MyHTML_TAG_SMALL:
    case MyHTML_TAG_STRIKE:
    case MyHTML_TAG_STRONG:
    case MyHTML_TAG_TT:
    case MyHTML_TAG_U:
    case MyHTML_TAG_TABLE:
    case MyHTML_TAG_TBODY:
    case MyHTML_TAG_THEAD:
    case MyHTML_TAG_TFOOT:
    case MyHTML_TAG_TR:
    case MyHTML_TAG_TD:
    case MyHTML_TAG_TH:
    case MyHTML_TAG_CAPTION:
    case MyHTML_TAG_COLGROUP:
    case MyHTML_TAG_TEMPLATE:
    case MyHTML_TAG_SELECT:
    case MyHTML_TAG_APPLET:
    case MyHTML_TAG_OBJECT:
    case MyHTML_TAG_MARQUEE:
    case MyHTML_TAG__TEXT:
    case MyHTML_TAG__COMMENT:
    /* text-only elements: the title's text is read when it is copied */
    case MyHTML_TAG_HEAD:
    case MyHTML_TAG_TITLE:
    case MyHTML_TAG_TEXTAREA:
    case MyHTML_TAG_SCRIPT:
    case MyHTML_TAG_STYLE:
    case MyHTML_TAG_XMP:
    case MyHTML_TAG_IFRAME:
    case MyHTML_TAG_NOEMBED:
    case MyHTML_TAG_NOFRAMES:
    case MyHTML_TAG_NOSCRIPT:
    case MyHTML_TAG_PLAINTEXT: return 1;
    default: return 0;
    }
}

/* Copies what is final (everything when final is set) and, unless final,
 * deletes it from the tree builder's tree. */
int wn_parse_harvest(build_ctx *b, int final)
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
                    if (wn_parse_classify(p, c, &t) != VISIT_KEEP) return BUILD_OK;
                    /* everything before it is copied: it joins the spine */
                    uint32_t i;
                    int descend;
                    uint32_t before = b->flattened;
                    int rc = wn_parse_emit_node(b, c, top->idx, &i, &descend);
                    if (rc != BUILD_OK) return rc;
                    if (!grow((void **)&p->spine, &p->spine_cap, p->nspine + 1, sizeof *p->spine))
                        return WN_PARSE_NOMEM;
                    uint8_t flat = b->flattened != before;
                    uint8_t kind = flat ? b->flat_last : 0;
                    if (kind & FLAT_LINK) b->flat_link++;
                    p->spine[p->nspine++] = (spine_ent){ c, i, NULL, wn_parse_attr_count(c), flat, kind };
                    break;
                }
                if (top_open && (!next || (mh_tag_id(c) == MyHTML_TAG__TEXT && mh_tag_id(next) == MyHTML_TAG_TABLE &&
                                           in_set(b->open, b->nopen, next))))
                    return BUILD_OK;
            }
            int rc = wn_parse_emit_subtree(b, c, top->idx);
            if (rc != BUILD_OK) return rc;
            if (!final && !in_set(b->pinned, b->npinned, c))
                delete_subtree(p->tree, c);
            else
                top->cursor = c;
            c = next;
        }
        if (c) continue; /* a new spine element */
        if (p->nspine == 1 || top_open) return BUILD_OK;
        /* the spine element is closed and all of it copied */
        spine_ent *up = &p->spine[p->nspine - 2];
        if (mh_parent(top->mh) != up->mh || wn_parse_attr_count(top->mh) != top->nattr) return BUILD_REDO;
        /* copied before its tag was read (an implied body), its place may
         * have changed since */
        if (!top->flat) wn_parse_set_position(b, &b->dom->nodes[top->idx], top->mh);
        if (top->flat_kind & FLAT_BREAK) b->pending_sep = '\n';
        if (top->flat_kind & FLAT_LINK) b->flat_link--;
        p->nspine--;
        if (!final && !in_set(b->pinned, b->npinned, top->mh) && !mh_child(top->mh))
            delete_subtree(p->tree, top->mh);
        else
            up->cursor = top->mh;
    }
}

wn_parse_status wn_parse_build_begin(build_ctx *b)
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
    p->spine[0] = (spine_ent){ myhtml_tree_get_document(p->tree), 0, NULL, 0 };
    p->nspine = 1;
    return WN_PARSE_OK;
}
