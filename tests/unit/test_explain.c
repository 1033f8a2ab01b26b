/* The pipeline's explaining mode (WN_RUN_EXPLAIN, score/why.h), which the
 * reports of winnow annotate read: on every sample and test page, in page
 * mode with and without the classifier and in site mode,
 *   - the labels are those of WN_RUN_EXTRACT, value for value (keep,
 *     templateness, values, content root, headline, how it was chosen) and
 *     so is the text: recording reasons changes no decision;
 *   - every text unit has a reason, a kept one a reason of the content
 *     class and a left-out one a reason of another class; a reason naming
 *     a rule names a row of the rule table;
 *   - a unit under trusted boilerplate hints has the reason of a name,
 *     landmark, structure, script or the site model, or one of the
 *     selection's fallback.
 * And on pages built for one rule each, the reason the rule gives.
 *
 * usage: test_explain SOURCE_DIR */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"
#include "pipeline/pipeline.h"
#include "score/page_score.h"
#include "score/records.h"
#include "site/site_api.h"

static winnow_engine *engine, *engine_plain;
static const char *srcdir;
static size_t pages_checked, units_checked;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) data[n] = '\0';
    *len = (size_t)n;
    return data;
}

static char *text_of(const winnow_doc *d)
{
    char *t = NULL;
    return winnow_render_alloc(d, WINNOW_FORMAT_TEXT, &t, NULL) == WINNOW_OK ? t : NULL;
}

/* One page both ways; failures name the page. */
static void compare(winnow_engine *e, const char *name, const char *data, size_t len, const site_hook *hook)
{
    winnow_input in = { sizeof in, data, len, NULL, NULL, NULL };
    winnow_doc *a = NULL, *b = NULL;
    winnow_status sa = wn_pipeline_run(e, WN_RUN_EXTRACT, &in, hook, &a);
    winnow_status sb = wn_pipeline_run(e, WN_RUN_EXPLAIN, &in, hook, &b);
    CHECK_EQ(sa, sb);
    if (WINNOW_FAILED(sa) || !a || !b) {
        winnow_doc_free(a);
        winnow_doc_free(b);
        return;
    }
    int bad = 0;
    const wn_labels *la = &a->labels, *lbb = &b->labels;
    uint32_t n = a->dom.count;
    CHECK_EQ(n, b->dom.count);
    CHECK(a->explain == NULL && b->explain != NULL);
    for (uint32_t i = 0; i < n && i < b->dom.count; i++) {
        if (la->keep[i] != lbb->keep[i] || la->templ[i] != lbb->templ[i] || la->value[i] != lbb->value[i] ||
            la->unit[i] != lbb->unit[i])
            bad++;
    }
    if (bad) fprintf(stderr, "%s: %d nodes with other labels when explained\n", name, bad);
    CHECK_EQ(bad, 0);
    CHECK_EQ(la->container, lbb->container);
    CHECK_EQ(la->headline, lbb->headline);
    CHECK_EQ(la->source, lbb->source);
    char *ta = text_of(a), *tb = text_of(b);
    CHECK(ta && tb && !strcmp(ta, tb));
    free(ta);
    free(tb);

    /* reasons */
    const wn_explain *ex = b->explain;
    int missing = 0, wrong_class = 0, wrong_rule = 0, boiler_wrong = 0;
    for (uint32_t u = 0; ex && u < n; u++) {
        if (lbb->unit[u] != u || ex->own[u].chars == 0) continue;
        units_checked++;
        uint8_t w = ex->why[u];
        if (w == WN_WHY_NONE || w >= WN_WHY_COUNT) {
            missing++;
            continue;
        }
        const wn_why_def *def = &wn_why_defs[w];
        if ((def->cls == 'C') != (lbb->keep[u] != 0)) wrong_class++;
        if (def->rule && wn_rule_find(def->rule) < 0) wrong_rule++;
        if (!lbb->keep[u] && ex->boiler[u]) {
            int ok = w == WN_WHY_FALLBACK_INNER || (w >= WN_WHY_NAME && w < WN_WHY_COUNT);
            if (!ok) boiler_wrong++;
        }
    }
    if (missing || wrong_class || wrong_rule || boiler_wrong)
        fprintf(stderr,
                "%s: %d units without a reason, %d of the wrong class, %d naming no rule, %d boilerplate "
                "units with a reason of another kind\n",
                name, missing, wrong_class, wrong_rule, boiler_wrong);
    CHECK_EQ(missing, 0);
    CHECK_EQ(wrong_class, 0);
    CHECK_EQ(wrong_rule, 0);
    CHECK_EQ(boiler_wrong, 0);
    pages_checked++;
    winnow_doc_free(a);
    winnow_doc_free(b);
}

static void each_page(const char *dir, void (*fn)(const char *name, const char *data, size_t len))
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir, dir);
    DIR *dd = opendir(path);
    CHECK(dd != NULL);
    if (!dd) return;
    struct dirent *de;
    while ((de = readdir(dd))) {
        size_t nl = strlen(de->d_name);
        if (nl < 6 || strcmp(de->d_name + nl - 5, ".html")) continue;
        snprintf(path, sizeof path, "%s/%s/%s", srcdir, dir, de->d_name);
        size_t len = 0;
        char *data = read_file(path, &len);
        CHECK(data != NULL);
        if (data) fn(de->d_name, data, len);
        free(data);
    }
    closedir(dd);
}

