/* The bench corpora as the trainers read them (train --page-types,
 * --confidence, --units): a corpus is a folder with manifest.tsv (a header
 * line naming its columns: id, url, site, page_type), html/ID.html[.gz]
 * and gold/ID.txt; its name is the folder's. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The whole file, gunzipped when it is gzip (zlib reads plain files as they are). */
char *train_slurp(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
        int r = gzread(g, buf + n, (unsigned)(cap - n));
        if (r < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    gzclose(g);
    *len = n;
    return buf;
}

/* Column index of name in a tab-separated header line; -1 when absent. */
int train_column(char *header, const char *name)
{
    int k = 0;
    for (char *p = header; p; k++) {
        char *t = strchr(p, '\t');
        size_t l = t ? (size_t)(t - p) : strcspn(p, "\r\n");
        if (l == strlen(name) && !strncmp(p, name, l)) return k;
        p = t ? t + 1 : NULL;
    }
    return -1;
}

int train_split(char *line, char **cuts, int cap)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; p && n < cap;) {
        cuts[n++] = p;
        char *t = strchr(p, '\t');
        if (t) *t++ = '\0';
        p = t;
    }
    return n;
}

/* Field k of the line cut into cuts ("" past its end). */
static const char *field(const train_manifest *m, int k) { return k >= 0 && k < m->ncuts ? m->cuts[k] : ""; }

train_manifest *train_manifest_open(const char *path)
{
    train_manifest *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "winnow: out of memory\n");
        return NULL;
    }
    if (!(m->f = fopen(path, "r"))) {
        fprintf(stderr, "winnow: cannot open %s\n", path);
        free(m);
        return NULL;
    }
    snprintf(m->dir, sizeof m->dir, "%s", path);
    char *slash = strrchr(m->dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(m->dir, sizeof m->dir, ".");
    const char *base = strrchr(m->dir, '/');
    snprintf(m->corpus, sizeof m->corpus, "%.255s", base ? base + 1 : m->dir);
    m->c_id = m->c_url = m->c_site = m->c_type = -1;
    if (fgets(m->line, sizeof m->line, m->f)) {
        m->c_id = train_column(m->line, "id");
        m->c_url = train_column(m->line, "url");
        m->c_site = train_column(m->line, "site");
        m->c_type = train_column(m->line, "page_type");
    }
    return m;
}

int train_manifest_next(train_manifest *m)
{
    if (m->c_id < 0) return 0;
    while (fgets(m->line, sizeof m->line, m->f)) {
        m->ncuts = train_split(m->line, m->cuts, TRAIN_MAX_COLUMNS);
        m->id = field(m, m->c_id);
        if (!*m->id) continue;
        m->url = field(m, m->c_url);
        m->site = *field(m, m->c_site) ? field(m, m->c_site) : m->id;
        m->type = m->c_type >= 0 ? field(m, m->c_type) : NULL;
        return 1;
    }
    return 0;
}

char *train_manifest_html(const train_manifest *m, size_t *len)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/html/%s.html.gz", m->dir, m->id);
    char *html = train_slurp(path, len);
    if (!html) {
        snprintf(path, sizeof path, "%s/html/%s.html", m->dir, m->id);
        html = train_slurp(path, len);
    }
    return html;
}

char *train_manifest_gold(const train_manifest *m, size_t *len)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/gold/%s.txt", m->dir, m->id);
    return train_slurp(path, len);
}

void train_manifest_close(train_manifest *m)
{
    if (!m) return;
    fclose(m->f);
    free(m);
}
