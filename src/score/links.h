/* "Mostly links": the one test of how much of a text is link text, read
 * wherever a line, a box or a paragraph is told from a link list by its
 * links (the headline's search, the drops at the block's end, a thread's
 * posts, the fallback, the title heading). Its share is the rule
 * LINKS_MOSTLY_SHARE. */
#ifndef WN_LINKS_H
#define WN_LINKS_H

#include "../doc.h"
#include "../rules/rules.h"

/* Whether more than LINKS_MOSTLY_SHARE of chars characters are link text.
 * In double: for the default one half this is link_chars * 2 > chars,
 * exactly (the product of a share and a count below 2^53 is exact). */
static inline int wn_mostly_links(const winnow_doc *d, uint64_t link_chars, uint64_t chars)
{
    return (double)link_chars > (double)WN_RULE(d, LINKS_MOSTLY_SHARE) * (double)chars;
}

/* Whether less than LINKS_MOSTLY_SHARE of chars characters are link text:
 * mostly its own words, a text that half links already disqualify
 * (link_chars * 2 < chars at one half). With the rule off (a share no
 * text reaches) both tests see no link list anywhere. */
static inline int wn_mostly_words(const winnow_doc *d, uint64_t link_chars, uint64_t chars)
{
    return (double)link_chars < (double)WN_RULE(d, LINKS_MOSTLY_SHARE) * (double)chars;
}

#endif
