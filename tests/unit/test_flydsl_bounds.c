/* Unit tests for the FlyDSL buffer-bounds collector (rule B8): changes built from unified diffs
 * (new files carry their whole head text), each call form judged bounded or not, the exact
 * range of each finding, and the status line in every outcome. A call is a finding only with
 * an access that can run past the tensor, so each unbounded call here is read at a block-tiled
 * lane offset (`bid * 64 + tid`) in a kernel with a run-time size (an Int32 parameter). */
#include <string.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_flydsl_bounds;

/* Run the collector over a diff (no repository, no head tree). */
static result run(const char *diff)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    collector_ctx ctx = {.chg = c, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_flydsl_bounds, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

TEST(bare_make_buffer_tensor_is_flagged_on_the_callee)
{
    static const char *const src[] = {
        "import flydsl.expr as fx",                       /* 1 */
        "def k(view, m: fx.Int32):",                      /* 2 */
        "    buf = fx.make_buffer_tensor(view)",          /* 3 */
        "    return fx.slice(buf, (fx.block_idx.x * 64 + fx.thread_idx.x, None))", /* 4 */
        NULL};
    char *d = new_file_diff("aiter/ops/flydsl/kernels/k.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 3);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule_id, "B8");
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_STR(f->collector, "flydsl_bounds");
        /* the callee "fx.make_buffer_tensor", up to its "(" */
        CHECK_INT(f->range.col, 10);
        CHECK_INT(f->range.end_line, 3);
        CHECK_INT(f->range.end_col, 31);
        CHECK(str_starts(f->message, "make_buffer_tensor(view): max_size omitted, so the "
                                     "descriptor covers 0xFFFFFFFF bytes"));
        CHECK_INT(f->nrelated, 1);  /* the access that can run past the tensor */
        if (f->nrelated)
            CHECK_INT(f->related[0].range.line, 4);
    }
    CHECK_STR(r.status, "found 1 unbounded buffer resource or descriptor with an access that can "
                        "run past the tensor on changed lines");
    result_free(&r);
    free(d);
    /* the same call handed back whole: no access to judge, left out and counted */
    static const char *const bare[] = {
        "import flydsl.expr as fx", "def k(view, m: fx.Int32):",
        "    buf = fx.make_buffer_tensor(view)", "    return buf", NULL};
    d = new_file_diff("aiter/ops/flydsl/kernels/k.py", bare);
    r = run(d);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: no unbounded buffer resource or descriptor with an access "
                        "that can run past the tensor on a changed line of 1 FlyDSL file; 1 "
                        "unbounded with no access shown to run past the tensor left out (1 whose "
                        "accesses were not followed)");
    result_free(&r);
    free(d);
}

TEST(max_size_true_is_flagged_on_the_keyword_argument)
{
    static const char *const src[] = {
        "def k(a, m: Int32):",                                              /* 1 */
        "    r = buffer_ops.create_buffer_resource(a, max_size=True)",      /* 2 */
        "    return buffer_ops.buffer_load(r, bid * 64 + tid)",             /* 3 */
        NULL};
    char *d = new_file_diff("aiter/ops/flydsl/a.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 2);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(f->range.col, 45);      /* "max_size=True" */
        CHECK_INT(f->range.end_col, 58);
        CHECK(str_contains(f->message, "max_size=True, so the descriptor covers 0xFFFFFFFF"));
    }
    result_free(&r);
    free(d);
    /* spaces around "=": the range still starts at the keyword */
    static const char *const spaced[] = {
        "def k(a, m: Int32):", "    r = make_buffer_tensor(a, max_size = True)",
        "    return fx.slice(r, (bid * 64 + tid,))", NULL};
    d = new_file_diff("aiter/ops/flydsl/a2.py", spaced);
    r = run(d);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK_INT(r.out.items[0].range.col, 30);
        CHECK_INT(r.out.items[0].range.end_col, 45);
    }
    result_free(&r);
    free(d);
}

