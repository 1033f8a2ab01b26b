/* The host of a URL, the one place each reading of it is written.
 *
 * Three readings, for three questions; they differ on purpose and their
 * differences are listed so that a caller picks the one it means:
 *
 *   wn_url_site       the site a page belongs to (winnow_url_site, the JSON
 *                     "site" field, a partial's site name): past "://" or
 *                     from the start, past "user:password@", up to /?#: ;
 *                     lower-cased, "www." dropped, cut to cap - 1 bytes.
 *   wn_url_host_span  the host as written, for comparing words of it: past
 *                     "://" or from the start, up to /?#: ; nothing folded.
 *   wn_url_host       whether two links go to one host (a hash): only an
 *                     http(s) or scheme-relative URL has one; no userinfo
 *                     step; "www." dropped in any case; 256 bytes read. */
#ifndef WN_URL_H
#define WN_URL_H

#include <stddef.h>
#include <stdint.h>

/* url's site into out (NUL-terminated, at most cap - 1 bytes); its length,
 * 0 when url is NULL or has no host. */
size_t wn_url_site(const char *url, char *out, size_t cap);

/* url's host as written: where it starts, and its length in *len. */
const char *wn_url_host_span(const char *url, size_t *len);

/* Hash of the host of an absolute http(s) or scheme-relative URL, case
 * folded and without "www."; 0 for a relative URL, 1 for another scheme
 * (mailto:, javascript:). */
uint64_t wn_url_host(const char *u);

#endif
