/* The posts of a thread page (a forum topic, a question and its answers),
 * first post first, each with its author and date: from the page's
 * schema.org microdata when it marks two posts or more, else from the
 * page's structure (the run of post records holding most of its running
 * text). See records.h, wn_thread_posts. */
#include "records_internal.h"

#include <string.h>
#include <strings.h>

#include "../util/buf.h"

/* ---- schema.org microdata ---- */

enum { ITEM_NONE, ITEM_POST, ITEM_COMMENT, ITEM_QA };

/* Whether the space-separated tokens v[0..n) hold t. */
static int has_token(const char *v, size_t n, const char *t)
{
    size_t tl = strlen(t), i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r' || v[i] == '\f')) i++;
        size_t b = i;
        while (i < n && !(v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r' || v[i] == '\f')) i++;
        if (i - b == tl && memcmp(v + b, t, tl) == 0) return 1;
    }
    return 0;
}

/* The kind of item element x is: a posting (DiscussionForumPosting,
 * SocialMediaPosting), a comment (Comment), a question or an answer;
 * ITEM_NONE for any other element. */
static int item_kind(const wn_dom *dom, const wn_node *x)
{
    if (!x->attr_count || !wn_node_attr(dom, x, "itemscope", NULL)) return ITEM_NONE;
    size_t n = 0;
    const char *v = wn_node_attr(dom, x, "itemtype", &n);
    if (!v) return ITEM_NONE;
    static const struct {
        const char *name;
        int kind;
    } types[] = {
        { "DiscussionForumPosting", ITEM_POST },
        { "SocialMediaPosting", ITEM_POST },
        { "Comment", ITEM_COMMENT },
        { "Question", ITEM_QA },
        { "Answer", ITEM_QA },
    };
    size_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r')) i++;
        size_t b = i;
        while (i < n && !(v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r')) i++;
        /* the type's name: the token's last path segment */
        size_t s = i;
        while (s > b && v[s - 1] != '/' && v[s - 1] != '#') s--;
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
            if (strlen(types[k].name) == i - s && !strncasecmp(v + s, types[k].name, i - s)) return types[k].kind;
    }
    return ITEM_NONE;
}

/* An item's own properties (not those of an item inside it): its text,
 * author and date elements, WN_NONE when absent. */
typedef struct item_props {
    uint32_t item, text, author, date;
} item_props;

static void read_props(const wn_dom *dom, uint32_t item, item_props *p)
{
    p->item = item;
    p->text = p->author = p->date = WN_NONE;
    for (uint32_t k = item + 1; k < item + dom->nodes[item].size; k++) {
        const wn_node *x = &dom->nodes[k];
        if (x->tag == WN_TAG_TEXT || !x->attr_count) continue;
        size_t n = 0;
        const char *ip = wn_node_attr(dom, x, "itemprop", &n);
        if (ip) {
            if (p->text == WN_NONE && (has_token(ip, n, "text") || has_token(ip, n, "articleBody"))) p->text = k;
            if (p->author == WN_NONE && has_token(ip, n, "author")) p->author = k;
            if (p->date == WN_NONE && (has_token(ip, n, "datePublished") || has_token(ip, n, "dateCreated")))
                p->date = k;
        }
        /* an item inside: its properties are its own */
        if (wn_node_attr(dom, x, "itemscope", NULL)) k += x->size - 1;
    }
}

/* Whether node k lies inside an item nested in `item` (an element with
 * itemscope strictly between them). */
static int in_nested_item(const wn_dom *dom, uint32_t item, uint32_t k)
{
    for (uint32_t a = dom->nodes[k].parent; a != WN_NONE && a != item && a > item; a = dom->nodes[a].parent)
        if (dom->nodes[a].tag != WN_TAG_TEXT && wn_node_attr(dom, &dom->nodes[a], "itemscope", NULL)) return 1;
    return 0;
}

/* Text that is not the item's own body: inside a nested item, its author or
 * date, or a short line that is no sentence ("Reply", "Like"). */
typedef struct own_ctx {
    const page *pg;
    const item_props *p;
} own_ctx;

static int not_own(const void *ctx, uint32_t k)
{
    const own_ctx *o = ctx;
    const winnow_doc *d = o->pg->d;
    const wn_dom *dom = &d->dom;
    const item_props *p = o->p;
    uint32_t u = d->labels.unit[k];
    return (p->author != WN_NONE && wn_node_within(dom, p->author, k)) ||
           (p->date != WN_NONE && wn_node_within(dom, p->date, k)) ||
           (p->text == WN_NONE && o->pg->ps->raw[u] <= 0.0f &&
            (float)o->pg->ps->own[u].chars <= WN_RULE(d, COMMENT_LINE_CHARS)) ||
           in_nested_item(dom, p->item, k);
}

/* s without its leading and trailing spaces, in the page arena (s itself
 * when it has none); NULL when out of memory. */
static const char *trimmed(winnow_doc *d, const char *s)
{
    if (!s) return NULL;
    size_t b = 0, e = strlen(s);
    while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\t')) b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t')) e--;
    if (b == 0 && s[e] == '\0') return s;
    return wn_arena_strndup(&d->arena, s + b, e - b);
}

