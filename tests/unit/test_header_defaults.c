/* The defaults include/winnow.h documents are the defaults the code sets.
 *
 * Every field of an option structure carries its default in its comment,
 * as "default VALUE" (VALUE: a number, a number of KiB or MiB, NULL, or an
 * enum constant). This test reads the header's text, finds each option
 * structure and each field's comment, and compares the value written there
 * with what the structure's _default() function fills in. It fails when
 * either side changes alone, when a field has no documented default, and
 * when a field is added that this test does not check.
 *
 *   test_header_defaults SOURCE_DIR
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "winnow.h"

static const char *header;
static winnow_options opt;
static winnow_site_options site;
static winnow_jsonl_options jsonl;
static winnow_json_options json;
static winnow_reader_options reader;
static winnow_merge_options merge;

/* the values the code gives, field by field */
typedef struct field_value {
    const char *structure, *field;
    long long value;
} field_value;

#define V(s, var, f)                                                                                                   \
    {                                                                                                                  \
#s, #f, (long long)(intptr_t)(var).f                                                                           \
    }
static field_value *values(size_t *n)
{
    static field_value v[32];
    field_value all[] = {
        V(winnow_options, opt, max_input_bytes),
        V(winnow_options, opt, max_depth),
        V(winnow_options, opt, include_title),
        V(winnow_options, opt, classifier),
        V(winnow_options, opt, smooth),
        V(winnow_options, opt, node_bytes),
        V(winnow_options, opt, node_floor),
        V(winnow_options, opt, page_type),
        V(winnow_options, opt, favor),
        V(winnow_site_options, site, mode),
        V(winnow_site_options, site, method),
        V(winnow_site_options, site, exclude_self),
        V(winnow_site_options, site, min_pages),
        V(winnow_jsonl_options, jsonl, id),
        V(winnow_jsonl_options, jsonl, site),
        V(winnow_jsonl_options, jsonl, blocks),
        V(winnow_jsonl_options, jsonl, comments),
        V(winnow_jsonl_options, jsonl, body),
        V(winnow_jsonl_options, jsonl, reserved),
        V(winnow_json_options, json, body),
        V(winnow_json_options, json, reserved),
        V(winnow_reader_options, reader, max_record_bytes),
        V(winnow_reader_options, reader, format),
        V(winnow_reader_options, reader, recursive),
        V(winnow_reader_options, reader, damaged),
        V(winnow_merge_options, merge, commit_every),
    };
    *n = sizeof all / sizeof all[0];
    memcpy(v, all, sizeof all);
    return v;
}

/* enum constants a comment may name */
static const struct {
    const char *name;
    long long value;
} constants[] = {
    { "WINNOW_MODE_AUTO", WINNOW_MODE_AUTO },
    { "WINNOW_MODE_SITE", WINNOW_MODE_SITE },
    { "WINNOW_MODE_PAGE", WINNOW_MODE_PAGE },
    { "WINNOW_PAGE_UNKNOWN", WINNOW_PAGE_UNKNOWN },
    { "WINNOW_FAVOR_BALANCED", WINNOW_FAVOR_BALANCED },
    { "WINNOW_METHOD_AUTO", WINNOW_METHOD_AUTO },
    { "WINNOW_METHOD_BLOCKS", WINNOW_METHOD_BLOCKS },
    { "WINNOW_METHOD_PATH_BLOCKS", WINNOW_METHOD_PATH_BLOCKS },
    { "WINNOW_METHOD_CHUNKS", WINNOW_METHOD_CHUNKS },
    { "WINNOW_METHOD_TABLE_CHUNKS", WINNOW_METHOD_TABLE_CHUNKS },
    { "WINNOW_METHOD_CE", WINNOW_METHOD_CE },
    { "WINNOW_METHOD_FASTCE", WINNOW_METHOD_FASTCE },
    { "WINNOW_INPUT_AUTO", WINNOW_INPUT_AUTO },
    { "WINNOW_INPUT_HTML", WINNOW_INPUT_HTML },
    { "WINNOW_INPUT_WARC", WINNOW_INPUT_WARC },
    { "WINNOW_INPUT_JSONL", WINNOW_INPUT_JSONL },
    { "NULL", 0 },
};

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

