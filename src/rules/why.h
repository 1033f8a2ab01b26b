/* Why a text unit was kept or left out: the decision that settled it,
 * recorded only when a page is explained (winnow annotate; the pipeline's
 * WN_RUN_EXPLAIN mode) and never read by the extraction itself.
 *
 * Each reason names the row of the rule table (rules.h) that governs the
 * decision, or none where no tunable row does, and the verdict class the
 * report shades a left-out unit with:
 *   C content, T template (outside the content block, or the site's
 *   template), M reader comments, L link list, B boilerplate (a name or
 *   landmark, teasers, script shown as text).
 *
 * X(ID, "name", RULE or NULL, class, "what it means") */
#ifndef WN_WHY_TABLE_H
#define WN_WHY_TABLE_H

#include <stdint.h>

#define WN_WHY_LIST(X)                                                                                                 \
    X(NONE, "none", NULL, 'T', "no decision recorded")                                                                 \
    /* kept */                                                                                                         \
    X(BEST_BLOCK, "best-block", "SELECT_DECAY", 'C',                                                                   \
      "running text of the content block: the subtree whose units' values, weighted SELECT_DECAY per level, "          \
      "sum highest")                                                                                                   \
    X(ANCHORED, "anchored", "ANCHOR_SHARE", 'C',                                                                       \
      "running text of the headline's article, which replaced a best block outside it or holding other articles")      \
    X(JOINED, "joined", "JOIN_SHARE", 'C', "a sibling of the best block that scores JOIN_SHARE of it joined it")       \
    X(JOINED_PAST_EMBED, "joined-past-embed", "JOIN_WRAPPER_SHARE", 'C',                                               \
      "a part of the article body past an embed (a player, a frame, an ad slot) joined the best block's outermost "    \
      "wrapper")                                                                                                       \
    X(TABLE_LEAD, "table-lead", "TABLE_LEAD", 'C',                                                                     \
      "running text before the data table that is the content block: the list's introduction")                         \
    X(MAIN_SECTION, "main-section", "MAIN_SECTIONS", 'C',                                                              \
      "a <section> of <main> beside the content block's, running text named only as related: main content")            \
    X(THREAD, "thread-post", "THREAD_MIN_RECORDS", 'C', "a post of the forum thread the best block belongs to")        \
    X(REGION, "region", "REGION_MIN_CARDS", 'C',                                                                       \
      "a part of the content region (its <main>, else the body) of a page made of parts (a landing page, a "           \
      "listing, a product, a thread): not the frame, not a link list unless part of a card")                           \
    X(SECTIONS, "headed-section", "SECTIONS_MIN", 'C',                                                                 \
      "a section of a document written as sibling sections of one shape, each opening with its heading, of which "     \
      "the best block is one")                                                                                         \
    X(JOINED_SECTIONS, "joined-sections", "JOIN_SECTIONS", 'C',                                                        \
      "a section of the same shape as the best block's outermost wrapper joined it")                                   \
    X(FRAGMENT_KEPT, "fragment-in-block", "KEEP_FRAGMENT_MAX_LINKS", 'C',                                              \
      "a unit without running text (a subheading, a caption, a cell) inside the content block, with no more "          \
      "than KEEP_FRAGMENT_MAX_LINKS of it in links")                                                                   \
    X(TABLE_CELL, "table-cell", "TABLE_CELL_MAX_LINKS", 'C',                                                           \
      "a linked cell of a data table inside the content block whose table is not mostly links")                        \
    X(HEADLINE, "headline", "TITLE_WORD_SHARE", 'C', "the page's headline: its words are the <title>'s")               \
    X(STANDFIRST, "standfirst", "STANDFIRST_MIN_VALUE", 'C',                                                           \
      "running text between the headline and the content block")                                                       \
    X(FAVOR_WIDENED, "favor-widened", "FAVOR_WIDEN_LEVELS", 'C',                                                       \
      "--favor recall: running text of the elements around the content block")                                         \
    X(FAVOR_RUNNING, "favor-running", "FAVOR_RUNNING_MIN_VALUE", 'C',                                                  \
      "--favor recall: running text outside boilerplate, anywhere on the page")                                        \
    X(UNIT_KEPT, "unit-model-kept", "UNIT_KEEP_MIN", 'C',                                                              \
      "the learned unit decision (models/units.wmodel) kept a unit the rules left out")                                \
    X(LONE, "lone-paragraph", "LONE_MIN_VALUE", 'C',                                                                   \
      "site mode: a long paragraph outside the content block that no other page of the site has")                      \
    X(FALLBACK_LANDMARK, "fallback-landmark", "FALLBACK_WEAK_SHARE", 'C',                                              \
      "the selection kept too little: the <article>/<main> landmark with the most running text was chosen")            \
    X(FALLBACK_DESCRIPTION, "fallback-description", "FALLBACK_DESC_SHARE", 'C',                                        \
      "the selection kept too little: the block of the paragraph the page's description quotes was chosen")            \
    X(FALLBACK_UNHINTED, "fallback-unhinted", "FALLBACK_GAIN", 'C',                                                    \
      "the selection kept too little: the best block by text alone, without names, was chosen")                        \
    X(NO_BLOCK, "no-running-text", "KEEP_FRAGMENT_MAX_LINKS", 'C',                                                     \
      "no block holds running text: every unit that is not a link list is kept")                                       \
    /* left out by the selection */                                                                                    \
    X(UNIT_DROPPED, "unit-model-dropped", "UNIT_KEEP_MIN", 'T',                                                        \
      "the learned unit decision (models/units.wmodel) left out a unit the rules kept")                                \
    X(OUTSIDE, "outside-block", "SELECT_DECAY", 'T', "outside the content block")                                      \
    X(LINK_LIST, "link-list", "LINK_LIST_SHARE", 'L', "more than LINK_LIST_SHARE of its characters are links")         \
    X(FRAGMENT, "fragment", "FRAGMENT_CHARS", 'T',                                                                     \
      "a short unpunctuated fragment (a label, a date, a button) outside the content block")                           \
    X(LINKS_IN_BLOCK, "links-in-block", "KEEP_FRAGMENT_MAX_LINKS", 'L',                                                \
      "inside the content block, no running text and more than KEEP_FRAGMENT_MAX_LINKS of it in links")                \
    X(FAVOR_TRIMMED, "favor-trimmed", "FAVOR_TRIM_EDGES", 'B',                                                         \
      "--favor precision: not running text, before the first or after the last kept running text")                     \
    X(END_PLUG, "end-plug", "END_PLUG_MAX_CHARS", 'B',                                                                 \
      "one of the last lines of the content block, short, mostly links to social network profiles: a plug "            \
      "(follow us, follow the author)")                                                                                \
    X(END_LIST, "end-list", "END_LIST_MIN_ITEMS", 'L',                                                                 \
      "a short label and the lines of links after it closing the content block: a related-stories list")               \
    X(AD_LABEL, "ad-label", "AD_LABEL_MAX_WORDS", 'B',                                                                 \
      "the label of an ad slot between the article's paragraphs ('Advertisement', 'Story continues below')")           \
    X(END_LABEL, "end-label", "END_LABEL_ORPHAN", 'L',                                                                 \
      "a short label ending in a colon that closes the content block with nothing kept after it (\"Related:\")")       \
    X(LIST_LABEL, "list-label", "LIST_LABEL_MAX_CHARS", 'B', "the label of a list of links left out")                  \
    X(LINE_GUTTER, "line-gutter", "LINE_GUTTER", 'B', "a column of line numbers beside a code sample")                 \
    X(REPEATED, "repeated-block", "REPEAT_MIN_CHARS", 'B',                                                             \
      "a block of several lines kept whole whose text, every line of it, was kept before: a responsive page's "        \
      "copy of a section for another screen size")                                                                     \
    X(DATELINE, "dateline", "DATELINE_MAX_CHARS", 'T', "a line that only dates the article, above its text")           \
    X(CLASSIFIER, "classifier", "CLASSIFIER_WEIGHT", 'T',                                                              \
      "the node classifier's smoothed score turned the heuristic value negative")                                      \
    X(FALLBACK_INNER, "fallback-inner-name", "FALLBACK_INNER_TRUST", 'B',                                              \
      "inside a fallback block, under a boilerplate name on an element holding little of its text")                    \
    /* left out by a name, a landmark or structure */                                                                  \
    X(NAME, "boilerplate-name", "NAME_LAYOUT_SHARE", 'B',                                                              \
      "under a boilerplate class/id name (nav, share, related, ad, ...), trusted because its element holds less "      \
      "than NAME_LAYOUT_SHARE of the page's running text")                                                             \
    X(LANDMARK, "landmark", "NAME_LAYOUT_SHARE", 'B',                                                                  \
      "under <nav>, <aside>, <footer>, a site <header>, a <button> or an ARIA role of those, trusted as a name is")    \
    X(FORM, "form", "FORM_MAX_PROSE", 'B', "inside a search, login or comment <form> holding little running text")     \
    X(OVERLAY, "overlay", "OVERLAY_SPECIFIC", 'B',                                                                     \
      "under an overlay name (modal, pop-up, sign-up) that leaves the page's title heading outside it")                \
    X(CAPTION, "caption", "CAPTION_MAX_CHARS", 'B', "a photo's caption or credit, beside the article")                 \
    X(GALLERY_NAME, "gallery-name", "SPECIFIC_NAME_SHARE", 'B', "under a gallery or slideshow name")                   \
    X(COMMENT_NAME, "comment-name", "SPECIFIC_NAME_SHARE", 'M', "under a name that says comments")                     \
    X(COMMENT_MIXED_NAME, "comment-mixed-name", "NAME_LAYOUT_SHARE", 'M',                                              \
      "under a name that says comments among other words (comment_content), trusted because its element holds "        \
      "less than NAME_LAYOUT_SHARE of the page's running text")                                                        \
    X(COMMENT_MARKER, "comment-marker", "COMMENT_MARKER_MAX_SHARE", 'M',                                               \
      "after an empty comments marker (<a name=comments>) that closes the running text")                               \
    X(COMMENT_RECORDS, "comment-records", "COMMENT_HEADER_SHARE", 'M',                                                 \
      "a run of comment-like records (an author, a date, a reply link) after the post")                                \
    X(TEASER_RECORDS, "teaser-records", "TEASER_SHARE", 'B',                                                           \
      "a run of teasers (a headline link over a short summary) beside the article")                                    \
    X(TEASER_EXCERPTS, "teaser-excerpts", "TEASER_EXCERPT_SHARE", 'B',                                                 \
      "a run of excerpts cut short with an ellipsis: a list of other posts")                                           \
    X(LISTING, "listing-teaser", "LISTING_MIN_TEASERS", 'B',                                                           \
      "the content block was one teaser's summary on a page of teasers: a listing page, no main content")              \
    X(FRAME, "site-frame", "FRAME_MAX_SHARE", 'B',                                                                     \
      "the best block lay in the page's own header or footer and no block elsewhere had running text")                 \
    X(SCRIPT, "script-text", "SCRIPT_CODE_SHARE", 'B', "script or template code shown as text")                        \
    X(CREDIT_LINE, "credit-line", "CREDIT_LINE_MAX_CHARS", 'B', "a photo's credit written as a line of text")          \
    X(RIGHTS, "rights-notice", "RIGHTS_NOTICE_MAX_CHARS", 'B',                                                         \
      "a short rights notice (\"Copyright 2008 ... All rights reserved\"): the site's or agency's legal line")         \
    X(SITE_TEMPLATE, "site-template", "SITE_TEMPLATE_PERCENT", 'T',                                                    \
      "its text is on at least SITE_TEMPLATE_PERCENT percent of the site's other pages (site model)")                  \
    X(SITE_BOX, "site-template-box", "SITE_BOX_TEMPLATE_SHARE", 'T',                                                   \
      "in a box of SITE_BOX_MIN_UNITS or more units of which at least SITE_BOX_TEMPLATE_SHARE of the text is the "     \
      "site's template (site model)")                                                                                  \
    X(PRODUCT_LIST, "product-list", "PRODUCT_RUN_SHARE", 'B',                                                          \
      "on a product page, a list of dated posts (reviews) or of other products' cards, or a review the page "          \
      "declares (schema.org)")                                                                                         \
    X(PRODUCT_ASIDE, "product-aside", "PRODUCT_SECTION_PROSE", 'T',                                                    \
      "on a product page, beside the element holding the product's name and description: a section with neither "      \
      "running text nor specifications (a gallery's controls, delivery and returns)")

