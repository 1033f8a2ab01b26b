/* The article strategy: one story (a post, a page of a manual) in a block
 * of running text. Until strategies for other kinds of page come, every
 * page's. Its steps:
 *
 *   1. the block: the best block (block.c), moved into the headline's
 *      article (title anchoring), widened from a code sample to the post
 *      around it (code.c), never in the page's own header or footer;
 *   2. its units kept (keep.c), with the siblings that join it (or the
 *      sections, the part of the body past an embed, a data table's
 *      lead, the other <section>s of <main>), a paragraph the parser moved
 *      out of its end, and the other posts of a forum thread (thread.c);
 *   3. around it: the headline (headline.c), a standfirst, lone
 *      paragraphs in site mode;
 *   4. drops at its top and end, and ad labels in it (drop_lead.c,
 *      drop_end.c, code.c). */
#include "passes.h"
#include "strategy.h"

#include <strings.h>

/* Title anchoring: the best block must be the headline's article, when
 * the page has a headline and that article holds a fair share of the
 * best's value. Returns the block (maybe best) and sets *why and
 * *best_score when it moves; guard gets the anchor and the other
 * articles' headlines (peers, room for one per node). */
static uint32_t anchored_block(const winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t best,
                               float *best_score, uint32_t *peers, wn_join_guard *guard, uint8_t *why)
{
    const wn_dom *dom = &d->dom;
    uint32_t npeers = 0;
    uint32_t anchor =
        best != WN_NONE && WN_RULE(d, ANCHOR_SHARE) > 0.0f ? wn_anchor_region(d, ps, peers, &npeers) : WN_NONE;
    guard->anchor = anchor;
    guard->peers = peers;
    guard->npeers = npeers;
    if (anchor == WN_NONE || wn_node_within(dom, anchor, best)) return best;
    /* the best block lies outside the article, or holds it and other
     * articles besides */
    int outside = !wn_node_within(dom, best, anchor);
    int others = 0;
    for (uint32_t k = 0; k < npeers && !outside; k++)
        others += wn_node_within(dom, best, peers[k]) && !wn_node_within(dom, anchor, peers[k]);
    if (!outside && others == 0) return best;
    uint32_t inner = WN_NONE;
    for (uint32_t i = anchor; i < anchor + dom->nodes[anchor].size; i++) {
        const wn_node *x = &dom->nodes[i];
        if (x->tag == WN_TAG_TEXT || (x->flags & WN_NF_HIDDEN)) continue;
        if (inner == WN_NONE || score[i] > score[inner]) inner = i;
    }
    if (inner == WN_NONE || score[inner] < WN_RULE(d, ANCHOR_SHARE) * *best_score) return best;
    *best_score = score[inner];
    *why = WN_WHY_ANCHORED;
    return inner;
}

/* Step 1: the content block, in sel->best (WN_NONE: none) and, when it
 * lay in the page's frame with no block elsewhere, sel->framed. 0, or -1
 * when out of memory. */
static int choose_block(wn_selection *sel, float *best_score, wn_join_guard *guard, uint8_t *why)
{
    winnow_doc *d = sel->d;
    const wn_page_scores *ps = sel->ps;
    const wn_dom *dom = &d->dom;
    const float *score = sel->score;
    uint32_t best = wn_best_block(d, score, best_score);
    uint32_t *peers = wn_arena_alloc(wn_doc_scratch(d), (size_t)dom->count * sizeof(uint32_t));
    if (!peers) return -1;
    *why = WN_WHY_BEST_BLOCK;
    best = anchored_block(d, ps, score, best, best_score, peers, guard, why);
    if (best != WN_NONE) {
        uint32_t wider = wn_around_code(d, ps, best);
        if (wider != best) {
            best = wider;
            *best_score = score[best];
        }
    }
    /* the site's frame is never the page's content: a tagline, a bio or a
     * license line in the page's own header or footer yields to the best
     * block elsewhere, and with none the page has no main content */
    uint32_t framed = WN_NONE;
    const uint8_t *frame = best != WN_NONE && WN_RULE(d, FRAME_MAX_SHARE) > 0.0f ? wn_frame_marks(d, ps) : NULL;
    if (frame && frame[best]) {
        framed = best;
        best = wn_best_outside_frames(d, score, frame);
        if (best != WN_NONE) {
            *best_score = score[best];
            *why = WN_WHY_BEST_BLOCK;
            framed = WN_NONE;
        } else if (d->explain) {
            for (uint32_t i = framed; i < framed + dom->nodes[framed].size; i++)
                if (d->labels.unit[i] == i) d->explain->sel_why[i] = WN_WHY_FRAME;
        }
    }
    sel->best = best;
    sel->framed = framed;
    return 0;
}

