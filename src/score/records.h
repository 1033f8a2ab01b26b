/* Reader comments told by their structure, not their names.
 *
 * Blog and story pages often hold their comment thread in elements with no
 * telling class or id: a run of sibling records of one shape after the
 * post, each a short header line (who, when, a permalink, an avatar, a
 * reply link) over a few lines of text. Such a run is a comment region
 * when the page has running text of its own before it (the post) that
 * outweighs a typical record; a thread whose first record is the longest
 * text on the page (a forum, the posts being the content) is not.
 *
 * What counts (every threshold a row of rules.h, COMMENT_*):
 *   - a run: at least COMMENT_MIN_RECORDS consecutive element siblings of
 *     one tag with the same class tokens (digits ignored) or the same
 *     sequence of child tags; a record spans at least two lines;
 *   - a record is comment-like when its first line is short and it shows
 *     a date or time (<time>, digits with ':' or '/', a month name, "ago")
 *     or a reply link, plus a second sign (an author line, an avatar, a
 *     permalink, a reply link); a "N comments" / "Leave a reply" heading
 *     just before the run makes one sign enough;
 *   - COMMENT_HEADER_SHARE of the run's records are comment-like, the run
 *     holds running text and few links;
 *   - the post: the running text before the run (its parent's earlier
 *     children together, or one earlier sibling of an ancestor) is at least
 *     COMMENT_POST_RATIO times the median record and COMMENT_MIN_POST. */
#ifndef WN_RECORDS_H
#define WN_RECORDS_H

#include "page_score.h"
#include "../util/url.h"

/* One detected comment record (author and date "" when not found). */
typedef struct wn_comment {
    uint32_t node;
    const char *author, *date, *text;
} wn_comment;

enum { WN_REGION_COMMENT = 1, WN_REGION_TEASER = 2 };

/* Comment threads and teaser lists told by structure, in one scan of the
 * page's element shapes. Sets region[i] |= WN_REGION_COMMENT for every node
 * inside a comment region (only with comments non-zero) and lists its
 * records in d->comments, and region[i] |= WN_REGION_TEASER inside a teaser
 * list found outside those. Needs ps->own, ps->raw, ps->boiler,
 * ps->title_heading, the page's units (d->labels.unit) and pos, the
 * positive raw unit values summed over each subtree (the page scorer's);
 * region is zeroed, one byte a node. Returns the number of records, -1 when out of
 * memory.
 *
 * Teasers: a run of TEASER_MIN_RECORDS or more
 * records of one shape (one element each, or pairs: a <dt> and its <dd>,
 * a heading and its paragraph) of which TEASER_SHARE open with a headline
 * link to another page (TEASER_HEADLINE_WORDS words or more, most of its
 * line) over a summary of TEASER_MIN_SUMMARY to TEASER_MAX_SUMMARY
 * characters. Only on a page with a title heading outside the run's
 * parent (an article page: a list page's teasers are its content) and
 * running text beside the run of at least COMMENT_MIN_POST and
 * TEASER_POST_RATIO times its median record, none of it beside the run
 * under its parent and grandparent (TEASER_NEAR_TEXT: a "See also" list
 * among an article's paragraphs is the article's).
 * A run is also a list of other posts when TEASER_EXCERPT_SHARE of its
 * records are excerpts: a link or picture beside one passage of
 * TEASER_MIN_EXCERPT to TEASER_MAX_EXCERPT characters that ends cut short
 * ("...", "\u2026", "[...]"). Excerpts say what they are, so such a run
 * needs only TEASER_EXCERPT_POST_RATIO times its median record of text
 * beside it, wherever it stands. */
int wn_record_regions(winnow_doc *d, const wn_page_scores *ps, const float *pos, int comments, uint8_t *region);

/* The posts of a thread page (a forum topic, a question and its answers),
 * first post first, into d->posts (d->nposts; their strings in the page
 * arena, author and date "" when not found):
 *   - the items of the page's schema.org microdata of type
 *     DiscussionForumPosting, SocialMediaPosting, Comment, Question or
 *     Answer, in document order, when there are two or more
 *     (POSTS_MICRODATA), a comment on a question or an answer left out;
 *     each item's own properties (not those of an item inside it): text
 *     (or articleBody; else the item's own text), author (its name
 *     property or its text) and datePublished (or dateCreated: its text
 *     when it shows a date, else a <time> of the post's record that does,
 *     else its datetime or content);
 *   - else the run of sibling records of one shape, POSTS_MIN_RECORDS or
 *     more, COMMENT_HEADER_SHARE of them showing an author and a date over
 *     COMMENT_MIN_LINES lines (as comments are read), few of its
 *     characters links (COMMENT_MAX_LINKS), that holds the most running
 *     text of the page, at least POSTS_MIN_SHARE of it.
 * Needs the page scorer's ps->raw, ps->own, ps->boiler and the units.
 * Returns 0, -1 when out of memory. */
int wn_thread_posts(winnow_doc *d, const wn_page_scores *ps);

/* The page's own host (as wn_url_host, util/url.h): its URL's, or else the host most
 * of its absolute links go to (a site's menus link its own pages); 1 when
 * unknown. Worked out once a page and kept on it (d->page_host): the
 * teaser test and the selection's end lists ask for it. */
uint64_t wn_page_host(winnow_doc *d);

/* Whether case-folded text t[0..n) shows a date or a time: hh:mm, d/m/y
 * digits, or a month name or word of relative time (six languages; a short
 * month name only beside a number). */
int wn_has_date(const char *t, size_t n);
/* Whether the month names and words of relative time are in byte order, as
 * wn_has_date's search needs (for tests). */
int wn_date_words_sorted(void);

#endif
