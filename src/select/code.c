/* Code samples: a code block found as the best block yields to the post
 * around it, and a highlighter's gutter of line numbers is no text. */
#include "passes.h"

/* Whether block b is a code block: a <code>, a <pre> of code (braces and
 * '=' in it: a wire story set in <pre> is none), or an element whose text
 * is all inside those (a highlighter's <div> or <figure> wrapper, its
 * table with a gutter of line numbers). */
int wn_code_block(const winnow_doc *d, uint32_t b)
{
    const wn_dom *dom = &d->dom;
    uint32_t code = 0, all = d->stats[b].chars;
    if (all == 0) return 0;
    for (uint32_t i = b; i < b + dom->nodes[b].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_CODE) {
            code += d->stats[i].chars;
            i += x->size - 1;
        } else if (x->tag == WN_TAG_PRE) {
            uint32_t syms = 0, inner_code = 0;
            for (uint32_t j = i + 1; j < i + x->size; j++) {
                if (dom->nodes[j].tag == WN_TAG_TEXT)
                    syms += d->stats[j].code_syms;
                else if (dom->nodes[j].tag == WN_TAG_CODE)
                    inner_code = 1;
            }
            if (inner_code || (double)syms * (double)WN_RULE(d, PRE_CHARS_PER_SYMBOL) >= (double)d->stats[i].chars)
                code += d->stats[i].chars;
            i += x->size - 1;
        }
    }
    /* a gutter of line numbers is at most a fifth of the block (CODE_BLOCK_SHARE) */
    return (float)code >= WN_RULE(d, CODE_BLOCK_SHARE) * (float)all;
}

/* A code sample found as the best block: the nearest ancestor (up to four
 * levels above the sample's own wrappers, not the body, not boilerplate)
 * holding CODE_BLOCK_PROSE of running text beside it, the article around
 * the sample; else b. */
uint32_t wn_around_code(const winnow_doc *d, const wn_page_scores *ps, uint32_t b)
{
    const wn_dom *dom = &d->dom;
    const wn_labels *lb = &d->labels;
    if (WN_RULE(d, CODE_BLOCK_PROSE) <= 0.0f || !wn_code_block(d, b)) return b;
    /* levels with no running text beside the sample (the highlighter's
     * cell, table and figure) are its wrappers and are not counted */
    uint32_t c = b;
    for (int up = 0, steps = 0; (float)up < WN_RULE(d, CODE_BLOCK_LEVELS) && steps < 16; steps++) {
        uint32_t p = dom->nodes[c].parent;
        if (p == WN_NONE || p == 0 || p == dom->body || ps->boiler[p]) break;
        float beside = 0.0f;
        for (uint32_t i = p; i < p + dom->nodes[p].size; i++) {
            if (i == b) {
                i += dom->nodes[b].size - 1;
                continue;
            }
            if (lb->unit[i] == i && lb->value[i] > 0.0f && !ps->boiler[i] && !wn_code_block(d, i))
                beside += lb->value[i];
        }
        if (beside >= WN_RULE(d, CODE_BLOCK_PROSE)) return p;
        if (beside > 0.0f) up++;
        c = p;
    }
    return b;
}

/* Whether t[0..n) is a column of line numbers: 1, 2, ... N (N >= 2), each
 * on a line of its own. */
static int line_numbers(const char *t, size_t n)
{
    unsigned expect = 1;
    size_t i = 0;
    while (i < n) {
        while (i < n && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r')) i++;
        if (i == n) break;
        unsigned v = 0;
        size_t b = i;
        while (i < n && t[i] >= '0' && t[i] <= '9' && i - b < 6) v = v * 10 + (unsigned)(t[i++] - '0');
        if (i == b || v != expect) return 0;
        if (i < n && !(t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r')) return 0;
        expect++;
    }
    return expect > 2;
}

/* A code highlighter's gutter: a table cell of line numbers beside a cell
 * of code, its row's other cell. Its numbers are no text of the page
 * (LINE_GUTTER). */
void wn_drop_line_gutters(winnow_doc *d, uint32_t block)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    if (WN_RULE(d, LINE_GUTTER) <= 0.0f) return;
    for (uint32_t u = block; u < block + dom->nodes[block].size; u++) {
        if (lb->unit[u] != u || !lb->keep[u] || dom->nodes[u].tag == WN_TAG_TEXT) continue;
        const wn_stats *s = &d->stats[u];
        if (s->chars < 2 || s->words == 0) continue;
        /* the cell holding the unit (the unit, or up to two levels up) */
        uint32_t cell = u;
        for (int up = 0; up < 3 && cell != WN_NONE && dom->nodes[cell].tag != WN_TAG_TD; up++)
            cell = dom->nodes[cell].parent;
        if (cell == WN_NONE || dom->nodes[cell].tag != WN_TAG_TD || d->stats[cell].chars != s->chars) continue;
        if (!line_numbers(d->page_text.text + s->nt_begin, s->nt_end - s->nt_begin)) continue;
        int beside_code = 0;
        for (uint32_t c = dom->nodes[dom->nodes[cell].parent].first_child; c != WN_NONE && !beside_code;
             c = dom->nodes[c].next_sibling)
            beside_code = c != cell && dom->nodes[c].tag == WN_TAG_TD && wn_code_block(d, c);
        if (!beside_code) continue;
        lb->keep[u] = 0;
        if (d->explain) d->explain->sel_why[u] = WN_WHY_LINE_GUTTER;
    }
}
