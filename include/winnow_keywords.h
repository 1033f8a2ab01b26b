/* winnow_keywords: what the main text is about. Keywords by TF-IDF against
 * a document-frequency table, and page classification by multinomial
 * Naive Bayes over bags of words: two uses of template removal (Kolcz &
 * Yih, section 5; Chakrabarti, Kumar & Punera, section 6.3), built on the
 * text winnow extracts (or any text).
 *
 * The conventions are winnow.h's: every call that can fail returns a
 * winnow_status, option structures start with struct_size and are filled
 * by their _default() function, handles are opaque and each has one
 * function that frees it (which takes NULL), and a call that creates an
 * object from a file writes why it failed to the caller's buffer err.
 *
 * Terms. Text is cut into terms the same way everywhere here (the DF
 * table, keywords, bags of words), whatever the language:
 *   - words are runs of letters, marks and digits (Unicode categories L, M,
 *     N), lowercased with Unicode case mapping; apostrophes and hyphens
 *     split words; a word of one character, of digits only, or of over 64
 *     bytes is dropped;
 *   - scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao,
 *     Myanmar, Khmer) give overlapping character bigrams ("北京大学":
 *     "北京", "京大", "大学"), a lone character itself;
 *   - a two-word phrase is two words next to each other with no line end,
 *     no punctuation other than an apostrophe or hyphen and no dropped word
 *     between them ("united states"); bigrams of unspaced scripts make no
 *     phrases.
 * Stopwords come from the DF table, not from a list of any language: a
 * term in more than stop_share of the table's documents (default 0.1) is
 * never a keyword and no phrase holds it. So the function words of every
 * language the table's collection has are found by their frequency; those
 * of a language it lacks are not (build a table from such pages).
 */
#ifndef WINNOW_KEYWORDS_H
#define WINNOW_KEYWORDS_H

#include <stddef.h>
#include <stdint.h>

#include "winnow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Document-frequency tables.
 *
 * The file format (version 1), UTF-8 text, gzip-compressed or not (the
 * reader tells by the first bytes):
 *   winnow-df<TAB>1                 the format and its version
 *   docs<TAB>N                      documents counted (N >= 1)
 *   min_df<TAB>M                    terms in fewer than M documents were left out
 *   terms<TAB>T                     term lines that follow
 *   TERM<TAB>DF                     T lines, sorted by TERM in byte order;
 *                                   1 <= DF <= N; a phrase is its two words
 *                                   joined by one space
 * Lines end with LF. Anything else (another version, a missing or extra
 * line, a DF out of range, a term out of order or twice) is refused with
 * WINNOW_E_FORMAT and a message that names the line.
 * ------------------------------------------------------------------------ */

typedef struct winnow_df winnow_df;

/* Reads a DF table file into *out. WINNOW_E_IO (cannot open or read it),
 * WINNOW_E_FORMAT (not a DF table of a version this winnow reads, or
 * damaged), WINNOW_E_NOMEM, WINNOW_E_ARG; err says why. */
WINNOW_API winnow_status winnow_df_load(const char *path, winnow_df **out, char *err, size_t errcap);
/* The table built into the library: document frequencies of the main text
 * (page mode) of winnow's site corpus, 60 sites, the 7,099 of its 7,359
 * pages that have main text (make df). */
WINNOW_API winnow_status winnow_df_default(winnow_df **out);
WINNOW_API void winnow_df_free(winnow_df *df);
/* Documents counted, terms held, and the DF of a term (0 when it is not
 * in the table: in fewer than min_df documents, or never seen). term is
 * taken as it is: a term of the tokenizer (lowercase). */
WINNOW_API unsigned long long winnow_df_docs(const winnow_df *df);
WINNOW_API size_t winnow_df_size(const winnow_df *df);
WINNOW_API unsigned long long winnow_df_lookup(const winnow_df *df, const char *term);

/* Counting a collection: each text added is one document. */
typedef struct winnow_df_builder winnow_df_builder;
WINNOW_API winnow_status winnow_df_builder_new(winnow_df_builder **out);
WINNOW_API winnow_status winnow_df_builder_add(winnow_df_builder *b, const char *text, size_t len);
WINNOW_API unsigned long long winnow_df_builder_docs(const winnow_df_builder *b);
/* Writes the table (format above) to path, gzip-compressed when path ends
 * in ".gz": the terms in at least min_df documents (0 or 1: all), and
 * phrases in at least 2 * min_df (phrases are many and mostly rare). The
 * file appears whole (written beside it and renamed). */
WINNOW_API winnow_status winnow_df_builder_save(winnow_df_builder *b, const char *path, unsigned min_df, char *err,
                                                size_t errcap);
WINNOW_API void winnow_df_builder_free(winnow_df_builder *b);

