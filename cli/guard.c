/* Outputs that must not destroy what the user had (issue 29).
 *
 * Inputs. An output path that is an input (the same file: device and inode,
 * so a symbolic or hard link counts too), or an output directory where
 * OUT/NAME.EXT could be an input (a file named on the command line, or a
 * page of an input directory that is OUT), is refused before anything is
 * written: extracting a folder into itself with -f html would otherwise
 * replace every page with its extract, and a second run would read the
 * extracts as pages.
 *
 * Earlier files. A directory of outputs is winnow's own when it holds a
 * manifest.tsv that winnow wrote (its header line). Such a directory is
 * replaced whole: the files its manifest lists and the hidden temporaries
 * of a killed run are removed before the run writes, so no page of an
 * earlier run stays beside the new ones looking current. Any other
 * directory that holds files is refused unless --overwrite says the user
 * means it: then same-named files are replaced and the rest left alone. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MANIFEST_HEADER "output\tinput\trecord\trecord_id\turl\tstatus\tmessage\n"

typedef struct input_set {
    struct stat *files; /* regular files named as inputs */
    const char **file_names;
    size_t nfiles;
    char **dirs; /* input directories, resolved */
    size_t ndirs;
} input_set;

static void inputs_free(input_set *s)
{
    free(s->files);
    free(s->file_names);
    for (size_t i = 0; i < s->ndirs; i++) free(s->dirs[i]);
    free(s->dirs);
}

static int inputs_collect(const cli_opts *o, input_set *s)
{
    memset(s, 0, sizeof *s);
    size_t n = (size_t)(o->ninputs > 0 ? o->ninputs : 1);
    s->files = calloc(n, sizeof *s->files);
    s->file_names = calloc(n, sizeof *s->file_names);
    s->dirs = calloc(n, sizeof *s->dirs);
    if (!s->files || !s->file_names || !s->dirs) return -1;
    for (int i = 0; i < o->ninputs; i++) {
        struct stat st;
        if (!strcmp(o->inputs[i], "-") || stat(o->inputs[i], &st) != 0) continue;
        if (S_ISREG(st.st_mode)) {
            s->files[s->nfiles] = st;
            s->file_names[s->nfiles++] = o->inputs[i];
        } else if (S_ISDIR(st.st_mode)) {
            char *r = realpath(o->inputs[i], NULL);
            if (r) s->dirs[s->ndirs++] = r;
        }
    }
    return 0;
}

static int join(char *out, size_t cap, const char *dir, const char *name);

/* The named input that st is, or NULL. */
static const char *named_input(const input_set *s, const struct stat *st)
{
    for (size_t i = 0; i < s->nfiles; i++)
        if (s->files[i].st_dev == st->st_dev && s->files[i].st_ino == st->st_ino) return s->file_names[i];
    return NULL;
}

static int iends(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcasecmp(s + n - k, suffix);
}

/* A name a directory input reads (src/input/files.c). */
static int page_name(const char *n)
{
    return iends(n, ".html") || iends(n, ".htm") || iends(n, ".html.gz") || iends(n, ".htm.gz");
}

/* dir's pages are inputs: dir is an input directory, or with -r lies below one. */
static int dir_is_input(const cli_opts *o, const input_set *s, const char *dir)
{
    char *r = realpath(dir, NULL);
    if (!r) return 0;
    int found = 0;
    for (size_t i = 0; i < s->ndirs && !found; i++) {
        size_t k = strlen(s->dirs[i]);
        found = !strcmp(r, s->dirs[i]) ||
                (o->reader.recursive && !strncmp(r, s->dirs[i], k) && (r[k] == '/' || !strcmp(s->dirs[i], "/")));
    }
    free(r);
    return found;
}

/* A file of the directory that may be removed as an earlier output: a plain
 * name (no path, not hidden) of a regular file that is no input. */
static int removable(const cli_opts *o, const input_set *s, const char *dir, const char *name, int dir_input)
{
    if (!*name || name[0] == '.' || strchr(name, '/') || strchr(name, '\\')) return 0;
    if (dir_input && page_name(name)) return 0;
    char path[PATH_MAX];
    if (join(path, sizeof path, dir, name) != 0) return 0;
    struct stat st;
    (void)o;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && !named_input(s, &st);
}

/* A hidden temporary of cli_tmp_create: ".NAME.PID-N.tmp". */
static int temporary_name(const char *n)
{
    size_t len = strlen(n);
    if (n[0] != '.' || len < 8 || strcmp(n + len - 4, ".tmp") != 0) return 0;
    const char *p = n + len - 4;
    const char *q = p;
    while (q > n && isdigit((unsigned char)q[-1])) q--;
    if (q == p || q == n || q[-1] != '-') return 0;
    const char *r = q - 1;
    while (r > n && isdigit((unsigned char)r[-1])) r--;
    return r < q - 1 && r > n + 1 && r[-1] == '.';
}

