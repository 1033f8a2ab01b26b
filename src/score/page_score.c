#include "page_score.h"

#include "headline.h"
#include "records.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

/* Running text under each boilerplate class name, summed over all the
 * elements that bear it: a name repeated on every paragraph wrapper
 * ("section-and-ad" around each section of an article) is a layout name
 * even though no one of its elements holds much. */
typedef struct name_mass {
    uint64_t *key;
    float *mass;
    uint32_t *chars, *links; /* text and link text of its elements */
    size_t cap;
    struct wn_hint_cache *hints; /* the statistics' memo of words' hints (NULL: none) */
    wn_name_rules rules;         /* the name rules, under which the memo was filled */
} name_mass;

static uint64_t class_key(const wn_dom *dom, const wn_node *x)
{
    size_t len = 0;
    const char *c = wn_node_attr(dom, x, "class", &len);
    if (!c || !len) return 0;
    return XXH3_64bits(c, len) | 1;
}

/* The class tokens that carry a boilerplate hint, one at a time: *at from
 * 0; returns the next one's key (its hash, apart from class_key's by
 * seed) or 0 at the end. A page builder names every widget so
 * ("elementor-element-1b0f887a elementor-widget elementor-widget-text-editor"):
 * each class is unique, the token that says "widget" is shared. */
static uint64_t next_hint_token(name_mass *t, const char *c, size_t len, size_t *at)
{
    size_t i = *at;
    while (i < len) {
        while (i < len && isspace((unsigned char)c[i])) i++;
        size_t b = i;
        while (i < len && !isspace((unsigned char)c[i])) i++;
        if (i > b && (wn_hints_from_name_cached(t->hints, c + b, i - b, 0, &t->rules) & WN_HINT_BOILER)) {
            *at = i;
            return XXH3_64bits_withSeed(c + b, i - b, 0x746f6b656eULL) | 1;
        }
    }
    *at = len;
    return 0;
}

/* The key of an id that carries a boilerplate hint, by its stem: the id
 * without its digits, so that a builder's generated ids ("widget_1756919659078",
 * "widget_1755012816893") share one; 0 for none. */
static uint64_t id_stem_key(name_mass *t, const wn_dom *dom, const wn_node *x)
{
    size_t len = 0;
    const char *v = wn_node_attr(dom, x, "id", &len);
    if (!v || !len || !(wn_hints_from_name_cached(t->hints, v, len, 1, &t->rules) & WN_HINT_BOILER)) return 0;
    char stem[128]; /* a longer id counts by its first 128 bytes without digits */
    size_t n = 0;
    for (size_t i = 0; i < len && n < sizeof stem; i++)
        if (v[i] < '0' || v[i] > '9') stem[n++] = v[i];
    return XXH3_64bits_withSeed(stem, n, 0x69647374656dULL) | 1;
}

static size_t name_mass_slot(name_mass *t, uint64_t k)
{
    size_t i = (size_t)(k ^ (k >> 29)) & (t->cap - 1);
    while (t->key[i] && t->key[i] != k) i = (i + 1) & (t->cap - 1);
    t->key[i] = k;
    return i;
}

/* Element text of one name (key k; none when 0) into its sums. */
static void add_mass(name_mass *t, uint64_t k, float pos, const wn_stats *s)
{
    if (!k) return;
    size_t slot = name_mass_slot(t, k);
    t->mass[slot] += pos;
    t->chars[slot] += s->chars;
    t->links[slot] += s->link_chars;
}

/* named: the elements with a boilerplate hint, counted by the caller */
static int name_mass_build(wn_arena *a, const wn_dom *dom, const wn_stats *st, const float *pos, size_t named,
                           name_mass *t)
{
    /* keys: a class each, and at most one a token of it (a token and
     * its separator take two bytes or more) */
    size_t keys = named, left = named;
    for (uint32_t i = 1; i < dom->count && left; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || !(st[i].hints & WN_HINT_BOILER)) continue;
        left--;
        size_t len = 0;
        if (wn_node_attr(dom, x, "class", &len)) keys += (len + 1) / 2;
        keys++; /* its id's stem */
    }
    t->cap = 16;
    while (t->cap < 2 * keys) t->cap <<= 1;
    t->key = wn_arena_calloc(a, t->cap, sizeof(uint64_t));
    t->mass = wn_arena_calloc(a, t->cap, sizeof(float));
    t->chars = wn_arena_calloc(a, t->cap, sizeof(uint32_t));
    t->links = wn_arena_calloc(a, t->cap, sizeof(uint32_t));
    if (!t->key || !t->mass || !t->chars || !t->links) return -1;
    /* (up to the last of them) */
    for (uint32_t i = 1; i < dom->count && named; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || !(st[i].hints & WN_HINT_BOILER)) continue;
        named--;
        add_mass(t, id_stem_key(t, dom, x), pos[i], &st[i]);
        uint64_t k = class_key(dom, x);
        if (!k) continue;
        size_t len = 0, at = 0;
        const char *c = wn_node_attr(dom, x, "class", &len);
        do add_mass(t, k, pos[i], &st[i]);
        while ((k = next_hint_token(t, c, len, &at)) != 0);
    }
    return 0;
}

/* Whether x is scoped to sectioning content: HTML-AAM maps <header> to
 * the banner role only outside <article>, <aside>, <main>, <nav> and
 * <section> (the rule HEADER_SCOPED adds <section>: a product card's
 * <header> inside its <section>). */
