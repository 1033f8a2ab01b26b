#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "../util/buf.h"
#define XXH_INLINE_ALL
#include <xxhash.h>

/* The lengths of a record's lines, names and links are rows of the rule
 * table (COMMENT_LINE_CHARS, COMMENT_AUTHOR_*, COMMENT_HEADLINE_WORDS,
 * COMMENT_MARKER_CHARS, COMMENT_LINK_CHARS). */

/* ---- words of the case-folded page text ---- */

static int word_byte(unsigned char c) { return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/* Calls fn on each word of t[0..n); stops when it returns non-zero. */
static int each_word(const char *t, size_t n, int (*fn)(const char *w, size_t len, void *ctx), void *ctx)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && !word_byte((unsigned char)t[i])) i++;
        size_t b = i;
        while (i < n && word_byte((unsigned char)t[i])) i++;
        if (i > b && fn(t + b, i - b, ctx)) return 1;
    }
    return 0;
}

static int word_in(const char *w, size_t len, const char *const *list)
{
    for (; *list; list++)
        if ((*list)[0] == w[0] && strlen(*list) == len && memcmp(*list, w, len) == 0) return 1;
    return 0;
}

static int word_has_stem(const char *w, size_t len, const char *const *stems)
{
    for (; *stems; stems++) {
        size_t m = strlen(*stems);
        for (size_t i = 0; i + m <= len; i++)
            if (memcmp(w + i, *stems, m) == 0) return 1;
    }
    return 0;
}

/* Month names (English, German, French, Spanish, Italian, Dutch; the short
 * forms that are also common words, "may", "mar", are left out) and words
 * of relative time. Kept in byte order: searched by bisection (every word
 * of a record's lines is looked up; wn_date_words_sorted checks the order). */
static const char *const date_words[] = {
    "abril", "ago", "agosto", "août", "april", "aprile", "august", "augustus", "avril", "ayer", "december",
    "dezember", "dicembre", "diciembre", "décembre", "enero", "febbraio", "febrero", "februar", "februari",
    "february", "février", "gennaio", "gestern", "giugno", "heute", "hier", "hoy", "ieri", "januar", "januari",
    "january", "janvier", "juillet", "juin", "juli", "julio", "july", "june", "juni", "junio", "luglio", "maart",
    "maggio", "mai", "march", "mars", "marzo", "mayo", "mei", "märz", "november", "novembre", "noviembre",
    "october", "octobre", "octubre", "oggi", "oktober", "ottobre", "september", "septembre", "septiembre",
    "settembre", "today", "yesterday"};
#define DATE_WORDS (sizeof date_words / sizeof date_words[0])

/* w (len bytes) against the NUL-terminated s, bytewise (memcmp's order) */
static int word_cmp(const char *w, size_t len, const char *s)
{
    /* the first bytes differ at most steps of a bisection, and then they
     * decide, as they would in memcmp */
    if (len && (unsigned char)w[0] != (unsigned char)s[0]) return (unsigned char)w[0] < (unsigned char)s[0] ? -1 : 1;
    size_t m = strlen(s);
    int c = memcmp(w, s, len < m ? len : m);
    if (c) return c;
    return len < m ? -1 : len > m;
}

static int date_word_in(const char *w, size_t len)
{
    size_t lo = 0, hi = DATE_WORDS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = word_cmp(w, len, date_words[mid]);
        if (c == 0) return 1;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return 0;
}

int wn_date_words_sorted(void)
{
    for (size_t k = 1; k < DATE_WORDS; k++)
        if (word_cmp(date_words[k - 1], strlen(date_words[k - 1]), date_words[k]) >= 0) return 0;
    return 1;
}

/* Short month names are also names and words ("Jun", "Dec"): a date only
 * with a number in the same line. */
static const char *const short_months[] = {"jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", NULL};
static int date_word(const char *w, size_t len, void *ctx)
{
    const int *digits = ctx;
    return date_word_in(w, len) || (digits && *digits && word_in(w, len, short_months));
}
/* A date or a time: a month name or a word of relative time, hh:mm, or
 * d/m/y-like digits (a year alone is too common in other lines). */
int wn_has_date(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') continue;
        size_t b = i;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
        size_t len = i - b;
        /* hh:mm, minutes under 60, not a reference like 9:84:64 or 38:4349 */
        /* and hours under 24: "41:12" is a verse, not a time */
        int hour = len == 1 ? t[b] - '0' : len == 2 ? (t[b] - '0') * 10 + (t[b + 1] - '0') : 99;
        if (i + 2 < n && len <= 2 && hour < 24 && t[i] == ':' && t[i + 1] >= '0' && t[i + 1] <= '5' && t[i + 2] >= '0' &&
            t[i + 2] <= '9' && (i + 3 == n || (t[i + 3] != ':' && (t[i + 3] < '0' || t[i + 3] > '9'))))
            return 1;
        if (i + 1 < n && len <= 4 && (t[i] == '/' || t[i] == '.' || t[i] == '-') && t[i + 1] >= '0' && t[i + 1] <= '9') {
            size_t j = i + 1;
            while (j < n && t[j] >= '0' && t[j] <= '9') j++;
            /* a year last, of two or four digits: "3.7.2" and "v2.0.0" are versions */
            size_t y = j + 1;
            while (y < n && t[y] >= '0' && t[y] <= '9') y++;
            if (j + 1 < n && j - i - 1 <= 2 && t[j] == t[i] && (y - j - 1 == 2 || y - j - 1 == 4)) return 1;
        }
        if (i > b) i--;
    }
    int digits = 0;
    for (size_t i = 0; i < n && !digits; i++) digits = t[i] >= '0' && t[i] <= '9';
    return each_word(t, n, date_word, &digits);
}

