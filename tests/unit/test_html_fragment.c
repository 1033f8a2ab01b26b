/* HTML output read back by the project's own HTML5 parser (src/parse): the
 * tree it builds must be the tree the renderer wrote, element for element
 * and text for text (nothing dropped, re-parented, closed early or moved
 * out of a table), every list item, term, row, cell and caption inside its
 * own container, no link without text, and the text that of the text
 * format. Checked with the content root at every element of a page built
 * to hold what breaks fragments (orphan rows and items, blocks that a
 * <button> let sit in a <p>, headings in headings, links in links, <pre>
 * starting with a line break), with all text kept and with parts dropped,
 * and on the shipped sample and test pages as extracted.
 *
 * usage: test_html_fragment SOURCE_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_fixture.h"
#include "check.h"
#include "doc.h"
#include "parse/parser.h"
#include "text/text.h"
#include "util/arena.h"
#include "util/buf.h"

static winnow_engine *engine;
static wn_parser *parser;
static size_t fragments_checked;

static int is_void(const char *name) { return !strcmp(name, "img") || !strcmp(name, "br") || !strcmp(name, "hr"); }

static void canon_text(wn_buf *c, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '&')
            wn_buf_puts(c, "&amp;");
        else if (s[k] == '<')
            wn_buf_puts(c, "&lt;");
        else
            wn_buf_putc(c, s[k]);
    }
}

/* The renderer's output between <article> and </article>, read as written:
 * "<name>" and "</name>" for tags (attributes left out, void elements
 * closed at once), text with its character references decoded. */
static int canon_written(const char *html, wn_buf *c)
{
    const char *begin = strstr(html, "<article>\n");
    const char *end = begin ? strstr(begin, "\n</article>\n</body>") : NULL;
    if (!begin || !end) return 0;
    const char *s = begin + strlen("<article>\n");
    while (s < end) {
        if (*s == '<') {
            int closing = s[1] == '/';
            const char *name = s + 1 + closing;
            size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789");
            const char *q = name + len;
            char quote = 0;
            while (q < end && (quote || *q != '>')) {
                if (*q == '"') quote = quote ? 0 : '"';
                q++;
            }
            if (q >= end || len == 0 || len > 15) return 0;
            char tag[16];
            memcpy(tag, name, len);
            tag[len] = '\0';
            wn_buf_printf(c, closing ? "</%s>" : "<%s>", tag);
            if (!closing && is_void(tag)) wn_buf_printf(c, "</%s>", tag);
            s = q + 1;
            /* what a parser does: one line break right after <pre> goes */
            if (!closing && !strcmp(tag, "pre") && s < end && *s == '\n') s++;
            continue;
        }
        static const struct {
            const char *ref;
            char c;
        } refs[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&#13;", '\r' } };
        int done = 0;
        for (size_t r = 0; r < sizeof refs / sizeof refs[0] && !done; r++) {
            size_t rl = strlen(refs[r].ref);
            if (!strncmp(s, refs[r].ref, rl)) {
                canon_text(c, &refs[r].c, 1);
                s += rl;
                done = 1;
            }
        }
        if (!done) canon_text(c, s++, 1);
    }
    return 1;
}

/* The same form of the subtree at `root` as the parser built it. */
static void canon_parsed(const wn_dom *dom, uint32_t root, wn_buf *c)
{
    uint32_t end = root + dom->nodes[root].size;
    uint32_t stack[4096];
    size_t sp = 0;
    for (uint32_t i = root + 1; i < end; i++) {
        while (sp && i >= stack[sp - 1] + dom->nodes[stack[sp - 1]].size)
            wn_buf_printf(c, "</%s>", dom->nodes[stack[--sp]].name);
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT) {
            canon_text(c, dom->text + x->text_begin, x->text_len);
            continue;
        }
        wn_buf_printf(c, "<%s>", x->name);
        if (sp < sizeof stack / sizeof stack[0]) stack[sp++] = i;
    }
    while (sp) wn_buf_printf(c, "</%s>", dom->nodes[stack[--sp]].name);
}