/* One field of a structure's body: its name and the comment that follows
 * its declaration on the same line (continued up to its end). */
typedef struct field_doc {
    char name[64];
    char comment[1024];
} field_doc;

/* The fields of `typedef struct NAME { ... } NAME;` in the header, in order;
 * -1 when the structure is not there. */
static int header_fields(const char *name, field_doc *out, int max)
{
    char open[128], close[128];
    snprintf(open, sizeof open, "typedef struct %s {", name);
    snprintf(close, sizeof close, "} %s;", name);
    const char *p = strstr(header, open), *end = p ? strstr(p, close) : NULL;
    if (!p || !end) return -1;
    p += strlen(open);
    int n = 0;
    char decl[512];
    size_t dl = 0;
    field_doc *last = NULL; /* the field declared last on the current line */
    while (p < end) {
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e || e > end) return -1;
            if (last) { /* a trailing comment: the declaration's */
                size_t len = (size_t)(e - (p + 2));
                if (len >= sizeof last->comment) len = sizeof last->comment - 1;
                memcpy(last->comment, p + 2, len);
                last->comment[len] = '\0';
            }
            last = NULL;
            p = e + 2;
            continue;
        }
        if (*p == '\n') last = NULL;
        if (*p == ';') {
            decl[dl] = '\0';
            /* the name: the last identifier of the declaration */
            size_t k = dl;
            while (k > 0 && !(isalnum((unsigned char)decl[k - 1]) || decl[k - 1] == '_')) k--;
            size_t e = k;
            while (k > 0 && (isalnum((unsigned char)decl[k - 1]) || decl[k - 1] == '_')) k--;
            if (n < max && e > k && e - k < sizeof out[n].name) {
                memcpy(out[n].name, decl + k, e - k);
                out[n].name[e - k] = '\0';
                out[n].comment[0] = '\0';
                last = &out[n++];
            }
            dl = 0;
        } else if (dl + 1 < sizeof decl) {
            decl[dl++] = *p;
        }
        p++;
    }
    return n;
}

/* The value after "default " in a comment: 0 when found, -1 when there is
 * none, -2 when it is not a value this test reads. */
static int documented_default(const char *comment, long long *value, char *word, size_t cap)
{
    const char *d = comment;
    while ((d = strstr(d, "default")) && !(d[7] == ' ' && (isalnum((unsigned char)d[8]) || d[8] == '_'))) d += 7;
    if (!d) return -1;
    d += 8;
    size_t n = 0;
    while ((isalnum((unsigned char)d[n]) || d[n] == '_') && n + 1 < cap) n++;
    memcpy(word, d, n);
    word[n] = '\0';
    if (isdigit((unsigned char)word[0])) {
        char *rest;
        long long v = strtoll(word, &rest, 10);
        if (*rest) return -2;
        if (strncmp(d + n, " MiB", 4) == 0)
            v <<= 20;
        else if (strncmp(d + n, " KiB", 4) == 0)
            v <<= 10;
        *value = v;
        return 0;
    }
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (strcmp(word, constants[i].name) == 0) {
            *value = constants[i].value;
            return 0;
        }
    return -2;
}

