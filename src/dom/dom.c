#include "dom.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

size_t wn_node_path(const wn_dom *d, uint32_t i, char *out, size_t cap)
{
    /* Collect ancestors bottom-up into a small stack of indices, then print
     * top-down; paths deeper than the stack keep their deepest part. */
    uint32_t stack[256];
    size_t depth = 0;
    for (uint32_t k = i; k != WN_NONE && d->nodes[k].tag != WN_TAG_DOCUMENT; k = d->nodes[k].parent) {
        if (depth == sizeof stack / sizeof stack[0]) break; /* keep the deepest part */
        stack[depth++] = k;
    }
    size_t len = 0;
    if (cap) out[0] = '\0';
    while (depth) {
        const char *nm = d->nodes[stack[--depth]].name;
        size_t nl = strlen(nm);
        if (len + nl + 2 > cap) break;
        if (len) out[len++] = '.';
        memcpy(out + len, nm, nl);
        len += nl;
        out[len] = '\0';
    }
    return len;
}

void wn_node_text(const wn_dom *d, uint32_t i, wn_buf *out, int (*skip)(const void *ctx, uint32_t k), const void *ctx)
{
    int space = 0;
    uint32_t end = i + d->nodes[i].size;
    for (uint32_t k = i; k < end; k++) {
        const wn_node *x = &d->nodes[k];
        if (x->tag != WN_TAG_TEXT) {
            if (wn_tag_has(x->tag, WN_TF_BREAK) || x->tag == WN_TAG_BR) space = 1;
            continue;
        }
        if ((x->flags & WN_NF_HIDDEN) || (skip && skip(ctx, k))) continue;
        const char *s = d->text + x->text_begin;
        for (uint32_t j = 0; j < x->text_len; j++) {
            unsigned char c = (unsigned char)s[j];
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') {
                space = 1;
                continue;
            }
            if (space && out->len) wn_buf_putc(out, ' ');
            space = 0;
            wn_buf_putc(out, (char)c);
        }
    }
}

int wn_node_dialog(const wn_dom *d, uint32_t i)
{
    const wn_node *x = &d->nodes[i];
    if (x->tag == WN_TAG_DIALOG) return 1;
    if (x->tag == WN_TAG_TEXT) return 0;
    const char *v = wn_node_attr(d, x, "aria-modal", NULL);
    if (v && !strcasecmp(v, "true")) return 1;
    v = wn_node_attr(d, x, "role", NULL);
    return v && (!strcasecmp(v, "dialog") || !strcasecmp(v, "alertdialog"));
}

/* Whether v[0..n) holds word as a whole token (wn_node_reviews). */
static int has_token(const char *v, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i < n;) {
        while (i < n && !isalnum((unsigned char)v[i])) i++;
        size_t b = i;
        while (i < n && isalnum((unsigned char)v[i]) &&
               !(i > b && islower((unsigned char)v[i - 1]) && isupper((unsigned char)v[i])))
            i++;
        if (i - b == k && strncasecmp(v + b, word, k) == 0) return 1;
    }
    return 0;
}

/* How x's class or id names reviews: 2 the reviews (the plural), 1 a
 * review, 0 neither, or names of the product's own text too (critics'
 * reviews quoted in a description, "game_area_reviews" in a
 * "game_area_description"; a book's editorial reviews). */
static int review_named(const wn_dom *d, const wn_node *x)
{
    static const char *const attrs[] = { "class", "id" };
    const char *v[2];
    size_t n[2] = { 0, 0 };
    /* most names have no "review" in them at all: one quick look first */
    int any = 0;
    for (size_t a = 0; a < 2; a++) {
        v[a] = wn_node_attr(d, x, attrs[a], &n[a]);
        for (size_t i = 0; v[a] && !any && i + 6 <= n[a]; i++)
            any = (v[a][i] | 0x20) == 'r' && strncasecmp(v[a] + i, "review", 6) == 0;
    }
    if (!any) return 0;
    int named = 0;
    for (size_t a = 0; a < 2; a++) {
        if (!v[a]) continue;
        if (has_token(v[a], n[a], "description") || has_token(v[a], n[a], "editorial")) return 0;
        if (has_token(v[a], n[a], "reviews"))
            named = 2;
        else if (!named && has_token(v[a], n[a], "review"))
            named = 1;
    }
    return named;
}

void wn_dom_reviews(const wn_dom *d, uint8_t *out)
{
    /* out[i], while it is worked out: bit 0, i's subtree holds an <h1>;
     * bits 1-2, how many of i's children are named a review or the
     * reviews (up to 2); bits 4-5, how i is named (review_named); bit 3,
     * i is in the reviews */
    enum { H1 = 1, KIDS = 6, KID = 2, IN = 8, NAMED_SHIFT = 4 };
    uint32_t n = d->count;
    if (!n) return;
    memset(out, 0, n);
    /* children come after their parent: a backward pass carries up */
    for (uint32_t i = n; i-- > 0;) {
        const wn_node *x = &d->nodes[i];
        if (x->tag == WN_TAG_TEXT) continue;
        if (x->tag == WN_TAG_H1) out[i] |= H1;
        int named = review_named(d, x);
        out[i] = (uint8_t)(out[i] | named << NAMED_SHIFT);
        if (!i) break;
        uint8_t *p = &out[x->parent];
        if (out[i] & H1) *p |= H1;
        if (named && (*p & KIDS) < 2 * KID) *p = (uint8_t)(*p + KID);
    }
    /* then top down: the reviews (the plural), or a review beside
     * another (one review alone is as likely a critic's, the page's
     * article), holding no <h1> */
    for (uint32_t i = 0; i < n; i++) {
        const wn_node *x = &d->nodes[i];
        int in = i && (out[x->parent] & IN);
        int named = (out[i] >> NAMED_SHIFT) & 3;
        int beside = i && (out[x->parent] & KIDS) >= 2 * KID;
        if (in || (!(out[i] & H1) && (named == 2 || (named == 1 && beside)))) out[i] |= IN;
    }
    for (uint32_t i = 0; i < n; i++) out[i] = (out[i] & IN) != 0;
}

int wn_node_aria_hidden(const wn_dom *d, uint32_t i)
{
    const char *v = wn_node_attr(d, &d->nodes[i], "aria-hidden", NULL);
    return v && !strcasecmp(v, "true");
}