static int has_content(const wn_dom *dom, uint32_t i)
{
    for (uint32_t k = i; k < i + dom->nodes[i].size; k++) {
        const wn_node *x = &dom->nodes[k];
        if (x->tag == WN_TAG_IMG) return 1;
        if (x->tag != WN_TAG_TEXT) continue;
        for (uint32_t t = 0; t < x->text_len; t++)
            if (!strchr(" \t\n\r\f", dom->text[x->text_begin + t])) return 1;
    }
    return 0;
}

static unsigned parent_tag(const wn_dom *dom, uint32_t i)
{
    uint32_t p = dom->nodes[i].parent;
    return p == WN_NONE ? WN_TAG_UNKNOWN : dom->nodes[p].tag;
}

/* Each element in a container it may stand in; no empty links. */
static int check_contexts(const wn_dom *dom, uint32_t root, const char *label)
{
    int ok = 1;
    for (uint32_t i = root + 1; i < root + dom->nodes[root].size; i++) {
        unsigned t = dom->nodes[i].tag, p = parent_tag(dom, i);
        int good = 1;
        switch (t) {
        case WN_TAG_LI: good = p == WN_TAG_UL || p == WN_TAG_OL; break;
        case WN_TAG_DT:
        case WN_TAG_DD:
            good = p == WN_TAG_DL || (p == WN_TAG_DIV && parent_tag(dom, dom->nodes[i].parent) == WN_TAG_DL);
            break;
        case WN_TAG_TR: good = p == WN_TAG_TBODY || p == WN_TAG_THEAD || p == WN_TAG_TFOOT; break;
        case WN_TAG_TD:
        case WN_TAG_TH: good = p == WN_TAG_TR; break;
        case WN_TAG_TBODY:
        case WN_TAG_THEAD:
        case WN_TAG_TFOOT:
        case WN_TAG_CAPTION: good = p == WN_TAG_TABLE; break;
        case WN_TAG_FIGCAPTION: good = p == WN_TAG_FIGURE; break;
        case WN_TAG_A: good = has_content(dom, i); break;
        default: break;
        }
        if (!good) {
            fprintf(stderr, "%s: <%s> inside <%s>%s\n", label, dom->nodes[i].name,
                    dom->nodes[dom->nodes[i].parent].name, t == WN_TAG_A ? " without text" : "");
            ok = 0;
        }
    }
    return ok;
}

/* The text without white space (as the text format counts it: no-break
 * spaces too). */
static void strip_space(wn_buf *out, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        int32_t cp = wn_utf8_next(s, n, &i);
        if (wn_char_class(cp) != WN_CC_SPACE) wn_buf_put(out, s + start, i - start);
    }
    wn_buf_cstr(out);
}

/* The round trip for one rendering of d; label names it in failures. */
static void check_fragment(const winnow_doc *d, const char *label)
{
    char *html = render_str(d, WINNOW_FORMAT_HTML);
    char *text = render_str(d, WINNOW_FORMAT_TEXT);
    wn_buf written, parsed, tx, ptx;
    wn_buf_init(&written);
    wn_buf_init(&parsed);
    wn_buf_init(&tx);
    wn_buf_init(&ptx);
    wn_arena arena;
    wn_arena_init(&arena);
    wn_dom dom;
    memset(&dom, 0, sizeof dom);
    int ok = canon_written(html, &written);
    if (!ok) fprintf(stderr, "%s: no <article> in the HTML output\n", label);
    CHECK(ok);
    wn_parse_status ps = wn_parser_parse(parser, html, strlen(html), &arena, &dom, 1);
    CHECK_EQ(ps, WN_PARSE_OK);
    /* html > body > article, the only child element of body */
    uint32_t article = WN_NONE;
    for (uint32_t i = 0; ps == WN_PARSE_OK && i < dom.count; i++)
        if (dom.nodes[i].tag == WN_TAG_ARTICLE && dom.nodes[i].parent == dom.body) {
            article = i;
            break;
        }
    if (ok && article != WN_NONE) {
        /* the article's text: what came out between its tags, less the
         * line breaks the renderer put after <article> and before </article> */
        canon_parsed(&dom, article, &parsed);
        wn_buf_cstr(&written);
        wn_buf_cstr(&parsed);
        const char *p = parsed.data ? parsed.data : "";
        size_t pl = parsed.len;
        if (pl && p[0] == '\n') {
            p++;
            pl--;
        }
        if (pl && p[pl - 1] == '\n') pl--;
        int same = pl == written.len && (!pl || !memcmp(p, written.data, pl));
        if (!same)
            fprintf(stderr, "%s:\n  written %.*s\n  parsed  %.*s\n", label, (int)written.len,
                    written.data ? written.data : "", (int)pl, p);
        CHECK(same);
        CHECK(check_contexts(&dom, article, label));
        /* all the text of the text format, in order */
        for (uint32_t i = article; i < article + dom.nodes[article].size; i++)
            if (dom.nodes[i].tag == WN_TAG_TEXT)
                strip_space(&ptx, dom.text + dom.nodes[i].text_begin, dom.nodes[i].text_len);
        strip_space(&tx, text, strlen(text));
        wn_buf_cstr(&ptx);
        int same_text = tx.len == ptx.len && (!tx.len || !memcmp(tx.data, ptx.data, tx.len));
        if (!same_text) {
            size_t at = 0;
            while (at < tx.len && at < ptx.len && tx.data[at] == ptx.data[at]) at++;
            size_t from = at > 60 ? at - 60 : 0;
            fprintf(stderr, "%s: text differs at %zu\n  text format %.200s\n  html        %.200s\n", label, at,
                    tx.data ? tx.data + from : "", ptx.data ? ptx.data + from : "");
        }
        CHECK(same_text);
    } else {
        fprintf(stderr, "%s: the parsed output has no body > article\n", label);
        CHECK(0);
    }
    fragments_checked++;
    wn_arena_free(&arena);
    wn_buf_free(&written);
    wn_buf_free(&parsed);
    wn_buf_free(&tx);
    wn_buf_free(&ptx);
    free(html);
    free(text);
}

