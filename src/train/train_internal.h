/* What the training layer's files share, not part of winnow_train.h. */
#ifndef WN_TRAIN_INTERNAL_H
#define WN_TRAIN_INTERNAL_H

#include <stddef.h>

#include <xgboost/c_api.h>

#include "../classify/classifier.h"
#include "winnow_train.h"

/* Reads XGBoost's text dump of one tree (features below nfeat) and appends
 * its nodes to *nodes (used of cap, grown), numbered breadth-first from the
 * tree's root at 0 so that children come after their parent: 0, or -1. */
int wn_train_convert_tree(const char *dump, int nfeat, wn_tree_node **nodes, size_t *used, size_t *cap);

/* The index of `name` in (*names)[0..*n), appended when new (a trainer's
 * corpus names); -1 when out of memory. */
int wn_train_name_index(char ***names, unsigned *n, const char *name);

/* The settings every booster of winnow's shares: logistic loss from a base
 * score of 0.5 (a base margin of 0), histogram trees, quiet, the seed and
 * the threads. 0, or XGBoost's nonzero status (XGBGetLastError says why). */
int wn_train_xgb_binary(BoosterHandle bh, unsigned seed, unsigned threads);

/* The booster's trees into b (nodes as wn_train_convert_tree reads them,
 * base margin 0, the flat layout built): 0, or -1 with a message in err. */
int wn_train_xgb_bucket(BoosterHandle bh, int nfeat, wn_clf_bucket *b, char *err, size_t cap);

/* A model file's text (a model writer's whole output, len bytes) into
 * path: WINNOW_OK, or WINNOW_E_IO with "cannot write PATH" in err. */
winnow_status wn_train_write_text(const char *path, const char *text, size_t len, char *err, size_t cap);

#endif
