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
 * done only when the change adds a file with 40 or more substantive lines; files too small to
 * qualify are not read, lines are kept as sorted 64-bit hashes, and the index is kept in the
 * collector's state between reviews and re-read only for the paths touched since. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"
#include "engine/tree_walk.h"

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
    const char *best_path;   /* borrowed from the index */
    int best_line;           /* first line of the twin holding a shared line */
} newfile;

/* One source file of the tree: its distinct substantive line hashes, sorted, each with the
 * first line it appears on. Files with fewer than LINES_MIN are not kept. */
typedef struct tree_file {
    char *path;
    uint64_t *h;
    int *line;
    size_t n;
} tree_file;

/* The line index of a tree, kept between reviews in the collector's state and re-read for
 * the paths touched since the previous review. */
typedef struct twin_index {
    char *root;
    tree_file *files;        /* sorted by path */
    size_t n, cap;
    size_t nread;            /* source files read in the last full walk */
    bool python, c_family;   /* the languages it holds: a copy is made within a language (a new
                                Python file mirrors no C++ source), so only those of the new
                                files are read, and a later review wanting another one reads
                                the tree again */
} twin_index;

/* True when a name has a Python / a C, C++ or HIP source extension twins compares. */
static bool is_python_source(const char *p)
{
    return str_ends(p, ".py");
}

static bool is_c_source(const char *p)
{
    return str_ends(p, ".cu") || str_ends(p, ".cuh") || str_ends(p, ".h") || str_ends(p, ".hpp") ||
           str_ends(p, ".cpp") || str_ends(p, ".hip");
}

