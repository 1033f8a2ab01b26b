/* Stage 3, DOM -> per-node statistics: the counts the scorers read (chars,
 * words, distinct words, punctuation, link mass, images, the tag
 * histogram), the Kolcz & Yih block rule, and the two hashes that let
 * blocks be matched across pages (text fingerprint, DOM path). */
#include "blocks/stats.h"
#include "rules/rules.h"
#include "score/headline.h"
#include "text/sentence.h"
#include "text/words.h"
#include "check.h"
#include "dom_fixture.h"

typedef struct stats_page {
    page p;
    wn_stats *st;
    wn_page_text pt;
    int rc;
} stats_page;

static void stats_parse(stats_page *s, const char *html)
{
    page_parse(&s->p, html);
    s->st = NULL;
    /* the rule table's defaults, as an engine's page gets them */
    const wn_stats_rules stats_rules = { .names = { wn_rule_defs[WN_RULE_ID_ANCHOR_WORDS].def,
                                                    wn_rule_defs[WN_RULE_NAME_SETTING_WORDS].def > 0.0f } };
    s->rc = wn_stats_compute(&s->p.dom, &s->p.arena, &s->st, &s->pt, NULL, &stats_rules);
}

static void stats_free(stats_page *s) { page_free(&s->p); }

/* Statistics of the element with id=`id`; a zeroed record when missing, so
 * a failing lookup shows up as failed checks, not a crash. */
static const wn_stats *by_id(const stats_page *s, const char *id)
{
    static const wn_stats none;
    uint32_t i = page_find_id(&s->p.dom, id);
    if (i == WN_NONE || s->rc != 0) {
        fprintf(stderr, "  no element id=%s\n", id);
        return &none;
    }
    return &s->st[i];
}

/* The node's normalized text with the spaces at its edges trimmed, as the
 * fingerprint sees it. */
static void norm_text(const stats_page *s, const wn_stats *x, char *out, size_t cap)
{
    uint32_t b = x->nt_begin, e = x->nt_end;
    while (b < e && s->pt.text[b] == ' ') b++;
    while (e > b && s->pt.text[e - 1] == ' ') e--;
    size_t n = e - b < cap - 1 ? e - b : cap - 1;
    memcpy(out, s->pt.text + b, n);
    out[n] = '\0';
}

static void test_counts(void)
{
    stats_page s;
    stats_parse(&s, "<body><p id=p>Hello, world!  Hello\n again.</p></body>");
    CHECK_EQ(s.rc, 0);
    const wn_stats *p = by_id(&s, "p");
    CHECK_EQ(p->chars, 23);   /* non-space code points */
    CHECK_EQ(p->text_cp, 26); /* of "hello, world! hello again." */
    CHECK_EQ(p->words, 4);
    CHECK_EQ(p->distinct_words, 3);
    CHECK_EQ(p->punct, 3);
    CHECK_EQ(p->commas, 1);
    CHECK_EQ(p->stops, 2);
    CHECK_EQ(p->cjk, 0);
    char t[128];
    norm_text(&s, p, t, sizeof t);
    CHECK_STR(t, "hello, world! hello again.");
    /* the document node sums the page */
    CHECK_EQ(s.st[0].chars, 23);
    CHECK_EQ(s.st[0].words, 4);
    stats_free(&s);
}

static void test_unicode_words(void)
{
    stats_page s;
    /* CJK: each character is a word; Latin words around them still split
     * on spaces; case folding applies beyond ASCII */
    stats_parse(&s, "<body><p id=zh>\xE4\xB8\xAD\xE6\x96\x87\xE5\xAD\x97 and \xE6\x97\xA5\xE6\x9C\xAC</p>"
                    "<p id=ja>\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA</p>"
                    "<p id=de>\xC3\x84rger \xC3\xA4rger \xC3\x84RGER</p>"
                    "<p id=nb>caf\xC3\xA9\xC2\xA0"
                    "au\xC2\xA0lait</p></body>");
    const wn_stats *zh = by_id(&s, "zh");
    CHECK_EQ(zh->words, 6);
    CHECK_EQ(zh->cjk, 5);
    CHECK_EQ(zh->distinct_words, 6);
    CHECK_EQ(zh->chars, 8);
    const wn_stats *ja = by_id(&s, "ja");
    CHECK_EQ(ja->words, 4); /* hiragana counts per character too */
    CHECK_EQ(ja->distinct_words, 4);
    const wn_stats *de = by_id(&s, "de");
    CHECK_EQ(de->words, 3);
    CHECK_EQ(de->distinct_words, 1);
    const wn_stats *nb = by_id(&s, "nb");
    CHECK_EQ(nb->words, 3); /* U+00A0 separates words */
    char t[64];
    norm_text(&s, de, t, sizeof t);
    CHECK_STR(t, "\xC3\xA4rger \xC3\xA4rger \xC3\xA4rger");
    stats_free(&s);
}

