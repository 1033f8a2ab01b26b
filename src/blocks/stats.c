#include "stats.h"
#include "../util/fnv.h"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
/* inlined: the hashes are the library's, without a call per short string */
#define XXH_INLINE_ALL
#include <xxhash.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../text/text.h"

const char *const wn_hist_names[WN_HIST_N] = { "a",   "p",  "div",  "inline", "li",      "list", "table", "heading",
                                               "img", "br", "form", "format", "section", "pre",  "quote", "other" };

static int hist_bucket(unsigned tag)
{
    switch (tag) {
    case WN_TAG_A: return WN_HIST_A;
    case WN_TAG_P: return WN_HIST_P;
    case WN_TAG_DIV: return WN_HIST_DIV;
    case WN_TAG_SPAN:
    case WN_TAG_FONT:
    case WN_TAG_SMALL:
    case WN_TAG_SUB:
    case WN_TAG_SUP:
    case WN_TAG_ABBR:
    case WN_TAG_TIME:
    case WN_TAG_CITE:
    case WN_TAG_LABEL: return WN_HIST_INLINE;
    case WN_TAG_LI:
    case WN_TAG_DT:
    case WN_TAG_DD: return WN_HIST_LI;
    case WN_TAG_UL:
    case WN_TAG_OL:
    case WN_TAG_DL:
    case WN_TAG_MENU:
    case WN_TAG_DIR: return WN_HIST_LIST;
    case WN_TAG_IMG:
    case WN_TAG_PICTURE:
    case WN_TAG_FIGURE:
    case WN_TAG_SVG: return WN_HIST_IMG;
    case WN_TAG_BR:
    case WN_TAG_HR: return WN_HIST_BR;
    case WN_TAG_FORM:
    case WN_TAG_INPUT:
    case WN_TAG_BUTTON:
    case WN_TAG_FIELDSET:
    case WN_TAG_OPTION: return WN_HIST_FORM;
    case WN_TAG_B:
    case WN_TAG_I:
    case WN_TAG_EM:
    case WN_TAG_STRONG:
    case WN_TAG_U:
    case WN_TAG_MARK: return WN_HIST_FORMAT;
    case WN_TAG_ARTICLE:
    case WN_TAG_SECTION:
    case WN_TAG_MAIN:
    case WN_TAG_NAV:
    case WN_TAG_ASIDE:
    case WN_TAG_HEADER:
    case WN_TAG_FOOTER: return WN_HIST_SECTION;
    case WN_TAG_PRE:
    case WN_TAG_CODE:
    case WN_TAG_KBD:
    case WN_TAG_SAMP: return WN_HIST_PRE;
    case WN_TAG_BLOCKQUOTE:
    case WN_TAG_Q: return WN_HIST_QUOTE;
    default:
        if (wn_tag_has(tag, WN_TF_HEADING)) return WN_HIST_HEADING;
        if (wn_tag_has(tag, WN_TF_TABLE)) return WN_HIST_TABLE;
        return WN_HIST_OTHER;
    }
}

/* saturating: a huge subtree's counts stop at 65535 */
static void hist_add(uint16_t *dst, const uint16_t *src)
{
#if defined(__SSE2__)
    _Static_assert(WN_HIST_N == 16, "two 8-lane vectors");
    for (int k = 0; k < WN_HIST_N; k += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(dst + k));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + k));
        _mm_storeu_si128((__m128i *)(void *)(dst + k), _mm_adds_epu16(a, b));
    }
#else
    for (int k = 0; k < WN_HIST_N; k++) {
        uint32_t v = (uint32_t)dst[k] + src[k];
        dst[k] = v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
    }
#endif
}

typedef struct scan_state {
    wn_page_text *pt;
    uint32_t cp; /* code points emitted */
    int pending_space;
    int in_word;
    int word_alpha; /* the current word has a letter (not only digits) */
    uint64_t word_hash;
    uint32_t words_cap;
} scan_state;

/* A word's hash carries in bit 0 whether it has a letter: I-Match leaves
 * number-only words (dates, counters) out. */
#define WORD_KEY(h, alpha) (((h) & ~1ull) | (uint64_t)((alpha) != 0))

