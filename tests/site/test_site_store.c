/* Site databases through the public API (winnow_sitedb_open, winnow_site_load,
 * winnow_sitedb_save, winnow_sitedb_list): what is saved loads back the same,
 * learning in two sessions equals learning in one, the half-life of a site
 * stays its own, opening errors name the file, and a reader that loads a
 * site while a writer commits sees the old or the new state, not a mix. */
#include <math.h>
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "site_pages.h"
#include "winnow.h"

static winnow_engine *engine;
static char dir[256];

static void path_of(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", dir, name); }

static void learn_range(winnow_site *s, char t, unsigned from, unsigned to)
{
    for (unsigned k = from; k < to; k++) {
        size_t len;
        char *html = site_page(t, k, &len);
        winnow_input in = {html, len, NULL, NULL};
        int counted = -1;
        CHECK_EQ(winnow_site_learn(engine, s, &in, &counted), WINNOW_OK);
        CHECK_EQ(counted, 1);
        free(html);
    }
}

/* ---- listings: every fingerprint at min_share, as sorted lines ---- */

typedef struct listing {
    char **rows;
    size_t n, cap;
} listing;

static int add_row(void *ctx, const char *kind, double df, const char *sample)
{
    listing *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->rows = realloc(l->rows, l->cap * sizeof *l->rows);
        if (!l->rows) abort();
    }
    char buf[256];
    /* 1e-6 is far above rounding and far below any real difference */
    snprintf(buf, sizeof buf, "%s %.6f %s", kind, df, sample);
    l->rows[l->n++] = strdup(buf);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static listing list_site(const winnow_site *s, double min_share)
{
    listing l = {0};
    CHECK_EQ(winnow_site_templates(s, min_share, add_row, &l), WINNOW_OK);
    if (l.n) qsort(l.rows, l.n, sizeof *l.rows, cmp_str);
    return l;
}

static int same_listing(const listing *a, const listing *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->rows[i], b->rows[i]) != 0) return 0;
    return 1;
}

static void check_same_listing(const listing *a, const listing *b, const char *what)
{
    if (same_listing(a, b)) return;
    fprintf(stderr, "%s: %zu vs %zu fingerprints\n", what, a->n, b->n);
    for (size_t i = 0; i < a->n && i < b->n; i++)
        if (strcmp(a->rows[i], b->rows[i]) != 0) {
            fprintf(stderr, "  first difference: \"%s\" vs \"%s\"\n", a->rows[i], b->rows[i]);
            break;
        }
    CHECK(!"same fingerprints and document frequencies");
}

static void free_listing(listing *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->rows[i]);
    free(l->rows);
    memset(l, 0, sizeof *l);
}

static char *extract_text(const winnow_site *s, char t, unsigned k)
{
    size_t len;
    char *html = site_page(t, k, &len);
    winnow_input in = {html, len, NULL, NULL};
    winnow_site_options o;
    winnow_site_options_default(&o);
    o.mode = WINNOW_MODE_SITE;
    winnow_doc *d = NULL;
    char *text = NULL;
    if (!WINNOW_FAILED(winnow_extract_site(engine, &in, s, &o, &d))) text = winnow_render_alloc(d, WINNOW_FORMAT_TEXT, NULL);
    winnow_doc_free(d);
    free(html);
    return text ? text : strdup("");
}

static winnow_sitedb *open_db(const char *name, int writable)
{
    char path[512], err[512] = "";
    path_of(path, sizeof path, name);
    winnow_sitedb *db = winnow_sitedb_open(path, writable, err, sizeof err);
    if (!db) fprintf(stderr, "open %s: %s\n", path, err);
    return db;
}

static winnow_site *load(winnow_sitedb *db, const char *name, double half_life)
{
    winnow_site *s = NULL;
    winnow_status st = winnow_site_load(db, name, half_life, &s);
    if (st != WINNOW_OK) fprintf(stderr, "load %s: %s: %s\n", name, winnow_status_name(st), winnow_sitedb_error(db));
    return s;
}

/* ---- summaries ---- */

typedef struct summary_ctx {
    winnow_site_summary rows[8];
    char names[8][64];
    int n;
} summary_ctx;

