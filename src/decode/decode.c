#include "decode.h"
#include "../util/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <uchardet/uchardet.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define PRESCAN_BYTES (16u * 1024u)

int wn_utf8_valid(const unsigned char *s, size_t n, size_t *invalid_count, int *has_non_ascii)
{
    size_t i = 0, bad = 0;
    int non_ascii = 0;
    while (i < n) {
        /* ASCII fast path: 32 bytes at a time, then eight */
#if defined(__SSE2__)
        while (i + 32 <= n) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
            if (_mm_movemask_epi8(_mm_or_si128(a, b))) break;
            i += 32;
        }
#endif
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        non_ascii = 1;
        size_t k = wn_utf8_seq_len(s + i, n - i);
        if (k)
            i += k;
        else {
            bad++;
            i++;
        }
    }
    if (invalid_count) *invalid_count = bad;
    if (has_non_ascii) *has_non_ascii = non_ascii;
    return bad == 0;
}

static int ci_starts(const unsigned char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    if (n < l) return 0;
    for (size_t i = 0; i < l; i++)
        if (tolower(s[i]) != lit[i]) return 0;
    return 1;
}

/* The label after "charset" or "encoding": an '=' must come first, so that
 * words such as content="charset ascii" are not taken for a declaration. */
static size_t read_label(const unsigned char *s, size_t n, char *out, size_t cap)
{
    size_t i = 0;
    out[0] = '\0';
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    if (i >= n || s[i] != '=') return 0;
    i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    if (i < n && (s[i] == '"' || s[i] == '\'')) i++;
    size_t len = 0;
    while (i < n && len + 1 < cap && (isalnum(s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '.' || s[i] == ':')) {
        out[len++] = (char)tolower(s[i]);
        i++;
    }
    out[len] = '\0';
    return len;
}

size_t wn_meta_charset(const unsigned char *s, size_t n, char *out, size_t cap)
{
    if (cap == 0) return 0;
    out[0] = '\0';
    if (n > PRESCAN_BYTES) n = PRESCAN_BYTES;
    if (ci_starts(s, n, "<?xml")) {
        const unsigned char *end = memchr(s, '>', n);
        size_t lim = end ? (size_t)(end - s) : n;
        for (size_t i = 5; i + 8 < lim; i++)
            if (ci_starts(s + i, lim - i, "encoding")) {
                size_t l = read_label(s + i + 8, lim - i - 8, out, cap);
                if (l) return l;
            }
    }
    for (size_t i = 0; i + 5 < n; i++) {
        if (s[i] != '<') {
            const unsigned char *lt = memchr(s + i, '<', n - 5 - i);
            if (!lt) break;
            i = (size_t)(lt - s);
        }
        if (ci_starts(s + i, n - i, "<!--")) {
            /* comments may hold stale meta tags: skip them */
            size_t j = i + 4;
            while (j + 2 < n && !(s[j] == '-' && s[j + 1] == '-' && s[j + 2] == '>')) j++;
            i = j;
            continue;
        }
        if (!ci_starts(s + i, n - i, "<meta")) continue;
        size_t j = i + 5;
        size_t lim = j;
        while (lim < n && s[lim] != '>') lim++;
        for (; j + 7 < lim; j++)
            if (ci_starts(s + j, lim - j, "charset")) {
                size_t l = read_label(s + j + 7, lim - j - 7, out, cap);
                if (l) return l;
            }
        i = lim;
    }
    return 0;
}

/* WHATWG-style aliases onto names glibc's iconv knows; everything else is
 * passed through and iconv_open decides. */
const char *wn_charset_canonical(const char *label, char *buf, size_t cap)
{
    static const struct {
        const char *label, *iconv;
    } map[] = {
        { "utf-8", "UTF-8" },
        { "utf8", "UTF-8" },
        { "unicode-1-1-utf-8", "UTF-8" },
        { "us-ascii", "WINDOWS-1252" },
        { "ascii", "WINDOWS-1252" },
        { "iso-8859-1", "WINDOWS-1252" },
        { "iso8859-1", "WINDOWS-1252" },
        { "latin1", "WINDOWS-1252" },
        { "iso_8859-1", "WINDOWS-1252" },
        { "l1", "WINDOWS-1252" },
        { "cp1252", "WINDOWS-1252" },
        { "windows-1252", "WINDOWS-1252" },
        { "x-cp1252", "WINDOWS-1252" },
        { "iso-8859-9", "WINDOWS-1254" },
        { "latin5", "WINDOWS-1254" },
        { "iso-8859-11", "WINDOWS-874" },
        { "tis-620", "WINDOWS-874" },
        { "gb2312", "GB18030" },
        { "gbk", "GB18030" },
        { "x-gbk", "GB18030" },
        { "gb_2312-80", "GB18030" },
        { "chinese", "GB18030" },
        { "csgb2312", "GB18030" },
        { "gb18030", "GB18030" },
        { "cp936", "GB18030" },
        { "big5", "BIG5-HKSCS" },
        { "big5-hkscs", "BIG5-HKSCS" },
        { "x-x-big5", "BIG5-HKSCS" },
        { "shift_jis", "CP932" },
        { "shift-jis", "CP932" },
        { "sjis", "CP932" },
        { "x-sjis", "CP932" },
        { "ms_kanji", "CP932" },
        { "windows-31j", "CP932" },
        { "cp932", "CP932" },
        { "euc-kr", "CP949" },
        { "ks_c_5601-1987", "CP949" },
        { "windows-949", "CP949" },
        { "utf-16", "UTF-16LE" },
        { "utf-16le", "UTF-16LE" },
        { "utf-16be", "UTF-16BE" },
    };
    size_t n = strlen(label);
    if (n + 1 > cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)label[i]);
    buf[n] = '\0';
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(buf, map[i].label) == 0) return map[i].iconv;
    return buf;
}