static int scoped_header(const winnow_doc *d, const wn_node *x)
{
    const wn_dom *dom = &d->dom;
    const int sections = WN_RULE(d, HEADER_SCOPED) > 0.0f;
    for (uint32_t a = x->parent; a != WN_NONE && a != 0; a = dom->nodes[a].parent) {
        unsigned t = dom->nodes[a].tag;
        if (t == WN_TAG_ARTICLE || t == WN_TAG_MAIN || (sections && t == WN_TAG_SECTION)) return 1;
    }
    return 0;
}

/* Boilerplate implied by the element itself: HTML5 landmarks and ARIA roles. */
static uint16_t landmark_hints(const winnow_doc *d, const wn_node *x, float prose, int *content)
{
    const wn_dom *dom = &d->dom;
    uint16_t h = 0;
    switch (x->tag) {
    case WN_TAG_NAV: h |= WN_HINT_NAV; break;
    case WN_TAG_ASIDE: h |= WN_HINT_SIDEBAR; break;
    case WN_TAG_DIALOG: h |= WN_HINT_OVERLAY; break;
    case WN_TAG_FOOTER: h |= WN_HINT_FOOTER; break;
    case WN_TAG_HEADER:
        /* HTML5: a <header> inside an <article> or <main> is that
         * article's header (title, byline, standfirst), not the site's */
        if (!scoped_header(d, x)) h |= WN_HINT_HEADER;
        break;
    /* a search, login or comment form; a form holding running text wraps
     * the page (ASP.NET puts the whole page in one) */
    case WN_TAG_FORM:
        if (prose < WN_RULE(d, FORM_MAX_PROSE)) h |= WN_HINT_OVERLAY;
        break;
    case WN_TAG_BUTTON: h |= WN_HINT_NAV; break;
    case WN_TAG_ARTICLE:
    case WN_TAG_MAIN: *content = 1; break;
    default: break;
    }
    const char *role = wn_node_attr(dom, x, "role", NULL);
    if (role) {
        if (!strcasecmp(role, "navigation") || !strcasecmp(role, "menu") || !strcasecmp(role, "menubar") ||
            !strcasecmp(role, "search"))
            h |= WN_HINT_NAV;
        /* tabs are short labels; a "tablist" that wraps running text holds
         * its panels too: an accordion written as tabs */
        else if (!strcasecmp(role, "tablist")) {
            if (prose < WN_RULE(d, TABLIST_MAX_PROSE)) h |= WN_HINT_NAV;
        } else if (!strcasecmp(role, "banner"))
            h |= WN_HINT_HEADER;
        else if (!strcasecmp(role, "contentinfo"))
            h |= WN_HINT_FOOTER;
        else if (!strcasecmp(role, "complementary"))
            h |= WN_HINT_SIDEBAR;
        else if (!strcasecmp(role, "dialog") || !strcasecmp(role, "alertdialog"))
            h |= WN_HINT_OVERLAY;
        else if (!strcasecmp(role, "main") || !strcasecmp(role, "article"))
            *content = 1;
    }
    const char *ip = wn_node_attr(dom, x, "itemprop", NULL);
    if (ip && (!strcasecmp(ip, "articleBody") || !strcasecmp(ip, "text") || !strcasecmp(ip, "reviewBody")))
        *content = 1;
    return h;
}

/* Whether a class or id value v[0..n) (NULL: none) holds part (three or
 * more lower-case letters) in any case. Its third letter, in either case,
 * is two bytes in: only where the value has that letter (found with
 * memchr) is it tried. */
static inline int has_name_part(const char *v, size_t n, const char *part)
{
    size_t m = strlen(part);
    if (!v || n < m) return 0;
    const char *last = v + n - m + 2; /* the last place for the third letter */
    for (int up = 0; up < 2; up++) {
        const char c = up ? (char)(part[2] - 'a' + 'A') : part[2];
        for (const char *q = v + 2; q <= last && (q = memchr(q, c, (size_t)(last - q) + 1)) != NULL; q++)
            if ((q[-2] | 0x20) == part[0] && strncasecmp(q - 2, part, m) == 0) return 1;
    }
    return 0;
}

/* A photo's caption or credit: <figcaption>, or an element named for a
 * caption, of caption size. A box named "image-with-caption" that holds
 * the story itself is no caption, nor is a video player's description. Captions count as the photos they
 * describe (the gallery hint): beside the article, not in it. */
static int is_caption(const winnow_doc *d, const wn_node *x, uint32_t i)
{
    if (d->stats[i].chars == 0) return 0;
    const float cap = x->tag == WN_TAG_FIGCAPTION ? WN_RULE(d, FIGCAPTION_MAX_CHARS) : WN_RULE(d, CAPTION_MAX_CHARS);
    if ((float)d->stats[i].chars > cap) return 0;
    /* a <figure> of a picture: its text is the picture's (a credit in a
     * <cite> beside the <figcaption>) */
    int figure = x->tag == WN_TAG_FIGURE && d->stats[i].images > 0 && WN_RULE(d, CAPTION_FIGURE) > 0.0f;
    if (x->attr_count == 0 && x->tag != WN_TAG_FIGCAPTION && !figure) return 0;
    if (x->tag != WN_TAG_FIGCAPTION && !figure) {
        /* else named so: the class and id values, looked up once for the
         * four tests */
        size_t cl = 0, il = 0;
        const char *cls = wn_node_attr(&d->dom, x, "class", &cl), *id = wn_node_attr(&d->dom, x, "id", &il);
        /* a photo's credit: named so, beside a picture */
        int credit = x->parent != WN_NONE && d->stats[x->parent].images > 0 && WN_RULE(d, CAPTION_CREDIT) > 0.0f &&
                     (has_name_part(cls, cl, "credit") || has_name_part(id, il, "credit"));
        if (!(credit || has_name_part(cls, cl, "caption") || has_name_part(id, il, "caption"))) return 0;
    }
    /* a plugin player's fallback describes the video shown in its place */
    for (uint32_t a = x->parent; a != WN_NONE && a != 0; a = d->dom.nodes[a].parent)
        if (d->dom.nodes[a].tag == WN_TAG_OBJECT) return 0;
    return 1;
}

