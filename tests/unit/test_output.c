/* The five renderers on hand-written pages: line structure of text,
 * Markdown syntax (headings, lists, links, tables, code, quotes), JSON that
 * parses, clean HTML, one JSON object per line for blocks, and escaping of
 * every character that means something in each format. */
#include "api_fixture.h"
#include "check.h"
#include "json_check.h"

static winnow_engine *engine;

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void test_text(void)
{
    extraction x = extract_str(engine, article_page);
    const char *t = x.text;
    CHECK(strncmp(t, "Tide pools of the north coast\n", 30) == 0);
    /* one line per paragraph, heading, item and row; cells split by tabs */
    CHECK_HAS(t, "\nWhen to go\n");
    CHECK_HAS(t, "\nWear boots with a good grip on wet rock.\nBring a small torch for the crevices.\n");
    CHECK_HAS(t, "\nSpecies\tWhere\nBeadlet anemone\tUpper pools\nCommon starfish\tLower shelf\n");
    CHECK_HAS(t, "Check the tide table before you leave home.\n");
    /* <pre> keeps its line breaks and inner spaces */
    CHECK_HAS(t, "\nlow_tide = 0.4  # metres\nrange   = 5.2  # metres\n");
    /* no markup, no blank lines, no trailing spaces, a final newline */
    CHECK_LACKS(t, "<");
    CHECK_LACKS(t, "\n\n");
    CHECK_LACKS(t, " \n");
    CHECK(strlen(t) > 0 && t[strlen(t) - 1] == '\n');
    extraction_free(&x);
}

static void test_markdown(void)
{
    extraction x = extract_str(engine, article_page);
    char *md = render_str(x.doc, WINNOW_FORMAT_MARKDOWN);
    CHECK(strncmp(md, "# Tide pools of the north coast\n", 32) == 0);
    CHECK_HAS(md, "\n\n## When to go\n\n");
    CHECK_HAS(md, "Check the [tide table](https://tides.example/north) before you leave home.");
    CHECK_HAS(md, "\n- Wear boots with a good grip on wet rock.\n- Bring a small torch for the crevices.\n");
    CHECK_HAS(md, "\n| Species | Where |\n| --- | --- |\n| Beadlet anemone | Upper pools |\n"
                  "| Common starfish | Lower shelf |\n");
    CHECK_HAS(md, "\n```\nlow_tide = 0.4  # metres\nrange   = 5.2  # metres\n```\n");
    CHECK_HAS(md, "\n> The sea, once it casts its spell, holds one in its net of wonder forever.\n");
    CHECK_LACKS(md, "About us");
    CHECK_LACKS(md, "](/news)");
    free(md);
    extraction_free(&x);
}

/* Text with everything that needs escaping somewhere. The control
 * character and U+2028 are raw in the source: JSON must escape the first
 * and may keep the second. */
static const char escapes_page[] =
    "<html><head><title>Less &lt; more &amp; \"quoted\" \\ back</title></head><body><article>"
    "<h3>Third level, with words</h3>"
    "<p>Escapes: 1 &lt; 2 &amp;&amp; \"quote\" and back\\slash, a\ttab, a \x01 control, a \xE2\x80\xA8 separator.</p>"
    "<ol><li>first step, with words</li><li>second step, with words<ul><li>nested point, more words</li></ul></li></ol>"
    "<table><tr><td>a|b</td><td>c</td></tr></table>"
    "<p>Line one<br>line two, <a href=\"javascript:void(0)\">js link</a> and "
    "<a href=\"/ok?a=1&amp;b=2\">ok link</a>.</p>"
    "<p><img src=\"/i.png\" alt=\"An &quot;image&quot;\"> caption text, with a comma.</p>"
    "<h6>Sixth level heading here</h6>"
    "</article></body></html>";

static void test_markdown_details(void)
{
    extraction x = extract_str(engine, escapes_page);
    char *md = render_str(x.doc, WINNOW_FORMAT_MARKDOWN);
    CHECK_HAS(md, "### Third level, with words\n");
    CHECK_HAS(md, "###### Sixth level heading here\n");
    CHECK_HAS(md, "\n1. first step, with words\n2. second step, with words\n");
    CHECK_HAS(md, "\n  - nested point, more words\n"); /* nested lists indent */
    CHECK_HAS(md, "| a\\|b | c |\n| --- | --- |\n");   /* a pipe in a cell is escaped */
    CHECK_HAS(md, "Line one\nline two,");              /* <br> breaks the line */
    CHECK_HAS(md, " js link and [ok link](/ok?a=1&b=2).");
    CHECK_LACKS(md, "javascript:");
    free(md);

    CHECK_HAS(x.text, "a|b\tc\n");
    CHECK_HAS(x.text, "Line one\nline two, js link and ok link.\n");
    extraction_free(&x);
}

