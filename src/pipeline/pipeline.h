/* The pipeline behind winnow_extract, for callers that need to see a page
 * between its stages: site learning and site extraction (api/site.c),
 * classifier training (src/train/) and reports (src/report/), the last two
 * a layer above the library that only the CLI links.
 *
 * The stages, in order (pipeline.c; each one's contract is in its header):
 *   decode     decode/decode.h     bytes -> UTF-8 text, d->utf8, d->decode
 *   parse      parse/parser.h      text -> d->dom
 *   statistics blocks/stats.h      dom -> d->stats, d->page_text
 *   block list blocks/list.h       stats -> d->blocks, block_parent, block_path
 *   page score score/page_score.h  -> wn_page_scores, d->labels (templ, value, unit)
 *   site       site/signals.h, score/site_score.h (with a site hook)
 *                                  -> wn_page_signals, d->labels.value/unique, d->site_*
 *   classify   classify/apply.h (smooth/smooth_page.h)
 *                                  -> d->labels.clf, smoothed, segment, value
 *   meta       meta/meta.h         dom -> d->meta
 *   page type  pagetype/pagetype.h dom, stats, meta, URL -> d->page_type, page_type_conf
 *   select     select/select.h     -> d->labels.keep, container, headline, source
 *   status     pipeline.c          -> d->status, d->warning
 *   confidence confidence/confidence.h  the finished page -> d->confidence
 * and output (output/render.h) reads the finished page. */
#ifndef WN_PIPELINE_H
#define WN_PIPELINE_H

#include "../doc.h"
#include "../score/page_score.h"
#include "../site/model.h"
#include "../site/signals.h"

/* What a run of the pipeline is for: each mode runs the stages it needs. */
typedef enum wn_run_mode {
    WN_RUN_EXTRACT, /* winnow_extract: every stage, the main content selected, metadata */
    WN_RUN_LEARN,   /* winnow_site_learn: statistics, the block list and the site signals;
                       no page scores, classifier, selection or metadata */
    WN_RUN_TRAIN,   /* training: page scores and signals for the hook's inspect; no
                       classifier (it is what is being trained), selection or metadata */
    WN_RUN_EXPLAIN, /* as WN_RUN_EXTRACT, and why each unit was kept or left out is
                       recorded in d->explain (rules/why.h): the same labels and outputs */
} wn_run_mode;

/* The site hook runs between the page scorer and the selection. */
typedef struct site_hook {
    const wn_site_model *model;
    const winnow_site_options *opt;
    wn_page_signals *signals_out; /* when learning: the page's signals */
    /* called with the page scored and fingerprinted, before any verdict
     * changes its values; non-zero fails the page (out of memory) */
    int (*inspect)(void *ctx, winnow_doc *d, const wn_page_scores *ps, const wn_page_signals *sig);
    void *inspect_ctx;
} site_hook;

winnow_status wn_pipeline_run(winnow_engine *e, wn_run_mode mode, const winnow_input *in, const site_hook *hook,
                              winnow_doc **out);

#endif
