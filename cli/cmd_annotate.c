/* winnow annotate PAGE -o report.html, and the report of winnow site NAME
 * --db DB --report: the CLI side of src/report/ (files, pages, sites). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "report.h"

/* Writes the report through a temporary file renamed into place, or to
 * stdout without -o. */
typedef struct report_file {
    FILE *f;
    char *tmp;
    const char *path;
} report_file;

static int report_open(report_file *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    if (!path || !strcmp(path, "-")) {
        r->f = stdout;
        r->path = NULL;
        return 0;
    }
    r->f = cli_tmp_create(path, &r->tmp);
    if (!r->f) {
        fprintf(stderr, "winnow: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* 0, or -1 after a message; keep: the report is complete. */
static int report_close(report_file *r, int keep)
{
    if (!r->path) {
        if (fflush(stdout) != 0 && keep) {
            fprintf(stderr, "winnow: cannot write to stdout: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (cli_tmp_commit(r->f, r->tmp, r->path, keep) != 0 && keep) {
        fprintf(stderr, "winnow: cannot write %s: %s\n", r->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* --record SEL: a record number (WARC records from 0, JSONL lines from 1,
 * as in output names), the page's URL, or a file of a directory (its path
 * or its name). */
static int page_matches(const char *sel, const cli_page *p)
{
    if (!sel) return 1;
    int number = *sel != '\0';
    for (const char *c = sel; *c && number; c++) number = *c >= '0' && *c <= '9';
    if (number) return p->record >= 0 && strtoll(sel, NULL, 10) == p->record;
    if (p->url && !strcmp(p->url, sel)) return 1;
    if (p->record >= 0 || !p->file) return 0;
    const char *base = strrchr(p->file, '/');
    return !strcmp(p->file, sel) || (base && !strcmp(base + 1, sel));
}

static void page_label(const cli_page *p, char *out, size_t cap)
{
    if (p->record >= 0)
        snprintf(out, cap, "record %lld of %s", p->record, p->file ? p->file : "-");
    else
        snprintf(out, cap, "%s", p->source ? p->source : p->file ? p->file : "-");
}

int cmd_annotate(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(
        argc, argv, &o,
        "--output --charset --url --no-title --max-bytes --quiet --db --site --mode --method "
        "--exclude-self --model --no-model --unit-model --page-type-model --page-type --favor --no-smooth --rule "
        "--recursive --input-format "
        "--input-list --record");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (o.ninputs == 0) {
        fprintf(stderr, "winnow: annotate needs a page (a file, a WARC or JSONL file with --record, or - for stdin)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.site_opt.mode == WINNOW_MODE_SITE && !o.db_path) {
        fprintf(stderr, "winnow: --mode site needs --db DB (the site models to use)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    winnow_sitedb *db = NULL;
    cli_sites *sites = NULL;
    if (o.db_path) {
        int db_rc = cli_sites_open(o.db_path, o.half_life, &db, &sites);
        if (db_rc) {
            cli_opts_free(&o);
            return db_rc;
        }
    }
    /* the page: the first one, or the one --record names */
    const char *output = o.output;
    o.output = NULL; /* inputs are read as for one page to stdout: no output names */
    cli_inputs *in = cli_inputs_open(&o);
    o.output = output;
    if (!in) {
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    cli_page page, other;
    int found = 0, more = 0;
    while (cli_inputs_next(in, &page)) {
        if (page_matches(o.record, &page)) {
            found = 1;
            break;
        }
        cli_page_free(&page);
    }
    if (found && !o.record && cli_inputs_next(in, &other)) {
        more = 1;
        cli_page_free(&other);
    }
    int failed = cli_inputs_failed(in), skipped = cli_inputs_skipped(in);
    cli_inputs_close(in);
    if (!found) {
        if (o.record)
            fprintf(stderr, "winnow: no page of the input is record %s\n", o.record);
        else if (!failed && !skipped)
            fprintf(stderr, "winnow: the input holds no page\n");
        cli_sites_free(sites);
        winnow_sitedb_close(db);
        cli_opts_free(&o);
        return failed || o.record ? EXIT_SOME_FAILED : skipped ? EXIT_SKIPPED : EXIT_SOME_FAILED;
    }
    char label[1200];
    page_label(&page, label, sizeof label);
    if (more && !o.quiet)
        fprintf(stderr,
                "winnow: the input holds several pages: annotating the first, %s (choose one with --record "
                "N or --record URL)\n",
                label);

    int ex = EXIT_OK;
    winnow_engine *e = cli_engine_new(&o);
    winnow_site *site = NULL;
    char site_name[256] = "";
    if (!e) ex = EXIT_SOME_FAILED;
    if (e && sites) {
        char err[1200] = "";
        cli_site_name(&o, &page, site_name, sizeof site_name);
        if (!*site_name) {
            if (!o.quiet)
                fprintf(stderr, "winnow: %s: page has no URL to tell its site: page mode (use --site NAME)\n", label);
        } else if (!(site = cli_sites_get(sites, site_name, err, sizeof err, NULL, NULL, NULL))) {
            fprintf(stderr, "winnow: %s: %s\n", label, err);
            ex = cli_sites_damaged(sites) ? EXIT_DB_DAMAGED : EXIT_SOME_FAILED;
        } else if (winnow_site_pages(site) <= 0 && !o.quiet) {
            fprintf(stderr, "winnow: warning: %s has no pages of site %s: page mode, no document frequencies\n",
                    o.db_path, site_name);
        }
    }
    if (ex == EXIT_OK) {
        report_file rf;
        if (report_open(&rf, o.output) != 0) {
            ex = EXIT_SOME_FAILED;
        } else {
            winnow_source src = { sizeof src, page.file, page.record, page.record_id };
            winnow_input input = { sizeof input, page.data, page.len, page.charset, page.url, &src };
            wn_report_options ro = { .site = site,
                                     .site_opt = &o.site_opt,
                                     .site_name = site ? site_name : NULL,
                                     .command = "winnow annotate",
                                     .template_share = 0.1 };
            winnow_status s = wn_report_page(e, &input, &ro, cli_write_file, rf.f);
            if (s == WINNOW_E_IO) {
                fprintf(stderr, "winnow: cannot write %s: %s\n", o.output ? o.output : "to stdout", strerror(errno));
            } else if (WINNOW_FAILED(s)) {
                fprintf(stderr, "winnow: %s: %s\n", label,
                        s == WINNOW_E_NOMEM ? winnow_status_message(s) : winnow_engine_error(e));
            }
            if (report_close(&rf, !WINNOW_FAILED(s)) != 0 || WINNOW_FAILED(s)) ex = EXIT_SOME_FAILED;
        }
    }
    winnow_engine_free(e);
    cli_page_free(&page);
    cli_sites_free(sites);
    winnow_sitedb_close(db);
    cli_opts_free(&o);
    if (ex == EXIT_OK) ex = cli_exit_status(failed, skipped, 0);
    return ex;
}

/* ---- winnow site NAME --db DB --report [PAGES...] ---- */

typedef struct fp_rows {
    wn_report_fp *rows;
    size_t n, cap, more, template_blocks;
    double min_df, template_df;
    int oom;
} fp_rows;

static int collect_fp(void *ctx, const char *kind, double df, const char *sample)
{
    fp_rows *r = ctx;
    if (!strcmp(kind, "block") && df + 1e-9 >= r->template_df) r->template_blocks++;
    /* (fingerprints keyed on DOM paths keep no text to show) */
    if (df + 1e-9 < r->min_df || !sample || !*sample) return 0;
    if (r->n == r->cap) {
        r->more++;
        return 0;
    }
    char *k = strdup(kind), *s = strdup(sample ? sample : "");
    if (!k || !s) {
        free(k);
        free(s);
        r->oom = 1;
        return 1;
    }
    r->rows[r->n++] = (wn_report_fp){ k, s, df };
    return 0;
}

/* Whether page p is one of site's: its URL's host is the site's name (or
 * its www. twin), or it has no URL and was given for this site. */
static int page_of_site(const cli_opts *o, const cli_page *p, const char *site)
{
    if (o->site || !p->url) return 1;
    char host[300];
    cli_site_name(o, p, host, sizeof host);
    const char *s = strncasecmp(site, "www.", 4) ? site : site + 4;
    return !strcasecmp(host, s);
}

enum { REPORT_FPS = 300, REPORT_FPS_ALL = 5000, REPORT_CANDIDATES = 50 };

int cli_site_report(const cli_opts *o, const char *name, winnow_site *site)
{
    double pages = winnow_site_pages(site);
    double template_df = 0.1 * pages;
    if (pages >= 2.0 && template_df < 1.5) template_df = 1.5;
    fp_rows fr = { .cap = o->all ? REPORT_FPS_ALL : REPORT_FPS,
                   .min_df = pages >= 2.0 ? 1.5 : 0.0,
                   .template_df = template_df };
    fr.rows = calloc(fr.cap, sizeof *fr.rows);
    if (!fr.rows) {
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    winnow_status s = winnow_site_templates(site, 0.0, collect_fp, &fr);
    int ex = EXIT_OK;
    if (s != WINNOW_OK || fr.oom) {
        fprintf(stderr, "winnow: %s\n", fr.oom ? "out of memory" : winnow_status_message(s));
        ex = EXIT_SOME_FAILED;
    }

    /* the page: of the site's first pages among the inputs, the one on
     * which the most of its template block fingerprints occur */
    winnow_engine *e = ex == EXIT_OK ? cli_engine_new(o) : NULL;
    if (ex == EXIT_OK && !e) ex = EXIT_SOME_FAILED;
    cli_page best;
    memset(&best, 0, sizeof best);
    int have_best = 0, read = 0, failed = 0, skipped = 0;
    size_t best_fp = 0, best_chars = 0, candidates = 0;
    if (e && o->ninputs > 1) {
        cli_opts po = *o;
        po.inputs = o->inputs + 1;
        po.ninputs = o->ninputs - 1;
        po.output = NULL;
        cli_inputs *in = cli_inputs_open(&po);
        if (!in) ex = EXIT_SOME_FAILED;
        cli_page p;
        while (in && candidates < REPORT_CANDIDATES && cli_inputs_next(in, &p)) {
            read++;
            if (!page_of_site(o, &p, name) || (o->record && !page_matches(o->record, &p))) {
                cli_page_free(&p);
                continue;
            }
            winnow_source src = { sizeof src, p.file, p.record, p.record_id };
            winnow_input input = { sizeof input, p.data, p.len, p.charset, p.url, &src };
            size_t nfp = 0, chars = 0;
            winnow_status cs = wn_report_coverage(e, &input, site, 0.1, &nfp, &chars);
            if (WINNOW_FAILED(cs)) {
                cli_page_free(&p);
                continue;
            }
            candidates++;
            if (!have_best || nfp > best_fp || (nfp == best_fp && chars > best_chars)) {
                if (have_best) cli_page_free(&best);
                best = p;
                have_best = 1;
                best_fp = nfp;
                best_chars = chars;
            } else {
                cli_page_free(&p);
            }
        }
        if (in) {
            failed = cli_inputs_failed(in);
            skipped = cli_inputs_skipped(in);
            cli_inputs_close(in);
        }
    }
    char note[2000];
    if (have_best) {
        char label[1200];
        page_label(&best, label, sizeof label);
        snprintf(note, sizeof note,
                 "Shown on %s%s%s: of the %zu page%s of the site read%s, the one on which the most of the site's "
                 "template block fingerprints occur (%zu of %zu).",
                 label, best.url && best.record >= 0 ? ", " : "", best.url && best.record >= 0 ? best.url : "",
                 candidates, candidates == 1 ? "" : "s", candidates == REPORT_CANDIDATES ? " (the first 50)" : "",
                 best_fp, fr.template_blocks);
    } else if (o->ninputs > 1) {
        snprintf(note, sizeof note,
                 "None of the %d page%s read belongs to site %s (or could be read): no page to show the template on.",
                 read, read == 1 ? "" : "s", name);
    } else {
        snprintf(note, sizeof note,
                 "No page was given: name pages of the site after its name (a WARC file, a directory, a page) to "
                 "see its template blocks on one of them.");
    }
    if (ex == EXIT_OK) {
        report_file rf;
        if (report_open(&rf, o->output) != 0) {
            ex = EXIT_SOME_FAILED;
        } else {
            wn_report_options ro = { .site = site,
                                     .site_opt = &o->site_opt,
                                     .site_name = name,
                                     .command = "winnow site --report",
                                     .page_note = note,
                                     .site_report = 1,
                                     .template_share = 0.1,
                                     .fps = fr.rows,
                                     .nfps = fr.n,
                                     .fps_more = fr.more };
            winnow_status rs;
            char label[1200] = "";
            if (have_best) {
                page_label(&best, label, sizeof label);
                winnow_source src = { sizeof src, best.file, best.record, best.record_id };
                winnow_input input = { sizeof input, best.data, best.len, best.charset, best.url, &src };
                rs = wn_report_page(e, &input, &ro, cli_write_file, rf.f);
            } else {
                rs = wn_report_site_only(&ro, cli_write_file, rf.f);
            }
            if (rs == WINNOW_E_IO)
                fprintf(stderr, "winnow: cannot write %s: %s\n", o->output ? o->output : "to stdout", strerror(errno));
            else if (WINNOW_FAILED(rs))
                fprintf(stderr, "winnow: %s: %s\n", *label ? label : name,
                        rs == WINNOW_E_NOMEM ? winnow_status_message(rs) : winnow_engine_error(e));
            if (report_close(&rf, !WINNOW_FAILED(rs)) != 0 || WINNOW_FAILED(rs)) ex = EXIT_SOME_FAILED;
        }
    }
    if (ex == EXIT_OK && !o->quiet && o->output) fprintf(stderr, "winnow: %s\n", note);
    if (have_best) cli_page_free(&best);
    winnow_engine_free(e);
    for (size_t k = 0; k < fr.n; k++) {
        free((char *)fr.rows[k].kind);
        free((char *)fr.rows[k].sample);
    }
    free(fr.rows);
    if (ex == EXIT_OK) ex = cli_exit_status(failed, skipped, 0);
    return ex;
}
