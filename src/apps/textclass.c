/* Bags of words and multinomial Naive Bayes over them (winnow_keywords.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow_keywords.h"
#include "apps/apps.h"
#include "apps/terms.h"
#include "util/structs.h"

/* ---- bags ---- */

typedef struct bag_term {
    uint64_t hash;
    uint32_t count, str;
} bag_term;

struct winnow_bag {
    bag_term *t;
    size_t n, tokens;
    wn_buf strings;
};

void winnow_bag_free(winnow_bag *b)
{
    if (!b) return;
    free(b->t);
    wn_buf_free(&b->strings);
    free(b);
}

winnow_status winnow_bag_new(const char *text, size_t len, winnow_bag **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    if (!text && len) return WINNOW_E_ARG;
    winnow_bag *b = calloc(1, sizeof *b);
    wn_tokens tk;
    wn_tokens_init(&tk);
    wn_termmap map = { 0 };
    winnow_status st = WINNOW_E_NOMEM;
    if (!b) goto done;
    wn_buf_init(&b->strings);
    if (wn_tokenize(text ? text : "", len, &tk) != 0 || wn_termmap_init(&map, tk.n + 16) != 0) goto done;
    b->t = malloc((tk.n + 1) * sizeof *b->t);
    if (!b->t) goto done;
    for (size_t i = 0; i < tk.n; i++) {
        const char *s = tk.text.data + tk.t[i].off;
        uint64_t h = wn_term_hash(s, tk.t[i].len);
        int added;
        uint32_t *slot = wn_termmap_put(&map, h, &added);
        if (!slot) goto done;
        if (added) {
            size_t off = b->strings.len;
            wn_buf_put(&b->strings, s, tk.t[i].len);
            wn_buf_putc(&b->strings, '\0');
            b->t[b->n] = (bag_term){ h, 0, (uint32_t)off };
            *slot = (uint32_t)b->n++;
        }
        b->t[*slot].count++;
    }
    b->tokens = tk.n;
    if (!b->strings.oom) st = WINNOW_OK;
done:
    wn_tokens_free(&tk);
    wn_termmap_free(&map);
    if (st != WINNOW_OK)
        winnow_bag_free(b);
    else
        *out = b;
    return st;
}

size_t winnow_bag_size(const winnow_bag *b) { return b ? b->n : 0; }
size_t winnow_bag_tokens(const winnow_bag *b) { return b ? b->tokens : 0; }

/* ---- the classifier ---- */

#define TC_OPTIONS_V1 WN_FIELD_END(winnow_textclass_options, alpha)
#define TC_MAX_LABELS 65535

typedef struct tc_label {
    char *name;
    double docs, tokens;
} tc_label;

struct winnow_textclass {
    double alpha;
    tc_label *label;
    size_t nl, lcap;
    wn_termmap map; /* term hash -> term index */
    double *count;  /* count[term * lcap + label] */
    uint32_t *str;  /* each term's string in strings */
    size_t nt, tcap;
    wn_buf strings;
    double docs;
};

static void tc_options_default(winnow_textclass_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->alpha = 0.1;
}

winnow_status winnow_textclass_options_default(winnow_textclass_options *o, size_t struct_size)
{
    winnow_textclass_options d;
    tc_options_default(&d);
    if (!o) return WINNOW_E_ARG;
    memcpy(o, &struct_size, sizeof struct_size);
    return wn_struct_out(o, &d, sizeof d, TC_OPTIONS_V1) == 0 ? WINNOW_OK : WINNOW_E_ARG;
}

void winnow_textclass_free(winnow_textclass *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nl; i++) free(c->label[i].name);
    free(c->label);
    wn_termmap_free(&c->map);
    free(c->count);
    free(c->str);
    wn_buf_free(&c->strings);
    free(c);
}

