/* Helpers for the tests that drive the public API (winnow.h only): run a
 * page through winnow_extract and render it, plus the hand-written pages
 * several tests share. */
#ifndef WINNOW_TEST_API_FIXTURE_H
#define WINNOW_TEST_API_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "winnow.h"

/* An article page with the usual template around it: a site header with
 * a nav menu, a sidebar of popular links and a footer. */
__attribute__((unused)) static const char article_page[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<title>Tide pools of the north coast | Coastal Notes</title>\n"
    "<meta property=\"og:title\" content=\"Tide pools of the north coast\">\n"
    "<meta property=\"og:site_name\" content=\"Coastal Notes\">\n"
    "<meta name=\"description\" content=\"A field guide to the tide pools north of the bay.\">\n"
    "<meta name=\"author\" content=\"Maria Lindqvist\">\n"
    "<meta property=\"article:published_time\" content=\"2024-03-05T08:00:00Z\">\n"
    "<link rel=\"canonical\" href=\"https://coastal.example/tide-pools\">\n"
    "<style>body { font-family: serif }</style>\n"
    "<script>window.analytics = 'ANALYTICS_SCRIPT';</script>\n"
    "</head>\n"
    "<body>\n"
    "<header class=\"site-header\"><a href=\"/\">Coastal Notes</a>\n"
    "<nav class=\"main-nav\"><ul><li><a href=\"/news\">News</a></li><li><a href=\"/guides\">Guides</a></li>"
    "<li><a href=\"/about\">About us</a></li><li><a href=\"/contact\">Contact</a></li></ul></nav></header>\n"
    "<main>\n"
    "<article>\n"
    "<h1>Tide pools of the north coast</h1>\n"
    "<p>The rocky shelf north of the bay drains twice a day, and for two hours at low tide it becomes a garden "
    "of anemones, sea stars and hermit crabs that anyone can visit with a pair of boots.</p>\n"
    "<h2>When to go</h2>\n"
    "<p>Plan your visit around a low tide of less than half a metre, ideally in the morning, when the light is "
    "soft and the rocks are still cool. Check the <a href=\"https://tides.example/north\">tide table</a> before "
    "you leave home.</p>\n"
    "<ul><li>Wear boots with a good grip on wet rock.</li><li>Bring a small torch for the crevices.</li>"
    "<li>Leave every stone as you found it.</li></ul>\n"
    "<h2>What you will see</h2>\n"
    "<table><tr><th>Species</th><th>Where</th></tr><tr><td>Beadlet anemone</td><td>Upper pools</td></tr>"
    "<tr><td>Common starfish</td><td>Lower shelf</td></tr></table>\n"
    "<p>Most animals hide under ledges during the day, so patience pays off; sit still for a few minutes and "
    "the pool comes back to life around you.</p>\n"
    "<pre><code>low_tide = 0.4  # metres\nrange   = 5.2  # metres\n</code></pre>\n"
    "<blockquote><p>The sea, once it casts its spell, holds one in its net of wonder forever.</p></blockquote>\n"
    "</article>\n"
    "</main>\n"
    "<aside class=\"sidebar\"><h3>Popular</h3><ul><li><a href=\"/a\">Ten best beaches</a></li>"
    "<li><a href=\"/b\">Kayaking for beginners</a></li><li><a href=\"/c\">Storm watching</a></li></ul></aside>\n"
    "<footer class=\"site-footer\"><p>Copyright 2024 Coastal Notes. All rights reserved.</p>"
    "<ul><li><a href=\"/privacy\">Privacy policy</a></li><li><a href=\"/terms\">Terms of use</a></li></ul></footer>\n"
    "</body>\n"
    "</html>\n";

/* Lines of the article that must survive, and template text that must not.
 * (Marked unused: not every test file reads every page.) */
__attribute__((unused)) static const char *const article_kept[] = {
    "The rocky shelf north of the bay drains twice a day",
    "Plan your visit around a low tide of less than half a metre",
    "Wear boots with a good grip on wet rock.",
    "Beadlet anemone",
    "Most animals hide under ledges during the day",
    "low_tide = 0.4",
    "The sea, once it casts its spell",
};
__attribute__((unused)) static const char *const article_dropped[] = {
    "About us",         "Contact",
    "Ten best beaches", "Kayaking for beginners",
    "Storm watching",   "All rights reserved",
    "Privacy policy",   "ANALYTICS_SCRIPT",
    "font-family",
};

typedef struct extraction {
    winnow_status status;
    winnow_doc *doc; /* NULL when the extraction failed */
    char *text;      /* WINNOW_FORMAT_TEXT rendering, "" when there is no doc */
} extraction;

static inline char *render_str(const winnow_doc *d, winnow_format f)
{
    size_t len = 0;
    char *s = NULL;
    if (d) winnow_render_alloc(d, f, &s, &len);
    if (s && strlen(s) != len) {
        /* a NUL inside the output would cut every C consumer short */
        free(s);
        s = strdup("<<render_alloc: NUL inside the output>>");
    }
    return s ? s : strdup("");
}

static inline extraction extract_with(winnow_engine *e, const void *data, size_t len, const char *charset,
                                      const char *url)
{
    extraction x;
    winnow_input in = { sizeof in, data, len, charset, url };
    x.doc = NULL;
    x.status = winnow_extract(e, &in, &x.doc);
    x.text = render_str(x.doc, WINNOW_FORMAT_TEXT);
    return x;
}

static inline extraction extract_str(winnow_engine *e, const char *html)
{
    return extract_with(e, html, strlen(html), NULL, NULL);
}

static inline void extraction_free(extraction *x)
{
    winnow_doc_free(x->doc);
    free(x->text);
    x->doc = NULL;
    x->text = NULL;
}

#endif
