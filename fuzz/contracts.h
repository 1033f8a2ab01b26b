/* Output contracts the fuzz targets check, compiled apart from them.
 *
 * These checks are the test harness, not code under test: they are built
 * without libFuzzer's coverage instrumentation (fuzz/CMakeLists.txt), which
 * would otherwise trace every comparison of the JSON validator, once per
 * byte of output, and make the validator cost more than the extraction it
 * checks. They still run under AddressSanitizer. */
#ifndef WINNOW_FUZZ_CONTRACTS_H
#define WINNOW_FUZZ_CONTRACTS_H

#include <stddef.h>

/* Aborts with a message when ok is 0: the fuzzer records the input. */
void fuzz_contract(int ok, const char *target, const char *what);
/* 1 when s[0..n) is valid UTF-8. */
int fuzz_utf8_valid(const char *s, size_t n);
/* 1 when s[0..n) is one well-formed JSON value. */
int fuzz_json_valid(const char *s, size_t n);
/* 1 when every '\n'-terminated line of s[0..n) is one JSON value. */
int fuzz_json_lines_valid(const char *s, size_t n);

/* Removes the SQLite database file at path and its -wal, -shm and
 * -journal files, whichever exist. */
void fuzz_remove_sqlite(const char *path);

#endif
