/* Stage 2, UTF-8 -> compact DOM: tree shape, what is dropped at build
 * (unseen elements, hidden subtrees), what is captured on the side (title,
 * language, JSON-LD), raw text and attributes, the pre-order layout every
 * later stage relies on, and the nesting guard in front of the parser. */
#include "check.h"
#include "dom_fixture.h"

/* The layout contract of dom.h, checked node by node: pre-order indices,
 * subtree = [i, i + size), parent/child/sibling links that agree with it. */
static int dom_invariants_hold(const wn_dom *d)
{
    int ok = d->count >= 1 && d->nodes[0].tag == WN_TAG_DOCUMENT && d->nodes[0].size == d->count &&
             d->nodes[0].parent == WN_NONE && d->nodes[0].depth == 0;
    for (uint32_t i = 0; ok && i < d->count; i++) {
        const wn_node *x = &d->nodes[i];
        uint32_t end = i + x->size;
        if (x->size < 1 || end > d->count) {
            ok = 0;
            break;
        }
        if (i > 0) {
            const wn_node *p = &d->nodes[x->parent];
            if (x->parent >= i || i >= x->parent + p->size) ok = 0; /* inside its parent's range */
            if (x->depth != p->depth + 1) ok = 0;
        }
        /* children tile the subtree exactly, in order */
        uint32_t expect = i + 1, last = WN_NONE;
        for (uint32_t c = x->first_child; c != WN_NONE; c = d->nodes[c].next_sibling) {
            if (c != expect || d->nodes[c].parent != i) {
                ok = 0;
                break;
            }
            expect = c + d->nodes[c].size;
            last = c;
        }
        if (expect != end || last != x->last_child) ok = 0;
        if (wn_node_is_text(x) && (x->size != 1 || x->text_begin + x->text_len > d->text_len)) ok = 0;
        if (x->attr_begin + x->attr_count > d->attr_count) ok = 0;
        if (!x->name) ok = 0;
        if (!ok) fprintf(stderr, "  invariant broken at node %u (%s)\n", i, x->name ? x->name : "?");
    }
    return ok;
}

static void test_tree_shape(void)
{
    page p;
    page_parse(&p, "<!DOCTYPE html><html><head><title>T</title></head>"
                   "<body><div id=a><p>one</p><p>two <b>bold</b></p></div></body></html>");
    const wn_dom *d = &p.dom;
    CHECK_EQ(p.status, WN_PARSE_OK);
    CHECK(dom_invariants_hold(d));

    uint32_t html = d->nodes[0].first_child;
    CHECK_EQ(d->nodes[html].tag, WN_TAG_HTML);
    CHECK_EQ(d->nodes[0].last_child, html); /* the doctype is not a node */
    uint32_t head = d->nodes[html].first_child;
    uint32_t body = d->nodes[head].next_sibling;
    CHECK_EQ(d->nodes[head].tag, WN_TAG_HEAD);
    CHECK_EQ(d->nodes[body].tag, WN_TAG_BODY);
    CHECK_EQ(d->body, body);
    CHECK_EQ(d->nodes[body].next_sibling, WN_NONE);

    uint32_t div = d->nodes[body].first_child;
    CHECK_STR(d->nodes[div].name, "div");
    CHECK_EQ(d->nodes[div].depth, 3);
    uint32_t p1 = d->nodes[div].first_child, p2 = d->nodes[p1].next_sibling;
    CHECK_EQ(d->nodes[p1].tag, WN_TAG_P);
    CHECK_EQ(d->nodes[p2].tag, WN_TAG_P);
    CHECK_EQ(d->nodes[p1].sibling_index, 0);
    CHECK_EQ(d->nodes[p2].sibling_index, 1);
    CHECK_EQ(d->nodes[div].last_child, p2);
    CHECK_EQ(d->nodes[p1].size, 2); /* p + its text */
    CHECK_EQ(d->nodes[p2].size, 4); /* p, "two ", b, "bold" */
    CHECK_EQ(d->nodes[div].size, 1 + 2 + 4);

    uint32_t t = d->nodes[p2].first_child, b = d->nodes[t].next_sibling;
    CHECK(wn_node_is_text(&d->nodes[t]));
    CHECK_STR(node_text(d, t), "two ");
    CHECK_STR(d->nodes[t].name, "#text");
    CHECK_EQ(d->nodes[b].tag, WN_TAG_B);
    CHECK_STR(node_text(d, d->nodes[b].first_child), "bold");
    page_free(&p);
}

static void test_unseen_elements_dropped(void)
{
    page p;
    page_parse(&p, "<html><head><style>.x{color:red} STYLE_TEXT</style>"
                   "<script>var SCRIPT_TEXT = 1;</script></head><body>"
                   "<p>visible one</p>"
                   "<script type=text/javascript>document.write('SCRIPT2_TEXT')</script>"
                   "<noscript><p>NOSCRIPT_TEXT</p></noscript>"
                   "<template><p>TEMPLATE_TEXT</p></template>"
                   "<iframe src=x>IFRAME_TEXT</iframe>"
                   "<svg><text>SVG_TEXT</text></svg>"
                   "<select><option>SELECT_TEXT</option></select>"
                   "<textarea>TEXTAREA_TEXT</textarea>"
                   "<p>visible two</p></body></html>");
    const wn_dom *d = &p.dom;
    CHECK(dom_invariants_hold(d));
    static const unsigned gone[] = { WN_TAG_SCRIPT, WN_TAG_STYLE, WN_TAG_NOSCRIPT, WN_TAG_TEMPLATE,
                                     WN_TAG_IFRAME, WN_TAG_SVG,   WN_TAG_SELECT,   WN_TAG_TEXTAREA };
    for (size_t k = 0; k < sizeof gone / sizeof gone[0]; k++) CHECK_EQ(page_find(d, gone[k], 0), WN_NONE);
    static const char *const hidden_words[] = { "STYLE_TEXT",    "SCRIPT_TEXT",   "SCRIPT2_TEXT",
                                                "NOSCRIPT_TEXT", "TEMPLATE_TEXT", "IFRAME_TEXT",
                                                "SVG_TEXT",      "SELECT_TEXT",   "TEXTAREA_TEXT" };
    for (size_t k = 0; k < sizeof hidden_words / sizeof hidden_words[0]; k++) CHECK(!page_has_text(d, hidden_words[k]));
    CHECK(page_has_text(d, "visible one"));
    CHECK(page_has_text(d, "visible two"));
    page_free(&p);
}