/* An empty element named for comments and nothing else (<a name="comments">,
 * <div id="comments"></div>): where the comments begin, when they are not
 * wrapped in an element of their own. */
static int is_comment_marker(const winnow_doc *d, const wn_stats *s, const wn_node *x, uint16_t h)
{
    const wn_dom *dom = &d->dom;
    /* a link or button to the comments ("3 comments", an icon) is not
     * where they begin */
    if (s->links || s->images || wn_node_attr(dom, x, "href", NULL)) return 0;
    size_t len = 0;
    const char *name = x->tag == WN_TAG_A ? wn_node_attr(dom, x, "name", &len) : NULL;
    if (name) {
        const wn_name_rules r = wn_doc_name_rules(d);
        h |= wn_hints_from_name(name, len, 1, &r);
    }
    return (h & WN_HINT_BOILER) == WN_HINT_COMMENT && !(h & WN_HINT_MIXED);
}

/* The siblings after marker m are comments when running text comes before
 * it under the same parent and at least a tenth of the page's running text
 * lies outside them (the layout-name rule below, for a section without
 * its own element). */
static int marker_closes_content(const winnow_doc *d, const float *pos, float total, uint32_t m)
{
    const wn_dom *dom = &d->dom;
    uint32_t p = dom->nodes[m].parent;
    float before = 0.0f;
    for (uint32_t c = dom->nodes[p].first_child; c != m && c != WN_NONE; c = dom->nodes[c].next_sibling)
        before += pos[c];
    float after = pos[p] - before - pos[m];
    return before > 0.0f && after > 0.0f && after < WN_RULE(d, COMMENT_MARKER_MAX_SHARE) * total;
}

/* Script shown as text (a broken page, a document.write cut in two) or an
 * unrendered page template ({{article.pretty_date}}): dense in braces and
 * glued '=' outside <pre> and <code>, and written in the words of browser
 * scripts or in double braces. Code samples, TeX and query strings on
 * technical pages are dense too, but neither call the document or window
 * nor leave placeholders. */
static int is_script_text(const winnow_doc *d, uint32_t u, const wn_unit_stats *o)
{
    /* old scripts written without semicolons or braces on every line
     * show fewer code marks: with SCRIPT_STRONG_MARKS script words a
     * third of the code share will do (SCRIPT_STRONG_DIVISOR) */
    float code = (float)o->code, chars = (float)o->chars, share = WN_RULE(d, SCRIPT_CODE_SHARE);
    if (chars < WN_RULE(d, SCRIPT_MIN_CHARS) || code <= share / WN_RULE(d, SCRIPT_STRONG_DIVISOR) * chars) return 0;
    int dense = code > share * chars;
    static const char *const marks[] = { "document.", "window.", "function(", "function ", "var ", "typeof " };
    const wn_stats *s = &d->stats[u];
    const char *t = d->page_text.text + s->nt_begin;
    size_t n = s->nt_end - s->nt_begin;
    if (dense)
        for (size_t j = 0; j + 1 < n; j++)
            if (t[j] == '{' && t[j + 1] == '{') return 1;
    int found = 0;
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
        size_t m = strlen(marks[k]);
        for (size_t j = 0; j + m <= n; j++)
            if (t[j] == marks[k][0] && memcmp(t + j, marks[k], m) == 0) {
                found++;
                break;
            }
    }
    return (float)found >= (dense ? WN_RULE(d, SCRIPT_MIN_MARKS) : WN_RULE(d, SCRIPT_STRONG_MARKS));
}

/* A rights notice: a short unit that opens by reserving the rights to
 * the text ("Copyright 2008 The Associated Press. All rights reserved. This
 * material may not be published ...", "(c) 2008 AFP"): the agency's or the
 * site's legal line under an article, not the article. It opens with the
 * copyright sign or word and has a year or a rights phrase, or opens with
 * the rights phrase, in the languages below (the page text is folded to
 * lower case). A sentence that mentions copyright does not open so. */
static const char *const rights_phrases[] = { "all rights reserved",
                                              "alle rechte vorbehalten",
                                              "tous droits r\xc3\xa9serv",
                                              "tutti i diritti riservati",
                                              "wszelkie prawa zastrze",
                                              "todos los derechos reservados",
                                              "todos os direitos reservados",
                                              "alle rettigheder forbeholdes",
                                              "alle rechten voorbehouden",
                                              "\xe7\x84\xa1\xe6\x96\xad\xe8\xbb\xa2\xe8\xbc\x89" /* 無断転載 */ };

/* Whether t[0..n) opens with one of the count phrases of list. */
static int opens_with_any(const char *t, size_t n, const char *const *list, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        const char *p = list[k];
        if (!n || t[0] != p[0]) continue; /* (the rights phrases are tried at every byte of a line) */
        size_t m = strlen(p);
        if (m <= n && memcmp(t, p, m) == 0) return 1;
    }
    return 0;
}

static int opens_rights_phrase(const char *t, size_t n)
{
    return opens_with_any(t, n, rights_phrases, sizeof rights_phrases / sizeof rights_phrases[0]);
}

/* Unit u's case-folded text without the spaces and brackets it opens with
 * ("(c) 2008 AFP", "[Photo: ...]"); its length in *n. */