static bool is_source(const char *p)
{
    return is_python_source(p) || is_c_source(p);
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

/* A hash with the line it was seen on, for sorting both together. */
typedef struct hline {
    uint64_t h;
    int line;
} hline;

/* Order by hash, then by line (so the first occurrence comes first). */
static int hline_cmp(const void *a, const void *b)
{
    const hline *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Free one indexed file. */
static void tree_file_clear(tree_file *f)
{
    free(f->path);
    free(f->h);
    free(f->line);
    memset(f, 0, sizeof *f);
}

/* Free the index. */
static void twin_index_free(void *p)
{
    twin_index *ix = p;
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++)
        tree_file_clear(&ix->files[i]);
    free(ix->files);
    free(ix->root);
    free(ix);
}

/* Read root/rel and add it to the index when it has enough substantive lines. */
static void index_file(twin_index *ix, const char *rel)
{
    struct stat st;
    size_t len = 0;
    char *t = NULL;
    /* a file shorter than LINES_MIN lines of LINE_MIN bytes cannot qualify: not even read */
    if (gate_lstat(ix->root, rel, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= FILE_MAX &&
        (size_t)st.st_size >= (size_t)LINES_MIN * LINE_MIN)
        t = gate_read(ix->root, rel, FILE_MAX, &len, NULL);
    if (!t)
        return;
    ix->nread++;
    hline *hl = NULL;
    size_t n = 0, cap = 0;
    int line = 1;
    for (const char *p = t, *end = t + len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        uint64_t h;
        if (line_hash(p, (size_t)(e - p), &h)) {
            hline *x = ARRAY_PUSH(hl, n, cap);
            x->h = h;
            x->line = line;
        }
        p = e + 1;
    }
    free(t);
    if (n)
        qsort(hl, n, sizeof *hl, hline_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || hl[i].h != hl[k - 1].h)
            hl[k++] = hl[i];
    if (k >= LINES_MIN) {
        tree_file *f = ARRAY_PUSH(ix->files, ix->n, ix->cap);
        f->path = xstrdup(rel);
        f->n = k;
        f->h = xmalloc(k * sizeof *f->h);
        f->line = xmalloc(k * sizeof *f->line);
        for (size_t i = 0; i < k; i++) {
            f->h[i] = hl[i].h;
            f->line[i] = hl[i].line;
        }
    }
    free(hl);
}

/* Order indexed files by path, so ties between twins resolve the same way everywhere. */
static int file_cmp(const void *a, const void *b)
{
    return strcmp(((const tree_file *)a)->path, ((const tree_file *)b)->path);
}

/* tree_walk callback: index one wanted file. */
static void visit_file(void *data, const char *rel)
{
    index_file(data, rel);
}


/* Keep a kept index current before anything else runs: drop it when the root moved or what
 * changed on disk is unknown, else re-read the paths touched since the previous review (also
 * when this review does not need the index, so no update is ever missed). */
static void twin_index_refresh(collector_ctx *ctx, const char *root)
{
    twin_index *ix = ctx->state ? *ctx->state : NULL;
    if (!ix)
        return;
    if (!root || strcmp(ix->root, root) != 0 || !ctx->touched) {
        twin_index_free(ix);
        *ctx->state = NULL;
        return;
    }
    bool moved = false;
    for (size_t t = 0; ctx->touched[t]; t++) {
        const char *rel = ctx->touched[t];
        if (!(ix->python && is_python_source(rel)) && !(ix->c_family && is_c_source(rel)))
            continue;
        if (tree_walk_in_skipped_dir(rel))
            continue;
        for (size_t i = 0; i < ix->n; i++)
            if (strcmp(ix->files[i].path, rel) == 0) {
                tree_file_clear(&ix->files[i]);
                ix->files[i] = ix->files[--ix->n];
                break;
            }
        index_file(ix, rel);
        moved = true;
    }
    if (moved && ix->n)
        qsort(ix->files, ix->n, sizeof *ix->files, file_cmp);
}

/* The index of the files in the languages asked for: the kept one (refreshed at the start of
 * the run) when it holds them, else one built by walking the tree, kept in the state when
 * there is one. */
static twin_index *twin_index_get(collector_ctx *ctx, const char *root, bool python, bool c_family)
{
    twin_index *ix = ctx->state ? *ctx->state : NULL;
    if (ix && ((python && !ix->python) || (c_family && !ix->c_family))) {
        python |= ix->python;
        c_family |= ix->c_family;
        twin_index_free(ix);
        *ctx->state = ix = NULL;
    }
    if (!ix) {
        ix = xcalloc(1, sizeof *ix);
        ix->root = xstrdup(root);
        ix->python = python;
        ix->c_family = c_family;
        tree_walk(ix->root, !c_family ? is_python_source : !python ? is_c_source : is_source, visit_file, ix);
        if (ix->n)
            qsort(ix->files, ix->n, sizeof *ix->files, file_cmp);
        if (ctx->state)
            *ctx->state = ix;
    }
    return ix;
}

/* Find the best twin of one new file in the index. */
static void best_twin(const twin_index *ix, newfile *nf)
{
    /* a file can only reach the bar if it has that many distinct lines at all */
    size_t need = (size_t)(SHARE_MIN * (double)nf->n);
    for (size_t i = 0; i < ix->n; i++) {
        const tree_file *tf = &ix->files[i];
        if (tf->n < need || strcmp(tf->path, nf->f->path) == 0)
            continue;
        size_t common = 0, a = 0, b = 0;
        int first = 0;
        while (a < nf->n && b < tf->n) {
            if (nf->h[a] == tf->h[b]) {
                common++;
                if (!first || tf->line[b] < first)
                    first = tf->line[b];
                a++;
                b++;
            } else if (nf->h[a] < tf->h[b]) {
                a++;
            } else {
                b++;
            }
        }
        double share = (double)common / (double)nf->n;
        if (share > nf->best) {
            nf->best = share;
            nf->best_path = tf->path;
            nf->best_line = first;
        }
    }
}

/* Run the collector over the change. */
static void twins_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    const char *root = ctx->root ? ctx->root : c->head_root;
    twin_index_refresh(ctx, root);
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
    if (!root) {
        collector_status(ctx, "skipped: no head tree to compare %zu new file%s against", nnf,
                         nnf == 1 ? "" : "s");
        for (size_t i = 0; i < nnf; i++)
            free(nf[i].h);
        free(nf);
        return;
    }
    bool py = false, c_family = false;
    for (size_t i = 0; i < nnf; i++) {
        py |= is_python_source(nf[i].f->path);
        c_family |= is_c_source(nf[i].f->path);
    }
    twin_index *ix = twin_index_get(ctx, root, py, c_family);
    int found = 0;
    for (size_t i = 0; i < nnf; i++) {
        best_twin(ix, &nf[i]);
        if (nf[i].best_path && nf[i].best >= SHARE_MIN) {
            finding *fd = findings_add(ctx->out, "D5", SEV_INFORMATION, nf[i].f->path, 1,
                                       "%.0f%% of this new file's %zu substantive lines already "
                                       "appear in %s — diff the two for what the copy did not "
                                       "adapt: a dtype width, a mask on one side only, a flipped "
                                       "stride order, a bound", 100.0 * nf[i].best, nf[i].n,
                                       nf[i].best_path);
            finding_add_related(fd, nf[i].best_path, nf[i].best_line,
                                "the existing file it mirrors (first shared line)");
            found++;
        }
        free(nf[i].h);
    }
    if (found)
        collector_status(ctx, "found %d new file%s mirroring an existing one (%zu files compared)",
                         found, found == 1 ? "" : "s", ix->n);
    else
        collector_status(ctx, "nothing found: no new file closely mirrors an existing one (%zu "
                         "new, %zu files compared)", nnf, ix->n);
    if (!ctx->state)
        twin_index_free(ix);
    free(nf);
}

const collector collector_twins = {
    .name = "twins",
    .rules = "D5",
    .run = twins_run,
    .runs_apart = true, /* it reads the change and the tree's files only */
    .free_state = twin_index_free,
};
