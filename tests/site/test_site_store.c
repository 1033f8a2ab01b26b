/* Site databases through the public API (winnow_sitedb_open, winnow_site_load,
 * winnow_sitedb_save, winnow_sitedb_list, winnow_sitedb_check): what is saved
 * loads back the same, learning in two sessions equals learning in one, the
 * half-life of a site stays its own, opening errors name the file, a reader
 * that loads a site while a writer commits sees the old or the new state,
 * not a mix; two writers of one site both count (the second merges); a
 * changed value is found by its site's checksum and nothing is written into
 * such a file; format 1 files are read and upgraded; no -wal or -shm file
 * stays after a handle closes. */
#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
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
        winnow_input in = { sizeof in, html, len, NULL, NULL };
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
    listing l = { 0 };
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
    winnow_input in = { sizeof in, html, len, NULL, NULL };
    winnow_site_options o;
    winnow_site_options_default(&o, sizeof o);
    o.mode = WINNOW_MODE_SITE;
    winnow_doc *d = NULL;
    char *text = NULL;
    if (!WINNOW_FAILED(winnow_extract_site(engine, &in, s, &o, &d)))
        winnow_render_alloc(d, WINNOW_FORMAT_TEXT, &text, NULL);
    winnow_doc_free(d);
    free(html);
    return text ? text : strdup("");
}

static winnow_sitedb *open_db(const char *name, int writable)
{
    char path[512], err[512] = "";
    path_of(path, sizeof path, name);
    winnow_sitedb *db = NULL;
    winnow_sitedb_open(path, writable ? WINNOW_SITEDB_WRITE : WINNOW_SITEDB_READ, &db, err, sizeof err);
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
    /* the library's own size: every field this program knows is there */
    CHECK(s->struct_size >= sizeof *s);
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
    winnow_site *both[2] = { a, b };
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

    summary_ctx sc = { 0 };
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
    const double lives[] = { 15, 0 };
    for (size_t i = 0; i < 2; i++) {
        winnow_sitedb *db = open_db("incremental.db", 1);
        if (!db) {
            CHECK(db != NULL);
            return;
        }
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

        winnow_site *one = NULL;

        winnow_site_new(name, lives[i], &one);
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
    if (!db) {
        CHECK(db != NULL);
        return;
    }
    winnow_site *s = load(db, "u.example", 0);
    learn_range(s, 'A', 0, 8);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
    listing before = list_site(s, 0.0);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_OK);
    CHECK_EQ(winnow_sitedb_save(db, NULL, 0), WINNOW_OK);
    /* duplicates of learned pages change nothing either */
    size_t len;
    char *html = site_page('A', 3, &len);
    winnow_input in = { sizeof in, html, len, NULL, "https://u.example/again" };
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
    /* a handle opened for reading saves nothing, and says why */
    db = open_db("unchanged.db", 0);
    if (!db) {
        CHECK(db != NULL);
        return;
    }
    s = load(db, "u.example", 0);
    html = site_page('A', 9, &len);
    winnow_input more = { sizeof more, html, len, NULL, "https://u.example/more" };
    CHECK_EQ(winnow_site_learn(engine, s, &more, &counted), WINNOW_OK);
    free(html);
    CHECK_EQ(winnow_sitedb_save(db, &s, 1), WINNOW_E_DB_READONLY);
    CHECK(strstr(winnow_sitedb_error(db), "opened for reading") != NULL);
    winnow_site_free(s);
    winnow_sitedb_close(db);
}

