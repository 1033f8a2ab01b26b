/* ContentExtractor (Debnath et al.) and FastContentExtractor (Nguyen et al.).
 *
 * Both work on atomic blocks: the text units (a line-breaking element with
 * its nested blocks taken out), each described by a feature vector of term
 * counts plus its image and link counts. Two blocks are similar when the
 * cosine of their vectors exceeds 0.9.
 *
 * ContentExtractor, the baseline: a block of a new page is non-content when
 * similar blocks occur on at least 10% (and 2) of the site's training pages;
 * it compares every block with every stored block.
 *
 * FastContentExtractor: a preparation phase runs ContentExtractor over the
 * training pages (20-30 of them) and keeps a template: the block paths
 * ("html.body.div.p", block tags only) of the content blocks, plus the
 * non-content blocks sharing those paths. Detection extracts only blocks
 * whose path is in the template, in document order, and drops those similar
 * to a stored non-content block of the same path. */
#ifndef WN_CE_H
#define WN_CE_H

#include <stddef.h>
#include <stdint.h>

#include "../doc.h"

#define WN_CE_TRAINING_PAGES 30
#define WN_CE_SIMILAR 0.9
/* The published baseline's own thresholds (Debnath et al.): a block is
 * non-content when similar blocks are on at least this share of the
 * training pages and on at least this many of them. Kept out of the rule
 * table on purpose: the baseline stays the paper's method whatever the
 * site model's SITE_TEMPLATE_PERCENT and SITE_MIN_PAGES are set to. */
#define WN_CE_TEMPLATE_SHARE 0.1
#define WN_CE_MIN_PAGES 2.0

typedef struct wn_ce_vec {
    uint32_t n;
    uint32_t *dims; /* sorted */
    float *vals;
    float norm;
} wn_ce_vec;

typedef struct wn_ce_block {
    uint64_t path;
    uint32_t page; /* training page number */
    wn_ce_vec vec;
} wn_ce_block;

typedef struct wn_fastce_template {
    uint64_t *paths; /* content block paths, sorted */
    size_t npaths;
    uint32_t *noncontent; /* stored non-content blocks whose path is in `paths`, by path */
    size_t nnoncontent;
} wn_fastce_template;

typedef struct wn_ce_model {
    wn_ce_block *blocks; /* atomic blocks of the training pages */
    size_t count, cap;
    uint32_t pages;                             /* training pages stored */
    uint64_t page_imatch[WN_CE_TRAINING_PAGES]; /* to recognise a training page again */
    wn_fastce_template tmpl;                    /* prepared from all training pages */
    int prepared;
    int dirty; /* blocks added since loading */
} wn_ce_model;

/* Per page: the atomic blocks (units) with their vectors and block paths. */
typedef struct wn_ce_page {
    uint32_t *units;
    uint64_t *paths;
    wn_ce_vec *vecs;
    uint32_t count;
} wn_ce_page;

int wn_ce_page_compute(winnow_doc *d, wn_ce_page *out);

void wn_ce_model_init(wn_ce_model *m);
void wn_ce_model_free(wn_ce_model *m);
/* Stores a training page's blocks (up to WN_CE_TRAINING_PAGES pages). */
int wn_ce_model_add_page(wn_ce_model *m, const wn_ce_page *p, uint64_t imatch);
/* Appends one stored block (loading); the vector is copied. */
int wn_ce_model_put_block(wn_ce_model *m, uint32_t page, uint64_t path, const wn_ce_vec *v);
/* The training page a signature belongs to, or UINT32_MAX. */
uint32_t wn_ce_model_page_of(const wn_ce_model *m, uint64_t imatch);
/* Preparation phase of FastCE: label the training blocks with
 * ContentExtractor (leaving page `exclude` out, UINT32_MAX for none) and
 * build the template. */
int wn_fastce_prepare(const wn_ce_model *m, uint32_t exclude, wn_fastce_template *t);
void wn_fastce_template_free(wn_fastce_template *t);
/* Builds m->tmpl from all training pages (FastCE's preparation phase). */
int wn_ce_model_prepare(wn_ce_model *m);

/* Detection: out[k] = 1 when the page's block k is non-content. exclude is
 * a training page to leave out (leave-one-out), or UINT32_MAX. */
int wn_ce_detect(const wn_ce_model *m, const wn_ce_page *p, uint8_t *out, uint32_t exclude);
int wn_fastce_detect(const wn_ce_model *m, const wn_fastce_template *t, const wn_ce_page *p, uint8_t *out);

float wn_ce_cosine(const wn_ce_vec *a, const wn_ce_vec *b);
/* Packs / unpacks a vector for storage. */
size_t wn_ce_vec_pack(const wn_ce_vec *v, void *buf, size_t cap);
int wn_ce_vec_unpack(const void *buf, size_t len, wn_ce_vec *out);
void wn_ce_vec_free(wn_ce_vec *v);

#endif
