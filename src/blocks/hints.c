/* class/id tokens -> hint bits.
 *
 * Names are split into tokens on anything that is not a letter or digit and
 * at lower-to-upper case changes ("articleBody" -> article, body). Short,
 * ambiguous words must match a whole token ("ad" must not fire on "header"
 * or "download"); longer, distinctive stems may match inside a token
 * ("sidebar" in "leftsidebar"). */
#include "stats.h"
#include "../util/fnv.h"

#include <string.h>
/* inlined: the hashes are the library's, without a call per short string */
#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct hint_word {
    const char *word;
    uint8_t len;
    uint8_t substring; /* may match inside a token */
    uint16_t bits;
    const char *unless; /* a longer word that cancels a match inside it */
} hint_word;

#define W(word, bits, sub)                                                                                             \
    {                                                                                                                  \
        word, (uint8_t)(sizeof(word) - 1), sub, bits, NULL                                                             \
    }
#define WX(word, bits, unless)                                                                                         \
    {                                                                                                                  \
        word, (uint8_t)(sizeof(word) - 1), 1, bits, unless                                                             \
    }

/* The words by their first letter: a token is tried against the words
 * whose first letter it has, not against all of them. */
static const hint_word words_a[] = {
    W("aside", WN_HINT_SIDEBAR, 0), W("addthis", WN_HINT_SHARE, 1), W("ad", WN_HINT_AD, 0),
    W("ads", WN_HINT_AD, 0),        W("advert", WN_HINT_AD, 1),     W("advertisement", WN_HINT_AD, 1),
    W("adsense", WN_HINT_AD, 1),    W("author", WN_HINT_META, 0),   W("article", WN_HINT_CONTENT, 1),
};
static const hint_word words_b[] = {
    W("breadcrumb", WN_HINT_NAV, 1), W("breadcrumbs", WN_HINT_NAV, 1), W("banner", WN_HINT_AD, 1),
    W("byline", WN_HINT_META, 1),    W("body", WN_HINT_CONTENT, 0),    W("blog", WN_HINT_CONTENT, 0),
};
static const hint_word words_c[] = {
    W("copyright", WN_HINT_FOOTER, 1), W("colophon", WN_HINT_FOOTER, 1), W("comment", WN_HINT_COMMENT, 1),
    W("comments", WN_HINT_COMMENT, 1), W("cookie", WN_HINT_OVERLAY, 1),  W("consent", WN_HINT_OVERLAY, 1),
    W("carousel", WN_HINT_GALLERY, 1), W("credit", WN_HINT_META, 0),     W("content", WN_HINT_CONTENT, 1),
};
static const hint_word words_d[] = {
    W("disqus", WN_HINT_COMMENT, 1),
    W("dfp", WN_HINT_AD, 0),
    W("dateline", WN_HINT_META, 1),
};
static const hint_word words_e[] = {
    W("email", WN_HINT_SHARE, 0),
    W("entry", WN_HINT_CONTENT, 1),
};
static const hint_word words_f[] = {
    W("footer", WN_HINT_FOOTER, 1),
    W("foot", WN_HINT_FOOTER, 0),
    W("follow", WN_HINT_SHARE, 0),
};
static const hint_word words_g[] = {
    W("gpt", WN_HINT_AD, 0),
    W("gdpr", WN_HINT_OVERLAY, 1),
    W("gallery", WN_HINT_GALLERY, 1),
};
static const hint_word words_h[] = {
    W("header", WN_HINT_HEADER, 0),
    W("hentry", WN_HINT_CONTENT, 1),
    W("headline", WN_HINT_TITLE, 1),
};
static const hint_word words_l[] = {
    W("lightbox", WN_HINT_OVERLAY, 1),
    W("login", WN_HINT_OVERLAY, 0),
};
static const hint_word words_m[] = {
    W("menu", WN_HINT_NAV, 1),         W("masthead", WN_HINT_HEADER, 1), W("more", WN_HINT_RELATED, 0),
    W("modal", WN_HINT_OVERLAY, 1),    W("meta", WN_HINT_META, 0),       W("main", WN_HINT_CONTENT, 0),
    W("markdown", WN_HINT_CONTENT, 1),
};
static const hint_word words_n[] = {
    W("nav", WN_HINT_NAV, 0),
    W("navbar", WN_HINT_NAV, 1),
    W("navigation", WN_HINT_NAV, 1),
    W("newsletter", WN_HINT_OVERLAY, 1),
};
static const hint_word words_o[] = {
    W("outbrain", WN_HINT_RELATED, 1),
};
static const hint_word words_p[] = {
    W("pagination", WN_HINT_NAV, 1),  W("pager", WN_HINT_NAV, 0),    W("print", WN_HINT_SHARE, 0),
    W("popular", WN_HINT_RELATED, 1), W("promo", WN_HINT_AD, 1),     W("popup", WN_HINT_OVERLAY, 1),
    W("popover", WN_HINT_OVERLAY, 1), W("post", WN_HINT_CONTENT, 0), W("prose", WN_HINT_CONTENT, 0),
};
static const hint_word words_r[] = {
    W("rail", WN_HINT_SIDEBAR, 0),    W("replies", WN_HINT_COMMENT, 0),     W("respond", WN_HINT_COMMENT, 0),
    W("related", WN_HINT_RELATED, 1), W("recommended", WN_HINT_RELATED, 1), W("recommend", WN_HINT_RELATED, 1),
};
static const hint_word words_s[] = {
    W("skip", WN_HINT_NAV, 0),
    W("sidebar", WN_HINT_SIDEBAR, 1),
    W("sidenav", WN_HINT_SIDEBAR | WN_HINT_NAV, 1),
    W("share", WN_HINT_SHARE, 1),
    W("sharing", WN_HINT_SHARE, 1),
    W("social", WN_HINT_SHARE, 1),
    W("sociable", WN_HINT_SHARE, 1),
    W("sponsor", WN_HINT_AD, 1),
    W("sponsored", WN_HINT_AD, 1),
    /* "subscriber-premium" wraps the article for subscribers, not a prompt */
    WX("subscribe", WN_HINT_OVERLAY, "subscriber"),
    W("signup", WN_HINT_OVERLAY, 1),
    W("slideshow", WN_HINT_GALLERY, 1),
    W("story", WN_HINT_CONTENT, 1),
};
static const hint_word words_t[] = {
    W("toolbar", WN_HINT_NAV, 1),      W("topbar", WN_HINT_HEADER, 1),   W("tools", WN_HINT_SHARE, 0),
    W("trending", WN_HINT_RELATED, 1), W("taboola", WN_HINT_RELATED, 1), W("teaser", WN_HINT_RELATED, 1),
    W("timestamp", WN_HINT_META, 1),   W("tags", WN_HINT_META, 0),       W("tag", WN_HINT_META, 0),
    W("text", WN_HINT_CONTENT, 0),     W("title", WN_HINT_TITLE, 0),
};
static const hint_word words_w[] = {
    /* a whole word: inside one it names other parts (a shop's "celwidget"
     * wraps every cell of its pages, the product grid included) */
    W("widget", WN_HINT_SIDEBAR, 0),
};

