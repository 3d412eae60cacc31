/* Unit tests for the unresolved-imports collector: a root directory stands for the base tree
 * (--diff mode), the change is a unified diff; missing modules and names, the forms that
 * resolve (packages, namespace packages, submodules, __all__, star imports, def/class/
 * assignment/import bindings, files the change adds or renames into place), the forms left
 * alone (third-party, try/except ImportError, module __getattr__), relative imports in a
 * package __init__ (aiter#4515), exact ranges and status lines. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_imports;

/* Run the collector over a diff with root as the tree (NULL: none), with a syntax cache kept
 * between runs as the server keeps one (NULL: none); root_is_head: the changed files' head
 * texts are read there too (--root). */
static result run_head(const char *diff, const char *root, syntax_cache *syn, bool root_is_head)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    if (c && root_is_head)
        c->head_root = xstrdup(root);
    collector_ctx ctx = {.chg = c, .root = root, .out = &r.out, .syn = syn};
    sb_init(&ctx.status);
    collector_run(&collector_imports, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

static result run_cached(const char *diff, const char *root, syntax_cache *syn)
{
    return run_head(diff, root, syn, false);
}

static result run(const char *diff, const char *root)
{
    return run_cached(diff, root, NULL);
}

/* A base tree with a small first-party package. A new directory name (caller frees it). */
static char *make_tree(void)
{
    char tmpl[] = "/tmp/rl-imp-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir)
        return NULL;
    dir = xstrdup(dir);
    unit_put_file(dir, "aiter/__init__.py", "");
    unit_put_file(dir, "aiter/ops/__init__.py", "from .common import *\n");
    unit_put_file(dir, "aiter/ops/common.py",
        "import os\nfrom typing import List as Seq\n\n\ndef ready():\n    return True\n\n\n"
        "class Table:\n    pass\n\n\nLIMIT: int = 4\nA, B = 1, 2\nif os.name:\n    FAST = 1\n"
        "try:\n    import numpy as np\nexcept ImportError:\n    np = None\n");
    unit_put_file(dir, "aiter/ops/exported.py",
                  "__all__ = [\"made_later\"]\nglobals()['made_later'] = 1\n");
    unit_put_file(dir, "aiter/ops/lazy.py",
                  "def __getattr__(name):\n    raise AttributeError(name)\n");
    unit_put_file(dir, "aiter/ops/star_ext.py", "from numpy import *\n");
    unit_put_file(dir, "aiter/ops/kernels/tiles.py", "def pick(n):\n    return n\n");
    unit_put_file(dir, "aiter/ops/sub/__init__.py", "");
    unit_put_file(dir, "aiter/ops/sub/leaf.py", "X = 1\n");
    return dir;
}

/* Remove a tree made by make_tree. */
static void drop_tree(char *dir)
{
    char *rm = xasprintf("rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
    free(rm);
    free(dir);
}

TEST(missing_modules_and_names_are_flagged_on_what_is_missing)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const src[] = {
        "from aiter.ops.helpers import ready",           /* 1: module gone */
        "from aiter.ops.common import ready, has_fp4",   /* 2: name gone */
        "import aiter.ops.kernels.missing as m",         /* 3: module gone */
        "from .common import Table, nothing_here",       /* 4: relative, name gone */
        "from aiter.ops.sub import leaf, absent",        /* 5: absent is neither */
        NULL};
    char *d = new_file_diff("aiter/ops/new_op.py", src);
    result r = run(d, root);
    CHECK_INT(r.out.n, 5);
    if (unit_failed_now)
        dump_findings(&r);
    const finding *f = at_line(&r, 1);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule_id, "UNRESOLVED-IMPORT");
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_STR(f->collector, "imports");
        CHECK_INT(f->range.col, 5);       /* the module as written */
        CHECK_INT(f->range.end_col, 22);
        CHECK(str_starts(f->message, "module `aiter.ops.helpers` (from-import) exists neither "
                                     "in the base tree nor in this change"));
    }
    f = at_line(&r, 2);
    if (f) {
        CHECK_INT(f->range.col, 36);      /* the name */
        CHECK_INT(f->range.end_col, 43);
        CHECK(str_starts(f->message, "`has_fp4` is defined neither in aiter/ops/common.py "
                                     "(aiter.ops.common) nor in this change"));
    }
    CHECK(at_line(&r, 3) && str_contains(at_line(&r, 3)->message, "aiter.ops.kernels.missing"));
    CHECK(at_line(&r, 4) && str_contains(at_line(&r, 4)->message, "`nothing_here`"));
    CHECK(at_line(&r, 5) && str_contains(at_line(&r, 5)->message, "`absent`"));
    CHECK_STR(r.status, "found 5 unresolved imports among 8 first-party imported names the change adds");
    result_free(&r);
    free(d);
    drop_tree(root);
}

