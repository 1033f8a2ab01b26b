/* WARC reader (ISO 28500, WARC/1.0 and 1.1).
 *
 * A WARC file is a sequence of records:
 *     WARC/1.1 CRLF  (named fields) CRLF  block of Content-Length bytes  CRLF CRLF
 * usually with each record in its own gzip member (wn_in undoes that, and a
 * single gzip stream or plain text alike). Pages come from `response`
 * records (an HTTP message: status line, header, payload) and `resource`
 * records (the bytes as they are). One record is held in memory at a time.
 *
 * Damage is expected in crawls: a record whose length does not match what
 * follows, junk between records, a corrupt gzip member, a file cut short.
 * The reader then skips to the next line that starts a record ("WARC/1."),
 * counts the record as skipped and says so in a warning; only I/O errors
 * and exhausted memory stop it. */
#include "input/reader_internal.h"

#include <stdlib.h>
#include <string.h>

/* A header line longer than this is cut (a field we use never is); a header
 * block longer than HEAD_MAX is taken for damage. */
#define LINE_KEEP ((size_t)64 << 10)
#define HEAD_MAX ((size_t)1 << 20)

typedef struct warc_state {
    wn_in *in; /* owned */
    wn_buf line;
    wn_buf blk;      /* the record block */
    wn_buf dec, tmp; /* payload decoding: result and scratch, swapped */
    size_t index;    /* records seen so far: the id of the next one */
    int empty;       /* the file holds no data at all */
    int resyncing;   /* after a damaged record: junk up to the next record is expected */
    int cut;         /* the file ended inside a record, handed out as damaged: the end */
} warc_state;

/* The record the end of the file cut, handed out as damaged (its warning
 * is the message) so that it is accounted for; the next call ends. */
static int cut_record(winnow_reader *r, warc_state *w, winnow_record *rec, size_t index, uint64_t off)
{
    char why[sizeof r->warning];
    snprintf(why, sizeof why, "%s", r->warning);
    w->cut = 1;
    int got = wn_reader_damaged(r, rec, (long long)index, (long long)off, "%s", why);
    if (got > 0) {
        rec->url = r->url.len && !r->url.oom ? wn_buf_cstr(&r->url) : NULL;
        rec->record_id = r->record_id.len && !r->record_id.oom ? wn_buf_cstr(&r->record_id) : NULL;
    }
    return got;
}

/* The named fields of a record that matter here. */
typedef struct warc_head {
    char type[24];
    char ctype[256];
    int has_len;
    uint64_t len;
    char truncated[32]; /* WARC-Truncated reason, "" if absent */
} warc_head;

typedef enum { REC_OK, REC_SKIP, REC_END, REC_ERROR } rec_result;

/* ---------------------------------------------------------------------- */

static void take_stream_warning(winnow_reader *r, warc_state *w)
{
    if (w->in->warn[0]) {
        wn_reader_set_warning(r, "%s", w->in->warn);
        w->in->warn[0] = 0;
    }
}

static int stream_error(winnow_reader *r, warc_state *w)
{
    wn_reader_fail(r, wn_in_status(w->in), "%s", w->in->err[0] ? w->in->err : "read failed");
    return -1;
}

/* Line length without its CRLF or LF. */
static size_t chomp(const char *s, size_t n)
{
    if (n && s[n - 1] == '\n') n--;
    if (n && s[n - 1] == '\r') n--;
    return n;
}

