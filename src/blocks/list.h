/* The block list of a page: its block candidates (wn_stats.is_block) in
 * document order, with each one's enclosing block and DOM path, as the
 * public block API (winnow_doc_block) and the renderers show them. */
#ifndef WN_BLOCKS_LIST_H
#define WN_BLOCKS_LIST_H

#include "../doc.h"

/* Fills d->blocks and d->nblocks from d->stats, in d's arena; with paths,
 * also d->block_parent and d->block_path (learning a site needs neither).
 * 0, or -1 when the arena runs out of memory. */
int wn_blocks_list(winnow_doc *d, int paths);

#endif