static void test_links_and_images(void)
{
    stats_page s;
    stats_parse(&s, "<body><div id=d><p id=p>Read <a href=\"/x\">more here</a> now. <a name=anchor>anchor</a></p>"
                    "<img src=a.png><p>x <img src=b.png> <a href=/y><img src=c.png></a></p></div></body>");
    const wn_stats *p = by_id(&s, "p");
    CHECK_EQ(p->link_chars, 8); /* "morehere": an <a> without href is not a link */
    CHECK_EQ(p->links, 1);
    CHECK_EQ(p->images, 0);
    const wn_stats *d = by_id(&s, "d");
    CHECK_EQ(d->links, 2);
    CHECK_EQ(d->images, 3);
    CHECK_EQ(d->link_chars, 8);
    stats_free(&s);
}

static void test_tag_histogram(void)
{
    stats_page s;
    stats_parse(&s, "<body><div id=d><p>a</p><p>b <a href=x>c</a></p>"
                    "<ul><li>1</li><li>2</li><li>3</li></ul><h2>h</h2>"
                    "<table><tr><td>t</td></tr></table><span>s</span><b>b</b><br>"
                    "<pre>code</pre><blockquote>q</blockquote><form><input></form></div></body>");
    const wn_stats *d = by_id(&s, "d");
    CHECK_EQ(d->hist[WN_HIST_DIV], 1); /* the element itself counts */
    CHECK_EQ(d->hist[WN_HIST_P], 2);
    CHECK_EQ(d->hist[WN_HIST_A], 1);
    CHECK_EQ(d->hist[WN_HIST_LIST], 1);
    CHECK_EQ(d->hist[WN_HIST_LI], 3);
    CHECK_EQ(d->hist[WN_HIST_HEADING], 1);
    CHECK_EQ(d->hist[WN_HIST_TABLE], 4); /* table, the implied tbody, tr, td */
    CHECK_EQ(d->hist[WN_HIST_INLINE], 1);
    CHECK_EQ(d->hist[WN_HIST_FORMAT], 1);
    CHECK_EQ(d->hist[WN_HIST_BR], 1);
    CHECK_EQ(d->hist[WN_HIST_PRE], 1);
    CHECK_EQ(d->hist[WN_HIST_QUOTE], 1);
    CHECK_EQ(d->hist[WN_HIST_FORM], 2);
    CHECK_EQ(d->elements, 20);
    CHECK_STR(wn_hist_names[WN_HIST_HEADING], "heading");
    stats_free(&s);
}

static void test_is_block(void)
{
    stats_page s;
    stats_parse(&s, "<body>"
                    /* exactly 40 code points and 7 distinct words: a block */
                    "<p id=p40>alpha beta gamma delta epsilon zeta etas</p>"
                    /* 39: one short */
                    "<p id=p39>alpha beta gamma delta epsilon zeta eta</p>"
                    /* long, but two distinct words */
                    "<p id=two>word other word other word other word other word other</p>"
                    /* long with three distinct words */
                    "<p id=three>word other third word other word other word other word</p>"
                    /* not a block tag, however long */
                    "<span id=span>a span with more than forty characters of running text</span>"
                    "<div id=div><b>inline children</b> add up to more than forty characters</div>"
                    "<li id=li>list items are block candidates when they are long enough</li>"
                    "</body>");
    CHECK_EQ(by_id(&s, "p40")->text_cp, 40);
    CHECK_EQ(by_id(&s, "p40")->is_block, 1);
    CHECK_EQ(by_id(&s, "p39")->text_cp, 39);
    CHECK_EQ(by_id(&s, "p39")->is_block, 0);
    CHECK_EQ(by_id(&s, "two")->distinct_words, 2);
    CHECK_EQ(by_id(&s, "two")->is_block, 0);
    CHECK_EQ(by_id(&s, "three")->distinct_words, 3);
    CHECK_EQ(by_id(&s, "three")->is_block, 1);
    CHECK_EQ(by_id(&s, "span")->is_block, 0);
    CHECK_EQ(by_id(&s, "div")->is_block, 1);
    CHECK_EQ(by_id(&s, "li")->is_block, 1);
    /* the head never holds blocks, whatever its text */
    stats_free(&s);

    stats_parse(&s, "<html><head><title>a title that is longer than forty characters in all</title></head>"
                    "<body><p>short</p></body></html>");
    for (uint32_t i = 0; i < s.p.dom.count; i++) CHECK_EQ(s.st[i].is_block, 0);
    stats_free(&s);
}