static const char *unit_line(const winnow_doc *d, uint32_t u, size_t *n)
{
    const wn_stats *s = &d->stats[u];
    const char *t = d->page_text.text + s->nt_begin;
    size_t len = s->nt_end - s->nt_begin;
    while (len && (*t == ' ' || *t == '(' || *t == '[')) {
        t++;
        len--;
    }
    *n = len;
    return t;
}

static int is_rights_notice(const winnow_doc *d, uint32_t u, const wn_unit_stats *o)
{
    if (o->chars == 0 || (float)o->chars > WN_RULE(d, RIGHTS_NOTICE_MAX_CHARS)) return 0;
    size_t n;
    const char *t = unit_line(d, u, &n);
    if (opens_rights_phrase(t, n)) return 1;
    size_t at = 0;
    if (n >= 2 && (unsigned char)t[0] == 0xC2 && (unsigned char)t[1] == 0xA9)
        at = 2;
    else if (n >= 3 && memcmp(t, "(c)", 3) == 0)
        at = 3;
    else if (n >= 9 && memcmp(t, "copyright", 9) == 0)
        at = 9;
    if (!at) return 0;
    /* a year within the next words ("(c) 2008 AFP", "Copyright © 1998 ...") */
    const float year_chars = WN_RULE(d, RIGHTS_YEAR_CHARS);
    for (size_t j = at; j + 4 <= n && (float)(j - at) < year_chars; j++)
        if ((t[j] == '1' || t[j] == '2') && isdigit((unsigned char)t[j + 1]) && isdigit((unsigned char)t[j + 2]) &&
            isdigit((unsigned char)t[j + 3]))
            return 1;
    /* or the rights phrase after the holder's name */
    for (size_t j = at; j < n; j++)
        if (opens_rights_phrase(t + j, n - j)) return 1;
    return 0;
}

/* A photo's credit written as a line of text: a short unit that opens
 * with a credit word ("Photo:", "Image via", "Foto:", "Bild:") or ends
 * with a picture agency's name ("/Getty Images", "Shutterstock",
 * "/AFP"). The words are few and the same on every site; a credit is
 * never the article's text. (The page text is case-folded.) */
static const char *const credit_openers[] = {
    "photo:",         "photos:",      "photo :",        "photo credit",  "photo by ",    "photo courtesy",
    "photo via ",     "photograph:",  "photograph by ", "photography:",  "image:",       "images:",
    "image :",        "image credit", "image by ",      "image via ",    "image source", "image courtesy",
    "featured image", "header image", "top image",      "lead image",    "picture:",     "pictures:",
    "pic:",           "pics:",        "foto:",          "fotos:",        "foto :",       "foto von ",
    "fotos von ",     "bild:",        "bilder:",        "bildquelle",    "imagen:",      "imágenes:",
    "immagine:",      "immagini:",    "crédit photo",   "crédits photo", "credit photo", "zdjęcie:",
    "fot.",           "写真："
};
/* (with their lengths: every short unit is tried against each) */
#define CLOSER(s)                                                                                                      \
    {                                                                                                                  \
        s, sizeof(s) - 1                                                                                               \
    }
static const struct {
    const char *s;
    size_t n;
} credit_closers[] = { CLOSER("getty images"),
                       CLOSER("shutterstock"),
                       CLOSER("istockphoto"),
                       CLOSER("istock"),
                       CLOSER("/afp"),
                       CLOSER("/ap"),
                       CLOSER("/reuters"),
                       CLOSER("/dpa"),
                       CLOSER("/epa"),
                       CLOSER("ap photo"),
                       CLOSER("afp photo"),
                       CLOSER("reuters photo"),
                       CLOSER("/picture alliance"),
                       CLOSER("/imago"),
                       CLOSER("/alamy") };
#undef CLOSER

static int is_photo_credit(const winnow_doc *d, uint32_t u, const wn_unit_stats *o)
{
    if (o->chars == 0 || (float)o->chars > WN_RULE(d, CREDIT_LINE_MAX_CHARS)) return 0;
    if (wn_tag_has(d->dom.nodes[u].tag, WN_TF_HEADING)) return 0;
    size_t n;
    const char *t = unit_line(d, u, &n);
    while (n && (t[n - 1] == ' ' || t[n - 1] == ')' || t[n - 1] == ']' || t[n - 1] == '.')) n--;
    if (opens_with_any(t, n, credit_openers, sizeof credit_openers / sizeof credit_openers[0])) return 1;
    for (size_t k = 0; k < sizeof credit_closers / sizeof credit_closers[0]; k++) {
        const char *c = credit_closers[k].s;
        size_t m = credit_closers[k].n;
        /* the agency ends the line, as a word of its own */
        if (m <= n && t[n - m] == c[0] && memcmp(t + n - m, c, m) == 0 &&
            (m == n || c[0] == '/' || t[n - m - 1] == ' ' || t[n - m - 1] == '/'))
            return 1;
    }
    return 0;
}

/* Explaining: what kind of name or landmark made element x's hints h
 * (its own class/id hints: names) trusted boilerplate. */
static uint8_t name_why(const wn_node *x, uint16_t names, uint16_t h, int specific, int caption)
{
    uint16_t hb = (uint16_t)(h & WN_HINT_BOILER);
    if (caption) return WN_WHY_CAPTION;
    if (specific && hb == WN_HINT_COMMENT) return WN_WHY_COMMENT_NAME;
    if (specific && hb == WN_HINT_GALLERY) return WN_WHY_GALLERY_NAME;
    if (specific && hb == WN_HINT_OVERLAY) return WN_WHY_OVERLAY;
    if (hb == WN_HINT_COMMENT) return WN_WHY_COMMENT_MIXED_NAME;
    /* bits no class/id name gave: the element's tag or role */
    if (hb & ~names & WN_HINT_BOILER) return x->tag == WN_TAG_FORM ? WN_WHY_FORM : WN_WHY_LANDMARK;
    return WN_WHY_NAME;
}

