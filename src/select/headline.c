/* The content block's headline: the unit (or inline line) before or at
 * the top of the block whose words are the document title's (the title
 * tests are src/score/headline.c's, which the scorer shares); failing
 * that, the last <h1> or a nearby line sharing the lead's words. */
#include "passes.h"
#include "../text/sentence.h"
#include "../util/url.h"

#include <string.h>
#include <strings.h>

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
        size_t hl;
        const char *h = wn_url_host_span(url, &hl);
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
        if (s->images && (float)s->chars < WN_RULE(d, HEADLINE_ASIDE_IMAGE_CHARS)) return 1;
        if (wn_mostly_links(d, s->link_chars, s->chars)) return 1; /* a box of links: a navigation bar's label */
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
    const float lead = WN_RULE(d, LEAD_CHARS);
    if ((float)len > lead) len = (size_t)lead;
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
    while (n && t[b] == ' ') {
        b++;
        n--;
    }
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
        if (wn_mostly_links(d, s->link_chars, s->chars) || (float)s->chars < WN_RULE(d, HEADLINE_MIN_CHARS) ||
            (float)s->chars > WN_RULE(d, NEAR_HEADLINE_MAX_CHARS))
            continue;
        /* not a sentence closed by a stop (a caption, a standfirst) nor a
         * label closed by a colon */
        const char *t = text + s->nt_begin;
        size_t n = s->nt_end - s->nt_begin;
        while (n && t[0] == ' ') {
            t++;
            n--;
        }
        while (n && t[n - 1] == ' ') n--;
        if (!n || wn_ends_full_stop(t, n) || wn_ends_colon(t, n) || t[0] == '(' || t[0] == '[') continue;
        /* nor a breadcrumb trail (Home > News > the story) */
        if (memchr(t, '>', n) || memmem(t, n, "\xC2\xBB", 2)) continue;
        uint64_t words[32];
        size_t nw = wn_words_of(t, n, words, 32);
        if (nw < 2 || (float)nw > WN_RULE(d, NEAR_HEADLINE_MAX_WORDS)) continue;
        /* marked as a headline, or made of the lead's own words */
        int shared = shares_lead(d, i, lw);
        if (shared == 0 || (shared == 1 && !headline_markup(d, i))) continue;
        if (block_opens_with(d, container, i)) return WN_NONE;
        if (near_headline_aside(d, i, container) || site_name_like(d, i)) continue;
        /* a section's heading inside a longer text (a manual, a report)
         * has that text's running text just above it: no headline */
        int looked = 0;
        float above = 0.0f;
        for (uint32_t j = i; j-- > 1 && (float)looked < WN_RULE(d, HEADLINE_ABOVE_LINES);) {
            const wn_node *y = &dom->nodes[j];
            if (y->tag == WN_TAG_TEXT || d->labels.unit[j] != j || (y->flags & WN_NF_HIDDEN) || j + y->size > i)
                continue;
            if (st[j].chars == 0) continue;
            looked++;
            if (!wn_mostly_links(d, st[j].link_chars, st[j].chars) && d->labels.value[j] > 0.0f)
                above += d->labels.value[j];
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
    return wn_byline_like(d, d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin);
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
        for (uint32_t i = container; i < end && (float)inside < WN_RULE(d, HEADLINE_INSIDE_UNITS) && scanned < 400;
             i++) {
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
        for (uint32_t i = container; i-- > 1 && (float)looked < WN_RULE(d, HEADLINE_LINES_BEFORE);) {
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
                if (inline_h != WN_NONE || x->tag == WN_TAG_A || wn_mostly_links(d, s->link_chars, s->chars)) continue;
                if (u != WN_NONE && st[u].chars == s->chars) continue; /* the unit itself is tested */
                /* next to the block: a byline, a date or an empty ad box
                 * between them, not a section's or the site's name above
                 * the page's columns */
                if ((float)(st[container].nt_begin - s->nt_end) > WN_RULE(d, INLINE_HEADLINE_GAP)) continue;
                if (u != WN_NONE && own_line(d, i, u) && wn_title_like(d, i, &tt) && !site_name_like(d, i))
                    inline_h = i;
                continue;
            }
            looked++;
            /* a box of links in the site's navigation or header (its
             * name linking its home page) is no headline */
            if (wn_mostly_links(d, s->link_chars, s->chars) && WN_RULE(d, HEADLINE_LINK_BOX) > 0.0f &&
                in_site_bar(d, i) && !wn_self_linked(d, i, 1))
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
        if ((float)s->chars < WN_RULE(d, HEADLINE_MIN_CHARS) || (float)s->chars > WN_RULE(d, H1_HEADLINE_MAX_CHARS) ||
            (wn_mostly_links(d, s->link_chars, s->chars) && !wn_self_linked(d, i, 1)))
            continue;
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
        if (d->labels.unit[j] != j || dom->nodes[j].tag == WN_TAG_TEXT || (dom->nodes[j].flags & WN_NF_HIDDEN))
            continue;
        if (!wn_mostly_links(d, st[j].link_chars, st[j].chars) && d->labels.value[j] > 0.0f)
            between += d->labels.value[j];
    }
    return between >= WN_RULE(d, STANDFIRST_MIN_VALUE) ? best : near;
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
