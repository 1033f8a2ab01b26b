#include "features.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const wn_feature_names[WN_NFEAT] = {
    "log_chars",
    "log_words",
    "char_share",
    "word_share",
    "distinct_ratio",
    "punct_per_char",
    "commas_per_word",
    "stops_per_word",
    "cjk_share",
    "avg_word_chars",
    "anchor_text",
    "links_per_word",
    "anchor_size",
    "intra_site_links",
    "log_links",
    "log_images",
    "images_per_word",
    "log_elements",
    "tags_per_char",
    "element_share",
    "visible_per_html",
    "src_begin",
    "src_end",
    "text_begin",
    "text_end",
    "line",
    "depth",
    "depth_share",
    "sibling_index",
    "siblings",
    "sibling_pos",
    "title_words",
    "title_cover",
    "xent_page",
    "xent_gap",
    "hist_a",
    "hist_p",
    "hist_div",
    "hist_inline",
    "hist_li",
    "hist_list",
    "hist_table",
    "hist_heading",
    "hist_img",
    "hist_br",
    "hist_form",
    "hist_format",
    "hist_section",
    "hist_pre",
    "hist_quote",
    "hist_other",
    "hint_nav",
    "hint_header",
    "hint_footer",
    "hint_sidebar",
    "hint_comment",
    "hint_share",
    "hint_related",
    "hint_ad",
    "hint_overlay",
    "hint_meta",
    "hint_content",
    "hint_title",
    "boiler_inherited",
    "content_inherited",
    "tag_heading",
    "tag_list",
    "tag_li",
    "tag_table",
    "tag_p",
    "tag_div",
    "tag_landmark",
    "tag_article",
    "tag_form",
    "tag_block",
    "pos_mass",
    "neg_mass",
    "unit_value",
    "best_share",
    "log_page_chars",
    "page_link_share",
    "nb_mean",
    "nb_sum",
};

/* Host part of an absolute URL ("http://a.b/c" -> "a.b"), lower case
 * compared by the caller; 0 length when the URL is relative. */
static size_t url_host(const char *u, const char **host)
{
    const char *p = strstr(u, "://");
    if (p)
        p += 3;
    else if (u[0] == '/' && u[1] == '/')
        p = u + 2;
    else
        return 0;
    const char *e = p;
    while (*e && *e != '/' && *e != '?' && *e != '#' && *e != ':') e++;
    *host = p;
    return (size_t)(e - p);
}

/* Whether a link stays on the page's site: relative links do; absolute ones
 * when the host matches, ignoring a leading "www.". */
static int link_intra(const char *href, const char *page_host, size_t page_len)
{
    while (*href == ' ' || *href == '\t' || *href == '\n') href++;
    /* (the first byte, folded as strncasecmp folds it, tells which of the
     * two a link may be: most are neither) */
    int first = tolower((unsigned char)href[0]);
    if ((first == 'j' && !strncasecmp(href, "javascript:", 11)) || (first == 'm' && !strncasecmp(href, "mailto:", 7)))
        return 0;
    const char *h;
    size_t hl = url_host(href, &h);
    if (hl == 0) return strchr(href, ':') == NULL || strchr(href, ':') > strchr(href, '/');
    if (!page_len) return 0;
    if (hl > 4 && !strncasecmp(h, "www.", 4)) {
        h += 4;
        hl -= 4;
    }
    return hl == page_len && !strncasecmp(h, page_host, hl);
}

/* Small hash set of word keys for title lookups. */
typedef struct word_set {
    uint64_t *slot;
    uint32_t mask;
} word_set;

static int set_has(const word_set *s, uint64_t w)
{
    if (!s->slot) return 0;
    w |= 1;
    for (uint32_t i = (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 40) & s->mask;; i = (i + 1) & s->mask) {
        if (s->slot[i] == w) return 1;
        if (!s->slot[i]) return 0;
    }
}

static void set_add(word_set *s, uint64_t w)
{
    w |= 1;
    uint32_t i = (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 40) & s->mask;
    while (s->slot[i] && s->slot[i] != w) i = (i + 1) & s->mask;
    s->slot[i] = w;
}

typedef wn_word_prefix word_prefix;

static float ratio(double a, double b) { return b > 0 ? (float)(a / b) : 0.0f; }

/* (float)log1p(v) of counts, the small ones computed once per page: a
 * page's rows repeat the same few link, image, element and sibling counts. */
