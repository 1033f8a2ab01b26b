/* Page readers: the library's input stage (directories, single files,
 * stdin, WARC and JSONL), internal side.
 *
 * Layering:
 *   wn_in      a byte stream over a file that undoes gzip transparently
 *              (one member or many, sniffed from the magic bytes, not the
 *              name), with push-back so a parser can re-read bytes it took
 *              too early. Implemented in stream.c.
 *   readers    winnow_reader holds what every kind shares (record strings,
 *              messages, the skip count) and a kind-specific state behind
 *              two function pointers: warc.c and jsonl.c, and the file,
 *              directory and stdin readers in files.c; reader.c picks
 *              one and holds the public calls.
 *
 * Memory is bounded by the largest record: nothing reads a whole WARC or
 * JSONL file, only one record (or one line) at a time. */
#ifndef WN_READER_INTERNAL_H
#define WN_READER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "util/buf.h"
#include "winnow.h"

/* ---- wn_in: buffered, gzip-transparent input stream ---- */

typedef struct wn_in {
    FILE *fp;
    int own_fp;       /* fclose it at the end (not stdin) */
    const char *name; /* for messages; owned by the reader */
    int gz;           /* the file starts with the gzip magic */

    /* compressed side (gz only) */
    z_stream z;
    int z_init, z_live; /* inflate initialised / inside a member */
    unsigned char *raw;
    size_t raw_len, raw_pos;
    uint64_t raw_off;    /* file offset of raw[0] */
    uint64_t member_off; /* file offset of the current member's first byte */
    uint64_t member_pos; /* stream position of its first output byte */

    /* decompressed side */
    unsigned char *out;
    size_t out_cap, out_pos, out_len;
    uint64_t out_base; /* stream position of out[0] */

    /* bytes given back with wn_in_unread(), delivered before `out` */
    wn_buf back;
    size_t back_pos;

    int eof;                 /* no more data (end of file, or truncated gzip) */
    int truncated;           /* the gzip data ended in the middle of a member */
    int gap;                 /* corrupt gzip data was dropped: reads stop here
                                until wn_in_clear_gap(), the bytes after it do
                                not continue the bytes before */
    uint64_t gap_member_pos; /* member_pos of the member that failed */
    int failed;              /* read error or OOM; see err */
    int oom;                 /* it was OOM */
    int quiet_skip;          /* the next member search follows a resync */
    char warn[256];          /* last non-fatal problem, "" if none */
    char err[256];
} wn_in;

/* Opens `path` (s->name points to it: keep it alive). Returns 0, or -1 with
 * the reason in s->err ("cannot open X: No such file or directory"). Call
 * wn_in_close() either way. */
int wn_in_open(wn_in *s, const char *path);
/* The same over a stream that is already open (stdin); fp is not closed
 * at the end unless own is set. */
int wn_in_open_fp(wn_in *s, FILE *fp, const char *name, int own);
void wn_in_close(wn_in *s);
/* A heap-allocated stream over path ("-": stdin), for a reader to own;
 * NULL only on OOM, else check ->failed (the reason is in ->err). Freed,
 * closed or not, by wn_in_free(). */
wn_in *wn_in_new(const char *path, const char *name);
void wn_in_free(wn_in *s);
/* Bytes of the underlying file read so far (compressed bytes for gzip). */
uint64_t wn_in_file_pos(const wn_in *s);
/* Unread bytes at the cursor: sets *p and returns their count, 0 at the end
 * (or at a gap, or on failure; look at the flags). Pulls more data only when
 * nothing is buffered. */
size_t wn_in_avail(wn_in *s, const unsigned char **p);
void wn_in_consume(wn_in *s, size_t n);
/* Makes at least `n` bytes contiguous at the cursor if the data holds them;
 * returns how many are (may be fewer at the end). n must be small (<= 4 KiB). */
size_t wn_in_peek(wn_in *s, size_t n, const unsigned char **p);
/* Copies up to n bytes into dst (dst may be NULL to discard); returns the count. */
size_t wn_in_read(wn_in *s, void *dst, size_t n);
/* Reads one line, '\n' included (absent only at the end of the data or at a
 * gap). At most
 * `keep` bytes are stored in `line` (cleared first); the rest of a longer
 * line is consumed and dropped. *total gets the full length. Returns 1 for a
 * line, 0 when nothing was left, -1 when `line` ran out of memory. */
