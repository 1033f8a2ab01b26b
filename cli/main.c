/* winnow: command dispatch. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The rule table, as TSV: name, stage, default, off value, reason. */
int cmd_rules(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "");
    int extra = o.ninputs;
    cli_opts_free(&o);
    if (rc) return rc == CLI_DONE ? EXIT_OK : rc;
    if (extra) {
        fprintf(stderr, "winnow: rules takes no arguments\n");
        return EXIT_USAGE;
    }
    printf("name\tstage\tdefault\toff\twhy\n");
    for (int i = 0; i < winnow_rule_count(); i++) {
        winnow_rule r = { sizeof r };
        winnow_rule_info(i, &r);
        printf("%s\t%s\t%g\t%g\t%s\n", r.name, r.stage, r.default_value, r.off_value, r.why);
    }
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "");
    int extra = o.ninputs;
    cli_opts_free(&o);
    if (rc) return rc == CLI_DONE ? EXIT_OK : rc;
    if (extra) {
        fprintf(stderr, "winnow: version takes no arguments\n");
        return EXIT_USAGE;
    }
    printf("winnow %s\n", winnow_version());
    return EXIT_OK;
}

/* `winnow train`: runs winnow-train (cli/train_main.c), the program that
 * links the training libraries, from the folder this program is in, else
 * from the PATH. Returns only when neither can be run. */
static int cli_exec_train(char **argv)
{
    char self[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, PATH_MAX);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            strcpy(slash + 1, "winnow-train");
            execv(self, argv);
        }
    }
    execvp("winnow-train", argv);
    fprintf(stderr, "winnow: train needs winnow-train (installed beside winnow), which cannot be run: %s\n",
            strerror(errno));
    return EXIT_SOME_FAILED;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(cli_usage(NULL), stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return cmd_help(argc, argv);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version") || !strcmp(cmd, "-V")) return cmd_version(argc, argv);
    if (!strcmp(cmd, "extract")) return cmd_extract(argc, argv, 0);
    if (!strcmp(cmd, "blocks")) return cmd_extract(argc, argv, 1);
    if (!strcmp(cmd, "segments")) return cmd_extract(argc, argv, 2);
    if (!strcmp(cmd, "learn")) return cmd_learn(argc, argv);
    if (!strcmp(cmd, "sites")) return cmd_sites(argc, argv);
    if (!strcmp(cmd, "site")) return cmd_site(argc, argv);
    if (!strcmp(cmd, "check")) return cmd_check(argc, argv);
    if (!strcmp(cmd, "merge")) return cmd_merge(argc, argv);
    if (!strcmp(cmd, "train")) return cli_exec_train(argv);
    if (!strcmp(cmd, "rules")) return cmd_rules(argc, argv);
    if (!strcmp(cmd, "dedup")) return cmd_dedup(argc, argv);
    if (!strcmp(cmd, "index")) return cmd_index(argc, argv);
    if (!strcmp(cmd, "search")) return cmd_search(argc, argv);
    if (!strcmp(cmd, "annotate")) return cmd_annotate(argc, argv);
    if (!strcmp(cmd, "keywords")) return cmd_keywords(argc, argv);
    if (!strcmp(cmd, "classify")) return cmd_classify(argc, argv);
    if (cmd[0] == '-')
        fprintf(stderr,
                "winnow: '%s' before a command (usage: winnow COMMAND [OPTIONS] [INPUT...]; try 'winnow help')\n", cmd);
    else
        fprintf(stderr, "winnow: unknown command '%s' (try 'winnow help')\n", cmd);
    return EXIT_USAGE;
}
