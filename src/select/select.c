#include "select.h"

#include "../score/records.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Whether unit u may be kept inside the content block: 0 not, else
 * KEEP_RUNNING (running text), KEEP_FRAGMENT or KEEP_CELL, which say why
 * when a page is explained. */
enum { KEEP_RUNNING = 1, KEEP_FRAGMENT = 2, KEEP_CELL = 3 };

static int code_block(const winnow_doc *d, uint32_t b);
static int ends_sentence(const char *t, size_t n);
static int byline_like(const winnow_doc *d, const char *t, size_t n);

/* Whether unit u's text ends a sentence (ends_sentence()). */
static int ends_sentence_unit(const winnow_doc *d, uint32_t u)
{
    return ends_sentence(d->page_text.text + d->stats[u].nt_begin, d->stats[u].nt_end - d->stats[u].nt_begin);
}

/* Whether the one link in unit u shows an address as its text (a URL, a
 * mail address): written out by the author as part of the sentence, not a
 * way through the site. */
static int address_link(const winnow_doc *d, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = u; i < u + dom->nodes[u].size; i++) {
        if (dom->nodes[i].tag != WN_TAG_A || !(dom->nodes[i].flags & WN_NF_LINK)) continue;
        const char *t = d->page_text.text + d->stats[i].nt_begin;
        size_t n = d->stats[i].nt_end - d->stats[i].nt_begin;
        while (n && *t == ' ') { t++; n--; }
        while (n && t[n - 1] == ' ') n--;
        if (n < 6 || memchr(t, ' ', n)) return 0;
        return memmem(t, n, "://", 3) != NULL || (n > 4 && memcmp(t, "www.", 4) == 0) ||
               (memchr(t, '@', n) != NULL && memchr(t, '.', n) != NULL);
    }
    return 0;
}

static int unit_keepable(const winnow_doc *d, const wn_page_scores *ps, uint32_t u)
{
    const wn_unit_stats *o = &ps->own[u];
    if (o->chars == 0) return 0;
    if (ps->boiler[u]) return 0;
    if (d->labels.value[u] > 0) return KEEP_RUNNING;
    /* short plain fragments inside the content (subheadings, table cells,
     * captions) stay; link lists do not */
    if ((float)o->link_chars <= WN_RULE(d, KEEP_FRAGMENT_MAX_LINKS) * (float)o->chars) return KEEP_FRAGMENT;
    const wn_dom *dom = &d->dom;
    unsigned tag = dom->nodes[u].tag;
    /* a heading that links the page itself or its own anchor */
    if (wn_tag_has(tag, WN_TF_HEADING) && wn_self_linked(d, u, 0)) return KEEP_FRAGMENT;
    /* a sentence around one link ("On Saturday the director told Bild
     * that ...", "Download: <a>the installer</a>.", "It is explained
     * here: <a>https://...</a>"): one link is no list */
    if (d->stats[u].links == 1 && o->stops > 0 && !wn_tag_has(tag, WN_TF_HEADING) &&
        (float)(o->chars - o->link_chars) >= WN_RULE(d, ONE_LINK_PLAIN_CHARS) &&
        (ends_sentence_unit(d, u) || address_link(d, u)))
        return KEEP_FRAGMENT;
    /* a table is data: a cell that is a link (a film title, an infobox
     * value) stays when its table is not mostly links */
    if (tag != WN_TAG_TD && tag != WN_TAG_TH) return 0;
    uint32_t t = dom->nodes[u].parent;
    for (int up = 0; t != WN_NONE && t != 0 && dom->nodes[t].tag != WN_TAG_TABLE && up < 3; up++) t = dom->nodes[t].parent;
    if (t == WN_NONE || t == 0 || dom->nodes[t].tag != WN_TAG_TABLE) return 0;
    /* a data table sits inside the content block, or is it (the block is
     * the table, its body or a row); a table around the block is layout */
    uint32_t c = d->labels.container;
    if (c == WN_NONE) return 0;
    int data = wn_node_within(dom, c, t) ||
               (wn_tag_has(dom->nodes[c].tag, WN_TF_TABLE) && dom->nodes[c].tag != WN_TAG_TD &&
                dom->nodes[c].tag != WN_TAG_TH && wn_node_within(dom, t, c));
    if (!data) return 0;
    return (float)d->stats[t].link_chars <= WN_RULE(d, TABLE_CELL_MAX_LINKS) * (float)d->stats[t].chars ? KEEP_CELL : 0;
}

/* Explaining: unit u is kept for reason why (running text), or as a
 * fragment or a table cell (how, from unit_keepable). */
static void explain_keep(winnow_doc *d, uint32_t u, int how, uint8_t why)
{
    if (!d->explain) return;
    d->explain->sel_why[u] = how == KEEP_FRAGMENT ? WN_WHY_FRAGMENT_KEPT : how == KEEP_CELL ? WN_WHY_TABLE_CELL : why;
}


/* Whether inline element i of unit u is a line of its own: no text
 * between it and a line break (<br>, a block, the unit's edge) before and
 * after it, as a <font><b>Headline</b></font><br> is; a <b> or <code> in
 * running text is not. */
static int own_line(const winnow_doc *d, uint32_t i, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t j = i; j-- > u + 1;) {
        const wn_node *x = &dom->nodes[j];
        if (j + x->size > i) continue; /* an ancestor of i */
        if (x->tag == WN_TAG_TEXT) {
            if (d->stats[j].chars) return 0;
        } else if (x->tag == WN_TAG_BR || d->labels.unit[j] == j) {
            break;
        }
    }
    const uint32_t end = u + dom->nodes[u].size;
    for (uint32_t j = i + dom->nodes[i].size; j < end; j++) {
        const wn_node *x = &dom->nodes[j];
        if (x->tag == WN_TAG_TEXT) {
            if (d->stats[j].chars) return 0;
        } else if (x->tag == WN_TAG_BR || d->labels.unit[j] == j) {
            break;
        }
    }
    return 1;
}

/* Whether all the words of element i are the site's: its URL's host
 * ("www.example.com") or its declared name. */
static int site_name_like(const winnow_doc *d, uint32_t i)
{
    uint64_t site[32], w[16];
    size_t ns = 0;
    const char *url = d->meta.field[WINNOW_META_URL];
    if (!url || !*url) url = d->src_url;
    if (url) {
        const char *h = strstr(url, "://");
        h = h ? h + 3 : url;
        size_t hl = strcspn(h, "/?#:");
        ns += wn_words_of(h, hl, site, 16);
    }
    const char *name = d->meta.field[WINNOW_META_SITE_NAME];
    if (name) ns += wn_words_of(name, strlen(name), site + ns, 32 - ns);
    const wn_stats *s = &d->stats[i];
    size_t nw = wn_words_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, w, 16);
    return ns && nw && wn_words_shared(w, nw, site, ns) == nw;
}

/* Whether element i (outside the content block c) sits in a photo's
 * caption, a byline or a boilerplate box: a figure, a caption, a name
 * saying so, or a small box with an image, below the nearest ancestor
 * holding the block. */
static int near_headline_aside(const winnow_doc *d, uint32_t i, uint32_t c)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t a = i; a != WN_NONE && !wn_node_within(dom, a, c); a = dom->nodes[a].parent) {
        unsigned t = dom->nodes[a].tag;
        const wn_stats *s = &d->stats[a];
        if (t == WN_TAG_FIGURE || t == WN_TAG_FIGCAPTION || t == WN_TAG_A) return 1;
        if (s->hints & (WN_HINT_META | WN_HINT_BOILER)) return 1;
        if (s->images && s->chars < 400) return 1;
        if (s->link_chars * 2 > s->chars) return 1; /* a box of links: a navigation bar's label */
    }
    return 0;
}

typedef struct lead_words {
    uint64_t stem[256];
    size_t n;
} lead_words;

/* The stems of the content block's first lines (about 250 words). */
static void lead_of(const winnow_doc *d, uint32_t container, lead_words *lw)
{
    const wn_stats *s = &d->stats[container];
    size_t len = s->nt_end - s->nt_begin;
    if (len > 1500) len = 1500;
    lw->n = wn_stems_of(d->page_text.text + s->nt_begin, len, lw->stem, 256);
}

/* How far element i reads as the headline of the lead: 0 not, 1 when it
 * shares NEAR_HEADLINE_SHARED word stems, and a third of its own, with
 * it, 2 when it shares one more and two thirds of its own. */
