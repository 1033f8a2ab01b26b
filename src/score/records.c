/* The page view the record detectors share (shapes, masses, text of the
 * page's elements), reader comments found from structure (comment_runs),
 * and wn_record_regions, which runs them and the teasers of teasers.c. */
#include "records_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../util/buf.h"
#define XXH_INLINE_ALL
#include <xxhash.h>

/* The lengths of a record's lines, names and links are rows of the rule
 * table (COMMENT_LINE_CHARS, COMMENT_AUTHOR_*, COMMENT_HEADLINE_WORDS,
 * COMMENT_MARKER_CHARS, COMMENT_LINK_CHARS). */

/* ---- the page ---- */

const char *wn_text_of(const winnow_doc *d, uint32_t i, size_t *n)
{
    const wn_stats *s = &d->stats[i];
    *n = s->nt_end - s->nt_begin;
    return d->page_text.text + s->nt_begin;
}

/* class_shape's bytes: the spaces between tokens, the digits */
enum { SHAPE_SPACE = 1, SHAPE_DIGIT = 2 };
static const uint8_t shape_byte[256] = {
    [' '] = SHAPE_SPACE, ['\t'] = SHAPE_SPACE, ['\n'] = SHAPE_SPACE, ['0'] = SHAPE_DIGIT, ['1'] = SHAPE_DIGIT,
    ['2'] = SHAPE_DIGIT, ['3'] = SHAPE_DIGIT,  ['4'] = SHAPE_DIGIT,  ['5'] = SHAPE_DIGIT, ['6'] = SHAPE_DIGIT,
    ['7'] = SHAPE_DIGIT, ['8'] = SHAPE_DIGIT,  ['9'] = SHAPE_DIGIT,
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
        if ((tl == 3 && (!memcmp(c + b, "odd", 3) || !memcmp(c + b, "alt", 3))) ||
            (tl == 4 && !memcmp(c + b, "even", 4)))
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

int wn_visible_element(const wn_dom *dom, const wn_stats *st, uint32_t c)
{
    const wn_node *x = &dom->nodes[c];
    return x->tag != WN_TAG_TEXT && !(x->flags & WN_NF_HIDDEN) && (st[c].chars > 0 || st[c].images > 0);
}

/* The shape keys of an element, each computed when first asked for: the
 * record searches compare the children of a few candidates only. Both are
 * 0 for the root and text nodes. */
uint64_t wn_shape_cls(const page *pg, uint32_t i)
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
                if (t == WN_TAG_TEXT || t == WN_TAG_BR || t == last || !wn_visible_element(dom, pg->d->stats, c))
                    continue;
                h = (h ^ t) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
                last = t;
            }
        }
        pg->kids[i] = h;
        pg->have[i] |= 2;
    }
    return pg->kids[i];
}

int wn_alike(const page *pg, uint32_t a, uint32_t b)
{
    const wn_node *x = &pg->d->dom.nodes[a], *y = &pg->d->dom.nodes[b];
    if (x->tag != y->tag) return 0;
    uint64_t ca = wn_shape_cls(pg, a);
    if (ca && ca == wn_shape_cls(pg, b)) return 1;
    uint64_t ka = shape_kids(pg, a);
    return ka && ka == shape_kids(pg, b);
}

/* The shape keys' tables, filled as they are asked for (pos: the page
 * scorer's running text per subtree). */
int wn_page_init(page *pg, winnow_doc *d, const wn_page_scores *ps, const float *pos)
{
    uint32_t n = d->dom.count;
    wn_arena *s = wn_doc_scratch(d);
    *pg = (page){ d,
                  ps,
                  pos,
                  wn_arena_array(s, n, sizeof(uint64_t)),
                  wn_arena_array(s, n, sizeof(uint64_t)),
                  wn_arena_calloc(s, n, 1),
                  0 };
    return pg->cls && pg->kids && pg->have ? 0 : -1;
}

/* Whether the date line t[0..n) is a field: a label ending with ':'
 * before its date ("joined: mar 2019"). */
static int field_label(const char *t, size_t n)
{
    size_t b, e;
    wn_date_span(t, n, &b, &e);
    while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\n')) b--;
    return b > 0 && t[b - 1] == ':';
}