static void end_word(scan_state *s)
{
    if (s->in_word && s->pt->nwords < s->words_cap)
        s->pt->words[s->pt->nwords++] = WORD_KEY(s->word_hash, s->word_alpha);
    s->in_word = 0;
}

/* wn_char_class of the ASCII characters (WN_CC_SPACE, _WORD, _PUNCT, _OTHER) */
static const uint8_t ascii_class[128] = {
    4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    0, 3, 3, 3, 4, 3, 3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 4, 4, 4, 3,
    3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 4, 3,
    4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4, 3, 4, 4,
};

/* the ASCII white space of ascii_class (WN_CC_SPACE); 0 for every other byte */
static const uint8_t ascii_space[256] = { ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1 };

/* ASCII letters and digits, case-folded; 0 for every other byte. Folded
 * letters have bit 0x40, digits do not. */
static const uint8_t alnum_fold[256] = {
    ['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4', ['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8',
    ['9'] = '9',
#define L(c) [c] = c, [c - 32] = c
    L('a'),      L('b'),      L('c'),      L('d'),      L('e'),      L('f'),      L('g'),      L('h'),      L('i'),
    L('j'),      L('k'),      L('l'),      L('m'),      L('n'),      L('o'),      L('p'),      L('q'),      L('r'),
    L('s'),      L('t'),      L('u'),      L('v'),      L('w'),      L('x'),      L('y'),      L('z'),
#undef L
};

/* One text node's bytes, once: the folded text, characters, words and
 * their hashes, punctuation. Over the house's 150 lines on purpose: it is
 * the statistics' hot loop, its state in locals (see inside); split into
 * functions per byte class, that state would have to go through memory
 * between them. */
static void scan_text(scan_state *s, const char *t, size_t n, wn_stats *st)
{
    /* Hot loop: state lives in locals, written back at the end, because
     * every store into the text buffer (a char*) would otherwise force the
     * compiler to reload all of it. */
    char *out = s->pt->text;
    uint64_t *wout = s->pt->words;
    uint32_t len = s->pt->len, nwords = s->pt->nwords, wcap = s->words_cap;
    uint32_t cp_count = s->cp, chars = 0, words = 0, punct = 0, commas = 0, stops = 0, code = 0;
    int pending = s->pending_space, in_word = s->in_word, alpha = s->word_alpha;
    int greek = 0; /* the last character was a Greek letter */
    uint64_t wh = s->word_hash;
    size_t i = 0;
#define PUSH_WORD()                                                                                                    \
    do {                                                                                                               \
        if (in_word && nwords < wcap) wout[nwords++] = WORD_KEY(wh, alpha);                                            \
        in_word = 0;                                                                                                   \
    } while (0)
    while (i < n) {
        unsigned char b = (unsigned char)t[i];
        if (b < 0x80) {
            unsigned c = ascii_class[b];
            if (c == WN_CC_WORD) {
                /* a run of ASCII letters and digits, the bulk of most pages */
                greek = 0;
                if (pending) {
                    if (len) {
                        out[len++] = ' ';
                        cp_count++;
                    }
                    pending = 0;
                }
                if (!in_word) {
                    in_word = 1;
                    alpha = 0;
                    wh = WN_FNV_OFFSET;
                    words++;
                }
                for (;;) {
                    size_t j = i;
                    unsigned f = alnum_fold[b], seen = 0;
                    do {
                        out[len++] = (char)f;
                        seen |= f;
                        wh = (wh ^ f) * WN_FNV_PRIME;
                        if (++j == n) break;
                        f = alnum_fold[(unsigned char)t[j]];
                    } while (f);
                    alpha |= (seen & 0x40) != 0;
                    cp_count += (uint32_t)(j - i);
                    chars += (uint32_t)(j - i);
                    i = j;
                    /* one space, then the next word: the commonest case,
                     * handled here without the dispatch above */
                    if (j + 1 >= n || t[j] != ' ' || !alnum_fold[(unsigned char)t[j + 1]]) break;
                    if (nwords < wcap) wout[nwords++] = WORD_KEY(wh, alpha);
                    out[len++] = ' ';
                    cp_count++;
                    alpha = 0;
                    wh = WN_FNV_OFFSET;
                    words++;
                    i = j + 1;
                    b = (unsigned char)t[i];
                }
                continue;
            }
            i++;
            if (c == WN_CC_SPACE) {
                greek = 0;
                pending = 1;
                PUSH_WORD();
                /* the rest of a run of white space (indentation, line
                 * breaks) changes nothing more: skipped at once */
                while (i < n && ascii_space[(unsigned char)t[i]]) i++;
                continue;
            }
            /* punctuation and other symbols: one byte, no case */
            if (pending) {
                if (len) {
                    out[len++] = ' ';
                    cp_count++;
                }
                pending = 0;
            }
            out[len++] = (char)b;
            cp_count++;
            chars++;
            PUSH_WORD();
            /* script marks: braces, and = glued to what follows (a=b, ==), not
             * the spaced = of prose and rendered equations */
            code += (b == '{') + (b == '}') +
                    (b == '=' && i < n && (unsigned char)t[i] > ' ' && (unsigned char)t[i] < 0x80);
            if (c == WN_CC_PUNCT) {
                punct++;
                commas += b == ',';
                /* a ';' right after a Greek letter is the Greek question mark */
                stops += b == '.' || b == '!' || b == '?' || (b == ';' && greek);
            }
            greek = 0;
            continue;
        }
        int32_t cp = wn_utf8_next(t, n, &i);
        wn_cclass cc = wn_char_class(cp);
        greek = cc == WN_CC_WORD && wn_greek_letter(cp);
        if (cc == WN_CC_SPACE) {
            pending = 1;
            PUSH_WORD();
            continue;
        }
        if (pending) {
            if (len) {
                out[len++] = ' ';
                cp_count++;
            }
            pending = 0;
        }
        int32_t f = wn_fold(cp);
        char enc[4];
        size_t el = wn_utf8_put(enc, f);
        memcpy(out + len, enc, el);
        len += (uint32_t)el;
        cp_count++;
        chars++;
        if (cc == WN_CC_WORD) {
            if (!in_word) {
                in_word = 1;
                alpha = 0;
                wh = WN_FNV_OFFSET;
                words++;
            }
            alpha = 1; /* non-ASCII word characters: letters and marks, almost always */
            for (size_t k = 0; k < el; k++) wh = (wh ^ (unsigned char)enc[k]) * WN_FNV_PRIME;
            continue;
        }
        PUSH_WORD();
        if (cc == WN_CC_CJK) {
            uint64_t h = WN_FNV_OFFSET;
            for (size_t k = 0; k < el; k++) h = (h ^ (unsigned char)enc[k]) * WN_FNV_PRIME;
            if (nwords < wcap) wout[nwords++] = WORD_KEY(h, 1);
            words++;
            st->cjk++;
        } else if (cc == WN_CC_PUNCT) {
            /* every script's commas and sentence stops (text.h) */
            punct++;
            commas += (uint32_t)wn_comma(cp);
            stops += (uint32_t)wn_sentence_stop(cp);
        }
    }
#undef PUSH_WORD
    s->pt->len = len;
    s->pt->nwords = nwords;
    s->cp = cp_count;
    s->pending_space = pending;
    s->in_word = in_word;
    s->word_alpha = alpha;
    s->word_hash = wh;
    st->chars += chars;
    st->words += words;
    st->punct += punct;
    st->commas += commas;
    st->stops += stops;
    code += st->code_syms;
    st->code_syms = (uint16_t)(code > 0xFFFFu ? 0xFFFFu : code);
}

/* Distinct words of every element's word range, exactly, in one pass over
 * the words. A position p counts towards the ranges that hold p but not the
 * previous occurrence of the same word, prev(p). Ranges are subtrees, so
 * those are the ancestors of p's owner (the deepest node holding p) below
 * the deepest one that also holds prev(p): +1 at the owner, -1 at that
 * ancestor, and every subtree's sum of these deltas is its number of
 * distinct words. The ancestor is found on the stack of the owner's
 * ancestors, whose ranges begin in increasing order. */
typedef struct dw_slot {
    uint32_t id1; /* its number (in order of first occurrence) + 1; 0 marks an empty slot */
    uint32_t pos; /* its last position */
} dw_slot;        /* the word itself is dkeys[id1 - 1]: 8 bytes a slot, not 16 */

typedef struct dw_state {
    const uint64_t *words;
    uint32_t nwords, pos;
    dw_slot *tab;
    uint32_t bits, count;
    int32_t *delta;
    uint32_t *word_id; /* out, per word position: its number (in the page arena) */
    uint64_t *dkeys;   /* per number: the word, room for half the table's slots */
    uint32_t *stack, *stack_end, *stack_wb, sp;
    uint32_t *wb; /* malloc'd, with delta, stack, stack_end and tab: freed by dw_free */
} dw_state;

static void dw_free(dw_state *d)
{
    free(d->tab);
    free(d->delta);
    free(d->stack);
    free(d->stack_end);
    free(d->wb);
    free(d->dkeys);
    memset(d, 0, sizeof *d);
}

/* The distinct-word pass's tables are the statistics' scratch: malloc'd
 * and freed when the counts are done, not kept in the page arena. */
static int dw_init(dw_state *d, wn_page_text *pt, uint32_t n, wn_arena *arena)
{
    memset(d, 0, sizeof *d);
    d->words = pt->words;
    d->nwords = pt->nwords;
    if (!d->nwords) return 0;
    d->word_id = pt->word_id = wn_arena_array(arena, d->nwords, sizeof(uint32_t));
    if (d->nwords > (uint32_t)INT32_MAX) return -1; /* positions compare as int32 below */
    /* a page has fewer distinct words than words, most pages about half as
     * many: a slot a word rarely grows (and copies) the table; a long page,
     * which repeats a smaller share of its words, starts at 65,536 slots
     * and grows (sized by its words, 10 MB of prose with 19 distinct words
     * took a table of 8 MB, zeroed) */
    uint32_t start = d->nwords <= (1u << 16) ? d->nwords : 1u << 16;
    d->bits = 8;
    while (d->bits < 30 && (1u << d->bits) < start) d->bits++;
    d->tab = calloc((size_t)1 << d->bits, sizeof(dw_slot));
    d->dkeys = malloc(((size_t)1 << (d->bits - 1)) * sizeof(uint64_t));
    d->delta = malloc((size_t)n * sizeof(int32_t));
    d->stack = malloc((size_t)n * sizeof(uint32_t));
    d->stack_end = malloc((size_t)n * sizeof(uint32_t));
    /* 8 zeros before the stack's bottom: the search reads 8 entries at once,
     * all of them pushed or these zeros, so the rest needs no zeroing */
    d->wb = malloc(((size_t)n + 8) * sizeof(uint32_t));
    if (d->wb) memset(d->wb, 0, 8 * sizeof(uint32_t));
    d->stack_wb = d->wb ? d->wb + 8 : NULL;
    return d->word_id && d->dkeys && d->tab && d->delta && d->stack && d->stack_end && d->stack_wb ? 0 : -1;
}

static uint32_t dw_hash(uint64_t h, uint32_t bits)
{
    /* Fibonacci hashing: the top bits of a multiplicative mix spread even
     * similar word hashes over the table */
    return (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static int dw_grow(dw_state *d)
{
    uint32_t bits = d->bits + 1, size = 1u << bits;
    dw_slot *t = calloc(size, sizeof(dw_slot));
    if (!t) return -1;
    uint64_t *k2 = realloc(d->dkeys, ((size_t)size / 2) * sizeof(uint64_t));
    if (!k2) {
        free(t);
        return -1;
    }
    d->dkeys = k2;
    for (uint32_t k = 0; k < (1u << d->bits); k++) {
        if (!d->tab[k].id1) continue;
        uint32_t slot = dw_hash(k2[d->tab[k].id1 - 1], bits);
        while (t[slot].id1) slot = (slot + 1) & (size - 1);
        t[slot] = d->tab[k];
    }
    free(d->tab);
    d->tab = t;
    d->bits = bits;
    return 0;
}

/* Node i in document order, with its range begun at w_begin: the words
 * it owns are those before the next node's range begins (next_wb). */
static int dw_node(dw_state *d, uint32_t i, uint32_t size, uint32_t w_begin, uint32_t next_wb)
{
    if (!d->nwords) return 0;
    d->delta[i] = 0;
    while (d->sp && d->stack_end[d->sp - 1] <= i) d->sp--;
    uint32_t sp = d->sp;
    d->stack[sp] = i;
    d->stack_end[sp] = i + size;
    d->stack_wb[sp] = w_begin;
    d->sp = ++sp;
    if (d->pos >= next_wb) return 0;
    d->delta[i] = (int32_t)(next_wb - d->pos);
    for (; d->pos < next_wb; d->pos++) {
        if (d->count * 2 >= (1u << d->bits) && dw_grow(d) != 0) return -1;
        uint32_t mask = (1u << d->bits) - 1;
        uint64_t h = d->words[d->pos] | 1;
        uint32_t slot = dw_hash(h, d->bits);
        dw_slot *t = d->tab;
        const uint64_t *keys = d->dkeys;
        while (t[slot].id1 && keys[t[slot].id1 - 1] != h) slot = (slot + 1) & mask;
        if (t[slot].id1) {
            uint32_t prev = t[slot].pos;
            /* deepest ancestor whose range begins at or before prev:
             * usually one of the innermost (a word repeated nearby) */
            const uint32_t *wb = d->stack_wb;
            uint32_t k = sp - 1;
#if defined(__SSE2__)
            /* the ranges that begin after prev are the innermost ones:
             * count them among the top 8 (the root's 0 stops the count) */
            __m128i pv = _mm_set1_epi32((int)prev);
            __m128i lo8 = _mm_loadu_si128((const __m128i *)(const void *)(wb + sp - 8));
            __m128i hi8 = _mm_loadu_si128((const __m128i *)(const void *)(wb + sp - 4));
            unsigned above = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(lo8, pv))) |
                             (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(hi8, pv))) << 4;
            k -= 8u - (uint32_t)__builtin_ctz(above | 0x100u); /* the set bits are the top ones */
#else
            uint32_t floor = k > 8 ? k - 8 : 0;
            while (k > floor && wb[k] > prev) k--;
#endif
            if (wb[k] > prev) {
                uint32_t lo = 0, hi = k; /* wb[lo] <= prev < wb[hi] (wb[0] is 0) */
                while (hi - lo > 1) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (wb[mid] <= prev)
                        lo = mid;
                    else
                        hi = mid;
                }
                k = lo;
            }
            d->delta[d->stack[k]]--;
        } else {
            d->dkeys[d->count] = h;
            t[slot].id1 = ++d->count;
        }
        t[slot].pos = d->pos;
        d->word_id[d->pos] = t[slot].id1 - 1;
    }
    return 0;
}

