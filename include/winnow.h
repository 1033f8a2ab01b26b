/* winnow: separate the main content of web pages from their templates.
 *
 * The one public header of libwinnow. Data flow of winnow_extract():
 *   bytes -> decoded UTF-8 -> DOM -> per-node statistics and blocks
 *         -> templateness scores -> content labels -> renderers
 *
 * Conventions, the same for every call:
 *
 * Errors. Every call that can fail returns a winnow_status; results come
 * back through out-parameters, which are set to NULL (handles) when the call
 * fails. WINNOW_FAILED(s) tells failures from results; winnow_status_name()
 * and winnow_status_message() name and describe a status, and the object
 * the call was made on has the detail in words a user can act on:
 * winnow_engine_error(), winnow_reader_error(), winnow_sitedb_error(). A
 * call that creates an object from a file (winnow_reader_open,
 * winnow_sitedb_open) has no object to hold the detail when it fails, so it
 * writes it to the caller's buffer err (errcap bytes; NULL when not
 * wanted). Queries that cannot fail (counts, names) return their value.
 *
 * Handles are opaque: winnow_engine, winnow_doc, winnow_reader,
 * winnow_sitedb, winnow_site. Each has one function that frees it, which
 * takes NULL.
 *
 * Structures that cross the API can grow: each starts with
 * `size_t struct_size`, which the caller sets to sizeof the structure as
 * its copy of this header declares it, so that a program built against an
 * older winnow.h keeps working with a newer library (and is told, not
 * misread, by an older one):
 *   - option structures are filled by their _default() function, given the
 *     size: `winnow_options o; winnow_options_default(&o, sizeof o);`
 *   - structures the library fills are declared with their size:
 *     `winnow_block b = {sizeof b}; winnow_doc_block(doc, i, &b);`
 *   - winnow_input and winnow_source are written out by the caller:
 *     `winnow_input in = {sizeof in, bytes, len};`
 * The library reads and writes only the first struct_size bytes. Fields
 * added after a program was built take their defaults on input and are not
 * written on output; a struct_size larger than this library knows is
 * accepted when the bytes it does not know are zero (fields left at their
 * defaults; out-structures get them zeroed) and refused with WINNOW_E_ARG
 * otherwise, as is a struct_size smaller than the first version of the
 * structure. Structures the library hands to a callback carry the library's
 * own struct_size: read a field added later only when struct_size covers it.
 * New fields only ever go at the end, and new enum values and statuses are
 * added without renumbering the ones that exist.
 *
 * Lifetimes. Strings the library returns are never freed by the caller and
 * live as follows: names and messages of statuses, formats, metadata fields
 * and rules, and winnow_version(), for the life of the program; an error or
 * warning of an engine, reader or site database until the next call on that
 * object or its end; a document's strings (warning, source, metadata, block
 * tags and paths, comments) as long as the document; a record's strings and
 * bytes until the next winnow_reader_next() or winnow_reader_close() on its
 * reader; a site summary's and a template's strings during the callback
 * only. Only winnow_render_alloc() hands over memory, which the caller
 * free()s.
 *
 * Documents and engines. A document owns a copy of everything it shows
 * (the page's text, DOM, labels and metadata, in its own memory): it does
 * not point into the input bytes, which may be freed once winnow_extract()
 * returns, and what is done to its engine afterwards (more pages, other
 * rules, another model) does not change it. It borrows one thing: its
 * memory comes from its engine, and winnow_doc_free() gives it back to the
 * engine for the next page. So a document must be freed before its engine,
 * and winnow_doc_free() counts as a call on the engine. Any number of
 * documents of one engine may be alive at once.
 *
 * Threads. An engine holds one parser and reusable buffers: use one engine
 * per thread (or one behind a lock). Engines share nothing, and the library
 * has no global mutable state. A document may be read and rendered on any
 * thread, while its engine extracts other pages on another. Readers, site
 * databases and site models: one thread at a time each.
 */
#ifndef WINNOW_H
#define WINNOW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: only these are exported. */
#if defined(__GNUC__)
#define WINNOW_API __attribute__((visibility("default")))
#else
#define WINNOW_API
#endif

#define WINNOW_VERSION_MAJOR 0
#define WINNOW_VERSION_MINOR 1
#define WINNOW_VERSION_PATCH 0
#define WINNOW_VERSION_STRING "0.1.0"
/* MAJOR * 1000000 + MINOR * 1000 + PATCH: 0.1.0 is 1000, 1.2.3 is 1002003.
 * Compare it with >= to require a version at build time. */
#define WINNOW_VERSION_NUMBER (WINNOW_VERSION_MAJOR * 1000000L + WINNOW_VERSION_MINOR * 1000L + WINNOW_VERSION_PATCH)

/* The version of the library the program runs with ("0.1.0", and as
 * WINNOW_VERSION_NUMBER reckons it), which may be newer than the header it
 * was built with. */
WINNOW_API const char *winnow_version(void);
WINNOW_API long winnow_version_number(void);

typedef enum winnow_status {
    WINNOW_OK = 0,
    WINNOW_PARTIAL = 1,    /* a result, but the input was damaged: invalid bytes replaced,
                               nesting capped; winnow_doc_warning() says what */
    WINNOW_NO_CONTENT = 2, /* the page parsed but holds no visible text (e.g. a frameset) */
    WINNOW_NO_MAIN = 3,    /* the page has visible text but none was judged main content:
                               the result is empty, winnow_doc_warning() says how much text
                               there was */
    WINNOW_END = 4,        /* winnow_reader_next(): no more records (not a failure) */
    WINNOW_THIN_MAIN = 5,  /* the page has much visible text (THIN_PAGE_CHARS, 500 characters)
                               but the main content found is only its headline or a few
                               words (THIN_MAX_WORDS): the result is that little text,
                               winnow_doc_warning() says how little of how much */
    WINNOW_E_EMPTY = 10,   /* zero bytes of input */
    WINNOW_E_BINARY,       /* input is not text (image, archive, compressed data) */
    WINNOW_E_TOO_LARGE,    /* input exceeds winnow_options.max_input_bytes */
    WINNOW_E_NOMEM,
    WINNOW_E_PARSE,       /* the HTML parser failed */
    WINNOW_E_IO,          /* a file could not be opened, read or written, or a write
                               callback failed */
    WINNOW_E_ARG,         /* invalid argument (NULL, out of range, a struct_size this
                               library does not take, a name it does not know) */
    WINNOW_E_DB_DAMAGED,  /* the site database is damaged: SQLite's integrity check or a site's
                               checksum failed; nothing is written into such a file */
    WINNOW_E_DB_READONLY, /* the site database cannot be written (the file or its folder) */
    WINNOW_E_DB_FORMAT,   /* not a winnow site database, or one of a format this winnow does
                               not read */
    WINNOW_E_DB_BUSY,     /* another process kept the site database locked past the timeout */
    WINNOW_E_FORMAT,      /* a file is not of the format asked for: a model file that is
                               not one (or of another version or feature layout), a file
                               read as WARC that is not a WARC file, a partial file that is
                               not one, of another version, or damaged */
    WINNOW_E_DB,          /* the site database failed in a way none of WINNOW_E_DB_* names
                               (an SQLite error); winnow_sitedb_error() says which */
} winnow_status;

