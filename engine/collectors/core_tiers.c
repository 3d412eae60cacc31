/* The core-file tiers collector (STEP4 evidence): which touched files carry the most weight.
 * Tier 1 is aiter/jit/core.py and aiter/__init__.py (broken, `import aiter` fails and every op
 * with it); Tier 2 is the dispatch or public API of an op several model families use (a fixed
 * list of eight Python files) and any touched header (.h, .hpp, .cuh) whose basename ten or
 * more files of the tree #include — counted from the tree, so a header that becomes popular
 * joins by itself (aiter_opus_plus.h, 18 includers, aiter#5273). rocm_ops.hpp, the generated
 * op registry every new op appends to, is excepted. The single-op wrappers in aiter/ops/ stay
 * Tier 3 on purpose.
 *
 * Each core file gets one file-level Information finding on its first changed line; a Tier 2
 * header's finding points at a few of its includers.
 *
 * Cost: the include fan-in needs one walk over the C/C++ files of the tree, done only when the
 * change touches a header; the include index it builds is kept in the collector's state
 * between reviews and re-read only for the paths touched since the previous one. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"
#include "engine/tree_walk.h"

#define FANIN_TIER2 10
#define FILE_MAX (2u << 20)
#define INCLUDERS_SHOWN 3

static const char *const tier1[] = {"aiter/jit/core.py", "aiter/__init__.py", NULL};
static const char *const tier2[] = {
    "aiter/fused_moe.py", "aiter/mla.py", "aiter/tuned_gemm.py", "aiter/ops/mha.py",
    "aiter/ops/attention.py", "aiter/ops/gemm_op_a8w8.py", "aiter/ops/moe_op.py",
    "aiter/ops/quant.py", NULL,
};
/* Generated registries: huge fan-in, always changed mechanically. */
static const char *const exempt[] = {"rocm_ops.hpp", NULL};

/* One #include of a file: the included basename and its line. */
typedef struct include {
    char *base;
    int line;
} include;

/* The includes of one C/C++ file of the tree. */
typedef struct inc_file {
    char *path;
    include *inc;
    size_t n, cap;
} inc_file;

/* The include index of a tree, kept between reviews in the collector's state and updated for
 * the paths touched since the previous review. */
typedef struct fanin_index {
    char *root;
    inc_file *files;         /* sorted by path */
    size_t n, cap;
} fanin_index;

/* A touched header and who includes it. */
typedef struct header {
    const change_file *f;
    const char *base;
    int fanin;
    const inc_file *shown[INCLUDERS_SHOWN];
    int shown_line[INCLUDERS_SHOWN];
    int nshown;
} header;

/* The last path component of p (borrowed). */
static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* True when s is one of list. */
static bool in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

/* True when a file name is a C/C++ file whose includes count. */
static bool counts_includes(const char *name)
{
    return str_ends(name, ".cu") || str_ends(name, ".cuh") || str_ends(name, ".cpp") ||
           str_ends(name, ".hpp") || str_ends(name, ".h");
}

/* Record every #include of a file's text (by the included file's basename). */
static void scan_includes(inc_file *f, const char *t, size_t len)
{
    int line = 1;
    for (const char *p = t, *end = t + len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *s = p;
        p = e + 1;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (s >= e || *s != '#')
            continue;
        s++;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if ((size_t)(e - s) <= 7 || memcmp(s, "include", 7) != 0)
            continue;
        s += 7;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (s >= e || (*s != '"' && *s != '<'))
            continue;
        const char *q = ++s;
        while (q < e && *q != '"' && *q != '>')
            q++;
        if (q >= e)
            continue;
        const char *b = q;
        while (b > s && b[-1] != '/')
            b--;
        include *in = ARRAY_PUSH(f->inc, f->n, f->cap);
        in->base = xstrndup(b, (size_t)(q - b));
        in->line = line;
    }
}

/* Free one file's includes. */
static void inc_file_clear(inc_file *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->inc[i].base);
    free(f->inc);
    free(f->path);
    memset(f, 0, sizeof *f);
}

/* Free the index. */
static void fanin_free(void *p)
{
    fanin_index *ix = p;
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++)
        inc_file_clear(&ix->files[i]);
    free(ix->files);
    free(ix->root);
    free(ix);
}

/* Order of files by path. */
static int file_cmp(const void *a, const void *b)
{
    return strcmp(((const inc_file *)a)->path, ((const inc_file *)b)->path);
}

