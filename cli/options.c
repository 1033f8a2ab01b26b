/* Option parsing shared by the commands: getopt_long over one table of every
 * option, cut down to what each command takes, with strict numbers and
 * messages that name the command. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    OPT_CHARSET = 256,
    OPT_URL,
    OPT_NO_TITLE,
    OPT_COMMENTS,
    OPT_MAX_BYTES,
    OPT_DB,
    OPT_SITE,
    OPT_MODE,
    OPT_METHOD,
    OPT_EXCLUDE_SELF,
    OPT_MODEL,
    OPT_NO_MODEL,
    OPT_UNIT_MODEL,
    OPT_PAGE_TYPE_MODEL,
    OPT_PAGE_TYPE,
    OPT_FAVOR,
    OPT_NO_SMOOTH,
    OPT_RULE,
    OPT_HALF_LIFE,
    OPT_BATCH,
    OPT_ALL,
    OPT_INPUT_FORMAT,
    OPT_INPUT_LIST,
    OPT_COMMIT_EVERY,
    OPT_PARTIAL,
    OPT_BLOCKS,
    OPT_BODY,
    OPT_RECORD,
    OPT_REPORT,
    OPT_OVERWRITE,
    /* dedup, index, search */
    OPT_SKETCH,
    OPT_MIN_MATCHES,
    OPT_MIN_WORDS,
    OPT_LSH,
    OPT_ROWS,
    OPT_PAIRS,
    OPT_SITE_DB,
    OPT_RAW,
};