static void test_open_errors(void)
{
    char err[512], path[512];
    winnow_sitedb *none = (winnow_sitedb *)&none; /* poison: must come back NULL */
    CHECK_EQ(winnow_sitedb_open(NULL, WINNOW_SITEDB_WRITE, &none, err, sizeof err), WINNOW_E_ARG);
    CHECK(none == NULL);
    CHECK(strlen(err) > 0);
    CHECK_EQ(winnow_sitedb_open("", WINNOW_SITEDB_READ, &none, err, sizeof err), WINNOW_E_ARG);
    CHECK(strlen(err) > 0);
    path_of(path, sizeof path, "missing.db");
    CHECK_EQ(winnow_sitedb_open(path, (winnow_sitedb_access)7, &none, err, sizeof err), WINNOW_E_ARG);
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, NULL, err, sizeof err), WINNOW_E_ARG);
    /* a reader does not create the file */
    err[0] = '\0';
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, &none, err, sizeof err), WINNOW_E_IO);
    CHECK(none == NULL);
    CHECK_HAS(err, path);
    CHECK(access(path, F_OK) != 0);
    /* an empty file: nothing learned yet */
    path_of(path, sizeof path, "empty.db");
    FILE *f = fopen(path, "wb");
    if (f) fclose(f);
    err[0] = '\0';
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, &none, err, sizeof err), WINNOW_E_DB_FORMAT);
    CHECK_HAS(err, path);
    CHECK_HAS(err, "learn");
    /* a message that does not fit is cut, not overflowed */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, &none, tiny, sizeof tiny), WINNOW_E_DB_FORMAT);
    CHECK(memchr(tiny, '\0', sizeof tiny) != NULL);
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, &none, NULL, 0), WINNOW_E_DB_FORMAT);

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

static int hook_reader; /* the next connection opened is the reader's */
static int hook_armed;  /* commit at the next fingerprint read */
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
    if (!w) {
        CHECK(w != NULL);
        return;
    }
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
    if (!r) {
        CHECK(r != NULL);
        return;
    }
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

/* ---- two writers of one site ---- */

/* Two handles load the same site (10 pages saved), learn pages 10-30 and
 * 30-50, and save one after the other. The second save finds the site
 * changed and counts its pages after the first's: the file then holds
 * what learning 0-10, 10-30 and 30-50 in a row gives, exactly. The second
 * handle's model becomes that state, and goes on from there. */
static void test_two_writers_merge(void)
{
    winnow_sitedb *w0 = open_db("merge.db", 1);
    if (!w0) {
        CHECK(w0 != NULL);
        return;
    }
    winnow_site *s0 = load(w0, "m.example", 40);
    learn_range(s0, 'A', 0, 10);
    CHECK_EQ(winnow_sitedb_save(w0, &s0, 1), WINNOW_OK);
    winnow_site_free(s0);
    winnow_sitedb_close(w0);

    winnow_sitedb *a = open_db("merge.db", 1), *b = open_db("merge.db", 1);
    if (!a || !b) {
        CHECK(a && b);
        return;
    }
    winnow_site *sa = load(a, "m.example", 0), *sb = load(b, "m.example", 0);
    learn_range(sa, 'A', 10, 30);
    learn_range(sb, 'A', 30, 50);
    CHECK_EQ(winnow_sitedb_save(a, &sa, 1), WINNOW_OK);
    CHECK_EQ(winnow_sitedb_save(b, &sb, 1), WINNOW_OK);

    winnow_site *seq = NULL;

    winnow_site_new("m.example", 40, &seq);
    learn_range(seq, 'A', 0, 50);
    CHECK(fabs(winnow_site_pages(sb) - winnow_site_pages(seq)) < 1e-12);
    listing want = list_site(seq, 0.0), got_b = list_site(sb, 0.0);
    check_same_listing(&got_b, &want, "the second writer's model after merging");
    winnow_sitedb *r = open_db("merge.db", 0);
    winnow_site *stored = r ? load(r, "m.example", 0) : NULL;
    CHECK(stored != NULL);
    if (stored) {
        listing got = list_site(stored, 0.0);
        check_same_listing(&got, &want, "the file after two writers");
        CHECK(fabs(winnow_site_pages(stored) - winnow_site_pages(seq)) < 1e-12);
        char *x = extract_text(stored, 'A', 77), *y = extract_text(seq, 'A', 77);
        CHECK_STR(x, y);
        free(x);
        free(y);
        free_listing(&got);
        winnow_site_free(stored);
    }
    summary_ctx sc = { 0 };
    CHECK_EQ(r ? winnow_sitedb_list(r, add_summary, &sc) : WINNOW_E_ARG, WINNOW_OK);
    CHECK_EQ(sc.n, 1);
    if (sc.n == 1) CHECK(sc.rows[0].pages_learned == 50);
    /* the merged model goes on: ten more pages through the second handle */
    learn_range(sb, 'A', 50, 60);
    CHECK_EQ(winnow_sitedb_save(b, &sb, 1), WINNOW_OK);
    /* and the first, whose site changed again, merges too */
    learn_range(sa, 'A', 60, 65);
    CHECK_EQ(winnow_sitedb_save(a, &sa, 1), WINNOW_OK);
    learn_range(seq, 'A', 50, 65);
    winnow_site *again = r ? load(r, "m.example", 0) : NULL;
    if (again) {
        listing got = list_site(again, 0.0), want2 = list_site(seq, 0.0);
        check_same_listing(&got, &want2, "the file after more saves of both writers");
        free_listing(&got);
        free_listing(&want2);
        winnow_site_free(again);
    }
    char err[512];
    CHECK_EQ(r ? winnow_sitedb_check(r, NULL, NULL, NULL) : WINNOW_E_ARG, WINNOW_OK);
    if (r && winnow_sitedb_check(r, NULL, NULL, NULL) != WINNOW_OK) fprintf(stderr, "%s\n", winnow_sitedb_error(r));
    (void)err;
    /* a model not loaded from the file cannot overwrite a site it has */
    winnow_site *fresh = NULL;
    winnow_site_new("m.example", 0, &fresh);
    learn_range(fresh, 'A', 70, 72);
    CHECK_EQ(winnow_sitedb_save(a, &fresh, 1), WINNOW_E_ARG);
    winnow_site_free(fresh);
    free_listing(&want);
    free_listing(&got_b);
    winnow_site_free(seq);
    winnow_site_free(sa);
    winnow_site_free(sb);
    winnow_sitedb_close(r);
    winnow_sitedb_close(a);
    winnow_sitedb_close(b);
}

