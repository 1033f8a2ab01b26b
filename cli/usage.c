/* Usage texts: the top-level one (commands, conventions, exit statuses) and
 * one per command ('winnow help CMD', 'winnow CMD --help'). The exit
 * statuses here, in cli.h and in docs/cli.md's table say the same. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define EXIT_TEXT                                                                                                      \
    "exit status (the first that applies):\n"                                                                          \
    "  2  usage error, or an output that would replace an input or other files (nothing was\n"                         \
    "     read or written)\n"                                                                                          \
    "  5  the site database is damaged (nothing is written into it; 'winnow check' lists why)\n"                       \
    "  1  some page, input or record failed (its error is on stderr; the manifest has its line:\n"                     \
    "     a bad JSONL line, a WARC record cut short too), or an output could not be written\n"                         \
    "  4  nothing failed, but some page was skipped for being over --max-bytes (a warning)\n"                          \
    "  3  nothing failed or was skipped, but some page had no content: no visible text\n"                              \
    "     (WINNOW_NO_CONTENT), none of it judged main content (WINNOW_NO_MAIN), or only its\n"                         \
    "     headline or a few words of much text (WINNOW_THIN_MAIN)\n"                                                   \
    "  0  every page produced content (damaged input is repaired, with a warning)\n"

#define INPUT_TEXT                                                                                                     \
    "INPUT: an HTML file, a directory (its *.html, *.htm, *.html.gz and *.htm.gz files, sorted;\n"                     \
    "subdirectories too with -r), a WARC file (.warc, .warc.gz), a JSONL file of one\n"                                \
    "{\"url\", \"html\"} object a line (.jsonl, .ndjson, gzip too), or - for stdin. Gzip is undone\n"                  \
    "whatever the name; stdin and files with other names are told by their first bytes:\n"                             \
    "\"WARC/\" is a WARC file, '{' JSON lines, anything else one page.\n"                                              \
    "\n"                                                                                                               \
    "input:\n"                                                                                                         \
    "  -r, --recursive       directories: the pages of their subdirectories too (links to\n"                           \
    "                        directories are not followed)\n"                                                          \
    "      --input-list FILE more inputs from FILE, one path a line (- reads the list from stdin)\n"                   \
    "      --input-format F  auto (default), html, warc, jsonl: how files and stdin are read\n"                        \
    "      --max-bytes N     skip pages over N bytes with a warning (exit 4; default 268435456)\n"

#define PAGE_TEXT                                                                                                      \
    "      --charset NAME    the charset HTTP declared (overrides <meta>, not valid UTF-8)\n"                          \
    "      --url URL         the page's URL (one page)\n"                                                              \
    "      --no-title        do not prepend the headline found before the content block\n"                             \
    "      --model FILE      node classifier from 'winnow train' instead of the built-in one\n"                        \
    "      --no-model        page mode without the node classifier (heuristic scorer alone)\n"                         \
    "      --unit-model FILE the learned unit decision's model from 'winnow train --units'\n"                          \
    "      --page-type-model FILE  the page type model from 'winnow train --page-types'\n"                             \
    "                        instead of the built-in one\n"                                                            \
    "      --page-type TYPE  report every page as TYPE (article, forum, product, listing,\n"                           \
    "                        documentation, service, other) instead of the model's judgement\n"                        \
    "      --favor F         precision (less template, some content lost), balanced\n"                                 \
    "                        (default) or recall (all the content, some template kept)\n"                              \
    "      --no-smooth       classifier scores without isotonic smoothing over the tree\n"                             \
    "      --rule NAME=VALUE set one rule of the table ('winnow rules'), e.g. to turn it off\n"

#define OUTPUT_TEXT                                                                                                    \
    "output:\n"                                                                                                        \
    "  -o, --output PATH     one page: the output file; several pages, or PATH ending in '/' or\n"                     \
    "                        naming a directory: a directory, where page NAME becomes\n"                               \
    "                        PATH/NAME.txt (.md, .json, .html, .jsonl by format; NAME is the file\n"                   \
    "                        stem, its path below the directory with -r ('/' written '_'), or\n"                       \
    "                        CONTAINER-RECORD for WARC and JSONL; a name taken by an earlier page\n"                   \
    "                        gets ~2, ~3, ...), and PATH/manifest.tsv lists every page: output,\n"                     \
    "                        input, record, record_id, url, status, message. A folder that cannot\n"                   \
    "                        be written stops the run with one error. An output that would be an\n"                    \
    "                        input is refused (exit 2). A directory that holds winnow's earlier\n"                     \
    "                        output (its manifest.tsv) is replaced: the files that manifest lists\n"                   \
    "                        are removed first; one holding other files is refused (exit 2)\n"                         \
    "                        unless --overwrite.\n"                                                                    \
    "      --overwrite       write into a directory that holds other files: same-named files\n"                        \
    "                        are replaced, the others left\n"                                                          \
    "                        Without -o, pages go to stdout; in text and markdown a line holding\n"                    \
    "                        a form feed (\\f) separates one page from the next.\n"

#define SITE_TEXT                                                                                                      \
    "      --mode MODE       auto (default: the site model when its site has >= 5 pages), site\n"                      \
    "                        (needs --db; a site the database lacks is warned about once), page\n"                     \
    "      --method M        site evidence: auto (blocks + chunks), blocks, path-blocks,\n"                            \
    "                        chunks, table-chunks, ce (ContentExtractor), fastce\n"

static const char top_usage[] =
    "usage: winnow COMMAND [OPTIONS] [INPUT...]\n"
    "\n"
    "commands:\n"
    "  extract INPUT...          print or write the main content of each page\n"
    "  blocks INPUT...           the block segmentation as JSON lines\n"
    "  segments INPUT...         the nested segmentation (smoothed classifier scores) as JSON\n"
    "  learn SOURCE... --db DB   learn site templates from pages (incremental)\n"
    "  merge PART... --db DB     count partial files (learn --partial) into a site database\n"
    "  sites --db DB             list the sites of a site database\n"
    "  site NAME --db DB         a site's template blocks with document frequencies (--report:\n"
    "                            as an HTML report, shown on one of the site's pages)\n"
    "  annotate PAGE -o FILE     the page as an HTML report: every block shaded by winnow's\n"
    "                            verdict, with the reason and rule that decided it\n"
    "  check --db DB             check a site database: integrity and every site's checksums\n"
    "  train SOURCE... -o MODEL  train the page-level node classifier from site-level labels\n"
    "  rules                     the scorer's rule table: name, stage, default, off value, reason\n"
    "  dedup SOURCE...           clusters of pages whose main text is the same or nearly (JSONL)\n"
    "  index SOURCE... --db IX   store pages' main text in a search index (SQLite FTS5)\n"
    "  search IX QUERY           the best pages of an index for a query (BM25)\n"
    "  keywords INPUT...         top terms and phrases of each page's main text (TF-IDF)\n"
    "  classify INPUT...         topic classification (Naive Bayes): train, apply, cross-validate\n"
    "  help [COMMAND]            this text, or a command's options\n"
    "  version                   the version (also -V, --version)\n"
    "\n"
    "'winnow help COMMAND' or 'winnow COMMAND --help' lists a command's options. Options\n"
    "go before or after the inputs; a long option takes its value after '=' or a space, a\n"
    "short one attached or after a space; short flags group; -- ends the options (for an\n"
    "input named like one).\n"
    "\n"
    "INPUT: an HTML file, a directory, a WARC or JSONL file, or - for stdin ('winnow help\n"
    "extract' says more).\n"
    "\n" EXIT_TEXT;

static const char extract_usage[] =
    "usage: winnow extract [OPTIONS] INPUT...\n"
    "The main content of each page, to stdout or -o.\n"
    "\n" INPUT_TEXT "\npage:\n" PAGE_TEXT "\n" OUTPUT_TEXT
    "  -f, --format FORMAT   text (default), markdown, json, html, blocks, segments,\n"
    "                        fulltext (all visible text, nothing removed: a baseline),\n"
    "                        jsonl (a stream: one JSON object a line per input page, failed\n"
    "                        ones too, in input order whatever -j; to stdout or to the file\n"
    "                        -o FILE, gzip when FILE ends in .gz)\n"
    "      --comments        text and markdown: reader comments after the main text; jsonl:\n"
    "                        a \"comments\" key\n"
    "      --blocks          jsonl: a \"blocks\" key (the block candidates, as json has them)\n"
    "      --body LIST       json and jsonl: the main content in these formats, comma-separated,\n"
    "                        each in a key of its name in place of \"text\": text (default),\n"
    "                        markdown, html, fulltext (--body text,markdown: both)\n"
    "\n"
    "run:\n"
    "  -j, --jobs N          threads, one engine each (default 1; pages to stdout use one,\n"
    "                        but for jsonl)\n"
    "  -q, --quiet           no warnings and no progress line on stderr (a progress line is\n"
    "                        shown after 2 s when stderr is a terminal)\n"
    "\n"
    "site models:\n"
    "      --db DB           use the site models in DB (site = --site, else the URL's host\n"
    "                        without www.)\n"
    "      --site NAME       every page belongs to site NAME\n" SITE_TEXT
    "      --exclude-self    leave each page's own contribution out of the site counts\n"
    "                        (leave-one-out evaluation of pages the model learned)\n"
    "\n" EXIT_TEXT;

static const char blocks_usage[] =
    "usage: winnow blocks [OPTIONS] INPUT...\n"
    "Every block candidate of each page as a JSON line: index, parent, tag, DOM path, source\n"
    "range, statistics, fingerprint, templateness, whether it is kept, text.\n"
    "\n" INPUT_TEXT "\npage:\n" PAGE_TEXT "\n" OUTPUT_TEXT "  -j, --jobs N          threads (default 1)\n"
    "  -q, --quiet           no warnings and no progress line on stderr\n"
    "      --db DB, --site NAME, --mode MODE, --method M, --exclude-self: as for extract\n"
    "\n" EXIT_TEXT;

static const char segments_usage[] =
    "usage: winnow segments [OPTIONS] INPUT...\n"
    "The nested segments of each page with their smoothed classifier scores, as one JSON\n"
    "object: root, tree_nodes, levels, cost, segments.\n"
    "\n" INPUT_TEXT "\npage:\n" PAGE_TEXT "\n" OUTPUT_TEXT "  -j, --jobs N          threads (default 1)\n"
    "  -q, --quiet           no warnings and no progress line on stderr\n"
    "\n" EXIT_TEXT;

static const char learn_usage[] =
    "usage: winnow learn [OPTIONS] SOURCE... --db DB\n"
    "       winnow learn [OPTIONS] SOURCE... --partial OUT.wpart\n"
    "       winnow learn --batch [OPTIONS] SOURCE... [-o OUT]\n"
    "Counts each page into its site's model (the site is --site, else the URL's host without\n"
    "www.) and saves the models every --commit-every pages, each save one transaction.\n"
    "\n"
    "SOURCE: as INPUT of extract ('winnow help extract').\n"
    "\n"
    "      --db DB           the site database (created when missing)\n"
    "      --partial OUT     instead of a database: write what the pages would count, per\n"
    "                        site, to the partial file OUT ('winnow merge' counts partials\n"
    "                        from any number of runs or machines into a database; written\n"
    "                        whole at the end, nothing when interrupted)\n"
    "      --site NAME       put every page in site NAME (pages without URLs need it)\n"
    "      --half-life N     pages after which old evidence counts half (default 1000)\n"
    "      --commit-every N  save every N pages (default 1000) and at least every 30 s: a\n"
    "                        crash keeps what was saved; two learns of one site at once both\n"
    "                        count, the later save counting its pages after the other's\n"
    "  -j, --jobs N          threads: sites are learned side by side, each site's pages in\n"
    "                        input order on one thread (the models are the same as with one\n"
    "                        thread; one site gains nothing); --batch extracts with N threads\n"
    "  -q, --quiet           no warnings, no summary and no progress line on stderr\n"
    "  -r, --recursive, --input-list FILE, --input-format F, --max-bytes N: as for extract\n"
    "\n"
    "      --batch           then extract every page with its site's model: -o OUT writes\n"
    "                        OUT/NAME.txt and OUT/manifest.tsv as extract does, else stdout;\n"
    "                        without --db the models stay in memory\n"
    "  -o, --output OUT, -f, --format FORMAT, --no-title, --mode MODE, --method M, --charset,\n"
    "  --model, --no-model, --no-smooth, --rule: for --batch, as for extract\n"
    "\n"
    "SIGINT (Ctrl-C) or SIGTERM: the pages read are counted and saved, a line says how many\n"
    "pages of how many sites this run saved, and the exit status is 130 (143 for SIGTERM);\n"
    "learning the same inputs again goes on from there. A second signal stops at once.\n"
    "A database that cannot be written fails at once: \"database is read-only: PATH\".\n"
    "\n" EXIT_TEXT;

static const char merge_usage[] =
    "usage: winnow merge PART... --db DB\n"
    "Counts partial files ('winnow learn --partial') into a site database (created when\n"
    "missing), site by site. The result is exact: merging parts P1 ... Pk gives the database\n"
    "that one 'winnow learn' of P1's sources, then P2's, ..., gives (same fingerprints,\n"
    "counts and ageing; a page in two parts counts once), on top of what DB held. Give the\n"
    "parts in the order of their shards. Every part is checked whole first (format, version,\n"
    "checksums): a bad one is named and nothing is merged. Merging a part again counts its\n"
    "pages as duplicates, so a merge cut short can simply be run again.\n"
    "\n"
    "      --db DB           the site database\n"
    "      --commit-every N  save after every N pages merged (whole sites; default 10000)\n"
    "      --input-list FILE more parts from FILE, one path a line\n"
    "  -q, --quiet           no summary on stderr\n"
    "\n"
    "exit status: 0 merged; 1 a part is missing, not a partial file, of another version or\n"
    "damaged (nothing merged), or the database cannot be written; 2 usage error; 5 the\n"
    "database is damaged (nothing is written into it)\n";

static const char sites_usage[] =
    "usage: winnow sites --db DB\n"
    "The sites of a site database, one a line:\n"
    "  site          the site's name\n"
    "  weight        what its pages weigh now (a fraction): each page learned after one\n"
    "                multiplies that one's weight by 2^(-1/half-life), so old pages (an old\n"
    "                template) fade; the template share (10%) is taken of this\n"
    "  learned       pages counted into it over its life (a page seen again, under another\n"
    "                URL too, once)\n"
    "  fingerprints  distinct block and chunk fingerprints stored\n"
    "  half-life     in pages\n"
    "  updated       the last learn (UTC)\n"
    "\n"
    "exit status: 0 listed; 1 the database cannot be read; 2 usage error; 5 the database is\n"
    "damaged (nothing is listed then)\n";

static const char site_usage[] =
    "usage: winnow site NAME --db DB [--all]\n"
    "       winnow site NAME --db DB --report [-o FILE] [PAGES...]\n"
    "A site's template: the fingerprints on at least 10% of its pages (by weight, see\n"
    "'winnow help sites'), most frequent first, with their document frequency, share, kind\n"
    "and text. NAME www.example.org finds example.org (and the other way round) when only\n"
    "that one is in the database.\n"
    "\n"
    "      --db DB           the site database\n"
    "      --all             every fingerprint on two or more pages (--report: up to 5000\n"
    "                        rows instead of 300)\n"
    "\n"
    "report (one self-contained HTML file, as 'winnow help annotate' describes):\n"
    "      --report          the site's template blocks with their document frequencies,\n"
    "                        shown on one of PAGES (inputs as for extract: a WARC, a\n"
    "                        directory, pages), and a table of the site's most frequent\n"
    "                        fingerprints. The page shown: of the first 50 pages of the site\n"
    "                        among PAGES (URL host NAME, or no URL), the one on which the most\n"
    "                        of the site's template block fingerprints occur; the report and\n"
    "                        stderr say which. Without PAGES: the table alone.\n"
    "  -o, --output FILE     write the report to FILE (default: stdout)\n"
    "      --record N|URL    show this page of PAGES (a record number or a URL)\n"
    "      --site NAME       every page of PAGES belongs to the site\n"
    "      --mode, --method, --charset, --max-bytes, --model, --no-model, --no-smooth,\n"
    "      --rule, --no-title, -r, --input-format, --input-list, -q: as for extract\n"
    "\n"
    "exit status: 0 shown; 1 no such site, the database cannot be read, or the report\n"
    "cannot be written; 2 usage error; 5 the database or the site is damaged\n";

static const char annotate_usage[] =
    "usage: winnow annotate [OPTIONS] PAGE [-o FILE]\n"
    "The page as winnow saw it, as one self-contained HTML file: the page's own markup\n"
    "(scripts, styles, images, frames and every attribute that could load or run anything\n"
    "removed; nothing is fetched) with every block shaded by its verdict: content,\n"
    "template, comments, link list, boilerplate. A legend, a switch between the annotated\n"
    "page and the extracted text, and on hovering a block: its DOM path, characters, link\n"
    "density, hint names, heuristic value, classifier and smoothed scores, with --db its\n"
    "site document frequency, and the reason and rule ('winnow rules') that decided it.\n"
    "Open FILE#content to start at the content block.\n"
    "\n"
    "PAGE: an HTML file, - for stdin, or a WARC, JSONL file or directory with --record\n"
    "(without it, the first page, with a note on stderr).\n"
    "\n"
    "  -o, --output FILE     write the report to FILE (default: stdout)\n"
    "      --record N|URL    the page of a WARC or JSONL file: its record number (WARC\n"
    "                        records from 0, JSONL lines from 1, as in output names) or URL;\n"
    "                        of a directory: a file's path or name\n"
    "      --db DB           use the site model of the page's site: site-mode verdicts, and\n"
    "                        each block's document frequency\n"
    "      --site NAME       the page belongs to site NAME (else its URL's host)\n" SITE_TEXT
    "      --exclude-self    leave the page's own contribution out of the site counts\n"
    "\npage:\n" PAGE_TEXT "  -r, --recursive, --input-format F, --input-list FILE, --max-bytes N: as for extract\n"
    "  -q, --quiet           no warnings on stderr\n"
    "\n"
    "exit status: 0 written; 1 the page failed (empty, binary, unreadable, no such record)\n"
    "or the report could not be written; 2 usage error; 4 the page was over --max-bytes;\n"
    "5 the site database is damaged\n";

static const char check_usage[] =
    "usage: winnow check --db DB\n"
    "Checks a site database: SQLite's integrity check, the schema, the list of sites, and\n"
    "every row of every site against the site's checksums. Prints \"DB: sound: ...\" with\n"
    "what it checked, or one line per problem. Works on a database that cannot be written.\n"
    "\n"
    "exit status: 0 sound; 1 not a site database this winnow reads, or it cannot be opened;\n"
    "2 usage error; 5 damaged\n";

static const char rules_usage[] =
    "usage: winnow rules\n"
    "The scorer's rule table as TSV: name, stage, default, off value, reason. 'winnow extract\n"
    "--rule NAME=VALUE' sets one.\n";

static const char help_usage[] = "usage: winnow help [COMMAND]\n"
                                 "The commands, or a command's options.\n";

static const char version_usage[] = "usage: winnow version (or winnow -V, winnow --version)\n";

extern const char cli_train_usage[]; /* usage_train.c */
extern const char cli_dedup_usage[], cli_index_usage[], cli_search_usage[];
extern const char cli_keywords_usage[];
extern const char cli_classify_usage[];