/* Learning asks only whether a block candidate has WN_BLOCK_MIN_WORDS
 * distinct words: every node keeps up to that many of its distinct words (hash | 1), its own
 * first, then its children's, merged bottom-up. */
typedef struct three_words {
    uint64_t w[WN_BLOCK_MIN_WORDS];
} three_words;

static void three_add(three_words *t, uint8_t *cnt, uint64_t h)
{
    for (uint8_t k = 0; k < *cnt; k++)
        if (t->w[k] == h) return;
    t->w[(*cnt)++] = h;
}

/* pages with more nodes, or more distinct-word slots, give their scratch
 * back to the system at once */
#define STATS_TRIM_NODES 262144u
#define STATS_TRIM_SLOTS 262144u

static int stats_run(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt, int learn,
                     wn_hint_cache *hints, const wn_stats_rules *rules);

/* The text scan's tokenisation and hashing (case folding, word characters,
 * one word per CJK character) for a string outside the page text, such as
 * the title. */
uint32_t wn_word_keys(const char *s, size_t n, uint64_t *out, uint32_t cap)
{
    uint32_t count = 0;
    int in_word = 0, alpha = 0;
    uint64_t h = WN_FNV_OFFSET;
    size_t i = 0;
    while (i < n && count < cap) {
        int32_t cp = wn_utf8_next(s, n, &i);
        wn_cclass cc = wn_char_class(cp);
        if (cc == WN_CC_WORD) {
            char enc[4];
            size_t el = wn_utf8_put(enc, wn_fold(cp));
            if (!in_word) {
                in_word = 1;
                alpha = 0;
                h = WN_FNV_OFFSET;
            }
            if (cp > '9' || cp < '0') alpha = 1;
            for (size_t k = 0; k < el; k++) h = (h ^ (unsigned char)enc[k]) * WN_FNV_PRIME;
            continue;
        }
        if (in_word) {
            out[count++] = WORD_KEY(h, alpha);
            in_word = 0;
        }
        if (cc == WN_CC_CJK && count < cap) {
            char enc[4];
            size_t el = wn_utf8_put(enc, wn_fold(cp));
            uint64_t c = WN_FNV_OFFSET;
            for (size_t k = 0; k < el; k++) c = (c ^ (unsigned char)enc[k]) * WN_FNV_PRIME;
            out[count++] = WORD_KEY(c, 1);
        }
    }
    if (in_word && count < cap) out[count++] = WORD_KEY(h, alpha);
    return count;
}

