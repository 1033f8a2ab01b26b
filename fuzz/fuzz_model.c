/* libFuzzer target for the model-file loader (classify/classifier.c), the
 * parser behind winnow_engine_load_model() and the model built into the
 * library.
 *
 * A model file is text from outside (`winnow train` output, or a file a
 * user names with --model): every input is parsed; one that parses is run
 * on a few rows of features (zeros, extremes, and floats taken from the
 * input) and freed. Contracts: a refusal comes with a message, and a
 * model's predictions are probabilities. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "classify/classifier.h"
#include "contracts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void contract(int ok, const char *what) { fuzz_contract(ok, "fuzz_model", what); }

#define ROWS 5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wn_classifier c;
    char err[256] = "";
    int r = wn_classifier_parse((const char *)data, size, &c, err, sizeof err);
    if (r != 0) {
        contract(r == -1 || r == -2, "a refusal that is neither malformed nor out of memory");
        contract(err[0] != '\0', "a refused model left no message");
        return 0;
    }
    static float x[ROWS * WN_NFEAT];
    for (size_t i = 0; i < WN_NFEAT; i++) {
        x[i] = 0.0f;
        x[WN_NFEAT + i] = 1e30f;
        x[2 * WN_NFEAT + i] = -1e30f;
        x[3 * WN_NFEAT + i] = (float)i;
        float f = 0.0f;
        if (size >= sizeof f) memcpy(&f, data + (i * 7) % (size - sizeof f + 1), sizeof f);
        x[4 * WN_NFEAT + i] = isfinite(f) ? f : 0.5f;
    }
    float out[ROWS];
    wn_classifier_predict(&c, x, ROWS, out);
    for (int k = 0; k < ROWS; k++)
        contract(out[k] >= 0.0f && out[k] <= 1.0f, "a prediction that is not a probability (outside [0, 1], or NaN)");
    wn_classifier_free(&c);
    return 0;
}