static int shares_lead(const winnow_doc *d, uint32_t i, const lead_words *lw)
{
    const wn_stats *s = &d->stats[i];
    uint64_t cand[32];
    size_t nc = wn_stems_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, cand, 32);
    size_t shared = wn_words_shared(cand, nc, lw->stem, lw->n);
    const float need = WN_RULE(d, NEAR_HEADLINE_SHARED);
    if (!nc || (float)shared < need || shared * 3 < nc) return 0;
    return (float)shared >= need + 1.0f && shared * 3 >= 2 * nc ? 2 : 1;
}

/* Whether element i is marked as a headline: a heading, a name saying
 * headline or title, or all its text in one bold, strong or <font>
 * element (the headline of a page laid out in tables) or in one with such
 * a name. */
static int headline_markup(const winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    const uint32_t chars = d->stats[i].chars;
    for (uint32_t j = i; j < i + dom->nodes[i].size; j++) {
        const wn_node *x = &dom->nodes[j];
        if (x->tag == WN_TAG_TEXT || d->stats[j].chars != chars) continue;
        if (wn_tag_has(x->tag, WN_TF_HEADING) || (d->stats[j].hints & WN_HINT_TITLE)) return 1;
        if (x->tag == WN_TAG_B || x->tag == WN_TAG_STRONG || x->tag == WN_TAG_FONT) return 1;
    }
    return 0;
}

/* Whether the content block's text opens with element i's. */
static int block_opens_with(const winnow_doc *d, uint32_t container, uint32_t i)
{
    const wn_stats *c = &d->stats[container], *s = &d->stats[i];
    const char *t = d->page_text.text;
    size_t n = s->nt_end - s->nt_begin, b = s->nt_begin;
    while (n && t[b] == ' ') { b++; n--; }
    while (n && t[b + n - 1] == ' ') n--;
    size_t cb = c->nt_begin;
    while (cb < c->nt_end && t[cb] == ' ') cb++;
    return n && c->nt_end - cb >= n && memcmp(t + cb, t + b, n) == 0;
}

/* A headline the <title> does not name (the title is the site's name, a
 * section's, or missing): the nearest line before the content block, among
 * the last NEAR_HEADLINE_LINES lines there (a date, a byline, a share bar
 * or a sidebar's links may come between), that looks like a headline (a
 * few words, not a link, not a sentence closed by a stop, not a caption
 * nor a breadcrumb) that shares NEAR_HEADLINE_SHARED word stems, and a
 * third of its own, with the block's first lines (a headline's words come
 * back in its story's lead, a section's or the site's name do not) and is
 * marked as a headline, or is made of the lead's words nearly all. Not
 * used when the block opens with a heading of its own; none when running
 * text lies just above the line (a section's heading in a longer text). */
static uint32_t near_headline(const winnow_doc *d, uint32_t container, const lead_words *lw)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const float lines_max = WN_RULE(d, NEAR_HEADLINE_LINES);
    if (lines_max <= 0.0f || lw->n == 0) return WN_NONE;
    const uint32_t end = container + dom->nodes[container].size;
    /* the block's first line: a heading there is the headline, inside */
    for (uint32_t i = container; i < end; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || d->labels.unit[i] != i || st[i].chars == 0) continue;
        if (wn_tag_has(x->tag, WN_TF_HEADING) || (st[i].hints & WN_HINT_TITLE)) return WN_NONE;
        if (i != container) break; /* the block is a unit of its own when nothing inside is */
    }
    const char *text = d->page_text.text;
    int lines = 0;
    for (uint32_t i = container; i-- > 1 && (float)lines < lines_max;) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (i + x->size > container) continue; /* an ancestor of the block */
        const wn_stats *s = &st[i];
        if (s->chars == 0) continue;
        uint32_t u = d->labels.unit[i];
        if (u != i) {
            /* an inline line of its own (<b>Headline</b><br>) */
            if (u == WN_NONE || st[u].chars == s->chars || !own_line(d, i, u)) continue;
        } else {
            lines++;
        }
        if (s->link_chars * 2 > s->chars || s->chars < 10 || s->chars > 200) continue;
        /* not a sentence closed by a stop (a caption, a standfirst) nor a
         * label closed by a colon */
        const char *t = text + s->nt_begin;
        size_t n = s->nt_end - s->nt_begin;
        while (n && t[0] == ' ') { t++; n--; }
        while (n && t[n - 1] == ' ') n--;
        if (!n || t[n - 1] == '.' || t[n - 1] == ':' || t[0] == '(' || t[0] == '[') continue;
        /* nor a breadcrumb trail (Home > News > the story) */
        if (memchr(t, '>', n) || memmem(t, n, "\xC2\xBB", 2)) continue;
        uint64_t words[32];
        size_t nw = wn_words_of(t, n, words, 32);
        if (nw < 2 || nw > 25) continue;
        /* marked as a headline, or made of the lead's own words */
        int shared = shares_lead(d, i, lw);
        if (shared == 0 || (shared == 1 && !headline_markup(d, i))) continue;
        if (block_opens_with(d, container, i)) return WN_NONE;
        if (near_headline_aside(d, i, container) || site_name_like(d, i)) continue;
        /* a section's heading inside a longer text (a manual, a report)
         * has that text's running text just above it: no headline */
        int looked = 0;
        float above = 0.0f;
        for (uint32_t j = i; j-- > 1 && looked < 6;) {
            const wn_node *y = &dom->nodes[j];
            if (y->tag == WN_TAG_TEXT || d->labels.unit[j] != j || (y->flags & WN_NF_HIDDEN) || j + y->size > i) continue;
            if (st[j].chars == 0) continue;
            looked++;
            if (st[j].link_chars * 2 <= st[j].chars && d->labels.value[j] > 0.0f) above += d->labels.value[j];
        }
        if (above >= WN_RULE(d, STANDFIRST_MIN_VALUE)) return WN_NONE;
        return i;
    }
    return WN_NONE;
}

/* Whether node i lies in a <nav> (role=navigation) or the page's own
 * <header> (role=banner), not an <article>'s or <main>'s. */
static int in_site_bar(const winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t a = i; a != WN_NONE && a != 0; a = dom->nodes[a].parent) {
        const wn_node *x = &dom->nodes[a];
        if (x->tag == WN_TAG_ARTICLE || x->tag == WN_TAG_MAIN) return 0;
        if (x->tag == WN_TAG_NAV || x->tag == WN_TAG_HEADER) return 1;
        if (x->attr_count) {
            const char *role = wn_node_attr(dom, x, "role", NULL);
            if (role && (!strcasecmp(role, "navigation") || !strcasecmp(role, "banner"))) return 1;
        }
    }
    return 0;
}

/* Whether unit i, though its words are the title's, is no headline: a
 * photo's caption (in a <figcaption> or <figure>: a recipe's picture
 * captioned with its name) or a byline ("by Mary Pope Osborne": a book's
 * <title> names its authors). */