/* No running text anywhere: keep what is not a link list, so a list page
 * or a bare fragment still yields its words. */
static void keep_without_block(winnow_doc *d, const wn_page_scores *ps)
{
    wn_labels *lb = &d->labels;
    for (uint32_t i = 0; i < d->dom.count; i++)
        if (lb->unit[i] == i && wn_unit_keepable(d, ps, i)) {
            lb->keep[i] = 1;
            wn_explain_keep(d, i, KEEP_RUNNING, WN_WHY_NO_BLOCK);
            if (d->explain) d->explain->in_block[i] = 1;
        }
    lb->container = d->dom.body;
}

/* An article split into sections, each wrapped more than once (the best
 * block is the inner wrapper of one; the outer wrappers add no text but
 * links, a related-coverage box): sections of the same shape as its
 * outermost wrapper join. Returns that wrapper when any joined, else
 * WN_NONE. */
static uint32_t join_sections(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t best,
                              const wn_join_guard *guard)
{
    const wn_dom *dom = &d->dom;
    uint32_t w = best;
    const float plain = (float)(d->stats[best].chars - d->stats[best].link_chars);
    for (uint32_t p = dom->nodes[w].parent; p != WN_NONE && p != 0 && p != dom->body && !ps->boiler[p] &&
                                            (float)(d->stats[p].chars - d->stats[p].link_chars) <= plain + 0.5f;
         p = dom->nodes[p].parent)
        w = p;
    if (w == best) return WN_NONE;
    return wn_join_siblings(d, ps, score, w, WN_RULE(d, JOIN_MIN_VALUE), 1, guard, WN_WHY_JOINED_SECTIONS) ? w
                                                                                                           : WN_NONE;
}

/* An article whose body is split in two by an embed (a player, a
 * podcast's frame, an ad slot, a picture: an element that shows no text):
 * the best block is the inner wrapper of one part, its outer wrappers add
 * no text, and the next part, wrapped alike but for a class ("body
 * version-2 section", "body section"), lies past the embed. Siblings of
 * the outermost wrapper on either side of it, each past one or more
 * elements without text (not a <br> or <hr>: a rule before a bio box is
 * no embed), join when they score JOIN_WRAPPER_SHARE of the wrapper's
 * score. A sibling right beside it (a bio, a note box) does not. *joined_at
 * gets the wrapper when any joined, else WN_NONE. 0, or -1 when out of
 * memory. */
static int join_past_embeds(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t best,
                            const wn_join_guard *guard, uint32_t *joined_at)
{
    const wn_dom *dom = &d->dom;
    const float share = WN_RULE(d, JOIN_WRAPPER_SHARE);
    *joined_at = WN_NONE;
    if (share > 1.0f) return 0;
    uint32_t w = best;
    for (uint32_t p = dom->nodes[w].parent;
         p != WN_NONE && p != 0 && p != dom->body && !ps->boiler[p] && d->stats[p].chars == d->stats[best].chars;
         p = dom->nodes[p].parent)
        w = p;
    uint32_t parent = dom->nodes[w].parent;
    if (w == best || parent == WN_NONE || parent == 0 || (dom->nodes[parent].flags & WN_NF_HIDDEN)) return 0;
    float min = share * score[w];
    if (min < WN_RULE(d, JOIN_MIN_VALUE)) min = WN_RULE(d, JOIN_MIN_VALUE);
    /* the siblings in order, w's index among them */
    uint32_t n = 0, at = 0;
    for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) n++;
    uint32_t *kids = wn_arena_alloc(wn_doc_scratch(d), (size_t)n * sizeof *kids);
    if (!kids) return -1;
    n = 0;
    for (uint32_t c = dom->nodes[parent].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (c == w) at = n;
        kids[n++] = c;
    }
    int joined = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int embeds = 0;
        for (long k = (long)at + dir; k >= 0 && k < (long)n; k += dir) {
            uint32_t c = kids[k];
            if (dom->nodes[c].tag == WN_TAG_TEXT && d->stats[c].chars == 0) continue;
            if (d->stats[c].chars == 0) {
                embeds += !wn_tag_has(dom->nodes[c].tag, WN_TF_VOID);
                continue;
            }
            if (!embeds || dom->nodes[c].tag == WN_TAG_TEXT || score[c] < min || ps->boiler[c]) break;
            if (guard->anchor != WN_NONE && !wn_node_within(dom, c, guard->anchor) &&
                wn_holds_peer(dom, c, guard->peers, guard->npeers))
                break;
            wn_keep_subtree(d, ps, c, WN_WHY_JOINED_PAST_EMBED);
            joined++;
            embeds = 0;
        }
    }
    if (joined) *joined_at = w;
    return 0;
}

