/* The twins collector (D5 evidence): a new source file whose substantive lines mostly exist
 * already in another file of the tree — the fwd/bwd, v2/v3, prefill/decode, gfx942/gfx950
 * copies where kernel bugs hide as an asymmetry between the two (a dtype width, a mask on one
 * side only, a flipped stride order, a bound the copy did not adapt). Over 600 aiter PRs 3%
 * add such a file (fused_gemm_a16w16_copy_x.py against _quant_x.py at 68%).
 *
 * A substantive line is a line longer than 21 characters once stripped; both files need at
 * least 40 distinct ones, and the share of the new file's lines found in the other must reach
 * 60%. The best match is reported as one Information finding on the new file, with the first
 * shared line of the twin as related information. It names the pair; judging it needs a
 * human diff of the two.
 *
 * Cost: one walk over the tree's source files (.git, build*, node_modules, 3rdparty skipped),
 * done only when the change adds a file with 40 or more substantive lines; lines are compared
 * as 64-bit hashes. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"

#define LINE_MIN 22          /* stripped length; "longer than 21" */
#define LINES_MIN 40
#define SHARE_MIN 0.60
#define FILE_MAX (2u << 20)

/* A new file under comparison. */
typedef struct newfile {
    const change_file *f;
    uint64_t *h;             /* sorted distinct hashes of its substantive added lines */
    size_t n;
    double best;
    char *best_path;
    int best_line;           /* first line of the twin holding a shared line */
} newfile;

typedef struct walk {
    const char *root;
    newfile *nf;
    size_t nnf;
    size_t nfiles;
    uint64_t *tmp;           /* scratch for one candidate's hashes */
    int *tmp_line;
    size_t tmp_cap;
} walk;

/* True when a name has a source extension twins compares. */
static bool is_source(const char *p)
{
    return str_ends(p, ".py") || str_ends(p, ".cu") || str_ends(p, ".cuh") || str_ends(p, ".h") ||
           str_ends(p, ".hpp") || str_ends(p, ".cpp") || str_ends(p, ".hip");
}

/* True when a directory is never walked (VCS data, builds, vendored code). */
static bool skip_dir(const char *name)
{
    return name[0] == '.' || str_starts(name, "build") || strcmp(name, "node_modules") == 0 ||
           strcmp(name, "3rdparty") == 0;
}

/* The hash of s[0..n) stripped of ASCII white space at both ends, or false when the stripped
 * line is too short to be substantive. */
static bool line_hash(const char *s, size_t n, uint64_t *h)
{
    while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\f' ||
                 s[n - 1] == '\v'))
        n--;
    if (n < LINE_MIN)
        return false;
    *h = hash_bytes(s, n);
    return true;
}

/* Ascending order of 64-bit hashes. */
static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort and de-duplicate hashes in place; returns the distinct count. */
static size_t sort_unique(uint64_t *h, size_t n)
{
    if (!n)
        return 0;
    qsort(h, n, sizeof *h, u64_cmp);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (h[i] != h[k - 1])
            h[k++] = h[i];
    return k;
}