static int headline_unfit(const winnow_doc *d, uint32_t i)
{
    if (WN_RULE(d, HEADLINE_NOT_CAPTION) <= 0.0f) return 0;
    const wn_dom *dom = &d->dom;
    uint32_t a = i;
    for (int up = 0; up < 4 && a != WN_NONE && a != 0; up++, a = dom->nodes[a].parent)
        if (dom->nodes[a].tag == WN_TAG_FIGCAPTION || dom->nodes[a].tag == WN_TAG_FIGURE) return 1;
    const wn_stats *s = &d->stats[i];
    return byline_like(d, d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
}

/* The page's headline: the nearest text before the content block whose
 * words are the document title's (<title> usually adds the site's name,
 * so the unit's words must be in the title, not the reverse); failing
 * that, the last <h1> before the block. */
uint32_t wn_find_headline(const winnow_doc *d, uint32_t container)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint64_t title[64];
    wn_title tt;
    if (wn_title_init(d, title, &tt)) {
        /* the first units inside the block first (a headline the site
         * model took for template because other pages link to it), then
         * backwards from the block */
        uint32_t end = container + dom->nodes[container].size;
        int inside = 0, scanned = 0;
        float text = 0.0f; /* kept running text passed */
        for (uint32_t i = container; i < end && inside < 8 && scanned < 400; i++) {
            const wn_node *x = &dom->nodes[i];
            if (x->tag == WN_TAG_TEXT || d->labels.unit[i] != i || st[i].chars == 0) continue;
            /* only kept units use up the budget: a wrapper's navigation
             * or share links may come before the headline */
            scanned++;
            if (wn_title_like(d, i, &tt) && !headline_unfit(d, i)) {
                /* under the story's first paragraphs a heading that
                 * repeats the title is a section's ("How to make it")
                 * when an <h1> before the block is the headline */
                if (text < WN_RULE(d, HEADLINE_INSIDE_TEXT)) return i;
                for (uint32_t j = 1; j < container; j++)
                    if (dom->nodes[j].tag == WN_TAG_H1 && j + dom->nodes[j].size <= container &&
                        !(dom->nodes[j].flags & WN_NF_HIDDEN) && d->labels.unit[j] == j && wn_title_like(d, j, &tt) &&
                        !site_name_like(d, j))
                        return j;
                return i;
            }
            if (d->labels.keep[i]) {
                inside++;
                if (d->labels.value[i] > 0.0f) text += (float)(st[i].chars - st[i].link_chars);
            }
        }
        int looked = 0;
        uint32_t inline_h = WN_NONE;
        for (uint32_t i = container; i-- > 1 && looked < 60;) {
            const wn_node *x = &dom->nodes[i];
            if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
            if (i + x->size > container) continue; /* an ancestor of the content block */
            const wn_stats *s = &st[i];
            if (s->chars == 0) continue;
            uint32_t u = d->labels.unit[i];
            if (u != i) {
                /* an inline headline (<font><b>Headline</b></font><br>)
                 * in a unit that holds more: the unit around the content
                 * block, or a line of headline, byline and date; the
                 * nearest, taken when no unit is the headline */
                if (inline_h != WN_NONE || x->tag == WN_TAG_A || s->link_chars * 2 > s->chars) continue;
                if (u != WN_NONE && st[u].chars == s->chars) continue; /* the unit itself is tested */
                /* next to the block: a byline, a date or an empty ad box
                 * between them, not a section's or the site's name above
                 * the page's columns */
                if ((float)(st[container].nt_begin - s->nt_end) > WN_RULE(d, INLINE_HEADLINE_GAP)) continue;
                if (u != WN_NONE && own_line(d, i, u) && wn_title_like(d, i, &tt) && !site_name_like(d, i)) inline_h = i;
                continue;
            }
            looked++;
            /* a box of links in the site's navigation or header (its
             * name linking its home page) is no headline */
            if (s->link_chars * 2 > s->chars && WN_RULE(d, HEADLINE_LINK_BOX) > 0.0f && in_site_bar(d, i) &&
                !wn_self_linked(d, i, 1))
                continue;
            if (wn_title_like(d, i, &tt) && !headline_unfit(d, i)) return i;
        }
        if (inline_h != WN_NONE) return inline_h;
    }
    uint32_t best = WN_NONE;
    for (uint32_t i = 1; i < container; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag != WN_TAG_H1 || (x->flags & WN_NF_HIDDEN)) continue;
        if (i + x->size > container) continue; /* an ancestor of the container */
        const wn_stats *s = &st[i];
        if (s->chars < 10 || s->chars > 400 || (s->link_chars * 2 > s->chars && !wn_self_linked(d, i, 1))) continue;
        best = i;
    }
    /* the last <h1> when it reads as the block's headline, else a line
     * just before the block that does, else that <h1> all the same */
    lead_words lw;
    lead_of(d, container, &lw);
    if (best != WN_NONE && shares_lead(d, best, &lw)) return best;
    uint32_t near = near_headline(d, container, &lw);
    if (near == WN_NONE || best == WN_NONE || near < best) return best != WN_NONE ? best : near;
    /* running text between that <h1> and the line: the <h1> heads an
     * article the block is a part of (or misses), the line is a section's */
    float between = 0.0f;
    for (uint32_t j = best + dom->nodes[best].size; j < near; j++) {
        if (d->labels.unit[j] != j || dom->nodes[j].tag == WN_TAG_TEXT || (dom->nodes[j].flags & WN_NF_HIDDEN)) continue;
        if (st[j].link_chars * 2 <= st[j].chars && d->labels.value[j] > 0.0f) between += d->labels.value[j];
    }
    return between >= WN_RULE(d, STANDFIRST_MIN_VALUE) ? best : near;
}

/* Title anchoring: the article is the running text under the page's
 * headline (the <h1>-<h3> whose words are the <title>'s). Its region is
 * the largest element around the headline that holds no other headline of
 * the same rank (a heading of that tag with several words): the next
 * article of an endless page, a teaser list or a bio stays outside.
 * Returns WN_NONE when the page has no such headline. */
static uint32_t anchor_region(const winnow_doc *d, const wn_page_scores *ps, uint32_t *peers_out, uint32_t *npeers_out)
{
    const wn_dom *dom = &d->dom;
    *npeers_out = 0;
    uint32_t h = ps->title_heading;
    if (h == WN_NONE) return WN_NONE;
    /* headlines of the same rank elsewhere, in document order */
    unsigned tag = dom->nodes[h].tag;
    uint32_t np = 0;
    const float min_words = WN_RULE(d, ANCHOR_PEER_MIN_WORDS);
    uint64_t hw[64];
    size_t hn = wn_words_of(d->page_text.text + d->stats[h].nt_begin, d->stats[h].nt_end - d->stats[h].nt_begin, hw, 64);
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag != tag || i == h || (x->flags & WN_NF_HIDDEN) || (float)d->stats[i].words < min_words) continue;
        /* a reply's "Re: <headline>" in a thread is the same story */
        if (hn >= 2) {
            uint64_t pw[64];
            size_t pn = wn_words_of(d->page_text.text + d->stats[i].nt_begin, d->stats[i].nt_end - d->stats[i].nt_begin, pw, 64);
            if ((float)wn_words_shared(hw, hn, pw, pn) >= WN_RULE(d, TITLE_WORD_SHARE) * (float)hn) continue;
        }
        peers_out[np++] = i;
    }
    *npeers_out = np;
    uint32_t a = h, next = 0; /* next: first peer at or after a's start */
    for (;;) {
        uint32_t p = dom->nodes[a].parent;
        if (p == WN_NONE || p == 0) break;
        uint32_t end = p + dom->nodes[p].size;
        while (next < np && peers_out[next] < p) next++;
        if (next < np && peers_out[next] < end) break; /* p holds another headline */
        a = p;
    }
    return a;
}

static int holds_peer(const wn_dom *dom, uint32_t c, const uint32_t *peers, uint32_t np)
{
    for (uint32_t k = 0; k < np; k++)
        if (wn_node_within(dom, c, peers[k])) return 1;
    return 0;
}

/* Two elements of one shape: the same tag and the same class list. */
static int same_shape(const wn_dom *dom, uint32_t a, uint32_t b)
{
    const wn_node *x = &dom->nodes[a], *y = &dom->nodes[b];
    if (x->tag != y->tag || x->tag == WN_TAG_TEXT) return 0;
    size_t la = 0, lb = 0;
    const char *ca = wn_node_attr(dom, x, "class", &la), *cb = wn_node_attr(dom, y, "class", &lb);
    if (!ca || !cb) return !ca && !cb;
    return la == lb && memcmp(ca, cb, la) == 0;
}

/* Keep the units of subtree r (explaining: running text for reason why). */
static void keep_subtree(winnow_doc *d, const wn_page_scores *ps, uint32_t r, uint8_t why)
{
    const wn_node *c = &d->dom.nodes[r];
    for (uint32_t i = r; i < r + c->size; i++) {
        if (d->explain) d->explain->in_block[i] = 1;
        int how;
        if (d->labels.unit[i] == i && (how = unit_keepable(d, ps, i))) {
            d->labels.keep[i] = 1;
            explain_keep(d, i, how, why);
        }
    }
}

/* Title anchoring's limit on joins: a sibling outside the headline's
 * article that holds another article's headline does not join. */
typedef struct join_guard {
    uint32_t anchor;
    const uint32_t *peers;
    uint32_t npeers;
} join_guard;

/* Siblings of self scoring at least min (and with shape, of self's tag
 * and class) join the content: their units are kept. Returns how many. */
static int join_siblings(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t self, float min,
                         int shape, const join_guard *g, uint8_t why)
{
    const wn_dom *dom = &d->dom;
    uint32_t parent = dom->nodes[self].parent;
    if (parent == WN_NONE || parent == 0 || (dom->nodes[parent].flags & WN_NF_HIDDEN)) return 0;
    int joined = 0;
    for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (c == self || dom->nodes[c].tag == WN_TAG_TEXT || (shape && !same_shape(dom, c, self))) continue;
        if (g->anchor != WN_NONE && !wn_node_within(dom, c, g->anchor) && holds_peer(dom, c, g->peers, g->npeers))
            continue;
        if (score[c] >= min && !ps->boiler[c]) { keep_subtree(d, ps, c, why); joined++; }
    }
    return joined;
}

/* Site mode: long paragraphs outside the content block that no other page
 * of the site has (a video's caption, a note beside the article) are
 * content too, unless they sit among links (teaser lists). Values are in
 * characters of plain text, after the x1.5 a unique unit gets: 300 is about
 * 200 characters of running text. */

