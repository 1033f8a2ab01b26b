/* Page readers (winnow_reader_*): directory listing order and ids, a single
 * file, WARC files from the site corpus and hand-made ones (plain, gzip per
 * record and as one stream; chunked and gzip payloads; records to skip;
 * damage: a cut-off end, junk between records, wrong lengths, a corrupt
 * gzip member), JSONL (escapes, surrogates, nested members, malformed and
 * very long lines) and the error messages. Test files go to a temporary
 * directory that is removed at the end. */
#define _GNU_SOURCE 1
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "input/reader_internal.h"
#include "util/buf.h"

static char tmp_root[256];

/* ---------------------------------------------------------------------- */
/* helpers                                                                 */

/* A path in the temporary directory; the result lives until four more calls. */
static const char *tmp_path(const char *name)
{
    static char path[4][512];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(path[slot], sizeof path[slot], "%s/%s", tmp_root, name);
    return path[slot];
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_EQ(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void write_str(const char *path, const char *s) { write_file(path, s, strlen(s)); }

/* Appends one gzip member holding p[0..n). */
static void gz_member(wn_buf *out, const void *p, size_t n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t bound = deflateBound(&z, (uLong)n) + 64;
    wn_buf_reserve(out, bound);
    z.next_in = (unsigned char *)p;
    z.avail_in = (uInt)n;
    z.next_out = (unsigned char *)out->data + out->len;
    z.avail_out = (uInt)bound;
    CHECK_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out->len += bound - z.avail_out;
    deflateEnd(&z);
}

/* zlib-wrapped (raw = 0) or raw deflate data. */
static void deflate_data(wn_buf *out, const void *p, size_t n, int raw)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK_EQ(deflateInit2(&z, 6, Z_DEFLATED, raw ? -MAX_WBITS : MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t bound = deflateBound(&z, (uLong)n) + 64;
    wn_buf_reserve(out, bound);
    z.next_in = (unsigned char *)p;
    z.avail_in = (uInt)n;
    z.next_out = (unsigned char *)out->data + out->len;
    z.avail_out = (uInt)bound;
    CHECK_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out->len += bound - z.avail_out;
    deflateEnd(&z);
}

/* One WARC record, CRLF line ends (or LF when lf is set). */
static void warc_record(wn_buf *out, const char *type, const char *uri, const char *ctype, const void *block, size_t n,
                        int lf)
{
    const char *eol = lf ? "\n" : "\r\n";
    wn_buf_printf(out, "WARC/1.1%sWARC-Type: %s%s", eol, type, eol);
    wn_buf_printf(out, "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012zu>%s", out->len, eol);
    if (uri) wn_buf_printf(out, "WARC-Target-URI: %s%s", uri, eol);
    if (ctype) wn_buf_printf(out, "Content-Type: %s%s", ctype, eol);
    wn_buf_printf(out, "Content-Length: %zu%s%s", n, eol, eol);
    wn_buf_put(out, block, n);
    wn_buf_printf(out, "%s%s", eol, eol);
}

/* An HTTP response as a response record. */
static void warc_http(wn_buf *out, const char *uri, const char *head, const void *body, size_t n)
{
    wn_buf b;
    wn_buf_init(&b);
    wn_buf_puts(&b, head);
    wn_buf_put(&b, body, n);
    warc_record(out, "response", uri, "application/http; msgtype=response", b.data, b.len, 0);
    wn_buf_free(&b);
}

typedef struct seen {
    size_t n;
    char url[16][128];
    char id[16][32];
    char charset[16][32];
    char data[16][256];
    char warning[16][300];
    char source[16][300];
    char last_warning[300];
    winnow_status end;
} seen;

/* The last open_*()'s status and message. */
static winnow_status last_open;
static char last_err[700];

/* winnow_reader_open with options: the reader, or NULL with last_open and
 * last_err saying why. */
static winnow_reader *open_opts(const char *path, const winnow_reader_options *o)
{
    winnow_reader *r = NULL;
    last_open = winnow_reader_open(path, o, &r, last_err, sizeof last_err);
    return r;
}

/* The same with the defaults but the record size limit (0: the default). */
static winnow_reader *open_limited(const char *path, size_t max)
{
    winnow_reader_options o;
    winnow_reader_options_default(&o, sizeof o);
    o.max_record_bytes = max;
    return open_opts(path, &o);
}

/* Reads everything; records the first 16 pages. */
static void read_reader(winnow_reader *r, seen *s);

static void read_all(const char *path, size_t max, seen *s)
{
    memset(s, 0, sizeof *s);
    winnow_reader *r = open_limited(path, max);
    read_reader(r, s);
}

/* Every record of r into *s, then closes r. */
static void read_reader(winnow_reader *r, seen *s)
{
    memset(s, 0, sizeof *s);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_STR(winnow_reader_error(r), "");
    winnow_record rec = { sizeof rec };
    winnow_status got;
    while ((got = winnow_reader_next(r, &rec)) == WINNOW_OK) {
        if (s->n < 16) {
            snprintf(s->url[s->n], sizeof s->url[0], "%s", rec.url ? rec.url : "(null)");
            snprintf(s->id[s->n], sizeof s->id[0], "%s", rec.id);
            snprintf(s->charset[s->n], sizeof s->charset[0], "%s", rec.charset ? rec.charset : "(null)");
            snprintf(s->data[s->n], sizeof s->data[0], "%.*s", (int)(rec.len < 255 ? rec.len : 255),
                     (const char *)rec.data);
            snprintf(s->warning[s->n], sizeof s->warning[0], "%s", winnow_reader_warning(r));
            snprintf(s->source[s->n], sizeof s->source[0], "%s", rec.source);
        }
        s->n++;
    }
    s->end = got;
    snprintf(s->last_warning, sizeof s->last_warning, "%s", winnow_reader_warning(r));
    winnow_reader_close(r);
}

static size_t skipped_of(const char *path, size_t max)
{
    winnow_reader *r = open_limited(path, max);
    winnow_record rec = { sizeof rec };
    while (winnow_reader_next(r, &rec) == WINNOW_OK) {}
    size_t n = winnow_reader_skipped(r);
    winnow_reader_close(r);
    return n;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The repository root, from this file's path (CMake passes it absolute). */
static void repo_path(char *out, size_t cap, const char *rel)
{
    const char *me = __FILE__;
    const char *cut = strstr(me, "tests/unit/test_reader.c");
    snprintf(out, cap, "%.*s%s", cut ? (int)(cut - me) : 0, me, rel);
}

/* ---------------------------------------------------------------------- */
/* directories and single files                                            */

static void test_directory(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tmp_path("site"));
    mkdir(dir, 0755);
    write_str(tmp_path("site/b.html"), "<p>b</p>");
    write_str(tmp_path("site/a.htm"), "<p>a</p>");
    write_str(tmp_path("site/10.html"), "<p>10</p>");
    write_str(tmp_path("site/Upper.HTML"), "<p>U</p>");
    write_str(tmp_path("site/notes.txt"), "not a page");
    write_str(tmp_path("site/.html"), "no name");
    mkdir(tmp_path("site/sub"), 0755);
    write_str(tmp_path("site/sub/deep.html"), "<p>not recursive</p>");
    mkdir(tmp_path("site/dir.html"), 0755); /* a directory with a page's name */

    winnow_reader *r = open_limited(dir, 0);
    CHECK_STR(winnow_reader_error(r), "");
    static const char *const ids[] = { "10", "Upper", "a", "b" }; /* byte order */
    static const char *const texts[] = { "<p>10</p>", "<p>U</p>", "<p>a</p>", "<p>b</p>" };
    static const char *const files[] = { "10.html", "Upper.HTML", "a.htm", "b.html" };
    winnow_record rec = { sizeof rec };
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
        CHECK_STR(rec.id, ids[i]);
        CHECK(rec.len == strlen(texts[i]) && memcmp(rec.data, texts[i], rec.len) == 0);
        char want[600];
        snprintf(want, sizeof want, "%s/%s", dir, files[i]);
        CHECK_STR(rec.source, want);
        CHECK(rec.url == NULL);
        CHECK(rec.charset == NULL);
    }
    /* dir.html sorts last: skipped, with a warning */
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "dir.html: not a regular file");
    CHECK_EQ(winnow_reader_skipped(r), 1);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_STR(winnow_reader_warning(r), "");
    CHECK_STR(winnow_reader_error(r), "");
    winnow_reader_close(r);

    /* a trailing slash does not double in the sources */
    char slash[600];
    snprintf(slash, sizeof slash, "%s/", dir);
    r = open_limited(slash, 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK(rec.source && !strstr(rec.source, "//"));
    winnow_reader_close(r);

    /* a directory without pages: no error, a warning */
    mkdir(tmp_path("empty"), 0755);
    r = open_limited(tmp_path("empty"), 0);
    CHECK_STR(winnow_reader_error(r), "");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "no .html or .htm files");
    winnow_reader_close(r);

    /* a page over the limit is skipped, the others go on */
    write_str(tmp_path("site/c.html"), "<p>a page longer than twenty bytes</p>");
    seen s;
    read_all(dir, 20, &s);
    CHECK_EQ(s.n, 4);
    CHECK_EQ(skipped_of(dir, 20), 2);
}

static void test_single_file(void)
{
    char page[512];
    snprintf(page, sizeof page, "%s", tmp_path("page.html"));
    write_str(page, "<html><body><p>one page</p></body></html>");
    winnow_reader *r = open_limited(page, 0);
    winnow_record rec = { sizeof rec };
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.id, "page");
    CHECK_STR(rec.source, page);
    CHECK_EQ(rec.len, strlen("<html><body><p>one page</p></body></html>"));
    CHECK(rec.url == NULL && rec.charset == NULL);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_STR(winnow_reader_warning(r), "");
    winnow_reader_close(r);

    /* any other regular file is one page too; id is the stem */
    write_str(tmp_path("notes.v2.txt"), "<p>text</p>");
    seen s;
    read_all(tmp_path("notes.v2.txt"), 0, &s);
    CHECK_EQ(s.n, 1);
    CHECK_STR(s.id[0], "notes.v2");
    CHECK_STR(s.data[0], "<p>text</p>");

    /* an empty file is a page of zero bytes (the engine says it is empty) */
    write_str(tmp_path("empty.html"), "");
    read_all(tmp_path("empty.html"), 0, &s);
    CHECK_EQ(s.n, 1);

    /* too large: skipped with a warning, not an error */
    r = open_limited(page, 10);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "over the 10-byte limit");
    CHECK_EQ(winnow_reader_skipped(r), 1);
    CHECK_STR(winnow_reader_error(r), "");
    winnow_reader_close(r);
}