static int is_blank_line(const char *s, size_t n)
{
    n = chomp(s, n);
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* "WARC/1.0", "WARC/1.1" (any 1.x), then the end of the line. */
static int is_version_line(const char *s, size_t n)
{
    n = chomp(s, n);
    if (n < 8 || memcmp(s, "WARC/1.", 7) != 0) return 0;
    for (size_t i = 7; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

static const char *trim_end(const char *p, const char *end)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
    return end;
}

static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* Appends a comma-separated list value (Transfer-Encoding may come twice). */
static void append_list(char *dst, size_t cap, const char *s, size_t n)
{
    size_t have = strlen(dst);
    if (have && have + 2 < cap) {
        memcpy(dst + have, ", ", 2);
        have += 2;
    }
    if (have < cap) copy_field(dst + have, cap - have, s, n);
}

/* ---------------------------------------------------------------------- */
/* Content-Type                                                            */

/* The media type (before any ';') is HTML. */
static int is_html_type(const char *ct)
{
    const char *end = ct + strcspn(ct, ";");
    const char *p = skip_ws(ct, end);
    end = trim_end(p, end);
    size_t n = (size_t)(end - p);
    return wn_ascii_ieq(p, n, "text/html") || wn_ascii_ieq(p, n, "application/xhtml+xml");
}

static int starts_with_ci(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strlen(s) >= n && wn_ascii_ieq(s, n, prefix);
}

/* The charset parameter of a Content-Type value, quoted or not, into out
 * (cap bytes); returns its length, 0 when absent. */
static size_t charset_param(const char *ct, char *out, size_t cap)
{
    const char *p = strchr(ct, ';'), *end = ct + strlen(ct);
    while (p && p < end) {
        p = skip_ws(p + 1, end);
        const char *name = p;
        while (p < end && *p != '=' && *p != ';') p++;
        const char *name_end = trim_end(name, p);
        if (p == end || *p == ';') continue;
        p = skip_ws(p + 1, end); /* after '=' */
        size_t n = 0;
        if (p < end && *p == '"') {
            for (p++; p < end && *p != '"'; p++) {
                if (*p == '\\' && p + 1 < end) p++;
                if (n + 1 < cap) out[n++] = *p;
            }
            if (p < end) p++;
        } else {
            const char *v = p;
            while (p < end && *p != ';') p++;
            const char *v_end = trim_end(v, p);
            for (; v < v_end; v++)
                if (n + 1 < cap) out[n++] = *v;
        }
        out[n] = 0;
        if (wn_ascii_ieq(name, (size_t)(name_end - name), "charset")) return n;
        while (p < end && *p != ';') p++;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Finding and reading records                                             */

/* Reads up to and including the next "WARC/1.x" line. Blank lines are the
 * normal separator; anything else is junk, skipped with a warning.
 * 1: found, *off where the record starts; 0: end of data; -1: error. */
static int find_record(winnow_reader *r, warc_state *w, uint64_t *off)
{
    uint64_t junk = 0, junk_at = 0;
    for (;;) {
        uint64_t at = wn_in_record_offset(w->in);
        size_t total;
        int got = wn_in_getline(w->in, &w->line, 64, &total);
        if (got < 0) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
            return -1;
        }
        if (!got) {
            if (w->in->failed) return stream_error(r, w);
            take_stream_warning(r, w);
            if (w->in->gap) {
                /* Corrupt gzip data before a record header was read: with a
                 * member per record, as usual, one record is lost. Counting
                 * it keeps the ids of the records after it. */
                wn_in_clear_gap(w->in);
                w->resyncing = 1;
                w->index++;
                r->skipped++;
                continue;
            }
            if (junk && !w->resyncing)
                wn_reader_set_warning(r, "%s: %llu bytes of unparseable data at the end (from offset %llu) ignored",
                                      r->name, (unsigned long long)junk, (unsigned long long)junk_at);
            return 0;
        }
        if (is_version_line(w->line.data, w->line.len)) {
            take_stream_warning(r, w); /* e.g. junk between gzip members */
            if (junk && !w->resyncing)
                wn_reader_set_warning(r, "%s: %llu bytes of unparseable data before offset %llu skipped", r->name,
                                      (unsigned long long)junk, (unsigned long long)at);
            w->resyncing = 0;
            *off = at;
            return 1;
        }
        if (is_blank_line(w->line.data, w->line.len)) continue;
        if (!junk) junk_at = at;
        junk += total;
    }
}

/* The named fields up to the blank line. REC_OK, REC_SKIP (damaged: what
 * follows is searched for the next record), REC_END (cut off), REC_ERROR. */
static rec_result read_head(winnow_reader *r, warc_state *w, warc_head *h, uint64_t off)
{
    memset(h, 0, sizeof *h);
    wn_buf_clear(&r->url);
    wn_buf_clear(&r->record_id);
    size_t head_len = 0;
    for (;;) {
        size_t total;
        int got = wn_in_getline(w->in, &w->line, LINE_KEEP, &total);
        if (got < 0) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
            return REC_ERROR;
        }
        if (w->in->failed) {
            stream_error(r, w);
            return REC_ERROR;
        }
        const char *s = w->line.data;
        size_t n = w->line.len;
        /* a whole line ends with '\n' (a longer one than LINE_KEEP was cut, which is fine) */
        if (!got || (total == n && s[n - 1] != '\n')) {
            take_stream_warning(r, w);
            if (w->in->gap) {
                wn_in_clear_gap(w->in);
                wn_reader_set_warning(r, "%s#%llu: record header damaged (corrupt gzip data); skipped", r->name,
                                      (unsigned long long)off);
                return REC_SKIP;
            }
            wn_reader_set_warning(r, "%s#%llu: the file ends inside a record header (truncated file)", r->name,
                                  (unsigned long long)off);
            return REC_END;
        }
        head_len += total;
        n = chomp(s, n);
        if (n == 0) break; /* end of the header */
        if (head_len > HEAD_MAX) {
            wn_reader_set_warning(r, "%s#%llu: record header over %zu bytes (damaged); skipped", r->name,
                                  (unsigned long long)off, HEAD_MAX);
            return REC_SKIP;
        }
        if (s[0] == ' ' || s[0] == '\t') continue; /* a folded continuation: no field we use is folded */
        if (is_version_line(s, n)) {
            /* a new record begins: this one's header was cut short */
            wn_in_unread(w->in, w->line.data, w->line.len);
            wn_reader_set_warning(r, "%s#%llu: record header cut short by the next record; skipped", r->name,
                                  (unsigned long long)off);
            return REC_SKIP;
        }
        const char *colon = memchr(s, ':', n);
        if (!colon) {
            wn_reader_set_warning(r, "%s#%llu: malformed record header line; skipped", r->name,
                                  (unsigned long long)off);
            w->resyncing = 1;
            return REC_SKIP;
        }
        const char *end = s + n;
        size_t name_n = (size_t)(trim_end(s, colon) - s);
        const char *v = skip_ws(colon + 1, end);
        size_t vn = (size_t)(trim_end(v, end) - v);
        if (wn_ascii_ieq(s, name_n, "WARC-Type")) {
            copy_field(h->type, sizeof h->type, v, vn);
        } else if (wn_ascii_ieq(s, name_n, "Content-Length")) {
            uint64_t len = 0;
            size_t i = 0;
            for (; i < vn && v[i] >= '0' && v[i] <= '9'; i++) {
                if (len > (UINT64_MAX - 9) / 10) break;
                len = len * 10 + (uint64_t)(v[i] - '0');
            }
            h->has_len = i == vn && vn > 0;
            h->len = len;
        } else if (wn_ascii_ieq(s, name_n, "WARC-Target-URI")) {
            /* WARC/1.0 examples wrap the URI in <>; 1.1 does not */
            if (vn >= 2 && v[0] == '<' && v[vn - 1] == '>') v++, vn -= 2;
            if (!wn_reader_str(&r->url, v, vn)) {
                wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
                return REC_ERROR;
            }
        } else if (wn_ascii_ieq(s, name_n, "WARC-Record-ID")) {
            if (!wn_reader_str(&r->record_id, v, vn)) {
                wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
                return REC_ERROR;
            }
        } else if (wn_ascii_ieq(s, name_n, "Content-Type")) {
            copy_field(h->ctype, sizeof h->ctype, v, vn);
        } else if (wn_ascii_ieq(s, name_n, "WARC-Truncated")) {
            copy_field(h->truncated, sizeof h->truncated, vn ? v : "unspecified", vn ? vn : 11);
        }
    }
    if (!h->has_len) {
        wn_reader_set_warning(r, "%s#%llu: record without a valid Content-Length; skipped", r->name,
                              (unsigned long long)off);
        w->resyncing = 1;
        return REC_SKIP;
    }
    return REC_OK;
}

/* Position of the first line in [0, n) that starts a record, or n. */
static size_t find_version_line(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(p + i, '\n', n - i);
        size_t line_end = nl ? (size_t)(nl - p) + 1 : n;
        if (is_version_line(p + i, line_end - i)) return i;
        i = line_end;
    }
    return n;
}

typedef enum { TRAILER_OK, TRAILER_BAD_LENGTH, TRAILER_CORRUPT, TRAILER_ERROR } trailer_result;

static trailer_result trailer_error(winnow_reader *r, warc_state *w)
{
    stream_error(r, w);
    return TRAILER_ERROR;
}

/* After the block come two line ends. When something else follows, the
 * Content-Length was wrong: the record is damaged, and the bytes read too
 * far are given back from the first record start among them, so a record
 * swallowed by a too-long length is not lost. */
static trailer_result check_trailer(winnow_reader *r, warc_state *w)
{
    size_t total;
    int got = wn_in_getline(w->in, &w->line, r->max_record, &total);
    if (got < 0) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return TRAILER_ERROR;
    }
    if (w->in->failed) return trailer_error(r, w);
    if (got && is_version_line(w->line.data, w->line.len)) {
        /* no separator before the next record: tolerated */
        if (wn_in_unread(w->in, w->line.data, w->line.len) < 0) return trailer_error(r, w);
        return TRAILER_OK;
    }
    if (got && !is_blank_line(w->line.data, w->line.len)) {
        if (wn_in_unread(w->in, w->line.data, w->line.len) < 0) return trailer_error(r, w);
        size_t at = find_version_line(w->blk.data, w->blk.len);
        if (at < w->blk.len && wn_in_unread(w->in, w->blk.data + at, w->blk.len - at) < 0) return trailer_error(r, w);
        w->resyncing = 1;
        return TRAILER_BAD_LENGTH;
    }
    /* Take the second line end too and look one byte further: with a gzip
     * member per record that makes zlib finish the member, so a bad
     * checksum is charged to this record, not to the next one. */
    const unsigned char *p;
    size_t k = wn_in_peek(w->in, 2, &p);
    if (k >= 1 && p[0] == '\n')
        wn_in_consume(w->in, 1);
    else if (k == 2 && p[0] == '\r' && p[1] == '\n')
        wn_in_consume(w->in, 2);
    /* The gap flag goes up as soon as zlib fails, but the gap is reached
     * only when the bytes decoded before the failure are used up; and it is
     * this record's only if the failed member held some of its bytes (else
     * the next member failed at once: find_record deals with that). */
    size_t ahead = wn_in_avail(w->in, &p);
    if (w->in->failed) return trailer_error(r, w);
    if (!ahead && w->in->gap && w->in->gap_member_pos < wn_in_tell(w->in)) {
        wn_in_clear_gap(w->in);
        w->resyncing = 1;
        return TRAILER_CORRUPT;
    }
    return TRAILER_OK;
}

