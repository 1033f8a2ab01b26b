/* The public site handle (winnow_site) around the internal model, and the
 * bridge between them (site_api.h). Learning a page into a site and
 * extracting with one run the pipeline: api/site.c, a layer above. */
#include "site_api.h"

#include <stdlib.h>

struct winnow_site {
    wn_site_model *model;
};

winnow_status winnow_site_new(const char *name, double half_life, winnow_site **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!name) return WINNOW_E_ARG;
    winnow_site *s = calloc(1, sizeof *s);
    if (!s) return WINNOW_E_NOMEM;
    s->model = wn_site_model_new(name, half_life);
    if (!s->model) {
        free(s);
        return WINNOW_E_NOMEM;
    }
    *out = s;
    return WINNOW_OK;
}

void winnow_site_free(winnow_site *s)
{
    if (!s) return;
    wn_site_model_free(s->model);
    free(s);
}

const char *winnow_site_name(const winnow_site *s) { return s ? s->model->name : ""; }
double winnow_site_pages(const winnow_site *s) { return s ? wn_site_model_pages(s->model) : 0.0; }

winnow_site *wn_site_wrap(wn_site_model *m)
{
    winnow_site *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->model = m;
    return s;
}

wn_site_model *wn_site_unwrap(const winnow_site *s) { return s ? s->model : NULL; }

void wn_site_rewrap(winnow_site *s, wn_site_model *m)
{
    wn_site_model_free(s->model);
    s->model = m;
}
