/* One output stream of lines in input order (extract --format jsonl).
 *
 * Every page of the run, and every input that gives no page (cannot be
 * read, over --max-bytes), has a sequence number handed out in input order
 * (cli_page.seq, the manifest's line). Workers render their page's line and
 * put it with its number; lines are written as soon as every earlier one
 * is. The reorder window is bounded: a line more than `window` places ahead
 * of the next to be written waits (its worker with it) until the gap
 * closes, so memory stays at most `window` lines whatever the input size.
 * The line of the lowest number still missing never waits, so the run
 * always moves on.
 *
 * Output: stdout, or a file (written as it goes, not renamed: a stream),
 * gzip-compressed when its name ends in ".gz". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#include "cli.h"

typedef struct pending_line {
    char *data;
    size_t len;
    int ready;
} pending_line;

struct cli_stream {
    const char *path; /* NULL: stdout */
    FILE *f;
    gzFile gz;
    pending_line *ring; /* window slots, by seq modulo window */
    size_t window, next;
    int failed, aborted;
    int err; /* errno of the failed write, or -1 for a gzip failure */
    char gz_error[200];
    pthread_mutex_t lock;
    pthread_cond_t moved; /* next advanced, or the stream was aborted */
};

static int ends_with_gz(const char *p)
{
    size_t n = strlen(p);
    return n > 3 && !strcasecmp(p + n - 3, ".gz");
}

cli_stream *cli_stream_open(const char *path, size_t window)
{
    cli_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->ring = calloc(window ? window : 1, sizeof *s->ring))) {
        free(s);
        fprintf(stderr, "winnow: out of memory\n");
        return NULL;
    }
    s->window = window ? window : 1;
    s->path = path;
    if (!path) {
        s->f = stdout;
    } else if (ends_with_gz(path)) {
        errno = 0;
        s->gz = gzopen(path, "wb6");
        if (s->gz) gzbuffer(s->gz, 1 << 17);
    } else {
        s->f = fopen(path, "wb");
    }
    if (!s->f && !s->gz) {
        fprintf(stderr, "winnow: cannot write %s: %s\n", path, strerror(errno ? errno : ENOMEM));
        free(s->ring);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->moved, NULL);
    return s;
}

/* Under the lock. */
static void write_out(cli_stream *s, const char *data, size_t len)
{
    if (s->failed || !len) return;
    if (s->gz) {
        while (len && !s->failed) {
            unsigned chunk = len > (1u << 30) ? 1u << 30 : (unsigned)len;
            int got = gzwrite(s->gz, data, chunk);
            if (got <= 0) {
                int zerr;
                const char *msg = gzerror(s->gz, &zerr);
                s->failed = 1;
                s->err = zerr == Z_ERRNO ? (errno ? errno : EIO) : -1;
                snprintf(s->gz_error, sizeof s->gz_error, "%s", msg);
                return;
            }
            data += got;
            len -= (size_t)got;
        }
        return;
    }
    if (s->f == stdout) cli_progress_hide();
    if (fwrite(data, 1, len, s->f) != len) {
        s->failed = 1;
        s->err = errno ? errno : EIO;
    }
}

int cli_stream_put(cli_stream *s, size_t seq, char *data, size_t len)
{
    pthread_mutex_lock(&s->lock);
    while (!s->aborted && !s->failed && seq >= s->next + s->window) pthread_cond_wait(&s->moved, &s->lock);
    if (s->aborted || s->failed || seq < s->next) {
        int rc = s->failed ? -1 : 0;
        pthread_mutex_unlock(&s->lock);
        free(data);
        return rc;
    }
    pending_line *slot = &s->ring[seq % s->window];
    slot->data = data;
    slot->len = len;
    slot->ready = 1;
    if (seq == s->next) {
        /* this line and every one after it that is there already */
        while (s->ring[s->next % s->window].ready) {
            pending_line *p = &s->ring[s->next % s->window];
            write_out(s, p->data, p->len);
            free(p->data);
            *p = (pending_line){ NULL, 0, 0 };
            s->next++;
        }
        pthread_cond_broadcast(&s->moved);
    }
    int rc = s->failed ? -1 : 0;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void cli_stream_abort(cli_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->aborted = 1;
    pthread_cond_broadcast(&s->moved);
    pthread_mutex_unlock(&s->lock);
}

const char *cli_stream_name(const cli_stream *s) { return s->path ? s->path : "stdout"; }

/* The reason of a failed write, for the one message the run gives. */
static void stream_why(const cli_stream *s, char *out, size_t cap)
{
    if (s->err == -1)
        snprintf(out, cap, "gzip: %s", s->gz_error);
    else
        snprintf(out, cap, "%s", strerror(s->err ? s->err : EIO));
}

void cli_stream_error(cli_stream *s, char *out, size_t cap)
{
    pthread_mutex_lock(&s->lock);
    stream_why(s, out, cap);
    pthread_mutex_unlock(&s->lock);
}

int cli_stream_close(cli_stream *s, int report)
{
    if (!s) return 0;
    /* lines still waiting (a run stopped early): after their gap, in order */
    for (size_t i = 0; i < s->window; i++) {
        pending_line *p = &s->ring[(s->next + i) % s->window];
        if (p->ready && !s->aborted) write_out(s, p->data, p->len);
        free(p->data);
    }
    int failed = s->failed;
    if (s->gz) {
        errno = 0;
        int zrc = gzclose(s->gz);
        if (!failed && zrc != Z_OK) {
            failed = 1;
            s->err = zrc == Z_ERRNO && errno ? errno : -1;
            snprintf(s->gz_error, sizeof s->gz_error, "could not finish the stream");
        }
    } else if (s->f == stdout) {
        if (fflush(stdout) != 0 && !failed) {
            failed = 1;
            s->err = errno;
        }
    } else {
        if (fclose(s->f) != 0 && !failed) {
            failed = 1;
            s->err = errno;
        }
    }
    if (failed && report && !s->failed) {
        /* a failure the writers did not see (at the close): said here */
        char why[256];
        stream_why(s, why, sizeof why);
        cli_report("winnow: cannot write %s: %s\n", cli_stream_name(s), why);
    }
    pthread_cond_destroy(&s->moved);
    pthread_mutex_destroy(&s->lock);
    free(s->ring);
    free(s);
    return failed ? -1 : 0;
}
