#include "classifier.h"

#include "../util/buf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { NULL, "nb", "logreg", "forest", "boost" };

const char *wn_clf_kind_name(int kind) { return kind >= 1 && kind <= 4 ? kind_names[kind] : "unknown"; }

int wn_clf_kind_parse(const char *s)
{
    for (int k = 1; k <= 4; k++)
        if (!strcmp(s, kind_names[k])) return k;
    if (!strcmp(s, "lr") || !strcmp(s, "maxent")) return WN_CLF_LOGREG;
    if (!strcmp(s, "rf")) return WN_CLF_FOREST;
    if (!strcmp(s, "gbt") || !strcmp(s, "xgboost")) return WN_CLF_BOOST;
    return 0;
}

/* ---- parsing: a cursor over lines and whitespace-separated tokens ---- */

typedef struct cursor {
    const char *p, *end;
    unsigned line;
    char *err;
    size_t errcap;
    int failed;
    int oom; /* it failed for want of memory, not for the text */
} cursor;

static int fail(cursor *c, const char *fmt, ...)
{
    if (c->failed) return -1;
    c->failed = 1;
    int n = snprintf(c->err, c->errcap, "model line %u: ", c->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->errcap) vsnprintf(c->err + n, c->errcap - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_oom(cursor *c)
{
    c->oom = 1;
    return fail(c, "out of memory");
}

/* Next token on the current line into buf; 0 at the end of the line. */
static size_t token(cursor *c, char *buf, size_t cap)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')) c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\n' && *c->p != '\r') {
        if (n + 1 < cap) buf[n++] = *c->p;
        c->p++;
    }
    buf[n] = '\0';
    return n;
}

static void next_line(cursor *c)
{
    while (c->p < c->end && *c->p != '\n') c->p++;
    if (c->p < c->end) c->p++;
    c->line++;
}

static int expect(cursor *c, const char *word)
{
    char t[64];
    token(c, t, sizeof t);
    if (strcmp(t, word)) return fail(c, "expected \"%s\", found \"%s\"", word, t);
    return 0;
}

/* A plain decimal ("-2.2226", "81": no exponent, at most 15 significant
 * digits, at most 22 after the point) into *v, exactly as strtod rounds it:
 * the digits as an integer are exact in a double, and so is 10^k for k <=
 * 22, so their quotient is one correctly rounded operation (Clinger's fast
 * path). 0 when the text is not such a number (strtod then reads it). A
 * model is thousands of them: strtod's general path was most of the time
 * an engine took to start. */
static int plain_decimal(const char *t, size_t n, double *v)
{
    static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    const char *end = t + n;
    int neg = n && *t == '-';
    if (n && (*t == '-' || *t == '+')) t++;
    if (t == end || end[-1] < '0' || end[-1] > '9') return 0; /* "", "-", "1.": strtod's */
    uint64_t m = 0;
    int digits = 0, frac = 0, point = 0;
    for (; t < end; t++) {
        if (*t == '.' && !point) {
            point = 1;
            continue;
        }
        if (*t < '0' || *t > '9') return 0;
        m = m * 10 + (uint64_t)(*t - '0');
        digits += m != 0; /* significant digits: leading zeros do not count */
        frac += point;
        if (digits > 15 || frac > 22) return 0;
    }
    double d = (double)m / pow10[frac];
    *v = neg ? -d : d;
    return 1;
}

int wn_clf_plain_decimal(const char *t, double *v) { return plain_decimal(t, strlen(t), v); }

