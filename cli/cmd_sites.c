/* winnow sites / winnow site NAME: what a site database holds; winnow
 * check: whether it is sound.
 *
 * A site's model counts its pages on a clock (pages_learned: every page
 * counted over its life) and weighs them with ageing (pages: each later
 * page multiplies an older one's weight by 2^(-1/half-life)); both are
 * shown, labelled, as they mean different things. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"

static int print_site(void *ctx, const winnow_site_summary *s)
{
    int *printed = ctx;
    if (!(*printed)++)
        printf("%-40s %10s %10s %12s %10s  %s\n", "site", "weight", "learned", "fingerprints", "half-life", "updated");
    if (!s) return 0;
    char when[32] = "-";
    time_t t = (time_t)s->updated;
    struct tm tmv;
    if (s->updated && gmtime_r(&t, &tmv)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    printf("%-40s %10.2f %10.0f %12lld %10.0f  %s\n", s->name, s->pages, s->pages_learned, s->keys, s->half_life, when);
    return 0;
}

int cmd_sites(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "--db");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (!o.db_path || o.ninputs) {
        fprintf(stderr, "winnow: usage: winnow sites --db PATH\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open(o.db_path, WINNOW_SITEDB_READ, &db, err, sizeof err);
    if (s != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        cli_opts_free(&o);
        return cli_db_exit(s);
    }
    /* the rows are checked before the first is given, so the header is
     * printed with the first */
    int printed = 0;
    s = winnow_sitedb_list(db, print_site, &printed);
    if (s == WINNOW_OK && !printed) print_site(&printed, NULL);
    if (s != WINNOW_OK) fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    winnow_sitedb_close(db);
    if (s != WINNOW_OK) cli_wal_note(o.db_path);
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}

/* The site asked for, and its "www." twin (example.org for
 * www.example.org and the other way round), as the database has them. */
typedef struct site_find {
    const char *want;
    char twin[300];
    winnow_site_summary exact, other;
    char exact_name[300], other_name[300];
    int have_exact, have_other;
} site_find;

static int find_site(void *ctx, const winnow_site_summary *s)
{
    site_find *f = ctx;
    if (!strcasecmp(s->name, f->want) && (!f->have_exact || !strcmp(s->name, f->want))) {
        f->exact = *s;
        snprintf(f->exact_name, sizeof f->exact_name, "%s", s->name);
        f->exact.name = f->exact_name;
        f->have_exact = 1;
    } else if (*f->twin && !strcasecmp(s->name, f->twin)) {
        f->other = *s;
        snprintf(f->other_name, sizeof f->other_name, "%s", s->name);
        f->other.name = f->other_name;
        f->have_other = 1;
    }
    return 0;
}

static int print_template(void *ctx, const char *kind, double df, const char *sample)
{
    double pages = *(double *)ctx;
    printf("%8.1f %5.0f%%  %-11s %s\n", df, pages > 0 ? 100.0 * df / pages : 0.0, kind, sample);
    return 0;
}