/* A list article: the content block is a data table (wn_data_table),
 * which scores far above the paragraphs that introduce it, so few or none
 * join at JOIN_SHARE. The table's lead, its siblings before it that score
 * JOIN_MIN_VALUE (running text), joins; elements without text or
 * boilerplate between them are passed over, and the walk stops at the
 * first sibling with text that does not join. Returns how many joined. */
static int keep_table_lead(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t best,
                           const wn_join_guard *guard)
{
    const wn_dom *dom = &d->dom;
    if (WN_RULE(d, TABLE_LEAD) <= 0.0f || !wn_data_table(d, best)) return 0;
    uint32_t parent = dom->nodes[best].parent;
    if (parent == WN_NONE || parent == 0 || (dom->nodes[parent].flags & WN_NF_HIDDEN)) return 0;
    /* the last sibling with text before the table that does not join */
    uint32_t from = WN_NONE;
    for (uint32_t c = dom->nodes[parent].first_child; c != best; c = dom->nodes[c].next_sibling) {
        if (!d->stats[c].chars || ps->boiler[c]) continue;
        int peer = guard->anchor != WN_NONE && !wn_node_within(dom, c, guard->anchor) &&
                   wn_holds_peer(dom, c, guard->peers, guard->npeers);
        if (dom->nodes[c].tag == WN_TAG_TEXT || score[c] < WN_RULE(d, JOIN_MIN_VALUE) || peer) from = c;
    }
    int joined = 0;
    uint32_t c = from == WN_NONE ? dom->nodes[parent].first_child : dom->nodes[from].next_sibling;
    for (; c != best; c = dom->nodes[c].next_sibling) {
        if (!d->stats[c].chars || ps->boiler[c]) continue;
        wn_keep_subtree(d, ps, c, WN_WHY_TABLE_LEAD);
        joined++;
    }
    return joined;
}

/* Whether element p is the page's main landmark: <main> or role=main. */
static int main_landmark(const wn_dom *dom, uint32_t p)
{
    if (dom->nodes[p].tag == WN_TAG_MAIN) return 1;
    const char *role = wn_node_attr(dom, &dom->nodes[p], "role", NULL);
    return role && !strcasecmp(role, "main");
}

/* Sum of the units' values before any hint (ps->raw) in subtree r. */
static float raw_sum(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    float v = 0.0f;
    for (uint32_t i = r; i < r + d->dom.nodes[r].size; i++)
        if (d->labels.unit[i] == i) v += ps->raw[i];
    return v;
}

/* Whether subtree r holds a heading that is mostly a link: a teaser's
 * headline, linking the story it sums up. */
static int linked_heading(const winnow_doc *d, const wn_page_scores *ps, uint32_t r)
{
    const wn_dom *dom = &d->dom;
    for (uint32_t i = r; i < r + dom->nodes[r].size; i++)
        if (d->labels.unit[i] == i && wn_tag_has(dom->nodes[i].tag, WN_TF_HEADING) &&
            2 * ps->own[i].link_chars > ps->own[i].chars)
            return 1;
    return 0;
}

