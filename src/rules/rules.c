#include "rules.h"

#include "winnow.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const wn_rule_def wn_rule_defs[WN_RULE_COUNT] = {
#define WN_RULE_ROW(name, d, o, stage, why) { #name, stage, why, d, o },
    WN_RULES(WN_RULE_ROW)
#undef WN_RULE_ROW
};

void wn_rules_default(wn_rules *r)
{
    for (int i = 0; i < WN_RULE_COUNT; i++) r->v[i] = wn_rule_defs[i].def;
}

int wn_rule_find(const char *name)
{
    for (int i = 0; name && i < WN_RULE_COUNT; i++)
        if (!strcmp(wn_rule_defs[i].name, name)) return i;
    return -1;
}

/* The values each rule takes, by name: a table of its own beside the rows
 * (whose format other work extends), so that a value that means nothing
 * (a share of -5, a percentage of 500) is refused when it is set rather
 * than quietly turning a rule into something else. Every row needs an
 * entry: unit.api checks that each rule has one and that its default and
 * its off value are valid.
 *   share    a fraction, 0 to 1
 *   percent  0 to 100
 *   count    characters, words, records, lines: 0 or more
 *   weight   a multiple or a cost: 0 or more
 *   switch   0 (off) to 1 (on)
 * The off value is always valid, whatever it is (1e30 for "never", -1, 2). */
typedef enum { WN_RANGE_SHARE, WN_RANGE_PERCENT, WN_RANGE_COUNT, WN_RANGE_WEIGHT, WN_RANGE_SWITCH } wn_range_kind;