static void test_markdown_block_link(void)
{
    /* A "card": one link around a heading and a summary, next to running
     * text. Whatever is kept of the card, the Markdown must stay
     * well-formed: no bracket left alone on a line, no "](url)" without
     * its text. */
    const char *page =
        "<html><body><article>"
        "<p>An opening paragraph with enough running text, commas, and full stops to be the main content.</p>"
        "<a href=\"/story\"><h2>Card title</h2><p>Card summary text that goes on, with commas, and a stop.</p></a>"
        "<p>A closing paragraph, again with enough running text, commas, and full stops to count.</p>"
        "</article></body></html>";
    extraction x = extract_str(engine, page);
    char *md = render_str(x.doc, WINNOW_FORMAT_MARKDOWN);
    CHECK_HAS(md, "An opening paragraph");
    CHECK_LACKS(md, "\n[\n");
    CHECK(strncmp(md, "[\n", 2) != 0);
    CHECK_LACKS(md, "\n](");
    free(md);
    extraction_free(&x);
}

static void test_json(void)
{
    extraction x = extract_str(engine, article_page);
    char *js = render_str(x.doc, WINNOW_FORMAT_JSON);
    CHECK(json_valid(js, strlen(js)));
    CHECK(strncmp(js, "{\"title\":\"Tide pools of the north coast\",", 41) == 0);
    CHECK_HAS(js, "\"author\":\"Maria Lindqvist\"");
    CHECK_HAS(js, "\"status\":\"WINNOW_OK\"");
    CHECK_HAS(js, "\"text\":\"Tide pools of the north coast\\nThe rocky shelf");
    CHECK_HAS(js, "\\nSpecies\\tWhere\\n");
    CHECK_LACKS(js, "\"warning\"");
    /* one object per block, in order */
    size_t n = winnow_doc_block_count(x.doc), found = 0;
    for (size_t k = 0; k < n; k++) {
        char key[32];
        snprintf(key, sizeof key, "{\"i\":%zu,", k);
        found += strstr(js, key) != NULL;
    }
    CHECK_EQ(found, n);
    CHECK(n > 0);
    free(js);
    extraction_free(&x);

    /* escapes and a warning */
    x = extract_str(engine, escapes_page);
    js = render_str(x.doc, WINNOW_FORMAT_JSON);
    CHECK(json_valid(js, strlen(js)));
    CHECK_HAS(js, "\"title\":\"Less < more & \\\"quoted\\\" \\\\ back\"");
    CHECK_HAS(js, "a tab, a \\u0001 control"); /* whitespace collapsed, control escaped */
    free(js);
    extraction_free(&x);

    char partial[1024] = "<meta charset=utf-8><p>";
    for (int i = 0; i < 10; i++) strcat(partial, "Enough plain words to make the damage small, ");
    strcat(partial, "\xC3 end.</p>");
    x = extract_str(engine, partial);
    js = render_str(x.doc, WINNOW_FORMAT_JSON);
    CHECK(json_valid(js, strlen(js)));
    CHECK_HAS(js, "\"status\":\"WINNOW_PARTIAL\",\"warning\":\"1 invalid byte sequence replaced");
    free(js);
    extraction_free(&x);
}

/* The caller's source comes back in the JSON, copied (the caller's strings
 * may be gone by the time the document is rendered); null when not given. */
static void test_json_source(void)
{
    char file[64] = "crawl.warc.gz", rid[64] = "<urn:uuid:\"x\">", url[64] = "http://ex.com/a?b=1";
    winnow_source src = {sizeof src, file, 42, rid};
    winnow_input in = {sizeof in, article_page, strlen(article_page), NULL, url, &src};
    winnow_doc *doc = NULL;
    CHECK_EQ(winnow_extract(engine, &in, &doc), WINNOW_OK);
    memset(file, 'z', sizeof file - 1);
    memset(rid, 'z', sizeof rid - 1);
    memset(url, 'z', sizeof url - 1);
    char *js = render_str(doc, WINNOW_FORMAT_JSON);
    CHECK(json_valid(js, strlen(js)));
    CHECK_HAS(js, ",\"source\":{\"file\":\"crawl.warc.gz\",\"record\":42,\"record_id\":\"<urn:uuid:\\\"x\\\">\","
                  "\"url\":\"http://ex.com/a?b=1\"},");
    free(js);
    winnow_doc_free(doc);

    /* a whole file: no record */
    winnow_source whole = {sizeof whole, "page.html", -1, NULL};
    winnow_input in2 = {sizeof in2, article_page, strlen(article_page), NULL, NULL, &whole};
    CHECK_EQ(winnow_extract(engine, &in2, &doc), WINNOW_OK);
    js = render_str(doc, WINNOW_FORMAT_JSON);
    CHECK_HAS(js, "\"source\":{\"file\":\"page.html\",\"record\":null,\"record_id\":null,\"url\":null}");
    free(js);
    winnow_doc_free(doc);

    extraction x = extract_str(engine, article_page);
    js = render_str(x.doc, WINNOW_FORMAT_JSON);
    CHECK(json_valid(js, strlen(js)));
    CHECK_HAS(js, "\"source\":{\"file\":null,\"record\":null,\"record_id\":null,\"url\":null}");
    free(js);
    extraction_free(&x);
}

