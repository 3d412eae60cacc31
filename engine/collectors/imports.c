/* The unresolved-imports collector (UNRESOLVED-IMPORT): a first-party Python import that the
 * change adds — `from aiter.x import y`, `import aiter.x`, a relative import — whose module or
 * name exists neither in the base tree nor in the change. On a branch that was cut before a
 * module was deleted from the target it is a rebase signal: aiter#4994 imported
 * aiter.ops.flydsl.utils, which had been deleted from main 19 hours earlier, merged green and
 * was reverted.
 *
 * "The tree" is the base (read through the repository) with the change laid over it: a module
 * the change adds, renames into place or edits is read from its head text, anything else from
 * the base; in --diff mode the base is the root directory on disk. Directories (namespace
 * packages) are looked up on disk under the root, which in repo mode is the work tree, and so
 * are files git ignores (generated modules) in repo mode. A
 * module is its `.py`, its package's `__init__.py`, or a directory (a namespace package,
 * whose names cannot be disproved). A name is defined by a module-level def, class,
 * assignment, import or for/with target (also inside top-level if/try blocks), by being a
 * submodule of a package, or by `__all__`; a module-level `__getattr__`, or a star import
 * that cannot be followed, leaves it undecided and the import alone. A missing module that a
 * package above it redirects (its __init__ installs a sys.meta_path finder and names the
 * submodule in a string: a map for modules that moved) is left alone too, and counted in the
 * status line; a module __getattr__ alone does not make a submodule importable. Third-party imports
 * (whose top package is not in the tree) are out of scope, and so is an import guarded by
 * `try: ... except ImportError`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"
#include "engine/diff_lines.h"
#include "engine/py_outline.h"
#include "engine/repo.h"
#include "engine/suppress.h" /* text_line_at */
#include "engine/syntax.h"

#define MAX_STAR_DEPTH 4

/* Modules parsed while one file's imports are resolved: a file importing many names from one
 * module reads it once; the review's syntax cache (key "module:PATH", or for a file of the
 * change the key of its head doc) keeps the parse for the next file and the next review,
 * reparsing only when the text differs. */
typedef struct parsed_module {
    char *file;
    char *text;             /* its text until parsed (NULL when it could not be read) */
    size_t len;
    const strset *bound;    /* what its column-0 statements surely bind (py_outline.h), or
                               NULL when it could not be read */
    strset bound_own;       /* bound, when the review keeps no list of it */
    bool parsed;            /* doc was asked for */
    const syntax_doc *doc;  /* NULL when it could not be read or parsed */
    syntax_doc *owned;      /* doc, when no syntax cache holds it */
} parsed_module;

typedef struct module_memo {
    parsed_module *items;
    size_t n, cap;
} module_memo;

typedef struct tree_view {
    collector_ctx *ctx;
    const char *root;       /* head/root directory on disk, or NULL */
    module_memo *memo;      /* modules read so far for this file */
} tree_view;

/* The change's file at path when the change adds it or keeps it (not deleted), or NULL. */
static const change_file *changed_file(const tree_view *tv, const char *path)
{
    for (size_t i = 0; i < tv->ctx->chg->nfiles; i++) {
        const change_file *f = &tv->ctx->chg->files[i];
        if (!f->is_deleted && strcmp(f->path, path) == 0)
            return f;
    }
    return NULL;
}

/* True when the change deletes path (or renames it away). */
static bool deleted_by_change(const tree_view *tv, const char *path)
{
    for (size_t i = 0; i < tv->ctx->chg->nfiles; i++) {
        const change_file *f = &tv->ctx->chg->files[i];
        if ((f->is_deleted && strcmp(f->path, path) == 0) ||
            (f->is_renamed && f->old_path && strcmp(f->old_path, path) == 0))
            return true;
    }
    return false;
}

/* The text of path in the tree (head text for a changed file, else the base, else the root on
 * disk in --diff mode), or NULL when the tree has no such file. *unreadable is set when the
 * file exists but its text cannot be had. */
