/* Drops at the top of the content block: datelines and bylines above the
 * article's first sentence. */
#include "passes.h"

#include "../score/records.h"
#include "../text/sentence.h"

#include <ctype.h>
#include <string.h>

/* Whether case-folded line t[0..n) is a date: it has a number and a
 * date or time, does not end as a sentence does, and has at most
 * DATELINE_OTHER_WORDS words of four or more bytes that are neither
 * ("Published", "Last updated", a byline's name and title). */
static int dateline_like(const winnow_doc *d, const char *t, size_t n)
{
    int digit = 0, other = 0;
    /* a sentence ends with a stop; a date line does not */
    if (wn_ends_sentence(t, wn_trimmed_end(t, n))) return 0;
    for (size_t k = 0; k < n && !digit; k++) digit = t[k] >= '0' && t[k] <= '9';
    if (!digit || !wn_has_date(t, n)) return 0;
    for (size_t i = 0; i < n;) {
        while (i < n && !(isalnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80)) i++;
        size_t b = i;
        int num = 0;
        while (i < n && (isalnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80))
            num |= isdigit((unsigned char)t[i++]);
        if (i - b >= 4 && !num && !wn_has_date(t + b, i - b)) other++;
    }
    return (float)other <= WN_RULE(d, DATELINE_OTHER_WORDS);
}

/* Whether case-folded line t[0..n) is a byline: a byline word ("by",
 * "von", "par", "por", "di", "door", "av", "af", "przez") and a name of at
 * most BYLINE_MAX_WORDS words, not a sentence. */
int wn_byline_like(const winnow_doc *d, const char *t, size_t n)
{
    static const char *const by[] = { "by ", "von ",   "par ",   "por ",    "di ",     "door ",    "av ",
                                      "af ", "przez ", "text: ", "texto: ", "autor: ", "author: ", "written by " };
    while (n && (*t == ' ' || *t == '-' || *t == '\n')) {
        t++;
        n--;
    }
    size_t e = wn_trimmed_end(t, n);
    if (!e || wn_ends_sentence(t, e) || wn_ends_colon(t, e)) return 0;
    int opens = 0;
    for (size_t k = 0; k < sizeof by / sizeof by[0] && !opens; k++) {
        size_t m = strlen(by[k]);
        opens = m < e && memcmp(t, by[k], m) == 0;
    }
    if (!opens) return 0;
    int words = 0;
    for (size_t i = 0; i < e;) {
        while (i < e && t[i] == ' ') i++;
        if (i < e) words++;
        while (i < e && t[i] != ' ') i++;
    }
    return (float)words <= WN_RULE(d, BYLINE_MAX_WORDS) + 1.0f;
}

/* Datelines: short lines that only say when ("March 12, 2009", "Published
 * 10:02 AM EST Nov 19, 2019", often with the byline) among the first
 * DATELINE_TOP_LINES lines of the content block, before its first
 * sentence; at most DATELINE_MAX_LINES of them. */
void wn_drop_lead_datelines(winnow_doc *d, const wn_page_scores *ps, uint32_t block)
{
    const float max_chars = WN_RULE(d, DATELINE_MAX_CHARS);
    if (max_chars <= 0.0f || block == WN_NONE) return;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    const uint32_t end = block + dom->nodes[block].size;
    /* the top of the block: its first few lines, of which one or two say
     * when (a list of dated items further down is the text) */
    int lines = 0, dropped = 0;
    for (uint32_t i = block;
         i < end && (float)lines < WN_RULE(d, DATELINE_TOP_LINES) && (float)dropped < WN_RULE(d, DATELINE_MAX_LINES);
         i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || lb->unit[i] != i || !lb->keep[i] || ps->own[i].chars == 0) continue;
        if (i == lb->headline || (lb->headline_inline != WN_NONE && wn_node_within(dom, i, lb->headline_inline)))
            continue;
        const wn_unit_stats *o = &ps->own[i];
        if ((float)o->chars > max_chars) return; /* the running text has begun */
        lines++;
        const wn_stats *s = &d->stats[i];
        const char *t = d->page_text.text + s->nt_begin;
        size_t n = s->nt_end - s->nt_begin;
        /* its text with the lines inside it (a byline over its date) when
         * they are short; else its own text alone (loose date spans at the
         * top of the story's element) */
        char own[256];
        if ((float)s->chars > WN_RULE(d, DATELINE_WHOLE_RATIO) * max_chars) {
            n = 0;
            for (uint32_t j = i + 1; j < i + x->size; j++) {
                if (dom->nodes[j].tag != WN_TAG_TEXT || lb->unit[j] != i) continue;
                const wn_stats *q = &d->stats[j];
                size_t m = q->nt_end - q->nt_begin;
                if (n + m + 1 > sizeof own) break;
                memcpy(own + n, d->page_text.text + q->nt_begin, m);
                n += m;
                own[n++] = ' ';
            }
            t = own;
        }
        /* not a heading, a table's cell (a data table's dates are its
         * data) or code (an address and a port are no date), and all but a
         * few of its words a date's */
        if (!wn_tag_has(x->tag, WN_TF_HEADING) && x->tag != WN_TAG_TD && x->tag != WN_TAG_TH &&
            !(x->flags & WN_NF_PRE) && x->tag != WN_TAG_PRE && (dateline_like(d, t, n) || wn_byline_like(d, t, n))) {
            lb->keep[i] = 0;
            dropped++;
            if (d->explain) d->explain->sel_why[i] = WN_WHY_DATELINE;
        } else if (lb->value[i] > 0.0f && o->stops) {
            return; /* a sentence */
        }
    }
}