static void keep_lone_paragraphs(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    int added = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (lb->unit[i] != i || lb->keep[i] || !lb->unique[i] || ps->boiler[i] || lb->value[i] < WN_RULE(d, LONE_MIN_VALUE))
            continue;
        uint32_t p = dom->nodes[i].parent;
        if (p == WN_NONE || (float)d->stats[p].link_chars >= WN_RULE(d, LONE_MAX_LINK_DENSITY) * (float)d->stats[p].chars) continue;
        lb->keep[i] = 1;
        explain_keep(d, i, KEEP_RUNNING, WN_WHY_LONE);
        added = 1;
    }
    /* the walk then covers the whole body, keeping only what is marked;
     * the headline, already marked, comes out in its place */
    if (added) {
        lb->container = dom->body;
        lb->headline = WN_NONE;
    }
}

/* Between a headline found outside the content block and the block itself:
 * running text there (a standfirst, a summary, a video's description) is
 * the article's, unless it sits among links or is a photo's caption. 100 is
 * about 20 words of plain text (letters, not spaces). */

static void keep_standfirst(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t h = lb->headline, c = lb->container;
    int added = 0;
    for (uint32_t i = h + dom->nodes[h].size; i < c; i++) {
        if (lb->unit[i] != i || lb->keep[i] || ps->boiler[i] || lb->value[i] < WN_RULE(d, STANDFIRST_MIN_VALUE)) continue;
        if (i + dom->nodes[i].size > c) continue; /* an ancestor of the container */
        /* a caption: text in a box with an image, or in a figure; unless
         * the box is a video player's fallback (<object>), whose text
         * describes the video shown in its place */
        int caption = 0, player = 0;
        for (uint32_t a = i; a != WN_NONE && !wn_node_within(dom, a, c); a = dom->nodes[a].parent) {
            unsigned t = dom->nodes[a].tag;
            caption |= t == WN_TAG_FIGURE || t == WN_TAG_FIGCAPTION || d->stats[a].images || (d->stats[a].hints & WN_HINT_META);
            player |= t == WN_TAG_OBJECT;
        }
        if (caption && !player) continue;
        uint32_t p = dom->nodes[i].parent;
        if (p == WN_NONE || (float)d->stats[p].link_chars >= WN_RULE(d, LONE_MAX_LINK_DENSITY) * (float)d->stats[p].chars) continue;
        lb->keep[i] = 1;
        explain_keep(d, i, KEEP_RUNNING, WN_WHY_STANDFIRST);
        added = 1;
    }
    if (!added) return;
    /* the walk covers the ancestor holding both, keeping only what is
     * marked; the headline comes out in its place */
    uint32_t a = c;
    while (a != WN_NONE && !wn_node_within(dom, a, h)) a = dom->nodes[a].parent;
    if (a == WN_NONE) a = dom->body;
    lb->container = a;
    lb->headline = WN_NONE;
}

/* Whether href points to a profile on a social network: a "follow us"
 * or "follow the author" plug; a link to one post (a tweet the story
 * quotes), a hashtag, a search or a group is not. (Mail addresses are not
 * plugs here: a contact page's or a report's last lines are its text.) */
static int plug_href(const char *h, size_t n)
{
    static const char *const hosts[] = {"twitter.com/", "x.com/", "facebook.com/", "instagram.com/", "linkedin.com/",
                                        "pinterest.", "youtube.com/", "t.me/", "xing.com/", "tiktok.com/",
                                        "threads.net/", "mastodon.", "whatsapp.com/", "wa.me/"};
    static const char *const posts[] = {"/status", "/posts/", "/p/", "/watch", "/videos/", "/photo", "/reel",
                                        "/hashtag", "search", "/groups/", "/group/", "/events/"};
    char b[256];
    if (n >= sizeof b) n = sizeof b - 1;
    for (size_t i = 0; i < n; i++) b[i] = (char)tolower((unsigned char)h[i]);
    b[n] = 0;
    const char *p = strstr(b, "://");
    if (!p) return 0;
    p += 3;
    if (!strncmp(p, "www.", 4)) p += 4;
    int social = 0;
    for (size_t k = 0; k < sizeof hosts / sizeof *hosts && !social; k++) social = !strncmp(p, hosts[k], strlen(hosts[k]));
    if (!social) return 0;
    for (size_t k = 0; k < sizeof posts / sizeof *posts; k++)
        if (strstr(p, posts[k])) return 0;
    return 1;
}

/* End plugs: the last lines kept in the content block that send readers
 * to the author's or the site's social network profiles: at most
 * END_PLUG_MAX_CHARS characters each, END_PLUG_LINK_SHARE of them in
 * links to such profiles, at the very end of the block's kept text (up to
 * three of them, the last first). A story's own paragraph linking a quoted
 * post is not one; a plug inside the text is left alone. Works in any
 * language: the links say it. */
static void drop_end_plugs(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const float max_chars = WN_RULE(d, END_PLUG_MAX_CHARS);
    if (max_chars <= 0.0f || block == WN_NONE) return;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t end = block + dom->nodes[block].size;
    int dropped = 0;
    uint32_t i = end;
    while (i-- > block && dropped < 3) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || lb->unit[i] != i || !lb->keep[i] || ps->own[i].chars == 0) continue;
        if ((float)ps->own[i].chars > max_chars) return;
        /* a link of the unit's own (not of a unit inside it) to a profile */
        uint32_t plug = 0;
        for (uint32_t j = i + 1; j < i + x->size; j++) {
            const wn_node *a = &dom->nodes[j];
            if (a->tag != WN_TAG_A || lb->unit[j] != i) continue;
            size_t hl = 0;
            const char *h = wn_node_attr(dom, a, "href", &hl);
            if (h && plug_href(h, hl)) plug += d->stats[j].chars;
        }
        /* the plug's links are a fair part of the line: an author's
         * initials linked to a mail address under a paragraph are not */
        if ((float)plug < WN_RULE(d, END_PLUG_LINK_SHARE) * (float)ps->own[i].chars) return;
        lb->keep[i] = 0;
        if (d->explain) d->explain->sel_why[i] = WN_WHY_END_PLUG;
        dropped++;
    }
}

/* Whether case-folded line t[0..n) is a date: it has a number and a
 * date or time, does not end as a sentence does, and has at most
 * DATELINE_OTHER_WORDS words of four or more bytes that are neither
 * ("Published", "Last updated", a byline's name and title). */
/* The length of t[0..n) without the spaces it ends with. */
static size_t trimmed_end(const char *t, size_t n)
{
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\n')) n--;
    return n;
}

/* Whether the line t[0..n) ends as a sentence does: a stop (". ! ?",
 * CJK's full stops), maybe inside closing quotes or brackets; a ticker
 * line "CPI +0.5% On Month" or a label "References:" does not. */
static int ends_sentence(const char *t, size_t n)
{
    while (n) {
        unsigned char c = (unsigned char)t[n - 1];
        if (c == ' ' || c == '\n' || c == '"' || c == '\'' || c == ')' || c == ']') { n--; continue; }
        /* closing curly quotes U+201D, U+2019 and the guillemet U+00BB */
        if (n >= 3 && (unsigned char)t[n - 3] == 0xE2 && (unsigned char)t[n - 2] == 0x80 && (c == 0x9D || c == 0x99)) { n -= 3; continue; }
        if (n >= 2 && (unsigned char)t[n - 2] == 0xC2 && c == 0xBB) { n -= 2; continue; }
        break;
    }
    if (!n) return 0;
    unsigned char c = (unsigned char)t[n - 1];
    if (c == '.' || c == '!' || c == '?') return 1;
    /* U+3002, U+FF01, U+FF1F */
    return n >= 3 && (((unsigned char)t[n - 3] == 0xE3 && (unsigned char)t[n - 2] == 0x80 && c == 0x82) ||
                      ((unsigned char)t[n - 3] == 0xEF && (unsigned char)t[n - 2] == 0xBC && (c == 0x81 || c == 0x9F)));
}

static int dateline_like(const winnow_doc *d, const char *t, size_t n)
{
    int digit = 0, other = 0;
    /* a sentence ends with a stop; a date line does not */
    if (ends_sentence(t, trimmed_end(t, n))) return 0;
    for (size_t k = 0; k < n && !digit; k++) digit = t[k] >= '0' && t[k] <= '9';
    if (!digit || !wn_has_date(t, n)) return 0;
    for (size_t i = 0; i < n;) {
        while (i < n && !(isalnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80)) i++;
        size_t b = i;
        int num = 0;
        while (i < n && (isalnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80)) num |= isdigit((unsigned char)t[i++]);
        if (i - b >= 4 && !num && !wn_has_date(t + b, i - b)) other++;
    }
    return (float)other <= WN_RULE(d, DATELINE_OTHER_WORDS);
}

