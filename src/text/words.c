/* Words as hashes: the tokenizer the headline, the title anchoring and the
 * fallback's description match share. A word is a run of letters and
 * digits between separators, folded for matching, so a title read raw
 * from <title> or a meta tag matches the folded page text. The same rules
 * hold in every script:
 *
 *   - separators are white space and punctuation of any script (ASCII
 *     other than letters and digits, curly quotes, dashes, the ellipsis,
 *     the ideographic space and comma, the Arabic comma, full-width
 *     forms, ...): "\u201CReal Housewives\u201D" and "'Real Housewives'"
 *     are the same two words, "won\u2019t" and "won't" the same, and a
 *     Japanese title's "\u3000" and "\uFF1A" part its words as " " and
 *     ":" do. Guillemets stay words: a breadcrumb's "\u00BB" is no
 *     title's word;
 *   - text written without spaces (CJK, Thai and the like: the class
 *     WN_CC_CJK) has no words to split, so each pair of neighbouring
 *     characters is one (a lone character is one alone): two headlines
 *     of one story share most of their pairs, and a pair says far more
 *     than a single character, which every line shares;
 *   - folding is case (full case folding: final sigma is sigma), width
 *     (full-width letters and digits are ASCII), the dotless i (Turkish
 *     "KIYI" folds to "kiyi" as "k\u0131y\u0131" does) and the optional
 *     diacritics a writer adds or leaves out (accents, which Greek
 *     capitals drop; Arabic and Hebrew vowel points). */
#include "words.h"

#include "text.h"

#include <stdint.h>
#include <utf8proc.h>

/* guillemets, double and single: words (see above) */
static int guillemet(int32_t cp) { return cp == 0xAB || cp == 0xBB || cp == 0x2039 || cp == 0x203A; }

/* combining marks a writer may add or leave out: the accents of the
 * alphabets (U+0300..U+036F) and the vowel points of Hebrew and Arabic */
static int optional_mark(int32_t cp)
{
    return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x591 && cp <= 0x5C7) || (cp >= 0x610 && cp <= 0x61A) ||
           (cp >= 0x64B && cp <= 0x65F) || cp == 0x670;
}

typedef struct word_hash {
    uint64_t h;
    size_t m; /* code points hashed */
} word_hash;

static void hash_cp(word_hash *w, int32_t cp, size_t prefix)
{
    if (w->m++ >= prefix) return;
    if (cp < 0x80) {
        w->h = (w->h ^ (uint64_t)cp) * 0x100000001b3ull;
        return;
    }
    char enc[4];
    size_t el = wn_utf8_put(enc, cp);
    for (size_t e = 0; e < el; e++) w->h = (w->h ^ (unsigned char)enc[e]) * 0x100000001b3ull;
}

/* A word character cp folded into w: case, width, the dotless i,
 * optional marks. */
static void fold_into(word_hash *w, int32_t cp, size_t prefix)
{
    if (cp < 0x80) {
        hash_cp(w, (unsigned)cp - 'A' < 26u ? cp | 0x20 : cp, prefix);
        return;
    }
    /* most letters past ASCII have no decomposition and no case to fold
     * (CJK, Arabic, Hebrew, Indic letters; Hangul syllables decompose to
     * their letters, which compare as well whole): hashed as they are */
    const utf8proc_property_t *p = utf8proc_get_property(cp);
    if ((cp >= 0xAC00 && cp <= 0xD7A3) || (p->decomp_seqindex == UINT16_MAX && p->casefold_seqindex == UINT16_MAX &&
                                           !p->ignorable && !optional_mark(cp) && cp != 0x131)) {
        hash_cp(w, cp, prefix);
        return;
    }
    utf8proc_int32_t buf[8];
    int last = 0;
    /* (default-ignorable characters, a soft hyphen, fold to nothing) */
    utf8proc_ssize_t k = utf8proc_decompose_char(
        cp, buf, 8, UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_IGNORE, &last);
    if (k == 0) return;
    if (k < 0 || k > 8) {
        hash_cp(w, wn_fold(cp), prefix);
        return;
    }
    for (utf8proc_ssize_t j = 0; j < k; j++) {
        int32_t c = buf[j];
        if (optional_mark(c)) continue;
        hash_cp(w, c == 0x131 ? 'i' : c, prefix);
    }
}

/* A hash's two low bits are its weight as a word (wn_words_weight), and
 * are left out when hashes are compared: a word of letters weighs one; a
 * run of k characters written without spaces, about k/2 words, weighs k/2
 * spread over its k - 1 pairs (one pair of two characters, a word; two of
 * three, 3/4 each; of four or five, 5/8 each; of more, a half each, as
 * does a lone character). */
#define WEIGHT_BITS 3ull
static const double class_weight[4] = { 1.0, 0.75, 0.625, 0.5 };

static uint64_t run_class(size_t chars) { return chars <= 2 ? 0 : chars == 3 ? 1 : chars <= 5 ? 2 : 3; }

/* The words of s being hashed: the word or the run without spaces it is
 * in. */