/* ---- damage ---- */

static int sql_on(const char *name, const char *sql)
{
    char path[512];
    path_of(path, sizeof path, name);
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK) fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    sqlite3_close(db);
    return rc;
}

static char *slurp_path(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = b && fread(b, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return b;
}

static char *slurp(const char *name, size_t *len)
{
    char path[512];
    path_of(path, sizeof path, name);
    return slurp_path(path, len);
}

typedef struct problem_list {
    int n;
    char first[512];
} problem_list;

static void note_problem(void *ctx, const char *what)
{
    problem_list *p = ctx;
    if (!p->n++) snprintf(p->first, sizeof p->first, "%s", what);
}

/* One value changed behind winnow's back (a count, a sample, a site's
 * row, a vanished site): SQLite's own check passes, but the site's
 * checksum does not; readers get WINNOW_E_DB_DAMAGED where they read it,
 * winnow_sitedb_check reports it, and a writer refuses the file without
 * changing a byte. */
static void test_checksums_find_changes(void)
{
    static const struct {
        const char *what, *sql, *reader_fails; /* reader_fails: "open", "list", "load" */
    } cases[] = {
        { "a count", "UPDATE keys SET df = df + 1 WHERE (site, kind, key) = (SELECT site, kind, key FROM keys)",
          "load" },
        { "a sample",
          "UPDATE keys SET sample = 'x' || sample WHERE (site, kind, key) = "
          "(SELECT site, kind, key FROM keys WHERE sample IS NOT NULL)",
          "load" },
        { "a page's URL",
          "UPDATE pages SET url = 'https://elsewhere.example/' WHERE (site, imatch) = "
          "(SELECT site, imatch FROM pages)",
          "load" },
        { "a training block", "UPDATE ce_blocks SET path = path + 1 WHERE rowid = 1", "load" },
        { "a fingerprint moved to another site",
          "UPDATE keys SET site = 2 WHERE (site, kind, key) = "
          "(SELECT site, kind, key FROM keys WHERE site = 1)",
          "list" },
        { "a site's page count", "UPDATE sites SET pages = pages + 1 WHERE name = 'd.example'", "open" },
        { "a vanished site",
          "DELETE FROM sums WHERE site = (SELECT id FROM sites WHERE name = 'e.example');"
          "DELETE FROM sites WHERE name = 'e.example'",
          "open" },
    };
    winnow_sitedb *w = open_db("sound.db", 1);
    if (!w) {
        CHECK(w != NULL);
        return;
    }
    winnow_site *d = load(w, "d.example", 0), *e = load(w, "e.example", 0);
    learn_range(d, 'A', 0, 12);
    learn_range(e, 'B', 0, 6);
    winnow_site *both[2] = { d, e };
    CHECK_EQ(winnow_sitedb_save(w, both, 2), WINNOW_OK);
    winnow_site_free(d);
    winnow_site_free(e);
    winnow_sitedb_close(w);
    winnow_sitedb *r = open_db("sound.db", 0);
    CHECK(r && winnow_sitedb_check(r, NULL, NULL, NULL) == WINNOW_OK);
    winnow_sitedb_close(r);
    size_t good_len;
    char *good = slurp("sound.db", &good_len);

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[512];
        path_of(path, sizeof path, "changed.db");
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(good, 1, good_len, f) != good_len) {
            CHECK(!"copy");
            if (f) fclose(f);
            continue;
        }
        fclose(f);
        if (sql_on("changed.db", cases[c].sql) != SQLITE_OK) {
            CHECK(!"change");
            continue;
        }
        size_t before_len, after_len;
        char *before = slurp("changed.db", &before_len);
        char err[1024] = "";
        winnow_sitedb *db = NULL;
        winnow_status st = winnow_sitedb_open(path, WINNOW_SITEDB_READ, &db, err, sizeof err);
        if (!strcmp(cases[c].reader_fails, "open")) {
            if (st != WINNOW_E_DB_DAMAGED) fprintf(stderr, "%s: open: %s\n", cases[c].what, err);
            CHECK_EQ(st, WINNOW_E_DB_DAMAGED);
            CHECK_HAS(err, path);
        } else {
            CHECK_EQ(st, WINNOW_OK);
            summary_ctx sc = { 0 };
            winnow_status ls = db ? winnow_sitedb_list(db, add_summary, &sc) : WINNOW_E_ARG;
            winnow_site *site = NULL;
            winnow_status lo = db ? winnow_site_load(db, "d.example", 0, &site) : WINNOW_E_ARG;
            if (!strcmp(cases[c].reader_fails, "list")) {
                CHECK_EQ(ls, WINNOW_E_DB_DAMAGED);
                CHECK_EQ(sc.n, 0); /* nothing listed before the damage was found */
            } else {
                CHECK_EQ(ls, WINNOW_OK);
            }
            CHECK_EQ(lo, WINNOW_E_DB_DAMAGED);
            CHECK(site == NULL);
            if (db) CHECK_HAS(winnow_sitedb_error(db), "damaged");
            problem_list pl = { 0, "" };
            winnow_sitedb_report rep = { sizeof rep };
            CHECK_EQ(db ? winnow_sitedb_check(db, note_problem, &pl, &rep) : WINNOW_E_ARG, WINNOW_E_DB_DAMAGED);
            CHECK(pl.n >= 1);
            CHECK_EQ(rep.problems, pl.n);
            CHECK_HAS(pl.first, "site");
            winnow_sitedb_close(db);
        }
        err[0] = '\0';
        db = NULL;
        st = winnow_sitedb_open(path, WINNOW_SITEDB_WRITE, &db, err, sizeof err);
        if (st != WINNOW_E_DB_DAMAGED) fprintf(stderr, "%s: a writer opened it: %s\n", cases[c].what, err);
        CHECK_EQ(st, WINNOW_E_DB_DAMAGED);
        CHECK(db == NULL);
        CHECK_HAS(err, "nothing was written");
        winnow_sitedb_close(db);
        char *after = slurp("changed.db", &after_len);
        CHECK(before && after && before_len == after_len && !memcmp(before, after, before_len));
        free(before);
        free(after);
    }
    free(good);
}

