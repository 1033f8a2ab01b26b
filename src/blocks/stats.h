/* Stage 3: DOM -> per-node statistics and block candidates.
 *
 * Every node gets the features the papers score (Kolcz & Yih, Chakrabarti
 * et al., Debnath et al.): text and link mass, words, distinct words,
 * punctuation, a tag histogram of the subtree, position, DOM path and a
 * fingerprint of the normalized text. All of it is computed in O(n) passes
 * over the pre-order node array (distinct words in O(W log W)).
 *
 * Contract: reads the DOM; writes a wn_stats per node and the page's
 * wn_page_text (winnow_doc.stats, page_text). Knows nothing of the page
 * record, which holds these types (doc.h includes this header). */
#ifndef WN_STATS_H
#define WN_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "../dom/dom.h"
#include "../util/arena.h"

enum {
    WN_HIST_A,
    WN_HIST_P,
    WN_HIST_DIV,
    WN_HIST_INLINE,
    WN_HIST_LI,
    WN_HIST_LIST,
    WN_HIST_TABLE,
    WN_HIST_HEADING,
    WN_HIST_IMG,
    WN_HIST_BR,
    WN_HIST_FORM,
    WN_HIST_FORMAT,
    WN_HIST_SECTION,
    WN_HIST_PRE,
    WN_HIST_QUOTE,
    WN_HIST_OTHER,
    WN_HIST_N
};
extern const char *const wn_hist_names[WN_HIST_N];

/* Hints read from class and id tokens of the element itself. */
enum {
    WN_HINT_NAV = 1 << 0,    /* nav, menu, breadcrumb, pagination, skip links */
    WN_HINT_HEADER = 1 << 1, /* masthead, site header, top bar */
    WN_HINT_FOOTER = 1 << 2,
    WN_HINT_SIDEBAR = 1 << 3, /* sidebar, aside, widget (a whole word), rail */
    WN_HINT_COMMENT = 1 << 4,
    WN_HINT_SHARE = 1 << 5,    /* share, social, follow, print/email tools */
    WN_HINT_RELATED = 1 << 6,  /* related, recommended, more stories, trending */
    WN_HINT_AD = 1 << 7,       /* ad, sponsor, promo, banner */
    WN_HINT_OVERLAY = 1 << 8,  /* cookie, consent, modal, popup, newsletter, subscribe */
    WN_HINT_META = 1 << 9,     /* byline, author, date, tags, caption credit */
    WN_HINT_CONTENT = 1 << 10, /* article, content, entry, post, story, body text */
    WN_HINT_TITLE = 1 << 11,   /* headline, title */
    WN_HINT_SITE = 1 << 12,    /* not a name: the site model found the text on many pages */
    WN_HINT_MIXED = 1 << 13,   /* the name also had content words, dropped for its boilerplate ones */
    WN_HINT_GALLERY = 1 << 14, /* gallery, slideshow, carousel: photo captions beside the text */
    WN_HINT_SCRIPT = 1 << 15,  /* not a name: script or template code shown as text */
};
#define WN_HINT_BOILER                                                                                                 \
    (WN_HINT_NAV | WN_HINT_HEADER | WN_HINT_FOOTER | WN_HINT_SIDEBAR | WN_HINT_COMMENT | WN_HINT_SHARE |               \
     WN_HINT_RELATED | WN_HINT_AD | WN_HINT_OVERLAY | WN_HINT_GALLERY)

typedef struct wn_stats {
    uint32_t chars;   /* non-space code points */
    uint32_t text_cp; /* code points of the normalized (collapsed) text */
    uint32_t words, distinct_words, punct, commas, stops, cjk;
    uint32_t link_chars, links, images, elements;
    uint32_t nt_begin, nt_end; /* normalized text range in wn_page_text.text */
    uint32_t w_begin, w_end;   /* word range in wn_page_text.words */
    uint64_t fingerprint;      /* XXH3 of the normalized text, 0 when empty */
    uint64_t path_hash;        /* XXH3 chain over the tag names from <html> */
    uint16_t hist[WN_HIST_N];
    uint16_t hints;
    uint16_t
        code_syms; /* text nodes only: braces and '=' glued to what follows (saturating), the mark of script text shown as text */
    uint8_t is_block; /* Kolcz & Yih block candidate */
} wn_stats;

