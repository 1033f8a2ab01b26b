/* winnow learn: count pages into their sites' models and save them in
 * batches (a transaction every --commit-every pages and every 30 s, so an
 * interrupted run keeps what it had saved); with --batch, then extract
 * every page with its site model.
 *
 * SIGINT and SIGTERM stop the reading: the pages read are counted and
 * saved, a line says how many pages of how many sites the run saved, and
 * the exit status is 128 + the signal (130, 143). A second signal stops at
 * once; the batches saved so far stay.
 *
 * Threads (-j N). A site's pages must be counted in input order (its page
 * clock ages the evidence, and the first pages keep ContentExtractor
 * blocks), so sites are learned side by side instead: the main thread reads
 * pages and queues each on its site; a worker takes a site that has pages
 * waiting and no other worker on it, counts one page, and puts the site back
 * at the end of the line. The models come out as with one thread. A save
 * waits until every queued page is counted (no worker touches a model
 * then). The --batch extraction that follows reads the models only, so its
 * pages are spread over all threads (when they go to a directory). */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

typedef struct kept_page {
    cli_page page;
    winnow_site *site;
} kept_page;

typedef struct learn_job {
    cli_page page;
    winnow_site *site;
    struct learn_job *next;
} learn_job;

/* A site's pages waiting to be counted, in input order. */
typedef struct site_queue {
    winnow_site *site;
    learn_job *head, *tail;
    int busy;              /* a worker is counting one of its pages */
    int ready;             /* on the ready line */
    size_t pending, saved; /* pages this run counted into it: not saved yet, saved */
    struct site_queue *next_ready;
} site_queue;

typedef struct learner {
    const cli_opts *o;
    cli_inputs *in;
    cli_manifest *manifest;
    pthread_mutex_t lock;
    pthread_cond_t work, room;
    site_queue **queues; /* open addressing by site pointer; cap is a power of two */
    size_t nqueues, capqueues;
    site_queue *ready_head, *ready_tail;
    size_t inflight, max_inflight;
    int done; /* no more pages come */
    /* results, under lock */
    size_t counted, duplicates;
    int failed;
    kept_page *kept;
    size_t nkept, capkept;
    int oom;
} learner;

static site_queue *queue_of(learner *l, winnow_site *site);

/* Counts one page into its site; keeps it for --batch. Takes the page. */
static void learn_page(learner *l, winnow_engine *e, cli_page *page, winnow_site *site)
{
    winnow_source src = { sizeof src, page->file, page->record, page->record_id };
    winnow_input input = { sizeof input, page->data, page->len, page->charset, page->url, &src };
    int was_counted = 0;
    winnow_status s = winnow_site_learn(e, site, &input, &was_counted);
    if (WINNOW_FAILED(s)) {
        cli_report("winnow: %s: %s\n", page->source, winnow_engine_error(e));
        cli_manifest_page(l->manifest, page, "", s, winnow_engine_error(e));
    }
    pthread_mutex_lock(&l->lock);
    if (WINNOW_FAILED(s))
        l->failed++;
    else if (was_counted)
        l->counted++;
    else
        l->duplicates++;
    if (was_counted) {
        site_queue *q = queue_of(l, site);
        if (q) q->pending++; /* else the run's report of what it saved falls short */
    }
    int keep = l->o->batch && !WINNOW_FAILED(s);
    if (keep && l->nkept == l->capkept) {
        size_t cap = l->capkept ? l->capkept * 2 : 256;
        kept_page *k = realloc(l->kept, cap * sizeof *k);
        if (k) {
            l->kept = k;
            l->capkept = cap;
        } else {
            keep = 0;
            l->oom = 1;
        }
    }
    if (keep) l->kept[l->nkept++] = (kept_page){ *page, site };
    pthread_mutex_unlock(&l->lock);
    if (!keep) cli_page_free(page);
    cli_inputs_page_done(l->in);
}

/* The queue of a site, made on first use. Looking one up never moves the
 * table (learn_page looks up while the leftovers are walked). */