static void put_fffd(wn_buf *out) { wn_buf_put(out, "\xEF\xBF\xBD", 3); }

/* Copy valid UTF-8, turning invalid bytes and NULs into U+FFFD. */
static size_t sanitize_utf8(const unsigned char *s, size_t n, wn_buf *out)
{
    size_t replaced = 0, i = 0;
    wn_buf_reserve(out, n + n / 8 + 16);
    while (i < n) {
        size_t run = i;
        while (run < n && s[run] < 0x80 && s[run] != 0) run++;
        if (run > i) {
            wn_buf_put(out, s + i, run - i);
            i = run;
            continue;
        }
        if (s[i] == 0) {
            put_fffd(out);
            replaced++;
            i++;
            continue;
        }
        size_t k = wn_utf8_seq_len(s + i, n - i);
        if (k) {
            wn_buf_put(out, s + i, k);
            i += k;
        } else {
            put_fffd(out);
            replaced++;
            i++;
        }
    }
    return replaced;
}

/* Convert with iconv; returns -1 when the charset is unknown, else the
 * number of replaced sequences. Output is then run through sanitize. */
static long convert(const unsigned char *s, size_t n, const char *from, wn_buf *out)
{
    iconv_t cd = iconv_open("UTF-8", from);
    if (cd == (iconv_t)-1) return -1;
    size_t unit = (strncmp(from, "UTF-16", 6) == 0) ? 2 : 1;
    wn_buf tmp;
    wn_buf_init(&tmp);
    long replaced = 0;
    char *in = (char *)s;
    size_t inleft = n;
    if (!wn_buf_reserve(&tmp, n * 2 + 64)) {
        iconv_close(cd);
        return -2;
    }
    while (inleft > 0) {
        char *o = tmp.data + tmp.len;
        size_t oleft = tmp.cap - tmp.len - 1;
        size_t r = iconv(cd, &in, &inleft, &o, &oleft);
        tmp.len = (size_t)(o - tmp.data);
        if (r != (size_t)-1) break;
        if (errno == E2BIG) {
            if (!wn_buf_reserve(&tmp, inleft * 2 + 64)) break;
        } else if (errno == EILSEQ || errno == EINVAL) {
            put_fffd(&tmp);
            replaced++;
            size_t skip = unit < inleft ? unit : inleft;
            in += skip;
            inleft -= skip;
            iconv(cd, NULL, NULL, NULL, NULL);
        } else {
            break;
        }
    }
    iconv_close(cd);
    if (tmp.oom) {
        wn_buf_free(&tmp);
        return -2;
    }
    replaced += (long)sanitize_utf8((const unsigned char *)tmp.data, tmp.len, out);
    wn_buf_free(&tmp);
    return replaced;
}

static int control_heavy(const unsigned char *s, size_t n);

static const char *binary_kind(const unsigned char *s, size_t n)
{
    if (n >= 2 && s[0] == 0x1F && s[1] == 0x8B) return "gzip-compressed data (decompress it first)";
    if (n >= 4 && memcmp(s, "\x89PNG", 4) == 0) return "a PNG image";
    if (n >= 3 && memcmp(s, "\xFF\xD8\xFF", 3) == 0) return "a JPEG image";
    if (n >= 4 && memcmp(s, "GIF8", 4) == 0) return "a GIF image";
    if (n >= 5 && memcmp(s, "%PDF-", 5) == 0) return "a PDF document";
    if (n >= 4 && memcmp(s, "PK\x03\x04", 4) == 0) return "a ZIP archive";
    if (n >= 4 && memcmp(s,
                         "\x7F"
                         "ELF",
                         4) == 0)
        return "an ELF executable";
    if (n >= 3 && memcmp(s, "BZh", 3) == 0) return "bzip2-compressed data";
    if (n >= 6 && memcmp(s,
                         "\xFD"
                         "7zXZ",
                         5) == 0)
        return "xz-compressed data";
    if (n >= 4 && memcmp(s, "\x28\xB5\x2F\xFD", 4) == 0) return "zstd-compressed data";
    return control_heavy(s, n) ? "binary data (over 5% control bytes)" : NULL;
}

