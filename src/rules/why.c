/* The reasons of why.h, as a table. */
#include "why.h"

#include <stddef.h>

const wn_why_def wn_why_defs[WN_WHY_COUNT] = {
#define WN_WHY_ROW(id, name, rule, cls, text) { name, rule, text, cls },
    WN_WHY_LIST(WN_WHY_ROW)
#undef WN_WHY_ROW
};
