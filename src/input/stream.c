/* wn_in: the buffered input stream the WARC, JSONL and single-file readers
 * parse from, with gzip undone on the fly (one member or many, resynced
 * past corrupt data) and push-back. A file of its own because it is the
 * one layer that knows about zlib and file offsets; the readers above it
 * see only decompressed bytes and record offsets (reader_internal.h). */
#include "input/reader_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * wn_in: buffered input, gzip undone on the fly
 * ====================================================================== */

#define IN_RAW_CAP ((size_t)256 << 10)
#define IN_OUT_CAP ((size_t)256 << 10)

static int in_fail(wn_in *s, const char *what)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->err, sizeof s->err, "%s: %s", s->name, what);
    }
    return -1;
}

static int in_oom(wn_in *s, const char *what)
{
    if (!s->failed) s->oom = 1;
    return in_fail(s, what);
}

winnow_status wn_in_status(const wn_in *s) { return s->oom ? WINNOW_E_NOMEM : WINNOW_E_IO; }

static int in_read_error(wn_in *s)
{
    char m[160];
    snprintf(m, sizeof m, "read error: %s", strerror(errno ? errno : EIO));
    return in_fail(s, m);
}

/* Appends file bytes to the compressed buffer; returns how many came. */
static size_t raw_fill(wn_in *s)
{
    if (s->raw_pos > 0) {
        memmove(s->raw, s->raw + s->raw_pos, s->raw_len - s->raw_pos);
        s->raw_off += s->raw_pos;
        s->raw_len -= s->raw_pos;
        s->raw_pos = 0;
    }
    if (s->raw_len == IN_RAW_CAP) return 0;
    errno = 0;
    size_t n = fread(s->raw + s->raw_len, 1, IN_RAW_CAP - s->raw_len, s->fp);
    if (n == 0 && ferror(s->fp)) in_read_error(s);
    s->raw_len += n;
    return n;
}

/* The start of a gzip member: ID1 ID2, CM = deflate, reserved flag bits clear. */
static int gz_magic_at(const unsigned char *p)
{
    return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (p[3] & 0xE0) == 0;
}

/* Moves raw_pos to the next gzip member start. 1 found, 0 none before the end. */
static int gz_find_member(wn_in *s)
{
    for (;;) {
        size_t have = s->raw_len - s->raw_pos;
        const unsigned char *p = s->raw + s->raw_pos;
        size_t i = 0;
        while (i + 4 <= have) {
            const unsigned char *q = memchr(p + i, 0x1f, have - 3 - i);
            if (!q) {
                i = have - 3;
                break;
            }
            i = (size_t)(q - p);
            if (gz_magic_at(q)) {
                s->raw_pos += i;
                return 1;
            }
            i++;
        }
        /* keep the last 3 bytes: a magic may straddle the refill */
        if (have > 3) s->raw_pos += have - 3;
        if (raw_fill(s) == 0) {
            s->raw_pos = s->raw_len;
            return 0;
        }
    }
}

/* Starts inflating the member at raw_pos (skipping non-gzip bytes first).
 * 1 started, 0 end of data, -1 failure. */
static int gz_start_member(wn_in *s, int quiet_skip)
{
    while (s->raw_len - s->raw_pos < 4) {
        size_t before = s->raw_len - s->raw_pos;
        raw_fill(s);
        if (s->failed) return -1;
        if (s->raw_len - s->raw_pos == before) break;
    }
    size_t have = s->raw_len - s->raw_pos;
    if (have == 0) {
        s->eof = 1;
        return 0;
    }
    if (have < 4 || !gz_magic_at(s->raw + s->raw_pos)) {
        uint64_t at = s->raw_off + s->raw_pos;
        int found = gz_find_member(s);
        if (s->failed) return -1;
        uint64_t skipped = s->raw_off + s->raw_pos - at;
        if (!found) {
            if (!quiet_skip)
                snprintf(s->warn, sizeof s->warn, "%s: %llu bytes of non-gzip data at the end (offset %llu) ignored",
                         s->name, (unsigned long long)skipped, (unsigned long long)at);
            s->eof = 1;
            return 0;
        }
        if (!quiet_skip)
            snprintf(s->warn, sizeof s->warn, "%s: %llu bytes of non-gzip data at offset %llu skipped", s->name,
                     (unsigned long long)skipped, (unsigned long long)at);
    }
    int zr;
    if (!s->z_init) {
        zr = inflateInit2(&s->z, 16 + MAX_WBITS); /* 16: gzip wrapper only */
        s->z_init = zr == Z_OK;
    } else {
        zr = inflateReset(&s->z);
    }
    if (zr != Z_OK) return in_oom(s, "cannot start zlib (out of memory)");
    s->member_off = s->raw_off + s->raw_pos;
    s->member_pos = s->out_base + s->out_len;
    s->z_live = 1;
    return 1;
}

/* After corrupt data in the member that started at `off`: look for the next
 * member from off + 1. Seeking back matters: a member cut short in the middle
 * of the file makes inflate swallow the start of the next one before it fails. */