void wn_read_record(const page *pg, uint32_t r, record_signs *rs)
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
    uint32_t end = r + dom->nodes[r].size, heading = WN_NONE, field = WN_NONE;
    int body = 0;
    for (uint32_t i = r; i < end; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        size_t n;
        const char *t = wn_text_of(d, i, &n);
        /* code samples hold dates and names that are not a byline */
        int code = (x->flags & WN_NF_PRE) || wn_tag_has(x->tag, WN_TF_CODE);
        if (x->tag == WN_TAG_IMG) rs->avatar = 1;
        if (wn_tag_has(x->tag, WN_TF_HEADING)) {
            if (wn_word_units(st[i].words, st[i].cjk) > headline_words) rs->headline = 1;
            heading = i;
        }
        if (x->tag == WN_TAG_TIME && rs->date == WN_NONE && st[i].chars) rs->date = i;
        if (x->tag == WN_TAG_A || x->tag == WN_TAG_BUTTON) {
            if (st[i].chars && (float)st[i].chars <= link_chars && wn_each_word(t, n, wn_reply_word, NULL))
                rs->reply = 1;
            const char *href = x->tag == WN_TAG_A ? wn_node_attr(dom, x, "href", NULL) : NULL;
            const char *hash = href ? strchr(href, '#') : NULL;
            /* (a word or a number: a "¶" heading anchor is no permalink) */
            if (st[i].words && (float)st[i].chars <= link_chars && hash && hash[1]) rs->permalink = 1;
            /* a teaser's headline: a link of more words than a name that
             * makes most of its line (a link inside a comment's sentence
             * does not) */
            uint32_t u = unit[i];
            if (wn_word_units(st[i].words, st[i].cjk) > headline_words &&
                (double)st[i].chars >= link_share * pg->ps->own[u].chars && !wn_has_date(t, n))
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
            if ((float)own <= line_chars) { rs->short_lines++; }
        }
        /* the date: the smallest element holding it ("9 hours ago", not
         * "9 hours ago Reply") */
        /* (a line, not a sentence: a caption "... in March 2015." is no date line) */
        /* (a post's short date may have dots: "12.03.2015, 14:22") */
        if (!code && st[i].chars && (float)st[i].chars <= line_chars &&
            (st[i].stops == 0 || (pg->posts && (float)st[i].chars <= author_chars)) &&
            (rs->date == WN_NONE || wn_node_within(dom, rs->date, i)) &&
            (wn_has_date(t, n) || (pg->posts && wn_has_word_month_date(t, n)))) {
            /* a post's profile field ("Joined: Mar 2019") dates its author,
             * not the post: taken only when nothing else is */
            if (pg->posts && field_label(t, n)) {
                if (field == WN_NONE) field = i;
            } else {
                rs->date = i;
            }
        }
        /* a post's author heads it: the running text is past it */
        if (pg->posts && unit[i] == i && pg->ps->raw[i] > 0.0f && (float)pg->ps->own[i].chars > line_chars) body = 1;
        /* an author: a short name of one to four words without digits, in
         * an element of its own (a line, <b>, <cite>; a link first: a
         * comment's bold title is no name); a post's author may have digits
         * ("user3080392") or, linked, a dot ("b.scherer"), but is no label
         * ("Posts:") nor an initial */
        if (!code && !body &&
            (rs->author == WN_NONE || (x->tag == WN_TAG_A && dom->nodes[rs->author].tag != WN_TAG_A)) &&
            st[i].chars > (unsigned)pg->posts && (float)st[i].chars <= author_chars && st[i].words >= 1 &&
            wn_word_units(st[i].words, st[i].cjk) <= author_words &&
            (st[i].stops == 0 || (pg->posts && x->tag == WN_TAG_A)) && (float)st[i].elements <= author_elements) {
            int digit = 0, letter = 0;
            for (size_t k = 0; k < n; k++) {
                digit |= t[k] >= '0' && t[k] <= '9';
                letter |= (t[k] >= 'a' && t[k] <= 'z') || (unsigned char)t[k] >= 0x80;
            }
            size_t m = n;
            while (m > 0 && (t[m - 1] == ' ' || t[m - 1] == '\n')) m--;
            if (pg->posts) digit = !letter || (m > 0 && t[m - 1] == ':') || wn_has_date(t, n);
            if (!digit && !wn_each_word(t, n, wn_reply_word, NULL) && !wn_each_word(t, n, wn_date_word, NULL))
                rs->author = i;
        }
    }
    if (rs->date == WN_NONE) rs->date = field;
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
        const char *t = wn_text_of(d, i, &n);
        if ((float)d->stats[i].chars <= WN_RULE(d, COMMENT_MARKER_CHARS) && wn_each_word(t, n, wn_marker_word, NULL))
            return i;
    }
    return WN_NONE;
}