/* Content value of a unit from its own text, before hints; *why says
 * when it is a link list or a fragment (explaining only). */
static float raw_value(const winnow_doc *d, const wn_unit_stats *u, unsigned tag, uint8_t *why)
{
    float c = (float)u->chars;
    if (u->chars == 0) return 0.0f;
    float l = (float)u->link_chars;
    float plain = c - l;
    /* a heading is a title, unless it runs on for sentences (a subtitle
     * used for a whole summary); one that is mostly links is a link list
     * (a teaser's linked title). (l > plain was the test: half of c is
     * exact in float, as c - l is below 2^24 characters.) */
    const float link_list = WN_RULE(d, LINK_LIST_SHARE);
    if (wn_tag_has(tag, WN_TF_HEADING) &&
        !(plain >= WN_RULE(d, HEADING_PROSE_CHARS) && (float)(u->stops + u->commas) >= WN_RULE(d, HEADING_PROSE_MARKS)))
        return l > link_list * c ? -c : 0.0f;
    if (l > link_list * c) {
        *why = WN_WHY_LINK_LIST;
        return -c;
    }
    float v = plain - WN_RULE(d, LINK_PENALTY) * l;
    int sentences = u->stops + u->commas;
    if (sentences == 0) {
        if (plain < WN_RULE(d, FRAGMENT_CHARS)) {
            *why = WN_WHY_FRAGMENT;
            return -WN_RULE(d, FRAGMENT_PENALTY) * c;
        }
        if (plain < WN_RULE(d, UNPUNCTUATED_CHARS)) v *= WN_RULE(d, UNPUNCTUATED_WEIGHT);
    }
    return v;
}

/* One scoring pass: the page's tables (in ps and d->labels) and the
 * scratch ones, given back when the pass is done. */
typedef struct score_pass {
    winnow_doc *d;
    wn_page_scores *ps;
    wn_explain *ex;          /* explaining, or NULL */
    float *pos;              /* per node: positive running text of its subtree */
    float total;             /* the page's positive running text, at least 1 */
    uint8_t *comments_after; /* per element: its children after a comment marker are comments */
    uint8_t *inside;         /* per node: bit 0 under a comments name, bit 1 under a gallery name */
    uint8_t *caption;        /* per node: bit 1 a caption (or its line), bit 2 at or under one */
    uint16_t untrusted;      /* names that mark the content here: a discussion's, a gallery page's */
    name_mass names;
} score_pass;

/* The page's tables in the page arena, the pass's in scratch s. */
static int pass_alloc(score_pass *sp, wn_arena *s)
{
    winnow_doc *d = sp->d;
    wn_page_scores *ps = sp->ps;
    wn_labels *lb = &d->labels;
    uint32_t n = d->dom.count;
    wn_arena *a = &d->arena;

    lb->unit = wn_arena_alloc(a, (size_t)n * sizeof(uint32_t));
    lb->value = wn_arena_calloc(a, n, sizeof(float));
    lb->templ = wn_arena_calloc(a, n, sizeof(float));
    lb->keep = wn_arena_calloc(a, n, 1);
    /* zeroed node by node in unit_texts */
    ps->own = wn_arena_array(a, n, sizeof(wn_unit_stats));
    ps->boiler = wn_arena_calloc(a, n, sizeof(uint16_t));
    ps->content_hint = wn_arena_calloc(a, n, 1);
    ps->after_marker = wn_arena_calloc(a, n, 1);
    ps->landmark = wn_arena_calloc(a, n, 1);
    ps->self_hint = wn_arena_calloc(a, n, sizeof(uint16_t));
    ps->raw = wn_arena_calloc(a, n, sizeof(float));
    sp->pos = wn_arena_array(s, n, sizeof(float)); /* every entry written in unit_values */
    sp->comments_after = wn_arena_calloc(s, n, 1);
    sp->inside = wn_arena_alloc(s, n);
    if (!sp->inside || !lb->unit || !lb->value || !lb->templ || !lb->keep || !ps->own || !ps->boiler ||
        !ps->content_hint || !ps->after_marker || !ps->landmark || !ps->self_hint || !ps->raw || !sp->pos ||
        !sp->comments_after)
        return -1;
    return 0;
}

/* Units and their own text; a node's text goes to its parent's unit, an
 * earlier node, so own[i] is zeroed just in time. Returns the elements
 * with a boilerplate hint, counted for name_mass_build. */
static size_t unit_texts(score_pass *sp)
{
    const winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    wn_labels *lb = &sp->d->labels;
    wn_unit_stats *own = sp->ps->own;
    uint32_t n = dom->count;
    size_t named = 0;
    lb->unit[0] = 0;
    if (n) memset(&own[0], 0, sizeof own[0]);
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        memset(&own[i], 0, sizeof own[i]);
        if (x->tag == WN_TAG_TEXT) {
            uint32_t u = lb->unit[x->parent];
            lb->unit[i] = u;
            wn_unit_stats *o = &own[u];
            o->chars += st[i].chars;
            o->link_chars += st[i].link_chars;
            o->stops += st[i].stops;
            o->commas += st[i].commas;
            o->words += st[i].words;
            unsigned pt = dom->nodes[x->parent].tag;
            if (!(x->flags & WN_NF_PRE) && !wn_tag_has(pt, WN_TF_CODE)) o->code += st[i].code_syms;
        } else {
            lb->unit[i] = (wn_tag_has(x->tag, WN_TF_BREAK) && !(x->flags & WN_NF_HIDDEN)) ? i : lb->unit[x->parent];
            named += (st[i].hints & WN_HINT_BOILER) != 0;
        }
    }
    return named;
}

