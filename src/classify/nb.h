/* Text Naive Bayes over block words (Kolcz & Yih's "text" model).
 *
 * Multinomial Naive Bayes with Laplace smoothing: each word carries the log
 * ratio of its template and content probabilities, and a block's score is
 * the prior log-odds plus the sum over its word occurrences. Only words
 * seen in enough training blocks are kept, so the table stays small; the
 * rest score 0 (no evidence). Scores of every node of a page come from one
 * prefix sum over the page's word sequence, since a node's words are a
 * contiguous range of it. */
#ifndef WN_NB_H
#define WN_NB_H

#include <stddef.h>
#include <stdint.h>

typedef struct wn_nb_model {
    double prior;   /* log P(template) - log P(content) */
    uint32_t count; /* words kept */
    uint64_t *word; /* sorted word keys */
    float *weight;  /* log-ratio per word */
    /* open-addressing index of the same table (wn_nb_index), read-only
     * once built; NULL: lookups binary-search the sorted keys */
    uint64_t *slot_word; /* 0: empty slot */
    float *slot_weight;
    uint32_t slot_mask;
    /* 4 * (slot_mask + 1) bits, a word's bit set when it is in the table
     * (its hash's low bits are also its home slot): most words of a page
     * are not in the table, and this filter, 8 times smaller, tells so
     * without a cache miss in the table */
    uint64_t *filter;
} wn_nb_model;

/* Log-ratio of a word key, 0 when unknown. */
float wn_nb_weight(const wn_nb_model *m, uint64_t word);

/* wn_nb_weight of n word keys into out[0..n): the same values, with the
 * table's cache misses overlapped. */
void wn_nb_weights(const wn_nb_model *m, const uint64_t *words, uint32_t n, float *out);

/* Builds the hash index of a filled table (the model parser and
 * wn_nb_build call it); lookups give the same weights with or without it.
 * Returns 0, or -1 out of memory (the model then works without an index). */
int wn_nb_index(wn_nb_model *m);

/* Training: counts of word keys per class. */
typedef struct wn_nb_counts wn_nb_counts;
wn_nb_counts *wn_nb_counts_new(void);
void wn_nb_counts_free(wn_nb_counts *c);
/* Adds one block's word occurrences (or a sample of them) under a label (1 = template). */
int wn_nb_counts_add(wn_nb_counts *c, const uint64_t *words, uint32_t n, int label);
/* Builds a model from counts: words counted at least min_count times, at
 * most max_words of them (the most frequent). Returns 0 or -1 on OOM. */
int wn_nb_build(const wn_nb_counts *c, uint32_t min_count, uint32_t max_words, wn_nb_model *out);
void wn_nb_free(wn_nb_model *m);

#endif
