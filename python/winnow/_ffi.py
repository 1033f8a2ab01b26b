"""The C side: the cdef of include/winnow.h and the loading of libwinnow.

ABI mode (``ffi.dlopen``): nothing is compiled when the package is installed
or imported, so a checkout needs only ``make`` (which builds
``build/libwinnow.so``) and Debian's python3-cffi. The declarations below are
copied from include/winnow.h (the public header, the only functions
libwinnow.so exports); every structure that crosses the API is declared whole
and is handed to the library with its ``struct_size`` set, so a newer library
reads only the fields this copy knows (the header's versioning rule).

cffi releases the GIL around every call into the library, so extraction in
several Python threads runs in parallel (one engine per thread).

Where the library is looked for, first found wins:

1. ``WINNOW_LIBRARY``: the path of a libwinnow.so (a sanitizer build, a
   staged install, ...); when it cannot be loaded, import fails rather than
   falling back;
2. the library ``make install`` installed with this package: ``make install``
   writes ``winnow/_installed.py`` (into the package it installs under the
   prefix, and into the wheel ``share/winnow/python/winnow-*.whl`` for a
   virtual environment), which records ``LIBDIR``, the prefix's library
   folder; the package loads ``LIBDIR/libwinnow.so.0`` (the soname) from
   there, wherever the prefix is and whatever the loader's path;
3. in a checkout (no ``_installed.py``; ``include/winnow.h`` two folders up):
   its build tree, ``build/libwinnow.so`` (``make``), then
   ``build-check/libwinnow.so`` (``make check``);
4. the loader's search path by the soname ``libwinnow.so.0``
   (``LD_LIBRARY_PATH``, the ldconfig cache: ``make install`` as root into a
   standard prefix, a distribution's package). The unversioned
   ``libwinnow.so`` is not tried: it may be another major version, whose ABI
   this cdef does not describe.
"""
import os

from cffi import FFI