/* Whether control characters (C0 but white space and ESC, and DEL) are
 * over 5% of the head of s: text has almost none. Read on the input's
 * bytes, and on the UTF-8 of what was decoded as UTF-16 (where a control
 * character is one byte too): "\x00\x01" pairs are UTF-16 by their NULs
 * but decode to U+0001 after U+0001, which no page is. */
static int control_heavy(const unsigned char *s, size_t n)
{
    static const uint8_t control[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, [0x7F] = 1,
    };
    size_t lim = n < 4096 ? n : 4096, ctl = 0;
    for (size_t i = 0; i < lim; i++) ctl += control[s[i]];
    /* legacy encodings and UTF-8 text use no C0 controls but whitespace */
    return lim >= 16 && ctl * 20 > lim;
}

/* UTF-16 without a BOM shows up as a NUL in every other byte. */
static const char *utf16_guess(const unsigned char *s, size_t n)
{
    size_t lim = n < 2048 ? n & ~(size_t)1 : 2048, even = 0, odd = 0;
    if (lim < 8) return NULL;
    for (size_t i = 0; i < lim; i += 2) {
        if (s[i] == 0) even++;
        if (s[i + 1] == 0) odd++;
    }
    size_t half = lim / 2;
    if (odd * 10 > half * 7 && even * 10 < half) return "UTF-16LE";
    if (even * 10 > half * 7 && odd * 10 < half) return "UTF-16BE";
    return NULL;
}

/* What was read as UTF-16 is binary when its text is control characters. */
static wn_decode_status utf16_binary(wn_buf *out, const char *cs, char *err, size_t errcap)
{
    if (!control_heavy((const unsigned char *)out->data, out->len)) return WN_DECODE_OK;
    if (err)
        snprintf(err, errcap, "input is not HTML: it looks like binary data (over 5%% control characters read as %s)",
                 cs);
    wn_buf_clear(out);
    return WN_DECODE_BINARY;
}

static void set_name(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src); }