/* A changed file: a name added inside a multi-line from-import, and an import added in a
 * function body, are checked; an import on no added line is not, even when it is wrong. */
TEST(only_imports_on_added_lines_are_checked_in_a_changed_file)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const head[] = {
        "from aiter.ops.common import (",                 /* 1 */
        "    ready,",                                     /* 2 */
        "    has_fp4,",                                   /* 3 added */
        "    Table,",                                     /* 4 */
        ")",                                              /* 5 */
        "from aiter.ops.common import gone_before",       /* 6 */
        "",                                               /* 7 */
        "",                                               /* 8 */
        "def f():",                                       /* 9 */
        "    from aiter.ops.common import inner_gone",    /* 10 added */
        "    return ready()",                             /* 11 */
        NULL};
    strbuf text, diff;
    sb_init(&text);
    sb_init(&diff);
    sb_adds(&diff, "diff --git a/aiter/ops/user.py b/aiter/ops/user.py\n--- a/aiter/ops/user.py\n"
                   "+++ b/aiter/ops/user.py\n@@ -1,9 +1,11 @@\n");
    for (int i = 0; head[i]; i++) {
        sb_addf(&text, "%s\n", head[i]);
        sb_addf(&diff, "%c%s\n", i == 2 || i == 9 ? '+' : ' ', head[i]);
    }
    unit_put_file(root, "aiter/ops/user.py", text.buf);
    result r = run_head(diff.buf, root, NULL, true);
    CHECK_INT(r.out.n, 2);
    CHECK(at_line(&r, 3) && str_contains(at_line(&r, 3)->message, "`has_fp4`"));
    CHECK(at_line(&r, 10) && str_contains(at_line(&r, 10)->message, "`inner_gone`"));
    CHECK_STR(r.status, "found 2 unresolved imports among 2 first-party imported names the change adds");
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
    sb_free(&text);
    sb_free(&diff);
    drop_tree(root);
}

/* A module several imported names come from is parsed once per review and kept in the syntax
 * cache; when its text changes on disk, the next review reads the new text. */
TEST(a_module_edited_between_reviews_is_read_again)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const src[] = {"from aiter.ops.common import ready, Table, later", NULL};
    char *d = new_file_diff("aiter/ops/new_op.py", src);
    syntax_cache *syn = syntax_cache_new();
    result r = run_cached(d, root, syn);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 1) && str_contains(at_line(&r, 1)->message, "`later`"));
    result_free(&r);
    unit_put_file(root, "aiter/ops/common.py",
                  "def ready():\n    return True\n\n\nclass Table:\n    pass\n\n\n"
                  "def later():\n    return 1\n");
    r = run_cached(d, root, syn);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: the 3 first-party imported names the change adds resolve "
                        "in the base tree or in the change");
    result_free(&r);
    unit_put_file(root, "aiter/ops/common.py", "def ready():\n    return True\n");
    r = run_cached(d, root, syn);
    CHECK_INT(r.out.n, 2); /* Table and later are gone again */
    result_free(&r);
    syntax_cache_free(syn);
    free(d);
    drop_tree(root);
}

