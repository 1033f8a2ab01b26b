/* The tree builder's string pool stays cheap to allocate from whatever the
 * page (issue 29): its free list, which every allocation walks, must not
 * grow with the page. On a page of attributed elements with no white
 * space between them it did (the unused tail of each filled block joins
 * the list and is never taken), and parse time grew with the square of
 * the page.
 *
 * Time is the benchmark's (bench/parse_scaling.sh); this test counts
 * instead: it defines mchar_async_malloc, which the library calls through
 * its PLT, so this program's definition is the one called. It notes the
 * length of the list the allocation is about to walk, then calls the
 * library's own (found with dlsym(RTLD_NEXT)). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdint.h>

#include <mycore/utils/mchar_async.h>

#include "check.h"
#include "parse/parser.h"
#include "util/arena.h"

static size_t longest_list; /* free-list length seen at an allocation */
static size_t calls;

char *mchar_async_malloc(mchar_async_t *mchar_async, size_t node_idx, size_t size)
{
    static char *(*real)(mchar_async_t *, size_t, size_t);
    if (!real) real = (char *(*)(mchar_async_t *, size_t, size_t))dlsym(RTLD_NEXT, "mchar_async_malloc");
    size_t n = mchar_async->nodes[node_idx].cache.count;
    if (n > longest_list) longest_list = n;
    calls++;
    return real(mchar_async, node_idx, size);
}

/* n spans of ten attributes each, with no text between them */
static char *attributed_spans(size_t n, size_t *len)
{
    static const char unit[] = "<span class=\"c\" id=\"i%06zu\" title=\"t\" data-a=\"1\" data-b=\"2\" data-c=\"3\" "
                               "data-d=\"4\" lang=\"en\" dir=\"ltr\" role=\"note\">x</span>";
    size_t cap = n * sizeof unit + 1;
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t at = 0;
    for (size_t k = 0; k < n; k++) at += (size_t)snprintf(s + at, cap - at, unit, k);
    *len = at;
    return s;
}

/* fed whole and in pieces of 64 KiB */
static void list_bounded(size_t chunk)
{
    size_t len = 0;
    char *page = attributed_spans(30000, &len); /* about 4 MB */
    CHECK(page != NULL);
    if (!page) return;
    wn_parser *ps = wn_parser_new(512);
    CHECK(ps != NULL);
    wn_parser_set_chunk(ps, chunk);
    wn_arena a;
    wn_arena_init(&a);
    wn_dom d;
    longest_list = calls = 0;
    CHECK_EQ(wn_parser_parse(ps, page, len, &a, &d, 1), WN_PARSE_OK);
    CHECK(calls > 100000); /* the definition above is the one the library called */
    /* the bound parser.c keeps (STRING_CACHE_MAX), plus what one token
     * can add before it is applied */
    if (getenv("VERBOSE") || longest_list > 32) fprintf(stderr, "free list reached %zu blocks\n", longest_list);
    CHECK(longest_list <= 32);
    wn_arena_free(&a);
    wn_parser_free(ps);
    free(page);
}

static void test_whole(void) { list_bounded(SIZE_MAX); }
static void test_pieces(void) { list_bounded((size_t)64 << 10); }

int main(void)
{
    RUN(test_whole);
    RUN(test_pieces);
    return CHECK_DONE();
}