/* Display text of node i without what not_own leaves out (the items
 * nested in the post, its author and date), trimmed, in the page arena;
 * NULL when out of memory. */
static const char *own_text(const page *pg, const item_props *p, uint32_t i)
{
    winnow_doc *d = pg->d;
    wn_buf b;
    wn_buf_init(&b);
    own_ctx ctx = { pg, p };
    wn_node_text(&d->dom, i, &b, not_own, &ctx);
    const char *out = b.oom ? NULL : wn_arena_strndup(&d->arena, b.data ? b.data : "", b.len);
    wn_buf_free(&b);
    return trimmed(d, out);
}

/* An attribute's value in the page arena, trimmed; "" when absent. */
static const char *attr_text(winnow_doc *d, uint32_t i, const char *name)
{
    const char *v = wn_node_attr(&d->dom, &d->dom.nodes[i], name, NULL);
    return v ? trimmed(d, v) : "";
}

static int shown(const winnow_doc *d, uint32_t i)
{
    return !(d->dom.nodes[i].flags & WN_NF_HIDDEN) && d->stats[i].chars > 0;
}

/* The author's name: its own "name" property (a <meta> gives its content),
 * else its text when it is a name's length, else the name-like line
 * inside it. */
static const char *author_name(const page *pg, uint32_t a)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    for (uint32_t k = a + 1; k < a + dom->nodes[a].size; k++) {
        const wn_node *x = &dom->nodes[k];
        size_t n = 0;
        const char *ip = x->tag != WN_TAG_TEXT && x->attr_count ? wn_node_attr(dom, x, "itemprop", &n) : NULL;
        if (!ip || !has_token(ip, n, "name")) continue;
        if (x->tag == WN_TAG_META) return attr_text(d, k, "content");
        const char *t = trimmed(d, wn_display_text(pg, k, NULL));
        if (!t || *t) return t;
    }
    if (dom->nodes[a].tag == WN_TAG_META) return attr_text(d, a, "content");
    if (!shown(d, a)) return "";
    if ((float)d->stats[a].chars <= WN_RULE(d, COMMENT_AUTHOR_CHARS)) return trimmed(d, wn_display_text(pg, a, NULL));
    record_signs rs;
    wn_read_record(pg, a, &rs);
    return rs.author != WN_NONE ? trimmed(d, wn_display_text(pg, rs.author, NULL)) : "";
}

/* Whether element i shows a date. */
static int shows_date(const winnow_doc *d, uint32_t i)
{
    size_t n;
    const char *t = wn_text_of(d, i, &n);
    return shown(d, i) && wn_has_date(t, n);
}

/* The machine-readable date of element i: its datetime or content
 * attribute, or that of a <time> inside it; "" when none. */
static const char *machine_date(winnow_doc *d, uint32_t i)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t k = i; k < i + dom->nodes[i].size; k++) {
        const wn_node *x = &dom->nodes[k];
        if (x->tag == WN_TAG_TEXT || !x->attr_count || (k != i && x->tag != WN_TAG_TIME)) continue;
        const char *v = wn_node_attr(dom, x, "datetime", NULL);
        if (!v && k == i) v = wn_node_attr(dom, x, "content", NULL);
        if (v && *v) return trimmed(d, v);
    }
    return "";
}

/* Whether date text s is a time alone ("3:21pm", "21:05"): two numbers
 * parted by ':' and no other. */
static int time_only(const char *s)
{
    int groups = 0, colon = 0;
    for (const char *p = s; *p;) {
        if (*p >= '0' && *p <= '9') {
            groups++;
            while (*p >= '0' && *p <= '9') p++;
            if (groups == 1 && *p == ':') colon = 1;
            continue;
        }
        p++;
    }
    return groups == 2 && colon;
}

/* The date element i shows; its machine-readable date instead when what
 * it shows is relative ("3 hours ago", "yesterday") and it has one. */
static const char *post_date(const page *pg, uint32_t i)
{
    winnow_doc *d = pg->d;
    size_t n;
    const char *t = wn_text_of(d, i, &n);
    if (wn_each_word(t, n, wn_relative_word, NULL)) {
        const char *v = machine_date(d, i);
        if (!v || *v) return v;
    }
    const char *shown = trimmed(d, wn_date_text(pg, i));
    if (!shown || !time_only(shown)) return shown;
    /* a time alone: the element around it holding the day too, a date's
     * length (COMMENT_AUTHOR_CHARS: "3:21pm On Mar 09, 2023") */
    uint32_t wide = WN_NONE, line = d->labels.unit[i];
    for (uint32_t a = d->dom.nodes[i].parent; a != WN_NONE && a != 0; a = d->dom.nodes[a].parent) {
        if ((float)d->stats[a].chars > WN_RULE(d, COMMENT_AUTHOR_CHARS)) break;
        wide = a;
        if (a == line) break;
    }
    if (wide == WN_NONE) return shown;
    const char *whole = trimmed(d, wn_display_text(pg, wide, NULL));
    return whole && strstr(whole, shown) && !time_only(whole) ? whole : shown;
}