static const char *const reply_words[] = {"reply", "antworten", "répondre", "responder", "rispondi", "reageer",
                                          "beantworten", "odpowiedz", "responda", "quote", "permalink", NULL};
static int reply_word(const char *w, size_t len, void *ctx)
{
    (void)ctx;
    return word_in(w, len, reply_words);
}

/* "12 comments", "Leave a reply", "3 thoughts on ...", "Kommentare (4)". */
static const char *const marker_stems[] = {"comment", "kommentar", "comentario", "reactie", "respons", "replies",
                                           "reply", "thoughts", "discussion", "reacties", "comentário", NULL};
static int marker_word(const char *w, size_t len, void *ctx)
{
    (void)ctx;
    return word_has_stem(w, len, marker_stems);
}

/* ---- the page ---- */

typedef struct page {
    winnow_doc *d;
    const wn_page_scores *ps;
    const float *pos;    /* positive running text per subtree */
    uint64_t *cls;       /* class tokens without digits, 0 when none */
    uint64_t *kids;      /* sequence of element children's tags, repeats folded, 0 when none */
    uint8_t *have;       /* bit 0: cls computed, bit 1: kids computed */
} page;

static const char *text_of(const winnow_doc *d, uint32_t i, size_t *n)
{
    const wn_stats *s = &d->stats[i];
    *n = s->nt_end - s->nt_begin;
    return d->page_text.text + s->nt_begin;
}

/* class_shape's bytes: the spaces between tokens, the digits */
enum { SHAPE_SPACE = 1, SHAPE_DIGIT = 2 };
static const uint8_t shape_byte[256] = {
    [' '] = SHAPE_SPACE, ['\t'] = SHAPE_SPACE, ['\n'] = SHAPE_SPACE,
    ['0'] = SHAPE_DIGIT, ['1'] = SHAPE_DIGIT, ['2'] = SHAPE_DIGIT, ['3'] = SHAPE_DIGIT, ['4'] = SHAPE_DIGIT,
    ['5'] = SHAPE_DIGIT, ['6'] = SHAPE_DIGIT, ['7'] = SHAPE_DIGIT, ['8'] = SHAPE_DIGIT, ['9'] = SHAPE_DIGIT,
};

static uint64_t class_shape(const wn_dom *dom, const wn_node *x)
{
    size_t len = 0;
    const char *c = wn_node_attr(dom, x, "class", &len);
    if (!c || !len) return 0;
    /* "comment-1234 depth-2 odd" and "comment-1235 depth-2 even" are one
     * shape: tokens with digits go, and so does the alternation. The hash
     * is of the tokens kept, each followed by a space: gathered and hashed
     * at once (the streaming hash of the same bytes is the same), streamed
     * only past the buffer. */
    char buf[256];
    size_t bl = 0;
    XXH3_state_t st;
    int streaming = 0, any = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (shape_byte[(unsigned char)c[i]] & SHAPE_SPACE)) i++;
        size_t b = i;
        unsigned digit = 0;
        for (unsigned k; i < len && !((k = shape_byte[(unsigned char)c[i]]) & SHAPE_SPACE); i++) digit |= k;
        size_t tl = i - b;
        if (!tl || digit) continue;
        if ((tl == 3 && (!memcmp(c + b, "odd", 3) || !memcmp(c + b, "alt", 3))) || (tl == 4 && !memcmp(c + b, "even", 4)))
            continue;
        any = 1;
        if (!streaming && tl < sizeof buf - bl) {
            memcpy(buf + bl, c + b, tl);
            bl += tl;
            buf[bl++] = ' ';
            continue;
        }
        if (!streaming) {
            XXH3_64bits_reset(&st);
            XXH3_64bits_update(&st, buf, bl);
            streaming = 1;
        }
        XXH3_64bits_update(&st, c + b, tl);
        XXH3_64bits_update(&st, " ", 1);
    }
    if (!any) return 0;
    return (streaming ? XXH3_64bits_digest(&st) : XXH3_64bits(buf, bl)) | 1;
}

static int visible_element(const wn_dom *dom, const wn_stats *st, uint32_t c)
{
    const wn_node *x = &dom->nodes[c];
    return x->tag != WN_TAG_TEXT && !(x->flags & WN_NF_HIDDEN) && (st[c].chars > 0 || st[c].images > 0);
}

/* The shape keys of an element, each computed when first asked for: the
 * record searches compare the children of a few candidates only. Both are
 * 0 for the root and text nodes. */
static uint64_t shape_cls(const page *pg, uint32_t i)
{
    if (!(pg->have[i] & 1)) {
        const wn_node *x = &pg->d->dom.nodes[i];
        pg->cls[i] = i && x->tag != WN_TAG_TEXT ? class_shape(&pg->d->dom, x) : 0;
        pg->have[i] |= 1;
    }
    return pg->cls[i];
}

static uint64_t shape_kids(const page *pg, uint32_t i)
{
    if (!(pg->have[i] & 2)) {
        const wn_dom *dom = &pg->d->dom;
        const wn_node *x = &dom->nodes[i];
        uint64_t h = 0;
        if (i && x->tag != WN_TAG_TEXT) {
            unsigned last = WN_TAG_UNKNOWN;
            for (uint32_t c = x->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
                unsigned t = dom->nodes[c].tag;
                if (t == WN_TAG_TEXT || t == WN_TAG_BR || t == last || !visible_element(dom, pg->d->stats, c)) continue;
                h = (h ^ t) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
                last = t;
            }
        }
        pg->kids[i] = h;
        pg->have[i] |= 2;
    }
    return pg->kids[i];
}