TEST(imports_that_resolve_or_cannot_be_disproved_are_silent)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const src[] = {
        "import os",
        "import torch",
        "from triton import language as tl",
        "from aiter.ops.common import ready, Table, LIMIT, A, B, FAST, np, Seq, os as o2",
        "from aiter.ops import common, kernels, sub, ready as r2",
        "from aiter.ops.kernels import tiles",
        "import aiter.ops.kernels.tiles",
        "from aiter.ops.kernels.tiles import pick",
        "from aiter.ops.exported import made_later",
        "from aiter.ops.lazy import anything",
        "from aiter.ops.star_ext import whatever",
        "from aiter.ops.brand_new import build",
        "from aiter.ops.common import *",
        "try:",
        "    from aiter.ops.optional_backend import fast",
        "except ImportError:",
        "    fast = None",
        "from . import common as c2",
        "from .sub.leaf import X",
        "from __future__ import annotations",
        NULL};
    char *d1 = new_file_diff("aiter/ops/user.py", src);
    static const char *const added[] = {"def build():", "    return 1", NULL};
    char *d2 = new_file_diff("aiter/ops/brand_new.py", added);
    char *d = xasprintf("%s%s", d1, d2);
    result r = run(d, root);
    CHECK_INT(r.out.n, 0);
    if (unit_failed_now)
        dump_findings(&r);
    CHECK_STR(r.status, "nothing found: the 23 first-party imported names the change adds resolve in "
                        "the base tree or in the change");
    result_free(&r);
    free(d);
    free(d1);
    free(d2);
    drop_tree(root);
}

TEST(relative_imports_in_a_package_init_resolve_against_the_package)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    /* aiter#4515: in aiter/ops/__init__.py `.kernels.tiles` is aiter.ops.kernels.tiles */
    const char *d =
        "diff --git a/aiter/ops/__init__.py b/aiter/ops/__init__.py\n"
        "--- a/aiter/ops/__init__.py\n"
        "+++ b/aiter/ops/__init__.py\n"
        "@@ -1 +1,3 @@\n"
        " from .common import *\n"
        "+from .kernels.tiles import pick\n"
        "+from ..ops.kernels.gone import nope\n";
    unit_put_file(root, "head/aiter/ops/__init__.py",
        "from .common import *\nfrom .kernels.tiles import pick\nfrom ..ops.kernels.gone import nope\n");
    char *cause = NULL;
    change *c = diff_parse(d, strlen(d), &cause);
    free(cause);
    c->head_root = xasprintf("%s/head", root);
    result r = {{0}, NULL};
    collector_ctx ctx = {.chg = c, .root = root, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_imports, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 3) && str_contains(at_line(&r, 3)->message, "aiter.ops.kernels.gone"));
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
    drop_tree(root);
}

TEST(renamed_and_deleted_modules)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    /* aiter#5254: a rename target exists although it is no new file; the source is gone */
    const char *d =
        "diff --git a/aiter/ops/kernels/tiles.py b/aiter/ops/linear/tiles.py\n"
        "similarity index 100%\n"
        "rename from aiter/ops/kernels/tiles.py\n"
        "rename to aiter/ops/linear/tiles.py\n"
        "diff --git a/aiter/ops/user2.py b/aiter/ops/user2.py\n"
        "new file mode 100644\n"
        "--- /dev/null\n"
        "+++ b/aiter/ops/user2.py\n"
        "@@ -0,0 +1,2 @@\n"
        "+from aiter.ops.linear.tiles import pick\n"
        "+from aiter.ops.kernels.tiles import pick as old_pick\n";
    result r = run(d, root);
    if (r.out.n != 1)
        dump_findings(&r);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 2) && str_contains(at_line(&r, 2)->message, "this change deletes or moves"));
    result_free(&r);
    drop_tree(root);
}