/* Whether case-folded line t[0..n) is a byline: a byline word ("by",
 * "von", "par", "por", "di", "door", "av", "af", "przez") and a name of at
 * most BYLINE_MAX_WORDS words, not a sentence. */
static int byline_like(const winnow_doc *d, const char *t, size_t n)
{
    static const char *const by[] = {"by ", "von ", "par ", "por ", "di ", "door ", "av ", "af ", "przez ", "text: ",
                                     "texto: ", "autor: ", "author: ", "written by "};
    while (n && (*t == ' ' || *t == '-' || *t == '\n')) { t++; n--; }
    size_t e = trimmed_end(t, n);
    if (!e || ends_sentence(t, e) || t[e - 1] == ':') return 0;
    int opens = 0;
    for (size_t k = 0; k < sizeof by / sizeof by[0] && !opens; k++) {
        size_t m = strlen(by[k]);
        opens = m < e && memcmp(t, by[k], m) == 0;
    }
    if (!opens) return 0;
    int words = 0;
    for (size_t i = 0; i < e;) {
        while (i < e && t[i] == ' ') i++;
        if (i < e) words++;
        while (i < e && t[i] != ' ') i++;
    }
    return (float)words <= WN_RULE(d, BYLINE_MAX_WORDS) + 1.0f;
}

/* Datelines: short lines that only say when ("March 12, 2009", "Published
 * 10:02 AM EST Nov 19, 2019", often with the byline) among the first
 * DATELINE_TOP_LINES lines of the content block, before its first
 * sentence; at most DATELINE_MAX_LINES of them. */
/* Whether t[0..n) is a column of line numbers: 1, 2, ... N (N >= 2), each
 * on a line of its own. */
static int line_numbers(const char *t, size_t n)
{
    unsigned expect = 1;
    size_t i = 0;
    while (i < n) {
        while (i < n && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r')) i++;
        if (i == n) break;
        unsigned v = 0;
        size_t b = i;
        while (i < n && t[i] >= '0' && t[i] <= '9' && i - b < 6) v = v * 10 + (unsigned)(t[i++] - '0');
        if (i == b || v != expect) return 0;
        if (i < n && !(t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r')) return 0;
        expect++;
    }
    return expect > 2;
}

/* A code highlighter's gutter: a table cell of line numbers beside a cell
 * of code, its row's other cell. Its numbers are no text of the page
 * (LINE_GUTTER). */
static void drop_line_gutters(winnow_doc *d, uint32_t block)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    if (WN_RULE(d, LINE_GUTTER) <= 0.0f) return;
    for (uint32_t u = block; u < block + dom->nodes[block].size; u++) {
        if (lb->unit[u] != u || !lb->keep[u] || dom->nodes[u].tag == WN_TAG_TEXT) continue;
        const wn_stats *s = &d->stats[u];
        if (s->chars < 2 || s->words == 0) continue;
        /* the cell holding the unit (the unit, or up to two levels up) */
        uint32_t cell = u;
        for (int up = 0; up < 3 && cell != WN_NONE && dom->nodes[cell].tag != WN_TAG_TD; up++) cell = dom->nodes[cell].parent;
        if (cell == WN_NONE || dom->nodes[cell].tag != WN_TAG_TD || d->stats[cell].chars != s->chars) continue;
        if (!line_numbers(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin)) continue;
        int beside_code = 0;
        for (uint32_t c = dom->nodes[dom->nodes[cell].parent].first_child; c != WN_NONE && !beside_code; c = dom->nodes[c].next_sibling)
            beside_code = c != cell && dom->nodes[c].tag == WN_TAG_TD && code_block(d, c);
        if (!beside_code) continue;
        lb->keep[u] = 0;
        if (d->explain) d->explain->sel_why[u] = WN_WHY_LINE_GUTTER;
    }
}

/* A label over a list left out ("TODAY'S HOT TOPICS", "More from
 * Newsweek", "Các bài cùng chủ đề ..."): a short kept unit without a stop
 * and not itself links, whose next element with text (its own, or its
 * wrapper's) is a list of links of which nothing was kept, goes with the
 * list (LIST_LABEL_MAX_CHARS). */
static void drop_list_labels(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const float max = WN_RULE(d, LIST_LABEL_MAX_CHARS);
    if (max <= 0.0f) return;
    const uint32_t end = block + dom->nodes[block].size;
    for (uint32_t u = block + 1; u < end; u++) {
        if (lb->unit[u] != u || !lb->keep[u] || dom->nodes[u].tag == WN_TAG_TEXT) continue;
        const wn_unit_stats *o = &ps->own[u];
        if (o->chars == 0 || (float)o->chars > max || o->stops || 2 * o->link_chars > o->chars) continue;
        if (d->stats[u].chars != o->chars) continue; /* a label holds no other unit */
        if ((float)o->words > WN_RULE(d, END_LIST_LABEL_WORDS)) continue; /* a few words: a label, not an item */
        /* a heading names its section, a cell its row: they stay */
        unsigned tag = dom->nodes[u].tag;
        if (wn_tag_has(tag, WN_TF_HEADING) || tag == WN_TAG_TD || tag == WN_TAG_TH) continue;
        /* the next element with text after it, or after its wrapper */
        uint32_t at = u, next = WN_NONE;
        for (int up = 0; up < 3 && next == WN_NONE && at != WN_NONE && at != block; up++) {
            for (uint32_t c = dom->nodes[at].next_sibling; c != WN_NONE; c = dom->nodes[c].next_sibling)
                if (d->stats[c].chars) { next = c; break; }
            if (next == WN_NONE) {
                uint32_t p = dom->nodes[at].parent;
                if (p == WN_NONE || d->stats[p].chars != d->stats[at].chars) break;
                at = p;
            }
        }
        /* a list: a block of two or more links, no picture or player (a
         * "Watch:" line over a video stays) */
        if (next == WN_NONE || !wn_tag_has(dom->nodes[next].tag, WN_TF_BREAK)) continue;
        if (2 * d->stats[next].link_chars <= d->stats[next].chars || d->stats[next].images)
            continue;
        int media = 0;
        for (uint32_t i = next; i < next + dom->nodes[next].size && !media; i++) media = (dom->nodes[i].flags & WN_NF_MEDIA) != 0;
        if (media) continue;
        int kept = 0;
        for (uint32_t i = next; i < next + dom->nodes[next].size && !kept; i++) kept = lb->unit[i] == i && lb->keep[i];
        if (kept) continue;
        lb->keep[u] = 0;
        if (d->explain) d->explain->sel_why[u] = WN_WHY_LIST_LABEL;
    }
}

static void drop_lead_datelines(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const float max_chars = WN_RULE(d, DATELINE_MAX_CHARS);
    if (max_chars <= 0.0f || block == WN_NONE) return;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t end = block + dom->nodes[block].size;
    /* the top of the block: its first few lines, of which one or two say
     * when (a list of dated items further down is the text) */
    int lines = 0, dropped = 0;
    for (uint32_t i = block; i < end && (float)lines < WN_RULE(d, DATELINE_TOP_LINES) &&
                             (float)dropped < WN_RULE(d, DATELINE_MAX_LINES);
         i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || lb->unit[i] != i || !lb->keep[i] || ps->own[i].chars == 0) continue;
        if (i == lb->headline || (lb->headline_inline != WN_NONE && wn_node_within(dom, i, lb->headline_inline)))
            continue;
        const wn_unit_stats *o = &ps->own[i];
        if ((float)o->chars > max_chars) return; /* the running text has begun */
        lines++;
        const wn_stats *s = &d->stats[i];
        const char *t = d->page_text.text + s->nt_begin;
        size_t n = s->nt_end - s->nt_begin;
        /* its text with the lines inside it (a byline over its date) when
         * they are short; else its own text alone (loose date spans at the
         * top of the story's element) */
        char own[256];
        if ((float)s->chars > 2.0f * max_chars) {
            n = 0;
            for (uint32_t j = i + 1; j < i + x->size; j++) {
                if (dom->nodes[j].tag != WN_TAG_TEXT || lb->unit[j] != i) continue;
                const wn_stats *q = &d->stats[j];
                size_t m = q->nt_end - q->nt_begin;
                if (n + m + 1 > sizeof own) break;
                memcpy(own + n, d->page_text.text + q->nt_begin, m);
                n += m;
                own[n++] = ' ';
            }
            t = own;
        }
        /* not a heading, a table's cell (a data table's dates are its
         * data) or code (an address and a port are no date), and all but a
         * few of its words a date's */
        if (!wn_tag_has(x->tag, WN_TF_HEADING) && x->tag != WN_TAG_TD && x->tag != WN_TAG_TH &&
            !(x->flags & WN_NF_PRE) && x->tag != WN_TAG_PRE && (dateline_like(d, t, n) || byline_like(d, t, n))) {
            lb->keep[i] = 0;
            dropped++;
            if (d->explain) d->explain->sel_why[i] = WN_WHY_DATELINE;
        } else if (lb->value[i] > 0.0f && o->stops) {
            return; /* a sentence */
        }
    }
}

/* Whether unit u links (with a link of its own) another page of this
 * site: a relative link, or one to the page's host. Citations and
 * references link other sites. */
static int site_link(winnow_doc *d, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t j = u + 1; j < u + dom->nodes[u].size; j++) {
        const wn_node *a = &dom->nodes[j];
        if (a->tag != WN_TAG_A || d->labels.unit[j] != u || !d->stats[j].chars) continue;
        const char *h = wn_node_attr(dom, a, "href", NULL);
        if (!h || !h[0] || strchr(h, '#')) continue; /* a place on a page: a note's back link */
        uint64_t k = wn_url_host(h);
        if (k == 1) continue;
        if (k == 0 || k == wn_page_host(d)) return 1;
    }
    return 0;
}

