/* Allocation failure on demand for a test build of the winnow tool,
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc so that every
 * allocation of the CLI and of the library it carries comes here, and with
 * --wrap=winnow_render and --wrap=winnow_render_json (extract -f json
 * --body) so that allocations are counted from the first rendering on
 * (rendering, writing and what follows; not extraction).
 *
 *   WINNOW_FAIL_ALLOC=count   count them, print "allocations: N" to stderr at exit
 *   WINNOW_FAIL_ALLOC=K       the K-th of them (from 1) returns NULL, once
 *
 * Without the variable, nothing fails. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "winnow.h"

winnow_status __real_winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx);
winnow_status __wrap_winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx);

static atomic_int rendering;

winnow_status __wrap_winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx)
{
    atomic_store(&rendering, 1);
    return __real_winnow_render(d, f, write, ctx);
}

winnow_status __real_winnow_render_json(const winnow_doc *d, const winnow_json_options *opt, winnow_write_fn write,
                                        void *ctx);
winnow_status __wrap_winnow_render_json(const winnow_doc *d, const winnow_json_options *opt, winnow_write_fn write,
                                        void *ctx);

winnow_status __wrap_winnow_render_json(const winnow_doc *d, const winnow_json_options *opt, winnow_write_fn write,
                                        void *ctx)
{
    atomic_store(&rendering, 1);
    return __real_winnow_render_json(d, opt, write, ctx);
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);

static atomic_long allocations;
static long fail_at = -2; /* -2: not read yet, -1: none, 0: count only */

static int should_fail(void)
{
    if (fail_at == -2) {
        const char *v = getenv("WINNOW_FAIL_ALLOC");
        fail_at = !v ? -1 : (v[0] == 'c' ? 0 : strtol(v, NULL, 10));
    }
    if (!atomic_load(&rendering)) return 0;
    long k = atomic_fetch_add(&allocations, 1) + 1;
    return fail_at > 0 && k == fail_at;
}

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t k) { return should_fail() ? NULL : __real_calloc(n, k); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

__attribute__((destructor)) static void report(void)
{
    if (fail_at == 0) fprintf(stderr, "allocations: %ld\n", (long)atomic_load(&allocations));
}
