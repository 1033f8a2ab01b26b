/* A small tolerant JSON reader for JSON-LD: walks objects and arrays
 * (including @graph) and takes headline, author name, datePublished,
 * publisher name and description from objects whose @type is an article or
 * web page. Depth and size are bounded; malformed input stops the walk. */
#include "meta.h"

#include <string.h>

typedef struct jreader {
    const char *s;
    size_t n, i;
    int depth;
    int failed;
    wn_arena *arena;
} jreader;

#define JSON_MAX_DEPTH 64

static void skip_ws(jreader *r)
{
    while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r')) r->i++;
}

/* Up to four hex digits at s[i..end): how many there are, value in *out. */
static int hex4(const char *s, size_t i, size_t end, unsigned *out)
{
    int d = 0;
    *out = 0;
    for (; d < 4 && i + (size_t)d < end; d++) {
        char h = s[i + (size_t)d];
        unsigned v;
        if (h >= '0' && h <= '9')
            v = (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f')
            v = (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
            v = (unsigned)(h - 'A' + 10);
        else
            break;
        *out = *out << 4 | v;
    }
    return d;
}

/* Reads a JSON string at r->i (which is '"'); returns an arena copy with
 * escapes decoded, or NULL. */
/* keep_lines: \n stays a line break (an articleBody's paragraphs), else
 * every control escape is a space (a title's stray breaks) */
static const char *read_string_as(jreader *r, int keep_lines)
{
    if (r->i >= r->n || r->s[r->i] != '"') {
        r->failed = 1;
        return NULL;
    }
    r->i++;
    size_t start = r->i;
    /* the closing quote: the first '"' not escaped, found with memchr
     * (a backslash escapes the byte after it, a quote too) */
    for (;;) {
        const char *q = r->i < r->n ? memchr(r->s + r->i, '"', r->n - r->i) : NULL;
        if (!q) {
            r->i = r->n; /* (where the byte by byte scan ends: at the end) */
            r->failed = 1;
            return NULL;
        }
        const char *bs = memchr(r->s + r->i, '\\', (size_t)(q - (r->s + r->i)));
        if (!bs) {
            r->i = (size_t)(q - r->s);
            break;
        }
        r->i = (size_t)(bs - r->s) + 2;
    }
    size_t end = r->i;
    r->i++;
    char *out = wn_arena_alloc(r->arena, (end - start) * 2 + 4);
    if (!out) {
        r->failed = 1;
        return NULL;
    }
    size_t o = 0;
    for (size_t k = start; k < end; k++) {
        /* the bytes up to the next escape, at once */
        const char *bs = memchr(r->s + k, '\\', end - k);
        size_t run = bs ? (size_t)(bs - (r->s + k)) : end - k;
        memcpy(out + o, r->s + k, run);
        o += run;
        k += run;
        if (k >= end) break;
        char c = r->s[k];
        if (k + 1 >= end) {
            out[o++] = c;
            continue;
        }
        c = r->s[++k];
        switch (c) {
        case 'n': out[o++] = keep_lines ? '\n' : ' '; break;
        case 't': out[o++] = ' '; break;
        case 'r': out[o++] = ' '; break;
        case 'b':
        case 'f': break;
        case 'u': {
            /* four hex digits; fewer is an invalid escape: U+FFFD, and the
             * bytes after the digits present are text again */
            unsigned cp = 0;
            int digits = hex4(r->s, k + 1, end, &cp);
            k += (size_t)digits;
            if (digits < 4)
                cp = 0xFFFD;
            else if (cp >= 0xD800 && cp <= 0xDBFF && k + 2 < end && r->s[k + 1] == '\\' && r->s[k + 2] == 'u') {
                unsigned lo = 0;
                int ld = hex4(r->s, k + 3, end, &lo);
                if (ld == 4 && lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    k += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            if (cp == 0) cp = 0xFFFD;
            if (cp < 0x80)
                out[o++] = (char)cp;
            else if (cp < 0x800) {
                out[o++] = (char)(0xC0 | (cp >> 6));
                out[o++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out[o++] = (char)(0xE0 | (cp >> 12));
                out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                out[o++] = (char)(0x80 | (cp & 0x3F));
            } else {
                out[o++] = (char)(0xF0 | (cp >> 18));
                out[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                out[o++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default: out[o++] = c; break;
        }
    }
    out[o] = '\0';
    return keep_lines ? out : wn_meta_clean(r->arena, out, o);
}

static const char *read_string(jreader *r) { return read_string_as(r, 0); }

/* What an object yields: the fields we care about, if any. */
typedef struct jobject {
    const char *type;
    const char *headline, *name, *date, *description, *author, *publisher, *url, *body;
} jobject;

static void parse_value(jreader *r, jobject *parent, const char *key, wn_meta *m);

static int type_is_article(const char *t)
{
    static const char *const kinds[] = { "Article",
                                         "NewsArticle",
                                         "BlogPosting",
                                         "Report",
                                         "ScholarlyArticle",
                                         "TechArticle",
                                         "WebPage",
                                         "ReportageNewsArticle",
                                         "AnalysisNewsArticle",
                                         "OpinionNewsArticle",
                                         "Posting",
                                         "SocialMediaPosting",
                                         "LiveBlogPosting",
                                         "Recipe",
                                         "Review",
                                         "HowTo",
                                         "Question",
                                         NULL };
    if (!t) return 0;
    for (int k = 0; kinds[k]; k++)
        if (strstr(t, kinds[k])) return 1;
    return 0;
}

/* Whether type name t names a product itself (not its offer). */
static int type_is_product(const char *t)
{
    if (!t || !(wn_schema_bits(t, strlen(t)) & ((uint32_t)1 << WN_SCHEMA_PRODUCT))) return 0;
    return !strstr(t, "Offer");
}

static void parse_object(jreader *r, jobject *parent, const char *parent_key, wn_meta *m)
{
    jobject o;
    memset(&o, 0, sizeof o);
    r->i++; /* '{' */
    if (++r->depth > JSON_MAX_DEPTH) {
        r->failed = 1;
        return;
    }
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == '}') {
        r->i++;
        r->depth--;
        return;
    }
    while (!r->failed && r->i < r->n) {
        skip_ws(r);
        const char *k = read_string(r);
        if (!k) return;
        skip_ws(r);
        if (r->i >= r->n || r->s[r->i] != ':') {
            r->failed = 1;
            return;
        }
        r->i++;
        skip_ws(r);
        parse_value(r, &o, k, m);
        skip_ws(r);
        if (r->i < r->n && r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->i < r->n && r->s[r->i] == '}') {
            r->i++;
            break;
        }
        r->failed = 1;
        return;
    }
    r->depth--;
    /* a nested author/publisher object hands its name up */
    if (parent && parent_key) {
        const char *nm = o.name;
        if (!strcmp(parent_key, "author") && nm && !parent->author) parent->author = nm;
        if (!strcmp(parent_key, "publisher") && nm && !parent->publisher) parent->publisher = nm;
    }
    if (type_is_product(o.type)) {
        if (o.name && *o.name && !m->ld_product_name) m->ld_product_name = o.name;
        if (o.description && *o.description && !m->ld_product_desc) m->ld_product_desc = o.description;
    }
    if (type_is_article(o.type)) {
        int page = strstr(o.type, "WebPage") != NULL;
        if (!page && (o.headline || o.name) && m->ld_count < WN_META_LD_TITLES) {
            m->ld_headline[m->ld_count] = o.headline;
            m->ld_name[m->ld_count] = o.name;
            m->ld_count++;
        } else if (page && o.headline && !*m->field[WINNOW_META_TITLE]) {
            m->field[WINNOW_META_TITLE] = o.headline;
        }
        if (o.author && !*m->field[WINNOW_META_AUTHOR]) m->field[WINNOW_META_AUTHOR] = o.author;
        if (o.date && !*m->field[WINNOW_META_DATE]) m->field[WINNOW_META_DATE] = o.date;
        if (o.publisher && !*m->field[WINNOW_META_SITE_NAME]) m->field[WINNOW_META_SITE_NAME] = o.publisher;
        if (o.description && !*m->field[WINNOW_META_DESCRIPTION]) m->field[WINNOW_META_DESCRIPTION] = o.description;
        if (!page && o.body && (!m->ld_body || strlen(o.body) > strlen(m->ld_body))) {
            m->ld_body = o.body;
            m->ld_body_title = o.headline ? o.headline : o.name;
        }
    }
}

static void skip_scalar(jreader *r)
{
    while (r->i < r->n && r->s[r->i] != ',' && r->s[r->i] != '}' && r->s[r->i] != ']') r->i++;
}

static void parse_array(jreader *r, jobject *parent, const char *key, wn_meta *m)
{
    r->i++; /* '[' */
    if (++r->depth > JSON_MAX_DEPTH) {
        r->failed = 1;
        return;
    }
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == ']') {
        r->i++;
        r->depth--;
        return;
    }
    while (!r->failed && r->i < r->n) {
        skip_ws(r);
        parse_value(r, parent, key, m);
        skip_ws(r);
        if (r->i < r->n && r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->i < r->n && r->s[r->i] == ']') {
            r->i++;
            break;
        }
        r->failed = 1;
        return;
    }
    r->depth--;
}

static void parse_value(jreader *r, jobject *o, const char *key, wn_meta *m)
{
    if (r->i >= r->n) {
        r->failed = 1;
        return;
    }
    char c = r->s[r->i];
    if (c == '{') {
        parse_object(r, o, key, m);
        return;
    }
    if (c == '[') {
        parse_array(r, o, key, m);
        return;
    }
    if (c != '"') {
        skip_scalar(r);
        return;
    }
    const char *v = read_string_as(r, key && !strcmp(key, "articleBody"));
    if (!v || !o || !key) return;
    if (!strcmp(key, "@type")) {
        /* every type named, arrays' too: the kind of page reads the set */
        m->ld_types |= wn_schema_bits(v, strlen(v));
        if (!o->type) o->type = v;
    } else if (!strcmp(key, "headline"))
        o->headline = v;
    else if (!strcmp(key, "name")) {
        if (!o->name) o->name = v;
    } else if (!strcmp(key, "datePublished"))
        o->date = v;
    else if (!strcmp(key, "dateCreated")) {
        if (!o->date) o->date = v;
    } else if (!strcmp(key, "description"))
        o->description = v;
    else if (!strcmp(key, "author") || !strcmp(key, "creator")) {
        if (!o->author) o->author = v;
    } else if (!strcmp(key, "publisher")) {
        if (!o->publisher) o->publisher = v;
    } else if (!strcmp(key, "url")) {
        if (!o->url) o->url = v;
    } else if (!strcmp(key, "articleBody"))
        o->body = v;
}

uint32_t wn_schema_bits(const char *s, size_t n)
{
    /* the name after a vocabulary's prefix (https://schema.org/, schema:) */
    for (size_t k = n; k > 0; k--)
        if (s[k - 1] == '/' || s[k - 1] == '#' || s[k - 1] == ':') {
            s += k;
            n -= k;
            break;
        }
    static const struct {
        const char *name;
        int group;
    } types[] = {
        { "Article", WN_SCHEMA_ARTICLE },
        { "NewsArticle", WN_SCHEMA_ARTICLE },
        { "BlogPosting", WN_SCHEMA_ARTICLE },
        { "Report", WN_SCHEMA_ARTICLE },
        { "ScholarlyArticle", WN_SCHEMA_ARTICLE },
        { "ReportageNewsArticle", WN_SCHEMA_ARTICLE },
        { "AnalysisNewsArticle", WN_SCHEMA_ARTICLE },
        { "OpinionNewsArticle", WN_SCHEMA_ARTICLE },
        { "LiveBlogPosting", WN_SCHEMA_ARTICLE },
        { "Blog", WN_SCHEMA_ARTICLE },
        { "TechArticle", WN_SCHEMA_TECH },
        { "APIReference", WN_SCHEMA_TECH },
        { "SoftwareSourceCode", WN_SCHEMA_TECH },
        { "Product", WN_SCHEMA_PRODUCT },
        { "ProductGroup", WN_SCHEMA_PRODUCT },
        { "IndividualProduct", WN_SCHEMA_PRODUCT },
        { "Offer", WN_SCHEMA_PRODUCT },
        { "AggregateOffer", WN_SCHEMA_PRODUCT },
        { "ProductModel", WN_SCHEMA_PRODUCT },
        { "AggregateRating", WN_SCHEMA_RATING },
        { "Review", WN_SCHEMA_RATING },
        { "Rating", WN_SCHEMA_RATING },
        { "QAPage", WN_SCHEMA_QA },
        { "Question", WN_SCHEMA_QA },
        { "Answer", WN_SCHEMA_QA },
        { "DiscussionForumPosting", WN_SCHEMA_DISCUSSION },
        { "SocialMediaPosting", WN_SCHEMA_DISCUSSION },
        { "Comment", WN_SCHEMA_COMMENT },
        { "UserComments", WN_SCHEMA_COMMENT },
        { "ItemList", WN_SCHEMA_LIST },
        { "CollectionPage", WN_SCHEMA_LIST },
        { "SearchResultsPage", WN_SCHEMA_LIST },
        { "OfferCatalog", WN_SCHEMA_LIST },
        { "FAQPage", WN_SCHEMA_FAQ },
        { "Organization", WN_SCHEMA_ORG },
        { "LocalBusiness", WN_SCHEMA_ORG },
        { "Service", WN_SCHEMA_ORG },
        { "ProfessionalService", WN_SCHEMA_ORG },
        { "Corporation", WN_SCHEMA_ORG },
        { "ContactPage", WN_SCHEMA_ORG },
        { "AboutPage", WN_SCHEMA_ORG },
        { "Store", WN_SCHEMA_ORG },
        { "BreadcrumbList", WN_SCHEMA_BREADCRUMB },
        { "WebPage", WN_SCHEMA_WEBPAGE },
        { "WebSite", WN_SCHEMA_WEBPAGE },
        { "HowTo", WN_SCHEMA_HOWTO },
        { "Recipe", WN_SCHEMA_HOWTO },
        { "Event", WN_SCHEMA_HOWTO },
        { "Course", WN_SCHEMA_HOWTO },
        { "Person", WN_SCHEMA_PERSON },
        { "ProfilePage", WN_SCHEMA_PERSON },
    };
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        if (strlen(types[k].name) == n && !memcmp(types[k].name, s, n)) return (uint32_t)1 << types[k].group;
    return 0;
}

void wn_meta_from_jsonld(const char *json, size_t n, wn_arena *arena, wn_meta *m)
{
    jreader r = { .s = json, .n = n, .arena = arena };
    skip_ws(&r);
    /* some sites wrap the payload in HTML comments or CDATA */
    while (r.i < n && r.s[r.i] != '{' && r.s[r.i] != '[') r.i++;
    if (r.i >= n) return;
    parse_value(&r, NULL, NULL, m);
}