#define LOG1P_CACHE WN_LOG1P_CACHE
/* slots the distinct-word table starts with at most (it grows) */
#define FEATURE_WORDS_START (1u << 16)
static float log1p_count(float *cache, uint32_t v)
{
    if (v >= LOG1P_CACHE) return (float)log1p((double)v);
    if (cache[v] < 0) cache[v] = (float)log1p((double)v);
    return cache[v];
}

/* Distinct words numbered in an open-addressing table, in order of first
 * occurrence, for a page whose statistics did not number them: per word
 * its number (*id_out), per number the word, hash | 1 (*dw_out), and its
 * count (*wc_out), all malloc'd. */
static int number_words(const wn_page_text *pt, uint32_t **id_out, uint32_t **wc_out, uint64_t **dw_out,
                        uint32_t *nd_out)
{
    uint32_t W = pt->nwords;
    /* The table starts at twice the page's words up to 64 Ki slots and
     * doubles as distinct words come: sized by the words it holds, not by
     * the page's length (a huge page repeats a small vocabulary) */
    uint32_t cap = 64;
    while (cap < 2 * W + 2 && cap < FEATURE_WORDS_START) cap <<= 1;
    uint32_t dcap = cap / 2;
    uint64_t *wk = calloc(cap, sizeof(uint64_t));
    uint32_t *wid = malloc((size_t)cap * sizeof(uint32_t));
    uint32_t *id_of = malloc(((size_t)W + 1) * sizeof(uint32_t));
    uint32_t *wc = malloc(((size_t)dcap + 1) * sizeof(uint32_t));
    uint64_t *dw = malloc(((size_t)dcap + 1) * sizeof(uint64_t));
    int rc = -1;
    if (!wk || !wid || !id_of || !wc || !dw) goto done;
    uint32_t nd = 0;
    for (uint32_t t = 0; t < W; t++) {
        uint64_t w = pt->words[t] | 1;
        uint32_t s = (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
        while (wk[s] && wk[s] != w) s = (s + 1) & (cap - 1);
        if (!wk[s]) {
            if (nd + 1 > dcap) {
                /* half full: twice the slots, the words placed again */
                if (cap > UINT32_MAX / 2) goto done;
                uint32_t ncap = cap * 2;
                uint64_t *nk = calloc(ncap, sizeof(uint64_t));
                uint32_t *ni = malloc((size_t)ncap * sizeof(uint32_t));
                uint32_t *nc = realloc(wc, ((size_t)ncap / 2 + 1) * sizeof(uint32_t));
                if (nc) wc = nc;
                uint64_t *ndw = realloc(dw, ((size_t)ncap / 2 + 1) * sizeof(uint64_t));
                if (ndw) dw = ndw;
                if (!nk || !ni || !nc || !ndw) {
                    free(nk);
                    free(ni);
                    goto done;
                }
                for (uint32_t k = 0; k < nd; k++) {
                    uint32_t q = (uint32_t)((dw[k] * 0x9E3779B97F4A7C15ull) >> 40) & (ncap - 1);
                    while (nk[q]) q = (q + 1) & (ncap - 1);
                    nk[q] = dw[k];
                    ni[q] = k;
                }
                free(wk);
                free(wid);
                wk = nk;
                wid = ni;
                cap = ncap;
                dcap = ncap / 2;
                s = (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
                while (wk[s]) s = (s + 1) & (cap - 1);
            }
            wk[s] = w;
            wid[s] = nd;
            wc[nd] = 0;
            dw[nd] = w;
            nd++;
        }
        wc[wid[s]]++;
        id_of[t] = wid[s];
    }
    rc = 0;
done:
    free(wk);
    free(wid);
    if (rc != 0) {
        free(id_of);
        free(wc);
        free(dw);
        id_of = wc = NULL;
        dw = NULL;
        nd = 0;
    }
    *id_out = id_of;
    *wc_out = wc;
    *dw_out = dw;
    *nd_out = nd;
    return rc;
}

/* The scored nodes (out->node, out->row_of, out->count), and per node
 * the subtree sums of intra-site links, positive and negative unit values
 * and child elements; sets fr's maxima and best_pos. */
static void node_sums(const winnow_doc *d, const char *url, wn_node_features *out, uint32_t *intra, float *posm,
                      float *negm, uint16_t *kids, wn_feature_rows *fr)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_labels *lb = &d->labels;
    uint32_t n = dom->count;

    /* page host for intra-site links */
    const char *page_host = NULL;
    size_t page_host_len = url ? url_host(url, &page_host) : 0;
    if (page_host_len > 4 && !strncasecmp(page_host, "www.", 4)) {
        page_host += 4;
        page_host_len -= 4;
    }

    /* one forward pass: the scored nodes, and each node's own part of the
     * sums and maxima */
    uint32_t count = 0;
    uint32_t max_depth = 1, max_line = 1;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        int scored = x->tag != WN_TAG_TEXT && !(x->flags & WN_NF_HIDDEN) && st[i].chars >= WN_FEATURE_MIN_CHARS;
        out->row_of[i] = scored ? (int32_t)count : -1;
        if (scored) out->node[count++] = i;
        if (x->depth > max_depth) max_depth = x->depth;
        if (x->line > max_line) max_line = x->line;
        intra[i] = 0;
        if (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK) && !(x->flags & WN_NF_HIDDEN)) {
            const char *href = wn_node_attr(dom, x, "href", NULL);
            if (href && link_intra(href, page_host, page_host_len)) intra[i] = 1;
        }
        posm[i] = negm[i] = 0.0f;
        if (lb->unit[i] == i) {
            if (lb->value[i] > 0)
                posm[i] = lb->value[i];
            else
                negm[i] = -lb->value[i];
        }
        kids[i] = 0; /* counted from its children, which come after it */
        if (i > 0 && x->tag != WN_TAG_TEXT && kids[x->parent] < UINT16_MAX) kids[x->parent]++;
    }
    out->count = count;
    /* one backward pass: the subtree sums (a node's are complete when the
     * pass reaches it, its descendants coming after it), and the
     * best-scoring subtree's mass: how a node compares with the page's
     * main candidate */
    double best_pos = 1.0;
    for (uint32_t i = n; i-- > 1;) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag != WN_TAG_TEXT && posm[i] - negm[i] > best_pos) best_pos = posm[i] - negm[i];
        uint32_t p = x->parent;
        intra[p] += intra[i];
        posm[p] += posm[i];
        negm[p] += negm[i];
    }
    fr->max_depth = max_depth;
    fr->max_line = max_line;
    fr->best_pos = best_pos;
}

