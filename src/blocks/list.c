/* The block list of a page (list.h). */
#include "list.h"

#include <string.h>

typedef struct path_slot {
    uint64_t hash;
    const char *path;   /* NULL: empty slot */
    size_t len;
} path_slot;

/* The one copy of a DOM path in the page arena, from an open-addressing
 * table of mask + 1 slots that never fills (twice the blocks). */
static const char *intern_path(wn_arena *a, path_slot *slot, uint32_t mask, const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
    for (uint32_t i = (uint32_t)(h >> 32) & mask;; i = (i + 1) & mask) {
        path_slot *e = &slot[i];
        if (!e->path) {
            e->path = wn_arena_strndup(a, s, n);
            e->hash = h;
            e->len = n;
            return e->path;
        }
        if (e->hash == h && e->len == n && memcmp(e->path, s, n) == 0) return e->path;
    }
}

int wn_blocks_list(winnow_doc *d, int paths)
{
    const wn_dom *dom = &d->dom;
    uint32_t nb = 0;
    for (uint32_t i = 0; i < dom->count; i++)
        if (d->stats[i].is_block) nb++;
    d->blocks = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(uint32_t));
    if (!d->blocks) return -1;
    if (!paths) {
        nb = 0;
        for (uint32_t i = 0; i < dom->count; i++)
            if (d->stats[i].is_block) d->blocks[nb++] = i;
        d->nblocks = nb;
        return 0;
    }
    d->block_parent = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(long));
    d->block_path = wn_arena_alloc(&d->arena, ((size_t)nb + 1) * sizeof(char *));
    /* node -> block index, to find enclosing blocks top-down */
    long *enclosing = wn_arena_alloc(&d->arena, (size_t)dom->count * sizeof(long));
    if (!d->blocks || !d->block_parent || !d->block_path || !enclosing) return -1;
    /* paths interned: blocks of one page share a few hundred paths, and a
     * deep page's copies, one per block, would outweigh the page */
    uint32_t cap = 64;
    while (cap < 2 * nb) cap <<= 1;
    path_slot *slot = wn_arena_calloc(&d->arena, cap, sizeof *slot);
    if (!slot) return -1;
    nb = 0;
    char path[1024];
    for (uint32_t i = 0; i < dom->count; i++) {
        long up = i ? enclosing[dom->nodes[i].parent] : -1;
        if (d->stats[i].is_block) {
            d->blocks[nb] = i;
            d->block_parent[nb] = up;
            size_t pl = wn_node_path(dom, i, path, sizeof path);
            d->block_path[nb] = intern_path(&d->arena, slot, cap - 1, path, pl);
            if (!d->block_path[nb]) return -1;
            enclosing[i] = (long)nb++;
        } else {
            enclosing[i] = up;
        }
    }
    d->nblocks = nb;
    return 0;
}
