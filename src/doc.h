/* The page record: the internal layout of a processed page, shared by the
 * pipeline stages and the renderers. Everything per page lives in `arena`.
 *
 * Each stage reads the sections written before it and writes its own (its
 * header's contract says which); the members below are grouped by the
 * stage that writes them, in pipeline order. This header sits below every
 * stage that reads a page (folder layers: scripts/layers.py): it includes
 * only the types it holds, whose headers never include it back. */
#ifndef WN_DOC_H
#define WN_DOC_H

#include "winnow.h"

#include "blocks/stats.h"
#include "decode/decode.h"
#include "dom/dom.h"
#include "meta/meta.h"
#include "rules/rules.h"
#include "rules/why.h"
#include "util/arena.h"
#include "util/buf.h"

/* How the main content was chosen (winnow_doc_source). */
typedef enum wn_source {
    WN_SOURCE_NONE,        /* nothing was selected */
    WN_SOURCE_SCORER,      /* the best block of the scorer's values */
    WN_SOURCE_LANDMARK,    /* fallback: the <article>/<main>/articleBody element */
    WN_SOURCE_DESCRIPTION, /* fallback: the block of the paragraph the description quotes */
    WN_SOURCE_UNHINTED,    /* fallback: the best block by text alone */
    WN_SOURCE_LISTING,     /* a listing page: the best block was one teaser among several, nothing kept */
    WN_SOURCE_FRAME,       /* the only block with running text was in the page's header or footer, nothing kept */
} wn_source;

/* The per-node verdicts, written by several stages in turn (each member
 * says which): the page scorer allocates them and writes its values, the
 * later stages refine them, the selection settles keep. */
typedef struct wn_labels {
    float *templ;           /* page score (site score, classify, select): per node: templateness in [0, 1] */
    float *value;           /* page score, then site score and classify: per node: content value of the
                          * node's own text unit */
    uint32_t *unit;         /* page score (site signals when learning): per node: index of the text unit
                          * (nearest line-breaking element) */
    uint8_t *keep;          /* select (allocated by page score): per node: 1 when the node's text is main content */
    uint8_t *unique;        /* site score: per node: the site model has this unit's text on no other page
                          * (NULL in page mode) */
    float *clf;             /* classify: per node: classifier P(template), NULL when no classifier ran; -1
                          * where unscored */
    float *smoothed;        /* classify/smooth: per node: after isotonic smoothing (NULL when off) */
    uint8_t *segment;       /* classify/smooth: per node: 1 where a smoothed segment starts */
    const uint8_t *reviews; /* select (scratch): per node: 1 in a shop's reviews as the product
                               strategy found them by name (wn_dom_reviews), where the fallback
                               takes no candidate; NULL when none */
    /* select: */
    uint32_t container;       /* root of the main content, WN_NONE when nothing */
    uint32_t headline;        /* heading kept outside the container, WN_NONE when none */
    uint32_t headline_inline; /* the kept headline when it is an inline element, not a unit (its
                                 * own text is kept, not its unit's); WN_NONE when none */
    wn_source source;         /* how the container was chosen */
    uint32_t teasers;         /* WN_SOURCE_LISTING: the teasers the page shows */
} wn_labels;