/* The word distribution of the page: distinct words numbered (by the
 * statistics' distinct-word count, or here), then per distinct word (not
 * per occurrence) its log probability, Naive Bayes weight and title
 * membership, summed into pre[] where each node's words begin (pre[n]: at
 * the end). Sets fr->nt and fr->page_xent. 0, or -1 out of memory. */
static int word_prefixes(const winnow_doc *d, const wn_nb_model *nb, word_prefix *pre, wn_feature_rows *fr)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_page_text *pt = &d->page_text;
    uint32_t n = dom->count;
    uint32_t W = pt->nwords;
    const uint32_t *id_of;
    const uint64_t *dw;
    uint32_t nd, *wc = NULL, *own_id = NULL;
    uint64_t *own_dw = NULL;
    double *dlog = NULL;
    float *dnb = NULL;
    uint8_t *dtitle = NULL;
    int rc = -1;
    if (pt->word_id) {
        id_of = pt->word_id;
        dw = pt->distinct;
        nd = pt->ndistinct;
        wc = calloc((size_t)nd + 1, sizeof *wc);
        if (!wc) goto done;
        for (uint32_t t = 0; t < W; t++) wc[id_of[t]]++;
    } else {
        if (number_words(pt, &own_id, &wc, &own_dw, &nd) != 0) goto done;
        id_of = own_id;
        dw = own_dw;
    }
    uint64_t title[64];
    uint32_t nt = dom->title ? wn_word_keys(dom->title, strlen(dom->title), title, 64) : 0;
    uint64_t tslots[256] = { 0 };
    word_set ts = { nt ? tslots : NULL, 255 };
    for (uint32_t k = 0; k < nt; k++) set_add(&ts, title[k]);
    dlog = malloc(((size_t)nd + 1) * sizeof(double));
    dnb = malloc(((size_t)nd + 1) * sizeof(float));
    dtitle = malloc((size_t)nd + 1);
    if (!dlog || !dnb || !dtitle) goto done;
    if (nb)
        wn_nb_weights(nb, dw, nd, dnb);
    else
        memset(dnb, 0, (size_t)nd * sizeof *dnb);
    /* most distinct words occur a few times each: log(c / W) of a small
     * count c is computed once (the same expression, the same value) */
    double small_log[64];
    uint64_t small_known = 0;
    for (uint32_t k = 0; k < nd; k++) {
        uint32_t c = wc[k];
        if (c < 64) {
            if (!(small_known >> c & 1)) {
                small_log[c] = log((double)c / (double)W);
                small_known |= 1ull << c;
            }
            dlog[k] = small_log[c];
        } else {
            dlog[k] = log((double)c / (double)W);
        }
        dtitle[k] = (uint8_t)set_has(&ts, dw[k]);
    }
    word_prefix acc = { 0, 0, 0 };
    uint32_t node = 0;
    for (uint32_t t = 0;; t++) {
        /* nodes in document order begin at non-decreasing word positions */
        while (node < n && st[node].w_begin == t) pre[node++] = acc;
        if (t == W) break;
        uint32_t k = id_of[t];
        acc.xent = acc.xent - dlog[k];
        acc.nb = acc.nb + dnb[k];
        acc.title = acc.title + dtitle[k];
    }
    while (node < n) pre[node++] = acc; /* none: w_begin <= W */
    pre[n] = acc;
    fr->nt = nt;
    fr->page_xent = W ? pre[n].xent / W : 0;
    rc = 0;