/* Running text before the run (the post) or after it: the parent's
 * children on that side together, or the largest sibling on that side of
 * an ancestor. */
float wn_text_beside(const page *pg, uint32_t parent, uint32_t first, uint32_t last, int after)
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
            if (c == b) {
                beyond = 1;
                continue;
            }
            if (beyond == after && pg->pos[c] > best) best = pg->pos[c];
        }
    }
    return best;
}

int wn_cmp_float(const void *a, const void *b)
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

const char *wn_display_text(const page *pg, uint32_t i, const record_signs *rs)
{
    winnow_doc *d = pg->d;
    wn_buf b;
    wn_buf_init(&b);
    body_skip ctx = { pg, rs };
    wn_node_text(&d->dom, i, &b, rs ? not_body : NULL, &ctx);
    const char *out = b.oom ? NULL : wn_arena_strndup(&d->arena, b.data ? b.data : "", b.len);
    wn_buf_free(&b);
    return out;
}

const char *wn_date_text(const page *pg, uint32_t i)
{
    const char *line = wn_display_text(pg, i, NULL);
    if (!line) return NULL;
    size_t b, e;
    wn_date_span(line, strlen(line), &b, &e);
    if (b == 0 && line[e] == '\0') return line;
    return wn_arena_strndup(&pg->d->arena, line + b, e - b);
}

wn_comment *wn_record_push(winnow_doc *d, wn_comment **list, size_t *count, size_t *cap)
{
    if (*count == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        wn_comment *m = wn_arena_alloc(&d->arena, nc * sizeof *m);
        if (!m) return NULL;
        if (*count) memcpy(m, *list, *count * sizeof *m);
        *list = m;
        *cap = nc;
    }
    return &(*list)[(*count)++];
}

int wn_record_entry(const page *pg, uint32_t r, const record_signs *rs, wn_comment *c)
{
    c->node = r;
    c->author = rs->author != WN_NONE ? wn_display_text(pg, rs->author, NULL) : "";
    c->date = rs->date != WN_NONE ? wn_date_text(pg, rs->date) : "";
    c->text = wn_display_text(pg, r, rs);
    if (c->text && !*c->text) c->text = wn_display_text(pg, r, NULL);
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
            if (!wn_visible_element(dom, st, c)) {
                c = dom->nodes[c].next_sibling;
                continue;
            }
            /* the run of records wn_alike to c, empty elements between them skipped */
            uint32_t first = c, last = c, count = 1;
            uint32_t k = dom->nodes[c].next_sibling;
            for (; k != WN_NONE; k = dom->nodes[k].next_sibling) {
                if (dom->nodes[k].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, k)) continue;
                if (!wn_alike(&pg, last, k)) break;
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
                if (dom->nodes[r].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, r)) continue;
                record_signs rs;
                wn_read_record(&pg, r, &rs);
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
            qsort(mass, nm, sizeof *mass, wn_cmp_float);
            float median = mass[nm / 2];
            float post = wn_text_beside(&pg, p, first, last, 0);
            if (post < min_post || post < post_ratio * median) continue;
            /* sections of the page layout (one of them holds the article)
             * and quotes or embedded posts inside an article (its text
             * goes on after them) are no thread under a post */
            if (mass[nm - 1] > max_record * post || wn_text_beside(&pg, p, first, last, 1) > max_after * post) continue;
            for (uint32_t r = first; r != WN_NONE; r = r == last ? WN_NONE : dom->nodes[r].next_sibling) {
                if (dom->nodes[r].tag == WN_TAG_TEXT || !wn_visible_element(dom, st, r)) continue;
                memset(is_comment + r, 1, dom->nodes[r].size);
                record_signs rs;
                wn_read_record(&pg, r, &rs);
                wn_comment *cm = wn_record_push(d, &d->comments, &d->ncomments, &cap);
                if (!cm || wn_record_entry(&pg, r, &rs, cm) != 0) return -1;
                found++;
            }
            if (marker != WN_NONE) memset(is_comment + marker, 1, dom->nodes[marker].size);
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
    if (mass && kid && wn_page_init(&pg, d, ps, pos) == 0) {
        found = comments ? comment_runs(&pg, mass, region) : 0;
        if (found >= 0) teasers = wn_teaser_runs(&pg, mass, kid, region);
    }
    wn_arena_release(scratch, mark);
    return found < 0 || teasers < 0 ? -1 : found + teasers;
}