TEST(bounded_forms_are_silent)
{
    static const char *const src[] = {
        "def k(a, n, flag=False, *rest, **kw):",
        "    r1 = create_buffer_resource(a, max_size=False)",
        "    r2 = create_buffer_resource(a, num_records_bytes=n)",
        "    r3 = ptr_buffer_resource(a, n)",
        "    r4 = create_buffer_resource(a, n, False)",
        "    r5 = make_buffer_tensor(a, False)",
        "    off = False",
        "    r6 = make_buffer_tensor(a, max_size=off)",
        "    r7 = make_buffer_tensor(a, max_size=flag)",
        "    r8 = make_buffer_tensor(a, **kw)",
        "    r9 = make_buffer_tensor(*rest)",
        "    d1 = make_tensor_descriptor_2d(a, oob_outer_bound=n, oob_inner_bound=n)",
        "    d2 = make_tensor_descriptor_2d(a, oob_outer_bound=None)",
        "    d3 = make_tensor_descriptor_2d(a)",
        "    # make_buffer_tensor(a) in a comment",
        "    s = 'make_buffer_tensor(a)'",
        "    r10 = make_buffer_tensor(a, max_size=BOUNDED)",
        "    return r1, r2, r3, r4, r5, r6, r7, r8, r9, d1, d2, d3, s, r10",
        "BOUNDED = False",
        NULL};
    char *d = new_file_diff("aiter/ops/flydsl/b.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 0);
    for (size_t i = 0; i < r.out.n; i++)
        fprintf(stderr, "  unexpected: %d: %s\n", r.out.items[i].range.line,
                r.out.items[i].message);
    CHECK_STR(r.status, "nothing found: no unbounded buffer resource or descriptor with an access "
                        "that can run past the tensor on a changed line of 1 FlyDSL file");
    result_free(&r);
    free(d);
}

TEST(unbounded_forms_are_flagged)
{
    static const char *const src[] = {
        "def k(a, n, wide, dflt=True, m: fx.Int32 = 0):",             /* 1 */
        "    r1 = ptr_buffer_resource(a)",                            /* 2 */
        "    r2 = create_buffer_resource(a, n, True)",                /* 3 */
        "    r3 = make_buffer_tensor(a, max_size=wide)",              /* 4 */
        "    r4 = make_buffer_tensor(a, max_size=dflt)",              /* 5 */
        "    on = True",                                              /* 6 */
        "    r5 = make_buffer_tensor(a, max_size=on)",                /* 7 */
        "    r6 = make_buffer_tensor(a, max_size=n > 4)",             /* 8 */
        "    r7 = create_buffer_resource(a, num_records_bytes = None)", /* 9 */
        "    d1 = make_tensor_descriptor_2d(a, oob_outer_bound=n, tensor_shape=(n, m))", /* 10 */
        "    d2 = make_tensor_descriptor_2d(a, oob_outer_bound=n, oob_inner_bound=None, shape=(n, m))",
        "    row = bid * 64 + tid",                               /* 12 */
        "    loads = buffer_load(r1, row), buffer_load(r2, row), buffer_load(r7, row)",
        "    views = fx.slice(r3, (row, None)), fx.slice(r4, (row,))",
        "    more = fx.slice(r5, (row,)), fx.slice(r6, (row,))",
        "    return loads, views, more, d1, d2",
        "def wide_module_constant(a, m: fx.Int32):",              /* 17 */
        "    return fx.slice(make_buffer_tensor(a, max_size=UNBOUNDED), (bid * 64 + tid,))",
        "UNBOUNDED = True",                                       /* 19 */
        "def shadow(a):",                                         /* 20 */
        "    UNBOUNDED = False",                                  /* 21 */
        "    return UNBOUNDED",
        NULL};
    char *d = new_file_diff("aiter/ops/flydsl/c.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 10);
    for (int line = 2; line <= 11; line++) {
        if (line == 6)
            continue;  /* the assignment */
        CHECK(at_line(&r, line) != NULL);
        if (!at_line(&r, line))
            fprintf(stderr, "  no finding on line %d\n", line);
    }
    const finding *f = at_line(&r, 18);
    CHECK(f != NULL);
    if (f) {
        CHECK(str_contains(f->message, "`UNBOUNDED` is never False here"));
        if (f->nrelated)
            CHECK_INT(f->related[0].range.line, 19);
    }
    f = at_line(&r, 4);
    if (f) {
        CHECK(str_contains(f->message, "parameter `wide` of `k` (no default)"));
        CHECK_INT(f->nrelated, 2);  /* the parameter, then the access */
        if (f->nrelated == 2) {
            CHECK_INT(f->related[0].range.line, 1);
            CHECK_INT(f->related[1].range.line, 14);
        }
    }
    f = at_line(&r, 5);
    if (f)
        CHECK(str_contains(f->message, "(default True)"));
    f = at_line(&r, 7);
    if (f) {
        CHECK(str_contains(f->message, "`on` is never False here"));
        CHECK_INT(f->nrelated, 2);
        if (f->nrelated)
            CHECK_INT(f->related[0].range.line, 6);
    }
    f = at_line(&r, 8);
    if (f)
        CHECK(str_contains(f->message, "max_size=n > 4 is not the literal False"));
    f = at_line(&r, 11);
    if (f)
        CHECK(str_contains(f->message, "oob_inner_bound=None"));
    f = at_line(&r, 9);  /* omitted max_size: the callee, up to its "(" */
    if (f) {
        CHECK_INT(f->range.col, 9);
        CHECK_INT(f->range.end_col, 31);
    }
    f = at_line(&r, 10);  /* the keyword and its value */
    if (f) {
        CHECK_INT(f->range.col, 38);
        CHECK_INT(f->range.end_col, 55);
    }
    result_free(&r);
    free(d);
}

TEST(only_changed_calls_count)
{
    /* line 3 is context, line 4 is added; a deletion inside the call at 6-8 counts */
    const char *d =
        "diff --git a/aiter/ops/flydsl/d.py b/aiter/ops/flydsl/d.py\n"
        "--- a/aiter/ops/flydsl/d.py\n"
        "+++ b/aiter/ops/flydsl/d.py\n"
        "@@ -1,9 +1,9 @@\n"
        " def k(a, n):\n"
        " \n"
        "     old = make_buffer_tensor(a)\n"
        "+    new = make_buffer_tensor(a)\n"
        " \n"
        "     r = create_buffer_resource(\n"
        "         a,\n"
        "-        num_records_bytes=n,\n"
        "     )\n"
        "     return old, new, r\n";
    result r = run(d);
    /* no head tree and not a new file: the head text is not available */
    CHECK(str_starts(r.status, "skipped: "));
    CHECK_INT(r.out.n, 0);
    result_free(&r);
}

TEST(only_changed_calls_count_with_head_tree)
{
    char tmpl[] = "/tmp/rl-b8-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return;
    char *sub = xasprintf("mkdir -p %s/aiter/ops/flydsl", dir);
    CHECK_INT(system(sub), 0);
    free(sub);
    char *path = xasprintf("%s/aiter/ops/flydsl/d.py", dir);
    FILE *fp = fopen(path, "w");
    fputs("def k(a, n, m: fx.Int32):\n"
          "\n"
          "    old = make_buffer_tensor(a)\n"
          "    new = make_buffer_tensor(a)\n"
          "\n"
          "    r = create_buffer_resource(\n"
          "        a,\n"
          "    )\n"
          "    return fx.slice(old, (bid + tid,)), fx.slice(new, (bid + tid,)), "
          "buffer_load(r, bid + tid)\n", fp);
    fclose(fp);
    const char *d =
        "diff --git a/aiter/ops/flydsl/d.py b/aiter/ops/flydsl/d.py\n"
        "--- a/aiter/ops/flydsl/d.py\n"
        "+++ b/aiter/ops/flydsl/d.py\n"
        "@@ -1,9 +1,9 @@\n"
        " def k(a, n, m: fx.Int32):\n"
        " \n"
        "     old = make_buffer_tensor(a)\n"
        "+    new = make_buffer_tensor(a)\n"
        " \n"
        "     r = create_buffer_resource(\n"
        "         a,\n"
        "-        num_records_bytes=n,\n"
        "     )\n"
        "     return fx.slice(old, (bid + tid,)), fx.slice(new, (bid + tid,)), "
        "buffer_load(r, bid + tid)\n";
    char *cause = NULL;
    change *c = diff_parse(d, strlen(d), &cause);
    free(cause);
    c->head_root = xstrdup(dir);
    finding_list out = {0};
    collector_ctx ctx = {.chg = c, .out = &out, .root = dir};
    sb_init(&ctx.status);
    collector_run(&collector_flydsl_bounds, &ctx);
    CHECK_INT(out.n, 2);
    if (out.n == 2) {
        findings_sort(&out);
        CHECK_INT(out.items[0].range.line, 4);
        CHECK_INT(out.items[1].range.line, 6);
        CHECK(str_starts(out.items[1].message, "create_buffer_resource(a): max_size omitted"));
    }
    CHECK_STR(ctx.status.buf, "found 2 unbounded buffer resources or descriptors with an access "
                              "that can run past the tensor on changed lines");
    sb_free(&ctx.status);
    findings_clear(&out);
    change_free(c);
    unlink(path);
    free(path);
    char *rm = xasprintf("rm -rf %s", dir);
    CHECK_INT(system(rm), 0);
    free(rm);
}

TEST(paths_outside_flydsl_are_not_read)
{
    static const char *const src[] = {
        "def k(a, m: Int32):", "    x = make_buffer_tensor(a)",
        "    return fx.slice(x, (bid * 64 + tid,))", NULL};
    char *d = new_file_diff("aiter/ops/triton/x.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: no FlyDSL Python file in the change");
    result_free(&r);
    free(d);
    /* the path match is case-insensitive; a .pyi or .cu under flydsl is not Python source */
    char *d2 = new_file_diff("aiter/FLYDSL/x.py", src);
    result r2 = run(d2);
    CHECK_INT(r2.out.n, 1);
    result_free(&r2);
    free(d2);
    char *d3 = new_file_diff("csrc/flydsl/x.cu", src);
    result r3 = run(d3);
    CHECK_INT(r3.out.n, 0);
    result_free(&r3);
    free(d3);
}

TEST(long_buffer_expressions_are_cut)
{
    static const char *const src[] = {
        "def k(m: Int32):",
        "    t = make_buffer_tensor(some_module.some_attribute[index_one + index_two * stride_x])",
        "    return fx.slice(t, (bid * 64 + tid,))", NULL};
    char *d = new_file_diff("aiter/ops/flydsl/e.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    if (r.out.n)
        CHECK(str_starts(r.out.items[0].message,
                         "make_buffer_tensor(some_module.some_attribute[index_one + index_...)"));
    result_free(&r);
    free(d);
}

TEST(each_kernel_of_a_file_is_judged_from_its_own_locals)
{
    /* Three kernels name their descriptor and offset alike; what a name holds is looked up
     * once per function and file, and must be the function's own: k1 clamps its offset, k2
     * does not. k3 splits the callee over two lines (the call starts a line above the name),
     * and a comment naming the callee is no call. */
    static const char *const src[] = {
        "import flydsl.expr as fx",                                       /* 1 */
        "from flydsl.expr import buffer_ops",                             /* 2 */
        "def k1(a, m: fx.Int32):",                                        /* 3 */
        "    bid = fx.block_idx.x",                                       /* 4 */
        "    tid = fx.thread_idx.x",                                      /* 5 */
        "    off = valid.select(bid * 64 + tid, 0)",                      /* 6 */
        "    rsrc = buffer_ops.create_buffer_resource(a, max_size=True)", /* 7 */
        "    return buffer_ops.buffer_load(rsrc, off)",                   /* 8 */
        "def k2(a, m: fx.Int32):",                                        /* 9 */
        "    bid = fx.block_idx.x",                                       /* 10 */
        "    tid = fx.thread_idx.x",                                      /* 11 */
        "    off = bid * 64 + tid",                                       /* 12 */
        "    rsrc = buffer_ops.create_buffer_resource(a, max_size=True)", /* 13 */
        "    return buffer_ops.buffer_load(rsrc, off)",                   /* 14 */
        "def k3(b, m: fx.Int32):",                                        /* 15 */
        "    # create_buffer_resource(b) below is read at a tiled offset",  /* 16 */
        "    off = fx.block_idx.x * 64 + fx.thread_idx.x",                /* 17 */
        "    rsrc = (buffer_ops",                                         /* 18 */
        "            .create_buffer_resource(b, max_size=True))",         /* 19 */
        "    return buffer_ops.buffer_load(rsrc, off)",                   /* 20 */
        NULL};
    char *d = new_file_diff("aiter/ops/flydsl/kernels/k.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 2);
    CHECK(at_line(&r, 7) == NULL);
    const finding *f = at_line(&r, 13);
    CHECK(f != NULL);
    if (f && f->nrelated)
        CHECK_INT(f->related[0].range.line, 14);
    f = at_line(&r, 19);
    CHECK(f != NULL);
    if (f) {
        CHECK(str_starts(f->message, "create_buffer_resource(b): max_size=True"));
        if (f->nrelated)
            CHECK_INT(f->related[0].range.line, 20);
    }
    CHECK_STR(r.status, "found 2 unbounded buffer resources or descriptors with an access that "
                        "can run past the tensor on changed lines; 1 unbounded with no access "
                        "shown to run past the tensor left out (1 guarded or clamped)");
    result_free(&r);
    free(d);
}

UNIT_MAIN("test_flydsl_bounds",
          UNIT_CASE(bare_make_buffer_tensor_is_flagged_on_the_callee),
          UNIT_CASE(max_size_true_is_flagged_on_the_keyword_argument),
          UNIT_CASE(bounded_forms_are_silent),
          UNIT_CASE(unbounded_forms_are_flagged),
          UNIT_CASE(only_changed_calls_count),
          UNIT_CASE(only_changed_calls_count_with_head_tree),
          UNIT_CASE(paths_outside_flydsl_are_not_read),
          UNIT_CASE(long_buffer_expressions_are_cut),
          UNIT_CASE(each_kernel_of_a_file_is_judged_from_its_own_locals))
