/* libFuzzer target for the text applications (src/apps/): the DF-table and
 * classifier parsers behind winnow_df_load() and winnow_textclass_load(),
 * and the tokenizer, keywords and bags of words on any text.
 *
 * Every input is parsed as a DF table and as a classifier; one that parses
 * is used on the input as text. The input is also tokenized and ranked
 * against a small fixed table. Contracts: a refusal comes with a message,
 * tokens lie inside the folded text and are non-empty UTF-8, keywords have
 * positive scores, best first, and a prediction is a probability. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/apps.h"
#include "apps/terms.h"
#include "contracts.h"
#include "winnow_keywords.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_apps", what); }

static winnow_df *fixed_df;

static void check_keywords(const winnow_df *df, const char *text, size_t len)
{
    winnow_keywords *k = NULL;
    if (winnow_keywords_extract(df, text, len, NULL, &k) != WINNOW_OK) return;
    double last = INFINITY;
    for (size_t i = 0; i < winnow_keywords_count(k); i++) {
        winnow_keyword kw = { sizeof kw };
        contract(winnow_keywords_get(k, i, &kw) == WINNOW_OK, "a keyword in range that cannot be read");
        contract(kw.score > 0 && kw.score <= last, "keywords not best first, or a score that is not positive");
        contract(kw.term && kw.term[0] && fuzz_utf8_valid(kw.term, strlen(kw.term)), "an empty or invalid term");
        last = kw.score;
    }
    winnow_keywords_free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fixed_df) {
        static char table[] = "winnow-df\t1\ndocs\t10\nmin_df\t1\nterms\t3\nand\t9\nrocket\t2\nthe\t10\n";
        wn_df_parse(table, sizeof table - 1, "fixed", &fixed_df, NULL, 0);
    }
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    char err[256];

    /* a DF table */
    memcpy(buf, data, size);
    err[0] = '\0';
    winnow_df *df = NULL;
    winnow_status s = wn_df_parse(buf, size, "input", &df, err, sizeof err);
    if (s != WINNOW_OK) {
        contract(df == NULL, "a refused DF table came back");
        contract(s == WINNOW_E_NOMEM || err[0] != '\0', "a refused DF table left no message");
    } else {
        contract(winnow_df_docs(df) >= 1, "a DF table of no documents");
        check_keywords(df, (const char *)data, size);
        winnow_df_free(df);
    }

    /* a classifier */
    memcpy(buf, data, size);
    err[0] = '\0';
    winnow_textclass *c = NULL;
    s = wn_textclass_parse(buf, size, "input", &c, err, sizeof err);
    if (s != WINNOW_OK) {
        contract(c == NULL, "a refused classifier came back");
        contract(s == WINNOW_E_NOMEM || err[0] != '\0', "a refused classifier left no message");
    } else {
        winnow_bag *b = NULL;
        if (winnow_bag_new((const char *)data, size, &b) == WINNOW_OK) {
            size_t l = 0;
            double p = -1;
            if (winnow_textclass_predict(c, b, &l, &p) == WINNOW_OK) {
                contract(l < winnow_textclass_labels(c), "a predicted label out of range");
                contract(p >= 0 && p <= 1, "a posterior that is not a probability (or NaN)");
            }
            winnow_bag_free(b);
        }
        winnow_textclass_free(c);
    }

    /* the input as text */
    wn_tokens tk;
    wn_tokens_init(&tk);
    if (wn_tokenize((const char *)data, size, &tk) == 0) {
        for (size_t i = 0; i < tk.n; i++) {
            contract(tk.t[i].len > 0 && (size_t)tk.t[i].off + tk.t[i].len <= tk.text.len, "a token outside the text");
            contract(fuzz_utf8_valid(tk.text.data + tk.t[i].off, tk.t[i].len), "a token that is not UTF-8");
        }
    }
    wn_tokens_free(&tk);
    if (fixed_df) check_keywords(fixed_df, (const char *)data, size);
    free(buf);
    return 0;
}