/* ---------------------------------------------------------------------- */
/* HTTP payload decoding                                                   */

typedef enum { CHUNKED_OK, CHUNKED_PARTIAL, CHUNKED_NOT } chunked_result;

/* Undoes Transfer-Encoding: chunked in place (the output never overtakes
 * the input). Some crawlers store the payload already de-chunked but keep
 * the header, so a body that does not start with a chunk size is left as it
 * is (CHUNKED_NOT); one that breaks off later keeps what was decoded. */
static chunked_result dechunk(char *p, size_t n, size_t *out_len)
{
    size_t i = 0, o = 0;
    for (;;) {
        size_t j = i, size = 0, digits = 0;
        for (; j < n; j++) {
            int c = (unsigned char)p[j], d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                break;
            if (size > (SIZE_MAX >> 4)) return i == 0 ? CHUNKED_NOT : (*out_len = o, CHUNKED_PARTIAL);
            size = size * 16 + (size_t)d;
            digits++;
        }
        /* after the size: optional blanks, extensions (";..."), the line end */
        int size_line =
            digits > 0 && j < n && (p[j] == '\r' || p[j] == '\n' || p[j] == ';' || p[j] == ' ' || p[j] == '\t');
        if (!size_line) {
            if (i == 0) return CHUNKED_NOT;
            *out_len = o;
            return CHUNKED_PARTIAL;
        }
        const char *nl = memchr(p + j, '\n', n - j);
        if (!nl) break;
        i = (size_t)(nl - p) + 1;
        if (size == 0) { /* the last chunk; trailer fields are of no use */
            *out_len = o;
            return CHUNKED_OK;
        }
        if (size > n - i) {
            memmove(p + o, p + i, n - i);
            o += n - i;
            break;
        }
        memmove(p + o, p + i, size);
        o += size;
        i += size;
        if (i < n && p[i] == '\r') i++;
        if (i < n && p[i] == '\n') i++;
        if (i >= n) break;
    }
    *out_len = o;
    return CHUNKED_PARTIAL;
}