/* ---- older files, side files ---- */

static int side_files(const char *name)
{
    char path[512];
    int n = 0;
    const char *const suffix[] = { "-wal", "-shm", "-journal" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix[i]);
        n += access(path, F_OK) == 0;
    }
    return n;
}

/* A format 1 file (no checksums, left in WAL mode as that format's
 * writers left it) is read as it is, and upgraded by the first writer:
 * the same sites, now with checksums that check. */
static void test_format1_upgrade(void)
{
    winnow_sitedb *w = open_db("old.db", 1);
    if (!w) {
        CHECK(w != NULL);
        return;
    }
    winnow_site *s = load(w, "o.example", 0);
    learn_range(s, 'A', 0, 10);
    CHECK_EQ(winnow_sitedb_save(w, &s, 1), WINNOW_OK);
    listing want = list_site(s, 0.0);
    winnow_site_free(s);
    winnow_sitedb_close(w);
    CHECK_EQ(sql_on("old.db", "DROP TABLE sums; DELETE FROM meta WHERE key = 'sites'; PRAGMA user_version = 1;"
                              "PRAGMA journal_mode = WAL"),
             SQLITE_OK);

    winnow_sitedb *r = open_db("old.db", 0);
    winnow_sitedb_report rep = { sizeof rep };
    CHECK(r != NULL);
    CHECK_EQ(r ? winnow_sitedb_check(r, NULL, NULL, &rep) : WINNOW_E_ARG, WINNOW_OK);
    CHECK_EQ(rep.format, 1);
    s = r ? load(r, "o.example", 0) : NULL;
    if (s) {
        listing got = list_site(s, 0.0);
        check_same_listing(&got, &want, "format 1, read");
        free_listing(&got);
        winnow_site_free(s);
    }
    winnow_sitedb_close(r);
    CHECK_EQ(side_files("old.db"), 0);

    w = open_db("old.db", 1);
    CHECK(w != NULL);
    winnow_sitedb_close(w);
    r = open_db("old.db", 0);
    CHECK_EQ(r ? winnow_sitedb_check(r, NULL, NULL, &rep) : WINNOW_E_ARG, WINNOW_OK);
    CHECK_EQ(rep.format, 2);
    CHECK_EQ(rep.sites, 1);
    s = r ? load(r, "o.example", 0) : NULL;
    if (s) {
        listing got = list_site(s, 0.0);
        check_same_listing(&got, &want, "format 1, upgraded");
        free_listing(&got);
        winnow_site_free(s);
    }
    winnow_sitedb_close(r);
    free_listing(&want);
}

