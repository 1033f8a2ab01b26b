#include "dom.h"

#include <string.h>
#include <strings.h>

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

void wn_node_text(const wn_dom *d, uint32_t i, wn_buf *out, int (*skip)(const void *ctx, uint32_t k), const void *ctx)
{
    int space = 0;
    uint32_t end = i + d->nodes[i].size;
    for (uint32_t k = i; k < end; k++) {
        const wn_node *x = &d->nodes[k];
        if (x->tag != WN_TAG_TEXT) {
            if (wn_tag_has(x->tag, WN_TF_BREAK) || x->tag == WN_TAG_BR) space = 1;
            continue;
        }
        if ((x->flags & WN_NF_HIDDEN) || (skip && skip(ctx, k))) continue;
        const char *s = d->text + x->text_begin;
        for (uint32_t j = 0; j < x->text_len; j++) {
            unsigned char c = (unsigned char)s[j];
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') {
                space = 1;
                continue;
            }
            if (space && out->len) wn_buf_putc(out, ' ');
            space = 0;
            wn_buf_putc(out, (char)c);
        }
    }
}

int wn_node_dialog(const wn_dom *d, uint32_t i)
{
    const wn_node *x = &d->nodes[i];
    if (x->tag == WN_TAG_DIALOG) return 1;
    if (x->tag == WN_TAG_TEXT) return 0;
    const char *v = wn_node_attr(d, x, "aria-modal", NULL);
    if (v && !strcasecmp(v, "true")) return 1;
    v = wn_node_attr(d, x, "role", NULL);
    return v && (!strcasecmp(v, "dialog") || !strcasecmp(v, "alertdialog"));
}

int wn_node_aria_hidden(const wn_dom *d, uint32_t i)
{
    const char *v = wn_node_attr(d, &d->nodes[i], "aria-hidden", NULL);
    return v && !strcasecmp(v, "true");
}
