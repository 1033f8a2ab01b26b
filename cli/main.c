/* winnow: command dispatch and usage. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "usage: winnow COMMAND [OPTIONS] INPUT...\n"
    "\n"
    "commands:\n"
    "  extract INPUT...          print or write the main content of each page\n"
    "  blocks PAGE               print the block segmentation as JSON lines\n"
    "  segments PAGE             print the nested segmentation (smoothed classifier scores) as JSON\n"
    "  learn SOURCE... --db DB   learn site templates from pages (incremental)\n"
    "  sites --db DB             list the sites in a site database\n"
    "  site NAME --db DB         show a site's template blocks with document frequencies\n"
    "  check --db DB             check a site database: SQLite's integrity check and every\n"
    "                            site's checksums; exit 0 when sound, 4 when damaged\n"
    "  train SOURCE... -o MODEL  train the page-level node classifier from site-level labels\n"
    "                            (one site per SOURCE; --cv N measures it; train --help)\n"
    "  rules                     the scorer's rule table: name, default, off value, reason\n"
    "  version, help\n"
    "\n"
    "INPUT / SOURCE: an HTML file, a directory (its *.html and *.htm), a .warc or .warc.gz\n"
    "file, a .jsonl file of {\"url\", \"html\"} objects (gzip too), or - for stdin.\n"
    "\n"
    "extract and blocks:\n"
    "  -o, --output PATH     one page: the output file; several: a directory, where page ID\n"
    "                        becomes PATH/ID.txt (.md, .json, .html, .jsonl by format; ID is\n"
    "                        the file stem, or CONTAINER-RECORD for WARC and JSONL; a name\n"
    "                        taken by an earlier page gets ~2, ~3, ...), and PATH/manifest.tsv\n"
    "                        lists every page: output, input, record, record_id, url, status,\n"
    "                        message\n"
    "  -f, --format FORMAT   text (default), markdown, json, html, blocks, segments\n"
    "      --charset NAME    the charset HTTP declared (overrides <meta>, not valid UTF-8)\n"
    "      --url URL         the page's URL (one page)\n"
    "      --no-title        do not prepend the headline found before the content block\n"
    "      --comments        text and markdown: reader comments after the main text\n"
    "      --max-bytes N     refuse pages larger than N bytes (default 268435456)\n"
    "  -j, --jobs N          threads, one engine each (default 1)\n"
    "      --db DB           use the site models in DB (site = --site, else the URL's host)\n"
    "      --site NAME       every page belongs to site NAME\n"
    "      --mode MODE       auto (default: site model when its site has >= 5 pages), site, page\n"
    "      --method M        site evidence: auto (blocks + chunks), blocks, path-blocks,\n"
    "                        chunks, table-chunks, ce (ContentExtractor), fastce\n"
    "      --exclude-self    leave each page's own contribution out of the site counts\n"
    "                        (leave-one-out evaluation of pages the model learned)\n"
    "      --model FILE      node classifier from 'winnow train' instead of the built-in one\n"
    "      --no-model        page mode without the node classifier (heuristic scorer alone)\n"
    "      --no-smooth       classifier scores without isotonic smoothing over the tree\n"
    "      --rule NAME=VALUE set one rule of the table ('winnow rules'), e.g. to turn it off\n"
    "  -q, --quiet           no per-page warnings on stderr\n"
    "\n"
    "learn:\n"
    "      --db DB           the site database (created when missing)\n"
    "      --site NAME       put every page in site NAME (pages without URLs need it)\n"
    "      --half-life N     pages after which old evidence counts half (default 1000)\n"
    "      --commit-every N  save to the database every N pages (default 1000) and every\n"
    "                        30 s; Ctrl-C (SIGINT) or SIGTERM saves what was read, says\n"
    "                        how many pages of how many sites were saved, and exits with\n"
    "                        130 or 143; learning the same inputs again goes on from there\n"
    "      --batch           then extract every page with its site's model: -o OUT writes\n"
    "                        OUT/ID.txt and OUT/manifest.tsv; without --db the models stay\n"
    "                        in memory\n"
    "\n"
    "site:\n"
    "      --all             every fingerprint on >= 2 pages, not only those on >= 10% of them\n"
    "\n"
    "exit status: 0 every page produced content; 1 some page failed (its error is on stderr);\n"
    "             2 usage error; 3 nothing failed but some page had no content; 4 the site\n"
    "             database is damaged (nothing is written into it; see 'winnow check');\n"
    "             130 / 143 learn stopped by SIGINT / SIGTERM after saving what it read\n";

/* The rule table, as TSV: name, stage, default, off value, reason. */
int cmd_rules(int argc, char **argv)
{
    (void)argv;
    if (argc > 2) { fprintf(stderr, "winnow: rules takes no arguments\n"); return EXIT_USAGE; }
    printf("name\tstage\tdefault\toff\twhy\n");
    for (int i = 0; i < winnow_rule_count(); i++) {
        winnow_rule r;
        winnow_rule_info(i, &r);
        printf("%s\t%s\t%g\t%g\t%s\n", r.name, r.stage, r.default_value, r.off_value, r.why);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fputs(usage_text, stderr); return EXIT_USAGE; }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) { fputs(usage_text, stdout); return 0; }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) { printf("winnow %s\n", winnow_version()); return 0; }
    if (!strcmp(cmd, "extract")) return cmd_extract(argc, argv, 0);
    if (!strcmp(cmd, "blocks")) return cmd_extract(argc, argv, 1);
    if (!strcmp(cmd, "segments")) return cmd_extract(argc, argv, 2);
    if (!strcmp(cmd, "learn")) return cmd_learn(argc, argv);
    if (!strcmp(cmd, "sites")) return cmd_sites(argc, argv);
    if (!strcmp(cmd, "site")) return cmd_site(argc, argv);
    if (!strcmp(cmd, "check")) return cmd_check(argc, argv);
    if (!strcmp(cmd, "train")) return cmd_train(argc, argv);
    if (!strcmp(cmd, "rules")) return cmd_rules(argc, argv);
    fprintf(stderr, "winnow: unknown command '%s' (try 'winnow help')\n", cmd);
    return EXIT_USAGE;
}