static int num(cursor *c, double *v)
{
    char t[64], *e;
    *v = 0;
    /* the token in place: most are plain decimals, read without a copy */
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')) c->p++;
    const char *q = c->p;
    while (q < c->end && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r') q++;
    if (q > c->p && plain_decimal(c->p, (size_t)(q - c->p), v)) {
        c->p = q;
        return 0;
    }
    if (!token(c, t, sizeof t)) return fail(c, "a number is missing");
    errno = 0;
    *v = strtod(t, &e);
    if (*e || errno || !isfinite(*v)) return fail(c, "\"%s\" is not a finite number", t);
    return 0;
}

static int unum(cursor *c, uint32_t *v, uint32_t max)
{
    double d;
    *v = 0;
    if (num(c, &d)) return -1;
    if (d < 0 || d > max || d != floor(d)) return fail(c, "%g is out of range (0..%u)", d, max);
    *v = (uint32_t)d;
    return 0;
}

static int floats(cursor *c, const char *name, float *out, uint32_t n)
{
    if (expect(c, name)) return -1;
    for (uint32_t k = 0; k < n; k++) {
        double d;
        if (num(c, &d)) return -1;
        out[k] = (float)d;
    }
    next_line(c);
    return 0;
}

/* Depth of the subtree at node k (0 for a leaf); above `limit` stops
 * early. Children come after their parents, so the recursion ends. */
static uint32_t tree_depth(const wn_tree_node *nodes, int32_t k, uint32_t limit)
{
    if (nodes[k].feature < 0) return 0;
    if (limit == 0) return 1;
    uint32_t a = tree_depth(nodes, nodes[k].yes, limit - 1), b = tree_depth(nodes, nodes[k].no, limit - 1);
    return 1 + (a > b ? a : b);
}

/* Copies the subtree at node k to flat position pos at level `level`. */
static void flatten(const wn_tree_node *nodes, int32_t k, uint32_t pos, uint32_t level, uint32_t depth,
                    uint8_t *feature, float *threshold, float *leaf)
{
    uint32_t splits = (1u << depth) - 1;
    if (level == depth) {
        leaf[pos - splits] = nodes[k].leaf;
        return;
    }
    int is_leaf = nodes[k].feature < 0;
    /* a leaf above the last level: either side ends in the same leaf */
    feature[pos] = is_leaf ? 0 : (uint8_t)nodes[k].feature;
    threshold[pos] = is_leaf ? 0.0f : nodes[k].threshold;
    flatten(nodes, is_leaf ? k : nodes[k].yes, 2 * pos + 1, level + 1, depth, feature, threshold, leaf);
    flatten(nodes, is_leaf ? k : nodes[k].no, 2 * pos + 2, level + 1, depth, feature, threshold, leaf);
}

void wn_clf_bucket_finish(wn_clf_bucket *b)
{
    b->paired = 1;
    for (size_t k = 0; b->tree_start && k < b->tree_start[b->ntrees]; k++)
        if (b->nodes[k].feature >= 0 && b->nodes[k].no != b->nodes[k].yes + 1) b->paired = 0;

    free(b->flat_feature);
    free(b->flat_threshold);
    free(b->flat_leaf);
    b->flat_feature = NULL;
    b->flat_threshold = NULL;
    b->flat_leaf = NULL;
    b->flat_depth = 0;
    if (!b->tree_start || b->ntrees == 0) return;
    uint32_t depth = 0;
    for (uint32_t t = 0; t < b->ntrees && depth <= WN_FLAT_MAX_DEPTH; t++) {
        uint32_t d = tree_depth(b->nodes + b->tree_start[t], 0, WN_FLAT_MAX_DEPTH);
        if (d > depth) depth = d;
    }
    if (depth > WN_FLAT_MAX_DEPTH) return;
    size_t splits = ((size_t)1 << depth) - 1, leaves = (size_t)1 << depth;
    b->flat_feature = malloc(b->ntrees * splits + 1);
    b->flat_threshold = malloc((b->ntrees * splits + 1) * sizeof(float));
    b->flat_leaf = malloc(b->ntrees * leaves * sizeof(float));
    if (!b->flat_feature || !b->flat_threshold || !b->flat_leaf) {
        free(b->flat_feature);
        free(b->flat_threshold);
        free(b->flat_leaf);
        b->flat_feature = NULL;
        b->flat_threshold = NULL;
        b->flat_leaf = NULL;
        return;
    }
    for (uint32_t t = 0; t < b->ntrees; t++)
        flatten(b->nodes + b->tree_start[t], 0, 0, 0, depth, b->flat_feature + t * splits,
                b->flat_threshold + t * splits, b->flat_leaf + t * leaves);
    b->flat_depth = depth;
}

/* v is a whole number in [lo, hi): a value outside int32_t must not reach
 * the conversion (undefined behaviour), so it is checked as a double. */
static int whole_in(double v, double lo, double hi) { return v >= lo && v < hi && v == floor(v); }

static int parse_trees(cursor *c, wn_clf_bucket *b, uint32_t ntrees)
{
    b->ntrees = ntrees;
    b->tree_start = calloc((size_t)ntrees + 1, sizeof(uint32_t));
    if (!b->tree_start) return fail_oom(c);
    size_t cap = 1024, used = 0;
    b->nodes = malloc(cap * sizeof *b->nodes);
    if (!b->nodes) return fail_oom(c);
    for (uint32_t t = 0; t < ntrees; t++) {
        uint32_t nn;
        if (expect(c, "tree") || unum(c, &nn, 1u << 20)) return -1;
        if (nn == 0) return fail(c, "a tree has no nodes");
        next_line(c);
        b->tree_start[t] = (uint32_t)used;
        for (uint32_t k = 0; k < nn; k++) {
            if (used == cap) {
                cap *= 2;
                wn_tree_node *g = realloc(b->nodes, cap * sizeof *g);
                if (!g) return fail_oom(c);
                b->nodes = g;
            }
            double f, thr, yes, no, leaf;
            if (num(c, &f) || num(c, &thr) || num(c, &yes) || num(c, &no) || num(c, &leaf)) return -1;
            if (!whole_in(f, -1, WN_NFEAT)) return fail(c, "feature %g out of range", f);
            /* children come after their parent: evaluation always ends (a
             * leaf's are not used, and written 0) */
            double first = f >= 0 ? (double)k + 1 : 0;
            if (!whole_in(yes, first, nn) || !whole_in(no, first, nn))
                return fail(c, "tree node %u has invalid children", k);
            wn_tree_node *x = &b->nodes[used++];
            x->feature = (int32_t)f;
            x->threshold = (float)thr;
            x->yes = (int32_t)yes;
            x->no = (int32_t)no;
            x->leaf = (float)leaf;
            next_line(c);
        }
    }
    b->tree_start[ntrees] = (uint32_t)used;
    wn_clf_bucket_finish(b);
    return 0;
}

int wn_classifier_parse(const char *text, size_t len, wn_classifier *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    cursor c = { text, text + len, 1, err, errcap, 0 };
    char t[128];
    uint32_t v;
    if (expect(&c, "winnow-model") || unum(&c, &v, 1000)) goto bad;
    if (v != WN_MODEL_FORMAT) {
        fail(&c, "model format %u, this winnow reads format %u", v, WN_MODEL_FORMAT);
        goto bad;
    }
    next_line(&c);
    if (expect(&c, "kind")) goto bad;
    token(&c, t, sizeof t);
    out->kind = wn_clf_kind_parse(t);
    if (!out->kind) {
        fail(&c, "unknown model kind \"%s\"", t);
        goto bad;
    }
    next_line(&c);
    if (expect(&c, "feature_version") || unum(&c, &v, 1000)) goto bad;
    if (v != WN_FEATURE_VERSION) {
        fail(&c, "model uses feature layout %u, this winnow computes layout %u: retrain it", v, WN_FEATURE_VERSION);
        goto bad;
    }
    next_line(&c);
    if (expect(&c, "features") || unum(&c, &v, 10000)) goto bad;
    if (v != WN_NFEAT) {
        fail(&c, "model has %u features, this winnow computes %d: retrain it", v, WN_NFEAT);
        goto bad;
    }
    for (uint32_t k = 0; k < WN_NFEAT; k++) {
        token(&c, t, sizeof t);
        if (strcmp(t, wn_feature_names[k])) {
            fail(&c, "feature %u is \"%s\", expected \"%s\"", k, t, wn_feature_names[k]);
            goto bad;
        }
    }
    next_line(&c);
    if (expect(&c, "digest")) goto bad;
    token(&c, out->digest, sizeof out->digest);
    next_line(&c);
    if (expect(&c, "sites") || unum(&c, &out->sites, UINT32_MAX / 2) || expect(&c, "examples") ||
        unum(&c, &out->examples, UINT32_MAX / 2))
        goto bad;
    next_line(&c);
    if (expect(&c, "settings")) goto bad;
    {
        while (c.p < c.end && *c.p == ' ') c.p++;
        const char *e = c.p;
        while (e < c.end && *e != '\n') e++;
        size_t n = (size_t)(e - c.p) < sizeof out->settings - 1 ? (size_t)(e - c.p) : sizeof out->settings - 1;
        memcpy(out->settings, c.p, n);
        out->settings[n] = '\0';
        c.p = e;
    }
    next_line(&c);
    double prior;
    uint32_t nw;
    if (expect(&c, "nb") || num(&c, &prior) || unum(&c, &nw, 1u << 24)) goto bad;
    next_line(&c);
    out->nb.prior = prior;
    out->nb.word = malloc(((size_t)nw + 1) * sizeof(uint64_t));
    out->nb.weight = malloc(((size_t)nw + 1) * sizeof(float));
    if (!out->nb.word || !out->nb.weight) {
        fail_oom(&c);
        goto bad;
    }
    for (uint32_t k = 0; k < nw; k++) {
        /* a key is 1-16 hex digits (train writes 16) */
        size_t tl = token(&c, t, sizeof t);
        uint64_t h = 0;
        int ok = tl >= 1 && tl <= 16;
        for (size_t i = 0; ok && i < tl; i++) {
            char ch = t[i];
            unsigned dv = ch >= '0' && ch <= '9'   ? (unsigned)(ch - '0')
                          : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                          : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10)
                                                   : 16u;
            ok = dv < 16;
            h = h << 4 | dv;
        }
        if (!ok) {
            fail(&c, "bad word key \"%s\"", t);
            goto bad;
        }
        double w;
        if (num(&c, &w)) goto bad;
        if (k > 0 && h <= out->nb.word[k - 1]) {
            fail(&c, "word keys are not sorted");
            goto bad;
        }
        out->nb.word[k] = h;
        out->nb.weight[k] = (float)w;
        out->nb.count = k + 1;
        next_line(&c);
    }
    if (wn_nb_index(&out->nb) != 0) {
        fail_oom(&c);
        goto bad;
    }
    if (expect(&c, "buckets") || unum(&c, &out->nbuckets, WN_MAX_BUCKETS)) goto bad;
    if (out->nbuckets == 0) {
        fail(&c, "no buckets");
        goto bad;
    }
    /* B - 1 edges between buckets; the last bucket is open-ended */
    for (uint32_t b = 0; b + 1 < out->nbuckets; b++) {
        double e;
        if (num(&c, &e)) goto bad;
        out->edges[b] = (float)e;
    }
    out->edges[out->nbuckets - 1] = INFINITY;
    next_line(&c);
    for (uint32_t b = 0; b < out->nbuckets; b++) {
        wn_clf_bucket *bk = &out->bucket[b];
        uint32_t idx;
        if (expect(&c, "bucket") || unum(&c, &idx, WN_MAX_BUCKETS) || idx != b) {
            fail(&c, "bucket %u expected", b);
            goto bad;
        }
        token(&c, t, sizeof t);
        if (!strcmp(t, "linear")) {
            next_line(&c);
            if (floats(&c, "mean", bk->mean, WN_NFEAT) || floats(&c, "scale", bk->scale, WN_NFEAT) ||
                floats(&c, "w", bk->w, WN_NFEAT) || floats(&c, "bias", &bk->bias, 1))
                goto bad;
        } else if (!strcmp(t, "trees")) {
            uint32_t nt;
            double base;
            if (unum(&c, &nt, 100000) || num(&c, &base)) goto bad;
            bk->base_margin = (float)base;
            next_line(&c);
            if (parse_trees(&c, bk, nt)) goto bad;
        } else if (!strcmp(t, "none")) {
            next_line(&c);
        } else {
            fail(&c, "unknown bucket model \"%s\"", t);
            goto bad;
        }
    }
    if (expect(&c, "end")) goto bad;
    return 0;
bad:
    if (!c.failed) fail(&c, "malformed model");
    wn_classifier_free(out);
    return c.oom ? -2 : -1;
}

