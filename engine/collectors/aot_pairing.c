/* The AOT pairing collector (rule D12): a public top-level name that the change adds to an
 * aiter/ops/flydsl module which the FlyDSL pre-compiler (aiter/aot/flydsl/<name>.py) already
 * imports from, while no line the change adds under aiter/aot/flydsl/ mentions it.
 *
 * The pre-compiler re-derives the runtime's variant choice from the symbols it imports, so a
 * new resolver the runtime starts using and AOT never learns about makes the two drift apart
 * (aiter#4397 added resolve_flydsl_stage1_tile_n; AOT learnt it in #4429). The pairing is by
 * import statement, not by file name: AOT's own imports say which ops modules it depends on.
 *
 * The import table is read from the base version of each AOT file (repo mode), else from the
 * file under the root (--diff mode, or an AOT file the change adds); the AOT directory itself
 * is listed from the root on disk, plus AOT files the change deletes. Candidates come from the
 * head text of the changed ops modules; a name counts only when its definition line is an
 * added line (a changed body is not a new contract). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/diff_lines.h"
#include "engine/repo.h"
#include "engine/syntax.h"

#define AOT_DIR "aiter/aot/flydsl/"
#define OPS_PREFIX "aiter/ops/flydsl"
#define OPS_MODULE "aiter.ops.flydsl"

/* One (module, name) pair AOT imports, or a whole module (name NULL). */
typedef struct aot_import {
    char *module;
    char *name;
    char *aot_path;
    int line;
} aot_import;

typedef struct aot_table {
    aot_import *items;
    size_t n, cap;
    size_t nfiles;
} aot_table;

/* Free the table's contents. */
static void table_free(aot_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->items[i].module);
        free(t->items[i].name);
        free(t->items[i].aot_path);
    }
    free(t->items);
    memset(t, 0, sizeof *t);
}

/* The dotted package a Python path's relative imports start from. A new string. */
static char *package_of(const char *path)
{
    char *m = xstrndup(path, strlen(path) - 3);
    for (char *p = m; *p; p++)
        if (*p == '/')
            *p = '.';
    char *last = strrchr(m, '.');
    if (str_ends(m, ".__init__"))
        *last = '\0';
    else if (last)
        *last = '\0';
    else
        m[0] = '\0';
    return m;
}

/* The absolute module of an import written in path, or NULL when a relative import climbs
 * out of the tree. A new string. */
static char *absolute_module(const char *path, const syn_import *im)
{
    if (im->level == 0)
        return xstrdup(im->module);
    char *pkg = package_of(path);
    for (int up = im->level - 1; up > 0; up--) {
        char *dot = strrchr(pkg, '.');
        if (!dot && !*pkg) {
            free(pkg);
            return NULL;
        }
        if (dot)
            *dot = '\0';
        else
            pkg[0] = '\0';
    }
    char *m = !*pkg ? xstrdup(im->module)
              : *im->module ? xasprintf("%s.%s", pkg, im->module) : xstrdup(pkg);
    free(pkg);
    return m;
}

/* True when module is aiter.ops.flydsl or below it. */
static bool is_ops_module(const char *m)
{
    size_t n = strlen(OPS_MODULE);
    return strncmp(m, OPS_MODULE, n) == 0 && (m[n] == '\0' || m[n] == '.');
}

/* Text of an AOT file: its base version in repo mode, else the file under the root. */
static char *aot_text(collector_ctx *ctx, const char *path, size_t *len)
{
    if (ctx->rp) {
        char *t = repo_base_text(ctx->rp, path, len, NULL);
        if (t)
            return t;
    }
    const char *root = ctx->root ? ctx->root : ctx->chg->head_root;
    if (!root)
        return NULL;
    return gate_read(root, path, 4u << 20, len, NULL);
}

