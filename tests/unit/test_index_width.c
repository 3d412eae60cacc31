/* Unit tests for the index-width collector (rule D9): changes built from unified diffs (new
 * files carry their whole head text); device and host scopes in Python and C++/HIP, the forms
 * that widen a product and those that do not, added-lines-only, exact ranges and the status
 * line in each outcome. */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_index_width;

/* Run the collector over a diff with head files under root (NULL: none). */
static result run_root(const char *diff, const char *root)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    if (root)
        c->head_root = xstrdup(root);
    collector_ctx ctx = {.chg = c, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_index_width, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

/* Run the collector over a diff (no repository, no head tree). */
static result run(const char *diff)
{
    return run_root(diff, NULL);
}

TEST(triton_row_offset_is_flagged_with_exact_range)
{
    static const char *const src[] = {
        "@triton.jit",                                          /* 1 */
        "def k(x_ptr, stride_row, BLOCK: tl.constexpr):",       /* 2 */
        "    pid = tl.program_id(0)",                           /* 3 */
        "    x = tl.load(x_ptr + pid * stride_row)",            /* 4 */
        "    return x",                                         /* 5 */
        NULL};
    char *d = new_file_diff("aiter/ops/triton/k.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 4);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule_id, "D9");
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_STR(f->collector, "index_width");
        CHECK_INT(f->range.col, 24);
        CHECK_INT(f->range.end_line, 4);
        CHECK_INT(f->range.end_col, 40);
        CHECK(str_starts(f->message, "`pid * stride_row` feeds pointer/index arithmetic, "
                                     "computed in 32 bits from runtime parameter stride_row of `k`"));
        CHECK_INT(f->nrelated, 1);
    }
    CHECK_STR(r.status, "found 1 un-widened runtime product in device code and 0 in host code "
                        "on added lines");
    result_free(&r);
    free(d);
}

TEST(widened_and_compile_time_products_are_silent)
{
    static const char *const src[] = {
        "def k(x_ptr, s, n, BLOCK: tl.constexpr, W: fx.Constexpr[int]):",
        "    pid = tl.program_id(0)",
        "    a = tl.load(x_ptr + pid.to(tl.int64) * s)",
        "    b = tl.load(x_ptr + tl.cast(pid, tl.int64) * s)",
        "    wide = pid.to(tl.int64)",
        "    c = tl.load(x_ptr + wide * s)",
        "    wider = wide + 1",
        "    e = tl.load(x_ptr + wider * s)",
        "    f = tl.load(x_ptr + BLOCK * W)",
        "    g = tl.load(x_ptr + pid * BLOCK)",
        "    h = tl.load(x_ptr + tl.arange(0, BLOCK) * s)",
        "    i = tl.load(x_ptr + s * 2)",
        "    j = tl.load(x_ptr + n)",
        "    return a, b, c, e, f, g, h, i, j",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/w.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 0);
    if (unit_failed_now)
        dump_findings(&r);
    CHECK_STR(r.status, "nothing found: no un-widened product of runtime parameters feeds index "
                        "arithmetic on an added line of 1 file");
    result_free(&r);
    free(d);
}

TEST(widening_after_the_product_does_not_count)
{
    static const char *const src[] = {
        "@gluon.jit",
        "def k(x_ptr, stride, n):",
        "    row = gl.program_id(0)",
        "    x = gl.load(x_ptr + row * stride)",
        "    row = row.to(gl.int64)",
        "    return x, row",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/gluon/g.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 4) != NULL);
    result_free(&r);
    free(d);
}

TEST(products_stored_in_a_local_that_feeds_an_offset)
{
    static const char *const src[] = {
        "@triton.jit",
        "def k(x_ptr, stride, n):",
        "    row = tl.program_id(0)",
        "    off = row * stride",
        "    unused = row * stride",
        "    x = tl.load(x_ptr + off)",
        "    return x, unused",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/l.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 4);
    CHECK(f != NULL);
    if (f)
        CHECK(str_contains(f->message, "is stored in `off`, which feeds index arithmetic"));
    result_free(&r);
    free(d);
}

TEST(host_scope_is_a_hint_and_nested_device_scope_inherits)
{
    static const char *const src[] = {
        "def launch(x, rows, cols):",                            /* 1: host */
        "    base = x.data_ptr() + rows * cols",                 /* 2: hint */
        "    @triton.jit",                                       /* 3 */
        "    def inner(p, BLOCK: tl.constexpr):",                /* 4: device */
        "        return tl.load(p + rows * cols)",               /* 5: warning (outer params) */
        "    return base, inner",
        NULL};
    char *d = new_file_diff("aiter/ops/triton/h.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 2);
    const finding *h = at_line(&r, 2), *w = at_line(&r, 5);
    CHECK(h && h->sev == SEV_HINT);
    CHECK(w && w->sev == SEV_WARNING);
    if (h)
        CHECK(str_contains(h->message, "host function `launch`"));
    CHECK_STR(r.status, "found 1 un-widened runtime product in device code and 1 in host code "
                        "on added lines");
    result_free(&r);
    free(d);
}

TEST(python_host_code_without_a_kernel_is_silent)
{
    /* Python integers do not wrap; with no kernel in the file there is no device offset */
    static const char *const src[] = {
        "def make_inputs(rows, cols):",
        "    n = rows * cols + 1",
        "    return torch.empty(n)",
        NULL};
    char *d = new_file_diff("op_tests/test_x.py", src);
    result r = run(d);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: no un-widened product of runtime parameters feeds index "
                        "arithmetic on an added line of 1 file");
    result_free(&r);
    free(d);
}