/* Whether the date strings a and b name the same minute: their first
 * twelve digits (year, month, day, hour, minute) are the same. */
static int same_minute(const char *a, const char *b)
{
    int n = 0;
    while (n < 12) {
        while (*a && (*a < '0' || *a > '9')) a++;
        while (*b && (*b < '0' || *b > '9')) b++;
        if (!*a || !*b || *a != *b) return 0;
        a++, b++, n++;
    }
    return 1;
}

/* The first shown <time> of subtree r outside the items nested in `item`
 * that shows a date; with value v, one whose datetime (or any element's
 * title) names v's minute; WN_NONE when none. */
static uint32_t shown_time(const winnow_doc *d, uint32_t item, uint32_t r, const char *v)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t k = r; k < r + dom->nodes[r].size; k++) {
        const wn_node *x = &dom->nodes[k];
        if (x->tag == WN_TAG_TEXT || !x->attr_count) continue;
        if (k != item && wn_node_attr(dom, x, "itemscope", NULL)) {
            k += x->size - 1;
            continue;
        }
        if (v && x->tag != WN_TAG_TIME) {
            /* a date shown with its time in a title ("Mar 3 at 9:15",
             * title "2024-03-03 09:15:00Z") */
            const char *title = wn_node_attr(dom, x, "title", NULL);
            if (title && same_minute(v, title) && shows_date(d, k)) return k;
            continue;
        }
        if (x->tag != WN_TAG_TIME || !shows_date(d, k)) continue;
        const char *dt = wn_node_attr(dom, x, "datetime", NULL);
        if (!v || (dt && same_minute(v, dt))) return k;
    }
    return WN_NONE;
}

/* The post's date as shown: its date property's text when it shows one;
 * else the item's shown <time> of the property's minute, or the first
 * shown <time> of the post's record; else the property's datetime or
 * content. */
static const char *item_date(const page *pg, const item_props *p, uint32_t record)
{
    winnow_doc *d = pg->d;
    if (p->date != WN_NONE && shows_date(d, p->date)) return post_date(pg, p->date);
    const char *v = p->date != WN_NONE ? machine_date(d, p->date) : "";
    if (v && !*v && p->date != WN_NONE) v = trimmed(d, wn_display_text(pg, p->date, NULL));
    if (!v) return NULL;
    uint32_t t = *v ? shown_time(d, p->item, p->item, v) : WN_NONE;
    if (t == WN_NONE) t = shown_time(d, p->item, record, NULL);
    return t != WN_NONE ? post_date(pg, t) : v;
}

/* The nearest element holding both a and b. */
static uint32_t common_ancestor(const wn_dom *dom, uint32_t a, uint32_t b)
{
    while (a != WN_NONE && !wn_node_within(dom, a, b)) a = dom->nodes[a].parent;
    return a;
}

/* Item i as a post into c: its text property (else its own text), author
 * and date. 1 when it is one (it shows text of its own), 0 when not, -1
 * when out of memory. */
static int item_post(const page *pg, uint32_t i, wn_comment *c)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    item_props p;
    read_props(dom, i, &p);
    /* a text property out of sight (a <meta>'s title) says the post is
     * elsewhere */
    if (p.text != WN_NONE && !shown(d, p.text)) return 0;
    /* without a text property, an item with neither author nor date is a
     * wrapper of others, no post */
    if (p.text == WN_NONE && p.author == WN_NONE && p.date == WN_NONE) return 0;
    uint32_t record = i;
    if (p.text != WN_NONE && p.author != WN_NONE) record = common_ancestor(dom, p.author, p.text);
    c->node = p.text != WN_NONE ? record : i;
    c->text = own_text(pg, &p, p.text != WN_NONE ? p.text : i);
    if (!c->text) return -1;
    if (!*c->text) return 0;
    c->author = p.author != WN_NONE ? author_name(pg, p.author) : "";
    c->date = item_date(pg, &p, record);
    return c->author && c->date ? 1 : -1;
}

/* Whether record r holds, or lies in, the record of one of the posts found. */
static int overlaps_post(const winnow_doc *d, uint32_t r)
{
    for (size_t k = 0; k < d->nposts; k++)
        if (wn_node_within(&d->dom, r, d->posts[k].node) || wn_node_within(&d->dom, d->posts[k].node, r)) return 1;
    return 0;
}

static void reverse(wn_comment *c, size_t n)
{
    for (size_t i = 0; i + 1 < n - i; i++) {
        wn_comment t = c[i];
        c[i] = c[n - 1 - i];
        c[n - 1 - i] = t;
    }
}

/* The element of record s in the place of element e of record f (two
 * records of one shape): the same tags with the same class tokens on the
 * way down from the record; WN_NONE when none. */
