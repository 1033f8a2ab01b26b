#include "dom.h"

#include <string.h>

const char *wn_node_attr(const wn_dom *d, const wn_node *n, const char *name, size_t *len)
{
    size_t nl = strlen(name);
    for (uint32_t k = 0; k < n->attr_count; k++) {
        const wn_attr *a = &d->attrs[n->attr_begin + k];
        if (a->name_len == nl && memcmp(a->name, name, nl) == 0) {
            if (len) *len = a->value_len;
            return a->value;
        }
    }
    return NULL;
}

size_t wn_node_path(const wn_dom *d, uint32_t i, char *out, size_t cap)
{
    /* Collect ancestors bottom-up into a small stack of indices, then print
     * top-down; paths deeper than the stack keep their deepest part. */
    uint32_t stack[256];
    size_t depth = 0;
    for (uint32_t k = i; k != WN_NONE && d->nodes[k].tag != WN_TAG_DOCUMENT; k = d->nodes[k].parent) {
        if (depth == sizeof stack / sizeof stack[0]) break; /* keep the deepest part */
        stack[depth++] = k;
    }
    size_t len = 0;
    if (cap) out[0] = '\0';
    while (depth) {
        const char *nm = d->nodes[stack[--depth]].name;
        size_t nl = strlen(nm);
        if (len + nl + 2 > cap) break;
        if (len) out[len++] = '.';
        memcpy(out + len, nm, nl);
        len += nl;
        out[len] = '\0';
    }
    return len;
}
