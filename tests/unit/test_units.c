/* The learned unit decision (src/select/units.c): the feature names, the
 * model file's round trip and refusals, the decision's four thresholds
 * (UNIT_KEEP_MIN, UNIT_ADD_MIN, UNIT_MAX_DROP, UNIT_MAX_ADD) and its
 * switch (UNIT_MODEL), each shown to matter on a page through an engine
 * given a model that disowns every unit or claims every unit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "doc.h"
#include "select/units.h"
#include "winnow.h"

/* A model file of one tree: split on feature `f` at `thr`, leaves a / b. */
static char *model_text(int f, double thr, double a, double b)
{
    size_t cap = 8192, w = 0;
    char *t = malloc(cap);
    if (!t) return NULL;
    w += (size_t)snprintf(t + w, cap - w, "winnow-units 1\ntrained a test\nfeatures %d", WN_UNIT_NFEAT);
    for (unsigned k = 0; k < WN_UNIT_NFEAT; k++) w += (size_t)snprintf(t + w, cap - w, " %s", wn_unit_feature_name(k));
    if (f < 0)
        snprintf(t + w, cap - w, "\nbase_margin 0\ntrees 1\nnodes 1\ntree 1\n-1 0 0 0 %g\n", a);
    else
        snprintf(t + w, cap - w, "\nbase_margin 0\ntrees 1\nnodes 3\ntree 3\n%d %g 1 2 0\n-1 0 0 0 %g\n-1 0 0 0 %g\n",
                 f, thr, a, b);
    return t;
}

static void test_feature_names(void)
{
    for (unsigned k = 0; k < WN_UNIT_NFEAT; k++) {
        CHECK(*wn_unit_feature_name(k) != '\0');
        for (unsigned j = 0; j < k; j++) CHECK(strcmp(wn_unit_feature_name(j), wn_unit_feature_name(k)) != 0);
    }
    CHECK_STR(wn_unit_feature_name(WN_UNIT_NFEAT), "");
    CHECK_STR(wn_unit_feature_name(0), "keep");
}

static void test_model_file(void)
{
    char err[256];
    wn_unit_model m;
    char *t = model_text(0, 0.5, -2.0, 3.0); /* feature 0: the rules' keep */
    CHECK(t != NULL);
    if (!t) return;
    CHECK_EQ(wn_unit_model_parse(t, strlen(t), &m, err, sizeof err), 0);
    CHECK_STR(m.trained, "a test");
    float x[WN_UNIT_NFEAT] = { 0 };
    CHECK(fabsf(wn_unit_model_predict(&m, x) - (float)(1 / (1 + exp(2.0)))) < 1e-6f);
    x[0] = 1;
    CHECK(fabsf(wn_unit_model_predict(&m, x) - (float)(1 / (1 + exp(-3.0)))) < 1e-6f);
    wn_unit_model_free(&m);
    /* refusals: another magic, fewer features, a child before its node,
     * a cut file, a feature out of range */
    CHECK_EQ(wn_unit_model_parse("winnow-model 1\n", 15, &m, err, sizeof err), -1);
    char *bad = strdup(t);
    char *feat = bad ? strstr(bad, "features ") : NULL;
    if (feat) {
        feat[9] = '9';
        CHECK_EQ(wn_unit_model_parse(bad, strlen(bad), &m, err, sizeof err), -1);
    }
    free(bad);
    bad = strdup(t);
    char *split = bad ? strstr(bad, "\n0 0.5 1 2 0\n") : NULL;
    CHECK(split != NULL);
    if (split) {
        memcpy(split + 1, "0 0.5 0 2 0", 11);
        CHECK_EQ(wn_unit_model_parse(bad, strlen(bad), &m, err, sizeof err), -1);
        memcpy(split + 1, "99 0.5 1 2 0", 11);
        CHECK_EQ(wn_unit_model_parse(bad, strlen(bad), &m, err, sizeof err), -1);
    }
    free(bad);
    /* (a file cut just before its last newline is whole) */
    for (size_t cut = 0; cut + 1 < strlen(t); cut += 7) CHECK(wn_unit_model_parse(t, cut, &m, err, sizeof err) != 0);
    free(t);
    /* the shipped model, when the build has one, is of this build's features */
    if (wn_units_model_len > 0) {
        CHECK_EQ(wn_unit_model_parse((const char *)wn_units_model, wn_units_model_len, &m, err, sizeof err), 0);
        CHECK(m.trees.ntrees > 0);
        wn_unit_model_free(&m);
    }
}

