/* Unit tests for the AOT pairing collector (D12): a root directory holds the tree (the
 * pre-compiler's aiter/aot/flydsl/<name>.py and the ops modules at their head), the change is a
 * unified diff. New public names in a module AOT imports from, the ones AOT already knows or
 * that the change teaches it, private names, changed bodies, modules AOT never imports,
 * relative and submodule imports on the AOT side, exact ranges and status lines. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_aot_pairing;

/* Run the collector over a diff with root as the tree (NULL: none). */
static result run(const char *diff, const char *root)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    if (root)
        c->head_root = xstrdup(root);
    collector_ctx ctx = {.chg = c, .root = root, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_aot_pairing, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

/* A new temporary directory (caller frees the name). */
static char *make_dir(void)
{
    char tmpl[] = "/tmp/rl-aot-XXXXXX";
    char *dir = mkdtemp(tmpl);
    return dir ? xstrdup(dir) : NULL;
}

/* Remove a directory made by make_dir. */
static void drop_dir(char *dir)
{
    char *rm = xasprintf("rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
    free(rm);
    free(dir);
}

/* The finding on line of path, or NULL. */
static const finding *at(const result *r, const char *path, int line)
{
    for (size_t i = 0; i < r->out.n; i++)
        if (r->out.items[i].range.line == line && strcmp(r->out.items[i].path, path) == 0)
            return &r->out.items[i];
    return NULL;
}

/* Print the findings to help a failing test. */
static void dump(const result *r)
{
    for (size_t i = 0; i < r->out.n; i++)
        fprintf(stderr, "  finding: %s:%d:%d: %s\n", r->out.items[i].path,
                r->out.items[i].range.line, r->out.items[i].range.col, r->out.items[i].message);
}

static const char *const ops_head =
    "def pick_block_k(k):\n"          /* 1 */
    "    return 64 if k < 512 else 128\n"
    "\n"
    "\n"
    "def pick_block_n(n):\n"          /* 5: new */
    "    return 256\n"
    "\n"
    "\n"
    "class TilePlan:\n"               /* 9: new, taught in the AOT hunk */
    "    pass\n"
    "\n"
    "\n"
    "def _private_helper():\n"        /* 13: new, private */
    "    return 0\n"
    "\n"
    "\n"
    "STAGES = 2\n"                    /* 17: new assignment */
    "\n"
    "\n"
    "@functools.cache\n"              /* 20 */
    "def pick_warps(n):\n"            /* 21: new, decorated */
    "    return 4\n";

static const char *const diff_text =
    "diff --git a/aiter/ops/flydsl/moe_tiles.py b/aiter/ops/flydsl/moe_tiles.py\n"
    "--- a/aiter/ops/flydsl/moe_tiles.py\n"
    "+++ b/aiter/ops/flydsl/moe_tiles.py\n"
    "@@ -1,2 +1,22 @@\n"
    " def pick_block_k(k):\n"
    "-    return 64\n"
    "+    return 64 if k < 512 else 128\n"
    "+\n"
    "+\n"
    "+def pick_block_n(n):\n"
    "+    return 256\n"
    "+\n"
    "+\n"
    "+class TilePlan:\n"
    "+    pass\n"
    "+\n"
    "+\n"
    "+def _private_helper():\n"
    "+    return 0\n"
    "+\n"
    "+\n"
    "+STAGES = 2\n"
    "+\n"
    "+\n"
    "+@functools.cache\n"
    "+def pick_warps(n):\n"
    "+    return 4\n"
    "diff --git a/aiter/ops/flydsl/other.py b/aiter/ops/flydsl/other.py\n"
    "--- a/aiter/ops/flydsl/other.py\n"
    "+++ b/aiter/ops/flydsl/other.py\n"
    "@@ -1 +1,2 @@\n"
    " X = 1\n"
    "+def not_imported_by_aot():\n"
    "diff --git a/aiter/aot/flydsl/moe.py b/aiter/aot/flydsl/moe.py\n"
    "--- a/aiter/aot/flydsl/moe.py\n"
    "+++ b/aiter/aot/flydsl/moe.py\n"
    "@@ -1,2 +1,3 @@\n"
    " from aiter.ops.flydsl.moe_tiles import pick_block_k\n"
    "+# TilePlan is built here too\n"
    " X = pick_block_k(1)\n";

TEST(new_public_names_not_taught_to_aot_are_flagged_on_the_name)
{
    char *root = make_dir();
    CHECK(root != NULL);
    if (!root)
        return;
    unit_put_file(root, "aiter/ops/flydsl/moe_tiles.py", ops_head);
    unit_put_file(root, "aiter/ops/flydsl/other.py", "X = 1\ndef not_imported_by_aot():\n");
    unit_put_file(root, "aiter/aot/flydsl/moe.py",
        "from aiter.ops.flydsl.moe_tiles import pick_block_k\n# TilePlan is built here too\n"
        "X = pick_block_k(1)\n");
    unit_put_file(root, "aiter/aot/flydsl/gemm.py", "from ...ops.flydsl import moe_tiles\n");
    unit_put_file(root, "aiter/aot/flydsl/nested/ignored.py",
        "from aiter.ops.flydsl.other import X\n");
    result r = run(diff_text, root);
    CHECK_INT(r.out.n, 3);
    if (unit_failed_now)
        dump(&r);
    const char *p = "aiter/ops/flydsl/moe_tiles.py";
    const finding *f = at(&r, p, 5);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule_id, "D12");
        CHECK_INT(f->sev, SEV_INFORMATION);
        CHECK_STR(f->collector, "aot_pairing");
        CHECK_INT(f->range.col, 4);
        CHECK_INT(f->range.end_col, 16);
        CHECK(str_starts(f->message, "`pick_block_n` is new and public in aiter.ops.flydsl."
                                     "moe_tiles, which the FlyDSL pre-compiler imports from "
                                     "(aiter/aot/flydsl/gemm.py, aiter/aot/flydsl/moe.py)"));
        CHECK_INT(f->nrelated, 2);
    }
    CHECK(at(&r, p, 17) != NULL);
    CHECK(at(&r, p, 21) != NULL);
    CHECK(at(&r, p, 9) == NULL);   /* named in the AOT hunk */
    CHECK(at(&r, p, 13) == NULL);  /* private */
    CHECK(at(&r, p, 1) == NULL);   /* changed body, old name */
    CHECK_STR(r.status, "found 3 new FlyDSL ops names the pre-compiler was not taught");
    result_free(&r);
    drop_dir(root);
}