static int alike(const page *pg, uint32_t a, uint32_t b)
{
    const wn_node *x = &pg->d->dom.nodes[a], *y = &pg->d->dom.nodes[b];
    if (x->tag != y->tag) return 0;
    uint64_t ca = shape_cls(pg, a);
    if (ca && ca == shape_cls(pg, b)) return 1;
    uint64_t ka = shape_kids(pg, a);
    return ka && ka == shape_kids(pg, b);
}

/* The shape keys' tables, filled as they are asked for (pos: the page
 * scorer's running text per subtree). */
static int page_init(page *pg, winnow_doc *d, const wn_page_scores *ps, const float *pos)
{
    uint32_t n = d->dom.count;
    wn_arena *s = wn_doc_scratch(d);
    *pg = (page){d, ps, pos, wn_arena_array(s, n, sizeof(uint64_t)), wn_arena_array(s, n, sizeof(uint64_t)),
                 wn_arena_calloc(s, n, 1)};
    return pg->cls && pg->kids && pg->have ? 0 : -1;
}

/* What one record shows. */
typedef struct record_signs {
    int lines, short_lines;
    uint32_t date, author;   /* units or elements, WN_NONE when none */
    int reply, avatar, permalink;
    int headline;            /* a line that is a link of several words: a teaser */
} record_signs;

static void read_record(const page *pg, uint32_t r, record_signs *rs)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    const uint32_t *unit = d->labels.unit;
    const float line_chars = WN_RULE(d, COMMENT_LINE_CHARS), link_chars = WN_RULE(d, COMMENT_LINK_CHARS);
    const float author_chars = WN_RULE(d, COMMENT_AUTHOR_CHARS), author_words = WN_RULE(d, COMMENT_AUTHOR_WORDS);
    const float headline_words = WN_RULE(d, COMMENT_HEADLINE_WORDS);
    const float author_elements = WN_RULE(d, COMMENT_AUTHOR_ELEMENTS);
    const int heading_link = WN_RULE(d, COMMENT_HEADING_LINK) > 0.0f;
    /* (in double: exact for any count, as the halves of integers were) */
    const double link_share = WN_RULE(d, COMMENT_HEADLINE_LINK_SHARE);
    memset(rs, 0, sizeof *rs);
    rs->date = rs->author = WN_NONE;
    uint32_t end = r + dom->nodes[r].size, heading = WN_NONE;
    for (uint32_t i = r; i < end; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        size_t n;
        const char *t = text_of(d, i, &n);
        /* code samples hold dates and names that are not a byline */
        int code = (x->flags & WN_NF_PRE) || x->tag == WN_TAG_CODE || x->tag == WN_TAG_KBD || x->tag == WN_TAG_SAMP;
        if (x->tag == WN_TAG_IMG) rs->avatar = 1;
        if (wn_tag_has(x->tag, WN_TF_HEADING)) {
            if ((float)st[i].words > headline_words) rs->headline = 1;
            heading = i;
        }
        if (x->tag == WN_TAG_TIME && rs->date == WN_NONE && st[i].chars) rs->date = i;
        if (x->tag == WN_TAG_A || x->tag == WN_TAG_BUTTON) {
            if (st[i].chars && (float)st[i].chars <= link_chars && each_word(t, n, reply_word, NULL)) rs->reply = 1;
            const char *href = x->tag == WN_TAG_A ? wn_node_attr(dom, x, "href", NULL) : NULL;
            const char *hash = href ? strchr(href, '#') : NULL;
            /* (a word or a number: a "¶" heading anchor is no permalink) */
            if (st[i].words && (float)st[i].chars <= link_chars && hash && hash[1]) rs->permalink = 1;
            /* a teaser's headline: a link of more words than a name that
             * makes most of its line (a link inside a comment's sentence
             * does not) */
            uint32_t u = unit[i];
            if ((float)st[i].words > headline_words && (double)st[i].chars >= link_share * pg->ps->own[u].chars &&
                !wn_has_date(t, n))
                rs->headline = 1;
            /* a heading that links another page of the site, however
             * short its words ("Un breve sumario"): a story's title over
             * its teaser; a comment's heading names its author or links
             * the comment itself (#id) */
            if (heading_link && heading != WN_NONE && i < heading + dom->nodes[heading].size && href && href[0] &&
                !hash && (double)st[i].chars >= link_share * st[heading].chars && st[i].chars) {
                uint64_t host = wn_url_host(href);
                if (host == 0 || (host != 1 && host == wn_page_host(pg->d))) rs->headline = 1;
            }
        }
        if (unit[i] == i && d->stats[i].chars) {
            uint32_t own = pg->ps->own[i].chars;
            if (own == 0) continue;
            rs->lines++;
            if ((float)own <= line_chars) {
                rs->short_lines++;
            }
        }
        /* the date: the smallest element holding it ("9 hours ago", not
         * "9 hours ago Reply") */
        /* (a line, not a sentence: a caption "... in March 2015." is no date line) */
        if (!code && st[i].chars && (float)st[i].chars <= line_chars && st[i].stops == 0 && (rs->date == WN_NONE || wn_node_within(dom, rs->date, i)) &&
            wn_has_date(t, n))
            rs->date = i;
        /* an author: a short name of one to four words without digits, in
         * an element of its own (a line, <b>, <cite>; a link first: a
         * comment's bold title is no name) */
        if (!code && (rs->author == WN_NONE || (x->tag == WN_TAG_A && dom->nodes[rs->author].tag != WN_TAG_A)) && st[i].chars && (float)st[i].chars <= author_chars && st[i].words >= 1 &&
            (float)st[i].words <= author_words && st[i].stops == 0 && (float)st[i].elements <= author_elements) {
            int digit = 0;
            for (size_t k = 0; k < n && !digit; k++) digit = t[k] >= '0' && t[k] <= '9';
            if (!digit && !each_word(t, n, reply_word, NULL) && !each_word(t, n, date_word, NULL)) rs->author = i;
        }
    }
}