/* Unit values, and the positive text mass per subtree, to decide which
 * hints to trust (each node's own part in the same pass). */
static void unit_values(score_pass *sp)
{
    winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    wn_page_scores *ps = sp->ps;
    float *pos = sp->pos;
    uint32_t n = dom->count;
    for (uint32_t i = 0; i < n; i++) {
        pos[i] = 0.0f;
        if (lb->unit[i] != i) continue;
        uint8_t why = WN_WHY_NONE;
        float v = ps->raw[i] = lb->value[i] = raw_value(d, &ps->own[i], dom->nodes[i].tag, &why);
        if (sp->ex) sp->ex->raw_why[i] = why;
        if (v > 0) pos[i] = v;
    }
    for (uint32_t i = n; i-- > 1;) pos[dom->nodes[i].parent] += pos[i];
    sp->total = pos[0] > 1.0f ? pos[0] : 1.0f;
}

/* A page whose running text lies (nearly) all in elements named for
 * comments is a discussion (a forum thread, its first post styled as a
 * comment too); one whose text lies all in a gallery is a gallery page.
 * There the name marks the content, not what surrounds it: those names
 * go to sp->untrusted. The caption elements go to sp->caption (allocated
 * here, every entry written), their running text to *mass. */
static int find_captions(score_pass *sp, wn_arena *s, float *mass, int *any)
{
    const winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const float *pos = sp->pos;
    uint32_t n = dom->count;
    uint8_t *inside = sp->inside;
    uint8_t *caption = sp->caption = wn_arena_array(s, n, 1);
    if (!caption) return -1;
    float caption_mass = 0.0f;
    int any_caption = 0;
    float mass_comment = 0.0f, mass_gallery = 0.0f;
    inside[0] = 0;
    caption[0] = 0;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint8_t in = inside[x->parent];
        if (x->tag != WN_TAG_TEXT && !(st[i].hints & WN_HINT_MIXED)) {
            uint16_t hb = (uint16_t)(st[i].hints & WN_HINT_BOILER);
            if (hb == WN_HINT_COMMENT && !(in & 1)) {
                mass_comment += pos[i];
                in |= 1;
            }
            if (hb == WN_HINT_GALLERY && !(in & 2)) {
                mass_gallery += pos[i];
                in |= 2;
            }
        }
        inside[i] = in;
        /* caption bit 1: a caption element (its hint in trust_names); bit
         * 2: at or under one. Pre-order: a node's parent is settled before
         * it, and the top-most caption of a nest is counted once. */
        uint8_t under = caption[x->parent] & 2;
        if (x->tag != WN_TAG_TEXT && is_caption(d, x, i)) {
            if (!under) caption_mass += pos[i];
            caption[i] = 3;
            any_caption = 1;
        } else {
            caption[i] = under;
        }
    }
    const float discussion = WN_RULE(d, DISCUSSION_SHARE);
    sp->untrusted = 0;
    if (mass_comment > discussion * sp->total) sp->untrusted |= WN_HINT_COMMENT;
    if (mass_gallery > discussion * sp->total) sp->untrusted |= WN_HINT_GALLERY;
    *mass = caption_mass;
    *any = any_caption;
    return 0;
}

/* A photo's box whose own line is mostly an inline caption (a <span
 * class="caption"> beside a credit) is the caption: its unit goes, not
 * only the span's text inside a kept unit; a unit of caption size only (a
 * credit loose in the article's element does not make the article a
 * caption). Then captions are beside the article only while they do not
 * carry the page: a tutorial whose steps are the captions of its
 * screenshots, a photo essay. */
static int settle_captions(score_pass *sp, wn_arena *s, float mass, int any)
{
    const winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const wn_labels *lb = &d->labels;
    uint8_t *caption = sp->caption;
    uint32_t n = dom->count;
    const float inline_share = WN_RULE(d, CAPTION_INLINE_SHARE);
    if (any && inline_share > 0.0f) {
        float *in_unit = wn_arena_calloc(s, n, sizeof(float));
        if (!in_unit) return -1;
        for (uint32_t i = 1; i < n; i++)
            if ((caption[i] & 1) && !(caption[dom->nodes[i].parent] & 2) && lb->unit[i] != i && lb->unit[i] != WN_NONE)
                in_unit[lb->unit[i]] += (float)st[i].chars;
        for (uint32_t u = 1; u < n; u++)
            if (in_unit[u] > 0.0f && !(caption[u] & 2) && in_unit[u] >= inline_share * (float)sp->ps->own[u].chars &&
                (float)st[u].chars <= WN_RULE(d, CAPTION_MAX_CHARS)) {
                caption[u] = 3;
                mass += sp->pos[u];
            }
    }
    if (any && mass >= WN_RULE(d, CAPTION_MAX_SHARE) * sp->total) memset(caption, 0, n);
    return 0;
}

/* Whether the name of key k (a class, a token of one, an id's stem) is the
 * page's layout: the elements bearing it hold NAME_LAYOUT_SHARE of the
 * running text together, and their text is running text, not repeated
 * teasers (a link each): less than NAME_LAYOUT_MAX_LINKS of it in links. */
static int layout_name(score_pass *sp, uint64_t k)
{
    const winnow_doc *d = sp->d;
    size_t slot = name_mass_slot(&sp->names, k);
    return sp->names.mass[slot] >= WN_RULE(d, NAME_LAYOUT_SHARE) * sp->total &&
           (float)sp->names.links[slot] < WN_RULE(d, NAME_LAYOUT_MAX_LINKS) * (float)sp->names.chars[slot];
}