int wn_stats_compute(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt, wn_hint_cache *hints,
                     const wn_stats_rules *rules)
{
    return stats_run(dom, arena, out, pt, 0, hints, rules);
}

int wn_stats_compute_learn(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt)
{
    /* learning reads no hints: the anchor words are not used */
    const wn_stats_rules none = { 0 };
    return stats_run(dom, arena, out, pt, 1, NULL, &none);
}

/* The first pass, in pre-order: each node's own counts, its text and
 * words appended to the page text, and an element's hints and path hash.
 * boundary[] marks where a line-breaking element's subtree ends (set for
 * later nodes, read as they come). */
static void stats_scan(const wn_dom *dom, wn_stats *st, uint8_t *boundary, scan_state *s, int learn,
                       wn_hint_cache *cache, const wn_stats_rules *rules)
{
    uint32_t n = dom->count;
    wn_page_text *pt = s->pt;
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        wn_stats *sx = &st[i];
        memset(sx, 0, sizeof *sx);
        int brk =
            boundary[i] || wn_tag_has(x->tag, WN_TF_BREAK) || x->tag == WN_TAG_BR || wn_tag_has(x->tag, WN_TF_TABLE);
        if (brk) {
            s->pending_space = 1;
            end_word(s);
        }
        sx->nt_begin = pt->len;
        sx->w_begin = pt->nwords;
        sx->text_cp = s->cp; /* start, turned into a length below */
        if (x->tag == WN_TAG_TEXT) {
            if (!(x->flags & WN_NF_HIDDEN)) {
                scan_text(s, dom->text + x->text_begin, x->text_len, sx);
                if (x->flags & WN_NF_LINK) sx->link_chars = sx->chars;
            }
        } else if (i > 0) {
            sx->elements = 1;
            if (!(x->flags & WN_NF_HIDDEN)) {
                if (!learn) sx->hist[hist_bucket(x->tag)] = 1;
                if (x->flags & WN_NF_LINK && x->tag == WN_TAG_A) sx->links = 1;
                if (x->tag == WN_TAG_IMG) sx->images = 1;
            }
            for (uint32_t k = 0; k < x->attr_count && !learn; k++) {
                const wn_attr *at = &dom->attrs[x->attr_begin + k];
                int is_id = at->name_len == 2 && memcmp(at->name, "id", 2) == 0;
                if (!is_id && !(at->name_len == 5 && memcmp(at->name, "class", 5) == 0)) continue;
                sx->hints |= wn_hints_from_name_cached(cache, at->value, at->value_len, is_id, &rules->names);
            }
            if (sx->hints & WN_HINT_BOILER) sx->hints &= (uint16_t)~WN_HINT_CONTENT;
            uint64_t ph = x->parent != WN_NONE ? st[x->parent].path_hash : 0;
            sx->path_hash = x->tag != WN_TAG_UNKNOWN ? ph * 0x9E3779B97F4A7C15ull + x->tag + 1
                                                     : XXH3_64bits_withSeed(x->name, strlen(x->name), ph);
            if (brk && (uint64_t)i + x->size <= n) boundary[i + x->size] = 1;
        }
    }
    end_word(s);
}