/* A "N comments" or "Leave a reply" line among the few elements just
 * before the run (under its parent, or before the parent). */
static uint32_t marker_before(const page *pg, uint32_t first)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    int looked = 0;
    const float lines = WN_RULE(d, COMMENT_MARKER_LINES);
    for (uint32_t i = first; i-- > 1 && (float)looked < lines;) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN) || d->labels.unit[i] != i || !pg->ps->own[i].chars)
            continue;
        if (i + x->size > first) continue; /* an ancestor of the run */
        looked++;
        size_t n;
        const char *t = text_of(d, i, &n);
        if ((float)d->stats[i].chars <= WN_RULE(d, COMMENT_MARKER_CHARS) && each_word(t, n, marker_word, NULL)) return i;
    }
    return WN_NONE;
}

/* Running text before the run (the post) or after it: the parent's
 * children on that side together, or the largest sibling on that side of
 * an ancestor. */
static float text_beside(const page *pg, uint32_t parent, uint32_t first, uint32_t last, int after)
{
    const wn_dom *dom = &pg->d->dom;
    float best = 0.0f;
    int past = 0;
    for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (c == first) past = 1;
        if (past == (after ? 2 : 0)) best += pg->pos[c];
        if (c == last) past = 2;
    }
    for (uint32_t b = parent; b != 0 && b != WN_NONE; b = dom->nodes[b].parent) {
        uint32_t a = dom->nodes[b].parent;
        if (a == WN_NONE) break;
        int beyond = 0;
        for (uint32_t c = dom->nodes[a].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
            if (c == b) { beyond = 1; continue; }
            if (beyond == after && pg->pos[c] > best) best = pg->pos[c];
        }
    }
    return best;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A record's body: without its author and date, and without the short
 * lines that are not sentences ("Reply", "says:"). */
typedef struct body_skip {
    const page *pg;
    const record_signs *rs;
} body_skip;

static int not_body(const void *ctx, uint32_t k)
{
    const body_skip *b = ctx;
    const winnow_doc *d = b->pg->d;
    uint32_t u = d->labels.unit[k];
    return (b->rs->author != WN_NONE && wn_node_within(&d->dom, b->rs->author, k)) ||
           (b->rs->date != WN_NONE && wn_node_within(&d->dom, b->rs->date, k)) ||
           (b->pg->ps->raw[u] <= 0.0f && (float)b->pg->ps->own[u].chars <= WN_RULE(d, COMMENT_LINE_CHARS));
}

/* Display text of node i into the arena; with rs, the record's body. */
static const char *display_text(const page *pg, uint32_t i, const record_signs *rs)
{
    winnow_doc *d = pg->d;
    wn_buf b;
    wn_buf_init(&b);
    body_skip ctx = {pg, rs};
    wn_node_text(&d->dom, i, &b, rs ? not_body : NULL, &ctx);
    const char *out = b.oom ? NULL : wn_arena_strndup(&d->arena, b.data ? b.data : "", b.len);
    wn_buf_free(&b);
    return out;
}

/* ---- the date alone, out of the line that holds it ----
 *
 * A record's date is the smallest element holding one, and that is often
 * the whole header line: "Re:Finally by lunchbox on Monday March 03, 2014
 * @10:32AM (#4411)" is one <div> whose date is plain text beside a link.
 * The date field keeps the words around the first date word or time:
 * weekdays, numbers, times, units of relative time ("9 hours ago"), and
 * the words that join them inside a date ("at", "de"); the rest of the
 * line (a title, "by", the author, "on", a comment number) is cut off.
 * A line with no such word is kept whole. */
static const char *const weekdays[] = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "tues", "wed", "thu",
    "thur", "thurs", "fri", "sat", "sun", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag",
    "sonntag", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "lunes", "martes",
    "miércoles", "jueves", "viernes", "sábado", "domingo", NULL};
/* units of relative time, the halves of the day, time zones, and the two
 * month names too common as words to find a date by ("may", "mar"), but
 * part of one beside a date word or a time */
static const char *const date_units[] = {
    "second", "seconds", "sec", "secs", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day",
    "days", "week", "weeks", "month", "months", "year", "years", "am", "pm", "a.m.", "p.m.", "utc", "gmt", "pst",
    "pdt", "est", "edt", "cst", "cdt", "mst", "mdt", "cet", "cest", "bst", "ist", "jst", "aest", "aedt", "may",
    "mar",
    /* "over a year ago", "about 3 hours ago" */
    "a", "an", "over", "about", "almost", "nearly", "just", "less", "more", "than", NULL};
/* only between two parts of a date: "March 3 at 10:32", "3 de marzo de
 * 2014", "Feb 18, 2026 | 8:50 am" */
static const char *const date_joins[] = {"at", "@", "-", "\xe2\x80\x93", "|", "\xc2\xb7", "\xe2\x80\xa2", "of", "de",
                                         "um", "\xc3\xa0", NULL};

enum { DATE_NONE, DATE_JOIN, DATE_PART, DATE_ANCHOR };