#define WINNOW_FAILED(s) ((s) >= WINNOW_E_EMPTY)

WINNOW_API const char *winnow_status_name(winnow_status s);    /* "WINNOW_E_BINARY" */
WINNOW_API const char *winnow_status_message(winnow_status s); /* one sentence */

/* The kind of page (winnow_doc_page_type). New kinds are added at the end. */
typedef enum winnow_page_type {
    WINNOW_PAGE_UNKNOWN = 0,   /* not worked out (no page type model in the library); as an
                                  option: let the model decide */
    WINNOW_PAGE_ARTICLE,       /* a news story, blog post, essay */
    WINNOW_PAGE_FORUM,         /* a discussion thread, questions and answers */
    WINNOW_PAGE_PRODUCT,       /* one product or offer */
    WINNOW_PAGE_LISTING,       /* a list of other pages: category, collection, search, archive */
    WINNOW_PAGE_DOCUMENTATION, /* software documentation, a reference */
    WINNOW_PAGE_SERVICE,       /* a landing page: what a business offers */
    WINNOW_PAGE_OTHER,
    WINNOW_PAGE_TYPE_COUNT
} winnow_page_type;

/* "unknown", "article", "forum", "product", "listing", "documentation",
 * "service", "other"; "" for a value out of range. */
WINNOW_API const char *winnow_page_type_name(winnow_page_type t);
/* The type of a name above (exact, lower case); WINNOW_PAGE_UNKNOWN when none. */
WINNOW_API winnow_page_type winnow_page_type_parse(const char *name);

/* How the selection weighs leaving out template against keeping all of the
 * content (winnow_options.favor). */
typedef enum winnow_favor {
    WINNOW_FAVOR_BALANCED = 0,  /* the rule table's defaults */
    WINNOW_FAVOR_PRECISION = 1, /* less template, at the cost of some content */
    WINNOW_FAVOR_RECALL = 2,    /* all of the content, at the cost of some template */
    WINNOW_FAVOR_COUNT
} winnow_favor;

/* "balanced", "precision", "recall" into *out; WINNOW_E_ARG (and *out
 * untouched) for another name or NULL. */
WINNOW_API winnow_status winnow_favor_parse(const char *name, winnow_favor *out);
/* The name of f ("balanced", ...), "unknown" for a value out of range. */
WINNOW_API const char *winnow_favor_name(winnow_favor f);

typedef struct winnow_options {
    size_t struct_size;     /* sizeof (winnow_options): set by winnow_options_default() */
    size_t max_input_bytes; /* larger inputs fail with WINNOW_E_TOO_LARGE; default 256 MiB */
    unsigned max_depth;     /* element nesting cap (browsers use 512); default 512 */
    int include_title;      /* prepend the page's headline to the text when it sits
                                outside the content block; default 1 */
    int classifier;         /* page mode: score nodes with the built-in node classifier
                                (trained from site-level labels by `winnow train`); default 1 */
    int smooth;             /* smooth classifier scores over the DOM tree (isotonic
                                regression); default 1 */
    /* The node budget, which bounds a page's memory by its size whatever
       its markup: a page gets max(node_floor, its bytes / node_bytes) DOM
       nodes. Past them elements are read as plain text of their parent (a
       block's on a line of its own), and the page is WINNOW_PARTIAL with a
       warning. Real pages stay far inside it (about 80 bytes a node is
       usual; 20 is dense). */
    unsigned node_bytes; /* page bytes per node; 0: no budget; default 96 */
    unsigned node_floor; /* nodes every page gets whatever its size; default 100000 */
    /* The kind of every page, forced (reported with confidence 1), or
       WINNOW_PAGE_UNKNOWN: the built-in page type model decides. The kind
       chooses how the main content is selected (an article's body, a
       thread's posts, a listing's items, ...). */
    int page_type; /* default WINNOW_PAGE_UNKNOWN */
    /* The precision/recall dial: a winnow_favor. Each setting is a preset
       of the rule table (docs/algorithms.md, "The precision/recall dial"),
       applied when the engine is made; winnow_engine_set_rule() changes
       rules after it. */
    int favor; /* default WINNOW_FAVOR_BALANCED */
} winnow_options;

/* Fills *o with the defaults; struct_size is sizeof *o as the caller
 * declares it (WINNOW_E_ARG when too small for this structure). */
WINNOW_API winnow_status winnow_options_default(winnow_options *o, size_t struct_size);

typedef struct winnow_engine winnow_engine;
typedef struct winnow_doc winnow_doc;

/* A new engine in *out. opt may be NULL for the defaults. WINNOW_E_ARG for
 * out NULL or an opt->struct_size this library does not take, WINNOW_E_NOMEM. */
WINNOW_API winnow_status winnow_engine_new(const winnow_options *opt, winnow_engine **out);
WINNOW_API void winnow_engine_free(winnow_engine *e);
/* Detail of the last failed call on this engine, "" if none. */
WINNOW_API const char *winnow_engine_error(const winnow_engine *e);
/* Replaces the engine's node classifier with a model file written by
 * `winnow train` (NULL: no classifier, the heuristic scorer alone).
 * WINNOW_E_IO when the file cannot be opened or read, WINNOW_E_FORMAT when
 * it is not a model file or one of another version or feature layout (the
 * engine keeps its classifier then); winnow_engine_error() says why. */