TEST(modules_a_package_redirects_through_an_import_hook_are_left_alone)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    /* a package that moved its modules into subpackages and keeps the old names importable:
     * a map of old to new names and a sys.meta_path finder that consults it */
    unit_put_file(root, "aiter/kern/__init__.py",
        "import importlib\nimport sys\n\n_MOVED = {\n    \"flash_decode\": \"attn.flash_decode\",\n"
        "    'rope_cache': \"pos.rope_cache\",\n}\n\n\n"
        "class _Finder:\n    def find_spec(self, fullname, path, target=None):\n"
        "        return None\n\n\nsys.meta_path.insert(0, _Finder())\n");
    unit_put_file(root, "aiter/kern/attn/flash_decode.py", "def run():\n    return 0\n");
    /* a package with a lazy module __getattr__ that names one submodule: attribute access
     * works, but `from pkg.late_mod import x` still needs a file */
    unit_put_file(root, "aiter/lazy_pkg/__init__.py",
        "def __getattr__(name):\n    if name == \"late_mod\":\n        import importlib\n"
        "        return importlib.import_module(\".real\", __name__)\n    raise AttributeError(name)\n");
    static const char *const src[] = {
        "from aiter.kern.flash_decode import run",     /* 1: redirected by the map: silent */
        "import aiter.kern.rope_cache",                /* 2: redirected: silent */
        "from aiter.kern.never_existed import run",    /* 3: the hook does not name it */
        "from aiter.lazy_pkg.late_mod import x",       /* 4: __getattr__ is no finder */
        "from aiter.ops.flash_decode import run",      /* 5: no hook in aiter.ops */
        NULL};
    char *d = new_file_diff("op_tests/test_moved.py", src);
    result r = run(d, root);
    CHECK_INT(r.out.n, 3);
    if (unit_failed_now)
        dump_findings(&r);
    CHECK(at_line(&r, 3) && str_contains(at_line(&r, 3)->message, "aiter.kern.never_existed"));
    CHECK(at_line(&r, 4) && str_contains(at_line(&r, 4)->message, "aiter.lazy_pkg.late_mod"));
    CHECK(at_line(&r, 5) && str_contains(at_line(&r, 5)->message, "aiter.ops.flash_decode"));
    CHECK_STR(r.status, "found 3 unresolved imports among 5 first-party imported names the change "
                        "adds; 2 redirected by a package's import hook left alone");
    result_free(&r);
    free(d);
    drop_tree(root);
}

TEST(status_lines)
{
    result r = run("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                   "@@ -1 +1,2 @@\n x\n+y\n", "/nonexistent");
    CHECK_STR(r.status, "nothing found: no Python file gains lines");
    result_free(&r);
    static const char *const src[] = {"from aiter.x import y", NULL};
    char *d = new_file_diff("aiter/z.py", src);
    r = run(d, NULL);
    CHECK_STR(r.status, "skipped: no repository and no root directory to resolve imports against");
    CHECK_INT(r.out.n, 0);
    result_free(&r);
    free(d);
}

/* A module the change itself adds is read from its head doc, under the key the per-file
 * stages parse it with: one parse serves both, with or without a cache, review after
 * review. */
TEST(a_module_of_the_change_is_parsed_once_for_its_importers_and_itself)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const helpers[] = {
        "from aiter.ops.common import ready, gone_name",  /* 1: gone_name is nowhere */
        "def scale_rows(x):",
        "    return x",
        NULL};
    static const char *const user[] = {
        "from aiter.ops.helpers import scale_rows, shift_rows",  /* 1: shift_rows is nowhere */
        NULL};
    char *d1 = new_file_diff("aiter/ops/helpers.py", helpers);
    char *d2 = new_file_diff("aiter/ops/new_op.py", user);
    char *d = xasprintf("%s%s", d1, d2);
    syntax_cache *syn = syntax_cache_new();
    for (int pass = 0; pass < 3; pass++) {
        /* passes 0 and 1 share a cache (the second review finds every doc kept); 2 has none */
        result r = run_cached(d, root, pass < 2 ? syn : NULL);
        CHECK_INT(r.out.n, 2);
        if (unit_failed_now)
            dump_findings(&r);
        for (size_t i = 0; i < r.out.n; i++) {
            const finding *f = &r.out.items[i];
            if (!strcmp(f->path, "aiter/ops/helpers.py"))
                CHECK(str_starts(f->message, "`gone_name` is defined neither in "
                                             "aiter/ops/common.py"));
            else
                CHECK(str_starts(f->message, "`shift_rows` is defined neither in "
                                             "aiter/ops/helpers.py (aiter.ops.helpers)"));
        }
        CHECK_STR(r.status, "found 2 unresolved imports among 4 first-party imported names "
                            "the change adds");
        result_free(&r);
        size_t ndocs = 0, nparses = 0;
        syntax_cache_stats(syn, &ndocs, &nparses, NULL);
        /* helpers.py (as the module shift_rows is looked for in, and as the change's file:
         * once) and aiter/ops/common.py; the new files' own imports are plain column-0
         * statements, read from their text */
        CHECK_INT((int)ndocs, 2);
        CHECK_INT((int)nparses, 2);
    }
    syntax_cache_free(syn);
    free(d);
    free(d1);
    free(d2);
    drop_tree(root);
}