done:
    free(own_id);
    free(own_dw);
    free(wc);
    free(dlog);
    free(dnb);
    free(dtitle);
    return rc;
}

int wn_features_begin(const winnow_doc *d, const wn_page_scores *ps, const char *url, const wn_nb_model *nb,
                      wn_arena *a, wn_node_features *out, wn_feature_rows *fr)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_page_text *pt = &d->page_text;
    uint32_t n = dom->count;
    memset(out, 0, sizeof *out);
    memset(fr, 0, sizeof *fr);

    out->row_of = wn_arena_alloc(a, (size_t)n * sizeof(int32_t));
    if (!out->row_of) return -1;
    out->node = wn_arena_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    /* per-node sums over the subtree: intra-site links, positive and
     * negative unit values, child element counts (each node's own part is
     * written by the forward pass below, so none is zeroed here) */
    uint32_t *intra = wn_arena_array(a, n, sizeof(uint32_t));
    float *posm = wn_arena_array(a, n, sizeof(float));
    float *negm = wn_arena_array(a, n, sizeof(float));
    uint16_t *kids = wn_arena_array(a, n, sizeof(uint16_t));
    /* prefix sums over word positions, side by side as a row reads them:
     * where each node's words begin (a node's words end where the node
     * after its subtree begins), and at the end (word_prefixes) */
    word_prefix *pre = wn_arena_alloc(a, ((size_t)n + 1) * sizeof *pre);
    if (!out->node || !intra || !posm || !negm || !kids || !pre) return -1;

    node_sums(d, url, out, intra, posm, negm, kids, fr);
    uint32_t root = dom->body;
    double page_chars = st[root].chars > 0 ? st[root].chars : 1;
    double page_words = st[root].words > 0 ? st[root].words : 1;
    double page_elems = st[root].elements > 0 ? st[root].elements : 1;
    double total_pos = posm[root] > 1.0f ? posm[root] : 1.0;
    double total_neg = negm[root] > 1.0f ? negm[root] : 1.0;
    double doc_len = dom->nodes[0].src_len > 0 ? dom->nodes[0].src_len : 1;
    double text_len = pt->len > 0 ? pt->len : 1;

    if (word_prefixes(d, nb, pre, fr) != 0) return -1;

    fr->d = d;
    fr->ps = ps;
    fr->nb = nb;
    fr->node = out->node;
    fr->intra = intra;
    fr->posm = posm;
    fr->negm = negm;
    fr->kids = kids;
    fr->pre = pre;
    fr->page_chars = page_chars;
    fr->page_words = page_words;
    fr->page_elems = page_elems;
    fr->total_pos = total_pos;
    fr->total_neg = total_neg;
    fr->doc_len = doc_len;
    fr->text_len = text_len;
    for (uint32_t v = 0; v < LOG1P_CACHE; v++) fr->l1p[v] = -1.0f;
    return 0;
}

