/* The page's headline, found by its words: the unit whose words are
 * (nearly) all the document title's and cover enough of it. Used by the
 * scorer (a boilerplate name on an ancestor of the headline is a layout
 * name) and by the selection (title anchoring; src/select/headline.c finds
 * and keeps the content block's headline with these tests). */
#ifndef WN_HEADLINE_H
#define WN_HEADLINE_H

#include "../doc.h"
#include "../text/words.h" /* the tokenizer (wn_words_of, wn_stems_of, wn_words_shared) */

/* The document title as words (in caller-provided storage) and as folded text. */
typedef struct wn_title {
    const uint64_t *words;
    size_t nwords;
    /* the title's parts between spaced separators ("Headline - Site |
     * Section"): part k's words end at words[seg_end[k]] */
    uint8_t nseg;
    uint8_t seg_end[8];
    uint8_t site_first; /* the first part is the site's name (its host, og:site_name) */
    /* the page's declared title (og:title, JSON-LD headline) when it has
     * words the <title> lacks: a <title> that names only the site */
    uint64_t alt[40];
    size_t nalt;
    char alt_lower[256]; /* the declared title folded as the page text, for CJK parts */
    size_t alt_len;
    char lower[512]; /* the title, case-folded as the page text, spaces collapsed */
    size_t len;
} wn_title;

/* The document title into tt (words: room for 64); 0 when it has fewer
 * than two words (no evidence). */
int wn_title_init(const winnow_doc *d, uint64_t *words, wn_title *tt);
/* Whether unit i's words are (nearly all) the title's and cover
 * TITLE_COVER of it (or it is a heading carrying three or more of them). */
int wn_title_like(const winnow_doc *d, uint32_t i, const wn_title *tt);
/* Whether href names the page itself (a post's permalinked headline);
 * url is the page's (canonical, og:url, else the caller's; NULL: none). */
int wn_same_page(const char *href, const char *url);
/* Whether element i's text is mostly one link to the page itself or a
 * place on it: a post's permalinked headline (<h1><a href=THIS-PAGE>,
 * rel=bookmark), a section heading linking its own anchor (<h2><a
 * href=#intro>). Such a link names the page; it leads nowhere else. With
 * bookmark, rel=bookmark says so too (themes put it on any post title,
 * another site's too: only for a heading that also matches the title). */
int wn_self_linked(const winnow_doc *d, uint32_t i, int bookmark);
/* The page's title heading: the first title-like <h1> (else <h2>/<h3>),
 * not a link to another page; WN_NONE when the page has none. */
uint32_t wn_title_heading(const winnow_doc *d);

#endif