static void test_hidden_dropped(void)
{
    page p;
    page_parse(&p, "<body><p>shown</p>"
                   "<div hidden><p>HIDDEN_ATTR</p></div>"
                   "<div style=\"display:none\">DISPLAY_NONE</div>"
                   "<span style=\"color: red; DISPLAY : NONE\">SPACED_UPPER</span>"
                   "<p style=\"visibility:hidden\">VISIBILITY_HIDDEN</p>"
                   "<p style=\"display:block\">display block stays</p>"
                   "<p class=\"hidden-xs\">a class name is not a verdict</p></body>");
    const wn_dom *d = &p.dom;
    CHECK(dom_invariants_hold(d));
    CHECK(page_has_text(d, "shown"));
    CHECK(!page_has_text(d, "HIDDEN_ATTR"));
    CHECK(!page_has_text(d, "DISPLAY_NONE"));
    CHECK(!page_has_text(d, "SPACED_UPPER"));
    CHECK(!page_has_text(d, "VISIBILITY_HIDDEN"));
    CHECK(page_has_text(d, "display block stays"));
    CHECK(page_has_text(d, "a class name is not a verdict"));
    page_free(&p);
}

static void test_head_flagged_hidden(void)
{
    page p;
    page_parse(&p, "<html><head><title>Page title</title><meta name=description content=d></head>"
                   "<body><p>text</p></body></html>");
    const wn_dom *d = &p.dom;
    uint32_t head = page_find(d, WN_TAG_HEAD, 0), title = page_find(d, WN_TAG_TITLE, 0);
    uint32_t meta = page_find(d, WN_TAG_META, 0), body = page_find(d, WN_TAG_BODY, 0);
    CHECK(head != WN_NONE && title != WN_NONE && meta != WN_NONE);
    CHECK(d->nodes[head].flags & WN_NF_HIDDEN);
    /* the flag is inherited: the title's text is in the DOM but never shown */
    CHECK(d->nodes[title].flags & WN_NF_HIDDEN);
    CHECK(d->nodes[d->nodes[title].first_child].flags & WN_NF_HIDDEN);
    CHECK(d->nodes[meta].flags & WN_NF_HIDDEN);
    CHECK(!(d->nodes[body].flags & WN_NF_HIDDEN));
    CHECK(!(d->nodes[page_find(d, WN_TAG_P, 0)].flags & WN_NF_HIDDEN));
    page_free(&p);
}

static void test_title_and_lang(void)
{
    page p;
    page_parse(&p, "<html lang=\"de-CH\"><head><title>Fish &amp; Chips</title><title>second</title></head>"
                   "<body><p>x</p></body></html>");
    CHECK_STR(p.dom.title, "Fish & Chips"); /* entities decoded, the first title wins */
    CHECK_STR(p.dom.lang, "de-CH");
    page_free(&p);

    page_parse(&p, "<p>no head at all</p>");
    CHECK_STR(p.dom.title, "");
    CHECK_STR(p.dom.lang, "");
    CHECK(p.dom.body != 0); /* the tree builder supplies html/head/body */
    CHECK(dom_invariants_hold(&p.dom));
    page_free(&p);
}

/* "</titlevalue=..." is not an end tag of <title> (the name must end at
 * a space, '/' or '>'): the title is never closed, and the repair must
 * close it rather than let it swallow the page. */
static int text_has(const wn_dom *d, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= d->text_len; i++)
        if (memcmp(d->text + i, needle, m) == 0) return 1;
    return 0;
}

static void test_damaged_title_end_tag(void)
{
    page p;
    page_parse(&p, "<html><head><title id=\"t\">Oil prices</titlevalue=\"true\" -->\n</head>"
                   "<body><p>The body text survives.</p></body></html>");
    CHECK(p.dom.title != NULL && strncmp(p.dom.title, "Oil prices", 10) == 0);
    CHECK(p.dom.title != NULL && strstr(p.dom.title, "body text") == NULL);
    CHECK(text_has(&p.dom, "The body text survives."));
    CHECK(dom_invariants_hold(&p.dom));
    page_free(&p);
}

/* A script start tag whose src quote is never closed runs over its own
 * </script> (a crawl that spliced two scripts): the repair closes the
 * quote and the tag there, so the page after it is not swallowed up to
 * the next </script>. */