typedef struct hint_bucket {
    const hint_word *words;
    size_t count;
} hint_bucket;

#define BUCKET(words)                                                                                                  \
    {                                                                                                                  \
        words, sizeof words / sizeof words[0]                                                                          \
    }
static const hint_bucket by_first[26] = {
    ['a' - 'a'] = BUCKET(words_a), ['b' - 'a'] = BUCKET(words_b), ['c' - 'a'] = BUCKET(words_c),
    ['d' - 'a'] = BUCKET(words_d), ['e' - 'a'] = BUCKET(words_e), ['f' - 'a'] = BUCKET(words_f),
    ['g' - 'a'] = BUCKET(words_g), ['h' - 'a'] = BUCKET(words_h), ['l' - 'a'] = BUCKET(words_l),
    ['m' - 'a'] = BUCKET(words_m), ['n' - 'a'] = BUCKET(words_n), ['o' - 'a'] = BUCKET(words_o),
    ['p' - 'a'] = BUCKET(words_p), ['r' - 'a'] = BUCKET(words_r), ['s' - 'a'] = BUCKET(words_s),
    ['t' - 'a'] = BUCKET(words_t), ['w' - 'a'] = BUCKET(words_w),
};
#undef BUCKET

static uint16_t token_hints(const char *t, size_t n)
{
    /* letters present in the token: only the words beginning with one of
     * them can occur in it, and of those only the ones whose last letter
     * it has too */
    uint32_t letters = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned)(t[i] - 'a') < 26u) letters |= 1u << (t[i] - 'a');
    uint16_t bits = 0;
    for (uint32_t first = letters; first; first &= first - 1) {
        const hint_bucket *b = &by_first[__builtin_ctz(first)];
        for (size_t k = 0; k < b->count; k++) {
            const hint_word *h = &b->words[k];
            size_t wl = h->len;
            if (wl > n || (wl < n && !h->substring)) continue;
            if (!(letters >> (h->word[wl - 1] - 'a') & 1u)) continue;
            if (wl == n) {
                if (memcmp(h->word, t, n) == 0) bits |= h->bits;
                continue;
            }
            for (size_t i = 0; i + wl <= n; i++)
                if (t[i] == h->word[0] && memcmp(t + i, h->word, wl) == 0) {
                    size_t ul = h->unless ? strlen(h->unless) : 0;
                    if (!(ul && i + ul <= n && memcmp(t + i, h->unless, ul) == 0)) bits |= h->bits;
                    break;
                }
        }
    }
    return bits;
}

