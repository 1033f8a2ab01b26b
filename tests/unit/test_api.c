/* The public API as a caller sees it (winnow.h only): statuses and their
 * words, argument checking, engine and document lifetimes, extraction of a
 * templated article page, metadata from <title>/<meta>/OpenGraph/JSON-LD,
 * the block list, options and the output callback contract, structures
 * that grow (struct_size), and model files of the wrong kind. One test
 * looks behind the header: the copying of growing structures
 * (util/structs.h) between versions that do not exist yet. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "api_fixture.h"
#include "check.h"
#include "json_check.h"
#include "rules/rules.h"
#include "util/structs.h"

/* the reader API is the header's own now, without its scaffolding */
#ifdef WINNOW_READER_API
#error "winnow.h still defines WINNOW_READER_API"
#endif

static winnow_engine *engine;

static void test_version_and_names(void)
{
    CHECK_STR(winnow_version(), WINNOW_VERSION_STRING);
    CHECK_EQ(winnow_version_number(), WINNOW_VERSION_NUMBER);
    CHECK_EQ(WINNOW_VERSION_NUMBER,
             WINNOW_VERSION_MAJOR * 1000000L + WINNOW_VERSION_MINOR * 1000L + WINNOW_VERSION_PATCH);
    char numbered[32];
    snprintf(numbered, sizeof numbered, "%ld.%ld.%ld", winnow_version_number() / 1000000,
             winnow_version_number() / 1000 % 1000, winnow_version_number() % 1000);
    CHECK_STR(numbered, winnow_version());
    static const struct {
        winnow_status s;
        const char *name;
    } all[] = {
        { WINNOW_OK, "WINNOW_OK" },
        { WINNOW_PARTIAL, "WINNOW_PARTIAL" },
        { WINNOW_NO_CONTENT, "WINNOW_NO_CONTENT" },
        { WINNOW_E_EMPTY, "WINNOW_E_EMPTY" },
        { WINNOW_E_BINARY, "WINNOW_E_BINARY" },
        { WINNOW_E_TOO_LARGE, "WINNOW_E_TOO_LARGE" },
        { WINNOW_E_NOMEM, "WINNOW_E_NOMEM" },
        { WINNOW_E_PARSE, "WINNOW_E_PARSE" },
        { WINNOW_E_IO, "WINNOW_E_IO" },
        { WINNOW_E_ARG, "WINNOW_E_ARG" },
        { WINNOW_E_DB_DAMAGED, "WINNOW_E_DB_DAMAGED" },
        { WINNOW_E_DB_READONLY, "WINNOW_E_DB_READONLY" },
        { WINNOW_E_DB_FORMAT, "WINNOW_E_DB_FORMAT" },
        { WINNOW_E_DB_BUSY, "WINNOW_E_DB_BUSY" },
        { WINNOW_NO_MAIN, "WINNOW_NO_MAIN" },
        { WINNOW_END, "WINNOW_END" },
        { WINNOW_THIN_MAIN, "WINNOW_THIN_MAIN" },
        { WINNOW_E_FORMAT, "WINNOW_E_FORMAT" },
        { WINNOW_E_DB, "WINNOW_E_DB" },
    };
    /* numbers that programs and bindings have stored keep their meaning */
    CHECK_EQ(WINNOW_NO_MAIN, 3);
    CHECK_EQ(WINNOW_END, 4);
    CHECK_EQ(WINNOW_THIN_MAIN, 5);
    CHECK_EQ(WINNOW_E_EMPTY, 10);
    CHECK_EQ(WINNOW_E_ARG, 16);
    CHECK_EQ(WINNOW_E_DB_BUSY, 20);
    CHECK_EQ(WINNOW_E_FORMAT, 21);
    CHECK_EQ(WINNOW_E_DB, 22);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK_STR(winnow_status_name(all[i].s), all[i].name);
        const char *m = winnow_status_message(all[i].s);
        CHECK(m && strlen(m) > 5);
        /* every message is distinct: a user can tell the cases apart */
        for (size_t j = 0; j < i; j++) CHECK(strcmp(m, winnow_status_message(all[j].s)) != 0);
        CHECK_EQ(WINNOW_FAILED(all[i].s), all[i].s >= WINNOW_E_EMPTY);
    }
    CHECK_STR(winnow_status_name((winnow_status)999), "WINNOW_UNKNOWN");
    CHECK(strlen(winnow_status_message((winnow_status)999)) > 0);

    static const char *const meta_names[WINNOW_META_COUNT] = { "title",     "author",      "date",     "url",
                                                               "site_name", "description", "language", "charset" };
    for (int f = 0; f < WINNOW_META_COUNT; f++) CHECK_STR(winnow_meta_name((winnow_meta_field)f), meta_names[f]);
    CHECK_STR(winnow_meta_name(WINNOW_META_COUNT), "");
    CHECK_STR(winnow_meta_name((winnow_meta_field)-1), "");
}

static void test_format_parse(void)
{
    static const struct {
        const char *name;
        winnow_format f;
    } names[] = {
        { "text", WINNOW_FORMAT_TEXT },         { "txt", WINNOW_FORMAT_TEXT },
        { "markdown", WINNOW_FORMAT_MARKDOWN }, { "md", WINNOW_FORMAT_MARKDOWN },
        { "json", WINNOW_FORMAT_JSON },         { "html", WINNOW_FORMAT_HTML },
        { "blocks", WINNOW_FORMAT_BLOCKS },     { "segments", WINNOW_FORMAT_SEGMENTS },
        { "fulltext", WINNOW_FORMAT_FULLTEXT },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        winnow_format f = (winnow_format)-1;
        CHECK_EQ(winnow_format_parse(names[i].name, &f), WINNOW_OK);
        CHECK_EQ(f, names[i].f);
    }
    winnow_format f = WINNOW_FORMAT_JSON;
    CHECK_EQ(winnow_format_parse("xml", &f), WINNOW_E_ARG);
    CHECK_EQ(winnow_format_parse("", &f), WINNOW_E_ARG);
    CHECK_EQ(winnow_format_parse("TEXT", &f), WINNOW_E_ARG);
    CHECK_EQ(winnow_format_parse(NULL, &f), WINNOW_E_ARG);
    CHECK_EQ(winnow_format_parse("text", NULL), WINNOW_E_ARG);
    CHECK_EQ(f, WINNOW_FORMAT_JSON); /* untouched on failure */
}

static void test_options_default(void)
{
    winnow_options o;
    memset(&o, 0xAB, sizeof o);
    winnow_options_default(&o, sizeof o);
    CHECK_EQ(o.max_input_bytes, (size_t)256 << 20);
    CHECK_EQ(o.max_depth, 512);
    CHECK_EQ(o.include_title, 1);
}

static void test_argument_errors(void)
{
    winnow_doc *d = (winnow_doc *)&d; /* poison: must come back NULL */
    winnow_input in = { sizeof in, "<p>x</p>", 8, NULL, NULL };
    CHECK_EQ(winnow_extract(NULL, &in, &d), WINNOW_E_ARG);
    CHECK(d == NULL);
    CHECK_EQ(winnow_extract(engine, &in, NULL), WINNOW_E_ARG);
    d = (winnow_doc *)&d;
    CHECK_EQ(winnow_extract(engine, NULL, &d), WINNOW_E_ARG);
    CHECK(d == NULL);
    CHECK(strlen(winnow_engine_error(engine)) > 0);
    winnow_input nodata = { sizeof nodata, NULL, 10, NULL, NULL };
    CHECK_EQ(winnow_extract(engine, &nodata, &d), WINNOW_E_ARG);
    CHECK(d == NULL);

    winnow_input empty = { sizeof empty, NULL, 0, NULL, NULL };
    CHECK_EQ(winnow_extract(engine, &empty, &d), WINNOW_E_EMPTY);
    CHECK(d == NULL);
    CHECK_HAS(winnow_engine_error(engine), "empty");
    winnow_input zero_len = { sizeof zero_len, "<p>x</p>", 0, NULL,
                              NULL }; /* len 0 is empty, whatever data points at */
    CHECK_EQ(winnow_extract(engine, &zero_len, &d), WINNOW_E_EMPTY);
    CHECK(d == NULL);

    /* the error is per call: a success clears it */
    extraction x = extract_str(engine, "<p>fine</p>");
    CHECK(!WINNOW_FAILED(x.status));
    CHECK_STR(winnow_engine_error(engine), "");
    extraction_free(&x);

    CHECK_STR(winnow_engine_error(NULL), "");
    CHECK_STR(winnow_doc_warning(NULL), "");
    CHECK_STR(winnow_doc_meta(NULL, WINNOW_META_TITLE), "");
    CHECK_EQ(winnow_doc_block_count(NULL), 0);
    winnow_block b = { sizeof b };
    CHECK_EQ(winnow_doc_block(NULL, 0, &b), WINNOW_E_ARG);
    char *out = (char *)&out; /* poison: must come back NULL */
    size_t len = 99;
    CHECK_EQ(winnow_render_alloc(NULL, WINNOW_FORMAT_TEXT, &out, &len), WINNOW_E_ARG);
    CHECK(out == NULL);
    CHECK_EQ(len, 0);
    CHECK_EQ(winnow_render_alloc(NULL, WINNOW_FORMAT_TEXT, NULL, NULL), WINNOW_E_ARG);
    winnow_doc_free(NULL);
    winnow_engine_free(NULL);
}

