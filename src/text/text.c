#include "text.h"

#include <utf8proc.h>

int32_t wn_utf8_next(const char *str, size_t n, size_t *i)
{
    const unsigned char *s = (const unsigned char *)str + *i;
    size_t left = n - *i;
    unsigned c = s[0];
    if (c < 0x80) {
        (*i)++;
        return (int32_t)c;
    }
    utf8proc_int32_t cp = -1;
    utf8proc_ssize_t k = utf8proc_iterate(s, left > 4 ? 4 : (utf8proc_ssize_t)left, &cp);
    if (k <= 0 || cp < 0) {
        (*i)++;
        return 0xFFFD;
    }
    *i += (size_t)k;
    return cp;
}

size_t wn_utf8_put(char *out, int32_t cp)
{
    utf8proc_ssize_t k = utf8proc_encode_char(cp, (utf8proc_uint8_t *)out);
    return k > 0 ? (size_t)k : 0;
}

static int is_cjk(int32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x3040 && cp <= 0x30FF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FA1F) || (cp >= 0x31F0 && cp <= 0x31FF) ||
           (cp >= 0x0E00 && cp <= 0x0EFF) || /* Thai, Lao */
           (cp >= 0x1000 && cp <= 0x109F) || /* Myanmar */
           (cp >= 0x1780 && cp <= 0x17FF);   /* Khmer */
}

wn_cclass wn_char_class(int32_t cp)
{
    if (cp < 0x80) {
        if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D)) return WN_CC_SPACE;
        if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')) return WN_CC_WORD;
        if (cp < 0x20 || cp == 0x7F) return WN_CC_OTHER;
        if (cp == '$' || cp == '+' || cp == '<' || cp == '=' || cp == '>' || cp == '^' || cp == '`' || cp == '|' ||
            cp == '~')
            return WN_CC_OTHER;
        return WN_CC_PUNCT;
    }
    if (cp == 0xA0 || cp == 0x200B || cp == 0xFEFF || cp == 0x2028 || cp == 0x2029) return WN_CC_SPACE;
    if (is_cjk(cp)) return WN_CC_CJK;
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO: return WN_CC_WORD;
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO: return WN_CC_PUNCT;
    case UTF8PROC_CATEGORY_ZS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP: return WN_CC_SPACE;
    default: return WN_CC_OTHER;
    }
}

int32_t wn_fold(int32_t cp)
{
    if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    return utf8proc_tolower(cp);
}

/* The sentence terminals past ASCII of every script: Unicode's property
 * Sentence_Terminal (Unicode 16), as ranges in order. */