static winnow_textclass *tc_alloc(double alpha)
{
    winnow_textclass *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->alpha = alpha;
    wn_buf_init(&c->strings);
    c->lcap = 4;
    if (wn_termmap_init(&c->map, 1024) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

winnow_status winnow_textclass_new(const winnow_textclass_options *opt, winnow_textclass **out)
{
    if (!out) return WINNOW_E_ARG;
    *out = NULL;
    winnow_textclass_options o;
    tc_options_default(&o);
    if (opt && wn_struct_in(&o, sizeof o, opt, TC_OPTIONS_V1) != 0) return WINNOW_E_ARG;
    if (!(o.alpha > 0) || !isfinite(o.alpha)) return WINNOW_E_ARG;
    *out = tc_alloc(o.alpha);
    return *out ? WINNOW_OK : WINNOW_E_NOMEM;
}

/* Index of label name, added when new; -1 out of memory or too many. */
static long tc_label_index(winnow_textclass *c, const char *name)
{
    for (size_t i = 0; i < c->nl; i++)
        if (!strcmp(c->label[i].name, name)) return (long)i;
    if (c->nl >= TC_MAX_LABELS) return -1;
    if (c->nl == c->lcap || !c->label) {
        size_t lcap = c->label ? c->lcap * 2 : c->lcap;
        tc_label *l = realloc(c->label, lcap * sizeof *l);
        if (!l) return -1;
        c->label = l;
        if (lcap != c->lcap && c->nt) {
            /* re-lay the counts for the wider rows */
            double *g = calloc(c->tcap * lcap, sizeof *g);
            if (!g) return -1;
            for (size_t t = 0; t < c->nt; t++) memcpy(g + t * lcap, c->count + t * c->lcap, c->nl * sizeof *g);
            free(c->count);
            c->count = g;
        } else if (lcap != c->lcap) {
            free(c->count);
            c->count = NULL;
            c->tcap = 0;
        }
        c->lcap = lcap;
    }
    char *n = strdup(name);
    if (!n) return -1;
    c->label[c->nl] = (tc_label){ n, 0, 0 };
    return (long)c->nl++;
}

/* Index of a term, added when new; UINT32_MAX out of memory. */
static uint32_t tc_term(winnow_textclass *c, uint64_t hash, const char *s)
{
    int added;
    uint32_t *slot = wn_termmap_put(&c->map, hash, &added);
    if (!slot) return UINT32_MAX;
    if (!added) return *slot;
    if (c->nt == c->tcap) {
        size_t tcap = c->tcap ? c->tcap * 2 : 1024;
        double *g = realloc(c->count, tcap * c->lcap * sizeof *g);
        if (!g) return UINT32_MAX;
        memset(g + c->tcap * c->lcap, 0, (tcap - c->tcap) * c->lcap * sizeof *g);
        c->count = g;
        uint32_t *s2 = realloc(c->str, tcap * sizeof *s2);
        if (!s2) return UINT32_MAX;
        c->str = s2;
        c->tcap = tcap;
    }
    size_t off = c->strings.len;
    wn_buf_puts(&c->strings, s);
    wn_buf_putc(&c->strings, '\0');
    if (c->strings.oom) return UINT32_MAX;
    c->str[c->nt] = (uint32_t)off;
    *slot = (uint32_t)c->nt;
    return (uint32_t)c->nt++;
}

winnow_status winnow_textclass_add(winnow_textclass *c, const winnow_bag *b, const char *label)
{
    if (!c || !b || !label || !*label) return WINNOW_E_ARG;
    long l = tc_label_index(c, label);
    if (l < 0) return c->nl >= TC_MAX_LABELS ? WINNOW_E_ARG : WINNOW_E_NOMEM;
    for (size_t i = 0; i < b->n; i++) {
        uint32_t t = tc_term(c, b->t[i].hash, b->strings.data + b->t[i].str);
        if (t == UINT32_MAX) return WINNOW_E_NOMEM;
        c->count[(size_t)t * c->lcap + (size_t)l] += b->t[i].count;
    }
    c->label[l].docs += 1;
    c->label[l].tokens += (double)b->tokens;
    c->docs += 1;
    return WINNOW_OK;
}

size_t winnow_textclass_labels(const winnow_textclass *c) { return c ? c->nl : 0; }

const char *winnow_textclass_label(const winnow_textclass *c, size_t i)
{
    return c && i < c->nl ? c->label[i].name : NULL;
}

winnow_status winnow_textclass_predict(const winnow_textclass *c, const winnow_bag *b, size_t *label, double *prob)
{
    if (!c || !b || c->nl == 0 || c->docs <= 0) return WINNOW_E_ARG;
    double *lp = malloc(c->nl * sizeof *lp);
    if (!lp) return WINNOW_E_NOMEM;
    double v = (double)c->nt;
    for (size_t l = 0; l < c->nl; l++)
        lp[l] = log((c->label[l].docs + c->alpha) / (c->docs + c->alpha * (double)c->nl));
    for (size_t i = 0; i < b->n; i++) {
        uint32_t t = wn_termmap_get(&c->map, b->t[i].hash);
        if (t == UINT32_MAX) continue;
        const double *row = c->count + (size_t)t * c->lcap;
        for (size_t l = 0; l < c->nl; l++)
            lp[l] += b->t[i].count * log((row[l] + c->alpha) / (c->label[l].tokens + c->alpha * v));
    }
    size_t best = 0;
    for (size_t l = 1; l < c->nl; l++)
        if (lp[l] > lp[best]) best = l;
    double z = 0;
    for (size_t l = 0; l < c->nl; l++) z += exp(lp[l] - lp[best]);
    free(lp);
    if (label) *label = best;
    if (prob) *prob = 1.0 / z;
    return WINNOW_OK;
}

winnow_status winnow_textclass_save(const winnow_textclass *c, const char *path, char *err, size_t errcap)
{
    if (!c || !path) {
        wn_apps_err(err, errcap, "no classifier or path given");
        return WINNOW_E_ARG;
    }
    wn_out *o;
    if (wn_out_open(&o, path, err, errcap) != 0) return WINNOW_E_IO;
    wn_buf b;
    wn_buf_init(&b);
    wn_buf_printf(&b, "winnow-nb\t1\nalpha\t%.17g\nlabels\t%zu\n", c->alpha, c->nl);
    for (size_t l = 0; l < c->nl; l++)
        wn_buf_printf(&b, "label\t%s\t%.17g\t%.17g\n", c->label[l].name, c->label[l].docs, c->label[l].tokens);
    wn_buf_printf(&b, "terms\t%zu\n", c->nt);
    for (size_t t = 0; t < c->nt; t++) {
        wn_buf_puts(&b, c->strings.data + c->str[t]);
        for (size_t l = 0; l < c->nl; l++) wn_buf_printf(&b, "\t%.17g", c->count[t * c->lcap + l]);
        wn_buf_putc(&b, '\n');
        if (b.len > 65536) {
            wn_out_write(o, b.data, b.len);
            wn_buf_clear(&b);
        }
    }
    wn_out_write(o, b.data, b.len);
    int oom = b.oom;
    wn_buf_free(&b);
    if (oom) {
        wn_out_close(o, path, 0, NULL, 0);
        wn_apps_err(err, errcap, "out of memory");
        return WINNOW_E_NOMEM;
    }
    return wn_out_close(o, path, 1, err, errcap) == 0 ? WINNOW_OK : WINNOW_E_IO;
}

/* A count field: a finite number >= 0. */
static int count_field(const char *s, char **end, double *v)
{
    *v = strtod(s, end);
    return *end != s && isfinite(*v) && *v >= 0 ? 0 : -1;
}

winnow_status wn_textclass_parse(char *data, size_t len, const char *path, winnow_textclass **out, char *err,
                                 size_t errcap)
{
    *out = NULL;
    size_t pos = 0, lineno = 1;
    winnow_status st = WINNOW_E_FORMAT;
    winnow_textclass *c = NULL;
    char *line, *end;
    unsigned long long v, nl = 0, nt = 0;
    double alpha;
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        wn_apps_err(err, errcap, __VA_ARGS__);                                                                         \
        goto fail;                                                                                                     \
    } while (0)
    if (!wn_apps_line(data, len, &pos, &line) || strncmp(line, "winnow-nb\t", 10) != 0)
        BAD("%s: not a winnow classifier (its first line is not 'winnow-nb<TAB>1')", path);
    if (wn_apps_field(line, "winnow-nb", &v) != 0 || v != 1)
        BAD("%s: classifier of format version '%s': this winnow reads version 1", path, line + 10);
    lineno++;
    if (!wn_apps_line(data, len, &pos, &line) || strncmp(line, "alpha\t", 6) != 0 ||
        count_field(line + 6, &end, &alpha) != 0 || *end || !(alpha > 0))
        BAD("%s: line 2: 'alpha<TAB>A' with A > 0 expected", path);
    lineno++;
    if (!wn_apps_line(data, len, &pos, &line) || wn_apps_field(line, "labels", &nl) != 0 || nl < 1 ||
        nl > TC_MAX_LABELS)
        BAD("%s: line 3: 'labels<TAB>L' with 1 <= L <= %d expected", path, TC_MAX_LABELS);
    if (!(c = tc_alloc(alpha))) {
        st = WINNOW_E_NOMEM;
        BAD("out of memory");
    }
    for (unsigned long long l = 0; l < nl; l++) {
        lineno++;
        if (!wn_apps_line(data, len, &pos, &line) || strncmp(line, "label\t", 6) != 0)
            BAD("%s: line %zu: 'label<TAB>NAME<TAB>DOCS<TAB>TOKENS' expected", path, lineno);
        char *name = line + 6, *tab = strchr(name, '\t');
        double docs, tokens;
        if (!tab || tab == name) BAD("%s: line %zu: a label needs a name", path, lineno);
        *tab = '\0';
        if (count_field(tab + 1, &end, &docs) != 0 || *end != '\t' || count_field(end + 1, &end, &tokens) != 0 || *end)
            BAD("%s: line %zu: DOCS and TOKENS must be numbers >= 0", path, lineno);
        size_t before = c->nl;
        long idx = tc_label_index(c, name);
        if (idx < 0) {
            st = WINNOW_E_NOMEM;
            BAD("out of memory");
        }
        if (c->nl == before) BAD("%s: line %zu: label '%s' given twice", path, lineno, name);
        c->label[idx].docs = docs;
        c->label[idx].tokens = tokens;
        c->docs += docs;
    }
    lineno++;
    if (!wn_apps_line(data, len, &pos, &line) || wn_apps_field(line, "terms", &nt) != 0 || nt > 100000000ull)
        BAD("%s: line %zu: 'terms<TAB>T' expected", path, lineno);
    for (unsigned long long t = 0; t < nt; t++) {
        lineno++;
        if (!wn_apps_line(data, len, &pos, &line))
            BAD("%s: cut short: %llu term lines of the %llu its header announces", path, t, nt);
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) BAD("%s: line %zu: 'TERM<TAB>COUNT...' expected", path, lineno);
        *tab = '\0';
        uint64_t h = wn_term_hash(line, (size_t)(tab - line));
        if (wn_termmap_get(&c->map, h) != UINT32_MAX) BAD("%s: line %zu: term '%s' given twice", path, lineno, line);
        uint32_t ti = tc_term(c, h, line);
        if (ti == UINT32_MAX) {
            st = WINNOW_E_NOMEM;
            BAD("out of memory");
        }
        char *p = tab;
        for (size_t l = 0; l < c->nl; l++) {
            double x;
            if ((l > 0 && *p != '\t') || count_field(p + 1, &end, &x) != 0)
                BAD("%s: line %zu: %zu counts (numbers >= 0) expected, one per label", path, lineno, c->nl);
            c->count[(size_t)ti * c->lcap + l] = x;
            p = end;
        }
        if (*p) BAD("%s: line %zu: more counts than the %zu labels", path, lineno, c->nl);
    }
    if (wn_apps_no_more_lines(data, len, &pos, lineno, path, nt, err, errcap) != 0) goto fail;
#undef BAD
    *out = c;
    return WINNOW_OK;
fail:
    winnow_textclass_free(c);
    return st;
}

winnow_status winnow_textclass_load(const char *path, winnow_textclass **out, char *err, size_t errcap)
{
    if (out) *out = NULL;
    char *data;
    size_t len;
    winnow_status st = wn_apps_load_file(path, out != NULL, &data, &len, err, errcap);
    if (st != WINNOW_OK) return st;
    st = wn_textclass_parse(data, len, path, out, err, errcap);
    free(data);
    return st;
}