/* Add the aiter.ops.flydsl imports of one AOT file to the table. */
static void table_add_file(collector_ctx *ctx, aot_table *t, const char *path)
{
    size_t len = 0;
    char *text = aot_text(ctx, path, &len);
    if (!text)
        return;
    syntax_doc *d = syntax_parse(SYN_PYTHON, text, len, NULL);
    free(text);
    if (!d)
        return;
    t->nfiles++;
    syn_import_list ims = {0};
    syntax_imports(d, &ims);
    for (size_t i = 0; i < ims.n; i++) {
        char *m = absolute_module(path, &ims.items[i]);
        if (!m || !is_ops_module(m)) {
            free(m);
            continue;
        }
        aot_import *a = ARRAY_PUSH(t->items, t->n, t->cap);
        a->module = m;
        a->name = ims.items[i].name && strcmp(ims.items[i].name, "*") != 0
                      ? xstrdup(ims.items[i].name) : NULL;
        a->aot_path = xstrdup(path);
        a->line = ims.items[i].line;
    }
    syn_import_list_free(&ims);
    syntax_free(d);
}

/* Compare two strings through pointers (for qsort). */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Build the table from every aiter/aot/flydsl/<name>.py (not recursive). Returns false when the
 * directory is nowhere to be found. */
static bool table_build(collector_ctx *ctx, aot_table *t)
{
    char **paths = NULL;
    size_t n = 0, cap = 0;
    const char *root = ctx->root ? ctx->root : ctx->chg->head_root;
    bool seen = false;
    if (root) {
        DIR *dh = gate_opendir(root, AOT_DIR);
        if (dh) {
            seen = true;
            struct dirent *e;
            while ((e = readdir(dh)))
                if (e->d_name[0] != '.' && str_ends(e->d_name, ".py"))
                    *ARRAY_PUSH(paths, n, cap) = xasprintf(AOT_DIR "%s", e->d_name);
            closedir(dh);
        }
    }
    for (size_t i = 0; i < ctx->chg->nfiles; i++) {
        const change_file *f = &ctx->chg->files[i];
        const char *p = f->is_deleted ? f->path : f->old_path;
        if (!p || !str_starts(p, AOT_DIR) || strchr(p + strlen(AOT_DIR), '/') || !str_ends(p, ".py"))
            continue;
        bool dup = false;
        for (size_t k = 0; k < n; k++)
            dup |= strcmp(paths[k], p) == 0;
        if (!dup && (f->is_deleted || ctx->rp)) {
            *ARRAY_PUSH(paths, n, cap) = xstrdup(p);
            seen = true;
        }
    }
    if (n)
        qsort(paths, n, sizeof *paths, cmp_str);
    for (size_t i = 0; i < n; i++) {
        table_add_file(ctx, t, paths[i]);
        free(paths[i]);
    }
    free(paths);
    return seen;
}

/* True when an AOT import depends on module: it imports from it, or it imports module as a
 * submodule of its package (`from aiter.ops.flydsl.kernels import tiles`). */
static bool covers(const aot_import *a, const char *module)
{
    if (strcmp(a->module, module) == 0)
        return true;
    size_t n = strlen(a->module);
    return a->name && strncmp(module, a->module, n) == 0 && module[n] == '.' &&
           strcmp(module + n + 1, a->name) == 0;
}

/* True when some AOT import depends on module. */
static bool table_has_module(const aot_table *t, const char *module)
{
    for (size_t i = 0; i < t->n; i++)
        if (covers(&t->items[i], module))
            return true;
    return false;
}

/* True when AOT already imports name from module. */
static bool table_has_name(const aot_table *t, const char *module, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].name && strcmp(t->items[i].module, module) == 0 &&
            strcmp(t->items[i].name, name) == 0)
            return true;
    return false;
}

/* True when name occurs as a whole word in text. */
static bool has_word(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        bool lw = p > text && (p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                               ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
        char c = p[n];
        bool rw = c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
        if (!lw && !rw)
            return true;
    }
    return false;
}