static void test_fingerprint(void)
{
    stats_page s;
    stats_parse(&s, "<body><p id=a>Hello   World</p>"
                    "<div id=b> <b>hello</b>\n WORLD </div>"
                    "<p id=c>Hello Word</p>"
                    "<p id=e> </p>"
                    "<p id=f>hello<b>world</b></p></body>");
    uint64_t a = by_id(&s, "a")->fingerprint;
    CHECK(a != 0);
    CHECK(a == by_id(&s, "b")->fingerprint);  /* same text, other markup, case, spaces */
    CHECK(a != by_id(&s, "c")->fingerprint);  /* different text */
    CHECK(a != by_id(&s, "f")->fingerprint);  /* no space is a different word */
    CHECK_EQ(by_id(&s, "e")->fingerprint, 0); /* no text */

    /* fingerprints are comparable across pages: that is their purpose */
    stats_page t;
    stats_parse(&t, "<html><body><nav><section id=x>HELLO <i>world</i></section></nav></body></html>");
    CHECK(a == by_id(&t, "x")->fingerprint);
    stats_free(&t);
    stats_free(&s);
}

static void test_path_hash(void)
{
    stats_page s;
    stats_parse(&s, "<body><div><p id=p1>x</p><p id=p2>y</p></div>"
                    "<section><p id=p3>z</p></section><div><div><p id=p4>w</p></div></div></body>");
    uint64_t p1 = by_id(&s, "p1")->path_hash;
    CHECK(p1 != 0);
    CHECK(p1 == by_id(&s, "p2")->path_hash);
    CHECK(p1 != by_id(&s, "p3")->path_hash);
    CHECK(p1 != by_id(&s, "p4")->path_hash);
    stats_page t;
    stats_parse(&t, "<html><body><div><p id=q>other text, same place</p></div></body></html>");
    CHECK(p1 == by_id(&t, "q")->path_hash);
    stats_free(&t);
    stats_free(&s);
}

