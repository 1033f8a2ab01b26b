#include "headline.h"

#include "../text/text.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* Bytes of a separator at s[i]: ASCII other than letters and digits, and
 * the ellipsis (U+2026), so that "Ama..." and "Ama\u2026" are one word;
 * 0 for a word byte. (Curly quotes stay inside words: a headline written
 * "won\u2019t" is matched against the title's own spelling.) */
static int ascii_alnum(unsigned c) { return (c | 0x20) - 'a' < 26u || c - '0' < 10u; }

static size_t separator(const char *s, size_t i, size_t n)
{
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) return ascii_alnum(c) ? 0 : 1;
    if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 && (unsigned char)s[i + 2] == 0xA6) return 3;
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

/* A unit of one "word" (CJK text has no spaces: "Docker常用命令") is the
 * headline when its text is a part of the title making up at least a third
 * of it. */
static int title_part(const winnow_doc *d, uint32_t i, const wn_title *tt)
{
    const wn_stats *s = &d->stats[i];
    const char *u = d->page_text.text + s->nt_begin;
    size_t n = s->nt_end - s->nt_begin;
    while (n && u[0] == ' ') { u++; n--; }
    while (n && u[n - 1] == ' ') n--;
    if (n < 6 || n * 3 < tt->len || n > tt->len) return 0;
    /* only text written without spaces: at least two characters of three
     * UTF-8 bytes (CJK); a one-word Latin unit is a section or tag name */
    int wide = 0;
    for (size_t j = 0; j < n; j++) wide += (unsigned char)u[j] >= 0xE0;
    if (wide < 2) return 0;
    for (size_t j = 0; j + n <= tt->len; j++)
        if (tt->lower[j] == u[0] && memcmp(tt->lower + j, u, n) == 0) return 1;
    return 0;
}

size_t wn_words_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t shared = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (a[i] == b[j]) { shared++; break; }
    return shared;
}

int wn_title_like(const winnow_doc *d, uint32_t i, const wn_title *tt)
{
    const uint64_t *title = tt->words;
    size_t nt = tt->nwords;
    const wn_stats *s = &d->stats[i];
    if (s->chars < 8 || s->chars > 300) return 0;
    uint64_t unit[64];
    size_t nu = wn_words_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, unit, 64);
    if (nu == 1) return title_part(d, i, tt);
    if (nu < 2 || nu > 40) return 0;
    size_t shared = wn_words_shared(unit, nu, title, nt);
    if ((float)shared < WN_RULE(d, TITLE_WORD_SHARE) * (float)nu) return 0;
    if ((float)shared >= WN_RULE(d, TITLE_COVER) * (float)nt) return 1;
    /* a title with a long subtitle or section name: a heading carrying
     * three or more of its words is the headline */
    unsigned tag = d->dom.nodes[i].tag;
    int heading = tag == WN_TAG_H1 || tag == WN_TAG_H2 || tag == WN_TAG_H3 || (s->hints & WN_HINT_TITLE);
    return heading && shared >= 3;
}

/* The document title as words and as folded text; 0 when it has fewer
 * than two words (no evidence). */
int wn_title_init(const winnow_doc *d, uint64_t *words, wn_title *tt)
{
    const wn_dom *dom = &d->dom;
    size_t nt = dom->title ? wn_words_of(dom->title, strlen(dom->title), words, 64) : 0;
    tt->words = words;
    tt->nwords = nt;
    tt->len = 0;
    if (nt < 2) return 0;
    /* the page text is case-folded with runs of spaces collapsed */
    int space = 1;
    const size_t tn = strlen(dom->title);
    for (size_t i = 0; i < tn && tt->len + 4 <= sizeof tt->lower;) {
        unsigned char b = (unsigned char)dom->title[i];
        if (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
            if (!space) tt->lower[tt->len++] = ' ';
            space = 1;
            i++;
            continue;
        }
        if (b < 0x80) {
            tt->lower[tt->len++] = (char)tolower(b);
            i++;
        } else {
            tt->len += wn_utf8_put(tt->lower + tt->len, wn_fold(wn_utf8_next(dom->title, tn, &i)));
        }
        space = 0;
    }
    while (tt->len && tt->lower[tt->len - 1] == ' ') tt->len--;
    return 1;
}

uint32_t wn_title_heading(const winnow_doc *d)
{
    const wn_dom *dom = &d->dom;
    uint64_t title[64];
    wn_title tt;
    if (!wn_title_init(d, title, &tt)) return WN_NONE;
    uint32_t h = WN_NONE;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (!wn_tag_has(x->tag, WN_TF_HEADING) || x->tag > WN_TAG_H3 || (x->flags & WN_NF_HIDDEN)) continue;
        if (d->stats[i].link_chars * 2 > d->stats[i].chars || !wn_title_like(d, i, &tt)) continue;
        if (h == WN_NONE || (x->tag == WN_TAG_H1 && dom->nodes[h].tag != WN_TAG_H1)) h = i;
        if (x->tag == WN_TAG_H1) break;
    }
    return h;
}