/* Element i's boilerplate name trusted? A boilerplate name on an element
 * holding most of the page's running text is a layout name, not a
 * verdict; except a name that says comments, or a photo gallery, and
 * nothing else (*specific), on an element that leaves at least a tenth of
 * the running text outside it: the comments or captions of a short
 * article can outweigh it. h: its hints, own and landmark. */
static int name_trusted(score_pass *sp, uint32_t i, uint16_t h, uint32_t title, int *specific)
{
    const winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const float layout_share = WN_RULE(d, NAME_LAYOUT_SHARE), total = sp->total, *pos = sp->pos;
    uint16_t hb = (uint16_t)(h & WN_HINT_BOILER);
    *specific = (hb == WN_HINT_COMMENT || hb == WN_HINT_GALLERY) && !(h & WN_HINT_MIXED);
    /* so is an overlay (a registration pop-over with its terms) that
     * leaves the page's title heading outside it */
    if (hb == WN_HINT_OVERLAY && !(h & WN_HINT_MIXED) && title != WN_NONE && !wn_node_within(dom, i, title) &&
        WN_RULE(d, OVERLAY_SPECIFIC) > 0.0f)
        *specific = 1;
    int trusted = pos[i] < layout_share * total || (*specific && pos[i] < WN_RULE(d, SPECIFIC_NAME_SHARE) * total);
    /* (not for names of teasers, comments or photos: repetition is their nature) */
    if (trusted && !*specific && (st[i].hints & WN_HINT_BOILER) &&
        !(st[i].hints & (WN_HINT_RELATED | WN_HINT_COMMENT | WN_HINT_GALLERY))) {
        uint64_t k = class_key(dom, &dom->nodes[i]);
        /* the whole class, or one token of it that names boilerplate */
        if (k) {
            if (layout_name(sp, k)) trusted = 0;
            size_t len = 0, at = 0;
            const char *c = wn_node_attr(dom, &dom->nodes[i], "class", &len);
            int tokens = trusted && WN_RULE(d, NAME_LAYOUT_TOKENS) > 0.0f;
            while (tokens && trusted && (k = next_hint_token(&sp->names, c, len, &at)) != 0)
                if (layout_name(sp, k)) trusted = 0;
        }
        /* an id of a builder's generated series: its stem, as a token */
        if (trusted && WN_RULE(d, NAME_LAYOUT_TOKENS) > 0.0f &&
            (k = id_stem_key(&sp->names, dom, &dom->nodes[i])) != 0 && layout_name(sp, k))
            trusted = 0;
    }
    return trusted;
}

/* Names, landmarks and comment markers, trusted or not, into ps->boiler,
 * ps->content_hint, ps->after_marker and ps->self_hint, top down. */
static void trust_names(score_pass *sp)
{
    const winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    wn_page_scores *ps = sp->ps;
    wn_explain *ex = sp->ex;
    const float *pos = sp->pos;
    uint8_t *comments_after = sp->comments_after;
    uint32_t n = dom->count;
    /* an overlay name on an ancestor of the title heading is the frame
     * of an article shown in a modal */
    const uint32_t title = ps->title_heading = wn_title_heading(d);
    const int frame_rule = title != WN_NONE && WN_RULE(d, OVERLAY_HOLDS_TITLE) > 0.0f;
    const int declared_dialogs = WN_RULE(d, OVERLAY_DECLARED) > 0.0f;
    const int declared_navs = WN_RULE(d, NAV_DECLARED) > 0.0f;
    for (uint32_t i = 1; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        uint32_t p = x->parent;
        ps->boiler[i] = ps->boiler[p];
        if (ex) ex->boil_why[i] = ex->boil_why[p];
        ps->content_hint[i] = ps->content_hint[p];
        /* loose text after a comment marker (records written as text and
         * <br>s, one <hr> apart) is comments as much as elements are; the
         * selection drops it from the unit around it */
        ps->after_marker[i] = ps->after_marker[p];
        if (p != WN_NONE && comments_after[p]) {
            ps->boiler[i] |= WN_HINT_COMMENT;
            ps->after_marker[i] = 1;
            if (ex) ex->boil_why[i] = WN_WHY_COMMENT_MARKER;
        }
        if (x->tag == WN_TAG_TEXT) continue;
        int content = 0;
        uint16_t h = (uint16_t)(st[i].hints | landmark_hints(d, x, pos[i], &content));
        ps->landmark[i] = (uint8_t)content;
        if (sp->caption[i] & 1) h |= WN_HINT_GALLERY;
        if (h & WN_HINT_CONTENT) content = 1;
        ps->self_hint[i] = h;
        int specific;
        int trusted = name_trusted(sp, i, h, title, &specific);
        /* a dialog its markup declares waits to be opened, however much
         * text it holds (a privacy policy in the footer), unless it holds
         * the title heading: an article shown in a modal */
        if (!trusted && (h & WN_HINT_OVERLAY) && declared_dialogs &&
            (title == WN_NONE || !wn_node_within(dom, i, title)) && wn_node_dialog(dom, i)) {
            trusted = 1;
            specific = 1;
        }
        /* so is a <nav>: a shop's mega-menu of category words (custom
         * elements, no links) can outweigh its product */
        if (!trusted && x->tag == WN_TAG_NAV && declared_navs && (title == WN_NONE || !wn_node_within(dom, i, title)))
            trusted = 1;
        h = (uint16_t)(h & ~sp->untrusted);
        if ((h & WN_HINT_OVERLAY) && frame_rule && i != title && wn_node_within(dom, i, title)) trusted = 0;
        if ((h & WN_HINT_BOILER) && trusted) {
            ps->boiler[i] |= (uint16_t)(h & WN_HINT_BOILER);
            if (ex) ex->boil_why[i] = name_why(x, st[i].hints, h, specific, sp->caption[i] & 1);
        }
        if (st[i].chars == 0 && p != WN_NONE && !comments_after[p] && !(sp->untrusted & WN_HINT_COMMENT) &&
            is_comment_marker(d, &st[i], x, h) && marker_closes_content(d, pos, sp->total, i))
            comments_after[p] = 1;
        if (content && pos[i] > 0.0f) ps->content_hint[i] = 1;
    }
}