/* Forward: ranges end where the next node after the subtree begins;
 * text_cp still holds each node's start (later nodes' too; end_cp is the
 * scan's end). Each node's own words go to the distinct-word count (dw),
 * or with learn to its three words. 0, or -1 out of memory. */
static int stats_ranges(const wn_dom *dom, wn_stats *st, const wn_page_text *pt, uint32_t end_cp, int learn,
                        dw_state *dw, three_words *three, uint8_t *three_n)
{
    uint32_t n = dom->count, W = pt->nwords;
    for (uint32_t i = 0; i < n; i++) {
        wn_stats *sx = &st[i];
        uint32_t size = dom->nodes[i].size, after = i + size;
        sx->nt_end = after < n ? st[after].nt_begin : pt->len;
        sx->w_end = after < n ? st[after].w_begin : W;
        sx->text_cp = (after < n ? st[after].text_cp : end_cp) - sx->text_cp;
        uint32_t next_wb = i + 1 < n ? st[i + 1].w_begin : W;
        if (!learn) {
            if (dw_node(dw, i, size, sx->w_begin, next_wb) != 0) return -1;
        } else {
            /* the words node i owns, up to WN_BLOCK_MIN_WORDS distinct */
            for (uint32_t p = sx->w_begin; p < next_wb && three_n[i] < WN_BLOCK_MIN_WORDS; p++)
                three_add(&three[i], &three_n[i], pt->words[p] | 1);
        }
    }
    return 0;
}

