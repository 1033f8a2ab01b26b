/* The host of a URL (url.h). */
#include "url.h"

#include <string.h>
#include <strings.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

size_t wn_url_site(const char *url, char *out, size_t cap)
{
    if (!out || !cap) return 0;
    out[0] = '\0';
    if (!url) return 0;
    const char *h = strstr(url, "://");
    h = h ? h + 3 : url;
    const char *at = strpbrk(h, "@/?#");
    if (at && *at == '@') h = at + 1; /* user:password@ */
    size_t n = strcspn(h, "/?#:");
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) out[i] = (char)((h[i] >= 'A' && h[i] <= 'Z') ? h[i] + 32 : h[i]);
    out[n] = '\0';
    if (!strncmp(out, "www.", 4)) {
        memmove(out, out + 4, n - 3);
        n -= 4;
    }
    return n;
}

const char *wn_url_host_span(const char *url, size_t *len)
{
    const char *h = strstr(url, "://");
    h = h ? h + 3 : url;
    *len = strcspn(h, "/?#:");
    return h;
}

uint64_t wn_url_host(const char *u)
{
    while (*u == ' ' || *u == '\t' || *u == '\n') u++;
    const char *h;
    if (u[0] == '/' && u[1] == '/')
        h = u + 2;
    else if (strncasecmp(u, "http://", 7) == 0)
        h = u + 7;
    else if (strncasecmp(u, "https://", 8) == 0)
        h = u + 8;
    else {
        const char *c = u;
        while ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '+' ||
               *c == '-' || *c == '.')
            c++;
        return (*c == ':' && c > u) ? 1 : 0;
    }
    if (strncasecmp(h, "www.", 4) == 0) h += 4;
    char buf[256];
    size_t n = 0;
    for (; h[n] && h[n] != '/' && h[n] != '?' && h[n] != '#' && h[n] != ':' && n < sizeof buf; n++)
        buf[n] = (char)((h[n] >= 'A' && h[n] <= 'Z') ? h[n] + 32 : h[n]);
    return n ? XXH3_64bits(buf, n) | 2 : 1;
}
