/* Line-level text tests shared by the selection's passes: where a line's
 * text ends, and whether it ends as a sentence does. */
#ifndef WN_SENTENCE_H
#define WN_SENTENCE_H

#include <stddef.h>

/* The length of t[0..n) without the spaces it ends with. */
size_t wn_trimmed_end(const char *t, size_t n);
/* Whether the line t[0..n) ends as a sentence does: a stop of its script
 * (". ! ?", CJK's, Arabic's, Devanagari's... full stops and question
 * marks, Greek's ';'), maybe inside closing quotes or brackets of any
 * script; a ticker line "CPI +0.5% On Month" or a label "References:"
 * does not. */
int wn_ends_sentence(const char *t, size_t n);
/* Whether the line t[0..n) ends with a full stop of its script (".",
 * "\u3002", "\uFF0E", "\u06D4", "\u0964", ...), not a question or an
 * exclamation: a caption or a standfirst, not a headline. */
int wn_ends_full_stop(const char *t, size_t n);
/* Whether the line t[0..n) ends with a colon of its script (":",
 * "\uFF1A", ...): a label ("References:", "\u76EE\u6B21\uFF1A"). */
int wn_ends_colon(const char *t, size_t n);

#endif