static char *tree_text(const tree_view *tv, const char *path, size_t *len, bool *unreadable)
{
    *unreadable = false;
    const change_file *f = changed_file(tv, path);
    if (f) {
        char *cause = NULL;
        char *t = f->is_skipped ? NULL : change_head_text(tv->ctx->chg, f, len, &cause);
        free(cause);
        if (!t)
            *unreadable = true;
        return t;
    }
    if (deleted_by_change(tv, path))
        return NULL;
    if (tv->ctx->rp) {
        char *t = repo_base_text(tv->ctx->rp, path, len, NULL);
        if (t)
            return t;
    }
    if (!tv->root)
        return NULL;
    char *t = NULL;
    if (gate_is_file(tv->root, path)) {
        t = gate_read(tv->root, path, 4u << 20, len, NULL);
        if (!t)
            *unreadable = true;
    }
    return t;
}

/* True when the tree holds a file at path. */
static bool tree_has_file(const tree_view *tv, const char *path)
{
    if (changed_file(tv, path))
        return true;
    if (deleted_by_change(tv, path))
        return false;
    if (tv->ctx->rp) {
        char *t = repo_base_text(tv->ctx->rp, path, NULL, NULL);
        free(t);
        if (t)
            return true;
    }
    /* on disk: the tree in --diff mode; in repo mode a file git ignores (a generated
     * _version.py), which the change model leaves out but Python imports all the same */
    if (!tv->root)
        return false;
    return gate_is_file(tv->root, path);
}

/* True when the tree holds a directory at path: some changed file lies below it, or it is a
 * directory under the root on disk. */
static bool tree_has_dir(const tree_view *tv, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < tv->ctx->chg->nfiles; i++) {
        const change_file *f = &tv->ctx->chg->files[i];
        if (!f->is_deleted && strncmp(f->path, path, n) == 0 && f->path[n] == '/')
            return true;
    }
    if (!tv->root)
        return false;
    return gate_is_dir(tv->root, path);
}

/* What a dotted module resolves to. */
typedef enum mod_kind { MOD_NONE, MOD_FILE, MOD_PACKAGE, MOD_NAMESPACE } mod_kind;

/* Resolve a dotted module to its file (*file, a new string) or namespace directory. */
static mod_kind resolve_module(const tree_view *tv, const char *module, char **file)
{
    char *rel = xstrdup(module);
    for (char *p = rel; *p; p++)
        if (*p == '.')
            *p = '/';
    *file = NULL;
    char *py = xasprintf("%s.py", rel), *init = xasprintf("%s/__init__.py", rel);
    mod_kind k = MOD_NONE;
    if (tree_has_file(tv, py)) {
        k = MOD_FILE;
        *file = py;
        py = NULL;
    } else if (tree_has_file(tv, init)) {
        k = MOD_PACKAGE;
        *file = init;
        init = NULL;
    } else if (tree_has_dir(tv, rel)) {
        k = MOD_NAMESPACE;
    }
    free(py);
    free(init);
    free(rel);
    return k;
}

/* True when module's top package is part of the tree (a first-party import). */
static bool first_party(const tree_view *tv, const char *module)
{
    const char *dot = strchr(module, '.');
    char *top = dot ? xstrndup(module, (size_t)(dot - module)) : xstrdup(module);
    char *py = xasprintf("%s.py", top);
    bool ok = *top && (tree_has_dir(tv, top) || tree_has_file(tv, py));
    free(py);
    free(top);
    return ok;
}

/* --- names a module defines ------------------------------------------------------------- */

typedef enum name_state { NAME_ABSENT, NAME_DEFINED, NAME_UNKNOWN } name_state;

static name_state module_defines(const tree_view *tv, const char *module, const char *file,
                                 const char *name, int depth);

/* True when node's text equals s. */
static bool node_is(const syntax_doc *d, TSNode n, const char *s)
{
    size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    return strlen(s) == len && memcmp(d->text + ts_node_start_byte(n), s, len) == 0;
}