/* A module whose column-0 statements bind every name imported from it is read, not parsed;
 * a name that only a docstring spells in column 0 sends it to the parse, which finds it
 * missing. */
TEST(names_bound_in_column_0_resolve_without_a_parse)
{
    char *root = make_tree();
    CHECK(root != NULL);
    if (!root)
        return;
    unit_put_file(root, "aiter/ops/plain.py",
        "\"\"\"Helpers.\n\ndef documented_only():\n    pass\n\"\"\"\n"
        "import os\n\n\ndef helper(x):\n    return x\n\n\nTILE = 64\n");
    static const char *const resolves[] = {"from aiter.ops.plain import helper, TILE, os", NULL};
    static const char *const missing[] = {"from aiter.ops.plain import documented_only", NULL};
    for (int k = 0; k < 2; k++) {
        char *d = new_file_diff("aiter/ops/new_op.py", k == 0 ? resolves : missing);
        syntax_cache *syn = syntax_cache_new();
        result r = run_cached(d, root, syn);
        size_t ndocs = 0, nparses = 0;
        syntax_cache_stats(syn, &ndocs, &nparses, NULL);
        if (k == 0) {
            CHECK_INT(r.out.n, 0);
            CHECK_INT((int)nparses, 0); /* its import is read from the text, plain.py too */
        } else {
            CHECK_INT(r.out.n, 1);
            CHECK(r.out.n == 1 && str_starts(r.out.items[0].message, "`documented_only` is defined "
                                                                     "neither in aiter/ops/plain.py"));
            CHECK_INT((int)nparses, 1); /* plain.py, to look for documented_only */
        }
        result_free(&r);
        syntax_cache_free(syn);
        free(d);
    }
    drop_tree(root);
}

UNIT_MAIN("test_imports",
          UNIT_CASE(missing_modules_and_names_are_flagged_on_what_is_missing),
          UNIT_CASE(a_module_edited_between_reviews_is_read_again),
          UNIT_CASE(imports_that_resolve_or_cannot_be_disproved_are_silent),
          UNIT_CASE(relative_imports_in_a_package_init_resolve_against_the_package),
          UNIT_CASE(renamed_and_deleted_modules),
          UNIT_CASE(modules_a_package_redirects_through_an_import_hook_are_left_alone),
          UNIT_CASE(only_imports_on_added_lines_are_checked_in_a_changed_file),
          UNIT_CASE(status_lines),
          UNIT_CASE(a_module_of_the_change_is_parsed_once_for_its_importers_and_itself),
          UNIT_CASE(names_bound_in_column_0_resolve_without_a_parse))