static void test_errors(void)
{
    /* an input that cannot be opened fails at the open, with its reason
     * and no reader */
    winnow_reader *r = (winnow_reader *)&r; /* poison: must come back NULL */
    char err[600];
    CHECK_EQ(winnow_reader_open("/nonexistent/dir/x.warc.gz", NULL, &r, err, sizeof err), WINNOW_E_IO);
    CHECK(r == NULL);
    CHECK_STR(err, "cannot open /nonexistent/dir/x.warc.gz: No such file or directory");
    CHECK_EQ(winnow_reader_open("/nonexistent/dir/x.warc.gz", NULL, &r, NULL, 0), WINNOW_E_IO); /* err not wanted */
    winnow_record rec = { sizeof rec };

    /* a .warc.gz that holds no WARC */
    char bad[512];
    snprintf(bad, sizeof bad, "%s", tmp_path("bad.warc.gz"));
    wn_buf b;
    wn_buf_init(&b);
    gz_member(&b, "<html>not a warc</html>", 23);
    write_file(bad, b.data, b.len);
    r = open_limited(bad, 0);
    CHECK(r == NULL);
    CHECK_EQ(last_open, WINNOW_E_FORMAT);
    char want[600];
    snprintf(want, sizeof want, "%s: not a WARC file (no WARC/1.x header at offset 0)", bad);
    CHECK_STR(last_err, want);

    /* plain text named .warc */
    write_str(tmp_path("bad.warc"), "hello\n");
    r = open_limited(tmp_path("bad.warc"), 0);
    CHECK_EQ(last_open, WINNOW_E_FORMAT);
    CHECK_HAS(last_err, "bad.warc: not a WARC file (no WARC/1.x header at offset 0)");
    winnow_reader_close(r);

    /* an empty WARC: no pages, a warning */
    write_str(tmp_path("empty.warc"), "");
    r = open_limited(tmp_path("empty.warc"), 0);
    CHECK_EQ(last_open, WINNOW_OK);
    CHECK_STR(winnow_reader_error(r), "");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "empty file");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END); /* and again */
    winnow_reader_close(r);

    r = (winnow_reader *)&r;
    CHECK_EQ(winnow_reader_open(NULL, NULL, &r, err, sizeof err), WINNOW_E_ARG);
    CHECK(r == NULL && strlen(err) > 0);
    CHECK_EQ(winnow_reader_open("", NULL, &r, err, sizeof err), WINNOW_E_ARG);
    CHECK_EQ(winnow_reader_open(tmp_path("empty.warc"), NULL, NULL, err, sizeof err), WINNOW_E_ARG);
    winnow_reader_close(NULL);
    CHECK_EQ(winnow_reader_next(NULL, &rec), WINNOW_E_ARG);

    /* growing structures: a record without its size is refused, one from
     * a newer header gets zeros past what this library fills; options
     * without a size are refused at the open */
    write_str(tmp_path("one.html"), "<p>one page</p>");
    r = open_limited(tmp_path("one.html"), 0);
    CHECK(r != NULL);
    winnow_record unsized;
    memset(&unsized, 0, sizeof unsized);
    CHECK_EQ(winnow_reader_next(r, &unsized), WINNOW_E_ARG);
    struct {
        winnow_record rec;
        unsigned char newer[24];
    } big;
    memset(&big, 0xAB, sizeof big);
    big.rec.struct_size = sizeof big;
    CHECK_EQ(winnow_reader_next(r, &big.rec), WINNOW_OK);
    CHECK_EQ(big.rec.struct_size, sizeof big);
    CHECK_EQ(big.rec.len, 15);
    for (size_t i = 0; i < sizeof big.newer; i++) CHECK_EQ(big.newer[i], 0);
    CHECK_EQ(winnow_reader_next(r, &big.rec), WINNOW_END);
    winnow_reader_close(r);
    winnow_reader_options unsized_opt;
    memset(&unsized_opt, 0, sizeof unsized_opt);
    r = (winnow_reader *)&r;
    CHECK_EQ(winnow_reader_open(tmp_path("one.html"), &unsized_opt, &r, err, sizeof err), WINNOW_E_ARG);
    CHECK(r == NULL);
    CHECK_HAS(err, "struct_size");
    wn_buf_free(&b);
}

/* ---------------------------------------------------------------------- */
/* WARC                                                                    */

static void test_warc_corpus(void)
{
    char path[1024];
    repo_path(path, sizeof path, "../shared/corpus/sites/jedenbod.cz.warc.gz");
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "note: %s not found; corpus check not run\n", path);
        return;
    }
    seen s;
    read_all(path, 0, &s);
    CHECK_EQ(s.end, WINNOW_END);
    CHECK_EQ(s.n, 62); /* sites.tsv */
    CHECK_STR(s.url[0], "http://jedenbod.cz/1029-o-hloup-generaci.html");
    CHECK_STR(s.charset[0], "utf-8");
    CHECK_STR(s.id[0], "00001"); /* record 0 is the warcinfo */
    char want[1100];
    snprintf(want, sizeof want, "%s#319", path); /* the second gzip member starts there */
    CHECK_STR(s.source[0], want);
    CHECK_HAS(s.data[0], "<");
    CHECK_STR(s.last_warning, "");
    CHECK_EQ(skipped_of(path, 0), 0);

    repo_path(path, sizeof path, "../shared/corpus/sites/nodejs-doc.warc.gz");
    read_all(path, 0, &s);
    CHECK_EQ(s.n, 64);
    CHECK_STR(s.url[0], "https://nodejs.org/docs/latest-v18.x/api/modules.html");
}