winnow_status wn_classifier_load(const char *path, wn_classifier *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "cannot open model %s: %s", path, strerror(errno));
        return WINNOW_E_IO;
    }
    wn_buf b;
    wn_buf_init(&b);
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) wn_buf_put(&b, chunk, got);
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (b.oom) {
        wn_buf_free(&b);
        snprintf(err, errcap, "out of memory while reading model %s", path);
        return WINNOW_E_NOMEM;
    }
    if (rerr) {
        wn_buf_free(&b);
        snprintf(err, errcap, "cannot read model %s: %s", path, strerror(rerr));
        return WINNOW_E_IO;
    }
    char why[256];
    int r = wn_classifier_parse(b.data ? b.data : "", b.len, out, why, sizeof why);
    wn_buf_free(&b);
    if (r != 0) {
        snprintf(err, errcap, "%s: %s", path, why);
        return r == -2 ? WINNOW_E_NOMEM : WINNOW_E_FORMAT;
    }
    return WINNOW_OK;
}

static void write_floats(FILE *f, const char *name, const float *v, uint32_t n)
{
    fputs(name, f);
    for (uint32_t k = 0; k < n; k++) fprintf(f, " %.9g", v[k]);
    fputc('\n', f);
}

int wn_classifier_write(const wn_classifier *c, FILE *f)
{
    fprintf(f, "winnow-model %d\nkind %s\nfeature_version %d\nfeatures %d", WN_MODEL_FORMAT, wn_clf_kind_name(c->kind),
            WN_FEATURE_VERSION, WN_NFEAT);
    for (int k = 0; k < WN_NFEAT; k++) fprintf(f, " %s", wn_feature_names[k]);
    fprintf(f, "\ndigest %s\nsites %u examples %u\nsettings %s\n", c->digest[0] ? c->digest : "-", c->sites,
            c->examples, c->settings);
    fprintf(f, "nb %.9g %u\n", c->nb.prior, c->nb.count);
    for (uint32_t k = 0; k < c->nb.count; k++)
        fprintf(f, "%016llx %.5g\n", (unsigned long long)c->nb.word[k], c->nb.weight[k]);
    fprintf(f, "buckets %u", c->nbuckets);
    for (uint32_t b = 0; b + 1 < c->nbuckets; b++) fprintf(f, " %.9g", c->edges[b]);
    fputc('\n', f);
    for (uint32_t b = 0; b < c->nbuckets; b++) {
        const wn_clf_bucket *bk = &c->bucket[b];
        if (c->kind == WN_CLF_LOGREG) {
            fprintf(f, "bucket %u linear\n", b);
            write_floats(f, "mean", bk->mean, WN_NFEAT);
            write_floats(f, "scale", bk->scale, WN_NFEAT);
            write_floats(f, "w", bk->w, WN_NFEAT);
            write_floats(f, "bias", &bk->bias, 1);
        } else if (c->kind == WN_CLF_FOREST || c->kind == WN_CLF_BOOST) {
            fprintf(f, "bucket %u trees %u %.9g\n", b, bk->ntrees, bk->base_margin);
            for (uint32_t t = 0; t < bk->ntrees; t++) {
                uint32_t s = bk->tree_start[t], e = bk->tree_start[t + 1];
                fprintf(f, "tree %u\n", e - s);
                for (uint32_t k = s; k < e; k++) {
                    const wn_tree_node *x = &bk->nodes[k];
                    if (x->feature < 0)
                        fprintf(f, "-1 0 0 0 %.9g\n", x->leaf);
                    else
                        fprintf(f, "%d %.9g %d %d 0\n", x->feature, x->threshold, x->yes, x->no);
                }
            }
        } else {
            fprintf(f, "bucket %u none\n", b);
        }
    }
    fputs("end\n", f);
    return ferror(f) ? -1 : 0;
}