static void test_binary_and_too_large(void)
{
    static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    extraction x = extract_with(engine, png, sizeof png, NULL, NULL);
    CHECK_EQ(x.status, WINNOW_E_BINARY);
    CHECK(x.doc == NULL);
    CHECK_HAS(winnow_engine_error(engine), "PNG");
    extraction_free(&x);

    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.max_input_bytes = 64;
    winnow_engine *small = NULL;
    winnow_engine_new(&o, &small);
    CHECK(small != NULL);
    x = extract_str(small, article_page);
    CHECK_EQ(x.status, WINNOW_E_TOO_LARGE);
    CHECK_HAS(winnow_engine_error(small), "64");
    extraction_free(&x);
    /* at the limit is still fine */
    char page[65];
    memset(page, 'a', 64);
    memcpy(page, "<p>", 3);
    page[64] = '\0';
    x = extract_str(small, page);
    CHECK_EQ(x.status, WINNOW_OK);
    extraction_free(&x);
    winnow_engine_free(small);
}

static void test_article_extraction(void)
{
    extraction x = extract_str(engine, article_page);
    CHECK_EQ(x.status, WINNOW_OK);
    CHECK_STR(winnow_doc_warning(x.doc), "");
    for (size_t i = 0; i < sizeof article_kept / sizeof article_kept[0]; i++) CHECK_HAS(x.text, article_kept[i]);
    for (size_t i = 0; i < sizeof article_dropped / sizeof article_dropped[0]; i++)
        CHECK_LACKS(x.text, article_dropped[i]);
    /* the article's own paragraphs keep their order */
    const char *a = strstr(x.text, "The rocky shelf"), *b = strstr(x.text, "Most animals hide");
    CHECK(a && b && a < b);
    extraction_free(&x);
}

static void test_metadata(void)
{
    extraction x = extract_with(engine, article_page, strlen(article_page), NULL, "https://other.example/x");
    const winnow_doc *d = x.doc;
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_TITLE), "Tide pools of the north coast"); /* og:title over <title> */
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_AUTHOR), "Maria Lindqvist");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_DATE), "2024-03-05T08:00:00Z");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_URL), "https://coastal.example/tide-pools"); /* canonical first */
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_SITE_NAME), "Coastal Notes");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_DESCRIPTION), "A field guide to the tide pools north of the bay.");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_LANGUAGE), "en");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_CHARSET), "UTF-8");
    CHECK_STR(winnow_doc_meta(d, WINNOW_META_COUNT), "");
    CHECK_STR(winnow_doc_meta(d, (winnow_meta_field)-1), "");
    extraction_free(&x);

    /* plain <title>, whitespace collapsed; og:url and then the caller's URL
     * stand in for a missing canonical link */
    const char *plain =
        "<html><head><title>\n  Plain   title\t</title><meta property=og:url content=\"https://og.example/\">"
        "</head><body><p>Some body text, long enough to read.</p></body></html>";
    x = extract_with(engine, plain, strlen(plain), NULL, "https://caller.example/");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "Plain title");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_URL), "https://og.example/");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_AUTHOR), "");
    extraction_free(&x);
    /* a template's og:title (the site's name, as its og:site_name) and
     * og:url (the front page) on a post: the <title> and the caller's URL
     * name the page; on the front page itself the og:url stays */
    const char *sitewide = "<html><head><title>Notes on tide tables - Coastal Notes</title>"
                           "<meta property=og:title content=\"Coastal Notes\">"
                           "<meta property=og:site_name content=\"Coastal Notes\">"
                           "<meta property=og:url content=\"https://coastal.example/\">"
                           "</head><body><p>Some body text, long enough to read.</p></body></html>";
    x = extract_with(engine, sitewide, strlen(sitewide), NULL, "https://coastal.example/2024/tide-tables.html");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "Notes on tide tables - Coastal Notes");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_URL), "https://coastal.example/2024/tide-tables.html");
    extraction_free(&x);
    x = extract_with(engine, sitewide, strlen(sitewide), NULL, "https://coastal.example/index.html");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_URL), "https://coastal.example/");
    extraction_free(&x);
    const char *bare = "<p>Nothing declared about this page at all.</p>";
    x = extract_with(engine, bare, strlen(bare), NULL, "https://caller.example/");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_URL), "https://caller.example/");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "");
    extraction_free(&x);

    /* the charset field names what the bytes were read as */
    const char *latin = "<meta charset=iso-8859-1><p>Le caf\xE9 est ferm\xE9 aujourd'hui.</p>";
    x = extract_str(engine, latin);
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_CHARSET), "WINDOWS-1252");
    CHECK_HAS(x.text, "Le caf\xC3\xA9 est ferm\xC3\xA9");
    extraction_free(&x);
}

static void test_jsonld_metadata(void)
{
    const char *page = "<html><head><title>Site title | Example</title>"
                       "<script type=\"application/ld+json\">"
                       "{\"@context\":\"https://schema.org\",\"@graph\":["
                       "{\"@type\":\"WebSite\",\"name\":\"Example Site\",\"url\":\"https://example.org/\"},"
                       "{\"@type\":\"NewsArticle\",\"headline\":\"Headline from \\\"JSON-LD\\\"\","
                       "\"datePublished\":\"2023-11-02T10:00:00Z\","
                       "\"author\":[{\"@type\":\"Person\",\"name\":\"Ada Byron\"}],"
                       "\"publisher\":{\"@type\":\"Organization\",\"name\":\"The Daily Example\"},"
                       "\"description\":\"Caf\\u00e9 society, line\\nbreak\"}]}"
                       "</script></head><body><article><p>Body text of the article, with a comma, and a full stop.</p>"
                       "</article></body></html>";
    extraction x = extract_str(engine, page);
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "Headline from \"JSON-LD\"");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_AUTHOR), "Ada Byron");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_DATE), "2023-11-02T10:00:00Z");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_SITE_NAME), "The Daily Example");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_DESCRIPTION), "Caf\xC3\xA9 society, line break");
    extraction_free(&x);

    /* <meta> values stand; JSON-LD only fills what is missing, and a plain
     * string author works as well as an object */
    const char *both = "<html><head><meta name=author content=\"Meta Author\">"
                       "<script type=application/ld+json>{\"@type\":\"BlogPosting\",\"author\":\"Json Author\","
                       "\"dateCreated\":\"2020-01-01\"}</script></head>"
                       "<body><p>Text of the post, long enough to count as one.</p></body></html>";
    x = extract_str(engine, both);
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_AUTHOR), "Meta Author");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_DATE), "2020-01-01");
    extraction_free(&x);

    /* broken JSON-LD is ignored, not fatal */
    const char *broken = "<html><head><title>Kept title</title><script type=application/ld+json>"
                         "{\"@type\":\"Article\",\"headline\":\"unterminated</script></head>"
                         "<body><p>Text of the page, long enough.</p></body></html>";
    x = extract_str(engine, broken);
    CHECK(!WINNOW_FAILED(x.status));
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "Kept title");
    extraction_free(&x);

    /* a Japanese page's own article is the one whose headline the <title>
     * names, though the <title> adds its site after a full-width colon
     * and parts its words with an ideographic space (no ASCII separator
     * anywhere): not the related article listed after it */
    const char *ja = "<html><head><title>\xE5\xB8\x82\xE3\x83\x90\xE3\x82\xB9\xE3\x80\x81\xE6\xB7\xB1"
                     "\xE5\xA4\x9C\xE4\xBE\xBF\xE3\x80\x80\xE6\x9D\xA5\xE6\x9C\x88\xE3\x81\x8B"
                     "\xE3\x82\x89\xEF\xBC\x9A\xE3\x81\xBF\xE3\x81\xAA\xE3\x81\xA8\xE6\x96\xB0"
                     "\xE8\x81\x9E</title><script type=application/ld+json>[{\"@type\":\"NewsArticle\","
                     "\"headline\":\"\xE5\xB8\x82\xE3\x83\x90\xE3\x82\xB9\xE3\x80\x81\xE6\xB7\xB1"
                     "\xE5\xA4\x9C\xE4\xBE\xBF\xE3\x80\x80\xE6\x9D\xA5\xE6\x9C\x88\xE3\x81\x8B"
                     "\xE3\x82\x89\"},{\"@type\":\"NewsArticle\",\"headline\":\"\xE9\xA7\x85\xE5\x89"
                     "\x8D\xE5\x86\x8D\xE9\x96\x8B\xE7\x99\xBA\"}]</script></head>"
                     "<body><p>Text of the page, long enough.</p></body></html>";
    x = extract_str(engine, ja);
    /* 市バス、深夜便　来月から */
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE),
              "\xE5\xB8\x82\xE3\x83\x90\xE3\x82\xB9\xE3\x80\x81\xE6\xB7\xB1\xE5\xA4\x9C\xE4\xBE"
              "\xBF\xE3\x80\x80\xE6\x9D\xA5\xE6\x9C\x88\xE3\x81\x8B\xE3\x82\x89");
    extraction_free(&x);
}

