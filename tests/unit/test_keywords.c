/* The text applications (src/apps/, winnow_keywords.h): the tokenizer, DF
 * tables written and read back, bad DF and model files refused with a
 * message, keywords, and the Naive Bayes classifier saved and loaded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "winnow_keywords.h"
#include "apps/terms.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

/* The tokens of s joined by '|', phrase breaks shown as '/'. */
static const char *tokens(const char *s)
{
    static char out[1024];
    wn_tokens tk;
    wn_tokens_init(&tk);
    wn_tokenize(s, strlen(s), &tk);
    out[0] = '\0';
    for (size_t i = 0; i < tk.n; i++) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%.*s",
                 i == 0        ? ""
                 : tk.t[i].brk ? "/"
                               : "|",
                 (int)tk.t[i].len, tk.text.data + tk.t[i].off);
    }
    wn_tokens_free(&tk);
    return out;
}

static void test_tokenizer(void)
{
    CHECK_STR(tokens("The Quick brown-fox"), "the|quick|brown|fox");
    /* one-letter words, digit-only words and punctuation break phrases */
    CHECK_STR(tokens("a cat, 2017 dogs. H264 x"), "cat/dogs/h264");
    CHECK_STR(tokens("Obama's plan"), "obama/plan");
    CHECK_STR(tokens("line one\nline two"), "line|one/line|two");
    /* Unicode case mapping; words of other scripts */
    CHECK_STR(tokens("ÉCOLE Straße Москва"), "école|straße|москва");
    /* unspaced scripts: character bigrams, a lone character alone, no phrases */
    CHECK_STR(tokens("北京大学 is 中"), "北京/京大/大学/is/中");
    CHECK_STR(tokens("東京タワー"), "東京/京タ/タワ/ワー");
    /* Hangul is spaced: words */
    CHECK_STR(tokens("데이트 폭력"), "데이트|폭력");
}

static void test_df_round_trip(void)
{
    winnow_df_builder *b = NULL;
    CHECK_EQ(winnow_df_builder_new(&b), WINNOW_OK);
    const char *docs[] = { "rocket launch rocket launch", "rocket engine", "cat food", "rocket launch" };
    for (size_t i = 0; i < 4; i++) CHECK_EQ(winnow_df_builder_add(b, docs[i], strlen(docs[i])), WINNOW_OK);
    CHECK_EQ(winnow_df_builder_docs(b), 4);
    char err[512] = "";
    for (int gz = 0; gz < 2; gz++) {
        const char *path = tmp_path(gz ? "t.df.gz" : "t.df");
        CHECK_EQ(winnow_df_builder_save(b, path, 1, err, sizeof err), WINNOW_OK);
        winnow_df *df = NULL;
        CHECK_EQ(winnow_df_load(path, &df, err, sizeof err), WINNOW_OK);
        CHECK_EQ(winnow_df_docs(df), 4);
        CHECK_EQ(winnow_df_lookup(df, "rocket"), 3);
        CHECK_EQ(winnow_df_lookup(df, "launch"), 2);
        CHECK_EQ(winnow_df_lookup(df, "cat"), 1);
        CHECK_EQ(winnow_df_lookup(df, "nothing"), 0);
        /* phrases need 2 * min_df documents */
        CHECK_EQ(winnow_df_lookup(df, "rocket launch"), 2);
        CHECK_EQ(winnow_df_lookup(df, "cat food"), 0);
        /* rocket, launch, engine, cat, food, "rocket launch" */
        CHECK_EQ(winnow_df_size(df), 6);
        winnow_df_free(df);
    }
    /* the plain file is the documented format, byte for byte */
    FILE *f = fopen(tmp_path("t.df"), "rb");
    char buf[512] = "";
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    CHECK_STR(buf, "winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t6\ncat\t1\nengine\t1\nfood\t1\nlaunch\t2\nrocket\t3\n"
                   "rocket launch\t2\n");
    /* min_df 2 leaves out the terms of one document */
    CHECK_EQ(winnow_df_builder_save(b, tmp_path("t2.df"), 2, err, sizeof err), WINNOW_OK);
    winnow_df *df = NULL;
    CHECK_EQ(winnow_df_load(tmp_path("t2.df"), &df, err, sizeof err), WINNOW_OK);
    CHECK_EQ(winnow_df_size(df), 2); /* launch, rocket: the phrase needs 4 documents */
    CHECK_EQ(winnow_df_lookup(df, "rocket launch"), 0);
    winnow_df_free(df);
    winnow_df_builder_free(b);
}