/* Comment threads and lists of other stories without telling names, told
 * by structure; no comments on a page whose text is all comments (a forum
 * thread). */
static int structure_regions(score_pass *sp, wn_arena *s)
{
    winnow_doc *d = sp->d;
    wn_page_scores *ps = sp->ps;
    wn_explain *ex = sp->ex;
    uint32_t n = d->dom.count;
    uint8_t *region = wn_arena_calloc(s, n, 1);
    if (!region || wn_record_regions(d, ps, sp->pos, !(sp->untrusted & WN_HINT_COMMENT), region) < 0) return -1;
    for (uint32_t i = 1; i < n; i++) {
        /* (explaining: a name that already left it out stays the reason) */
        if (ex && region[i] && !ps->boiler[i])
            ex->boil_why[i] = (region[i] & WN_REGION_COMMENT)             ? WN_WHY_COMMENT_RECORDS
                              : ex->boil_why[i] == WN_WHY_TEASER_EXCERPTS ? WN_WHY_TEASER_EXCERPTS
                                                                          : WN_WHY_TEASER_RECORDS;
        if (region[i] & WN_REGION_COMMENT) ps->boiler[i] |= WN_HINT_COMMENT;
        if (region[i] & WN_REGION_TEASER) ps->boiler[i] |= WN_HINT_RELATED;
    }
    return 0;
}

/* Hints applied to unit values; script text is boilerplate wherever it
 * is, and so are rights notices and photo credits written as lines. */
static void hinted_values(score_pass *sp)
{
    winnow_doc *d = sp->d;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    wn_page_scores *ps = sp->ps;
    wn_explain *ex = sp->ex;
    uint8_t *caption = sp->caption;
    uint32_t n = dom->count;
    for (uint32_t i = 0; i < n; i++) {
        if (lb->unit[i] != i || ps->own[i].chars == 0) continue;
        if (is_script_text(d, i, &ps->own[i])) {
            if (ex && !ps->boiler[i]) ex->boil_why[i] = WN_WHY_SCRIPT;
            ps->boiler[i] |= WN_HINT_SCRIPT;
        } else if (is_rights_notice(d, i, &ps->own[i])) {
            if (ex && !ps->boiler[i]) ex->boil_why[i] = WN_WHY_RIGHTS;
            ps->boiler[i] |= WN_HINT_FOOTER;
        } else if (!ps->boiler[i] && is_photo_credit(d, i, &ps->own[i])) {
            /* left out, and weightless like a caption */
            if (ex) ex->boil_why[i] = WN_WHY_CREDIT_LINE;
            ps->boiler[i] = WN_HINT_GALLERY;
            caption[i] |= 2;
        }
        float c = (float)ps->own[i].chars;
        float v = lb->value[i];
        uint16_t b = ps->boiler[i];
        /* a caption is left out, but weighs nothing against the block
         * around it: a section of screenshots is no worse for them */
        if (b == WN_HINT_GALLERY && (caption[i] & 2))
            v = 0.0f;
        else if (b)
            v = -c;
        /* bylines, datelines and tag lists are short; a long text in an
         * element named "...meta_field" is body text */
        else if (((ps->self_hint[i] | ps->self_hint[dom->nodes[i].parent]) & WN_HINT_META) &&
                 c < WN_RULE(d, META_MAX_CHARS))
            v = v > 0 ? 0.0f : v;
        if (!b && ps->content_hint[i] && v > 0) v *= WN_RULE(d, CONTENT_LANDMARK_BOOST);
        lb->value[i] = v;
        float t = 0.5f - v / (2.0f * c);
        lb->templ[i] = t < 0 ? 0 : (t > 1 ? 1 : t);
    }
}

int wn_page_score(winnow_doc *d, wn_page_scores *ps)
{
    score_pass sp = { .d = d, .ps = ps, .ex = d->explain };
    /* the pass's tables are scratch, given back at the end (on failure
     * the pipeline resets the scratch arena) */
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark scratch_mark = wn_arena_save(s);
    if (pass_alloc(&sp, s) != 0) return -1;
    size_t named = unit_texts(&sp);
    unit_values(&sp);
    float caption_mass;
    int any_caption;
    if (find_captions(&sp, s, &caption_mass, &any_caption) != 0) return -1;
    sp.names.hints = d->hint_cache;
    sp.names.rules = wn_doc_name_rules(d);
    if (name_mass_build(s, &d->dom, d->stats, sp.pos, named, &sp.names) != 0) return -1;
    if (settle_captions(&sp, s, caption_mass, any_caption) != 0) return -1;
    trust_names(&sp);
    if (structure_regions(&sp, s) != 0) return -1;
    hinted_values(&sp);
    wn_explain *ex = sp.ex;
    if (ex) {
        ex->boiler = ps->boiler;
        ex->self_hint = ps->self_hint;
        ex->raw = ps->raw;
        ex->own = ps->own;
        memcpy(ex->heur, d->labels.value, (size_t)d->dom.count * sizeof(float));
    }
    wn_arena_release(s, scratch_mark);
    return 0;
}