/* What breaks a fragment when its context is left out or an element
 * between two others is dropped by the renderer. */
static const char tricky_page[] =
    "<!DOCTYPE html><html><head><title>Fragments</title></head><body><main>"
    "<h1>Orphans and friends</h1>"
    "<table><caption>Times &amp; places</caption><thead><tr><th>When</th><th>Where</th></tr></thead>"
    "<tbody><tr><td>Monday</td><td><p>Hall <b>A</b></p><div>east wing</div></td></tr>"
    "<tr><td><a href=\"/t\">Tuesday</a></td><td><ul><li>Hall B</li><li>Hall C</li></ul></td></tr></tbody>"
    "<tfoot><tr><td colspan=2>All week</td></tr></tfoot></table>"
    "<ul><li>one<ol><li>one.a</li><li>one.b</li></ol></li><li>two <menu><li>in a menu</li></menu></li></ul>"
    "<ul><div><li>an item in a div</li> <li>a second</li></div><div><li>a third</li></div></ul>"
    "<dl><dt>term</dt><dd>definition <a href=\"/d\">link</a></dd><div><dt>grouped</dt><dd>in a div</dd></div></dl>"
    "<figure><img src=\"/f.png\" alt=\"a figure\"><figcaption>The caption</figcaption></figure>"
    "<p>A paragraph <button><div>with a block in a button</div></button> and after it.</p>"
    "<h2>Heading <span><h3>inside a heading</h3></span></h2>"
    "<p><a href=\"/outer\">outer <object><a href=\"/inner\">inner</a></object> link</a></p>"
    "<pre>\n\nstarts with a blank line\n  and keeps  spaces</pre>"
    "<p>carriage&#13;return, less &lt; than, and &amp; ampersand</p>"
    "<blockquote><p>A quote <q>inline</q> <code>x &lt; y</code><br>after a break</p></blockquote>"
    "<p><a href=\"/empty\"></a>text after an empty link<hr>rule</p>"
    "<section><article><p>nested <sub>sub</sub> <sup>sup</sup> <abbr title=\"t\">ab</abbr></p></article></section>"
    "</main></body></html>";

/* Every element of the body as the content root, with all text kept and
 * with every third text node dropped (links and cells that lose their
 * text). */