WINNOW_API winnow_status winnow_engine_load_model(winnow_engine *e, const char *path);
/* 1 when the engine scores nodes with a classifier in page mode. */
WINNOW_API int winnow_engine_has_model(const winnow_engine *e);
/* Replaces the engine's units model, the learned last word on each text
 * unit (models/units.wmodel is built in), with a file written by `winnow
 * train --units` (NULL: none, the rules decide alone). Errors as
 * winnow_engine_load_model's. */
WINNOW_API winnow_status winnow_engine_load_unit_model(winnow_engine *e, const char *path);
/* Replaces the engine's page type model (models/pagetype.wmodel is built
 * in) with a file written by `winnow train --page-types -o` or `--eval
 * --models` (NULL: none, every page's kind unknown and read as an
 * article). Errors as winnow_engine_load_model's. */
WINNOW_API winnow_status winnow_engine_load_page_type_model(winnow_engine *e, const char *path);

/* Where a page came from, for tracing a result back to its input; the JSON
 * output reports it (with the input's url) as "source". */
typedef struct winnow_source {
    size_t struct_size;    /* sizeof (winnow_source) */
    const char *file;      /* the file the page was read from, or NULL */
    long long record;      /* its record in that file (winnow_record.number), -1 for none */
    const char *record_id; /* the record's WARC-Record-ID, or NULL */
} winnow_source;

typedef struct winnow_input {
    size_t struct_size; /* sizeof (winnow_input) */
    const void *data;   /* the page's bytes: read during winnow_extract() only */
    size_t len;
    const char *charset;         /* from HTTP Content-Type, or NULL */
    const char *url;             /* page URL, or NULL */
    const winnow_source *source; /* where the page came from, or NULL (unknown) */
} winnow_input;

/* Runs the whole pipeline on one page. On success (OK, PARTIAL, NO_CONTENT,
 * NO_MAIN) *out is a document to render and free; on failure *out is NULL
 * and winnow_engine_error() has the detail. */
WINNOW_API winnow_status winnow_extract(winnow_engine *e, const winnow_input *in, winnow_doc **out);
WINNOW_API void winnow_doc_free(winnow_doc *d);
/* Why a document is PARTIAL, NO_CONTENT, NO_MAIN or THIN_MAIN, "" otherwise. */
WINNOW_API const char *winnow_doc_warning(const winnow_doc *d);
/* How the main content was chosen: "scorer" (the page scorer's best block),
 * "site-model", or a fallback taken when that keeps (nearly) none of the
 * page's running text: "fallback-landmark" (<article>, <main>,
 * itemprop=articleBody), "fallback-description" (the block holding the
 * paragraph the page's description quotes), "fallback-unhinted" (the best
 * block by text density alone); "listing" when the best block was the
 * summary of one teaser on a listing page (nothing kept, WINNOW_NO_MAIN);
 * "frame" when the only block with running text lay in the page's own
 * <header> or <footer> (a tagline, a bio: nothing kept, WINNOW_NO_MAIN);
 * "none" when nothing was selected. */
WINNOW_API const char *winnow_doc_source(const winnow_doc *d);
/* The kind of page, as the options forced it or the page type model judged
 * it from the page's markup, structured data and URL; *confidence (when not
 * NULL) gets the model's probability of that kind, 1 when forced, 0 when
 * WINNOW_PAGE_UNKNOWN. */
WINNOW_API winnow_page_type winnow_doc_page_type(const winnow_doc *d, double *confidence);
/* The estimated chance, in [0, 1], that the text extracted is the page's
 * main content: that it scores a token F1 of 0.8 or more against a
 * person's choice of it. A logistic regression over what the extraction
 * found (status, how the content was chosen, how much and what kind of
 * text was kept and left out) fitted on labelled corpora
 * (models/confidence.wmodel); -1 in a build without that model or for d
 * NULL. Drop pages below a threshold to trade recall for precision
 * (bench/RESULTS.md shows what each threshold loses). */
WINNOW_API double winnow_doc_confidence(const winnow_doc *d);

/* The rule table: every threshold of the scorer and the selection, named,
 * with its default, the value that turns it off, and its reason. An
 * engine's copy can be changed (experiments, tests that pin a rule). */
typedef struct winnow_rule {
    size_t struct_size; /* sizeof (winnow_rule), set by the caller */
    const char *name, *stage, *why;
    double default_value, off_value;
    double min_value, max_value; /* the values the rule takes (HUGE_VAL: no bound above), and
                                    off_value; winnow_engine_set_rule() refuses others */
} winnow_rule;
WINNOW_API int winnow_rule_count(void);
/* Fills *out with rule i (0 <= i < winnow_rule_count()); WINNOW_E_ARG when
 * out of range. */
WINNOW_API winnow_status winnow_rule_info(int i, winnow_rule *out);
/* Sets a rule of the engine's table: WINNOW_E_ARG, with winnow_engine_error()
 * saying why, for a name that is no rule or a value outside its range
 * (winnow_rule.min_value to max_value, or its off_value). */
WINNOW_API winnow_status winnow_engine_set_rule(winnow_engine *e, const char *name, double value);

typedef enum winnow_format {
    WINNOW_FORMAT_TEXT,     /* main content as lines: paragraphs, headings, items, rows */
    WINNOW_FORMAT_MARKDOWN, /* headings, lists, links, tables, code blocks */
    WINNOW_FORMAT_JSON,     /* metadata, text and scored blocks, one JSON object */
    WINNOW_FORMAT_HTML,     /* the kept subtree as clean HTML */
    WINNOW_FORMAT_BLOCKS,   /* block segmentation, one JSON object per line */
    WINNOW_FORMAT_SEGMENTS, /* nested segments from isotonic smoothing of the node
                                classifier's scores, one JSON object */
    WINNOW_FORMAT_FULLTEXT, /* every visible text of the page as lines, template and
                                all, nothing removed: the baseline that template
                                removal is measured against (dedup, search, ...) */
    WINNOW_FORMAT_JSONL,    /* one JSON object on one line (JSON lines), the same keys for
                                every page: id, source, url, site, status, warning, error,
                                language, metadata, content_source, page_type,
                                page_type_confidence, confidence, text, posts; see
                                winnow_render_jsonl() for the page's name, blocks, comments */
} winnow_format;

/* "text" (or "txt"), "markdown" (or "md"), "json", "html", "blocks",
 * "segments", "fulltext", "jsonl" (or "ndjson") into *out; WINNOW_E_ARG (and *out
 * untouched) when unknown. */