/* True when a binding target (identifier, pattern list, tuple) binds name. */
static bool target_binds(const syntax_doc *d, TSNode t, const char *name)
{
    const char *ty = ts_node_type(t);
    if (strcmp(ty, "identifier") == 0)
        return node_is(d, t, name);
    if (strcmp(ty, "pattern_list") == 0 || strcmp(ty, "tuple_pattern") == 0 ||
        strcmp(ty, "list_pattern") == 0 || strcmp(ty, "expression_list") == 0 ||
        strcmp(ty, "tuple") == 0 || strcmp(ty, "list_splat_pattern") == 0 ||
        strcmp(ty, "parenthesized_expression") == 0 || strcmp(ty, "as_pattern_target") == 0)
        for (uint32_t i = 0; i < ts_node_named_child_count(t); i++)
            if (target_binds(d, ts_node_named_child(t, i), name))
                return true;
    return false;
}

/* True when a string literal list node (the value of __all__) names name. */
static bool all_lists(const syntax_doc *d, TSNode v, const char *name)
{
    for (uint32_t i = 0; i < ts_node_named_child_count(v); i++) {
        TSNode s = ts_node_named_child(v, i);
        if (strcmp(ts_node_type(s), "string") != 0)
            continue;
        char *t = syntax_node_text(d, s);
        size_t n = strlen(t);
        bool hit = n >= 2 && n - 2 == strlen(name) && memcmp(t + 1, name, n - 2) == 0;
        free(t);
        if (hit)
            return true;
    }
    return false;
}

typedef struct scan_state {
    const tree_view *tv;
    const char *module;    /* the module being read (for its relative star imports) */
    const char *file;
    const char *name;
    int depth;
    name_state result;
} scan_state;

/* The absolute module of a relative import `level` dots up from file's package. */
static char *relative_module(const char *file, int level, const char *tail)
{
    char *pkg = xstrndup(file, strlen(file) - 3);
    for (char *p = pkg; *p; p++)
        if (*p == '/')
            *p = '.';
    char *last = strrchr(pkg, '.');
    if (str_ends(pkg, ".__init__") || last)
        *last = '\0';
    else
        pkg[0] = '\0';
    for (int up = level - 1; up > 0; up--) {
        char *dot = strrchr(pkg, '.');
        if (!*pkg) {
            free(pkg);
            return NULL;
        }
        if (dot)
            *dot = '\0';
        else
            pkg[0] = '\0';
    }
    char *m = !*pkg ? (*tail ? xstrdup(tail) : NULL)
              : *tail ? xasprintf("%s.%s", pkg, tail) : xstrdup(pkg);
    free(pkg);
    return m;
}

/* Look for a binding of st->name in one statement list (a module, or a block of a top-level
 * if/try/with/for), updating st->result. */