static uint32_t analog(const page *pg, uint32_t f, uint32_t e, uint32_t s)
{
    const wn_dom *dom = &pg->d->dom;
    if (e == WN_NONE || !wn_node_within(dom, f, e) || e == f) return WN_NONE;
    uint32_t levels = dom->nodes[e].depth - dom->nodes[f].depth;
    for (uint32_t x = s + 1; x < s + dom->nodes[s].size; x++) {
        if (dom->nodes[x].depth - dom->nodes[s].depth != levels) continue;
        uint32_t a = x, b = e;
        while (b != f && dom->nodes[a].tag == dom->nodes[b].tag && wn_shape_cls(pg, a) == wn_shape_cls(pg, b)) {
            a = dom->nodes[a].parent;
            b = dom->nodes[b].parent;
        }
        if (b == f) return x;
    }
    return WN_NONE;
}

/* The name element of author element a: its "name" property, else a. */
static uint32_t name_element(const wn_dom *dom, uint32_t a)
{
    for (uint32_t k = a + 1; a != WN_NONE && k < a + dom->nodes[a].size; k++) {
        const wn_node *x = &dom->nodes[k];
        size_t n = 0;
        const char *ip = x->tag != WN_TAG_TEXT && x->attr_count ? wn_node_attr(dom, x, "itemprop", &n) : NULL;
        if (ip && has_token(ip, n, "name")) return k;
    }
    return a;
}

/* Record s, of the shape of the first item f, as a post: its text, author
 * and date in the places of f's properties, else read as a comment is. */
static int analog_post(const page *pg, uint32_t f, uint32_t s, wn_comment *c)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    item_props p;
    read_props(dom, f, &p);
    record_signs rs;
    wn_read_record(pg, s, &rs);
    uint32_t t = analog(pg, f, p.text, s), a = WN_NONE;
    /* the name's place, or that of an element around it up to the author's
     * (a name linked in both, marked in one) */
    for (uint32_t e = name_element(dom, p.author); a == WN_NONE && e != WN_NONE && p.author != WN_NONE;
         e = e == p.author ? WN_NONE : dom->nodes[e].parent) {
        a = analog(pg, f, e, s);
        if (a != WN_NONE && dom->nodes[a].tag != WN_TAG_META &&
            (!shown(d, a) || (float)d->stats[a].chars > WN_RULE(d, COMMENT_AUTHOR_CHARS)))
            a = WN_NONE;
    }
    uint32_t dt = analog(pg, f, p.date, s);
    if (dt != WN_NONE && !shows_date(d, dt)) dt = WN_NONE;
    if (a != WN_NONE) rs.author = a;
    if (dt != WN_NONE) rs.date = dt;
    if (rs.date == WN_NONE && rs.author == WN_NONE) return 0;
    if (wn_record_entry(pg, s, &rs, c) != 0) return -1;
    if (t != WN_NONE && shown(d, t)) c->text = wn_display_text(pg, t, NULL);
    if (a != WN_NONE && dom->nodes[a].tag == WN_TAG_META) c->author = attr_text(d, a, "content");
    c->author = trimmed(d, c->author);
    c->date = rs.date != WN_NONE ? post_date(pg, rs.date) : "";
    c->text = trimmed(d, c->text);
    return c->author && c->date && c->text ? 1 : -1;
}

/* Records of the first item's shape just before it that the microdata
 * leaves out (a forum's first post, described in JSON-LD only, over
 * replies marked as comments): read in the places of the item's
 * properties, and put first. */
static int first_posts(const page *pg, uint32_t first, size_t *cap)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    size_t before = 0;
    uint32_t top = first;
    for (uint32_t s = dom->nodes[first].parent != WN_NONE ? dom->nodes[dom->nodes[first].parent].first_child : WN_NONE;
         s != WN_NONE && s != first; s = dom->nodes[s].next_sibling) {
        if (dom->nodes[s].tag == WN_TAG_TEXT || !wn_visible_element(dom, d->stats, s)) continue;
        /* the run up to the first item: a record of another shape ends it */
        if (!wn_alike(pg, s, first) || overlaps_post(d, s)) {
            top = first;
            before = 0;
            continue;
        }
        if (before++ == 0) top = s;
    }
    if (!before) return 0;
    size_t old = d->nposts;
    for (uint32_t s = top; s != first; s = dom->nodes[s].next_sibling) {
        if (dom->nodes[s].tag == WN_TAG_TEXT || !wn_visible_element(dom, d->stats, s)) continue;
        wn_comment c;
        int r = analog_post(pg, first, s, &c);
        if (r < 0) return -1;
        if (!r) continue;
        wn_comment *slot = wn_record_push(d, &d->posts, &d->nposts, cap);
        if (!slot) return -1;
        *slot = c;
    }
    /* the new ones first: the list turned by three reversals */
    reverse(d->posts, old);
    reverse(d->posts + old, d->nposts - old);
    reverse(d->posts, d->nposts);
    return 0;
}