/* DIR/NAME in out, without doubling a '/' that DIR ends with; -1 when too long. */
static int join(char *out, size_t cap, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    int k = snprintf(out, cap, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
    return k < 0 || (size_t)k >= cap ? -1 : 0;
}

static int refuse_dir(const char *path, const char *input)
{
    fprintf(stderr, "winnow: output %s would replace the input %s: choose another output (nothing was written)\n", path,
            input);
    return EXIT_USAGE;
}

int cli_outputs_check(const cli_opts *o, int many)
{
    if (!o->output) return 0;
    input_set s;
    if (inputs_collect(o, &s) != 0) {
        inputs_free(&s);
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    int rc = 0;
    struct stat st;
    if (!many || o->format == WINNOW_FORMAT_JSONL) {
        const char *in = stat(o->output, &st) == 0 ? named_input(&s, &st) : NULL;
        if (in) {
            fprintf(stderr, "winnow: -o %s is the input %s: choose another output (nothing was written)\n", o->output,
                    in);
            rc = EXIT_USAGE;
        }
        inputs_free(&s);
        return rc;
    }
    DIR *d = opendir(o->output);
    if (!d) {
        inputs_free(&s);
        return 0;
    } /* made by the run: nothing in it yet */
    int dir_input = dir_is_input(o, &s, o->output);
    const char *ext = cli_format_ext(o->format);
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        const char *n = de->d_name;
        if (!iends(n, ext) && strcmp(n, "manifest.tsv") != 0) continue;
        char path[PATH_MAX];
        if (join(path, sizeof path, o->output, n) != 0) continue;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        const char *in = named_input(&s, &st);
        if (in)
            rc = refuse_dir(path, in);
        else if (dir_input && page_name(n))
            rc = refuse_dir(path, "of the same name (an input directory's page)");
    }
    closedir(d);
    inputs_free(&s);
    return rc;
}

/* The output names listed by an earlier manifest (f after its header);
 * calls fn on each. */
static void manifest_outputs(FILE *f, void (*fn)(void *, const char *), void *ctx)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) continue;
        *tab = '\0';
        fn(ctx, line);
    }
    free(line);
}

typedef struct cleaner {
    const cli_opts *o;
    const input_set *s;
    int dir_input;
    size_t removed;
} cleaner;

static void remove_listed(void *ctx, const char *name)
{
    cleaner *c = ctx;
    if (!removable(c->o, c->s, c->o->output, name, c->dir_input)) return;
    char path[PATH_MAX];
    if (join(path, sizeof path, c->o->output, name) == 0 && unlink(path) == 0) c->removed++;
}

int cli_outputs_prepare(const cli_opts *o)
{
    DIR *d = opendir(o->output);
    if (!d) return 0;
    char path[PATH_MAX];
    if (join(path, sizeof path, o->output, "manifest.tsv") != 0) {
        closedir(d);
        return 0;
    }
    FILE *mf = fopen(path, "r");
    char head[sizeof MANIFEST_HEADER];
    int own = mf && fgets(head, sizeof head, mf) && !strcmp(head, MANIFEST_HEADER);
    size_t entries = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) entries++;
    if (!own) {
        closedir(d);
        if (mf) fclose(mf);
        if (entries == 0 || o->overwrite) return 0;
        fprintf(stderr,
                "winnow: %s holds files and no manifest.tsv of an earlier winnow run: choose a new or empty "
                "directory, or --overwrite to write into it (same-named files are replaced, others left; nothing "
                "was written)\n",
                o->output);
        return EXIT_USAGE;
    }
    input_set s;
    if (inputs_collect(o, &s) != 0) {
        inputs_free(&s);
        closedir(d);
        fclose(mf);
        fprintf(stderr, "winnow: out of memory\n");
        return EXIT_SOME_FAILED;
    }
    cleaner c = { o, &s, dir_is_input(o, &s, o->output), 0 };
    manifest_outputs(mf, remove_listed, &c);
    fclose(mf);
    /* temporaries a killed run left (never an output name: those do not
     * end in .PID-N.tmp) */
    rewinddir(d);
    while ((de = readdir(d))) {
        if (!temporary_name(de->d_name)) continue;
        struct stat st;
        if (join(path, sizeof path, o->output, de->d_name) != 0) continue;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) unlink(path);
    }
    closedir(d);
    inputs_free(&s);
    return 0;
}
