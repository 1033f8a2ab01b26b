/* Stage 5, the selection's shared helpers: the one mostly-links test
 * against the integer comparisons it replaced (the outputs must not move
 * by a byte), the sentence-end test, and the strategy table. */
#include "check.h"
#include "doc.h"
#include "score/links.h"
#include "select/strategy.h"
#include "text/sentence.h"

#include <stdint.h>
#include <string.h>

/* At the default share (one half) wn_mostly_links is link * 2 > chars and
 * wn_mostly_words is link * 2 < chars, exactly: every pair up to 600, and
 * pairs around the half of large counts, where a float would round. */
static void test_mostly_links_is_half(void)
{
    wn_rules r;
    wn_rules_default(&r);
    winnow_doc d;
    memset(&d, 0, sizeof d);
    d.rules = &r;
    CHECK(WN_RULE(&d, LINKS_MOSTLY_SHARE) == 0.5f);
    int wrong = 0;
    for (uint64_t chars = 0; chars <= 600; chars++)
        for (uint64_t link = 0; link <= chars; link++)
            wrong += wn_mostly_links(&d, link, chars) != (link * 2 > chars) ||
                     wn_mostly_words(&d, link, chars) != (link * 2 < chars);
    static const uint64_t big[] = { 16777215u, 16777216u, 16777217u, 33554433u, 4294967295u };
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++)
        for (uint64_t link = big[k] / 2 - 2; link <= big[k] / 2 + 2; link++)
            wrong += wn_mostly_links(&d, link, big[k]) != (link * 2 > big[k]) ||
                     wn_mostly_words(&d, link, big[k]) != (link * 2 < big[k]);
    CHECK_EQ(wrong, 0);
}

/* Off (the rule's off value), no text is mostly links and all text with
 * characters is mostly words. */
static void test_mostly_links_off(void)
{
    wn_rules r;
    wn_rules_default(&r);
    int k = wn_rule_find("LINKS_MOSTLY_SHARE");
    CHECK(k >= 0);
    if (k < 0) return;
    r.v[k] = wn_rule_defs[k].off;
    winnow_doc d;
    memset(&d, 0, sizeof d);
    d.rules = &r;
    CHECK(!wn_mostly_links(&d, 100, 100));
    CHECK(wn_mostly_words(&d, 100, 100));
    CHECK(!wn_mostly_words(&d, 0, 0));
}

static int ends(const char *s) { return wn_ends_sentence(s, strlen(s)); }

static void test_sentence_end(void)
{
    CHECK(ends("It rained."));
    CHECK(ends("Did it rain?\" "));
    CHECK(ends("\xE2\x80\x9CIt rained.\xE2\x80\x9D"));
    CHECK(ends("\xE9\x9B\xA8\xE3\x80\x82")); /* CJK full stop */
    CHECK(!ends("References:"));
    CHECK(!ends("CPI +0.5% On Month"));
    CHECK(!ends(""));
    CHECK_EQ(wn_trimmed_end("line \n ", 7), 4);
}

/* The article strategy is the first row; the region strategy serves the
 * pages made of parts when the page type stage is sure enough of the type,
 * the product strategy (the region's, narrowed to the product) a product
 * page, and the article strategy every other page. */
static void test_strategy_table(void)
{
    CHECK(wn_strategy_count >= 2);
    CHECK_STR(wn_strategies[0].name, "article");
    CHECK(wn_strategies[0].select == wn_select_article);
    CHECK_STR(wn_strategies[1].name, "region");
    CHECK(wn_strategy_count >= 3);
    CHECK_STR(wn_strategies[2].name, "product");
    wn_rules rules;
    wn_rules_default(&rules);
    winnow_doc d;
    memset(&d, 0, sizeof d);
    d.rules = &rules;
    d.page_type_conf = 0.9f;
    static const int parts[] = { WINNOW_PAGE_FORUM, WINNOW_PAGE_LISTING, WINNOW_PAGE_SERVICE,
                                 WINNOW_PAGE_DOCUMENTATION };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        d.page_type = parts[i];
        CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[1]);
    }
    d.page_type = WINNOW_PAGE_PRODUCT;
    CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[2]);
    d.page_type = WINNOW_PAGE_ARTICLE;
    CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[0]);
    d.page_type = WINNOW_PAGE_OTHER;
    CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[0]);
    d.page_type = WINNOW_PAGE_UNKNOWN;
    CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[0]);
    /* an unsure type is read as an article */
    d.page_type = WINNOW_PAGE_PRODUCT;
    d.page_type_conf = 0.5f * WN_RULE(&d, REGION_MIN_CONFIDENCE);
    CHECK(wn_strategy_for(&d, NULL) == &wn_strategies[0]);
}

int main(void)
{
    RUN(test_mostly_links_is_half);
    RUN(test_mostly_links_off);
    RUN(test_sentence_end);
    RUN(test_strategy_table);
    return CHECK_DONE();
}