static int valid_utf8(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = json_utf8((const unsigned char *)s + i, n - i);
        if (!k) return 0;
        i += k;
    }
    return 1;
}

static void test_jsonld_bad_escapes(void)
{
    /* A \u escape with fewer than four hex digits before a multi-byte
     * character: the reader must not swallow part of that character, or
     * the metadata (and every output that prints it) is invalid UTF-8. */
    static const char *const headlines[] = {
        "Price \\u00\xE2\x82\xAC 10",         /* \u00 then the euro sign */
        "Smile \\ud83d\\ude\xE2\x82\xAC end", /* low surrogate cut short */
        "Tail \\u\xC3\xA9\xC3\xA9",           /* no hex digit at all */
    };
    for (size_t i = 0; i < sizeof headlines / sizeof headlines[0]; i++) {
        char page[512];
        snprintf(page, sizeof page,
                 "<html><head><script type=application/ld+json>{\"@type\":\"Article\",\"headline\":\"%s\"}"
                 "</script></head><body><p>Body text, long enough to be read.</p></body></html>",
                 headlines[i]);
        extraction x = extract_str(engine, page);
        const char *title = winnow_doc_meta(x.doc, WINNOW_META_TITLE);
        if (!valid_utf8(title)) fprintf(stderr, "  headline %zu: title is not valid UTF-8\n", i);
        CHECK(valid_utf8(title));
        char *h = render_str(x.doc, WINNOW_FORMAT_HTML);
        CHECK(valid_utf8(h));
        free(h);
        extraction_free(&x);
    }
}

static void test_blocks_api(void)
{
    extraction x = extract_str(engine, article_page);
    size_t n = winnow_doc_block_count(x.doc);
    CHECK(n >= 5);
    int content_blocks = 0, template_blocks = 0;
    for (size_t k = 0; k < n; k++) {
        winnow_block b = { sizeof b };
        CHECK_EQ(winnow_doc_block(x.doc, k, &b), WINNOW_OK);
        CHECK(b.tag && *b.tag);
        CHECK(b.path && strncmp(b.path, "html.body", 9) == 0);
        CHECK(b.parent < (long)k);
        CHECK(b.parent >= -1);
        CHECK(b.chars > 0 && b.distinct_words >= 3);
        CHECK(b.words >= b.distinct_words);
        CHECK(b.link_chars <= b.chars);
        CHECK(b.templateness >= 0.0 && b.templateness <= 1.0);
        CHECK(b.line >= 1);
        CHECK(b.src_begin + b.src_len <= strlen(article_page));
        CHECK(b.fingerprint != 0);
        if (b.parent >= 0) {
            winnow_block up = { sizeof up };
            winnow_doc_block(x.doc, (size_t)b.parent, &up);
            CHECK(up.depth < b.depth);
            CHECK(strncmp(b.path, up.path, strlen(up.path)) == 0);
        }
        if (strstr(b.path, "article")) content_blocks += b.is_content;
        if (!strcmp(b.tag, "aside") || !strcmp(b.tag, "footer") || !strcmp(b.tag, "header"))
            template_blocks += !b.is_content;
    }
    CHECK(content_blocks >= 4);
    CHECK_EQ(template_blocks, 3);
    winnow_block b = { sizeof b };
    CHECK_EQ(winnow_doc_block(x.doc, n, &b), WINNOW_E_ARG);
    CHECK_EQ(winnow_doc_block(x.doc, 0, NULL), WINNOW_E_ARG);
    extraction_free(&x);
}

static void test_include_title_option(void)
{
    const char *page =
        "<html><body><div class=\"masthead-wrap\"><h1>Headline outside the content block</h1></div>"
        "<div class=\"story\"><p>The first paragraph of the story has plenty of words, commas, and a stop.</p>"
        "<p>The second paragraph goes on about the same subject, with more words, and another stop.</p></div>"
        "</body></html>";
    extraction x = extract_str(engine, page);
    CHECK(strncmp(x.text, "Headline outside the content block\n", 35) == 0);
    extraction_free(&x);

    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.include_title = 0;
    winnow_engine *e = NULL;
    winnow_engine_new(&o, &e);
    x = extract_str(e, page);
    CHECK_LACKS(x.text, "Headline outside");
    CHECK_HAS(x.text, "The first paragraph of the story");
    extraction_free(&x);
    winnow_engine_free(e);
}

/* The precision/recall dial: names both ways, an engine refusing a value
 * out of range, and each setting changing what is kept around a story
 * (a label after its last sentence; a paragraph of running text beside it). */
static void test_favor_option(void)
{
    for (int f = 0; f < WINNOW_FAVOR_COUNT; f++) {
        winnow_favor back = WINNOW_FAVOR_COUNT;
        CHECK_EQ(winnow_favor_parse(winnow_favor_name((winnow_favor)f), &back), WINNOW_OK);
        CHECK_EQ(back, f);
    }
    winnow_favor keep = WINNOW_FAVOR_RECALL;
    CHECK_EQ(winnow_favor_parse("Precision", &keep), WINNOW_E_ARG);
    CHECK_EQ(winnow_favor_parse(NULL, &keep), WINNOW_E_ARG);
    CHECK_EQ(keep, WINNOW_FAVOR_RECALL);
    CHECK(strcmp(winnow_favor_name((winnow_favor)7), "unknown") == 0);

    winnow_options o;
    winnow_options_default(&o, sizeof o);
    CHECK_EQ(o.favor, WINNOW_FAVOR_BALANCED);
    winnow_engine *e = NULL;
    o.favor = 3;
    CHECK_EQ(winnow_engine_new(&o, &e), WINNOW_E_ARG);
    CHECK(e == NULL);

    const char *page =
        "<html><body><div class=\"top\"><a href=\"/\">Home</a> <a href=\"/news\">News</a></div>"
        "<div class=\"wrap\"><div class=\"side\"><p>Volunteers can sign up at the front desk, where the staff "
        "explain the two mornings of training, the lending system, the children's corner and the fire drill.</p>"
        "</div><div class=\"col\"><div class=\"story\">"
        "<p>The library will open on Sunday afternoons from March, the council said, after a survey of readers.</p>"
        "<p>The branch will open from one until five, staffed by volunteers and two librarians, it said.</p>"
        "<p>The change will be reviewed after six months, when the council counts the visitors again.</p>"
        "<p>Filed under libraries and town life</p></div></div></div></body></html>";
    const char *text[WINNOW_FAVOR_COUNT];
    extraction x[WINNOW_FAVOR_COUNT];
    winnow_engine *ef[WINNOW_FAVOR_COUNT];
    for (int f = 0; f < WINNOW_FAVOR_COUNT; f++) {
        o.favor = f;
        ef[f] = NULL;
        CHECK_EQ(winnow_engine_new(&o, &ef[f]), WINNOW_OK);
        x[f] = extract_str(ef[f], page);
        text[f] = x[f].text ? x[f].text : "";
    }
    CHECK_HAS(text[WINNOW_FAVOR_BALANCED], "Filed under libraries");
    CHECK_LACKS(text[WINNOW_FAVOR_PRECISION], "Filed under libraries");
    CHECK_HAS(text[WINNOW_FAVOR_PRECISION], "counts the visitors again.");
    CHECK_LACKS(text[WINNOW_FAVOR_BALANCED], "Volunteers can sign up");
    CHECK_HAS(text[WINNOW_FAVOR_RECALL], "Volunteers can sign up");
    CHECK_HAS(text[WINNOW_FAVOR_RECALL], "Filed under libraries");
    /* a document lives in its engine's memory: documents first */
    for (int f = 0; f < WINNOW_FAVOR_COUNT; f++) {
        extraction_free(&x[f]);
        winnow_engine_free(ef[f]);
    }
}

