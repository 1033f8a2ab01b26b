/* The applications' tokenizer and term hash map (terms.h). */
#include "apps/terms.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
#include <xxhash.h>

#include "text/text.h"

#define WN_TERM_MAX_BYTES 64

void wn_tokens_init(wn_tokens *tk)
{
    memset(tk, 0, sizeof *tk);
    wn_buf_init(&tk->text);
}

void wn_tokens_free(wn_tokens *tk)
{
    wn_buf_free(&tk->text);
    free(tk->t);
    memset(tk, 0, sizeof *tk);
}

static void push(wn_tokens *tk, size_t off, size_t len, int cjk, int brk)
{
    if (tk->n == tk->cap) {
        size_t cap = tk->cap ? tk->cap * 2 : 256;
        wn_token *t = realloc(tk->t, cap * sizeof *t);
        if (!t) {
            tk->oom = 1;
            return;
        }
        tk->t = t;
        tk->cap = cap;
    }
    tk->t[tk->n++] = (wn_token){ (uint32_t)off, (uint32_t)len, (uint8_t)cjk, (uint8_t)brk };
}

/* wn_char_class of each ASCII character (text.c's rules), looked up without a call */
static const unsigned char ascii_class[128] = {
    4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    0, 3, 3, 3, 4, 3, 3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 4, 4, 4, 3,
    3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 4, 3,
    4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4, 3, 4, 4,
};

/* Apostrophes and hyphens split words but keep a phrase together. */
static int joins(int32_t cp)
{
    return cp == '\'' || cp == '-' || cp == 0x2019 || cp == 0x02BC || cp == 0x2010 || cp == 0x2011;
}

int wn_tokenize(const char *s, size_t n, wn_tokens *tk)
{
    wn_buf_clear(&tk->text);
    tk->n = 0;
    tk->oom = 0;
    size_t word = 0, cps = 0; /* the word being read: its start in text, its code points */
    int letters = 0, brk = 0;
    int32_t prev_cjk = -1;
    size_t cjk_run = 0;
    char enc[4];
    /* the folded text takes at most twice the input's bytes (a character of an
     * unspaced script is in two bigrams; case mapping grows a character by
     * half at most): reserved once, so that words are written in place */
    if (n < SIZE_MAX / 4 && !wn_buf_reserve(&tk->text, 2 * n + 64)) {
        tk->oom = 1;
        return -1;
    }
    for (size_t i = 0; i < n;) {
        int32_t cp;
        wn_cclass c;
        unsigned char b0 = (unsigned char)s[i];
        if (b0 < 0x80) {
            cp = b0;
            i++;
            c = (wn_cclass)ascii_class[b0];
            if (c == WN_CC_WORD && cps && !cjk_run && tk->text.len + 1 < tk->text.cap) {
                /* the common case: one more ASCII character of a word */
                tk->text.data[tk->text.len++] = (char)(b0 >= 'A' && b0 <= 'Z' ? b0 + 32 : b0);
                cps++;
                if (b0 > '9') letters = 1;
                continue;
            }
        } else {
            cp = wn_utf8_next(s, n, &i);
            c = wn_char_class(cp);
        }
        if (c == WN_CC_WORD) {
            if (cjk_run) {
                if (cjk_run == 1) {
                    size_t off = tk->text.len, k = wn_utf8_put(enc, prev_cjk);
                    wn_buf_put(&tk->text, enc, k);
                    push(tk, off, k, 1, 1);
                }
                cjk_run = 0;
                prev_cjk = -1;
                brk = 1;
                word = tk->text.len;
            }
            if (cps == 0) word = tk->text.len;
            int32_t f = wn_fold(cp);
            size_t k = wn_utf8_put(enc, f);
            wn_buf_put(&tk->text, enc, k);
            cps++;
            if (cp < 0x80 ? !(cp >= '0' && cp <= '9') : utf8proc_category(cp) != UTF8PROC_CATEGORY_ND) letters = 1;
            continue;
        }
        /* the word ends */
        if (cps) {
            size_t len = tk->text.len - word;
            if (cps >= 2 && letters && len <= WN_TERM_MAX_BYTES) {
                push(tk, word, len, 0, brk);
                brk = 0;
            } else {
                tk->text.len = word;
                brk = 1;
            }
            cps = 0;
            letters = 0;
        }
        if (c == WN_CC_CJK) {
            int32_t f = wn_fold(cp);
            if (prev_cjk >= 0) {
                size_t off = tk->text.len, k = wn_utf8_put(enc, prev_cjk);
                wn_buf_put(&tk->text, enc, k);
                k = wn_utf8_put(enc, f);
                wn_buf_put(&tk->text, enc, k);
                push(tk, off, tk->text.len - off, 1, 1);
            }
            prev_cjk = f;
            cjk_run++;
            continue;
        }
        if (cjk_run) {
            if (cjk_run == 1) {
                size_t off = tk->text.len, k = wn_utf8_put(enc, prev_cjk);
                wn_buf_put(&tk->text, enc, k);
                push(tk, off, k, 1, 1);
            }
            cjk_run = 0;
            prev_cjk = -1;
            brk = 1;
        }
        if (c == WN_CC_SPACE) {
            if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029 || cp == '\f' || cp == '\v') brk = 1;
        } else if (!joins(cp)) {
            brk = 1;
        }
    }
    if (cps) {
        size_t len = tk->text.len - word;
        if (cps >= 2 && letters && len <= WN_TERM_MAX_BYTES)
            push(tk, word, len, 0, brk);
        else
            tk->text.len = word;
    }
    if (cjk_run == 1) {
        size_t off = tk->text.len, k = wn_utf8_put(enc, prev_cjk);
        wn_buf_put(&tk->text, enc, k);
        push(tk, off, k, 1, 1);
    }
    if (tk->text.oom) tk->oom = 1;
    return tk->oom ? -1 : 0;
}

