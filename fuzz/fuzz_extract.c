/* libFuzzer target: the whole public pipeline on arbitrary bytes.
 *
 * One engine lives for the whole run, as in a long-running caller, so
 * state carried from page to page (reused arena and buffers, the parser's
 * tree) is fuzzed too. Each input is extracted, rendered in every format,
 * its metadata and blocks read, and freed. Besides the sanitizers, the
 * output contracts are checked and a broken one aborts: a failed status
 * comes with no document and a message, every render of a document
 * succeeds, JSON and blocks output parse, and text is valid UTF-8. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "winnow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_extract", what); }

static void check_rendering(const winnow_doc *doc, winnow_format f)
{
    size_t len = 0;
    char *out = NULL;
    contract(winnow_render_alloc(doc, f, &out, &len) == WINNOW_OK && out != NULL, "winnow_render_alloc failed");
    contract(strlen(out) == len, "output holds a NUL byte");
    switch (f) {
    case WINNOW_FORMAT_TEXT:
    case WINNOW_FORMAT_MARKDOWN: contract(fuzz_utf8_valid(out, len), "text output is not valid UTF-8"); break;
    case WINNOW_FORMAT_JSON:
    case WINNOW_FORMAT_SEGMENTS: contract(fuzz_json_valid(out, len), "JSON output does not parse"); break;
    case WINNOW_FORMAT_BLOCKS: contract(fuzz_json_lines_valid(out, len), "a blocks line does not parse"); break;
    default: break;
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static winnow_engine *engine;
    if (!engine) {
        winnow_engine_new(NULL, &engine);
        contract(engine != NULL, "winnow_engine_new failed");
    }
    winnow_input in = { sizeof in, data, size, NULL, NULL };
    winnow_doc *doc = NULL;
    winnow_status s = winnow_extract(engine, &in, &doc);
    if (WINNOW_FAILED(s)) {
        contract(doc == NULL, "a failed extraction returned a document");
        contract(winnow_engine_error(engine)[0] != '\0', "a failed extraction left no message");
        return 0;
    }
    contract(doc != NULL, "a successful extraction returned no document");
    contract((s == WINNOW_OK) == (winnow_doc_warning(doc)[0] == '\0'), "warning and status disagree");
    /* text, the main product, every time; one other format per input, told
     * by its length, so that each input pays for one more renderer (JSON
     * and blocks write every nested block's text: rendering all of them
     * cost twice the extraction) and the fuzzer still reaches them all */
    static const winnow_format others[] = { WINNOW_FORMAT_MARKDOWN, WINNOW_FORMAT_JSON, WINNOW_FORMAT_HTML,
                                            WINNOW_FORMAT_BLOCKS, WINNOW_FORMAT_SEGMENTS };
    check_rendering(doc, WINNOW_FORMAT_TEXT);
    check_rendering(doc, others[size % (sizeof others / sizeof others[0])]);
    for (int m = 0; m < WINNOW_META_COUNT; m++) {
        const char *v = winnow_doc_meta(doc, (winnow_meta_field)m);
        contract(v != NULL && fuzz_utf8_valid(v, strlen(v)), "metadata is not valid UTF-8");
    }
    size_t n = winnow_doc_block_count(doc);
    for (size_t k = 0; k < n; k++) {
        winnow_block b = { sizeof b };
        contract(winnow_doc_block(doc, k, &b) == WINNOW_OK, "winnow_doc_block failed in range");
        contract(b.parent < (long)k, "a block's parent comes after it");
    }
    winnow_doc_free(doc);
    return 0;
}
