/* Unit tests of the collector runner's two reading threads: a runner that keeps nothing between
 * reviews (a batch review) shares the files of a change of several files out between its
 * thread and a second one, each running every collector's per-file stage on the files it
 * takes with a syntax cache of its own. The review must read exactly as it does on one thread:
 * the same findings in the same order, the same status lines (a file whose code did not change
 * left out by the same collectors, the same count of C/C++ lines read), and the docs the
 * second thread parsed handed to the review's cache. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/collector_run.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/runner_harness.h"
#include "tests/unit/unit.h"

#define NPY 6
#define NCU 3

/* Run a shell command in root; true when it exits 0. */
static bool run_in(const char *root, const char *cmd)
{
    char *full = xasprintf("cd '%s' && %s", root, cmd);
    bool ok = system(full) == 0;
    free(full);
    return ok;
}

/* Triton kernel file i: base (an assert, a masked load) or head (the assert gone, the load
 * unmasked, a name imported that the helper module does not define). */
static char *kernel_py(int i, bool head)
{
    return xasprintf("import torch\nimport triton\nimport triton.language as tl\n\n"
                     "from aiter.ops.helpers import scale_rows%s\n\n\n"
                     "@triton.jit\ndef _rows_%d(x_ptr, n, BLOCK: tl.constexpr):\n"
                     "    offs = tl.arange(0, BLOCK)\n"
                     "    x = tl.load(x_ptr + offs%s)\n"
                     "    tl.store(x_ptr + offs, x * %d, mask=offs < n)\n\n\n"
                     "def rows_%d(x):\n%s    assert x.is_contiguous()\n    return scale_rows(x)\n",
                     head ? ", missing_name" : "", i, head ? "" : ", mask=offs < n", i, i,
                     head ? "" : "    assert x.dim() == 2\n");
}

/* HIP file i: a check the head loosens, and a branch of the preprocessor. */
static char *kernel_cu(int i, bool head)
{
    return xasprintf("#include <hip/hip_runtime.h>\n\n"
                     "__global__ void cols_kernel_%d(const float* x, float* y, int rows,\n"
                     "                               int cols) {\n"
                     "    int r = blockIdx.x;\n    if (r >= rows) return;\n"
                     "#if defined(__gfx942__)\n    y[r * cols] = %d.0f * x[r * cols];\n#else\n"
                     "    y[r * cols] = x[r * cols];\n#endif\n}\n\n"
                     "void cols_%d(const float* x, float* y, int rows, int cols) {\n"
                     "    TORCH_CHECK(cols %% %d == 0, \"cols must be a multiple\");\n"
                     "    hipLaunchKernelGGL(cols_kernel_%d, dim3(rows), dim3(256), 0, 0,\n"
                     "                       x, y, rows, cols);\n}\n",
                     i, i, i, head ? 4 : 8, i);
}

/* The files of the change under root, as the base has them or as the head does: NPY Triton
 * files, NCU HIP files, a Python and a HIP file whose comments alone change, and a README. */
static void put_tree(const char *root, bool head)
{
    CHECK(unit_put_file(root, "README.md", head ? "rows and cols, loosened\n" : "rows and cols\n"));
    CHECK(unit_put_file(root, "aiter/ops/swept.py",
                        head ? "def swept(x):\n    # the comment, reworded\n    return x + 1\n"
                             : "def swept(x):\n    # one comment\n    return x + 1\n"));
    /* a HIP file the parser cannot read whole, whose code the change only re-lays out: no
     * collector parses it, and the count of C/C++ lines read must not parse it either, on
     * whichever thread the file was taken */
    CHECK(unit_put_file(root, "csrc/kernels/same.cu",
                        head ? "// the comment, reworded\nint same(int x) {\n"
                               "    return x + 1;\n}\n@@ broken (\n    tokens @@\n"
                             : "// one comment\nint same(int x) { return x + 1; }\n"
                               "@@ broken ( tokens @@\n"));
    for (int i = 0; i < NPY + NCU; i++) {
        char *rel = i < NPY ? xasprintf("aiter/ops/triton/rows_%d.py", i)
                            : xasprintf("csrc/kernels/cols_%d.cu", i - NPY);
        char *t = i < NPY ? kernel_py(i, head) : kernel_cu(i - NPY, head);
        CHECK(unit_put_file(root, rel, t));
        free(rel);
        free(t);
    }
}

