/* Unit tests for the tree-reading collectors: twins (D5 evidence), core_tiers
 * (STEP4: Tier 1/2 files, headers with include fan-in of 10 or more, rocm_ops.hpp excepted)
 * and comment_only (comment-dominated changes reduced to their code lines, aiter#4061/#4062).
 * Each fixture under tests/fixtures/change_checks/<collector>/ is a base/head pair; expected.txt
 * holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

#include <sys/stat.h>
#include <unistd.h>

extern const collector collector_twins;
extern const collector collector_core_tiers;
extern const collector collector_comment_only;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const collector *c, const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/change_checks/%s/%s", root ? root : ".", c->name, name);
    char *status = NULL;
    CHECK(fx_run(c, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

/* A new kernel keeping 36 of its 52 lines from an existing one (the _copy_x/_quant_x case). */
TEST(twin_found) { run_case(&collector_twins, "copy_variant", "found 1 new file mirroring"); }
/* Half the lines shared: under the 60% bar. */
TEST(twin_half) { run_case(&collector_twins, "half_copy", "nothing found: no new file closely"); }
/* An exact copy of under 40 substantive lines is not compared at all. */
TEST(twin_small) { run_case(&collector_twins, "small_copy", "nothing found: no new source file with 40"); }

/* Tier 1 core.py and Tier 2 ops/mha.py; a single-op wrapper in aiter/ops/ stays Tier 3. */
TEST(python_tiers) { run_case(&collector_core_tiers, "python_tiers", "found 2 core files"); }
/* A header with 10 includers is Tier 2 (both include spellings count); rocm_ops.hpp is excepted
 * and a build directory is not read. */
TEST(header_fanin) { run_case(&collector_core_tiers, "header_fanin", "found 1 core file"); }

/* Comment rewrites (Python comments, and a C block comment opened above the hunk, as in
 * aiter#4061's header) with a trailing-comment edit (cancelled) and one real code change. */
TEST(prose) { run_case(&collector_comment_only, "prose", "found a comment-dominated change: 108 changed lines, 2 of them code"); }
/* Mostly code: not comment-dominated. */
TEST(code_change) { run_case(&collector_comment_only, "code_change", "nothing found: not a comment-dominated change"); }

/* A change under the 60-line floor says so. */
TEST(comment_floor)
{
    const char *diff = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-# x\n+# y\n";
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    finding_list out = {0};
    collector_ctx ctx = {.chg = c, .out = &out};
    sb_init(&ctx.status);
    collector_run(&collector_comment_only, &ctx);
    CHECK_INT(out.n, 0);
    CHECK_STR(ctx.status.buf, "nothing found: 2 changed lines, fewer than 60, so not a "
                              "comment-dominated change");
    sb_free(&ctx.status);
    /* twins with no head tree: skipped, and said so */
    change_free(c);
    strbuf big;
    sb_init(&big);
    sb_adds(&big, "diff --git a/k.py b/k.py\nnew file mode 100644\n--- /dev/null\n+++ b/k.py\n"
                  "@@ -0,0 +1,45 @@\n");
    for (int i = 0; i < 45; i++)
        sb_addf(&big, "+value_number_%02d = compute_something(%d)\n", i, i);
    c = diff_parse(big.buf, big.len, &cause);
    free(cause);
    collector_ctx ctx2 = {.chg = c, .out = &out};
    sb_init(&ctx2.status);
    collector_run(&collector_twins, &ctx2);
    CHECK_STR(ctx2.status.buf, "skipped: no head tree to compare 1 new file against");
    sb_free(&ctx2.status);
    sb_free(&big);
    findings_clear(&out);
    free(out.items);
    change_free(c);
}

/* Run c over chg with a kept state and a touched list; returns the status (caller frees). */
static char *run_kept(const collector *c, change *chg, const char *root, void **state,
                      const char *const *touched, size_t *nfound)
{
    finding_list out = {0};
    collector_ctx ctx = {.chg = chg, .root = root, .out = &out, .state = state, .touched = touched};
    sb_init(&ctx.status);
    collector_run(c, &ctx);
    *nfound = out.n;
    findings_clear(&out);
    free(out.items);
    return sb_detach(&ctx.status);
}

/* A diff adding one file of 50 lines `prefix_NN = load_the_row(x_ptr, NN)` at path. */
static change *new_file_change(const char *path, const char *prefix)
{
    strbuf diff;
    sb_init(&diff);
    sb_addf(&diff, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n"
                   "@@ -0,0 +1,50 @@\n", path, path, path);
    for (int i = 0; i < 50; i++)
        sb_addf(&diff, "+    %s_%02d = load_the_row(x_ptr, %d);\n", prefix, i, i);
    char *cause = NULL;
    change *chg = diff_parse(diff.buf, diff.len, &cause);
    free(cause);
    sb_free(&diff);
    return chg;
}

/* The twin index reads only the languages of the new files; a kept one grows when a later
 * review adds a file of another language. */
