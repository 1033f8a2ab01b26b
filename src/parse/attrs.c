/* Which of the tree builder's nodes the DOM keeps: tags mapped to winnow's,
 * elements skipped (ignored tags, SVG innards, hidden elements), and the
 * attribute tests behind them (hidden, aria-hidden, screen-reader-only
 * classes, JSON-LD scripts). Apart from the copy because these read the
 * markup's attributes, not the tree's shape. */
#include "parser_internal.h"
#include "../util/fnv.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static uint16_t map_tag(const wn_parser *p, myhtml_tree_node_t *n)
{
    myhtml_tag_id_t id = mh_tag_id(n);
    if (id < MyHTML_TAG_LAST_ENTRY) return p->tagmap[id];
    return WN_TAG_UNKNOWN; /* custom element */
}

static int ci_contains_nospace(const char *v, size_t n, const char *needle)
{
    /* "display : none" and "DISPLAY:NONE" both match "display:none" */
    size_t nl = strlen(needle);
    for (size_t i = 0; i < n; i++) {
        /* a match begins at the needle's first letter (one begun at white
         * space is also tried from the letter after it) */
        if ((char)tolower((unsigned char)v[i]) != needle[0]) continue;
        size_t a = i, b = 0;
        while (a < n && b < nl) {
            char c = (char)tolower((unsigned char)v[a]);
            if (c == ' ' || c == '\t') {
                a++;
                continue;
            }
            if (c != needle[b]) break;
            a++;
            b++;
        }
        if (b == nl) return 1;
    }
    return 0;
}

/* Whether "at" begins with the NUL-terminated word w, within n bytes. */
static int starts(const char *at, size_t n, const char *w)
{
    size_t wl = strlen(w);
    return wl <= n && memcmp(at, w, wl) == 0;
}

/* Whether a class value holds one of the screen-reader-only idioms
 * (sr-only, off-screen, offscreen, visually-hidden, visuallyhidden,
 * screen-reader, screenreader, element-invisible) anywhere. Each idiom
 * has one 's', and the letter after it tells which idioms it can be in:
 * each is tried where it would begin, at the 's' less its offset. */
static int offscreen_class(const char *v, size_t n)
{
    for (const char *q = v, *end = v + n; (q = memchr(q, 's', (size_t)(end - q))) != NULL && q + 1 < end; q++) {
        size_t at = (size_t)(q - v), left = n - at;
        switch (q[1]) {
        case 'r':
            if (starts(q, left, "sr-only")) return 1;
            break;
        case 'c':
            if (starts(q, left, "screen-reader") || starts(q, left, "screenreader")) return 1;
            if (at >= 4 && starts(q - 4, left + 4, "off-screen")) return 1;
            if (at >= 3 && starts(q - 3, left + 3, "offscreen")) return 1;
            break;
        case 'u':
            if (at >= 2 && (starts(q - 2, left + 2, "visually-hidden") || starts(q - 2, left + 2, "visuallyhidden")))
                return 1;
            break;
        case 'i':
            if (at >= 12 && starts(q - 12, left + 12, "element-invisible")) return 1;
            break;
        default: break;
        }
    }
    return 0;
}

/* Whether n is a tab's panel (role="tabpanel"): its content is a click
 * away, whichever tab the markup shows first. */
static int is_tabpanel(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (!k || kl != 4 || memcmp(k, "role", 4) != 0) continue;
        const char *v = mh_attr_value(a, &vl);
        while (v && vl && (*v == ' ' || *v == '\t')) v++, vl--;
        return v && vl >= 8 && !strncasecmp(v, "tabpanel", 8);
    }
    return 0;
}

/* Notes the ids an element that opens and closes others names
 * (aria-expanded with aria-controls: an accordion's button). */
static void note_controls(wn_parser *p, myhtml_tree_node_t *n)
{
    const char *ctl = NULL;
    size_t cl = 0;
    int expands = 0;
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (!k || kl < 13 || memcmp(k, "aria-", 5) != 0) continue;
        if (kl == 13 && memcmp(k, "aria-expanded", 13) == 0) expands = 1;
        if (kl == 13 && memcmp(k, "aria-controls", 13) == 0) ctl = mh_attr_value(a, &cl);
    }
    if (!expands || !ctl) return;
    for (size_t k = 0; k < cl && p->ncontrolled < WN_PARSE_MAX_CONTROLLED;) {
        while (k < cl && ctl[k] == ' ') k++;
        size_t s = k;
        while (k < cl && ctl[k] != ' ') k++;
        if (k > s) p->controlled[p->ncontrolled++] = wn_fnv_more(WN_FNV_OFFSET, ctl + s, k - s);
    }
}

