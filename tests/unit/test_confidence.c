/* The confidence stage (src/confidence/): the shipped model loads and
 * names this build's features, its verdict on pages whose answer is plain
 * (a clean news story, a page of links, a page whose only text is its
 * frame), the public getter and JSON agreeing, and the model file's
 * round trip and refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"
#include "confidence/confidence.h"
#include "winnow.h"

static char *slurp(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", WINNOW_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = '\0';
    *len = (size_t)n;
    return b;
}

static double confidence_of(winnow_engine *e, const char *html, size_t len, winnow_doc **keep)
{
    winnow_input in = { sizeof in, html, len, NULL, NULL, NULL };
    winnow_doc *d = NULL;
    winnow_status st = winnow_extract(e, &in, &d);
    if (WINNOW_FAILED(st)) return -2;
    double c = winnow_doc_confidence(d);
    if (keep)
        *keep = d;
    else
        winnow_doc_free(d);
    return c;
}

static double page_confidence(winnow_engine *e, const char *rel)
{
    size_t len = 0;
    char *html = slurp(rel, &len);
    CHECK(html != NULL);
    if (!html) return -2;
    double c = confidence_of(e, html, len, NULL);
    free(html);
    return c;
}

/* The shipped model is built in, loads, and has this build's features. */
static void test_shipped_model(void)
{
    CHECK(wn_confidence_model_len > 0);
    wn_conf_model m;
    char err[256] = "";
    int rc = wn_conf_model_parse((const char *)wn_confidence_model, wn_confidence_model_len, &m, err, sizeof err);
    if (rc != 0) fprintf(stderr, "models/confidence.wmodel: %s\n", err);
    CHECK_EQ(rc, 0);
    CHECK(m.loaded);
    CHECK(wn_conf_feature_count() > 0 && wn_conf_feature_count() <= WN_CONF_MAX_FEATURES);
    char needle[64];
    snprintf(needle, sizeof needle, "features %u ", wn_conf_feature_count());
    char *text = malloc(wn_confidence_model_len + 1);
    memcpy(text, wn_confidence_model, wn_confidence_model_len);
    text[wn_confidence_model_len] = '\0';
    CHECK(strstr(text, needle) != NULL);
    CHECK(strstr(text, "\nlabel token_f1>=0.80\n") != NULL);
    CHECK(strstr(text, "\ntrained ") != NULL); /* says what it was fitted on */
    free(text);
}

/* Plain answers: a clean news story is very likely its main content; a
 * listing whose best block was one teaser (nothing kept) and a page whose
 * only running text is in its own frame are not. */
static void test_verdicts(void)
{
    winnow_engine *e = NULL;
    CHECK_EQ(winnow_engine_new(NULL, &e), WINNOW_OK);
    double story = page_confidence(e, "tests/data/pages/aeb-aljazeera.com.html");
    double listing = page_confidence(e, "tests/data/pages/synthetic-listing-page.html");
    double frame = page_confidence(e, "tests/data/pages/synthetic-frame-only.html");
    /* a page of links: a menu and a footer, no text of its own */
    static const char links[] = "<html><head><title>Home</title></head><body><nav><ul><li><a href=/a>News</a></li>"
                                "<li><a href=/b>Sport</a></li><li><a href=/c>Weather</a></li><li><a href=/d>About us"
                                "</a></li></ul></nav><footer><a href=/e>Contact</a> <a href=/f>Privacy</a></footer>"
                                "</body></html>";
    double menu = confidence_of(e, links, strlen(links), NULL);
    fprintf(stderr, "story %.3f listing %.3f frame %.3f menu %.3f\n", story, listing, frame, menu);
    CHECK(story >= 0.9);
    CHECK(listing >= 0 && listing < 0.3);
    CHECK(frame >= 0 && frame < 0.3);
    CHECK(menu >= 0 && menu < 0.3);
    winnow_engine_free(e);
}

static int collect(void *ctx, const char *data, size_t len)
{
    FILE *f = ctx;
    return fwrite(data, 1, len, f) == len ? 0 : -1;
}

