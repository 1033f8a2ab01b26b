#include "headline.h"

#include "../text/text.h"
#include "links.h"
#include "../util/url.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* A unit of one "word" (CJK text has no spaces: "Docker常用命令") is the
 * headline when its text is a part of the title making up at least a third
 * of it (TITLE_PART_PARTS). */
static int title_part_of(const winnow_doc *d, uint32_t i, const char *lower, size_t len)
{
    const wn_stats *s = &d->stats[i];
    const char *u = d->page_text.text + s->nt_begin;
    size_t n = s->nt_end - s->nt_begin;
    while (n && u[0] == ' ') {
        u++;
        n--;
    }
    while (n && u[n - 1] == ' ') n--;
    if (n < 6 || (double)n * (double)WN_RULE(d, TITLE_PART_PARTS) < (double)len || n > len) return 0;
    /* only text written without spaces: at least two characters of three
     * UTF-8 bytes (CJK); a one-word Latin unit is a section or tag name */
    int wide = 0;
    for (size_t j = 0; j < n; j++) wide += (unsigned char)u[j] >= 0xE0;
    if (wide < 2) return 0;
    for (size_t j = 0; j + n <= len; j++)
        if (lower[j] == u[0] && memcmp(lower + j, u, n) == 0) return 1;
    return 0;
}

static int title_part(const winnow_doc *d, uint32_t i, const wn_title *tt)
{
    return title_part_of(d, i, tt->lower, tt->len) || (tt->alt_len && title_part_of(d, i, tt->alt_lower, tt->alt_len));
}

/* A breadcrumb trail ("Docs \u00BB Library \u00BB", "Home > News"): a
 * closing guillemet or angle with no opening one, or a spaced '>'. Its
 * words are the title's site and section part, never a headline. */
static int breadcrumb_like(const char *t, size_t n)
{
    /* one pass: the marks' lead bytes are rare in text */
    int open2 = 0, close2 = 0, open1 = 0, close1 = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '>') {
            if (i > 0 && i + 1 < n && t[i - 1] == ' ' && t[i + 1] == ' ') return 1;
        } else if (c == 0xC2 && i + 1 < n) {
            open2 |= (unsigned char)t[i + 1] == 0xAB;
            close2 |= (unsigned char)t[i + 1] == 0xBB;
        } else if (c == 0xE2 && i + 2 < n && (unsigned char)t[i + 1] == 0x80) {
            open1 |= (unsigned char)t[i + 2] == 0xB9;
            close1 |= (unsigned char)t[i + 2] == 0xBA;
        }
    }
    return (close2 && !open2) || (close1 && !open1);
}

static int title_like_main(const winnow_doc *d, uint32_t i, const wn_title *tt, const uint64_t *unit, size_t nu);

/* Whether t[0..n) has a letter of a script written with spaces. */
static int spaced_letters(const char *t, size_t n)
{
    for (size_t i = 0; i < n;) {
        int32_t cp = wn_utf8_next(t, n, &i);
        if (cp < 0x80 ? (unsigned)(cp | 0x20) - 'a' < 26u : wn_char_class(cp) == WN_CC_WORD) return 1;
    }
    return 0;
}

int wn_title_like(const winnow_doc *d, uint32_t i, const wn_title *tt)
{
    const wn_stats *s = &d->stats[i];
    if ((float)s->chars < WN_RULE(d, TITLE_MIN_CHARS) || (float)s->chars > WN_RULE(d, TITLE_MAX_CHARS)) return 0;
    if (WN_RULE(d, TITLE_BREADCRUMB) > 0.0f &&
        breadcrumb_like(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin))
        return 0;
    uint64_t unit[64];
    size_t nu = wn_words_of(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin, unit, 64);
    /* counted as words in every script (a CJK pair of characters is half
     * of one): a unit of under two words is no title, unless it is one
     * word or one run of text without spaces ("Docker\u5e38\u7528" is a
     * word and pairs) that is a part of the title */
    const double wu = wn_words_weight(unit, nu);
    if (nu == 1 || (nu > 1 && wu < 2.0 && !spaced_letters(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin)))
        return title_part(d, i, tt);
    if (nu < 2 || wu < 2.0 || (float)wu > WN_RULE(d, TITLE_MAX_WORDS)) return 0;
    if (title_like_main(d, i, tt, unit, nu)) return 1;
    /* the declared title, when the <title> names only the site */
    if (tt->nalt < 2) return 0;
    double shared = wn_words_shared_weight(unit, nu, tt->alt, tt->nalt);
    return (float)shared >= WN_RULE(d, TITLE_WORD_SHARE) * (float)wu &&
           (float)shared >= WN_RULE(d, TITLE_COVER) * (float)wn_words_weight(tt->alt, tt->nalt);
}

