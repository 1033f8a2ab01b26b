/* Stage 6: labels -> output. One file per format; they share the walk over
 * the kept part of the tree and a writer that collects output in a buffer
 * and hands it to the caller's callback in large pieces.
 *
 * Contract: reads the finished page (every section of winnow_doc) and
 * writes nothing to it: the bytes go to the caller's callback. */
#ifndef WN_RENDER_H
#define WN_RENDER_H

#include "../doc.h"
#include "../util/buf.h"

typedef struct wn_out {
    wn_buf buf;
    winnow_write_fn write;
    void *ctx;
    int failed; /* the write callback failed (WINNOW_E_IO) */
    int nomem;  /* an allocation failed: the output is incomplete (WINNOW_E_NOMEM) */
} wn_out;

/* Hands the buffer to the write callback once it holds 64 KiB (or always,
 * with force). A buffer whose append failed is not written: nomem is set
 * and the rest of the output is discarded. */
void wn_out_flush(wn_out *o, int force);

/* text and markdown share one renderer */
void wn_render_lines(const winnow_doc *d, wn_out *o, int markdown);
void wn_render_fulltext(const winnow_doc *d, wn_out *o);
void wn_render_html(const winnow_doc *d, wn_out *o);
/* body: the body fields, WINNOW_BODY() bits within WINNOW_BODY_ALL; 0 for
 * "text" alone (winnow_json_options.body, winnow_jsonl_options.body) */
void wn_render_json(const winnow_doc *d, unsigned body, wn_out *o);
/* 1 when body is 0 or a set of body formats (WINNOW_BODY_ALL) */
int wn_body_ok(unsigned body);
void wn_render_blocks(const winnow_doc *d, wn_out *o);
void wn_render_segments(const winnow_doc *d, wn_out *o);
/* JSON lines (winnow_render_jsonl): the options as the library took them */
typedef struct wn_jsonl_opts {
    const char *id, *site;
    int blocks, comments;
    unsigned body; /* as wn_render_json's */
} wn_jsonl_opts;
void wn_render_jsonl(const winnow_doc *d, const wn_jsonl_opts *jo, wn_out *o);
void wn_render_jsonl_failure(const winnow_input *in, winnow_status st, const char *error, const wn_jsonl_opts *jo,
                             wn_out *o);

/* Block k (< d->nblocks) of the page, every field filled (struct_size
 * sizeof *b): what winnow_doc_block copies out. */
void wn_block_info(const winnow_doc *d, size_t k, winnow_block *b);

/* Plain text of the main content into a buffer (what WINNOW_FORMAT_TEXT
 * writes). Out of memory, b->oom is set. */
void wn_main_text(const winnow_doc *d, wn_buf *b);

/* Walk over the kept region: the headline (if kept outside the container),
 * then the container's subtree, with enter/leave events for elements. */
typedef struct wn_walk_cb {
    void (*enter)(void *ctx, const winnow_doc *d, uint32_t i);
    void (*leave)(void *ctx, const winnow_doc *d, uint32_t i);
    void (*text)(void *ctx, const winnow_doc *d, uint32_t i);
} wn_walk_cb;

/* Returns 0, or -1 when its stack cannot be allocated (nothing walked). */
int wn_walk_kept(const winnow_doc *d, const wn_walk_cb *cb, void *ctx);
/* Every visible text node of the page, whatever its label: the baseline
 * that template removal is measured against. */
int wn_walk_all(const winnow_doc *d, const wn_walk_cb *cb, void *ctx);

#endif