/* The posts the page's microdata marks, in document order: postings,
 * comments, questions and answers, but comments on a question or an answer
 * (a Q&A page's posts are its question and answers). */
static int microdata_posts(const page *pg, size_t *cap)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    enum { DEPTH = 32 };
    uint32_t qa_end[DEPTH], first = WN_NONE;
    int nqa = 0;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        while (nqa > 0 && i >= qa_end[nqa - 1]) nqa--;
        if (x->tag == WN_TAG_TEXT || !x->attr_count) continue;
        int kind = item_kind(dom, x);
        if (kind == ITEM_NONE) continue;
        if ((x->flags & WN_NF_HIDDEN) || d->stats[i].chars == 0) {
            i += x->size - 1;
            continue;
        }
        if (kind == ITEM_QA && nqa < DEPTH) qa_end[nqa++] = i + x->size;
        if (kind == ITEM_COMMENT && nqa > 0) continue;
        wn_comment c;
        int r = item_post(pg, i, &c);
        if (r < 0) return -1;
        /* (an item repeating the one before: a topic's header over its first post) */
        if (!r || (d->nposts && !strcmp(d->posts[d->nposts - 1].text, c.text))) continue;
        wn_comment *slot = wn_record_push(d, &d->posts, &d->nposts, cap);
        if (!slot) return -1;
        *slot = c;
        if (first == WN_NONE) first = i;
    }
    return first != WN_NONE && d->nposts >= 2 ? first_posts(pg, first, cap) : 0;
}

/* ---- structure ---- */

/* Records of a run tried as the reference for where a post's body lies. */
enum { POSTS_REFERENCES = 8 };

/* The smallest element of record r holding all its running text (units of
 * positive value longer than a header's line, COMMENT_LINE_CHARS), the
 * subtree of skip left out (WN_NONE: none); WN_NONE when it has none. */
static uint32_t running_text(const page *pg, uint32_t r, uint32_t skip)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    uint32_t lca = WN_NONE;
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++) {
        if (i == skip) {
            i += dom->nodes[i].size - 1;
            continue;
        }
        if (dom->nodes[i].tag == WN_TAG_TEXT || d->labels.unit[i] != i || pg->ps->raw[i] <= 0.0f ||
            (float)pg->ps->own[i].chars <= WN_RULE(d, COMMENT_LINE_CHARS) || (dom->nodes[i].flags & WN_NF_HIDDEN))
            continue;
        lca = lca == WN_NONE ? i : common_ancestor(dom, lca, i);
    }
    return lca;
}

/* Whether every unit with text in subtree p outside subtree in is running
 * text (of positive value, not a short line with a date). */
static int all_running(const page *pg, uint32_t p, uint32_t in)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    for (uint32_t i = p; i < p + dom->nodes[p].size; i++) {
        if (i == in) {
            i += dom->nodes[i].size - 1;
            continue;
        }
        if (dom->nodes[i].tag == WN_TAG_TEXT || d->labels.unit[i] != i || pg->ps->own[i].chars == 0 ||
            (dom->nodes[i].flags & WN_NF_HIDDEN))
            continue;
        /* (a short line with a date is the post's header: "Posted May 3") */
        size_t n;
        const char *t = wn_text_of(d, i, &n);
        if (pg->ps->raw[i] <= 0.0f ||
            ((float)pg->ps->own[i].chars <= WN_RULE(d, COMMENT_LINE_CHARS) && wn_has_date(t, n)))
            return 0;
    }
    return 1;
}

/* A post's body in record r: the element holding its running text
 * (running_text), widened while the element around it holds nothing else
 * but running text (a short last paragraph); WN_NONE when none. */
static uint32_t post_body(const page *pg, uint32_t r, uint32_t skip)
{
    const wn_dom *dom = &pg->d->dom;
    uint32_t b = running_text(pg, r, skip);
    while (b != WN_NONE && b != r && dom->nodes[b].parent != r && dom->nodes[b].parent != WN_NONE &&
           (skip == WN_NONE || !wn_node_within(dom, dom->nodes[b].parent, skip)) &&
           all_running(pg, dom->nodes[b].parent, b))
        b = dom->nodes[b].parent;
    return b;
}

/* A name on the date's line ("keepingsanity · 03/03/2026 19:49"), for a
 * record whose author has no element of its own: the line around the date
 * (up to two levels above it, inside record r) without the date and the
 * marks between them, when that is a name's length (COMMENT_AUTHOR_CHARS,
 * COMMENT_AUTHOR_WORDS) with a letter; "" when none, NULL when out of
 * memory. */