/* A thread's posts (winnow_doc_post): the first post and every reply in
 * order, with author and date, on a page forced to be a forum; none on the
 * same page read as an article, nor out of range. */
static void test_thread_posts(void)
{
    const char *page =
        "<html><head><title>Bread flour or plain flour? - Baking Forum</title></head><body>"
        "<div class=\"nav\"><a href=\"/\">Baking Forum</a> <a href=\"/login\">Log in</a></div><main>"
        "<h1>Bread flour or plain flour?</h1>"
        "<div class=\"post\"><div class=\"head\"><a href=\"/u/ruth\">ruth</a> <span>April 2, 2024 10:15</span></div>"
        "<div class=\"body\"><p>Does bread flour really make a better loaf than plain flour, or is the difference "
        "too small to taste? My loaves come out flat and dense, whatever I try.</p></div></div>"
        "<div class=\"post\"><div class=\"head\"><a href=\"/u/miller\">miller</a> <span>April 2, 2024 "
        "11:40</span></div>"
        "<div class=\"body\"><p>Bread flour has more protein, so the dough holds more gas and the loaf rises higher. "
        "With plain flour, knead longer and let it prove in a tin.</p></div></div>"
        "<div class=\"post\"><div class=\"head\"><a href=\"/u/ruth\">ruth</a> <span>April 3, 2024 08:05</span></div>"
        "<div class=\"body\"><p>I bought a bag of bread flour and the next loaf rose twice as high. Thank you, "
        "that settles it for me.</p></div></div></main></body></html>";
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.page_type = WINNOW_PAGE_FORUM;
    winnow_engine *e = NULL;
    CHECK_EQ(winnow_engine_new(&o, &e), WINNOW_OK);
    extraction x = extract_str(e, page);
    CHECK_EQ(winnow_doc_post_count(x.doc), 3);
    const char *authors[] = { "ruth", "miller", "ruth" };
    const char *dates[] = { "April 2, 2024 10:15", "April 2, 2024 11:40", "April 3, 2024 08:05" };
    const char *texts[] = { "Does bread flour really", "Bread flour has more protein", "I bought a bag" };
    for (size_t i = 0; i < 3 && i < winnow_doc_post_count(x.doc); i++) {
        winnow_comment p = { sizeof p };
        CHECK_EQ(winnow_doc_post(x.doc, i, &p), WINNOW_OK);
        CHECK_STR(p.author, authors[i]);
        CHECK_STR(p.date, dates[i]);
        CHECK(strncmp(p.text, texts[i], strlen(texts[i])) == 0);
    }
    winnow_comment p = { sizeof p };
    CHECK_EQ(winnow_doc_post(x.doc, 3, &p), WINNOW_E_ARG);
    CHECK_EQ(winnow_doc_post(NULL, 0, &p), WINNOW_E_ARG);
    CHECK_EQ(winnow_doc_post_count(NULL), 0);
    /* the posts come in the JSON too, first post first */
    char *json = NULL;
    CHECK_EQ(winnow_render_alloc(x.doc, WINNOW_FORMAT_JSON, &json, NULL), WINNOW_OK);
    CHECK_HAS(json, "\"posts\":[{\"author\":\"ruth\",\"date\":\"April 2, 2024 10:15\"");
    free(json);
    extraction_free(&x);
    winnow_engine_free(e);

    /* an article has no posts */
    o.page_type = WINNOW_PAGE_ARTICLE;
    CHECK_EQ(winnow_engine_new(&o, &e), WINNOW_OK);
    x = extract_str(e, page);
    CHECK_EQ(winnow_doc_post_count(x.doc), 0);
    CHECK_EQ(winnow_doc_post(x.doc, 0, &p), WINNOW_E_ARG);
    CHECK_EQ(winnow_render_alloc(x.doc, WINNOW_FORMAT_JSON, &json, NULL), WINNOW_OK);
    CHECK_HAS(json, "\"posts\":[]");
    free(json);
    extraction_free(&x);
    winnow_engine_free(e);
}

static void test_engine_reuse(void)
{
    /* One engine, many pages: results do not depend on what came before,
     * and a document may outlive the next extraction. */
    extraction first = extract_str(engine, article_page);
    for (int i = 0; i < 40; i++) {
        extraction other = extract_str(engine, i % 2 ? "<p>Something else entirely, a different page.</p>"
                                                     : "<frameset><frame src=a></frameset>");
        extraction again = extract_str(engine, article_page);
        CHECK_STR(again.text, first.text);
        extraction_free(&other);
        extraction_free(&again);
    }
    /* two live documents from one engine; freed in creation order */
    extraction second = extract_str(engine, "<p>A second live document with its own text.</p>");
    char *t = render_str(first.doc, WINNOW_FORMAT_TEXT);
    CHECK_STR(t, first.text);
    free(t);
    CHECK_HAS(second.text, "A second live document");
    extraction_free(&first);
    extraction third = extract_str(engine, article_page);
    CHECK_HAS(third.text, "The rocky shelf");
    extraction_free(&second);
    extraction_free(&third);

    /* engines with default options from NULL and from a zeroed struct
     * (with its size: a struct without one is refused) */
    winnow_options zero;
    memset(&zero, 0, sizeof zero);
    winnow_engine *e = (winnow_engine *)&e;
    CHECK_EQ(winnow_engine_new(&zero, &e), WINNOW_E_ARG);
    CHECK(e == NULL);
    zero.struct_size = sizeof zero;
    CHECK_EQ(winnow_engine_new(&zero, &e), WINNOW_OK);
    CHECK(e != NULL);
    extraction x = extract_str(e, article_page);
    CHECK_EQ(x.status, WINNOW_OK);
    extraction_free(&x);
    winnow_engine_free(e);
}

typedef struct sink {
    char *data;
    size_t len, calls;
    size_t fail_at_call; /* 0: never fail */
} sink;

static int sink_write(void *ctx, const char *data, size_t len)
{
    sink *s = ctx;
    s->calls++;
    if (s->fail_at_call && s->calls >= s->fail_at_call) return -1;
    s->data = realloc(s->data, s->len + len + 1);
    memcpy(s->data + s->len, data, len);
    s->len += len;
    s->data[s->len] = '\0';
    return 0;
}

