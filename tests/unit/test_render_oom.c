/* Renderers that run out of memory say so. This program is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: every allocation of the
 * library (and of this file) goes through the wrappers below, which can
 * make one chosen allocation fail. Each format is rendered once to count
 * its allocations, then once per allocation with that one failing: the
 * result is WINNOW_E_NOMEM, or WINNOW_OK with exactly the output of the
 * run without failures; never WINNOW_OK with less, never WINNOW_E_IO. A
 * write callback that fails gives WINNOW_E_IO. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_fixture.h"
#include "check.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);

static long alloc_count;  /* allocations since counting started */
static long fail_at = -1; /* this allocation (0-based) fails; -1: none */

static int should_fail(void) { return alloc_count++ == fail_at; }

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t k) { return should_fail() ? NULL : __real_calloc(n, k); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

/* The sink allocates with the real allocator: its own failures are not
 * the renderer's. */
typedef struct sink {
    char *data;
    size_t len, cap;
    int fail_writes;
} sink;

static int sink_write(void *ctx, const char *data, size_t len)
{
    sink *s = ctx;
    if (s->fail_writes) return -1;
    if (s->len + len > s->cap) {
        size_t cap = (s->len + len) * 2;
        char *d = __real_realloc(s->data, cap);
        if (!d) return -1;
        s->data = d;
        s->cap = cap;
    }
    memcpy(s->data + s->len, data, len);
    s->len += len;
    return 0;
}

static winnow_engine *engine;

static const char *const format_names[] = { "text", "markdown", "json", "html", "blocks", "segments" };
static const winnow_format formats[] = { WINNOW_FORMAT_TEXT, WINNOW_FORMAT_MARKDOWN, WINNOW_FORMAT_JSON,
                                         WINNOW_FORMAT_HTML, WINNOW_FORMAT_BLOCKS,   WINNOW_FORMAT_SEGMENTS };

static void test_every_allocation_fails_once(void)
{
    extraction x = extract_str(engine, article_page);
    CHECK_EQ(x.status, WINNOW_OK);
    if (!x.doc) return;
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        sink ref = { 0 };
        alloc_count = 0;
        fail_at = -1;
        CHECK_EQ(winnow_render(x.doc, formats[f], sink_write, &ref), WINNOW_OK);
        long total = alloc_count;
        CHECK(total > 0);
        long nomem = 0;
        for (long k = 0; k < total; k++) {
            sink s = { 0 };
            alloc_count = 0;
            fail_at = k;
            winnow_status st = winnow_render(x.doc, formats[f], sink_write, &s);
            fail_at = -1;
            if (st == WINNOW_E_NOMEM) nomem++;
            int same = st == WINNOW_OK && s.len == ref.len && (!s.len || !memcmp(s.data, ref.data, s.len));
            if (st != WINNOW_E_NOMEM && !same) {
                fprintf(stderr, "%s: allocation %ld of %ld failed: %s, %zu bytes out of %zu\n", format_names[f], k,
                        total, winnow_status_name(st), s.len, ref.len);
                CHECK(0);
            }
            free(s.data);
        }
        /* each failure point is reported (none is silently retried) */
        CHECK_EQ(nomem, total);
        free(ref.data);
    }
    extraction_free(&x);
}

static void test_write_failure(void)
{
    extraction x = extract_str(engine, article_page);
    if (!x.doc) {
        CHECK(0);
        return;
    }
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        sink s = { 0 };
        s.fail_writes = 1;
        CHECK_EQ(winnow_render(x.doc, formats[f], sink_write, &s), WINNOW_E_IO);
        free(s.data);
    }
    extraction_free(&x);
}

int main(void)
{
    winnow_engine_new(NULL, &engine);
    if (!engine) return 1;
    RUN(test_every_allocation_fails_once);
    RUN(test_write_failure);
    winnow_engine_free(engine);
    return CHECK_DONE();
}