/* The getter, the stage's value and the JSON and JSONL fields agree (three
 * decimals); the features are the stage's, in [0, 1.5]. */
static void test_outputs(void)
{
    winnow_engine *e = NULL;
    CHECK_EQ(winnow_engine_new(NULL, &e), WINNOW_OK);
    size_t len = 0;
    char *html = slurp("tests/data/pages/aeb-autoracing.com.br.html", &len);
    CHECK(html != NULL);
    winnow_doc *d = NULL;
    double c = html ? confidence_of(e, html, len, &d) : -2;
    CHECK(c >= 0 && c <= 1);
    if (d) {
        CHECK(fabs(c - (double)d->confidence) < 1e-9);
        CHECK(d->confidence_x != NULL);
        for (unsigned k = 0; d->confidence_x && k < wn_conf_feature_count(); k++)
            CHECK(d->confidence_x[k] >= 0 && d->confidence_x[k] <= 1.5f);
        char want[64];
        snprintf(want, sizeof want, "\"confidence\":%.3f", c);
        for (int f = 0; f < 2; f++) {
            char *buf = NULL;
            size_t n = 0;
            FILE *m = open_memstream(&buf, &n);
            CHECK_EQ(winnow_render(d, f ? WINNOW_FORMAT_JSONL : WINNOW_FORMAT_JSON, collect, m), WINNOW_OK);
            fclose(m);
            CHECK(buf && strstr(buf, want) != NULL);
            /* next to the page type's */
            CHECK(buf && strstr(buf, "\"page_type_confidence\":") < strstr(buf, want));
            free(buf);
        }
        winnow_doc_free(d);
    }
    free(html);
    CHECK(winnow_doc_confidence(NULL) == -1.0);
    winnow_engine_free(e);
}

/* A model written and read back predicts the same; a file that is not one,
 * names other features or is cut short is refused. */
static void test_model_file(void)
{
    wn_conf_model m, back;
    memset(&m, 0, sizeof m);
    unsigned nf = wn_conf_feature_count();
    for (unsigned f = 0; f <= nf; f++) m.w[f] = 0.25 * (double)((int)(f % 7) - 3);
    m.loaded = 1;
    size_t len = wn_conf_model_write(&m, "a test\nof one line", NULL, 0);
    char *text = malloc(len + 1);
    CHECK_EQ(wn_conf_model_write(&m, "a test\nof one line", text, len + 1), len);
    char err[256];
    CHECK_EQ(wn_conf_model_parse(text, len, &back, err, sizeof err), 0);
    float x[WN_CONF_MAX_FEATURES];
    for (unsigned f = 0; f < nf; f++) x[f] = (float)(f % 3) * 0.5f;
    CHECK(fabs(wn_conf_predict(&m, x) - wn_conf_predict(&back, x)) < 1e-5);
    CHECK(strstr(text, "trained a test of one line\n") != NULL);
    /* refusals */
    CHECK_EQ(wn_conf_model_parse("winnow-pagetype 1\n", 18, &back, err, sizeof err), -1);
    CHECK(!back.loaded);
    char *bad = strdup(text);
    char *fs = strstr(bad, "features ");
    if (fs) fs[9] = fs[9] == '9' ? '8' : '9'; /* another count */
    CHECK_EQ(wn_conf_model_parse(bad, strlen(bad), &back, err, sizeof err), -1);
    free(bad);
    CHECK_EQ(wn_conf_model_parse(text, len - 8, &back, err, sizeof err), -1); /* weights cut short */
    bad = malloc(len + 8);
    memcpy(bad, text, len);
    memcpy(bad + len, " 1.5\n", 6);
    CHECK_EQ(wn_conf_model_parse(bad, len + 5, &back, err, sizeof err), -1); /* one weight too many */
    free(bad);
    free(text);
}

int main(void)
{
    RUN(test_shipped_model);
    RUN(test_verdicts);
    RUN(test_outputs);
    RUN(test_model_file);
    return CHECK_DONE();
}