static void scan_block(const syntax_doc *d, TSNode block, scan_state *st)
{
    for (uint32_t i = 0; i < ts_node_named_child_count(block) && st->result != NAME_DEFINED; i++) {
        TSNode s = ts_node_named_child(block, i);
        const char *ty = ts_node_type(s);
        if (strcmp(ty, "decorated_definition") == 0) {
            s = ts_node_child_by_field_name(s, "definition", 10);
            if (ts_node_is_null(s))
                continue;
            ty = ts_node_type(s);
        }
        if (strcmp(ty, "function_definition") == 0 || strcmp(ty, "class_definition") == 0) {
            TSNode nm = ts_node_child_by_field_name(s, "name", 4);
            if (!ts_node_is_null(nm) && node_is(d, nm, st->name))
                st->result = NAME_DEFINED;
            else if (!ts_node_is_null(nm) && node_is(d, nm, "__getattr__") &&
                     strcmp(ty, "function_definition") == 0)
                st->result = NAME_UNKNOWN;
        } else if (strcmp(ty, "expression_statement") == 0) {
            for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
                TSNode a = ts_node_named_child(s, k);
                while (!ts_node_is_null(a) && (strcmp(ts_node_type(a), "assignment") == 0 ||
                                               strcmp(ts_node_type(a), "augmented_assignment") == 0)) {
                    TSNode left = ts_node_child_by_field_name(a, "left", 4);
                    TSNode right = ts_node_child_by_field_name(a, "right", 5);
                    if (!ts_node_is_null(left) && target_binds(d, left, st->name))
                        st->result = NAME_DEFINED;
                    if (!ts_node_is_null(left) && node_is(d, left, "__all__") &&
                        !ts_node_is_null(right) && all_lists(d, right, st->name))
                        st->result = NAME_DEFINED;
                    a = right;
                }
            }
        } else if (strcmp(ty, "import_statement") == 0 || strcmp(ty, "import_from_statement") == 0 ||
                   strcmp(ty, "future_import_statement") == 0) {
            bool from = strcmp(ty, "import_statement") != 0;
            TSNode mn = ts_node_child_by_field_name(s, "module_name", 11);
            for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
                TSNode c = ts_node_named_child(s, k);
                const char *ct = ts_node_type(c);
                if (strcmp(ct, "wildcard_import") == 0) {
                    /* follow a first-party star import, else it may bind anything */
                    char *target = NULL;
                    if (!ts_node_is_null(mn) && strcmp(ts_node_type(mn), "relative_import") == 0) {
                        int level = 0;
                        char *tail = NULL;
                        for (uint32_t j = 0; j < ts_node_named_child_count(mn); j++) {
                            TSNode p = ts_node_named_child(mn, j);
                            if (strcmp(ts_node_type(p), "import_prefix") == 0)
                                level = (int)(ts_node_end_byte(p) - ts_node_start_byte(p));
                            else
                                tail = syntax_node_text(d, p);
                        }
                        target = relative_module(st->file, level, tail ? tail : "");
                        free(tail);
                    } else if (!ts_node_is_null(mn)) {
                        target = syntax_node_text(d, mn);
                    }
                    name_state r = NAME_UNKNOWN;
                    char *tf = NULL;
                    if (target && st->depth < MAX_STAR_DEPTH && first_party(st->tv, target) &&
                        resolve_module(st->tv, target, &tf) != MOD_NONE && tf)
                        r = module_defines(st->tv, target, tf, st->name, st->depth + 1);
                    free(tf);
                    free(target);
                    if (r == NAME_DEFINED || (r == NAME_UNKNOWN && st->result == NAME_ABSENT))
                        st->result = r;
                    continue;
                }
                if (from && ts_node_eq(c, mn))
                    continue;
                TSNode bound = c;
                if (strcmp(ct, "aliased_import") == 0)
                    bound = ts_node_child_by_field_name(c, "alias", 5);
                else if (!from && strcmp(ct, "dotted_name") == 0 && ts_node_named_child_count(c))
                    bound = ts_node_named_child(c, 0); /* import a.b binds a */
                else if (from && strcmp(ct, "dotted_name") == 0 && ts_node_named_child_count(c))
                    bound = ts_node_named_child(c, ts_node_named_child_count(c) - 1);
                if (!ts_node_is_null(bound) && node_is(d, bound, st->name))
                    st->result = NAME_DEFINED;
            }
        } else if (strcmp(ty, "if_statement") == 0 || strcmp(ty, "try_statement") == 0 ||
                   strcmp(ty, "with_statement") == 0 || strcmp(ty, "for_statement") == 0 ||
                   strcmp(ty, "while_statement") == 0 || strcmp(ty, "elif_clause") == 0 ||
                   strcmp(ty, "else_clause") == 0 || strcmp(ty, "except_clause") == 0 ||
                   strcmp(ty, "finally_clause") == 0 || strcmp(ty, "block") == 0) {
            if (strcmp(ty, "for_statement") == 0) {
                TSNode left = ts_node_child_by_field_name(s, "left", 4);
                if (!ts_node_is_null(left) && target_binds(d, left, st->name))
                    st->result = NAME_DEFINED;
            }
            scan_block(d, s, st);
        } else if (strcmp(ty, "with_clause") == 0 || strcmp(ty, "with_item") == 0) {
            scan_block(d, s, st);
        } else if (strcmp(ty, "as_pattern") == 0) {
            TSNode al = ts_node_child_by_field_name(s, "alias", 5);
            if (!ts_node_is_null(al) && target_binds(d, al, st->name))
                st->result = NAME_DEFINED;
        }
    }
}