/* Inflates gzip (one or more members), zlib or raw deflate data into *dst.
 * Returns NULL on success, else why it failed. */
const char *wn_inflate_all(const unsigned char *src, size_t n, int gzip, wn_buf *dst, size_t limit)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    int bits = MAX_WBITS + 16;
    if (!gzip) /* HTTP "deflate" is meant to be zlib-wrapped; servers often send raw deflate */
        bits = n >= 2 && (src[0] & 0x0F) == 8 && ((src[0] << 8) | src[1]) % 31 == 0 ? MAX_WBITS : -MAX_WBITS;
    if (inflateInit2(&z, bits) != Z_OK) return "out of memory";
    wn_buf_clear(dst);
    const char *why = NULL;
    size_t used = 0;
    for (;;) {
        if (!wn_buf_reserve(dst, 64 << 10)) {
            why = "out of memory";
            break;
        }
        size_t in_n = n - used > (1u << 30) ? (1u << 30) : n - used;
        size_t room = dst->cap - dst->len - 1;
        if (room > (1u << 30)) room = 1u << 30;
        z.next_in = (unsigned char *)src + used; /* zlib does not write through next_in */
        z.avail_in = (uInt)in_n;
        z.next_out = (unsigned char *)dst->data + dst->len;
        z.avail_out = (uInt)room;
        int zr = inflate(&z, Z_NO_FLUSH);
        used += in_n - z.avail_in;
        dst->len += room - z.avail_out;
        if (dst->len > limit) {
            why = "decoded payload over the size limit";
            break;
        }
        if (zr == Z_STREAM_END) {
            /* gzip may hold several members back to back */
            if (gzip && n - used >= 2 && src[used] == 0x1f && src[used + 1] == 0x8b) {
                if (inflateReset(&z) != Z_OK) {
                    why = "zlib failure";
                    break;
                }
                continue;
            }
            break;
        }
        if (zr == Z_OK) continue;
        if (zr == Z_BUF_ERROR && used == n) {
            why = "compressed data cut short";
            break;
        }
        if (zr == Z_BUF_ERROR) continue; /* output full: grow and go on */
        why = zr == Z_MEM_ERROR ? "out of memory" : (z.msg ? z.msg : "invalid compressed data");
        break;
    }
    inflateEnd(&z);
    return why;
}