static void test_render_callback(void)
{
    /* a page with over 64 KiB of text so output arrives in several pieces */
    size_t cap = 200000;
    char *big = malloc(cap);
    strcpy(big, "<html><body><article>");
    for (int i = 0; strlen(big) < cap - 400; i++) {
        char para[256];
        snprintf(para, sizeof para, "<p>Paragraph number %d of a long article, with commas, words and stops.</p>\n", i);
        strcat(big, para);
    }
    strcat(big, "</article></body></html>");
    extraction x = extract_str(engine, big);
    CHECK_EQ(x.status, WINNOW_OK);
    for (int f = WINNOW_FORMAT_TEXT; f <= WINNOW_FORMAT_BLOCKS; f++) {
        sink s = { 0 };
        CHECK_EQ(winnow_render(x.doc, (winnow_format)f, sink_write, &s), WINNOW_OK);
        char *whole = render_str(x.doc, (winnow_format)f);
        CHECK(s.data && strcmp(s.data, whole) == 0);
        /* the block formats stream; text-like formats may arrive whole */
        if (f == WINNOW_FORMAT_BLOCKS || f == WINNOW_FORMAT_JSON) CHECK(s.calls > 1);
        free(whole);
        free(s.data);

        /* a failing writer aborts the render with WINNOW_E_IO */
        sink bad = { .fail_at_call = 1 };
        CHECK_EQ(winnow_render(x.doc, (winnow_format)f, sink_write, &bad), WINNOW_E_IO);
        CHECK_EQ(bad.calls, 1); /* and is not called again after failing */
        free(bad.data);
    }
    extraction_free(&x);

    /* a paragraph over 64 KiB between two of 30,000 bytes: plain text
     * writes it from its own buffer, between the pieces before and after */
    const char *tag[3] = { "First", "Long", "Last" };
    size_t size[3] = { 30000, 100000, 30000 }, len[3] = { 0 };
    char *para[3];
    for (int k = 0; k < 3; k++) {
        para[k] = malloc(size[k] + 200);
        for (int i = 0; len[k] < size[k]; i++)
            len[k] +=
                (size_t)sprintf(para[k] + len[k], "%s sentence %d of a paragraph, with commas and stops. ", tag[k], i);
        para[k][--len[k]] = '\0'; /* no trailing space: the text as output */
    }
    char *page = malloc(len[0] + len[1] + len[2] + 200), *want = malloc(len[0] + len[1] + len[2] + 8);
    sprintf(page, "<html><body><article><p>%s</p><p>%s</p><p>%s</p></article></body></html>", para[0], para[1],
            para[2]);
    sprintf(want, "%s\n%s\n%s\n", para[0], para[1], para[2]);
    x = extract_str(engine, page);
    CHECK_EQ(x.status, WINNOW_OK);
    sink s = { 0 };
    CHECK_EQ(winnow_render(x.doc, WINNOW_FORMAT_TEXT, sink_write, &s), WINNOW_OK);
    CHECK(s.data && strcmp(s.data, want) == 0);
    CHECK(s.calls >= 3);
    for (size_t k = 1; k <= s.calls; k++) {
        sink bad = { .fail_at_call = k };
        CHECK_EQ(winnow_render(x.doc, WINNOW_FORMAT_TEXT, sink_write, &bad), WINNOW_E_IO);
        CHECK_EQ(bad.calls, k);
        free(bad.data);
    }
    free(s.data);
    free(want);
    free(page);
    for (int k = 0; k < 3; k++) free(para[k]);
    CHECK_EQ(winnow_render(x.doc, (winnow_format)42, sink_write, NULL), WINNOW_E_ARG);
    CHECK_EQ(winnow_render(x.doc, WINNOW_FORMAT_TEXT, NULL, NULL), WINNOW_E_ARG);
    CHECK_EQ(winnow_render(NULL, WINNOW_FORMAT_TEXT, sink_write, NULL), WINNOW_E_ARG);
    char *out = (char *)&out;
    CHECK_EQ(winnow_render_alloc(x.doc, (winnow_format)42, &out, NULL), WINNOW_E_ARG);
    CHECK(out == NULL);
    extraction_free(&x);
    free(big);
}

/* The string value of the first "key" in a JSON text, unescaped (malloc'd;
 * NULL when the key is missing or its value is no string). Escapes as RFC
 * 8259 has them; \u escapes of the BMP only, as UTF-8. */
static char *json_string_of(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = json ? strstr(json, pat) : NULL;
    if (!p) return NULL;
    p += strlen(pat);
    char *out = malloc(strlen(p) + 1), *o = out;
    for (; *p && *p != '"'; p++) {
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u': {
            unsigned c = (unsigned)strtoul((char[5]){ p[1], p[2], p[3], p[4], 0 }, NULL, 16);
            p += 4;
            if (c < 0x80) {
                *o++ = (char)c;
            } else if (c < 0x800) {
                *o++ = (char)(0xC0 | c >> 6);
                *o++ = (char)(0x80 | (c & 0x3F));
            } else {
                *o++ = (char)(0xE0 | c >> 12);
                *o++ = (char)(0x80 | (c >> 6 & 0x3F));
                *o++ = (char)(0x80 | (c & 0x3F));
            }
            break;
        }
        default: *o++ = *p; break; /* " \ / */
        }
    }
    *o = '\0';
    if (*p != '"') {
        free(out);
        return NULL;
    }
    return out;
}

/* Where key first stands in json as a key ("key":), or -1. */
static long key_at(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    return p ? (long)(p - json) : -1;
}

/* The body of JSON and JSONL (winnow_body_parse, winnow_json_options,
 * winnow_jsonl_options.body): each format asked for in a key of its name,
 * its string byte for byte that format's rendering, in the order text,
 * markdown, html, fulltext where "text" stands by default; the default
 * and "text" give the bytes of before; bad sets are WINNOW_E_ARG. */