WINNOW_API winnow_status winnow_format_parse(const char *name, winnow_format *out);

/* Output goes through a callback: a non-zero return aborts with WINNOW_E_IO;
 * an allocation that fails while rendering gives WINNOW_E_NOMEM. Either way
 * the callback may already have received part of the output. */
typedef int (*winnow_write_fn)(void *ctx, const char *data, size_t len);
WINNOW_API winnow_status winnow_render(const winnow_doc *d, winnow_format f, winnow_write_fn write, void *ctx);
/* Convenience: the rendering as one malloc'd NUL-terminated string in *out
 * (free() it), its length without the NUL in *len (len may be NULL). *out
 * is NULL on failure. */
WINNOW_API winnow_status winnow_render_alloc(const winnow_doc *d, winnow_format f, char **out, size_t *len);

/* The body of JSON and JSONL: which renderings of the main content they
 * carry, each as a JSON string in a field named after its format, where
 * "text" stands by default (after the metadata, before "posts"), in this
 * order whatever the order asked: "text" (WINNOW_FORMAT_TEXT, the default),
 * "markdown" (WINNOW_FORMAT_MARKDOWN), "html" (WINNOW_FORMAT_HTML),
 * "fulltext" (WINNOW_FORMAT_FULLTEXT). Each field's string is byte for byte
 * what winnow_render() writes in that format. A set of them is an unsigned
 * of WINNOW_BODY(format) bits; 0 is the default, "text" alone. */
#define WINNOW_BODY(f) (1u << (unsigned)(f))
#define WINNOW_BODY_ALL                                                                                                \
    (WINNOW_BODY(WINNOW_FORMAT_TEXT) | WINNOW_BODY(WINNOW_FORMAT_MARKDOWN) | WINNOW_BODY(WINNOW_FORMAT_HTML) |         \
     WINNOW_BODY(WINNOW_FORMAT_FULLTEXT))
/* A comma-separated list of those formats ("markdown", "text,markdown";
 * the names and aliases of winnow_format_parse: "md", "txt") into the set
 * *out; WINNOW_E_ARG (and *out untouched) for an empty list or name, or a
 * name that is no body format ("json", "blocks", ...). Repeating a name is
 * allowed and changes nothing. */
WINNOW_API winnow_status winnow_body_parse(const char *list, unsigned *out);

/* The one JSON object (WINNOW_FORMAT_JSON) with the body asked for. */
typedef struct winnow_json_options {
    size_t struct_size; /* sizeof (winnow_json_options): set by the _default() */
    unsigned body;      /* the body fields: WINNOW_BODY() bits, 0 for "text"; default 0 */
    unsigned reserved;  /* keeps the structure free of padding; default 0 */
} winnow_json_options;

WINNOW_API winnow_status winnow_json_options_default(winnow_json_options *o, size_t struct_size);
/* The page as WINNOW_FORMAT_JSON (opt NULL: the same bytes as winnow_render
 * with WINNOW_FORMAT_JSON), its body as opt->body says. WINNOW_E_ARG for a
 * body bit that is no body format, or a struct_size this library does not
 * take; else as winnow_render. */
WINNOW_API winnow_status winnow_render_json(const winnow_doc *d, const winnow_json_options *opt, winnow_write_fn write,
                                            void *ctx);

/* JSON lines: one line per page, a failed page's too, with the same keys:
 *   {"id": the page's name or null, "source": {"file", "record", "record_id"}
 *    (null when unknown), "url": the page's URL or null, "site": its site,
 *    "status": "WINNOW_OK", ... (winnow_status_name), "warning": why the
 *    page is PARTIAL, NO_CONTENT, NO_MAIN or THIN_MAIN, else null, "error": why it
 *    failed, else null, "language", "metadata": {"title", "author", "date",
 *    "url" (canonical), "site_name", "description", "charset"} ("" when
 *    unknown), "content_source" (winnow_doc_source), "page_type" and
 *    "page_type_confidence" (winnow_doc_page_type), "confidence"
 *    (winnow_doc_confidence; null without the model), "text": the main
 *    content as WINNOW_FORMAT_TEXT writes it (or, in its place, the body
 *    fields that winnow_jsonl_options.body asks for), "posts": [{"author",
 *    "date", "text"}, ...] (a thread's posts, winnow_doc_post; [] for a
 *    page that is no thread), and when asked for
 *    "comments": [{"author", "date", "text"}, ...] and "blocks": [...] (as
 *    in WINNOW_FORMAT_JSON)}
 * A failed page has null for language, metadata, content_source, page_type,
 * page_type_confidence, confidence, text (each body field), posts,
 * comments and blocks. Strings are JSON-escaped (invalid UTF-8 becomes
 * U+FFFD), so the line holds no raw line break; it ends with "\n". */
typedef struct winnow_jsonl_options {
    size_t struct_size; /* sizeof (winnow_jsonl_options): set by the _default() */
    const char *id;     /* "id": the page's name (winnow extract: its output name); NULL: null;
                               default NULL */
    const char *site;   /* "site": NULL for the site of the page's URL (winnow_url_site;
                               null when it has none); default NULL */
    int blocks;         /* add "blocks"; default 0 */
    int comments;       /* add "comments"; default 0 */
    unsigned body;      /* the body fields (WINNOW_BODY() bits, see winnow_body_parse):
                               0 for "text"; default 0 */
    unsigned reserved;  /* keeps the structure free of padding; default 0 */
} winnow_jsonl_options;

WINNOW_API winnow_status winnow_jsonl_options_default(winnow_jsonl_options *o, size_t struct_size);
/* A document's line (opt may be NULL: no id, no blocks, no comments, as
 * winnow_render with WINNOW_FORMAT_JSONL). WINNOW_E_ARG for a body bit
 * that is no body format. */
WINNOW_API winnow_status winnow_render_jsonl(const winnow_doc *d, const winnow_jsonl_options *opt,
                                             winnow_write_fn write, void *ctx);
/* The line of a page that failed with `failure` (a WINNOW_FAILED status)
 * and the message `error` (NULL: the status's message): source and url
 * from `in` (may be NULL: unknown). */
WINNOW_API winnow_status winnow_render_jsonl_failure(const winnow_input *in, winnow_status failure, const char *error,
                                                     const winnow_jsonl_options *opt, winnow_write_fn write, void *ctx);