static const struct {
    int32_t lo, hi;
} sterm[] = {
    { 0x589, 0x589 },     { 0x61D, 0x61F },     { 0x6D4, 0x6D4 },     { 0x700, 0x702 },     { 0x7F9, 0x7F9 },
    { 0x837, 0x837 },     { 0x839, 0x839 },     { 0x83D, 0x83E },     { 0x964, 0x965 },     { 0x104A, 0x104B },
    { 0x1362, 0x1362 },   { 0x1367, 0x1368 },   { 0x166E, 0x166E },   { 0x1735, 0x1736 },   { 0x17D4, 0x17D5 },
    { 0x1803, 0x1803 },   { 0x1809, 0x1809 },   { 0x1944, 0x1945 },   { 0x1AA8, 0x1AAB },   { 0x1B4E, 0x1B4F },
    { 0x1B5A, 0x1B5B },   { 0x1B5E, 0x1B5F },   { 0x1B7D, 0x1B7F },   { 0x1C3B, 0x1C3C },   { 0x1C7E, 0x1C7F },
    { 0x2024, 0x2024 },   { 0x203C, 0x203D },   { 0x2047, 0x2049 },   { 0x2CF9, 0x2CFB },   { 0x2E2E, 0x2E2E },
    { 0x2E3C, 0x2E3C },   { 0x2E53, 0x2E54 },   { 0x3002, 0x3002 },   { 0xA4FF, 0xA4FF },   { 0xA60E, 0xA60F },
    { 0xA6F3, 0xA6F3 },   { 0xA6F7, 0xA6F7 },   { 0xA876, 0xA877 },   { 0xA8CE, 0xA8CF },   { 0xA92F, 0xA92F },
    { 0xA9C8, 0xA9C9 },   { 0xAA5D, 0xAA5F },   { 0xAAF0, 0xAAF1 },   { 0xABEB, 0xABEB },   { 0xFE12, 0xFE12 },
    { 0xFE15, 0xFE16 },   { 0xFE52, 0xFE52 },   { 0xFE56, 0xFE57 },   { 0xFF01, 0xFF01 },   { 0xFF0E, 0xFF0E },
    { 0xFF1F, 0xFF1F },   { 0xFF61, 0xFF61 },   { 0x10A56, 0x10A57 }, { 0x10F55, 0x10F59 }, { 0x10F86, 0x10F89 },
    { 0x11047, 0x11048 }, { 0x110BE, 0x110C1 }, { 0x11141, 0x11143 }, { 0x111C5, 0x111C6 }, { 0x111CD, 0x111CD },
    { 0x111DE, 0x111DF }, { 0x11238, 0x11239 }, { 0x1123B, 0x1123C }, { 0x112A9, 0x112A9 }, { 0x113D4, 0x113D5 },
    { 0x1144B, 0x1144C }, { 0x115C2, 0x115C3 }, { 0x115C9, 0x115D7 }, { 0x11641, 0x11642 }, { 0x1173C, 0x1173E },
    { 0x11944, 0x11944 }, { 0x11946, 0x11946 }, { 0x11A42, 0x11A43 }, { 0x11A9B, 0x11A9C }, { 0x11C41, 0x11C42 },
    { 0x11EF7, 0x11EF8 }, { 0x11F43, 0x11F44 }, { 0x16A6E, 0x16A6F }, { 0x16AF5, 0x16AF5 }, { 0x16B37, 0x16B38 },
    { 0x16B44, 0x16B44 }, { 0x16D6E, 0x16D6F }, { 0x16E98, 0x16E98 }, { 0x1BC9F, 0x1BC9F }, { 0x1DA88, 0x1DA88 }
};

int wn_sentence_stop(int32_t cp)
{
    if (cp < 0x80) return cp == '.' || cp == '!' || cp == '?';
    /* the Greek question mark (canonically ';', and not a terminal by
     * the property: the ';' a Greek letter precedes is one, see
     * wn_greek_letter) */
    if (cp == 0x37E) return 1;
    size_t lo = 0, hi = sizeof sterm / sizeof sterm[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < sterm[mid].lo)
            hi = mid;
        else if (cp > sterm[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

int wn_comma(int32_t cp)
{
    switch (cp) {
    case ',':
    case 0x55D:  /* Armenian */
    case 0x60C:  /* Arabic */
    case 0x7F8:  /* NKo */
    case 0x1363: /* Ethiopic */
    case 0x1802: /* Mongolian */
    case 0x1808:
    case 0x2E41: /* reversed comma (Sindhi, Urdu) */
    case 0x3001: /* ideographic */
    case 0xA4FE: /* Lisu */
    case 0xA60D: /* Vai */
    case 0xA6F5: /* Bamum */
    case 0xFE10: /* vertical forms */
    case 0xFE11:
    case 0xFE50: /* small forms */
    case 0xFE51:
    case 0xFF0C: /* full width */
    case 0xFF64: /* half width ideographic */ return 1;
    default: return 0;
    }
}

int wn_closing_mark(int32_t cp)
{
    if (cp < 0x80) return cp == '"' || cp == '\'' || cp == ')' || cp == ']';
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_PE: /* closing brackets: 」』）】〕 */
    case UTF8PROC_CATEGORY_PF: /* closing quotes: ” ’ » */
    case UTF8PROC_CATEGORY_PI: /* quotes that close too: German “ after „ */ return 1;
    default: return 0;
    }
}