/* Counts are subtree sums: children before parents in reverse order
 * (delta: the distinct-word differences, NULL with learn). */
static void stats_sums(const wn_dom *dom, wn_stats *st, int learn, uint32_t W, int32_t *delta, three_words *three,
                       uint8_t *three_n)
{
    uint32_t n = dom->count;
    for (uint32_t i = n; i-- > 1;) {
        const wn_stats *c = &st[i];
        uint32_t par = dom->nodes[i].parent;
        wn_stats *p = &st[par];
        p->chars += c->chars;
        p->words += c->words;
        p->punct += c->punct;
        p->commas += c->commas;
        p->stops += c->stops;
        p->cjk += c->cjk;
        p->link_chars += c->link_chars;
        p->links += c->links;
        p->images += c->images;
        p->elements += c->elements;
        if (!learn) {
            hist_add(p->hist, c->hist);
            if (W) delta[par] += delta[i];
        } else {
            for (uint8_t k = 0; k < three_n[i] && three_n[par] < WN_BLOCK_MIN_WORDS; k++)
                three_add(&three[par], &three_n[par], three[i].w[k]);
        }
    }
}

/* Each node's distinct words, trimmed text range (tb, te), block flag and
 * fingerprint; in pre-order, so a parent's are there before its
 * children's. */
