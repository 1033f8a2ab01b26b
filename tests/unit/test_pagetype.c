/* The page type stage (src/pagetype/): its features on small pages written
 * for the purpose, the shipped model's verdict on pages whose kind each
 * carries several signs of, forcing a kind, and the model file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"
#include "pagetype/pagetype.h"
#include "winnow.h"

static winnow_engine *engine(int forced)
{
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    o.page_type = forced;
    winnow_engine *e = NULL;
    if (winnow_engine_new(&o, &e) != WINNOW_OK) return NULL;
    return e;
}

static winnow_doc *run(winnow_engine *e, const char *html, const char *url)
{
    winnow_input in = { sizeof in, html, strlen(html), NULL, url, NULL };
    winnow_doc *d = NULL;
    winnow_status st = winnow_extract(e, &in, &d);
    return WINNOW_FAILED(st) ? NULL : d;
}

/* The value of the feature called name on d. */
static float feature(const winnow_doc *d, const char *name)
{
    for (unsigned k = 0; k < wn_pt_feature_count(); k++)
        if (!strcmp(wn_pt_feature_name(k), name)) return d->page_type_x ? d->page_type_x[k] : -1;
    fprintf(stderr, "no feature %s\n", name);
    return -1;
}

#define PARA                                                                                                           \
    "<p>A paragraph of running text, long enough to be read as prose by the page scorer, with commas, words and a "    \
    "full stop at its end.</p>"

static const char product_page[] =
    "<html><head><title>Blue kettle</title><meta property=\"og:type\" content=\"product\">"
    "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Blue "
    "kettle\",\"offers\":{\"@type\":\"Offer\",\"price\":\"39.00\",\"priceCurrency\":\"USD\"},"
    "\"aggregateRating\":{\"@type\":\"AggregateRating\",\"ratingValue\":\"4.5\"}}</script></head>"
    "<body><h1>Blue kettle</h1><p class=price>$39.00</p><p>Was $45.00</p><form><select><option>1</option></select>"
    "<input type=number><button>Add to cart</button></form>" PARA "</body></html>";

static const char forum_page[] =
    "<html><head><title>Kettle won't boil</title></head><body><h1>Kettle won't boil</h1>"
    "<div itemscope itemtype=\"https://schema.org/DiscussionForumPosting\">"
    "<div class=post itemprop=comment itemscope itemtype=\"https://schema.org/Comment\"><span>anna</span>"
    "<time>2 days ago</time>" PARA "</div>"
    "<div class=post itemprop=comment itemscope itemtype=\"https://schema.org/Comment\"><span>bob</span>"
    "<time>1 day ago</time>" PARA "</div>"
    "<div class=post itemprop=comment itemscope itemtype=\"https://schema.org/Comment\"><span>carl</span>"
    "<time>5 hours ago</time>" PARA "</div>"
    "<div class=post itemprop=comment itemscope itemtype=\"https://schema.org/Comment\"><span>dora</span>"
    "<time>1 hour ago</time>" PARA "</div>"
    "</div><form><textarea></textarea><button>Reply</button></form></body></html>";

static const char docs_page[] =
    "<html><head><title>open() - API reference</title></head><body><nav><a href=/docs/>Docs</a></nav>"
    "<h1>open()</h1>" PARA "<pre><code>int fd = open(path, O_RDONLY);\nif (fd &lt; 0) return -1;</code></pre>"
    "<h2>Parameters</h2><p>The <code>path</code> and the <code>flags</code>.</p>"
    "<pre><code>struct stat st;\nfstat(fd, &amp;st);\nclose(fd);</code></pre><h2>Errors</h2>" PARA
    "<pre><code>errno == ENOENT</code></pre></body></html>";

static const char article_page[] =
    "<html><head><title>Town votes to keep its library</title><meta property=\"og:type\" content=\"article\">"
    "<meta name=author content=\"Jane Roe\"><meta property=\"article:published_time\" content=\"2024-05-02\">"
    "<script type=\"application/ld+json\">{\"@type\":[\"NewsArticle\"],\"headline\":\"Town votes to keep its "
    "library\"}</script></head><body><article><h1>Town votes to keep its library</h1>" PARA PARA PARA PARA PARA
    "</article></body></html>";