/* The shapes of real pull requests: a module AOT imports from through a multi-line, aliased
 * import (new multi-B stage functions and a kernel-name helper), a module AOT star-imports
 * (a new module constant and a new builder), a module AOT imports with `import ... as`, and a
 * module imported only inside a function. Every new public name there is a finding; names AOT
 * already imports (under an alias) are not. */
static const char *const moe_kernels_head =
    "import torch\n"                                      /* 1 */
    "\n"
    "\n"
    "def moe_stage1(a, w, out):\n"                        /* 4: AOT imports it as _stage1 */
    "    return out\n"
    "\n"
    "\n"
    "def blockscale_multi_b_kernel_names(tile_m, tile_n):\n" /* 8: new */
    "    return [f\"multi_b_{tile_m}x{tile_n}\"]\n"
    "\n"
    "\n"
    "def moe_stage1_multi_b(a, w, out, num_b):\n"          /* 12: new */
    "    return out\n"
    "\n"
    "\n"
    "def moe_stage2_multi_b(a, w, out, num_b):\n"          /* 16: new */
    "    return out\n";

static const char *const route_maps_head =
    "DROPPED_ROW = -1\n"                                   /* 1: new constant */
    "EP_REMAP_BLOCKS: int = 8\n"                           /* 2: new annotated constant */
    "\n"
    "\n"
    "def build_ep_rowmap_module(num_experts):\n"           /* 5: new builder */
    "    return num_experts\n";