CDEF = r"""
const char *winnow_version(void);
long winnow_version_number(void);

typedef enum winnow_status {
    WINNOW_OK = 0,
    WINNOW_PARTIAL = 1,
    WINNOW_NO_CONTENT = 2,
    WINNOW_NO_MAIN = 3,
    WINNOW_END = 4,
    WINNOW_THIN_MAIN = 5,
    WINNOW_E_EMPTY = 10,
    WINNOW_E_BINARY = 11,
    WINNOW_E_TOO_LARGE = 12,
    WINNOW_E_NOMEM = 13,
    WINNOW_E_PARSE = 14,
    WINNOW_E_IO = 15,
    WINNOW_E_ARG = 16,
    WINNOW_E_DB_DAMAGED = 17,
    WINNOW_E_DB_READONLY = 18,
    WINNOW_E_DB_FORMAT = 19,
    WINNOW_E_DB_BUSY = 20,
    WINNOW_E_FORMAT = 21,
    WINNOW_E_DB = 22
} winnow_status;

const char *winnow_status_name(winnow_status s);
const char *winnow_status_message(winnow_status s);

typedef struct winnow_options {
    size_t struct_size;
    size_t max_input_bytes;
    unsigned max_depth;
    int include_title;
    int classifier;
    int smooth;
    unsigned node_bytes;
    unsigned node_floor;
    int page_type;
    int favor;
} winnow_options;

winnow_status winnow_options_default(winnow_options *o, size_t struct_size);

typedef struct winnow_engine winnow_engine;
typedef struct winnow_doc winnow_doc;

winnow_status winnow_engine_new(const winnow_options *opt, winnow_engine **out);
void winnow_engine_free(winnow_engine *e);
const char *winnow_engine_error(const winnow_engine *e);
winnow_status winnow_engine_load_model(winnow_engine *e, const char *path);
int winnow_engine_has_model(const winnow_engine *e);

typedef struct winnow_source {
    size_t struct_size;
    const char *file;
    long long record;
    const char *record_id;
} winnow_source;

typedef struct winnow_input {
    size_t struct_size;
    const void *data;
    size_t len;
    const char *charset;
    const char *url;
    const winnow_source *source;
} winnow_input;

winnow_status winnow_extract(winnow_engine *e, const winnow_input *in, winnow_doc **out);
void winnow_doc_free(winnow_doc *d);
const char *winnow_doc_warning(const winnow_doc *d);
const char *winnow_doc_source(const winnow_doc *d);
int winnow_doc_page_type(const winnow_doc *d, double *confidence);
double winnow_doc_confidence(const winnow_doc *d);
const char *winnow_page_type_name(int t);
int winnow_page_type_parse(const char *name);
int winnow_favor_parse(const char *name, int *out);
const char *winnow_favor_name(int f);

typedef struct winnow_rule {
    size_t struct_size;
    const char *name, *stage, *why;
    double default_value, off_value;
    double min_value, max_value;
} winnow_rule;
int winnow_rule_count(void);
winnow_status winnow_rule_info(int i, winnow_rule *out);
winnow_status winnow_engine_set_rule(winnow_engine *e, const char *name, double value);

typedef enum winnow_format {
    WINNOW_FORMAT_TEXT = 0,
    WINNOW_FORMAT_MARKDOWN = 1,
    WINNOW_FORMAT_JSON = 2,
    WINNOW_FORMAT_HTML = 3,
    WINNOW_FORMAT_BLOCKS = 4,
    WINNOW_FORMAT_SEGMENTS = 5,
    WINNOW_FORMAT_FULLTEXT = 6,
    WINNOW_FORMAT_JSONL = 7
} winnow_format;

winnow_status winnow_format_parse(const char *name, winnow_format *out);

typedef int (*winnow_write_fn)(void *ctx, const char *data, size_t len);
winnow_status winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx);
winnow_status winnow_render_alloc(const winnow_doc *d, winnow_format f, char **out, size_t *len);

winnow_status winnow_body_parse(const char *list, unsigned *out);
typedef struct winnow_json_options {
    size_t struct_size;
    unsigned body;
    unsigned reserved;
} winnow_json_options;
winnow_status winnow_json_options_default(winnow_json_options *o, size_t struct_size);
winnow_status winnow_render_json(const winnow_doc *d, const winnow_json_options *opt,
                                 winnow_write_fn write, void *ctx);

typedef struct winnow_jsonl_options {
    size_t struct_size;
    const char *id;
    const char *site;
    int blocks;
    int comments;
    unsigned body;
    unsigned reserved;
} winnow_jsonl_options;

winnow_status winnow_jsonl_options_default(winnow_jsonl_options *o, size_t struct_size);
winnow_status winnow_render_jsonl(const winnow_doc *d, const winnow_jsonl_options *opt,
                                  winnow_write_fn write, void *ctx);
winnow_status winnow_render_jsonl_failure(const winnow_input *in, winnow_status failure,
                                          const char *error, const winnow_jsonl_options *opt,
                                          winnow_write_fn write, void *ctx);

typedef enum winnow_meta_field {
    WINNOW_META_TITLE = 0,
    WINNOW_META_AUTHOR = 1,
    WINNOW_META_DATE = 2,
    WINNOW_META_URL = 3,
    WINNOW_META_SITE_NAME = 4,
    WINNOW_META_DESCRIPTION = 5,
    WINNOW_META_LANGUAGE = 6,
    WINNOW_META_CHARSET = 7,
    WINNOW_META_COUNT = 8
} winnow_meta_field;

const char *winnow_doc_meta(const winnow_doc *d, winnow_meta_field f);
const char *winnow_meta_name(winnow_meta_field f);

typedef struct winnow_block {
    size_t struct_size;
    const char *tag;
    const char *path;
    size_t src_begin, src_len;
    unsigned line;
    unsigned depth, sibling_index;
    long parent;
    unsigned chars, words, distinct_words, punct, link_chars, links, images;
    uint64_t fingerprint;
    double templateness;
    int is_content;
} winnow_block;

size_t winnow_doc_block_count(const winnow_doc *d);
winnow_status winnow_doc_block(const winnow_doc *d, size_t i, winnow_block *b);

typedef struct winnow_comment {
    size_t struct_size;
    const char *author, *date, *text;
} winnow_comment;

size_t winnow_doc_comment_count(const winnow_doc *d);
winnow_status winnow_doc_comment(const winnow_doc *d, size_t i, winnow_comment *c);
size_t winnow_doc_post_count(const winnow_doc *d);
winnow_status winnow_doc_post(const winnow_doc *d, size_t i, winnow_comment *p);

typedef struct winnow_reader winnow_reader;

typedef struct winnow_record {
    size_t struct_size;
    const char *url;
    const void *data;
    size_t len;
    const char *charset;
    const char *source;
    const char *id;
    const char *file;
    long long number;
    const char *record_id;
    const char *error;
} winnow_record;

typedef enum winnow_input_format {
    WINNOW_INPUT_AUTO = 0,
    WINNOW_INPUT_HTML = 1,
    WINNOW_INPUT_WARC = 2,
    WINNOW_INPUT_JSONL = 3
} winnow_input_format;

typedef struct winnow_reader_options {
    size_t struct_size;
    size_t max_record_bytes;
    winnow_input_format format;
    int recursive;
    int damaged;
} winnow_reader_options;

winnow_status winnow_reader_options_default(winnow_reader_options *o, size_t struct_size);
winnow_status winnow_reader_open(const char *path, const winnow_reader_options *opt, winnow_reader **out,
                                 char *err, size_t errcap);
winnow_status winnow_reader_next(winnow_reader *r, winnow_record *rec);
const char *winnow_reader_error(const winnow_reader *r);
const char *winnow_reader_warning(const winnow_reader *r);
size_t winnow_reader_skipped(const winnow_reader *r);
size_t winnow_reader_too_large(const winnow_reader *r);
winnow_input_format winnow_reader_format(const winnow_reader *r);
int winnow_reader_progress(const winnow_reader *r, unsigned long long *done, unsigned long long *total);
void winnow_reader_close(winnow_reader *r);
void *winnow_reader_take(winnow_reader *r, size_t *len);

typedef struct winnow_sitedb winnow_sitedb;
typedef struct winnow_site winnow_site;

typedef enum winnow_sitedb_access {
    WINNOW_SITEDB_READ = 0,
    WINNOW_SITEDB_WRITE = 1
} winnow_sitedb_access;

winnow_status winnow_sitedb_open(const char *path, winnow_sitedb_access access, winnow_sitedb **out,
                                 char *err, size_t errcap);
void winnow_sitedb_close(winnow_sitedb *db);
const char *winnow_sitedb_error(const winnow_sitedb *db);

winnow_status winnow_site_load(winnow_sitedb *db, const char *name, double half_life, winnow_site **out);
winnow_status winnow_site_new(const char *name, double half_life, winnow_site **out);
void winnow_site_free(winnow_site *s);
const char *winnow_site_name(const winnow_site *s);
double winnow_site_pages(const winnow_site *s);
winnow_status winnow_site_learn(winnow_engine *e, winnow_site *s, const winnow_input *in, int *counted);
winnow_status winnow_sitedb_save(winnow_sitedb *db, winnow_site *const *sites, size_t n);

typedef enum winnow_mode {
    WINNOW_MODE_AUTO = 0,
    WINNOW_MODE_SITE = 1,
    WINNOW_MODE_PAGE = 2
} winnow_mode;

typedef enum winnow_method {
    WINNOW_METHOD_AUTO = 0,
    WINNOW_METHOD_BLOCKS = 1,
    WINNOW_METHOD_PATH_BLOCKS = 2,
    WINNOW_METHOD_CHUNKS = 3,
    WINNOW_METHOD_TABLE_CHUNKS = 4,
    WINNOW_METHOD_CE = 5,
    WINNOW_METHOD_FASTCE = 6
} winnow_method;

typedef struct winnow_site_options {
    size_t struct_size;
    winnow_mode mode;
    winnow_method method;
    int exclude_self;
    unsigned min_pages;
} winnow_site_options;

winnow_status winnow_site_options_default(winnow_site_options *o, size_t struct_size);
winnow_status winnow_extract_site(winnow_engine *e, const winnow_input *in, const winnow_site *site,
                                  const winnow_site_options *opt, winnow_doc **out);

typedef struct winnow_site_summary {
    size_t struct_size;
    const char *name;
    double pages;
    double pages_learned;
    double half_life;
    long long updated;
    long long keys;
} winnow_site_summary;

typedef int (*winnow_site_fn)(void *ctx, const winnow_site_summary *s);
winnow_status winnow_sitedb_list(winnow_sitedb *db, winnow_site_fn fn, void *ctx);

typedef struct winnow_sitedb_report {
    size_t struct_size;
    int format;
    size_t sites, keys, pages, ce_pages, ce_blocks;
    size_t problems;
} winnow_sitedb_report;

typedef void (*winnow_problem_fn)(void *ctx, const char *what);
winnow_status winnow_sitedb_check(winnow_sitedb *db, winnow_problem_fn problem, void *ctx,
                                  winnow_sitedb_report *report);

typedef int (*winnow_template_fn)(void *ctx, const char *kind, double df, const char *sample);
winnow_status winnow_site_templates(const winnow_site *s, double min_share, winnow_template_fn fn, void *ctx);

size_t winnow_url_site(const char *url, char *out, size_t cap);

typedef struct winnow_partial winnow_partial;
winnow_status winnow_partial_new(double half_life, winnow_partial **out);
void winnow_partial_free(winnow_partial *p);
const char *winnow_partial_error(const winnow_partial *p);
winnow_status winnow_partial_site(winnow_partial *p, const char *name, winnow_site **out);
winnow_status winnow_partial_learn(winnow_engine *e, winnow_partial *p, const char *site,
                                   const winnow_input *in, int *counted);
size_t winnow_partial_site_count(const winnow_partial *p);
size_t winnow_partial_page_count(const winnow_partial *p);
winnow_status winnow_partial_write(winnow_partial *p, const char *path);

typedef struct winnow_partial_info {
    size_t struct_size;
    size_t format;
    size_t sites, pages;
    size_t keys;
    size_t ce_pages;
} winnow_partial_info;

winnow_status winnow_partial_check(const char *path, winnow_partial_info *info, char *err, size_t errcap);

typedef struct winnow_merge_options {
    size_t struct_size;
    size_t commit_every;
} winnow_merge_options;

winnow_status winnow_merge_options_default(winnow_merge_options *o, size_t struct_size);

typedef struct winnow_merge_report {
    size_t struct_size;
    size_t parts;
    size_t sites;
    size_t pages;
    size_t counted;
    size_t duplicates;
} winnow_merge_report;

winnow_status winnow_sitedb_merge(winnow_sitedb *db, const char *const *parts, size_t nparts,
                                  const winnow_merge_options *opt, winnow_merge_report *report);
"""

