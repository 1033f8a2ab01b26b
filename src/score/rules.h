/* The rule table: every threshold and weight of the scorer and the
 * selection, named and defaulted once, with its reason.
 *
 * Each row: NAME, default, off (the value that disables the rule, or for a
 * parameter the value that reduces it to the plain method), stage, reason.
 * Code reads a value as WN_RULE(d, NAME) from the page's table, which is
 * the engine's copy: winnow_engine_set_rule() changes it, so a test can run
 * a page with one rule off and check that its expectation then fails
 * (tests/data/pages/rules.tsv pins every row). */
#ifndef WN_RULES_H
#define WN_RULES_H

#define WN_RULES(X)                                                                                                  \
    /* page scorer (src/score/page_score.c) */                                                                       \
    X(NAME_LAYOUT_SHARE, 0.5f, 1e30f, "score",                                                                       \
      "a boilerplate class/id name is a layout name, not a verdict, on an element holding this share of the "       \
      "page's running text, or when all the elements of its class together hold it (a wrapper on every paragraph)") \
    X(NAME_LAYOUT_MAX_LINKS, 0.15f, 0.0f, "score",                                                                   \
      "a class repeated on wrappers is a layout name only when their text is running text, less than this share "   \
      "of it in links: repeated teasers (a headline link each) stay what their name says")                          \
    /* comment records told by structure (src/score/records.c) */                                                    \
    X(COMMENT_MIN_RECORDS, 3.0f, 1e30f, "records",                                                                   \
      "sibling elements of one shape (tag and class tokens, or child tags) that make a run of records: two alike "  \
      "siblings are too common (a figure pair, two columns)")                                                        \
    X(COMMENT_HEADER_SHARE, 0.6f, 1e30f, "records",                                                                  \
      "share of a run's records that look like comments (a short line with a date or a reply link, and a second "   \
      "sign: an author, an avatar, a permalink; one sign after a 'N comments' heading)")                             \
    X(COMMENT_MAX_LINKS, 0.35f, 0.0f, "records",                                                                     \
      "a run of records with more than this share of its text in links is a teaser or link list, not comments")     \
    X(COMMENT_POST_RATIO, 1.0f, 1e30f, "records",                                                                    \
      "running text before a run, as a multiple of its median record, that makes the run comments under a post; "   \
      "a forum thread (the first post opens the run, no longer text before it) stays content")                       \
    X(COMMENT_MIN_POST, 150.0f, 1e30f, "records",                                                                    \
      "least running text before a run (about 25 words) for it to be comments under a post")                        \
    X(COMMENT_MAX_RECORD, 2.0f, 1e30f, "records",                                                                    \
      "a run whose largest record holds more than this multiple of the post's running text is a set of layout "     \
      "sections (one of them holds the article), not comments")                                                      \
    X(COMMENT_MAX_AFTER, 0.5f, 1e30f, "records",                                                                     \
      "comments close the text: a run followed by more running text than this share of the post's is quotes or "   \
      "embedded posts inside the article")                                                                           \
    /* selection (src/select/select.c) */                                                                            \
    X(SELECT_DECAY, 0.8f, 1.0f, "select",                                                                            \
      "weight of a unit's value per level above it when blocks are summed: 0.7-0.9 do well on the corpora; 1.0 "  \
      "(a plain subtree sum) takes in teaser lists, 0.5 loses deeply wrapped articles")                              \
    /* fallback (src/select/fallback.c) */                                                                           \
    X(FALLBACK_WEAK_SHARE, 0.15f, 0.0f, "fallback",                                                                  \
      "a selection is weak when it keeps less than this share of the running text of the best block found "         \
      "without hints: a hint sank the article and a bio, a caption or the headline alone was left")                 \
    X(FALLBACK_MIN_PROSE, 300.0f, 1e30f, "fallback",                                                                 \
      "characters of running text a page must have in one block before an empty or tiny selection is second-"      \
      "guessed, and that a fallback candidate must keep")                                                             \
    X(FALLBACK_GAIN, 3.0f, 1e30f, "fallback",                                                                        \
      "a fallback candidate replaces the selection only when it keeps this many times its running text")           \
    X(FALLBACK_INNER_TRUST, 0.5f, 0.0f, "fallback",                                                                  \
      "inside a fallback block a boilerplate name is trusted on elements holding less than this share of the "      \
      "block's running text (never the kind of name that sank the block)")                                           \
    X(FALLBACK_DESC_MIN_WORDS, 6.0f, 1e30f, "fallback",                                                              \
      "a page description shorter than this many words is no evidence of where the article is")                     \
    X(FALLBACK_DESC_SHARE, 0.6f, 2.0f, "fallback",                                                                   \
      "the paragraph the description quotes holds at least this share of its first 24 words")                       \
    X(FALLBACK_COMMENT_SHARE, 0.5f, 0.0f, "fallback",                                                                \
      "the best block by text alone is no fallback when reader comments make up this share of its text")

typedef enum wn_rule_id {
#define WN_RULE_ENUM(name, def, off, stage, why) WN_RULE_##name,
    WN_RULES(WN_RULE_ENUM)
#undef WN_RULE_ENUM
    WN_RULE_COUNT
} wn_rule_id;

typedef struct wn_rule_def {
    const char *name, *stage, *why;
    float def, off;
} wn_rule_def;

extern const wn_rule_def wn_rule_defs[WN_RULE_COUNT];

/* A page's rule values (the engine's table); defaults when tab is NULL. */
typedef struct wn_rules {
    float v[WN_RULE_COUNT];
} wn_rules;

void wn_rules_default(wn_rules *r);
/* Index of a rule by name, -1 when unknown. */
int wn_rule_find(const char *name);

#define WN_RULE(d, name) ((d)->rules->v[WN_RULE_##name])

#endif