/* A page whose <main> is split into <section>s, the content block being
 * one: a sibling <section> whose only boilerplate is its own related name
 * ("more-features": more of the same page, not more stories) is main
 * content as <main> says, when it is running text, not teasers (no
 * heading of it is a link), scoring before hints JOIN_SHARE of the
 * block's section (and JOIN_MIN_VALUE). Its units are kept, their related
 * name pardoned (MAIN_SECTIONS). Returns <main> when any joined, else
 * WN_NONE. */
static uint32_t keep_main_sections(winnow_doc *d, const wn_page_scores *ps, uint32_t best, const wn_join_guard *guard)
{
    const wn_dom *dom = &d->dom;
    if (WN_RULE(d, MAIN_SECTIONS) <= 0.0f) return WN_NONE;
    uint32_t w = best;
    for (uint32_t p = dom->nodes[w].parent; p != WN_NONE && p != 0 && d->stats[p].chars == d->stats[best].chars;
         p = dom->nodes[p].parent)
        w = p;
    uint32_t main = dom->nodes[w].parent;
    if (main == WN_NONE || main == 0 || ps->boiler[main] || (dom->nodes[main].flags & WN_NF_HIDDEN) ||
        !main_landmark(dom, main) || dom->nodes[w].tag != WN_TAG_SECTION)
        return WN_NONE;
    float min = WN_RULE(d, JOIN_SHARE) * raw_sum(d, ps, w);
    if (min < WN_RULE(d, JOIN_MIN_VALUE)) min = WN_RULE(d, JOIN_MIN_VALUE);
    int joined = 0;
    for (uint32_t c = dom->nodes[main].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling) {
        if (c == w || dom->nodes[c].tag != WN_TAG_SECTION || (dom->nodes[c].flags & WN_NF_HIDDEN) ||
            ps->boiler[c] != WN_HINT_RELATED || !(ps->self_hint[c] & WN_HINT_RELATED))
            continue;
        if (guard->anchor != WN_NONE && !wn_node_within(dom, c, guard->anchor) &&
            wn_holds_peer(dom, c, guard->peers, guard->npeers))
            continue;
        if (raw_sum(d, ps, c) < min || linked_heading(d, ps, c)) continue;
        for (uint32_t i = c; i < c + dom->nodes[c].size; i++) {
            int how;
            if (d->explain) d->explain->in_block[i] = 1;
            if (d->labels.unit[i] == i && (how = wn_unit_keepable_pardoned(d, ps, i, WN_HINT_RELATED))) {
                d->labels.keep[i] = 1;
                wn_explain_keep(d, i, how, WN_WHY_MAIN_SECTION);
            }
        }
        joined++;
    }
    return joined ? main : WN_NONE;
}

/* A paragraph the parser moved out of the block's end (an unclosed <p>
 * before </font>: HTML5's repair of 2000s markup) joins a block of three
 * or more kept <p>s when it is running text ending a sentence. */