static const char CHUNK_PAGE[] = "<html><body><p>chunked and gzipped page</p></body></html>";

/* The hand-made WARC: pages interleaved with records to skip. Returns the
 * records one by one in recs[] (offsets into out) for the damage tests. */
static size_t build_warc(wn_buf *out, size_t *starts)
{
    size_t k = 0;
    wn_buf_clear(out);
    starts[k++] = out->len;
    warc_record(out, "warcinfo", NULL, "application/warc-fields", "software: test\r\n", 16, 0);
    starts[k++] = out->len;
    warc_record(out, "request", "http://ex.com/a", "application/http; msgtype=request",
                "GET /a HTTP/1.1\r\nHost: ex.com\r\n\r\n", 33, 0);
    starts[k++] = out->len; /* page 1: quoted charset */
    warc_http(out, "http://ex.com/a",
              "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\nContent-Length: 12\r\n\r\n",
              "<p>page1</p>", 12);
    starts[k++] = out->len; /* not found: skipped */
    warc_http(out, "http://ex.com/missing", "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n", "<p>404</p>",
              10);
    starts[k++] = out->len; /* an image: skipped */
    warc_http(out, "http://ex.com/i.png", "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n", "\x89PNG\r\n", 6);
    starts[k++] = out->len; /* page 2: chunked, then gzip */
    {
        wn_buf gz, body;
        wn_buf_init(&gz);
        wn_buf_init(&body);
        gz_member(&gz, CHUNK_PAGE, strlen(CHUNK_PAGE));
        size_t half = gz.len / 2;
        wn_buf_printf(&body, "%zx;ext=1\r\n", half);
        wn_buf_put(&body, gz.data, half);
        wn_buf_printf(&body, "\r\n%zX\r\n", gz.len - half);
        wn_buf_put(&body, gz.data + half, gz.len - half);
        wn_buf_puts(&body, "\r\n0\r\nX-Trailer: 1\r\n\r\n");
        warc_http(out, "http://ex.com/chunked",
                  "HTTP/1.1 200 OK\r\nContent-Type: text/html;charset=utf-8\r\nTransfer-Encoding: chunked\r\n"
                  "Content-Encoding: gzip\r\n\r\n",
                  body.data, body.len);
        wn_buf_free(&gz);
        wn_buf_free(&body);
    }
    starts[k++] = out->len;
    warc_record(out, "metadata", "http://ex.com/a", "application/warc-fields", "outlink: x\r\n", 12, 0);
    starts[k++] = out->len; /* page 3: a resource record */
    warc_record(out, "resource", "file:///local/page.html", "text/html; charset=windows-1252", "<p>res</p>", 10, 0);
    starts[k++] = out->len; /* a resource that is not HTML: skipped */
    warc_record(out, "resource", "file:///local/a.css", "text/css", "p{}", 3, 0);
    starts[k++] = out->len; /* page 4: LF line ends everywhere, no Content-Type, WARC/1.0 <uri> */
    {
        const char *blk = "HTTP/1.0 203 Non-Authoritative\nServer: x\n\n<p>lf</p>";
        wn_buf_printf(
            out, "WARC/1.0\nWARC-Type: response\nWARC-Target-URI: <http://ex.com/lf>\nContent-Length: %zu\n\n%s\n\n",
            strlen(blk), blk);
    }
    starts[k++] = out->len; /* page 5: XHTML, deflate (zlib-wrapped) */
    {
        wn_buf z, blk;
        wn_buf_init(&z);
        wn_buf_init(&blk);
        deflate_data(&z, "<p>xhtml</p>", 12, 0);
        wn_buf_puts(&blk,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/xhtml+xml\r\nContent-Encoding: deflate\r\n\r\n");
        wn_buf_put(&blk, z.data, z.len);
        warc_record(out, "response", "http://ex.com/x", "application/http;msgtype=response", blk.data, blk.len, 0);
        wn_buf_free(&z);
        wn_buf_free(&blk);
    }
    starts[k++] = out->len; /* revisit: skipped */
    warc_record(out, "revisit", "http://ex.com/a", "application/http", "HTTP/1.1 304 Not Modified\r\n\r\n", 29, 0);
    starts[k++] = out->len; /* page 6 */
    warc_http(out, "http://ex.com/last", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", "<p>last</p>", 11);
    starts[k] = out->len;
    return k;
}

#define PAGES 6
static const char *const PAGE_URLS[PAGES] = { "http://ex.com/a",  "http://ex.com/chunked", "file:///local/page.html",
                                              "http://ex.com/lf", "http://ex.com/x",       "http://ex.com/last" };
static const char *const PAGE_DATA[PAGES] = { "<p>page1</p>", CHUNK_PAGE,     "<p>res</p>",
                                              "<p>lf</p>",    "<p>xhtml</p>", "<p>last</p>" };
static const char *const PAGE_IDS[PAGES] = { "00002", "00005", "00007", "00009", "00010", "00012" };

static void check_pages(const seen *s, const char *label)
{
    CHECK_EQ(s->n, PAGES);
    for (int i = 0; i < PAGES && i < (int)s->n; i++) {
        if (strcmp(s->url[i], PAGE_URLS[i]) || strcmp(s->data[i], PAGE_DATA[i]) || strcmp(s->id[i], PAGE_IDS[i]))
            fprintf(stderr, "%s: page %d differs\n", label, i);
        CHECK_STR(s->url[i], PAGE_URLS[i]);
        CHECK_STR(s->data[i], PAGE_DATA[i]);
        CHECK_STR(s->id[i], PAGE_IDS[i]);
    }
    CHECK_STR(s->charset[0], "ISO-8859-1");
    CHECK_STR(s->charset[1], "utf-8");
    CHECK_STR(s->charset[2], "windows-1252");
    CHECK_STR(s->charset[3], "(null)");
    CHECK_STR(s->charset[4], "(null)");
    CHECK_EQ(s->end, WINNOW_END);
}

static void test_warc_handmade(void)
{
    wn_buf w, gz;
    wn_buf_init(&w);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;

    /* plain */
    write_file(tmp_path("hand.warc"), w.data, w.len);
    read_all(tmp_path("hand.warc"), 0, &s);
    check_pages(&s, "plain");
    for (int i = 0; i < PAGES; i++) CHECK_STR(s.warning[i], "");
    CHECK_STR(s.last_warning, "");
    CHECK_EQ(skipped_of(tmp_path("hand.warc"), 0), 3); /* 404, image, css (a revisit is no page) */
    char want[600];
    snprintf(want, sizeof want, "%s#%zu", tmp_path("hand.warc"), starts[2]);
    CHECK_STR(s.source[0], want);

    /* one gzip member per record: sources give the member offsets */
    size_t member_at[32];
    for (size_t i = 0; i < n; i++) {
        member_at[i] = gz.len;
        gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
    }
    write_file(tmp_path("hand.warc.gz"), gz.data, gz.len);
    read_all(tmp_path("hand.warc.gz"), 0, &s);
    check_pages(&s, "members");
    snprintf(want, sizeof want, "%s#%zu", tmp_path("hand.warc.gz"), member_at[5]);
    CHECK_STR(s.source[1], want);
    CHECK_STR(s.last_warning, "");

    /* one gzip stream over the whole file, named plain .warc: sniffed */
    wn_buf one;
    wn_buf_init(&one);
    gz_member(&one, w.data, w.len);
    write_file(tmp_path("stream.warc"), one.data, one.len);
    read_all(tmp_path("stream.warc"), 0, &s);
    check_pages(&s, "stream");

    /* the record limit skips a page with a warning */
    read_all(tmp_path("hand.warc.gz"), 150, &s);
    CHECK_EQ(s.n, PAGES - 1); /* only the chunked page's block is over 150 bytes */
    CHECK_STR(s.url[1], "file:///local/page.html");
    CHECK_HAS(s.warning[1], "over the 150-byte limit");

    wn_buf_free(&w);
    wn_buf_free(&gz);
    wn_buf_free(&one);
}

/* The same records read from memory: a WARC, its gzip members, JSON lines,
 * one page, nothing; the name stands for the file in the sources. */
/* winnow_reader_take: a file's bytes are handed over, not copied; the
 * reader goes on with a buffer of its own; a WARC record is not a buffer
 * of its own and is not given up. */
static void test_take(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tmp_path("take"));
    mkdir(dir, 0755);
    write_str(tmp_path("take/a.html"), "<p>first page</p>");
    write_str(tmp_path("take/b.html"), "<p>second</p>");
    winnow_reader *r = open_limited(dir, 0);
    winnow_record rec = { sizeof rec };
    size_t len = 99;
    CHECK(winnow_reader_take(r, &len) == NULL); /* no record yet */
    CHECK_EQ(len, 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    char *a = winnow_reader_take(r, &len);
    CHECK(a != NULL);
    CHECK_EQ(len, strlen("<p>first page</p>"));
    CHECK(a && memcmp(a, "<p>first page</p>", len) == 0);
    CHECK(winnow_reader_take(r, &len) == NULL); /* taken already */
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_EQ(rec.len, strlen("<p>second</p>"));
    CHECK(memcmp(rec.data, "<p>second</p>", rec.len) == 0);
    CHECK(a && memcmp(a, "<p>first page</p>", strlen("<p>first page</p>")) == 0); /* still the caller's */
    free(a);
    char *b = winnow_reader_take(r, &len);
    CHECK(b && len == strlen("<p>second</p>") && memcmp(b, "<p>second</p>", len) == 0);
    free(b);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    winnow_reader_close(r);

    wn_buf w;
    wn_buf_init(&w);
    size_t starts[32];
    build_warc(&w, starts);
    char err[600];
    r = NULL;
    CHECK_EQ(winnow_reader_open_memory(w.data, w.len, "crawl.warc", NULL, &r, err, sizeof err), WINNOW_OK);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK(winnow_reader_take(r, &len) == NULL);
    CHECK_EQ(len, 0);
    winnow_reader_close(r);
    wn_buf_free(&w);
}

static void test_memory(void)
{
    wn_buf w, gz;
    wn_buf_init(&w);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    for (size_t i = 0; i < n; i++) gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
    seen s;
    char err[600];
    winnow_reader *r = NULL;
    CHECK_EQ(winnow_reader_open_memory(w.data, w.len, "crawl.warc", NULL, &r, err, sizeof err), WINNOW_OK);
    read_reader(r, &s);
    check_pages(&s, "memory");
    char want[100];
    snprintf(want, sizeof want, "crawl.warc#%zu", starts[2]);
    CHECK_STR(s.source[0], want);
    /* gzip members, no name: sniffed */
    r = NULL;
    CHECK_EQ(winnow_reader_open_memory(gz.data, gz.len, NULL, NULL, &r, err, sizeof err), WINNOW_OK);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_WARC);
    read_reader(r, &s);
    check_pages(&s, "memory members");
    CHECK(strncmp(s.source[0], "<memory>#", 9) == 0);

    static const char lines[] = "{\"url\": \"http://ex.com/1\", \"html\": \"<p>one</p>\"}\n"
                                "{\"url\": \"http://ex.com/2\", \"html\": \"<p>two</p>\"}\n";
    r = NULL;
    CHECK_EQ(winnow_reader_open_memory(lines, sizeof lines - 1, "pages.jsonl", NULL, &r, err, sizeof err), WINNOW_OK);
    read_reader(r, &s);
    CHECK_EQ(s.n, 2);
    CHECK_STR(s.url[1], "http://ex.com/2");
    CHECK_STR(s.data[0], "<p>one</p>");
    CHECK_EQ(s.end, WINNOW_END);

    static const char page[] = "<html><body><p>a page in memory</p></body></html>";
    r = NULL;
    CHECK_EQ(winnow_reader_open_memory(page, sizeof page - 1, NULL, NULL, &r, err, sizeof err), WINNOW_OK);
    read_reader(r, &s);
    CHECK_EQ(s.n, 1);
    CHECK_STR(s.data[0], page);

    /* nothing: a file of no bytes reads the same (no page, or an error
     * for a WARC) */
    r = NULL;
    winnow_status st = winnow_reader_open_memory("", 0, "x.warc", NULL, &r, err, sizeof err);
    write_str(tmp_path("empty.warc"), "");
    winnow_reader *f = NULL;
    winnow_status fst = winnow_reader_open(tmp_path("empty.warc"), NULL, &f, NULL, 0);
    CHECK_EQ(st, fst);
    winnow_reader_close(r);
    winnow_reader_close(f);
    r = NULL;
    CHECK_EQ(winnow_reader_open_memory(NULL, 10, NULL, NULL, &r, err, sizeof err), WINNOW_E_ARG);
    CHECK(r == NULL);
    CHECK_EQ(winnow_reader_open_memory(page, 10, NULL, NULL, NULL, err, sizeof err), WINNOW_E_ARG);
    wn_buf_free(&w);
    wn_buf_free(&gz);
}

/* A file cut short: the pages before, then a warning and the end. */
static void test_warc_truncated(void)
{
    wn_buf w, d, gz;
    wn_buf_init(&w);
    wn_buf_init(&d);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;
    (void)n;

    /* the last record cut in the middle: the other pages, a warning, the end */
    write_file(tmp_path("cut.warc"), w.data, starts[n] - 10);
    read_all(tmp_path("cut.warc"), 0, &s);
    CHECK_EQ(s.n, PAGES - 1);
    CHECK_EQ(s.end, WINNOW_END);
    CHECK_HAS(s.last_warning, "cut short");
    CHECK_HAS(s.last_warning, "truncated");
    CHECK_EQ(skipped_of(tmp_path("cut.warc"), 0), 4);

    /* cut inside a header */
    write_file(tmp_path("cuthead.warc"), w.data, starts[n - 1] + 20);
    read_all(tmp_path("cuthead.warc"), 0, &s);
    CHECK_EQ(s.n, PAGES - 1);
    CHECK_HAS(s.last_warning, "truncated");

    /* gzip per record, the last member cut */
    for (size_t i = 0; i < n; i++) gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
    write_file(tmp_path("cut.warc.gz"), gz.data, gz.len - 30);
    read_all(tmp_path("cut.warc.gz"), 0, &s);
    CHECK_EQ(s.n, PAGES - 1);
    CHECK_EQ(s.end, WINNOW_END);
    CHECK_HAS(s.last_warning, "truncated");

    wn_buf_free(&w);
    wn_buf_free(&d);
    wn_buf_free(&gz);
}

/* Junk between records (plain) and between gzip members: skipped, with a warning. */
static void test_warc_junk(void)
{
    wn_buf w, d, gz;
    wn_buf_init(&w);
    wn_buf_init(&d);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;
    (void)n;

    /* junk between records: every page, a warning with the page after it */
    wn_buf_clear(&d);
    wn_buf_put(&d, w.data, starts[5]);
    wn_buf_puts(&d, "this is junk\r\n\x01\x02 binary junk without a line end");
    wn_buf_puts(&d, "\nmore junk\r\n");
    wn_buf_put(&d, w.data + starts[5], w.len - starts[5]);
    wn_buf_puts(&d, "trailing junk\n");
    write_file(tmp_path("junk.warc"), d.data, d.len);
    read_all(tmp_path("junk.warc"), 0, &s);
    CHECK_EQ(s.n, PAGES);
    CHECK_STR(s.url[1], "http://ex.com/chunked");
    CHECK_HAS(s.warning[1], "unparseable data before offset");
    CHECK_STR(s.warning[2], "");
    CHECK_HAS(s.last_warning, "unparseable data at the end");

    /* junk between gzip members: skipped with a warning */
    for (size_t i = 0; i < n; i++) {
        if (i == 5) wn_buf_puts(&gz, "junk between members\n");
        gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
    }
    wn_buf_put(&gz, "\0\0\0\0", 4); /* zero padding at the end */
    write_file(tmp_path("junk.warc.gz"), gz.data, gz.len);
    read_all(tmp_path("junk.warc.gz"), 0, &s);
    CHECK_EQ(s.n, PAGES);
    CHECK_STR(s.id[1], "00005");
    CHECK_HAS(s.warning[1], "21 bytes of non-gzip data at offset");
    CHECK_HAS(s.last_warning, "4 bytes of non-gzip data at the end");

    wn_buf_free(&w);
    wn_buf_free(&d);
    wn_buf_free(&gz);
}

/* A Content-Length that does not match: that record only is lost. */
static void test_warc_bad_length(void)
{
    wn_buf w, d, gz;
    wn_buf_init(&w);
    wn_buf_init(&d);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;
    (void)n;

    /* a Content-Length too long swallows the next record: only the damaged
     * one is lost, the swallowed one is read again */
    {
        wn_buf_clear(&d);
        wn_buf_put(&d, w.data, starts[2]);
        const char *head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>broken</p>";
        wn_buf_printf(&d,
                      "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://ex.com/long\r\n"
                      "Content-Length: %zu\r\n\r\n%s\r\n\r\n",
                      strlen(head) + 120, head);
        wn_buf_put(&d, w.data + starts[2], w.len - starts[2]);
        write_file(tmp_path("long.warc"), d.data, d.len);
        read_all(tmp_path("long.warc"), 0, &s);
        CHECK_EQ(s.n, PAGES);
        CHECK_STR(s.url[0], "http://ex.com/a");
        CHECK_HAS(s.warning[0], "does not match its Content-Length");
        CHECK_EQ(skipped_of(tmp_path("long.warc"), 0), 4);
    }
    /* a Content-Length too short */
    {
        wn_buf_clear(&d);
        wn_buf_put(&d, w.data, starts[2]);
        const char *head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>broken</p>\r\n<p>more</p>";
        wn_buf_printf(&d, "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: %zu\r\n\r\n%s\r\n\r\n", strlen(head) - 15,
                      head);
        wn_buf_put(&d, w.data + starts[2], w.len - starts[2]);
        write_file(tmp_path("short.warc"), d.data, d.len);
        read_all(tmp_path("short.warc"), 0, &s);
        CHECK_EQ(s.n, PAGES);
        CHECK_HAS(s.warning[0], "does not match its Content-Length");
    }
    wn_buf_free(&w);
    wn_buf_free(&d);
    wn_buf_free(&gz);
}

/* Corrupt gzip members in the middle: the record is skipped, ids stay. */
static void test_warc_corrupt_gzip(void)
{
    wn_buf w, d, gz;
    wn_buf_init(&w);
    wn_buf_init(&d);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;
    (void)n;

    /* a corrupt gzip member in the middle: that record is skipped */
    {
        wn_buf_clear(&gz);
        size_t bad_at = 0, bad_len = 0;
        for (size_t i = 0; i < n; i++) {
            if (i == 2) bad_at = gz.len;
            gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
            if (i == 2) bad_len = gz.len - bad_at;
        }
        for (size_t i = bad_at + 20; i < bad_at + bad_len - 10; i++) gz.data[i] ^= 0x5A;
        write_file(tmp_path("corrupt.warc.gz"), gz.data, gz.len);
        read_all(tmp_path("corrupt.warc.gz"), 0, &s);
        CHECK_EQ(s.n, PAGES - 1);
        CHECK_STR(s.url[0], "http://ex.com/chunked");
        CHECK_STR(s.id[0], "00005"); /* the lost record still counts */
        CHECK_HAS(s.warning[0], "corrupt gzip data");
        CHECK_EQ(s.end, WINNOW_END);
        CHECK_EQ(skipped_of(tmp_path("corrupt.warc.gz"), 0), 4);

        /* a bad checksum in the trailer of the first page's member */
        wn_buf_clear(&gz);
        for (size_t i = 0; i < n; i++) {
            gz_member(&gz, w.data + starts[i], starts[i + 1] - starts[i]);
            if (i == 2) gz.data[gz.len - 6] ^= 0x01; /* CRC32 sits in the last 8 bytes but 4 */
        }
        write_file(tmp_path("crc.warc.gz"), gz.data, gz.len);
        read_all(tmp_path("crc.warc.gz"), 0, &s);
        CHECK_EQ(s.n, PAGES - 1);
        CHECK_STR(s.url[0], "http://ex.com/chunked");
        CHECK_STR(s.id[0], "00005");
        CHECK_HAS(s.warning[0], "#327: record damaged (corrupt gzip data at the end of its member)");
        CHECK_EQ(skipped_of(tmp_path("crc.warc.gz"), 0), 4);

        /* a member cut short in the middle of the file */
        wn_buf_clear(&d);
        wn_buf_put(&d, gz.data, bad_at); /* intact members before */
        wn_buf c;
        wn_buf_init(&c);
        gz_member(&c, w.data + starts[2], starts[3] - starts[2]);
        wn_buf_put(&d, c.data, c.len / 2);
        size_t rest_at = bad_at + bad_len;
        wn_buf_put(&d, gz.data + rest_at, gz.len - rest_at);
        write_file(tmp_path("midcut.warc.gz"), d.data, d.len);
        read_all(tmp_path("midcut.warc.gz"), 0, &s);
        CHECK_EQ(s.n, PAGES - 1);
        CHECK_STR(s.url[0], "http://ex.com/chunked");
        CHECK_STR(s.id[0], "00005");
        CHECK_HAS(s.warning[0], "corrupt gzip data");
        wn_buf_free(&c);
    }
    wn_buf_free(&w);
    wn_buf_free(&d);
    wn_buf_free(&gz);
}

/* HTTP payload codings that cannot be undone: skipped with a warning. */
static void test_warc_codings(void)
{
    wn_buf w, d, gz;
    wn_buf_init(&w);
    wn_buf_init(&d);
    wn_buf_init(&gz);
    size_t starts[32];
    size_t n = build_warc(&w, starts);
    seen s;
    (void)n;

    /* payload decoding: failures are skipped with a warning */
    {
        wn_buf_clear(&d);
        /* stored decoded with the headers kept: used as it is */
        warc_http(&d, "http://ex.com/stale",
                  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: "
                  "chunked\r\n\r\n",
                  "<p>stale</p>", 12);
        const char bad_gzip[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbagegarbage";
        wn_buf blk;
        wn_buf_init(&blk);
        wn_buf_puts(&blk, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n");
        wn_buf_put(&blk, bad_gzip, sizeof bad_gzip - 1);
        warc_record(&d, "response", "http://ex.com/badgz", NULL, blk.data, blk.len, 0);
        /* raw deflate, a folded header line, no Content-Type */
        wn_buf_clear(&blk);
        wn_buf_puts(&blk, "HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\nContent-Encoding: deflate\r\n\r\n");
        deflate_data(&blk, "<p>raw</p>", 10, 1);
        warc_record(&d, "response", "http://ex.com/raw", NULL, blk.data, blk.len, 0);
        warc_http(&d, "http://ex.com/br", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\n",
                  "\x0b\x02\x80", 3);
        warc_http(&d, "http://ex.com/ok", "HTTP/1.1 200 OK\r\n\r\n", "<p>ok</p>", 9);
        warc_http(&d, "http://ex.com/nohead", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n", "", 0);
        write_file(tmp_path("codings.warc"), d.data, d.len);
        read_all(tmp_path("codings.warc"), 0, &s);
        CHECK_EQ(s.n, 3);
        CHECK_STR(s.url[0], "http://ex.com/stale");
        CHECK_STR(s.data[0], "<p>stale</p>");
        CHECK_HAS(s.warning[0], "not gzip data; used as it is");
        CHECK_STR(s.url[1], "http://ex.com/raw");
        CHECK_STR(s.data[1], "<p>raw</p>");
        CHECK_HAS(s.warning[1], "cannot decode Content-Encoding: gzip");
        CHECK_STR(s.data[2], "<p>ok</p>");
        CHECK_HAS(s.warning[2], "unsupported Content-Encoding \"br\"");
        CHECK_HAS(s.last_warning, "closing blank line");
        CHECK_EQ(skipped_of(tmp_path("codings.warc"), 0), 3);
        wn_buf_free(&blk);
    }
    wn_buf_free(&w);
    wn_buf_free(&d);
    wn_buf_free(&gz);
}

/* The checked-in sample WARC and JSONL (also handy for CLI tests). */
static void test_fixtures(void)
{
    char path[1024];
    repo_path(path, sizeof path, "tests/data/readers/mini.warc");
    seen s;
    read_all(path, 0, &s);
    CHECK_EQ(s.n, 2);
    CHECK_STR(s.url[0], "http://example.org/");
    CHECK_STR(s.charset[0], "utf-8");
    CHECK_HAS(s.data[0], "<title>Example</title>");
    CHECK_STR(s.url[1], "http://example.org/about");
    CHECK_EQ(skipped_of(path, 0), 1);

    repo_path(path, sizeof path, "tests/data/readers/mini.jsonl");
    read_all(path, 0, &s);
    CHECK_EQ(s.n, 2);
    CHECK_STR(s.url[0], "http://example.org/");
    CHECK_HAS(s.data[0], "caf\xC3\xA9");
    CHECK_STR(s.id[1], "00002");
}

/* ---------------------------------------------------------------------- */
/* JSONL                                                                   */

static void test_jsonl(void)
{
    const char *lines[] = {
        /* 1: every escape, a surrogate pair, a charset */
        "{\"url\":\"http:\\/\\/ex.com\\/1\",\"html\":\"<p>a\\nb \\\"q\\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 \\t</p>\","
        "\"charset\":\"utf-8\"}",
        /* 2: nested members to skip (with quotes and brackets in strings); "content" */
        "  { \"meta\": {\"a\": [1, -2.5e3, {\"x\": \"a \\\" } ] {\"}], \"y\": null, \"z\": [[], {}]}, "
        "\"ok\": true, \"content\": \"<p>c</p>\", \"url\": \"u2\" }  ",
        /* 3: "body", url null */
        "{\"body\":\"<b>\",\"url\":null}",
        /* 4: "html" wins over "content" whatever the order */
        "{\"content\":\"no\",\"html\":\"<p>html</p>\",\"body\":\"no\"}",
        /* 5: blank */
        "   ",
        /* 6: unterminated string */
        "{\"html\": \"unterminated",
        /* 7: not an object */
        "[1, 2]",
        /* 8: no page field */
        "{\"url\":\"x\",\"html\":5}",
        /* 9: invalid escapes and lone surrogates */
        "{\"html\":\"a\\x\\ud800b\\udc00c\\ud83dd\\u12g4\\\xC3\xA9z\"}",
        /* 10: text after the object */
        "{\"html\":\"x\"} {\"html\":\"y\"}",
        /* 11: escaped key, an escaped NUL in a value */
        "{\"h\\u0074ml\":\"k\\u0000k\"}",
        /* 12: missing comma */
        "{\"html\":\"x\" \"url\":\"y\"}",
    };
    wn_buf f;
    wn_buf_init(&f);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        wn_buf_puts(&f, lines[i]);
        wn_buf_puts(&f, i % 2 ? "\r\n" : "\n");
    }
    /* 13: too deeply nested */
    wn_buf_puts(&f, "{\"x\":");
    for (int i = 0; i < 300; i++) wn_buf_putc(&f, '[');
    for (int i = 0; i < 300; i++) wn_buf_putc(&f, ']');
    wn_buf_puts(&f, ",\"html\":\"deep\"}\n");
    /* 14: a 3 MB line, escapes all through it; no final newline */
    wn_buf_puts(&f, "{\"url\":\"big\",\"html\":\"");
    for (int i = 0; i < 300000; i++) wn_buf_puts(&f, "<p>\\\"x\\\"</p>");
    wn_buf_puts(&f, "\"}");
    CHECK(f.len > 3000000);
    write_file(tmp_path("pages.jsonl"), f.data, f.len);

    static const char *const urls[] = { "http://ex.com/1", "u2", "(null)", "(null)", "(null)", "(null)", "big" };
    static const char *const ids[] = { "00001", "00002", "00003", "00004", "00009", "00011", "00014" };
    for (int pass = 0; pass < 2; pass++) {
        const char *path = tmp_path("pages.jsonl");
        if (pass == 1) { /* the same, gzipped, named .ndjson.gz */
            wn_buf gz;
            wn_buf_init(&gz);
            gz_member(&gz, f.data, f.len);
            path = tmp_path("pages.ndjson.gz");
            write_file(path, gz.data, gz.len);
            wn_buf_free(&gz);
        }
        winnow_reader *r = open_limited(path, 0);
        CHECK_STR(winnow_reader_error(r), "");
        winnow_record rec = { sizeof rec };
        for (int i = 0; i < 7; i++) {
            CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
            CHECK_STR(rec.url ? rec.url : "(null)", urls[i]);
            CHECK_STR(rec.id, ids[i]);
            char src[600];
            snprintf(src, sizeof src, "%s:%d", path, atoi(ids[i]));
            CHECK_STR(rec.source, src);
            if (i == 0) {
                const char want[] = "<p>a\nb \"q\" \\ / \xC3\xA9 \xF0\x9F\x98\x80 \t</p>";
                CHECK_EQ(rec.len, sizeof want - 1);
                CHECK(memcmp(rec.data, want, rec.len) == 0);
                CHECK_STR(rec.charset, "utf-8");
            }
            if (i == 1) CHECK(rec.len == 8 && memcmp(rec.data, "<p>c</p>", 8) == 0);
            if (i == 2) CHECK(rec.len == 3 && memcmp(rec.data, "<b>", 3) == 0);
            if (i == 3) CHECK(rec.len == 11 && memcmp(rec.data, "<p>html</p>", 11) == 0);
            if (i == 4) {
                /* \x -> FFFD, \ud800 alone -> FFFD, \udc00 alone -> FFFD, \ud83d then "d" -> FFFD d,
                   \u12g4 -> FFFD "12g4", backslash + é -> FFFD */
                const char want[] = "a\xEF\xBF\xBD\xEF\xBF\xBD"
                                    "b\xEF\xBF\xBD"
                                    "c\xEF\xBF\xBD"
                                    "d\xEF\xBF\xBD"
                                    "12g4\xEF\xBF\xBDz";
                CHECK_EQ(rec.len, sizeof want - 1);
                CHECK(memcmp(rec.data, want, rec.len) == 0);
                /* the skipped lines before: 6 unterminated, 7 not an object, 8 no page */
                CHECK_EQ(winnow_reader_skipped(r), 3);
                CHECK_HAS(winnow_reader_warning(r), ":8: no \"html\"");
            }
            if (i == 5) {
                CHECK(rec.len == 3 && memcmp(rec.data, "k\0k", 3) == 0);
                CHECK_HAS(winnow_reader_warning(r), ":10: malformed JSON (text after the object)");
            }
            if (i == 6) {
                CHECK_EQ(rec.len, 300000u * 10);
                CHECK(memcmp(rec.data, "<p>\"x\"</p><p>\"x\"</p>", 20) == 0);
                CHECK_HAS(winnow_reader_warning(r), ":13: malformed JSON");
                CHECK_EQ(winnow_reader_skipped(r), 6);
            }
        }
        CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
        CHECK_EQ(winnow_reader_skipped(r), 6);
        winnow_reader_close(r);
    }

    /* lines over the limit are skipped without being stored: max 1000 bytes
       allows lines up to 2 * 1000 + 1 MiB, the big one is over it */
    winnow_reader *r = open_limited(tmp_path("pages.jsonl"), 1000);
    winnow_record rec = { sizeof rec };
    int pages = 0;
    while (winnow_reader_next(r, &rec) == WINNOW_OK) pages++;
    CHECK_EQ(pages, 6);
    CHECK_EQ(winnow_reader_skipped(r), 7);
    CHECK_HAS(winnow_reader_warning(r), ":14: line of");
    winnow_reader_close(r);

    wn_buf_free(&f);
}

/* ---------------------------------------------------------------------- */
/* where each page came from: file, record number, WARC-Record-ID          */

static void test_provenance(void)
{
    static const char page[] = "<p>page</p>";
    wn_buf w;
    wn_buf_init(&w);
    /* record 0: warcinfo; 1: a page; 2: a request (no page); 3: a page
     * whose Record-ID is padded with blanks; 4: a page without one */
    wn_buf_puts(&w, "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:info>\r\n"
                    "Content-Length: 0\r\n\r\n\r\n\r\n");
    warc_record(&w, "resource", "http://ex.com/1", "text/html", page, strlen(page), 0);
    warc_record(&w, "request", "http://ex.com/3", "application/http", "GET / HTTP/1.1\r\n\r\n", 18, 0);
    wn_buf_printf(
        &w,
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID:   <urn:uuid:three>  \r\n"
        "WARC-Target-URI: http://ex.com/3\r\nContent-Type: text/html\r\nContent-Length: %zu\r\n\r\n%s\r\n\r\n",
        strlen(page), page);
    wn_buf_printf(&w,
                  "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://ex.com/4\r\n"
                  "Content-Type: text/html\r\nContent-Length: %zu\r\n\r\n%s\r\n\r\n",
                  strlen(page), page);
    const char *path = tmp_path("prov.warc");
    write_file(path, w.data, w.len);
    winnow_reader *r = open_limited(path, 0);
    winnow_record rec = { sizeof rec };
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.file, path);
    CHECK_EQ(rec.number, 1);
    CHECK_STR(rec.id, "00001");
    CHECK(rec.record_id && !strncmp(rec.record_id, "<urn:uuid:00000000-0000-0000-0000-", 34));
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_EQ(rec.number, 3);
    CHECK_STR(rec.id, "00003");
    CHECK_STR(rec.record_id, "<urn:uuid:three>");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_EQ(rec.number, 4);
    CHECK(rec.record_id == NULL); /* not the previous record's */
    CHECK_STR(rec.url, "http://ex.com/4");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    winnow_reader_close(r);

    /* JSONL: the line number, no record id */
    const char *jl = tmp_path("prov.jsonl");
    write_str(jl, "{\"html\":\"a\"}\n\n{\"html\":\"b\"}\n");
    r = open_limited(jl, 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.file, jl);
    CHECK_EQ(rec.number, 1);
    CHECK(rec.record_id == NULL);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_EQ(rec.number, 3);
    winnow_reader_close(r);

    /* whole files: the file itself (a directory's entry), no number */
    mkdir(tmp_path("prov"), 0755);
    const char *entry = tmp_path("prov/one.html");
    write_str(entry, page);
    r = open_limited(tmp_path("prov"), 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.file, entry);
    CHECK_EQ(rec.number, -1);
    CHECK(rec.record_id == NULL);
    winnow_reader_close(r);
    r = open_limited(entry, 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.file, entry);
    CHECK_EQ(rec.number, -1);
    winnow_reader_close(r);
    wn_buf_free(&w);
}

/* ---------------------------------------------------------------------- */
/* formats told by the first bytes, gzip-compressed pages, recursion       */

static void test_sniffing(void)
{
    static const char page[] = "<html><body><p>sniffed page</p></body></html>";
    wn_buf w, z;
    wn_buf_init(&w);
    wn_buf_init(&z);
    warc_record(&w, "resource", "http://ex.com/s", "text/html", page, strlen(page), 0);

    /* a WARC file without the name: told by "WARC/", plain or gzip */
    char plain[600]; /* tmp_path's result does not last */
    snprintf(plain, sizeof plain, "%s", tmp_path("crawl-dump"));
    write_file(plain, w.data, w.len);
    winnow_reader *r = open_limited(plain, 0);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_WARC);
    winnow_record rec = { sizeof rec };
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.url, "http://ex.com/s");
    CHECK_EQ(rec.number, 0);
    winnow_reader_close(r);
    gz_member(&z, w.data, w.len);
    const char *gz = tmp_path("crawl-dump.gz");
    write_file(gz, z.data, z.len);
    r = open_limited(gz, 0);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_WARC);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.url, "http://ex.com/s");
    winnow_reader_close(r);

    /* JSON lines: '{' after a BOM and blanks */
    const char *jl = tmp_path("pages.txt");
    write_str(jl, "\xEF\xBB\xBF  \n{\"url\":\"http://ex.com/j\",\"html\":\"<p>j</p>\"}\n");
    r = open_limited(jl, 0);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_JSONL);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.url, "http://ex.com/j");
    CHECK(rec.len == 8 && !memcmp(rec.data, "<p>j</p>", 8));
    CHECK_EQ(rec.number, 2);
    winnow_reader_close(r);

    /* anything else is one page; a gzip-compressed page is undone */
    wn_buf_clear(&z);
    gz_member(&z, page, strlen(page));
    char hgz[600];
    snprintf(hgz, sizeof hgz, "%s", tmp_path("story.html.gz"));
    write_file(hgz, z.data, z.len);
    r = open_limited(hgz, 0);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_HTML);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK(rec.len == strlen(page) && !memcmp(rec.data, page, rec.len));
    CHECK_STR(rec.id, "story");
    CHECK_STR(rec.file, hgz);
    CHECK_STR(winnow_reader_warning(r), "");
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    winnow_reader_close(r);
    const char *noext = tmp_path("story-gz");
    write_file(noext, z.data, z.len);
    seen s;
    read_all(noext, 0, &s);
    CHECK_EQ(s.n, 1);
    CHECK_STR(s.data[0], page);

    /* the name wins over the bytes: x.html holding a WARC is one page */
    char named[600];
    snprintf(named, sizeof named, "%s", tmp_path("warc-inside.html"));
    write_file(named, w.data, w.len);
    r = open_limited(named, 0);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_HTML);
    winnow_reader_close(r);
    /* and the caller's word wins over both */
    winnow_reader_options o = { sizeof o, 0, WINNOW_INPUT_WARC, 0 };
    r = open_opts(named, &o);
    CHECK_EQ(winnow_reader_format(r), WINNOW_INPUT_WARC);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_STR(rec.url, "http://ex.com/s");
    winnow_reader_close(r);
    o.format = WINNOW_INPUT_HTML;
    r = open_opts(plain, &o);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_EQ(rec.len, w.len);
    winnow_reader_close(r);
    o.format = WINNOW_INPUT_JSONL;
    r = open_opts(plain, &o); /* not JSON: every line skipped with a warning */
    while (winnow_reader_next(r, &rec) == WINNOW_OK) CHECK(0);
    CHECK(winnow_reader_skipped(r) > 0);
    winnow_reader_close(r);

    /* a page too large once decompressed: skipped and counted as too large */
    r = open_limited(hgz, 20);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "over the 20-byte limit once decompressed");
    CHECK_EQ(winnow_reader_skipped(r), 1);
    CHECK_EQ(winnow_reader_too_large(r), 1);
    winnow_reader_close(r);

    /* gzip cut short: what was decompressed, with a warning */
    const char *cut = tmp_path("cut.html.gz");
    write_file(cut, z.data, z.len - 12);
    r = open_limited(cut, 0);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
    CHECK_HAS(winnow_reader_warning(r), "truncated");
    winnow_reader_close(r);

    /* progress: bytes read of the file's size */
    unsigned long long done = 1, total = 0;
    r = open_limited(plain, 0);
    CHECK_EQ(winnow_reader_progress(r, &done, &total), 1);
    CHECK_EQ(total, w.len);
    while (winnow_reader_next(r, &rec) == WINNOW_OK) {}
    winnow_reader_progress(r, &done, &total);
    CHECK_EQ(done, w.len);
    winnow_reader_close(r);
    wn_buf_free(&w);
    wn_buf_free(&z);
}