static void test_features(void)
{
    winnow_engine *e = engine(WINNOW_PAGE_UNKNOWN);
    CHECK(e != NULL);
    winnow_doc *d = run(e, product_page, "https://shop.example/products/blue-kettle");
    CHECK(d != NULL);
    if (d) {
        CHECK(feature(d, "ld_product") == 1);
        CHECK(feature(d, "ld_rating") == 1);
        CHECK(feature(d, "ld_article") == 0);
        CHECK(feature(d, "og_product") == 1);
        CHECK(feature(d, "url_product") == 1);
        CHECK(feature(d, "url_slug") == 0); /* two hyphens: not a title */
        CHECK(feature(d, "has_price") == 1);
        CHECK(feature(d, "buttons") > 0);
        CHECK(feature(d, "inputs") > 0);
        winnow_doc_free(d);
    }
    d = run(e, forum_page, "https://example.org/forum/t/kettle-wont-boil/4521");
    CHECK(d != NULL);
    if (d) {
        CHECK(feature(d, "md_discussion") == 1);
        CHECK(feature(d, "md_comment") == 1);
        CHECK(feature(d, "ld_discussion") == 0);
        CHECK(feature(d, "url_forum") == 1);
        CHECK(feature(d, "url_id") == 1);
        CHECK(feature(d, "run_max") > 0); /* four posts of one shape */
        CHECK(feature(d, "run_share") > 0.5f);
        CHECK(feature(d, "has_price") == 0);
        winnow_doc_free(d);
    }
    d = run(e, docs_page, "https://example.dev/docs/api/open.html");
    CHECK(d != NULL);
    if (d) {
        CHECK(feature(d, "url_docs") == 1);
        CHECK(feature(d, "pre") > 0);
        CHECK(feature(d, "code_share") > 0.1f);
        CHECK(feature(d, "url_root") == 0);
        winnow_doc_free(d);
    }
    /* no URL from the caller: the page's canonical link stands in */
    d = run(e,
            "<html><head><link rel=canonical href=\"https://news.example/2024/05/02/town-votes-to-keep-library\">"
            "</head><body>" PARA "</body></html>",
            NULL);
    CHECK(d != NULL);
    if (d) {
        CHECK(feature(d, "url_date") == 1);
        CHECK(feature(d, "url_slug") == 1);
        winnow_doc_free(d);
    }
    d = run(e, "<html><body>" PARA "</body></html>", "https://example.com/");
    CHECK(d != NULL);
    if (d) {
        CHECK(feature(d, "url_root") == 1);
        CHECK(feature(d, "url_depth") == 0);
        winnow_doc_free(d);
    }
    winnow_engine_free(e);
}

/* The shipped model on pages that show their kind several ways. */
static void test_model_verdicts(void)
{
    winnow_engine *e = engine(WINNOW_PAGE_UNKNOWN);
    CHECK(e != NULL);
    static const struct {
        const char *html, *url;
        winnow_page_type want;
    } pages[] = {
        { product_page, "https://shop.example/products/blue-kettle", WINNOW_PAGE_PRODUCT },
        { forum_page, "https://example.org/forum/t/kettle-wont-boil/4521", WINNOW_PAGE_FORUM },
        { docs_page, "https://example.dev/docs/api/open.html", WINNOW_PAGE_DOCUMENTATION },
        { article_page, "https://news.example/2024/05/02/town-votes-to-keep-its-library", WINNOW_PAGE_ARTICLE },
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        winnow_doc *d = run(e, pages[k].html, pages[k].url);
        CHECK(d != NULL);
        if (!d) continue;
        double conf = -1;
        winnow_page_type t = winnow_doc_page_type(d, &conf);
        if (t != pages[k].want)
            fprintf(stderr, "page %zu: %s (%.2f), wanted %s\n", k, winnow_page_type_name(t), conf,
                    winnow_page_type_name(pages[k].want));
        CHECK_EQ(t, pages[k].want);
        CHECK(conf > 0 && conf <= 1);
        winnow_doc_free(d);
    }
    winnow_engine_free(e);
}

