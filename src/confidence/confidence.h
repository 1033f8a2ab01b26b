/* The confidence stage: how likely it is that the text kept is the page's
 * main content, judged by a small learned model from what the extraction
 * already knows about the page.
 *
 * Contract: reads the finished page (the status and warning, the labels
 * the selection settled: keep, unit, value, clf, container, headline,
 * source; the statistics; the metadata; the comment records and posts) and
 * writes d->confidence and its feature vector d->confidence_x. Runs after
 * the status, before output; it changes nothing that is extracted. One
 * pass over the node array, no text re-read.
 *
 * The model is a logistic regression fitted (winnow train --confidence) on
 * the bench corpora's pages, each labelled by whether the text winnow kept
 * scores a token F1 of WN_CONF_LABEL_F1 or more against its gold text: the
 * probability is the estimated chance of that. */
#ifndef WN_CONFIDENCE_H
#define WN_CONFIDENCE_H

#include <stddef.h>

#include "winnow.h"

#include "../doc.h"

/* Room for the features; wn_conf_feature_count() says how many are used. */
#define WN_CONF_MAX_FEATURES 48

/* The label the model is fitted to: token F1 of the kept text against the
 * gold text at least this (bench/confidence.py, winnow train --confidence). */
#define WN_CONF_LABEL_F1 0.8

typedef struct wn_conf_model {
    double w[WN_CONF_MAX_FEATURES + 1]; /* weights, bias last */
    int loaded;                         /* 0: no model (the stage writes -1) */
} wn_conf_model;

/* The built-in model (models/confidence.wmodel, embedded by
 * cmake/embed.cmake; length 0 in a build without one). */
extern const unsigned char wn_confidence_model[];
extern const size_t wn_confidence_model_len;

unsigned wn_conf_feature_count(void);
const char *wn_conf_feature_name(unsigned k);

/* Reads a model file's text (see wn_conf_model_write): -1 with err set
 * when it is not one, or names other features than this build computes. */
int wn_conf_model_parse(const char *text, size_t n, wn_conf_model *m, char *err, size_t cap);

/* The text of a model file: a header line, the label, what it was trained
 * on (one line, may be NULL), the feature names, then the weights and the
 * bias. Returns bytes written (the whole text's length even when cap is
 * smaller, as snprintf). */
size_t wn_conf_model_write(const wn_conf_model *m, const char *trained, char *out, size_t cap);

/* The feature vector of a finished page into x (wn_conf_feature_count()
 * values, each about in [0, 1]); -1 when out of memory. */
int wn_conf_features(winnow_doc *d, float *x);

/* The model's probability for x. */
double wn_conf_predict(const wn_conf_model *m, const float *x);

/* The stage: the features and, with a model, its probability (without:
 * d->confidence = -1). -1 when out of memory. */
int wn_confidence_run(winnow_doc *d, const wn_conf_model *m);

#endif