static const char *author_beside_date(const page *pg, uint32_t r, uint32_t date, const char *shown_date)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    uint32_t line = date;
    for (int up = 0; up < 2 && line != r && dom->nodes[line].parent != WN_NONE; up++) {
        line = dom->nodes[line].parent;
        if (d->stats[line].chars > d->stats[date].chars) break;
    }
    if (d->stats[line].chars <= d->stats[date].chars || (float)d->stats[line].chars > WN_RULE(d, COMMENT_LINE_CHARS))
        return "";
    const char *t = trimmed(d, wn_display_text(pg, line, NULL)), *full = trimmed(d, wn_display_text(pg, date, NULL));
    if (!t || !full || !shown_date) return NULL;
    const char *at = *full ? strstr(t, full) : NULL;
    if (!at) return "";
    /* the text before the date, without the marks that part them */
    size_t e = (size_t)(at - t);
    while (e > 0 && (strchr(" ,|-:", t[e - 1]) || (unsigned char)t[e - 1] >= 0x80)) {
        if ((unsigned char)t[e - 1] >= 0x80) {
            /* a mark of several bytes: "·", "•", "—" (a letter stops it) */
            size_t b = e - 1;
            while (b > 0 && ((unsigned char)t[b] & 0xC0) == 0x80) b--;
            if (!(e - b == 2 && (unsigned char)t[b] == 0xC2) && !(e - b == 3 && (unsigned char)t[b] == 0xE2)) break;
            e = b;
            continue;
        }
        e--;
    }
    size_t words = 0, letters = 0;
    for (size_t k = 0; k < e; k++) {
        words += (k == 0 || t[k - 1] == ' ') && t[k] != ' ';
        letters += (t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') || (unsigned char)t[k] >= 0x80;
    }
    if (!e || !letters || (float)e > WN_RULE(d, COMMENT_AUTHOR_CHARS) ||
        (float)words > WN_RULE(d, COMMENT_AUTHOR_WORDS))
        return "";
    return wn_arena_strndup(&d->arena, t, e);
}

/* A run of post records: sibling elements first..last (end: past the
 * last one's subtree) and the running text they hold. */
typedef struct post_run {
    uint32_t first, last, end;
    float mass;
} post_run;

/* Of the runs inside [begin, end), the one with the most running text if
 * that is POSTS_INNER_SHARE of mass or more (and, with texts_needed,
 * POSTS_MIN_RECORDS of its records hold running text); NULL when none. */
static const post_run *inner_run(const page *pg, const post_run *runs, size_t nruns, uint32_t begin, uint32_t end,
                                 float mass, int texts_needed)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    const post_run *in = NULL;
    for (size_t j = 0; j < nruns; j++)
        if (runs[j].first > begin && runs[j].first < end && (!in || runs[j].mass > in->mass)) in = &runs[j];
    if (!in || in->mass < WN_RULE(d, POSTS_INNER_SHARE) * mass) return NULL;
    if (!texts_needed) return in;
    /* posts, each of running text of its own (not a post's header over its
     * body, nor a quote under its caption) */
    unsigned texts = 0;
    for (uint32_t r = in->first; r != WN_NONE; r = r == in->last ? WN_NONE : dom->nodes[r].next_sibling)
        texts += dom->nodes[r].tag != WN_TAG_TEXT && running_text(pg, r, WN_NONE) != WN_NONE;
    return (float)texts >= WN_RULE(d, POSTS_MIN_RECORDS) ? in : NULL;
}

/* Whether record r is part of the page's frame by its name or landmark:
 * header, footer, navigation, sidebar (no post, whatever it shows). */
static int frame_part(const page *pg, uint32_t r)
{
    return (pg->ps->boiler[r] & (WN_HINT_HEADER | WN_HINT_FOOTER | WN_HINT_NAV | WN_HINT_SIDEBAR)) != 0;
}

/* Whether a record of run `run` other than the one holding run `in` is a
 * post of its own: an author, a date with a number and running text. */
static int post_beside(const page *pg, const post_run *run, const post_run *in)
{
    const wn_dom *dom = &pg->d->dom;
    for (uint32_t r = run->first; r != WN_NONE; r = r == run->last ? WN_NONE : dom->nodes[r].next_sibling) {
        if (dom->nodes[r].tag == WN_TAG_TEXT || wn_node_within(dom, r, in->first) || frame_part(pg, r)) continue;
        record_signs rs;
        wn_read_record(pg, r, &rs);
        if (rs.author == WN_NONE || rs.date == WN_NONE || running_text(pg, r, WN_NONE) == WN_NONE) continue;
        /* (a date with its number: a site's "Today's posts" is none) */
        size_t n;
        const char *t = wn_text_of(pg->d, rs.date, &n);
        for (size_t k = 0; k < n; k++)
            if (t[k] >= '0' && t[k] <= '9') return 1;
    }
    return 0;
}

/* How deep emit_run follows runs inside records. */
enum { POSTS_NESTING = 4 };

/* The records of run `run` into d->posts, each with its body in the place
 * where most of the run's records hold theirs; a record holding a run of
 * POSTS_INNER_SHARE of its running text (a thread's first post beside the
 * list of its replies, a comment over its replies) gives its own post, if
 * it has one outside that run, then the run's records. */
