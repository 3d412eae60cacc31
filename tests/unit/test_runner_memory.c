/* Unit tests of the memory the collector runner keeps: tree-sitter's allocations are counted
 * whichever thread made them (a tree parsed ahead on the second thread lives in that thread's
 * malloc arena, which the main arena's figures never see), and a review that ends over its
 * budget gives back the docs it still holds of the files it read and the modules they import,
 * keeping only the open documents; a batch review's budget is larger than the server's. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "engine/collector_run.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/runner_harness.h"
#include "tests/unit/unit.h"

/* A module of n small kernels-to-be, as Python text (new string). */
static char *module_text(int n)
{
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++)
        sb_addf(&sb, "def rows_%d(x, scale):\n    y = x * scale + %d\n    return y.sum(dim=1)\n\n\n", i, i);
    return sb_detach(&sb);
}

typedef struct parse_job {
    const char *text;
    syntax_doc *doc;
} parse_job;

static void *parse_on_thread(void *arg)
{
    parse_job *job = arg;
    job->doc = syntax_parse(SYN_PYTHON, job->text, strlen(job->text), NULL);
    return NULL;
}

/* A tree parsed on another thread is counted while it is held, and no longer once freed. */
TEST(trees_parsed_on_another_thread_are_counted)
{
    char *text = module_text(2000);
    syntax_ts_language(SYN_PYTHON); /* installs the counting allocator */
    size_t before = syntax_tree_bytes();
    parse_job job = {text, NULL};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, parse_on_thread, &job) == 0);
    pthread_join(t, NULL);
    CHECK(job.doc != NULL);
    size_t held = syntax_tree_bytes();
    /* a tree takes several times its text */
    CHECK(held > before + strlen(text));
    syntax_free(job.doc);
    size_t after = syntax_tree_bytes();
    CHECK(after < before + strlen(text) / 10);
    free(text);
}

#define NF 4

/* The head text of change file i: a kernel with an assert; the last one imports the first
 * (a file of the change read earlier) and every one imports an unchanged helper module. */
static char *file_text(int i)
{
    return xasprintf("import torch\n\nfrom aiter.ops.helpers import scale_rows\n%s\n\ndef rows_%d(x):\n"
                     "    assert x.dim() == 2\n    return scale_rows(x) * %d\n",
                     i == NF - 1 ? "from aiter.ops.rows_1 import rows_1\n" : "", i, i);
}

/* A change of NF files under root, each losing an assert and adding its imports. */
static change *make_change(const char *root)
{
    CHECK(unit_put_file(root, "aiter/__init__.py", ""));
    CHECK(unit_put_file(root, "aiter/ops/__init__.py", ""));
    /* scale_rows is defined in an if block, so resolving it parses the module (a column-0
     * def would be read from the text) */
    CHECK(unit_put_file(root, "aiter/ops/helpers.py",
                        "import os\n\nif os.name:\n    def scale_rows(x):\n"
                        "        return x * 2\nelse:\n    def scale_rows(x):\n"
                        "        return x\n"));
    strbuf d;
    sb_init(&d);
    for (int i = 0; i < NF; i++) {
        char *rel = xasprintf("aiter/ops/rows_%d.py", i), *t = file_text(i);
        CHECK(unit_put_file(root, rel, t));
        sb_addf(&d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,5 +1,%d @@\n import torch\n \n"
                    "+from aiter.ops.helpers import scale_rows\n%s \n def rows_%d(x):\n"
                    "-    assert x.dim() == 3\n+    assert x.dim() == 2\n-    return x * %d\n+    return scale_rows(x) * %d\n",
                rel, rel, rel, rel, i == NF - 1 ? 9 : 8, i == NF - 1 ? "+from aiter.ops.rows_1 import rows_1\n" : "",
                i, i, i);
        free(rel);
        free(t);
    }
    change *c = rh_change_of_diff(d.buf, d.len, root);
    sb_free(&d);
    return c;
}

/* Review chg with a runner of the given budget, rows_0 open. */
static void review(syntax_cache *syn, change *chg, const char *root, size_t budget)
{
    collector_runner *r = collector_runner_new(true);
    collector_runner_set_heap_budget(r, budget);
    const char *open[] = {"aiter/ops/rows_0.py", NULL};
    collector_inputs in = {.chg = chg, .root = root, .syn = syn, .open = open};
    rh_run_discard(r, &in);
    collector_runner_free(r);
}