typedef enum winnow_meta_field {
    WINNOW_META_TITLE,
    WINNOW_META_AUTHOR,
    WINNOW_META_DATE,
    WINNOW_META_URL, /* canonical URL */
    WINNOW_META_SITE_NAME,
    WINNOW_META_DESCRIPTION,
    WINNOW_META_LANGUAGE,
    WINNOW_META_CHARSET, /* encoding the bytes were read as */
    WINNOW_META_COUNT
} winnow_meta_field;

/* Metadata from <title>, <meta>, OpenGraph and JSON-LD; "" when unknown. */
WINNOW_API const char *winnow_doc_meta(const winnow_doc *d, winnow_meta_field f);
WINNOW_API const char *winnow_meta_name(winnow_meta_field f); /* "title", "author", ... */

/* Block candidates in document order (Kolcz & Yih: block tags with at least
 * 40 characters and 3 distinct words), nested blocks included. */
typedef struct winnow_block {
    size_t struct_size; /* sizeof (winnow_block), set by the caller */
    const char *tag;
    const char *path;          /* DOM path, "html.body.div.p" */
    size_t src_begin, src_len; /* byte range in the decoded input */
    unsigned line;             /* 1-based source line */
    unsigned depth, sibling_index;
    long parent; /* index of the enclosing block, -1 at top level */
    unsigned chars, words, distinct_words, punct, link_chars, links, images;
    uint64_t fingerprint; /* of the normalized (case-folded, collapsed) text */
    double templateness;  /* 0 = content, 1 = template */
    int is_content;       /* kept in the main content */
} winnow_block;

WINNOW_API size_t winnow_doc_block_count(const winnow_doc *d);
/* Fills *b with block i; WINNOW_E_ARG when i is out of range. */
WINNOW_API winnow_status winnow_doc_block(const winnow_doc *d, size_t i, winnow_block *b);

/* Reader comments found by their structure (a run of records after the
 * post: who, when, text), in document order; they are not in the main
 * content. Strings live as long as the document; author and date are ""
 * when not found. */
typedef struct winnow_comment {
    size_t struct_size; /* sizeof (winnow_comment), set by the caller */
    const char *author, *date, *text;
} winnow_comment;

WINNOW_API size_t winnow_doc_comment_count(const winnow_doc *d);
/* Fills *c with comment i; WINNOW_E_ARG when i is out of range. */
WINNOW_API winnow_status winnow_doc_comment(const winnow_doc *d, size_t i, winnow_comment *c);

/* A thread's posts (a page whose page type is WINNOW_PAGE_FORUM: a forum
 * topic, a question and its answers): the first post and every reply, in
 * order, found from the page's schema.org microdata (postings, comments,
 * questions, answers) or else its structure (a run of records of one
 * shape, each showing an author and a date). 0 for a page that is no
 * thread. The posts are part of the main content too. Strings live as
 * long as the document; author and date are "" when not found (the date
 * as the page shows it, else its <time datetime>). */
WINNOW_API size_t winnow_doc_post_count(const winnow_doc *d);
/* Fills *p with post i (its author, date, text); WINNOW_E_ARG when i is
 * out of range. */
WINNOW_API winnow_status winnow_doc_post(const winnow_doc *d, size_t i, winnow_comment *p);

/* ------------------------------------------------------------------------
 * Page readers: directories, single files, stdin, WARC and JSONL.
 *
 * A reader hands out one page at a time; memory stays bounded by the
 * largest record (WARC and JSONL files are streamed, gzip undone on the
 * fly, whatever the file's name). Damage is not an error: a damaged WARC
 * record, a malformed JSONL line or an unreadable file in a directory is
 * skipped and reported by winnow_reader_warning(), and a WARC file cut
 * short ends with a warning. Only a read error or exhausted memory stops a
 * reader.
 * ------------------------------------------------------------------------ */

typedef struct winnow_reader winnow_reader;

typedef struct winnow_record {
    size_t struct_size; /* sizeof (winnow_record), set by the caller */
    const char *url;    /* WARC-Target-URI, JSONL "url", or NULL for files without one */
    const void *data;   /* page bytes (WARC: the HTTP payload, headers stripped, chunked
                             transfer and gzip/deflate content encodings undone) */
    size_t len;
    const char *charset;   /* from the HTTP Content-Type header (WARC) or JSONL "charset"; NULL if none */
    const char *source;    /* where it came from: the file path, "file.warc.gz#offset" (the gzip
                             member's offset when the record starts a member, else the offset in
                             the decompressed data) or "file.jsonl:line" */
    const char *id;        /* the page's name: the file stem ("ID" for ID.html and ID.html.gz;
                             "sub/ID" below a directory's subdirectory), or the record number
                             ("00042") */
    const char *file;      /* the file it was read from: the HTML file (a directory's entry too),
                             the WARC or JSONL file, "-" for stdin */
    long long number;      /* its record in that file: WARC records counted from 0 (every record,
                             warcinfo included), JSONL lines from 1; -1 for a whole file */
    const char *record_id; /* WARC-Record-ID as written ("<urn:uuid:...>"); NULL when none */
    const char *error;     /* NULL for a page; with winnow_reader_options.damaged, a damaged
                             record that holds no page (a JSONL line that is not a page
                             record, a WARC record cut short by the end of the file): why (the
                             reason alone: where it is, is in source), with data empty, so that every record of the input is accounted
                             for. Without that option such records are skipped with a warning */
} winnow_record;

/* How a file or stdin is read. */
typedef enum winnow_input_format {
    WINNOW_INPUT_AUTO = 0, /* by the name (.warc[.gz], .jsonl[.gz], .ndjson[.gz], .html, .htm,
                               .html.gz, .htm.gz), else by the first bytes, gzip undone: "WARC/"
                               is a WARC file, '{' (after a BOM and blanks) JSON lines, anything
                               else one page */
    WINNOW_INPUT_HTML,     /* one page (gzip undone) */
    WINNOW_INPUT_WARC,
    WINNOW_INPUT_JSONL,
} winnow_input_format;

