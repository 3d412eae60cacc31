/* `check --only PATH...` (cli.h): the findings of some files of the change, for on-save hooks
 * and pre-commit. The change is still reviewed whole (cross-file evidence needs it); only the
 * report is narrowed. Paths are taken as the caller's shell sees them (relative to the current
 * directory) and mapped into the tree under review; a directory stands for the files below it. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/util.h"

/* The canonical absolute form of p (new string): realpath when it exists, else its existing
 * parent's realpath and its last component (a deleted file), else p made absolute. */
static char *canonical(const char *p)
{
    char buf[PATH_MAX];
    if (realpath(p, buf))
        return xstrdup(buf);
    char *abs;
    if (p[0] == '/') {
        abs = xstrdup(p);
    } else {
        char *cwd = getcwd(buf, sizeof buf) ? xstrdup(buf) : xstrdup(".");
        abs = xasprintf("%s/%s", cwd, p);
        free(cwd);
    }
    char *slash = strrchr(abs, '/');
    if (slash && slash != abs) {
        *slash = '\0';
        if (realpath(abs, buf)) {
            char *out = xasprintf("%s/%s", buf, slash + 1);
            free(abs);
            return out;
        }
        *slash = '/';
    }
    return abs;
}

/* p relative to the tree whose canonical path is tree ("" for the tree itself; new string),
 * or NULL when p lies outside it. */
static char *under_tree(const char *tree, const char *p)
{
    char *c = canonical(p);
    size_t n = strlen(tree);
    char *rel = NULL;
    if (strcmp(c, tree) == 0)
        rel = xstrdup("");
    else if (strncmp(c, tree, n) == 0 && c[n] == '/')
        rel = xstrdup(c + n + 1);
    free(c);
    return rel;
}

/* The path of the change p names (new string), or NULL after printing why. A relative path
 * outside the tree when resolved from here is taken as relative to the tree (a diff's paths,
 * or PATH given from elsewhere). */
static char *change_path(const engine *eng, const char *p)
{
    const char *workdir = engine_workdir(eng);
    char *tree = workdir ? canonical(workdir) : NULL;
    char *rel = tree ? under_tree(tree, p) : NULL;
    free(tree);
    if (rel)
        return rel;
    if (p[0] != '/') {
        while (p[0] == '.' && p[1] == '/')
            p += 2;
        return xstrdup(strcmp(p, ".") == 0 ? "" : p);
    }
    fprintf(stderr, "review-lsp: --only %s is outside the tree under review (%s)\n", p,
            workdir ? workdir : "a diff without --root");
    return NULL;
}

/* Whether path is q or lies below the directory q ("" is the whole tree). */
static bool covers(const char *q, const char *path)
{
    size_t n = strlen(q);
    while (n && q[n - 1] == '/')
        n--;
    return n == 0 || (strncmp(path, q, n) == 0 && (path[n] == '\0' || path[n] == '/'));
}

int cli_only_filter(const cli_options *o, cli_review *cr)
{
    char **want = xcalloc(o->nonly + 1, sizeof *want);
    int rc = 0;
    for (size_t i = 0; i < o->nonly && !rc; i++)
        if (!(want[i] = change_path(cr->eng, o->only[i])))
            rc = EXIT_USAGE;
    review *r = cr->rev;
    for (size_t i = 0; i < o->nonly && !rc; i++) {
        bool in_change = false;
        for (size_t k = 0; k < r->chg->nfiles && !in_change; k++)
            in_change = covers(want[i], r->chg->files[k].path);
        if (!in_change)
            change_note(r->chg, "--only %s: not part of the change; nothing to report there",
                        o->only[i]);
    }
    size_t keep = 0;
    for (size_t i = 0; i < r->findings.n && !rc; i++) {
        finding *f = &r->findings.items[i];
        bool wanted = false;
        for (size_t k = 0; k < o->nonly && !wanted; k++)
            wanted = covers(want[k], f->path);
        if (wanted)
            r->findings.items[keep++] = *f;
        else
            finding_clear(f);
    }
    if (!rc)
        r->findings.n = keep;
    for (size_t i = 0; i < o->nonly; i++)
        free(want[i]);
    free(want);
    return rc;
}