typedef struct word_scan {
    uint64_t *out;
    size_t count, cap, prefix, min_len;
    word_hash w;
    int in_word, digit_first;
    int32_t prev;     /* the last character of a run without spaces, or -1 */
    uint64_t lone;    /* that run's first character's hash */
    size_t run, from; /* the run's characters, its first pair's place in out */
} word_scan;

static void put(word_scan *ws, uint64_t h)
{
    if (ws->count < ws->cap) ws->out[ws->count++] = h;
}

static void end_word(word_scan *ws)
{
    if (ws->in_word && (ws->min_len <= 1 || (ws->w.m >= ws->min_len && !ws->digit_first)))
        put(ws, ws->w.h & ~WEIGHT_BITS);
    ws->in_word = 0;
}

static void end_run(word_scan *ws)
{
    if (ws->prev < 0) return;
    if (ws->run == 1) {
        if (ws->min_len <= 1) put(ws, (ws->lone & ~WEIGHT_BITS) | 3);
    } else {
        for (size_t k = ws->from; k < ws->count; k++) ws->out[k] = (ws->out[k] & ~WEIGHT_BITS) | run_class(ws->run);
    }
    ws->prev = -1;
}

/* The words of s hashed, at most cap. Words of letters: each word's first
 * `prefix` code points folded, words under min_len code points or opening
 * with a digit (when min_len > 1) left out. Text without spaces: its pairs
 * of characters (a lone character a word alone, left out when min_len >
 * 1). */
static size_t hash_words(const char *s, size_t n, uint64_t *out, size_t cap, size_t prefix, size_t min_len)
{
    word_scan ws = { .out = out, .cap = cap, .prefix = prefix, .min_len = min_len, .prev = -1 };
    size_t i = 0;
    while (i < n && ws.count < cap) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80) {
            /* ASCII, most of most titles: a letter or digit, else a separator */
            i++;
            if (wn_ascii_alnum(b)) {
                if (ws.prev >= 0) end_run(&ws);
                if (!ws.in_word) {
                    ws.in_word = 1;
                    ws.w = (word_hash){ 0xcbf29ce484222325ull, 0 };
                    ws.digit_first = (unsigned)b - '0' < 10u;
                }
                hash_cp(&ws.w, (unsigned)b - 'A' < 26u ? b | 0x20 : b, prefix);
            } else {
                if (ws.in_word) end_word(&ws);
                if (ws.prev >= 0) end_run(&ws);
            }
            continue;
        }
        int32_t cp = wn_utf8_next(s, n, &i);
        wn_cclass cc = guillemet(cp) ? WN_CC_WORD : wn_char_class(cp);
        if (cc == WN_CC_WORD || cc == WN_CC_OTHER) {
            end_run(&ws);
            if (!ws.in_word) {
                ws.in_word = 1;
                ws.w = (word_hash){ 0xcbf29ce484222325ull, 0 };
                ws.digit_first = cp < 0x80 ? (unsigned)cp - '0' < 10u : utf8proc_category(cp) == UTF8PROC_CATEGORY_ND;
            }
            fold_into(&ws.w, cp, prefix);
            continue;
        }
        end_word(&ws);
        if (cc != WN_CC_CJK) {
            end_run(&ws);
            continue;
        }
        int32_t f = wn_fold(cp);
        word_hash h = { 0xcbf29ce484222325ull, 0 };
        if (ws.prev >= 0) {
            hash_cp(&h, ws.prev, SIZE_MAX);
            hash_cp(&h, f, SIZE_MAX);
            put(&ws, h.h);
            ws.run++;
        } else {
            hash_cp(&h, f, SIZE_MAX);
            ws.lone = h.h;
            ws.run = 1;
            ws.from = ws.count;
        }
        ws.prev = f;
    }
    end_word(&ws);
    end_run(&ws);
    return ws.count;
}

size_t wn_words_of(const char *s, size_t n, uint64_t *out, size_t cap)
{
    return hash_words(s, n, out, cap, SIZE_MAX, 1);
}

/* a number ("2017") is no word of a story's own */
size_t wn_stems_of(const char *s, size_t n, uint64_t *out, size_t cap) { return hash_words(s, n, out, cap, 5, 4); }

double wn_words_weight(const uint64_t *w, size_t n)
{
    double weight = 0.0;
    for (size_t i = 0; i < n; i++) weight += class_weight[w[i] & WEIGHT_BITS];
    return weight;
}

double wn_words_shared_weight(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    double shared = 0.0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (((a[i] ^ b[j]) & ~WEIGHT_BITS) == 0) {
                shared += class_weight[a[i] & WEIGHT_BITS];
                break;
            }
    return shared;
}

int wn_words_run(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    if (!na || na > nb) return 0;
    for (size_t at = 0; at + na <= nb; at++) {
        size_t k = 0;
        while (k < na && ((a[k] ^ b[at + k]) & ~WEIGHT_BITS) == 0) k++;
        if (k == na) return 1;
    }
    return 0;
}

size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t shared = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (((a[i] ^ b[j]) & ~WEIGHT_BITS) == 0) {
                shared++;
                break;
            }
    return shared;
}
