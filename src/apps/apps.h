/* Helpers the applications' files share: errors into a caller's buffer,
 * whole files read with gzip undone, line parsing, and files written under
 * a temporary name and renamed into place (gzip when the name ends in .gz). */
#ifndef WN_APPS_H
#define WN_APPS_H

#include <stddef.h>

#include "winnow.h"

void wn_apps_err(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 0, -1 out of memory, -2 damaged or cut short. *out is NUL-terminated. */
int wn_apps_gunzip(const unsigned char *data, size_t len, char **out, size_t *outlen);
/* The whole file, gunzipped when it starts with gzip's magic bytes; NUL-terminated. */
winnow_status wn_apps_read_file(const char *path, char **out, size_t *len, char *err, size_t errcap);
int wn_apps_line(char *data, size_t len, size_t *pos, char **line);
/* The rest of a table file after the `terms` lines its header announced
 * must be blank: 0, or -1 with err saying which line is one too many. */
int wn_apps_no_more_lines(char *data, size_t len, size_t *pos, size_t lineno, const char *name,
                          unsigned long long terms, char *err, size_t errcap);
/* What every *_load does before parsing: the arguments checked (out
 * non-NULL) and the file read (wn_apps_read_file). */
winnow_status wn_apps_load_file(const char *path, int have_out, char **data, size_t *len, char *err, size_t errcap);
int wn_apps_field(const char *line, const char *name, unsigned long long *v);

/* The parsers behind winnow_df_load and winnow_textclass_load, on a file's
 * bytes (data[len] must be writable: lines are cut in place; name is the
 * file's, for messages). */
struct winnow_df;
struct winnow_textclass;
winnow_status wn_df_parse(char *data, size_t len, const char *name, struct winnow_df **out, char *err, size_t errcap);
winnow_status wn_textclass_parse(char *data, size_t len, const char *name, struct winnow_textclass **out, char *err,
                                 size_t errcap);

typedef struct wn_out wn_out;
int wn_out_open(wn_out **o, const char *path, char *err, size_t errcap);
void wn_out_write(wn_out *o, const char *s, size_t n);
/* keep: rename into place, else remove. 0 or -1 (after a message). */
int wn_out_close(wn_out *o, const char *path, int keep, char *err, size_t errcap);

#endif
