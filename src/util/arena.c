#include "arena.h"

#include <stdlib.h>
#include <string.h>

struct wn_chunk {
    wn_chunk *next;
    size_t cap;
    size_t used;
    /* payload follows, aligned by the header size (a multiple of 16 on LP64) */
};

#define WN_CHUNK_HDR ((sizeof(wn_chunk) + 15u) & ~(size_t)15u)
#define WN_CHUNK_MIN ((size_t)64 * 1024)

void wn_arena_init(wn_arena *a) { memset(a, 0, sizeof *a); }

static wn_chunk *take_spare(wn_arena *a, size_t need)
{
    wn_chunk **pp = &a->spare;
    while (*pp) {
        if ((*pp)->cap >= need) {
            wn_chunk *c = *pp;
            *pp = c->next;
            c->used = 0;
            return c;
        }
        pp = &(*pp)->next;
    }
    return NULL;
}

/* The head chunk's first byte at or after its fill that is aligned to
 * align (a power of two), or NULL when fewer than size bytes follow it. */
static char *fits(wn_chunk *c, size_t size, size_t align)
{
    if (!c) return NULL;
    size_t at = (c->used + align - 1) & ~(align - 1);
    return at <= c->cap && c->cap - at >= size ? (char *)c + WN_CHUNK_HDR + at : NULL;
}

static void *take(wn_arena *a, size_t size, size_t align)
{
    char *p = fits(a->head, size, align);
    if (!p) {
        wn_chunk *c = take_spare(a, size);
        if (!c) {
            size_t cap = a->cap_total < WN_CHUNK_MIN ? WN_CHUNK_MIN : a->cap_total;
            if (cap < size) cap = size;
            if (cap > SIZE_MAX - WN_CHUNK_HDR) return NULL;
            c = malloc(WN_CHUNK_HDR + cap);
            if (!c) return NULL;
            c->cap = cap;
            c->used = 0;
            a->cap_total += cap;
        }
        c->next = a->head;
        a->head = c;
        p = (char *)c + WN_CHUNK_HDR;
    }
    size_t end = (size_t)(p - ((char *)a->head + WN_CHUNK_HDR)) + size;
    a->used_total += end - a->head->used;
    a->head->used = end;
    return p;
}

void *wn_arena_alloc(wn_arena *a, size_t size)
{
    if (size > SIZE_MAX - 15u) return NULL;
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0) size = 16;
    return take(a, size, 16);
}

/* Bytes with no alignment: strings, packed back to back. An attribute's
 * value of two bytes took 16 as an aligned allocation, and on a page of
 * attributes those were a fifth of its memory. */
char *wn_arena_bytes(wn_arena *a, size_t n) { return take(a, n ? n : 1, 1); }

void *wn_arena_calloc(wn_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    void *p = wn_arena_alloc(a, n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *wn_arena_array(wn_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return wn_arena_alloc(a, n * size);
}

char *wn_arena_strndup(wn_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) return NULL;
    char *p = wn_arena_bytes(a, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

wn_arena_mark wn_arena_save(const wn_arena *a)
{
    wn_arena_mark m = { a->head, a->head ? a->head->used : 0, a->used_total };
    return m;
}

void wn_arena_release(wn_arena *a, wn_arena_mark m)
{
    /* chunks made head after the mark go back to the spare list */
    while (a->head && a->head != m.head) {
        wn_chunk *c = a->head;
        a->head = c->next;
        c->next = a->spare;
        a->spare = c;
    }
    if (a->head) a->head->used = m.used;
    a->used_total = m.used_total;
}

void wn_arena_reset(wn_arena *a, size_t keep_bytes)
{
    /* Move every chunk to the spare list, then free the smallest ones until
     * what is kept fits the budget; the largest chunk serves the next page. */
    wn_chunk *c = a->head;
    while (c) {
        wn_chunk *n = c->next;
        c->next = a->spare;
        a->spare = c;
        c = n;
    }
    a->head = NULL;
    a->used_total = 0;
    size_t held = a->cap_total;
    while (held > keep_bytes && a->spare) {
        wn_chunk **pp = &a->spare, **small = &a->spare;
        for (; *pp; pp = &(*pp)->next)
            if ((*pp)->cap < (*small)->cap) small = pp;
        wn_chunk *victim = *small;
        *small = victim->next;
        held -= victim->cap;
        free(victim);
    }
    a->cap_total = held;
}

void wn_arena_free(wn_arena *a)
{
    wn_arena_reset(a, 0);
    wn_chunk *c = a->spare;
    while (c) {
        wn_chunk *n = c->next;
        free(c);
        c = n;
    }
    memset(a, 0, sizeof *a);
}