static void test_unclosed_quote_in_script_tag(void)
{
    page p;
    page_parse(&p, "<html><head><script type=\"text/javascript\" src=\"/te.color='yellow';\n}\n</script>\n"
                   "<SCRIPT language=JAVASCRIPT>\nfunction f() { var tabs = [\"a\",\"b\"]; }\n</SCRIPT></head>"
                   "<body><p>The article text is visible.</p>"
                   "<script>var later = 1;</script><p>And so is the rest.</p></body></html>");
    CHECK(text_has(&p.dom, "The article text is visible."));
    CHECK(text_has(&p.dom, "And so is the rest."));
    CHECK(!text_has(&p.dom, "var tabs"));
    CHECK(p.dom.unclosed == 1);
    CHECK(dom_invariants_hold(&p.dom));
    page_free(&p);
}

/* A script link around paragraphs is no link; around a word it is. */
static void test_script_link_wrapper(void)
{
    page p;
    page_parse(&p,
               "<html><body><a href=\" javascript:\"><p>abc</p><p>def</p>ghi</a>"
               "<a href=\"javascript:void(0)\">Print</a> <a href=\"/next\"><div>Next story</div></a></body></html>");
    for (uint32_t i = 0; i < p.dom.count; i++) {
        if (p.dom.nodes[i].tag != WN_TAG_TEXT) continue;
        const char *t = node_text(&p.dom, i);
        int link = (p.dom.nodes[i].flags & WN_NF_LINK) != 0;
        if (strstr(t, "abc") || strstr(t, "def") || strstr(t, "ghi")) CHECK(!link);
        if (strstr(t, "Print") || strstr(t, "Next story")) CHECK(link);
    }
    CHECK(!(p.dom.nodes[page_find(&p.dom, WN_TAG_A, 0)].flags & WN_NF_LINK));
    CHECK(p.dom.nodes[page_find(&p.dom, WN_TAG_A, 1)].flags & WN_NF_LINK);
    page_free(&p);
}

static void test_jsonld_captured(void)
{
    page p;
    page_parse(&p, "<html><head>"
                   "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"headline\":\"H1\"}</script>"
                   "<script>var notld = {\"headline\":\"no\"};</script>"
                   "</head><body><p>x</p>"
                   "<script type='application/ld+json; charset=utf-8'>[{\"@type\":\"Person\"}]</script>"
                   "</body></html>");
    const wn_dom *d = &p.dom;
    CHECK_EQ(d->jsonld_count, 2);
    if (d->jsonld_count == 2) {
        CHECK_STR(d->jsonld[0], "{\"@type\":\"NewsArticle\",\"headline\":\"H1\"}");
        CHECK_EQ(d->jsonld_len[0], strlen(d->jsonld[0]));
        CHECK_STR(d->jsonld[1], "[{\"@type\":\"Person\"}]");
    }
    /* the payload is metadata, not page text */
    CHECK(!page_has_text(d, "NewsArticle"));
    page_free(&p);
}

static void test_raw_text(void)
{
    page p;
    page_parse(&p, "<body><p>  a &lt; b &amp;&amp; c&nbsp;d\n e  </p><pre>  keep\n  lines</pre></body>");
    const wn_dom *d = &p.dom;
    uint32_t para = page_find(d, WN_TAG_P, 0), pre = page_find(d, WN_TAG_PRE, 0);
    /* raw: entities decoded, whitespace exactly as written */
    CHECK_STR(node_text(d, d->nodes[para].first_child), "  a < b && c\xC2\xA0"
                                                        "d\n e  ");
    CHECK_EQ(d->nodes[d->nodes[para].first_child].text_len, strlen("  a < b && c\xC2\xA0"
                                                                   "d\n e  "));
    CHECK_STR(node_text(d, d->nodes[pre].first_child), "  keep\n  lines");
    CHECK(d->nodes[d->nodes[pre].first_child].flags & WN_NF_PRE);
    CHECK(!(d->nodes[d->nodes[para].first_child].flags & WN_NF_PRE));
    page_free(&p);
}

static void test_attributes(void)
{
    page p;
    page_parse(&p, "<body><A HREF=\"/x?a=1&amp;b=2\" Class='c1  c2' data-empty id=link1>go</A><a>plain</a></body>");
    const wn_dom *d = &p.dom;
    uint32_t a = page_find_id(d, "link1");
    CHECK(a != WN_NONE);
    if (a == WN_NONE) {
        page_free(&p);
        return;
    }
    const wn_node *x = &d->nodes[a];
    CHECK_EQ(x->attr_count, 4);
    size_t len = 0;
    CHECK_STR(wn_node_attr(d, x, "href", &len), "/x?a=1&b=2");
    CHECK_EQ(len, 10);
    CHECK_STR(wn_node_attr(d, x, "class", NULL), "c1  c2");
    CHECK_STR(wn_node_attr(d, x, "data-empty", &len), "");
    CHECK_EQ(len, 0);
    CHECK(wn_node_attr(d, x, "title", NULL) == NULL);
    CHECK(wn_node_attr(d, x, "HREF", NULL) == NULL); /* names are stored lower-case */

    /* link text is flagged only under an <a> that has an href */
    CHECK(x->flags & WN_NF_LINK);
    CHECK(d->nodes[x->first_child].flags & WN_NF_LINK);
    uint32_t plain = page_find(d, WN_TAG_A, 1);
    CHECK(!(d->nodes[plain].flags & WN_NF_LINK));
    CHECK(!(d->nodes[d->nodes[plain].first_child].flags & WN_NF_LINK));
    page_free(&p);
}