static int add_summary(void *ctx, const winnow_site_summary *s)
{
    summary_ctx *c = ctx;
    if (c->n < 8) {
        c->rows[c->n] = *s;
        snprintf(c->names[c->n], sizeof c->names[0], "%s", s->name);
        c->rows[c->n].name = c->names[c->n];
        c->n++;
    }
    return 0;
}

/* ---- tests ---- */

static void test_round_trip(void)
{
    time_t t0 = time(NULL);
    winnow_sitedb *db = open_db("round.db", 1);
    CHECK(db != NULL);
    if (!db) return;
    winnow_site *a = load(db, "courier.example", 20), *b = load(db, "gazette.example", 0);
    CHECK(a && b);
    if (!a || !b) return;
    CHECK(winnow_site_pages(a) == 0); /* unknown sites come back empty */
    learn_range(a, 'A', 0, 40);
    learn_range(b, 'B', 0, 12);
    listing la = list_site(a, 0.0), lb = list_site(b, 0.0);
    CHECK(la.n > 20);
    char *ta = extract_text(a, 'A', 77);
    winnow_site *both[2] = {a, b};
    CHECK_EQ(winnow_sitedb_save(db, both, 2), WINNOW_OK);
    double pa = winnow_site_pages(a), pb = winnow_site_pages(b);
    winnow_site_free(a);
    winnow_site_free(b);
    winnow_sitedb_close(db);

    db = open_db("round.db", 0);
    CHECK(db != NULL);
    if (!db) return;
    a = load(db, "courier.example", 500); /* a stored site keeps its own half-life */
    b = load(db, "gazette.example", 0);
    CHECK(fabs(winnow_site_pages(a) - pa) < 1e-9);
    CHECK(fabs(winnow_site_pages(b) - pb) < 1e-9);
    listing la2 = list_site(a, 0.0), lb2 = list_site(b, 0.0);
    check_same_listing(&la2, &la, "courier.example after a round trip");
    check_same_listing(&lb2, &lb, "gazette.example after a round trip");
    char *ta2 = extract_text(a, 'A', 77);
    CHECK_STR(ta2, ta);

    summary_ctx sc = {0};
    CHECK_EQ(winnow_sitedb_list(db, add_summary, &sc), WINNOW_OK);
    CHECK_EQ(sc.n, 2);
    if (sc.n == 2) {
        CHECK_STR(sc.rows[0].name, "courier.example"); /* by name */
        CHECK_STR(sc.rows[1].name, "gazette.example");
        CHECK(fabs(sc.rows[0].pages - pa) < 1e-9);
        CHECK(sc.rows[0].pages_learned == 40);
        CHECK(sc.rows[0].half_life == 20);
        CHECK(sc.rows[1].half_life == 1000);
        CHECK(sc.rows[1].pages_learned == 12);
        CHECK(sc.rows[0].keys > (long long)la.n / 2);
        CHECK(sc.rows[0].updated >= (long long)t0 && sc.rows[0].updated <= (long long)time(NULL));
    }
    free(ta);
    free(ta2);
    free_listing(&la);
    free_listing(&lb);
    free_listing(&la2);
    free_listing(&lb2);
    winnow_site_free(a);
    winnow_site_free(b);
    winnow_sitedb_close(db);
}

/* Learning 25 + 25 pages in two sessions, with a save and a reload between
 * them, gives the model learning the 50 pages in one session gives. */
static void test_incremental_equals_one_shot(void)
{
    const double lives[] = {15, 0};
    for (size_t i = 0; i < 2; i++) {
        winnow_sitedb *db = open_db("incremental.db", 1);
        if (!db) { CHECK(db != NULL); return; }
        char name[32];
        snprintf(name, sizeof name, "inc%zu.example", i);
        winnow_site *s = load(db, name, lives[i]);
        learn_range(s, 'A', 0, 25);
        CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
        winnow_site_free(s);
        winnow_sitedb_close(db);
        db = open_db("incremental.db", 1);
        s = load(db, name, 0);
        learn_range(s, 'A', 25, 50);
        CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
        winnow_site_free(s);
        s = load(db, name, 0); /* what the file holds */

        winnow_site *one = winnow_site_new(name, lives[i]);
        learn_range(one, 'A', 0, 50);
        CHECK(fabs(winnow_site_pages(s) - winnow_site_pages(one)) < 1e-9);
        listing l1 = list_site(s, 0.0), l2 = list_site(one, 0.0);
        check_same_listing(&l1, &l2, "two sessions against one");
        for (unsigned k = 48; k < 52; k++) {
            char *x = extract_text(s, 'A', k), *y = extract_text(one, 'A', k);
            CHECK_STR(x, y);
            free(x);
            free(y);
        }
        free_listing(&l1);
        free_listing(&l2);
        winnow_site_free(s);
        winnow_site_free(one);
        winnow_sitedb_close(db);
    }
}