static void keep_trailing_paragraph(winnow_doc *d, const wn_page_scores *ps, uint32_t best)
{
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    uint32_t nx = dom->nodes[best].next_sibling;
    while (nx != WN_NONE && dom->nodes[nx].tag == WN_TAG_TEXT && d->stats[nx].chars == 0)
        nx = dom->nodes[nx].next_sibling;
    unsigned paras = 0;
    for (uint32_t c = dom->nodes[best].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
        paras += dom->nodes[c].tag == WN_TAG_P && lb->keep[c];
    if (nx != WN_NONE && dom->nodes[nx].tag == WN_TAG_P && lb->unit[nx] == nx && lb->value[nx] > 0.0f &&
        !ps->boiler[nx] && paras >= 3 && wn_ends_sentence_unit(d, nx) &&
        wn_mostly_words(d, d->stats[nx].link_chars, d->stats[nx].chars)) {
        wn_keep_subtree(d, ps, nx, WN_WHY_JOINED);
        lb->container = dom->nodes[best].parent;
    }
}

/* Step 2: the block's units, and the siblings, the trailing paragraph and
 * the thread's posts that join it. *block: the block, in and out (out:
 * the outermost wrapper when sections or parts past an embed joined). 0,
 * or -1 when out of memory. */
static int keep_block(winnow_doc *d, const wn_page_scores *ps, const float *score, uint32_t *block, float best_score,
                      const wn_join_guard *guard, uint8_t why)
{
    uint32_t best = *block;
    const wn_dom *dom = &d->dom;
    wn_labels *lb = &d->labels;
    /* Siblings that score well themselves join the content (an article
     * split into several blocks by an advertisement or a figure); the
     * container is then their parent, of which only those children are
     * kept. */
    uint32_t parent = dom->nodes[best].parent;
    float threshold = WN_RULE(d, JOIN_SHARE) * best_score;
    if (threshold < WN_RULE(d, JOIN_MIN_VALUE)) threshold = WN_RULE(d, JOIN_MIN_VALUE);
    int joined = wn_join_siblings(d, ps, score, best, threshold, 0, guard, WN_WHY_JOINED);
    if (!joined && WN_RULE(d, JOIN_SECTIONS) > 0.0f) {
        uint32_t w = join_sections(d, ps, score, best, guard);
        if (w != WN_NONE) {
            joined = 1;
            best = w;
            parent = dom->nodes[w].parent;
        }
    }
    /* a table's body as the block: the whole table, and its lead */
    const uint32_t table = wn_whole_table(d, best);
    if (keep_table_lead(d, ps, score, table, guard)) {
        joined = 1;
        parent = dom->nodes[table].parent;
    }
    if (!joined) {
        uint32_t w;
        if (join_past_embeds(d, ps, score, best, guard, &w) != 0) return -1;
        if (w != WN_NONE) {
            joined = 1;
            best = w;
            parent = dom->nodes[w].parent;
        }
    }
    /* the container is then <main>, of which the sections joined are kept */
    uint32_t main = keep_main_sections(d, ps, best, guard);
    if (main != WN_NONE) {
        joined = 1;
        parent = main;
    }
    if (!joined) {
        /* a document in headed sections (sections.c) */
        uint32_t w = wn_join_headed_sections(d, ps, best, guard);
        if (w != WN_NONE) {
            joined = 1;
            parent = w;
        }
    }
    wn_keep_subtree(d, ps, best, why);
    if (table != best) {
        wn_keep_subtree(d, ps, table, why);
        lb->container = table;
    }
    if (joined) lb->container = parent;
    if (!joined && WN_RULE(d, TRAILING_PARAGRAPH) > 0.0f) keep_trailing_paragraph(d, ps, best);
    /* a forum thread: every post of the run, not the best one */
    uint32_t post = wn_thread_record(d, ps, best);
    if (post != WN_NONE) {
        uint32_t run = dom->nodes[post].parent;
        for (uint32_t c = dom->nodes[run].first_child; c != WN_NONE; c = dom->nodes[c].next_sibling)
            if (d->stats[c].chars && wn_same_shape(dom, c, post)) wn_keep_subtree(d, ps, c, WN_WHY_THREAD);
        if (!wn_node_within(dom, lb->container, run)) lb->container = run;
    }
    *block = best;
    return 0;
}

int wn_select_article(wn_selection *sel)
{
    winnow_doc *d = sel->d;
    const wn_page_scores *ps = sel->ps;
    wn_labels *lb = &d->labels;
    float best_score;
    wn_join_guard guard;
    uint8_t why;
    if (choose_block(sel, &best_score, &guard, &why) != 0) return -1;
    lb->container = sel->best;
    lb->headline = WN_NONE;
    lb->headline_inline = WN_NONE;
    if (sel->framed != WN_NONE) return 0; /* nothing kept: the fallback may still find an article that names sank */
    if (sel->best == WN_NONE) {
        keep_without_block(d, ps);
        return 0;
    }
    if (keep_block(d, ps, sel->score, &sel->best, best_score, &guard, why) != 0) return -1;
    /* step 3: around the block */
    if (sel->include_title) wn_keep_headline(d, lb->container);
    if (lb->headline != WN_NONE && lb->headline < lb->container) wn_keep_standfirst(d, ps);
    if (lb->unique) wn_keep_lone_paragraphs(d, ps);
    /* step 4: the block's top and end */
    wn_drop_end_plugs(d, ps, lb->container);
    wn_drop_end_lists(d, ps, lb->container);
    wn_drop_lead_datelines(d, ps, lb->container);
    wn_drop_line_gutters(d, lb->container);
    wn_drop_list_labels(d, ps, lb->container);
    wn_drop_ad_labels(d, ps, lb->container);
    return 0;
}