int wn_in_getline(wn_in *s, wn_buf *line, size_t keep, size_t *total);
/* Puts bytes back in front of the cursor (they were read before). */
int wn_in_unread(wn_in *s, const void *p, size_t n);
/* Stream position of the cursor (decompressed bytes before it). */
uint64_t wn_in_tell(const wn_in *s);
/* Where a record starting at the cursor can be found: for gzip files whose
 * member starts exactly here, the member's file offset (what WARC indexes
 * use: `tail -c +N+1 | zcat` shows it); otherwise the position in the
 * decompressed stream. */
uint64_t wn_in_record_offset(wn_in *s);
void wn_in_clear_gap(wn_in *s);
/* Why a failed stream failed: WINNOW_E_NOMEM or WINNOW_E_IO. */
winnow_status wn_in_status(const wn_in *s);

/* ---- readers ---- */

/* Records beyond this are skipped when the caller passed 0. */
#define WN_READER_DEFAULT_MAX ((size_t)256 << 20)

struct winnow_reader {
    char *path;
    const char *name; /* path for messages and sources: "<stdin>" for "-" */
    size_t max_record;
    size_t skipped;
    size_t too_large;               /* of the skipped: over max_record */
    int recursive;                  /* directories: subdirectories too */
    int damaged;                    /* damaged records are handed out (winnow_record.error), not skipped */
    winnow_input_format format;     /* what the input is read as (HTML for directories) */
    unsigned long long total_bytes; /* the input's size, 0 when unknown */
    unsigned long long done_bytes;  /* directories: bytes of the files handed out or skipped */
    const wn_in *stream;            /* WARC, JSONL, stdin: the stream read (its position is the progress) */
    winnow_status status;           /* WINNOW_OK until it fails; then what error says */
    char error[600];
    char warning[600];

    /* strings of the record handed out last */
    wn_buf url, charset, source, id, record_id, damage;

    /* kind-specific state and its two operations */
    void *state;
    int (*next)(winnow_reader *r, winnow_record *rec);
    void (*close_state)(winnow_reader *r);
    /* winnow_reader_take: the last record's bytes, given up; NULL: none */
    void *(*take)(winnow_reader *r, size_t *len);
};

/* The reader fails (finally) with st; fmt says why. */
void wn_reader_fail(winnow_reader *r, winnow_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void wn_reader_set_warning(winnow_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fills rec as the damaged record `number` (winnow_record.error: the
 * message, also the warning; source "NAME#OFFSET" when offset is not -1,
 * "NAME:NUMBER" otherwise): every record of an input is accounted for, a
 * bad one too. Returns 1 (a record), -1 on OOM. */
int wn_reader_damaged(winnow_reader *r, winnow_record *rec, long long number, long long offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Copies a string field of the record into one of the reader's buffers and
 * returns it NUL-terminated (NULL when the buffer ran out of memory). */
const char *wn_reader_str(wn_buf *b, const char *s, size_t n);

/* A reader over an open stream fp (closed at the end, or now on failure),
 * named `name` in records and messages: winnow_reader_open() without a
 * path, for tests and fuzzing from memory (fmemopen). */
winnow_status wn_reader_open_fp(FILE *fp, const char *name, const winnow_reader_options *opt, winnow_reader **out,
                                char *err, size_t errcap);

/* Kind openers: set r->state/next/close_state, or an error with
 * wn_reader_fail(). Return 0 on success, -1 on error. They take the
 * stream `in` (wn_in_new) and free it whatever happens; NULL: they open
 * r->path themselves. */
int wn_warc_open(winnow_reader *r, wn_in *in);
int wn_jsonl_open(winnow_reader *r, wn_in *in);

/* The whole-file readers (files.c). wn_new_file_state() makes the state
 * (NULL on OOM, error set); wn_open_dir() lists the directory r->path into
 * it. wn_open_stream_page() takes the stream `in` like the kind openers
 * above. wn_is_page_name(): *.html, *.htm, and the same gzip-compressed. */
typedef struct file_state file_state;
file_state *wn_new_file_state(winnow_reader *r);
int wn_open_dir(winnow_reader *r, file_state *f);
int wn_open_stream_page(winnow_reader *r, wn_in *in);
int wn_is_page_name(const char *name);

/* Inflates gzip (one or more members), zlib or raw deflate data into *dst,
 * at most `limit` bytes. NULL on success, else why it failed (dst->len >
 * limit when it was the limit; dst holds what was decoded). */
const char *wn_inflate_all(const unsigned char *src, size_t n, int gzip, wn_buf *dst, size_t limit);

/* Lower-case ASCII comparisons used by the header and key parsers. */
int wn_ascii_ieq(const char *a, size_t an, const char *b); /* a[0..an) == b, ignoring case */
int wn_ascii_iends(const char *s, const char *suffix);     /* s ends with suffix, ignoring case */

#endif