/* End lists: a short label ("More stories", "Read on:") closing the
 * block's kept text, followed by END_LIST_MIN_ITEMS or more short lines
 * each linking another page of the site (END_LIST_LINK_SHARE of its
 * characters in links; references and citations link other sites): the
 * site's related-stories list set inside the article's element, dropped
 * with its label. The label is a line of its own without
 * a stop or links; lines inside the text ("See also" under a paragraph,
 * followed by more paragraphs) are left alone: only the very end counts. */
/* Whether the block keeps text before unit u: a heading that is all a
 * listing page keeps is its title, not a section of nothing. */
static int kept_before(const winnow_doc *d, const wn_page_scores *ps, uint32_t block, uint32_t u)
{
    for (uint32_t i = block; i < u; i++)
        if (d->labels.unit[i] == i && d->labels.keep[i] && ps->own[i].chars) return 1;
    return 0;
}

static void drop_end_lists(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const float min_items = WN_RULE(d, END_LIST_MIN_ITEMS);
    if (min_items <= 0.0f || block == WN_NONE) return;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t end = block + dom->nodes[block].size;
    const float max_chars = WN_RULE(d, END_LIST_MAX_CHARS), share = WN_RULE(d, END_LIST_LINK_SHARE);
    uint32_t items = 0, kept_items = 0, label = WN_NONE, first = WN_NONE;
    for (uint32_t i = end; i-- > block;) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || lb->unit[i] != i || ps->own[i].chars == 0 || (x->flags & WN_NF_HIDDEN)) continue;
        /* code with linked names (a manual's example) is no list */
        if (x->flags & WN_NF_PRE) break;
        const wn_unit_stats *o = &ps->own[i];
        /* (items the selection left out already, as link lists, count) */
        if ((float)o->chars <= max_chars && (float)o->link_chars >= share * (float)o->chars && o->link_chars &&
            site_link(d, i)) {
            items++;
            kept_items += lb->keep[i];
            first = i;
            continue;
        }
        if (!lb->keep[i]) continue;
        if (o->link_chars == 0 && o->stops == 0 && (float)o->chars <= WN_RULE(d, END_LIST_LABEL_CHARS) &&
            (float)o->words <= WN_RULE(d, END_LIST_LABEL_WORDS))
            label = i;
        break;
    }
    if (label == WN_NONE) return;
    if ((float)items < min_items) {
        /* an orphan label: "Related:" closing the text, whose list the
         * selection left out (or never had) */
        const wn_stats *s = &d->stats[label];
        const char *t = d->page_text.text + s->nt_begin;
        size_t e = trimmed_end(t, s->nt_end - s->nt_begin);
        /* or a heading closing the text: a section of nothing ("Product
         * reviews", "Comments" over a thread left out) */
        int heading = wn_tag_has(dom->nodes[label].tag, WN_TF_HEADING) && WN_RULE(d, END_HEADING_ORPHAN) > 0.0f &&
                      label != lb->headline && label != lb->headline_inline && kept_before(d, ps, block, label);
        if (WN_RULE(d, END_LABEL_ORPHAN) <= 0.0f || kept_items || !e || (t[e - 1] != ':' && !heading)) return;
        /* a label over a picture, a player, a table or code ("See the
         * video below:") introduces what it shows; a player beside it
         * counts, as the build keeps only that its parent held one */
        const uint32_t up = dom->nodes[label].parent;
        if (up != WN_NONE && (dom->nodes[up].flags & WN_NF_MEDIA)) return;
        for (uint32_t j = label + dom->nodes[label].size; j < end; j++) {
            unsigned tag = dom->nodes[j].tag;
            if ((dom->nodes[j].flags & WN_NF_MEDIA) || tag == WN_TAG_IMG || tag == WN_TAG_PICTURE ||
                tag == WN_TAG_OBJECT || tag == WN_TAG_SVG || tag == WN_TAG_TABLE || tag == WN_TAG_PRE)
                return;
        }
        lb->keep[label] = 0;
        if (d->explain) d->explain->sel_why[label] = WN_WHY_END_LABEL;
        return;
    }
    for (uint32_t i = label; i < end; i++) {
        if (lb->unit[i] != i || !lb->keep[i] || (i != label && i < first)) continue;
        lb->keep[i] = 0;
        if (d->explain) d->explain->sel_why[i] = WN_WHY_END_LIST;
    }
}

void wn_keep_headline(winnow_doc *d, uint32_t container)
{
    wn_labels *lb = &d->labels;
    lb->headline_inline = WN_NONE;
    uint32_t h = wn_find_headline(d, container);
    if (h == WN_NONE) return;
    lb->keep[h] = 1;
    if (lb->unit[h] != h) lb->headline_inline = h;
    if (d->explain) d->explain->sel_why[h] = WN_WHY_HEADLINE;
    /* outside the block it is walked on its own, first */
    if (!wn_node_within(&d->dom, container, h)) lb->headline = h;
}

/* Whether block b is a code block: a <code>, a <pre> of code (braces and
 * '=' in it: a wire story set in <pre> is none), or an element whose text
 * is all inside those (a highlighter's <div> or <figure> wrapper, its
 * table with a gutter of line numbers). */
static int code_block(const winnow_doc *d, uint32_t b)
{
    const wn_dom *dom = &d->dom;
    uint32_t code = 0, all = d->stats[b].chars;
    if (all == 0) return 0;
    for (uint32_t i = b; i < b + dom->nodes[b].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_CODE) {
            code += d->stats[i].chars;
            i += x->size - 1;
        } else if (x->tag == WN_TAG_PRE) {
            uint32_t syms = 0, inner_code = 0;
            for (uint32_t j = i + 1; j < i + x->size; j++) {
                if (dom->nodes[j].tag == WN_TAG_TEXT) syms += d->stats[j].code_syms;
                else if (dom->nodes[j].tag == WN_TAG_CODE) inner_code = 1;
            }
            if (inner_code || syms * 200 >= d->stats[i].chars) code += d->stats[i].chars;
            i += x->size - 1;
        }
    }
    /* a gutter of line numbers is at most a fifth of the block */
    return (float)code >= 0.8f * (float)all;
}

/* A code sample found as the best block: the nearest ancestor (up to four
 * levels above the sample's own wrappers, not the body, not boilerplate)
 * holding CODE_BLOCK_PROSE of running text beside it, the article around
 * the sample; else b. */
static uint32_t around_code(const winnow_doc *d, const wn_page_scores *ps, uint32_t b)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    if (WN_RULE(d, CODE_BLOCK_PROSE) <= 0.0f || !code_block(d, b)) return b;
    /* levels with no running text beside the sample (the highlighter's
     * cell, table and figure) are its wrappers and are not counted */
    uint32_t c = b;
    for (int up = 0, steps = 0; up < 4 && steps < 16; steps++) {
        uint32_t p = dom->nodes[c].parent;
        if (p == WN_NONE || p == 0 || p == dom->body || ps->boiler[p]) break;
        float beside = 0.0f;
        for (uint32_t i = p; i < p + dom->nodes[p].size; i++) {
            if (i == b) {
                i += dom->nodes[b].size - 1;
                continue;
            }
            if (lb->unit[i] == i && lb->value[i] > 0.0f && !ps->boiler[i] && !code_block(d, i)) beside += lb->value[i];
        }
        if (beside >= WN_RULE(d, CODE_BLOCK_PROSE)) return p;
        if (beside > 0.0f) up++;
        c = p;
    }
    return b;
}