static void test_every_root(void)
{
    extraction x = extract_str(engine, tricky_page);
    CHECK(x.doc != NULL);
    if (!x.doc) return;
    winnow_doc *d = x.doc;
    wn_labels *lb = &d->labels;
    uint8_t *saved = malloc(d->dom.count);
    memcpy(saved, lb->keep, d->dom.count);
    size_t roots = 0;
    for (int pattern = 0; pattern < 2; pattern++) {
        for (uint32_t i = 0; i < d->dom.count; i++) lb->keep[i] = pattern == 0 ? 1 : (uint8_t)(i % 3 != 0);
        for (uint32_t r = d->dom.body; r < d->dom.body + d->dom.nodes[d->dom.body].size; r++) {
            if (d->dom.nodes[r].tag == WN_TAG_TEXT) continue;
            lb->container = r;
            lb->headline = WN_NONE;
            char label[96];
            snprintf(label, sizeof label, "tricky page, root <%s> #%u, pattern %d", d->dom.nodes[r].name, r, pattern);
            check_fragment(d, label);
            roots++;
        }
    }
    CHECK(roots > 60);
    memcpy(lb->keep, saved, d->dom.count);
    free(saved);
    extraction_free(&x);
}

static uint32_t page_pre(const winnow_doc *d)
{
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (d->dom.nodes[i].tag == WN_TAG_PRE) return i;
    return WN_NONE;
}

/* The case: a content root that is a <tbody>, and the link text
 * of its first column dropped. */
static void test_tbody_root(void)
{
    extraction x = extract_str(engine, tricky_page);
    if (!x.doc) {
        CHECK(0);
        return;
    }
    winnow_doc *d = x.doc;
    uint32_t tbody = WN_NONE;
    for (uint32_t i = 0; i < d->dom.count && tbody == WN_NONE; i++)
        if (d->dom.nodes[i].tag == WN_TAG_TBODY) tbody = i;
    for (uint32_t i = 0; i < d->dom.count; i++) d->labels.keep[i] = 1;
    d->labels.container = tbody;
    d->labels.headline = WN_NONE;
    char *h = render_str(d, WINNOW_FORMAT_HTML);
    CHECK_HAS(h, "<article>\n<table><tbody><tr><td>Monday</td>");
    CHECK_HAS(h, "</tr>\n</tbody></table>\n");
    free(h);
    /* the link's text dropped: no <a> left */
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (d->dom.nodes[i].tag == WN_TAG_TEXT && !strncmp(d->dom.text + d->dom.nodes[i].text_begin, "Tuesday", 7))
            d->labels.keep[i] = 0;
    h = render_str(d, WINNOW_FORMAT_HTML);
    CHECK_LACKS(h, "href=\"/t\"");
    CHECK_HAS(h, "<tr><td></td>\n<td><ul><li>Hall B</li>");
    free(h);
    extraction_free(&x);
}

/* A headline inside the content root (an item of a list there) is, when
 * the root is written, an item like the others: not wrapped in a list of
 * its own, which nests it a level deeper. */
static void test_headline_in_root(void)
{
    extraction x = extract_str(engine, tricky_page);
    if (!x.doc) {
        CHECK(0);
        return;
    }
    winnow_doc *d = x.doc;
    uint32_t item = WN_NONE;
    for (uint32_t i = 0; i < d->dom.count && item == WN_NONE; i++)
        if (d->dom.nodes[i].tag == WN_TAG_TEXT && d->dom.nodes[i].text_len == 5 &&
            !strncmp(d->dom.text + d->dom.nodes[i].text_begin, "one.b", 5))
            item = d->dom.nodes[i].parent;
    CHECK(item != WN_NONE && d->dom.nodes[item].tag == WN_TAG_LI);
    if (item == WN_NONE) {
        extraction_free(&x);
        return;
    }
    for (uint32_t i = 0; i < d->dom.count; i++) d->labels.keep[i] = 1;
    d->labels.headline = item;
    d->labels.container = d->dom.body;
    char *h = render_str(d, WINNOW_FORMAT_HTML);
    /* the headline's walk wraps it; the root's walk does not */
    CHECK_HAS(h, "<article>\n<ol><li>one.b</li></ol>\n");
    CHECK_HAS(h, "<li>one.a</li>\n<li>one.b</li>\n</ol>");
    free(h);
    extraction_free(&x);
}

/* The text of the first <pre> of a DOM. */
static const char *pre_text(const wn_dom *dom, size_t *len)
{
    for (uint32_t i = 0; i < dom->count; i++) {
        if (dom->nodes[i].tag != WN_TAG_PRE) continue;
        uint32_t t = i + 1;
        if (t >= dom->count || dom->nodes[t].tag != WN_TAG_TEXT) return NULL;
        *len = dom->nodes[t].text_len;
        return dom->text + dom->nodes[t].text_begin;
    }
    return NULL;
}