void wn_features_rows(wn_feature_rows *fr, uint32_t r0, uint32_t r1, float *xout)
{
    const winnow_doc *d = fr->d;
    const wn_page_scores *ps = fr->ps;
    const wn_nb_model *nb = fr->nb;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_labels *lb = &d->labels;
    const uint32_t *intra = fr->intra;
    const float *posm = fr->posm, *negm = fr->negm;
    const uint16_t *kids = fr->kids;
    const word_prefix *pre = fr->pre;
    uint32_t nt = fr->nt, max_depth = fr->max_depth, max_line = fr->max_line;
    double best_pos = fr->best_pos, page_chars = fr->page_chars, page_words = fr->page_words;
    double page_elems = fr->page_elems, total_pos = fr->total_pos, total_neg = fr->total_neg;
    double doc_len = fr->doc_len, text_len = fr->text_len, page_xent = fr->page_xent;
    float *l1p = fr->l1p;
    uint32_t root = dom->body;
    float log_page_chars = (float)log1p(page_chars);
    float page_link_share = ratio(st[root].link_chars, page_chars);
    for (uint32_t r = r0; r < r1; r++) {
        uint32_t i = fr->node[r];
        const wn_node *x = &dom->nodes[i];
        const wn_stats *s = &st[i];
        float *f = xout + (size_t)(r - r0) * WN_NFEAT;
        double chars = s->chars, words = s->words;
        f[WN_F_LOG_CHARS] = log1p_count(l1p, s->chars);
        f[WN_F_LOG_WORDS] = log1p_count(l1p, s->words);
        f[WN_F_CHAR_SHARE] = ratio(chars, page_chars);
        f[WN_F_WORD_SHARE] = ratio(words, page_words);
        f[WN_F_DISTINCT_RATIO] = ratio(s->distinct_words, words);
        f[WN_F_PUNCT_PER_CHAR] = ratio(s->punct, chars);
        f[WN_F_COMMAS_PER_WORD] = ratio(s->commas, words);
        f[WN_F_STOPS_PER_WORD] = ratio(s->stops, words);
        f[WN_F_CJK_SHARE] = ratio(s->cjk, chars);
        f[WN_F_AVG_WORD_CHARS] = words > 0 ? (float)fmin(chars / words, 30.0) : 0.0f;
        f[WN_F_ANCHOR_TEXT] = ratio(s->link_chars, chars);
        f[WN_F_LINKS_PER_WORD] = ratio(s->links, words > 0 ? words : 1);
        f[WN_F_ANCHOR_SIZE] = s->links ? (float)log1p((double)s->link_chars / s->links) : 0.0f;
        f[WN_F_INTRA_SITE] = s->links ? ratio(intra[i], s->links) : 0.0f;
        f[WN_F_LOG_LINKS] = log1p_count(l1p, s->links);
        f[WN_F_LOG_IMAGES] = log1p_count(l1p, s->images);
        f[WN_F_IMAGES_PER_WORD] = ratio(s->images, words > 0 ? words : 1);
        f[WN_F_LOG_ELEMENTS] = log1p_count(l1p, s->elements);
        f[WN_F_TAGS_PER_CHAR] = ratio(s->elements, chars);
        f[WN_F_ELEMENT_SHARE] = ratio(s->elements, page_elems);
        f[WN_F_VISIBLE_PER_HTML] = x->src_len ? (float)fmin(chars / x->src_len, 1.0) : 0.0f;
        f[WN_F_SRC_BEGIN] = x->src_begin != UINT32_MAX ? (float)fmin(x->src_begin / doc_len, 1.0) : 0.0f;
        f[WN_F_SRC_END] =
            x->src_begin != UINT32_MAX ? (float)fmin(((double)x->src_begin + x->src_len) / doc_len, 1.0) : 0.0f;
        f[WN_F_TEXT_BEGIN] = (float)(s->nt_begin / text_len);
        f[WN_F_TEXT_END] = (float)(s->nt_end / text_len);
        f[WN_F_LINE] = ratio(x->line, max_line);
        f[WN_F_DEPTH] = (float)x->depth;
        f[WN_F_DEPTH_SHARE] = ratio(x->depth, max_depth);
        f[WN_F_SIBLING_INDEX] = log1p_count(l1p, x->sibling_index);
        uint32_t sib = x->parent != WN_NONE ? kids[x->parent] : 1;
        f[WN_F_SIBLINGS] = log1p_count(l1p, sib);
        f[WN_F_SIBLING_POS] = sib > 1 ? ratio(x->sibling_index, sib - 1) : 0.0f;
        uint32_t after = i + x->size;
        const word_prefix *pb = &pre[i], *pe = &pre[after < dom->count ? after : dom->count];
        uint32_t in_t = pe->title - pb->title;
        f[WN_F_TITLE_WORDS] = ratio(in_t, words);
        f[WN_F_TITLE_COVER] = nt ? (float)fmin((double)in_t / nt, 1.0) : 0.0f;
        uint32_t nw = s->w_end - s->w_begin;
        f[WN_F_XENT_PAGE] = 0.0f;
        f[WN_F_XENT_GAP] = 0.0f;
        if (nw > 0) {
            double own = (pe->xent - pb->xent) / nw;
            f[WN_F_XENT_PAGE] = (float)own;
            f[WN_F_XENT_GAP] = (float)(own - page_xent);
        }
        for (int k = 0; k < WN_HIST_N; k++) f[WN_F_HIST0 + k] = ratio(s->hist[k], s->elements);
        for (int k = 0; k < 12; k++) f[WN_F_HINT0 + k] = (s->hints >> k) & 1 ? 1.0f : 0.0f;
        f[WN_F_BOILER_INHERITED] = ps->boiler[i] ? 1.0f : 0.0f;
        f[WN_F_CONTENT_INHERITED] = ps->content_hint[i] ? 1.0f : 0.0f;
        unsigned tag = x->tag;
        f[WN_F_TAG_HEADING] = wn_tag_has(tag, WN_TF_HEADING) ? 1.0f : 0.0f;
        f[WN_F_TAG_LIST] = wn_tag_has(tag, WN_TF_LIST) ? 1.0f : 0.0f;
        f[WN_F_TAG_LI] = (tag == WN_TAG_LI || tag == WN_TAG_DT || tag == WN_TAG_DD) ? 1.0f : 0.0f;
        f[WN_F_TAG_TABLE] = wn_tag_has(tag, WN_TF_TABLE) ? 1.0f : 0.0f;
        f[WN_F_TAG_P] = tag == WN_TAG_P ? 1.0f : 0.0f;
        f[WN_F_TAG_DIV] = (tag == WN_TAG_DIV || tag == WN_TAG_SECTION) ? 1.0f : 0.0f;
        f[WN_F_TAG_LANDMARK] =
            (tag == WN_TAG_NAV || tag == WN_TAG_ASIDE || tag == WN_TAG_FOOTER || tag == WN_TAG_HEADER) ? 1.0f : 0.0f;
        f[WN_F_TAG_ARTICLE] = (tag == WN_TAG_ARTICLE || tag == WN_TAG_MAIN) ? 1.0f : 0.0f;
        f[WN_F_TAG_FORM] = (tag == WN_TAG_FORM || wn_tag_has(tag, WN_TF_FORM)) ? 1.0f : 0.0f;
        f[WN_F_TAG_BLOCK] = s->is_block ? 1.0f : 0.0f;
        f[WN_F_POS_MASS] = (float)(posm[i] / total_pos);
        f[WN_F_NEG_MASS] = (float)(negm[i] / total_neg);
        uint32_t u = lb->unit[i];
        f[WN_F_UNIT_VALUE] = ps->own[u].chars ? (float)fmax(-1.0, fmin(1.5, lb->value[u] / ps->own[u].chars)) : 0.0f;
        f[WN_F_BEST_SHARE] = (float)fmax(-1.0, fmin(1.0, (posm[i] - negm[i]) / best_pos));
        f[WN_F_LOG_PAGE_CHARS] = log_page_chars;
        f[WN_F_PAGE_LINK_SHARE] = page_link_share;
        f[WN_F_NB_MEAN] = 0.0f;
        f[WN_F_NB_SUM] = 0.0f;
        if (nb && nw > 0) {
            double sum = pe->nb - pb->nb;
            f[WN_F_NB_MEAN] = (float)(sum / nw);
            double z = nb->prior + sum;
            f[WN_F_NB_SUM] = (float)fmax(-50.0, fmin(50.0, z));
        }
    }
}

int wn_features_compute(const winnow_doc *d, const wn_page_scores *ps, const char *url, const wn_nb_model *nb,
                        wn_arena *a, wn_node_features *out)
{
    wn_feature_rows fr;
    if (wn_features_begin(d, ps, url, nb, a, out, &fr) != 0) return -1;
    out->x = wn_arena_alloc(a, ((size_t)out->count * WN_NFEAT + 1) * sizeof(float)); /* every feature is written */
    if (!out->x) return -1;
    wn_features_rows(&fr, 0, out->count, out->x);
    return 0;
}
