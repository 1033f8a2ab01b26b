/* The training layer's API follows the library's conventions: statuses
 * from every call, option structs that carry their size. */
#include "check.h"
#include "winnow_train.h"

static void test_options_and_new(void)
{
    winnow_train_options o;
    memset(&o, 0xAB, sizeof o);
    CHECK_EQ(winnow_train_options_default(&o, sizeof o), WINNOW_OK);
    CHECK_EQ(o.struct_size, sizeof o);
    CHECK_EQ(o.kind, WINNOW_MODEL_BOOST);
    CHECK_EQ(o.per_page, 40);
    CHECK_EQ(winnow_train_options_default(&o, sizeof o - 1), WINNOW_E_ARG);
    CHECK_EQ(winnow_train_options_default(NULL, sizeof o), WINNOW_E_ARG);

    winnow_trainer *t = (winnow_trainer *)&o;
    CHECK_EQ(winnow_trainer_new(&o, NULL), WINNOW_E_ARG);
    o.struct_size = 4; /* a caller built against a smaller structure */
    CHECK_EQ(winnow_trainer_new(&o, &t), WINNOW_E_ARG);
    CHECK(t == NULL);
    o.struct_size = sizeof o;
    CHECK_EQ(winnow_trainer_new(&o, &t), WINNOW_OK);
    CHECK(t != NULL);
    CHECK_EQ(strcmp(winnow_trainer_error(t), ""), 0);
    /* nothing learned: saving a model says so instead of writing one */
    CHECK(winnow_trainer_save(t, "/nonexistent-dir/model.bin") != WINNOW_OK);
    winnow_trainer_free(t);
    t = NULL;
    CHECK_EQ(winnow_trainer_new(NULL, &t), WINNOW_OK);
    CHECK(t != NULL);
    winnow_trainer_free(t);
}

int main(void)
{
    RUN(test_options_and_new);
    return CHECK_DONE();
}
