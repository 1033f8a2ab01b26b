/* Reports that show a person what winnow decided: an application above the
 * pipeline (src/pipeline/pipeline.h), like training, linked by the CLI only.
 *
 * winnow annotate: one self-contained HTML file showing the page's own
 * markup (scripts, styles and every external resource removed, every
 * attribute that could load or run anything dropped) with each block
 * candidate shaded by its verdict: content, template, comments, link list,
 * boilerplate. A legend, a switch to the extracted text, and on hovering a
 * block its DOM path, characters, link density, hint names, heuristic
 * value, classifier and smoothed scores, site document frequency (with a
 * site model) and the reason and rule that decided it (rules/why.h).
 *
 * winnow site --report: the same view of one of the site's pages with the
 * site model's template blocks marked with their document frequencies, and
 * the table of the site's most frequent fingerprints. */
#ifndef WN_REPORT_H
#define WN_REPORT_H

#include <stddef.h>

#include "winnow.h"

/* A template fingerprint of the site (winnow_site_templates). */
typedef struct wn_report_fp {
    const char *kind, *sample;
    double df;
} wn_report_fp;

typedef struct wn_report_options {
    const winnow_site *site;             /* site model: document frequencies, site-mode judging; NULL: page mode */
    const winnow_site_options *site_opt; /* how it judges (NULL: the defaults) */
    const char *site_name;               /* shown in the header */
    const char *command;                 /* "winnow annotate", "winnow site --report": the header's title */
    const char *page_note;               /* a sentence on which page this is and why (site report), or NULL */
    /* site report: template blocks get a badge with their document
     * frequency; the fingerprint table is a view of its own */
    int site_report;
    double template_share;   /* share of the site's pages that makes a fingerprint template (0.1) */
    const wn_report_fp *fps; /* the site's most frequent fingerprints, most frequent first */
    size_t nfps, fps_more;   /* rows given, and how many more were left out */
} wn_report_options;

/* Extracts the page in (explained, with o->site when given) and writes the
 * report through write. WINNOW_OK (also for a page with no content: the
 * report shows that), a failure of the page (its message in
 * winnow_engine_error), WINNOW_E_IO when a write failed, WINNOW_E_NOMEM. */
winnow_status wn_report_page(winnow_engine *e, const winnow_input *in, const wn_report_options *o,
                             winnow_write_fn write, void *ctx);

/* The site report without a page: the header, the note and the
 * fingerprint table. */
winnow_status wn_report_site_only(const wn_report_options *o, winnow_write_fn write, void *ctx);

/* How much of the site's template a page shows: the distinct block
 * fingerprints of the page whose document frequency is at least share of
 * the site's pages (and two pages), and the characters of the blocks that
 * carry them (outermost only). For choosing the page a site report is
 * shown on. */
winnow_status wn_report_coverage(winnow_engine *e, const winnow_input *in, const winnow_site *site, double share,
                                 size_t *fingerprints, size_t *chars);

#endif