/* A bad file: the status, and a message holding `says`. */
static void bad_df(const char *text, winnow_status want, const char *says)
{
    write_file(tmp_path("bad.df"), text);
    winnow_df *df = (winnow_df *)1;
    char err[512] = "";
    winnow_status s = winnow_df_load(tmp_path("bad.df"), &df, err, sizeof err);
    CHECK_EQ(s, want);
    CHECK(df == NULL);
    if (!strstr(err, says)) fprintf(stderr, "message '%s' lacks '%s'\n", err, says);
    CHECK(strstr(err, says) != NULL);
}

static void test_df_bad(void)
{
    bad_df("", WINNOW_E_FORMAT, "not a winnow DF table");
    bad_df("<html>not a table</html>\n", WINNOW_E_FORMAT, "not a winnow DF table");
    bad_df("winnow-df\t2\ndocs\t4\nmin_df\t1\nterms\t0\n", WINNOW_E_FORMAT, "this winnow reads version 1");
    bad_df("winnow-df\t1\ndocs\t0\nmin_df\t1\nterms\t0\n", WINNOW_E_FORMAT, "line 2");
    bad_df("winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t2\ncat\t1\n", WINNOW_E_FORMAT, "cut short");
    bad_df("winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t2\ndog\t1\ncat\t1\n", WINNOW_E_FORMAT,
           "line 6: term 'cat' out of order");
    bad_df("winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t1\ncat\t9\n", WINNOW_E_FORMAT, "line 5: DF 9 out of range");
    bad_df("winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t1\ncat\tx\n", WINNOW_E_FORMAT, "not a whole number");
    bad_df("winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t1\ncat\t1\ndog\t1\n", WINNOW_E_FORMAT, "more lines");
    /* damaged gzip */
    write_file(tmp_path("bad.df"), "\x1f\x8b\x08\x00garbage");
    winnow_df *df = NULL;
    char err[512] = "";
    CHECK_EQ(winnow_df_load(tmp_path("bad.df"), &df, err, sizeof err), WINNOW_E_FORMAT);
    CHECK(strstr(err, "gzip") != NULL);
    CHECK_EQ(winnow_df_load(tmp_path("missing.df"), &df, err, sizeof err), WINNOW_E_IO);
    CHECK(strstr(err, "cannot open") != NULL);
}

static void test_keywords(void)
{
    /* a table of 100 documents: "the" in all of them, "rocket" in 2 */
    winnow_df_builder *b = NULL;
    winnow_df_builder_new(&b);
    for (int i = 0; i < 100; i++) {
        const char *d = i < 2 ? "the rocket engine" : i < 50 ? "the engine of the day" : "the day";
        winnow_df_builder_add(b, d, strlen(d));
    }
    char err[256];
    CHECK_EQ(winnow_df_builder_save(b, tmp_path("k.df"), 1, err, sizeof err), WINNOW_OK);
    winnow_df_builder_free(b);
    winnow_df *df = NULL;
    CHECK_EQ(winnow_df_load(tmp_path("k.df"), &df, err, sizeof err), WINNOW_OK);
    const char *text = "The rocket engine. The new rocket flew. The rocket landed; the crew cheered the crew.\n"
                       "Space rocket launch. Space rocket launch.";
    winnow_keywords *k = NULL;
    winnow_keyword_options o;
    CHECK_EQ(winnow_keyword_options_default(&o, sizeof o), WINNOW_OK);
    CHECK_EQ(o.k, 10);
    CHECK_EQ(winnow_keywords_extract(df, text, strlen(text), &o, &k), WINNOW_OK);
    CHECK(winnow_keywords_count(k) > 3);
    winnow_keyword kw = { sizeof kw };
    CHECK_EQ(winnow_keywords_get(k, 0, &kw), WINNOW_OK);
    CHECK_STR(kw.term, "rocket");
    CHECK_EQ(kw.tf, 5);
    CHECK_EQ(kw.words, 1);
    int has_the = 0, has_phrase = 0, has_space = 0, has_launch = 0, has_crew = 0;
    for (size_t i = 0; i < winnow_keywords_count(k); i++) {
        winnow_keywords_get(k, i, &kw);
        has_the |= !strcmp(kw.term, "the");
        has_phrase |= !strcmp(kw.term, "space rocket");
        has_space |= !strcmp(kw.term, "space");
        has_launch |= !strcmp(kw.term, "launch");
        has_crew |= !strcmp(kw.term, "crew");
        if (i) CHECK(kw.score > 0);
    }
    CHECK(!has_the);    /* in every document: a stopword */
    CHECK(has_phrase);  /* twice in the text */
    CHECK(!has_space);  /* only inside "space rocket" */
    CHECK(!has_launch); /* only inside "rocket launch" */
    CHECK(has_crew);
    CHECK_EQ(winnow_keywords_get(k, 99, &kw), WINNOW_E_ARG);
    winnow_keywords_free(k);
    o.k = 1;
    o.phrases = 0;
    CHECK_EQ(winnow_keywords_extract(df, text, strlen(text), &o, &k), WINNOW_OK);
    CHECK_EQ(winnow_keywords_count(k), 1);
    winnow_keywords_free(k);
    o.stop_share = 0;
    CHECK_EQ(winnow_keywords_extract(df, text, strlen(text), &o, &k), WINNOW_E_ARG);
    CHECK(k == NULL);
    /* an empty text has no keywords */
    CHECK_EQ(winnow_keywords_extract(df, "", 0, NULL, &k), WINNOW_OK);
    CHECK_EQ(winnow_keywords_count(k), 0);
    winnow_keywords_free(k);
    winnow_df_free(df);
    /* the built-in table */
    CHECK_EQ(winnow_df_default(&df), WINNOW_OK);
    CHECK(winnow_df_docs(df) > 1000);
    CHECK(winnow_df_lookup(df, "the") > winnow_df_docs(df) / 4);
    winnow_df_free(df);
}