/* Closing a writer checkpoints and leaves one file, in rollback mode (so
 * that it can be read from a read-only folder); readers leave nothing. */
static void test_no_side_files(void)
{
    winnow_sitedb *w = open_db("side.db", 1);
    if (!w) {
        CHECK(w != NULL);
        return;
    }
    winnow_site *s = load(w, "s.example", 0);
    learn_range(s, 'A', 0, 6);
    CHECK_EQ(winnow_sitedb_save(w, &s, 1), WINNOW_OK);
    CHECK(side_files("side.db") > 0); /* WAL while the writer is open */
    winnow_site_free(s);
    winnow_sitedb_close(w);
    CHECK_EQ(side_files("side.db"), 0);
    char path[512];
    path_of(path, sizeof path, "side.db");
    unsigned char h[20] = { 0 };
    FILE *f = fopen(path, "rb");
    CHECK(f && fread(h, 1, sizeof h, f) == sizeof h);
    if (f) fclose(f);
    CHECK(h[18] == 1 && h[19] == 1); /* rollback journal mode at rest */
    winnow_sitedb *r = open_db("side.db", 0);
    s = r ? load(r, "s.example", 0) : NULL;
    CHECK(s != NULL);
    winnow_site_free(s);
    summary_ctx sc = { 0 };
    CHECK_EQ(r ? winnow_sitedb_list(r, add_summary, &sc) : WINNOW_E_ARG, WINNOW_OK);
    winnow_sitedb_close(r);
    CHECK_EQ(side_files("side.db"), 0);
    /* a reader open while a writer closes: the last to close cleans up */
    w = open_db("side.db", 1);
    r = open_db("side.db", 0);
    s = r ? load(r, "s.example", 0) : NULL;
    winnow_site_free(s);
    winnow_sitedb_close(w);
    winnow_sitedb_close(r);
    CHECK_EQ(side_files("side.db"), 0);
}

static void remove_dir(void)
{
    static const char *const names[] = { "round.db", "incremental.db", "unchanged.db",  "missing.db",
                                         "empty.db", "args.db",        "concurrent.db", "merge.db",
                                         "sound.db", "changed.db",     "old.db",        "side.db" };
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
        for (size_t j = 0; j < 4; j++) {
            snprintf(path, sizeof path, "%s/%s%s", dir, names[i], suffix[j]);
            unlink(path);
        }
    }
    rmdir(dir);
}

static void count_problem(void *ctx, const char *what)
{
    CHECK(what && *what);
    ++*(size_t *)ctx;
}

/* A file whose integrity check reports a damaged page and then fails
 * reading on (found by fuzz_sitedb): damaged, with the problem listed and
 * counted, never "damaged: 0 problems". */
