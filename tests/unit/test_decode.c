/* Stage 1, bytes -> UTF-8: byte-order marks, declarations (caller, <meta>,
 * XML), validation that overrules a lying declaration, detection of
 * undeclared legacy bytes, repair of invalid input and refusal of binary
 * data. Legacy byte strings are written out as escapes so the test does not
 * depend on the encoding of this source file. */
#include <stdint.h>

#include "check.h"
#include "decode/decode.h"

typedef struct decoded {
    wn_decode_status status;
    wn_decode_info info;
    char err[256];
    wn_buf out;
    const char *text; /* NUL-terminated view of out */
} decoded;

static void decode_n(decoded *d, const void *bytes, size_t n, const char *caller_charset)
{
    memset(d, 0, sizeof *d);
    wn_buf_init(&d->out);
    d->status = wn_decode(bytes, n, caller_charset, &d->out, &d->info, d->err, sizeof d->err);
    d->text = wn_buf_cstr(&d->out);
}

static void decode_s(decoded *d, const char *s, const char *caller_charset)
{
    decode_n(d, s, strlen(s), caller_charset);
}

static void decoded_free(decoded *d) { wn_buf_free(&d->out); }

/* The decoder's output contract: valid UTF-8 with no NUL byte. */
static int is_clean_utf8(const wn_buf *b)
{
    if (memchr(b->data ? b->data : "", 0, b->len)) return 0;
    return wn_utf8_valid((const unsigned char *)(b->data ? b->data : ""), b->len, NULL, NULL);
}

/* UTF-16 code units of an ASCII/Latin-1/BMP string given as code points. */
static size_t utf16(unsigned char *out, const uint16_t *cps, size_t n, int big_endian, int bom)
{
    size_t o = 0;
    if (bom) {
        out[o++] = big_endian ? 0xFE : 0xFF;
        out[o++] = big_endian ? 0xFF : 0xFE;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char hi = (unsigned char)(cps[i] >> 8), lo = (unsigned char)(cps[i] & 0xFF);
        out[o++] = big_endian ? hi : lo;
        out[o++] = big_endian ? lo : hi;
    }
    return o;
}

static size_t ascii_cps(uint16_t *out, const char *s)
{
    size_t n = 0;
    for (; *s; s++) out[n++] = (unsigned char)*s;
    return n;
}

static void test_empty(void)
{
    decoded d;
    decode_n(&d, "", 0, NULL);
    CHECK_EQ(d.status, WN_DECODE_EMPTY);
    CHECK(d.err[0] != '\0');
    decoded_free(&d);
}

