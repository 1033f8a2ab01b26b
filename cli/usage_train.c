/* The usage of `winnow train`: printed by winnow (winnow help train) and by
 * winnow-train (cli/cmd_train.c), so in a file both programs link. */
#include "cli.h"

const char cli_train_usage[] =
    "usage: winnow train SOURCE... -o MODEL [options]\n"
    "       winnow train SOURCE... --cv N [options]\n"
    "       winnow train --page-types MANIFEST.tsv... -o MODEL | --eval WHAT [options]\n"
    "       winnow train --confidence MANIFEST.tsv... [--labels F1.tsv] [options]\n"
    "Each SOURCE (a .warc/.warc.gz file, a directory or a JSONL file) is one site.\n"
    "  -o, --output MODEL    write the fitted model file\n"
    "      --kind K          boost (default), forest, logreg, nb\n"
    "      --cv N            N-fold cross-site validation: prints recall_at_p90\n"
    "      --all-kinds       with --cv: every kind, one line each\n"
    "      --curve FILE      with --cv: write the precision-recall curve (TSV)\n"
    "      --buckets N       one model per node-size bucket (Chakrabarti: 4); default 1\n"
    "      --labels L        content examples: top (top-most unique blocks, default) or\n"
    "                        inside (also every node inside them)\n"
    "      --exclude A,B     leave out the sources whose site name is listed\n"
    "      --seed N, --per-page N, --rounds N, --depth N, --threads N\n"
    "  -v, --verbose         progress on stderr\n"
    "      --page-types      fit the page type model from labelled corpora instead\n"
    "                        (winnow train --page-types --help lists its options)\n"
    "      --confidence      fit the confidence model from scored corpora instead\n"
    "                        (winnow train --confidence --help lists its options)\n"
    "\n"
    "exit status: 0 trained (or measured); 1 a source or the training failed; 2 usage error\n";
