/* winnow sites / winnow site NAME: what a site database holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int print_site(void *ctx, const winnow_site_summary *s)
{
    int *printed = ctx;
    if (!(*printed)++) printf("%-40s %10s %10s %12s  %s\n", "site", "pages", "learned", "fingerprints", "updated");
    if (!s) return 0;
    char when[32] = "-";
    time_t t = (time_t)s->updated;
    struct tm tmv;
    if (s->updated && gmtime_r(&t, &tmv)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    printf("%-40s %10.1f %10.0f %12lld  %s\n", s->name, s->pages, s->pages_learned, s->keys, when);
    return 0;
}

int cmd_sites(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, 2, &o, "--db");
    if (rc) { free(o.inputs); return rc; }
    if (!o.db_path) { fprintf(stderr, "winnow: sites needs --db PATH\n"); free(o.inputs); return EXIT_USAGE; }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open_ex(o.db_path, 0, &db, err, sizeof err);
    if (s != WINNOW_OK) { fprintf(stderr, "winnow: %s\n", err); free(o.inputs); return cli_db_exit(s); }
    /* the rows are checked before the first is given, so the header is
     * printed with the first */
    int printed = 0;
    s = winnow_sitedb_list(db, print_site, &printed);
    if (s == WINNOW_OK && !printed) print_site(&printed, NULL);
    if (s != WINNOW_OK) fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    winnow_sitedb_close(db);
    free(o.inputs);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
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
    int rc = cli_parse(argc, argv, 2, &o, "--db --all");
    if (rc) { free(o.inputs); return rc; }
    if (!o.db_path || o.ninputs != 1) {
        fprintf(stderr, "winnow: usage: winnow site NAME --db PATH [--all]\n");
        free(o.inputs);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open_ex(o.db_path, 0, &db, err, sizeof err);
    if (s != WINNOW_OK) { fprintf(stderr, "winnow: %s\n", err); free(o.inputs); return cli_db_exit(s); }
    winnow_site *site = NULL;
    s = winnow_site_load(db, o.inputs[0], 0, &site);
    if (s != WINNOW_OK) {
        fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    } else if (winnow_site_pages(site) <= 0) {
        fprintf(stderr, "winnow: %s has no site named %s (see 'winnow sites --db %s')\n", o.db_path, o.inputs[0],
                o.db_path);
        s = WINNOW_E_ARG;
    } else {
        double pages = winnow_site_pages(site);
        printf("site %s: %.1f pages (aged)\n", o.inputs[0], pages);
        printf("%8s %6s  %-11s %s\n", "df", "share", "kind", "text");
        s = winnow_site_templates(site, o.all ? 0.0 : 0.1, print_template, &pages);
    }
    winnow_site_free(site);
    winnow_sitedb_close(db);
    free(o.inputs);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}

static void print_problem(void *ctx, const char *what) { printf("%s: %s\n", (const char *)ctx, what); }

/* winnow check --db DB: the whole file, checked; a report on stdout. */
int cmd_check(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, 2, &o, "--db");
    if (rc) { free(o.inputs); return rc; }
    if (!o.db_path || o.ninputs != 0) {
        fprintf(stderr, "winnow: usage: winnow check --db PATH\n");
        free(o.inputs);
        return EXIT_USAGE;
    }
    char err[1024];
    winnow_sitedb *db = NULL;
    winnow_status s = winnow_sitedb_open_ex(o.db_path, 0, &db, err, sizeof err);
    if (s != WINNOW_OK) {
        printf("%s: %s\n", o.db_path, winnow_status_message(s));
        fprintf(stderr, "winnow: %s\n", err);
        free(o.inputs);
        return cli_db_exit(s);
    }
    winnow_sitedb_report rep;
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
    free(o.inputs);
    return s == WINNOW_OK ? EXIT_OK : cli_db_exit(s);
}