/* Distinct words by brute force: sort the word hashes of the range. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t distinct_brute(const wn_page_text *pt, uint32_t b, uint32_t e)
{
    if (e <= b) return 0;
    uint64_t *w = malloc((e - b) * sizeof *w);
    memcpy(w, pt->words + b, (e - b) * sizeof *w);
    qsort(w, e - b, sizeof *w, cmp_u64);
    uint32_t n = 1;
    for (uint32_t k = 1; k < e - b; k++) n += w[k] != w[k - 1];
    free(w);
    return n;
}

static void test_sums_agree(void)
{
    /* A page with repeated words at many levels: every element's counts are
     * the sums of its children's, and the offline distinct-word counts agree
     * with a direct count over each word range. */
    static const char *const vocab[] = { "red", "green", "blue", "Red", "cyan", "\xE4\xB8\xAD", "magenta", "blue," };
    char *html = malloc(200000);
    strcpy(html, "<html><body>");
    unsigned seed = 7;
    for (int sec = 0; sec < 30; sec++) {
        strcat(html, sec % 3 ? "<div class=s><p>" : "<section><ul><li>");
        for (int w = 0; w < 40; w++) {
            seed = seed * 1103515245u + 12345u;
            strcat(html, vocab[(seed >> 16) % 8]);
            strcat(html, (seed >> 8) % 5 ? " " : "<br>");
            if (w % 13 == 12) strcat(html, "<a href=#>linked words</a> ");
        }
        strcat(html, sec % 3 ? "</p></div>" : "</li></ul></section>");
    }
    strcat(html, "</body></html>");
    stats_page s;
    stats_parse(&s, html);
    CHECK_EQ(s.rc, 0);
    const wn_dom *d = &s.p.dom;
    int sums_ok = 1, distinct_ok = 1;
    for (uint32_t i = 0; i < d->count; i++) {
        const wn_node *x = &d->nodes[i];
        if (wn_node_is_text(x)) continue;
        uint32_t chars = 0, words = 0, links = 0, link_chars = 0;
        for (uint32_t c = x->first_child; c != WN_NONE; c = d->nodes[c].next_sibling) {
            chars += s.st[c].chars;
            words += s.st[c].words;
            links += s.st[c].links;
            link_chars += s.st[c].link_chars;
        }
        if (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK)) links++;
        if (chars != s.st[i].chars || words != s.st[i].words || links != s.st[i].links ||
            link_chars != s.st[i].link_chars)
            sums_ok = 0;
        if (s.st[i].w_end < s.st[i].w_begin || s.st[i].w_end > s.pt.nwords)
            distinct_ok = 0;
        else if (distinct_brute(&s.pt, s.st[i].w_begin, s.st[i].w_end) != s.st[i].distinct_words)
            distinct_ok = 0;
    }
    CHECK(sums_ok);
    CHECK(distinct_ok);
    CHECK_EQ(s.st[0].words, s.pt.nwords);
    CHECK_EQ(s.st[0].distinct_words, 8); /* "red"/"Red" fold together; "blue," is "blue" */
    stats_free(&s);
    free(html);
}

static void test_hidden_text_not_counted(void)
{
    stats_page s;
    stats_parse(&s, "<html><head><title>Title words here</title></head><body><p id=p>body words</p></body></html>");
    CHECK_EQ(s.st[0].words, 2);
    CHECK_EQ(s.st[0].chars, 9);
    CHECK_EQ(by_id(&s, "p")->words, 2);
    stats_free(&s);
}

static void test_hints(void)
{
    CHECK(wn_hints_from_attr("main-nav", 8) & WN_HINT_NAV);
    CHECK(wn_hints_from_attr("site-header", 11) & WN_HINT_HEADER);
    CHECK(wn_hints_from_attr("leftSidebar", 11) & WN_HINT_SIDEBAR);
    CHECK(wn_hints_from_attr("articleBody", 11) & WN_HINT_CONTENT);
    /* short words match whole tokens only */
    CHECK(!(wn_hints_from_attr("header", 6) & WN_HINT_AD));
    CHECK(!(wn_hints_from_attr("download", 8) & WN_HINT_AD));
    /* "widget" is a whole word: a sidebar's widget, not a shop's content
     * cell that ends in it ("celwidget" wraps every part of its pages) */
    CHECK(wn_hints_from_attr("widget widget_recent_entries", 28) & WN_HINT_SIDEBAR);
    CHECK(wn_hints_from_attr("footerWidget", 12) & WN_HINT_SIDEBAR);
    CHECK(!(wn_hints_from_attr("celwidget c-f", 13) & WN_HINT_SIDEBAR));
    CHECK(wn_hints_from_attr("top ad", 6) & WN_HINT_AD);
    /* a boilerplate part of the article is boilerplate, not content */
    uint16_t h = wn_hints_from_attr("article-comments", 16);
    CHECK(h & WN_HINT_COMMENT);
    CHECK(!(h & WN_HINT_CONTENT));
    CHECK_EQ(wn_hints_from_attr("", 0), 0);
    CHECK_EQ(wn_hints_from_attr("x1 y2", 5), 0);
    /* a very long token is not read past its buffer */
    char longname[200];
    memset(longname, 'n', sizeof longname);
    CHECK_EQ(wn_hints_from_attr(longname, sizeof longname), 0);
}

/* The cache answers as the lookup does, for class values and id values
 * alike: class="naq" and id="nav" once shared a cache key (the seed 0 or 1
 * of a 1-3 byte XXH3 hash), and the id's nav hint was lost when the class
 * came first. Every value of up to two letters, then those pairs, both
 * ways round. */