/* Whether record r opens with a post's header: its first line of text is
 * short (COMMENT_LINE_CHARS) and shows a date or a time; and holds no
 * heading. */
static int post_header(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_dom *dom = &d->dom;
    /* a post has no headings (a teaser, a layout row, an article has) */
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++)
        if (wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING)) return 0;
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++) {
        if (dom->nodes[i].tag == WN_TAG_TEXT || d->labels.unit[i] != i || ps->own[i].chars == 0) continue;
        /* a header line, not the post's first paragraph */
        const wn_stats *s = &d->stats[i];
        if ((float)ps->own[i].chars > WN_RULE(d, COMMENT_LINE_CHARS)) return 0;
        return wn_has_date(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
    }
    return 0;
}

/* A thread of posts found with the best block in one of them: the record
 * (the best block or an ancestor, up to four levels) that has at least
 * THREAD_MIN_RECORDS - 1 siblings of its shape holding text, most of them
 * opening with a post's header (an author and a date), with less running
 * text before the first record than in it (posts that open the content, not
 * comments under a post). WN_NONE when none. */
static uint32_t thread_record(const winnow_doc *d, const wn_page_scores *ps, uint32_t best)
{
    const wn_dom *dom = &d->dom;
    const float min = WN_RULE(d, THREAD_MIN_RECORDS);
    if (min <= 0.0f || min > 1e6f) return WN_NONE;
    uint32_t r = best;
    for (int up = 0; up < 5 && r != WN_NONE && r != 0 && r != dom->body; up++, r = dom->nodes[r].parent) {
        uint32_t p = dom->nodes[r].parent;
        if (p == WN_NONE || ps->boiler[r]) return WN_NONE;
        /* records named alike: a class on each (bare <div>s are any
         * layout); a row's cells are its columns, no records */
        size_t cl = 0;
        unsigned tag = dom->nodes[r].tag;
        if (tag == WN_TAG_TD || tag == WN_TAG_TH || !wn_node_attr(dom, &dom->nodes[r], "class", &cl) || cl == 0) continue;
        unsigned records = 0, headed = 0, texts = 0;
        uint32_t first = WN_NONE;
        for (uint32_t c = dom->nodes[p].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (d->stats[c].chars == 0 || !same_shape(dom, c, r)) continue;
            if (first == WN_NONE) first = c;
            records++;
            headed += (unsigned)post_header(d, ps, c);
            /* a post is mostly its own words, not links */
            texts += 2 * d->stats[c].link_chars < d->stats[c].chars;
        }
        if ((float)records < min) continue;
        if ((float)headed < WN_RULE(d, COMMENT_HEADER_SHARE) * (float)records || texts < records) return WN_NONE;
        /* the running text before the first record, against the record's */
        float before = 0.0f, own = 0.0f;
        for (uint32_t i = 1; i < first + dom->nodes[first].size; i++) {
            if (d->labels.unit[i] != i || d->labels.value[i] <= 0.0f || ps->boiler[i]) continue;
            if (i < first) before += d->labels.value[i];
            else own += d->labels.value[i];
        }
        return before < own ? r : WN_NONE;
    }
    return WN_NONE;
}

/* Whether node x is a page landmark of the site's frame (1: <header>,
 * <footer>, role=banner/contentinfo) or of the content (2: <article>,
 * <main>, role=main/article); 0 otherwise. */
static int landmark_kind(const wn_dom *dom, const wn_page_scores *ps, uint32_t i)
{
    const wn_node *x = &dom->nodes[i];
    if (x->tag == WN_TAG_ARTICLE || x->tag == WN_TAG_MAIN) return 2;
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
 * tags); and the wrappers of one that hold no more text (the <div
 * class=page-footer> around a <footer>). One pass down the tree and one
 * up the wrappers. */
uint8_t *wn_frame_marks(winnow_doc *d, const wn_page_scores *ps)
{
    const wn_dom *dom = &d->dom;
    uint32_t n = dom->count;
    uint8_t *st = wn_arena_calloc(wn_doc_scratch(d), n, 1); /* bit 1: in a frame, bit 2: in content */
    if (!st) return NULL;
    const float most = WN_RULE(d, FRAME_MAX_SHARE) * (float)d->stats[dom->body].chars;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint8_t s = x->parent != WN_NONE ? st[x->parent] : 0;
        int k = x->tag == WN_TAG_TEXT ? 0 : landmark_kind(dom, ps, i);
        if (k == 2) s |= 2;
        else if (k == 1 && (float)d->stats[i].chars < most) s |= 1;
        st[i] = s;
    }
    for (uint32_t i = 0; i < n; i++) st[i] = st[i] == 1;
    /* the wrappers of a frame that hold no more text are the frame */
    for (uint32_t i = 1; i < n; i++) {
        if (!st[i] || st[dom->nodes[i].parent]) continue;
        for (uint32_t a = dom->nodes[i].parent; a != WN_NONE && a != 0 && a != dom->body; a = dom->nodes[a].parent) {
            if (d->stats[a].chars != d->stats[i].chars || landmark_kind(dom, ps, a) == 2) break;
            st[a] = 1;
        }
    }
    return st;
}

/* The best block outside the page's header and footer: WN_NONE when no
 * block there has a positive score. */
static uint32_t best_outside_frames(const winnow_doc *d, const float *score, const uint8_t *frame)
{
    const wn_dom *dom = &d->dom;
    uint32_t best = WN_NONE;
    float best_score = 0.0f;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN) || frame[i]) continue;
        if (score[i] > best_score) { best_score = score[i]; best = i; }
    }
    return best;
}

