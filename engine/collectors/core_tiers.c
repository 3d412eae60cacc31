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
 * change touches a header, and counting only the touched headers' names. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"

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

typedef struct includer {
    char *path;
    int line;
} includer;

/* A touched header and who includes it. */
typedef struct header {
    const change_file *f;
    const char *base;
    int fanin;
    includer shown[INCLUDERS_SHOWN];
    int nshown;
} header;

typedef struct walk {
    const char *root;
    header *h;
    size_t nh;
    size_t nfiles;
} walk;

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

/* True when a directory is never walked (VCS data, builds, vendored code). */
static bool skip_dir(const char *name)
{
    return name[0] == '.' || str_starts(name, "build") || strcmp(name, "node_modules") == 0 ||
           strcmp(name, "3rdparty") == 0;
}

/* Count the #include lines of one file's text against the touched headers. */
static void scan_includes(walk *w, const char *rel, const char *t, size_t len)
{
    int line = 1;
    for (const char *p = t, *end = t + len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *s = p;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (s < e && *s == '#') {
            s++;
            while (s < e && (*s == ' ' || *s == '\t'))
                s++;
            if ((size_t)(e - s) > 7 && memcmp(s, "include", 7) == 0) {
                s += 7;
                while (s < e && (*s == ' ' || *s == '\t'))
                    s++;
                if (s < e && (*s == '"' || *s == '<')) {
                    const char *q = ++s;
                    while (q < e && *q != '"' && *q != '>')
                        q++;
                    const char *b = q;
                    while (b > s && b[-1] != '/')
                        b--;
                    for (size_t i = 0; q < e && i < w->nh; i++) {
                        header *h = &w->h[i];
                        size_t bl = strlen(h->base);
                        if ((size_t)(q - b) != bl || memcmp(b, h->base, bl) != 0)
                            continue;
                        h->fanin++;
                        if (h->nshown < INCLUDERS_SHOWN && strcmp(rel, h->f->path) != 0) {
                            h->shown[h->nshown].path = xstrdup(rel);
                            h->shown[h->nshown++].line = line;
                        }
                    }
                }
            }
        }
        p = e + 1;
    }
}

/* Order directory entries by name, so the includers shown do not depend on the file system. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk root/rel recursively in name order, scanning every C/C++ file. */
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
            } else if (S_ISREG(st.st_mode) && counts_includes(names[i]) &&
                       (size_t)st.st_size <= FILE_MAX) {
                size_t len;
                char *t = read_file(full, FILE_MAX, &len, NULL);
                if (t) {
                    w->nfiles++;
                    scan_includes(w, r, t, len);
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
    int found = 0;
    size_t nheaders = 0;
    header *hs = xcalloc(c->nfiles + 1, sizeof *hs);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        int tier = in_list(tier1, f->path) ? 1 : in_list(tier2, f->path) ? 2 : 0;
        if (tier) {
            findings_add(ctx->out, "STEP4", SEV_INFORMATION, f->path, first_changed_line(f),
                         "core_tiers", tier == 1 ?
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
    const char *root = ctx->root ? ctx->root : c->head_root;
    size_t nwalked = 0;
    int most = -1;
    if (nheaders && root) {
        walk w = {root, hs, nheaders, 0};
        walk_dir(&w, "");
        nwalked = w.nfiles;
        for (size_t i = 0; i < nheaders; i++) {
            header *h = &hs[i];
            if (h->fanin > most)
                most = h->fanin;
            if (h->fanin >= FANIN_TIER2) {
                finding *fd = findings_add(ctx->out, "STEP4", SEV_INFORMATION, h->f->path,
                                           first_changed_line(h->f), "core_tiers",
                                           "%s is a Tier 2 core header: %d files of the tree "
                                           "#include it — check every includer still builds and "
                                           "behaves", h->base, h->fanin);
                for (int k = 0; k < h->nshown; k++)
                    finding_add_related(fd, h->shown[k].path, h->shown[k].line,
                                        "includes %s", h->base);
                found++;
            }
            for (int k = 0; k < h->nshown; k++)
                free(h->shown[k].path);
        }
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
};
