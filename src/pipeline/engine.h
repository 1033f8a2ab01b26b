/* The engine: what a winnow_engine holds across pages. Its lifecycle and
 * settings are the public API's (api/winnow.c); the pipeline (pipeline.c)
 * runs pages with it and gives a freed page's buffers back to it. */
#ifndef WN_ENGINE_H
#define WN_ENGINE_H

#include <stdio.h>

#include "winnow.h"

#include "../blocks/stats.h"
#include "../classify/classifier.h"
#include "../classify/apply.h"
#include "../confidence/confidence.h"
#include "../pagetype/pagetype.h"
#include "../parse/parser.h"
#include "../select/units.h"
#include "../rules/rules.h"
#include "../util/arena.h"
#include "../util/buf.h"
#include "../util/structs.h"

struct winnow_engine {
    winnow_options opt;
    wn_parser *parser;
    /* buffers handed to the next document, so a long run reuses memory */
    wn_arena spare_arena;
    wn_arena scratch; /* stage temporaries of the page being run (doc.h) */
    wn_buf spare_utf8;
    int have_spare;
    /* page level, learned: the node classifier (read-only once loaded) */
    wn_classifier clf_store;
    const wn_classifier *clf;
    wn_classify_options smooth;
    /* the page type model (read-only once loaded); NULL: kinds not judged */
    wn_pt_model pt_store;
    const wn_pt_model *pt;
    /* the confidence model (read-only once loaded); unloaded: confidence -1 */
    wn_conf_model conf;
    /* the learned unit decision's model (read-only once loaded); NULL: the
     * rules decide alone. units_collect: pages keep every unit's feature
     * row (the training layer sets it) */
    wn_unit_model units_store;
    const wn_unit_model *units;
    int units_collect;
    wn_rules rules; /* the scorer's and selection's rule values */
    /* class and id tokens seen on this engine's pages and their hint bits
     * (a fixed mapping: the cache only saves the lookups) */
    wn_hint_cache *hints;
    char error[512];
};

/* The first version of each input structure ends at these fields
 * (util/structs.h): a caller's struct_size must reach that far. */
#define WN_INPUT_V1 WN_FIELD_END(winnow_input, source)
#define WN_SOURCE_V1 WN_FIELD_END(winnow_source, record_id)

/* Records why a call failed (winnow_engine_error) and returns s. */
static inline winnow_status wn_engine_fail(winnow_engine *e, winnow_status s, const char *detail)
{
    snprintf(e->error, sizeof e->error, "%s", detail && *detail ? detail : winnow_status_message(s));
    return s;
}

#endif