static site_queue *queue_of(learner *l, winnow_site *site)
{
    if (l->capqueues) {
        size_t h = ((uintptr_t)site >> 4) & (l->capqueues - 1);
        while (l->queues[h] && l->queues[h]->site != site) h = (h + 1) & (l->capqueues - 1);
        if (l->queues[h]) return l->queues[h];
    }
    if ((l->nqueues + 1) * 2 > l->capqueues) {
        size_t cap = l->capqueues ? l->capqueues * 2 : 64;
        site_queue **n = calloc(cap, sizeof *n);
        if (!n) return NULL;
        for (size_t i = 0; i < l->capqueues; i++) {
            if (!l->queues[i]) continue;
            size_t h = ((uintptr_t)l->queues[i]->site >> 4) & (cap - 1);
            while (n[h]) h = (h + 1) & (cap - 1);
            n[h] = l->queues[i];
        }
        free(l->queues);
        l->queues = n;
        l->capqueues = cap;
    }
    size_t h = ((uintptr_t)site >> 4) & (l->capqueues - 1);
    while (l->queues[h]) h = (h + 1) & (l->capqueues - 1);
    site_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->site = site;
    l->queues[h] = q;
    l->nqueues++;
    return q;
}

static void make_ready(learner *l, site_queue *q)
{
    if (q->busy || q->ready || !q->head) return;
    q->ready = 1;
    q->next_ready = NULL;
    if (l->ready_tail)
        l->ready_tail->next_ready = q;
    else
        l->ready_head = q;
    l->ready_tail = q;
    pthread_cond_signal(&l->work);
}

typedef struct learn_worker {
    learner *l;
    winnow_engine *e;
} learn_worker;

