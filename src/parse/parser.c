/* The parser: the tree builder's setup and its reuse across pages, the
 * pieces a large page is fed in (with the end-tag tokens freed after each),
 * the markup repair before it, the newline index, and the entry points of
 * parser.h. The copy out of the tree builder is copy.c and harvest.c; the
 * finished DOM's passes are finish.c (parser_internal.h). */
#include "parser_internal.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

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

/* The tree builder's string pool keeps freed blocks in a "cache" it
 * searches on every allocation: a list sorted by size, walked from the
 * smallest until a block is large enough (and then past every block of
 * that size). Each time its current block fills, the unused tail
 * joins that list, and a tail smaller than every string asked for later
 * is never taken: on a page of attributed elements with no small strings
 * between them (no white space text) the list grows with the page, and
 * every attribute's allocation walks it: 80% of the time on such a page,
 * quadratic in its size (a 65 MB page took 263 s). The list is emptied
 * once it holds more than this many blocks; what it held stays allocated
 * in the pool until the tree is cleaned (as the strings of deleted nodes
 * do, see harvest.c), at most the pool's tails and freed strings. */
#define STRING_CACHE_MAX 8

static void trim_string_cache(myhtml_tree_t *tree)
{
    mchar_async_t *mc = tree->mchar;
    if (!mc) return;
    for (size_t k = 0; k < mc->nodes_length; k++)
        if (mc->nodes[k].cache.count > STRING_CACHE_MAX) mchar_async_cache_clean(&mc->nodes[k].cache);
}

/* The tree builder frees an element's token with the element, but an end
 * tag's token is never attached to anything: it stays in its pool until
 * the whole page is done, about 100 bytes a tag (on a page of tags nested
 * and closed, four times the page). Fed in pieces, the end tags of a
 * piece are noted as the tokenizer hands them over (before the tree
 * builder reads them), and once the piece is built they go back to the
 * pool. One the tree builder turned into a start tag (</br> is read as
 * <br>) is no longer an end tag and is left alone, as is one with
 * attributes (their strings are the pool's too). Every token, pieces or
 * not, also bounds the string pool's free list (trim_string_cache). */
static void *token_done(myhtml_tree_t *tree, myhtml_token_node_t *token, void *ctx)
{
    wn_parser *p = ctx;
    trim_string_cache(tree);
    if (!p->noting_closers) return ctx;
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

size_t wn_parser_script_hidden(const wn_parser *p) { return p->script_hidden; }
size_t wn_parser_display_hidden(const wn_parser *p) { return p->display_hidden; }

static wn_parse_status build_dom_from(build_ctx *b, const char *src, size_t srclen, size_t chunk)
{
    wn_parser *p = b->p;
    myhtml_tree_clean(p->tree);
    int rc = wn_parse_build_begin(b);
    if (rc != WN_PARSE_OK) return rc;
    b->chunked = srclen > chunk;
    p->nclosers = 0;
    p->closers_oom = 0;
    p->noting_closers = b->chunked;
    myhtml_callback_after_token_done_set(p->tree, token_done, p);
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
            rc = wn_parse_harvest(b, 0);
            if (rc != BUILD_OK) return rc;
            free_closers(p);
        }
        if (myhtml_parse_chunk_end(p->tree) != MyHTML_STATUS_OK) return WN_PARSE_FAILED;
    }
    rc = wn_parse_harvest(b, 1);
    if (rc != BUILD_OK) return rc;
    return wn_parse_build_end(b);
}

static wn_parse_status parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom, int build_dom,
                             wn_dom_store *store, const wn_parse_rules *rules)
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
        p->noting_closers = 0;
        myhtml_callback_after_token_done_set(p->tree, token_done, p);
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
        b.merged_link_share = rules ? rules->merged_link_share : WN_PARSE_MERGED_LINK_SHARE;
        p->show_hidden = rules ? rules->show_hidden : 0;
        p->show_tabpanels = rules ? rules->show_tabpanels : 0;
        p->hide_closed = rules ? rules->hide_closed : 0;
        p->show_controlled = rules ? rules->show_controlled : 0;
        p->ncontrolled = 0;
        p->script_hidden = 0;
        p->display_hidden = 0;
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
            if (rc == WN_PARSE_OK) {
                wn_parse_hide_anchor_glyphs(dom);
                if (rules && rules->hide_unread) wn_parse_hide_unread(dom);
            }
        }
        free(b.open);
        free(b.pinned);
        free(b.walk);
        dom->flattened = b.flattened;
        dom->depth_capped = (uint32_t)(rep.dropped > UINT32_MAX ? UINT32_MAX : rep.dropped);
        dom->unclosed = (uint32_t)(rep.closed > UINT32_MAX ? UINT32_MAX : rep.closed);
        dom->attrs_dropped = (uint32_t)(rep.attrs_dropped > UINT32_MAX ? UINT32_MAX : rep.attrs_dropped);
    }
    myhtml_tree_clean(p->tree);
    free(guarded);
    release_large(p, srclen);
    return rc;
}

wn_parse_status wn_parser_parse(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom, int build_dom)
{
    return parse(p, utf8, len, arena, dom, build_dom, NULL, NULL);
}

wn_parse_status wn_parser_parse_store(wn_parser *p, const char *utf8, size_t len, wn_arena *arena, wn_dom *dom,
                                      wn_dom_store *store, const wn_parse_rules *rules)
{
    memset(store, 0, sizeof *store);
    return parse(p, utf8, len, arena, dom, 1, store, rules);
}

void wn_parser_reclaim(wn_parser *p, wn_dom_store *store)
{
    if (!store) return;
    /* the parser keeps one set, up to the size it keeps after a page */
    int keep =
        p && !p->nodes && !p->attrs && !p->text &&
        store->nodes_cap * sizeof(wn_node) + store->attrs_cap * sizeof(wn_attr) + store->text_cap <= KEEP_SCRATCH_BYTES;
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