# winnow_render_alloc() hands over malloc'd memory: the C library's free()
# gives it back (the same allocator the library's malloc() used, an
# AddressSanitizer runtime's when one is preloaded).
LIBC_CDEF = "void free(void *p);"

ffi = FFI()
ffi.cdef(CDEF)
ffi.cdef(LIBC_CDEF)

_HERE = os.path.dirname(os.path.abspath(__file__))
# python/winnow/ -> the checkout's top directory
_CHECKOUT = os.path.dirname(os.path.dirname(_HERE))
SONAME = "libwinnow.so.0"

try:  # written by make install (scripts/python_package.py); not in a checkout
    from ._installed import LIBDIR as INSTALLED_LIBDIR
except ImportError:
    INSTALLED_LIBDIR = None


def candidates():
    """The places libwinnow is looked for, in order (see the module's doc)."""
    out = []
    env = os.environ.get("WINNOW_LIBRARY")
    if env:
        out.append(env)
    if INSTALLED_LIBDIR:
        out.append(os.path.join(INSTALLED_LIBDIR, SONAME))
    elif os.path.isfile(os.path.join(_CHECKOUT, "include", "winnow.h")):
        for build in ("build", "build-check"):
            out.append(os.path.join(_CHECKOUT, build, "libwinnow.so"))
    out.append(SONAME)
    return out


def _load():
    env = os.environ.get("WINNOW_LIBRARY")
    tried = []
    for cand in candidates():
        if os.sep in cand and not os.path.exists(cand):
            if cand == env:  # asked for by name: say so rather than fall back
                raise OSError("WINNOW_LIBRARY=%s: no such file" % env)
            tried.append(cand)
            continue
        try:
            return ffi.dlopen(cand), cand
        except OSError as e:
            if cand == env:
                raise OSError("WINNOW_LIBRARY=%s: %s" % (env, e)) from None
            tried.append("%s (%s)" % (cand, e))
    raise OSError(
        "libwinnow not found: run `make` in the winnow checkout (it builds build/libwinnow.so), "
        "`make install` (docs/python.md, Installing), or set WINNOW_LIBRARY to the library's path. "
        + ("" if INSTALLED_LIBDIR or os.path.isfile(os.path.join(_CHECKOUT, "include", "winnow.h")) else
           "(This package records no library, as one pip installed from the checkout's python/ does: for a "
           "library installed under a prefix off the loader's path, install the wheel make install wrote, "
           "PREFIX/share/winnow/python/winnow-*.whl.) ")
        + "Tried: " + "; ".join(tried)
    )


lib, library_path = _load()
libc = ffi.dlopen(None)
