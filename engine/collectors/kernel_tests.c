/* The kernel-tests collector (rule HK6): a kernel file the change adds (Triton, Gluon, FlyDSL,
 * HIP under csrc/kernels or csrc/py_itfs_cu) while the change brings no test pytest would
 * collect. Collectability is judged by what pytest itself looks at: a file named test_*.py or
 * *_test.py anywhere in the change (not only under op_tests/, aiter#3991 put five under
 * aiter/aot/flydsl/tests/) with an added `def test_…` or `class Test…`. Benchmarks are what
 * such changes ship instead of a test, so bench_* files and benchmark directories do not
 * clear it, while a test whose name merely contains "bench" does (aiter#2889).
 *
 * The finding is a Hint on the new kernel file's first line; package __init__.py files and
 * tutorial/template/bench paths are not kernels. */
#include <string.h>

#include "engine/collector.h"

/* Directories that hold kernels (substring match on the path). */
static const char *const kernel_dirs[] = {
    "aiter/ops/triton/", "_triton_kernels/", "_gluon_kernels/", "/gluon/",
    "aiter/ops/flydsl/", "csrc/kernels/", "csrc/py_itfs_cu/", NULL,
};

/* The last path component of p (borrowed). */
static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* True when a new file is a kernel that HK6 wants a test for. */
static bool is_new_kernel(const change_file *f)
{
    const char *p = f->path;
    if (!f->is_new || f->is_deleted)
        return false;
    if (!(str_ends(p, ".py") || str_ends(p, ".cu") || str_ends(p, ".cuh") || str_ends(p, ".hip")))
        return false;
    if (str_starts(p, "op_tests/") || str_starts(p, "tests/") ||
        strcmp(base_name(p), "__init__.py") == 0)
        return false;
    if (str_contains(p, "tutorial") || str_contains(p, "template") || str_contains(p, "bench"))
        return false;
    for (int i = 0; kernel_dirs[i]; i++)
        if (str_contains(p, kernel_dirs[i]))
            return true;
    return false;
}

/* True when an added line starts a pytest-collectable test (`def test_x`, `class TestX`). */
static bool starts_test(const char *text)
{
    const char *s = str_lskip(text);
    if (str_starts(s, "async "))
        s = str_lskip(s + 6);
    if (str_starts(s, "def test_"))
        return s[9] == '_' || (s[9] >= 'a' && s[9] <= 'z') || (s[9] >= 'A' && s[9] <= 'Z') ||
               (s[9] >= '0' && s[9] <= '9');
    if (str_starts(s, "class Test"))
        return s[10] == '_' || (s[10] >= 'a' && s[10] <= 'z') || (s[10] >= 'A' && s[10] <= 'Z') ||
               (s[10] >= '0' && s[10] <= '9');
    return false;
}

/* True when the file is a collectable test with an added test function or class; sets *line. */
static bool clears(const change_file *f, int *line)
{
    const char *b = base_name(f->path);
    if (f->is_deleted || !(str_starts(b, "test_") || str_ends(b, "_test.py")) || !str_ends(b, ".py"))
        return false;
    if (str_starts(b, "bench") || str_contains(f->path, "/benchmark/") ||
        str_contains(f->path, "/benchmarks/") || str_contains(f->path, "/op_benchmark/") ||
        str_contains(f->path, "/op_benchmarks/") || str_starts(f->path, "benchmarks/") ||
        str_starts(f->path, "op_benchmarks/"))
        return false;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && starts_test(f->lines[i].text)) {
            *line = f->lines[i].new_no;
            return true;
        }
    return false;
}

/* Run the collector over the change. */
static void kernel_tests_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    size_t nkern = 0;
    for (size_t i = 0; i < c->nfiles; i++)
        nkern += is_new_kernel(&c->files[i]);
    if (!nkern) {
        collector_status(ctx, "nothing found: no new kernel file in the change");
        return;
    }
    for (size_t i = 0; i < c->nfiles; i++) {
        int line = 0;
        if (clears(&c->files[i], &line)) {
            collector_status(ctx, "nothing found: %zu new kernel file%s, and %s:%d adds a "
                             "collectable test", nkern, nkern == 1 ? "" : "s",
                             c->files[i].path, line);
            return;
        }
    }
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (!is_new_kernel(f))
            continue;
        findings_add(ctx->out, "HK6", SEV_HINT, f->path, 1,
                     "new kernel %s arrives with no collectable test in this change (a "
                     "test_*.py or *_test.py with a def test_… or class Test…; benchmarks "
                     "do not count)", base_name(f->path));
    }
    collector_status(ctx, "found %zu new kernel file%s with no collectable test in the change",
                     nkern, nkern == 1 ? "" : "s");
}

const collector collector_kernel_tests = {
    .name = "kernel_tests",
    .rules = "HK6",
    .run = kernel_tests_run,
};