static void test_hint_cache(void)
{
    const wn_name_rules r = { 4.0, 1 };
    wn_hint_cache *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c) return;
    CHECK_EQ(wn_hints_from_name_cached(c, "naq", 3, 0, &r), wn_hints_from_name("naq", 3, 0, &r));
    CHECK(wn_hints_from_name_cached(c, "nav", 3, 1, &r) & WN_HINT_NAV);
    memset(c, 0, sizeof *c);
    CHECK(wn_hints_from_name_cached(c, "ads", 3, 0, &r) & WN_HINT_AD);
    CHECK_EQ(wn_hints_from_name_cached(c, "adt", 3, 1, &r), wn_hints_from_name("adt", 3, 1, &r));
    memset(c, 0, sizeof *c);
    const char al[] = "abcdefghijklmnopqrstuvwxyz-";
    char v[2];
    for (int is_id = 0; is_id < 2; is_id++)
        for (size_t a = 0; a < sizeof al - 1; a++)
            for (size_t b = 0; b < sizeof al; b++) {
                v[0] = al[a];
                v[1] = al[b];
                size_t n = b < sizeof al - 1 ? 2 : 1;
                CHECK_EQ(wn_hints_from_name_cached(c, v, n, is_id, &r), wn_hints_from_name(v, n, is_id, &r));
                CHECK_EQ(wn_hints_from_name_cached(c, v, n, !is_id, &r), wn_hints_from_name(v, n, !is_id, &r));
            }
    free(c);
}

/* A boilerplate word followed by an alignment word in one class word names
 * a setting (NAME_SETTING_WORDS): "kt-pane-header-alignment-left" is no
 * header, "site-header align-left" and "header_align" with the rule off
 * are. The cache keeps values filled under the other rule apart. */
static void test_setting_words(void)
{
    const wn_name_rules on = { 4.0, 1 }, off = { 4.0, 0 };
    CHECK(!(wn_hints_from_name("kt-pane-header-alignment-left", 29, 0, &on) & WN_HINT_HEADER));
    CHECK(!(wn_hints_from_name("headerAligned", 13, 0, &on) & WN_HINT_HEADER));
    CHECK(wn_hints_from_name("kt-pane-header-alignment-left", 29, 0, &off) & WN_HINT_HEADER);
    CHECK(wn_hints_from_name("site-header align-left", 22, 0, &on) & WN_HINT_HEADER);
    CHECK(wn_hints_from_name("footer-nav-align", 16, 0, &on) & WN_HINT_FOOTER);
    /* a theme's placement of its sidebar, on the box that holds the page */
    CHECK(!(wn_hints_from_name("container sidebar-position-left", 31, 0, &on) & WN_HINT_SIDEBAR));
    CHECK(wn_hints_from_name("container sidebar-position-left", 31, 0, &off) & WN_HINT_SIDEBAR);
    CHECK(wn_hints_from_name("sidebar position-left", 21, 0, &on) & WN_HINT_SIDEBAR);
    wn_hint_cache *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c) return;
    CHECK(!(wn_hints_from_name_cached(c, "header_align", 12, 0, &on) & WN_HINT_HEADER));
    CHECK(wn_hints_from_name_cached(c, "header_align", 12, 0, &off) & WN_HINT_HEADER);
    free(c);
}

/* Title words: an ellipsis written as one character or as three dots
 * separates words alike ("Ama\u2026" in a headline, "Ama..." in <title>). */
static void test_title_words_ellipsis(void)
{
    uint64_t a[8], b[8];
    const char *h = "S\xc3\xb3 quem se Ama\xe2\x80\xa6", *t = "S\xc3\xb3 quem se Ama...";
    size_t na = wn_words_of(h, strlen(h), a, 8), nb = wn_words_of(t, strlen(t), b, 8);
    CHECK(na == 4 && nb == 4);
    CHECK(wn_words_shared(a, na, b, nb) == 4);
    /* other bytes >= 0x80 stay inside words */
    const char *w = "na\xc3\xafve caf\xc3\xa9";
    CHECK(wn_words_of(w, strlen(w), a, 8) == 2);
}

/* Title words are case-folded as the page text is, every letter of
 * them: a raw <title> "ДИЕТА Über Été" matches folded page text
 * "диета über été" word for word, and so do word stems. */