static void test_forced(void)
{
    winnow_engine *e = engine(WINNOW_PAGE_LISTING);
    CHECK(e != NULL);
    winnow_doc *d = run(e, product_page, NULL);
    CHECK(d != NULL);
    if (d) {
        double conf = 0;
        CHECK_EQ(winnow_doc_page_type(d, &conf), WINNOW_PAGE_LISTING);
        CHECK(conf == 1.0);
        CHECK(d->page_type_x == NULL); /* no features computed when forced */
        winnow_doc_free(d);
    }
    winnow_engine_free(e);
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    CHECK_EQ(o.page_type, WINNOW_PAGE_UNKNOWN);
    o.page_type = WINNOW_PAGE_TYPE_COUNT;
    winnow_engine *bad = NULL;
    CHECK_EQ(winnow_engine_new(&o, &bad), WINNOW_E_ARG);
    CHECK(bad == NULL);
    /* a caller built before the field: its struct_size ends at node_floor */
    winnow_options old;
    winnow_options_default(&old, sizeof old);
    old.struct_size = offsetof(winnow_options, page_type);
    CHECK_EQ(winnow_engine_new(&old, &bad), WINNOW_OK);
    winnow_engine_free(bad);
    CHECK_EQ(winnow_doc_page_type(NULL, NULL), WINNOW_PAGE_UNKNOWN);
}

static void test_names(void)
{
    for (int t = 1; t < WINNOW_PAGE_TYPE_COUNT; t++)
        CHECK_EQ(winnow_page_type_parse(winnow_page_type_name((winnow_page_type)t)), t);
    CHECK_EQ(winnow_page_type_parse("unknown"), WINNOW_PAGE_UNKNOWN);
    CHECK_EQ(winnow_page_type_parse("Article"), WINNOW_PAGE_UNKNOWN);
    CHECK_EQ(winnow_page_type_parse(NULL), WINNOW_PAGE_UNKNOWN);
    CHECK(!strcmp(winnow_page_type_name(WINNOW_PAGE_TYPE_COUNT), ""));
    CHECK_EQ(wn_schema_bits("https://schema.org/Product", 26), 1u << WN_SCHEMA_PRODUCT);
    CHECK_EQ(wn_schema_bits("schema:QAPage", 13), 1u << WN_SCHEMA_QA);
    CHECK_EQ(wn_schema_bits("Productx", 8), 0);
}

static void test_model_file(void)
{
    /* the shipped model reads, and writes back to the same text */
    wn_pt_model m;
    char err[256];
    CHECK(wn_pagetype_model_len > 0);
    CHECK_EQ(wn_pt_model_parse((const char *)wn_pagetype_model, wn_pagetype_model_len, &m, err, sizeof err), 0);
    CHECK(m.nclass >= 2);
    size_t len = wn_pt_model_write(&m, NULL, 0);
    char *text = malloc(len + 1);
    CHECK(text != NULL);
    if (!text) return;
    CHECK_EQ(wn_pt_model_write(&m, text, len + 1), len);
    wn_pt_model back;
    CHECK_EQ(wn_pt_model_parse(text, len, &back, err, sizeof err), 0);
    CHECK_EQ(back.nclass, m.nclass);
    for (unsigned k = 0; k < m.nclass; k++) {
        CHECK_EQ(back.kind[k], m.kind[k]);
        for (unsigned f = 0; f <= wn_pt_feature_count(); f++)
            CHECK(fabs(back.w[k][f] - m.w[k][f]) < 1e-5 * (1 + fabs(m.w[k][f])));
    }
    /* probabilities sum to one */
    float x[WN_PT_MAX_FEATURES] = { 0 };
    double p[WINNOW_PAGE_TYPE_COUNT], sum = 0;
    wn_pt_predict(&m, x, p);
    for (unsigned k = 0; k < m.nclass; k++) sum += p[k];
    CHECK(fabs(sum - 1) < 1e-9);
    /* damaged: another feature, weights cut short, not a model */
    char *bad = strdup(text);
    char *at = bad ? strstr(bad, " chars ") : NULL;
    CHECK(at != NULL);
    if (at) at[1] = 'C';
    if (bad) CHECK_EQ(wn_pt_model_parse(bad, strlen(bad), &back, err, sizeof err), -1);
    free(bad);
    CHECK_EQ(wn_pt_model_parse(text, len / 2, &back, err, sizeof err), -1);
    CHECK_EQ(wn_pt_model_parse("winnow-model 1\n", 15, &back, err, sizeof err), -1);
    free(text);
}

int main(void)
{
    RUN(test_features);
    RUN(test_model_verdicts);
    RUN(test_forced);
    RUN(test_names);
    RUN(test_model_file);
    return CHECK_DONE();
}