static void test_check_corrupt_page(void)
{
    char src[1024], path[512];
    const char *me = __FILE__, *cut = strstr(me, "tests/site/test_site_store.c");
    snprintf(src, sizeof src, "%.*stests/data/sitedb/corrupt-page.db", cut ? (int)(cut - me) : 0, me);
    size_t len = 0;
    char *bytes = slurp_path(src, &len);
    CHECK(bytes != NULL);
    if (!bytes) return;
    path_of(path, sizeof path, "corrupt-page.db");
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bytes, 1, len, f);
        fclose(f);
    }
    free(bytes);
    winnow_sitedb *db = NULL;
    char err[512];
    CHECK_EQ(winnow_sitedb_open(path, WINNOW_SITEDB_READ, &db, err, sizeof err), WINNOW_OK);
    if (!db) return;
    size_t problems = 0;
    winnow_sitedb_report rep = { sizeof rep };
    CHECK_EQ(winnow_sitedb_check(db, count_problem, &problems, &rep), WINNOW_E_DB_DAMAGED);
    CHECK(problems >= 1);
    CHECK_EQ(rep.problems, problems);
    CHECK_HAS(winnow_sitedb_error(db), "damaged");
    CHECK_LACKS(winnow_sitedb_error(db), " 0 problems");
    winnow_sitedb_close(db);
}

/* Map-reduce: two partials merged give the model one learn gives, exactly;
 * a partial's models cannot judge pages nor be saved; bad arguments and a
 * missing part are refused with the database unchanged. */
static void partial_range(winnow_partial *p, const char *site, char t, unsigned from, unsigned to)
{
    for (unsigned k = from; k < to; k++) {
        size_t len;
        char *html = site_page(t, k, &len);
        winnow_input in = { sizeof in, html, len, NULL, NULL };
        int counted = -1;
        CHECK_EQ(winnow_partial_learn(engine, p, site, &in, &counted), WINNOW_OK);
        CHECK_EQ(counted, 1);
        free(html);
    }
}