void wn_classifier_free(wn_classifier *c)
{
    wn_nb_free(&c->nb);
    for (uint32_t b = 0; b < WN_MAX_BUCKETS; b++) {
        free(c->bucket[b].tree_start);
        free(c->bucket[b].nodes);
        free(c->bucket[b].flat_feature);
        free(c->bucket[b].flat_threshold);
        free(c->bucket[b].flat_leaf);
    }
    memset(c, 0, sizeof *c);
}

static float sigmoid(double z) { return (float)(1.0 / (1.0 + exp(-z))); }

static uint32_t bucket_of(const wn_classifier *c, const float *f)
{
    uint32_t b = 0;
    while (b + 1 < c->nbuckets && f[WN_F_LOG_CHARS] >= c->edges[b]) b++;
    return b;
}

/* Margins of g consecutive rows of one bucket on the flat layout (g <=
 * FLAT_GROUP, a constant where called). Each row's leaves are summed in
 * tree order, as the node walk sums them. Rows outer, trees inner: the
 * bucket's trees (28 KiB for 50 of depth 6) and the rows stay in cache;
 * the g walks of a tree go side by side, independent work the CPU
 * overlaps, where one walk alone is a chain of dependent loads. */
#define FLAT_GROUP 16
static inline void flat_margin_group(const wn_clf_bucket *bk, uint32_t depth, int g, const float *f, size_t stride,
                                     float *out)
{
    size_t splits = ((size_t)1 << depth) - 1, leaves = (size_t)1 << depth;
    float z[FLAT_GROUP];
    for (int j = 0; j < g; j++) z[j] = bk->base_margin;
    for (uint32_t t = 0; t < bk->ntrees; t++) {
        const uint8_t *feature = bk->flat_feature + t * splits;
        const float *threshold = bk->flat_threshold + t * splits;
        const float *leaf = bk->flat_leaf + t * leaves;
        size_t k[FLAT_GROUP] = { 0 };
        for (uint32_t l = 0; l < depth; l++)
            for (int j = 0; j < g; j++)
                k[j] = 2 * k[j] + 1 + !(f[(size_t)j * stride + feature[k[j]]] < threshold[k[j]]);
        for (int j = 0; j < g; j++) z[j] += leaf[k[j] - splits];
    }
    for (int j = 0; j < g; j++) out[j] = z[j];
}