static void stats_fingerprints(const wn_dom *dom, wn_stats *st, const wn_page_text *pt, int learn, uint32_t W,
                               const int32_t *delta, const uint8_t *three_n, uint32_t *tb, uint32_t *te)
{
    uint32_t n = dom->count;
    for (uint32_t i = 0; i < n; i++) {
        wn_stats *sx = &st[i];
        const wn_node *x = &dom->nodes[i];
        if (!learn && W && sx->w_end > sx->w_begin && x->tag != WN_TAG_TEXT)
            sx->distinct_words = delta[i] > 0 ? (uint32_t)delta[i] : 0;
        uint32_t b = sx->nt_begin, e = sx->nt_end;
        while (b < e && pt->text[b] == ' ') b++;
        while (e > b && pt->text[e - 1] == ' ') e--;
        tb[i] = b;
        te[i] = e;
        uint32_t trimmed = (sx->nt_end - sx->nt_begin) - (e - b); /* spaces: one byte, one code point */
        sx->text_cp = sx->text_cp > trimmed ? sx->text_cp - trimmed : 0;
        int three_distinct = learn ? three_n[i] >= WN_BLOCK_MIN_WORDS : sx->distinct_words >= WN_BLOCK_MIN_WORDS;
        sx->is_block = x->tag != WN_TAG_TEXT && wn_tag_has(x->tag, WN_TF_BLOCK) && !(x->flags & WN_NF_HIDDEN) &&
                       sx->text_cp >= WN_BLOCK_MIN_CHARS && three_distinct;
        /* learning fingerprints text nodes and blocks only */
        uint32_t par = i ? x->parent : WN_NONE;
        if (e <= b || (learn && x->tag != WN_TAG_TEXT && !sx->is_block))
            sx->fingerprint = 0;
        else if (par != WN_NONE && tb[par] == b && te[par] == e && (!learn || st[par].is_block))
            sx->fingerprint = st[par].fingerprint;
        else
            sx->fingerprint = XXH3_64bits(pt->text + b, e - b);
    }
}

