#include "stats.h"

#include <string.h>
#include <xxhash.h>

#include "../text/text.h"

const char *const wn_hist_names[WN_HIST_N] = {
    "a", "p", "div", "inline", "li", "list", "table", "heading", "img", "br", "form", "format",
    "section", "pre", "quote", "other"};

static int hist_bucket(unsigned tag)
{
    switch (tag) {
    case WN_TAG_A: return WN_HIST_A;
    case WN_TAG_P: return WN_HIST_P;
    case WN_TAG_DIV: return WN_HIST_DIV;
    case WN_TAG_SPAN: case WN_TAG_FONT: case WN_TAG_SMALL: case WN_TAG_SUB: case WN_TAG_SUP:
    case WN_TAG_ABBR: case WN_TAG_TIME: case WN_TAG_CITE: case WN_TAG_LABEL: return WN_HIST_INLINE;
    case WN_TAG_LI: case WN_TAG_DT: case WN_TAG_DD: return WN_HIST_LI;
    case WN_TAG_UL: case WN_TAG_OL: case WN_TAG_DL: case WN_TAG_MENU: case WN_TAG_DIR: return WN_HIST_LIST;
    case WN_TAG_IMG: case WN_TAG_PICTURE: case WN_TAG_FIGURE: case WN_TAG_SVG: return WN_HIST_IMG;
    case WN_TAG_BR: case WN_TAG_HR: return WN_HIST_BR;
    case WN_TAG_FORM: case WN_TAG_INPUT: case WN_TAG_BUTTON: case WN_TAG_FIELDSET: case WN_TAG_OPTION:
        return WN_HIST_FORM;
    case WN_TAG_B: case WN_TAG_I: case WN_TAG_EM: case WN_TAG_STRONG: case WN_TAG_U: case WN_TAG_MARK:
        return WN_HIST_FORMAT;
    case WN_TAG_ARTICLE: case WN_TAG_SECTION: case WN_TAG_MAIN: case WN_TAG_NAV: case WN_TAG_ASIDE:
    case WN_TAG_HEADER: case WN_TAG_FOOTER: return WN_HIST_SECTION;
    case WN_TAG_PRE: case WN_TAG_CODE: case WN_TAG_KBD: case WN_TAG_SAMP: return WN_HIST_PRE;
    case WN_TAG_BLOCKQUOTE: case WN_TAG_Q: return WN_HIST_QUOTE;
    default:
        if (wn_tag_has(tag, WN_TF_HEADING)) return WN_HIST_HEADING;
        if (wn_tag_has(tag, WN_TF_TABLE)) return WN_HIST_TABLE;
        return WN_HIST_OTHER;
    }
}

static void hist_add(uint16_t *dst, const uint16_t *src)
{
    for (int k = 0; k < WN_HIST_N; k++) {
        uint32_t v = (uint32_t)dst[k] + src[k];
        dst[k] = v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
    }
}

typedef struct scan_state {
    wn_page_text *pt;
    uint32_t cp;         /* code points emitted */
    int pending_space;
    int in_word;
    int word_alpha;      /* the current word has a letter (not only digits) */
    uint64_t word_hash;
    uint32_t words_cap;
} scan_state;

/* A word's hash carries in bit 0 whether it has a letter: I-Match leaves
 * number-only words (dates, counters) out. */
#define WORD_KEY(h, alpha) (((h) & ~1ull) | (uint64_t)((alpha) != 0))

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static void end_word(scan_state *s)
{
    if (s->in_word && s->pt->nwords < s->words_cap) s->pt->words[s->pt->nwords++] = WORD_KEY(s->word_hash, s->word_alpha);
    s->in_word = 0;
}