/* Read root/rel and add its includes to the index (unsorted). */
static void index_file(fanin_index *ix, const char *rel)
{
    struct stat st;
    size_t len;
    char *t = NULL;
    if (gate_lstat(ix->root, rel, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= FILE_MAX)
        t = gate_read(ix->root, rel, FILE_MAX, &len, NULL);
    if (!t)
        return;
    inc_file *f = ARRAY_PUSH(ix->files, ix->n, ix->cap);
    memset(f, 0, sizeof *f);
    f->path = xstrdup(rel);
    scan_includes(f, t, len);
    free(t);
}

/* tree_walk callback: index one wanted file. */
static void visit_file(void *data, const char *rel)
{
    index_file(data, rel);
}


/* Keep a kept index current before anything else runs: drop it when the root moved or what
 * changed on disk is unknown, else re-read the paths touched since the previous review (also
 * when this review does not need the index, so no update is ever missed). */
static void fanin_index_refresh(collector_ctx *ctx, const char *root)
{
    fanin_index *ix = ctx->state ? *ctx->state : NULL;
    if (!ix)
        return;
    if (!root || strcmp(ix->root, root) != 0 || !ctx->touched) {
        fanin_free(ix);
        *ctx->state = NULL;
        return;
    }
    bool moved = false;
    for (size_t t = 0; ctx->touched[t]; t++) {
        const char *rel = ctx->touched[t];
        if (!counts_includes(base_name(rel)) || tree_walk_in_skipped_dir(rel))
            continue;
        for (size_t i = 0; i < ix->n; i++)
            if (strcmp(ix->files[i].path, rel) == 0) {
                inc_file_clear(&ix->files[i]);
                ix->files[i] = ix->files[--ix->n];
                break;
            }
        index_file(ix, rel);
        moved = true;
    }
    if (moved && ix->n)
        qsort(ix->files, ix->n, sizeof *ix->files, file_cmp);
}

/* The index: the kept one (refreshed at the start of the run), else one built by walking the
 * tree, kept in the state when there is one. */
static fanin_index *fanin_get(collector_ctx *ctx, const char *root, bool *rebuilt)
{
    fanin_index *ix = ctx->state ? *ctx->state : NULL;
    *rebuilt = false;
    if (!ix) {
        ix = xcalloc(1, sizeof *ix);
        ix->root = xstrdup(root);
        tree_walk(ix->root, counts_includes, visit_file, ix);
        if (ix->n)
            qsort(ix->files, ix->n, sizeof *ix->files, file_cmp);
        *rebuilt = true;
        if (ctx->state)
            *ctx->state = ix;
    }
    return ix;
}

/* Count who includes each touched header, keeping the first few includers in path order. */
static void count_fanin(const fanin_index *ix, header *hs, size_t nh)
{
    for (size_t i = 0; i < ix->n; i++) {
        const inc_file *f = &ix->files[i];
        for (size_t k = 0; k < f->n; k++)
            for (size_t h = 0; h < nh; h++) {
                if (strcmp(f->inc[k].base, hs[h].base) != 0)
                    continue;
                hs[h].fanin++;
                if (hs[h].nshown < INCLUDERS_SHOWN && strcmp(f->path, hs[h].f->path) != 0) {
                    hs[h].shown[hs[h].nshown] = f;
                    hs[h].shown_line[hs[h].nshown++] = f->inc[k].line;
                }
            }
    }
}

/* The first changed head line of a file (1 when it has none). */
static int first_changed_line(const change_file *f)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind != ' ')
            return f->lines[i].new_no > 0 ? f->lines[i].new_no : 1;
    return 1;
}

/* Run the collector over the change. */
static void core_tiers_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    const char *root = ctx->root ? ctx->root : c->head_root;
    fanin_index_refresh(ctx, root);
    int found = 0;
    size_t nheaders = 0;
    header *hs = xcalloc(c->nfiles + 1, sizeof *hs);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        int tier = in_list(tier1, f->path) ? 1 : in_list(tier2, f->path) ? 2 : 0;
        if (tier) {
            findings_add(ctx->out, "STEP4", SEV_INFORMATION, f->path, first_changed_line(f), tier == 1 ?
                         "%s is a Tier 1 core file: if it breaks, `import aiter` fails and "
                         "every op with it — check the import chain, default dispatch and "
                         "public API" :
                         "%s is a Tier 2 core file: the dispatch or public API of an op used "
                         "by more than one model family — check default dispatch and public API",
                         f->path);
            found++;
            continue;
        }
        const char *b = base_name(f->path);
        if ((str_ends(b, ".h") || str_ends(b, ".hpp") || str_ends(b, ".cuh")) && !f->is_deleted &&
            !in_list(exempt, b)) {
            hs[nheaders].f = f;
            hs[nheaders++].base = b;
        }
    }
    size_t nwalked = 0;
    int most = -1;
    if (nheaders && root) {
        bool rebuilt;
        fanin_index *ix = fanin_get(ctx, root, &rebuilt);
        nwalked = ix->n;
        count_fanin(ix, hs, nheaders);
        for (size_t i = 0; i < nheaders; i++) {
            header *h = &hs[i];
            if (h->fanin > most)
                most = h->fanin;
            if (h->fanin >= FANIN_TIER2) {
                finding *fd = findings_add(ctx->out, "STEP4", SEV_INFORMATION, h->f->path,
                                           first_changed_line(h->f),
                                           "%s is a Tier 2 core header: %d files of the tree "
                                           "#include it — check every includer still builds and "
                                           "behaves", h->base, h->fanin);
                for (int k = 0; k < h->nshown; k++)
                    finding_add_related(fd, h->shown[k]->path, h->shown_line[k],
                                        "includes %s", h->base);
                found++;
            }
        }
        if (!ctx->state)
            fanin_free(ix);
    }
    free(hs);
    if (found)
        collector_status(ctx, "found %d core file%s (Tier 1/2) in the change", found,
                         found == 1 ? "" : "s");
    else if (nheaders && !root)
        collector_status(ctx, "nothing found: no Tier 1/2 file touched; skipped the header "
                         "fan-in: no head tree to count includes in");
    else if (nheaders)
        collector_status(ctx, "nothing found: no Tier 1/2 file touched (%zu header%s checked, "
                         "largest fan-in %d of %zu C/C++ files, Tier 2 needs %d)", nheaders,
                         nheaders == 1 ? "" : "s", most, nwalked, FANIN_TIER2);
    else
        collector_status(ctx, "nothing found: no Tier 1/2 file touched");
}

const collector collector_core_tiers = {
    .name = "core_tiers",
    .rules = "STEP4",
    .run = core_tiers_run,
    .free_state = fanin_free,
};