/* The memo's entry for file in the tree: its text read and its surely bound names listed
 * on first use, its parse left for when a name is not among them. */
static parsed_module *module_entry(const tree_view *tv, const char *file)
{
    module_memo *m = tv->memo;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->items[i].file, file) == 0)
            return &m->items[i];
    bool unreadable = false;
    parsed_module *pm = ARRAY_PUSH(m->items, m->n, m->cap);
    memset(pm, 0, sizeof *pm);
    pm->file = xstrdup(file);
    pm->text = tree_text(tv, file, &pm->len, &unreadable);
    if (pm->text)
        pm->bound = collector_module_names(tv->ctx, file, pm->text, pm->len, &pm->bound_own);
    return pm;
}

/* The parse of a memo entry, made now when first asked for (NULL when file cannot be read or
 * parsed). The memo owns it. */
static const syntax_doc *parsed_module_doc(const tree_view *tv, parsed_module *pm)
{
    if (pm->parsed)
        return pm->doc;
    pm->parsed = true;
    const change_file *f = changed_file(tv, pm->file);
    if (!pm->text) {
        pm->doc = NULL;
    } else if (f) {
        /* a file of the change: its head doc, as the per-file stages ask for it (the same
         * key, text and view), so the cache parses it once for both */
        pm->doc = collector_doc(tv->ctx, f, false, pm->text, pm->len, &pm->owned, NULL);
    } else if (tv->ctx->syn) {
        char *key = collector_module_key(pm->file);
        pm->doc = syntax_cache_get(tv->ctx->syn, key, SYN_PYTHON, pm->text, pm->len, NULL);
        free(key);
    } else {
        pm->doc = pm->owned = syntax_parse(SYN_PYTHON, pm->text, pm->len, NULL);
    }
    free(pm->text);
    pm->text = NULL;
    return pm->doc;
}

static void module_memo_free(module_memo *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->items[i].file);
        free(m->items[i].text);
        strset_free(&m->items[i].bound_own);
        syntax_free(m->items[i].owned);
    }
    free(m->items);
}

/* Whether module (backed by file) defines name at module level. */
static name_state module_defines(const tree_view *tv, const char *module, const char *file,
                                 const char *name, int depth)
{
    parsed_module *pm = module_entry(tv, file);
    if (pm->bound && strset_has(pm->bound, name))
        return NAME_DEFINED; /* a column-0 statement binds it: no parse needed */
    const syntax_doc *d = parsed_module_doc(tv, pm);
    if (!d)
        return NAME_UNKNOWN;
    scan_state st = {tv, module, file, name, depth, NAME_ABSENT};
    scan_block(d, ts_tree_root_node(d->tree), &st);
    return st.result;
}

/* --- the added imports ------------------------------------------------------------------ */

/* True when the import at (line, col) sits in the body of a try whose handlers catch an
 * ImportError (or everything): the author planned for it to be missing. */
static bool guarded_by_try(const syntax_doc *d, int line, int col)
{
    size_t at = syntax_line_start(d, line) + (size_t)col;
    TSNode n = syntax_node_at(d, at, at + 1);
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); n = p, p = ts_node_parent(p)) {
        if (strcmp(ts_node_type(p), "try_statement") != 0)
            continue;
        TSNode body = ts_node_child_by_field_name(p, "body", 4);
        if (ts_node_is_null(body) || !ts_node_eq(body, n))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
            TSNode h = ts_node_named_child(p, i);
            if (strcmp(ts_node_type(h), "except_clause") != 0)
                continue;
            char *t = syntax_node_text(d, h);
            char *colon = strchr(t, ':');
            if (colon)
                *colon = '\0';
            bool catches = str_contains(t, "ImportError") || str_contains(t, "ModuleNotFound") ||
                           str_contains(t, "Exception") || strspn(t + 6, " \t") == strlen(t + 6);
            free(t);
            if (catches)
                return true;
        }
    }
    return false;
}

