/* libFuzzer target: winnow annotate's report (src/report/) on arbitrary
 * bytes.
 *
 * Besides the sanitizers, the report's safety contract is checked and a
 * broken one aborts: the report is valid UTF-8 without NUL; every tag in
 * it is one the writer emits (the page's own names are mapped onto that
 * list), with only the writer's attributes, each value quoted and free of
 * '<' and '"'; it holds exactly one <script>, the report's own with its
 * nonce; a failed page writes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "report/report.h"
#include "util/buf.h"
#include "winnow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_report", what); }

static int to_buf(void *ctx, const char *d, size_t n)
{
    wn_buf_put(ctx, d, n);
    return 0;
}

static int in_list(const char *s, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && !memcmp(*list, s, n)) return 1;
    return 0;
}

/* the tags and attributes the writer emits */
static const char *const tags[] = {
    "!DOCTYPE", "html", "head", "meta", "link", "title", "style", "body", "header", "h1", "h2", "p", "ul", "li", "span",
    "b", "div", "button", "details", "summary", "table", "tr", "th", "td", "main", "section", "pre", "script",
    /* the page's, kept as they are */
    "a", "abbr", "address", "article", "aside", "bdi", "bdo", "blockquote", "caption", "center", "cite", "code",
    "colgroup", "data", "dd", "del", "dfn", "dir", "dl", "dt", "em", "fieldset", "figcaption", "figure", "font",
    "footer", "h3", "h4", "h5", "h6", "hgroup", "i", "ins", "kbd", "label", "legend", "mark", "menu", "nav", "object",
    "ol", "q", "rp", "rt", "ruby", "s", "samp", "small", "strike", "strong", "sub", "sup", "tbody", "tfoot", "thead",
    "time", "tt", "u", "var", "br", "col", "hr", "wbr", NULL
};
static const char *const attrs[] = { "lang",          "charset",
                                     "http-equiv",    "content",
                                     "name",          "rel",
                                     "href",          "id",
                                     "class",         "hidden",
                                     "type",          "data-view",
                                     "aria-pressed",  "nonce",
                                     "data-verdict",  "data-why",
                                     "data-text",     "data-status",
                                     "colspan",       "rowspan",
                                     "span",          "start",
                                     "value",         "reversed",
                                     "dir",           "data-wn-i",
                                     "data-wn-v",     "data-wn-why",
                                     "data-wn-rule",  "data-wn-path",
                                     "data-wn-chars", "data-wn-ld",
                                     "data-wn-hints", "data-wn-trusted",
                                     "data-wn-heur",  "data-wn-value",
                                     "data-wn-clf",   "data-wn-smooth",
                                     "data-wn-t",     "data-wn-df",
                                     "data-wn-badge", NULL };

static void check_markup(const char *s, size_t n)
{
    int scripts = 0;
    size_t i = 0;
    while (i < n) {
        const char *lt = memchr(s + i, '<', n - i);
        if (!lt) break;
        i = (size_t)(lt - s) + 1;
        int end = i < n && s[i] == '/';
        if (end) i++;
        size_t b = i;
        while (i < n && (s[i] == '!' || s[i] == '-' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                         (s[i] >= '0' && s[i] <= '9')))
            i++;
        contract(i > b && in_list(s + b, i - b, tags), "a tag the writer does not emit");
        if (i - b == 8 && !memcmp(s + b, "!DOCTYPE", 8)) {
            contract(i + 6 <= n && !memcmp(s + i, " html>", 6), "a doctype but <!DOCTYPE html>");
            continue;
        }
        int is_script = i - b == 6 && !memcmp(s + b, "script", 6);
        if (is_script && !end) {
            scripts++;
            /* the script's body is the writer's: skip to its end tag */
            const char *close = memmem(s + i, n - i, "</script>", 9);
            contract(close != NULL, "the script is not closed");
            contract(memmem(s + i, (size_t)(close - (s + i)), " nonce=\"", 8) != NULL, "the script has no nonce");
            i = (size_t)(close - s);
            continue;
        }
        /* attributes: name, ="value" with neither '<' nor '"' in it */
        for (;;) {
            while (i < n && s[i] == ' ') i++;
            contract(i < n, "a tag is not closed");
            if (s[i] == '>') break;
            size_t a = i;
            while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '-')) i++;
            contract(i > a && in_list(s + a, i - a, attrs), "an attribute the writer does not emit");
            if (i < n && s[i] == '=') {
                contract(i + 1 < n && s[i + 1] == '"', "an unquoted attribute value");
                const char *q = memchr(s + i + 2, '"', n - i - 2);
                contract(q != NULL, "an attribute value is not closed");
                contract(memchr(s + i + 2, '<', (size_t)(q - (s + i + 2))) == NULL, "'<' in an attribute value");
                i = (size_t)(q - s) + 1;
            }
        }
        i++;
    }
    contract(scripts == 1, "not exactly one <script>");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static winnow_engine *engine;
    if (!engine) {
        winnow_engine_new(NULL, &engine);
        contract(engine != NULL, "winnow_engine_new failed");
    }
    winnow_input in = { sizeof in, data, size, NULL, NULL };
    wn_report_options o = { .command = "winnow annotate", .template_share = 0.1 };
    wn_buf b;
    wn_buf_init(&b);
    winnow_status s = wn_report_page(engine, &in, &o, to_buf, &b);
    if (WINNOW_FAILED(s)) {
        contract(s != WINNOW_E_IO, "a write that cannot fail failed");
        contract(b.len == 0, "a failed page wrote a report");
        wn_buf_free(&b);
        return 0;
    }
    contract(!b.oom, "out of memory");
    contract(b.len > 0 && memchr(b.data, '\0', b.len) == NULL, "empty report, or a NUL in it");
    contract(fuzz_utf8_valid(b.data, b.len), "the report is not valid UTF-8");
    check_markup(b.data, b.len);
    wn_buf_free(&b);
    return 0;
}