static int emit_run(const page *pg, const post_run *runs, size_t nruns, const post_run *run, int depth, size_t *cap)
{
    winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t ref = WN_NONE, ref_body = WN_NONE;
    unsigned ref_hits = 0, tried = 0;
    for (uint32_t f = run->first; f != WN_NONE && tried < POSTS_REFERENCES;
         f = f == run->last ? WN_NONE : dom->nodes[f].next_sibling) {
        uint32_t fb = dom->nodes[f].tag == WN_TAG_TEXT ? WN_NONE : post_body(pg, f, WN_NONE);
        if (fb == WN_NONE) continue;
        tried++;
        unsigned hits = 0;
        for (uint32_t r = run->first; r != WN_NONE; r = r == run->last ? WN_NONE : dom->nodes[r].next_sibling)
            if (dom->nodes[r].tag != WN_TAG_TEXT && r != f && analog(pg, f, fb, r) != WN_NONE) hits++;
        if (ref == WN_NONE || hits > ref_hits) {
            ref = f;
            ref_body = fb;
            ref_hits = hits;
        }
    }
    for (uint32_t r = run->first; r != WN_NONE; r = r == run->last ? WN_NONE : dom->nodes[r].next_sibling) {
        if (dom->nodes[r].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, r) || frame_part(pg, r)) continue;
        /* replies inside the record (a thread in a tree, a first post's
         * list of replies): the record's own post, if it has one, then
         * theirs */
        const post_run *in =
            depth < POSTS_NESTING ? inner_run(pg, runs, nruns, r, r + dom->nodes[r].size, pg->pos[r], 1) : NULL;
        uint32_t skip = WN_NONE;
        if (in)
            for (skip = in->first; dom->nodes[skip].parent != r;) skip = dom->nodes[skip].parent;
        record_signs rs;
        wn_read_record(pg, r, &rs);
        if (skip != WN_NONE && rs.date != WN_NONE && wn_node_within(dom, skip, rs.date)) rs.date = WN_NONE;
        if (skip != WN_NONE && rs.author != WN_NONE && wn_node_within(dom, skip, rs.author)) rs.author = WN_NONE;
        /* a post shows who and when, or at least running text (a bar of
         * buttons and page links of the records' shape does not) */
        uint32_t own = post_body(pg, r, skip);
        if ((rs.date != WN_NONE && rs.author != WN_NONE) || own != WN_NONE) {
            wn_comment *c = wn_record_push(d, &d->posts, &d->nposts, cap);
            if (!c || wn_record_entry(pg, r, &rs, c) != 0) return -1;
            uint32_t body = ref == WN_NONE ? WN_NONE : r == ref ? ref_body : analog(pg, ref, ref_body, r);
            if (body == WN_NONE || (skip != WN_NONE && wn_node_within(dom, skip, body))) body = own;
            if (body != WN_NONE && skip != WN_NONE && wn_node_within(dom, body, skip)) body = WN_NONE;
            if (body != WN_NONE && shown(d, body)) c->text = wn_display_text(pg, body, NULL);
            c->author = trimmed(d, c->author);
            c->date = rs.date != WN_NONE ? post_date(pg, rs.date) : "";
            c->text = trimmed(d, c->text);
            if (c->author && !*c->author && rs.date != WN_NONE) c->author = author_beside_date(pg, r, rs.date, c->date);
            if (!c->author || !c->date || !c->text) return -1;
        }
        if (in && emit_run(pg, runs, nruns, in, depth + 1, cap) != 0) return -1;
    }
    return 0;
}

/* The post records' run: sibling records of one shape (wn_alike),
 * POSTS_MIN_RECORDS or more, COMMENT_HEADER_SHARE of them and at least
 * POSTS_MIN_RECORDS showing an author and a date over COMMENT_MIN_LINES
 * lines, few of its characters links (COMMENT_MAX_LINKS), holding
 * POSTS_MIN_SHARE of the page's running text (or of what the selection
 * kept); of those, the one with the most running text, or one inside its
 * records that holds POSTS_INNER_SHARE of that. Its records into d->posts. */