static const struct {
    const char *name;
    wn_range_kind kind;
} rule_ranges[] = {
    { "LINK_LIST_SHARE", WN_RANGE_SHARE },
    { "LINK_PENALTY", WN_RANGE_WEIGHT },
    { "FRAGMENT_CHARS", WN_RANGE_COUNT },
    { "FRAGMENT_PENALTY", WN_RANGE_WEIGHT },
    { "UNPUNCTUATED_CHARS", WN_RANGE_COUNT },
    { "UNPUNCTUATED_WEIGHT", WN_RANGE_WEIGHT },
    { "HEADING_PROSE_CHARS", WN_RANGE_COUNT },
    { "HEADING_PROSE_MARKS", WN_RANGE_COUNT },
    { "SPECIFIC_NAME_SHARE", WN_RANGE_SHARE },
    { "DISCUSSION_SHARE", WN_RANGE_SHARE },
    { "COMMENT_MARKER_MAX_SHARE", WN_RANGE_SHARE },
    { "META_MAX_CHARS", WN_RANGE_COUNT },
    { "CONTENT_LANDMARK_BOOST", WN_RANGE_WEIGHT },
    { "SCRIPT_MIN_CHARS", WN_RANGE_COUNT },
    { "SCRIPT_CODE_SHARE", WN_RANGE_SHARE },
    { "SCRIPT_MIN_MARKS", WN_RANGE_COUNT },
    { "SCRIPT_STRONG_MARKS", WN_RANGE_COUNT },
    { "RIGHTS_NOTICE_MAX_CHARS", WN_RANGE_COUNT },
    { "CREDIT_LINE_MAX_CHARS", WN_RANGE_COUNT },
    { "CAPTION_MAX_CHARS", WN_RANGE_COUNT },
    { "FIGCAPTION_MAX_CHARS", WN_RANGE_COUNT },
    { "CAPTION_INLINE_SHARE", WN_RANGE_SHARE },
    { "CAPTION_FIGURE", WN_RANGE_SWITCH },
    { "CAPTION_CREDIT", WN_RANGE_SWITCH },
    { "HEADER_SCOPED", WN_RANGE_SWITCH },
    { "CAPTION_MAX_SHARE", WN_RANGE_SHARE },
    { "NAME_LAYOUT_SHARE", WN_RANGE_SHARE },
    { "NAME_LAYOUT_MAX_LINKS", WN_RANGE_SHARE },
    { "NAME_LAYOUT_TOKENS", WN_RANGE_SWITCH },
    { "FORM_MAX_PROSE", WN_RANGE_COUNT },
    { "TABLIST_MAX_PROSE", WN_RANGE_COUNT },
    { "OVERLAY_HOLDS_TITLE", WN_RANGE_SWITCH },
    { "OVERLAY_SPECIFIC", WN_RANGE_SWITCH },
    { "OVERLAY_DECLARED", WN_RANGE_SWITCH },
    { "NAV_DECLARED", WN_RANGE_SWITCH },
    { "NAME_SETTING_WORDS", WN_RANGE_SWITCH },
    { "CLASSIFIER_WEIGHT", WN_RANGE_WEIGHT },
    { "COMMENT_LINE_CHARS", WN_RANGE_COUNT },
    { "COMMENT_AUTHOR_CHARS", WN_RANGE_COUNT },
    { "COMMENT_AUTHOR_WORDS", WN_RANGE_COUNT },
    { "COMMENT_HEADLINE_WORDS", WN_RANGE_COUNT },
    { "COMMENT_HEADING_LINK", WN_RANGE_SWITCH },
    { "COMMENT_MARKER_CHARS", WN_RANGE_COUNT },
    { "COMMENT_LINK_CHARS", WN_RANGE_COUNT },
    { "COMMENT_MIN_RECORDS", WN_RANGE_COUNT },
    { "COMMENT_HEADER_SHARE", WN_RANGE_SHARE },
    { "COMMENT_MAX_LINKS", WN_RANGE_SHARE },
    { "COMMENT_POST_RATIO", WN_RANGE_WEIGHT },
    { "COMMENT_MIN_POST", WN_RANGE_COUNT },
    { "COMMENT_MAX_RECORD", WN_RANGE_WEIGHT },
    { "COMMENT_MAX_AFTER", WN_RANGE_WEIGHT },
    { "TEASER_MIN_RECORDS", WN_RANGE_COUNT },
    { "TEASER_SHARE", WN_RANGE_SHARE },
    { "TEASER_HEADLINE_WORDS", WN_RANGE_COUNT },
    { "TEASER_CARD_WORDS", WN_RANGE_COUNT },
    { "TEASER_CARD_SHARE", WN_RANGE_SHARE },
    { "TEASER_MIN_SUMMARY", WN_RANGE_COUNT },
    { "TEASER_MAX_SUMMARY", WN_RANGE_COUNT },
    { "TEASER_MIN_EXCERPT", WN_RANGE_COUNT },
    { "TEASER_MAX_EXCERPT", WN_RANGE_COUNT },
    { "TEASER_EXCERPT_SHARE", WN_RANGE_SHARE },
    { "TEASER_EXCERPT_POST_RATIO", WN_RANGE_WEIGHT },
    { "TEASER_NEAR_TEXT", WN_RANGE_WEIGHT },
    { "TEASER_POST_RATIO", WN_RANGE_WEIGHT },
    { "SELECT_DECAY", WN_RANGE_SHARE },
    { "KEEP_FRAGMENT_MAX_LINKS", WN_RANGE_SHARE },
    { "ONE_LINK_PLAIN_CHARS", WN_RANGE_COUNT },
    { "TABLE_CELL_MAX_LINKS", WN_RANGE_SHARE },
    { "JOIN_SHARE", WN_RANGE_SHARE },
    { "JOIN_MIN_VALUE", WN_RANGE_COUNT },
    { "THREAD_MIN_RECORDS", WN_RANGE_COUNT },
    { "POSTS_MICRODATA", WN_RANGE_SWITCH },
    { "POSTS_MIN_RECORDS", WN_RANGE_COUNT },
    { "POSTS_MIN_SHARE", WN_RANGE_SHARE },
    { "POSTS_INNER_SHARE", WN_RANGE_SHARE },
    { "TRAILING_PARAGRAPH", WN_RANGE_SWITCH },
    { "CODE_BLOCK_PROSE", WN_RANGE_COUNT },
    { "JOIN_SECTIONS", WN_RANGE_SWITCH },
    { "SECTIONS_MIN", WN_RANGE_COUNT },
    { "SECTIONS_LEVELS", WN_RANGE_COUNT },
    { "REGION_MIN_CONFIDENCE", WN_RANGE_SHARE },
    { "REGION_ARTICLE_SHARE", WN_RANGE_SHARE },
    { "REGION_ARTICLE_CHARS", WN_RANGE_SHARE },
    { "REGION_MIN_CARDS", WN_RANGE_COUNT },
    { "REGION_CARD_LEVELS", WN_RANGE_COUNT },
    { "REGION_CARD_FIRST_CLASS", WN_RANGE_SWITCH },
    { "PRODUCT_NAME_SHARE", WN_RANGE_SHARE },
    { "PRODUCT_DESC_SHARE", WN_RANGE_SHARE },
    { "PRODUCT_SECTION_PROSE", WN_RANGE_COUNT },
    { "PRODUCT_SPEC_ROWS", WN_RANGE_COUNT },
    { "PRODUCT_RUN_MIN", WN_RANGE_COUNT },
    { "PRODUCT_RUN_SHARE", WN_RANGE_SHARE },
    { "PRODUCT_CARD_WORDS", WN_RANGE_COUNT },
    { "PRODUCT_REVIEW_NAMES", WN_RANGE_SWITCH },
    { "REGION_SKIP_DIALOGS", WN_RANGE_SWITCH },
    { "REGION_DROP_COMMENTS", WN_RANGE_SWITCH },
    { "REGION_CARD_WORDS", WN_RANGE_COUNT },
    { "JOIN_WRAPPER_SHARE", WN_RANGE_SHARE },
    { "TABLE_WHOLE", WN_RANGE_SWITCH },
    { "TABLE_LEAD", WN_RANGE_SWITCH },
    { "TABLE_HEADER_NAME", WN_RANGE_SWITCH },
    { "MAIN_SECTIONS", WN_RANGE_SWITCH },
    { "STRADDLE_MIN_CHARS", WN_RANGE_COUNT },
    { "TITLE_WORD_SHARE", WN_RANGE_SHARE },
    { "TITLE_COVER", WN_RANGE_SHARE },
    { "HEADLINE_LINK_BOX", WN_RANGE_SWITCH },
    { "TITLE_PART_COVER", WN_RANGE_SHARE },
    { "HEADLINE_NOT_CAPTION", WN_RANGE_SWITCH },
    { "TITLE_DECLARED", WN_RANGE_SWITCH },
    { "TITLE_BREADCRUMB", WN_RANGE_SWITCH },
    { "TITLE_MIN_CHARS", WN_RANGE_COUNT },
    { "HEADLINE_INSIDE_TEXT", WN_RANGE_COUNT },
    { "INLINE_HEADLINE_GAP", WN_RANGE_COUNT },
    { "NEAR_HEADLINE_LINES", WN_RANGE_COUNT },
    { "NEAR_HEADLINE_SHARED", WN_RANGE_COUNT },
    { "END_HEADING_ORPHAN", WN_RANGE_SWITCH },
    { "LIST_LABEL_MAX_CHARS", WN_RANGE_COUNT },
    { "AD_LABEL_MAX_WORDS", WN_RANGE_COUNT },
    { "AD_LABEL_SLOT", WN_RANGE_SWITCH },
    { "AD_LABEL_WORDS", WN_RANGE_SWITCH },
    { "LINE_GUTTER", WN_RANGE_SWITCH },
    { "END_PLUG_MAX_CHARS", WN_RANGE_COUNT },
    { "END_PLUG_LINK_SHARE", WN_RANGE_SHARE },
    { "END_LIST_MIN_ITEMS", WN_RANGE_COUNT },
    { "END_LIST_MAX_CHARS", WN_RANGE_COUNT },
    { "END_LIST_LINK_SHARE", WN_RANGE_SHARE },
    { "END_LIST_LABEL_CHARS", WN_RANGE_COUNT },
    { "END_LIST_LABEL_WORDS", WN_RANGE_COUNT },
    { "END_LABEL_ORPHAN", WN_RANGE_SWITCH },
    { "DATELINE_MAX_CHARS", WN_RANGE_COUNT },
    { "DATELINE_OTHER_WORDS", WN_RANGE_COUNT },
    { "DATELINE_TOP_LINES", WN_RANGE_COUNT },
    { "DATELINE_MAX_LINES", WN_RANGE_COUNT },
    { "BYLINE_MAX_WORDS", WN_RANGE_COUNT },
    { "STANDFIRST_MIN_VALUE", WN_RANGE_COUNT },
    { "STANDFIRST_HEADINGS", WN_RANGE_SWITCH },
    { "LONE_MIN_VALUE", WN_RANGE_COUNT },
    { "FAVOR_WIDEN_LEVELS", WN_RANGE_COUNT },
    { "FAVOR_TRIM_EDGES", WN_RANGE_SWITCH },
    { "FAVOR_RUNNING_MIN_VALUE", WN_RANGE_COUNT },
    { "LONE_MAX_LINK_DENSITY", WN_RANGE_SHARE },
    { "UNIT_MODEL", WN_RANGE_SWITCH },
    { "UNIT_KEEP_MIN", WN_RANGE_SHARE },
    { "UNIT_ADD_MIN", WN_RANGE_COUNT },
    { "UNIT_MAX_DROP", WN_RANGE_COUNT },
    { "UNIT_MAX_DROP_THREAD", WN_RANGE_SHARE },
    { "UNIT_MAX_ADD", WN_RANGE_COUNT },
    { "ANCHOR_SHARE", WN_RANGE_SHARE },
    { "ANCHOR_PEER_MIN_WORDS", WN_RANGE_COUNT },
    { "LISTING_MIN_TEASERS", WN_RANGE_COUNT },
    { "REPEAT_MIN_CHARS", WN_RANGE_COUNT },
    { "REGION_LANDING_PROMOS", WN_RANGE_SWITCH },
    { "REGION_MARKED_CARDS", WN_RANGE_SWITCH },
    { "REGION_ITEM_HEADERS", WN_RANGE_SWITCH },
    { "FRAME_SECTION_SCOPE", WN_RANGE_SWITCH },
    { "PARTS_THIN_SHARE", WN_RANGE_SHARE },
    { "PARTS_GAIN", WN_RANGE_WEIGHT },
    { "PARTS_UNSURE_SHARE", WN_RANGE_SHARE },
    { "PARTS_UNSURE_CONF", WN_RANGE_SHARE },
    { "PARTS_UNSURE_LINKS", WN_RANGE_SHARE },
    { "PARTS_STORY_CHARS", WN_RANGE_COUNT },
    { "PARTS_MIN_CHARS", WN_RANGE_COUNT },
    { "SELF_LINK_HEADING", WN_RANGE_SWITCH },
    { "FRAME_MAX_SHARE", WN_RANGE_SHARE },
    { "FALLBACK_WEAK_SHARE", WN_RANGE_SHARE },
    { "FALLBACK_MIN_PROSE", WN_RANGE_COUNT },
    { "FALLBACK_GAIN", WN_RANGE_WEIGHT },
    { "FALLBACK_SKIP_DIALOGS", WN_RANGE_SWITCH },
    { "FALLBACK_INNER_TRUST", WN_RANGE_SHARE },
    { "FALLBACK_DESC_MIN_WORDS", WN_RANGE_COUNT },
    { "FALLBACK_DESC_SHARE", WN_RANGE_SHARE },
    { "SITE_TEMPLATE_PERCENT", WN_RANGE_PERCENT },
    { "SITE_MIN_PAGES", WN_RANGE_COUNT },
    { "SITE_UNIQUE_BOOST", WN_RANGE_WEIGHT },
    { "SITE_BOX_MIN_UNITS", WN_RANGE_COUNT },
    { "SITE_BOX_TEMPLATE_SHARE", WN_RANGE_SHARE },
    { "SITE_BOX_MAX_SHARE", WN_RANGE_SHARE },
    { "COMMENT_HEADLINE_LINK_SHARE", WN_RANGE_SHARE },
    { "TEASER_LINK_LINE_SHARE", WN_RANGE_SHARE },
    { "LINKS_MOSTLY_SHARE", WN_RANGE_SHARE },
    { "CODE_BLOCK_SHARE", WN_RANGE_SHARE },
    { "SCRIPT_STRONG_DIVISOR", WN_RANGE_WEIGHT },
    { "SMOOTH_PENALTY", WN_RANGE_WEIGHT },
    { "DATELINE_WHOLE_RATIO", WN_RANGE_WEIGHT },
    { "RIGHTS_YEAR_CHARS", WN_RANGE_COUNT },
    { "ID_ANCHOR_WORDS", WN_RANGE_COUNT },
    { "SMOOTH_MIN_AREA", WN_RANGE_COUNT },
    { "COMMENT_AUTHOR_ELEMENTS", WN_RANGE_COUNT },
    { "COMMENT_MARKER_LINES", WN_RANGE_COUNT },
    { "COMMENT_MIN_LINES", WN_RANGE_COUNT },
    { "COMMENT_MIN_SIGNS", WN_RANGE_COUNT },
    { "TITLE_MAX_CHARS", WN_RANGE_COUNT },
    { "PRE_CHARS_PER_SYMBOL", WN_RANGE_COUNT },
    { "HEADLINE_ASIDE_IMAGE_CHARS", WN_RANGE_COUNT },
    { "LEAD_CHARS", WN_RANGE_COUNT },
    { "NEAR_HEADLINE_MAX_CHARS", WN_RANGE_COUNT },
    { "NEAR_HEADLINE_MAX_WORDS", WN_RANGE_COUNT },
    { "HEADLINE_LINES_BEFORE", WN_RANGE_COUNT },
    { "H1_HEADLINE_MAX_CHARS", WN_RANGE_COUNT },
    { "HEADLINE_INSIDE_UNITS", WN_RANGE_COUNT },
    { "TITLE_MAX_WORDS", WN_RANGE_COUNT },
    { "TITLE_HEADING_WORDS", WN_RANGE_COUNT },
    { "HEADLINE_MIN_CHARS", WN_RANGE_COUNT },
    { "HEADLINE_ABOVE_LINES", WN_RANGE_COUNT },
    { "CODE_BLOCK_LEVELS", WN_RANGE_COUNT },
    { "THREAD_MAX_LEVELS", WN_RANGE_COUNT },
    { "END_PLUG_MAX_LINES", WN_RANGE_COUNT },
    { "TITLE_PART_PARTS", WN_RANGE_COUNT },
    { "DATA_TABLE_CELL_MAX_CHARS", WN_RANGE_COUNT },
    { "THIN_PAGE_CHARS", WN_RANGE_COUNT },
    { "THIN_MAX_WORDS", WN_RANGE_COUNT },
    { "MERGED_LINK_SHARE", WN_RANGE_SHARE },
    { "NOSCRIPT_MAX_TEXT", WN_RANGE_COUNT },
    { "NOSCRIPT_MIN_RATIO", WN_RANGE_WEIGHT },
    { "LD_BODY_MAX_TEXT", WN_RANGE_COUNT },
    { "LD_BODY_MIN_RATIO", WN_RANGE_WEIGHT },
    { "UNREAD_TEXT", WN_RANGE_SWITCH },
    { "HIDDEN_TABPANEL", WN_RANGE_SWITCH },
    { "HIDDEN_CLOSED", WN_RANGE_SWITCH },
    { "HIDDEN_CONTROLLED", WN_RANGE_SWITCH },
    { "INLINE_SIBLING_SPACE", WN_RANGE_SWITCH },
    { "REPEAT_QUOTE_UNITS", WN_RANGE_SWITCH },
    { "QUOTE_SEEN_MIN_CHARS", WN_RANGE_COUNT },
    { "REGION_CARD_WRAPPERS", WN_RANGE_SWITCH },
    { "HIDDEN_MAX_TEXT", WN_RANGE_COUNT },
    { "HIDDEN_MIN_RATIO", WN_RANGE_WEIGHT },
    { "DISPLAY_MIN_KEPT", WN_RANGE_COUNT },
    { "TITLE_MATCH_MIN_WORDS", WN_RANGE_COUNT },
};