static void test_recursive(void)
{
    mkdir(tmp_path("tree"), 0755);
    mkdir(tmp_path("tree/b"), 0755);
    mkdir(tmp_path("tree/b/c"), 0755);
    mkdir(tmp_path("tree/empty"), 0755);
    write_str(tmp_path("tree/a.html"), "<p>a</p>");
    write_str(tmp_path("tree/b.html"), "<p>b top</p>");
    write_str(tmp_path("tree/b/x.htm"), "<p>b/x</p>");
    write_str(tmp_path("tree/b/c/y.html"), "<p>b/c/y</p>");
    write_str(tmp_path("tree/b/notes.txt"), "not a page");
    wn_buf z;
    wn_buf_init(&z);
    gz_member(&z, "<p>b/z</p>", 10);
    write_file(tmp_path("tree/b/z.html.gz"), z.data, z.len);
    wn_buf_free(&z);
    /* a link to a directory is not followed (tree/loop -> tree) */
    char target[600];
    snprintf(target, sizeof target, "%s", tmp_path("tree"));
    CHECK_EQ(symlink(target, tmp_path("tree/b/loop")), 0);

    /* not recursive: the top directory's pages only, the .gz one too */
    seen s;
    read_all(tmp_path("tree"), 0, &s);
    CHECK_EQ(s.n, 2);
    read_all(tmp_path("tree/b"), 0, &s);
    CHECK_EQ(s.n, 2);
    CHECK_STR(s.id[1], "z");
    CHECK_STR(s.data[1], "<p>b/z</p>");

    winnow_reader_options o = { sizeof o, 0, WINNOW_INPUT_AUTO, 1 };
    winnow_reader *r = open_opts(tmp_path("tree"), &o);
    CHECK_STR(winnow_reader_error(r), "");
    /* sorted by path below the directory, in byte order ('.' < '/') */
    static const char *const ids[] = { "a", "b", "b/c/y", "b/x", "b/z" };
    static const char *const texts[] = { "<p>a</p>", "<p>b top</p>", "<p>b/c/y</p>", "<p>b/x</p>", "<p>b/z</p>" };
    winnow_record rec = { sizeof rec };
    unsigned long long done, total;
    CHECK_EQ(winnow_reader_progress(r, &done, &total), 1);
    CHECK_EQ(done, 0);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_OK);
        CHECK_STR(rec.id, ids[i]);
        CHECK(rec.len == strlen(texts[i]) && !memcmp(rec.data, texts[i], rec.len));
    }
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_EQ(winnow_reader_skipped(r), 0);
    winnow_reader_progress(r, &done, &total);
    CHECK(total > 0 && done == total);
    winnow_reader_close(r);

    /* an unreadable subdirectory is skipped with a warning where it sorts
     * (as root every directory can be read: not checked then) */
    if (geteuid() != 0) {
        chmod(tmp_path("tree/b/c"), 0);
        r = open_opts(tmp_path("tree"), &o);
        int pages = 0;
        while (winnow_reader_next(r, &rec) == WINNOW_OK) pages++;
        CHECK_EQ(pages, 4);
        CHECK_EQ(winnow_reader_skipped(r), 1);
        winnow_reader_close(r);
        chmod(tmp_path("tree/b/c"), 0755);
    }
    /* no pages anywhere below: a warning that says so */
    r = open_opts(tmp_path("tree/empty"), &o);
    CHECK_EQ(winnow_reader_next(r, &rec), WINNOW_END);
    CHECK_HAS(winnow_reader_warning(r), "or below");
    winnow_reader_close(r);
}

