/* The region strategy: a page whose content is not one story but a set of
 * parts (a landing page's sections, a listing's item cards, a product's
 * name, price, description and specifications, a thread's posts). The
 * article strategy finds the best block; this one keeps, besides, every
 * part of the page's content region that is not its frame:
 *
 *   1. the article strategy's selection (article.c), kept as it is;
 *   2. the region: the <main> (role=main) holding the best block, else
 *      the body; with no best block, the page's only <main>, else the body (also when no block has
 *      running text: the parts are then the content);
 *   3. in it, outside dialogs (REGION_SKIP_DIALOGS), every unit with text that is not in the page's own header
 *      or footer, not under a trusted name of the site's frame (nav,
 *      header, footer, sidebar, share, ad, overlay; related items on a
 *      product page), and not a link list unless it is part of a card: a
 *      record of REGION_MIN_CARDS or more siblings of one shape that
 *      carries text besides its links (an item's name over its price). */
#include "passes.h"
#include "strategy.h"

#include <string.h>
#include <strings.h>

/* Whether element i is a main landmark: <main> or role=main. */
static int main_landmark(const wn_dom *dom, const wn_page_scores *ps, uint32_t i)
{
    const wn_node *x = &dom->nodes[i];
    if (x->tag == WN_TAG_MAIN) return 1;
    if (!ps->landmark[i]) return 0;
    const char *role = wn_node_attr(dom, x, "role", NULL);
    return role && !strcasecmp(role, "main");
}

/* Step 2: the content region. */
static uint32_t content_region(const winnow_doc *d, const wn_page_scores *ps, uint32_t best)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t a = best; a != WN_NONE && a != 0; a = dom->nodes[a].parent)
        if (main_landmark(dom, ps, a)) return a;
    uint32_t only = WN_NONE;
    for (uint32_t i = 1; i < dom->count; i++) {
        if (dom->nodes[i].tag == WN_TAG_TEXT || !main_landmark(dom, ps, i)) continue;
        if (only != WN_NONE) return dom->body;
        only = i;
        i += dom->nodes[i].size - 1;
    }
    /* the page's only <main>, unless the best block lies outside it */
    if (only != WN_NONE && d->stats[only].chars > 0 && best == WN_NONE) return only;
    return dom->body;
}

/* Whether element r is an item by its markup (REGION_MARKED_CARDS): an
 * <article>, or a link that holds a heading (a teaser's linked title) or
 * two units of text (its date, title and summary; a menu's link holds a
 * word or two). */
static int marked_item(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_dom *dom = &d->dom;
    const wn_node *x = &dom->nodes[r];
    if (x->tag == WN_TAG_ARTICLE) return 1;
    if (x->tag != WN_TAG_A) return 0;
    unsigned units = 0;
    for (uint32_t i = r + 1; i < r + x->size; i++) {
        if (dom->nodes[i].tag >= WN_TAG_H1 && dom->nodes[i].tag <= WN_TAG_H6) return 1;
        units += d->labels.unit[i] == i && dom->nodes[i].tag != WN_TAG_TEXT && ps->own[i].chars > 0;
        if (units >= 2) return 1;
    }
    return 0;
}

/* Whether unit u, mostly links, is part of a card: an element at most
 * REGION_CARD_LEVELS above it that has REGION_MIN_CARDS - 1 or more
 * siblings of its shape (its tag and first class: REGION_CARD_FIRST_CLASS)
 * or that its markup marks as an item (REGION_MARKED_CARDS; an <article>
 * holding the best block is the page's own, no item), itself holding text
 * outside links, more than one unit or REGION_CARD_WORDS words. Returns 1
 * for a card of a record, 2 for an item alone (*item: the item), 0 for
 * no card. */