static int title_like_main(const winnow_doc *d, uint32_t i, const wn_title *tt, const uint64_t *unit, size_t nu)
{
    const uint64_t *title = tt->words;
    size_t nt = tt->nwords;
    const wn_stats *s = &d->stats[i];
    /* words as words (wn_words_weight) */
    double shared = wn_words_shared_weight(unit, nu, title, nt);
    if ((float)shared < WN_RULE(d, TITLE_WORD_SHARE) * (float)wn_words_weight(unit, nu)) return 0;
    if ((float)shared >= WN_RULE(d, TITLE_COVER) * (float)wn_words_weight(title, nt)) return 1;
    /* a title with a long subtitle or section name: a heading carrying
     * three or more of its words is the headline */
    unsigned tag = d->dom.nodes[i].tag;
    int heading = tag == WN_TAG_H1 || tag == WN_TAG_H2 || tag == WN_TAG_H3 || (s->hints & WN_HINT_TITLE);
    if (!heading) return 0;
    if ((float)shared >= WN_RULE(d, TITLE_HEADING_WORDS)) return 1;
    /* a heading covering the first part of a title "Headline - Site Name"
     * (the site's part as long as the headline, or longer), when that part
     * is not the site's name */
    if (WN_RULE(d, TITLE_PART_COVER) <= 0.0f || tt->nseg < 2 || tt->site_first) return 0;
    size_t np = tt->seg_end[0];
    if (np < 2) return 0;
    double in_part = wn_words_shared_weight(unit, nu, title, np);
    return in_part >= 2.0 && (float)in_part >= WN_RULE(d, TITLE_PART_COVER) * (float)wn_words_weight(title, np);
}

/* The document title as words and as folded text; 0 when it has fewer
 * than two words (no evidence). */
/* s case-folded as the page text is, runs of spaces collapsed, into out
 * (at most cap bytes); its length. */
static size_t fold_text(const char *s, char *out, size_t cap)
{
    size_t len = 0;
    int space = 1;
    const size_t n = strlen(s);
    for (size_t i = 0; i < n && len + 4 <= cap;) {
        unsigned char b = (unsigned char)s[i];
        if (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
            if (!space) out[len++] = ' ';
            space = 1;
            i++;
            continue;
        }
        if (b < 0x80) {
            out[len++] = (char)tolower(b);
            i++;
        } else {
            len += wn_utf8_put(out + len, wn_fold(wn_utf8_next(s, n, &i)));
        }
        space = 0;
    }
    while (len && out[len - 1] == ' ') len--;
    return len;
}

/* Bytes of a spaced separator between a title's parts at t[i] (" - ",
 * " | ", " \u2013 ", " \u2014 ", " \u00B7 ", " :: ", " / "), 0 if none. */
static size_t title_separator(const char *t, size_t i, size_t n)
{
    static const char *const seps[] = { " - ", " | ", " \xE2\x80\x93 ", " \xE2\x80\x94 ", " \xC2\xB7 ", " :: ", " / " };
    if (t[i] != ' ') return 0;
    for (size_t k = 0; k < sizeof seps / sizeof seps[0]; k++) {
        size_t m = strlen(seps[k]);
        if (i + m <= n && memcmp(t + i, seps[k], m) == 0) return m;
    }
    return 0;
}

/* The letters and digits of s[0..n), ASCII folded, into out (at most
 * cap - 1 bytes, NUL-terminated); their count. */
static size_t alnum_key(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (wn_ascii_alnum(c) || c >= 0x80) out[k++] = (char)(c < 0x80 ? tolower(c) : c);
    }
    out[k] = '\0';
    return k;
}

/* Whether title part t[0..n) names the site: its letters are the declared
 * site name's, or the page's host's without "www." ("4DCu.be" on
 * blog.4dcu.be, "Diario di Valle" on diariodivalle.example). */
static int site_part(const winnow_doc *d, const char *t, size_t n)
{
    char part[128], key[128];
    size_t pn = alnum_key(t, n, part, sizeof part);
    if (pn < 3) return 0;
    const char *name = d->meta.field[WINNOW_META_SITE_NAME];
    if (name && alnum_key(name, strlen(name), key, sizeof key) == pn && memcmp(key, part, pn) == 0) return 1;
    const char *url = d->meta.field[WINNOW_META_URL];
    if (!url || !*url) url = d->src_url;
    if (!url) return 0;
    size_t hl;
    const char *h = wn_url_host_span(url, &hl);
    /* the host, and each shorter suffix after a dot, with or without its
     * last label (the top-level domain) */
    for (size_t b = 0; b < hl;) {
        size_t kn = alnum_key(h + b, hl - b, key, sizeof key);
        if (kn == pn && memcmp(key, part, pn) == 0) return 1;
        const char *dot = memchr(h + b, '.', hl - b);
        const char *last = NULL;
        for (const char *q = h + b; q < h + hl; q++)
            if (*q == '.') last = q;
        if (last && last > h + b) {
            kn = alnum_key(h + b, (size_t)(last - (h + b)), key, sizeof key);
            if (kn == pn && memcmp(key, part, pn) == 0) return 1;
        }
        if (!dot) break;
        b = (size_t)(dot - h) + 1;
    }
    return 0;
}