/* The decision: four units of 10 words, the rules keeping the first two. */
static void test_decide(void)
{
    const uint8_t rule[4] = { 1, 1, 0, 0 };
    const float words[4] = { 10, 10, 10, 10 };
    uint8_t keep[4];
    const wn_unit_policy pol = { 0.4f, 0.6f, 0.3f, 1.0f };
    /* a kept unit stays at keep_min, an unkept one comes in at add_min */
    const float p1[4] = { 0.45f, 0.9f, 0.55f, 0.65f };
    wn_units_decide(&pol, p1, rule, words, 4, keep);
    CHECK(keep[0] && keep[1] && !keep[2] && keep[3]);
    /* below keep_min a kept unit goes, while that is a small share */
    const float p2[4] = { 0.35f, 0.9f, 0.1f, 0.1f };
    const wn_unit_policy drop_more = { 0.4f, 0.6f, 0.6f, 1.0f };
    wn_units_decide(&drop_more, p2, rule, words, 4, keep);
    CHECK(!keep[0] && keep[1]);
    /* ... but half the kept words is more than max_drop 0.3: nothing dropped */
    wn_units_decide(&pol, p2, rule, words, 4, keep);
    CHECK(keep[0] && keep[1] && !keep[2] && !keep[3]);
    /* adding 20 words to 20 kept is within max_add 1; 0.5 refuses it */
    const float p3[4] = { 0.9f, 0.9f, 0.9f, 0.9f };
    wn_units_decide(&pol, p3, rule, words, 4, keep);
    CHECK(keep[0] && keep[1] && keep[2] && keep[3]);
    const wn_unit_policy add_less = { 0.4f, 0.6f, 0.3f, 0.5f };
    wn_units_decide(&add_less, p3, rule, words, 4, keep);
    CHECK(keep[0] && keep[1] && !keep[2] && !keep[3]);
}

static const char page[] =
    "<html><head><title>Harbour news</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/a'>About the harbour</a> <a href='/b'>Boats and ferries</a></nav>"
    "<article><h1>Harbour news</h1>"
    "<p>The harbour master said on Tuesday that the north quay will close for repairs in March, and that ferries "
    "will use the south quay until the work is done, which should take about six weeks.</p>"
    "<p>Fishing boats keep their berths, he added, although the fuel dock moves to the old slipway for the "
    "duration of the work, and the harbour office will post the new times at the gate.</p></article>"
    "<aside><p>Subscribe to our newsletter for the week's stories, sent every Friday morning to your inbox.</p>"
    "</aside></body></html>";

typedef struct sink {
    char *s;
    size_t n;
} sink;

static int collect(void *ctx, const char *data, size_t len)
{
    sink *k = ctx;
    char *s = realloc(k->s, k->n + len + 1);
    if (!s) return -1;
    memcpy(s + k->n, data, len);
    k->n += len;
    s[k->n] = '\0';
    k->s = s;
    return 0;
}

/* The page's text with the engine as it is; NULL on failure. */
static char *text_of(winnow_engine *e)
{
    winnow_input in = { sizeof in, page, sizeof page - 1, NULL, NULL, NULL };
    winnow_doc *d = NULL;
    if (WINNOW_FAILED(winnow_extract(e, &in, &d))) return NULL;
    sink k = { calloc(1, 1), 0 };
    if (winnow_render(d, WINNOW_FORMAT_TEXT, collect, &k) != WINNOW_OK) {
        free(k.s);
        k.s = NULL;
    }
    winnow_doc_free(d);
    return k.s;
}

/* An engine with the model of model_text(f, thr, a, b). */
static winnow_engine *engine_split(int f, double thr, double a, double b)
{
    winnow_engine *e = NULL;
    if (winnow_engine_new(NULL, &e) != WINNOW_OK) return NULL;
    char path[] = "/tmp/winnow-units-test-XXXXXX";
    int fd = mkstemp(path);
    char *t = model_text(f, thr, a, b);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    int ok = out && t && fputs(t, out) >= 0;
    if (out) ok = (fclose(out) == 0) && ok;
    free(t);
    if (!ok || winnow_engine_load_unit_model(e, path) != WINNOW_OK) {
        winnow_engine_free(e);
        e = NULL;
    }
    remove(path);
    return e;
}

/* An engine with the one-leaf model of leaf value v. */
static winnow_engine *engine_with(double v) { return engine_split(-1, 0, v, 0); }

