/* Unit tests of the collector runner's parsing ahead: a runner that keeps per-file results
 * queues a file for parsing ahead only when it does not hold that file's results for its
 * content — even when the file's trees were given back between reviews (a large change over
 * the memory budget), a later review of the same change parses nothing ahead that no stage
 * will ask for (guards' change-wide stage, which reads trees every review, queues the second
 * file of each pair it reads); an edited file is queued again. A file whose changed lines no
 * stage reads from a tree (plain code, no guard, import, load or store, no variant) is not
 * queued at all, nor is a C/C++ or Python file whose code did not change (only its comments or
 * layout did), unless a collector that does not judge code still reads it (triton_masks on a
 * swept Python file's tl.load). */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector_run.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/runner_harness.h"
#include "tests/unit/unit.h"

#define NF 5

/* The head text of kernel file i (version v: 0 or 1) and a diff of NF such files from a base
 * without their assert. */
static char *head_text(int i, int v)
{
    return xasprintf("import torch\n\n\ndef rows_%d(x):\n    assert x.dim() == 2\n    return x * %d\n", i, i + v);
}

/* Write a changed file's head text under root and add its diff (hunk: from the @@ line on)
 * to d. Frees rel, head and hunk. */
static void add_file(strbuf *d, const char *root, char *rel, char *head, char *hunk)
{
    CHECK(unit_put_file(root, rel, head));
    sb_addf(d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s", rel, rel, rel, rel, hunk);
    free(rel);
    free(head);
    free(hunk);
}

/* The change a diff text describes, its head files under root (frees d). */
static change *change_of(strbuf *d, const char *root)
{
    change *c = rh_change_of_diff(d->buf, d->len, root);
    sb_free(d);
    return c;
}

static change *make_change(const char *root, int edited_version)
{
    strbuf d;
    sb_init(&d);
    for (int i = 0; i < NF; i++) {
        int v = i == 2 ? edited_version : 0;
        add_file(&d, root, xasprintf("k/rows_%d.py", i), head_text(i, v),
                 xasprintf("@@ -1,6 +1,6 @@\n import torch\n \n \n def rows_%d(x):\n"
                           "-    assert x.dim() == 3\n+    assert x.dim() == 2\n-    return x * %d\n"
                           "+    return x * %d\n", i, i, i + v));
    }
    return change_of(&d, root);
}

/* Review chg with r; returns how many docs the cache had queued ahead in all. */
static size_t review(collector_runner *r, syntax_cache *syn, change *chg, const char *root,
                     const char *const *touched)
{
    collector_inputs in = {.chg = chg, .root = root, .syn = syn, .touched = touched};
    rh_run_discard(r, &in);
    syntax_cache_trim(syn);
    return syntax_cache_ahead_queued(syn);
}

/* How many docs one review of the change diff d describes (a fresh runner, parsing ahead) has
 * queued; -1 when d does not parse. Frees d. The runner keeps results (it holds none yet, so it
 * chooses as a runner that keeps nothing would): one that keeps nothing shares a change of
 * several files out between two reading threads instead of parsing ahead. */
static int queued_in_one_review(strbuf *d, const char *root)
{
    change *chg = change_of(d, root);
    if (!chg)
        return -1;
    syntax_cache *syn = syntax_cache_new();
    collector_runner *r = collector_runner_new(true);
    collector_runner_set_second_thread(r, true);
    int n = (int)review(r, syn, chg, root, NULL);
    change_free(chg);
    collector_runner_free(r);
    syntax_cache_free(syn);
    return n;
}

/* Give back every doc the cache holds for the change's files (as the runner does for a large
 * change over its memory budget). */
static void give_back(syntax_cache *syn)
{
    for (int i = 0; i < NF; i++) {
        char *h = xasprintf("head:k/rows_%d.py", i), *b = xasprintf("base:k/rows_%d.py", i);
        syntax_cache_drop(syn, h);
        syntax_cache_drop(syn, b);
        free(h);
        free(b);
    }
}

TEST(kept_results_are_not_parsed_ahead_again)
{
    char tmpl[] = "/tmp/review-ahead-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    syntax_cache *syn = syntax_cache_new();
    collector_runner *r = collector_runner_new(true);
    collector_runner_set_second_thread(r, true);
    change *chg = make_change(root, 0);
    const char *none[] = {NULL};
    size_t first = review(r, syn, chg, root, NULL);
    /* the files after the first are queued ahead (the first is parsed by the stages) */
    CHECK(first >= NF - 1);
    give_back(syn);
    /* the per-file stages' results are kept, so their files are not queued again; what is
     * queued is what guards' change-wide stage asks for, reading the trees of the files whose
     * asserts changed two at a time: the second of each pair (its head and base) */
    size_t again = review(r, syn, chg, root, none);
    CHECK_INT(again, first + 2 * (NF / 2));
    change_free(chg);
    /* one file edited: it alone is queued for the per-file stages (its head, and its base when
     * not held), and the change-wide stage's pairs as before */
    chg = make_change(root, 1);
    const char *touched[] = {"k/rows_2.py", NULL};
    give_back(syn);
    size_t edited = review(r, syn, chg, root, touched);
    CHECK(edited > again + 2 * (NF / 2) && edited <= again + 2 + 2 * (NF / 2));
    change_free(chg);
    collector_runner_free(r);
    syntax_cache_free(syn);
    CHECK(unit_remove_tree(root));
}

/* A change of NPLAIN files that change a plain line of a function without variants, then one
 * that rewrites an assert: only the last is queued (its head and base), the plain ones never,
 * however far after the first file it lies. */
#define NPLAIN 10
TEST(files_no_stage_parses_are_not_queued)
{
    char tmpl[] = "/tmp/review-ahead-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    strbuf d;
    sb_init(&d);
    for (int i = 0; i <= NPLAIN; i++) {
        bool guard = i == NPLAIN;
        add_file(&d, root, xasprintf("k/plain_%02d.py", i),
                 xasprintf("def total_%d(x):\n    %s\n    return x + %d\n", i,
                           guard ? "assert x > 1" : "y = x", i),
                 xasprintf("@@ -1,3 +1,3 @@\n def total_%d(x):\n-    %s\n+    %s\n     return x + %d\n",
                           i, guard ? "assert x > 0" : "y = x * 1", guard ? "assert x > 1" : "y = x",
                           i));
    }
    CHECK_INT(queued_in_one_review(&d, root), 2);
    CHECK(unit_remove_tree(root));
}

/* C/C++ files whose comments were rewrapped (their code as it was), then one whose check
 * changed: only the last is queued (its head and base); a file whose code did not change is
 * parsed by no stage. */
#define NCOMMENT 3
TEST(files_whose_code_did_not_change_are_not_queued)
{
    char tmpl[] = "/tmp/review-ahead-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    strbuf d;
    sb_init(&d);
    for (int i = 0; i <= NCOMMENT; i++) {
        const char *op = i == NCOMMENT ? ">=" : ">";
        add_file(&d, root, xasprintf("k/rows_%d.cu", i),
                 xasprintf("// zero one row per block\n__global__ void rows_%d(float* x, int n) {\n"
                           "    TORCH_CHECK(n %s 0);\n    x[n] = 0.0f;\n}\n", i, op),
                 xasprintf("@@ -1,6 +1,5 @@\n-// zero one row\n-// per block\n"
                           "+// zero one row per block\n __global__ void rows_%d(float* x, int n) {\n"
                           "-    TORCH_CHECK(n > 0);\n+    TORCH_CHECK(n %s 0);\n     x[n] = 0.0f;\n }\n",
                           i, op));
    }
    CHECK_INT(queued_in_one_review(&d, root), 2);
    CHECK(unit_remove_tree(root));
}

/* Python files a formatter swept (a call joined onto one line, its code as it was): the ones
 * with plain calls are queued by no stage, but the last one's call is a tl.load, which
 * triton_masks reads whatever the code (it is no collector that judges code), so that file is
 * still queued (its head and base). */
#define NSWEPT 3
TEST(swept_python_files_are_queued_only_for_collectors_that_still_read_them)
{
    char tmpl[] = "/tmp/review-ahead-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    strbuf d;
    sb_init(&d);
    for (int i = 0; i <= NSWEPT; i++) {
        const char *call = i == NSWEPT ? "tl.load" : "max";
        add_file(&d, root, xasprintf("k/swept_%d.py", i),
                 xasprintf("def swept_%d(x, y):\n    return %s(x, y)\n", i, call),
                 xasprintf("@@ -1,5 +1,2 @@\n def swept_%d(x, y):\n"
                           "-    return %s(\n-        x,\n-        y,\n-    )\n+    return %s(x, y)\n",
                           i, call, call));
    }
    CHECK_INT(queued_in_one_review(&d, root), 2);
    CHECK(unit_remove_tree(root));
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(kept_results_are_not_parsed_ahead_again),
        UNIT_CASE(files_no_stage_parses_are_not_queued),
        UNIT_CASE(files_whose_code_did_not_change_are_not_queued),
        UNIT_CASE(swept_python_files_are_queued_only_for_collectors_that_still_read_them),
    };
    return unit_main("parse_ahead_runner", cases, sizeof cases / sizeof cases[0]);
}