static int stats_run(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt, int learn,
                     wn_hint_cache *hints, const wn_stats_rules *rules)
{
    /* a cache for this page alone starts empty (zero keys; each slot's
     * bits sit beside its key, zeroed with it) */
    wn_hint_cache *cache = hints;
    if (!learn && !cache) {
        cache = wn_arena_alloc(arena, sizeof *cache);
        if (!cache) return -1;
        memset(cache, 0, sizeof *cache);
    }
    uint32_t n = dom->count;
    /* not zeroed here: the first pass below zeroes each node's entry as it
     * reaches it (it reads only entries before it), one pass over the array
     * instead of two */
    wn_stats *st = wn_arena_array(arena, n, sizeof(wn_stats));
    /* scratch, freed before returning */
    uint8_t *boundary = calloc((size_t)n + 1, 1);
    uint32_t *cpb = malloc((size_t)n * sizeof(uint32_t) + 1);
    uint32_t *te = NULL;
    three_words *three = NULL;
    uint8_t *three_n = NULL;
    dw_state dw;
    memset(&dw, 0, sizeof dw);
    int rc = -1;
    memset(pt, 0, sizeof *pt);
    /* folding can grow a code point from 1 to 3 bytes (rare: U+0130 etc.) */
    size_t cap = dom->text_len * 3 + 16;
    pt->text = wn_arena_alloc(arena, cap > UINT32_MAX ? UINT32_MAX : cap);
    uint32_t wcap = (uint32_t)(dom->text_len / 2 + 16);
    pt->words = wn_arena_alloc(arena, (size_t)wcap * sizeof(uint64_t));
    if (!st || !boundary || !cpb || !pt->text || !pt->words) goto done;

    scan_state s = { .pt = pt, .words_cap = wcap };
    stats_scan(dom, st, boundary, &s, learn, cache, rules);

    uint32_t W = pt->nwords;
    if (!learn) {
        if (dw_init(&dw, pt, n, arena) != 0) goto done;
    } else {
        three = malloc(((size_t)n + 1) * sizeof *three);
        three_n = calloc((size_t)n + 1, 1);
        if (!three || !three_n) goto done;
    }
    /* forward: ranges end where the next node after the subtree begins */
    if (stats_ranges(dom, st, pt, s.cp, learn, &dw, three, three_n) != 0) goto done;
    /* the distinct words by number, into the page arena */
    if (!learn && dw.count) {
        pt->distinct = wn_arena_array(arena, dw.count, sizeof(uint64_t));
        if (!pt->distinct) goto done;
        memcpy(pt->distinct, dw.dkeys, (size_t)dw.count * sizeof(uint64_t));
        pt->ndistinct = dw.count;
    }
    /* counts are subtree sums */
    int32_t *delta = learn ? NULL : dw.delta;
    stats_sums(dom, st, learn, W, delta, three, three_n);
    /* trimmed text ranges: a node whose range is its parent's (a link
     * alone in its list item, a paragraph's only text) takes the parent's
     * fingerprint instead of hashing the same bytes again */
    uint32_t *tb = cpb;
    te = malloc((size_t)n * sizeof(uint32_t) + 1);
    if (!te) goto done;
    stats_fingerprints(dom, st, pt, learn, W, delta, three_n, tb, te);
    *out = st;
    rc = 0;
done:;
    int trim = n > STATS_TRIM_NODES || (dw.tab && (1u << dw.bits) > STATS_TRIM_SLOTS);
    free(boundary);
    free(cpb);
    free(te);
    free(three);
    free(three_n);
    dw_free(&dw);
#ifdef __GLIBC__
    /* a large page's scratch was heap memory the allocator keeps; what the
     * rest of the pipeline allocates it does not reuse (mapped apart) */
    if (trim) malloc_trim(0);
#else
    (void)trim;
#endif
    return rc;
}
