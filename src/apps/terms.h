/* Terms of a text for the applications (keywords, bags of words): the
 * tokenizer that winnow_keywords.h describes, and a hash map from a term's
 * 64-bit hash to a slot, the one structure the DF table, the keyword
 * counts and the classifier share. */
#ifndef WN_TERMS_H
#define WN_TERMS_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

typedef struct wn_token {
    uint32_t off, len; /* the folded term in wn_tokens.text */
    uint8_t cjk;       /* a bigram (or lone character) of an unspaced script */
    uint8_t brk;       /* a phrase may not join it to the token before */
} wn_token;

typedef struct wn_tokens {
    wn_buf text; /* folded terms, back to back */
    wn_token *t;
    size_t n, cap;
    int oom;
} wn_tokens;

void wn_tokens_init(wn_tokens *tk);
void wn_tokens_free(wn_tokens *tk);
/* Cuts s[0..n) into tk (emptied first). 0, or -1 out of memory. */
int wn_tokenize(const char *s, size_t n, wn_tokens *tk);
/* Whether tokens i and i + 1 make a phrase. */
static inline int wn_tokens_phrase(const wn_tokens *tk, size_t i)
{
    return i + 1 < tk->n && !tk->t[i].cjk && !tk->t[i + 1].cjk && !tk->t[i + 1].brk;
}

uint64_t wn_term_hash(const char *s, size_t n);

/* Open addressing, keys are term hashes (0 is stored as 1), values the
 * caller's indexes. */
typedef struct wn_termmap {
    uint64_t *key;
    uint32_t *val;
    size_t mask, n;
} wn_termmap;

int wn_termmap_init(wn_termmap *m, size_t expect); /* 0 or -1 */
void wn_termmap_free(wn_termmap *m);
/* The value of key, or UINT32_MAX. */
uint32_t wn_termmap_get(const wn_termmap *m, uint64_t key);
/* The slot of key's value: *added set when new (its value is then
 * UINT32_MAX, for the caller to fill). NULL out of memory. */
uint32_t *wn_termmap_put(wn_termmap *m, uint64_t key, int *added);

#endif