int wn_rule_range(int i, double *lo, double *hi, const char **what)
{
    if (i < 0 || i >= WN_RULE_COUNT) return -1;
    for (size_t k = 0; k < sizeof rule_ranges / sizeof rule_ranges[0]; k++) {
        if (strcmp(rule_ranges[k].name, wn_rule_defs[i].name) != 0) continue;
        static const struct {
            double lo, hi;
            const char *what;
        } kinds[] = {
            [WN_RANGE_SHARE] = { 0, 1, "a share from 0 to 1" },
            [WN_RANGE_PERCENT] = { 0, 100, "a percentage from 0 to 100" },
            [WN_RANGE_COUNT] = { 0, HUGE_VAL, "a count of 0 or more" },
            [WN_RANGE_WEIGHT] = { 0, HUGE_VAL, "a weight of 0 or more" },
            [WN_RANGE_SWITCH] = { 0, 1, "0 (off) to 1 (on)" },
        };
        *lo = kinds[rule_ranges[k].kind].lo;
        *hi = kinds[rule_ranges[k].kind].hi;
        if (what) *what = kinds[rule_ranges[k].kind].what;
        return 0;
    }
    return -1;
}

int wn_rule_check(int i, double value, char *err, size_t cap)
{
    double lo, hi;
    const char *what;
    if (wn_rule_range(i, &lo, &hi, &what) != 0) {
        snprintf(err, cap, "rule %s has no range of values (a bug: src/rules/rules.c)", wn_rule_defs[i].name);
        return -1;
    }
    /* the off value is compared as the table stores it (a float) */
    if ((value >= lo && value <= hi) || (float)value == wn_rule_defs[i].off) return 0;
    snprintf(err, cap, "rule %s takes %s (or %g, its off value), got %g", wn_rule_defs[i].name, what,
             (double)wn_rule_defs[i].off, value);
    return -1;
}