int wn_select(winnow_doc *d, const wn_page_scores *ps, int include_title)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t n = dom->count;
    /* every array here is scratch, given back at the end (on failure the
     * pipeline resets the scratch arena) */
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark scratch_mark = wn_arena_save(s);
    /* score[i]: unit values in the subtree, each weighted by DECAY^distance.
     * Running text scores its own block and, less and less, the blocks
     * above it; a list of teasers, each item a few levels down, adds little
     * to the list that holds it, while an article body whose paragraphs
     * are its children collects them all. */
    float *score = wn_arena_array(s, n, sizeof(float));
    if (!score) return -1;
    for (uint32_t i = 0; i < n; i++) score[i] = lb->unit[i] == i ? lb->value[i] : 0.0f;
    const float decay = WN_RULE(d, SELECT_DECAY);
    for (uint32_t i = n; i-- > 1;) score[dom->nodes[i].parent] += decay * score[i];

    uint32_t best = WN_NONE;
    float best_score = 0.0f;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (score[i] > best_score) { best_score = score[i]; best = i; }
    }
    /* the best block must be the headline's article, when the page has a
     * headline and that article holds a fair share of the best's value */
    uint32_t *peers = wn_arena_alloc(s, (size_t)n * sizeof(uint32_t));
    if (!peers) return -1;
    uint32_t npeers = 0;
    uint32_t anchor = best != WN_NONE && WN_RULE(d, ANCHOR_SHARE) > 0.0f ? anchor_region(d, ps, peers, &npeers) : WN_NONE;
    uint8_t best_why = WN_WHY_BEST_BLOCK;
    if (anchor != WN_NONE && !wn_node_within(dom, anchor, best)) {
        /* the best block lies outside the article, or holds it and other
         * articles besides */
        int outside = !wn_node_within(dom, best, anchor);
        int others = 0;
        for (uint32_t k = 0; k < npeers && !outside; k++)
            others += wn_node_within(dom, best, peers[k]) && !wn_node_within(dom, anchor, peers[k]);
        if (outside || others > 0) {
            uint32_t inner = WN_NONE;
            for (uint32_t i = anchor; i < anchor + dom->nodes[anchor].size; i++) {
                const wn_node *x = &dom->nodes[i];
                if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
                if (inner == WN_NONE || score[i] > score[inner]) inner = i;
            }
            if (inner != WN_NONE && score[inner] >= WN_RULE(d, ANCHOR_SHARE) * best_score) {
                best = inner;
                best_score = score[inner];
                best_why = WN_WHY_ANCHORED;
            }
        }
    }
    if (best != WN_NONE) {
        uint32_t wider = around_code(d, ps, best);
        if (wider != best) {
            best = wider;
            best_score = score[best];
        }
    }
    /* the site's frame is never the page's content: a tagline, a bio or a
     * license line in the page's own header or footer yields to the best
     * block elsewhere, and with none the page has no main content */
    uint32_t framed = WN_NONE;
    const uint8_t *frame = best != WN_NONE && WN_RULE(d, FRAME_MAX_SHARE) > 0.0f ? wn_frame_marks(d, ps) : NULL;
    if (frame && frame[best]) {
        framed = best;
        best = best_outside_frames(d, score, frame);
        if (best != WN_NONE) {
            best_score = score[best];
            best_why = WN_WHY_BEST_BLOCK;
            framed = WN_NONE;
        } else if (d->explain) {
            for (uint32_t i = framed; i < framed + dom->nodes[framed].size; i++)
                if (lb->unit[i] == i) d->explain->sel_why[i] = WN_WHY_FRAME;
        }
    }
    lb->container = best;
    lb->headline = WN_NONE;
    lb->headline_inline = WN_NONE;

    if (framed != WN_NONE) {
        /* nothing kept: the fallback below may still find an article
         * that names sank */
    } else if (best == WN_NONE) {
        /* no running text anywhere: keep what is not a link list, so a
         * list page or a bare fragment still yields its words */
        for (uint32_t i = 0; i < n; i++)
            if (lb->unit[i] == i && unit_keepable(d, ps, i)) {
                lb->keep[i] = 1;
                explain_keep(d, i, KEEP_RUNNING, WN_WHY_NO_BLOCK);
                if (d->explain) d->explain->in_block[i] = 1;
            }
        lb->container = dom->body;
    } else {
        /* Siblings that score well themselves join the content (an article
         * split into several blocks by an advertisement or a figure); the
         * container is then their parent, of which only those children are
         * kept. */
        uint32_t parent = dom->nodes[best].parent;
        float threshold = WN_RULE(d, JOIN_SHARE) * best_score;
        if (threshold < WN_RULE(d, JOIN_MIN_VALUE)) threshold = WN_RULE(d, JOIN_MIN_VALUE);
        const join_guard guard = {anchor, peers, npeers};
        int joined = join_siblings(d, ps, score, best, threshold, 0, &guard, WN_WHY_JOINED);
        if (!joined && WN_RULE(d, JOIN_SECTIONS) > 0.0f) {
            /* an article split into sections, each wrapped more than once
             * (the best block is the inner wrapper of one; the outer
             * wrappers add no text but links, a related-coverage box):
             * sections of the same shape as its outermost wrapper join */
            uint32_t w = best;
            const float plain = (float)(d->stats[best].chars - d->stats[best].link_chars);
            for (uint32_t p = dom->nodes[w].parent;
                 p != WN_NONE && p != 0 && p != dom->body && !ps->boiler[p] &&
                 (float)(d->stats[p].chars - d->stats[p].link_chars) <= plain + 0.5f;
                 p = dom->nodes[p].parent)
                w = p;
            if (w != best) {
                joined = join_siblings(d, ps, score, w, WN_RULE(d, JOIN_MIN_VALUE), 1, &guard, WN_WHY_JOINED_SECTIONS);
                if (joined) { best = w; parent = dom->nodes[w].parent; }
            }
        }
        keep_subtree(d, ps, best, best_why);
        if (joined) lb->container = parent;
        /* a paragraph the parser moved out of the block's end (an
         * unclosed <p> before </font>: HTML5's repair of 2000s markup) */
        if (!joined && WN_RULE(d, TRAILING_PARAGRAPH) > 0.0f) {
            uint32_t nx = dom->nodes[best].next_sibling;
            while (nx != WN_NONE && dom->nodes[nx].tag == WN_TAG_TEXT && d->stats[nx].chars == 0) nx = dom->nodes[nx].next_sibling;
            unsigned paras = 0;
            for (uint32_t c = dom->nodes[best].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
                paras += dom->nodes[c].tag == WN_TAG_P && lb->keep[c];
            if (nx != WN_NONE && dom->nodes[nx].tag == WN_TAG_P && lb->unit[nx] == nx && lb->value[nx] > 0.0f &&
                !ps->boiler[nx] && paras >= 3 && ends_sentence_unit(d, nx) &&
                2 * d->stats[nx].link_chars < d->stats[nx].chars) {
                keep_subtree(d, ps, nx, WN_WHY_JOINED);
                lb->container = dom->nodes[best].parent;
            }
        }
        /* a forum thread: every post of the run, not the best one */
        uint32_t post = thread_record(d, ps, best);
        if (post != WN_NONE) {
            uint32_t run = dom->nodes[post].parent;
            for (uint32_t c = dom->nodes[run].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
                if (d->stats[c].chars && same_shape(dom, c, post)) keep_subtree(d, ps, c, WN_WHY_THREAD);
            if (!wn_node_within(dom, lb->container, run)) lb->container = run;
        }
        if (include_title) {
            wn_keep_headline(d, lb->container);
        }
        if (lb->headline != WN_NONE && lb->headline < lb->container) keep_standfirst(d, ps);
        if (lb->unique) keep_lone_paragraphs(d, ps);
        drop_end_plugs(d, ps, lb->container);
        drop_end_lists(d, ps, lb->container);
        drop_lead_datelines(d, ps, lb->container);
        drop_line_gutters(d, lb->container);
        drop_list_labels(d, ps, lb->container);
    }
    lb->teasers = 0;
    if (best != WN_NONE && (lb->teasers = wn_listing_teasers(d, ps)) > 0) {
        /* a listing page: its block is one teaser; nothing is the page's own */
        if (d->explain)
            for (uint32_t i = 0; i < n; i++)
                if (lb->keep[i] && lb->unit[i] == i) d->explain->sel_why[i] = WN_WHY_LISTING;
        memset(lb->keep, 0, n);
        lb->container = lb->headline = lb->headline_inline = WN_NONE;
        lb->source = WN_SOURCE_LISTING;
        best = WN_NONE;
    } else if (wn_fallback(d, ps, include_title) != 0) {
        return -1;
    }
    if (lb->source == WN_SOURCE_SCORER && best == WN_NONE) lb->source = framed != WN_NONE ? WN_SOURCE_FRAME : WN_SOURCE_NONE;
    /* text nodes follow their unit, except text after a comment marker
     * in a unit that began before it */
    for (uint32_t i = 0; i < n; i++)
        if (dom->nodes[i].tag == WN_TAG_TEXT)
            lb->keep[i] = lb->keep[lb->unit[i]] && !(ps->after_marker[i] && !ps->after_marker[lb->unit[i]]);
    /* an inline headline (kept, not a unit) keeps its own text, not its
     * unit's */
    if (lb->headline_inline != WN_NONE)
        for (uint32_t i = lb->headline_inline; i < lb->headline_inline + dom->nodes[lb->headline_inline].size; i++)
            if (dom->nodes[i].tag == WN_TAG_TEXT) lb->keep[i] = 1;
    /* An inline run that begins before the content block and goes on in it
     * ("16 January 2008 - <span class=story>The Council today ...<p>...")
     * is one unit rooted above the block: its text inside the block is the
     * block's first lines. */
    if (best != WN_NONE && lb->source == WN_SOURCE_SCORER) {
        /* the straddling units are ancestors of the block: their text
         * inside it, counted by the unit's depth */
        const uint32_t end = best + dom->nodes[best].size, depth = dom->nodes[best].depth;
        float *inside = wn_arena_calloc(s, (size_t)depth + 1, sizeof(float));
        if (!inside) return -1;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t i = best + 1; i < end; i++) {
                uint32_t u = lb->unit[i];
                if (dom->nodes[i].tag != WN_TAG_TEXT || lb->keep[i] || u == WN_NONE || u >= best) continue;
                if (!wn_node_within(dom, u, best) || ps->after_marker[i]) continue;
                if (pass == 0) inside[dom->nodes[u].depth] += (float)d->stats[i].chars;
                else if (inside[dom->nodes[u].depth] >= WN_RULE(d, STRADDLE_MIN_CHARS) && unit_keepable(d, ps, u))
                    lb->keep[i] = 1;
            }
    }

    /* element templateness: kept units in [0, .5], dropped ones in [.5, 1],
     * weighted by characters over the subtree */
    float *wsum = wn_arena_array(s, n, sizeof(float));
    float *csum = wn_arena_array(s, n, sizeof(float));
    if (!wsum || !csum) return -1;
    for (uint32_t i = 0; i < n; i++) {
        wsum[i] = csum[i] = 0.0f;
        if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
        float t = lb->templ[i];
        float lab = lb->keep[i] ? 0.5f * t : 0.5f + 0.5f * t;
        csum[i] = (float)ps->own[i].chars;
        wsum[i] = lab * csum[i];
    }
    for (uint32_t i = n; i-- > 1;) {
        uint32_t p = dom->nodes[i].parent;
        wsum[p] += wsum[i];
        csum[p] += csum[i];
    }
    for (uint32_t i = 0; i < n; i++) lb->templ[i] = csum[i] > 0 ? wsum[i] / csum[i] : 1.0f;
    wn_arena_release(s, scratch_mark);
    return 0;
}