/* Undoes the codings of a comma-separated Transfer- or Content-Encoding
 * list, last applied first. *data and *len point into w->blk (writable) or a
 * decoding buffer. REC_OK or REC_SKIP (warning set) or REC_ERROR. */
static rec_result undo_codings(winnow_reader *r, warc_state *w, const char *list, const char *header, char **data,
                               size_t *len, uint64_t off)
{
    const char *end = list + strlen(list);
    while (end > list) {
        const char *tok_end = end, *tok = end;
        while (tok > list && tok[-1] != ',') tok--;
        end = tok > list ? tok - 1 : list;
        const char *semi = memchr(tok, ';', (size_t)(tok_end - tok));
        if (semi) tok_end = semi;
        tok = skip_ws(tok, tok_end);
        tok_end = trim_end(tok, tok_end);
        size_t n = (size_t)(tok_end - tok);
        if (n == 0 || wn_ascii_ieq(tok, n, "identity")) continue;
        if (wn_ascii_ieq(tok, n, "chunked")) {
            size_t out;
            chunked_result c = dechunk(*data, *len, &out);
            if (c == CHUNKED_NOT) {
                wn_reader_set_warning(
                    r, "%s#%llu: Transfer-Encoding: chunked, but the payload is not chunked; used as it is", r->name,
                    (unsigned long long)off);
            } else {
                if (c == CHUNKED_PARTIAL)
                    wn_reader_set_warning(r, "%s#%llu: chunked payload cut short; kept the %zu bytes decoded", r->name,
                                          (unsigned long long)off, out);
                *len = out;
            }
            continue;
        }
        int gzip = wn_ascii_ieq(tok, n, "gzip") || wn_ascii_ieq(tok, n, "x-gzip");
        if (!gzip && !wn_ascii_ieq(tok, n, "deflate")) {
            wn_reader_set_warning(r, "%s#%llu: unsupported %s \"%.*s\"; skipped", r->name, (unsigned long long)off,
                                  header, (int)n, tok);
            return REC_SKIP;
        }
        const unsigned char *src = (const unsigned char *)*data;
        if (gzip && (*len < 2 || src[0] != 0x1f || src[1] != 0x8b)) {
            /* like chunked: stored decoded, header kept */
            wn_reader_set_warning(r, "%s#%llu: %s: gzip, but the payload is not gzip data; used as it is", r->name,
                                  (unsigned long long)off, header);
            continue;
        }
        const char *why = wn_inflate_all(src, *len, gzip, &w->tmp, r->max_record);
        if (why && strcmp(why, "out of memory") == 0) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory decoding %s#%llu", r->name, (unsigned long long)off);
            return REC_ERROR;
        }
        if (why && w->tmp.len > r->max_record) {
            r->too_large++;
            wn_reader_set_warning(r, "%s#%llu: payload decoded with %s: %.*s is over the %zu-byte limit; skipped",
                                  r->name, (unsigned long long)off, header, (int)n, tok, r->max_record);
            return REC_SKIP;
        }
        if (why) {
            wn_reader_set_warning(r, "%s#%llu: cannot decode %s: %.*s (%s); skipped", r->name, (unsigned long long)off,
                                  header, (int)n, tok, why);
            return REC_SKIP;
        }
        /* the result becomes the input of the next step */
        wn_buf t = w->dec;
        w->dec = w->tmp;
        w->tmp = t;
        *data = w->dec.data;
        *len = w->dec.len;
    }
    return REC_OK;
}