static void gz_resync(wn_in *s, uint64_t off)
{
    s->z_live = 0;
    if (fseeko(s->fp, (off_t)off, SEEK_SET) == 0) {
        clearerr(s->fp);
        s->raw_off = off;
        s->raw_pos = s->raw_len = 0;
    }
    /* unseekable: carry on from where inflate stopped */
}

static int gz_more(wn_in *s)
{
    for (;;) {
        if (!s->z_live) {
            /* after corrupt data the skipped bytes were already warned about */
            int r = gz_start_member(s, s->quiet_skip);
            s->quiet_skip = 0;
            if (r <= 0) return r;
        }
        if (s->raw_pos == s->raw_len) {
            raw_fill(s);
            if (s->failed) return -1;
            if (s->raw_pos == s->raw_len) {
                s->truncated = 1;
                s->eof = 1;
                snprintf(s->warn, sizeof s->warn,
                         "%s: gzip data truncated at the end of the file (member at offset %llu)", s->name,
                         (unsigned long long)s->member_off);
                return 0;
            }
        }
        size_t in_have = s->raw_len - s->raw_pos, out_room = s->out_cap - s->out_len;
        s->z.next_in = s->raw + s->raw_pos;
        s->z.avail_in = (uInt)in_have;
        s->z.next_out = s->out + s->out_len;
        s->z.avail_out = (uInt)out_room;
        int zr = inflate(&s->z, Z_NO_FLUSH);
        size_t made = out_room - s->z.avail_out;
        s->raw_pos += in_have - s->z.avail_in;
        s->out_len += made;
        if (zr == Z_STREAM_END) {
            s->z_live = 0; /* the next call starts the next member, if any */
            if (made) return 1;
            continue;
        }
        if (zr == Z_OK || zr == Z_BUF_ERROR) {
            if (made) return 1;
            continue;
        }
        if (zr == Z_MEM_ERROR) return in_oom(s, "out of memory in zlib");
        /* Z_DATA_ERROR and friends: this member is damaged */
        snprintf(s->warn, sizeof s->warn,
                 "%s: corrupt gzip data in the member at offset %llu (%s); skipped to the next member", s->name,
                 (unsigned long long)s->member_off, s->z.msg ? s->z.msg : "invalid data");
        s->gap = 1;
        s->gap_member_pos = s->member_pos;
        gz_resync(s, s->member_off + 1);
        s->quiet_skip = 1;
        return made ? 1 : 0;
    }
}

/* Appends decompressed bytes to `out`. 1 some came, 0 end or gap, -1 failure. */
static int in_more(wn_in *s)
{
    if (s->failed) return -1;
    if (s->eof || s->gap) return 0;
    if (s->out_pos == s->out_len) {
        s->out_base += s->out_len;
        s->out_pos = s->out_len = 0;
    } else if (s->out_len == s->out_cap) {
        memmove(s->out, s->out + s->out_pos, s->out_len - s->out_pos);
        s->out_base += s->out_pos;
        s->out_len -= s->out_pos;
        s->out_pos = 0;
    }
    if (!s->gz) {
        errno = 0;
        size_t n = fread(s->out + s->out_len, 1, s->out_cap - s->out_len, s->fp);
        if (n == 0) {
            if (ferror(s->fp)) return in_read_error(s);
            s->eof = 1;
            return 0;
        }
        s->out_len += n;
        return 1;
    }
    return gz_more(s);
}

int wn_in_open(wn_in *s, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        memset(s, 0, sizeof *s);
        s->name = path;
        wn_buf_init(&s->back);
        snprintf(s->err, sizeof s->err, "cannot open %s: %s", path, strerror(errno));
        s->failed = 1;
        return -1;
    }
    return wn_in_open_fp(s, fp, path, 1);
}

int wn_in_open_fp(wn_in *s, FILE *fp, const char *name, int own)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    wn_buf_init(&s->back);
    s->fp = fp;
    s->own_fp = own;
    s->out = malloc(IN_OUT_CAP);
    s->raw = malloc(IN_RAW_CAP);
    if (!s->out || !s->raw) return in_oom(s, "out of memory");
    s->out_cap = IN_OUT_CAP;
    /* gzip or not is decided by the first bytes, whatever the name says */
    while (s->raw_len < 4 && raw_fill(s) > 0) {}
    if (s->failed) return -1;
    if (s->raw_len >= 4 && gz_magic_at(s->raw)) {
        s->gz = 1;
    } else {
        memcpy(s->out, s->raw, s->raw_len);
        s->out_len = s->raw_len;
        s->raw_len = 0;
        free(s->raw);
        s->raw = NULL;
    }
    return 0;
}

void wn_in_close(wn_in *s)
{
    if (s->fp && s->own_fp) fclose(s->fp);
    if (s->z_init) inflateEnd(&s->z);
    free(s->raw);
    free(s->out);
    wn_buf_free(&s->back);
    memset(s, 0, sizeof *s);
}

