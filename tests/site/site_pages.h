/* Generated pages of one news site for the site-model C tests.
 *
 * Two templates, A and B (B: the site after a redesign). Every page has a
 * header with the site name and a nav menu, an article (headline and four
 * or five paragraphs made from a seeded generator, with made-up names so
 * that no two pages share their set of terms), a closing note paragraph
 * that every article carries (a long plain sentence in the article's own
 * container, without any boilerplate class name, so the page scorer alone
 * keeps it), a "related stories" box of links that change from page to
 * page, and a footer. Page (t, k) is always the same page. */
#ifndef WINNOW_TEST_SITE_PAGES_H
#define WINNOW_TEST_SITE_PAGES_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct site_template {
    const char *name;
    const char *nav[8];
    const char *note;
    const char *related_title;
    const char *footer;
} site_template;

__attribute__((unused)) static const site_template template_a = {
    "The Millbrook Courier",
    { "Home", "Local news", "Politics", "Business", "Culture", "Sport", "Weather", "Opinion" },
    "The Millbrook Courier has been written, edited and printed by a small cooperative of reporters in the "
    "old mill on Water Street since 1921, and every story on these pages is checked twice before it reaches "
    "our readers in the valley and beyond.",
    "Related stories",
    "Copyright 2024 The Millbrook Courier. All rights reserved.",
};

__attribute__((unused)) static const site_template template_b = {
    "Courier Online",
    { "Front page", "Region", "Economy", "Arts and books", "Games", "Climate", "Letters", "Podcasts" },
    "Courier Online is supported by readers who pay what they can each month, which lets our newsroom stay "
    "independent of advertisers and keep every article free to read for everyone who lives along the river.",
    "More from the newsroom",
    "Courier Online, 12 Quay Road, Millbrook. Registered charity 40213.",
};

static const char *const sp_words[] = {
    "harbour",   "river",      "council",   "budget",   "school",  "winter",    "market",  "railway",  "station",
    "bridge",    "village",    "farmers",   "teachers", "nurses",  "engineers", "museum",  "library",  "garden",
    "orchard",   "festival",   "concert",   "theatre",  "season",  "weather",   "storm",   "flood",    "harvest",
    "ferry",     "island",     "coast",     "valley",   "forest",  "report",    "survey",  "plan",     "meeting",
    "committee", "mayor",      "residents", "visitors", "project", "repairs",   "traffic", "cyclists", "children",
    "students",  "volunteers", "bakery",    "kitchen",  "bread",   "cheese",    "apples",  "archive",  "letter",
    "painting",  "choir",      "morning",   "evening",
};
static const char *const sp_verbs[] = {
    "opened",  "closed",   "visited", "described", "reported", "approved", "rejected",  "discussed", "welcomed",
    "planned", "repaired", "built",   "measured",  "counted",  "recorded", "collected", "delivered", "crossed",
};
static const char *const sp_syllables[] = {
    "bra", "ko", "ven", "lis", "tor", "ma",  "ri", "del", "sun", "fa",
    "gre", "no", "pel", "ix",  "ur",  "tan", "mo", "cas", "ly",  "dun",
};

typedef struct sp_buf {
    char *p;
    size_t len, cap;
} sp_buf;

static void sp_add(sp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sp_add(sp_buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) abort();
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) abort();
        b->p = np;
        b->cap = cap;
    }
}

static uint32_t sp_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* A made-up proper name, different for every n. */
static void sp_name(sp_buf *b, unsigned n, int capital)
{
    char w[64];
    size_t len = 0;
    do {
        const char *s = sp_syllables[n % 20];
        n /= 20;
        while (*s && len < sizeof w - 1) w[len++] = *s++;
    } while (n);
    if (len < 4) {
        memcpy(w + len, "wick", 4);
        len += 4;
    }
    w[len] = '\0';
    if (capital) w[0] = (char)(w[0] - 32);
    sp_add(b, "%s", w);
}

