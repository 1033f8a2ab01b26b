/* Stage 4 (page level, learned): a feature vector for every node a node
 * classifier scores.
 *
 * The features are those Kolcz & Yih and Chakrabarti, Kumar & Punera
 * describe, computed from markup and text alone (no rendering):
 *  - the block in isolation: text length, words, distinct words,
 *    punctuation and formatting, tag histogram, images and anchors;
 *  - links: links per word, anchor-text fraction, anchor size, fraction of
 *    links that stay on the site;
 *  - visible characters over HTML size;
 *  - the block against the page: relative word and tag counts, the
 *    cross-entropy of the block's words under the rest of the page's word
 *    distribution (a stand-in for their KL divergence that sums over word
 *    positions, so every node costs O(1) after one O(words) pass);
 *  - position: source offset and line fractions, text offset fractions
 *    (area and position approximated by text and markup sizes), depth,
 *    distance from the left-most sibling;
 *  - the page title's words found in the block;
 *  - class/id name hints and landmarks, inherited ones too;
 *  - the heuristic page scorer's verdicts on the subtree, and a text Naive
 *    Bayes score over the block's words when a word model is given (Kolcz &
 *    Yih feed their text classifier's score to the final model this way).
 *
 * Scored nodes: visible elements with at least WN_FEATURE_MIN_CHARS
 * characters of text: smaller ones are folded into their parent by the
 * smoothing (the paper's hidden nodes), so their own score would go unused;
 * scoring them cost more than the rest of extraction. Every feature is a float; the
 * layout is versioned by WN_FEATURE_VERSION and named in wn_feature_names,
 * and model files record both. */
#ifndef WN_FEATURES_H
#define WN_FEATURES_H

#include <stdint.h>

#include "../doc.h"
#include "../score/page_score.h"
#include "nb.h"

#define WN_FEATURE_VERSION 1
#define WN_FEATURE_MIN_CHARS 20 /* = the smoothing's default min_area (SMOOTH_MIN_AREA) */

enum {
    WN_F_LOG_CHARS,
    WN_F_LOG_WORDS,
    WN_F_CHAR_SHARE,
    WN_F_WORD_SHARE,
    WN_F_DISTINCT_RATIO,
    WN_F_PUNCT_PER_CHAR,
    WN_F_COMMAS_PER_WORD,
    WN_F_STOPS_PER_WORD,
    WN_F_CJK_SHARE,
    WN_F_AVG_WORD_CHARS,
    WN_F_ANCHOR_TEXT,
    WN_F_LINKS_PER_WORD,
    WN_F_ANCHOR_SIZE,
    WN_F_INTRA_SITE,
    WN_F_LOG_LINKS,
    WN_F_LOG_IMAGES,
    WN_F_IMAGES_PER_WORD,
    WN_F_LOG_ELEMENTS,
    WN_F_TAGS_PER_CHAR,
    WN_F_ELEMENT_SHARE,
    WN_F_VISIBLE_PER_HTML,
    WN_F_SRC_BEGIN,
    WN_F_SRC_END,
    WN_F_TEXT_BEGIN,
    WN_F_TEXT_END,
    WN_F_LINE,
    WN_F_DEPTH,
    WN_F_DEPTH_SHARE,
    WN_F_SIBLING_INDEX,
    WN_F_SIBLINGS,
    WN_F_SIBLING_POS,
    WN_F_TITLE_WORDS,
    WN_F_TITLE_COVER,
    WN_F_XENT_PAGE,
    WN_F_XENT_GAP,
    WN_F_HIST0,                          /* WN_HIST_N tag-histogram shares */
    WN_F_HINT0 = WN_F_HIST0 + WN_HIST_N, /* 12 own class/id hint bits */
    WN_F_BOILER_INHERITED = WN_F_HINT0 + 12,
    WN_F_CONTENT_INHERITED,
    WN_F_TAG_HEADING,
    WN_F_TAG_LIST,
    WN_F_TAG_LI,
    WN_F_TAG_TABLE,
    WN_F_TAG_P,
    WN_F_TAG_DIV,
    WN_F_TAG_LANDMARK,
    WN_F_TAG_ARTICLE,
    WN_F_TAG_FORM,
    WN_F_TAG_BLOCK,
    WN_F_POS_MASS,
    WN_F_NEG_MASS,
    WN_F_UNIT_VALUE,
    WN_F_BEST_SHARE,
    WN_F_LOG_PAGE_CHARS,
    WN_F_PAGE_LINK_SHARE,
    WN_F_NB_MEAN,
    WN_F_NB_SUM,
    WN_NFEAT
};
extern const char *const wn_feature_names[WN_NFEAT];

typedef struct wn_node_features {
    uint32_t count;  /* scored nodes */
    uint32_t *node;  /* their DOM indices, document order */
    float *x;        /* count * WN_NFEAT, row-major */
    int32_t *row_of; /* per DOM node: its row, -1 when not scored */
} wn_node_features;

/* Features of every scored node of a processed page (stats and page scores
 * computed). nb may be NULL: the Naive Bayes columns are then 0. url is the
 * page's address (for intra-site links), may be NULL. */
int wn_features_compute(const winnow_doc *d, const wn_page_scores *ps, const char *url, const wn_nb_model *nb,
                        wn_arena *a, wn_node_features *out);

/* The same a block of rows at a time, so that a large page's feature
 * matrix (WN_NFEAT floats a scored node) never exists whole:
 * wn_features_begin fills out (count, node, row_of; x stays NULL) and the
 * page-wide sums in fr, then wn_features_rows writes rows [r0, r1) into x
 * ((r1 - r0) * WN_NFEAT floats), the values wn_features_compute gives. */
typedef struct wn_word_prefix {
    double xent, nb; /* prefix sums of -log p_page(w) and the NB log-ratio */
    uint32_t title;  /* words of the title so far */
} wn_word_prefix;

#define WN_LOG1P_CACHE 1024
typedef struct wn_feature_rows {
    const winnow_doc *d;
    const wn_page_scores *ps;
    const wn_nb_model *nb;
    const uint32_t *node, *intra;
    const float *posm, *negm;
    const uint16_t *kids;
    const wn_word_prefix *pre;
    uint32_t nt, max_depth, max_line;
    double best_pos, page_chars, page_words, page_elems, total_pos, total_neg, doc_len, text_len, page_xent;
    float l1p[WN_LOG1P_CACHE]; /* log1p of small counts, filled as rows need them */
} wn_feature_rows;

int wn_features_begin(const winnow_doc *d, const wn_page_scores *ps, const char *url, const wn_nb_model *nb,
                      wn_arena *a, wn_node_features *out, wn_feature_rows *fr);
void wn_features_rows(wn_feature_rows *fr, uint32_t r0, uint32_t r1, float *x);

#endif
