#include "render.h"

#include <stdlib.h>

void wn_out_flush(wn_out *o, int force)
{
    /* wn_buf_clear resets the buffer's oom flag: nomem keeps it */
    if (o->buf.oom) o->nomem = 1;
    if (o->failed || o->nomem) {
        wn_buf_clear(&o->buf);
        return;
    }
    if (!force && o->buf.len < 64 * 1024) return;
    if (o->buf.len && o->write(o->ctx, o->buf.data, o->buf.len) != 0) o->failed = 1;
    wn_buf_clear(&o->buf);
}

static void walk_range(const winnow_doc *d, uint32_t root, const wn_walk_cb *cb, void *ctx, uint32_t *stack, int all)
{
    const wn_dom *dom = &d->dom;
    uint32_t sp = 0, end = root + dom->nodes[root].size;
    for (uint32_t i = root; i < end; i++) {
        while (sp && i >= stack[sp - 1] + dom->nodes[stack[sp - 1]].size) {
            uint32_t top = stack[--sp];
            if (cb->leave) cb->leave(ctx, d, top);
        }
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT) {
            if ((all || d->labels.keep[i]) && !(x->flags & WN_NF_UNREAD) && cb->text) cb->text(ctx, d, i);
            continue;
        }
        if (x->flags & WN_NF_UNREAD) { /* text no reader reads, its markup too */
            i += x->size - 1;
            continue;
        }
        if (cb->enter) cb->enter(ctx, d, i);
        if (x->size > 1)
            stack[sp++] = i;
        else if (cb->leave)
            cb->leave(ctx, d, i);
    }
    while (sp) {
        uint32_t top = stack[--sp];
        if (cb->leave) cb->leave(ctx, d, top);
    }
}

static uint32_t *walk_stack(const winnow_doc *d)
{
    uint32_t maxdepth = 0;
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (d->dom.nodes[i].depth > maxdepth) maxdepth = d->dom.nodes[i].depth;
    return malloc(((size_t)maxdepth + 2) * sizeof(uint32_t));
}

int wn_walk_kept(const winnow_doc *d, const wn_walk_cb *cb, void *ctx)
{
    const wn_labels *lb = &d->labels;
    if (lb->container == WN_NONE) return 0;
    uint32_t *stack = walk_stack(d);
    if (!stack) return -1;
    if (lb->headline != WN_NONE) walk_range(d, lb->headline, cb, ctx, stack, 0);
    walk_range(d, lb->container, cb, ctx, stack, 0);
    free(stack);
    return 0;
}

int wn_walk_all(const winnow_doc *d, const wn_walk_cb *cb, void *ctx)
{
    if (d->dom.count == 0) return 0;
    uint32_t *stack = walk_stack(d);
    if (!stack) return -1;
    walk_range(d, 0, cb, ctx, stack, 1);
    free(stack);
    return 0;
}