static void test_title_words_folded(void)
{
    uint64_t a[8], b[8];
    const char *raw = "\xd0\x94\xd0\x98\xd0\x95\xd0\xa2\xd0\x90 \xc3\x9c"
                      "ber \xc3\x89t\xc3\xa9";
    const char *folded = "\xd0\xb4\xd0\xb8\xd0\xb5\xd1\x82\xd0\xb0 \xc3\xbc"
                         "ber \xc3\xa9t\xc3\xa9";
    size_t na = wn_words_of(raw, strlen(raw), a, 8), nb = wn_words_of(folded, strlen(folded), b, 8);
    CHECK(na == 3 && nb == 3);
    CHECK(wn_words_shared(a, na, b, nb) == 3);
    na = wn_stems_of(raw, strlen(raw), a, 8);
    nb = wn_stems_of(folded, strlen(folded), b, 8);
    CHECK(na == nb && wn_words_shared(a, na, b, nb) == na);
}

/* typographic quotes, dashes and the pilcrow are no part of a word: the
 * same headline written with curly, low or straight quotes is the same
 * words; guillemets stay words (a breadcrumb's separator) */
static void test_title_words_punctuation(void)
{
    uint64_t a[16], b[16], c[16], e[16];
    const char *curly = "\xe2\x80\x9cReal Housewives\xe2\x80\x9d won\xe2\x80\x99t \xe2\x80\x93 NYPOST";
    const char *low = "\xe2\x80\x9eReal Housewives\xe2\x80\x9c won't - NYPOST";
    const char *plain = "'Real Housewives' won't NYPOST";
    size_t na = wn_words_of(curly, strlen(curly), a, 16), nb = wn_words_of(low, strlen(low), b, 16);
    size_t nc = wn_words_of(plain, strlen(plain), c, 16);
    CHECK(na == 5 && nb == 5 && nc == 5);
    CHECK(wn_words_shared(a, na, c, nc) == 5 && wn_words_shared(b, nb, c, nc) == 5);
    const char *pilcrow = "Lexical analysis\xc2\xb6";
    const char *bare = "lexical analysis";
    na = wn_words_of(pilcrow, strlen(pilcrow), a, 16);
    nb = wn_words_of(bare, strlen(bare), b, 16);
    CHECK(na == 2 && wn_words_shared(a, na, b, nb) == 2);
    const char *crumb = "Docs \xc2\xbb Library";
    size_t ne = wn_words_of(crumb, strlen(crumb), e, 16);
    CHECK(ne == 3);
}

/* Sentence stops and commas of every script, not only ". ! ?" and ",":
 * Arabic's and Urdu's, Devanagari's danda, the full-width and half-width
 * forms, the Greek question mark (U+037E, and ';' after a Greek letter,
 * not after a Latin one). */
static void test_script_punctuation(void)
{
    stats_page s;
    stats_parse(
        &s,
        "<body>"
        /* Arabic: a comma and a question mark */
        "<p id=ar>\xD9\x85\xD8\xAD\xD8\xB7\xD8\xA9\xD8\x8C \xD9\x87\xD9\x84 "
        "\xD8\xAA\xD8\xB9\xD9\x85\xD9\x84\xD8\x9F</p>"
        /* Urdu full stop, Devanagari danda */
        "<p id=ur>\xDB\x8C\xDB\x81 \xDB\x81\xDB\x92\xDB\x94</p><p id=hi>\xE0\xA4\xAF\xE0\xA4\xB9 "
        "\xE0\xA4\xB9\xE0\xA5\x88\xE0\xA5\xA4</p>"
        /* full-width comma and stop, half-width ideographic stop and comma */
        "<p id=fw>\xE6\x97\xA5\xEF\xBC\x8C\xE6\x9C\xAC\xEF\xBC\x8E\xE6\x97\xA5\xEF\xBD\xA4\xE6\x9C\xAC\xEF\xBD\xA1</p>"
        /* Greek: "Ti kaneis;" and the Greek question mark, English "a; b" */
        "<p id=el>\xCE\xA4\xCE\xB9 \xCE\xBA\xCE\xAC\xCE\xBD\xCE\xB5\xCE\xB9\xCF\x82; \xCE\xA4\xCE\xB9\xCD\xBE</p>"
        "<p id=en>a; b</p></body>");
    CHECK_EQ(s.rc, 0);
    CHECK_EQ(by_id(&s, "ar")->commas, 1);
    CHECK_EQ(by_id(&s, "ar")->stops, 1);
    CHECK_EQ(by_id(&s, "ur")->stops, 1);
    CHECK_EQ(by_id(&s, "hi")->stops, 1);
    CHECK_EQ(by_id(&s, "fw")->commas, 2);
    CHECK_EQ(by_id(&s, "fw")->stops, 2);
    CHECK_EQ(by_id(&s, "el")->stops, 2);
    CHECK_EQ(by_id(&s, "en")->stops, 0);
    stats_free(&s);
}

