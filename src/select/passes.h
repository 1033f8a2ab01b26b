/* The selection's shared steps: what a strategy (strategy.h) puts
 * together. Internal to src/select.
 *
 *   block.c      candidate blocks: block scores, the best block, title
 *                anchoring, the best block outside the page's frame
 *   code.c       code samples: a code block, the post around one, gutters
 *   thread.c     a forum thread's run of posts
 *   sections.c   a document in headed sections
 *   keep.c       which units inside a block are kept; joins; text kept
 *                around the block (standfirst, lone paragraphs, a run
 *                straddling the block's start)
 *   drop_lead.c  the top of the block: datelines, bylines
 *   drop_end.c   the end of the block: plugs, end lists, list labels;
 *                ad labels anywhere in it
 *   headline.c   the block's headline
 *   frame.c      the page's own header and footer
 *   fallback.c   a second opinion when the selection kept (nearly) nothing
 *   listing.c    a listing page, whose block is one teaser */
#ifndef WN_SELECT_PASSES_H
#define WN_SELECT_PASSES_H

#include "select.h"

#include "../score/links.h"

/* Why unit u may be kept inside the content block (wn_unit_keepable): 0
 * not, else KEEP_RUNNING (running text), KEEP_FRAGMENT or KEEP_CELL,
 * which say why when a page is explained. */
enum { KEEP_RUNNING = 1, KEEP_FRAGMENT = 2, KEEP_CELL = 3 };

/* block.c */

/* Block scores: unit values summed over each subtree, weighted by
 * SELECT_DECAY per level (in the scratch arena; NULL when out of memory). */
float *wn_block_scores(winnow_doc *d);
/* The visible element with the highest positive score, WN_NONE when none;
 * its score in *best_score (0 when none). */
uint32_t wn_best_block(const winnow_doc *d, const float *score, float *best_score);
uint32_t wn_anchor_region(const winnow_doc *d, const wn_page_scores *ps, uint32_t *peers_out, uint32_t *npeers_out);
/* Whether element c holds one of the np peers (other articles' headlines). */
int wn_holds_peer(const wn_dom *dom, uint32_t c, const uint32_t *peers, uint32_t np);
uint32_t wn_best_outside_frames(const winnow_doc *d, const float *score, const uint8_t *frame);
/* The table to keep whole for block b: b's table when b is the body, head
 * or foot of a data table (TABLE_WHOLE); else b. */
uint32_t wn_whole_table(const winnow_doc *d, uint32_t b);
/* Whether element t is a <table> with a caption or header cells. */
int wn_data_table(const winnow_doc *d, uint32_t t);

/* code.c */

int wn_code_block(const winnow_doc *d, uint32_t b);
uint32_t wn_around_code(const winnow_doc *d, const wn_page_scores *ps, uint32_t b);
void wn_drop_line_gutters(winnow_doc *d, uint32_t block);

/* thread.c */

uint32_t wn_thread_record(const winnow_doc *d, const wn_page_scores *ps, uint32_t best);

/* keep.c */

int wn_ends_sentence_unit(const winnow_doc *d, uint32_t u);
int wn_unit_keepable(const winnow_doc *d, const wn_page_scores *ps, uint32_t u);
/* wn_unit_keepable, the boilerplate hints in pardon not held against u. */
int wn_unit_keepable_pardoned(const winnow_doc *d, const wn_page_scores *ps, uint32_t u, uint16_t pardon);
void wn_explain_keep(winnow_doc *d, uint32_t u, int how, uint8_t why);
int wn_same_shape(const wn_dom *dom, uint32_t a, uint32_t b);
/* The same tag and the same first class token (or both without a class). */
int wn_same_kind(const wn_dom *dom, uint32_t a, uint32_t b);
void wn_keep_subtree(winnow_doc *d, const wn_page_scores *ps, uint32_t r, uint8_t why);

/* Title anchoring's limit on joins: a sibling outside the headline's
 * article that holds another article's headline does not join. */
typedef struct wn_join_guard {
    uint32_t anchor;
    const uint32_t *peers;
    uint32_t npeers;
} wn_join_guard;

int wn_join_siblings(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t self, float min, int shape,
                     const wn_join_guard *g, uint8_t why);
void wn_keep_lone_paragraphs(winnow_doc *d, const wn_page_scores *ps);
void wn_keep_standfirst(winnow_doc *d, const wn_page_scores *ps);

/* favor.c */

/* The precision/recall dial over what the strategy kept (FAVOR_ rows). */
void wn_favor(winnow_doc *d, const wn_page_scores *ps);
/* Text of a unit rooted above block best that goes on inside it (an inline
 * run: a dateline, then the story in a <span>): kept when long enough.
 * 0, or -1 when out of memory. */
int wn_keep_straddling(winnow_doc *d, const wn_page_scores *ps, uint32_t best);

/* sections.c */

/* A document in headed sections: when best (or an ancestor up to
 * SECTIONS_LEVELS above) is one of SECTIONS_MIN or more siblings of one
 * shape each opening with a heading, the others holding running text are
 * kept. Returns their parent, WN_NONE when none joined. */
uint32_t wn_join_headed_sections(winnow_doc *d, const wn_page_scores *ps, uint32_t best, const wn_join_guard *g);

/* drop_lead.c */

int wn_byline_like(const winnow_doc *d, const char *t, size_t n);
void wn_drop_lead_datelines(winnow_doc *d, const wn_page_scores *ps, uint32_t block);

/* drop_end.c */

void wn_drop_end_plugs(winnow_doc *d, const wn_page_scores *ps, uint32_t block);
void wn_drop_end_lists(winnow_doc *d, const wn_page_scores *ps, uint32_t block);
void wn_drop_list_labels(winnow_doc *d, const wn_page_scores *ps, uint32_t block);
/* Labels of ad slots between the block's paragraphs ("Advertisement"). */
void wn_drop_ad_labels(winnow_doc *d, const wn_page_scores *ps, uint32_t block);

/* repeat.c */

/* A block kept whole whose text was kept before (REPEAT_MIN_CHARS): its
 * nodes lose their keep. Run once the text nodes follow their units. 0, or
 * -1 when out of memory. */
int wn_drop_repeated_blocks(winnow_doc *d);

#endif