/* The dial's presets, measured on the seven bench corpora as a precision
 * and recall curve (bench/favor_curve.sh, bench/RESULTS.md). */
const wn_favor_row wn_favor_rows[] = {
    { WINNOW_FAVOR_PRECISION, WN_RULE_FAVOR_TRIM_EDGES, 1.0f,
      "what is not running text before the first and after the last kept running text goes" },
    { WINNOW_FAVOR_PRECISION, WN_RULE_REGION_MIN_CONFIDENCE, 1e30f,
      "every page is selected as an article: its one best block, not the parts of a page made of parts" },
    { WINNOW_FAVOR_PRECISION, WN_RULE_TEASER_SHARE, 0.4f,
      "a run of records is a list of other stories when 40% of them (not 60%) open with a headline link" },
    { WINNOW_FAVOR_PRECISION, WN_RULE_JOIN_SHARE, 0.4f,
      "a sibling joins the best block only when it scores 40% of it (not 20%)" },
    { WINNOW_FAVOR_RECALL, WN_RULE_FAVOR_WIDEN_LEVELS, 2.0f,
      "the running text of the two elements around the content block is kept" },
    { WINNOW_FAVOR_RECALL, WN_RULE_FAVOR_RUNNING_MIN_VALUE, 150.0f,
      "running text worth 150 (a paragraph of about 30 words) anywhere outside boilerplate is kept" },
};
const int wn_favor_row_count = (int)(sizeof wn_favor_rows / sizeof wn_favor_rows[0]);

int wn_rules_favor(wn_rules *r, int favor)
{
    if (favor < 0 || favor >= WINNOW_FAVOR_COUNT) return -1;
    for (int k = 0; k < wn_favor_row_count; k++)
        if (wn_favor_rows[k].favor == favor) r->v[wn_favor_rows[k].rule] = wn_favor_rows[k].value;
    return 0;
}