static void test_json_body(void)
{
    const unsigned TEXT = WINNOW_BODY(WINNOW_FORMAT_TEXT), MD = WINNOW_BODY(WINNOW_FORMAT_MARKDOWN),
                   HTML = WINNOW_BODY(WINNOW_FORMAT_HTML), FULL = WINNOW_BODY(WINNOW_FORMAT_FULLTEXT);
    /* the lists */
    unsigned body = 99;
    CHECK_EQ(winnow_body_parse("markdown", &body), WINNOW_OK);
    CHECK_EQ(body, MD);
    CHECK_EQ(winnow_body_parse("md,txt", &body), WINNOW_OK);
    CHECK_EQ(body, MD | TEXT);
    CHECK_EQ(winnow_body_parse("fulltext,html,markdown,text,html", &body), WINNOW_OK);
    CHECK_EQ(body, (unsigned)WINNOW_BODY_ALL);
    CHECK_EQ(body, TEXT | MD | HTML | FULL);
    static const char *const bad[] = {
        "",       ",",        "text,",  ",text", "text,,html", "json",          "jsonl",
        "blocks", "segments", "ndjson", "Text",  " text",      "text markdown", "markdownmarkdownmarkdown"
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        body = 99;
        CHECK_EQ(winnow_body_parse(bad[i], &body), WINNOW_E_ARG);
        CHECK_EQ(body, 99); /* untouched */
    }
    CHECK_EQ(winnow_body_parse(NULL, &body), WINNOW_E_ARG);
    CHECK_EQ(winnow_body_parse("text", NULL), WINNOW_E_ARG);

    extraction x = extract_str(engine, article_page);
    CHECK_EQ(x.status, WINNOW_OK);
    char *json = render_str(x.doc, WINNOW_FORMAT_JSON), *md = render_str(x.doc, WINNOW_FORMAT_MARKDOWN),
         *html = render_str(x.doc, WINNOW_FORMAT_HTML), *full = render_str(x.doc, WINNOW_FORMAT_FULLTEXT);
    CHECK(strcmp(md, x.text) != 0); /* the test compares renderings that differ */

    /* JSON: NULL options, the defaults, and "text" write what winnow_render writes */
    winnow_json_options jo;
    CHECK_EQ(winnow_json_options_default(&jo, sizeof jo), WINNOW_OK);
    CHECK_EQ(jo.struct_size, sizeof jo);
    CHECK_EQ(jo.body, 0);
    CHECK_EQ(winnow_json_options_default(&jo, sizeof(size_t)), WINNOW_E_ARG);
    CHECK_EQ(winnow_json_options_default(NULL, sizeof jo), WINNOW_E_ARG);
    winnow_json_options_default(&jo, sizeof jo);
    for (int k = 0; k < 3; k++) {
        jo.body = k == 2 ? TEXT : 0;
        sink s = { 0 };
        CHECK_EQ(winnow_render_json(x.doc, k == 0 ? NULL : &jo, sink_write, &s), WINNOW_OK);
        CHECK_STR(s.data, json);
        free(s.data);
    }
    /* markdown alone: "markdown" where "text" stood, the Markdown byte for byte */
    jo.body = MD;
    sink s = { 0 };
    CHECK_EQ(winnow_render_json(x.doc, &jo, sink_write, &s), WINNOW_OK);
    CHECK(s.data && json_valid(s.data, s.len));
    char *got = json_string_of(s.data, "markdown");
    CHECK_STR(got, md);
    free(got);
    long posts = s.data ? key_at(s.data, "posts") : -1;
    CHECK(posts > 0);
    CHECK(s.data && key_at(s.data, "text") > posts); /* only the blocks' "text" */
    CHECK(s.data && key_at(s.data, "content_chars") < key_at(s.data, "markdown"));
    free(s.data);
    /* all four, in their order before "posts" */
    jo.body = FULL | HTML | MD | TEXT;
    s = (sink){ 0 };
    CHECK_EQ(winnow_render_json(x.doc, &jo, sink_write, &s), WINNOW_OK);
    CHECK(s.data && json_valid(s.data, s.len));
    if (s.data) {
        long t = key_at(s.data, "text"), m = key_at(s.data, "markdown"), h = key_at(s.data, "html"),
             f = key_at(s.data, "fulltext");
        CHECK(t > 0 && t < m && m < h && h < f && f < key_at(s.data, "posts"));
    }
    const char *keys[] = { "text", "markdown", "html", "fulltext" };
    const char *want[] = { x.text, md, html, full };
    for (int k = 0; k < 4; k++) {
        got = json_string_of(s.data, keys[k]);
        CHECK_STR(got, want[k]);
        free(got);
    }
    free(s.data);
    /* bits that are no body format: refused before anything is written */
    static const unsigned bad_bits[] = { WINNOW_BODY(WINNOW_FORMAT_JSON), WINNOW_BODY(WINNOW_FORMAT_BLOCKS),
                                         WINNOW_BODY(WINNOW_FORMAT_JSONL), MD | WINNOW_BODY(WINNOW_FORMAT_SEGMENTS),
                                         1u << 31 };
    for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++) {
        jo.body = bad_bits[i];
        s = (sink){ 0 };
        CHECK_EQ(winnow_render_json(x.doc, &jo, sink_write, &s), WINNOW_E_ARG);
        CHECK_EQ(s.calls, 0);
    }
    jo.body = MD;
    CHECK_EQ(winnow_render_json(NULL, &jo, sink_write, &s), WINNOW_E_ARG);
    CHECK_EQ(winnow_render_json(x.doc, &jo, NULL, NULL), WINNOW_E_ARG);
    /* a failing writer: WINNOW_E_IO */
    sink failing = { .fail_at_call = 1 };
    CHECK_EQ(winnow_render_json(x.doc, &jo, sink_write, &failing), WINNOW_E_IO);
    free(failing.data);
    /* a newer caller's larger structure: taken when the bytes past this
     * library's are zero, refused otherwise */
    struct {
        winnow_json_options o;
        unsigned char more[16];
    } newer;
    memset(&newer, 0, sizeof newer);
    winnow_json_options_default(&newer.o, sizeof newer);
    CHECK_EQ(newer.o.struct_size, sizeof newer);
    newer.o.body = MD;
    s = (sink){ 0 };
    CHECK_EQ(winnow_render_json(x.doc, &newer.o, sink_write, &s), WINNOW_OK);
    CHECK(s.data && key_at(s.data, "markdown") > 0);
    free(s.data);
    newer.more[3] = 1;
    CHECK_EQ(winnow_render_json(x.doc, &newer.o, sink_write, &s), WINNOW_E_ARG);

    /* JSONL: the same body keys; a caller of the first version (no body) gets "text" */
    winnow_jsonl_options lo;
    CHECK_EQ(winnow_jsonl_options_default(&lo, sizeof lo), WINNOW_OK);
    CHECK_EQ(lo.body, 0);
    lo.body = HTML | MD;
    s = (sink){ 0 };
    CHECK_EQ(winnow_render_jsonl(x.doc, &lo, sink_write, &s), WINNOW_OK);
    CHECK(s.data && s.len > 0 && s.data[s.len - 1] == '\n' && !memchr(s.data, '\n', s.len - 1));
    CHECK(s.data && json_valid(s.data, s.len));
    got = json_string_of(s.data, "markdown");
    CHECK_STR(got, md);
    free(got);
    got = json_string_of(s.data, "html");
    CHECK_STR(got, html);
    free(got);
    CHECK(s.data && key_at(s.data, "text") < 0 && key_at(s.data, "markdown") < key_at(s.data, "html"));
    free(s.data);
    lo.struct_size = offsetof(winnow_jsonl_options, body); /* as the first header declared it */
    s = (sink){ 0 };
    CHECK_EQ(winnow_render_jsonl(x.doc, &lo, sink_write, &s), WINNOW_OK);
    got = json_string_of(s.data, "text");
    CHECK_STR(got, x.text);
    free(got);
    CHECK(s.data && key_at(s.data, "markdown") < 0);
    free(s.data);
    lo.struct_size = sizeof lo;
    lo.body = WINNOW_BODY(WINNOW_FORMAT_SEGMENTS);
    CHECK_EQ(winnow_render_jsonl(x.doc, &lo, sink_write, &s), WINNOW_E_ARG);
    /* a failed page's line: null for each body key */
    lo.body = MD | TEXT;
    s = (sink){ 0 };
    CHECK_EQ(winnow_render_jsonl_failure(NULL, WINNOW_E_EMPTY, NULL, &lo, sink_write, &s), WINNOW_OK);
    CHECK_HAS(s.data, ",\"text\":null,\"markdown\":null,\"posts\":null}");
    CHECK(s.data && json_valid(s.data, s.len));
    free(s.data);
    lo.body = 1u << 20;
    CHECK_EQ(winnow_render_jsonl_failure(NULL, WINNOW_E_EMPTY, NULL, &lo, sink_write, &s), WINNOW_E_ARG);

    free(json);
    free(md);
    free(html);
    free(full);
    extraction_free(&x);
}

static void test_status_partial_and_no_content(void)
{
    /* damage is reported, and the rest of the page still comes out */
    char page[2048] = "<html><head><meta charset=utf-8></head><body><p>";
    for (int i = 0; i < 12; i++) strcat(page, "Readable words before and after the damage, ");
    strcat(page, "bad \xFF byte.</p></body></html>");
    extraction x = extract_str(engine, page);
    CHECK_EQ(x.status, WINNOW_PARTIAL);
    CHECK_HAS(winnow_doc_warning(x.doc), "1 invalid byte sequence replaced");
    CHECK_HAS(x.text, "bad \xEF\xBF\xBD byte.");
    extraction_free(&x);

    x = extract_str(engine, "<html><head><title>Frames</title></head><frameset cols=\"50%,50%\">"
                            "<frame src=\"a.html\"><frame src=\"b.html\"></frameset></html>");
    CHECK_EQ(x.status, WINNOW_NO_CONTENT);
    CHECK_HAS(winnow_doc_warning(x.doc), "frameset");
    CHECK_STR(x.text, "");
    CHECK_STR(winnow_doc_meta(x.doc, WINNOW_META_TITLE), "Frames");
    extraction_free(&x);

    x = extract_str(engine, "<html><body>  \n\t <div> </div><!-- only a comment --></body></html>");
    CHECK_EQ(x.status, WINNOW_NO_CONTENT);
    CHECK_HAS(winnow_doc_warning(x.doc), "no visible text");
    extraction_free(&x);

    /* nesting capped: PARTIAL, with the count in the warning */
    size_t depth = 2000;
    char *deep = malloc(depth * 5 + 64);
    size_t o = (size_t)sprintf(deep, "<body>");
    for (size_t i = 0; i < depth; i++, o += 5) memcpy(deep + o, "<div>", 5);
    strcpy(deep + o, "Text at the very bottom of the nesting.");
    x = extract_str(engine, deep);
    CHECK_EQ(x.status, WINNOW_PARTIAL);
    CHECK_HAS(winnow_doc_warning(x.doc), "nesting depth 512");
    CHECK_HAS(x.text, "Text at the very bottom");
    extraction_free(&x);
    free(deep);
}

