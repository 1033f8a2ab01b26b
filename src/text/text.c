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