static void test_html(void)
{
    extraction x = extract_str(engine, article_page);
    char *h = render_str(x.doc, WINNOW_FORMAT_HTML);
    CHECK(strncmp(h, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
    CHECK_HAS(h, "<meta charset=\"utf-8\">");
    CHECK_HAS(h, "<title>Tide pools of the north coast</title>");
    CHECK_HAS(h, "<h1>Tide pools of the north coast</h1>");
    CHECK_HAS(h, "<a href=\"https://tides.example/north\">tide table</a>");
    CHECK_HAS(h, "<th>Species</th>");
    CHECK_HAS(h, "<li>Wear boots with a good grip on wet rock.</li>");
    CHECK_HAS(h, "<blockquote><p>The sea,");
    CHECK_HAS(h, "<pre><code>low_tide = 0.4  # metres\nrange   = 5.2  # metres\n</code></pre>");
    CHECK_LACKS(h, "<script");
    CHECK_LACKS(h, "<style");
    CHECK_LACKS(h, "class=");
    CHECK_LACKS(h, "About us");
    CHECK_LACKS(h, "Privacy policy");
    CHECK_HAS(h, "</html>\n");
    free(h);
    extraction_free(&x);

    x = extract_str(engine, escapes_page);
    h = render_str(x.doc, WINNOW_FORMAT_HTML);
    CHECK_HAS(h, "<title>Less &lt; more &amp; \"quoted\" \\ back</title>");
    CHECK_HAS(h, "1 &lt; 2 &amp;&amp; \"quote\"");
    CHECK_HAS(h, "<a href=\"/ok?a=1&amp;b=2\">ok link</a>");
    CHECK_HAS(h, "<img src=\"/i.png\" alt=\"An &quot;image&quot;\">");
    CHECK_LACKS(h, "javascript:");
    free(h);
    extraction_free(&x);
}

static void test_blocks(void)
{
    extraction x = extract_str(engine, article_page);
    char *bl = render_str(x.doc, WINNOW_FORMAT_BLOCKS);
    size_t n = winnow_doc_block_count(x.doc);
    CHECK_EQ(count_lines(bl), n);
    size_t k = 0;
    int all_valid = 1;
    for (char *line = bl, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1, k++) {
        if (!json_valid(line, (size_t)(nl - line))) all_valid = 0;
        char key[32];
        snprintf(key, sizeof key, "{\"i\":%zu,", k);
        CHECK(strncmp(line, key, strlen(key)) == 0);
    }
    CHECK(all_valid);
    CHECK_HAS(bl, "\"tag\":\"aside\"");
    CHECK_HAS(bl, "\"class\":\"sidebar\"");
    CHECK_HAS(bl, "\"content\":false");
    CHECK_HAS(bl, "\"content\":true");
    CHECK_HAS(bl, "\"text\":\"Ten best beaches Kayaking for beginners Storm watching\"");
    free(bl);
    extraction_free(&x);
}

static void test_empty_documents_render(void)
{
    /* NO_CONTENT documents still render every format, to valid output */
    static const char *const pages[] = {
        "<frameset><frame src=a></frameset>",
        "<html><body></body></html>",
        "<!-- nothing but a comment -->",
        "<html><head><title>Only a title</title></head></html>",
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        extraction x = extract_str(engine, pages[i]);
        CHECK_EQ(x.status, WINNOW_NO_CONTENT);
        CHECK_STR(x.text, "");
        char *md = render_str(x.doc, WINNOW_FORMAT_MARKDOWN);
        CHECK_STR(md, "");
        free(md);
        char *js = render_str(x.doc, WINNOW_FORMAT_JSON);
        CHECK(json_valid(js, strlen(js)));
        CHECK_HAS(js, "\"status\":\"WINNOW_NO_CONTENT\"");
        free(js);
        char *h = render_str(x.doc, WINNOW_FORMAT_HTML);
        CHECK_HAS(h, "<!DOCTYPE html>");
        free(h);
        char *bl = render_str(x.doc, WINNOW_FORMAT_BLOCKS);
        CHECK_STR(bl, "");
        free(bl);
        extraction_free(&x);
    }
}

int main(void)
{
    winnow_engine_new(NULL, &engine);
    if (!engine) return 1;
    RUN(test_text);
    RUN(test_markdown);
    RUN(test_markdown_details);
    RUN(test_markdown_block_link);
    RUN(test_json);
    RUN(test_json_source);
    RUN(test_html);
    RUN(test_blocks);
    RUN(test_empty_documents_render);
    winnow_engine_free(engine);
    return CHECK_DONE();
}