static void scan_text(scan_state *s, const char *t, size_t n, wn_stats *st)
{
    /* Hot loop: state lives in locals, written back at the end, because
     * every store into the text buffer (a char*) would otherwise force the
     * compiler to reload all of it. */
    char *out = s->pt->text;
    uint32_t len = s->pt->len, cp_count = s->cp, chars = 0, words = 0;
    int pending = s->pending_space, in_word = s->in_word, alpha = s->word_alpha;
    uint64_t wh = s->word_hash;
    size_t i = 0;
    while (i < n) {
        unsigned char b = (unsigned char)t[i];
        /* ASCII fast path: letters and digits, the bulk of most pages */
        if ((unsigned)((b | 0x20) - 'a') < 26u || (unsigned)(b - '0') < 10u) {
            if (pending) {
                if (len) { out[len++] = ' '; cp_count++; }
                pending = 0;
            }
            unsigned char f = (unsigned)(b - 'A') < 26u ? (unsigned char)(b | 0x20) : b;
            out[len++] = (char)f;
            cp_count++;
            chars++;
            if (!in_word) { in_word = 1; alpha = 0; wh = FNV_OFFSET; words++; }
            alpha |= b > '9';
            wh = (wh ^ f) * FNV_PRIME;
            i++;
            continue;
        }
        if (b == ' ' || b == '\n' || b == '\t' || b == '\r') {
            pending = 1;
            if (in_word && s->pt->nwords < s->words_cap) s->pt->words[s->pt->nwords++] = WORD_KEY(wh, alpha);
            in_word = 0;
            i++;
            continue;
        }
        int32_t cp = wn_utf8_next(t, n, &i);
        wn_cclass cc = wn_char_class(cp);
        if (cc == WN_CC_SPACE) {
            pending = 1;
            if (in_word && s->pt->nwords < s->words_cap) s->pt->words[s->pt->nwords++] = WORD_KEY(wh, alpha);
            in_word = 0;
            continue;
        }
        if (pending) {
            if (len) { out[len++] = ' '; cp_count++; }
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
            if (!in_word) { in_word = 1; alpha = 0; wh = FNV_OFFSET; words++; }
            alpha = 1; /* non-ASCII word characters: letters and marks, almost always */
            for (size_t k = 0; k < el; k++) wh = (wh ^ (unsigned char)enc[k]) * FNV_PRIME;
            continue;
        }
        if (in_word && s->pt->nwords < s->words_cap) s->pt->words[s->pt->nwords++] = WORD_KEY(wh, alpha);
        in_word = 0;
        if (cc == WN_CC_CJK) {
            uint64_t h = FNV_OFFSET;
            for (size_t k = 0; k < el; k++) h = (h ^ (unsigned char)enc[k]) * FNV_PRIME;
            if (s->pt->nwords < s->words_cap) s->pt->words[s->pt->nwords++] = WORD_KEY(h, 1);
            words++;
            st->cjk++;
        } else if (cc == WN_CC_PUNCT) {
            st->punct++;
            if (cp == ',' || cp == 0xFF0C || cp == 0x3001) st->commas++;
            if (cp == '.' || cp == '!' || cp == '?' || cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F) st->stops++;
        }
    }
    s->pt->len = len;
    s->cp = cp_count;
    s->pending_space = pending;
    s->in_word = in_word;
    s->word_alpha = alpha;
    s->word_hash = wh;
    st->chars += chars;
    st->words += words;
}

/* Fenwick tree over word positions: distinct words of every element's word
 * range, answered offline in order of range end. */
static void distinct_words(const wn_dom *dom, wn_stats *st, const wn_page_text *pt, wn_arena *arena)
{
    uint32_t W = pt->nwords;
    if (W == 0) return;
    int32_t *bit = wn_arena_calloc(arena, (size_t)W + 1, sizeof(int32_t));
    uint32_t tsize = 1, tbits = 0;
    while (tsize < 2 * W) { tsize <<= 1; tbits++; }
    uint64_t *keys = wn_arena_calloc(arena, tsize, sizeof(uint64_t));
    uint32_t *lastpos = wn_arena_alloc(arena, (size_t)tsize * sizeof(uint32_t));
    /* queries bucketed by end position (counting sort) */
    uint32_t *head = wn_arena_alloc(arena, ((size_t)W + 1) * sizeof(uint32_t));
    uint32_t *next = wn_arena_alloc(arena, (size_t)dom->count * sizeof(uint32_t));
    if (!bit || !keys || !lastpos || !head || !next) return;
    for (uint32_t k = 0; k <= W; k++) head[k] = WN_NONE;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (st[i].w_end <= st[i].w_begin || dom->nodes[i].tag == WN_TAG_TEXT) continue;
        next[i] = head[st[i].w_end];
        head[st[i].w_end] = i;
    }
    for (uint32_t pos = 0; pos < W; pos++) {
        uint64_t h = pt->words[pos] | 1; /* 0 marks an empty slot */
        /* Fibonacci hashing: the top bits of a multiplicative mix spread
         * even similar word hashes over the table */
        uint32_t slot = tbits ? (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> (64 - tbits)) : 0;
        while (keys[slot] && keys[slot] != h) slot = (slot + 1) & (tsize - 1);
        if (keys[slot]) {
            for (uint32_t k = lastpos[slot] + 1; k <= W; k += k & (~k + 1)) bit[k]--;
        }
        keys[slot] = h;
        lastpos[slot] = pos;
        for (uint32_t k = pos + 1; k <= W; k += k & (~k + 1)) bit[k]++;
        for (uint32_t q = head[pos + 1]; q != WN_NONE; q = next[q]) {
            int32_t sum = 0;
            for (uint32_t k = pos + 1; k; k -= k & (~k + 1)) sum += bit[k];
            for (uint32_t k = st[q].w_begin; k; k -= k & (~k + 1)) sum -= bit[k];
            st[q].distinct_words = sum > 0 ? (uint32_t)sum : 0;
        }
    }
}