uint16_t wn_hints_from_attr(const char *v, size_t n)
{
    /* a class list: the anchor words do not apply; the setting words do */
    const wn_name_rules r = { 0.0, 1 };
    return wn_hints_from_name(v, n, 0, &r);
}

/* Tokens repeat across a page far more than whole class lists do
 * ("col", "row", "container"): remember each token's bits. h is the
 * token's FNV-1a hash. */
static uint16_t token_hints_cached(wn_hint_cache *cache, const char *t, size_t n, uint64_t h)
{
    if (!cache) return token_hints(t, n);
    if (!h) h = 1; /* 0 marks an empty slot (h | 1 would merge keys a bit apart) */
    size_t slot = (size_t)(h ^ (h >> 32)) & (WN_HINT_CACHE_SLOTS - 1);
    wn_hint_slot *e = &cache->token[slot];
    if (e->key == h) return e->bits;
    e->key = h;
    e->bits = token_hints(t, n);
    return e->bits;
}

uint16_t wn_hints_from_name(const char *v, size_t n, int is_id, const wn_name_rules *r)
{
    return wn_hints_from_name_cached(NULL, v, n, is_id, r);
}

/* ASCII letters and digits: NAME_DIGIT, NAME_LOWER (a lower-case letter),
 * NAME_UPPER; 0 for any other byte (tokens end there) */
enum { NAME_DIGIT = 1, NAME_LOWER = 2, NAME_UPPER = 3 };
static const uint8_t name_char[256] = {
    ['0'] = NAME_DIGIT,
    ['1'] = NAME_DIGIT,
    ['2'] = NAME_DIGIT,
    ['3'] = NAME_DIGIT,
    ['4'] = NAME_DIGIT,
    ['5'] = NAME_DIGIT,
    ['6'] = NAME_DIGIT,
    ['7'] = NAME_DIGIT,
    ['8'] = NAME_DIGIT,
    ['9'] = NAME_DIGIT,
#define L(c) [c] = NAME_LOWER, [c - 32] = NAME_UPPER
    L('a'),
    L('b'),
    L('c'),
    L('d'),
    L('e'),
    L('f'),
    L('g'),
    L('h'),
    L('i'),
    L('j'),
    L('k'),
    L('l'),
    L('m'),
    L('n'),
    L('o'),
    L('p'),
    L('q'),
    L('r'),
    L('s'),
    L('t'),
    L('u'),
    L('v'),
    L('w'),
    L('x'),
    L('y'),
    L('z'),
#undef L
};

/* Words of a style setting: "header-alignment-left" sets how a part's
 * header is aligned, "sidebar-position-left" where a theme puts its
 * sidebar (on the box that holds the whole page); neither names the part. */