TEST(hip_kernel_token_offset_and_its_fixes)
{
    static const char *const src[] = {
        "template <int BLOCK>",                                                  /* 1 */
        "__global__ void k(float* out, const float* in, int num_heads, int head_dim,", /* 2 */
        "                  int64_t stride)",                                     /* 3 */
        "{",                                                                     /* 4 */
        "    const int token_id = blockIdx.x;",                                  /* 5 */
        "    const long t64 = token_id;",                                        /* 6 */
        "    out[token_id * num_heads * head_dim + threadIdx.x] = 0.f;",         /* 7: hit */
        "    out[static_cast<int64_t>(token_id) * num_heads * head_dim] = 0.f;", /* 8 */
        "    out[(size_t)token_id * num_heads * head_dim] = 0.f;",               /* 9 */
        "    out[t64 * num_heads * head_dim] = 0.f;",                            /* 10 */
        "    out[token_id * stride] = 0.f;",                                     /* 11 */
        "    out[BLOCK * 2 + token_id] = 0.f;",                                  /* 12 */
        "    out[threadIdx.x * head_dim] = in[(token_id * head_dim + 1) * num_heads];", /* 13 */
        "}",
        "__device__ int helper(int a, int b) { return a * b + 1; }",             /* 15: hit */
        "int host(int a, int b) { return a * b + 1; }",                          /* 16: hint */
        NULL};
    char *d = new_file_diff("csrc/kernels/k.cu", src);
    result r = run(d);
    CHECK_INT(r.out.n, 4);
    if (unit_failed_now)
        dump_findings(&r);
    const finding *f = at_line(&r, 7);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_INT(f->range.col, 8);
        CHECK_INT(f->range.end_col, 39);
        CHECK(str_contains(f->message, "runtime parameters num_heads, head_dim of `k`"));
    }
    CHECK(at_line(&r, 13) != NULL);
    CHECK(at_line(&r, 15) && at_line(&r, 15)->sev == SEV_WARNING);
    CHECK(at_line(&r, 16) && at_line(&r, 16)->sev == SEV_HINT);
    result_free(&r);
    free(d);
}

TEST(only_added_lines_count)
{
    char tmpl[] = "/tmp/rl-d9-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return;
    char *sub = xasprintf("mkdir -p %s/csrc && printf '%%s\\n' '__global__ void k(float* o, "
                          "int n, int s) {' '    o[blockIdx.x * n] = 0.f;' '    o[blockIdx.x * s]"
                          " = 1.f;' '    o[0] = 2.f;' '}' > %s/csrc/k.cu", dir, dir);
    CHECK_INT(system(sub), 0);
    free(sub);
    const char *d =
        "diff --git a/csrc/k.cu b/csrc/k.cu\n"
        "--- a/csrc/k.cu\n"
        "+++ b/csrc/k.cu\n"
        "@@ -1,4 +1,5 @@\n"
        " __global__ void k(float* o, int n, int s) {\n"
        "     o[blockIdx.x * n] = 0.f;\n"
        "+    o[blockIdx.x * s] = 1.f;\n"
        "     o[0] = 2.f;\n"
        " }\n";
    result r = run_root(d, dir);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 3) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
    char *rm = xasprintf("rm -rf %s", dir);
    CHECK_INT(system(rm), 0);
    free(rm);
}

TEST(status_lines)
{
    result r = run("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                   "@@ -1 +1,2 @@\n x\n+y\n");
    CHECK_STR(r.status, "nothing found: no Python or C/C++ file gains lines");
    result_free(&r);
    r = run("diff --git a/a/k.py b/a/k.py\n--- a/a/k.py\n+++ b/a/k.py\n"
            "@@ -10,2 +10,3 @@\n x = 1\n+y = x * 2 + 1\n z = 3\n");
    CHECK(str_starts(r.status, "skipped: "));
    CHECK(str_contains(r.status, "(D9 cannot be cleared)"));
    result_free(&r);
}

UNIT_MAIN("test_index_width",
          UNIT_CASE(triton_row_offset_is_flagged_with_exact_range),
          UNIT_CASE(widened_and_compile_time_products_are_silent),
          UNIT_CASE(widening_after_the_product_does_not_count),
          UNIT_CASE(products_stored_in_a_local_that_feeds_an_offset),
          UNIT_CASE(host_scope_is_a_hint_and_nested_device_scope_inherits),
          UNIT_CASE(python_host_code_without_a_kernel_is_silent),
          UNIT_CASE(hip_kernel_token_offset_and_its_fixes),
          UNIT_CASE(only_added_lines_count),
          UNIT_CASE(status_lines))
