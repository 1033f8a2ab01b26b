/* The fuzz targets' output checks (contracts.h), over the unit tests' JSON
 * validator. */
#include "contracts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/unit/json_check.h"

void fuzz_contract(int ok, const char *target, const char *what)
{
    if (ok) return;
    fprintf(stderr, "%s: contract broken: %s\n", target, what);
    abort();
}

int fuzz_utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = json_utf8((const unsigned char *)s + i, n - i);
        if (!k) return 0;
        i += k;
    }
    return 1;
}

int fuzz_json_valid(const char *s, size_t n) { return json_valid(s, n); }

int fuzz_json_lines_valid(const char *s, size_t n)
{
    const char *end = s + n;
    for (const char *line = s, *nl; line < end && (nl = memchr(line, '\n', (size_t)(end - line))) != NULL;
         line = nl + 1)
        if (!json_valid(line, (size_t)(nl - line))) return 0;
    return 1;
}

void fuzz_remove_sqlite(const char *path)
{
    static const char *const sides[] = { "", "-wal", "-shm", "-journal" };
    char name[4096];
    for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
        snprintf(name, sizeof name, "%s%s", path, sides[k]);
        unlink(name);
    }
}
