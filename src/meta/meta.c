#include "meta.h"

#include "../text/words.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

const char *wn_meta_clean(wn_arena *arena, const char *s, size_t n)
{
    char *out = wn_arena_alloc(arena, n + 1);
    if (!out) return "";
    size_t len = 0;
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            space = 1;
            continue;
        }
        /* U+00A0 no-break space */
        if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xA0) {
            space = 1;
            i++;
            continue;
        }
        if (space && len) out[len++] = ' ';
        space = 0;
        out[len++] = (char)c;
    }
    out[len] = '\0';
    return out;
}

/* Title matching: the words of text/words.h (every script's separators,
 * CJK text as pairs of characters, folding), counted as words in every
 * script (wn_words_weight). */
enum { TITLE_WORDS = 128 };

static double count_words(const char *s)
{
    uint64_t w[TITLE_WORDS];
    return wn_words_weight(w, wn_words_of(s, strlen(s), w, TITLE_WORDS));
}

/* The references a JSON-LD headline is matched against: <title>,
 * og:title and the first three <h1>s. A cost bound, not a judgement (each
 * reference is one more <h1>'s text built and compared with every
 * headline; a page's title is in its first <h1>s), so a constant and no
 * rule. */
#define META_TITLE_REFS 5

/* Two titles name the same thing when one's words are a run of the
 * other's ("Tide pools" and "Tide pools | Coastal Notes"); a run of fewer
 * than min_words words (TITLE_MATCH_MIN_WORDS, 2: one word) counts only
 * when it is all of both: one common word is no match. */
static int same_title(const char *a, const char *b, double min_words)
{
    uint64_t wa[TITLE_WORDS], wb[TITLE_WORDS];
    size_t na = wn_words_of(a, strlen(a), wa, TITLE_WORDS), nb = wn_words_of(b, strlen(b), wb, TITLE_WORDS);
    if (!na || !nb) return 0;
    double ca = wn_words_weight(wa, na), cb = wn_words_weight(wb, nb);
    if ((ca < cb ? ca : cb) < min_words && ca != cb) return 0;
    return ca <= cb ? wn_words_run(wa, na, wb, nb) : wn_words_run(wb, nb, wa, na);
}

/* The title among the JSON-LD articles' headlines and names: the last
 * article's first value that names what the page's <title>, og:title or
 * an <h1> names; when none does, the last article's headline (or name).
 * A headline that is a kind of page ("Wikimedia list article") gives way
 * to a name that is the page's title. */
static const char *jsonld_title(const wn_meta *m, const char *const *refs, size_t nrefs, double min_words)
{
    const char *fallback = NULL;
    for (unsigned k = m->ld_count; k-- > 0;) {
        const char *vals[2] = { m->ld_headline[k], m->ld_name[k] };
        for (int v = 0; v < 2; v++) {
            if (!vals[v] || !*vals[v]) continue;
            if (!fallback) fallback = vals[v];
            for (size_t r = 0; r < nrefs; r++)
                if (refs[r] && same_title(vals[v], refs[r], min_words)) return vals[v];
        }
    }
    return fallback;
}

/* Whether URL u names a site's front page: nothing after its host but a
 * '/' or an index file ("/index.html"), no query. */
static int front_page_url(const char *u)
{
    const char *p = strstr(u, "://");
    if (!p) return 0;
    p = strchr(p + 3, '/');
    if (!p) return strchr(u, '?') == NULL;
    if (strchr(p, '?')) return 0;
    p++;
    if (!strncasecmp(p, "index.", 6)) {
        p += 6;
        while (isalnum((unsigned char)*p)) p++;
    }
    return *p == '\0' || *p == '#';
}

static void set_if_empty(wn_meta *m, winnow_meta_field f, const char *v)
{
    if (v && *v && (!m->field[f] || !*m->field[f])) m->field[f] = v;
}

