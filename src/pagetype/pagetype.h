/* The kind of page: article, forum, product, listing, documentation,
 * service (a landing page) or other, judged by a small learned model.
 *
 * Contract: reads the DOM (element counts, microdata itemtype, og:type),
 * the statistics (d->stats: text, link text), the page text (prices),
 * the metadata (d->meta: JSON-LD @type set, canonical URL), the comment
 * records the page score found (d->ncomments) and the page's URL
 * (d->src_url); writes d->page_type, d->page_type_conf and the feature
 * vector d->page_type_x. Runs after meta and before select; it changes no
 * label, so what is extracted is the same whatever the kind (for now).
 *
 * The features are evidence that means the same on every site (schema.org
 * types, og:type, markup shares, generic words of the URL's path); never a
 * site's name. The model is one-vs-rest logistic regression: one dot
 * product per kind, then the kinds' sigmoids normalised to sum to one (as
 * liblinear's predict_probability). */
#ifndef WN_PAGETYPE_H
#define WN_PAGETYPE_H

#include <stddef.h>

#include "winnow.h"

#include "../doc.h"

/* Room for the features; wn_pt_feature_count() says how many are used. */
#define WN_PT_MAX_FEATURES 80

typedef struct wn_pt_model {
    unsigned nclass;                                          /* kinds the model scores */
    int kind[WINNOW_PAGE_TYPE_COUNT];                         /* winnow_page_type of each */
    double w[WINNOW_PAGE_TYPE_COUNT][WN_PT_MAX_FEATURES + 1]; /* weights, bias last */
} wn_pt_model;

/* The built-in model (models/pagetype.wmodel, embedded by cmake/embed.cmake;
 * length 0 in a build without one). */
extern const unsigned char wn_pagetype_model[];
extern const size_t wn_pagetype_model_len;

unsigned wn_pt_feature_count(void);
const char *wn_pt_feature_name(unsigned k);

/* Reads a model file's text (see wn_pt_model_write): -1 with err set when
 * it is not one, or names other features than this build computes. */
int wn_pt_model_parse(const char *text, size_t n, wn_pt_model *m, char *err, size_t cap);

/* The text of a model file: a header line, the feature names, then one
 * line per kind with its weights and bias. Returns bytes written (the whole
 * text's length even when cap is smaller, as snprintf). */
size_t wn_pt_model_write(const wn_pt_model *m, char *out, size_t cap);

/* The feature vector of a finished-up-to-meta page into x
 * (wn_pt_feature_count() values, each about in [0, 1]). */
void wn_pt_features(winnow_doc *d, float *x);

/* Probabilities of the model's kinds for x (p[k] for m->kind[k]); returns
 * the index of the most probable. */
unsigned wn_pt_predict(const wn_pt_model *m, const float *x, double *p);

/* The stage: with forced a kind (not UNKNOWN), that kind at confidence 1
 * and no features; otherwise the features and, with a model, its verdict
 * (without: UNKNOWN at 0). -1 when out of memory. */
int wn_pagetype_run(winnow_doc *d, const wn_pt_model *m, int forced);

#endif
