/* Per-page bump allocator.
 *
 * A page's DOM, statistics and output scratch all live in one arena that is
 * reset, not freed, between pages: thousands of nodes cost a handful of
 * chunk allocations, and memory stays bounded by the largest page seen. */
#ifndef WN_ARENA_H
#define WN_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct wn_chunk wn_chunk;

typedef struct wn_arena {
    wn_chunk *head;    /* chunk being filled */
    wn_chunk *spare;   /* chunks kept from earlier pages, reused first */
    size_t used_total; /* bytes handed out since the last reset */
    size_t cap_total;  /* bytes held in all chunks */
} wn_arena;

void wn_arena_init(wn_arena *a);
/* Returns NULL only when malloc fails. Memory is 16-byte aligned, not zeroed. */
void *wn_arena_alloc(wn_arena *a, size_t size);
void *wn_arena_calloc(wn_arena *a, size_t n, size_t size);
/* n elements of size bytes, not zeroed (NULL on overflow): for arrays whose
 * every element is written before it is read. */
void *wn_arena_array(wn_arena *a, size_t n, size_t size);
/* n bytes (at least one) with no alignment, for text. */
char *wn_arena_bytes(wn_arena *a, size_t n);
/* s[0..n) and a NUL, unaligned. */
char *wn_arena_strndup(wn_arena *a, const char *s, size_t n);
/* A point to come back to: what a stage allocates after wn_arena_mark as
 * its scratch, wn_arena_release forgets, and the chunks it took serve the
 * allocations that follow. Marks nest like a stack; allocations made
 * before the mark are untouched. */
typedef struct wn_arena_mark {
    wn_chunk *head;
    size_t used; /* head's fill at the mark */
    size_t used_total;
} wn_arena_mark;
wn_arena_mark wn_arena_save(const wn_arena *a);
void wn_arena_release(wn_arena *a, wn_arena_mark m);
/* Forget every allocation; keep up to `keep_bytes` of chunks for reuse. */
void wn_arena_reset(wn_arena *a, size_t keep_bytes);
void wn_arena_free(wn_arena *a);

#endif