static void test_positions(void)
{
    const char *html = "<html><body>\n<div>\n<p class=x>para text</p>\n</div>\n</body></html>";
    page p;
    page_parse(&p, html);
    const wn_dom *d = &p.dom;
    uint32_t para = page_find(d, WN_TAG_P, 0);
    char path[256];
    size_t n = wn_node_path(d, para, path, sizeof path);
    CHECK_STR(path, "html.body.div.p");
    CHECK_EQ(n, strlen("html.body.div.p"));
    /* a small buffer cuts the path at an element boundary, NUL-terminated */
    n = wn_node_path(d, para, path, 12);
    CHECK_STR(path, "html.body");
    CHECK_EQ(n, 9);

    CHECK_EQ(d->nodes[para].line, 3);
    CHECK_EQ(d->nodes[page_find(d, WN_TAG_DIV, 0)].line, 2);
    CHECK(strncmp(html + d->nodes[para].src_begin, "<p class=x>", 11) == 0);
    uint32_t t = d->nodes[para].first_child;
    CHECK(strncmp(html + d->nodes[t].src_begin, "para text", d->nodes[t].src_len) == 0);
    CHECK_EQ(d->nodes[t].src_len, 9);
    /* an element's range covers its text */
    CHECK(d->nodes[para].src_begin + d->nodes[para].src_len >= d->nodes[t].src_begin + d->nodes[t].src_len);
    page_free(&p);
}

/* Every element's source range covers the text of its descendants, so a
 * block's (src_begin, src_len) in the public API locates all of it. */
static int ranges_cover_text(const wn_dom *d, const char *src)
{
    int ok = 1;
    for (uint32_t i = 1; i < d->count; i++) {
        const wn_node *t = &d->nodes[i];
        if (!wn_node_is_text(t)) continue;
        for (uint32_t a = t->parent; a != 0 && a != WN_NONE; a = d->nodes[a].parent) {
            const wn_node *x = &d->nodes[a];
            if (x->src_begin <= t->src_begin && t->src_begin + t->src_len <= x->src_begin + x->src_len) continue;
            fprintf(stderr, "  <%s> at [%u, +%u) \"%.*s\" does not cover text \"%.*s\"\n", x->name, x->src_begin,
                    x->src_len, (int)(x->src_len < 60 ? x->src_len : 60), src + x->src_begin,
                    (int)(t->src_len < 40 ? t->src_len : 40), src + t->src_begin);
            ok = 0;
        }
    }
    return ok;
}

static void test_source_ranges(void)
{
    static const char *const pages[] = {
        "<html><body><div><p>para <b>bold</b> tail</p></div></body></html>",
        "<html><body><table><tbody><tr><td>explicit tbody cell</td></tr></tbody></table></body></html>",
        /* the tbody here is implied by the tree builder: no tag of its own */
        "<html><body><table><tr><td>implied tbody cell</td></tr></table></body></html>",
        "<html><body><ul><li>one<li>two</ul></body></html>",
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        page p;
        page_parse(&p, pages[k]);
        CHECK(ranges_cover_text(&p.dom, pages[k]));
        page_free(&p);
    }
}

static void test_invariants_on_messy_markup(void)
{
    /* Misnested and unclosed tags, implied ends, tables, lists, foster
     * parenting: whatever tree the builder makes, the layout holds. */
    static const char *const pages[] = {
        "<b><i>bold italic</b> italic</i> plain",
        "<table><tr><td>a<td>b<tr><td>c</table>text after",
        "<table>foster <b>parented</b><tr><td>cell</td></tr></table>",
        "<ul><li>one<li>two<ul><li>nested</ul><li>three</ul>",
        "<p>para<div>div in p</div>after</p></p></p>",
        "<dl><dt>term<dd>def<dt>term2<dd>def2</dl>",
        "<a href=1>one<a href=2>two</a>",
        "<select><option>x</select><p>after select",
        "</div></span></p>stray end tags",
        "<html><html><body><body>doubled<head><title>late</title></head>",
        "<frameset><frame src=a></frameset>",
        "<svg><foreignObject><p>html in svg</p></foreignObject></svg><math><mi>x</mi></math>",
        "",
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        page p;
        page_parse(&p, pages[k]);
        CHECK_EQ(p.status, WN_PARSE_OK);
        if (!dom_invariants_hold(&p.dom)) {
            fprintf(stderr, "  page: %s\n", pages[k]);
            CHECK(0);
        }
        page_free(&p);
    }
}

static void test_parser_reuse(void)
{
    /* one parser, many pages: the second DOM must not carry the first */
    wn_parser *ps = wn_parser_new(512);
    wn_arena a;
    wn_arena_init(&a);
    wn_dom d;
    CHECK_EQ(wn_parser_parse(ps, "<p>FIRST page</p>", 17, &a, &d, 1), WN_PARSE_OK);
    CHECK(page_has_text(&d, "FIRST"));
    wn_arena_reset(&a, 1 << 20);
    const char *second = "<html lang=fr><body><h1>SECOND</h1></body></html>";
    CHECK_EQ(wn_parser_parse(ps, second, strlen(second), &a, &d, 1), WN_PARSE_OK);
    CHECK(page_has_text(&d, "SECOND"));
    CHECK(!page_has_text(&d, "FIRST"));
    CHECK_STR(d.lang, "fr");
    CHECK(dom_invariants_hold(&d));
    /* parse only, no DOM: the benchmark's floor */
    CHECK_EQ(wn_parser_parse(ps, second, strlen(second), &a, &d, 0), WN_PARSE_OK);
    wn_arena_free(&a);
    wn_parser_free(ps);
}