static void test_textclass(void)
{
    winnow_textclass *c = NULL;
    CHECK_EQ(winnow_textclass_new(NULL, &c), WINNOW_OK);
    const char *space[] = { "rocket launch orbit nasa", "orbit satellite rocket", "nasa astronaut orbit" };
    const char *food[] = { "pizza cheese tomato", "cheese bread butter", "tomato soup bread" };
    winnow_bag *bag = NULL;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(winnow_bag_new(space[i], strlen(space[i]), &bag), WINNOW_OK);
        CHECK_EQ(winnow_textclass_add(c, bag, "space"), WINNOW_OK);
        winnow_bag_free(bag);
        CHECK_EQ(winnow_bag_new(food[i], strlen(food[i]), &bag), WINNOW_OK);
        CHECK_EQ(winnow_textclass_add(c, bag, "food"), WINNOW_OK);
        winnow_bag_free(bag);
    }
    /* labels past the first few re-lay the counts */
    for (int l = 0; l < 6; l++) {
        char name[16];
        snprintf(name, sizeof name, "other%d", l);
        CHECK_EQ(winnow_bag_new("zebra giraffe", 13, &bag), WINNOW_OK);
        CHECK_EQ(winnow_textclass_add(c, bag, name), WINNOW_OK);
        winnow_bag_free(bag);
    }
    CHECK_EQ(winnow_textclass_labels(c), 8);
    CHECK_EQ(winnow_bag_new("a rocket in orbit, and bread", 28, &bag), WINNOW_OK);
    CHECK_EQ(winnow_bag_size(bag), 5);
    size_t l = 99;
    double p = 0;
    CHECK_EQ(winnow_textclass_predict(c, bag, &l, &p), WINNOW_OK);
    CHECK_STR(winnow_textclass_label(c, l), "space");
    CHECK(p > 0.5 && p <= 1);
    char err[512] = "";
    CHECK_EQ(winnow_textclass_save(c, tmp_path("m.nb.gz"), err, sizeof err), WINNOW_OK);
    winnow_textclass *d = NULL;
    CHECK_EQ(winnow_textclass_load(tmp_path("m.nb.gz"), &d, err, sizeof err), WINNOW_OK);
    size_t l2 = 99;
    double p2 = 0;
    CHECK_EQ(winnow_textclass_predict(d, bag, &l2, &p2), WINNOW_OK);
    CHECK_EQ(l2, l);
    CHECK(fabs(p2 - p) < 1e-12);
    winnow_bag_free(bag);
    winnow_textclass_free(d);
    winnow_textclass_free(c);
    /* bad model files */
    write_file(tmp_path("bad.nb"), "winnow-df\t1\n");
    CHECK_EQ(winnow_textclass_load(tmp_path("bad.nb"), &d, err, sizeof err), WINNOW_E_FORMAT);
    CHECK(strstr(err, "not a winnow classifier") != NULL);
    write_file(tmp_path("bad.nb"),
               "winnow-nb\t1\nalpha\t0.1\nlabels\t2\nlabel\ta\t1\t3\nlabel\tb\t1\t3\nterms\t1\ncat\t1\n");
    CHECK_EQ(winnow_textclass_load(tmp_path("bad.nb"), &d, err, sizeof err), WINNOW_E_FORMAT);
    CHECK(strstr(err, "line 7") != NULL);
    CHECK(d == NULL);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/winnow-test-keywords-%ld", (long)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmpdir);
    if (system(cmd) != 0) return 1;
    RUN(test_tokenizer);
    RUN(test_df_round_trip);
    RUN(test_df_bad);
    RUN(test_keywords);
    RUN(test_textclass);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 1;
    return CHECK_DONE();
}