uint64_t wn_term_hash(const char *s, size_t n) { return XXH3_64bits(s, n); }

int wn_termmap_init(wn_termmap *m, size_t expect)
{
    size_t cap = 64;
    while (cap < expect * 2) cap *= 2;
    m->key = calloc(cap, sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    m->mask = cap - 1;
    m->n = 0;
    if (!m->key || !m->val) {
        free(m->key);
        free(m->val);
        m->key = NULL;
        m->val = NULL;
        return -1;
    }
    return 0;
}

void wn_termmap_free(wn_termmap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

uint32_t wn_termmap_get(const wn_termmap *m, uint64_t key)
{
    if (!m->key) return UINT32_MAX;
    if (!key) key = 1;
    for (size_t i = (size_t)key & m->mask;; i = (i + 1) & m->mask) {
        if (m->key[i] == key) return m->val[i];
        if (!m->key[i]) return UINT32_MAX;
    }
}

static int grow(wn_termmap *m)
{
    wn_termmap g;
    if (wn_termmap_init(&g, (m->mask + 1)) != 0) return -1;
    for (size_t i = 0; i <= m->mask; i++) {
        if (!m->key[i]) continue;
        size_t j = (size_t)m->key[i] & g.mask;
        while (g.key[j]) j = (j + 1) & g.mask;
        g.key[j] = m->key[i];
        g.val[j] = m->val[i];
    }
    g.n = m->n;
    wn_termmap_free(m);
    *m = g;
    return 0;
}

uint32_t *wn_termmap_put(wn_termmap *m, uint64_t key, int *added)
{
    if (!key) key = 1;
    if ((m->n + 1) * 2 > m->mask + 1 && grow(m) != 0) return NULL;
    size_t i = (size_t)key & m->mask;
    for (; m->key[i]; i = (i + 1) & m->mask)
        if (m->key[i] == key) {
            *added = 0;
            return &m->val[i];
        }
    m->key[i] = key;
    m->val[i] = UINT32_MAX;
    m->n++;
    *added = 1;
    return &m->val[i];
}
