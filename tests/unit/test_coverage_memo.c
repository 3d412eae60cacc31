/* Unit tests of the per-review coverage memo (collector.h): a change file's coverage counts are
 * worked out once per review and every collector gets the same counts, so a change-wide stage
 * that counts the files it did not read does not parse them again. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(coverage_is_counted_once_per_review)
{
    char tmpl[] = "/tmp/review-coverage-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    char *dir = xasprintf("%s/k", root), *file = xasprintf("%s/k/a.cu", root);
    mkdir(dir, 0755);
    const char *good = "__global__ void k(int* p) {\n    p[0] = 1;\n    p[1] = 2;\n}\n";
    const char *broken = "__global__ void k(int* p) {\n    p[0] = = ) 1;\n    p[1] = = ) 2;\n}\n";
    put(file, good);
    const char *diff = "diff --git a/k/a.cu b/k/a.cu\n--- a/k/a.cu\n+++ b/k/a.cu\n@@ -1,2 +1,4 @@\n"
                       " __global__ void k(int* p) {\n+    p[0] = 1;\n+    p[1] = 2;\n }\n";
    char *cause = NULL;
    change *chg = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    CHECK(chg != NULL);
    if (!chg)
        return;
    chg->head_root = xstrdup(root);
    syntax_cache *syn = syntax_cache_new();
    collector_coverage_memo *memo = collector_coverage_memo_new(chg->nfiles);
    finding_list out = {0};
    collector_ctx ctx = {.chg = chg, .root = root, .out = &out, .syn = syn, .coverage = memo};
    collector_coverage first, again, fresh;
    collector_file_coverage(&ctx, &chg->files[0], false, &first);
    CHECK_INT(first.lines, 2);
    CHECK_INT(first.readable, 2);
    /* the same review asks again after the text changed on disk: the counts it worked out */
    put(file, broken);
    collector_file_coverage(&ctx, &chg->files[0], false, &again);
    CHECK_INT(again.readable, first.readable);
    CHECK_STR(again.path, "k/a.cu");
    /* a review without the memo reads the file as it is now */
    collector_ctx bare = ctx;
    bare.coverage = NULL;
    collector_file_coverage(&bare, &chg->files[0], false, &fresh);
    CHECK(fresh.readable < 2);
    collector_coverage_memo_free(memo);
    syntax_cache_free(syn);
    change_free(chg);
    CHECK(unit_remove_tree(root));
    free(dir);
    free(file);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(coverage_is_counted_once_per_review),
    };
    return unit_main("coverage_memo", cases, sizeof cases / sizeof cases[0]);
}
