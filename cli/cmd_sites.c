/* winnow sites / winnow site NAME: what a site database holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int print_site(void *ctx, const winnow_site_summary *s)
{
    (void)ctx;
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
    int rc = cli_parse(argc, argv, &o, "--db");
    if (rc) { cli_opts_free(&o); return rc == CLI_DONE ? EXIT_OK : rc; }
    if (!o.db_path) { fprintf(stderr, "winnow: sites needs --db PATH\n"); cli_opts_free(&o); return EXIT_USAGE; }
    char err[512];
    winnow_sitedb *db = winnow_sitedb_open(o.db_path, 0, err, sizeof err);
    if (!db) { fprintf(stderr, "winnow: %s\n", err); cli_opts_free(&o); return EXIT_SOME_FAILED; }
    printf("%-40s %10s %10s %12s  %s\n", "site", "pages", "learned", "fingerprints", "updated");
    winnow_status s = winnow_sitedb_list(db, print_site, NULL);
    if (s != WINNOW_OK) fprintf(stderr, "winnow: %s\n", winnow_sitedb_error(db));
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : EXIT_SOME_FAILED;
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
    int rc = cli_parse(argc, argv, &o, "--db --all");
    if (rc) { cli_opts_free(&o); return rc == CLI_DONE ? EXIT_OK : rc; }
    if (!o.db_path || o.ninputs != 1) {
        fprintf(stderr, "winnow: usage: winnow site NAME --db PATH [--all]\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    char err[512];
    winnow_sitedb *db = winnow_sitedb_open(o.db_path, 0, err, sizeof err);
    if (!db) { fprintf(stderr, "winnow: %s\n", err); cli_opts_free(&o); return EXIT_SOME_FAILED; }
    winnow_site *site = NULL;
    winnow_status s = winnow_site_load(db, o.inputs[0], 0, &site);
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
    cli_opts_free(&o);
    return s == WINNOW_OK ? EXIT_OK : EXIT_SOME_FAILED;
}