static int in_card(const winnow_doc *d, const wn_page_scores *ps, uint32_t u, uint32_t region, uint32_t best,
                   uint32_t *item)
{
    const wn_dom *dom = &d->dom;
    const float min = WN_RULE(d, REGION_MIN_CARDS);
    /* (a thread's posts are not cards: their per-post classes keep the
     * author boxes and buttons in them apart) */
    const int kind = WN_RULE(d, REGION_CARD_FIRST_CLASS) > 0.0f && d->page_type != WINNOW_PAGE_FORUM;
    const int marked = WN_RULE(d, REGION_MARKED_CARDS) > 0.0f;
    int lone = 0;
    uint32_t r = u;
    /* levels are counted where the parent holds text beside r's: a
     * wrapper around r alone (a shop's card nests its link a dozen
     * <div>s deep) is no level */
    for (int up = 0; (float)up <= WN_RULE(d, REGION_CARD_LEVELS) && r != WN_NONE && r != region;
         r = dom->nodes[r].parent) {
        uint32_t p = dom->nodes[r].parent;
        if (p == WN_NONE) return 0;
        unsigned same = 0, texts = 0;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE && (float)same < min;
             c = dom->nodes[c].next_sibling) {
            texts += d->stats[c].chars > 0;
            same += d->stats[c].chars > 0 && (kind ? wn_same_kind(dom, c, r) : wn_same_shape(dom, c, r));
        }
        if (texts > 1 || WN_RULE(d, REGION_CARD_WRAPPERS) <= 0.0f) up++;
        const int record = (float)same >= min;
        if (!record && !(marked && marked_item(d, ps, r) && (best == WN_NONE || !wn_node_within(dom, r, best))))
            continue;
        /* a card says more than its link: a menu item does not */
        const wn_stats *s = &d->stats[r];
        unsigned units = 0;
        for (uint32_t i = r; i < r + dom->nodes[r].size && units < 2; i++)
            units += d->labels.unit[i] == i && dom->nodes[i].tag != WN_TAG_TEXT && ps->own[i].chars > 0;
        /* or names an item at length: a linked card's title, not a
         * menu's word or two */
        const int more = units >= 2 || s->chars > s->link_chars || (float)s->words >= WN_RULE(d, REGION_CARD_WORDS);
        /* a record of siblings that says no more is a menu */
        if (record) return more ? 1 : lone;
        /* an item alone: a record of its kind may still lie further up */
        if (more && !lone) {
            lone = 2;
            *item = r;
        }
    }
    return lone;
}

/* Whether unit u lies in an item inside the region (not the region
 * itself): an <article>, or a <section> holding less than FRAME_MAX_SHARE
 * of the page's text, that lies in no header or footer. Names of header
 * and footer there are the item's ("post-header" over a teaser's title),
 * not the page's (REGION_ITEM_HEADERS). */
static int in_item(const winnow_doc *d, const wn_page_scores *ps, uint32_t u, uint32_t region)
{
    const wn_dom *dom = &d->dom;
    const float most = wn_frame_share_chars(d);
    for (uint32_t a = u; a != WN_NONE && a != region && a != 0; a = dom->nodes[a].parent) {
        const wn_node *x = &dom->nodes[a];
        if (x->tag != WN_TAG_ARTICLE && !(x->tag == WN_TAG_SECTION && (float)d->stats[a].chars < most)) continue;
        /* an item inside a header or footer is that one's part */
        return !(ps->boiler[a] & (WN_HINT_HEADER | WN_HINT_FOOTER));
    }
    return 0;
}

/* The trusted names of the site's frame. */
static uint16_t frame_hints(const winnow_doc *d)
{
    uint16_t h = WN_HINT_NAV | WN_HINT_HEADER | WN_HINT_FOOTER | WN_HINT_SIDEBAR | WN_HINT_SHARE | WN_HINT_AD |
                 WN_HINT_OVERLAY | WN_HINT_SCRIPT | WN_HINT_SITE;
    if (d->page_type == WINNOW_PAGE_PRODUCT) h |= WN_HINT_RELATED;
    /* a landing page's promotions (promo, banner) are its own offers */
    if (d->page_type == WINNOW_PAGE_SERVICE && WN_RULE(d, REGION_LANDING_PROMOS) > 0.0f) h &= (uint16_t)~WN_HINT_AD;
    /* reader comments, bylines and tags: a thread's posts and their
     * authors are its content, no other page's are */
    if (d->page_type != WINNOW_PAGE_FORUM && WN_RULE(d, REGION_DROP_COMMENTS) > 0.0f)
        h |= WN_HINT_COMMENT | WN_HINT_META;
    return h;
}