static void *learn_run(void *arg)
{
    learn_worker *w = arg;
    learner *l = w->l;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (!l->ready_head && !l->done) pthread_cond_wait(&l->work, &l->lock);
        site_queue *q = l->ready_head;
        if (!q) break; /* done, and nothing waits */
        l->ready_head = q->next_ready;
        if (!l->ready_head) l->ready_tail = NULL;
        q->ready = 0;
        q->busy = 1;
        learn_job *job = q->head;
        q->head = job->next;
        if (!q->head) q->tail = NULL;
        pthread_mutex_unlock(&l->lock);
        learn_page(l, w->e, &job->page, job->site);
        free(job);
        pthread_mutex_lock(&l->lock);
        q->busy = 0;
        make_ready(l, q);
        l->inflight--;
        pthread_cond_signal(&l->room);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* Queues a page on its site (takes it); waits while too many are queued. */
static int queue_page(learner *l, cli_page *page, winnow_site *site)
{
    learn_job *job = malloc(sizeof *job);
    if (!job) return -1;
    *job = (learn_job){ *page, site, NULL };
    pthread_mutex_lock(&l->lock);
    while (l->inflight >= l->max_inflight) pthread_cond_wait(&l->room, &l->lock);
    site_queue *q = queue_of(l, site);
    if (!q) {
        pthread_mutex_unlock(&l->lock);
        free(job);
        return -1;
    }
    if (q->tail)
        q->tail->next = job;
    else
        q->head = job;
    q->tail = job;
    l->inflight++;
    make_ready(l, q);
    pthread_mutex_unlock(&l->lock);
    return 0;
}

static int cmp_kept(const void *a, const void *b)
{
    size_t x = ((const kept_page *)a)->page.seq, y = ((const kept_page *)b)->page.seq;
    return x < y ? -1 : x > y;
}

/* --batch: every kept page extracted with its site's model. */
typedef struct batch_worker {
    const cli_opts *o;
    cli_inputs *in;
    cli_manifest *manifest;
    kept_page *pages;
    size_t n;
    atomic_size_t *next;
    int failed, no_content;
} batch_worker;

static void *batch_run(void *arg)
{
    batch_worker *w = arg;
    const cli_opts *o = w->o;
    winnow_engine *e = cli_engine_new(o);
    if (!e) {
        w->failed++;
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(w->next, 1);
        if (i >= w->n || cli_inputs_stopped(w->in)) break;
        cli_page *p = &w->pages[i].page;
        winnow_source src = { sizeof src, p->file, p->record, p->record_id };
        winnow_input input = { sizeof input, p->data, p->len, p->charset, p->url, &src };
        winnow_doc *doc = NULL;
        winnow_status s = winnow_extract_site(e, &input, w->pages[i].site, &o->site_opt, &doc);
        if (WINNOW_FAILED(s)) {
            cli_report("winnow: %s: %s\n", p->source, winnow_engine_error(e));
            cli_manifest_page(w->manifest, p, "", s, winnow_engine_error(e));
            w->failed++;
        } else {
            if (s == WINNOW_NO_CONTENT || s == WINNOW_NO_MAIN) w->no_content++;
            w->failed += cli_output_page(o, w->in, w->manifest, p, doc, s, 1);
            winnow_doc_free(doc);
        }
        cli_progress_tick(i + 1, (double)(i + 1) / (double)w->n);
    }
    winnow_engine_free(e);
    return NULL;
}

static int extract_kept(const cli_opts *o, cli_inputs *in, kept_page *pages, size_t n, cli_manifest *manifest,
                        int *no_content)
{
    /* pages to stdout go one after the other, in input order */
    int nthreads = o->output ? o->jobs : 1;
    if ((size_t)nthreads > n) nthreads = n ? (int)n : 1;
    atomic_size_t next = 0;
    batch_worker *ws = calloc((size_t)nthreads, sizeof *ws);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    int *started = calloc((size_t)nthreads, sizeof *started);
    if (!ws || !tids || !started) {
        free(ws), free(tids), free(started);
        fprintf(stderr, "winnow: out of memory\n");
        return 1;
    }
    cli_progress_start("learn --batch: extracting", o->quiet);
    for (int t = 0; t < nthreads; t++) {
        ws[t] = (batch_worker){ o, in, manifest, pages, n, &next, 0, 0 };
        if (t > 0) started[t] = pthread_create(&tids[t], NULL, batch_run, &ws[t]) == 0;
    }
    batch_run(&ws[0]);
    int failed = 0;
    for (int t = 0; t < nthreads; t++) {
        if (t > 0 && started[t]) pthread_join(tids[t], NULL);
        failed += ws[t].failed;
        *no_content += ws[t].no_content;
    }
    cli_progress_end();
    free(ws);
    free(tids);
    free(started);
    return failed;
}

/* Set by SIGINT or SIGTERM: the signal's number. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND; /* a second signal ends the run at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Waits until every queued page is counted: no worker touches a model. */
static void drain(learner *l)
{
    pthread_mutex_lock(&l->lock);
    while (l->inflight > 0) pthread_cond_wait(&l->room, &l->lock);
    pthread_mutex_unlock(&l->lock);
}

/* The pages counted since the last save are saved now; pages and sites
 * this run saved so far. */
static void tally_saved(learner *l)
{
    pthread_mutex_lock(&l->lock);
    for (size_t i = 0; i < l->capqueues; i++) {
        site_queue *q = l->queues ? l->queues[i] : NULL;
        if (!q) continue;
        q->saved += q->pending;
        q->pending = 0;
    }
    pthread_mutex_unlock(&l->lock);
}

static size_t tally_sum(learner *l, size_t *sites)
{
    size_t pages = 0;
    *sites = 0;
    pthread_mutex_lock(&l->lock);
    for (size_t i = 0; i < l->capqueues; i++) {
        site_queue *q = l->queues ? l->queues[i] : NULL;
        if (!q) continue;
        pages += q->saved;
        *sites += q->saved > 0;
    }
    pthread_mutex_unlock(&l->lock);
    return pages;
}

/* Saves what changed since the last save, once every queued page is
 * counted. A database another writer keeps locked past the timeout is
 * tried again a batch later (the last save: up to three times). */
static winnow_status save_batch(learner *l, winnow_sitedb *db, cli_sites *sites, int last)
{
    drain(l);
    winnow_site **all;
    size_t n = cli_sites_all(sites, &all);
    winnow_status s;
    for (int attempt = 0;; attempt++) {
        s = winnow_sitedb_save(db, all, n);
        if (s != WINNOW_E_DB_BUSY || !last || attempt == 2) break;
    }
    if (s == WINNOW_OK)
        tally_saved(l);
    else if (s == WINNOW_E_DB_BUSY && !last && !l->o->quiet)
        cli_report("winnow: warning: %s; trying again after the next batch\n", winnow_sitedb_error(db));
    return s;
}

/* The run's summary line: said once what was learned is kept. */
static void learned_line(const cli_opts *o, size_t pages, learner *l, int failed, size_t nsites, double t, size_t bytes)
{
    if (o->quiet) return;
    fprintf(
        stderr,
        "learned %zu pages (%zu counted, %zu duplicates, %d failed) of %zu site%s in %.2f s, %.1f pages/s, %.1f MB/s\n",
        pages, l->counted, l->duplicates, failed, nsites, nsites == 1 ? "" : "s", t, t > 0 ? (double)pages / t : 0.0,
        t > 0 ? (double)bytes / 1e6 / t : 0.0);
}

int cmd_learn(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, &o,
                       "--db --site --half-life --batch --output --format --quiet --max-bytes --no-title --mode "
                       "--method --charset --model --no-model --no-smooth --rule --jobs --recursive --input-format "
                       "--input-list --commit-every --partial");
    if (rc) {
        cli_opts_free(&o);
        return rc == CLI_DONE ? EXIT_OK : rc;
    }
    if (o.ninputs == 0) {
        fprintf(stderr, "winnow: learn needs pages (directories, WARC or JSONL files)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.partial && (o.db_path || o.batch)) {
        fprintf(stderr, "winnow: learn --partial writes a partial file only: no --db or --batch with it (merge the "
                        "partial with 'winnow merge PART... --db DB')\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (!o.db_path && !o.batch && !o.partial) {
        fprintf(stderr, "winnow: learn needs --db PATH (or --partial OUT, or --batch)\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }

    /* before the database is opened: a signal while it is checked or
     * created still ends the run through the same path */
    catch_stop_signals();
    winnow_sitedb *db = NULL;
    if (o.db_path) {
        char err[1024];
        winnow_status st = winnow_sitedb_open(o.db_path, WINNOW_SITEDB_WRITE, &db, err, sizeof err);
        if (st != WINNOW_OK) {
            fprintf(stderr, "winnow: %s\n", err);
            cli_opts_free(&o);
            return cli_db_exit(st);
        }
    }
    /* --partial: the pages recorded per site, written at the end (map-reduce) */
    winnow_partial *partial = NULL;
    if (o.partial && winnow_partial_new(o.half_life, &partial) != WINNOW_OK) {
        fprintf(stderr, "winnow: out of memory\n");
        cli_opts_free(&o);
        return EXIT_SOME_FAILED;
    }
    cli_progress_start("learn", o.quiet);
    cli_sites *sites = partial ? cli_sites_new_partial(partial) : cli_sites_new(db, o.half_life);
    cli_inputs *in = cli_inputs_open(&o);
    int nworkers = o.jobs > 1 ? o.jobs : 0;
    learn_worker *ws = calloc((size_t)(nworkers + 1), sizeof *ws);
    pthread_t *tids = calloc((size_t)(nworkers + 1), sizeof *tids);
    int *started = calloc((size_t)(nworkers + 1), sizeof *started);
    winnow_engine *e = cli_engine_new(&o);
    if (!sites || !in || !e || !ws || !tids || !started) {
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    /* --batch -o OUT: OUT/NAME.txt for every page, and OUT/manifest.tsv */
    cli_manifest *manifest = NULL;
    if (o.batch && o.output) {
        int guard = cli_outputs_check(&o, 1);
        if (guard) return guard;
        if (cli_mkdir_p(o.output) != 0) {
            fprintf(stderr, "winnow: cannot create output directory %s: %s\n", o.output, strerror(errno));
            return EXIT_SOME_FAILED;
        }
        if (!(manifest = cli_manifest_open(o.output))) return EXIT_SOME_FAILED;
        cli_inputs_set_manifest(in, manifest);
    }

    learner l = { .o = &o, .in = in, .manifest = manifest, .max_inflight = 4 * (size_t)(nworkers ? nworkers : 1) };
    pthread_mutex_init(&l.lock, NULL);
    pthread_cond_init(&l.work, NULL);
    pthread_cond_init(&l.room, NULL);
    for (int t = 0; t < nworkers; t++) {
        ws[t] = (learn_worker){ &l, cli_engine_new(&o) };
        started[t] = ws[t].e && pthread_create(&tids[t], NULL, learn_run, &ws[t]) == 0;
        if (!started[t]) fprintf(stderr, "winnow: warning: cannot start thread %d\n", t + 1);
    }
    int running = 0;
    for (int t = 0; t < nworkers; t++) running += started[t];
    if (!running) { /* none: the main thread counts every page itself */
        for (int t = 0; t < nworkers; t++) winnow_engine_free(ws[t].e);
        nworkers = 0;
    }

    double t0 = cli_now_s(), last_save = t0;
    size_t pages = 0, bytes = 0, since_save = 0;
    int no_site_reported = 0;
    winnow_status save_status = WINNOW_OK;
    cli_page page;
    while (!stop_signal && cli_inputs_next(in, &page)) {
        pages++;
        bytes += page.len;
        char name[256], err[1200] = "";
        cli_site_name(&o, &page, name, sizeof name);
        winnow_site *site = NULL;
        if (!*name) {
            if (!no_site_reported++)
                cli_report("winnow: %s: no URL to tell the page's site: give --site NAME\n", page.source);
            cli_manifest_page(manifest, &page, "", WINNOW_E_ARG, "no URL to tell the page's site: give --site NAME");
        } else {
            winnow_status why = WINNOW_E_IO;
            int again = 0;
            if (!(site = cli_sites_get(sites, name, err, sizeof err, NULL, &why, &again))) {
                if (!again) cli_report("winnow: %s: %s\n", page.source, err); /* once per site */
                cli_manifest_page(manifest, &page, "", why, err);
            }
        }
        if (!site) {
            pthread_mutex_lock(&l.lock);
            l.failed++;
            pthread_mutex_unlock(&l.lock);
            cli_page_free(&page);
            cli_inputs_page_done(in);
            if (cli_sites_damaged(sites)) break; /* nothing more is written into it */
            continue;
        }
        if (!nworkers) {
            learn_page(&l, e, &page, site);
        } else if (queue_page(&l, &page, site) != 0) {
            cli_report("winnow: out of memory\n");
            pthread_mutex_lock(&l.lock);
            l.failed++;
            pthread_mutex_unlock(&l.lock);
            cli_page_free(&page);
        }
        if (db && (++since_save >= o.commit_every || cli_now_s() - last_save >= 30.0)) {
            /* refused as busy: the next try is a batch later */
            save_status = save_batch(&l, db, sites, 0);
            if (save_status != WINNOW_OK && save_status != WINNOW_E_DB_BUSY) break;
            since_save = 0;
            last_save = cli_now_s();
        }
    }
    pthread_mutex_lock(&l.lock);
    l.done = 1;
    pthread_cond_broadcast(&l.work);
    pthread_mutex_unlock(&l.lock);
    for (int t = 0; t < nworkers; t++) {
        if (started[t]) pthread_join(tids[t], NULL);
        winnow_engine_free(ws[t].e);
    }
    /* with no worker left (none could start), what is queued is counted here */
    for (size_t i = 0; i < l.capqueues; i++) {
        site_queue *q = l.queues ? l.queues[i] : NULL;
        if (!q) continue;
        while (q->head) {
            learn_job *job = q->head;
            q->head = job->next;
            learn_page(&l, e, &job->page, job->site);
            free(job);
            l.inflight--;
        }
    }
    cli_progress_end();
    if (l.oom) {
        cli_report("winnow: out of memory keeping pages for --batch\n");
        l.failed++;
    }
    int failed = l.failed + cli_inputs_failed(in);

    winnow_site **all;
    size_t nsites = cli_sites_all(sites, &all);
    if (partial) nsites = winnow_partial_site_count(partial);
    int damaged = cli_sites_damaged(sites);
    if (damaged)
        save_status = WINNOW_E_DB_DAMAGED; /* found damaged meanwhile: no more writes */
    else if (db && (save_status == WINNOW_OK || save_status == WINNOW_E_DB_BUSY))
        save_status = save_batch(&l, db, sites, 1);
    /* what was learned is claimed only once it is kept: saved, or written
     * to the partial file (below) */
    int unsaved = 0;
    if (db && save_status != WINNOW_OK && !damaged) {
        size_t saved_sites, saved = tally_sum(&l, &saved_sites);
        fprintf(stderr,
                "winnow: saving to %s failed: %s; the database keeps what this run saved before: %zu pages of %zu "
                "site%s (%zu pages read)\n",
                o.db_path, winnow_sitedb_error(db), saved, saved_sites, saved_sites == 1 ? "" : "s", pages);
        failed++;
        unsaved = 1;
    }
    if (save_status == WINNOW_E_DB_DAMAGED) damaged = 1;
    if (!partial && !unsaved) learned_line(&o, pages, &l, failed, nsites, cli_now_s() - t0, bytes);

    int sig = stop_signal;
    if (sig) {
        size_t saved_sites, saved = tally_sum(&l, &saved_sites);
        if (db)
            fprintf(stderr,
                    "winnow: interrupted by %s: saved %zu page%s of %zu site%s in %s (%zu pages read); learning "
                    "the same inputs again goes on from there (pages learned already count as duplicates)\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM", saved, saved == 1 ? "" : "s", saved_sites,
                    saved_sites == 1 ? "" : "s", o.db_path, pages);
        else
            fprintf(stderr, "winnow: interrupted by %s after %zu pages; nothing was extracted\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM", pages);
    }

    if (partial && sig) {
        fprintf(stderr, "winnow: interrupted by %s after %zu pages; %s was not written\n",
                sig == SIGINT ? "SIGINT" : "SIGTERM", pages, o.partial);
    } else if (partial) {
        double tw = cli_now_s();
        if (winnow_partial_write(partial, o.partial) != WINNOW_OK) {
            fprintf(stderr, "winnow: %s; nothing of this run was kept\n", winnow_partial_error(partial));
            failed++;
        } else {
            learned_line(&o, pages, &l, failed, nsites, tw - t0, bytes);
            if (!o.quiet) {
                size_t ps = winnow_partial_site_count(partial);
                fprintf(stderr, "wrote %s: %zu pages of %zu site%s in %.2f s\n", o.partial,
                        winnow_partial_page_count(partial), ps, ps == 1 ? "" : "s", cli_now_s() - tw);
            }
        }
    }

    int no_content = 0;
    if (o.batch && !sig) {
        /* input order: the pages to stdout come out in it */
        if (l.nkept > 1) qsort(l.kept, l.nkept, sizeof *l.kept, cmp_kept);
        failed += extract_kept(&o, in, l.kept, l.nkept, manifest, &no_content);
    }
    if (cli_manifest_close(manifest) != 0) failed++;
    for (size_t i = 0; i < l.nkept; i++) cli_page_free(&l.kept[i].page);
    free(l.kept);
    for (size_t i = 0; i < l.capqueues; i++) free(l.queues[i]);
    free(l.queues);
    pthread_cond_destroy(&l.work);
    pthread_cond_destroy(&l.room);
    pthread_mutex_destroy(&l.lock);
    free(ws);
    free(tids);
    free(started);
    winnow_engine_free(e);
    int skipped = cli_inputs_skipped(in);
    cli_inputs_close(in);
    cli_sites_free(sites);
    winnow_partial_free(partial);
    winnow_sitedb_close(db);
    if (unsaved) cli_wal_note(o.db_path);
    cli_opts_free(&o);
    if (sig) return 128 + sig;
    if (damaged) return EXIT_DB_DAMAGED;
    return cli_exit_status(failed, skipped, no_content);
}