/* True when the change deletes (or moves away) the file backing module. */
static bool module_deleted(const tree_view *tv, const char *module)
{
    char *rel = xstrdup(module);
    for (char *p = rel; *p; p++)
        if (*p == '.')
            *p = '/';
    char *py = xasprintf("%s.py", rel), *init = xasprintf("%s/__init__.py", rel);
    bool gone = deleted_by_change(tv, py) || deleted_by_change(tv, init);
    free(py);
    free(init);
    free(rel);
    return gone;
}

/* True when text holds name as a whole quoted string ('name' or "name"). */
static bool quotes_name(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
        if (p > text && (p[-1] == '"' || p[-1] == '\'') && p[n] == p[-1])
            return true;
    return false;
}

/* True when a package above the missing module redirects imports of it: its __init__.py
 * installs a sys.meta_path finder and names the missing submodule in a string — a
 * backward-compatibility map for modules that moved (aiter.ops.triton sends `pa_mqa_logits`
 * to `attention.pa_mqa_logits`). The import then works although no file backs it. A module
 * __getattr__ is not enough: the import system does not consult it for submodules. */
static bool redirected_by_package(const tree_view *tv, const char *module)
{
    char *rel = xstrdup(module);
    for (char *p = rel; *p; p++)
        if (*p == '.')
            *p = '/';
    bool hooked = false;
    for (char *slash = strchr(rel, '/'); slash && !hooked; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        char *init = xasprintf("%s/__init__.py", rel);
        const char *next = slash + 1;
        char *below = xstrndup(next, strcspn(next, "/"));
        size_t len = 0;
        bool unreadable = false;
        char *text = tree_text(tv, init, &len, &unreadable);
        if (text && strstr(text, "meta_path"))
            hooked = quotes_name(text, below);
        free(text);
        free(below);
        free(init);
        *slash = '/';
    }
    free(rel);
    return hooked;
}

/* Move a from-import's finding onto the module as written when it is on the same line. */
static void point_at_module(const char *head, size_t hlen, const syn_import *im, finding *fd)
{
    const char *line;
    size_t len;
    if (!text_line_at(head, hlen, im->line, &line, &len))
        return;
    char *written = xasprintf("%.*s%s", im->level, "..........................", im->module);
    char *text = xstrndup(line, len);
    char *at = strstr(text, written);
    if (at && *written && at < text + im->col) {
        fd->range.col = (int)(at - text);
        fd->range.end_col = fd->range.col + (int)strlen(written);
    }
    free(text);
    free(written);
}

/* The import statements an added line (runs) is in, read from the head text when every one
 * of them is a plain import statement in column 0 (which no try block holds); false when one
 * is not, and the parse must say. */
static bool imports_from_text(const py_outline *o, const char *head, const line_run *runs, size_t nruns,
                              syn_import_list *ims)
{
    bool ok = true;
    int seen = 0; /* the last statement read: runs are in order */
    for (size_t r = 0; r < nruns && ok; r++)
        for (int l = runs[r].first < 1 ? 1 : runs[r].first; l <= runs[r].last && l <= o->nlines && ok; l++) {
            int first = o->stmt_first[l];
            if (first <= seen || !py_outline_stmt_has_word(o, head, l, "import"))
                continue;
            seen = first;
            ok = py_outline_imports(o, head, first, ims);
        }
    if (!ok)
        syn_import_list_free(ims);
    return ok;
}

/* With REVIEW_LSP_VERIFY_LEXICAL set: stop when what the text gave differs from the parse's
 * import statements (how the reader is checked on real history). */
