/* The block list of a page: its block candidates (wn_stats.is_block) in
 * document order, with each one's enclosing block and DOM path, as the
 * public block API (winnow_doc_block) and the renderers show them.
 *
 * Contract: reads the DOM and the statistics (stats.h); writes a
 * wn_block_list in the page arena, which the pipeline keeps in winnow_doc's
 * blocks, block_parent, block_path and nblocks. */
#ifndef WN_BLOCKS_LIST_H
#define WN_BLOCKS_LIST_H

#include "stats.h"

typedef struct wn_block_list {
    uint32_t *blocks;        /* block candidate node indices, document order */
    long *block_parent;      /* per block: the enclosing block's index, -1 at the top */
    const char **block_path; /* per block: its DOM path, interned */
    uint32_t nblocks;
} wn_block_list;

/* Fills out->blocks and out->nblocks from stats, in arena; with paths,
 * also out->block_parent and out->block_path (learning a site needs
 * neither), working in scratch (what it takes there is released before
 * it returns). 0, or -1 when an arena runs out of memory. */
int wn_blocks_list(const wn_dom *dom, const wn_stats *stats, wn_arena *arena, wn_arena *scratch, int paths,
                   wn_block_list *out);

#endif
