/* The block list of a page (list.h). */
#include "list.h"

#include <string.h>

#include "../util/fnv.h"

typedef struct path_slot {
    uint64_t hash;
    const char *path; /* NULL: empty slot */
    size_t len;
} path_slot;

/* The one copy of a DOM path in the page arena, from an open-addressing
 * table of mask + 1 slots that never fills (twice the blocks); h is the
 * path's FNV-1a hash. */
static const char *intern_path(wn_arena *a, path_slot *slot, uint32_t mask, const char *s, size_t n, uint64_t h)
{
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

/* wn_node_path's top-down build, continued: appends the names of
 * chain[depth - 1] down to chain[0] to out[0..*len) while each fits in cap,
 * as it does; 0 when one did not (its path stops there), else 1. */
static int path_append(const wn_dom *dom, const uint32_t *chain, size_t depth, char *out, size_t *len, size_t cap)
{
    size_t l = *len;
    int whole = 1;
    while (depth) {
        const char *nm = dom->nodes[chain[--depth]].name;
        size_t nl = strlen(nm);
        if (l + nl + 2 > cap) {
            whole = 0;
            break;
        }
        if (l) out[l++] = '.';
        memcpy(out + l, nm, nl);
        l += nl;
    }
    *len = l;
    return whole;
}

/* a path's ancestors: wn_node_path keeps at most this many */
#define PATH_MAX_DEPTH 256

static int list_paths(const wn_dom *dom, const wn_stats *stats, wn_arena *arena, wn_arena *scratch, uint32_t nb,
                      wn_block_list *out);

int wn_blocks_list(const wn_dom *dom, const wn_stats *stats, wn_arena *arena, wn_arena *scratch, int paths,
                   wn_block_list *out)
{
    uint32_t nb = 0;
    for (uint32_t i = 0; i < dom->count; i++)
        if (stats[i].is_block) nb++;
    out->blocks = wn_arena_alloc(arena, ((size_t)nb + 1) * sizeof(uint32_t));
    if (!out->blocks) return -1;
    if (!paths) {
        nb = 0;
        for (uint32_t i = 0; i < dom->count; i++)
            if (stats[i].is_block) out->blocks[nb++] = i;
        out->nblocks = nb;
        return 0;
    }
    out->block_parent = wn_arena_alloc(arena, ((size_t)nb + 1) * sizeof(long));
    out->block_path = wn_arena_alloc(arena, ((size_t)nb + 1) * sizeof(char *));
    if (!out->block_parent || !out->block_path) return -1;
    /* the rest is scratch: only the paths themselves stay */
    wn_arena_mark mark = wn_arena_save(scratch);
    int rc = list_paths(dom, stats, arena, scratch, nb, out);
    wn_arena_release(scratch, mark);
    return rc;
}

/* The blocks' parents and paths, out->blocks sized for nb: the temporaries
 * in scratch. */
static int list_paths(const wn_dom *dom, const wn_stats *stats, wn_arena *arena, wn_arena *scratch, uint32_t nb,
                      wn_block_list *out)
{
    /* node -> block index, to find enclosing blocks top-down */
    long *enclosing = wn_arena_array(scratch, dom->count, sizeof(long));
    if (!enclosing) return -1;
    /* paths interned: blocks of one page share a few hundred paths, and a
     * deep page's copies, one per block, would outweigh the page */
    uint32_t cap = 64;
    while (cap < 2 * nb) cap <<= 1;
    path_slot *slot = wn_arena_calloc(scratch, cap, sizeof *slot);
    /* per block: its path's length and hash, how many names its path has
     * (PATH_MAX_DEPTH + 1: more than wn_node_path keeps), and whether
     * they all fit in the buffer. A block inside another continues that
     * one's path with the names below it, as wn_node_path builds it top
     * down: no walk up to the root and no rehash for every block. */
    uint32_t *plen = wn_arena_array(scratch, (size_t)nb + 1, sizeof *plen);
    uint32_t *pdepth = wn_arena_array(scratch, (size_t)nb + 1, sizeof *pdepth);
    uint64_t *phash = wn_arena_array(scratch, (size_t)nb + 1, sizeof *phash);
    uint8_t *pwhole = wn_arena_array(scratch, (size_t)nb + 1, 1);
    if (!slot || !plen || !pdepth || !phash || !pwhole) return -1;
    nb = 0;
    char path[1024];
    uint32_t chain[PATH_MAX_DEPTH + 1];
    for (uint32_t i = 0; i < dom->count; i++) {
        long up = i ? enclosing[dom->nodes[i].parent] : -1;
        if (!stats[i].is_block) {
            enclosing[i] = up;
            continue;
        }
        out->blocks[nb] = i;
        out->block_parent[nb] = up;
        uint32_t k = 0, a = i;
        if (up >= 0 && pdepth[up] <= PATH_MAX_DEPTH) {
            /* the names from block i up to the enclosing block */
            uint32_t top = out->blocks[up];
            while (a != top && k < PATH_MAX_DEPTH) {
                chain[k++] = a;
                a = dom->nodes[a].parent;
            }
        }
        if (a != i && a == out->blocks[up] && pdepth[up] + k <= PATH_MAX_DEPTH) {
            size_t pl = plen[up];
            pdepth[nb] = pdepth[up] + k;
            if (pwhole[up]) {
                memcpy(path, out->block_path[up], pl);
                pwhole[nb] = (uint8_t)path_append(dom, chain, k, path, &pl, sizeof path);
                phash[nb] = wn_fnv_more(phash[up], path + plen[up], pl - plen[up]);
                plen[nb] = (uint32_t)pl;
                out->block_path[nb] = intern_path(arena, slot, cap - 1, path, pl, phash[nb]);
            } else {
                /* the enclosing path stopped at a name that did not fit:
                 * so does this one, there */
                pwhole[nb] = 0;
                phash[nb] = phash[up];
                plen[nb] = (uint32_t)pl;
                out->block_path[nb] = out->block_path[up];
            }
        } else {
            /* from the root */
            size_t pl = 0;
            k = 0;
            for (a = i; a != WN_NONE && dom->nodes[a].tag != WN_TAG_DOCUMENT && k <= PATH_MAX_DEPTH;
                 a = dom->nodes[a].parent)
                chain[k++] = a;
            if (k <= PATH_MAX_DEPTH) {
                pwhole[nb] = (uint8_t)path_append(dom, chain, k, path, &pl, sizeof path);
            } else {
                pl = wn_node_path(dom, i, path, sizeof path); /* its deepest names only */
                pwhole[nb] = 0;
            }
            pdepth[nb] = k;
            plen[nb] = (uint32_t)pl;
            phash[nb] = wn_fnv_more(WN_FNV_OFFSET, path, pl);
            out->block_path[nb] = intern_path(arena, slot, cap - 1, path, pl, phash[nb]);
        }
        if (!out->block_path[nb]) return -1;
        enclosing[i] = (long)nb++;
    }
    out->nblocks = nb;
    return 0;
}