typedef struct winnow_reader_options {
    size_t struct_size;         /* sizeof (winnow_reader_options): set by the _default() */
    size_t max_record_bytes;    /* records over this are skipped with a warning (0 counts as
                                    256 MiB); default 256 MiB */
    winnow_input_format format; /* files and stdin; a directory always lists its pages;
                                    default WINNOW_INPUT_AUTO */
    int recursive;              /* directories: the pages of subdirectories too; default 0 */
    int damaged;                /* hand out damaged records (winnow_record.error) instead of
                                    skipping them; default 0 */
} winnow_reader_options;

/* Fills *o with the defaults (256 MiB, AUTO, not recursive). */
WINNOW_API winnow_status winnow_reader_options_default(winnow_reader_options *o, size_t struct_size);

/* Opens PATH into *out: a directory (its *.html, *.htm, *.html.gz and
 * *.htm.gz files, sorted by path in byte order; subdirectories with
 * opt->recursive, symbolic links to directories not followed), a file (read
 * as opt->format says), or "-" for stdin (the same: a WARC or JSONL stream
 * on stdin is read record by record). opt may be NULL for the defaults.
 * Fails with WINNOW_E_IO (cannot open or read it), WINNOW_E_FORMAT (read as
 * WARC, it is not a WARC file), WINNOW_E_NOMEM or WINNOW_E_ARG (no path, a
 * struct_size this library does not take); err then says why. */
WINNOW_API winnow_status winnow_reader_open(const char *path, const winnow_reader_options *opt, winnow_reader **out,
                                            char *err, size_t errcap);
/* The same over bytes in memory: a WARC file, JSON lines or one page (opt's
 * format, or sniffed from the bytes and from name), gzip undone. name
 * (NULL: "<memory>") stands for the file in each record's source and by its
 * ending (".warc.gz") tells the format as a path's does. The bytes are read
 * in place: they must stay unchanged until winnow_reader_close(). For
 * bindings and for data that is not in a file (an object store, a socket). */
WINNOW_API winnow_status winnow_reader_open_memory(const void *data, size_t len, const char *name,
                                                   const winnow_reader_options *opt, winnow_reader **out, char *err,
                                                   size_t errcap);
/* The next page into *rec: WINNOW_OK with *rec filled (valid until the next
 * call or close), WINNOW_END when there are no more, or a failure
 * (WINNOW_E_IO, WINNOW_E_NOMEM; winnow_reader_error() says what), after
 * which the reader gives the same failure again: errors are final. */
WINNOW_API winnow_status winnow_reader_next(winnow_reader *r, winnow_record *rec);
WINNOW_API const char *winnow_reader_error(const winnow_reader *r); /* "" when none */
/* The last non-fatal problem of the last winnow_reader_next(), "" when none. */
WINNOW_API const char *winnow_reader_warning(const winnow_reader *r);
/* Records skipped so far: WARC response/resource records that are not 2xx
 * HTML, pages over the size limit, damaged records, malformed JSONL lines,
 * unreadable files. warcinfo, request, metadata and revisit records are not
 * pages and are not counted. */
WINNOW_API size_t winnow_reader_skipped(const winnow_reader *r);
/* Of the records skipped, those over max_record_bytes. */
WINNOW_API size_t winnow_reader_too_large(const winnow_reader *r);
/* What the input is read as: HTML (a directory, or one page), WARC or JSONL. */
WINNOW_API winnow_input_format winnow_reader_format(const winnow_reader *r);
/* Bytes of the input read so far and its size as stored (compressed bytes
 * for gzip; a directory's: its pages'). Returns 0 when the size is not
 * known (a pipe), 1 otherwise. */
WINNOW_API int winnow_reader_progress(const winnow_reader *r, unsigned long long *done, unsigned long long *total);
WINNOW_API void winnow_reader_close(winnow_reader *r);
/* Hands the bytes of the record the last winnow_reader_next() returned to
 * the caller, who frees them with free(): a page kept past the next record
 * (a queue, another thread) without a copy. *len gets their length. NULL
 * when they are not a buffer of their own (a WARC or JSONL record lies in
 * the buffers the reader goes on reading), already taken, or there is no
 * record: copy rec.data then. After a take, rec.data points at the taken
 * bytes. */
WINNOW_API void *winnow_reader_take(winnow_reader *r, size_t *len);

/* ------------------------------------------------------------------------
 * Site models: many pages of one site reveal its template (site-level
 * template detection). A model counts, per site, on how many pages each
 * block's and each text chunk's fingerprint occurs, with ageing so that a
 * redesigned site's old template fades. Models live in a site database
 * (one SQLite file); learning is incremental.
 * ------------------------------------------------------------------------ */

typedef struct winnow_sitedb winnow_sitedb;
typedef struct winnow_site winnow_site;

/* How a site database is opened. */
typedef enum winnow_sitedb_access {
    WINNOW_SITEDB_READ = 0,  /* sites, site, extract: works on files and folders that
                                 cannot be written */
    WINNOW_SITEDB_WRITE = 1, /* learn: creates the file when there is none */
} winnow_sitedb_access;

/* Opens a site database into *out. On failure *out is NULL, err says why
 * and the status what: WINNOW_E_DB_READONLY (WRITE asked of a file or
 * folder that cannot be written), WINNOW_E_DB_DAMAGED, WINNOW_E_DB_FORMAT
 * (not a winnow site database, another format version, or an empty file
 * opened for reading), WINNOW_E_DB_BUSY, WINNOW_E_IO (cannot open or create
 * it), WINNOW_E_DB (another SQLite error), WINNOW_E_NOMEM, WINNOW_E_ARG.
 * One handle per thread.
 *
 * A writable handle first checks the whole file (SQLite's integrity check
 * and every site's checksums) and writes nothing into a damaged one; while
 * it is open the file is in WAL mode (readers keep reading while it
 * commits), and closing it checkpoints and leaves the file alone again, in
 * rollback-journal mode, without -wal or -shm files. A read handle works
 * on a file or folder that cannot be written and creates no files there. */
WINNOW_API winnow_status winnow_sitedb_open(const char *path, winnow_sitedb_access access, winnow_sitedb **out,
                                            char *err, size_t errcap);
WINNOW_API void winnow_sitedb_close(winnow_sitedb *db);
WINNOW_API const char *winnow_sitedb_error(const winnow_sitedb *db);

/* Loads a site's model; a site the database does not know yet comes back
 * empty (0 pages). half_life (in pages) applies to new sites; 0 = default 1000.
 * The rows read are checked against the site's checksum: WINNOW_E_DB_DAMAGED
 * when they do not match. A loaded model also keeps the pages it counts
 * until they are saved (a few kB each), to merge them with another
 * writer's: save it every few hundred pages. */
