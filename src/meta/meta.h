/* Document metadata: title, author, date, canonical URL, site name,
 * description and language from <title>, <meta name/property>, OpenGraph,
 * <link rel=canonical> and JSON-LD, in that order of growing trust.
 *
 * Contract: reads the DOM, the decode info and the caller's URL; writes a
 * wn_meta (winnow_doc.meta), which the selection's fallback and the outputs
 * read. It needs nothing else of the page: a layer under the page record. */
#ifndef WN_META_H
#define WN_META_H

#include "winnow.h"

#include "../decode/decode.h"
#include "../dom/dom.h"
#include "../util/arena.h"

#include <stdint.h>

#define WN_META_LD_TITLES 16

typedef struct wn_meta {
    const char *field[WINNOW_META_COUNT]; /* never NULL after extraction; "" when unknown */
    /* JSON-LD article objects (not web pages) in document order: their
     * headline and name (NULL when absent), from which wn_meta_extract
     * picks the title */
    const char *ld_headline[WN_META_LD_TITLES], *ld_name[WN_META_LD_TITLES];
    unsigned ld_count;
    /* the schema.org types named by any JSON-LD @type, as WN_SCHEMA_* bits
     * (the page type stage reads them) */
    uint32_t ld_types;
    /* the first JSON-LD Product's (ProductGroup, IndividualProduct,
     * ProductModel; not an Offer) name and description, NULL when absent:
     * the product strategy anchors on them */
    const char *ld_product_name, *ld_product_desc;
    /* the longest articleBody of an article's JSON-LD and that article's
     * headline (or name), NULL when absent: a page a script renders is
     * parsed again from them (pipeline.c) */
    const char *ld_body, *ld_body_title;
} wn_meta;

/* schema.org types in groups that tell a kind of page, one bit each; the
 * same bits for JSON-LD @type and microdata itemtype */
enum {
    WN_SCHEMA_ARTICLE,    /* Article, NewsArticle, BlogPosting, Report ... */
    WN_SCHEMA_TECH,       /* TechArticle, APIReference, SoftwareSourceCode */
    WN_SCHEMA_PRODUCT,    /* Product, ProductGroup, Offer, AggregateOffer */
    WN_SCHEMA_RATING,     /* AggregateRating, Review, Rating */
    WN_SCHEMA_QA,         /* QAPage, Question, Answer */
    WN_SCHEMA_DISCUSSION, /* DiscussionForumPosting, SocialMediaPosting */
    WN_SCHEMA_COMMENT,    /* Comment, UserComments */
    WN_SCHEMA_LIST,       /* ItemList, CollectionPage, SearchResultsPage, OfferCatalog */
    WN_SCHEMA_FAQ,        /* FAQPage */
    WN_SCHEMA_ORG,        /* Organization, LocalBusiness, Service, ContactPage, AboutPage ... */
    WN_SCHEMA_BREADCRUMB, /* BreadcrumbList */
    WN_SCHEMA_WEBPAGE,    /* WebPage, WebSite */
    WN_SCHEMA_HOWTO,      /* HowTo, Recipe, Event, Course */
    WN_SCHEMA_PERSON,     /* Person, ProfilePage */
    WN_SCHEMA_COUNT
};

/* The WN_SCHEMA_* bit of one type name s[0..n) ("Product",
 * "https://schema.org/Product"); 0 for a type outside the groups. */
uint32_t wn_schema_bits(const char *s, size_t n);

/* The rule values the metadata reads. The stage lies below the rule
 * table, so the caller passes them from the page's rules (NULL: the
 * defaults). */
typedef struct wn_meta_rules {
    double title_match_min_words; /* TITLE_MATCH_MIN_WORDS: a shorter title matches only a whole title */
} wn_meta_rules;
#define WN_META_TITLE_MATCH_MIN_WORDS 2.0 /* the default, for callers without a rule table */

int wn_meta_extract(const wn_dom *dom, const wn_decode_info *dec, const char *url, wn_arena *arena, wn_meta *out,
                    const wn_meta_rules *rules);

/* Collapse whitespace and trim: arena copy. */
const char *wn_meta_clean(wn_arena *arena, const char *s, size_t n);

/* JSON-LD: fills fields still empty from one <script type=application/ld+json>
 * payload, and adds its articles' headlines and names to ld_headline and
 * ld_name. Tolerant: malformed JSON leaves the fields as they were. */
void wn_meta_from_jsonld(const char *json, size_t n, wn_arena *arena, wn_meta *m);

/* The longest articleBody of the page's JSON-LD articles (NULL when none)
 * and, in *title, that article's headline or name (NULL when none): read
 * before the other metadata, by the pipeline's parse from JSON-LD. */
const char *wn_meta_ld_body(const wn_dom *dom, wn_arena *arena, const char **title);

#endif