/* Turns the block of a response or resource record into a page.
 * REC_OK: rec->data/len/charset set; REC_SKIP: not a page, or damaged
 * (then with a warning); REC_ERROR. */
static rec_result record_payload(winnow_reader *r, warc_state *w, const warc_head *h, winnow_record *rec, uint64_t off)
{
    char charset[128] = "";
    char *data = w->blk.data;
    size_t len = w->blk.len;

    if (wn_ascii_ieq(h->type, strlen(h->type), "resource")) {
        if (!h->ctype[0] || !is_html_type(h->ctype)) return REC_SKIP;
        charset_param(h->ctype, charset, sizeof charset);
    } else {
        /* response records also hold DNS lookups and other protocols */
        if (h->ctype[0] && !starts_with_ci(h->ctype, "application/http")) return REC_SKIP;
        if (len < 5 || memcmp(data, "HTTP/", 5) != 0) {
            wn_reader_set_warning(r, "%s#%llu: response record without an HTTP status line; skipped", r->name,
                                  (unsigned long long)off);
            return REC_SKIP;
        }
        /* status line: HTTP/1.1 200 OK */
        const char *end = data + len;
        const char *p = data + 5;
        while (p < end && *p != ' ' && *p != '\n') p++;
        p = skip_ws(p, end);
        if (end - p < 3 || p[0] < '1' || p[0] > '5' || p[1] < '0' || p[1] > '9' || p[2] < '0' || p[2] > '9') {
            wn_reader_set_warning(r, "%s#%llu: malformed HTTP status line; skipped", r->name, (unsigned long long)off);
            return REC_SKIP;
        }
        int status = (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        /* header fields up to the blank line */
        char ctype[512] = "", te[128] = "", ce[128] = "";
        int have_ctype = 0, ended = 0;
        p = nl ? nl + 1 : end;
        while (p < end) {
            nl = memchr(p, '\n', (size_t)(end - p));
            const char *line_end = nl ? nl : end;
            const char *next = nl ? nl + 1 : end;
            if (line_end > p && line_end[-1] == '\r') line_end--;
            if (line_end == p) {
                ended = 1;
                p = next;
                break;
            }
            const char *colon = memchr(p, ':', (size_t)(line_end - p));
            if (colon && p[0] != ' ' && p[0] != '\t') {
                size_t name_n = (size_t)(trim_end(p, colon) - p);
                const char *v = skip_ws(colon + 1, line_end);
                size_t vn = (size_t)(trim_end(v, line_end) - v);
                if (wn_ascii_ieq(p, name_n, "Content-Type")) {
                    copy_field(ctype, sizeof ctype, v, vn); /* the last one counts, as in browsers */
                    have_ctype = 1;
                } else if (wn_ascii_ieq(p, name_n, "Transfer-Encoding")) {
                    append_list(te, sizeof te, v, vn);
                } else if (wn_ascii_ieq(p, name_n, "Content-Encoding")) {
                    append_list(ce, sizeof ce, v, vn);
                }
            }
            p = next;
        }
        if (!ended) {
            wn_reader_set_warning(r, "%s#%llu: HTTP header without its closing blank line; skipped", r->name,
                                  (unsigned long long)off);
            return REC_SKIP;
        }
        if (status < 200 || status > 299) return REC_SKIP;
        if (have_ctype && ctype[0] && !is_html_type(ctype)) return REC_SKIP;
        if (have_ctype) charset_param(ctype, charset, sizeof charset);
        len -= (size_t)(p - data);
        data += p - data;
        rec_result u = undo_codings(r, w, te, "Transfer-Encoding", &data, &len, off);
        if (u == REC_OK) u = undo_codings(r, w, ce, "Content-Encoding", &data, &len, off);
        if (u != REC_OK) return u;
    }
    if (h->truncated[0])
        wn_reader_set_warning(r, "%s#%llu: the crawler truncated this record (WARC-Truncated: %s)", r->name,
                              (unsigned long long)off, h->truncated);
    rec->data = data ? data : "";
    rec->len = len;
    rec->charset = charset[0] ? wn_reader_str(&r->charset, charset, strlen(charset)) : NULL;
    rec->url = r->url.len ? wn_buf_cstr(&r->url) : NULL;
    if ((charset[0] && !rec->charset) || r->url.oom) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return REC_ERROR;
    }
    return REC_OK;
}