static void test_partial_merge(void)
{
    char url_site[64];
    CHECK_EQ(winnow_url_site("https://user:pw@WWW.Example.ORG:8080/a?b#c", url_site, sizeof url_site), 11);
    CHECK_STR(url_site, "example.org");
    CHECK_EQ(winnow_url_site("/relative/path", url_site, sizeof url_site), 0);
    CHECK_EQ(winnow_url_site(NULL, url_site, sizeof url_site), 0);
    CHECK_EQ(winnow_url_site("http://abcdef.org/", url_site, 4), 3);
    CHECK_STR(url_site, "abc");

    char p1[512], p2[512], missing[512];
    path_of(p1, sizeof p1, "one.wpart");
    path_of(p2, sizeof p2, "two.wpart");
    path_of(missing, sizeof missing, "missing.wpart");
    winnow_partial *a = NULL, *b = NULL;
    CHECK_EQ(winnow_partial_new(15, &a), WINNOW_OK);
    CHECK_EQ(winnow_partial_new(15, &b), WINNOW_OK);
    if (!a || !b) return;
    partial_range(a, "pm.example", 'A', 0, 20);
    partial_range(b, "pm.example", 'A', 20, 30);
    partial_range(b, "pm.example", 'B', 0, 10);
    /* a page without URL and without site name has no site */
    winnow_input bare = { sizeof bare, "<p>x</p>", 8, NULL, NULL };
    CHECK_EQ(winnow_partial_learn(engine, a, NULL, &bare, NULL), WINNOW_E_ARG);
    CHECK(strstr(winnow_partial_error(a), "site") != NULL);
    /* ... with a URL: its host */
    size_t len;
    char *html = site_page('A', 99, &len);
    winnow_input in = { sizeof in, html, len, NULL, "http://www.Other.example/x" };
    CHECK_EQ(winnow_partial_learn(engine, a, NULL, &in, NULL), WINNOW_OK);
    CHECK_EQ(winnow_partial_site_count(a), 2);
    CHECK_EQ(winnow_partial_page_count(a), 21);

    /* a partial's model records only */
    winnow_site *ps = NULL;
    CHECK_EQ(winnow_partial_site(a, "pm.example", &ps), WINNOW_OK);
    winnow_doc *d = NULL;
    CHECK_EQ(winnow_extract_site(engine, &in, ps, NULL, &d), WINNOW_E_ARG);
    CHECK(d == NULL);
    free(html);

    CHECK_EQ(winnow_partial_write(a, p1), WINNOW_OK);
    CHECK_EQ(winnow_partial_write(b, p2), WINNOW_OK);
    winnow_partial_info info = { sizeof info };
    char err[1024];
    CHECK_EQ(winnow_partial_check(p1, &info, err, sizeof err), WINNOW_OK);
    CHECK_EQ(info.format, 1);
    CHECK_EQ(info.sites, 2);
    CHECK_EQ(info.pages, 21);
    CHECK(info.keys > 21);
    CHECK_EQ(info.ce_pages, 21);
    CHECK_EQ(winnow_partial_check(missing, NULL, err, sizeof err), WINNOW_E_IO);
    CHECK(strstr(err, "missing.wpart") != NULL);

    winnow_sitedb *db = open_db("partial.db", 1);
    if (!db) {
        CHECK(db != NULL);
        winnow_partial_free(a);
        winnow_partial_free(b);
        return;
    }
    CHECK_EQ(winnow_sitedb_save(db, &ps, 1), WINNOW_E_ARG);
    winnow_partial_free(a);
    winnow_partial_free(b);

    /* bad arguments and a missing part: nothing written */
    const char *parts[] = { p1, p2 }, *bad_parts[] = { p1, missing };
    winnow_merge_options mo = { 3 }; /* a struct_size no header has */
    CHECK_EQ(winnow_sitedb_merge(db, parts, 2, &mo, NULL), WINNOW_E_ARG);
    winnow_merge_report rep = { sizeof rep };
    CHECK_EQ(winnow_sitedb_merge(db, bad_parts, 2, NULL, &rep), WINNOW_E_IO);
    CHECK(strstr(winnow_sitedb_error(db), "missing.wpart") != NULL);
    summary_ctx none = { 0 };
    CHECK_EQ(winnow_sitedb_list(db, add_summary, &none), WINNOW_OK);
    CHECK_EQ(none.n, 0);

    CHECK_EQ(winnow_merge_options_default(&mo, sizeof mo), WINNOW_OK);
    CHECK_EQ(mo.commit_every, 10000);
    mo.commit_every = 5; /* a transaction per site */
    CHECK_EQ(winnow_sitedb_merge(db, parts, 2, &mo, &rep), WINNOW_OK);
    CHECK_EQ(rep.parts, 2);
    CHECK_EQ(rep.sites, 2);
    CHECK_EQ(rep.pages, 41);
    CHECK_EQ(rep.counted, 41);
    CHECK_EQ(rep.duplicates, 0);
    /* again: every page a duplicate */
    CHECK_EQ(winnow_sitedb_merge(db, parts, 2, NULL, &rep), WINNOW_OK);
    CHECK_EQ(rep.counted, 0);
    CHECK_EQ(rep.duplicates, 41);

    winnow_site *merged = load(db, "pm.example", 0), *one = NULL;
    winnow_site_new("pm.example", 15, &one);
    learn_range(one, 'A', 0, 30);
    learn_range(one, 'B', 0, 10);
    if (merged && one) {
        CHECK(winnow_site_pages(merged) == winnow_site_pages(one)); /* exact */
        listing l1 = list_site(merged, 0.0), l2 = list_site(one, 0.0);
        check_same_listing(&l1, &l2, "merged partials against one learn");
        free_listing(&l1);
        free_listing(&l2);
        for (unsigned k = 8; k < 12; k++) {
            char *x = extract_text(merged, 'B', k), *y = extract_text(one, 'B', k);
            CHECK_STR(x, y);
            free(x);
            free(y);
        }
    }
    winnow_site_free(merged);
    winnow_site_free(one);
    winnow_sitedb_close(db);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/winnow-site-store.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    winnow_engine_new(NULL, &engine);
    if (!engine) return 1;
    RUN(test_round_trip);
    RUN(test_incremental_equals_one_shot);
    RUN(test_save_unchanged);
    RUN(test_open_errors);
    RUN(test_check_corrupt_page);
    RUN(test_load_during_commit);
    RUN(test_two_writers_merge);
    RUN(test_checksums_find_changes);
    RUN(test_format1_upgrade);
    RUN(test_no_side_files);
    RUN(test_partial_merge);
    winnow_engine_free(engine);
    remove_dir();
    return CHECK_DONE();
}