/* Option structures: _default() writes no byte past the size it is given,
 * refuses a size below the structure's, and the engine takes what a newer
 * header would pass as long as the fields this library does not know are
 * left at zero. */
static void test_options_struct_size(void)
{
    unsigned char raw[sizeof(winnow_options) + 64];
    memset(raw, 0xAB, sizeof raw);
    winnow_options *o = (winnow_options *)raw;
    CHECK_EQ(winnow_options_default(o, sizeof *o), WINNOW_OK);
    CHECK_EQ(o->struct_size, sizeof *o);
    for (size_t i = sizeof *o; i < sizeof raw; i++) CHECK_EQ(raw[i], 0xAB);
    CHECK_EQ(o->include_title, 1);
    /* an older, smaller structure than any this library took */
    memset(raw, 0xAB, sizeof raw);
    CHECK_EQ(winnow_options_default(o, sizeof(size_t)), WINNOW_E_ARG);
    CHECK_EQ(winnow_options_default(NULL, sizeof *o), WINNOW_E_ARG);
    /* a newer header's structure: this library's fields, zeros past them */
    memset(raw, 0xAB, sizeof raw);
    CHECK_EQ(winnow_options_default(o, sizeof raw), WINNOW_OK);
    CHECK_EQ(o->struct_size, sizeof raw);
    for (size_t i = sizeof *o; i < sizeof raw; i++) CHECK_EQ(raw[i], 0);
    o->include_title = 0;
    winnow_engine *e = NULL;
    CHECK_EQ(winnow_engine_new(o, &e), WINNOW_OK);
    CHECK(e != NULL);
    if (e) {
        /* the option was read: no headline from outside the content block */
        extraction x = extract_str(e, "<html><body><div class=\"masthead-wrap\"><h1>Headline outside the block</h1>"
                                      "</div><div class=\"story\"><p>The first paragraph of the story has plenty of "
                                      "words, commas, and a stop.</p><p>The second paragraph goes on about the same "
                                      "subject, with more words, and another stop.</p></div></body></html>");
        CHECK_EQ(x.status, WINNOW_OK);
        CHECK_HAS(x.text, "The first paragraph of the story");
        CHECK_LACKS(x.text, "Headline outside");
        extraction_free(&x);
        winnow_engine_free(e);
    }
    /* an option this library does not know, set: refused, not ignored */
    raw[sizeof raw - 1] = 1;
    e = (winnow_engine *)&e;
    CHECK_EQ(winnow_engine_new(o, &e), WINNOW_E_ARG);
    CHECK(e == NULL);
    /* garbage: an uninitialised size */
    o->struct_size = (size_t)1 << 40;
    CHECK_EQ(winnow_engine_new(o, &e), WINNOW_E_ARG);
    CHECK_EQ(winnow_engine_new(NULL, NULL), WINNOW_E_ARG);

    winnow_site_options so;
    CHECK_EQ(winnow_site_options_default(&so, sizeof so), WINNOW_OK);
    CHECK_EQ(so.struct_size, sizeof so);
    CHECK_EQ(so.min_pages, 5);
    CHECK_EQ(winnow_site_options_default(&so, 1), WINNOW_E_ARG);
    winnow_reader_options ro;
    CHECK_EQ(winnow_reader_options_default(&ro, sizeof ro), WINNOW_OK);
    CHECK_EQ(ro.struct_size, sizeof ro);
    CHECK_EQ(ro.max_record_bytes, (size_t)256 << 20);
    CHECK_EQ(ro.format, WINNOW_INPUT_AUTO);
}

/* Structures the library fills: written as far as their struct_size goes,
 * zeros past what this library knows, refused without a size. */
static void test_out_struct_size(void)
{
    extraction x = extract_str(engine, article_page);
    CHECK(winnow_doc_block_count(x.doc) > 0);
    struct {
        winnow_block b;
        unsigned char newer[40];
    } big;
    memset(&big, 0xAB, sizeof big);
    big.b.struct_size = sizeof big;
    CHECK_EQ(winnow_doc_block(x.doc, 0, &big.b), WINNOW_OK);
    CHECK_EQ(big.b.struct_size, sizeof big); /* the caller's size stays */
    CHECK(big.b.tag && big.b.chars > 0);
    for (size_t i = 0; i < sizeof big.newer; i++) CHECK_EQ(big.newer[i], 0);

    winnow_block b;
    memset(&b, 0, sizeof b);
    CHECK_EQ(winnow_doc_block(x.doc, 0, &b), WINNOW_E_ARG); /* no size */
    CHECK(b.tag == NULL);
    b.struct_size = 8;
    CHECK_EQ(winnow_doc_block(x.doc, 0, &b), WINNOW_E_ARG);

    winnow_rule r;
    memset(&r, 0, sizeof r);
    CHECK_EQ(winnow_rule_info(0, &r), WINNOW_E_ARG);
    r.struct_size = sizeof r;
    CHECK_EQ(winnow_rule_info(0, &r), WINNOW_OK);
    CHECK(r.name && *r.name);
    CHECK_EQ(winnow_rule_info(winnow_rule_count(), &r), WINNOW_E_ARG);
    winnow_comment c = { sizeof c };
    CHECK_EQ(winnow_doc_comment(x.doc, 0, &c), WINNOW_E_ARG); /* the article has none */
    extraction_free(&x);

    /* winnow_input and winnow_source too */
    winnow_doc *d = (winnow_doc *)&d;
    winnow_input unsized = { 0, article_page, strlen(article_page), NULL, NULL, NULL };
    CHECK_EQ(winnow_extract(engine, &unsized, &d), WINNOW_E_ARG);
    CHECK(d == NULL);
    CHECK_HAS(winnow_engine_error(engine), "struct_size");
    winnow_source src = { 0, "f.html", 3, NULL };
    winnow_input in = { sizeof in, article_page, strlen(article_page), NULL, NULL, &src };
    CHECK_EQ(winnow_extract(engine, &in, &d), WINNOW_E_ARG);
    CHECK_HAS(winnow_engine_error(engine), "winnow_source");
    src.struct_size = sizeof src;
    CHECK_EQ(winnow_extract(engine, &in, &d), WINNOW_OK);
    winnow_doc_free(d);
}

/* Two versions of a structure that do not exist yet, the way the library
 * copies them (util/structs.h): an older caller's structure gets the
 * newer fields' defaults, a newer caller's is taken when what this side
 * does not know is zero, and out-structures are cut or zero-filled. */
typedef struct v1 {
    size_t struct_size;
    int a;
    int b;
} v1;
typedef struct v2 {
    size_t struct_size;
    int a;
    int b;
    double c;
    int d;
} v2;

