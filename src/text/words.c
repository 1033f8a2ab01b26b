/* Words as hashes: the tokenizer the headline, the title anchoring and the
 * fallback's description match share. A word is a run of bytes between
 * separators, case-folded as the page text is, so a title read raw from
 * <title> or a meta tag matches the folded page text. */
#include "words.h"

#include "text.h"

#include <stdint.h>

/* Bytes of a separator at s[i]: ASCII other than letters and digits, and
 * the typographic punctuation of Latin, Greek and Cyrillic text (curly
 * quotes, dashes, the ellipsis, the no-break space, the middle dot, the
 * pilcrow of a heading's anchor link), so
 * that "\u201CReal Housewives\u201D", "'Real Housewives'" and
 * "\u201EReal Housewives\u201C" are the same two words, "won\u2019t" and
 * "won't" the same, "Ama..." and "Ama\u2026" one word; 0 for a word byte.
 * Guillemets stay words: a breadcrumb's "\u00BB" is no title's word. (CJK
 * punctuation is left alone: CJK text has no spaces, and a one-"word"
 * heading is matched as a part of the title.) */
static size_t separator(const char *s, size_t i, size_t n)
{
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) return wn_ascii_alnum(c) ? 0 : 1;
    if (c == 0xC2 && i + 1 < n) {
        unsigned char c1 = (unsigned char)s[i + 1];
        return c1 == 0xA0 || c1 == 0xB6 || c1 == 0xB7 ? 2 : 0; /* no-break space, pilcrow, middle dot */
    }
    if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80) {
        unsigned char c2 = (unsigned char)s[i + 2];
        /* U+2010..U+201F dashes and quotes, U+2022 bullet, U+2026 ellipsis */
        return (c2 >= 0x90 && c2 <= 0x9F) || c2 == 0xA2 || c2 == 0xA6 ? 3 : 0;
    }
    return 0;
}

/* The words of s hashed, at most cap: each word's first `prefix` bytes
 * case-folded as the page text is (every letter, not only ASCII: a title
 * raw from <title> or a meta tag is matched against folded page text, and
 * "Диета" must be "диета"), words under min_len bytes or opening with
 * a digit (when min_len > 1) left out. */
static size_t hash_words(const char *s, size_t n, uint64_t *out, size_t cap, size_t prefix, size_t min_len)
{
    size_t count = 0, i = 0;
    while (i < n && count < cap) {
        size_t k;
        while (i < n && (k = separator(s, i, n)) != 0) i += k;
        uint64_t h = 0xcbf29ce484222325ull;
        size_t b = i, m = 0; /* m: folded bytes hashed */
        while (i < n && separator(s, i, n) == 0) {
            unsigned c = (unsigned char)s[i];
            if (c < 0x80) {
                if (m++ < prefix) h = (h ^ (c - 'A' < 26u ? c | 0x20 : c)) * 0x100000001b3ull;
                i++;
                continue;
            }
            char enc[4];
            size_t el = wn_utf8_put(enc, wn_fold(wn_utf8_next(s, n, &i)));
            for (size_t e = 0; e < el; e++)
                if (m++ < prefix) h = (h ^ (unsigned char)enc[e]) * 0x100000001b3ull;
        }
        if (i > b && i - b >= min_len && (min_len <= 1 || (unsigned)(unsigned char)s[b] - '0' >= 10u)) out[count++] = h;
    }
    return count;
}

size_t wn_words_of(const char *s, size_t n, uint64_t *out, size_t cap)
{
    return hash_words(s, n, out, cap, SIZE_MAX, 1);
}

/* a number ("2017") is no word of a story's own */
size_t wn_stems_of(const char *s, size_t n, uint64_t *out, size_t cap) { return hash_words(s, n, out, cap, 5, 4); }

size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t shared = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (a[i] == b[j]) {
                shared++;
                break;
            }
    return shared;
}