typedef struct wn_page_text {
    char *text; /* casefolded, whitespace-collapsed text of the page */
    uint32_t len;
    uint64_t *words; /* hash of each word, in document order; bit 0: it has a letter */
    uint32_t nwords;
    /* the distinct-word count numbers the distinct words (hash | 1) in order
     * of first occurrence, for the classifier's features to reuse: NULL
     * when learning or without words */
    uint32_t *word_id;  /* per word: its number */
    uint64_t *distinct; /* per number: the word (hash | 1) */
    uint32_t ndistinct;
} wn_page_text;

/* A block candidate (Kolcz & Yih): a visible block tag with at least
 * WN_BLOCK_MIN_CHARS code points of trimmed text and WN_BLOCK_MIN_WORDS
 * distinct words. Not rules: these decide which nodes are fingerprinted as
 * blocks, and so the block keys a site database stores (learning keeps only
 * WN_BLOCK_MIN_WORDS word hashes a node), so they are part of the site
 * model's key format; a changed value makes stored models disagree with new
 * pages (docs/formats.md, "keys"). */
/* Words as words in every script, for thresholds in words: the counts
 * above take each CJK character for a word (text without spaces has no
 * other boundary), and a CJK word is two characters or so. */
static inline float wn_word_units(uint32_t words, uint32_t cjk) { return (float)words - 0.5f * (float)cjk; }

#define WN_BLOCK_MIN_CHARS 40u
#define WN_BLOCK_MIN_WORDS 3u

/* The rules a class or id value's hints read. */
typedef struct wn_name_rules {
    double id_anchor_words; /* ID_ANCHOR_WORDS: an id of this many words is a heading's anchor */
    int setting_words;      /* NAME_SETTING_WORDS: "header-alignment-left" names no header */
} wn_name_rules;

/* The rule values the statistics read. The stage lies below the rule
 * table (rules/ reads the statistics' types), so the caller passes them
 * from the page's rules. */
typedef struct wn_stats_rules {
    wn_name_rules names;
} wn_stats_rules;

/* hints: the class and id tokens already seen and their hint bits, kept by
 * the caller across pages (an engine's: one thread at a time); NULL, or
 * keys zeroed, before first use. The mapping changes only with the name
 * rules (the cache empties its whole values then), so a cache
 * carried from page to page gives the same bits as none. */
struct wn_hint_cache;
int wn_stats_compute(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt, struct wn_hint_cache *hints,
                     const wn_stats_rules *rules);

/* Word keys of a string, hashed as the statistics hash page words (so they
 * compare with wn_page_text.words); at most cap of them. */
uint32_t wn_word_keys(const char *s, size_t n, uint64_t *out, uint32_t cap);
/* What learning a site model reads, for winnow_site_learn: the page text,
 * words, ranges, counts, path hashes and is_block as above, fingerprints
 * of text nodes and block candidates only (0 elsewhere), and no hints,
 * tag histograms or distinct-word counts (left 0). */
int wn_stats_compute_learn(const wn_dom *dom, wn_arena *arena, wn_stats **out, wn_page_text *pt);

/* Hint bits for a class or id attribute value. */
uint16_t wn_hints_from_attr(const char *v, size_t n);
/* Same, telling a class list (is_id = 0) from an id (is_id = 1); an id of
 * r->id_anchor_words words or more (ID_ANCHOR_WORDS) has no hints. */
uint16_t wn_hints_from_name(const char *v, size_t n, int is_id, const wn_name_rules *r);

/* Per-page memo of token -> bits (zero it before use). A slot holds its
 * key and bits side by side: a lookup reads one cache line, not two. */
#define WN_HINT_CACHE_SLOTS 4096
typedef struct wn_hint_slot {
    uint64_t key;
    uint16_t bits;
} wn_hint_slot;
typedef struct wn_hint_cache {
    wn_hint_slot token[WN_HINT_CACHE_SLOTS];
    wn_hint_slot name[WN_HINT_CACHE_SLOTS]; /* whole attribute values */
    wn_name_rules rules;                    /* the rules the name slots were filled under */
} wn_hint_cache;
uint16_t wn_hints_from_name_cached(wn_hint_cache *cache, const char *v, size_t n, int is_id, const wn_name_rules *r);

#endif
