/* Unicode-aware text primitives shared by every stage: code point
 * iteration, character classes (word, CJK, punctuation, space) and case
 * folding, with ASCII fast paths and utf8proc for the rest. */
#ifndef WN_TEXT_H
#define WN_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef enum wn_cclass {
    WN_CC_SPACE = 0,
    WN_CC_WORD, /* letters, marks, digits of scripts that separate words */
    WN_CC_CJK,  /* scripts written without spaces: one character = one word */
    WN_CC_PUNCT,
    WN_CC_OTHER, /* symbols, controls */
} wn_cclass;

/* Next code point of s[*i..n); invalid bytes yield U+FFFD and advance one. */
int32_t wn_utf8_next(const char *s, size_t n, size_t *i);
size_t wn_utf8_put(char *out, int32_t cp); /* out has room for 4 bytes */
wn_cclass wn_char_class(int32_t cp);
int32_t wn_fold(int32_t cp);
/* Whether cp ends a sentence in its script: ". ! ?" and every script's
 * full stops and question and exclamation marks (Unicode's
 * Sentence_Terminal: "\u3002 \uFF01 \uFF1F \u061F \u06D4 \u0964 \u0589 ...")
 * and the Greek question mark U+037E. */
int wn_sentence_stop(int32_t cp);
/* Whether cp is a comma in its script (", \u3001 \uFF0C \u060C \uFF64 ..."). */
int wn_comma(int32_t cp);
/* Whether cp is a Greek letter: a ';' after one is the Greek question mark. */
static inline int wn_greek_letter(int32_t cp)
{
    return (cp >= 0x370 && cp <= 0x3FF && cp != 0x37E) || (cp >= 0x1F00 && cp <= 0x1FFF);
}
/* Whether cp closes a quotation or a bracket, in any script (a sentence
 * ends inside it: ".\u201D", "\u3002\u300D", "!)"). */
int wn_closing_mark(int32_t cp);

#endif