static int setting_word(const char *t, size_t n)
{
    static const char *const words[] = { "align", "alignment", "aligned", "position" };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == n && memcmp(words[k], t, n) == 0) return 1;
    return 0;
}

static uint16_t name_hints(wn_hint_cache *cache, const char *v, size_t n, int is_id, const wn_name_rules *r)
{
    /* an id of four or more words (ID_ANCHOR_WORDS) is an anchor made from
     * a heading ("sharing-with-a-single-developer"), not a layout name */
    if (is_id) {
        int words = 0, in = 0;
        for (size_t i = 0; i < n; i++) {
            int alnum = name_char[(unsigned char)v[i]] != 0;
            if (alnum && !in) words++;
            in = alnum;
        }
        if ((double)words >= r->id_anchor_words) return 0;
    }
    uint16_t bits = 0, pending = 0;
    char tok[48];
    size_t i = 0;
    while (i < n) {
        unsigned kind = name_char[(unsigned char)v[i]];
        if (!kind) {
            i++;
            continue;
        }
        const int joined = i > 0 && (v[i - 1] == '-' || v[i - 1] == '_' || name_char[(unsigned char)v[i - 1]]);
        /* a token: letters and digits up to the next other byte or
         * lower-to-upper change, folded and hashed (FNV-1a) as it is read */
        size_t tl = 0;
        uint64_t h = WN_FNV_OFFSET;
        unsigned prev;
        do {
            unsigned c = (unsigned char)v[i], f = kind == NAME_UPPER ? c | 0x20 : c;
            if (tl < sizeof tok) tok[tl] = (char)f;
            h = (h ^ f) * WN_FNV_PRIME;
            tl++;
            prev = kind;
            if (++i == n) break;
            kind = name_char[(unsigned char)v[i]];
        } while (kind && !(kind == NAME_UPPER && prev == NAME_LOWER));
        if (tl <= sizeof tok) {
            if (joined && r->setting_words && setting_word(tok, tl))
                pending = 0;
            else {
                bits |= pending;
                pending = 0;
            }
            /* "more" after a content word names the rest of the
             * entry ("entry-more": a blog's text after the jump); alone
             * or first it is a list of more stories ("more-stories") */
            if (!(tl == 4 && memcmp(tok, "more", 4) == 0 && (bits & WN_HINT_CONTENT)))
                pending = token_hints_cached(cache, tok, tl, h);
        }
    }
    bits |= pending;
    /* a name like "article-comments" or "post-footer" describes the
     * boilerplate part, not the content */
    if ((bits & WN_HINT_BOILER) && (bits & WN_HINT_CONTENT))
        bits = (uint16_t)((bits & ~WN_HINT_CONTENT) | WN_HINT_MIXED);
    return bits;
}

uint16_t wn_hints_from_name_cached(wn_hint_cache *cache, const char *v, size_t n, int is_id, const wn_name_rules *r)
{
    if (!cache) return name_hints(NULL, v, n, is_id, r);
    /* a value's bits depend on the name rules: the whole values stored
     * under other rules are forgotten (the tokens' bits do not) */
    if (cache->rules.id_anchor_words != r->id_anchor_words || cache->rules.setting_words != r->setting_words) {
        memset(cache->name, 0, sizeof cache->name);
        cache->rules = *r;
    }
    /* whole class lists repeat too: look them up before splitting them.
     * The key is the value's hash with its lowest bit saying class or id
     * (a seed of 0 or 1 let a short class value and a short id value
     * share a key: XXH3 adds the seed to a constant that its 1-3 byte
     * inputs are XORed with); bit 1 set, so that no key is 0, an empty
     * slot */
    uint64_t h = (XXH3_64bits(v, n) & ~(uint64_t)3) | 2 | (uint64_t)(is_id != 0);
    size_t slot = (size_t)(h ^ (h >> 32)) & (WN_HINT_CACHE_SLOTS - 1);
    wn_hint_slot *e = &cache->name[slot];
    if (e->key == h) return e->bits;
    uint16_t bits = name_hints(cache, v, n, is_id, r);
    e->key = h;
    e->bits = bits;
    return bits;
}