#define SP_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void sp_sentence(sp_buf *b, uint64_t *rng, unsigned uniq)
{
    unsigned n = 9 + sp_next(rng) % 10;
    for (unsigned i = 0; i < n; i++) {
        if (i) sp_add(b, " ");
        if (i == 3)
            sp_name(b, uniq, 1);
        else if (i % 4 == 2)
            sp_add(b, "%s", sp_verbs[sp_next(rng) % SP_COUNT(sp_verbs)]);
        else {
            const char *w = sp_words[sp_next(rng) % SP_COUNT(sp_words)];
            if (i == 0)
                sp_add(b, "%c%s", w[0] - 32, w + 1);
            else
                sp_add(b, "%s", w);
        }
    }
    sp_add(b, ". ");
}

/* Page k of template t ('A' or 'B'), malloc'd, NUL-terminated. */
__attribute__((unused)) static char *site_page(char t, unsigned k, size_t *len)
{
    const site_template *tp = t == 'B' ? &template_b : &template_a;
    uint64_t rng = (uint64_t)k * 0x9E3779B97F4A7C15ull + (uint64_t)t;
    sp_buf b = { 0 };
    unsigned uniq = k * 16 + (t == 'B' ? 8 : 0) + 1000;
    sp_add(&b,
           "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Story %u | %s</title></head>\n"
           "<body>\n<div class=\"top\"><a href=\"/\">%s</a><ul class=\"menu\">",
           k, tp->name, tp->name);
    for (int i = 0; i < 8; i++) sp_add(&b, "<li><a href=\"/s%d\">%s</a></li>", i, tp->nav[i]);
    sp_add(&b, "</ul></div>\n<div class=\"wrap\"><div class=\"story\">\n<h1>The ");
    sp_name(&b, uniq, 1);
    /* one draw per statement: the order of arguments' evaluation is unspecified */
    const char *subject = sp_words[sp_next(&rng) % SP_COUNT(sp_words)];
    const char *verb = sp_verbs[sp_next(&rng) % SP_COUNT(sp_verbs)];
    const char *object = sp_words[sp_next(&rng) % SP_COUNT(sp_words)];
    sp_add(&b, " %s %s the %s</h1>\n", subject, verb, object);
    unsigned paras = 4 + sp_next(&rng) % 2;
    for (unsigned p = 0; p < paras; p++) {
        sp_add(&b, "<p>");
        unsigned sentences = 3 + sp_next(&rng) % 3;
        for (unsigned s = 0; s < sentences; s++) sp_sentence(&b, &rng, uniq + 1 + (p * 7 + s) % 7);
        sp_add(&b, "</p>\n");
    }
    sp_add(&b, "<p>%s</p>\n</div>\n<div class=\"box\"><h3>%s</h3><ul>", tp->note, tp->related_title);
    for (int i = 0; i < 4; i++) {
        unsigned r = sp_next(&rng) % 40;
        sp_add(&b, "<li><a href=\"/story/%u\">The %s of the %s, part %u</a></li>", r,
               sp_words[(r * 7 + (t == 'B')) % SP_COUNT(sp_words)], sp_words[(r * 13 + 5) % SP_COUNT(sp_words)], r);
    }
    sp_add(&b, "</ul></div></div>\n<div class=\"bottom\"><p>%s</p></div>\n</body></html>\n", tp->footer);
    if (len) *len = b.len;
    return b.p;
}

/* The i-th paragraph of page (t, k)'s article, as text, malloc'd; NULL past the last. */
__attribute__((unused)) static char *site_page_paragraph(char t, unsigned k, unsigned i)
{
    char *html = site_page(t, k, NULL);
    const char *p = strstr(html, "<div class=\"story\">");
    char *out = NULL;
    for (unsigned n = 0; p && (p = strstr(p, "<p>")) != NULL; n++) {
        p += 3;
        const char *e = strstr(p, "</p>");
        if (!e) break;
        if (n == i) {
            out = strndup(p, (size_t)(e - p));
            break;
        }
    }
    free(html);
    if (out) {
        /* the generator leaves a space after the last sentence */
        size_t n = strlen(out);
        while (n && out[n - 1] == ' ') out[--n] = '\0';
        /* the note is not part of the article */
        const site_template *tp = t == 'B' ? &template_b : &template_a;
        if (!strcmp(out, tp->note)) {
            free(out);
            out = NULL;
        }
    }
    return out;
}

#endif