/* Repeats `unit` n times after `head`. Caller frees. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * n + tl + 1);
    memcpy(s, head, hl);
    for (size_t i = 0; i < n; i++) memcpy(s + hl + i * ul, unit, ul);
    memcpy(s + hl + ul * n, tail, tl + 1);
    return s;
}

static size_t count_of(const char *s, size_t n, const char *needle)
{
    size_t c = 0, nl = strlen(needle);
    for (const char *q = s; (q = memmem(q, n - (size_t)(q - s), needle, nl)) != NULL; q += nl) c++;
    return c;
}

static void test_depth_guard_passes_normal_pages(void)
{
    static const char *const pages[] = {
        "<html><body><div><div><p>ordinary nesting</p></div></div></body></html>",
        "<p>a<p>b<p>c",
        "<ul><li>x<li>y</ul><table><tr><td>1<td>2</table>",
        "<br><br><img src=x><hr><input>",
        "<!-- <div><div><div> --><p>comment</p>",
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        size_t olen = 0, dropped = 99;
        char *out = wn_depth_guard(pages[k], strlen(pages[k]), 512, &olen, &dropped);
        CHECK(out == NULL);
        CHECK_EQ(dropped, 0);
        free(out);
    }
    /* tags that do not nest never count, however many there are */
    static const char *const flat[] = { "<br>", "<p>x", "<li>y", "<img src=a>", "<td>z" };
    for (size_t k = 0; k < sizeof flat / sizeof flat[0]; k++) {
        char *s = repeat("<body>", flat[k], 5000, "</body>");
        size_t olen = 0, dropped = 0;
        char *out = wn_depth_guard(s, strlen(s), 512, &olen, &dropped);
        if (out) fprintf(stderr, "  flat markup %s was cut\n", flat[k]);
        CHECK(out == NULL);
        free(out);
        free(s);
    }
    /* markup inside raw-text elements is text, not tags */
    char *script = repeat("<script>var s = \"", "<div>", 5000, "\";</script><p>after</p>");
    size_t olen = 0, dropped = 0;
    char *out = wn_depth_guard(script, strlen(script), 512, &olen, &dropped);
    CHECK(out == NULL);
    free(out);
    free(script);
}

static void test_depth_guard_drops_past_cap(void)
{
    char *s = repeat("", "<div>", 1000, "deep text");
    size_t olen = 0, dropped = 0;
    char *out = wn_depth_guard(s, strlen(s), 512, &olen, &dropped);
    CHECK(out != NULL);
    if (out) {
        CHECK_EQ(dropped, 488);
        CHECK_EQ(strlen(out), olen);
        CHECK_EQ(count_of(out, olen, "<div>"), 512);
        CHECK(olen >= 9 && memcmp(out + olen - 9, "deep text", 9) == 0);
    }
    free(out);
    free(s);

    /* formatting elements count like any other, and attributes go with
     * their tag (a quoted '>' inside does not end it) */
    s = repeat("<p>", "<b class=\"a>b\"><i>", 1000, "text</p>");
    out = wn_depth_guard(s, strlen(s), 100, &olen, &dropped);
    CHECK(out != NULL);
    if (out) {
        CHECK_EQ(dropped, 2000 - 100); /* <p> closes itself, so it does not count */
        CHECK_EQ(count_of(out, olen, "<b "), 50);
        CHECK(strstr(out, "text</p>") != NULL);
        CHECK(count_of(out, olen, "b\">") == 50);
    }
    free(out);
    free(s);
}

static void test_depth_guard_self_closing_div(void)
{
    /* HTML ignores "/>" on a non-void element: <div/> opens a div, so these
     * nest 5000 deep in the tree builder and must count. */
    char *s = repeat("<body>", "<div/>", 5000, "x</body>");
    size_t olen = 0, dropped = 0;
    char *out = wn_depth_guard(s, strlen(s), 512, &olen, &dropped);
    CHECK(out != NULL);
    CHECK(dropped >= 5000 - 512);
    free(out);

    /* end to end, the DOM is as deep as the markup says (kept small here:
     * uncapped, the tree builder is quadratic in the depth) */
    page p;
    page_parse_depth(&p, s, strlen(s), 512);
    CHECK_EQ(p.status, WN_PARSE_OK);
    CHECK(page_max_depth(&p.dom) <= 512 + 2);
    page_free(&p);
    free(s);
}

static void test_depth_guard_stray_end_tags(void)
{
    /* An end tag that closes nothing is ignored by the tree builder, so it
     * must not lower the guard's count either: here the divs nest 5000
     * deep. */
    char *s = repeat("<body>", "<div></x>", 5000, "x</body>");
    size_t olen = 0, dropped = 0;
    char *out = wn_depth_guard(s, strlen(s), 512, &olen, &dropped);
    CHECK(out != NULL);
    CHECK(dropped >= 5000 - 512);
    free(out);
    free(s);
}

static void test_parser_depth_cap(void)
{
    char *s = repeat("<html><body>", "<div>", 100000, "bottom text</body></html>");
    page p;
    page_parse_depth(&p, s, strlen(s), 512);
    CHECK_EQ(p.status, WN_PARSE_OK);
    CHECK(p.dom.depth_capped > 0);
    CHECK(page_max_depth(&p.dom) <= 512 + 2);
    CHECK(page_has_text(&p.dom, "bottom text"));
    CHECK(dom_invariants_hold(&p.dom));
    page_free(&p);
    free(s);
}

/* Two DOMs the same node by node: links, ranges, lines, flags, names,
 * attributes, text and what is captured on the side. */
