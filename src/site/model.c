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
    if (!m->name) {
        free(m);
        return NULL;
    }
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
    free(m->journal.pages);
    free(m->journal.keys);
    free(m->journal.text);
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
        if (!grown) {
            free(text);
            return -1;
        }
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

static size_t page_slot(uint64_t imatch, size_t cap)
{
    return (size_t)((imatch * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

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
        size_t cap = m->pages_cap ? m->pages_cap * 2 : 16;
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

/* ---- counting a page: shared by learning and replaying ---- */

/* Advances the clock for a new page; 0 when the page was counted before. */
static int page_begin(wn_site_model *m, uint64_t imatch)
{
    if (imatch && find_page(m, imatch)) return 0;
    m->clock += 1.0;
    m->pages = m->pages * exp2(-1.0 / m->half_life) + 1.0;
    return 1;
}

/* The decay of the last clock seen: keys of one earlier page share it. */
typedef struct decay_memo {
    double t, decay;
} decay_memo;

static wn_key_entry *count_key(wn_site_model *m, uint8_t kind, uint64_t key, decay_memo *memo)
{
    wn_key_entry *e = find_or_add(m, kind, key, 1);
    if (!e) return NULL;
    if (e->t != memo->t) {
        memo->t = e->t;
        memo->decay = wn_site_model_decay(m, e->t);
    }
    e->df = e->df * memo->decay + 1.0;
    e->t = m->clock;
    e->dirty = 1;
    return e;
}

/* a sample only once the key recurs: unique content needs none */
static int wants_sample(const wn_key_entry *e)
{
    return !e->sample && e->df >= 1.5 && (e->kind == WN_KEY_BLOCK || e->kind == WN_KEY_CHUNK);
}

static int page_end(wn_site_model *m, uint64_t imatch, const char *url)
{
    if (imatch) {
        if (wn_site_model_put_page(m, imatch, m->clock, url) != 0) return -1;
        find_page(m, imatch)->dirty = 1;
    }
    m->dirty = 1;
    return 0;
}

/* ---- the journal ---- */

#define SAMPLE_CAP 96

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static uint32_t journal_text(wn_journal *j, const char *t, size_t len)
{
    uint32_t at = (uint32_t)j->text_len + 1;
    memcpy(j->text + j->text_len, t, len);
    j->text[j->text_len + len] = '\0';
    j->text_len += len + 1;
    return at;
}

/* Room for a page of nkeys keys and a URL, so that recording it cannot
 * fail once the model has counted it. */
static int journal_reserve(wn_journal *j, uint32_t nkeys, size_t url_len)
{
    size_t text = j->text_len + (size_t)nkeys * SAMPLE_CAP + url_len + 1;
    if (text >= UINT32_MAX) return -1; /* offsets are 32-bit: save more often */
    return grow((void **)&j->pages, &j->pages_cap, j->npages + 1, sizeof *j->pages) ||
           grow((void **)&j->keys, &j->keys_cap, j->nkeys + nkeys, sizeof *j->keys) ||
           grow((void **)&j->text, &j->text_cap, text, 1);
}

int wn_journal_page_begin(wn_journal *j, uint32_t nkeys, const char *url)
{
    return journal_reserve(j, nkeys, url ? strlen(url) : 0);
}

void wn_journal_key_put(wn_journal *j, uint32_t k, uint8_t kind, uint64_t key, const char *sample, size_t len)
{
    if (len >= SAMPLE_CAP) len = SAMPLE_CAP - 1;
    j->keys[j->nkeys + k] = (wn_journal_key){ key, sample ? journal_text(j, sample, len) : 0, kind };
}

void wn_journal_page_end(wn_journal *j, uint64_t imatch, const char *url, uint32_t ce_page, uint32_t nkeys)
{
    j->pages[j->npages++] =
        (wn_journal_page){ imatch, url ? journal_text(j, url, strlen(url)) : 0, ce_page, j->nkeys, nkeys };
    j->nkeys += nkeys;
}

void wn_journal_clear(wn_journal *j)
{
    /* freed, not kept: a run holds many sites, most of them done */
    free(j->pages);
    free(j->keys);
    free(j->text);
    int on = j->on;
    memset(j, 0, sizeof *j);
    j->on = on;
}

int wn_site_model_add_page(wn_site_model *m, const winnow_doc *doc, const wn_page_signals *sig, const char *url)
{
    if (sig->imatch && find_page(m, sig->imatch)) return 0;
    wn_journal *j = m->journal.on ? &m->journal : NULL;
    if (m->journal_only && !j) return -1;
    if (j && journal_reserve(j, sig->nkeys, url ? strlen(url) : 0) != 0) return -1;
    page_begin(m, sig->imatch);
    decay_memo memo = { m->clock, 1.0 };
    enum { AHEAD = 8 };
    for (uint32_t k = 0; k < sig->nkeys && k < AHEAD && m->keys_cap; k++)
        __builtin_prefetch(&m->keys[slot_of(sig->keys[k].key, sig->keys[k].kind, m->keys_cap)]);
    for (uint32_t k = 0; k < sig->nkeys; k++) {
        const wn_page_key *pk = &sig->keys[k];
        /* the table is a cache miss per key on a big site: fetch ahead
         * (a prefetch into a table that has grown since is only wasted) */
        if (k + AHEAD < sig->nkeys && m->keys_cap)
            __builtin_prefetch(&m->keys[slot_of(sig->keys[k + AHEAD].key, sig->keys[k + AHEAD].kind, m->keys_cap)]);
        /* a partial's model only records the page (its journal is on) */
        wn_key_entry *e = m->journal_only ? NULL : count_key(m, pk->kind, pk->key, &memo);
        if (!e && !m->journal_only) return -1;
        char buf[SAMPLE_CAP];
        size_t len = 0;
        int sampled = pk->kind == WN_KEY_BLOCK || pk->kind == WN_KEY_CHUNK;
        if (sampled && (j || wants_sample(e))) len = wn_signals_sample(doc, pk, buf, sizeof buf);
        if (len && e && wants_sample(e) && set_sample(m, e, strdup(buf)) != 0) return -1;
        if (j) j->keys[j->nkeys + k] = (wn_journal_key){ pk->key, len ? journal_text(j, buf, len) : 0, pk->kind };
    }
    uint32_t ce_page = UINT32_MAX;
    if (sig->ce && m->ce.pages < WN_CE_TRAINING_PAGES) {
        int r = wn_ce_model_add_page(&m->ce, sig->ce, sig->imatch);
        if (r < 0) return -1;
        if (r > 0) ce_page = m->ce.pages - 1;
    }
    if (page_end(m, sig->imatch, url) != 0) return -1;
    if (j) {
        j->pages[j->npages++] = (wn_journal_page){ sig->imatch, url ? journal_text(j, url, strlen(url)) : 0, ce_page,
                                                   j->nkeys, sig->nkeys };
        j->nkeys += sig->nkeys;
    }
    return 1;
}

/* Training page `from` of src becomes dst's next training page. */
static int replay_ce_page(wn_ce_model *dst, const wn_ce_model *src, uint32_t from, uint64_t imatch)
{
    uint32_t page = dst->pages;
    for (size_t b = 0; b < src->count; b++)
        if (src->blocks[b].page == from &&
            wn_ce_model_put_block(dst, page, src->blocks[b].path, &src->blocks[b].vec) != 0)
            return -1;
    dst->pages = page + 1;
    dst->page_imatch[page] = imatch;
    dst->dirty = 1;
    dst->prepared = 0;
    return 0;
}

int wn_site_model_replay(wn_site_model *dst, const wn_site_model *src, size_t *counted)
{
    const wn_journal *j = &src->journal;
    wn_journal *dj = dst->journal.on ? &dst->journal : NULL;
    if (counted) *counted = 0;
    for (size_t p = 0; p < j->npages; p++) {
        const wn_journal_page *jp = &j->pages[p];
        if (jp->imatch && find_page(dst, jp->imatch)) continue;
        const char *url = jp->url ? j->text + jp->url - 1 : NULL;
        /* room first, so that recording cannot fail once the page is counted */
        if (dj && journal_reserve(dj, jp->nkeys, url ? strlen(url) : 0) != 0) return -1;
        page_begin(dst, jp->imatch);
        decay_memo memo = { dst->clock, 1.0 };
        for (uint32_t k = 0; k < jp->nkeys; k++) {
            const wn_journal_key *jk = &j->keys[jp->key0 + k];
            const char *sample = jk->sample ? j->text + jk->sample - 1 : NULL;
            wn_key_entry *e = dst->journal_only ? NULL : count_key(dst, jk->kind, jk->key, &memo);
            if (!e && !dst->journal_only) return -1;
            if (sample && e && wants_sample(e) && set_sample(dst, e, strdup(sample)) != 0) return -1;
            if (dj)
                dj->keys[dj->nkeys + k] =
                    (wn_journal_key){ jk->key, sample ? journal_text(dj, sample, strlen(sample)) : 0, jk->kind };
        }
        /* a training page of src is one of dst's while dst takes them (a
         * page src had no room for is not: its blocks were never kept) */
        uint32_t ce_page = UINT32_MAX;
        if (jp->ce_page != UINT32_MAX && dst->ce.pages < WN_CE_TRAINING_PAGES) {
            if (replay_ce_page(&dst->ce, &src->ce, jp->ce_page, jp->imatch) != 0) return -1;
            ce_page = dst->ce.pages - 1;
        }
        if (page_end(dst, jp->imatch, url) != 0) return -1;
        if (dj) {
            dj->pages[dj->npages++] = (wn_journal_page){ jp->imatch, url ? journal_text(dj, url, strlen(url)) : 0,
                                                         ce_page, dj->nkeys, jp->nkeys };
            dj->nkeys += jp->nkeys;
        }
        if (counted) (*counted)++;
    }
    return 0;
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