const char *cli_usage(const char *cmd)
{
    static const struct {
        const char *cmd, *text;
    } texts[] = {
        { "extract", extract_usage },
        { "blocks", blocks_usage },
        { "segments", segments_usage },
        { "learn", learn_usage },
        { "sites", sites_usage },
        { "site", site_usage },
        { "check", check_usage },
        { "merge", merge_usage },
        { "check", check_usage },
        { "annotate", annotate_usage },
        { "train", cli_train_usage },
        { "rules", rules_usage },
        { "help", help_usage },
        { "version", version_usage },
        { "dedup", cli_dedup_usage },
        { "index", cli_index_usage },
        { "search", cli_search_usage },
        { "keywords", cli_keywords_usage },
        { "classify", cli_classify_usage },
    };
    if (!cmd) return top_usage;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strcmp(texts[i].cmd, cmd)) return texts[i].text;
    return NULL;
}

int cmd_help(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "winnow: help takes one command at most\n");
        return EXIT_USAGE;
    }
    const char *what = argc == 3 ? argv[2] : NULL;
    if (what && (!strcmp(what, "-h") || !strcmp(what, "--help"))) what = "help";
    const char *text = cli_usage(what);
    if (!text) {
        fprintf(stderr, "winnow: unknown command '%s' (try 'winnow help')\n", argv[2]);
        return EXIT_USAGE;
    }
    fputs(text, stdout);
    return EXIT_OK;
}
