/* winnow_apps: what template removal is for (issue 13): near-duplicate
 * detection, keywords, classification and search over the main text of
 * pages, as library calls that work on a collection of one's own.
 *
 * The conventions are winnow.h's, which this header includes: every call
 * that can fail returns a winnow_status, results come back through
 * out-parameters, handles are opaque with one function that frees them (and
 * takes NULL), structures that cross the API start with `size_t
 * struct_size` (options filled by their _default() function, results
 * declared `{sizeof x}` by the caller), and an object's last error is in
 * words by its _error() call.
 *
 * Each application has its own section below; they share nothing but
 * winnow.h.
 */
#ifndef WINNOW_APPS_H
#define WINNOW_APPS_H

#include <stddef.h>
#include <stdint.h>

#include "winnow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Near-duplicates: pages whose main text is the same, or nearly.
 *
 * Two tests, both on the text given (a page's main text from winnow_render
 * with WINNOW_FORMAT_TEXT, or any text):
 *   - I-Match (Chowdhury et al.): a signature of the text's set of distinct
 *     words, case folded, words without a letter left out; equal signatures
 *     are the same text after normalization. It is the signature the site
 *     learner counts pages by.
 *   - shingles (Broder; Chakrabarti, Kumar & Punera's setup): the text
 *     lowercased to its words of letters and digits, every run of
 *     shingle_words consecutive words hashed, the sketch_size smallest
 *     distinct hashes kept (a bottom-k sketch); two pages are near-duplicates
 *     when at least min_matches of their sketches' hashes agree. A text of
 *     fewer than sketch_size shingles asks for the same share of what it has.
 * Pairs are compared all against all, or for large collections only the
 * candidates that locality-sensitive hashing finds (lsh_bands > 0): a
 * second, one-permutation min-hash signature of lsh_bands * lsh_rows bins,
 * cut into bands; pages that agree on a whole band are candidates, and
 * candidates are then judged by the sketches as above, so LSH can only miss
 * pairs, never add any. Near-duplicate pairs are joined into clusters
 * (transitively).
 *
 * Pages are numbered by the caller (the input order, say): the numbers
 * need not be dense, only distinct. A cluster's representative is its
 * smallest page number, so results do not depend on the order of adding.
 * ------------------------------------------------------------------------ */

typedef struct winnow_dedup_options {
    size_t struct_size;     /* sizeof (winnow_dedup_options): set by the _default() */
    unsigned shingle_words; /* words per shingle; default 6 (1 to 64) */
    unsigned sketch_size;   /* k, the smallest shingle hashes kept per page; default 8 (1 to 4096) */
    unsigned min_matches;   /* a pair is near-duplicate when >= this many of the k agree;
                                default 4 (1 to sketch_size) */
    unsigned lsh_bands;     /* 0 (default): compare all pairs; else LSH with this many bands
                                (1 to 1024) */
    unsigned lsh_rows;      /* LSH: min-hashes per band; default 2 (1 to 64) */
    int imatch;             /* pages with the same I-Match signature are duplicates whatever
                                their sketches say; default 1 */
    unsigned min_words;     /* texts of fewer words are too short to judge: in no pair and
                                no cluster (winnow_dedup_stats.short_texts counts them);
                                default WINNOW_DEDUP_MIN_WORDS, 0 judges every text */
} winnow_dedup_options;

/* Ten words: a shorter text (a date line, a caption, a button's label) is
 * no evidence that two pages are the same: 143 comics of one site whose
 * only text was "Published 4/4/2019" made one "exact" cluster (the
 * I-Match signature leaves numbers out), and any two such lines agree in
 * their one shingle. */
#define WINNOW_DEDUP_MIN_WORDS 10

WINNOW_API winnow_status winnow_dedup_options_default(winnow_dedup_options *o, size_t struct_size);

typedef struct winnow_dedup winnow_dedup;

/* A new, empty collection in *out. opt may be NULL for the defaults.
 * WINNOW_E_ARG for an option out of range (winnow_dedup_error cannot say
 * which, as there is no object: the ranges are above), WINNOW_E_NOMEM. */
WINNOW_API winnow_status winnow_dedup_new(const winnow_dedup_options *opt, winnow_dedup **out);
WINNOW_API void winnow_dedup_free(winnow_dedup *dd);
/* Detail of the last failed call, "" if none. */
WINNOW_API const char *winnow_dedup_error(const winnow_dedup *dd);

/* Adds the text (UTF-8, len bytes; need not be NUL-terminated) of page
 * number `page`: its sketch and signature are computed and kept (about
 * 8 * (sketch_size + lsh_bands) bytes), not the text. Unlike the other
 * calls on a collection, this one may be made from several threads at once.
 * A text with no word is kept and pairs with nothing. WINNOW_E_ARG for a
 * page number added before (found by winnow_dedup_run, which fails then). */
WINNOW_API winnow_status winnow_dedup_add(winnow_dedup *dd, size_t page, const char *text, size_t len);

/* Finds the near-duplicate pairs and clusters of every page added so far
 * (again after more pages are added). WINNOW_E_ARG when a page number was
 * added twice, WINNOW_E_NOMEM. */
WINNOW_API winnow_status winnow_dedup_run(winnow_dedup *dd);

typedef struct winnow_dedup_pair {
    size_t struct_size; /* sizeof (winnow_dedup_pair), set by the caller */
    size_t a, b;        /* page numbers, a < b */
    unsigned matches;   /* sketch hashes the two have in common */
    unsigned compared;  /* out of: the larger of the two sketches' sizes (<= sketch_size) */
    double similarity;  /* matches / compared, the estimated resemblance; 1 for exact */
    int exact;          /* the same I-Match signature */
    int duplicate;      /* judged near-duplicate (always 1 for the pairs of a run) */
} winnow_dedup_pair;

/* The near-duplicate pairs of the last run, in order of (a, b). */
WINNOW_API size_t winnow_dedup_pair_count(const winnow_dedup *dd);
WINNOW_API winnow_status winnow_dedup_pair_get(const winnow_dedup *dd, size_t i, winnow_dedup_pair *p);
/* Compares two pages added, near-duplicates or not (no run needed):
 * WINNOW_E_ARG when either was not added. */
WINNOW_API winnow_status winnow_dedup_compare(const winnow_dedup *dd, size_t a, size_t b, winnow_dedup_pair *p);

typedef struct winnow_dedup_cluster {
    size_t struct_size;    /* sizeof (winnow_dedup_cluster), set by the caller */
    size_t representative; /* its smallest page number */
    size_t size;           /* pages in it (>= 2) */
    const size_t *members; /* their numbers, ascending (the representative first); valid
                                 until the next run or the collection's end */
} winnow_dedup_cluster;

/* Clusters of the last run (pages in no pair are in none), by representative. */
WINNOW_API size_t winnow_dedup_cluster_count(const winnow_dedup *dd);
WINNOW_API winnow_status winnow_dedup_cluster_get(const winnow_dedup *dd, size_t i, winnow_dedup_cluster *c);

typedef struct winnow_dedup_stats {
    size_t struct_size; /* sizeof (winnow_dedup_stats), set by the caller */
    size_t pages;       /* added */
    size_t empty;       /* of them, texts without a word */
    size_t candidates;  /* pairs compared by the last run (all pairs, or LSH's candidates) */
    size_t pairs;       /* near-duplicate pairs found */
    size_t exact_pairs; /* of them, with the same I-Match signature */
    size_t clusters;
    size_t clustered;   /* pages in a cluster */
    size_t short_texts; /* of the pages, texts with a word but under min_words: not judged */
} winnow_dedup_stats;

WINNOW_API winnow_status winnow_dedup_get_stats(const winnow_dedup *dd, winnow_dedup_stats *s);

/* The I-Match signature of a text: 0 when it has no word with a letter. */
WINNOW_API uint64_t winnow_text_imatch(const char *text, size_t len);

/* ------------------------------------------------------------------------
 * Search: an index of pages' main text in SQLite FTS5, ranked by BM25.
 *
 * An index is one SQLite file. Each page is stored under a key (its URL,
 * else its name): putting a page under a key already there replaces it.
 * A page whose text has the I-Match signature of a page already indexed
 * (the same text under another key: Ma, Goharian & Chowdhury index such
 * pages once) is stored as a duplicate of that page and not indexed: it
 * never comes up in a search, and the page it duplicates reports how many
 * it has. When the page a duplicate points to is replaced or goes, the
 * first of its duplicates takes its place in the index.
 *
 * Writes go into one open transaction, committed by winnow_index_commit()
 * and by winnow_index_close(): a crash loses what was put since the last
 * commit and nothing else.
 * ------------------------------------------------------------------------ */

typedef struct winnow_index winnow_index;

typedef enum winnow_index_access {
    WINNOW_INDEX_READ = 0,  /* search: the file must exist; nothing is written */
    WINNOW_INDEX_WRITE = 1, /* put: created when missing */
} winnow_index_access;

/* Opens an index into *out. On failure *out is NULL, err (errcap bytes,
 * NULL when not wanted) says why, and the status what: WINNOW_E_IO (no
 * such file, or it cannot be opened or created), WINNOW_E_DB_FORMAT (not a
 * winnow index: another SQLite file, or not SQLite at all),
 * WINNOW_E_DB_DAMAGED (SQLite's check failed; opened for writing, the whole
 * file is checked first), WINNOW_E_DB_READONLY (WRITE on a file or folder
 * that cannot be written), WINNOW_E_DB_BUSY, WINNOW_E_DB (another SQLite
 * failure, e.g. a SQLite built without FTS5), WINNOW_E_NOMEM, WINNOW_E_ARG. */
WINNOW_API winnow_status winnow_index_open(const char *path, winnow_index_access access, winnow_index **out, char *err,
                                           size_t errcap);
/* Commits what was put and closes; NULL is taken. */
WINNOW_API void winnow_index_close(winnow_index *ix);
WINNOW_API const char *winnow_index_error(const winnow_index *ix);

typedef struct winnow_index_page {
    size_t struct_size; /* sizeof (winnow_index_page), set by the caller */
    const char *key;    /* identity: putting the same key again replaces the page (required) */
    const char *name;   /* a short name to show (e.g. the file stem), or NULL */
    const char *url;    /* or NULL */
    const char *title;  /* or NULL */
    const char *site;   /* or NULL */
    const char *text;   /* the text to index (UTF-8), text_len bytes */
    size_t text_len;
} winnow_index_page;

typedef enum winnow_index_outcome {
    WINNOW_INDEX_ADDED = 0, /* a new key, indexed */
    WINNOW_INDEX_REPLACED,  /* the key was there: its old page is gone, this one indexed */
    WINNOW_INDEX_UNCHANGED, /* the key was there with the same text, title, url and site */
    WINNOW_INDEX_DUPLICATE, /* stored as a duplicate of another key's page, not indexed */
} winnow_index_outcome;

/* Puts a page. *outcome (may be NULL) says what was done; for a duplicate
 * dup_of (may be NULL; dup_cap bytes) gets the key of the page it
 * duplicates, cut to fit. */
WINNOW_API winnow_status winnow_index_put(winnow_index *ix, const winnow_index_page *p, winnow_index_outcome *outcome,
                                          char *dup_of, size_t dup_cap);
/* Removes the page under key; *removed (may be NULL) is 0 when there was none. */
WINNOW_API winnow_status winnow_index_remove(winnow_index *ix, const char *key, int *removed);
/* Commits the open transaction (a no-op when nothing was put). */
WINNOW_API winnow_status winnow_index_commit(winnow_index *ix);

typedef struct winnow_index_counts {
    size_t struct_size; /* sizeof (winnow_index_counts), set by the caller */
    long long pages;    /* stored, duplicates included */
    long long indexed;  /* of them, searchable (pages minus duplicates) */
} winnow_index_counts;
WINNOW_API winnow_status winnow_index_get_counts(winnow_index *ix, winnow_index_counts *c);

typedef struct winnow_search_options {
    size_t struct_size; /* sizeof (winnow_search_options): set by the _default() */
    size_t limit;       /* hits at most; default 10 */
    int raw;            /* the query is FTS5 syntax (AND, OR, NOT, "phrases", prefix*,
                             title:word); default 0: its words, any of them, ranked */
    int snippet_words;  /* words of text around the matches in a hit's snippet; default 16 */
} winnow_search_options;

WINNOW_API winnow_status winnow_search_options_default(winnow_search_options *o, size_t struct_size);

typedef struct winnow_hit {
    size_t struct_size;                          /* the library's sizeof (winnow_hit) */
    size_t rank;                                 /* 1 for the best */
    double score;                                /* BM25 (higher is better) */
    const char *key, *name, *url, *title, *site; /* "" when not stored */
    const char *snippet;                         /* text around the matches, matched words in [brackets] */
    long long duplicates;                        /* pages stored as duplicates of this one */
} winnow_hit;

/* Called with each hit, best first; a non-zero return stops. The strings
 * live during the call only. */
typedef int (*winnow_hit_fn)(void *ctx, const winnow_hit *h);
/* Ranks the indexed pages for query with BM25 (title and text; Porter
 * stemming, diacritics and case folded). WINNOW_E_ARG for a query without
 * a word (or, raw, one FTS5 cannot parse: winnow_index_error says why).
 * opt may be NULL for the defaults. */
WINNOW_API winnow_status winnow_index_search(winnow_index *ix, const char *query, const winnow_search_options *opt,
                                             winnow_hit_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