/* True when the sorted array h[0..n) holds x. */
static bool has_hash(const uint64_t *h, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h[mid] == x)
            return true;
        if (h[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Compare one file of the tree with every new file. */
static void compare_file(walk *w, const char *rel, const char *t, size_t len)
{
    size_t n = 0;
    int line = 1;
    for (const char *p = t, *end = t + len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        uint64_t h;
        if (line_hash(p, (size_t)(e - p), &h)) {
            if (n == w->tmp_cap) {
                w->tmp_cap = w->tmp_cap ? 2 * w->tmp_cap : 1024;
                w->tmp = xrealloc(w->tmp, w->tmp_cap * sizeof *w->tmp);
                w->tmp_line = xrealloc(w->tmp_line, w->tmp_cap * sizeof *w->tmp_line);
            }
            w->tmp_line[n] = line;
            w->tmp[n++] = h;
        }
        p = e + 1;
    }
    if (n < LINES_MIN)
        return;
    /* the first shared line per new file, before sorting loses the order */
    int first[64];
    size_t nnf = w->nnf < 64 ? w->nnf : 64;
    for (size_t i = 0; i < nnf; i++) {
        first[i] = 0;
        for (size_t k = 0; k < n && !first[i]; k++)
            if (has_hash(w->nf[i].h, w->nf[i].n, w->tmp[k]))
                first[i] = w->tmp_line[k];
    }
    size_t distinct = sort_unique(w->tmp, n);
    if (distinct < LINES_MIN)
        return;
    for (size_t i = 0; i < nnf; i++) {
        newfile *nf = &w->nf[i];
        if (!first[i] || strcmp(rel, nf->f->path) == 0)
            continue;
        size_t common = 0, a = 0, b = 0;
        while (a < nf->n && b < distinct) {
            if (nf->h[a] == w->tmp[b]) {
                common++;
                a++;
                b++;
            } else if (nf->h[a] < w->tmp[b]) {
                a++;
            } else {
                b++;
            }
        }
        double share = (double)common / (double)nf->n;
        if (share > nf->best) {
            nf->best = share;
            free(nf->best_path);
            nf->best_path = xstrdup(rel);
            nf->best_line = first[i];
        }
    }
}

/* Order directory entries by name, so ties between twins resolve the same way everywhere. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk root/rel recursively in name order, comparing every source file. */
static void walk_dir(walk *w, const char *rel)
{
    char *dir = *rel ? xasprintf("%s/%s", w->root, rel) : xstrdup(w->root);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            *ARRAY_PUSH(names, n, cap) = xstrdup(de->d_name);
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        char *r = *rel ? xasprintf("%s/%s", rel, names[i]) : xstrdup(names[i]);
        char *full = xasprintf("%s/%s", dir, names[i]);
        struct stat st;
        if (lstat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                if (!skip_dir(names[i]))
                    walk_dir(w, r);
            } else if (S_ISREG(st.st_mode) && is_source(names[i]) &&
                       (size_t)st.st_size <= FILE_MAX) {
                size_t len;
                char *t = read_file(full, FILE_MAX, &len, NULL);
                if (t) {
                    w->nfiles++;
                    compare_file(w, r, t, len);
                    free(t);
                }
            }
        }
        free(full);
        free(r);
        free(names[i]);
    }
    free(names);
    free(dir);
}

/* Run the collector over the change. */
static void twins_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    newfile *nf = xcalloc(c->nfiles + 1, sizeof *nf);
    size_t nnf = 0;
    for (size_t i = 0; i < c->nfiles && nnf < 64; i++) {
        const change_file *f = &c->files[i];
        if (!f->is_new || f->is_deleted || f->is_skipped || !is_source(f->path))
            continue;
        uint64_t *h = xcalloc((size_t)f->nadd + 1, sizeof *h);
        size_t n = 0;
        for (size_t k = 0; k < f->nlines; k++)
            if (f->lines[k].kind == '+' && line_hash(f->lines[k].text, f->lines[k].len, &h[n]))
                n++;
        n = sort_unique(h, n);
        if (n < LINES_MIN) {
            free(h);
            continue;
        }
        nf[nnf].f = f;
        nf[nnf].h = h;
        nf[nnf++].n = n;
    }
    if (!nnf) {
        collector_status(ctx, "nothing found: no new source file with %d or more substantive "
                         "lines", LINES_MIN);
        free(nf);
        return;
    }
    const char *root = ctx->root ? ctx->root : c->head_root;
    if (!root) {
        collector_status(ctx, "skipped: no head tree to compare %zu new file%s against", nnf,
                         nnf == 1 ? "" : "s");
        for (size_t i = 0; i < nnf; i++)
            free(nf[i].h);
        free(nf);
        return;
    }
    walk w = {root, nf, nnf, 0, NULL, NULL, 0};
    walk_dir(&w, "");
    int found = 0;
    for (size_t i = 0; i < nnf; i++) {
        if (nf[i].best_path && nf[i].best >= SHARE_MIN) {
            finding *fd = findings_add(ctx->out, "D5", SEV_INFORMATION, nf[i].f->path, 1, "twins",
                                       "%.0f%% of this new file's %zu substantive lines already "
                                       "appear in %s — diff the two for what the copy did not "
                                       "adapt: a dtype width, a mask on one side only, a flipped "
                                       "stride order, a bound", 100.0 * nf[i].best, nf[i].n,
                                       nf[i].best_path);
            finding_add_related(fd, nf[i].best_path, nf[i].best_line,
                                "the existing file it mirrors (first shared line)");
            found++;
        }
        free(nf[i].best_path);
        free(nf[i].h);
    }
    if (found)
        collector_status(ctx, "found %d new file%s mirroring an existing one (%zu files compared)",
                         found, found == 1 ? "" : "s", w.nfiles);
    else
        collector_status(ctx, "nothing found: no new file closely mirrors an existing one (%zu "
                         "new, %zu files compared)", nnf, w.nfiles);
    free(w.tmp);
    free(w.tmp_line);
    free(nf);
}

const collector collector_twins = {
    .name = "twins",
    .rules = "D5",
    .run = twins_run,
};
