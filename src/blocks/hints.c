/* class/id tokens -> hint bits.
 *
 * Names are split into tokens on anything that is not a letter or digit and
 * at lower-to-upper case changes ("articleBody" -> article, body). Short,
 * ambiguous words must match a whole token ("ad" must not fire on "header"
 * or "download"); longer, distinctive stems may match inside a token
 * ("sidebar" in "leftsidebar"). */
#include "stats.h"

#include <ctype.h>
#include <string.h>

typedef struct hint_word {
    const char *word;
    uint16_t bits;
    uint8_t substring; /* may match inside a token */
} hint_word;

static const hint_word hint_words[] = {
    {"nav", WN_HINT_NAV, 0}, {"navbar", WN_HINT_NAV, 1}, {"navigation", WN_HINT_NAV, 1},
    {"menu", WN_HINT_NAV, 1}, {"breadcrumb", WN_HINT_NAV, 1}, {"breadcrumbs", WN_HINT_NAV, 1},
    {"pagination", WN_HINT_NAV, 1}, {"pager", WN_HINT_NAV, 0}, {"skip", WN_HINT_NAV, 0},
    {"toolbar", WN_HINT_NAV, 1}, {"topbar", WN_HINT_HEADER, 1}, {"masthead", WN_HINT_HEADER, 1},
    {"header", WN_HINT_HEADER, 0}, {"footer", WN_HINT_FOOTER, 1}, {"foot", WN_HINT_FOOTER, 0},
    {"copyright", WN_HINT_FOOTER, 1}, {"colophon", WN_HINT_FOOTER, 1},
    {"sidebar", WN_HINT_SIDEBAR, 1}, {"aside", WN_HINT_SIDEBAR, 0}, {"widget", WN_HINT_SIDEBAR, 1},
    {"rail", WN_HINT_SIDEBAR, 0}, {"sidenav", WN_HINT_SIDEBAR | WN_HINT_NAV, 1},
    {"comment", WN_HINT_COMMENT, 1}, {"comments", WN_HINT_COMMENT, 1}, {"disqus", WN_HINT_COMMENT, 1},
    {"replies", WN_HINT_COMMENT, 0}, {"respond", WN_HINT_COMMENT, 0},
    {"share", WN_HINT_SHARE, 1}, {"sharing", WN_HINT_SHARE, 1}, {"social", WN_HINT_SHARE, 1},
    {"sociable", WN_HINT_SHARE, 1}, {"follow", WN_HINT_SHARE, 0}, {"print", WN_HINT_SHARE, 0},
    {"email", WN_HINT_SHARE, 0}, {"tools", WN_HINT_SHARE, 0}, {"addthis", WN_HINT_SHARE, 1},
    {"related", WN_HINT_RELATED, 1}, {"recommended", WN_HINT_RELATED, 1}, {"recommend", WN_HINT_RELATED, 1},
    {"trending", WN_HINT_RELATED, 1}, {"popular", WN_HINT_RELATED, 1}, {"outbrain", WN_HINT_RELATED, 1},
    {"taboola", WN_HINT_RELATED, 1}, {"more", WN_HINT_RELATED, 0}, {"teaser", WN_HINT_RELATED, 1},
    {"ad", WN_HINT_AD, 0}, {"ads", WN_HINT_AD, 0}, {"advert", WN_HINT_AD, 1},
    {"advertisement", WN_HINT_AD, 1}, {"adsense", WN_HINT_AD, 1}, {"sponsor", WN_HINT_AD, 1},
    {"sponsored", WN_HINT_AD, 1}, {"promo", WN_HINT_AD, 1}, {"banner", WN_HINT_AD, 1},
    {"dfp", WN_HINT_AD, 0}, {"gpt", WN_HINT_AD, 0},
    {"cookie", WN_HINT_OVERLAY, 1}, {"consent", WN_HINT_OVERLAY, 1}, {"gdpr", WN_HINT_OVERLAY, 1},
    {"modal", WN_HINT_OVERLAY, 1}, {"popup", WN_HINT_OVERLAY, 1}, {"newsletter", WN_HINT_OVERLAY, 1},
    {"subscribe", WN_HINT_OVERLAY, 1}, {"signup", WN_HINT_OVERLAY, 1}, {"login", WN_HINT_OVERLAY, 0},
    {"paywall", WN_HINT_OVERLAY, 1},
    {"byline", WN_HINT_META, 1}, {"author", WN_HINT_META, 0}, {"dateline", WN_HINT_META, 1},
    {"timestamp", WN_HINT_META, 1}, {"tags", WN_HINT_META, 0}, {"tag", WN_HINT_META, 0},
    {"meta", WN_HINT_META, 0}, {"credit", WN_HINT_META, 0},
    {"article", WN_HINT_CONTENT, 1}, {"content", WN_HINT_CONTENT, 1}, {"entry", WN_HINT_CONTENT, 1},
    {"post", WN_HINT_CONTENT, 0}, {"story", WN_HINT_CONTENT, 1}, {"body", WN_HINT_CONTENT, 0},
    {"text", WN_HINT_CONTENT, 0}, {"main", WN_HINT_CONTENT, 0}, {"prose", WN_HINT_CONTENT, 0},
    {"hentry", WN_HINT_CONTENT, 1}, {"blog", WN_HINT_CONTENT, 0}, {"markdown", WN_HINT_CONTENT, 1},
    {"headline", WN_HINT_TITLE, 1}, {"title", WN_HINT_TITLE, 0},
};

static uint16_t token_hints(const char *t, size_t n)
{
    uint16_t bits = 0;
    for (size_t k = 0; k < sizeof hint_words / sizeof hint_words[0]; k++) {
        const hint_word *h = &hint_words[k];
        size_t wl = strlen(h->word);
        if (wl == n && memcmp(h->word, t, n) == 0) bits |= h->bits;
        else if (h->substring && wl < n) {
            for (size_t i = 0; i + wl <= n; i++)
                if (memcmp(t + i, h->word, wl) == 0) { bits |= h->bits; break; }
        }
    }
    return bits;
}

uint16_t wn_hints_from_attr(const char *v, size_t n)
{
    return wn_hints_from_name(v, n, 0);
}

uint16_t wn_hints_from_name(const char *v, size_t n, int is_id)
{
    /* an id of four or more words is an anchor made from a heading
     * ("sharing-with-a-single-developer"), not a layout name */
    if (is_id) {
        int words = 0, in = 0;
        for (size_t i = 0; i < n; i++) {
            int alnum = isalnum((unsigned char)v[i]);
            if (alnum && !in) words++;
            in = alnum;
        }
        if (words >= 4) return 0;
    }
    uint16_t bits = 0;
    char tok[48];
    size_t tl = 0;
    for (size_t i = 0; i <= n; i++) {
        unsigned char c = i < n ? (unsigned char)v[i] : 0;
        int alnum = c && isalnum(c);
        int split = !alnum || (tl && isupper(c) && i > 0 && islower((unsigned char)v[i - 1]));
        if (split && tl) {
            if (tl <= sizeof tok) bits |= token_hints(tok, tl);
            tl = 0;
        }
        if (alnum) {
            if (tl < sizeof tok) tok[tl] = (char)tolower(c);
            tl++;
        }
    }
    /* a name like "article-comments" or "post-footer" describes the
     * boilerplate part, not the content */
    if (bits & WN_HINT_BOILER) bits &= (uint16_t)~WN_HINT_CONTENT;
    return bits;
}