static const struct option all_options[] = {
    { "output", required_argument, NULL, 'o' },
    { "format", required_argument, NULL, 'f' },
    { "jobs", required_argument, NULL, 'j' },
    { "quiet", no_argument, NULL, 'q' },
    { "recursive", no_argument, NULL, 'r' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { "charset", required_argument, NULL, OPT_CHARSET },
    { "url", required_argument, NULL, OPT_URL },
    { "no-title", no_argument, NULL, OPT_NO_TITLE },
    { "comments", no_argument, NULL, OPT_COMMENTS },
    { "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
    { "db", required_argument, NULL, OPT_DB },
    { "site", required_argument, NULL, OPT_SITE },
    { "mode", required_argument, NULL, OPT_MODE },
    { "method", required_argument, NULL, OPT_METHOD },
    { "exclude-self", no_argument, NULL, OPT_EXCLUDE_SELF },
    { "model", required_argument, NULL, OPT_MODEL },
    { "no-model", no_argument, NULL, OPT_NO_MODEL },
    { "unit-model", required_argument, NULL, OPT_UNIT_MODEL },
    { "page-type-model", required_argument, NULL, OPT_PAGE_TYPE_MODEL },
    { "page-type", required_argument, NULL, OPT_PAGE_TYPE },
    { "favor", required_argument, NULL, OPT_FAVOR },
    { "no-smooth", no_argument, NULL, OPT_NO_SMOOTH },
    { "rule", required_argument, NULL, OPT_RULE },
    { "half-life", required_argument, NULL, OPT_HALF_LIFE },
    { "batch", no_argument, NULL, OPT_BATCH },
    { "all", no_argument, NULL, OPT_ALL },
    { "input-format", required_argument, NULL, OPT_INPUT_FORMAT },
    { "input-list", required_argument, NULL, OPT_INPUT_LIST },
    { "commit-every", required_argument, NULL, OPT_COMMIT_EVERY },
    { "partial", required_argument, NULL, OPT_PARTIAL },
    { "blocks", no_argument, NULL, OPT_BLOCKS },
    { "body", required_argument, NULL, OPT_BODY },
    { "overwrite", no_argument, NULL, OPT_OVERWRITE },
    /* dedup, index, search */
    { "sketch", required_argument, NULL, OPT_SKETCH },
    { "min-matches", required_argument, NULL, OPT_MIN_MATCHES },
    { "min-words", required_argument, NULL, OPT_MIN_WORDS },
    { "lsh", required_argument, NULL, OPT_LSH },
    { "rows", required_argument, NULL, OPT_ROWS },
    { "pairs", no_argument, NULL, OPT_PAIRS },
    { "site-db", required_argument, NULL, OPT_SITE_DB },
    { "limit", required_argument, NULL, 'n' },
    { "raw", no_argument, NULL, OPT_RAW },
    { "record", required_argument, NULL, OPT_RECORD },
    { "report", no_argument, NULL, OPT_REPORT },
    { NULL, 0, NULL, 0 },
};

#define MAX_OPTIONS (sizeof all_options / sizeof all_options[0])

int cli_db_exit(winnow_status s) { return s == WINNOW_E_DB_DAMAGED ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED; }

int cli_exit_status(int failed, int skipped, int no_content)
{
    if (failed) return EXIT_SOME_FAILED;
    if (skipped) return EXIT_SKIPPED;
    return no_content ? EXIT_NO_CONTENT : EXIT_OK;
}

int cli_parse_count(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    unsigned long long v = 0;
    int ok = *s != '\0';
    for (const char *p = s; *p && ok; p++) {
        if (*p < '0' || *p > '9')
            ok = 0;
        else if (v > (~0ull - 9) / 10)
            ok = 0;
        else
            v = v * 10 + (unsigned long long)(*p - '0');
    }
    if (!ok || v < lo || v > hi) {
        if (hi == ~0ull)
            fprintf(stderr, "winnow: %s needs a whole number of at least %llu, got '%s'\n", opt, lo, s);
        else
            fprintf(stderr, "winnow: %s needs a whole number from %llu to %llu, got '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* A positive finite number, nothing before or after it. */
static int parse_positive(const char *s, double *out)
{
    if (!((*s >= '0' && *s <= '9') || *s == '.')) return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !end || *end || !isfinite(v) || !(v > 0)) return -1;
    *out = v;
    return 0;
}

/* `allowed` lists the long options a command takes, space separated. */
static int allowed_opt(const char *allowed, const char *name)
{
    if (!strcmp(name, "help") || !strcmp(name, "version")) return 1;
    size_t n = strlen(name);
    for (const char *p = allowed; (p = strstr(p, name)) != NULL; p += n)
        if (p >= allowed + 2 && p[-1] == '-' && p[-2] == '-' && (p == allowed + 2 || p[-3] == ' ') &&
            (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

void cli_option_error(const char *cmd, int c, int at, char *const *av, const struct option *known,
                      const struct option *taken)
{
    const char *text = at > 0 ? av[at - 1] : "";
    /* a long option when the argument just read is one that names optopt's
     * option (or none: an unknown long option leaves optopt 0) */
    int is_long = strncmp(text, "--", 2) == 0 && text[2];
    if (is_long && optopt) {
        size_t n = strcspn(text + 2, "=");
        int names = 0;
        for (const struct option *k = taken; k->name; k++) names |= k->val == optopt && !strncmp(k->name, text + 2, n);
        is_long = names;
    }
    if (c == ':') {
        if (is_long)
            fprintf(stderr, "winnow: option '%.*s' needs a value\n", (int)strcspn(text, "="), text);
        else
            fprintf(stderr, "winnow: option '-%c' needs a value\n", optopt);
    } else if (!is_long && !optopt) {
        fprintf(stderr, "winnow: unknown option '%s'\n", text);
    } else if (!is_long) {
        int elsewhere = 0;
        for (const struct option *k = known; k->name; k++) elsewhere |= k->val == optopt;
        if (elsewhere)
            fprintf(stderr, "winnow: %s does not take option '-%c'\n", cmd, optopt);
        else
            fprintf(stderr, "winnow: unknown option '-%c'\n", optopt);
    } else {
        /* a long option: unknown, not this command's, ambiguous, or given a value it does not take */
        const char *name = text + 2;
        size_t n = strcspn(name, "=");
        const struct option *exact = NULL;
        int prefixes = 0;
        char several[256] = "";
        for (const struct option *k = taken; k->name; k++) {
            if (strlen(k->name) == n && !strncmp(k->name, name, n)) exact = k;
            if (!strncmp(k->name, name, n)) {
                prefixes++;
                size_t len = strlen(several);
                snprintf(several + len, sizeof several - len, "%s--%s", len ? ", " : "", k->name);
            }
        }
        int known_elsewhere = 0;
        for (const struct option *k = known; k->name; k++)
            if (strlen(k->name) == n && !strncmp(k->name, name, n)) known_elsewhere = 1;
        if (exact && name[n] == '=' && exact->has_arg == no_argument)
            fprintf(stderr, "winnow: option '--%s' takes no value\n", exact->name);
        else if (!exact && prefixes > 1)
            fprintf(stderr, "winnow: option '%.*s' is ambiguous (%s)\n", (int)n + 2, text, several);
        else if (!exact && known_elsewhere)
            fprintf(stderr, "winnow: %s does not take option '%.*s'\n", cmd, (int)n + 2, text);
        else
            fprintf(stderr, "winnow: unknown option '%.*s'\n", (int)n + 2, text);
    }
    fprintf(stderr, "(try 'winnow help %s')\n", cmd);
}

static int add_input(cli_opts *o, const char *path)
{
    if (o->ninputs == o->capinputs) {
        int cap = o->capinputs ? o->capinputs * 2 : 16;
        const char **n = realloc(o->inputs, (size_t)cap * sizeof *n);
        if (!n) return -1;
        o->inputs = n;
        o->capinputs = cap;
    }
    o->inputs[o->ninputs++] = path;
    return 0;
}

/* --input-list FILE: one path a line (a CR before the line end is dropped,
 * blank lines are skipped); "-" reads the list from stdin. */
static int read_input_list(cli_opts *o, const char *list)
{
    FILE *f = strcmp(list, "-") ? fopen(list, "rb") : stdin;
    const char *name = strcmp(list, "-") ? list : "<stdin>";
    if (!f) {
        fprintf(stderr, "winnow: cannot open input list %s: %s\n", name, strerror(errno));
        return EXIT_SOME_FAILED;
    }
    size_t len = 0, cap = 0;
    char *data = NULL;
    int err = 0;
    for (;;) {
        if (cap - len < 65536) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *n = realloc(data, ncap + 1);
            if (!n) {
                err = ENOMEM;
                break;
            }
            data = n;
            cap = ncap;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) err = errno ? errno : EIO;
            break;
        }
    }
    if (f != stdin) fclose(f);
    if (err) {
        free(data);
        fprintf(stderr, "winnow: cannot read input list %s: %s\n", name, strerror(err));
        return EXIT_SOME_FAILED;
    }
    if (!data) return 0;
    data[len] = '\0';
    o->list_data = data;
    for (char *p = data; p < data + len;) {
        char *nl = memchr(p, '\n', (size_t)(data + len - p));
        char *end = nl ? nl : data + len;
        char *next = nl ? nl + 1 : data + len;
        if (end > p && end[-1] == '\r') end--;
        *end = '\0';
        if (memchr(p, '\0', (size_t)(end - p))) {
            fprintf(stderr, "winnow: input list %s holds a NUL byte (one path a line is expected)\n", name);
            return EXIT_USAGE;
        }
        if (*p && add_input(o, p) != 0) {
            fprintf(stderr, "winnow: out of memory\n");
            return EXIT_SOME_FAILED;
        }
        p = next;
    }
    return 0;
}

void cli_opts_free(cli_opts *o)
{
    free(o->inputs);
    free(o->list_data);
    o->inputs = NULL;
    o->list_data = NULL;
}

int cli_parse_mode(const char *val, winnow_mode *out)
{
    if (!strcmp(val, "auto"))
        *out = WINNOW_MODE_AUTO;
    else if (!strcmp(val, "site"))
        *out = WINNOW_MODE_SITE;
    else if (!strcmp(val, "page"))
        *out = WINNOW_MODE_PAGE;
    else {
        fprintf(stderr, "winnow: unknown mode '%s' (auto, site, page)\n", val);
        return -1;
    }
    return 0;
}

int cli_parse_method(const char *val, winnow_method *out)
{
    static const struct {
        const char *name;
        winnow_method m;
    } methods[] = {
        { "auto", WINNOW_METHOD_AUTO },
        { "blocks", WINNOW_METHOD_BLOCKS },
        { "path-blocks", WINNOW_METHOD_PATH_BLOCKS },
        { "chunks", WINNOW_METHOD_CHUNKS },
        { "table-chunks", WINNOW_METHOD_TABLE_CHUNKS },
        { "ce", WINNOW_METHOD_CE },
        { "fastce", WINNOW_METHOD_FASTCE },
    };
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++)
        if (!strcmp(methods[k].name, val)) {
            *out = methods[k].m;
            return 0;
        }
    fprintf(stderr, "winnow: unknown method '%s' (auto, blocks, path-blocks, chunks, table-chunks, ce, fastce)\n", val);
    return -1;
}

int cli_parse_input_format(const char *val, winnow_input_format *out)
{
    if (!strcmp(val, "auto"))
        *out = WINNOW_INPUT_AUTO;
    else if (!strcmp(val, "html"))
        *out = WINNOW_INPUT_HTML;
    else if (!strcmp(val, "warc"))
        *out = WINNOW_INPUT_WARC;
    else if (!strcmp(val, "jsonl"))
        *out = WINNOW_INPUT_JSONL;
    else {
        fprintf(stderr, "winnow: unknown input format '%s' (auto, html, warc, jsonl)\n", val);
        return -1;
    }
    return 0;
}

int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed)
{
    memset(o, 0, sizeof *o);
    winnow_options_default(&o->lib, sizeof o->lib);
    winnow_site_options_default(&o->site_opt, sizeof o->site_opt);
    winnow_reader_options_default(&o->reader, sizeof o->reader);
    o->reader.damaged = 1; /* every record accounted for: bad ones get their line */
    o->format = WINNOW_FORMAT_TEXT;
    o->jobs = 1;
    o->commit_every = 1000;
    winnow_dedup_options_default(&o->dedup, sizeof o->dedup);
    o->limit = 10;
    const char *cmd = argv[1];
    const char *list = NULL;

    struct option taken[MAX_OPTIONS];
    char shorts[2 * MAX_OPTIONS + 2] = ":";
    size_t nt = 0, ns = 1;
    for (const struct option *k = all_options; k->name; k++) {
        if (!allowed_opt(allowed, k->name)) continue;
        taken[nt++] = *k;
        if (k->val < 256) {
            shorts[ns++] = (char)k->val;
            if (k->has_arg == required_argument) shorts[ns++] = ':';
        }
    }
    taken[nt] = (struct option){ NULL, 0, NULL, 0 };
    shorts[ns] = '\0';

    /* argv[1], the command, stands where getopt expects the program */
    int ac = argc - 1;
    char **av = argv + 1;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(ac, av, shorts, taken, NULL)) != -1) {
        const char *val = optarg;
        switch (c) {
        case 'h': fputs(cli_usage(cmd), stdout); return CLI_DONE;
        case 'V': printf("winnow %s\n", winnow_version()); return CLI_DONE;
        case 'o':
            if (!*val) {
                fprintf(stderr, "winnow: --output needs a path, got ''\n");
                return EXIT_USAGE;
            }
            o->output = val;
            break;
        case 'f':
            if (winnow_format_parse(val, &o->format) != WINNOW_OK) {
                fprintf(stderr,
                        "winnow: unknown format '%s' (text, markdown, json, jsonl, html, blocks, segments, fulltext)\n",
                        val);
                return EXIT_USAGE;
            }
            break;
        case 'j': {
            unsigned long long v;
            if (cli_parse_count("--jobs", val, 1, 256, &v) != 0) return EXIT_USAGE;
            o->jobs = (int)v;
            break;
        }
        case 'q': o->quiet = 1; break;
        case 'r': o->reader.recursive = 1; break;
        case OPT_CHARSET: o->charset = val; break;
        case OPT_URL: o->url = val; break;
        case OPT_NO_TITLE: o->lib.include_title = 0; break;
        case OPT_COMMENTS: o->comments = 1; break;
        case OPT_BLOCKS: o->blocks = 1; break;
        case OPT_BODY:
            if (winnow_body_parse(val, &o->body) != WINNOW_OK) {
                fprintf(stderr,
                        "winnow: --body needs body formats, comma-separated, from text, markdown, html, fulltext "
                        "(e.g. --body markdown or --body text,markdown), got '%s'\n",
                        val);
                return EXIT_USAGE;
            }
            break;
        case OPT_OVERWRITE: o->overwrite = 1; break;
        case OPT_MAX_BYTES: {
            unsigned long long v;
            if (cli_parse_count("--max-bytes", val, 1, (unsigned long long)SIZE_MAX, &v) != 0) return EXIT_USAGE;
            o->lib.max_input_bytes = (size_t)v;
            o->reader.max_record_bytes = (size_t)v;
            break;
        }
        case OPT_DB: o->db_path = val; break;
        case OPT_SITE: o->site = val; break;
        case OPT_MODE:
            if (cli_parse_mode(val, &o->site_opt.mode)) return EXIT_USAGE;
            break;
        case OPT_METHOD:
            if (cli_parse_method(val, &o->site_opt.method)) return EXIT_USAGE;
            break;
        case OPT_EXCLUDE_SELF: o->site_opt.exclude_self = 1; break;
        case OPT_MODEL: o->model = val; break;
        case OPT_NO_MODEL: o->lib.classifier = 0; break;
        case OPT_UNIT_MODEL: o->unit_model = val; break;
        case OPT_PAGE_TYPE_MODEL: o->page_type_model = val; break;
        case OPT_PAGE_TYPE:
            o->lib.page_type = (int)winnow_page_type_parse(val);
            if (o->lib.page_type == WINNOW_PAGE_UNKNOWN) {
                fprintf(stderr,
                        "winnow: --page-type is article, forum, product, listing, documentation, service or "
                        "other, not '%s'\n",
                        val);
                return EXIT_USAGE;
            }
            break;
        case OPT_FAVOR: {
            winnow_favor f;
            if (winnow_favor_parse(val, &f) != WINNOW_OK) {
                fprintf(stderr, "winnow: --favor is precision, balanced or recall, not '%s'\n", val);
                return EXIT_USAGE;
            }
            o->lib.favor = (int)f;
            break;
        }
        case OPT_NO_SMOOTH: o->lib.smooth = 0; break;
        case OPT_RULE: {
            const char *eq = strchr(val, '=');
            char *end = NULL;
            if (eq) strtod(eq + 1, &end);
            if (!eq || eq == val || !end || end == eq + 1 || *end) {
                fprintf(stderr, "winnow: --rule needs NAME=NUMBER, got '%s' ('winnow rules' lists them)\n", val);
                return EXIT_USAGE;
            }
            int known = 0;
            winnow_rule r = { sizeof r };
            for (int k = 0; k < winnow_rule_count() && !known; k++) {
                winnow_rule_info(k, &r);
                known = strlen(r.name) == (size_t)(eq - val) && !strncmp(r.name, val, (size_t)(eq - val));
            }
            /* the range is checked here too, so a bad value is a usage error
             * (exit 2) before anything is read */
            double v = strtod(eq + 1, NULL);
            if (known && !(v >= r.min_value && v <= r.max_value) && (float)v != (float)r.off_value) {
                fprintf(stderr,
                        "winnow: --rule %s: %s takes %g to %g (or %g, its off value); 'winnow rules' lists them\n", val,
                        r.name, r.min_value, r.max_value, r.off_value);
                return EXIT_USAGE;
            }
            if (!known) {
                fprintf(stderr, "winnow: no rule named '%.*s' ('winnow rules' lists them)\n", (int)(eq - val), val);
                return EXIT_USAGE;
            }
            if (o->nrules == (int)(sizeof o->rules / sizeof o->rules[0])) {
                fprintf(stderr, "winnow: too many --rule options\n");
                return EXIT_USAGE;
            }
            o->rules[o->nrules++] = val;
            break;
        }
        case OPT_HALF_LIFE:
            if (parse_positive(val, &o->half_life) != 0) {
                fprintf(stderr, "winnow: --half-life needs a positive number of pages, got '%s'\n", val);
                return EXIT_USAGE;
            }
            break;
        case OPT_BATCH: o->batch = 1; break;
        case OPT_ALL: o->all = 1; break;
        case OPT_INPUT_FORMAT:
            if (cli_parse_input_format(val, &o->reader.format)) return EXIT_USAGE;
            break;
        case OPT_INPUT_LIST: list = val; break;
        case OPT_PARTIAL:
            if (!*val) {
                fprintf(stderr, "winnow: --partial needs a path, got ''\n");
                return EXIT_USAGE;
            }
            o->partial = val;
            break;
        case OPT_RECORD:
            if (!*val) {
                fprintf(stderr, "winnow: --record needs a record number or a URL, got ''\n");
                return EXIT_USAGE;
            }
            o->record = val;
            break;
        case OPT_REPORT: o->report = 1; break;
        case OPT_COMMIT_EVERY: {
            unsigned long long v;
            if (cli_parse_count("--commit-every", val, 1, ~0ull, &v) != 0) return EXIT_USAGE;
            o->commit_every = (size_t)v;
            break;
        }
        case OPT_SKETCH: {
            unsigned long long v;
            if (cli_parse_count("--sketch", val, 1, 4096, &v) != 0) return EXIT_USAGE;
            o->dedup.sketch_size = (unsigned)v;
            break;
        }
        case OPT_MIN_MATCHES: {
            unsigned long long v;
            if (cli_parse_count("--min-matches", val, 1, 4096, &v) != 0) return EXIT_USAGE;
            o->dedup.min_matches = (unsigned)v;
            break;
        }
        case OPT_MIN_WORDS: {
            unsigned long long v;
            if (cli_parse_count("--min-words", val, 0, 1000000, &v) != 0) return EXIT_USAGE;
            o->dedup.min_words = (unsigned)v;
            break;
        }
        case OPT_LSH: {
            unsigned long long v;
            if (cli_parse_count("--lsh", val, 0, 1024, &v) != 0) return EXIT_USAGE;
            o->dedup.lsh_bands = (unsigned)v;
            break;
        }
        case OPT_ROWS: {
            unsigned long long v;
            if (cli_parse_count("--rows", val, 1, 64, &v) != 0) return EXIT_USAGE;
            o->dedup.lsh_rows = (unsigned)v;
            break;
        }
        case OPT_PAIRS: o->pairs = 1; break;
        case OPT_SITE_DB: o->site_db = val; break;
        case 'n': {
            unsigned long long v;
            if (cli_parse_count("--limit", val, 1, 1000000, &v) != 0) return EXIT_USAGE;
            o->limit = (size_t)v;
            break;
        }
        case OPT_RAW: o->raw = 1; break;
        default: cli_option_error(cmd, c, optind, av, all_options, taken); return EXIT_USAGE;
        }
    }
    for (int i = optind; i < ac; i++)
        if (add_input(o, av[i]) != 0) {
            fprintf(stderr, "winnow: out of memory\n");
            return EXIT_SOME_FAILED;
        }
    if (list) {
        int rc = read_input_list(o, list);
        if (rc) return rc;
        if (!strcmp(list, "-"))
            for (int i = 0; i < o->ninputs; i++)
                if (!strcmp(o->inputs[i], "-")) {
                    fprintf(stderr, "winnow: stdin cannot be both the input list and an input\n");
                    return EXIT_USAGE;
                }
    }
    return 0;
}
