#include "sums.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

typedef struct enc {
    unsigned char b[96];
    size_t n;
} enc;

static void put_u64(enc *e, uint64_t v)
{
    for (int i = 0; i < 8; i++) e->b[e->n++] = (unsigned char)(v >> (8 * i));
}

static void put_f64(enc *e, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(e, bits);
}

/* The fixed part seeds the hash of the variable part (a string, a blob);
 * a NULL string and an empty one differ by its length field. */
static uint64_t finish(enc *e, const void *var, size_t len, int is_null)
{
    put_u64(e, is_null ? UINT64_MAX : (uint64_t)len);
    uint64_t seed = XXH3_64bits(e->b, e->n);
    return XXH3_64bits_withSeed(!is_null && var ? var : "", is_null ? 0 : len, seed);
}

uint64_t wn_sum_key(int64_t kind, int64_t key, double df, double t, const char *sample, size_t len)
{
    enc e = { { 'K' }, 1 };
    put_u64(&e, (uint64_t)kind);
    put_u64(&e, (uint64_t)key);
    put_f64(&e, df);
    put_f64(&e, t);
    return finish(&e, sample, len, sample == NULL);
}

uint64_t wn_sum_page(int64_t imatch, double t, const char *url, size_t len)
{
    enc e = { { 'P' }, 1 };
    put_u64(&e, (uint64_t)imatch);
    put_f64(&e, t);
    return finish(&e, url, len, url == NULL);
}

uint64_t wn_sum_ce_page(int64_t page, int64_t imatch)
{
    enc e = { { 'C' }, 1 };
    put_u64(&e, (uint64_t)page);
    put_u64(&e, (uint64_t)imatch);
    return finish(&e, NULL, 0, 1);
}

uint64_t wn_sum_ce_block(int64_t page, int64_t path, const void *vec, size_t len)
{
    enc e = { { 'B' }, 1 };
    put_u64(&e, (uint64_t)page);
    put_u64(&e, (uint64_t)path);
    return finish(&e, vec, len, 0);
}

uint64_t wn_sum_head(int64_t id, const char *name, double clock, double pages, double half_life, int64_t created,
                     int64_t updated, const wn_site_sums *sums)
{
    enc e = { { 'S' }, 1 };
    put_u64(&e, (uint64_t)id);
    put_f64(&e, clock);
    put_f64(&e, pages);
    put_f64(&e, half_life);
    put_u64(&e, (uint64_t)created);
    put_u64(&e, (uint64_t)updated);
    put_u64(&e, (uint64_t)sums->nkeys);
    put_u64(&e, (uint64_t)sums->npages);
    put_u64(&e, sums->body);
    return finish(&e, name, strlen(name), 0);
}

int wn_site_model_sums(const wn_site_model *m, wn_site_sums *out)
{
    memset(out, 0, sizeof *out);
    uint64_t body = 0;
    for (size_t i = 0; i < m->keys_cap; i++) {
        const wn_key_entry *e = &m->keys[i];
        if (!e->used) continue;
        const char *sample = wn_site_model_sample(m, e);
        body += wn_sum_key(e->kind, (int64_t)e->key, e->df, e->t, sample, sample ? strlen(sample) : 0);
        out->nkeys++;
    }
    for (size_t i = 0; i < m->pages_cap; i++) {
        const wn_page_entry *p = &m->page_tab[i];
        if (!p->used) continue;
        body += wn_sum_page((int64_t)p->imatch, p->t, p->url, p->url ? strlen(p->url) : 0);
        out->npages++;
    }
    for (uint32_t p = 0; p < m->ce.pages && p < WN_CE_TRAINING_PAGES; p++)
        body += wn_sum_ce_page(p, (int64_t)m->ce.page_imatch[p]);
    void *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < m->ce.count; i++) {
        const wn_ce_block *b = &m->ce.blocks[i];
        size_t need = wn_ce_vec_pack(&b->vec, buf, cap);
        if (need > cap) {
            void *nb = realloc(buf, need);
            if (!nb) {
                free(buf);
                return -1;
            }
            buf = nb;
            cap = need;
            wn_ce_vec_pack(&b->vec, buf, cap);
        }
        body += wn_sum_ce_block(b->page, (int64_t)b->path, buf, need);
    }
    free(buf);
    out->body = body;
    return 0;
}