/* True when the cache holds a doc for key with the text of root/rel. */
static bool holds(syntax_cache *syn, const char *key, const char *root, const char *rel)
{
    char *p = xasprintf("%s/%s", root, rel), *cause = NULL;
    size_t len = 0;
    char *text = read_file(p, 1 << 20, &len, &cause);
    bool held = text && syntax_cache_peek(syn, key, SYN_PYTHON, text, len, NULL) != NULL;
    free(text);
    free(cause);
    free(p);
    return held;
}

/* Within its budget a review keeps what it parsed (the next review reuses it); over it, only
 * the open document stays: the first file's doc that the last file's import parsed again, and
 * the helper module every file imports, are given back. */
TEST(review_over_budget_keeps_only_open_documents)
{
    char tmpl[] = "/tmp/review-memory-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    change *chg = make_change(root);
    CHECK(chg != NULL);
    if (!chg)
        return;
    syntax_cache *roomy = syntax_cache_new();
    review(roomy, chg, root, (size_t)1 << 40);
    CHECK(holds(roomy, "head:aiter/ops/rows_0.py", root, "aiter/ops/rows_0.py"));
    CHECK(holds(roomy, "head:aiter/ops/rows_1.py", root, "aiter/ops/rows_1.py"));
    CHECK(holds(roomy, "module:aiter/ops/helpers.py", root, "aiter/ops/helpers.py"));
    syntax_cache_free(roomy);

    syntax_cache *tight = syntax_cache_new();
    review(tight, chg, root, 1);
    CHECK(holds(tight, "head:aiter/ops/rows_0.py", root, "aiter/ops/rows_0.py"));
    CHECK(!holds(tight, "head:aiter/ops/rows_1.py", root, "aiter/ops/rows_1.py"));
    CHECK(!holds(tight, "head:aiter/ops/rows_3.py", root, "aiter/ops/rows_3.py"));
    CHECK(!holds(tight, "module:aiter/ops/helpers.py", root, "aiter/ops/helpers.py"));
    syntax_cache_free(tight);

    change_free(chg);
    CHECK(unit_remove_tree(root));
}

#define NBIG 8

/* A change of NBIG large Python files under root, each tightening the assert of its first
 * function (so guards reads its head and base from trees) above `ndefs` small functions. */
static change *big_change(const char *root, int ndefs)
{
    char *body = module_text(ndefs);
    strbuf d;
    sb_init(&d);
    for (int i = 0; i < NBIG; i++) {
        char *rel = xasprintf("k/big_%d.py", i);
        char *t = xasprintf("def first_%d(x):\n    assert x > 1\n    return x\n\n\n%s", i, body);
        CHECK(unit_put_file(root, rel, t));
        sb_addf(&d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n def first_%d(x):\n"
                    "-    assert x > 0\n+    assert x > 1\n     return x\n", rel, rel, rel, rel, i);
        free(rel);
        free(t);
    }
    free(body);
    change *c = rh_change_of_diff(d.buf, d.len, root);
    sb_free(&d);
    return c;
}

/* Review chg with a fresh runner at its own budget (keep: the server's, else a batch
 * review's), on one thread. */
static void review_default(syntax_cache *syn, change *chg, const char *root, bool keep)
{
    collector_runner *r = collector_runner_new(keep);
    collector_inputs in = {.chg = chg, .root = root, .syn = syn};
    rh_run_discard(r, &in);
    collector_runner_free(r);
}

/* A batch review (a runner that keeps nothing for a next review) holds more trees than the
 * server's 24 MiB before it gives them back, so its change-wide stages find them still parsed:
 * a change whose trees take some 38 MiB (27 to 59 MiB pass) is still held after a batch review,
 * and given back after a server's. */
TEST(a_batch_review_holds_more_trees_than_the_server)
{
    char tmpl[] = "/tmp/review-memory-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    change *chg = big_change(root, 700);
    CHECK(chg != NULL);
    if (!chg)
        return;
    syntax_cache *batch = syntax_cache_new();
    review_default(batch, chg, root, false);
    CHECK(holds(batch, "head:k/big_0.py", root, "k/big_0.py"));
    syntax_cache_free(batch);
    syntax_cache *server = syntax_cache_new();
    review_default(server, chg, root, true);
    CHECK(!holds(server, "head:k/big_0.py", root, "k/big_0.py"));
    syntax_cache_free(server);
    change_free(chg);
    CHECK(unit_remove_tree(root));
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(trees_parsed_on_another_thread_are_counted),
        UNIT_CASE(review_over_budget_keeps_only_open_documents),
        UNIT_CASE(a_batch_review_holds_more_trees_than_the_server),
    };
    return unit_main("runner_memory", cases, sizeof cases / sizeof cases[0]);
}