WINNOW_API winnow_status winnow_site_load(winnow_sitedb *db, const char *name, double half_life, winnow_site **out);
/* A model that lives only in memory (batch use, tests), into *out. */
WINNOW_API winnow_status winnow_site_new(const char *name, double half_life, winnow_site **out);
WINNOW_API void winnow_site_free(winnow_site *s);
WINNOW_API const char *winnow_site_name(const winnow_site *s);
WINNOW_API double winnow_site_pages(const winnow_site *s); /* aged page count */

/* Counts one page into the model. *counted is 0 when the page duplicates
 * one already counted (same I-Match signature: the same page under another
 * URL; a page without one, with no visible text: the same URL and bytes),
 * 1 otherwise. */
WINNOW_API winnow_status winnow_site_learn(winnow_engine *e, winnow_site *s, const winnow_input *in, int *counted);
/* Writes the models' changes in one transaction: a crash leaves the old or
 * the new state. Call it as often as a run should keep what it learned
 * (every few hundred pages); each call writes what changed since the last.
 * When another writer saved one of these sites since it was loaded (two
 * learns of one site at once), the pages counted since are counted again
 * onto the stored state, after the other writer's, and the model is
 * replaced by the result: both runs' pages count. On failure nothing is
 * written and the models keep their changes for the next call
 * (WINNOW_E_DB_BUSY: try again later). Models from winnow_site_new can be
 * saved only as sites the database does not have yet. A handle opened
 * with WINNOW_SITEDB_READ saves nothing: WINNOW_E_DB_READONLY. */
WINNOW_API winnow_status winnow_sitedb_save(winnow_sitedb *db, winnow_site *const *sites, size_t n);

typedef enum winnow_mode {
    WINNOW_MODE_AUTO = 0, /* site evidence where the site has enough pages, page scorer elsewhere */
    WINNOW_MODE_SITE,     /* site evidence whatever the page count */
    WINNOW_MODE_PAGE,     /* ignore the site model */
} winnow_mode;

typedef enum winnow_method {
    WINNOW_METHOD_AUTO = 0,     /* block fingerprints + text chunks, combined with the page scorer */
    WINNOW_METHOD_BLOCKS,       /* block fingerprints (Gibson et al., Kolcz & Yih) */
    WINNOW_METHOD_PATH_BLOCKS,  /* fingerprints of DOM path + block text */
    WINNOW_METHOD_CHUNKS,       /* text chunks between line-breaking tags */
    WINNOW_METHOD_TABLE_CHUNKS, /* table text chunks (Ma, Goharian & Chowdhury) */
    WINNOW_METHOD_CE,           /* ContentExtractor (Debnath et al.), the slow baseline */
    WINNOW_METHOD_FASTCE,       /* FastContentExtractor (Nguyen et al.) */
} winnow_method;

typedef struct winnow_site_options {
    size_t struct_size;   /* sizeof (winnow_site_options): set by the _default() */
    winnow_mode mode;     /* default WINNOW_MODE_AUTO */
    winnow_method method; /* default WINNOW_METHOD_AUTO */
    int exclude_self;     /* leave-one-out: the page's own contribution is left out; default 0 */
    unsigned min_pages;   /* auto mode: pages a site needs before its model is used (0 counts
                               as 5); default 5 */
} winnow_site_options;

WINNOW_API winnow_status winnow_site_options_default(winnow_site_options *o, size_t struct_size);

/* winnow_extract with a site model (site may be NULL: page mode; opt may be
 * NULL for the defaults). */
WINNOW_API winnow_status winnow_extract_site(winnow_engine *e, const winnow_input *in, const winnow_site *site,
                                             const winnow_site_options *opt, winnow_doc **out);

typedef struct winnow_site_summary {
    size_t struct_size; /* the library's sizeof (winnow_site_summary) */
    const char *name;
    double pages;         /* aged page count */
    double pages_learned; /* pages counted over the site's life */
    double half_life;
    long long updated; /* unix time of the last learn */
    long long keys;    /* distinct fingerprints stored */
} winnow_site_summary;

/* Called with each site; a non-zero return stops the listing. */
typedef int (*winnow_site_fn)(void *ctx, const winnow_site_summary *s);
/* Calls fn for every site in the database, by name; a non-zero return stops.
 * Every row is checked against its checksum before the first call:
 * WINNOW_E_DB_DAMAGED, and no call, when one does not match. */
WINNOW_API winnow_status winnow_sitedb_list(winnow_sitedb *db, winnow_site_fn fn, void *ctx);

typedef struct winnow_sitedb_report {
    size_t struct_size;                             /* sizeof (winnow_sitedb_report), set by the caller */
    int format;                                     /* the file's format version (1: without checksums) */
    size_t sites, keys, pages, ce_pages, ce_blocks; /* rows checked */
    size_t problems;
} winnow_sitedb_report;

/* Checks the whole database: SQLite's integrity check, the schema, the
 * list of sites and every site's rows against its checksums. problem (may
 * be NULL) gets one sentence per problem found. WINNOW_OK when sound,
 * WINNOW_E_DB_DAMAGED when problems were found, another failure when the
 * check could not run (winnow_sitedb_error says why). report may be NULL. */
typedef void (*winnow_problem_fn)(void *ctx, const char *what);
WINNOW_API winnow_status winnow_sitedb_check(winnow_sitedb *db, winnow_problem_fn problem, void *ctx,
                                             winnow_sitedb_report *report);

/* Called with each fingerprint: kind is "block", "path-block", "chunk" or
 * "table-chunk", df its (aged) document frequency, sample the text it was
 * seen with ("" when not kept); a non-zero return stops. */
typedef int (*winnow_template_fn)(void *ctx, const char *kind, double df, const char *sample);
/* Calls fn for every fingerprint of a loaded site whose document frequency
 * is at least min_share of its pages (0.1: the template threshold), most
 * frequent first. */
WINNOW_API winnow_status winnow_site_templates(const winnow_site *s, double min_share, winnow_template_fn fn,
                                               void *ctx);

/* The site a page's URL belongs to, as `winnow learn` and `winnow extract
 * --db` name it: the URL's host, lower-cased, without user info, port and
 * a leading "www." ("https://WWW.Example.org:8080/a" is "example.org").
 * Written NUL-terminated into out (cut to cap - 1 bytes); returns its
 * length, 0 when the URL has no host (or url or out is NULL, or cap 0). */