TEST(twin_index_reads_the_languages_of_the_new_files)
{
    char tmpl[] = "/tmp/review-twins-lang-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    strbuf py, cu;
    sb_init(&py);
    sb_init(&cu);
    for (int i = 0; i < 50; i++) {
        sb_addf(&py, "    partial_sum_%02d = load_the_row(x_ptr, %d);\n", i, i);
        sb_addf(&cu, "    row_accumulator_%02d = load_the_row(x_ptr, %d);\n", i, i);
    }
    unit_put_file(root, "a/old.py", py.buf);
    unit_put_file(root, "k/old.cu", cu.buf);
    unit_put_file(root, "k/other.hpp", cu.buf);
    change *pc = new_file_change("a/new.py", "partial_sum"), *cc = new_file_change("k/new.cu", "row_accumulator");
    size_t n;
    /* no kept state (a batch run): the Python file is compared with Python files only */
    char *st = run_kept(&collector_twins, pc, root, NULL, NULL, &n);
    CHECK_INT(n, 1);
    CHECK_STR(st, "found 1 new file mirroring an existing one (1 files compared)");
    free(st);
    void *state = NULL;
    st = run_kept(&collector_twins, pc, root, &state, NULL, &n);
    CHECK_STR(st, "found 1 new file mirroring an existing one (1 files compared)");
    free(st);
    /* a new .cu file: the kept index is read again with both languages */
    const char *none[] = {NULL};
    st = run_kept(&collector_twins, cc, root, &state, none, &n);
    CHECK_INT(n, 1);
    CHECK_STR(st, "found 1 new file mirroring an existing one (3 files compared)");
    free(st);
    collector_twins.free_state(state);
    change_free(pc);
    change_free(cc);
    sb_free(&py);
    sb_free(&cu);
    CHECK(unit_remove_tree(root));
}

/* The tree indexes kept between reviews follow the touched paths, and only them. */
TEST(kept_indexes_follow_touched_paths)
{
    char tmpl[] = "/tmp/review-twins-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    strbuf body, diff;
    sb_init(&body);
    sb_init(&diff);
    for (int i = 0; i < 50; i++)
        sb_addf(&body, "    partial_sum_%02d = load_the_row(x_ptr, %d)\n", i, i);
    unit_put_file(root, "a/old.py", body.buf);
    sb_adds(&diff, "diff --git a/a/new.py b/a/new.py\nnew file mode 100644\n--- /dev/null\n"
                   "+++ b/a/new.py\n@@ -0,0 +1,50 @@\n");
    for (int i = 0; i < 50; i++)
        sb_addf(&diff, "+    partial_sum_%02d = load_the_row(x_ptr, %d)\n", i, i);
    char *cause = NULL;
    change *chg = diff_parse(diff.buf, diff.len, &cause);
    free(cause);
    void *state = NULL;
    size_t n;
    char *st = run_kept(&collector_twins, chg, root, &state, NULL, &n);
    CHECK_INT(n, 1);
    CHECK(str_starts(st, "found 1 new file mirroring"));
    free(st);
    /* the twin changes on disk; an empty touched list keeps the stale index on purpose */
    unit_put_file(root, "a/old.py", "print('rewritten')\n");
    const char *none[] = {NULL};
    st = run_kept(&collector_twins, chg, root, &state, none, &n);
    CHECK_INT(n, 1);
    free(st);
    const char *touched[] = {"a/old.py", NULL};
    st = run_kept(&collector_twins, chg, root, &state, touched, &n);
    CHECK_INT(n, 0);
    CHECK_STR(st, "nothing found: no new file closely mirrors an existing one (1 new, 0 files "
                  "compared)");
    free(st);
    collector_twins.free_state(state);
    change_free(chg);

    /* core_tiers: ten includers make a Tier 2 header; one fewer after a touched edit */
    for (int i = 0; i < 10; i++) {
        char *rel = xasprintf("k/k%d.cu", i);
        unit_put_file(root, rel, "#include \"hot.h\"\n");
        free(rel);
    }
    unit_put_file(root, "inc/hot.h", "#pragma once\nint hot;\n");
    const char *hd = "diff --git a/inc/hot.h b/inc/hot.h\n--- a/inc/hot.h\n+++ b/inc/hot.h\n"
                     "@@ -1 +1,2 @@\n #pragma once\n+int hot;\n";
    chg = diff_parse(hd, strlen(hd), &cause);
    free(cause);
    state = NULL;
    st = run_kept(&collector_core_tiers, chg, root, &state, NULL, &n);
    CHECK_INT(n, 1);
    free(st);
    unit_put_file(root, "k/k3.cu", "// no include any more\n");
    const char *t2[] = {"k/k3.cu", "k/gone.cu", NULL};
    st = run_kept(&collector_core_tiers, chg, root, &state, t2, &n);
    CHECK_INT(n, 0);
    CHECK(str_starts(st, "nothing found: no Tier 1/2 file touched (1 header checked, largest "
                         "fan-in 9"));
    free(st);
    /* a review that needs no fan-in still takes in what was touched */
    unit_put_file(root, "k/k3.cu", "#include <inc/hot.h>\n");
    const char *pd = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n x = 1\n+y = 2\n";
    change *other = diff_parse(pd, strlen(pd), &cause);
    free(cause);
    const char *t3[] = {"k/k3.cu", NULL};
    st = run_kept(&collector_core_tiers, other, root, &state, t3, &n);
    CHECK_STR(st, "nothing found: no Tier 1/2 file touched");
    free(st);
    change_free(other);
    st = run_kept(&collector_core_tiers, chg, root, &state, none, &n);
    CHECK_INT(n, 1);
    free(st);
    /* unknown changes drop the kept index; it is rebuilt when next needed */
    st = run_kept(&collector_core_tiers, chg, root, &state, NULL, &n);
    CHECK_INT(n, 1);
    free(st);
    collector_core_tiers.free_state(state);
    change_free(chg);
    sb_free(&body);
    sb_free(&diff);
    CHECK(unit_remove_tree(root));
}

UNIT_MAIN("twins", UNIT_CASE(twin_found), UNIT_CASE(twin_half), UNIT_CASE(twin_small),
          UNIT_CASE(python_tiers), UNIT_CASE(header_fanin), UNIT_CASE(prose), UNIT_CASE(code_change),
          UNIT_CASE(comment_floor), UNIT_CASE(kept_indexes_follow_touched_paths),
          UNIT_CASE(twin_index_reads_the_languages_of_the_new_files))