static const char *const tile_cfg_head =
    "TILE_M = 32\n"
    "TILE_N = 128\n";                                      /* 2: new */

static const char *const reduce_head =
    "def run_reduction(x):\n"
    "    return x\n"
    "\n"
    "\n"
    "def run_reduction_ep(x, rank):\n"                     /* 5: new */
    "    return x\n";

static const char *const real_shapes_diff =
    "diff --git a/aiter/ops/flydsl/moe_kernels.py b/aiter/ops/flydsl/moe_kernels.py\n"
    "--- a/aiter/ops/flydsl/moe_kernels.py\n"
    "+++ b/aiter/ops/flydsl/moe_kernels.py\n"
    "@@ -3,3 +3,15 @@ import torch\n"
    " \n"
    " def moe_stage1(a, w, out):\n"
    "     return out\n"
    "+\n"
    "+\n"
    "+def blockscale_multi_b_kernel_names(tile_m, tile_n):\n"
    "+    return [f\"multi_b_{tile_m}x{tile_n}\"]\n"
    "+\n"
    "+\n"
    "+def moe_stage1_multi_b(a, w, out, num_b):\n"
    "+    return out\n"
    "+\n"
    "+\n"
    "+def moe_stage2_multi_b(a, w, out, num_b):\n"
    "+    return out\n"
    "diff --git a/aiter/ops/flydsl/kernels/moe_route_maps.py b/aiter/ops/flydsl/kernels/moe_route_maps.py\n"
    "new file mode 100644\n"
    "--- /dev/null\n"
    "+++ b/aiter/ops/flydsl/kernels/moe_route_maps.py\n"
    "@@ -0,0 +1,6 @@\n"
    "+DROPPED_ROW = -1\n"
    "+EP_REMAP_BLOCKS: int = 8\n"
    "+\n"
    "+\n"
    "+def build_ep_rowmap_module(num_experts):\n"
    "+    return num_experts\n"
    "diff --git a/aiter/ops/flydsl/kernels/tile_cfg.py b/aiter/ops/flydsl/kernels/tile_cfg.py\n"
    "--- a/aiter/ops/flydsl/kernels/tile_cfg.py\n"
    "+++ b/aiter/ops/flydsl/kernels/tile_cfg.py\n"
    "@@ -1 +1,2 @@\n"
    " TILE_M = 32\n"
    "+TILE_N = 128\n"
    "diff --git a/aiter/ops/flydsl/reduce.py b/aiter/ops/flydsl/reduce.py\n"
    "--- a/aiter/ops/flydsl/reduce.py\n"
    "+++ b/aiter/ops/flydsl/reduce.py\n"
    "@@ -1,2 +1,6 @@\n"
    " def run_reduction(x):\n"
    "     return x\n"
    "+\n"
    "+\n"
    "+def run_reduction_ep(x, rank):\n"
    "+    return x\n";