wn_in *wn_in_new(const char *path, const char *name)
{
    wn_in *s = malloc(sizeof *s);
    if (!s) return NULL;
    if (strcmp(path, "-") == 0)
        wn_in_open_fp(s, stdin, name, 0);
    else
        wn_in_open(s, path);
    s->name = name;
    return s;
}

void wn_in_free(wn_in *s)
{
    if (!s) return;
    wn_in_close(s);
    free(s);
}

uint64_t wn_in_file_pos(const wn_in *s)
{
    if (!s || !s->fp) return 0;
    off_t at = ftello(s->fp);
    return at > 0 ? (uint64_t)at : 0;
}

static int back_active(const wn_in *s) { return s->back_pos < s->back.len; }

size_t wn_in_avail(wn_in *s, const unsigned char **p)
{
    if (back_active(s)) {
        *p = (const unsigned char *)s->back.data + s->back_pos;
        return s->back.len - s->back_pos;
    }
    while (s->out_pos == s->out_len) {
        if (in_more(s) <= 0) {
            *p = NULL;
            return 0;
        }
    }
    *p = s->out + s->out_pos;
    return s->out_len - s->out_pos;
}

void wn_in_consume(wn_in *s, size_t n)
{
    if (back_active(s)) {
        s->back_pos += n;
        if (s->back_pos >= s->back.len) {
            wn_buf_clear(&s->back);
            s->back_pos = 0;
        }
    } else {
        s->out_pos += n;
    }
}

size_t wn_in_peek(wn_in *s, size_t n, const unsigned char **p)
{
    if (back_active(s)) {
        /* top the push-back queue up from the stream so the bytes are contiguous */
        while (s->back.len - s->back_pos < n) {
            if (s->out_pos == s->out_len && in_more(s) <= 0) break;
            size_t take = s->out_len - s->out_pos, want = n - (s->back.len - s->back_pos);
            if (take > want) take = want;
            wn_buf_put(&s->back, s->out + s->out_pos, take);
            if (s->back.oom) {
                in_oom(s, "out of memory");
                break;
            }
            s->out_pos += take;
        }
        *p = (const unsigned char *)s->back.data + s->back_pos;
        size_t have = s->back.len - s->back_pos;
        return have < n ? have : n;
    }
    if (s->out_cap - s->out_pos < n) {
        memmove(s->out, s->out + s->out_pos, s->out_len - s->out_pos);
        s->out_base += s->out_pos;
        s->out_len -= s->out_pos;
        s->out_pos = 0;
    }
    while (s->out_len - s->out_pos < n && in_more(s) > 0) {}
    *p = s->out + s->out_pos;
    size_t have = s->out_len - s->out_pos;
    return have < n ? have : n;
}

size_t wn_in_read(wn_in *s, void *dst, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const unsigned char *p;
        size_t have = wn_in_avail(s, &p);
        if (!have) break;
        size_t take = n - done < have ? n - done : have;
        if (dst) memcpy((char *)dst + done, p, take);
        wn_in_consume(s, take);
        done += take;
    }
    return done;
}

int wn_in_getline(wn_in *s, wn_buf *line, size_t keep, size_t *total)
{
    wn_buf_clear(line);
    size_t len = 0;
    for (;;) {
        const unsigned char *p;
        size_t have = wn_in_avail(s, &p);
        if (!have) break;
        const unsigned char *nl = memchr(p, '\n', have);
        size_t take = nl ? (size_t)(nl - p) + 1 : have;
        if (line->len < keep) {
            size_t k = keep - line->len < take ? keep - line->len : take;
            wn_buf_put(line, p, k);
            if (line->oom) return -1;
        }
        wn_in_consume(s, take);
        len += take;
        if (nl) break;
    }
    if (total) *total = len;
    wn_buf_cstr(line);
    return len > 0;
}

int wn_in_unread(wn_in *s, const void *p, size_t n)
{
    if (!n) return 0;
    if (s->back_pos >= n) {
        s->back_pos -= n;
        memcpy(s->back.data + s->back_pos, p, n);
        return 0;
    }
    size_t rest = s->back.len - s->back_pos;
    if (!wn_buf_reserve(&s->back, n)) return in_oom(s, "out of memory");
    memmove(s->back.data + n, s->back.data + s->back_pos, rest);
    memcpy(s->back.data, p, n);
    s->back.len = n + rest;
    s->back_pos = 0;
    return 0;
}

uint64_t wn_in_tell(const wn_in *s) { return s->out_base + s->out_pos - (s->back.len - s->back_pos); }

uint64_t wn_in_record_offset(wn_in *s)
{
    const unsigned char *p;
    /* make sure the member holding the next byte has been started */
    if (wn_in_avail(s, &p) && s->gz && !back_active(s) && wn_in_tell(s) == s->member_pos) return s->member_off;
    return wn_in_tell(s);
}

void wn_in_clear_gap(wn_in *s) { s->gap = 0; }
