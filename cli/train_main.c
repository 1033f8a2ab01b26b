/* winnow-train: the `train` command in a program of its own, the one
 * program that links the training libraries (liblinear, XGBoost and what
 * they pull in: libstdc++, OpenMP, BLAS). `winnow train ...` runs it (see
 * cli_exec_train in main.c), so that every other command starts without
 * loading and relocating them: a run of `winnow extract` on one page took
 * about three times as long as the extraction, in the dynamic loader.
 *
 * Called as `winnow-train train ARGS` (by winnow) or `winnow-train ARGS`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    /* cmd_train reads argv as winnow's main gives it: argv[1] the command */
    if (argc >= 2 && !strcmp(argv[1], "train")) return cmd_train(argc, argv);
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av) return EXIT_SOME_FAILED;
    av[0] = argv[0];
    av[1] = (char *)"train";
    for (int i = 1; i < argc; i++) av[i + 1] = argv[i];
    int rc = cmd_train(argc + 1, av);
    free(av);
    return rc;
}