/* ---------------------------------------------------------------------- */

static int warc_next(winnow_reader *r, winnow_record *rec)
{
    warc_state *w = r->state;
    if (w->empty) {
        w->empty = 0;
        wn_reader_set_warning(r, "%s: empty file", r->name);
        return 0;
    }
    if (w->cut) return 0;
    for (;;) {
        uint64_t off;
        int found = find_record(r, w, &off);
        if (found <= 0) return found;
        size_t index = w->index++;

        warc_head h;
        rec_result hr = read_head(r, w, &h, off);
        if (hr == REC_ERROR) return -1;
        if (hr == REC_END) {
            r->skipped++;
            return cut_record(r, w, rec, index, off);
        }
        if (hr == REC_SKIP) {
            r->skipped++;
            continue;
        }
        int page = wn_ascii_ieq(h.type, strlen(h.type), "response") || wn_ascii_ieq(h.type, strlen(h.type), "resource");

        if (h.len > r->max_record) {
            if (page) {
                r->skipped++;
                r->too_large++;
                wn_reader_set_warning(r, "%s#%llu: record of %llu bytes, over the %zu-byte limit; skipped", r->name,
                                      (unsigned long long)off, (unsigned long long)h.len, r->max_record);
            }
            uint64_t left = h.len;
            while (left) {
                size_t step = left > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)left;
                size_t n = wn_in_read(w->in, NULL, step);
                left -= n;
                if (n < step) break;
            }
            if (w->in->failed) return stream_error(r, w);
            if (left) {
                take_stream_warning(r, w);
                if (!page) r->skipped++; /* a page was counted above */
                if (!w->in->gap) {
                    wn_reader_set_warning(r, "%s#%llu: last record cut short: the file is truncated", r->name,
                                          (unsigned long long)off);
                    return 0;
                }
                wn_in_clear_gap(w->in); /* damaged too: go on after the gap */
                w->resyncing = 1;
            }
            continue;
        }

        wn_buf_clear(&w->blk);
        if (!wn_buf_reserve(&w->blk, (size_t)h.len)) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory for a record of %llu bytes in %s",
                           (unsigned long long)h.len, r->name);
            return -1;
        }
        w->blk.len = wn_in_read(w->in, w->blk.data, (size_t)h.len);
        wn_buf_cstr(&w->blk);
        if (w->blk.len < h.len) {
            if (w->in->failed) return stream_error(r, w);
            take_stream_warning(r, w);
            r->skipped++;
            if (w->in->gap) {
                wn_in_clear_gap(w->in);
                wn_reader_set_warning(r, "%s#%llu: record damaged (corrupt gzip data); skipped", r->name,
                                      (unsigned long long)off);
                w->resyncing = 1;
                continue;
            }
            wn_reader_set_warning(r, "%s#%llu: last record cut short (%zu of %llu bytes): the file is truncated",
                                  r->name, (unsigned long long)off, w->blk.len, (unsigned long long)h.len);
            return cut_record(r, w, rec, index, off);
        }
        trailer_result trailer = check_trailer(r, w);
        if (trailer == TRAILER_ERROR) return -1;
        if (trailer == TRAILER_BAD_LENGTH) {
            r->skipped++;
            wn_reader_set_warning(r, "%s#%llu: record length does not match its Content-Length (damaged); skipped",
                                  r->name, (unsigned long long)off);
            continue;
        }
        if (trailer == TRAILER_CORRUPT) {
            r->skipped++;
            w->in->warn[0] = 0; /* said below, for this record */
            wn_reader_set_warning(r, "%s#%llu: record damaged (corrupt gzip data at the end of its member); skipped",
                                  r->name, (unsigned long long)off);
            continue;
        }
        if (!page) continue;

        rec_result pr = record_payload(r, w, &h, rec, off);
        if (pr == REC_ERROR) return -1;
        if (pr != REC_OK) {
            r->skipped++;
            continue;
        }
        wn_buf_clear(&r->source);
        wn_buf_printf(&r->source, "%s#%llu", r->name, (unsigned long long)off);
        wn_buf_clear(&r->id);
        wn_buf_printf(&r->id, "%05zu", index);
        rec->source = wn_buf_cstr(&r->source);
        rec->id = wn_buf_cstr(&r->id);
        rec->file = r->path;
        rec->number = (long long)index;
        rec->record_id = r->record_id.len ? wn_buf_cstr(&r->record_id) : NULL;
        if (r->source.oom || r->id.oom || r->record_id.oom) {
            wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
            return -1;
        }
        return 1;
    }
}