static wn_decode_status decode_impl(const unsigned char *in, size_t n, const char *caller_charset, wn_buf *out,
                                    wn_decode_info *info, char *err, size_t errcap, int *zero_copy)
{
    memset(info, 0, sizeof *info);
    if (err && errcap) err[0] = '\0';
    wn_buf_clear(out);
    if (n == 0) {
        if (err) snprintf(err, errcap, "input is empty");
        return WN_DECODE_EMPTY;
    }

    /* 1. byte-order mark */
    if (n >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0) {
        info->source = WN_CS_BOM;
        set_name(info->charset, sizeof info->charset, "UTF-8");
        info->replaced = sanitize_utf8(in + 3, n - 3, out);
        return out->oom ? WN_DECODE_NOMEM : WN_DECODE_OK;
    }
    if (n >= 2 && ((in[0] == 0xFF && in[1] == 0xFE) || (in[0] == 0xFE && in[1] == 0xFF))) {
        const char *cs = in[0] == 0xFF ? "UTF-16LE" : "UTF-16BE";
        info->source = WN_CS_BOM;
        set_name(info->charset, sizeof info->charset, cs);
        long r = convert(in + 2, n - 2, cs, out);
        if (r < 0) return WN_DECODE_NOMEM;
        info->replaced = (size_t)r;
        return utf16_binary(out, cs, err, errcap);
    }
    const char *u16 = utf16_guess(in, n);
    if (u16) {
        info->source = WN_CS_DETECTED;
        set_name(info->charset, sizeof info->charset, u16);
        long r = convert(in, n, u16, out);
        if (r < 0) return WN_DECODE_NOMEM;
        info->replaced = (size_t)r;
        return utf16_binary(out, u16, err, errcap);
    }
    const char *bin = binary_kind(in, n);
    if (bin) {
        if (err) snprintf(err, errcap, "input is not HTML: it looks like %s", bin);
        return WN_DECODE_BINARY;
    }

    /* 2. declarations */
    char label[40] = "", canon_buf[40];
    wn_charset_source decl_source = WN_CS_CALLER;
    if (caller_charset && *caller_charset)
        snprintf(label, sizeof label, "%s", caller_charset);
    else if (wn_meta_charset(in, n, label, sizeof label))
        decl_source = WN_CS_META;
    const char *canon = label[0] ? wn_charset_canonical(label, canon_buf, sizeof canon_buf) : NULL;
    if (label[0]) set_name(info->declared, sizeof info->declared, label);
    /* A document cannot declare UTF-16 in-band once it is read as ASCII. */
    if (canon && decl_source == WN_CS_META && strncmp(canon, "UTF-16", 6) == 0) canon = "UTF-8";

    size_t bad = 0;
    int non_ascii = 0;
    int valid = wn_utf8_valid(in, n, &bad, &non_ascii);
    int declared_utf8 = canon && strcmp(canon, "UTF-8") == 0;

    /* 3. valid UTF-8 wins over a legacy declaration */
    if (valid) {
        info->source = canon && (declared_utf8 || !non_ascii) ? decl_source : WN_CS_VALID_UTF8;
        info->overruled = canon && !declared_utf8 && non_ascii;
        set_name(info->charset, sizeof info->charset, "UTF-8");
        if (zero_copy && !memchr(in, 0, n)) {
            /* the common case: the input already is what later stages need */
            *zero_copy = 1;
            return WN_DECODE_OK;
        }
        info->replaced = sanitize_utf8(in, n, out);
        return out->oom ? WN_DECODE_NOMEM : WN_DECODE_OK;
    }
    /* Declared UTF-8 with a few broken bytes (truncation, a stray Latin-1
     * character): still UTF-8, damage replaced. */
    if (declared_utf8 && bad * 200 < n) {
        info->source = decl_source;
        set_name(info->charset, sizeof info->charset, "UTF-8");
        info->replaced = sanitize_utf8(in, n, out);
        return out->oom ? WN_DECODE_NOMEM : WN_DECODE_OK;
    }
    if (canon && !declared_utf8) {
        long r = convert(in, n, canon, out);
        if (r == -2) return WN_DECODE_NOMEM;
        if (r >= 0 && (size_t)r * 100 < n + 100) {
            info->source = decl_source;
            set_name(info->charset, sizeof info->charset, canon);
            info->replaced = (size_t)r;
            return WN_DECODE_OK;
        }
        wn_buf_clear(out);
        info->overruled = 1;
    } else if (declared_utf8) {
        info->overruled = 1;
    }

    /* 4. detection */
    uchardet_t ud = uchardet_new();
    const char *det = NULL;
    char det_name[40] = "";
    if (ud) {
        uchardet_handle_data(ud, (const char *)in, n < (1u << 20) ? n : (1u << 20));
        uchardet_data_end(ud);
        det = uchardet_get_charset(ud);
        if (det && *det) set_name(det_name, sizeof det_name, det);
        uchardet_delete(ud);
    }
    if (det_name[0] && strcmp(det_name, "ASCII") != 0) {
        const char *c = wn_charset_canonical(det_name, canon_buf, sizeof canon_buf);
        if (strcmp(c, "UTF-8") == 0) {
            info->source = WN_CS_DETECTED;
            set_name(info->charset, sizeof info->charset, "UTF-8");
            info->replaced = sanitize_utf8(in, n, out);
            return out->oom ? WN_DECODE_NOMEM : WN_DECODE_OK;
        }
        char cbuf[40];
        set_name(cbuf, sizeof cbuf, c);
        long r = convert(in, n, cbuf, out);
        if (r == -2) return WN_DECODE_NOMEM;
        if (r >= 0) {
            info->source = WN_CS_DETECTED;
            set_name(info->charset, sizeof info->charset, cbuf);
            info->replaced = (size_t)r;
            return WN_DECODE_OK;
        }
        wn_buf_clear(out);
    }
    /* 5. windows-1252 maps every byte but five; always gives text */
    long r = convert(in, n, "WINDOWS-1252", out);
    if (r < 0) {
        wn_buf_clear(out);
        r = (long)sanitize_utf8(in, n, out);
        set_name(info->charset, sizeof info->charset, "UTF-8");
    } else {
        set_name(info->charset, sizeof info->charset, "WINDOWS-1252");
    }
    info->source = WN_CS_FALLBACK;
    info->replaced = (size_t)r;
    return out->oom ? WN_DECODE_NOMEM : WN_DECODE_OK;
}

wn_decode_status wn_decode(const unsigned char *in, size_t n, const char *caller_charset, wn_buf *out,
                           wn_decode_info *info, char *err, size_t errcap)
{
    return decode_impl(in, n, caller_charset, out, info, err, errcap, NULL);
}

wn_decode_status wn_decode_view(const unsigned char *in, size_t n, const char *caller_charset, wn_buf *out,
                                const char **text, size_t *text_len, wn_decode_info *info, char *err, size_t errcap)
{
    int zero_copy = 0;
    wn_decode_status st = decode_impl(in, n, caller_charset, out, info, err, errcap, &zero_copy);
    if (zero_copy) {
        *text = (const char *)in;
        *text_len = n;
    } else {
        *text = out->data ? out->data : "";
        *text_len = out->len;
    }
    return st;
}