/* What the token w (len bytes, as on the page) is to a date. */
static int date_token(const char *w, size_t len)
{
    char low[40];
    while (len && (w[len - 1] == ',' || w[len - 1] == ';')) len--;
    if (len == 0 || len >= sizeof low) return DATE_NONE;
    for (size_t k = 0; k < len; k++) low[k] = (w[k] >= 'A' && w[k] <= 'Z') ? (char)(w[k] - 'A' + 'a') : w[k];
    low[len] = '\0';
    if (wn_has_date(low, len)) return DATE_ANCHOR;
    if (word_in(low, len, date_joins)) return DATE_JOIN;
    /* a weekday or a month short form may end with a period: "Mon.", "Jan." */
    size_t wl = len > 1 && low[len - 1] == '.' ? len - 1 : len;
    int one = 1;
    if (word_in(low, wl, weekdays) || word_in(low, len, date_units) || date_word(low, wl, &one)) return DATE_PART;
    /* a time with seconds, a zone offset: digits and ':', '+', '-', '.'
     * ("13:55:04", "+00:00"), which wn_has_date does not take alone */
    size_t digits = 0, other = 0;
    for (size_t k = 0; k < len; k++) {
        if (low[k] >= '0' && low[k] <= '9') digits++;
        else if (low[k] == ':' || low[k] == '+' || low[k] == '-' || low[k] == '.') other++;
        else break;
    }
    if (digits && other && digits + other == len && len <= 10) return DATE_PART;
    /* a day or a year: up to four digits, maybe an ordinal or a period */
    size_t d = 0;
    while (d < len && low[d] >= '0' && low[d] <= '9') d++;
    if (d == 0 || d > 4) return DATE_NONE;
    const char *rest = low + d;
    if (!*rest || strcmp(rest, ".") == 0 || strcmp(rest, "st") == 0 || strcmp(rest, "nd") == 0 ||
        strcmp(rest, "rd") == 0 || strcmp(rest, "th") == 0)
        return DATE_PART;
    return DATE_NONE;
}

/* The span of s that is its date: *b and *e, or all of s when no token
 * of it is a date word or time. */
static void date_span(const char *s, size_t n, size_t *b, size_t *e)
{
    enum { MAX_TOKENS = 64 }; /* a date line is short: past this, kept whole */
    size_t tb[MAX_TOKENS], te[MAX_TOKENS];
    int kind[MAX_TOKENS];
    size_t nt = 0, i = 0;
    *b = 0;
    *e = n;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
        if (i >= n) break;
        if (nt == MAX_TOKENS) return;
        tb[nt] = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') i++;
        te[nt] = i;
        kind[nt] = date_token(s + tb[nt], te[nt] - tb[nt]);
        nt++;
    }
    size_t a = 0;
    while (a < nt && kind[a] != DATE_ANCHOR) a++;
    if (a == nt) return;
    size_t first = a, last = a;
    while (first > 0 && kind[first - 1] != DATE_NONE) first--;
    while (last + 1 < nt && kind[last + 1] != DATE_NONE) last++;
    while (first < a && kind[first] == DATE_JOIN) first++;
    while (last > a && kind[last] == DATE_JOIN) last--;
    *b = tb[first];
    *e = te[last];
    while (*e > *b && (s[*e - 1] == ',' || s[*e - 1] == ';')) (*e)--;
    /* "(last edited Sep 08, 2008 12:59PM)": a bracket whose mate was cut off goes too */
    int open = 0, close = 0;
    for (size_t k = *b; k < *e; k++) {
        open += s[k] == '(';
        close += s[k] == ')';
    }
    if (open > close && s[*b] == '(') (*b)++;
    if (close > open && *e > *b && s[*e - 1] == ')') (*e)--;
}

static const char *date_text(const page *pg, uint32_t i)
{
    const char *line = display_text(pg, i, NULL);
    if (!line) return NULL;
    size_t b, e;
    date_span(line, strlen(line), &b, &e);
    if (b == 0 && line[e] == '\0') return line;
    return wn_arena_strndup(&pg->d->arena, line + b, e - b);
}

static int add_comment(const page *pg, uint32_t r, const record_signs *rs, size_t *cap)
{
    winnow_doc *d = pg->d;
    if (d->ncomments == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        wn_comment *m = wn_arena_alloc(&d->arena, nc * sizeof *m);
        if (!m) return -1;
        if (d->ncomments) memcpy(m, d->comments, d->ncomments * sizeof *m);
        d->comments = m;
        *cap = nc;
    }
    wn_comment *c = &d->comments[d->ncomments++];
    c->node = r;
    c->author = rs->author != WN_NONE ? display_text(pg, rs->author, NULL) : "";
    c->date = rs->date != WN_NONE ? date_text(pg, rs->date) : "";
    c->text = display_text(pg, r, rs);
    if (c->text && !*c->text) c->text = display_text(pg, r, NULL);
    return c->author && c->date && c->text ? 0 : -1;
}

/* Comment runs into is_comment (WN_REGION_COMMENT), records listed in
 * d->comments; mass is scratch of a node each. */