TEST(aot_imports_read_through_aliases_multiline_star_and_function_imports)
{
    char *root = make_dir();
    CHECK(root != NULL);
    if (!root)
        return;
    unit_put_file(root, "aiter/ops/flydsl/moe_kernels.py", moe_kernels_head);
    unit_put_file(root, "aiter/ops/flydsl/kernels/moe_route_maps.py", route_maps_head);
    unit_put_file(root, "aiter/ops/flydsl/kernels/tile_cfg.py", tile_cfg_head);
    unit_put_file(root, "aiter/ops/flydsl/reduce.py", reduce_head);
    unit_put_file(root, "aiter/aot/flydsl/moe.py",
        "from aiter.aot.flydsl.common import compile_one\n"
        "from aiter.ops.flydsl.moe_kernels import (\n"
        "    moe_stage1 as _stage1,\n"
        ")\n"
        "import aiter.ops.flydsl.kernels.tile_cfg as tile_cfg\n"
        "\n"
        "\n"
        "def precompile(rows):\n"
        "    from aiter.ops.flydsl.reduce import run_reduction\n"
        "    return [compile_one(_stage1, r, tile_cfg.TILE_M) for r in rows]\n");
    unit_put_file(root, "aiter/aot/flydsl/grouped_moe.py",
        "from aiter.ops.flydsl.kernels.moe_route_maps import *\n");
    result r = run(real_shapes_diff, root);
    if (r.out.n != 8)
        dump(&r);
    CHECK_INT(r.out.n, 8);
    const char *mk = "aiter/ops/flydsl/moe_kernels.py", *rm = "aiter/ops/flydsl/kernels/moe_route_maps.py";
    CHECK(at(&r, mk, 4) == NULL); /* already imported, under an alias */
    CHECK(at(&r, mk, 8) != NULL);
    CHECK(at(&r, mk, 12) != NULL);
    CHECK(at(&r, mk, 16) != NULL);
    CHECK(at(&r, rm, 1) != NULL);
    CHECK(at(&r, rm, 2) != NULL);
    CHECK(at(&r, rm, 5) != NULL);
    CHECK(at(&r, "aiter/ops/flydsl/kernels/tile_cfg.py", 2) != NULL);
    CHECK(at(&r, "aiter/ops/flydsl/reduce.py", 5) != NULL);
    const finding *f = at(&r, rm, 2);
    if (f)
        CHECK(str_starts(f->message, "`EP_REMAP_BLOCKS` is new and public in "
                                     "aiter.ops.flydsl.kernels.moe_route_maps, which the FlyDSL "
                                     "pre-compiler imports from (aiter/aot/flydsl/grouped_moe.py)"));
    CHECK_STR(r.status, "found 8 new FlyDSL ops names the pre-compiler was not taught");
    result_free(&r);
    drop_dir(root);
}

TEST(status_lines)
{
    char *root = make_dir();
    CHECK(root != NULL);
    if (!root)
        return;
    result r = run("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                   "@@ -1 +1,2 @@\n x\n+y\n", root);
    CHECK_STR(r.status, "nothing found: no aiter/ops/flydsl Python file gains lines");
    result_free(&r);
    unit_put_file(root, "aiter/ops/flydsl/moe_tiles.py", ops_head);
    r = run(diff_text, root);
    CHECK_STR(r.status, "nothing found: the tree has no aiter/aot/flydsl/, so there is no "
                        "pre-compiler to pair with");
    result_free(&r);
    r = run(diff_text, NULL);
    CHECK_STR(r.status, "skipped: no repository and no root directory to read aiter/aot/flydsl/ "
                        "from");
    result_free(&r);
    unit_put_file(root, "aiter/aot/flydsl/README.py", "import os\n");
    r = run(diff_text, root);
    CHECK_STR(r.status, "nothing found: aiter/aot/flydsl/ imports nothing from aiter.ops.flydsl");
    result_free(&r);
    unit_put_file(root, "aiter/aot/flydsl/moe.py", "from aiter.ops.flydsl.elsewhere import y\n");
    r = run(diff_text, root);
    CHECK_STR(r.status, "nothing found: none of the 2 changed aiter/ops/flydsl files is a module "
                        "aiter/aot/flydsl/ imports from");
    result_free(&r);
    unit_put_file(root, "aiter/aot/flydsl/moe.py",
        "from aiter.ops.flydsl.moe_tiles import pick_block_k, pick_block_n, TilePlan, STAGES, "
        "pick_warps\n");
    r = run(diff_text, root);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: no new public name in the 1 changed module that "
                        "aiter/aot/flydsl/ imports from (1 modules, 5 imports in 2 files)");
    result_free(&r);
    drop_dir(root);
}

UNIT_MAIN("test_aot_pairing",
          UNIT_CASE(new_public_names_not_taught_to_aot_are_flagged_on_the_name),
          UNIT_CASE(aot_imports_read_through_aliases_multiline_star_and_function_imports),
          UNIT_CASE(status_lines))
