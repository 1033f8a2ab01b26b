/* A minimal assertion kit for the unit tests.
 *
 * A test is a static void function run by RUN(); it passes when none of
 * its CHECKs failed. A failed CHECK prints file:line and what was compared,
 * then the test goes on, so one run shows every broken expectation rather
 * than the first. CHECK_DONE() prints the summary line "N passed, M failed"
 * (tests, not checks) and is the value main() returns: non-zero on any
 * failure, which is what CTest looks at. */
#ifndef WINNOW_TEST_CHECK_H
#define WINNOW_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_tests_passed, check_tests_failed, check_failed_here;

static inline void check_fail_at(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    check_failed_here = 1;
}

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) check_fail_at(__FILE__, __LINE__, #cond);                                                         \
    } while (0)

/* Integers are compared as long long so one macro serves every width. */
#define CHECK_EQ(a, b)                                                                                                 \
    do {                                                                                                               \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                                                \
        if (check_a_ != check_b_) {                                                                                    \
            char check_m_[512];                                                                                        \
            snprintf(check_m_, sizeof check_m_, "%s == %s (%lld vs %lld)", #a, #b, check_a_, check_b_);                \
            check_fail_at(__FILE__, __LINE__, check_m_);                                                               \
        }                                                                                                              \
    } while (0)

#define CHECK_STR(a, b)                                                                                                \
    do {                                                                                                               \
        const char *check_a_ = (a), *check_b_ = (b);                                                                   \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                                               \
            char check_m_[1024];                                                                                       \
            snprintf(check_m_, sizeof check_m_, "%s == %s (\"%.400s\" vs \"%.400s\")", #a, #b,                         \
                     check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");                                  \
            check_fail_at(__FILE__, __LINE__, check_m_);                                                               \
        }                                                                                                              \
    } while (0)

/* Substring checks print the haystack's start, enough to see what came out. */
#define CHECK_HAS(hay, needle) check_has_at(__FILE__, __LINE__, #hay, (hay), (needle), 1)
#define CHECK_LACKS(hay, needle) check_has_at(__FILE__, __LINE__, #hay, (hay), (needle), 0)

static inline void check_has_at(const char *file, int line, const char *expr, const char *hay, const char *needle,
                                int want)
{
    int found = hay && strstr(hay, needle) != NULL;
    if (found == want) return;
    char m[1400];
    snprintf(m, sizeof m, "%s %s \"%.200s\"; it is: \"%.800s\"", expr, want ? "contains" : "lacks", needle,
             hay ? hay : "(null)");
    check_fail_at(file, line, m);
}

#define RUN(test)                                                                                                      \
    do {                                                                                                               \
        check_failed_here = 0;                                                                                         \
        test();                                                                                                        \
        if (check_failed_here) {                                                                                       \
            check_tests_failed++;                                                                                      \
            fprintf(stderr, "FAIL %s\n", #test);                                                                       \
        } else {                                                                                                       \
            check_tests_passed++;                                                                                      \
        }                                                                                                              \
    } while (0)

#define CHECK_DONE()                                                                                                   \
    (printf("%d passed, %d failed\n", check_tests_passed, check_tests_failed), check_tests_failed ? 1 : 0)

#endif
