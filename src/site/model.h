/* A site's template evidence in memory: document frequencies of page keys
 * (block fingerprints, chunks) and the pages counted, with exponential
 * ageing so that a redesigned site's old template fades.
 *
 * Time is the site's page clock: the number of distinct pages learned.
 * A count c recorded at clock t is worth c * 2^-((T - t) / half_life) at
 * clock T, and so is the page mass; "document frequency >= 10% of the
 * site's pages" compares the two aged quantities. Nothing is re-read when
 * pages are added: each key keeps (count, clock of last update). */
#ifndef WN_SITE_MODEL_H
#define WN_SITE_MODEL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ce.h"
#include "signals.h"

/* 32 bytes: half a cache line, as learning looks up one per page key */
typedef struct wn_key_entry {
    uint64_t key;
    double df; /* aged count at clock t */
    double t;
    uint32_t sample; /* display text: 1 + its index in the model's samples, 0 for none */
    uint8_t kind;
    uint8_t dirty; /* changed since loaded: to be written */
    uint8_t used;
} wn_key_entry;

typedef struct wn_page_entry {
    uint64_t imatch;
    double t; /* clock when counted */
    uint8_t used;
    uint8_t dirty;
    char *url;
} wn_page_entry;

/* Pages counted since the model was last saved, as they came: a learn that
 * finds its site changed by another learn when it saves replays them onto
 * the stored state (wn_site_model_replay) instead of overwriting it. Kept
 * only for models loaded from a site database (`on`). */
typedef struct wn_journal_key {
    uint64_t key;
    uint32_t sample; /* 1 + offset of its display text in `text`, 0 for none */
    uint8_t kind;
} wn_journal_key;

typedef struct wn_journal_page {
    uint64_t imatch;
    uint32_t url;     /* 1 + offset in `text`, 0 for none */
    uint32_t ce_page; /* the ContentExtractor training page it became, UINT32_MAX for none */
    size_t key0;      /* its keys: keys[key0 .. key0 + nkeys) */
    uint32_t nkeys;
} wn_journal_page;

typedef struct wn_journal {
    int on;
    wn_journal_page *pages;
    size_t npages, pages_cap;
    wn_journal_key *keys;
    size_t nkeys, keys_cap;
    char *text; /* NUL-terminated samples and URLs */
    size_t text_len, text_cap;
} wn_journal;

typedef struct wn_site_model {
    char *name;
    int64_t id; /* row id in the store, 0 when new */
    double clock;
    double pages; /* aged page mass at clock */
    double half_life;
    int64_t updated;      /* unix time of the last learn */
    uint64_t stored_head; /* the stored head checksum (store_read.c, store_write.c) when loaded or
                            last saved, 0 for a site the database did not have: spots another
                            learn's saves */
    wn_journal journal;   /* pages counted since then */
    wn_key_entry *keys;
    size_t keys_cap, keys_count;
    char **samples; /* the keys' display texts */
    size_t samples_count, samples_cap;
    wn_page_entry *page_tab;
    size_t pages_cap, pages_count;
    int dirty;
    int journal_only;        /* a partial's model (partial.h): pages go to the journal (and the
                            I-Match set, the ContentExtractor pages), no fingerprint is counted;
                            it can neither judge pages nor be saved in a site database */
    wn_ce_model ce;          /* ContentExtractor / FastCE training blocks and template */
    pthread_mutex_t ce_lock; /* FastCE's preparation runs once, on first use, from any thread */
} wn_site_model;

#define WN_DEFAULT_HALF_LIFE 1000.0

wn_site_model *wn_site_model_new(const char *name, double half_life);
void wn_site_model_free(wn_site_model *m);

/* Inserts or replaces raw entries (used by the store when loading). */
int wn_site_model_put_key(wn_site_model *m, uint8_t kind, uint64_t key, double df, double t, const char *sample);
int wn_site_model_put_page(wn_site_model *m, uint64_t imatch, double t, const char *url);

/* Counts one page. Returns 1 when counted, 0 when it duplicates a page
 * already counted (same I-Match signature), -1 on OOM. `doc` supplies
 * display samples for keys that become frequent. With the journal on, the
 * page is also recorded there. */
int wn_site_model_add_page(wn_site_model *m, const winnow_doc *doc, const wn_page_signals *sig, const char *url);

/* Counts the pages of src's journal into dst, in order, as if they had
 * been learned on dst (duplicates of dst's pages are skipped; a page that
 * was one of src's ContentExtractor training pages becomes one of dst's
 * while dst takes them). With dst's journal on, the pages counted are
 * recorded there too. *counted (may be NULL) gets the pages counted.
 * 0, or -1 on OOM. */
int wn_site_model_replay(wn_site_model *dst, const wn_site_model *src, size_t *counted);
/* Appends a page to the journal as a partial file holds it (partial.c):
 * wn_journal_page_begin makes room for nkeys keys (samples of at most 95
 * bytes) and the URL, wn_journal_key_put fills key k (sample NULL for
 * none), wn_journal_page_end records the page. 0, or -1 on OOM. */
int wn_journal_page_begin(wn_journal *j, uint32_t nkeys, const char *url);
void wn_journal_key_put(wn_journal *j, uint32_t k, uint8_t kind, uint64_t key, const char *sample, size_t len);
void wn_journal_page_end(wn_journal *j, uint64_t imatch, const char *url, uint32_t ce_page, uint32_t nkeys);
/* Forgets the journal (after a save) and frees its memory; keeps it on. */
void wn_journal_clear(wn_journal *j);

/* Aged document frequency of a key at the current clock (0 when unseen). */
double wn_site_model_df(const wn_site_model *m, uint8_t kind, uint64_t key);
/* Aged page mass. */
double wn_site_model_pages(const wn_site_model *m);
/* What a counted page with this signature contributes now to each of its
 * keys and to the page mass (0 when not counted): leave-one-out subtracts it. */
double wn_site_model_self_weight(const wn_site_model *m, uint64_t imatch);

const wn_key_entry *wn_site_model_find(const wn_site_model *m, uint8_t kind, uint64_t key);
/* A key's display text, NULL when it has none. */
const char *wn_site_model_sample(const wn_site_model *m, const wn_key_entry *e);
double wn_site_model_decay(const wn_site_model *m, double from_t);
/* FastCE's template, prepared on first use (thread-safe); NULL on OOM. */
const wn_fastce_template *wn_site_model_fastce(const wn_site_model *m);

#endif