/* winnow_reader_options.damaged (issue 29): every record accounted for. A
 * bad JSONL line and a WARC record cut by the end of the file come out as
 * records with an error and no data; without the option they are skipped
 * as before. */
static void test_damaged(void)
{
    static const char jsonl[] = "{\"url\":\"u1\",\"html\":\"<p>one</p>\"}\n"
                                "not json at all\n"
                                "{\"url\":\"u3\",\"title\":\"no page\"}\n"
                                "{\"url\":\"u4\",\"html\":\"<p>four</p>\"}\n";
    winnow_reader_options o;
    winnow_reader_options_default(&o, sizeof o);
    CHECK_EQ(o.damaged, 0);
    char err[600];
    for (int damaged = 0; damaged <= 1; damaged++) {
        o.damaged = damaged;
        winnow_reader *r = NULL;
        CHECK_EQ(winnow_reader_open_memory(jsonl, strlen(jsonl), "p.jsonl", &o, &r, err, sizeof err), WINNOW_OK);
        long long numbers[8];
        int errors[8], n = 0;
        winnow_record rec = { sizeof rec };
        while (n < 8 && winnow_reader_next(r, &rec) == WINNOW_OK) {
            numbers[n] = rec.number;
            errors[n++] = rec.error != NULL;
            if (rec.error) CHECK_EQ(rec.len, 0);
        }
        if (damaged) {
            CHECK_EQ(n, 4);
            CHECK(n == 4 && numbers[1] == 2 && errors[1] && numbers[2] == 3 && errors[2] && !errors[0] && !errors[3]);
        } else {
            CHECK_EQ(n, 2);
            CHECK(n == 2 && numbers[0] == 1 && numbers[1] == 4 && !errors[0] && !errors[1]);
        }
        winnow_reader_close(r);
    }
    /* a WARC cut inside its last record */
    wn_buf w;
    wn_buf_init(&w);
    size_t starts[32];
    build_warc(&w, starts);
    o.damaged = 1;
    winnow_reader *r = NULL;
    CHECK_EQ(winnow_reader_open_memory(w.data, w.len - 40, "cut.warc", &o, &r, err, sizeof err), WINNOW_OK);
    winnow_record rec = { sizeof rec };
    int pages = 0, cut = 0;
    while (winnow_reader_next(r, &rec) == WINNOW_OK) {
        if (rec.error) {
            cut++;
            CHECK(strstr(rec.error, "truncated") != NULL);
        } else {
            pages++;
        }
    }
    CHECK_EQ(cut, 1);
    CHECK(pages > 0);
    winnow_reader_close(r);
    wn_buf_free(&w);
}

int main(void)
{
    snprintf(tmp_root, sizeof tmp_root, "%s/winnow-reader-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp_root)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_directory);
    RUN(test_single_file);
    RUN(test_errors);
    RUN(test_warc_corpus);
    RUN(test_warc_handmade);
    RUN(test_memory);
    RUN(test_take);
    RUN(test_warc_truncated);
    RUN(test_warc_junk);
    RUN(test_warc_bad_length);
    RUN(test_warc_corrupt_gzip);
    RUN(test_warc_codings);
    RUN(test_fixtures);
    RUN(test_jsonl);
    RUN(test_provenance);
    RUN(test_sniffing);
    RUN(test_recursive);
    RUN(test_damaged);
    nftw(tmp_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return CHECK_DONE();
}