static int ends(const char *s) { return wn_ends_sentence(s, strlen(s)); }

/* A line ends as a sentence in any script, inside any script's closing
 * quotes and brackets. */
static void test_sentence_end_scripts(void)
{
    CHECK(ends("\xE3\x80\x8C\xE9\x9B\xA8\xE3\x80\x82\xE3\x80\x8D"));          /* 「雨。」 */
    CHECK(ends("\xE9\x9B\xA8\xEF\xBC\x8E"));                                  /* full-width stop */
    CHECK(ends("\xD9\x87\xD9\x84 \xD8\xAA\xD8\xB9\xD9\x85\xD9\x84\xD8\x9F")); /* Arabic question mark */
    CHECK(ends("\xE0\xA4\xB9\xE0\xA5\x88\xE0\xA5\xA4"));                      /* danda */
    CHECK(ends("\xCE\xBA\xCE\xAC\xCE\xBD\xCE\xB5\xCE\xB9\xCF\x82;"));         /* Greek ';' */
    CHECK(ends("\xE2\x80\x9ERegen.\xE2\x80\x9C"));                            /* German quotes */
    CHECK(!ends("a;"));
    CHECK(!ends("\xE7\x9B\xAE\xE6\xAC\xA1\xEF\xBC\x9A")); /* a label: full-width colon */
    CHECK(!ends("\xE2\x80\x9D"));
    /* a full stop, not a question, of any script; a colon of any script */
    CHECK(wn_ends_full_stop("\xE9\x9B\xA8\xE3\x80\x82 ", 7));
    CHECK(wn_ends_full_stop("It rained.", 10));
    CHECK(!wn_ends_full_stop("Did it rain?", 12));
    CHECK(wn_ends_colon("\xE7\x9B\xAE\xE6\xAC\xA1\xEF\xBC\x9A", 9));
    CHECK(wn_ends_colon("References: ", 12));
    CHECK(!wn_ends_colon("10:30", 5));
}

/* Title words in every script: an ideographic space and a full-width bar
 * part words as " " and "|" do; CJK text is matched by its pairs of
 * characters, counted as words by wn_words_weight (four characters, two
 * words); case folding knows the dotless i and final sigma, and leaves
 * out accents (Greek capitals drop them) and width. */