/* A git repository under root whose working tree changes the files of put_tree; the change as
 * a diff (NULL when git fails). */
static change *make_change(const char *root)
{
    CHECK(unit_put_file(root, "aiter/__init__.py", ""));
    CHECK(unit_put_file(root, "aiter/ops/__init__.py", ""));
    CHECK(unit_put_file(root, "aiter/ops/helpers.py", "def scale_rows(x):\n    return x * 2\n"));
    put_tree(root, false);
    if (!run_in(root, "git init -q . && git add -A && git -c user.name=t -c user.email=t@t "
                      "commit -q -m base"))
        return NULL;
    put_tree(root, true);
    if (!run_in(root, "git diff > change.diff"))
        return NULL;
    char *p = xasprintf("%s/change.diff", root), *cause = NULL;
    size_t len = 0;
    char *text = read_file(p, 1 << 20, &len, &cause);
    free(p);
    free(cause);
    change *c = text ? rh_change_of_diff(text, len, root) : NULL;
    free(text);
    return c;
}

/* One review of chg by a fresh runner that keeps nothing, with or without its second thread:
 * its findings and status lines as one text, in the order the runner gave them; its timing
 * lines in *timing; the docs its cache then holds in *ndocs. */
static char *review(change *chg, const char *root, bool second, char **timing, size_t *ndocs)
{
    syntax_cache *syn = syntax_cache_new();
    collector_runner *r = collector_runner_new(false);
    collector_runner_set_second_thread(r, second);
    char *tbuf = NULL;
    size_t tlen = 0;
    FILE *tf = open_memstream(&tbuf, &tlen);
    collector_runner_set_timing(r, tf);
    collector_inputs in = {.chg = chg, .root = root, .syn = syn};
    finding_list out = {0};
    size_t n = 0;
    char **status = collector_runner_run(r, &in, &out, &n);
    fclose(tf);
    *timing = tbuf;
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < out.n; i++) {
        const finding *f = &out.items[i];
        sb_addf(&sb, "%s %s %s:%d %s (%zu related)\n", f->collector, f->rule_id, f->path,
                f->range.line, f->message, f->nrelated);
    }
    for (size_t i = 0; i < n; i++) {
        sb_addf(&sb, "%s\n", status[i]);
        free(status[i]);
    }
    free(status);
    findings_clear(&out);
    free(out.items);
    syntax_cache_stats(syn, ndocs, NULL, NULL);
    collector_runner_free(r);
    syntax_cache_free(syn);
    return sb_detach(&sb);
}

TEST(two_reading_threads_review_as_one_does)
{
    char tmpl[] = "/tmp/review-two-readers-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    change *chg = make_change(root);
    CHECK(chg != NULL);
    if (!chg)
        return;
    char *t1 = NULL, *t2 = NULL;
    size_t docs1 = 0, docs2 = 0;
    char *one = review(chg, root, false, &t1, &docs1);
    char *two = review(chg, root, true, &t2, &docs2);
    CHECK_STR(two, one);
    /* the change has something to compare: guards, masks, imports and the two files left out */
    CHECK(strstr(one, "guards D4") || strstr(one, "guards B7"));
    CHECK(strstr(one, "triton_masks") != NULL);
    CHECK(strstr(one, "missing_name") != NULL);
    CHECK(strstr(one, "did not change") != NULL);
    /* both threads read files, and every file was taken by one of them */
    CHECK(strstr(t1, "two reading threads") == NULL);
    const char *at = strstr(t2, "two reading threads: ");
    CHECK(at != NULL);
    size_t here = 0, beside = 0;
    if (at)
        CHECK(sscanf(at, "two reading threads: %zu read here, %zu on the second", &here,
                     &beside) == 2);
    CHECK(here >= 1 && beside >= 1);
    CHECK_INT((int)(here + beside), (int)chg->nfiles);
    /* what the second thread parsed is in the review's cache afterwards, and nothing more */
    CHECK(docs1 > 0);
    CHECK_INT((int)docs2, (int)docs1);
    free(one);
    free(two);
    free(t1);
    free(t2);
    change_free(chg);
    CHECK(unit_remove_tree(root));
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(two_reading_threads_review_as_one_does),
    };
    return unit_main("runner_two_readers", cases, sizeof cases / sizeof cases[0]);
}