/* Every line the change adds under aiter/aot/flydsl/, joined. */
static char *aot_added_text(const change *c)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (!str_starts(f->path, AOT_DIR))
            continue;
        for (size_t k = 0; k < f->nlines; k++)
            if (f->lines[k].kind == '+') {
                sb_add(&sb, f->lines[k].text, f->lines[k].len);
                sb_addc(&sb, '\n');
            }
    }
    return sb_detach(&sb);
}

/* The dotted module of an ops path ("aiter/ops/flydsl/x/__init__.py" is aiter.ops.flydsl.x). */
static char *module_of(const char *path)
{
    char *m = xstrndup(path, strlen(path) - 3);
    for (char *p = m; *p; p++)
        if (*p == '/')
            *p = '.';
    if (str_ends(m, ".__init__"))
        m[strlen(m) - strlen(".__init__")] = '\0';
    return m;
}

/* The identifier nodes a top-level statement defines (def, class, plain assignment targets). */
static size_t defined_names(TSNode st, TSNode *out, size_t max)
{
    const char *t = ts_node_type(st);
    if (strcmp(t, "decorated_definition") == 0) {
        st = ts_node_child_by_field_name(st, "definition", 10);
        t = ts_node_is_null(st) ? "" : ts_node_type(st);
    }
    if (strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0) {
        TSNode nm = ts_node_child_by_field_name(st, "name", 4);
        if (ts_node_is_null(nm))
            return 0;
        out[0] = nm;
        return 1;
    }
    if (strcmp(t, "expression_statement") != 0 || ts_node_named_child_count(st) == 0)
        return 0;
    TSNode a = ts_node_named_child(st, 0);
    size_t n = 0;
    while (!ts_node_is_null(a) && strcmp(ts_node_type(a), "assignment") == 0 && n < max) {
        TSNode left = ts_node_child_by_field_name(a, "left", 4);
        if (!ts_node_is_null(left) && strcmp(ts_node_type(left), "identifier") == 0)
            out[n++] = left;
        else if (!ts_node_is_null(left) && (strcmp(ts_node_type(left), "pattern_list") == 0 ||
                                            strcmp(ts_node_type(left), "tuple_pattern") == 0))
            for (uint32_t i = 0; i < ts_node_named_child_count(left) && n < max; i++) {
                TSNode c = ts_node_named_child(left, i);
                if (strcmp(ts_node_type(c), "identifier") == 0)
                    out[n++] = c;
            }
        a = ts_node_child_by_field_name(a, "right", 5); /* a = b = value */
    }
    return n;
}

/* Check one changed ops module; returns the number of findings. */
static int check_module(collector_ctx *ctx, const aot_table *t, const change_file *f,
                        const char *module, const char *aot_added, int *skipped, char **why)
{
    size_t len;
    char *text = change_head_text(ctx->chg, f, &len, why);
    if (!text) {
        (*skipped)++;
        return 0;
    }
    syntax_doc *owned = NULL;
    const syntax_doc *d = collector_doc(ctx, f, false, text, len, &owned, why);
    free(text);
    if (!d) {
        (*skipped)++;
        return 0;
    }
    int found = 0;
    TSNode root = ts_tree_root_node(d->tree);
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode names[16];
        size_t nn = defined_names(ts_node_named_child(root, i), names, 16);
        for (size_t k = 0; k < nn; k++) {
            char *name = syntax_node_text(d, names[k]);
            int line = syntax_node_line(names[k]);
            if (name[0] == '_' || table_has_name(t, module, name) || !diff_lines_added(f, line) ||
                has_word(aot_added, name)) {
                free(name);
                continue;
            }
            strbuf users;
            sb_init(&users);
            for (size_t a = 0; a < t->n; a++) {
                if (!covers(&t->items[a], module) ||
                    (users.len && str_contains(users.buf, t->items[a].aot_path)))
                    continue;
                sb_addf(&users, "%s%s", users.len ? ", " : "", t->items[a].aot_path);
            }
            TSPoint s = ts_node_start_point(names[k]), e = ts_node_end_point(names[k]);
            finding *fd = findings_add(
                ctx->out, "D12", SEV_INFORMATION, f->path, line,
                "`%s` is new and public in %s, which the FlyDSL pre-compiler imports from (%s), "
                "but no line this change adds under " AOT_DIR " mentions it — if it decides "
                "which variant gets built, teach AOT or its prebuilt variants drift from the "
                "runtime", name, module, users.buf);
            fd->range = (text_range){line, (int)s.column, (int)e.row + 1, (int)e.column};
            for (size_t a = 0; a < t->n; a++) {
                bool first = true;
                for (size_t b = 0; b < a; b++)
                    if (covers(&t->items[b], module) &&
                        strcmp(t->items[b].aot_path, t->items[a].aot_path) == 0)
                        first = false;
                if (first && covers(&t->items[a], module))
                    finding_add_related(fd, t->items[a].aot_path, t->items[a].line,
                                        "the pre-compiler depends on %s here", module);
            }
            sb_free(&users);
            free(name);
            found++;
        }
    }
    syntax_free(owned);
    return found;
}

