/* Unit tests for the Triton masks collector (T1, T2): changes built from unified diffs (new
 * files carry their whole head text); unmasked accesses that tile a runtime axis, the shapes
 * that need no mask (constexpr specialisation, clamps, whole constexpr axes, scalars), masked
 * loads with no other= reaching a max/min, exact call ranges and status lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_triton_masks;

/* Run the collector over a diff (no repository, no head tree). */
static result run(const char *diff)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    collector_ctx ctx = {.chg = c, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_triton_masks, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

/* Print the findings to help a failing test. */
static void dump(const result *r)
{
    for (size_t i = 0; i < r->out.n; i++)
        fprintf(stderr, "  finding: %d:%d: [%s] %s\n", r->out.items[i].range.line,
                r->out.items[i].range.col, r->out.items[i].rule_id, r->out.items[i].message);
}

TEST(tiled_unmasked_load_and_store_are_flagged_on_the_whole_call)
{
    static const char *const src[] = {
        "@triton.jit",                                         /* 1 */
        "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):",        /* 2 */
        "    pid = tl.program_id(0)",                          /* 3 */
        "    offs = pid * BLOCK + tl.arange(0, BLOCK)",        /* 4 */
        "    x = tl.load(x_ptr + offs)",                       /* 5 */
        "    tl.store(",                                       /* 6 */
        "        y_ptr + offs,",                               /* 7 */
        "        x,",                                          /* 8 */
        "    )",                                               /* 9 */
        NULL};
    char *d = new_file_diff("aiter/ops/triton/a.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 2);
    const finding *f = at_line(&r, 5), *g = at_line(&r, 6);
    CHECK(f && g);
    if (f) {
        CHECK_STR(f->rule_id, "T1");
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_STR(f->collector, "triton_masks");
        CHECK_INT(f->range.col, 8);
        CHECK_INT(f->range.end_line, 5);
        CHECK_INT(f->range.end_col, 29);
        CHECK(str_starts(f->message, "`tl.load` with no mask=: its offsets tile a runtime axis "
                                     "in blocks"));
    }
    if (g) {
        CHECK_INT(g->range.col, 4);
        CHECK_INT(g->range.end_line, 9);
        CHECK_INT(g->range.end_col, 5);
        CHECK(str_contains(g->message, "the last block writes past the end"));
    }
    CHECK_STR(r.status, "found 2 unmasked load/stores (T1) and 0 masked loads with no other= "
                        "feeding a max/min (T2) among 2 on added lines");
    result_free(&r);
    free(d);
}

TEST(accesses_that_need_no_mask_are_silent)
{
    static const char *const src[] = {
        "@triton.jit",
        "def k(x_ptr, n, stride, seq_ptr, BLOCK: tl.constexpr, EVEN: tl.constexpr,",
        "      HEAD_DIM: tl.constexpr, **meta):",
        "    pid = tl.program_id(0)",
        "    offs = pid * BLOCK + tl.arange(0, BLOCK)",
        "    if EVEN:",
        "        a = tl.load(x_ptr + offs)",
        "    else:",
        "        a = tl.load(x_ptr + offs, offs < n, other=0.0)",
        "    b = tl.load(x_ptr + offs) if EVEN else 0.0",
        "    c = tl.load(x_ptr + tl.minimum(offs, n - 1))",
        "    wrapped = offs % n",
        "    e = tl.load(x_ptr + wrapped)",
        "    seq = tl.load(seq_ptr + pid)",
        "    d = tl.arange(0, HEAD_DIM)",
        "    q = tl.load(x_ptr + pid * stride + d)",
        "    tl.store(x_ptr + offs, a, offs < n)",
        "    h = tl.load(x_ptr + offs, **meta)",
        "    # tl.load(x_ptr + offs) in a comment",
        "    s = 'tl.load(x_ptr + offs)'",
        "    return a, b, c, e, seq, q, h, s",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/b.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 0);
    if (unit_failed_now)
        dump(&r);
    CHECK_STR(r.status, "nothing found: the 9 tl.load/tl.store calls on added lines are masked, "
                        "clamped, whole constexpr blocks or scalar");
    result_free(&r);
    free(d);
}

TEST(advanced_pointers_block_pointers_and_sliding_loops_are_flagged)
{
    static const char *const src[] = {
        "@triton.jit",                                                       /* 1 */
        "def k(a_ptr, K, stride_k, offs_in, BLOCK_K: tl.constexpr):",        /* 2 */
        "    offs_k = tl.arange(0, BLOCK_K)",                                /* 3 */
        "    ptrs = a_ptr + offs_k * stride_k",                              /* 4 */
        "    for k in range(0, K, BLOCK_K):",                                /* 5 */
        "        a = tl.load(ptrs)",                                         /* 6: advanced */
        "        ptrs += BLOCK_K * stride_k",                                /* 7 */
        "    blk = tl.make_block_ptr(a_ptr, (K,), (1,), (0,), (BLOCK_K,), (0,))", /* 8 */
        "    b = tl.load(blk)",                                              /* 9: block ptr */
        "    c = tl.load(blk, boundary_check=(0,))",                         /* 10 */
        "    e = tl.load(a_ptr + offs_in)",                                  /* 11: parameter */
        "    r = tl.arange(0, K)",                                           /* 12 */
        "    f = tl.load(a_ptr + r)",                                        /* 13: see below */
        "    for k2 in range(0, K, BLOCK_K):",                               /* 14 */
        "        g = gl.load(a_ptr + k2 + offs_k)",                          /* 15: loop tiled */
        "    return a, b, c, e, f, g",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/c.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 3);
    if (unit_failed_now)
        dump(&r);
    CHECK(at_line(&r, 6) != NULL);
    CHECK(at_line(&r, 9) && str_contains(at_line(&r, 9)->message, "pass boundary_check="));
    /* Triton compiles only constexpr arange bounds: a bound the tool cannot see to be constexpr
     * (here a plain parameter, in real kernels a module-level constexpr) is no evidence */
    CHECK(at_line(&r, 13) == NULL);
    CHECK(at_line(&r, 15) && str_starts(at_line(&r, 15)->message, "`gl.load`"));
    /* an offset that is a plain runtime parameter with no arange is a scalar access */
    CHECK(at_line(&r, 11) == NULL);
    result_free(&r);
    free(d);
}

TEST(masked_loads_without_other_reaching_max_or_min)
{
    static const char *const src[] = {
        "@triton.jit",                                                       /* 1 */
        "def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",                    /* 2 */
        "    cols = tl.arange(0, BLOCK)",                                    /* 3 */
        "    m = cols < n",                                                  /* 4 */
        "    x = tl.load(x_ptr + cols, mask=m)",                             /* 5: T2 via local */
        "    xs = x * 2.0",                                                  /* 6 */
        "    mx = tl.max(xs, axis=0)",                                       /* 7 */
        "    mn = tl.min(tl.load(x_ptr + cols, mask=m), axis=0)",            /* 8: T2 nested */
        "    ok = tl.max(tl.load(x_ptr + cols, mask=m, other=-float('inf')), axis=0)",
        "    ok2 = tl.max(tl.load(x_ptr + cols, m, -float('inf')), axis=0)",
        "    ok3 = tl.max(tl.load(x_ptr + cols, mask=(cols < n), other=-1e30), axis=0)",
        "    total = tl.sum(tl.load(x_ptr + cols, mask=m), axis=0)",
        "    y = tl.load(x_ptr + cols, mask=m)",
        "    y = tl.where(m, y, -float('inf'))",
        "    ymax = tl.max(y, axis=0)",
        "    z = tl.load(x_ptr + cols, mask=m)",
        "    tl.store(out_ptr + cols, z, mask=m)",
        "    tl.store(out_ptr, mx + mn + ok + ok2 + ok3 + total + ymax)",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/d.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 2);
    if (unit_failed_now)
        dump(&r);
    const finding *f = at_line(&r, 5), *g = at_line(&r, 8);
    CHECK(f && g);
    if (f) {
        CHECK_STR(f->rule_id, "T2");
        CHECK_INT(f->sev, SEV_INFORMATION);
        CHECK(str_contains(f->message, "flow into `max` on line 7"));
        CHECK_INT(f->nrelated, 1);
    }
    if (g) {
        CHECK(str_contains(g->message, "flow into `min` on line 8"));
        CHECK_INT(g->nrelated, 0);
        CHECK_INT(g->range.col, 16);
    }
    result_free(&r);
    free(d);
}

TEST(only_added_lines_count_and_status_lines)
{
    result r = run("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                   "@@ -1 +1,2 @@\n x\n+y\n");
    CHECK_STR(r.status, "nothing found: no Python file gains lines");
    result_free(&r);
    static const char *const src[] = {"def f(a):", "    return a + 1", NULL};
    char *d = new_file_diff("aiter/x.py", src);
    r = run(d);
    CHECK_STR(r.status, "nothing found: no tl.load or tl.store on an added line");
    result_free(&r);
    free(d);
    r = run("diff --git a/a/k.py b/a/k.py\n--- a/a/k.py\n+++ b/a/k.py\n"
            "@@ -10,2 +10,3 @@\n x = 1\n+y = tl.load(p)\n z = 3\n");
    CHECK(str_starts(r.status, "skipped: "));
    result_free(&r);
}

/* A changed file (its head in a tree): a call that starts above the added lines and holds two
 * runs of them is judged once; a call on no added line is not judged. */
TEST(a_call_holding_added_lines_is_judged_once)
{
    char tmpl[] = "/tmp/review-tm-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    static const char *const head[] = {
        "@triton.jit",                                  /* 1 */
        "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):", /* 2 */
        "    pid = tl.program_id(0)",                   /* 3 */
        "    offs = pid * BLOCK + tl.arange(0, BLOCK)", /* 4 */
        "    x = tl.load(",                             /* 5 */
        "        x_ptr + offs,",                        /* 6 added */
        "        # the row",                            /* 7 */
        "        other=0.0,",                           /* 8 added */
        "    )",                                        /* 9 */
        "    tl.store(y_ptr + offs, x)",                /* 10 */
        NULL};
    char *dir = xasprintf("%s/aiter", root), *path = xasprintf("%s/aiter/k.py", root);
    mkdir(dir, 0755);
    FILE *fp = fopen(path, "w");
    for (int i = 0; fp && head[i]; i++)
        fprintf(fp, "%s\n", head[i]);
    if (fp)
        fclose(fp);
    strbuf d;
    sb_init(&d);
    sb_adds(&d, "diff --git a/aiter/k.py b/aiter/k.py\n--- a/aiter/k.py\n+++ b/aiter/k.py\n"
                "@@ -1,8 +1,10 @@\n");
    for (int i = 0; head[i]; i++)
        sb_addf(&d, "%c%s\n", i == 5 || i == 7 ? '+' : ' ', head[i]);
    char *cause = NULL;
    change *c = diff_parse(d.buf, d.len, &cause);
    free(cause);
    CHECK(c != NULL);
    if (c) {
        c->head_root = xstrdup(root);
        result r = {{0}, NULL};
        collector_ctx ctx = {.chg = c, .root = root, .out = &r.out};
        sb_init(&ctx.status);
        collector_run(&collector_triton_masks, &ctx);
        r.status = sb_detach(&ctx.status);
        sb_free(&ctx.status);
        CHECK_INT(r.out.n, 1);
        CHECK(at_line(&r, 5) != NULL);
        CHECK(str_ends(r.status, "among 1 on added lines"));
        if (unit_failed_now) {
            dump(&r);
            fprintf(stderr, "  status: %s\n", r.status);
        }
        result_free(&r);
        change_free(c);
    }
    sb_free(&d);
    CHECK(unit_remove_tree(root));
    free(dir);
    free(path);
}

UNIT_MAIN("test_triton_masks",
          UNIT_CASE(tiled_unmasked_load_and_store_are_flagged_on_the_whole_call),
          UNIT_CASE(accesses_that_need_no_mask_are_silent),
          UNIT_CASE(advanced_pointers_block_pointers_and_sliding_loops_are_flagged),
          UNIT_CASE(masked_loads_without_other_reaching_max_or_min),
          UNIT_CASE(only_added_lines_count_and_status_lines),
          UNIT_CASE(a_call_holding_added_lines_is_judged_once))