static int comment_runs(const page *pgp, float *mass, uint8_t *is_comment)
{
    const page pg = *pgp;
    winnow_doc *d = pg.d;
    const wn_page_scores *ps = pg.ps;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t n = dom->count;
    const float min_records = WN_RULE(d, COMMENT_MIN_RECORDS);
    if (min_records > (float)n) return 0;

    const float header_share = WN_RULE(d, COMMENT_HEADER_SHARE);
    const float max_links = WN_RULE(d, COMMENT_MAX_LINKS);
    const float post_ratio = WN_RULE(d, COMMENT_POST_RATIO);
    const float min_post = WN_RULE(d, COMMENT_MIN_POST);
    const float max_record = WN_RULE(d, COMMENT_MAX_RECORD);
    const float max_after = WN_RULE(d, COMMENT_MAX_AFTER);
    const float min_signs = WN_RULE(d, COMMENT_MIN_SIGNS), min_lines = WN_RULE(d, COMMENT_MIN_LINES);
    size_t cap = 0;
    int found = 0;
    for (uint32_t p = 1; p < n; p++) {
        const wn_node *px = &dom->nodes[p];
        /* not inside a sidebar, a footer or a list of links already known
         * (comments named as such are listed too) */
        if (px->tag == WN_TAG_TEXT || is_comment[p] || (px->flags & WN_NF_HIDDEN) || pg.pos[p] <= 0.0f ||
            (ps->boiler[p] & WN_HINT_BOILER & ~WN_HINT_COMMENT))
            continue;
        uint32_t c = px->first_child;
        while (c != WN_NONE) {
            if (!visible_element(dom, st, c)) { c = dom->nodes[c].next_sibling; continue; }
            /* the run of records alike to c, empty elements between them skipped */
            uint32_t first = c, last = c, count = 1;
            uint32_t k = dom->nodes[c].next_sibling;
            for (; k != WN_NONE; k = dom->nodes[k].next_sibling) {
                if (dom->nodes[k].tag == WN_TAG_TEXT || !visible_element(dom, st, k)) continue;
                if (!alike(&pg, last, k)) break;
                last = k;
                count++;
            }
            c = k;
            /* rows and cells: a data table, not a thread */
            unsigned tag = dom->nodes[first].tag;
            if ((float)count < min_records || tag == WN_TAG_TR || tag == WN_TAG_TD || tag == WN_TAG_TH) continue;
            /* the cheap tests first: most runs are menus and link lists */
            uint32_t chars = 0, links = 0, liked = 0, nm = 0;
            float run_pos = 0.0f;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                chars += st[r].chars;
                links += st[r].link_chars;
                run_pos += pg.pos[r];
            }
            if (run_pos <= 0.0f || (float)links > max_links * (float)chars) continue;
            uint32_t marker = marker_before(&pg, first);
            chars = links = 0;
            run_pos = 0.0f;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                if (dom->nodes[r].tag == WN_TAG_TEXT || !visible_element(dom, st, r)) continue;
                record_signs rs;
                read_record(&pg, r, &rs);
                chars += st[r].chars;
                links += st[r].link_chars;
                run_pos += pg.pos[r];
                mass[nm++] = pg.pos[r];
                /* a comment: a header or footer line with a date or a reply
                 * link, and a second sign unless a marker heads the run */
                int when = rs.date != WN_NONE || rs.reply;
                int signs = (rs.date != WN_NONE) + rs.reply + rs.avatar + rs.permalink + (rs.author != WN_NONE);
                if ((float)rs.lines >= min_lines && rs.short_lines >= 1 && when && !rs.headline &&
                    (float)signs >= (marker != WN_NONE ? 1.0f : min_signs))
                    liked++;
            }
            if ((float)liked < header_share * (float)count || run_pos <= 0.0f ||
                (float)links > max_links * (float)chars)
                continue;
            /* forum or comments: the post before the run must outweigh a
             * typical record; a thread whose first post opens the run has
             * no such text before it, and stays content */
            qsort(mass, nm, sizeof *mass, cmp_float);
            float median = mass[nm / 2];
            float post = text_beside(&pg, p, first, last, 0);
            if (post < min_post || post < post_ratio * median) continue;
            /* sections of the page layout (one of them holds the article)
             * and quotes or embedded posts inside an article (its text
             * goes on after them) are no thread under a post */
            if (mass[nm - 1] > max_record * post || text_beside(&pg, p, first, last, 1) > max_after * post) continue;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                if (dom->nodes[r].tag == WN_TAG_TEXT || !visible_element(dom, st, r)) continue;
                memset(is_comment + r, 1, dom->nodes[r].size);
                record_signs rs;
                read_record(&pg, r, &rs);
                if (add_comment(&pg, r, &rs, &cap) != 0) return -1;
                found++;
            }
            if (marker != WN_NONE) memset(is_comment + marker, 1, dom->nodes[marker].size);
        }
    }
    return found;
}

/* ---- teasers: a headline link over a short summary, repeated ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t wn_page_host(winnow_doc *d)
{
    if (d->page_host) return d->page_host;
    const wn_dom *dom = &d->dom;
    if (d->src_url && wn_url_host(d->src_url) > 1) return d->page_host = wn_url_host(d->src_url);
    uint64_t host = 1;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < dom->count; i++) cap += dom->nodes[i].tag == WN_TAG_A;
    wn_arena *s = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(s);
    uint64_t *h = cap ? wn_arena_alloc(s, (size_t)cap * sizeof *h) : NULL;
    if (!h) return d->page_host = host;
    uint32_t m = 0;
    for (uint32_t i = 0; i < dom->count; i++) {
        if (dom->nodes[i].tag != WN_TAG_A) continue;
        const char *href = wn_node_attr(dom, &dom->nodes[i], "href", NULL);
        uint64_t k = href ? wn_url_host(href) : 0;
        if (k > 1) h[m++] = k;
    }
    qsort(h, m, sizeof *h, cmp_u64);
    uint32_t best = 0;
    for (uint32_t i = 0, j; i < m; i = j) {
        for (j = i; j < m && h[j] == h[i]; j++) {}
        if (j - i > best) best = j - i, host = h[i];
    }
    wn_arena_release(s, mark);
    return d->page_host = host;
}

/* Whether a link before node `before`, from node b on, holds a picture and
 * goes where href does. */