int cmd_site(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--db --all --report --output --record --site --mode --method --charset --max-bytes --quiet "
                       "--model --no-model --no-smooth --rule --recursive --input-format --input-list --no-title");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (!o.db_path || o.ninputs < 1 || (o.ninputs > 1 && !o.report)) {
        fprintf(stderr, "winnow: usage: winnow site NAME --db PATH [--all] [--report [-o FILE] [PAGES...]]\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (!o.report && (o.output || o.record)) {
        fprintf(stderr, "winnow: site: --output and --record go with --report\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status st = winnow_sitedb_open(o.db_path, WINNOW_SITEDB_READ, &db, err, sizeof err);
    if (st != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        cli_opts_free(&o);
        return cli_db_exit(st);
    }
    site_find f = { .want = o.inputs[0] };
    if (!strncasecmp(f.want, "www.", 4))
        snprintf(f.twin, sizeof f.twin, "%s", f.want + 4);
    else
        snprintf(f.twin, sizeof f.twin, "www.%s", f.want);
    winnow_status s = winnow_sitedb_list(db, find_site, &f);
    const winnow_site_summary *sum = f.have_exact ? &f.exact : f.have_other ? &f.other : NULL;
    winnow_site *site = NULL;
    if (s != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    } else if (!sum) {
        fprintf(stderr, "winnow: %s has no site named %s (see 'winnow sites --db %s')\n", o.db_path, o.inputs[0],
                o.db_path);
        s = WINNOW_E_ARG;
    } else if ((s = winnow_site_load(db, sum->name, 0, &site)) != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    } else if (o.report) {
        int ex = cli_site_report(&o, sum->name, site);
        winnow_site_free(site);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return ex;
    } else {
        double weight = winnow_site_pages(site);
        printf("site %s: %.0f pages learned, weight %.2f (half-life %.0f pages)\n", sum->name, sum->pages_learned,
               weight, sum->half_life);
        printf("%8s %6s  %-11s %s\n", "df", "share", "kind", "text");
        s = winnow_site_templates(site, o.all ? 0.0 : 0.1, print_template, &weight);
    }
    winnow_site_free(site);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}

static void print_problem(void *ctx, const char *what) { printf("%s: %s\n", (const char *)ctx, what); }

/* winnow check --db DB: the whole file, checked; a report on stdout. */
int cmd_check(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "--db");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (!o.db_path || o.ninputs != 0) {
        fprintf(stderr, "winnow: usage: winnow check --db PATH\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open(o.db_path, WINNOW_SITEDB_READ, &db, err, sizeof err);
    if (s != WINNOW_OK) {
        printf("%s: %s\n", o.db_path, winnow_status_message(s));
        fprintf(stderr, "winnow: %s\n", err);
        int ex = cli_db_exit(s);
        cli_opts_free(&o);
        return ex;
    }
    winnow_sitedb_report rep = { sizeof rep };
    s = winnow_sitedb_check(db, print_problem, (void *)o.db_path, &rep);
    if (s == WINNOW_OK) {
        printf("%s: sound: format %d, %zu site%s, %zu fingerprints, %zu pages, %zu training blocks%s\n", o.db_path,
               rep.format, rep.sites, rep.sites == 1 ? "" : "s", rep.keys, rep.pages, rep.ce_blocks,
               rep.format < 2 ? " (format 1 has no checksums to compare; the next learn adds them)"
                              : "; integrity and checksums verified");
    } else if (s == WINNOW_E_DB_DAMAGED) {
        fprintf(stderr, "winnow: site database %s is damaged: %zu problem%s (listed on stdout)\n", o.db_path,
                rep.problems, rep.problems == 1 ? "" : "s");
    } else {
        fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    }
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}

/* winnow merge PART... --db DB: partial files (learn --partial) counted into
 * a site database, exactly as one learn over their shards in that order. */
int cmd_merge(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o, "--db --commit-every --quiet --input-list");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (!o.db_path || o.ninputs == 0) {
        fprintf(stderr, "winnow: usage: winnow merge PART... --db PATH (parts from 'winnow learn --partial')\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* every part checked before the database is opened (or created) */
    char err[1024];
    for (int i = 0; i < o.ninputs; i++) {
        winnow_status s = winnow_partial_check(o.inputs[i], NULL, err, sizeof err);
        if (s != WINNOW_OK) {
            fprintf(stderr, "winnow: %s; nothing was merged\n", err);
            cli_opts_free(&o);
            return EXIT_SOME_FAILED;
        }
    }
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open(o.db_path, WINNOW_SITEDB_WRITE, &db, err, sizeof err);
    if (s != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", err);
        cli_opts_free(&o);
        return cli_db_exit(s);
    }
    winnow_merge_options mo;
    winnow_merge_options_default(&mo, sizeof mo);
    if (o.commit_every != 1000) mo.commit_every = o.commit_every; /* else the merge's own default */
    winnow_merge_report rep = { sizeof rep };
    s = winnow_sitedb_merge(db, o.inputs, (size_t)o.ninputs, &mo, &rep);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (s != WINNOW_OK)
        fprintf(stderr, "winnow: merging into %s failed: %s\n", o.db_path, winnow_sitedb_error(db));
    else if (!o.quiet)
        fprintf(stderr, "merged %zu part%s into %s: %zu pages (%zu counted, %zu duplicates) of %zu site%s in %.2f s\n",
                rep.parts, rep.parts == 1 ? "" : "s", o.db_path, rep.pages, rep.counted, rep.duplicates, rep.sites,
                rep.sites == 1 ? "" : "s", secs);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}