static void test_title_words_scripts(void)
{
    uint64_t a[32], b[32];
    /* 週末の里山歩き　新緑の尾根道を歩く｜のんびり山日記 against the heading's folded text */
    const char *title =
        "\xE9\x80\xB1\xE6\x9C\xAB\xE3\x81\xAE\xE9\x87\x8C\xE5\xB1\xB1\xE6\xAD\xA9\xE3\x81\x8D\xE3\x80\x80"
        "\xE6\x96\xB0\xE7\xB7\x91\xE3\x81\xAE\xE5\xB0\xBE\xE6\xA0\xB9\xE9\x81\x93\xE3\x82\x92\xE6\xAD"
        "\xA9\xE3\x81\x8F\xEF\xBD\x9C\xE3\x81\xAE\xE3\x82\x93\xE3\x81\xB3\xE3\x82\x8A\xE5\xB1\xB1\xE6"
        "\x97\xA5\xE8\xA8\x98";
    const char *head = "\xE9\x80\xB1\xE6\x9C\xAB\xE3\x81\xAE\xE9\x87\x8C\xE5\xB1\xB1\xE6\xAD\xA9\xE3\x81\x8D "
                       "\xE6\x96\xB0\xE7\xB7\x91\xE3\x81\xAE\xE5\xB0\xBE\xE6\xA0\xB9\xE9\x81\x93\xE3\x82\x92\xE6\xAD"
                       "\xA9\xE3\x81\x8F";
    size_t na = wn_words_of(head, strlen(head), a, 32), nb = wn_words_of(title, strlen(title), b, 32);
    CHECK_EQ(na, 14); /* pairs of 7 and 9 characters */
    CHECK_EQ(wn_words_shared(a, na, b, nb), 14);
    CHECK(wn_words_weight(a, na) >= 7.0 && wn_words_weight(a, na) <= 8.0);
    /* 错误处理: four characters, three pairs, about two words */
    const char *four = "\xE9\x94\x99\xE8\xAF\xAF\xE5\xA4\x84\xE7\x90\x86";
    na = wn_words_of(four, strlen(four), a, 32);
    CHECK_EQ(na, 3);
    CHECK(wn_words_weight(a, na) > 1.5 && wn_words_weight(a, na) < 2.0);
    /* Turkish capitals: KIYI is kıyı */
    const char *tr_up = "KIYI \xC5\x9E\x45R\xC4\xB0\x44\xC4\xB0", *tr = "k\xC4\xB1y\xC4\xB1 \xC5\x9F\x65rid\xC4\xB1";
    na = wn_words_of(tr_up, strlen(tr_up), a, 32);
    nb = wn_words_of(tr, strlen(tr), b, 32);
    CHECK(na == 2 && wn_words_shared(a, na, b, nb) == 2);
    /* Greek capitals without accents, final sigma: ΘΕΣΣΑΛΟΝΙΚΗΣ is θεσσαλονίκης */
    const char *el_up =
        "\xCE\x98\xCE\x95\xCE\xA3\xCE\xA3\xCE\x91\xCE\x9B\xCE\x9F\xCE\x9D\xCE\x99\xCE\x9A\xCE\x97\xCE\xA3";
    const char *el = "\xCE\xB8\xCE\xB5\xCF\x83\xCF\x83\xCE\xB1\xCE\xBB\xCE\xBF\xCE\xBD\xCE\xAF\xCE\xBA\xCE\xB7\xCF\x82";
    na = wn_words_of(el_up, strlen(el_up), a, 32);
    nb = wn_words_of(el, strlen(el), b, 32);
    CHECK(na == 1 && wn_words_shared(a, na, b, nb) == 1);
    /* full-width letters are ASCII's; Arabic with and without vowel points */
    const char *wide = "\xEF\xBC\xB7\xEF\xBD\x89\xEF\xBD\x8E", *ascii = "win";
    na = wn_words_of(wide, strlen(wide), a, 32);
    nb = wn_words_of(ascii, strlen(ascii), b, 32);
    CHECK(na == 1 && wn_words_shared(a, na, b, nb) == 1);
    const char *ar_points = "\xD9\x83\xD9\x8E\xD8\xAA\xD9\x8E\xD8\xA8\xD9\x8E", *ar = "\xD9\x83\xD8\xAA\xD8\xA8";
    na = wn_words_of(ar_points, strlen(ar_points), a, 32);
    nb = wn_words_of(ar, strlen(ar), b, 32);
    CHECK(na == 1 && wn_words_shared(a, na, b, nb) == 1);
    /* stems are counted in letters: Cyrillic stems are five letters, not
     * two and a half ("закрыть" and "замок" share no stem) */
    const char *ru1 = "\xD0\xB7\xD0\xB0\xD0\xBA\xD1\x80\xD1\x8B\xD1\x82\xD1\x8C",
               *ru2 = "\xD0\xB7\xD0\xB0\xD0\xBC\xD0\xBE\xD0\xBA";
    na = wn_stems_of(ru1, strlen(ru1), a, 32);
    nb = wn_stems_of(ru2, strlen(ru2), b, 32);
    CHECK(na == 1 && nb == 1 && wn_words_shared(a, na, b, nb) == 0);
}

int main(void)
{
    RUN(test_title_words_ellipsis);
    RUN(test_title_words_folded);
    RUN(test_title_words_punctuation);
    RUN(test_script_punctuation);
    RUN(test_sentence_end_scripts);
    RUN(test_title_words_scripts);
    RUN(test_counts);
    RUN(test_unicode_words);
    RUN(test_links_and_images);
    RUN(test_tag_histogram);
    RUN(test_is_block);
    RUN(test_fingerprint);
    RUN(test_path_hash);
    RUN(test_sums_agree);
    RUN(test_hidden_text_not_counted);
    RUN(test_hints);
    RUN(test_hint_cache);
    RUN(test_setting_words);
    return CHECK_DONE();
}