static void test_plain_ascii(void)
{
    decoded d;
    decode_s(&d, "<p>plain ascii</p>", NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_STR(d.text, "<p>plain ascii</p>");
    CHECK_EQ(d.info.replaced, 0);
    decoded_free(&d);
}

static void test_bom_utf8(void)
{
    decoded d;
    /* the BOM wins over a <meta> that says otherwise, and is not copied */
    decode_s(&d, "\xEF\xBB\xBF<meta charset=iso-8859-1><p>caf\xC3\xA9</p>", NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_BOM);
    CHECK_STR(d.info.charset, "UTF-8");
    CHECK_STR(d.text, "<meta charset=iso-8859-1><p>caf\xC3\xA9</p>");
    decoded_free(&d);
}

static void test_bom_utf16(void)
{
    uint16_t cps[64];
    size_t n = ascii_cps(cps, "<p>caf");
    cps[n++] = 0xE9; /* e acute */
    cps[n++] = ' ';
    cps[n++] = 0x4E2D; /* a CJK ideograph: three UTF-8 bytes */
    n += ascii_cps(cps + n, "</p>");
    const char *want = "<p>caf\xC3\xA9 \xE4\xB8\xAD</p>";
    unsigned char bytes[256];
    for (int be = 0; be <= 1; be++) {
        size_t len = utf16(bytes, cps, n, be, 1);
        decoded d;
        decode_n(&d, bytes, len, NULL);
        CHECK_EQ(d.status, WN_DECODE_OK);
        CHECK_EQ(d.info.source, WN_CS_BOM);
        CHECK_STR(d.info.charset, be ? "UTF-16BE" : "UTF-16LE");
        CHECK_STR(d.text, want);
        CHECK_EQ(d.info.replaced, 0);
        decoded_free(&d);
    }
}

static void test_utf16_without_bom(void)
{
    /* every other byte NUL: UTF-16 read by its shape, not as binary */
    uint16_t cps[128];
    size_t n = ascii_cps(cps, "<html><body><p>no byte order mark here</p></body></html>");
    unsigned char bytes[512];
    size_t len = utf16(bytes, cps, n, 0, 0);
    decoded d;
    decode_n(&d, bytes, len, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_STR(d.info.charset, "UTF-16LE");
    CHECK_HAS(d.text, "no byte order mark here");
    decoded_free(&d);
}

static void test_caller_charset(void)
{
    decoded d;
    /* HTTP says windows-1252; the bytes fit it */
    decode_s(&d,
             "<p>caf\xE9 cr\xE8me br\xFBl\xE9"
             "e</p>",
             "windows-1252");
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_CALLER);
    CHECK_STR(d.info.declared, "windows-1252");
    CHECK_STR(d.text, "<p>caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9"
                      "e</p>");
    decoded_free(&d);

    /* the caller's charset outranks the page's own <meta> */
    decode_s(&d, "<meta charset=utf-8><p>\xCF\xF0\xE8\xE2\xE5\xF2</p>", "windows-1251");
    CHECK_EQ(d.info.source, WN_CS_CALLER);
    CHECK_HAS(d.text, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"); /* Cyrillic "Privet" */
    decoded_free(&d);

    /* an empty caller charset means "not given" */
    decode_s(&d, "<meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2</p>", "");
    CHECK_EQ(d.info.source, WN_CS_META);
    CHECK_HAS(d.text, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");
    decoded_free(&d);
}

static void test_meta_prescan(void)
{
    char label[40];
    static const struct {
        const char *page, *want;
    } cases[] = {
        { "<meta charset=\"utf-8\">", "utf-8" },
        { "<META CHARSET='Shift_JIS'>", "shift_jis" },
        { "<meta charset=windows-1251 />", "windows-1251" },
        { "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">", "iso-8859-1" },
        { "<meta content='text/html;charset=gb2312' http-equiv='content-type'>", "gb2312" },
        { "<?xml version=\"1.0\" encoding=\"EUC-JP\"?><html>", "euc-jp" },
        /* a commented-out tag is stale: the live one counts */
        { "<!-- <meta charset=koi8-r> --><meta charset=big5>", "big5" },
        { "<html><head><title>none</title></head></html>", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = wn_meta_charset((const unsigned char *)cases[i].page, strlen(cases[i].page), label, sizeof label);
        CHECK_STR(label, cases[i].want);
        CHECK_EQ(n, strlen(cases[i].want));
    }

    /* only the first 16 KiB are scanned, as browsers do */
    size_t pad = 20000;
    char *late = malloc(pad + 64);
    memset(late, ' ', pad);
    strcpy(late + pad, "<meta charset=koi8-r>");
    CHECK_EQ(wn_meta_charset((const unsigned char *)late, strlen(late), label, sizeof label), 0);
    free(late);
}

static void test_meta_prescan_needs_equals(void)
{
    /* The word "charset" only declares something when "=" follows it (the
     * WHATWG prescan's rule); in a description it is prose. */
    char label[40];
    const char *page = "<meta name=\"description\" content=\"which charset is best for Cyrillic\">";
    size_t n = wn_meta_charset((const unsigned char *)page, strlen(page), label, sizeof label);
    CHECK_EQ(n, 0);
    CHECK_STR(label, "");

    /* the prose must not hide the real declaration that follows */
    const char *two = "<meta name=keywords content=\"charset ascii\"><meta charset=windows-1251>";
    wn_meta_charset((const unsigned char *)two, strlen(two), label, sizeof label);
    CHECK_STR(label, "windows-1251");

    /* end to end: read as "ascii" (windows-1252) the Cyrillic is mojibake */
    decoded d;
    decode_s(&d,
             "<meta name=keywords content=\"charset ascii\"><meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2</p>",
             NULL);
    CHECK_HAS(d.text, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");
    decoded_free(&d);
}

static void test_meta_declares_legacy(void)
{
    decoded d;
    decode_s(&d, "<meta charset=\"windows-1251\"><p>\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0</p>", NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_META);
    CHECK_STR(d.info.declared, "windows-1251");
    CHECK(!d.info.overruled);
    CHECK_HAS(d.text, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82, \xD0\xBC\xD0\xB8\xD1\x80");
    decoded_free(&d);

    decode_s(&d,
             "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">"
             "<p>Le caf\xE9 \xE9tait ferm\xE9.</p>",
             NULL);
    CHECK_EQ(d.info.source, WN_CS_META);
    CHECK_STR(d.info.declared, "iso-8859-1");
    CHECK_HAS(d.text, "Le caf\xC3\xA9 \xC3\xA9tait ferm\xC3\xA9.");
    decoded_free(&d);
}

static void test_lying_meta(void)
{
    /* Declares gb2312 or iso-8859-1 but the bytes are valid UTF-8 with
     * non-ASCII text: a legacy encoding would turn them into mojibake. */
    static const char *const lies[] = { "gb2312", "iso-8859-1", "shift_jis" };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        char page[256];
        snprintf(page, sizeof page,
                 "<meta charset=\"%s\"><p>\xE4\xB8\xAD\xE6\x96\x87 caf\xC3\xA9 \xE2\x80\x94 na\xC3\xAFve</p>", lies[i]);
        decoded d;
        decode_s(&d, page, NULL);
        CHECK_EQ(d.status, WN_DECODE_OK);
        CHECK_STR(d.info.charset, "UTF-8");
        CHECK_EQ(d.info.source, WN_CS_VALID_UTF8);
        CHECK(d.info.overruled);
        CHECK_STR(d.info.declared, lies[i]);
        CHECK_HAS(d.text, "\xE4\xB8\xAD\xE6\x96\x87 caf\xC3\xA9 \xE2\x80\x94 na\xC3\xAFve");
        decoded_free(&d);
    }

    /* the same declaration on pure ASCII is not a lie: nothing to overrule */
    decoded d;
    decode_s(&d, "<meta charset=\"gb2312\"><p>ascii only</p>", NULL);
    CHECK(!d.info.overruled);
    CHECK_EQ(d.info.source, WN_CS_META);
    decoded_free(&d);
}

/* "Zhongwen wangye de neirong, women jintian qu Beijing." in GBK */
#define GBK_SENTENCE                                                                                                   \
    "\xD6\xD0\xCE\xC4\xCD\xF8\xD2\xB3\xB5\xC4\xC4\xDA\xC8\xDD\xA3\xAC\xCE\xD2\xC3\xC7\xBD\xF1\xCC\xEC\xC8\xA5\xB1\xB1" \
    "\xBE\xA9\xA1\xA3"
#define UTF8_SENTENCE_ZH                                                                                               \
    "\xE4\xB8\xAD\xE6\x96\x87\xE7\xBD\x91\xE9\xA1\xB5\xE7\x9A\x84\xE5\x86\x85\xE5\xAE\xB9\xEF\xBC\x8C\xE6\x88\x91"     \
    "\xE4\xBB\xAC\xE4\xBB\x8A\xE5\xA4\xA9\xE5\x8E\xBB\xE5\x8C\x97\xE4\xBA\xAC\xE3\x80\x82"
/* "Nihongo no tekisuto desu." in Shift_JIS */
#define SJIS_SENTENCE "\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67\x82\xC5\x82\xB7\x81\x42"
#define UTF8_SENTENCE_JA                                                                                               \
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE3\x81\xAE\xE3\x83\x86\xE3\x82\xAD\xE3\x82\xB9\xE3\x83\x88\xE3\x81\xA7"     \
    "\xE3\x81\x99\xE3\x80\x82"

static char *repeat_in_page(const char *head, const char *sentence, int times)
{
    size_t n = strlen(head) + strlen(sentence) * (size_t)times + 64;
    char *p = malloc(n);
    strcpy(p, head);
    strcat(p, "<body><p>");
    for (int i = 0; i < times; i++) strcat(p, sentence);
    strcat(p, "</p></body></html>");
    return p;
}

static void test_legacy_cjk_declared(void)
{
    decoded d;
    char *gbk = repeat_in_page("<html><head><meta charset=\"gb2312\"></head>", GBK_SENTENCE, 3);
    decode_s(&d, gbk, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_META);
    CHECK_STR(d.info.charset, "GB18030"); /* the superset that decodes gb2312 and GBK pages */
    CHECK_HAS(d.text, UTF8_SENTENCE_ZH UTF8_SENTENCE_ZH);
    CHECK_EQ(d.info.replaced, 0);
    decoded_free(&d);
    free(gbk);

    char *sjis = repeat_in_page("<html><head><meta http-equiv=content-type content=\"text/html; charset=Shift_JIS\">",
                                SJIS_SENTENCE, 3);
    decode_s(&d, sjis, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_META);
    CHECK_HAS(d.text, UTF8_SENTENCE_JA UTF8_SENTENCE_JA);
    CHECK_EQ(d.info.replaced, 0);
    CHECK(is_clean_utf8(&d.out));
    decoded_free(&d);
    free(sjis);
}

static void test_legacy_detected(void)
{
    /* No declaration anywhere: statistical detection must find the text. */
    decoded d;
    char *gbk = repeat_in_page("<html><head><title>t</title></head>", GBK_SENTENCE, 10);
    decode_s(&d, gbk, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.source, WN_CS_DETECTED);
    CHECK_HAS(d.text, UTF8_SENTENCE_ZH UTF8_SENTENCE_ZH);
    decoded_free(&d);
    free(gbk);

    char *sjis = repeat_in_page("<html><head><title>t</title></head>", SJIS_SENTENCE, 10);
    decode_s(&d, sjis, NULL);
    CHECK_EQ(d.info.source, WN_CS_DETECTED);
    CHECK_HAS(d.text, UTF8_SENTENCE_JA UTF8_SENTENCE_JA);
    decoded_free(&d);
    free(sjis);

    const char *fr =
        "<html><body><p>Le caf\xE9 de la gare \xE9tait ferm\xE9 \xE0 cause de la gr\xE8ve. Les \xE9l\xE8ves ont "
        "d\xFB attendre l'ouverture du caf\xE9 et de la biblioth\xE8que.</p></body></html>";
    decode_s(&d, fr, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK(d.info.source == WN_CS_DETECTED || d.info.source == WN_CS_FALLBACK);
    CHECK_HAS(d.text, "Le caf\xC3\xA9 de la gare \xC3\xA9tait ferm\xC3\xA9 \xC3\xA0 cause de la gr\xC3\xA8ve.");
    decoded_free(&d);

    /* too short to detect anything: whatever is chosen, the output is clean
     * UTF-8 and the ASCII around the odd byte survives */
    decode_s(&d, "<p>caf\xE9</p>", NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK(is_clean_utf8(&d.out));
    CHECK_HAS(d.text, "<p>caf");
    CHECK_HAS(d.text, "</p>");
    decoded_free(&d);
}

/* A page that declares UTF-8 and is long enough that a few broken bytes
 * are damage, not a sign of another encoding. */
static char *utf8_page_with(const char *middle)
{
    const char *head = "<html><head><meta charset=\"utf-8\"></head><body><p>";
    size_t n = strlen(head) + strlen(middle) + 2000;
    char *p = malloc(n);
    strcpy(p, head);
    strcat(p, middle);
    for (int i = 0; i < 20; i++) strcat(p, " filler text that is plain ascii, ");
    strcat(p, "</p></body></html>");
    return p;
}

static void test_invalid_utf8_replaced(void)
{
    static const struct {
        const char *bad, *want;
        size_t replaced;
    } cases[] = {
        { "ab\xFF\xFE"
          "cd",
          "ab\xEF\xBF\xBD\xEF\xBF\xBD"
          "cd",
          2 }, /* bytes never valid in UTF-8 */
        { "ab\xC0\xAF"
          "cd",
          "ab\xEF\xBF\xBD\xEF\xBF\xBD"
          "cd",
          2 }, /* overlong '/' */
        { "ab\xED\xA0\x80"
          "cd",
          "ab\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
          "cd",
          3 }, /* UTF-16 surrogate */
        { "ab\xE4\xB8"
          "cd",
          "ab\xEF\xBF\xBD\xEF\xBF\xBD"
          "cd",
          2 }, /* truncated sequence */
        { "ab\xF4\x90\x80\x80"
          "cd",
          "ab\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
          "cd",
          4 }, /* > U+10FFFF */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *page = utf8_page_with(cases[i].bad);
        decoded d;
        decode_s(&d, page, NULL);
        CHECK_EQ(d.status, WN_DECODE_OK);
        CHECK_STR(d.info.charset, "UTF-8");
        CHECK_EQ(d.info.replaced, cases[i].replaced);
        CHECK_HAS(d.text, cases[i].want);
        CHECK(is_clean_utf8(&d.out));
        decoded_free(&d);
        free(page);
    }

    /* the caller's word that it is UTF-8 counts like a <meta>; here the
     * page is cut inside its last character */
    char page[1024] = "<p>";
    for (int i = 0; i < 20; i++) strcat(page, "plain ascii text before the cut, ");
    strcat(page, "\xE2\x82");
    decoded d;
    decode_s(&d, page, "utf-8");
    CHECK_EQ(d.info.source, WN_CS_CALLER);
    CHECK_EQ(d.info.replaced, 2);
    CHECK(is_clean_utf8(&d.out));
    decoded_free(&d);
}

static void test_nul_replaced(void)
{
    static const char page[] = "<html><body><p>before\0after and a lot more text to read</p></body></html>";
    decoded d;
    decode_n(&d, page, sizeof page - 1, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK_EQ(d.info.replaced, 1);
    CHECK_HAS(d.text, "before\xEF\xBF\xBD"
                      "after");
    CHECK(is_clean_utf8(&d.out));
    decoded_free(&d);

    /* NULs inside a BOM-marked UTF-8 page are replaced too */
    static const char bom[] = "\xEF\xBB\xBF<p>x\0y</p>";
    decode_n(&d, bom, sizeof bom - 1, NULL);
    CHECK_EQ(d.info.replaced, 1);
    CHECK(is_clean_utf8(&d.out));
    decoded_free(&d);
}

static void test_binary_magic(void)
{
    static const struct {
        const char *bytes;
        size_t n;
        const char *word;
    } cases[] = {
        { "\x89PNG\r\n\x1A\n\0\0\0\rIHDR", 16, "PNG" },
        { "\x1F\x8B\x08\0\0\0\0\0\0\x03", 10, "gzip" },
        { "\xFF\xD8\xFF\xE0\0\x10JFIF", 10, "JPEG" },
        { "GIF89a\x01\0\x01\0", 10, "GIF" },
        { "%PDF-1.7\n", 9, "PDF" },
        { "PK\x03\x04\x14\0", 6, "ZIP" },
        { "\x7F"
          "ELF\x02\x01\x01",
          7, "ELF" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        decoded d;
        decode_n(&d, cases[i].bytes, cases[i].n, NULL);
        CHECK_EQ(d.status, WN_DECODE_BINARY);
        CHECK_HAS(d.err, cases[i].word);
        decoded_free(&d);
    }
}

static uint32_t lcg_next(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16;
}

static void test_binary_random_bytes(void)
{
    /* Uniform random bytes (compressed or encrypted data without a known
     * header) are not text, whatever the seed. */
    unsigned char buf[8192];
    int misread = 0;
    for (uint32_t seed = 1; seed <= 64; seed++) {
        uint32_t st = seed * 2654435761u;
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)lcg_next(&st);
        decoded d;
        decode_n(&d, buf, sizeof buf, NULL);
        if (d.status != WN_DECODE_BINARY) {
            fprintf(stderr, "  random bytes, seed %u: read as text (%s)\n", seed, d.info.charset);
            misread++;
        }
        decoded_free(&d);
    }
    CHECK_EQ(misread, 0);
}

static void test_binary_utf16_controls(void)
{
    /* "\x00\x01" pairs have UTF-16's shape (a NUL in every other byte)
     * but read as control characters in either byte order: binary, with
     * no text handed on. UTF-16 text of the same shape is still text. */
    unsigned char buf[2002];
    buf[0] = 0xFE; /* big-endian: the pairs are U+0001 */
    buf[1] = 0xFF;
    for (size_t i = 2; i < sizeof buf; i += 2) {
        buf[i] = 0x00;
        buf[i + 1] = 0x01;
    }
    decoded d;
    decode_n(&d, buf + 2, sizeof buf - 2, NULL);
    CHECK_EQ(d.status, WN_DECODE_BINARY);
    decoded_free(&d);
    decode_n(&d, buf + 1, sizeof buf - 2, NULL); /* the other byte order */
    CHECK_EQ(d.status, WN_DECODE_BINARY);
    decoded_free(&d);
    decode_n(&d, buf, sizeof buf, NULL); /* behind a BOM */
    CHECK_EQ(d.status, WN_DECODE_BINARY);
    decoded_free(&d);
    for (size_t i = 2; i < sizeof buf; i += 2) {
        buf[i] = 0x00;
        buf[i + 1] = (unsigned char)"<p>Text\n"[(i / 2) % 8];
    }
    decode_n(&d, buf, sizeof buf, NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    decoded_free(&d);
}

static void test_utf8_valid(void)
{
    size_t bad = 99;
    int non_ascii = -1;
    CHECK(wn_utf8_valid((const unsigned char *)"plain", 5, &bad, &non_ascii));
    CHECK_EQ(bad, 0);
    CHECK_EQ(non_ascii, 0);
    /* a four-byte character (U+1F600) and a three-byte one */
    CHECK(wn_utf8_valid((const unsigned char *)"\xF0\x9F\x98\x80 \xE2\x82\xAC", 8, &bad, &non_ascii));
    CHECK_EQ(non_ascii, 1);
    CHECK(!wn_utf8_valid((const unsigned char *)"\xC0\x80", 2, &bad, NULL));
    CHECK_EQ(bad, 2);
    CHECK(!wn_utf8_valid((const unsigned char *)"\xED\xB0\x80", 3, NULL, NULL));
    CHECK(!wn_utf8_valid((const unsigned char *)"\xF4\x90\x80\x80", 4, NULL, NULL));
    /* invalid bytes past the eight-byte ASCII fast path are still seen */
    CHECK(!wn_utf8_valid((const unsigned char *)"0123456789abcdef\x80", 17, &bad, NULL));
    CHECK_EQ(bad, 1);
}

static void test_charset_canonical(void)
{
    char buf[40];
    CHECK_STR(wn_charset_canonical("ISO-8859-1", buf, sizeof buf), "WINDOWS-1252");
    CHECK_STR(wn_charset_canonical("US-ASCII", buf, sizeof buf), "WINDOWS-1252");
    CHECK_STR(wn_charset_canonical("GB2312", buf, sizeof buf), "GB18030");
    CHECK_STR(wn_charset_canonical("gbk", buf, sizeof buf), "GB18030");
    CHECK_STR(wn_charset_canonical("Shift_JIS", buf, sizeof buf), "CP932");
    CHECK_STR(wn_charset_canonical("UTF8", buf, sizeof buf), "UTF-8");
    /* labels outside the table pass through, lower-cased, for iconv */
    CHECK_STR(wn_charset_canonical("KOI8-R", buf, sizeof buf), "koi8-r");
    /* and a label longer than the buffer is cut, not overrun */
    char small[8];
    CHECK_EQ(strlen(wn_charset_canonical("a-very-long-charset-label", small, sizeof small)), 7);
}

static void test_unknown_declared_charset(void)
{
    /* a charset iconv has never heard of falls through to detection */
    decoded d;
    decode_s(&d,
             "<meta charset=\"x-no-such-charset\"><p>caf\xE9 au lait, cr\xE8me br\xFBl\xE9"
             "e</p>",
             NULL);
    CHECK_EQ(d.status, WN_DECODE_OK);
    CHECK(is_clean_utf8(&d.out));
    CHECK_HAS(d.text, "au lait");
    decoded_free(&d);
}

int main(void)
{
    RUN(test_empty);
    RUN(test_plain_ascii);
    RUN(test_bom_utf8);
    RUN(test_bom_utf16);
    RUN(test_utf16_without_bom);
    RUN(test_caller_charset);
    RUN(test_meta_prescan);
    RUN(test_meta_prescan_needs_equals);
    RUN(test_meta_declares_legacy);
    RUN(test_lying_meta);
    RUN(test_legacy_cjk_declared);
    RUN(test_legacy_detected);
    RUN(test_invalid_utf8_replaced);
    RUN(test_nul_replaced);
    RUN(test_binary_magic);
    RUN(test_binary_random_bytes);
    RUN(test_binary_utf16_controls);
    RUN(test_utf8_valid);
    RUN(test_charset_canonical);
    RUN(test_unknown_declared_charset);
    return CHECK_DONE();
}