static void verify_lexical(const syntax_doc *d, const line_run *runs, size_t nruns,
                           const syn_import_list *lex, const char *path)
{
    syn_import_list tree = {0};
    syntax_imports_touching(d, runs, nruns, &tree);
    bool same = tree.n == lex->n;
    for (size_t i = 0; same && i < tree.n; i++) {
        const syn_import *a = &tree.items[i], *b = &lex->items[i];
        same = a->line == b->line && a->col == b->col && a->level == b->level &&
               !strcmp(a->module, b->module) && !a->name == !b->name &&
               (!a->name || !strcmp(a->name, b->name)) && !a->alias == !b->alias &&
               (!a->alias || !strcmp(a->alias, b->alias));
    }
    if (!same) {
        fprintf(stderr, "review-lsp: lexical imports of %s differ from the parse's (%zu vs %zu)\n",
                path, lex->n, tree.n);
        abort();
    }
    syn_import_list_free(&tree);
}

/* Check the imports a file's added lines bring; returns findings made, -1 when skipped. */
static int check_file(collector_ctx *ctx, const tree_view *tv, const change_file *f, int *nimports,
                      int *nredirected, char **why)
{
    size_t len;
    char *text = change_head_text(ctx->chg, f, &len, why);
    if (!text)
        return -1;
    /* only the import statements an added line is in can hold an added import: read from the
     * text when they are plain, else from the parse */
    syn_import_list ims = {0};
    size_t nruns;
    line_run *runs = diff_lines_added_runs(f, &nruns);
    syntax_doc *owned = NULL;
    const syntax_doc *d = NULL;
    py_outline *own_outline = NULL;
    const py_outline *o = collector_outline(ctx, f, text, len, &own_outline);
    bool plain = imports_from_text(o, text, runs, nruns, &ims);
    py_outline_free(own_outline);
    if (!plain) {
        d = collector_doc(ctx, f, false, text, len, &owned, why);
        if (!d) {
            free(runs);
            free(text);
            return -1;
        }
        syntax_imports_touching(d, runs, nruns, &ims);
    } else if (getenv("REVIEW_LSP_VERIFY_LEXICAL")) {
        const syntax_doc *v = collector_doc(ctx, f, false, text, len, &owned, NULL);
        if (v)
            verify_lexical(v, runs, nruns, &ims, f->path);
        syntax_free(owned);
        owned = NULL;
    }
    free(runs);
    int found = 0;
    for (size_t i = 0; i < ims.n; i++) {
        const syn_import *im = &ims.items[i];
        if (!diff_lines_added(f, im->line) || strcmp(im->module, "__future__") == 0)
            continue;
        char *module = im->level ? relative_module(f->path, im->level, im->module)
                                 : xstrdup(im->module);
        if (!module || !first_party(tv, module) || (d && guarded_by_try(d, im->line, im->col))) {
            free(module);
            continue;
        }
        (*nimports)++;
        char *file = NULL;
        mod_kind k = resolve_module(tv, module, &file);
        const char *stmt = im->level ? "relative import" : im->name ? "from-import" : "import";
        size_t mlen = strlen(im->name ? im->name : im->module);
        finding *fd = NULL;
        if (k == MOD_NONE && module_deleted(tv, module)) {
            fd = findings_add(ctx->out, "UNRESOLVED-IMPORT", SEV_WARNING, f->path, im->line, "module `%s` (%s) is in the base tree but this change "
                              "deletes or moves it — point the import at its new place", module,
                              stmt);
        } else if (k == MOD_NONE && redirected_by_package(tv, module)) {
            (*nredirected)++;
        } else if (k == MOD_NONE) {
            fd = findings_add(ctx->out, "UNRESOLVED-IMPORT", SEV_WARNING, f->path, im->line, "module `%s` (%s) exists neither in the base tree nor "
                              "in this change — if the target branch deleted or moved it, "
                              "rebase and re-point the import", module, stmt);
        } else if (im->name && strcmp(im->name, "*") != 0 && k != MOD_NAMESPACE) {
            char *rel = xstrdup(module);
            for (char *p = rel; *p; p++)
                if (*p == '.')
                    *p = '/';
            char *subpy = xasprintf("%s/%s.py", rel, im->name);
            char *subdir = xasprintf("%s/%s", rel, im->name);
            bool sub = k == MOD_PACKAGE && (tree_has_file(tv, subpy) || tree_has_dir(tv, subdir));
            if (!sub && module_defines(tv, module, file, im->name, 0) == NAME_ABSENT)
                fd = findings_add(ctx->out, "UNRESOLVED-IMPORT", SEV_WARNING, f->path, im->line, "`%s` is defined neither in %s (%s) nor in this "
                                  "change — if the target branch removed or renamed it, rebase "
                                  "and re-point the import", im->name, file, module);
            free(subpy);
            free(subdir);
            free(rel);
        }
        if (fd) {
            fd->range.col = im->col;
            fd->range.end_line = im->line;
            fd->range.end_col = im->col + (int)mlen;
            if (k == MOD_NONE && im->name)
                point_at_module(text, len, im, fd);
            found++;
        }
        free(file);
        free(module);
    }
    syn_import_list_free(&ims);
    syntax_free(owned);
    free(text);
    return found;
}