int wn_select_region(wn_selection *sel)
{
    winnow_doc *d = sel->d;
    const wn_page_scores *ps = sel->ps;
    wn_labels *lb = &d->labels;
    const wn_dom *dom = &d->dom;
    if (wn_select_article(sel) != 0) return -1;
    /* dialogs wait to be opened: what the article strategy kept there goes */
    const int skip = WN_RULE(d, REGION_SKIP_DIALOGS) > 0.0f;
    for (uint32_t i = 1; skip && i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || !wn_node_dialog(dom, i)) continue;
        memset(lb->keep + i, 0, x->size);
        i += x->size - 1;
    }
    uint32_t region = sel->region = content_region(d, ps, sel->best);
    const uint8_t *frame = wn_frame_marks(d, ps);
    if (!frame) return -1;
    /* the parts: units to add, marked first */
    uint8_t *add = wn_arena_calloc(wn_doc_scratch(d), dom->count, 1);
    if (!add) return -1;
    const uint16_t drop = frame_hints(d);
    const int item_headers = WN_RULE(d, REGION_ITEM_HEADERS) > 0.0f;
    float kept = 0.0f, added = 0.0f, item_chars = 0.0f;
    uint32_t records = 0, last_item = WN_NONE;
    for (uint32_t u = region; u < region + dom->nodes[region].size; u++) {
        const wn_node *x = &dom->nodes[u];
        if (x->tag != WN_TAG_TEXT && skip && wn_node_dialog(dom, u)) {
            u += x->size - 1;
            continue;
        }
        if (lb->unit[u] != u || x->tag == WN_TAG_TEXT) continue;
        const wn_unit_stats *o = &ps->own[u];
        if (lb->keep[u]) {
            kept += (float)o->chars;
            continue;
        }
        if (frame[u] || (x->flags & WN_NF_HIDDEN)) continue;
        if (o->chars == 0) continue;
        uint16_t b = ps->boiler[u] & drop;
        if ((b & (WN_HINT_HEADER | WN_HINT_FOOTER)) && item_headers && in_item(d, ps, u, region))
            b &= (uint16_t) ~(WN_HINT_HEADER | WN_HINT_FOOTER);
        if (b) continue;
        if ((drop & WN_HINT_COMMENT) && ps->after_marker[u]) continue;
        /* a product page's cards are other products */
        const int links = wn_mostly_links(d, o->link_chars, o->chars);
        int card = 1;
        uint32_t item = WN_NONE;
        if (links && (d->page_type == WINNOW_PAGE_PRODUCT || !(card = in_card(d, ps, u, region, sel->best, &item))))
            continue;
        add[u] = (uint8_t)card;
        added += (float)o->chars;
        records += card == 1 && links;
        if (card == 2 && (last_item == WN_NONE || !wn_node_within(dom, last_item, item))) {
            last_item = item;
            item_chars += (float)d->stats[item].chars;
        }
    }
    /* items alone by their markup (REGION_MARKED_CARDS; item_chars > 0
     * when any came in) are the content only where the region has no
     * cards of a record and they hold more of its text than all else kept
     * (a tag page of one post), not a landing page's teasers of its latest
     * posts or a listing's featured strip */
    if (item_chars > 0.0f && (records > 0 || 2.0f * item_chars <= kept + added))
        for (uint32_t u = region; u < region + dom->nodes[region].size; u++)
            if (add[u] == 2) {
                add[u] = 0;
                added -= (float)ps->own[u].chars;
            }
    /* an article after all: the article strategy's block holds most of
     * the region's running text and a fair share of all it would keep,
     * the rest being the site's boxes */
    /* (a thread's replies are its content however short beside the first post) */
    if (!sel->parts_always && d->page_type != WINNOW_PAGE_FORUM && sel->best != WN_NONE && kept > 0.0f &&
        kept >= WN_RULE(d, REGION_ARTICLE_CHARS) * (kept + added)) {
        float vkept = 0.0f, vall = 0.0f;
        for (uint32_t u = region; u < region + dom->nodes[region].size; u++) {
            if (lb->unit[u] != u || dom->nodes[u].tag == WN_TAG_TEXT || lb->value[u] <= 0.0f) continue;
            vall += lb->value[u];
            if (lb->keep[u]) vkept += lb->value[u];
        }
        if (vall > 0.0f && vkept >= WN_RULE(d, REGION_ARTICLE_SHARE) * vall) return 0;
    }
    for (uint32_t u = region; u < region + dom->nodes[region].size; u++)
        if (add[u]) {
            lb->keep[u] = 1;
            wn_explain_keep(d, u, KEEP_RUNNING, WN_WHY_REGION);
        }
    if (sel->best == WN_NONE) {
        /* no block of running text (or only in the frame): the parts are
         * the content when there are any */
        int any = 0;
        for (uint32_t i = region; i < region + dom->nodes[region].size && !any; i++) any = lb->keep[i];
        if (!any) return 0;
        sel->best = region;
        sel->framed = WN_NONE;
        lb->container = region;
    }
    if (!wn_node_within(dom, lb->container, region)) lb->container = region;
    wn_drop_line_gutters(d, region);
    return 0;
}
