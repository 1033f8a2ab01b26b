#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

wn_site_model *wn_site_model_new(const char *name, double half_life)
{
    wn_site_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->name = strdup(name ? name : "");
    m->half_life = half_life > 0 ? half_life : WN_DEFAULT_HALF_LIFE;
    m->loaded_clock = -1.0;
    if (!m->name) { free(m); return NULL; }
    pthread_mutex_init(&m->ce_lock, NULL);
    return m;
}

void wn_site_model_free(wn_site_model *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->samples_count; i++) free(m->samples[i]);
    free(m->samples);
    for (size_t i = 0; i < m->pages_cap; i++) free(m->page_tab[i].url);
    wn_ce_model_free(&m->ce);
    pthread_mutex_destroy(&m->ce_lock);
    free(m->keys);
    free(m->page_tab);
    free(m->name);
    free(m);
}

static size_t slot_of(uint64_t key, uint8_t kind, size_t cap)
{
    uint64_t h = (key ^ ((uint64_t)kind * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
    return (size_t)(h >> 17) & (cap - 1);
}

/* A zeroed key table. From 2 MiB on, in transparent huge pages where the
 * system offers them: every page key is a random lookup, and with 4 KiB
 * pages a big site's table costs a TLB miss (and, when new, a page
 * fault) per lookup. */
static wn_key_entry *alloc_table(size_t cap)
{
    size_t bytes = cap * sizeof(wn_key_entry);
#if defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes >= huge && bytes % huge == 0) {
        void *p = aligned_alloc(huge, bytes);
        if (p) {
            madvise(p, bytes, MADV_HUGEPAGE);
            memset(p, 0, bytes);
            return p;
        }
    }
#endif
    return cap <= SIZE_MAX / sizeof(wn_key_entry) ? calloc(cap, sizeof(wn_key_entry)) : NULL;
}

static int grow_keys(wn_site_model *m)
{
    size_t cap = m->keys_cap ? m->keys_cap * 2 : 1024;
    wn_key_entry *t = alloc_table(cap);
    if (!t) return -1;
    for (size_t i = 0; i < m->keys_cap; i++) {
        wn_key_entry *e = &m->keys[i];
        if (!e->used) continue;
        size_t s = slot_of(e->key, e->kind, cap);
        while (t[s].used) s = (s + 1) & (cap - 1);
        t[s] = *e;
    }
    free(m->keys);
    m->keys = t;
    m->keys_cap = cap;
    return 0;
}

static wn_key_entry *find_or_add(wn_site_model *m, uint8_t kind, uint64_t key, int add)
{
    if (add && (m->keys_count + 1) * 4 > m->keys_cap * 3 && grow_keys(m) != 0) return NULL;
    if (!m->keys_cap) return NULL;
    size_t s = slot_of(key, kind, m->keys_cap);
    while (m->keys[s].used) {
        if (m->keys[s].key == key && m->keys[s].kind == kind) return &m->keys[s];
        s = (s + 1) & (m->keys_cap - 1);
    }
    if (!add) return NULL;
    wn_key_entry *e = &m->keys[s];
    memset(e, 0, sizeof *e);
    e->used = 1;
    e->key = key;
    e->kind = kind;
    m->keys_count++;
    return e;
}

const wn_key_entry *wn_site_model_find(const wn_site_model *m, uint8_t kind, uint64_t key)
{
    return find_or_add((wn_site_model *)m, kind, key, 0);
}

double wn_site_model_decay(const wn_site_model *m, double from_t)
{
    double dt = m->clock - from_t;
    return dt <= 0 ? 1.0 : exp2(-dt / m->half_life);
}

const char *wn_site_model_sample(const wn_site_model *m, const wn_key_entry *e)
{
    return e->sample ? m->samples[e->sample - 1] : NULL;
}

/* Gives the key the display text `text` (taken over, or NULL for none). */
static int set_sample(wn_site_model *m, wn_key_entry *e, char *text)
{
    if (e->sample) {
        free(m->samples[e->sample - 1]);
        m->samples[e->sample - 1] = text;
        return 0;
    }
    if (!text) return 0;
    if (m->samples_count == m->samples_cap) {
        size_t cap = m->samples_cap ? m->samples_cap * 2 : 256;
        char **grown = cap < UINT32_MAX ? realloc(m->samples, cap * sizeof *grown) : NULL;
        if (!grown) { free(text); return -1; }
        m->samples = grown;
        m->samples_cap = cap;
    }
    m->samples[m->samples_count++] = text;
    e->sample = (uint32_t)m->samples_count;
    return 0;
}

int wn_site_model_put_key(wn_site_model *m, uint8_t kind, uint64_t key, double df, double t, const char *sample)
{
    wn_key_entry *e = find_or_add(m, kind, key, 1);
    if (!e) return -1;
    e->df = df;
    e->t = t;
    return set_sample(m, e, sample ? strdup(sample) : NULL);
}

static size_t page_slot(uint64_t imatch, size_t cap) { return (size_t)((imatch * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1); }

static wn_page_entry *find_page(const wn_site_model *m, uint64_t imatch)
{
    if (!m->pages_cap) return NULL;
    size_t s = page_slot(imatch, m->pages_cap);
    while (m->page_tab[s].used) {
        if (m->page_tab[s].imatch == imatch) return &m->page_tab[s];
        s = (s + 1) & (m->pages_cap - 1);
    }
    return NULL;
}

int wn_site_model_put_page(wn_site_model *m, uint64_t imatch, double t, const char *url)
{
    if ((m->pages_count + 1) * 4 > m->pages_cap * 3) {
        size_t cap = m->pages_cap ? m->pages_cap * 2 : 256;
        wn_page_entry *tab = calloc(cap, sizeof *tab);
        if (!tab) return -1;
        for (size_t i = 0; i < m->pages_cap; i++) {
            if (!m->page_tab[i].used) continue;
            size_t s = page_slot(m->page_tab[i].imatch, cap);
            while (tab[s].used) s = (s + 1) & (cap - 1);
            tab[s] = m->page_tab[i];
        }
        free(m->page_tab);
        m->page_tab = tab;
        m->pages_cap = cap;
    }
    wn_page_entry *p = find_page(m, imatch);
    if (!p) {
        size_t s = page_slot(imatch, m->pages_cap);
        while (m->page_tab[s].used) s = (s + 1) & (m->pages_cap - 1);
        p = &m->page_tab[s];
        memset(p, 0, sizeof *p);
        p->used = 1;
        p->imatch = imatch;
        m->pages_count++;
    }
    p->t = t;
    free(p->url);
    p->url = url ? strdup(url) : NULL;
    return 0;
}

int wn_site_model_add_page(wn_site_model *m, const winnow_doc *doc, const wn_page_signals *sig, const char *url)
{
    if (sig->imatch && find_page(m, sig->imatch)) return 0;
    m->clock += 1.0;
    m->pages = m->pages * exp2(-1.0 / m->half_life) + 1.0;
    /* the decay of the last clock seen: keys of one earlier page share it */
    double memo_t = m->clock, memo_decay = 1.0;
    enum { AHEAD = 8 };
    for (uint32_t k = 0; k < sig->nkeys && k < AHEAD && m->keys_cap; k++)
        __builtin_prefetch(&m->keys[slot_of(sig->keys[k].key, sig->keys[k].kind, m->keys_cap)]);
    for (uint32_t k = 0; k < sig->nkeys; k++) {
        const wn_page_key *pk = &sig->keys[k];
        /* the table is a cache miss per key on a big site: fetch ahead
         * (a prefetch into a table that has grown since is only wasted) */
        if (k + AHEAD < sig->nkeys && m->keys_cap)
            __builtin_prefetch(&m->keys[slot_of(sig->keys[k + AHEAD].key, sig->keys[k + AHEAD].kind, m->keys_cap)]);
        wn_key_entry *e = find_or_add(m, pk->kind, pk->key, 1);
        if (!e) return -1;
        if (e->t != memo_t) {
            memo_t = e->t;
            memo_decay = wn_site_model_decay(m, e->t);
        }
        e->df = e->df * memo_decay + 1.0;
        e->t = m->clock;
        e->dirty = 1;
        /* a sample only once the key recurs: unique content needs none */
        if (!e->sample && e->df >= 1.5 && (pk->kind == WN_KEY_BLOCK || pk->kind == WN_KEY_CHUNK)) {
            char buf[96];
            size_t len = wn_signals_sample(doc, pk, buf, sizeof buf);
            if (len && set_sample(m, e, strdup(buf)) != 0) return -1;
        }
    }
    if (sig->ce && m->ce.pages < WN_CE_TRAINING_PAGES && wn_ce_model_add_page(&m->ce, sig->ce, sig->imatch) < 0)
        return -1;
    if (sig->imatch) {
        if (wn_site_model_put_page(m, sig->imatch, m->clock, url) != 0) return -1;
        find_page(m, sig->imatch)->dirty = 1;
    }
    m->dirty = 1;
    return 1;
}

double wn_site_model_df(const wn_site_model *m, uint8_t kind, uint64_t key)
{
    const wn_key_entry *e = wn_site_model_find(m, kind, key);
    return e ? e->df * wn_site_model_decay(m, e->t) : 0.0;
}

double wn_site_model_pages(const wn_site_model *m) { return m->pages; }

const wn_fastce_template *wn_site_model_fastce(const wn_site_model *m)
{
    /* the model is shared read-only by extracting threads; only this lazy
     * preparation writes, under the lock */
    wn_site_model *mm = (wn_site_model *)m;
    pthread_mutex_lock(&mm->ce_lock);
    int ok = mm->ce.prepared || wn_ce_model_prepare(&mm->ce) == 0;
    pthread_mutex_unlock(&mm->ce_lock);
    return ok ? &mm->ce.tmpl : NULL;
}

double wn_site_model_self_weight(const wn_site_model *m, uint64_t imatch)
{
    const wn_page_entry *p = imatch ? find_page(m, imatch) : NULL;
    return p ? wn_site_model_decay(m, p->t) : 0.0;
}