typedef enum wn_why {
#define WN_WHY_ENUM(id, name, rule, cls, text) WN_WHY_##id,
    WN_WHY_LIST(WN_WHY_ENUM)
#undef WN_WHY_ENUM
        WN_WHY_COUNT
} wn_why;

typedef struct wn_why_def {
    const char *name, *rule, *text;
    char cls;
} wn_why_def;

extern const wn_why_def wn_why_defs[WN_WHY_COUNT];

/* What the pipeline records about a page it explains (winnow_doc.explain,
 * NULL when it only extracts). Per node arrays in the page arena; the
 * reasons are meaningful on text units (labels.unit[i] == i). */
typedef struct wn_explain {
    uint8_t *raw_why;  /* the unit's own text: WN_WHY_LINK_LIST, _FRAGMENT or NONE */
    uint8_t *boil_why; /* the name, landmark or structure that made its hints boilerplate */
    uint8_t *sel_why;  /* the selection's reason: kept, or left out inside a fallback block */
    uint8_t *in_block; /* inside a subtree the selection kept units of */
    uint8_t *why;      /* the final reason (wn_explain_finish) */
    float *heur;       /* the heuristic value, before the classifier and the site model */
    /* the page scorer's per-node arrays (page_score.h), kept for the report */
    const uint16_t *boiler, *self_hint;
    const float *raw;
    const struct wn_unit_stats *own;
} wn_explain;

#endif