static int same_dom(const wn_dom *a, const wn_dom *b)
{
    if (a->count != b->count || a->attr_count != b->attr_count || a->text_len != b->text_len || a->body != b->body ||
        a->jsonld_count != b->jsonld_count || strcmp(a->title, b->title) || strcmp(a->lang, b->lang) ||
        memcmp(a->text, b->text, a->text_len))
        return 0;
    for (uint32_t i = 0; i < a->count; i++) {
        const wn_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->parent != y->parent || x->first_child != y->first_child || x->last_child != y->last_child ||
            x->next_sibling != y->next_sibling || x->size != y->size || x->depth != y->depth ||
            x->src_begin != y->src_begin || x->src_len != y->src_len || x->text_begin != y->text_begin ||
            x->text_len != y->text_len || x->attr_begin != y->attr_begin || x->attr_count != y->attr_count ||
            x->tag != y->tag || x->flags != y->flags || x->sibling_index != y->sibling_index || x->line != y->line ||
            strcmp(x->name, y->name)) {
            fprintf(stderr, "  node %u (%s) differs\n", i, x->name);
            return 0;
        }
    }
    for (uint32_t k = 0; k < a->attr_count; k++)
        if (strcmp(a->attrs[k].name, b->attrs[k].name) || strcmp(a->attrs[k].value, b->attrs[k].value)) return 0;
    for (uint32_t k = 0; k < a->jsonld_count; k++)
        if (strcmp(a->jsonld[k], b->jsonld[k])) return 0;
    return 1;
}

/* The DOM of html parsed whole (by `whole`) and in pieces of each size
 * (by `piece`) is the same; label names the case in a failure. Returns
 * the elements the whole parse flattened (past a node budget). */
static uint32_t same_in_pieces(wn_parser *whole, wn_parser *piece, const char *html, size_t len, const char *label,
                               size_t k)
{
    static const size_t sizes[] = { 1, 7, 40, 300, 4096 };
    wn_arena aa;
    wn_arena_init(&aa);
    wn_dom da;
    CHECK_EQ(wn_parser_parse(whole, html, len, &aa, &da, 1), WN_PARSE_OK);
    CHECK(dom_invariants_hold(&da));
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        wn_parser_set_chunk(piece, sizes[z]);
        wn_arena ab;
        wn_arena_init(&ab);
        wn_dom db;
        CHECK_EQ(wn_parser_parse(piece, html, len, &ab, &db, 1), WN_PARSE_OK);
        if (!same_dom(&da, &db) || da.flattened != db.flattened) {
            fprintf(stderr, "  %spage %zu, pieces of %zu bytes: not the whole parse's DOM\n", label, k, sizes[z]);
            CHECK(0);
        }
        CHECK(dom_invariants_hold(&db));
        wn_arena_free(&ab);
    }
    uint32_t flattened = da.flattened;
    wn_arena_free(&aa);
    return flattened;
}

/* A large page is fed to the tree builder in pieces and copied out as it
 * goes (parser.c, harvest): the DOM must be the one of a whole parse for
 * any piece size, through the tree builder's repairs that touch nodes
 * already built (foster parenting, the adoption agency, late <body> and
 * <html> attributes, elements after </head>, a frameset) and on a long
 * flat page. */
static void test_piecewise_parse_same_dom(void)
{
    static const char *const pages[] = {
        "<!DOCTYPE html><html lang=en><head><title>T one</title><meta charset=utf-8></head>\n"
        "<body class=x><div id=a>one</div>\n<div>two <b>bold <i>both</b> italic</i> after</div>\n"
        "<p>para<div>block in para</div></p><ul><li>a<li>b</ul></body></html>\n",
        /* text and elements foster-parented out of a table, next to text before it */
        "<html><body><div>lead text <table><tr><td>cell</td></tr>stray text<div>stray div</div>"
        "<tr><td>more</td></tr></table> tail text</div><p>after</p></body></html>",
        /* misnested formatting over block elements: the adoption agency */
        "<body><div>x</div><b>1<div>2<p>3</b>4</p>5</div><a href=/a>l1<div>l2</a>l3</div>"
        "<div>closing</div><div>more</div></body>",
        /* a second <body> and <html> tag add attributes late: parsed again whole */
        "<html><body><div>one</div><div>two</div><div>three</div><body data-late=1 hidden>"
        "<html data-x=y><div>four</div></body>",
        /* elements between </head> and <body> go into the head */
        "<html><head><title>t</title></head>\n<meta name=a content=b>\n<link rel=x href=y>\n"
        "<body><div>text</div><div>text two</div></body></html>",
        /* a frameset replacing a body of whitespace and empty divs */
        "<html><head></head><body>\n<div></div>\n<div></div>\n<frameset><frame src=a></frameset></html>",
        /* raw text across pieces, JSON-LD, comments, SVG */
        "<html><head><title>A long title that spans pieces</title><script type=application/ld+json>"
        "{\"headline\": \"h\"}</script><style>p{}</style></head><body><!-- c --><div>d1</div>"
        "<svg><g><text>svg</text></g></svg><div>d2</div><textarea>ta <b> x</textarea><div>d3</div></body>",
        /* an element past the 3rd attribute of a tag split between pieces */
        "<body><div class=\"a b c\" id=d data-x=\"1 > 2\">q &amp; a</div><br></br><p>x</p></p><div>z</div></body>",
    };
    wn_parser *whole = wn_parser_new(512), *piece = wn_parser_new(512);
    CHECK(whole && piece);
    if (!whole || !piece) {
        wn_parser_free(whole);
        wn_parser_free(piece);
        return;
    }
    wn_parser_set_chunk(whole, SIZE_MAX);
    /* a flat page of many siblings, long enough for several pieces */
    wn_buf flat;
    wn_buf_init(&flat);
    wn_buf_puts(&flat, "<html><head><title>flat</title></head><body>\n");
    for (int i = 0; i < 400; i++)
        wn_buf_printf(&flat, "<div class=c%d>Item %d: <a href=/p/%d>link</a> text.</div>\n", i % 7, i, i);
    wn_buf_puts(&flat, "</body></html>\n");
    CHECK(!flat.oom);
    for (size_t k = 0; k <= sizeof pages / sizeof pages[0]; k++) {
        const char *html = k < sizeof pages / sizeof pages[0] ? pages[k] : flat.data;
        size_t len = k < sizeof pages / sizeof pages[0] ? strlen(html) : flat.len;
        same_in_pieces(whole, piece, html, len, "", k);
    }
    /* with a node budget of 64 (wn_parser_set_node_budget): the same
     * flattened DOM whole and in pieces, nested, inline, table and link
     * elements past it, and pages the budget does not reach unchanged */
    wn_buf mixed;
    wn_buf_init(&mixed);
    wn_buf_puts(&mixed, "<html><head><title>mixed</title></head><body>\n");
    for (int i = 0; i < 120; i++)
        wn_buf_printf(&mixed,
                      "<div><p>t%d <b>b<i>i</i></b> <a href=/x%d>l</a></p><ul><li>x</li><li><a href=/y>y</a></li></ul>"
                      "<table><tr><td>c%d</td><td>d</td></tr></table><pre>p\n q</pre></div>\n",
                      i, i, i);
    wn_buf_puts(&mixed, "</body></html>\n");
    CHECK(!mixed.oom);
    wn_parser_set_node_budget(whole, 1000000, 64);
    wn_parser_set_node_budget(piece, 1000000, 64);
    for (size_t k = 0; k <= sizeof pages / sizeof pages[0] + 1; k++) {
        size_t np = sizeof pages / sizeof pages[0];
        const char *html = k < np ? pages[k] : k == np ? flat.data : mixed.data;
        size_t len = k < np ? strlen(html) : k == np ? flat.len : mixed.len;
        uint32_t flattened = same_in_pieces(whole, piece, html, len, "budget: ", k);
        if (k >= np) CHECK(flattened > 0);
    }
    wn_buf_free(&mixed);
    wn_buf_free(&flat);
    wn_parser_free(whole);
    wn_parser_free(piece);
}