static void test_struct_versions(void)
{
    /* the library of v2, a program of v1 */
    v2 lib = { sizeof lib, 1, 2, 3.5, 4 }; /* defaults */
    v1 old = { sizeof old, 10, 20 };
    CHECK_EQ(wn_struct_in(&lib, sizeof lib, &old, WN_FIELD_END(v2, b)), 0);
    CHECK_EQ(lib.struct_size, sizeof lib);
    CHECK_EQ(lib.a, 10);
    CHECK_EQ(lib.b, 20);
    CHECK(lib.c == 3.5 && lib.d == 4); /* the program did not know them: defaults */
    v1 out = { sizeof out, 0, 0 };
    v2 full = { sizeof full, 7, 8, 9.0, 10 };
    CHECK_EQ(wn_struct_out(&out, &full, sizeof full, WN_FIELD_END(v2, b)), 0);
    CHECK_EQ(out.struct_size, sizeof out);
    CHECK_EQ(out.a, 7);
    CHECK_EQ(out.b, 8);
    /* the library of v1, a program of v2 */
    v1 lib1 = { sizeof lib1, 1, 2 };
    v2 newer; /* padding included: bytes past v1 are looked at */
    memset(&newer, 0, sizeof newer);
    newer.struct_size = sizeof newer;
    newer.a = 5;
    newer.b = 6;
    CHECK_EQ(wn_struct_in(&lib1, sizeof lib1, &newer, WN_FIELD_END(v1, b)), 0);
    CHECK_EQ(lib1.a, 5);
    CHECK_EQ(lib1.b, 6);
    newer.d = 1; /* a field the library does not know, used */
    CHECK_EQ(wn_struct_in(&lib1, sizeof lib1, &newer, WN_FIELD_END(v1, b)), -1);
    v2 outn;
    memset(&outn, 0xAB, sizeof outn);
    outn.struct_size = sizeof outn;
    v1 have = { sizeof have, 11, 12 };
    CHECK_EQ(wn_struct_out(&outn, &have, sizeof have, WN_FIELD_END(v1, b)), 0);
    CHECK_EQ(outn.a, 11);
    CHECK(outn.c == 0.0 && outn.d == 0);
    CHECK_EQ(outn.struct_size, sizeof outn);
    /* too small for the first version */
    struct {
        v2 s;
        unsigned char room[16]; /* the compiler cannot tell the size is refused */
    } tiny;
    memset(&tiny, 0, sizeof tiny);
    tiny.s.struct_size = 4;
    tiny.s.a = 1;
    CHECK_EQ(wn_struct_in(&lib, sizeof lib, &tiny, WN_FIELD_END(v2, b)), -1);
    CHECK_EQ(wn_struct_out(&tiny, &full, sizeof full, WN_FIELD_END(v2, b)), -1);
    CHECK_EQ(tiny.s.a, 1);
}

/* A document owns what it shows: the input's bytes may go once
 * winnow_extract() returns, and other pages and rules on the engine do
 * not change it. */
static void test_document_owns_its_data(void)
{
    size_t n = strlen(article_page);
    char *bytes = malloc(n);
    memcpy(bytes, article_page, n);
    winnow_input in = { sizeof in, bytes, n, NULL, "https://coastal.example/tide-pools" };
    winnow_doc *d = NULL;
    CHECK_EQ(winnow_extract(engine, &in, &d), WINNOW_OK);
    char *before = render_str(d, WINNOW_FORMAT_JSON);
    memset(bytes, 'x', n);
    free(bytes);
    extraction other = extract_str(engine, "<html><body><p>Another page with other words entirely.</p></body></html>");
    winnow_engine_set_rule(engine, "CAPTION_MAX_CHARS", 1);
    char *after = render_str(d, WINNOW_FORMAT_JSON);
    CHECK_STR(after, before);
    CHECK_HAS(after, "The rocky shelf");
    winnow_rule r = { sizeof r };
    for (int i = 0; i < winnow_rule_count(); i++)
        if (winnow_rule_info(i, &r) == WINNOW_OK && !strcmp(r.name, "CAPTION_MAX_CHARS"))
            winnow_engine_set_rule(engine, r.name, r.default_value);
    free(before);
    free(after);
    extraction_free(&other);
    winnow_doc_free(d);
}

/* A model file that cannot be read is an I/O failure; a file that is not a
 * model, a format failure; either way the engine keeps its classifier. */
static void test_model_file_errors(void)
{
    winnow_engine *e = NULL;
    CHECK_EQ(winnow_engine_new(NULL, &e), WINNOW_OK);
    if (!e) return;
    int had = winnow_engine_has_model(e);
    CHECK_EQ(winnow_engine_load_model(e, "/nonexistent/dir/m.wmodel"), WINNOW_E_IO);
    CHECK_HAS(winnow_engine_error(e), "cannot open model /nonexistent/dir/m.wmodel");
    char path[] = "/tmp/winnow-test-model-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        const char junk[] = "<html>not a model</html>\n";
        CHECK_EQ(write(fd, junk, sizeof junk - 1), (long)(sizeof junk - 1));
        close(fd);
        CHECK_EQ(winnow_engine_load_model(e, path), WINNOW_E_FORMAT);
        CHECK_HAS(winnow_engine_error(e), path);
        CHECK_EQ(winnow_engine_has_model(e), had);
        /* a newer format than this winnow reads */
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("winnow-model 999\n", f);
            fclose(f);
        }
        CHECK_EQ(winnow_engine_load_model(e, path), WINNOW_E_FORMAT);
        CHECK_HAS(winnow_engine_error(e), "format 999");
        /* a directory cannot be read as one */
        CHECK_EQ(winnow_engine_load_model(e, "/tmp"), WINNOW_E_IO);
        unlink(path);
    }
    CHECK_EQ(winnow_engine_load_model(NULL, path), WINNOW_E_ARG);
    winnow_engine_free(e);
}

/* Every row of the rule table has a range of values in src/rules/rules.c
 * (a new row without one fails here), its default and its off value are
 * inside it, and winnow_engine_set_rule() refuses what is outside (issue 29:
 * SELECT_DECAY=-5 and SITE_TEMPLATE_PERCENT=500 were taken). */
static void test_rule_ranges(void)
{
    char err[300];
    for (int i = 0; i < WN_RULE_COUNT; i++) {
        double lo = 0, hi = 0;
        const char *what = NULL;
        int has = wn_rule_range(i, &lo, &hi, &what) == 0;
        if (!has) fprintf(stderr, "rule %s has no range in src/rules/rules.c\n", wn_rule_defs[i].name);
        CHECK(has);
        CHECK(has && what && lo <= hi);
        CHECK(has && wn_rule_defs[i].def >= lo && wn_rule_defs[i].def <= hi);
        CHECK_EQ(wn_rule_check(i, wn_rule_defs[i].def, err, sizeof err), 0);
        CHECK_EQ(wn_rule_check(i, wn_rule_defs[i].off, err, sizeof err), 0);
        CHECK(wn_rule_check(i, (double)NAN, err, sizeof err) != 0);
        winnow_rule r = { sizeof r };
        CHECK_EQ(winnow_rule_info(i, &r), WINNOW_OK);
        CHECK(r.min_value == lo && r.max_value == hi);
    }
    winnow_engine *e = NULL;
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.classifier = 0;
    CHECK_EQ(winnow_engine_new(&o, &e), WINNOW_OK);
    CHECK_EQ(winnow_engine_set_rule(e, "SELECT_DECAY", -5), WINNOW_E_ARG);
    CHECK(strstr(winnow_engine_error(e), "SELECT_DECAY") != NULL);
    CHECK_EQ(winnow_engine_set_rule(e, "SITE_TEMPLATE_PERCENT", 500), WINNOW_E_ARG);
    CHECK_EQ(winnow_engine_set_rule(e, "SITE_TEMPLATE_PERCENT", 50), WINNOW_OK);
    CHECK_EQ(winnow_engine_set_rule(e, "SELECT_DECAY", 1.0), WINNOW_OK);     /* its off value */
    CHECK_EQ(winnow_engine_set_rule(e, "LINK_LIST_SHARE", 1e30), WINNOW_OK); /* its off value */
    CHECK_EQ(winnow_engine_set_rule(e, "FRAGMENT_CHARS", -1), WINNOW_E_ARG);
    winnow_engine_free(e);
}

int main(void)
{
    winnow_engine_new(NULL, &engine);
    if (!engine) {
        fprintf(stderr, "cannot create an engine\n");
        return 1;
    }
    RUN(test_version_and_names);
    RUN(test_format_parse);
    RUN(test_options_default);
    RUN(test_argument_errors);
    RUN(test_binary_and_too_large);
    RUN(test_article_extraction);
    RUN(test_metadata);
    RUN(test_jsonld_metadata);
    RUN(test_jsonld_bad_escapes);
    RUN(test_blocks_api);
    RUN(test_include_title_option);
    RUN(test_favor_option);
    RUN(test_thread_posts);
    RUN(test_engine_reuse);
    RUN(test_render_callback);
    RUN(test_json_body);
    RUN(test_status_partial_and_no_content);
    RUN(test_options_struct_size);
    RUN(test_out_struct_size);
    RUN(test_struct_versions);
    RUN(test_document_owns_its_data);
    RUN(test_rule_ranges);
    RUN(test_model_file_errors);
    winnow_engine_free(engine);
    return CHECK_DONE();
}