static int structure_posts(const page *pg, const float *pos, const float *kept, size_t *cap)
{
    winnow_doc *d = pg->d;
    const wn_page_scores *ps = pg->ps;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const float min_records = WN_RULE(d, POSTS_MIN_RECORDS);
    const float header_share = WN_RULE(d, COMMENT_HEADER_SHARE), max_links = WN_RULE(d, COMMENT_MAX_LINKS);
    const float min_lines = WN_RULE(d, COMMENT_MIN_LINES);
    /* the share of the page's running text, or of what the selection kept */
    const float min_mass = WN_RULE(d, POSTS_MIN_SHARE) * pos[0];
    const float min_kept = WN_RULE(d, POSTS_MIN_SHARE) * kept[0];
    if (min_records > (float)dom->count) return 0;
    post_run *runs = wn_arena_array(wn_doc_scratch(d), dom->count, sizeof *runs);
    if (!runs) return -1;
    size_t nruns = 0;
    for (uint32_t p = 1; p < dom->count; p++) {
        const wn_node *px = &dom->nodes[p];
        if (px->tag == WN_TAG_TEXT || (px->flags & WN_NF_HIDDEN) || (pos[p] < min_mass && kept[p] < min_kept) ||
            pos[p] <= 0.0f || (ps->boiler[p] & WN_HINT_BOILER & ~WN_HINT_COMMENT))
            continue;
        uint32_t c = px->first_child;
        while (c != WN_NONE) {
            if (!wn_visible_element(dom, st, c)) {
                c = dom->nodes[c].next_sibling;
                continue;
            }
            uint32_t first = c, last = c, count = 1;
            uint32_t k = dom->nodes[c].next_sibling;
            for (; k != WN_NONE; k = dom->nodes[k].next_sibling) {
                if (dom->nodes[k].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, k)) continue;
                if (!wn_alike(pg, last, k)) break;
                last = k;
                count++;
            }
            c = k;
            unsigned tag = dom->nodes[first].tag;
            if ((float)count < min_records || tag == WN_TAG_TR || tag == WN_TAG_TD || tag == WN_TAG_TH) continue;
            uint32_t chars = 0, links = 0, posts = 0;
            float mass = 0.0f, held = 0.0f;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                chars += st[r].chars;
                links += st[r].link_chars;
                mass += pos[r];
                held += kept[r];
            }
            if ((mass < min_mass && held < min_kept) || mass <= 0.0f || (float)links > max_links * (float)chars)
                continue;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                if (dom->nodes[r].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, r)) continue;
                record_signs rs;
                wn_read_record(pg, r, &rs);
                /* (a name beside the date, not in an element of its own, will do) */
                const char *beside = NULL;
                if (rs.author == WN_NONE && rs.date != WN_NONE &&
                    !(beside = author_beside_date(pg, r, rs.date, post_date(pg, rs.date))))
                    return -1;
                posts +=
                    (float)rs.lines >= min_lines && rs.date != WN_NONE && (rs.author != WN_NONE || (beside && *beside));
            }
            if ((float)posts < min_records || (float)posts < header_share * (float)count) continue;
            runs[nruns++] = (post_run){ first, last, last + dom->nodes[last].size, mass };
        }
    }
    /* the run with the most running text; then, as long as one inside its
     * records holds POSTS_INNER_SHARE of its text and no other record is a
     * post, that one (the page's layout around the thread: its header, the
     * thread, its footer; not a post's quotes or a reply's replies, nor a
     * first post beside the list of its replies) */
    const post_run *best = NULL;
    for (size_t i = 0; i < nruns; i++)
        if (!best || runs[i].mass > best->mass) best = &runs[i];
    if (!best) return 0;
    for (const post_run *in = best; in;) {
        in = inner_run(pg, runs, nruns, best->first, best->end, best->mass, 0);
        if (in && post_beside(pg, best, in)) break;
        if (in) best = in;
    }
    return emit_run(pg, runs, nruns, best, 0, cap);
}

int wn_thread_posts(winnow_doc *d, const wn_page_scores *ps)
{
    d->posts = NULL;
    d->nposts = 0;
    uint32_t n = d->dom.count;
    if (n < 2) return 0;
    wn_arena *scratch = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(scratch);
    /* positive running text per subtree, as the page scorer counts it */
    float *pos = wn_arena_alloc(scratch, (size_t)n * sizeof(float));
    float *kept = wn_arena_alloc(scratch, (size_t)n * sizeof(float));
    page pg;
    int err = -1;
    size_t cap = 0;
    if (pos && kept && wn_page_init(&pg, d, ps, pos) == 0) {
        pg.posts = 1;
        for (uint32_t i = 0; i < n; i++)
            pos[i] =
                d->labels.unit[i] == i && d->dom.nodes[i].tag != WN_TAG_TEXT && ps->raw[i] > 0.0f ? ps->raw[i] : 0.0f;
        for (uint32_t i = 0; i < n; i++) kept[i] = d->labels.keep[i] ? pos[i] : 0.0f;
        for (uint32_t i = n; i-- > 1;) {
            pos[d->dom.nodes[i].parent] += pos[i];
            kept[d->dom.nodes[i].parent] += kept[i];
        }
        err = WN_RULE(d, POSTS_MICRODATA) > 0.0f ? microdata_posts(&pg, &cap) : 0;
        if (!err && d->nposts < 2) {
            /* the structure's posts, when it finds more */
            wn_comment *md = d->posts;
            size_t nmd = d->nposts, mcap = cap;
            d->posts = NULL;
            d->nposts = cap = 0;
            err = structure_posts(&pg, pos, kept, &cap);
            /* (a run whose records turned out no posts but one is no thread) */
            if (!err && (float)d->nposts < WN_RULE(d, POSTS_MIN_RECORDS)) d->nposts = 0;
            if (!err && d->nposts < nmd) {
                d->posts = md;
                d->nposts = nmd;
                cap = mcap;
            }
        }
    }
    wn_arena_release(scratch, mark);
    return err;
}