int wn_title_init(const winnow_doc *d, uint64_t *words, wn_title *tt)
{
    const wn_dom *dom = &d->dom;
    /* the words part by part: the same words as the whole title's, the
     * separators being no word characters */
    size_t nt = 0;
    tt->nseg = 0;
    tt->site_first = 0;
    if (dom->title) {
        const char *t = dom->title;
        size_t n = strlen(t), b = 0;
        for (size_t i = 0; i <= n && nt < 64; i++) {
            size_t m = i < n ? title_separator(t, i, n) : 1;
            if (!m) continue;
            if (tt->nseg == 0) tt->site_first = (uint8_t)site_part(d, t + b, i - b);
            nt += wn_words_of(t + b, i - b, words + nt, 64 - nt);
            if (tt->nseg < 8)
                tt->seg_end[tt->nseg++] = (uint8_t)nt;
            else
                tt->seg_end[7] = (uint8_t)nt;
            b = i + m;
            i = b - 1;
        }
    }
    tt->words = words;
    tt->nwords = nt;
    tt->len = 0;
    /* the declared title, when it has words the <title> lacks (the
     * metadata is read before the selection, not before the scorer) */
    tt->nalt = 0;
    tt->alt_len = 0;
    const char *declared = d->meta.field[WINNOW_META_TITLE];
    if (declared && *declared && WN_RULE(d, TITLE_DECLARED) > 0.0f) {
        size_t na = wn_words_of(declared, strlen(declared), tt->alt, sizeof tt->alt / sizeof tt->alt[0]);
        if (na >= 2 && wn_words_shared(tt->alt, na, words, nt) < na) tt->nalt = na;
        tt->alt_len = fold_text(declared, tt->alt_lower, sizeof tt->alt_lower);
    }
    if (nt < 2 && tt->nalt < 2 && !tt->alt_len) return 0;
    tt->len = dom->title ? fold_text(dom->title, tt->lower, sizeof tt->lower) : 0;
    if (tt->alt_len && tt->len && tt->alt_len <= tt->len && memmem(tt->lower, tt->len, tt->alt_lower, tt->alt_len))
        tt->alt_len = 0; /* the declared title says nothing the <title> does not */
    return 1;
}

/* The path of URL u: past "scheme://host" when it has them, up to a query
 * or fragment, without a final '/'; its length in *n. */
static const char *url_path(const char *u, size_t *n)
{
    /* a scheme opens the URL ("/web/2013/http://..." is a path) */
    size_t k = 0;
    while (isalnum((unsigned char)u[k]) || u[k] == '+' || u[k] == '-' || u[k] == '.') k++;
    const char *p = k > 0 && strncmp(u + k, "://", 3) == 0 ? u + k : NULL;
    if (p)
        p = strchr(p + 3, '/');
    else if (u[0] == '/' && u[1] == '/')
        p = strchr(u + 2, '/');
    else
        p = u;
    if (!p) p = "";
    size_t len = strcspn(p, "?#");
    while (len > 0 && p[len - 1] == '/') len--;
    *n = len;
    return p;
}

int wn_same_page(const char *href, const char *url)
{
    if (!url || !*url || !href) return 0;
    size_t a, b;
    const char *pa = url_path(href, &a), *pb = url_path(url, &b);
    return a == b && memcmp(pa, pb, a) == 0;
}

int wn_self_linked(const winnow_doc *d, uint32_t i, int bookmark)
{
    const wn_dom *dom = &d->dom;
    const wn_stats *st = d->stats;
    if (st[i].link_chars == 0 || WN_RULE(d, SELF_LINK_HEADING) <= 0.0f) return 0;
    /* the link: inside the element, or the element inside it */
    uint32_t a = WN_NONE;
    for (uint32_t k = i; k < i + dom->nodes[i].size && a == WN_NONE; k++)
        if (dom->nodes[k].tag == WN_TAG_A && 2 * st[k].chars >= st[i].chars) a = k;
    for (uint32_t p = dom->nodes[i].parent, up = 0; a == WN_NONE && p != WN_NONE && up < 2;
         p = dom->nodes[p].parent, up++)
        if (dom->nodes[p].tag == WN_TAG_A) a = p;
    if (a == WN_NONE) return 0;
    const char *href = wn_node_attr(dom, &dom->nodes[a], "href", NULL);
    if (!href || !href[0]) return 0;
    /* a place on the page: a section's anchor ("#" alone is a script's
     * button) */
    if (href[0] == '#') return href[1] != '\0';
    /* a link to the site's root is its name's, on the home page too */
    size_t n;
    url_path(href, &n);
    if (n == 0) return 0;
    const char *rel = wn_node_attr(dom, &dom->nodes[a], "rel", NULL);
    if (bookmark && rel && strstr(rel, "bookmark")) return 1;
    return wn_same_page(href, d->meta.field[WINNOW_META_URL]);
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
        if ((wn_mostly_links(d, d->stats[i].link_chars, d->stats[i].chars) && !wn_self_linked(d, i, 1)) ||
            !wn_title_like(d, i, &tt))
            continue;
        if (h == WN_NONE || (x->tag == WN_TAG_H1 && dom->nodes[h].tag != WN_TAG_H1)) h = i;
        if (x->tag == WN_TAG_H1) break;
    }
    return h;
}