int wn_stats_compute(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt)
{
    wn_hint_cache *cache = wn_arena_calloc(arena, 1, sizeof *cache);
    if (!cache) return -1;
    uint32_t n = dom->count;
    wn_stats *st = wn_arena_calloc(arena, n, sizeof(wn_stats));
    uint8_t *boundary = wn_arena_calloc(arena, (size_t)n + 1, 1);
    uint32_t *cpb = wn_arena_alloc(arena, (size_t)n * sizeof(uint32_t));
    memset(pt, 0, sizeof *pt);
    /* folding can grow a code point from 1 to 3 bytes (rare: U+0130 etc.) */
    size_t cap = dom->text_len * 3 + 16;
    pt->text = wn_arena_alloc(arena, cap > UINT32_MAX ? UINT32_MAX : cap);
    uint32_t wcap = (uint32_t)(dom->text_len / 2 + 16);
    pt->words = wn_arena_alloc(arena, (size_t)wcap * sizeof(uint64_t));
    if (!st || !boundary || !cpb || !pt->text || !pt->words) return -1;

    scan_state s = {.pt = pt, .words_cap = wcap};
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &dom->nodes[i];
        wn_stats *sx = &st[i];
        int brk = boundary[i] || wn_tag_has(x->tag, WN_TF_BREAK) || x->tag == WN_TAG_BR ||
                  wn_tag_has(x->tag, WN_TF_TABLE);
        if (brk) { s.pending_space = 1; end_word(&s); }
        sx->nt_begin = pt->len;
        sx->w_begin = pt->nwords;
        sx->text_cp = s.cp; /* start, turned into a length below */
        if (x->tag == WN_TAG_TEXT) {
            if (!(x->flags & WN_NF_HIDDEN)) {
                scan_text(&s, dom->text + x->text_begin, x->text_len, sx);
                if (x->flags & WN_NF_LINK) sx->link_chars = sx->chars;
            }
        } else if (i > 0) {
            sx->elements = 1;
            if (!(x->flags & WN_NF_HIDDEN)) {
                sx->hist[hist_bucket(x->tag)] = 1;
                if (x->flags & WN_NF_LINK && x->tag == WN_TAG_A) sx->links = 1;
                if (x->tag == WN_TAG_IMG) sx->images = 1;
            }
            for (uint32_t k = 0; k < x->attr_count; k++) {
                const wn_attr *at = &dom->attrs[x->attr_begin + k];
                int is_id = at->name_len == 2 && memcmp(at->name, "id", 2) == 0;
                if (!is_id && !(at->name_len == 5 && memcmp(at->name, "class", 5) == 0)) continue;
                sx->hints |= wn_hints_from_name_cached(cache, at->value, at->value_len, is_id);
            }
            if (sx->hints & WN_HINT_BOILER) sx->hints &= (uint16_t)~WN_HINT_CONTENT;
            uint64_t ph = x->parent != WN_NONE ? st[x->parent].path_hash : 0;
            sx->path_hash = x->tag != WN_TAG_UNKNOWN ? ph * 0x9E3779B97F4A7C15ull + x->tag + 1
                                                     : XXH3_64bits_withSeed(x->name, strlen(x->name), ph);
            if (brk && (uint64_t)i + x->size <= n) boundary[i + x->size] = 1;
        }
    }
    end_word(&s);

    /* ranges end where the next node after the subtree begins */
    for (uint32_t i = 0; i < n; i++) {
        wn_stats *sx = &st[i];
        uint32_t after = i + dom->nodes[i].size;
        sx->nt_end = after < n ? st[after].nt_begin : pt->len;
        sx->w_end = after < n ? st[after].w_begin : pt->nwords;
        cpb[i] = sx->text_cp;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t after = i + dom->nodes[i].size;
        st[i].text_cp = (after < n ? cpb[after] : s.cp) - cpb[i];
    }
    /* counts are subtree sums: children before parents in reverse order */
    for (uint32_t i = n; i-- > 1;) {
        const wn_stats *c = &st[i];
        wn_stats *p = &st[dom->nodes[i].parent];
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
        hist_add(p->hist, c->hist);
    }
    distinct_words(dom, st, pt, arena);
    for (uint32_t i = 0; i < n; i++) {
        wn_stats *sx = &st[i];
        uint32_t b = sx->nt_begin, e = sx->nt_end;
        while (b < e && pt->text[b] == ' ') b++;
        while (e > b && pt->text[e - 1] == ' ') e--;
        sx->fingerprint = e > b ? XXH3_64bits(pt->text + b, e - b) : 0;
        uint32_t trimmed = (sx->nt_end - sx->nt_begin) - (e - b); /* spaces: one byte, one code point */
        sx->text_cp = sx->text_cp > trimmed ? sx->text_cp - trimmed : 0;
        const wn_node *x = &dom->nodes[i];
        sx->is_block = x->tag != WN_TAG_TEXT && wn_tag_has(x->tag, WN_TF_BLOCK) && !(x->flags & WN_NF_HIDDEN) &&
                       sx->text_cp >= 40 && sx->distinct_words >= 3;
    }
    *out = st;
    return 0;
}