static int picture_link(const wn_dom *dom, uint32_t b, uint32_t before, const char *href)
{
    for (uint32_t a = b; a < before; a++) {
        const wn_node *x = &dom->nodes[a];
        if (x->tag != WN_TAG_A) continue;
        const char *h = wn_node_attr(dom, x, "href", NULL);
        if (!h || strcmp(h, href) != 0) continue;
        for (uint32_t j = a + 1; j < a + x->size; j++)
            if (dom->nodes[j].tag == WN_TAG_IMG) return 1;
    }
    return 0;
}

enum { TEASER_PLAIN = 1, TEASER_CARD = 2 };

/* Whether the record of sibling elements kid[0..k) is a teaser: it opens
 * with a line that is a link of a headline's words to another page of
 * this site, and unlinked text follows in its other lines or element:
 * TEASER_CARD when a picture before the headline links the same page,
 * TEASER_PLAIN for other teasers, 0 for none. */
static int teaser_like(page *pg, const uint32_t *kid, uint32_t k)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t b = kid[0], e = kid[k - 1] + dom->nodes[kid[k - 1]].size;
    uint32_t start = st[b].nt_begin;
    for (uint32_t i = b; i < e; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || !st[i].chars || (x->flags & WN_NF_HIDDEN)) continue;
        /* the first text of the record: a headline link or no teaser */
        if (st[i].nt_begin > start + 1) return 0;
        if (x->tag != WN_TAG_A) continue;
        /* the link is its line: a link that opens a sentence ("Chapter 1
         * - gives an overview") is the text's own */
        uint32_t u = d->labels.unit[i];
        if ((double)st[i].chars < (double)WN_RULE(d, TEASER_LINK_LINE_SHARE) * pg->ps->own[u].chars) return 0;
        const char *href = wn_node_attr(dom, x, "href", NULL);
        if (!href || href[0] == '#' || !href[0]) return 0;
        /* another page of this site: a link to elsewhere is a citation */
        uint64_t host = wn_url_host(href);
        if (host == 1 || (host && host != wn_page_host(pg->d))) return 0;
        size_t n;
        const char *t = text_of(d, i, &n);
        /* a name of a word or two is a headline under a picture linking
         * the same page (a card: a product's, a recipe's) */
        const int card = picture_link(dom, b, i, href);
        float min_words = WN_RULE(d, TEASER_HEADLINE_WORDS);
        if (card && WN_RULE(d, TEASER_CARD_WORDS) < min_words) min_words = WN_RULE(d, TEASER_CARD_WORDS);
        if ((float)st[i].words < min_words || wn_has_date(t, n)) return 0;
        float summary = 0.0f;
        for (uint32_t r = 0; r < k; r++) summary += (float)(st[kid[r]].chars - st[kid[r]].link_chars);
        if (summary < WN_RULE(d, TEASER_MIN_SUMMARY) || summary > WN_RULE(d, TEASER_MAX_SUMMARY)) return 0;
        return card ? TEASER_CARD : TEASER_PLAIN;
    }
    return 0;
}

/* Text that ends cut short: "…", "...", "[…]", "[...]", "(…)". */
static int ends_cut(const char *t, size_t n)
{
    while (n && t[n - 1] == ' ') n--;
    if (n && (t[n - 1] == ']' || t[n - 1] == ')')) n--;
    return n >= 3 && (memcmp(t + n - 3, "\xe2\x80\xa6", 3) == 0 || memcmp(t + n - 3, "...", 3) == 0);
}

/* Whether the record kid[0..k) is an excerpt of another post: it holds a
 * link or a picture, and its running text is one passage cut short with
 * an ellipsis. */
static int excerpt_like(const page *pg, const uint32_t *kid, uint32_t k)
{
    const winnow_doc *d = pg->d;
    const wn_dom *dom = &d->dom;
    uint32_t b = kid[0], e = kid[k - 1] + dom->nodes[kid[k - 1]].size;
    int pointer = 0, cut = 0, passages = 0;
    for (uint32_t i = b; i < e; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (x->tag == WN_TAG_IMG || (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK))) pointer = 1;
        if (d->labels.unit[i] != i) continue;
        const wn_unit_stats *o = &pg->ps->own[i];
        float plain = (float)(o->chars - o->link_chars);
        if (plain < WN_RULE(d, TEASER_MIN_SUMMARY)) continue;
        if (plain > WN_RULE(d, TEASER_MAX_EXCERPT)) return 0;
        /* a passage, not a line ending "and more ..." */
        if (plain < WN_RULE(d, TEASER_MIN_EXCERPT)) return 0;
        passages++;
        size_t n;
        const char *t = text_of(d, i, &n);
        cut |= ends_cut(t, n);
    }
    return pointer && cut && passages == 1;
}

/* Teaser runs outside the regions already marked: WN_REGION_TEASER added
 * to region; kid and mass are scratch of a node each. */