/* White space alone between two line breaks is no node; white space that
 * separates words, or that <pre> keeps, is. The text is the same either
 * way, and the DOM keeps its layout contract. */
static void test_blank_text_dropped(void)
{
    page p;
    page_parse(&p, "<body>\n  <div>\n    <p>one</p>\n    <p><b>two</b> <i>three</i></p>\n  </div>\n"
                   "  <ul>\n <li>a</li>\n <li>b</li>\n </ul> <span>x</span>\n<span>y</span>\n"
                   "<pre>\n  <b>c</b>\n</pre>\n</body>");
    const wn_dom *d = &p.dom;
    CHECK_EQ(p.status, WN_PARSE_OK);
    CHECK(dom_invariants_hold(d));
    uint32_t blank = 0, pre_blank = 0, word_gap = 0;
    for (uint32_t i = 1; i < d->count; i++) {
        const wn_node *x = &d->nodes[i];
        if (!wn_node_is_text(x)) continue;
        const char *t = node_text(d, i);
        if (strspn(t, " \n") != strlen(t)) continue;
        blank++;
        if (x->flags & WN_NF_PRE)
            pre_blank++;
        else if (d->nodes[x->parent].tag == WN_TAG_P ||
                 (x->next_sibling != WN_NONE && d->nodes[x->next_sibling].tag == WN_TAG_SPAN))
            word_gap++;
    }
    /* left: the space between two inline elements in a paragraph, the two
     * before and between the spans, the one between a span and <pre> (a
     * break on one side only), the two inside <pre> */
    CHECK_EQ(word_gap, 3);
    CHECK_EQ(pre_blank, 2);
    CHECK_EQ(blank, 6);
    page_free(&p);

    /* a parser told to keep them keeps every one */
    wn_parser *ps = wn_parser_new(512);
    wn_parser_keep_blank(ps, 1);
    wn_arena a;
    wn_arena_init(&a);
    wn_dom k;
    const char *html = "<body>\n<div>\n<p>one</p>\n</div>\n</body>";
    CHECK_EQ(wn_parser_parse(ps, html, strlen(html), &a, &k, 1), WN_PARSE_OK);
    uint32_t kept = 0;
    for (uint32_t i = 1; i < k.count; i++)
        if (wn_node_is_text(&k.nodes[i]) && k.nodes[i].text_len &&
            strspn(k.text + k.nodes[i].text_begin, "\n") == k.nodes[i].text_len)
            kept++;
    CHECK(kept >= 3);
    wn_arena_free(&a);
    wn_parser_free(ps);
}

/* A stage's scratch after wn_arena_save is forgotten by wn_arena_release;
 * what came before stays, and the released chunks serve what follows. */
