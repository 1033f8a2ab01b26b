/* The progress line and the messages on stderr. A run longer than 2 s
 * shows, when stderr is a terminal and -q is not given, one line that is
 * rewritten in place at most twice a second:
 *
 *     winnow extract: 1234 pages, 56.7 pages/s, 41%, 0:29 left
 *
 * (the share and the time left when the inputs' total size is known).
 * A message from cli_report first erases the line, which comes back with
 * the next tick; cli_progress_end erases it for good. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_AFTER 2.0 /* seconds before the first line */
#define PROGRESS_EVERY 0.5 /* seconds between lines */

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int progress_on; /* a run wants progress (stderr is a terminal, no -q) */
static struct {
    int shown; /* the line is on the screen */
    char what[32];
    double start, last;
} progress;

double cli_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void erase_line(void)
{
    if (progress.shown) {
        fputs("\r\033[K", stderr);
        progress.shown = 0;
    }
}

void cli_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&report_lock);
    erase_line();
    vfprintf(stderr, fmt, ap);
    pthread_mutex_unlock(&report_lock);
    va_end(ap);
}

void cli_progress_start(const char *what, int quiet)
{
    pthread_mutex_lock(&report_lock);
    erase_line();
    atomic_store(&progress_on, !quiet && isatty(STDERR_FILENO));
    snprintf(progress.what, sizeof progress.what, "%s", what);
    progress.start = cli_now_s();
    progress.last = 0;
    pthread_mutex_unlock(&report_lock);
}

int cli_progress_on(void) { return atomic_load(&progress_on); }

static void clock_text(char *out, size_t cap, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, cap, "%ld:%02ld", t / 60, t % 60);
}

void cli_progress_tick(unsigned long long pages, double fraction)
{
    if (!atomic_load(&progress_on)) return;
    double t = cli_now_s();
    pthread_mutex_lock(&report_lock);
    double elapsed = t - progress.start;
    if (atomic_load(&progress_on) && elapsed >= PROGRESS_AFTER && t - progress.last >= PROGRESS_EVERY) {
        progress.last = t;
        char line[160], left[32];
        int n = snprintf(line, sizeof line, "winnow %s: %llu page%s, %.1f pages/s", progress.what, pages,
                         pages == 1 ? "" : "s", (double)pages / elapsed);
        if (fraction > 0 && fraction <= 1 && n > 0 && (size_t)n < sizeof line) {
            clock_text(left, sizeof left, elapsed * (1 - fraction) / fraction);
            snprintf(line + n, sizeof line - (size_t)n, ", %.0f%%, %s left", 100 * fraction, left);
        } else if (n > 0 && (size_t)n < sizeof line) {
            clock_text(left, sizeof left, elapsed);
            snprintf(line + n, sizeof line - (size_t)n, ", %s", left);
        }
        fprintf(stderr, "\r%s\033[K", line);
        fflush(stderr);
        progress.shown = 1;
    }
    pthread_mutex_unlock(&report_lock);
}

void cli_progress_hide(void)
{
    if (!atomic_load(&progress_on)) return;
    pthread_mutex_lock(&report_lock);
    erase_line();
    fflush(stderr);
    pthread_mutex_unlock(&report_lock);
}

void cli_progress_end(void)
{
    pthread_mutex_lock(&report_lock);
    erase_line();
    atomic_store(&progress_on, 0);
    pthread_mutex_unlock(&report_lock);
}