static void warc_close(winnow_reader *r)
{
    warc_state *w = r->state;
    wn_in_free(w->in);
    wn_buf_free(&w->line);
    wn_buf_free(&w->blk);
    wn_buf_free(&w->dec);
    wn_buf_free(&w->tmp);
    free(w);
}

int wn_warc_open(winnow_reader *r, wn_in *in)
{
    if (!in && !(in = wn_in_new(r->path, r->name))) {
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    warc_state *w = calloc(1, sizeof *w);
    if (!w) {
        wn_in_free(in);
        wn_reader_fail(r, WINNOW_E_NOMEM, "out of memory");
        return -1;
    }
    w->in = in;
    r->state = w;
    r->close_state = warc_close;
    r->stream = in;
    r->format = WINNOW_INPUT_WARC;
    if (w->in->failed) {
        wn_reader_fail(r, wn_in_status(w->in), "%s", w->in->err);
        return -1;
    }
    const unsigned char *p;
    size_t n = wn_in_peek(w->in, 7, &p);
    if (w->in->failed) return stream_error(r, w);
    if (n == 0 && !w->in->warn[0]) {
        w->empty = 1;
    } else if (n < 7 || memcmp(p, "WARC/1.", 7) != 0) {
        if (w->in->warn[0])
            wn_reader_fail(r, WINNOW_E_FORMAT, "%s: not a WARC file (%s)", r->name, w->in->warn);
        else
            wn_reader_fail(r, WINNOW_E_FORMAT, "%s: not a WARC file (no WARC/1.x header at offset 0)", r->name);
        return -1;
    }
    r->next = warc_next;
    return 0;
}