/* Run the collector over the change. */
static void aot_pairing_run(collector_ctx *ctx)
{
    size_t ncand = 0;
    for (size_t i = 0; i < ctx->chg->nfiles; i++) {
        const change_file *f = &ctx->chg->files[i];
        if (str_starts(f->path, OPS_PREFIX) && str_ends(f->path, ".py") && f->nadd &&
            !f->is_deleted && !f->is_skipped)
            ncand++;
    }
    if (!ncand) {
        collector_status(ctx, "nothing found: no aiter/ops/flydsl Python file gains lines");
        return;
    }
    aot_table t = {0};
    if (!table_build(ctx, &t)) {
        if (ctx->root || ctx->chg->head_root)
            collector_status(ctx, "nothing found: the tree has no " AOT_DIR ", so there is no "
                                  "pre-compiler to pair with");
        else
            collector_status(ctx, "skipped: no repository and no root directory to read "
                                  AOT_DIR " from");
        table_free(&t);
        return;
    }
    if (!t.n) {
        collector_status(ctx, "nothing found: " AOT_DIR " imports nothing from " OPS_MODULE);
        table_free(&t);
        return;
    }
    char *aot_added = aot_added_text(ctx->chg);
    int found = 0, skipped = 0, paired = 0;
    char *why = NULL;
    for (size_t i = 0; i < ctx->chg->nfiles; i++) {
        const change_file *f = &ctx->chg->files[i];
        if (!str_starts(f->path, OPS_PREFIX) || !str_ends(f->path, ".py") || !f->nadd ||
            f->is_deleted || f->is_skipped)
            continue;
        char *module = module_of(f->path);
        if (table_has_module(&t, module)) {
            paired++;
            char *w = NULL;
            found += check_module(ctx, &t, f, module, aot_added, &skipped, &w);
            if (w && !why)
                why = w;
            else
                free(w);
        }
        free(module);
    }
    size_t nmods = 0;
    for (size_t i = 0; i < t.n; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(t.items[k].module, t.items[i].module) != 0;
        nmods += first;
    }
    if (!paired)
        collector_status(ctx, "nothing found: none of the %zu changed aiter/ops/flydsl files is "
                         "a module %s imports from", ncand, AOT_DIR);
    else if (found)
        collector_status(ctx, "found %d new FlyDSL ops name%s the pre-compiler was not taught",
                         found, found == 1 ? "" : "s");
    else if (skipped && skipped == paired)
        collector_status(ctx, "skipped: %s", why ? why : "head text not available");
    else
        collector_status(ctx, "nothing found: no new public name in the %d changed module%s "
                         "that %s imports from (%zu modules, %zu imports in %zu files)",
                         paired, paired == 1 ? "" : "s", AOT_DIR, nmods, t.n, t.nfiles);
    free(why);
    free(aot_added);
    table_free(&t);
}

const collector collector_aot_pairing = {
    .name = "aot_pairing",
    .rules = "D12",
    .run = aot_pairing_run,
};