static void set_over(wn_meta *m, winnow_meta_field f, const char *v)
{
    if (v && *v) m->field[f] = v;
}

/* strcasecmp(key, name) == 0, its first byte compared first: a page's
 * <meta> keys are tried against some thirty names, and most of them
 * (viewport, robots, og:image ...) match none */
static inline int key_is(const char *key, const char *name)
{
    return tolower((unsigned char)key[0]) == tolower((unsigned char)name[0]) && !strcasecmp(key, name);
}

int wn_meta_extract(const wn_dom *dom, const wn_decode_info *dec, const char *url, wn_arena *arena, wn_meta *m,
                    const wn_meta_rules *rules)
{
    const double min_words = rules ? rules->title_match_min_words : WN_META_TITLE_MATCH_MIN_WORDS;
    for (int f = 0; f < WINNOW_META_COUNT; f++) m->field[f] = "";
    if (dom->title) m->field[WINNOW_META_TITLE] = wn_meta_clean(arena, dom->title, strlen(dom->title));
    if (dom->lang) m->field[WINNOW_META_LANGUAGE] = wn_meta_clean(arena, dom->lang, strlen(dom->lang));
    m->field[WINNOW_META_CHARSET] = wn_arena_strndup(arena, dec->charset, strlen(dec->charset));

    /* <meta> and <link> anywhere (some pages put them in the body) */
    const char *og_title = NULL, *og_site = NULL, *og_desc = NULL, *og_url = NULL;
    for (uint32_t i = 1; i < dom->count; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_META) {
            size_t cl = 0;
            const char *content = wn_node_attr(dom, x, "content", &cl);
            if (!content) continue;
            const char *key = wn_node_attr(dom, x, "property", NULL);
            if (!key) key = wn_node_attr(dom, x, "name", NULL);
            if (!key) key = wn_node_attr(dom, x, "itemprop", NULL);
            if (!key) continue;
            /* the content is cleaned only for a key read (most are not:
             * viewport, robots, twitter:card ...) */
            const char **og = NULL;
            winnow_meta_field f = WINNOW_META_COUNT;
            if (key_is(key, "og:title") || key_is(key, "twitter:title"))
                og = &og_title;
            else if (key_is(key, "og:site_name") || key_is(key, "application-name"))
                og = &og_site;
            else if (key_is(key, "og:description") || key_is(key, "twitter:description"))
                og = &og_desc;
            else if (key_is(key, "og:url"))
                og = &og_url;
            else if (key_is(key, "description") || key_is(key, "dc.description"))
                f = WINNOW_META_DESCRIPTION;
            else if (key_is(key, "author") || key_is(key, "article:author") || key_is(key, "dc.creator") ||
                     key_is(key, "byl") || key_is(key, "parsely-author") || key_is(key, "sailthru.author"))
                f = WINNOW_META_AUTHOR;
            else if (key_is(key, "article:published_time") || key_is(key, "datepublished") || key_is(key, "date") ||
                     key_is(key, "dc.date") || key_is(key, "dc.date.issued") || key_is(key, "pubdate") ||
                     key_is(key, "publish-date") || key_is(key, "og:pubdate") || key_is(key, "parsely-pub-date") ||
                     key_is(key, "sailthru.date"))
                f = WINNOW_META_DATE;
            else if (key_is(key, "dc.language") || key_is(key, "language") || key_is(key, "content-language"))
                f = WINNOW_META_LANGUAGE;
            if (og && !*og)
                *og = wn_meta_clean(arena, content, cl);
            else if (f != WINNOW_META_COUNT && (!m->field[f] || !*m->field[f]))
                set_if_empty(m, f, wn_meta_clean(arena, content, cl));
        } else if (x->tag == WN_TAG_LINK) {
            const char *rel = wn_node_attr(dom, x, "rel", NULL);
            size_t hl = 0;
            const char *href = wn_node_attr(dom, x, "href", &hl);
            if (rel && href && !strcasecmp(rel, "canonical"))
                set_if_empty(m, WINNOW_META_URL, wn_meta_clean(arena, href, hl));
        } else if (x->tag == WN_TAG_TIME && !*m->field[WINNOW_META_DATE]) {
            size_t dl = 0;
            const char *dt = wn_node_attr(dom, x, "datetime", &dl);
            const char *ip = wn_node_attr(dom, x, "itemprop", NULL);
            if (dt && (wn_node_attr(dom, x, "pubdate", NULL) || (ip && !strcasecmp(ip, "datePublished"))))
                m->field[WINNOW_META_DATE] = wn_meta_clean(arena, dt, dl);
        }
    }
    /* an og:title that is the site's name, a template's on every page,
     * names no page: a <title> that says more stays */
    const char *title = m->field[WINNOW_META_TITLE];
    if (!(og_title && og_site && count_words(og_title) == count_words(og_site) &&
          same_title(og_title, og_site, min_words) && count_words(title) > count_words(og_title)))
        set_over(m, WINNOW_META_TITLE, og_title);
    set_if_empty(m, WINNOW_META_SITE_NAME, og_site);
    set_if_empty(m, WINNOW_META_DESCRIPTION, og_desc);
    set_if_empty(m, WINNOW_META_URL, og_url);
    /* a canonical or og:url naming the site's front page, on a page the
     * caller fetched from deeper in the site, is a template's too */
    if (url && strstr(url, "://") && *m->field[WINNOW_META_URL] && front_page_url(m->field[WINNOW_META_URL]) &&
        !front_page_url(url))
        m->field[WINNOW_META_URL] = wn_meta_clean(arena, url, strlen(url));
    m->ld_count = 0;
    m->ld_types = 0;
    m->ld_product_name = m->ld_product_desc = NULL;
    for (uint32_t k = 0; k < dom->jsonld_count; k++) wn_meta_from_jsonld(dom->jsonld[k], dom->jsonld_len[k], arena, m);
    if (m->ld_count) {
        /* what the page calls itself: <title>, og:title, its first <h1>s */
        const char *refs[META_TITLE_REFS];
        size_t nrefs = 0;
        refs[nrefs++] = dom->title ? wn_meta_clean(arena, dom->title, strlen(dom->title)) : NULL;
        refs[nrefs++] = og_title;
        wn_buf h;
        wn_buf_init(&h);
        for (uint32_t i = 1; i < dom->count && nrefs < META_TITLE_REFS; i++) {
            if (dom->nodes[i].tag != WN_TAG_H1) continue;
            wn_buf_clear(&h);
            wn_node_text(dom, i, &h, NULL, NULL);
            if (!h.oom && h.len) refs[nrefs++] = wn_meta_clean(arena, h.data, h.len < 1024 ? h.len : 1024);
        }
        wn_buf_free(&h);
        set_over(m, WINNOW_META_TITLE, jsonld_title(m, refs, nrefs, min_words));
    }
    if (url && *url) set_if_empty(m, WINNOW_META_URL, wn_meta_clean(arena, url, strlen(url)));
    return 0;
}

const char *wn_meta_ld_body(const wn_dom *dom, wn_arena *arena, const char **title)
{
    wn_meta m;
    memset(&m, 0, sizeof m);
    for (int f = 0; f < WINNOW_META_COUNT; f++) m.field[f] = "";
    for (uint32_t k = 0; k < dom->jsonld_count; k++) wn_meta_from_jsonld(dom->jsonld[k], dom->jsonld_len[k], arena, &m);
    *title = m.ld_body_title;
    return m.ld_body;
}

const char *winnow_meta_name(winnow_meta_field f)
{
    static const char *const names[WINNOW_META_COUNT] = { "title",     "author",      "date",     "url",
                                                          "site_name", "description", "language", "charset" };
    return f >= 0 && f < WINNOW_META_COUNT ? names[f] : "";
}