/* Rows [r, rows) of a one-bucket model in groups of g while they last;
 * returns the first row left. The usual depth, 6, is passed as a constant
 * so that its walks are fully unrolled. */
static inline uint32_t flat_groups(const wn_clf_bucket *bk, int g, const float *x, uint32_t r, uint32_t rows,
                                   size_t stride, float *out)
{
    for (; rows - r >= (uint32_t)g; r += (uint32_t)g) {
        const float *f = x + (size_t)r * stride;
        if (bk->flat_depth == 6)
            flat_margin_group(bk, 6, g, f, stride, out + r);
        else
            flat_margin_group(bk, bk->flat_depth, g, f, stride, out + r);
    }
    return r;
}

void wn_clf_bucket_margins(const wn_clf_bucket *bk, const float *x, uint32_t rows, size_t stride, float *out)
{
    if (bk->flat_leaf) {
        uint32_t r = flat_groups(bk, FLAT_GROUP, x, 0, rows, stride, out);
        r = flat_groups(bk, 4, x, r, rows, stride, out);
        flat_groups(bk, 1, x, r, rows, stride, out);
        return;
    }
    for (uint32_t r = 0; r < rows; r++) {
        double z = bk->base_margin;
        for (uint32_t t = 0; t < bk->ntrees; t++)
            z += wn_tree_eval(bk->nodes + bk->tree_start[t], x + (size_t)r * stride, bk->paired);
        out[r] = (float)z;
    }
}