/* Saving a model that did not change, or saving nothing, keeps the file's state. */
static void test_save_unchanged(void)
{
    winnow_sitedb *db = open_db("unchanged.db", 1);
    if (!db) { CHECK(db != NULL); return; }
    winnow_site *s = load(db, "u.example", 0);
    learn_range(s, 'A', 0, 8);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
    listing before = list_site(s, 0.0);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
    CHECK_EQ(winnow_sitedb_save(db, NULL, 0), WINNOW_OK);
    /* duplicates of learned pages change nothing either */
    size_t len;
    char *html = site_page('A', 3, &len);
    winnow_input in = {html, len, NULL, "https://u.example/again"};
    int counted = -1;
    CHECK_EQ(winnow_site_learn(engine, s, &in, &counted), WINNOW_OK);
    CHECK_EQ(counted, 0);
    free(html);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
    winnow_site_free(s);
    s = load(db, "u.example", 0);
    listing after = list_site(s, 0.0);
    check_same_listing(&after, &before, "after saving an unchanged model");
    free_listing(&before);
    free_listing(&after);
    winnow_site_free(s);
    winnow_sitedb_close(db);
}

static void test_open_errors(void)
{
    char err[512], path[512];
    CHECK(winnow_sitedb_open(NULL, 1, err, sizeof err) == NULL);
    CHECK(strlen(err) > 0);
    CHECK(winnow_sitedb_open("", 0, err, sizeof err) == NULL);
    CHECK(strlen(err) > 0);
    /* a reader does not create the file */
    path_of(path, sizeof path, "missing.db");
    err[0] = '\0';
    CHECK(winnow_sitedb_open(path, 0, err, sizeof err) == NULL);
    CHECK_HAS(err, path);
    CHECK(access(path, F_OK) != 0);
    /* an empty file: nothing learned yet */
    path_of(path, sizeof path, "empty.db");
    FILE *f = fopen(path, "wb");
    if (f) fclose(f);
    err[0] = '\0';
    CHECK(winnow_sitedb_open(path, 0, err, sizeof err) == NULL);
    CHECK_HAS(err, path);
    CHECK_HAS(err, "learn");
    /* a message that does not fit is cut, not overflowed */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    CHECK(winnow_sitedb_open(path, 0, tiny, sizeof tiny) == NULL);
    CHECK(memchr(tiny, '\0', sizeof tiny) != NULL);
    CHECK(winnow_sitedb_open(path, 0, NULL, 0) == NULL);

    winnow_sitedb *db = open_db("args.db", 1);
    winnow_site *s = (winnow_site *)&s;
    CHECK_EQ(winnow_site_load(db, NULL, 0, &s), WINNOW_E_ARG);
    CHECK(s == NULL);
    CHECK_EQ(winnow_site_load(db, "", 0, &s), WINNOW_E_ARG);
    CHECK_EQ(winnow_site_load(NULL, "x", 0, &s), WINNOW_E_ARG);
    CHECK_EQ(winnow_site_load(db, "x", 0, NULL), WINNOW_E_ARG);
    CHECK_EQ(winnow_sitedb_save(NULL, NULL, 0), WINNOW_E_ARG);
    CHECK_EQ(winnow_sitedb_list(db, NULL, NULL), WINNOW_E_ARG);
    CHECK_EQ(winnow_sitedb_list(NULL, add_summary, NULL), WINNOW_E_ARG);
    CHECK_STR(winnow_sitedb_error(NULL), "");
    winnow_sitedb_close(db);
    winnow_sitedb_close(NULL);
}

/* ---- a reader loading while a writer commits ----
 *
 * An SQLite auto-extension hooks every connection this process opens; on
 * the reader's connection a statement trace fires when a statement starts
 * running, before it takes its read snapshot. When winnow_site_load starts
 * reading the site's fingerprints, the hook commits the writer's new model
 * on another connection. A load that reads in one snapshot returns the old
 * state; one that reads table after table in separate snapshots returns
 * the old page count with the new fingerprints. */

