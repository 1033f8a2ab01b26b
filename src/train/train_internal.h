/* What the training layer's files share, not part of winnow_train.h. */
#ifndef WN_TRAIN_INTERNAL_H
#define WN_TRAIN_INTERNAL_H

#include <stddef.h>

#include "../classify/classifier.h"

/* Reads XGBoost's text dump of one tree (features below nfeat) and appends
 * its nodes to *nodes (used of cap, grown), numbered breadth-first from the
 * tree's root at 0 so that children come after their parent: 0, or -1. */
int wn_train_convert_tree(const char *dump, int nfeat, wn_tree_node **nodes, size_t *used, size_t *cap);

/* The index of `name` in (*names)[0..*n), appended when new (a trainer's
 * corpus names); -1 when out of memory. */
int wn_train_name_index(char ***names, unsigned *n, const char *name);

#endif