/* A <pre> whose text starts with a line break keeps it when read back. */
static void test_pre_line_break(void)
{
    extraction x = extract_str(engine, tricky_page);
    if (!x.doc) {
        CHECK(0);
        return;
    }
    winnow_doc *d = x.doc;
    size_t want_len = 0;
    const char *want = pre_text(&d->dom, &want_len);
    CHECK(want && want_len > 0 && want[0] == '\n');
    for (uint32_t i = 0; i < d->dom.count; i++) d->labels.keep[i] = 1;
    d->labels.headline = WN_NONE;
    for (int root = 0; root < 2; root++) {
        d->labels.container = root == 0 ? d->dom.body : page_pre(d);
        char *h = render_str(d, WINNOW_FORMAT_HTML);
        wn_arena arena;
        wn_arena_init(&arena);
        wn_dom dom;
        CHECK_EQ(wn_parser_parse(parser, h, strlen(h), &arena, &dom, 1), WN_PARSE_OK);
        size_t got_len = 0;
        const char *got = pre_text(&dom, &got_len);
        CHECK(got && want && got_len == want_len && !memcmp(got, want, want_len));
        wn_arena_free(&arena);
        free(h);
    }
    extraction_free(&x);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    wn_buf b;
    wn_buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) wn_buf_put(&b, chunk, n);
    fclose(f);
    *len = b.len;
    return b.data;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The real pages as extracted, then with the content root at the first
 * few of each element that needs a container. */
static void check_dir(const char *dir, size_t *pages)
{
    DIR *dh = opendir(dir);
    CHECK(dh != NULL);
    if (!dh) return;
    char *names[256];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL && nn < 256) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".html")) names[nn++] = strdup(e->d_name);
    }
    closedir(dh);
    qsort(names, nn, sizeof names[0], by_name);
    for (size_t k = 0; k < nn; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t len = 0;
        char *data = read_file(path, &len);
        CHECK(data != NULL);
        if (!data) continue;
        extraction x = extract_with(engine, data, len, NULL, NULL);
        if (x.doc) {
            check_fragment(x.doc, path);
            static const unsigned kinds[] = {
                WN_TAG_TBODY, WN_TAG_THEAD, WN_TAG_TR, WN_TAG_TD,      WN_TAG_TH,
                WN_TAG_LI,    WN_TAG_DT,    WN_TAG_DD, WN_TAG_CAPTION, WN_TAG_FIGCAPTION
            };
            winnow_doc *d = x.doc;
            for (size_t kd = 0; kd < sizeof kinds / sizeof kinds[0]; kd++) {
                unsigned seen = 0;
                for (uint32_t i = 0; i < d->dom.count && seen < 3; i++) {
                    if (d->dom.nodes[i].tag != kinds[kd]) continue;
                    seen++;
                    d->labels.container = i;
                    d->labels.headline = WN_NONE;
                    char label[4200];
                    snprintf(label, sizeof label, "%s, root <%s> #%u", path, d->dom.nodes[i].name, i);
                    check_fragment(d, label);
                }
            }
            (*pages)++;
        }
        extraction_free(&x);
        free(data);
    }
    for (size_t k = 0; k < nn; k++) free(names[k]);
}

static const char *source_dir = ".";

static void test_real_pages(void)
{
    size_t pages = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", source_dir);
    check_dir(dir, &pages);
    snprintf(dir, sizeof dir, "%s/tests/data/pages", source_dir);
    check_dir(dir, &pages);
    printf("%zu real pages\n", pages);
    CHECK(pages >= 20);
}

int main(int argc, char **argv)
{
    if (argc > 1) source_dir = argv[1];
    winnow_engine_new(NULL, &engine);
    parser = wn_parser_new(4096);
    if (parser) wn_parser_keep_blank(parser, 1); /* the markup as written, white space too */
    if (!engine || !parser) return 1;
    RUN(test_tbody_root);
    RUN(test_headline_in_root);
    RUN(test_pre_line_break);
    RUN(test_every_root);
    RUN(test_real_pages);
    printf("%zu fragments read back\n", fragments_checked);
    wn_parser_free(parser);
    winnow_engine_free(engine);
    return CHECK_DONE();
}