static void check_structure(const char *name)
{
    field_doc fields[32];
    int n = header_fields(name, fields, 32);
    if (n < 0) {
        fprintf(stderr, "winnow.h: no 'typedef struct %s { ... } %s;'\n", name, name);
        CHECK(n >= 0);
        return;
    }
    size_t nv;
    field_value *v = values(&nv);
    for (int i = 0; i < n; i++) {
        if (strcmp(fields[i].name, "struct_size") == 0) continue;
        const field_value *code = NULL;
        for (size_t j = 0; j < nv; j++)
            if (strcmp(v[j].structure, name) == 0 && strcmp(v[j].field, fields[i].name) == 0) code = &v[j];
        if (!code) {
            fprintf(stderr, "%s.%s: a field this test does not check: add it to values()\n", name, fields[i].name);
            CHECK(code != NULL);
            continue;
        }
        long long doc = 0;
        char word[64];
        int r = documented_default(fields[i].comment, &doc, word, sizeof word);
        if (r == -1)
            fprintf(stderr, "%s.%s: its comment in winnow.h says no \"default VALUE\"\n", name, fields[i].name);
        if (r == -2)
            fprintf(stderr, "%s.%s: \"default %s\" in winnow.h is not a value this test reads\n", name, fields[i].name,
                    word);
        CHECK(r == 0);
        if (r == 0 && doc != code->value)
            fprintf(stderr, "%s.%s: winnow.h documents default %s (%lld), the code sets %lld\n", name, fields[i].name,
                    word, doc, code->value);
        if (r == 0) CHECK_EQ(doc, code->value);
    }
    /* and every field the test knows is still in the header */
    for (size_t j = 0; j < nv; j++) {
        if (strcmp(v[j].structure, name) != 0) continue;
        int found = 0;
        for (int i = 0; i < n; i++) found |= strcmp(fields[i].name, v[j].field) == 0;
        if (!found) fprintf(stderr, "%s.%s: not found in winnow.h's declaration\n", name, v[j].field);
        CHECK(found);
    }
}

static void test_options(void) { check_structure("winnow_options"); }
static void test_site_options(void) { check_structure("winnow_site_options"); }
static void test_jsonl_options(void) { check_structure("winnow_jsonl_options"); }
static void test_json_options(void) { check_structure("winnow_json_options"); }
static void test_reader_options(void) { check_structure("winnow_reader_options"); }
static void test_merge_options(void) { check_structure("winnow_merge_options"); }

/* the parser itself, on a structure written here */
static void test_parser(void)
{
    const char *saved = header;
    header = "typedef struct winnow_x {\n    size_t struct_size;\n    int a;  /* first; default 7 */\n"
             "    int b;\n    /* a comment of its own line */\n    unsigned c; /* over\n       two lines: default\n"
             "       4 MiB */\n    int d; /* default WINNOW_MODE_PAGE */\n    int e; /* default 12x */\n} winnow_x;\n";
    field_doc f[8];
    int n = header_fields("winnow_x", f, 8);
    CHECK_EQ(n, 6);
    long long v = 0;
    char w[64];
    if (n == 6) {
        CHECK_STR(f[1].name, "a");
        CHECK(documented_default(f[1].comment, &v, w, sizeof w) == 0 && v == 7);
        CHECK_STR(f[2].name, "b");
        CHECK_EQ(documented_default(f[2].comment, &v, w, sizeof w), -1);
        /* "default" at a line's end, its value on the next: not read (write it on one line) */
        CHECK_STR(f[3].name, "c");
        CHECK_EQ(documented_default(f[3].comment, &v, w, sizeof w), -1);
        CHECK(documented_default(f[4].comment, &v, w, sizeof w) == 0 && v == WINNOW_MODE_PAGE);
        CHECK_EQ(documented_default(f[5].comment, &v, w, sizeof w), -2);
    }
    CHECK(documented_default("pages per run; default 256 MiB", &v, w, sizeof w) == 0 && v == 256LL << 20);
    CHECK_EQ(header_fields("winnow_y", f, 8), -1);
    header = saved;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_header_defaults SOURCE_DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/include/winnow.h", argv[1]);
    char *text = read_file(path);
    header = text;
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    if (winnow_options_default(&opt, sizeof opt) != WINNOW_OK ||
        winnow_site_options_default(&site, sizeof site) != WINNOW_OK ||
        winnow_jsonl_options_default(&jsonl, sizeof jsonl) != WINNOW_OK ||
        winnow_json_options_default(&json, sizeof json) != WINNOW_OK ||
        winnow_reader_options_default(&reader, sizeof reader) != WINNOW_OK ||
        winnow_merge_options_default(&merge, sizeof merge) != WINNOW_OK) {
        fprintf(stderr, "an _default() function failed\n");
        return 1;
    }
    RUN(test_parser);
    RUN(test_options);
    RUN(test_site_options);
    RUN(test_jsonl_options);
    RUN(test_json_options);
    RUN(test_reader_options);
    RUN(test_merge_options);
    free(text);
    return CHECK_DONE();
}