static int teaser_runs(page *pgp, float *mass, uint32_t *kid, uint8_t *region)
{
    page pg = *pgp;
    winnow_doc *d = pg.d;
    const wn_page_scores *ps = pg.ps;
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    uint32_t n = dom->count;
    const float min_records = WN_RULE(d, TEASER_MIN_RECORDS);
    const uint32_t title = ps->title_heading;
    /* only on an article page: a headline that matches the title; a list
     * page's teasers are its content */
    if (title == WN_NONE || min_records > (float)n) return 0;
    const float share = WN_RULE(d, TEASER_SHARE), post_ratio = WN_RULE(d, TEASER_POST_RATIO);
    const float min_post = WN_RULE(d, COMMENT_MIN_POST);
    int found = 0;
    for (uint32_t p = 1; p < n; p++) {
        const wn_node *px = &dom->nodes[p];
        if (px->tag == WN_TAG_TEXT || region[p] || (px->flags & WN_NF_HIDDEN) || pg.pos[p] <= 0.0f ||
            (ps->boiler[p] & WN_HINT_BOILER) || wn_node_within(dom, p, title))
            continue;
        uint32_t m = 0;
        for (uint32_t c = px->first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (visible_element(dom, st, c)) kid[m++] = c;
        for (uint32_t s = 0; s < m;) {
            /* records of one element alike to the next, or pairs (a <dt>
             * headline and its <dd>, an <h3> and its <p>) */
            uint32_t len1 = 1;
            while (s + len1 < m && alike(&pg, kid[s + len1 - 1], kid[s + len1])) len1++;
            uint32_t len2 = 0;
            if (len1 == 1)
                while (s + len2 + 3 < m && alike(&pg, kid[s + len2], kid[s + len2 + 2]) &&
                       dom->nodes[kid[s + len2 + 1]].tag == dom->nodes[kid[s + len2 + 3]].tag &&
                       dom->nodes[kid[s + len2]].tag != dom->nodes[kid[s + len2 + 1]].tag)
                    len2 += 2;
            uint32_t period = len2 ? 2 : 1, len = len2 ? len2 + 2 : len1;
            uint32_t count = len / period, liked = 0, excerpts = 0, cards = 0, nm = 0;
            /* (rows: a data table, not a list of stories) */
            unsigned tag = dom->nodes[kid[s]].tag;
            if ((float)count >= min_records && tag != WN_TAG_TR && tag != WN_TAG_TD && tag != WN_TAG_TH) {
                for (uint32_t r = s; r + period <= s + len; r += period) {
                    float rm = 0.0f;
                    for (uint32_t k = r; k < r + period; k++) rm += pg.pos[kid[k]];
                    mass[nm++] = rm;
                    int kind = teaser_like(&pg, kid + r, period);
                    if (kind) liked++, cards += kind == TEASER_CARD;
                    else if (excerpt_like(&pg, kid + r, period)) liked++, excerpts++;
                }
                qsort(mass, nm, sizeof *mass, cmp_float);
                /* the page's own text: running text beside the run's
                 * parent or its ancestors, more than a few records' worth */
                float beside = text_beside(&pg, p, kid[s], kid[s + len - 1], 0);
                float after = text_beside(&pg, p, kid[s], kid[s + len - 1], 1);
                if (after > beside) beside = after;
                /* a list of other stories stands apart: records among the
                 * paragraphs of an article (a "See also" list, links
                 * between paragraphs) are its own text */
                float run_pos = 0.0f;
                for (uint32_t k = s; k < s + len; k++) run_pos += pg.pos[kid[k]];
                float near = pg.pos[px->parent] - run_pos;
                /* excerpts cut short with an ellipsis say what they are
                 * wherever they stand */
                int cut = (float)excerpts >= WN_RULE(d, TEASER_EXCERPT_SHARE) * (float)count;
                float ratio = cut ? WN_RULE(d, TEASER_EXCERPT_POST_RATIO) : post_ratio;
                /* so do cards (a picture and a headline linking one page
                 * over a summary), set apart from the text or not */
                int apart = cut || (float)cards >= WN_RULE(d, TEASER_CARD_SHARE) * (float)count;
                if ((cut || (float)liked >= share * (float)count) && beside >= min_post && beside >= ratio * mass[nm / 2] &&
                    (apart || near < WN_RULE(d, TEASER_NEAR_TEXT) * mass[nm / 2])) {
                    uint32_t b = kid[s], e = kid[s + len - 1] + dom->nodes[kid[s + len - 1]].size;
                    for (uint32_t k = b; k < e; k++) region[k] |= WN_REGION_TEASER;
                    /* explaining: which rule made it a list of other posts */
                    if (cut && d->explain)
                        for (uint32_t k = b; k < e; k++)
                            if (!ps->boiler[k]) d->explain->boil_why[k] = WN_WHY_TEASER_EXCERPTS;
                    found += (int)count;
                }
            }
            s += len;
        }
    }
    return found;
}

int wn_record_regions(winnow_doc *d, const wn_page_scores *ps, const float *pos, int comments, uint8_t *region)
{
    uint32_t n = d->dom.count;
    d->comments = NULL;
    d->ncomments = 0;
    if (n < 2 || (!comments && ps->title_heading == WN_NONE)) return 0;
    /* one scan of the page's shapes for both kinds of run */
    page pg;
    /* the page's shapes and masses are scratch; the comments found go in
     * the page arena */
    wn_arena *scratch = wn_doc_scratch(d);
    wn_arena_mark mark = wn_arena_save(scratch);
    float *mass = wn_arena_alloc(scratch, (size_t)n * sizeof(float));
    uint32_t *kid = wn_arena_alloc(scratch, (size_t)n * sizeof(uint32_t));
    int found = -1, teasers = -1;
    if (mass && kid && page_init(&pg, d, ps, pos) == 0) {
        found = comments ? comment_runs(&pg, mass, region) : 0;
        if (found >= 0) teasers = teaser_runs(&pg, mass, kid, region);
    }
    wn_arena_release(scratch, mark);
    return found < 0 || teasers < 0 ? -1 : found + teasers;
}