/* Whether n's id is one an accordion's button named (note_controls). */
static int is_controlled(const wn_parser *p, myhtml_tree_node_t *n)
{
    if (!p->ncontrolled) return 0;
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (!k || kl != 2 || memcmp(k, "id", 2) != 0) continue;
        const char *v = mh_attr_value(a, &vl);
        if (!v || !vl) return 0;
        uint64_t h = wn_fnv_more(WN_FNV_OFFSET, v, vl);
        for (unsigned i = 0; i < p->ncontrolled; i++)
            if (p->controlled[i] == h) return 1;
        return 0;
    }
    return 0;
}

/* Whether a hidden n is a click away all the same: a tab's panel, an
 * accordion's. */
static int reachable(const wn_parser *p, myhtml_tree_node_t *n)
{
    return (p->show_tabpanels && is_tabpanel(n)) || (p->show_controlled && is_controlled(p, n));
}

/* Hidden: the hidden attribute, display:none, visibility:hidden, a
 * screen-reader class; 2 for the two that scripts undo once the page has
 * loaded, the hidden attribute (a server-rendered React page streams its
 * content into <div hidden id="S:0">) and visibility:hidden (a Next.js
 * page's wrapper until its styles load), which p->show_hidden lets be.
 * The first two spare what a click shows (reachable); a <dialog> not open
 * and a popover are hidden as display:none is (3), as the browser's own
 * style sheet hides them. */
int wn_parse_is_hidden(const wn_parser *p, myhtml_tree_node_t *n)
{
    /* what the user agent's style sheet hides until a script or a click
     * shows it: a <dialog> not open, a popover */
    int closed = p->hide_closed && mh_tag_id(n) == MyHTML_TAG_DIALOG;
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (!k) continue;
        if (kl == 4 && memcmp(k, "open", 4) == 0) closed = 0;
        if (p->hide_closed && kl == 7 && memcmp(k, "popover", 7) == 0 && p->show_hidden < 2) return 3;
        if (kl == 6 && memcmp(k, "hidden", 6) == 0 && !p->show_hidden) {
            if (reachable(p, n)) continue;
            return 2;
        }
        if (kl == 5 && memcmp(k, "style", 5) == 0) {
            const char *v = mh_attr_value(a, &vl);
            if (v && ci_contains_nospace(v, vl, "display:none")) {
                if (p->show_hidden >= 2) return 0;
                if (!reachable(p, n)) return 3;
            }
            if (v && !p->show_hidden && ci_contains_nospace(v, vl, "visibility:hidden")) return 2;
        }
        if (kl == 5 && memcmp(k, "class", 5) == 0) {
            /* the accessibility idioms for text only screen readers get
             * ("Image caption", "Skip to content"): not on the page */
            const char *v = mh_attr_value(a, &vl);
            /* class names are case-sensitive and these idioms lower-case:
             * a plain substring search, cheap enough for every element */
            if (v && vl >= 7 && memchr(v, 'e', vl) && offscreen_class(v, vl)) return 1;
        }
    }
    return closed && p->show_hidden < 2 ? 3 : 0;
}

int wn_parse_is_jsonld(myhtml_tree_node_t *n)
{
    for (myhtml_tree_attr_t *a = mh_attr_first(n); a; a = mh_attr_next(a)) {
        size_t kl = 0, vl = 0;
        const char *k = mh_attr_key(a, &kl);
        if (k && kl == 4 && memcmp(k, "type", 4) == 0) {
            const char *v = mh_attr_value(a, &vl);
            return v && ci_contains_nospace(v, vl, "ld+json");
        }
    }
    return 0;
}

/* The same keep/skip rule drives the counting pass and the building pass. */
int wn_parse_classify(wn_parser *p, myhtml_tree_node_t *n, uint16_t *tag)
{
    uint16_t t = map_tag(p, n);
    *tag = t;
    if (t == TAG_IGNORE) return VISIT_SKIP;
    if (t == WN_TAG_TEXT) return VISIT_KEEP;
    if (mh_namespace(n) == MyHTML_NAMESPACE_SVG && t != WN_TAG_SVG) return VISIT_SKIP;
    if (wn_tag_flags[t] & WN_TF_SKIP) return VISIT_SKIP;
    int hidden = wn_parse_is_hidden(p, n);
    if (hidden == 2) p->script_hidden++;
    if (hidden == 3) p->display_hidden++;
    if (hidden) return VISIT_SKIP;
    if (p->show_controlled && mh_attr_first(n)) note_controls(p, n);
    return VISIT_KEEP;
}