static int hook_reader;         /* the next connection opened is the reader's */
static int hook_armed;          /* commit at the next fingerprint read */
static int hook_fired;
static winnow_sitedb *hook_writer;
static winnow_site *hook_site;

static int on_statement(unsigned type, void *ctx, void *stmt, void *sql)
{
    (void)ctx;
    (void)stmt;
    if (type != SQLITE_TRACE_STMT || !hook_armed) return 0;
    const char *text = sql;
    if (strncmp(text, "--", 2) == 0 || !strstr(text, "FROM keys")) return 0;
    hook_armed = 0;
    hook_fired = 1;
    CHECK_EQ(winnow_sitedb_save(hook_writer, &hook_site, 1), WINNOW_OK);
    return 0;
}

static int on_connection(sqlite3 *db, const char **err, const sqlite3_api_routines *api)
{
    (void)err;
    (void)api;
    if (hook_reader) {
        hook_reader = 0;
        sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_statement, NULL);
    }
    return SQLITE_OK;
}

static void test_load_during_commit(void)
{
    sqlite3_auto_extension((void (*)(void))on_connection);
    winnow_sitedb *w = open_db("concurrent.db", 1);
    if (!w) { CHECK(w != NULL); return; }
    winnow_site *s = load(w, "c.example", 0);
    learn_range(s, 'A', 0, 10);
    CHECK_EQ(winnow_sitedb_save(w, &s, 1), WINNOW_OK);
    listing old_state = list_site(s, 0.1);
    double old_pages = winnow_site_pages(s);
    learn_range(s, 'A', 10, 30); /* the new state, not saved yet */
    listing new_state = list_site(s, 0.1);
    double new_pages = winnow_site_pages(s);

    hook_reader = 1;
    winnow_sitedb *r = open_db("concurrent.db", 0);
    hook_reader = 0;
    if (!r) { CHECK(r != NULL); return; }
    hook_writer = w;
    hook_site = s;
    hook_armed = 1;
    winnow_site *got = load(r, "c.example", 0);
    hook_armed = 0;
    CHECK(hook_fired);
    CHECK(got != NULL);
    if (got) {
        double pages = winnow_site_pages(got);
        listing l = list_site(got, 0.1);
        int is_old = fabs(pages - old_pages) < 1e-9 && same_listing(&l, &old_state);
        int is_new = fabs(pages - new_pages) < 1e-9 && same_listing(&l, &new_state);
        if (!is_old && !is_new) {
            fprintf(stderr,
                    "a load during a commit mixes states: %.2f pages (old %.2f, new %.2f), %zu template "
                    "fingerprints (old %zu, new %zu)%s%s\n",
                    pages, old_pages, new_pages, l.n, old_state.n, new_state.n, l.n ? ", first: " : "",
                    l.n ? l.rows[0] : "");
        }
        CHECK(is_old || is_new);
        free_listing(&l);
        winnow_site_free(got);
    }
    /* afterwards a load sees the new state */
    got = load(r, "c.example", 0);
    if (got) {
        listing l = list_site(got, 0.1);
        CHECK(fabs(winnow_site_pages(got) - new_pages) < 1e-9);
        check_same_listing(&l, &new_state, "load after the commit");
        free_listing(&l);
        winnow_site_free(got);
    }
    sqlite3_cancel_auto_extension((void (*)(void))on_connection);
    free_listing(&old_state);
    free_listing(&new_state);
    winnow_site_free(s);
    winnow_sitedb_close(r);
    winnow_sitedb_close(w);
}

static void remove_dir(void)
{
    static const char *const names[] = {"round.db", "incremental.db", "unchanged.db", "missing.db", "empty.db",
                                        "args.db", "concurrent.db"};
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
        for (size_t j = 0; j < 4; j++) {
            snprintf(path, sizeof path, "%s/%s%s", dir, names[i], suffix[j]);
            unlink(path);
        }
    }
    rmdir(dir);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/winnow-site-store.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    engine = winnow_engine_new(NULL);
    if (!engine) return 1;
    RUN(test_round_trip);
    RUN(test_incremental_equals_one_shot);
    RUN(test_save_unchanged);
    RUN(test_open_errors);
    RUN(test_load_during_commit);
    winnow_engine_free(engine);
    remove_dir();
    return CHECK_DONE();
}