static void test_arena_mark_release(void)
{
    wn_arena a;
    wn_arena_init(&a);
    char *keep = wn_arena_alloc(&a, 100);
    CHECK(keep != NULL);
    if (keep) memset(keep, 'k', 100);
    size_t used = a.used_total;
    wn_arena_mark m = wn_arena_save(&a);
    /* small and large scratch: the large one takes chunks of its own */
    for (int i = 0; i < 50; i++) CHECK(wn_arena_alloc(&a, 1000) != NULL);
    char *big = wn_arena_alloc(&a, (size_t)4 << 20);
    CHECK(big != NULL);
    if (big) memset(big, 'x', (size_t)4 << 20);
    size_t cap = a.cap_total;
    wn_arena_release(&a, m);
    CHECK_EQ(a.used_total, used);
    int intact = 1;
    for (int i = 0; keep && i < 100; i++) intact &= keep[i] == 'k';
    CHECK(intact);
    /* the same scratch again: no new chunk */
    for (int i = 0; i < 50; i++) CHECK(wn_arena_alloc(&a, 1000) != NULL);
    CHECK(wn_arena_alloc(&a, (size_t)4 << 20) != NULL);
    CHECK_EQ(a.cap_total, cap);
    /* nested marks */
    wn_arena_mark outer = wn_arena_save(&a);
    char *o = wn_arena_alloc(&a, 64);
    wn_arena_mark inner = wn_arena_save(&a);
    CHECK(wn_arena_alloc(&a, 1 << 20) != NULL);
    wn_arena_release(&a, inner);
    CHECK(wn_arena_alloc(&a, 16) == o + 64); /* straight after o again */
    wn_arena_release(&a, outer);
    CHECK(wn_arena_alloc(&a, 64) == o);
    wn_arena_free(&a);
}

/* Strings are packed back to back; aligned allocations after them stay
 * aligned. */
static void test_arena_bytes(void)
{
    wn_arena a;
    wn_arena_init(&a);
    char *s1 = wn_arena_strndup(&a, "ab", 2);
    char *s2 = wn_arena_strndup(&a, "cde", 3);
    CHECK(s1 && s2);
    if (s1 && s2) {
        CHECK_STR(s1, "ab");
        CHECK_STR(s2, "cde");
        CHECK(s2 == s1 + 3); /* no padding between them */
    }
    char *b = wn_arena_bytes(&a, 1);
    void *p = wn_arena_alloc(&a, 8);
    CHECK(b && p);
    CHECK((uintptr_t)p % 16 == 0);
    CHECK((char *)p > b);
    /* an empty request still gets a distinct byte */
    CHECK(wn_arena_bytes(&a, 0) != wn_arena_bytes(&a, 0));
    /* across chunks: a large request after odd bytes */
    CHECK(wn_arena_bytes(&a, 7) != NULL);
    void *q = wn_arena_alloc(&a, (size_t)1 << 20);
    CHECK(q && (uintptr_t)q % 16 == 0);
    CHECK(wn_arena_alloc(&a, SIZE_MAX - 3) == NULL);
    wn_arena_free(&a);
}

/* Attribute names: a common one is shared, any other copied; both read
 * back with their values. */
static void test_attribute_names(void)
{
    wn_parser *ps = wn_parser_new(512);
    wn_arena a;
    wn_arena_init(&a);
    wn_dom d;
    const char *html = "<p class=x data-zz=yy ID=i>t</p><p class=second data-zz=\"\">u</p>";
    CHECK_EQ(wn_parser_parse(ps, html, strlen(html), &a, &d, 1), WN_PARSE_OK);
    const wn_node *p1 = NULL, *p2 = NULL;
    for (uint32_t i = 0; i < d.count; i++)
        if (d.nodes[i].tag == WN_TAG_P) {
            if (!p1)
                p1 = &d.nodes[i];
            else
                p2 = &d.nodes[i];
        }
    CHECK(p1 && p2);
    if (p1 && p2) {
        CHECK_STR(wn_node_attr(&d, p1, "class", NULL), "x");
        CHECK_STR(wn_node_attr(&d, p1, "data-zz", NULL), "yy");
        CHECK_STR(wn_node_attr(&d, p1, "id", NULL), "i");
        CHECK_STR(wn_node_attr(&d, p2, "class", NULL), "second");
        CHECK_STR(wn_node_attr(&d, p2, "data-zz", NULL), "");
        const wn_attr *c1 = &d.attrs[p1->attr_begin], *c2 = &d.attrs[p2->attr_begin];
        CHECK(c1->name == c2->name);     /* "class": one copy */
        CHECK(c1[1].name != c2[1].name); /* "data-zz": a copy each */
        CHECK_EQ(c1[1].name_len, 7);
        CHECK_EQ(c2[1].value_len, 0);
    }
    wn_arena_free(&a);
    wn_parser_free(ps);
}

int main(void)
{
    RUN(test_arena_bytes);
    RUN(test_attribute_names);
    RUN(test_tree_shape);
    RUN(test_unseen_elements_dropped);
    RUN(test_hidden_dropped);
    RUN(test_head_flagged_hidden);
    RUN(test_title_and_lang);
    RUN(test_damaged_title_end_tag);
    RUN(test_unclosed_quote_in_script_tag);
    RUN(test_script_link_wrapper);
    RUN(test_jsonld_captured);
    RUN(test_raw_text);
    RUN(test_attributes);
    RUN(test_positions);
    RUN(test_source_ranges);
    RUN(test_invariants_on_messy_markup);
    RUN(test_parser_reuse);
    RUN(test_depth_guard_passes_normal_pages);
    RUN(test_depth_guard_drops_past_cap);
    RUN(test_depth_guard_self_closing_div);
    RUN(test_depth_guard_stray_end_tags);
    RUN(test_parser_depth_cap);
    RUN(test_piecewise_parse_same_dom);
    RUN(test_blank_text_dropped);
    RUN(test_arena_mark_release);
    return CHECK_DONE();
}