static void page_mode(const char *name, const char *data, size_t len)
{
    compare(engine, name, data, len, NULL);
    compare(engine_plain, name, data, len, NULL);
}

static void test_page_mode(void)
{
    each_page("samples", page_mode);
    each_page("tests/data/pages", page_mode);
}

/* site mode: the test pages learned as one site, then judged by it */
static winnow_site *site;
static void learn_page(const char *name, const char *data, size_t len)
{
    (void)name;
    winnow_input in = { sizeof in, data, len, NULL, NULL, NULL };
    winnow_site_learn(engine, site, &in, NULL);
}

static winnow_site_options site_opt;
static void site_page(const char *name, const char *data, size_t len)
{
    site_hook hook = { wn_site_unwrap(site), &site_opt, NULL, NULL, NULL };
    compare(engine, name, data, len, &hook);
}

static void test_site_mode(void)
{
    CHECK_EQ(winnow_site_new("pages", 1000, &site), WINNOW_OK);
    if (!site) return;
    each_page("tests/data/pages", learn_page);
    winnow_site_options_default(&site_opt, sizeof site_opt);
    site_opt.mode = WINNOW_MODE_SITE;
    each_page("tests/data/pages", site_page);
    winnow_site_free(site);
}

/* Pages built for one rule each: the reason of their telling unit. */
static int has_reason(const char *file, uint8_t why)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/pages/%s", srcdir, file);
    size_t len = 0;
    char *data = read_file(path, &len);
    if (!data) return 0;
    winnow_input in = { sizeof in, data, len, NULL, NULL, NULL };
    winnow_doc *d = NULL;
    int found = 0;
    if (!WINNOW_FAILED(wn_pipeline_run(engine, WN_RUN_EXPLAIN, &in, NULL, &d)) && d) {
        for (uint32_t u = 0; u < d->dom.count; u++)
            found |= d->labels.unit[u] == u && d->explain->own[u].chars && d->explain->why[u] == why;
        winnow_doc_free(d);
    }
    free(data);
    if (!found) fprintf(stderr, "%s: no unit with reason %s\n", file, wn_why_defs[why].name);
    return found;
}

static void test_reasons_of_rules(void)
{
    CHECK(has_reason("synthetic-comment-records.html", WN_WHY_COMMENT_RECORDS));
    CHECK(has_reason("synthetic-comments-marker.html", WN_WHY_COMMENT_MARKER));
    CHECK(has_reason("synthetic-excerpt-list.html", WN_WHY_TEASER_EXCERPTS));
    CHECK(has_reason("synthetic-teaser-list.html", WN_WHY_TEASER_RECORDS));
    CHECK(has_reason("synthetic-caption.html", WN_WHY_CAPTION));
    CHECK(has_reason("synthetic-script-as-text.html", WN_WHY_SCRIPT));
    CHECK(has_reason("synthetic-registration-popover.html", WN_WHY_OVERLAY));
    CHECK(has_reason("synthetic-photo-gallery.html", WN_WHY_GALLERY_NAME));
    CHECK(has_reason("synthetic-fallback-landmark.html", WN_WHY_FALLBACK_LANDMARK));
    CHECK(has_reason("synthetic-fallback-description.html", WN_WHY_FALLBACK_DESCRIPTION));
    CHECK(has_reason("synthetic-standfirst.html", WN_WHY_STANDFIRST));
    CHECK(has_reason("synthetic-title-anchor.html", WN_WHY_ANCHORED));
    CHECK(has_reason("synthetic-wrapped-sections.html", WN_WHY_JOINED_SECTIONS));
    CHECK(has_reason("synthetic-data-table.html", WN_WHY_TABLE_CELL));
    CHECK(has_reason("aeb-aljazeera.com.html", WN_WHY_NAME));
    CHECK(has_reason("aeb-aljazeera.com.html", WN_WHY_LINK_LIST));
    CHECK(has_reason("aeb-aljazeera.com.html", WN_WHY_HEADLINE));
}

int main(int argc, char **argv)
{
    srcdir = argc > 1 ? argv[1] : ".";
    winnow_options o;
    winnow_options_default(&o, sizeof o);
    if (winnow_engine_new(&o, &engine) != WINNOW_OK) return 1;
    o.classifier = 0;
    if (winnow_engine_new(&o, &engine_plain) != WINNOW_OK) return 1;
    CHECK(wn_date_words_sorted());
    static const char *const dated[] = { "am 3. märz", "yesterday", "posted in août", "9 settembre" };
    for (size_t k = 0; k < sizeof dated / sizeof dated[0]; k++) CHECK(wn_has_date(dated[k], strlen(dated[k])));
    CHECK(!wn_has_date("may the force", strlen("may the force")));
    RUN(test_page_mode);
    RUN(test_site_mode);
    RUN(test_reasons_of_rules);
    fprintf(stderr, "%zu page runs, %zu units with reasons\n", pages_checked, units_checked);
    winnow_engine_free(engine);
    winnow_engine_free(engine_plain);
    return CHECK_DONE();
}