/* Margins of every row when every bucket has the flat layout; 0 when some
 * bucket lacks it (nothing written then). */
static int predict_flat(const wn_classifier *c, const float *x, uint32_t rows, float *out)
{
    for (uint32_t b = 0; b < c->nbuckets; b++)
        if (!c->bucket[b].flat_leaf) return 0;
    if (c->nbuckets == 1) {
        uint32_t r = flat_groups(&c->bucket[0], FLAT_GROUP, x, 0, rows, WN_NFEAT, out);
        r = flat_groups(&c->bucket[0], 4, x, r, rows, WN_NFEAT, out);
        flat_groups(&c->bucket[0], 1, x, r, rows, WN_NFEAT, out);
        return 1;
    }
    for (uint32_t r = 0; r < rows; r++) {
        const float *f = x + (size_t)r * WN_NFEAT;
        const wn_clf_bucket *bk = &c->bucket[bucket_of(c, f)];
        flat_margin_group(bk, bk->flat_depth, 1, f, WN_NFEAT, out + r);
    }
    return 1;
}

void wn_classifier_predict(const wn_classifier *c, const float *x, uint32_t rows, float *out)
{
    if (c->kind == WN_CLF_FOREST || c->kind == WN_CLF_BOOST) {
        if (predict_flat(c, x, rows, out)) {
            for (uint32_t r = 0; r < rows; r++) out[r] = sigmoid(out[r]);
            return;
        }
        /* the node walk (trees too deep for the flat layout): trees outer,
         * rows inner, one tree stays in cache while every row walks it */
        for (uint32_t r = 0; r < rows; r++) out[r] = c->bucket[bucket_of(c, x + (size_t)r * WN_NFEAT)].base_margin;
        for (uint32_t b = 0; b < c->nbuckets; b++) {
            const wn_clf_bucket *bk = &c->bucket[b];
            for (uint32_t t = 0; t < bk->ntrees; t++) {
                const wn_tree_node *nodes = bk->nodes + bk->tree_start[t];
                for (uint32_t r = 0; r < rows; r++) {
                    const float *f = x + (size_t)r * WN_NFEAT;
                    if (c->nbuckets > 1 && bucket_of(c, f) != b) continue;
                    out[r] += wn_tree_eval(nodes, f, bk->paired);
                }
            }
        }
        for (uint32_t r = 0; r < rows; r++) out[r] = sigmoid(out[r]);
        return;
    }
    for (uint32_t r = 0; r < rows; r++) {
        const float *f = x + (size_t)r * WN_NFEAT;
        const wn_clf_bucket *bk = &c->bucket[bucket_of(c, f)];
        double z = 0;
        if (c->kind == WN_CLF_NB) {
            z = f[WN_F_NB_SUM];
        } else {
            z = bk->bias;
            for (int k = 0; k < WN_NFEAT; k++) z += (double)bk->w[k] * ((f[k] - bk->mean[k]) * bk->scale[k]);
        }
        out[r] = sigmoid(z);
    }
}
