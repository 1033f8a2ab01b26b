/* Drops at the end of the content block: lines that send readers away
 * (plugs for social network profiles), the site's related-stories list set
 * inside the article's element, and labels over lists left out; and,
 * anywhere in it, the labels of ad slots set between its paragraphs. */
#include "passes.h"

#include "../score/records.h"
#include "../text/sentence.h"
#include "../util/url.h"

#include <ctype.h>
#include <string.h>

/* Whether href points to a profile on a social network: a "follow us"
 * or "follow the author" plug; a link to one post (a tweet the story
 * quotes), a hashtag, a search or a group is not. (Mail addresses are not
 * plugs here: a contact page's or a report's last lines are its text.)
 * Not a host of util/url.h: the networks are told by host and path
 * together ("t.me/", "pinterest."), read from the lower-cased href, and
 * only an absolute link ("://") to one is a plug. */
static int plug_href(const char *h, size_t n)
{
    static const char *const hosts[] = { "twitter.com/",  "x.com/",      "facebook.com/", "instagram.com/",
                                         "linkedin.com/", "pinterest.",  "youtube.com/",  "t.me/",
                                         "xing.com/",     "tiktok.com/", "threads.net/",  "mastodon.",
                                         "whatsapp.com/", "wa.me/" };
    static const char *const posts[] = { "/status", "/posts/",  "/p/",    "/watch",   "/videos/", "/photo",
                                         "/reel",   "/hashtag", "search", "/groups/", "/group/",  "/events/" };
    char b[256];
    if (n >= sizeof b) n = sizeof b - 1;
    for (size_t i = 0; i < n; i++) b[i] = (char)tolower((unsigned char)h[i]);
    b[n] = 0;
    const char *p = strstr(b, "://");
    if (!p) return 0;
    p += 3;
    if (!strncmp(p, "www.", 4)) p += 4;
    int social = 0;
    for (size_t k = 0; k < sizeof hosts / sizeof *hosts && !social; k++)
        social = !strncmp(p, hosts[k], strlen(hosts[k]));
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
void wn_drop_end_plugs(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const float max_chars = WN_RULE(d, END_PLUG_MAX_CHARS);
    if (max_chars <= 0.0f || block == WN_NONE) return;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t end = block + dom->nodes[block].size;
    int dropped = 0;
    uint32_t i = end;
    while (i-- > block && (float)dropped < WN_RULE(d, END_PLUG_MAX_LINES)) {
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

/* A label over a list left out ("TODAY'S HOT TOPICS", "More from
 * Newsweek", "Các bài cùng chủ đề ..."): a short kept unit without a stop
 * and not itself links, whose next element with text (its own, or its
 * wrapper's) is a list of links of which nothing was kept, goes with the
 * list (LIST_LABEL_MAX_CHARS). */
void wn_drop_list_labels(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const float max = WN_RULE(d, LIST_LABEL_MAX_CHARS);
    if (max <= 0.0f) return;
    const uint32_t end = block + dom->nodes[block].size;
    for (uint32_t u = block + 1; u < end; u++) {
        if (lb->unit[u] != u || !lb->keep[u] || dom->nodes[u].tag == WN_TAG_TEXT) continue;
        const wn_unit_stats *o = &ps->own[u];
        if (o->chars == 0 || (float)o->chars > max || o->stops || wn_mostly_links(d, o->link_chars, o->chars)) continue;
        if (d->stats[u].chars != o->chars) continue;                      /* a label holds no other unit */
        if ((float)o->words > WN_RULE(d, END_LIST_LABEL_WORDS)) continue; /* a few words: a label, not an item */
        /* a heading names its section, a cell its row: they stay */
        unsigned tag = dom->nodes[u].tag;
        if (wn_tag_has(tag, WN_TF_HEADING) || tag == WN_TAG_TD || tag == WN_TAG_TH) continue;
        /* the next element with text after it, or after its wrapper */
        uint32_t at = u, next = WN_NONE;
        for (int up = 0; up < 3 && next == WN_NONE && at != WN_NONE && at != block; up++) {
            for (uint32_t c = dom->nodes[at].next_sibling; c != WN_NONE; c = dom->nodes[c].next_sibling)
                if (d->stats[c].chars) {
                    next = c;
                    break;
                }
            if (next == WN_NONE) {
                uint32_t p = dom->nodes[at].parent;
                if (p == WN_NONE || d->stats[p].chars != d->stats[at].chars) break;
                at = p;
            }
        }
        /* a list: a block of two or more links, no picture or player (a
         * "Watch:" line over a video stays) */
        if (next == WN_NONE || !wn_tag_has(dom->nodes[next].tag, WN_TF_BREAK)) continue;
        if (!wn_mostly_links(d, d->stats[next].link_chars, d->stats[next].chars) || d->stats[next].images) continue;
        int media = 0;
        for (uint32_t i = next; i < next + dom->nodes[next].size && !media; i++)
            media = (dom->nodes[i].flags & WN_NF_MEDIA) != 0;
        if (media) continue;
        int kept = 0;
        for (uint32_t i = next; i < next + dom->nodes[next].size && !kept; i++) kept = lb->unit[i] == i && lb->keep[i];
        if (kept) continue;
        lb->keep[u] = 0;
        if (d->explain) d->explain->sel_why[u] = WN_WHY_LIST_LABEL;
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

void wn_drop_end_lists(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
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
        size_t e = wn_trimmed_end(t, s->nt_end - s->nt_begin);
        /* or a heading closing the text: a section of nothing ("Product
         * reviews", "Comments" over a thread left out) */
        int heading = wn_tag_has(dom->nodes[label].tag, WN_TF_HEADING) && WN_RULE(d, END_HEADING_ORPHAN) > 0.0f &&
                      label != lb->headline && label != lb->headline_inline && kept_before(d, ps, block, label);
        if (WN_RULE(d, END_LABEL_ORPHAN) <= 0.0f || kept_items || !e || (!wn_ends_colon(t, e) && !heading)) return;
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

/* The ad labels of the word test (AD_LABEL_WORDS): what publishers print
 * over an ad slot set between an article's paragraphs, case-folded, in
 * the languages of the bench corpora and a few more. A unit must be the
 * whole line, give or take punctuation around it. Kept small on purpose:
 * the structural test (an ad slot beside the label) is the rule's first
 * evidence; these are the labels whose slot is filled by a script that
 * leaves nothing in the page. */
static const char *const ad_labels[] = {
    /* ("ad" alone is a word of code and tables too: "%ad", a column) */
    "advertisement",
    "advertisements",
    "advertising",
    "story continues below",
    "article continues below",
    "continue reading below",
    "story continues after advertisement",
    "anzeige",
    "werbung",
    "publicité",
    "publicidad",
    "pubblicità",
    "advertentie",
    "reklama",
    "annons",
    "реклама",
    "広告",
    "광고",
    "广告",
};

/* Whether folded line t[0..n) is one of ad_labels, spaces, dashes,
 * brackets and a colon around it aside ("- Advertisement -",
 * "(Story continues below)", "ADVERTISEMENT:"). */
static int ad_label_words(const char *t, size_t n)
{
    static const char around[] = " -([{)]}:|";
    while (n && *t && strchr(around, *t)) {
        t++;
        n--;
    }
    while (n && t[n - 1] && strchr(around, t[n - 1])) n--;
    for (size_t k = 0; k < sizeof ad_labels / sizeof *ad_labels; k++)
        if (strlen(ad_labels[k]) == n && memcmp(ad_labels[k], t, n) == 0) return 1;
    return 0;
}

/* Whether element x is an ad slot: it shows no text and is named for an
 * ad. (A frame or a player is no evidence: the line beside a video is its
 * title or caption.) */
static int ad_slot(const winnow_doc *d, const wn_page_scores *ps, uint32_t x)
{
    return d->dom.nodes[x].tag != WN_TAG_TEXT && d->stats[x].chars == 0 && (ps->self_hint[x] & WN_HINT_AD);
}

/* Whether unit u's box (u and its wrappers holding no other text, up to
 * below block) is an ad slot: it holds an element without text named for
 * an ad (where the ad goes), or one of its wrappers is named for an ad or
 * aria-hidden. A slot beside a line is no evidence: ads sit between the
 * paragraphs, next to subheadings and datelines. */
static int in_ad_slot(const winnow_doc *d, const wn_page_scores *ps, uint32_t block, uint32_t u)
{
    const wn_dom *dom = &d->dom;
    uint32_t x = u;
    for (;;) {
        if (wn_node_aria_hidden(dom, x) || (ps->self_hint[x] & WN_HINT_AD)) return 1;
        uint32_t p = dom->nodes[x].parent;
        if (p == WN_NONE || p == block || d->stats[p].chars != d->stats[x].chars) break;
        x = p;
    }
    for (uint32_t i = x + 1; i < x + dom->nodes[x].size; i++)
        if (ad_slot(d, ps, i)) return 1;
    return 0;
}

/* Ad labels: a short kept line ("Advertisement", "Story continues below",
 * "Anzeige") of at most AD_LABEL_MAX_WORDS words, without a stop or a
 * link, holding no other unit and no header cell, is the label
 * of an ad slot set between the article's paragraphs when the slot is
 * its box (AD_LABEL_SLOT: the box holds an element without text named for
 * an ad, or is named so or aria-hidden; not for a heading) or its words
 * are an ad label's
 * (AD_LABEL_WORDS: the small multilingual table ad_labels). Dropped. */
void wn_drop_ad_labels(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const float max_words = WN_RULE(d, AD_LABEL_MAX_WORDS);
    if (max_words <= 0.0f || block == WN_NONE) return;
    const int slot_test = WN_RULE(d, AD_LABEL_SLOT) > 0.0f, word_test = WN_RULE(d, AD_LABEL_WORDS) > 0.0f;
    const uint32_t end = block + dom->nodes[block].size;
    for (uint32_t u = block + 1; u < end; u++) {
        if (lb->unit[u] != u || !lb->keep[u] || dom->nodes[u].tag == WN_TAG_TEXT) continue;
        const wn_unit_stats *o = &ps->own[u];
        if (o->chars == 0 || (float)o->words > max_words || o->stops || o->link_chars) continue;
        if (d->stats[u].chars != o->chars || d->stats[u].images) continue; /* a label holds no other unit */
        if (u == lb->headline || u == lb->headline_inline) continue;
        if (dom->nodes[u].tag == WN_TAG_TH) continue; /* a column's name */
        const char *t = d->page_text.text + d->stats[u].nt_begin;
        size_t n = d->stats[u].nt_end - d->stats[u].nt_begin;
        /* (a heading in a slot names the section after it) */
        int slot = slot_test && !wn_tag_has(dom->nodes[u].tag, WN_TF_HEADING) && in_ad_slot(d, ps, block, u);
        if (!slot && !(word_test && ad_label_words(t, n))) continue;
        lb->keep[u] = 0;
        if (d->explain) d->explain->sel_why[u] = WN_WHY_AD_LABEL;
    }
}
