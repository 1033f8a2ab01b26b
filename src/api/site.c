/* The public entry points that run a page through the pipeline for a site
 * (winnow.h): learning a page into a site or a partial, and extracting with
 * a site's model. The site handle and the model they use are site/'s,
 * a layer below; this file is the only place the two meet. */
#include "winnow.h"

#include <string.h>

#include "../doc.h"
#include "../pipeline/engine.h"
#include "../pipeline/pipeline.h"
#include "../site/model.h"
#include "../site/partial.h"
#include "../site/signals.h"
#include "../site/site_api.h"
#include "../util/fnv.h"
#include "../util/structs.h"

#define SITE_OPTIONS_V1 WN_FIELD_END(winnow_site_options, min_pages)

/* The key a page without an I-Match signature (no visible text, or no
 * word with a letter) is counted under. Without one such a page was
 * counted again by every resumed learn and every repeated merge; with its
 * URL and bytes as the key, reading the same record again is a duplicate,
 * as it is for pages with text. Even, where an I-Match signature is odd
 * (signals.c), so the two never collide; never 0, which means "no key". */
static uint64_t blank_page_key(const winnow_input *in)
{
    uint64_t h = WN_FNV_OFFSET;
    if (in->url) h = wn_fnv_more(h, in->url, strlen(in->url));
    h = wn_fnv_more(h, "\n", 1); /* URL "a" + bytes "b" differs from URL "ab" */
    if (in->data) h = wn_fnv_more(h, (const char *)in->data, in->len);
    h &= ~1ull;
    return h ? h : 2;
}

winnow_status winnow_site_learn(winnow_engine *e, winnow_site *s, const winnow_input *in, int *counted)
{
    if (counted) *counted = 0;
    if (!e || !s) return WINNOW_E_ARG;
    wn_site_model *m = wn_site_unwrap(s);
    wn_page_signals sig;
    site_hook hook = { m, NULL, &sig, NULL, NULL };
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_LEARN, in, &hook, &d);
    if (WINNOW_FAILED(st)) return st;
    if (!sig.imatch) sig.imatch = blank_page_key(in);
    int r = wn_site_model_add_page(m, d, &sig, in->url);
    winnow_doc_free(d);
    if (r < 0) return wn_engine_fail(e, WINNOW_E_NOMEM, "out of memory while counting the page");
    if (counted) *counted = r;
    return st;
}

winnow_status winnow_partial_learn(winnow_engine *e, winnow_partial *p, const char *site, const winnow_input *in,
                                   int *counted)
{
    if (counted) *counted = 0;
    if (!e || !p || !in) return WINNOW_E_ARG;
    winnow_site *s = NULL;
    winnow_status st = wn_partial_site_for(p, site, in->url, &s);
    if (st != WINNOW_OK) return st;
    st = winnow_site_learn(e, s, in, counted);
    if (WINNOW_FAILED(st)) wn_partial_fail(p, winnow_engine_error(e));
    return st;
}

static void site_options_default(winnow_site_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->mode = WINNOW_MODE_AUTO;
    o->method = WINNOW_METHOD_AUTO;
    o->min_pages = 5;
}

winnow_status winnow_site_options_default(winnow_site_options *o, size_t struct_size)
{
    winnow_site_options d;
    site_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, SITE_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

winnow_status winnow_extract_site(winnow_engine *e, const winnow_input *in, const winnow_site *site,
                                  const winnow_site_options *opt, winnow_doc **out)
{
    winnow_site_options o;
    site_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, SITE_OPTIONS_V1) != 0) {
        if (out) *out = NULL;
        if (!e || !out) return WINNOW_E_ARG;
        return wn_engine_fail(e, WINNOW_E_ARG,
                              "winnow_site_options.struct_size is not sizeof (winnow_site_options) "
                              "of a winnow.h this library reads");
    }
    if (!site) return wn_pipeline_run(e, WN_RUN_EXTRACT, in, NULL, out);
    const wn_site_model *m = wn_site_unwrap(site);
    if (m->journal_only) {
        if (out) *out = NULL;
        if (!e || !out) return WINNOW_E_ARG;
        return wn_engine_fail(e, WINNOW_E_ARG,
                              "a partial's site model only records pages: merge the partial into "
                              "a site database and load the site from there");
    }
    site_hook hook = { m, &o, NULL, NULL, NULL };
    return wn_pipeline_run(e, WN_RUN_EXTRACT, in, &hook, out);
}