struct winnow_doc {
    /* ---- the pipeline (pipeline/pipeline.c): the run and the caller's input ---- */
    winnow_engine *engine;
    const wn_rules *rules; /* the engine's rule values */
    wn_arena arena;
    /* during the pipeline run, the engine's scratch arena: a stage's
     * temporaries go there between wn_arena_save and wn_arena_release, so
     * that the next stage reuses their memory instead of adding to the
     * page's; NULL outside a run (wn_doc_scratch then gives scratch_own) */
    wn_arena *scratch;
    wn_arena scratch_own; /* a stage run on the doc after the pipeline (tests) */
    /* ---- decode (decode/decode.h) ---- */
    wn_buf utf8; /* decoded input, when the bytes needed converting */
    wn_decode_info decode;
    /* ---- parse (parse/parser.h) ---- */
    wn_dom dom;
    struct wn_dom_store *dom_store; /* the parser's arrays dom lives in (parse/parser.h), given back at free */
    int noscript;                   /* parsed again with its <noscript> markup built (pipeline.c) */
    int ld_body;                    /* parsed again from its JSON-LD articleBody (pipeline.c) */
    int display_shown;              /* parsed with its display:none elements built (pipeline.c) */
    size_t display_hidden;          /* elements the parse skipped as display:none */
    /* ---- statistics (blocks/stats.h) ---- */
    wn_stats *stats;
    struct wn_hint_cache *hint_cache; /* the engine's memo of class and id words' hints (stats fills it) */
    wn_page_text page_text;
    /* ---- every stage from the page score on: the verdicts (wn_labels above) ---- */
    wn_labels labels;
    /* ---- metadata (meta/meta.h) ---- */
    wn_meta meta;
    /* ---- page type (pagetype/pagetype.h) ---- */
    int page_type;        /* winnow_page_type */
    float page_type_conf; /* the model's probability of it; 1 when forced */
    float *page_type_x;   /* its features (in the arena), NULL when forced or not run */
    /* ---- the block list (blocks/list.h: a wn_block_list) ---- */
    uint32_t *blocks; /* block candidate node indices, document order */
    long *block_parent;
    const char **block_path;
    uint32_t nblocks;
    /* ---- site score (score/site_score.h: its wn_site_judgement) ---- */
    double site_pages;                               /* pages of the site model used, 0 in page mode */
    uint64_t site_template_chars, site_unique_chars; /* text the site model judged */
    /* ---- page score (score/records.h): worked out on demand, kept ---- */
    uint64_t page_host;          /* the page's own host (wn_page_host), 0 until worked out */
    struct wn_comment *comments; /* reader comments told by structure (score/records.h) */
    size_t ncomments;
    /* ---- select (score/records.h, wn_thread_posts): a thread page's posts ---- */
    struct wn_comment *posts; /* first post first; NULL unless the page is a thread */
    size_t nposts;
    /* ---- select, the learned unit decision (select/units.h) ---- */
    const struct wn_unit_model *unit_model; /* set by the pipeline from the engine; NULL: none */
    int unit_collect;                       /* set by the pipeline: keep every unit's feature row */
    float *unit_x;                          /* when collected: nunit_x rows (in the arena) */
    uint32_t *unit_nodes;                   /* each row's unit */
    uint32_t nunit_x;
    /* ---- the pipeline, after the last stage: the page's status ---- */
    winnow_status status;
    char warning[256];
    /* ---- confidence (confidence/confidence.h), after the status ---- */
    float confidence;    /* the model's chance that the kept text is the main content; -1 without a model */
    float *confidence_x; /* its features (in the arena), NULL when not run */
    /* ---- the pipeline, before decode: where the page came from, as the
     * caller said (in the arena; NULL when unknown) ---- */
    const char *src_url, *src_file, *src_record_id;
    long long src_record; /* -1 when unknown */
    /* ---- explaining only (rules/why.h): why each unit was kept or left out,
     * written by the page score, site score and select ---- */
    wn_explain *explain;
};

/* Where a stage's temporaries go; never the page arena, whose later
 * allocations a release would take back. */
static inline wn_arena *wn_doc_scratch(winnow_doc *d) { return d->scratch ? d->scratch : &d->scratch_own; }

/* Characters of the page's text that were kept as main content. */
static inline uint64_t wn_kept_chars(const winnow_doc *d)
{
    uint64_t kept = 0;
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (d->dom.nodes[i].tag == WN_TAG_TEXT && d->labels.keep[i]) kept += d->stats[i].chars;
    return kept;
}

/* How the main content was chosen, by name (winnow_doc_source). */
static inline const char *wn_doc_source_name(const winnow_doc *d)
{
    switch (d->labels.source) {
    case WN_SOURCE_NONE: return "none";
    case WN_SOURCE_SCORER: return d->site_pages > 0 ? "site-model" : "scorer";
    case WN_SOURCE_LANDMARK: return "fallback-landmark";
    case WN_SOURCE_DESCRIPTION: return "fallback-description";
    case WN_SOURCE_UNHINTED: return "fallback-unhinted";
    case WN_SOURCE_LISTING: return "listing";
    case WN_SOURCE_FRAME: return "frame";
    }
    return "";
}

/* The rules a class or id value's hints read, from the page's rule table. */
static inline wn_name_rules wn_doc_name_rules(const winnow_doc *d)
{
    wn_name_rules r = { WN_RULE(d, ID_ANCHOR_WORDS), WN_RULE(d, NAME_SETTING_WORDS) > 0.0f };
    return r;
}

#endif