WINNOW_API size_t winnow_url_site(const char *url, char *out, size_t cap);

/* ------------------------------------------------------------------------
 * Site learning as map-reduce: partials.
 *
 * Map: a partial counts the pages of one shard of a crawl (a few WARC
 * files, on any machine) and is written to a partial file (format in
 * docs/formats.md, "Partial files"). It keeps, per site, the pages in the order
 * they came, each with its fingerprints, display samples, I-Match
 * signature and URL, and the ContentExtractor blocks of the site's first
 * 30 distinct pages: what learning the page would count, not yet counted.
 *
 * Reduce: winnow_sitedb_merge() counts the partial files' pages into a site
 * database, site by site. The result is exact: merging parts P1, ..., Pk
 * gives the database that learning P1's pages, then P2's, ..., in one
 * `winnow learn` run gives (the same fingerprints, counts and ageing bit
 * for bit, duplicates across parts counted once), on top of what the
 * database held. Merging is idempotent: a part merged again counts its
 * pages as duplicates, so a merge that was cut short can be run again.
 * ------------------------------------------------------------------------ */

typedef struct winnow_partial winnow_partial;

/* A new, empty partial into *out; half_life (in pages) is recorded for its
 * sites and taken by those the database does not have yet when merged
 * (0 = the default 1000). WINNOW_E_ARG, WINNOW_E_NOMEM. */
WINNOW_API winnow_status winnow_partial_new(double half_life, winnow_partial **out);
WINNOW_API void winnow_partial_free(winnow_partial *p);
/* Detail of the last failed call on this partial, "" if none. */
WINNOW_API const char *winnow_partial_error(const winnow_partial *p);
/* The partial's model of site `name` into *out, made on the first call
 * (the same handle afterwards). The partial owns it (no winnow_site_free):
 * it lives as long as the partial. Count pages into it with
 * winnow_site_learn(); different sites may be learned on different
 * threads at once, one thread per site, while calls on the partial itself
 * are made by one thread at a time. Such a model only records its pages:
 * it cannot judge pages (winnow_extract_site: WINNOW_E_ARG) nor be saved
 * with winnow_sitedb_save (WINNOW_E_ARG). */
WINNOW_API winnow_status winnow_partial_site(winnow_partial *p, const char *name, winnow_site **out);
/* Counts one page into the partial: into site `site`, or when NULL the
 * site of in->url (winnow_url_site; WINNOW_E_ARG when it has none).
 * *counted (may be NULL) is 0 when the page duplicates one this partial
 * already has. A page that fails returns the failure of winnow_extract;
 * winnow_partial_error() says why (and winnow_engine_error(), for a
 * failure of the page). */
WINNOW_API winnow_status winnow_partial_learn(winnow_engine *e, winnow_partial *p, const char *site,
                                              const winnow_input *in, int *counted);
/* Sites and pages (counted, duplicates left out) the partial holds. */
WINNOW_API size_t winnow_partial_site_count(const winnow_partial *p);
WINNOW_API size_t winnow_partial_page_count(const winnow_partial *p);
/* Writes the partial to path, whole: through a temporary file beside it,
 * renamed into place (an existing file is replaced), so a crash leaves
 * the old file or the new one. WINNOW_E_IO (winnow_partial_error says
 * why), WINNOW_E_NOMEM. The partial is unchanged and can be written again. */
WINNOW_API winnow_status winnow_partial_write(winnow_partial *p, const char *path);

typedef struct winnow_partial_info {
    size_t struct_size;  /* sizeof (winnow_partial_info), set by the caller */
    size_t format;       /* the file's format version */
    size_t sites, pages; /* sites, and pages over all of them */
    size_t keys;         /* fingerprints over all pages (a page's each counted) */
    size_t ce_pages;     /* ContentExtractor training pages kept */
} winnow_partial_info;

/* Reads a partial file whole and checks it: the format and version, every
 * site's checksum and the file's. WINNOW_OK with *info filled (info may be
 * NULL); WINNOW_E_IO (cannot read it), WINNOW_E_FORMAT (not a partial
 * file, another version, or damaged: truncated, a checksum that does not
 * match), WINNOW_E_NOMEM, WINNOW_E_ARG; err says why. */
WINNOW_API winnow_status winnow_partial_check(const char *path, winnow_partial_info *info, char *err, size_t errcap);

typedef struct winnow_merge_options {
    size_t struct_size;  /* sizeof (winnow_merge_options): set by the _default() */
    size_t commit_every; /* pages per transaction (whole sites each); default 10000 */
} winnow_merge_options;

WINNOW_API winnow_status winnow_merge_options_default(winnow_merge_options *o, size_t struct_size);

typedef struct winnow_merge_report {
    size_t struct_size; /* sizeof (winnow_merge_report), set by the caller */
    size_t parts;       /* partial files merged */
    size_t sites;       /* sites they hold (each once) */
    size_t pages;       /* pages they hold */
    size_t counted;     /* pages counted into the database */
    size_t duplicates;  /* pages the database or an earlier part had (same I-Match signature) */
} winnow_merge_report;

/* Merges the partial files parts[0 .. nparts) into a database opened with
 * WINNOW_SITEDB_WRITE, in that order (the order of the shards in the
 * corpus: see above). Every part is read and checked whole first: a part
 * that is missing, not a partial file, of another version or damaged
 * fails the merge before anything is written (WINNOW_E_IO,
 * WINNOW_E_FORMAT). Then sites are merged in name order and saved in
 * transactions of whole sites (opt->commit_every pages): a failure later
 * on (WINNOW_E_DB_BUSY, WINNOW_E_IO, ...) keeps the sites saved before, and
 * merging the same parts again completes the merge. A site being learned
 * by another writer meanwhile gets both counts (as winnow_sitedb_save).
 * opt may be NULL for the defaults; report (may be NULL) gets what was
 * merged, also after a failure. winnow_sitedb_error() says why a merge
 * failed. */
WINNOW_API winnow_status winnow_sitedb_merge(winnow_sitedb *db, const char *const *parts, size_t nparts,
                                             const winnow_merge_options *opt, winnow_merge_report *report);

#ifdef __cplusplus
}
#endif

#endif