static void test_engine(void)
{
    winnow_engine *e = NULL;
    CHECK(winnow_engine_new(NULL, &e) == WINNOW_OK);
    if (!e) return;
    /* refusals keep the engine as it was */
    CHECK_EQ(winnow_engine_load_unit_model(e, "/nonexistent/units.wmodel"), WINNOW_E_IO);
    char path[] = "/tmp/winnow-units-test-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        CHECK(write(fd, "not a model\n", 12) == 12);
        close(fd);
        CHECK_EQ(winnow_engine_load_unit_model(e, path), WINNOW_E_FORMAT);
        remove(path);
    }
    /* the rules alone: the article, not the menu or the plug */
    CHECK_EQ(winnow_engine_load_unit_model(e, NULL), WINNOW_OK);
    char *rules = text_of(e);
    CHECK(rules && strstr(rules, "north quay") && strstr(rules, "fuel dock") && !strstr(rules, "newsletter"));
    winnow_engine_free(e);

    /* a model that disowns every unit: the drop guard keeps the rules' text;
     * with UNIT_MAX_DROP off it goes, and with UNIT_KEEP_MIN off it stays */
    winnow_engine *none = engine_with(-5);
    CHECK(none != NULL);
    if (none) {
        char *t = text_of(none);
        CHECK(t && rules && !strcmp(t, rules));
        free(t);
        CHECK_EQ(winnow_engine_set_rule(none, "UNIT_MAX_DROP", 1e30), WINNOW_OK);
        t = text_of(none);
        CHECK(t && !strstr(t, "north quay"));
        free(t);
        CHECK_EQ(winnow_engine_set_rule(none, "UNIT_KEEP_MIN", 0), WINNOW_OK);
        t = text_of(none);
        CHECK(t && rules && !strcmp(t, rules));
        free(t);
        winnow_engine_free(none);
    }
    /* a model that claims every unit: the add guard keeps the rules' text
     * while what it adds outweighs it (UNIT_MAX_ADD 0.1); at the default the
     * plug comes in; with UNIT_ADD_MIN off nothing does; with UNIT_MODEL off
     * the rules decide */
    winnow_engine *all = engine_with(5);
    CHECK(all != NULL);
    if (all) {
        char *t = text_of(all);
        CHECK(t && strstr(t, "newsletter") && strstr(t, "north quay"));
        free(t);
        CHECK_EQ(winnow_engine_set_rule(all, "UNIT_MAX_ADD", 0.1), WINNOW_OK);
        t = text_of(all);
        CHECK(t && rules && !strcmp(t, rules));
        free(t);
        CHECK_EQ(winnow_engine_set_rule(all, "UNIT_MAX_ADD", 1), WINNOW_OK);
        CHECK_EQ(winnow_engine_set_rule(all, "UNIT_ADD_MIN", 1.01), WINNOW_OK);
        t = text_of(all);
        CHECK(t && rules && !strcmp(t, rules));
        free(t);
        CHECK_EQ(winnow_engine_set_rule(all, "UNIT_ADD_MIN", 0.6), WINNOW_OK);
        CHECK_EQ(winnow_engine_set_rule(all, "UNIT_MODEL", 0), WINNOW_OK);
        t = text_of(all);
        CHECK(t && rules && !strcmp(t, rules));
        free(t);
        winnow_engine_free(all);
    }
    free(rules);
}

/* after_colon: a list that the prose before it introduces with a colon
 * ("...were sent for review:"), read at the list for each of its items,
 * and not for the paragraph after the list. A model of one split on it
 * keeps just those items (both guards off). */
static void test_after_colon(void)
{
    static const char colon_page[] =
        "<html><body><article><h1>Progress report</h1>"
        "<p>There has been some nice progress on the compiler side these past months, and most of the work "
        "went into the code generator, which now builds the standard library without patches.</p>"
        "<p>Many patches were sent for review:</p><ul>"
        "<li><p><a href=/p/1>Support floating point types in the type check</a></p></li>"
        "<li><p><a href=/p/2>Allow casts between integers and pointers</a></p></li>"
        "<li><p><a href=/p/3>Add the weak variable attribute</a></p></li></ul>"
        "<p>The next report will cover the debugger, which has been waiting for these changes for a while, "
        "and the new test runner that the project moved to in the autumn.</p></article></body></html>";
    unsigned f = 0;
    while (f < WN_UNIT_NFEAT && strcmp(wn_unit_feature_name(f), "after_colon")) f++;
    CHECK(f < WN_UNIT_NFEAT);
    winnow_engine *e = engine_split((int)f, 0.5, -5, 5);
    CHECK(e != NULL);
    if (!e) return;
    CHECK_EQ(winnow_engine_set_rule(e, "UNIT_MAX_DROP", 1e30), WINNOW_OK);
    CHECK_EQ(winnow_engine_set_rule(e, "UNIT_MAX_ADD", 1e30), WINNOW_OK);
    winnow_input in = { sizeof in, colon_page, sizeof colon_page - 1, NULL, NULL, NULL };
    winnow_doc *d = NULL;
    CHECK(!WINNOW_FAILED(winnow_extract(e, &in, &d)));
    sink k = { calloc(1, 1), 0 };
    CHECK(d && winnow_render(d, WINNOW_FORMAT_TEXT, collect, &k) == WINNOW_OK);
    CHECK(k.s && strstr(k.s, "floating point") && strstr(k.s, "integers and pointers") && strstr(k.s, "weak variable"));
    CHECK(k.s && !strstr(k.s, "next report") && !strstr(k.s, "nice progress"));
    free(k.s);
    winnow_doc_free(d);
    winnow_engine_free(e);
}

int main(void)
{
    RUN(test_feature_names);
    RUN(test_after_colon);
    RUN(test_model_file);
    RUN(test_decide);
    RUN(test_engine);
    return CHECK_DONE();
}