/* ------------------------------------------------------------------------
 * Keywords: the terms and phrases of a text by tf * idf, where tf is the
 * term's count in the text and idf = ln((N + 1) / (DF + 1)) with the
 * table's N and DF (a term the table lacks has DF 0). A phrase is a
 * candidate when it occurs at least twice; a word whose every occurrence
 * is inside one candidate phrase gives way to it ("barack" to "barack
 * obama").
 * ------------------------------------------------------------------------ */

typedef struct winnow_keyword_options {
    size_t struct_size; /* sizeof (winnow_keyword_options): set by the _default() */
    unsigned k;         /* keywords wanted; default 10 */
    double stop_share;  /* terms in more than this share of the table's documents are
                             stopwords; default 0.1 */
    int phrases;        /* two-word phrases too; default 1 */
} winnow_keyword_options;

WINNOW_API winnow_status winnow_keyword_options_default(winnow_keyword_options *o, size_t struct_size);

typedef struct winnow_keyword {
    size_t struct_size;    /* sizeof (winnow_keyword), set by the caller */
    const char *term;      /* lowercase; a phrase's two words joined by a space */
    double score;          /* tf * idf */
    unsigned tf;           /* occurrences in the text */
    unsigned long long df; /* the table's document frequency */
    int words;             /* 1, or 2 for a phrase */
} winnow_keyword;

typedef struct winnow_keywords winnow_keywords;

/* The keywords of text (UTF-8, len bytes) into *out, best first (ties by
 * term). opt may be NULL for the defaults. */
WINNOW_API winnow_status winnow_keywords_extract(const winnow_df *df, const char *text, size_t len,
                                                 const winnow_keyword_options *opt, winnow_keywords **out);
WINNOW_API size_t winnow_keywords_count(const winnow_keywords *k);
/* Fills *out with keyword i (its term lives as long as k); WINNOW_E_ARG
 * when i is out of range. */
WINNOW_API winnow_status winnow_keywords_get(const winnow_keywords *k, size_t i, winnow_keyword *out);
WINNOW_API void winnow_keywords_free(winnow_keywords *k);

/* ------------------------------------------------------------------------
 * Classification: multinomial Naive Bayes over bags of words (the terms
 * above, without phrases), Laplace-smoothed. A bag is a text's term
 * counts; a classifier counts the bags of each label, and predicts the
 * label of highest posterior.
 *
 * Model file (version 1), UTF-8 text, gzip-compressed when the name ends
 * in ".gz" (read either way):
 *   winnow-nb<TAB>1
 *   alpha<TAB>A                     the smoothing count (> 0)
 *   labels<TAB>L
 *   label<TAB>NAME<TAB>DOCS<TAB>TOKENS   L lines, in the order labels were first added
 *   terms<TAB>T
 *   TERM<TAB>C1<TAB>...<TAB>CL      T lines: the term's count under each label
 * ------------------------------------------------------------------------ */

typedef struct winnow_bag winnow_bag;
/* The bag of words of text into *out. */
WINNOW_API winnow_status winnow_bag_new(const char *text, size_t len, winnow_bag **out);
WINNOW_API void winnow_bag_free(winnow_bag *b);
WINNOW_API size_t winnow_bag_size(const winnow_bag *b);   /* distinct terms */
WINNOW_API size_t winnow_bag_tokens(const winnow_bag *b); /* term occurrences */

typedef struct winnow_textclass_options {
    size_t struct_size; /* sizeof (winnow_textclass_options): set by the _default() */
    double alpha;       /* Laplace smoothing count; default 0.1 */
} winnow_textclass_options;

WINNOW_API winnow_status winnow_textclass_options_default(winnow_textclass_options *o, size_t struct_size);

typedef struct winnow_textclass winnow_textclass;
WINNOW_API winnow_status winnow_textclass_new(const winnow_textclass_options *opt, winnow_textclass **out);
/* Counts bag b under label (a new label is added; at most 65,535). */
WINNOW_API winnow_status winnow_textclass_add(winnow_textclass *c, const winnow_bag *b, const char *label);
WINNOW_API size_t winnow_textclass_labels(const winnow_textclass *c);
WINNOW_API const char *winnow_textclass_label(const winnow_textclass *c, size_t i); /* NULL when out of range */
/* The most probable label of b: its index into *label and its posterior
 * probability into *prob (either may be NULL). WINNOW_E_ARG when the
 * classifier has no label yet. Terms no training bag had count for none. */
WINNOW_API winnow_status winnow_textclass_predict(const winnow_textclass *c, const winnow_bag *b, size_t *label,
                                                  double *prob);
WINNOW_API winnow_status winnow_textclass_save(const winnow_textclass *c, const char *path, char *err, size_t errcap);
WINNOW_API winnow_status winnow_textclass_load(const char *path, winnow_textclass **out, char *err, size_t errcap);
WINNOW_API void winnow_textclass_free(winnow_textclass *c);

#ifdef __cplusplus
}
#endif

#endif
