#include "tags.h"

#include <string.h>

const char *const wn_tag_names[WN_TAG_COUNT] = {
#define WN_X(id, name, flags) name,
    WN_TAG_LIST(WN_X)
#undef WN_X
};

const uint16_t wn_tag_flags[WN_TAG_COUNT] = {
#define WN_X(id, name, flags) (uint16_t)(flags),
    WN_TAG_LIST(WN_X)
#undef WN_X
};

wn_tag wn_tag_lookup(const char *name, size_t len)
{
    /* Called once per parser tag id when an adapter starts, so a linear scan
     * of ~130 names is fine and keeps the table the single source of truth. */
    for (unsigned t = WN_TAG_A; t < WN_TAG_COUNT; t++) {
        const char *n = wn_tag_names[t];
        if (strlen(n) == len && memcmp(n, name, len) == 0) return (wn_tag)t;
    }
    return WN_TAG_UNKNOWN;
}