/* The runner parses a file ahead only when an import statement an added line is in is not
 * plain (imports_from_text). */
static bool parse_ahead(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const py_outline *o)
{
    if (!o || getenv("REVIEW_LSP_VERIFY_LEXICAL"))
        return true;
    size_t nruns;
    line_run *runs = diff_lines_added_runs(f, &nruns);
    syn_import_list ims = {0};
    bool plain = imports_from_text(o, head, runs, nruns, &ims);
    syn_import_list_free(&ims);
    free(runs);
    return !plain;
}

/* What one file's stage counted, for the status line. */
typedef struct imports_facts {
    int found, nimports, nredirected;
} imports_facts;

/* The files it reads: Python files that gain lines. */
static bool reads(const change_file *f)
{
    return str_ends(f->path, ".py") && !f->is_deleted && !f->is_skipped && f->nadd;
}

/* The per-file stage: resolve the first-party imports the file's added lines bring, against
 * the base tree with the change laid over it (so the result depends on the change). */
static void imports_file(collector_file_ctx *fx)
{
    collector_ctx *ctx = fx->review;
    const change *chg = collector_file_change(fx);
    module_memo memo = {0};
    tree_view tv = {ctx, ctx->root ? ctx->root : chg->head_root, &memo};
    if (!ctx->rp && !tv.root)
        return; /* the change-wide stage says why nothing was resolved */
    imports_facts *t = xcalloc(1, sizeof *t);
    t->found = check_file(ctx, &tv, fx->f, &t->nimports, &t->nredirected, &fx->skip);
    module_memo_free(&memo);
    if (t->found < 0) {
        free(t);
        return;
    }
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void imports_change(collector_ctx *ctx, const collector_files *files)
{
    if (!ctx->rp && !ctx->root && !ctx->chg->head_root) {
        collector_status(ctx, "skipped: no repository and no root directory to resolve imports "
                              "against");
        return;
    }
    if (collector_files_status(ctx, files, "no Python file gains lines"))
        return;
    int total = 0, nimports = 0, nredirected = 0;
    for (size_t i = 0; i < files->n; i++) {
        const imports_facts *t = files->items[i].facts;
        if (!t)
            continue;
        total += t->found;
        nimports += t->nimports;
        nredirected += t->nredirected;
    }
    char *tail = nredirected ? xasprintf("; %d redirected by a package's import hook left alone",
                                         nredirected)
                             : xstrdup("");
    if (total)
        collector_status(ctx, "found %d unresolved import%s among %d first-party imported "
                         "name%s the change adds%s", total, total == 1 ? "" : "s", nimports,
                         nimports == 1 ? "" : "s", tail);
    else
        collector_status(ctx, "nothing found: the %d first-party imported name%s the change adds "
                         "resolve in the base tree or in the change%s", nimports,
                         nimports == 1 ? "" : "s", tail);
    free(tail);
}

const collector collector_imports = {
    .name = "imports",
    .rules = "UNRESOLVED-IMPORT",
    .langs = COLLECT_PYTHON,
    .reads = reads,
    .file_stage = imports_file,
    .parse_ahead = parse_ahead,
    .change_stage = imports_change,
};
