/* Unit tests for the test collectors: test_quality (P2 toy shapes, HK19 loose
 * tolerances and assertion-free tests), kernel_tests (HK6: a new kernel with no collectable
 * test; aiter#3991 tests outside op_tests/ count, aiter#2889 "bench" in a test's name does not
 * disqualify it) and ci_coverage (HK12 tests no CI job runs, aiter#4821's op_tests/flydsl_tests,
 * label-gated multigpu tests; HK12b main()-style test files). Fixtures under
 * tests/fixtures/change_checks/<collector>/; expected.txt holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_test_quality;
extern const collector collector_kernel_tests;
extern const collector collector_ci_coverage;

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

/* Shapes all 16 or under, atol=0.5; a commented-out assert does not count. */
TEST(toy_and_loose) { run_case(&collector_test_quality, "toy_and_loose", "found 2 weak checks"); }
/* Tests that only call a helper: no assertion primitive; the benchmark beside them is exempt. */
TEST(no_assert) { run_case(&collector_test_quality, "no_assert", "found 2 weak checks"); }
/* Production shapes and tight tolerances: nothing. */
TEST(production) { run_case(&collector_test_quality, "production", "nothing found: 1 test file read"); }

/* New Triton and HIP kernels; only a benchmark and a main()-style test_*.py come with them. */
TEST(untested) { run_case(&collector_kernel_tests, "untested", "found 2 new kernel files"); }
/* aiter#3991: the test lives under aiter/aot/flydsl/tests/. */
TEST(test_elsewhere) { run_case(&collector_kernel_tests, "test_outside_op_tests", "nothing found: 1 new kernel file, and aiter/aot/flydsl/tests/test_tile_sort.py:4 adds"); }
/* aiter#2889: a class-based test whose name contains "bench". */
TEST(bench_in_name) { run_case(&collector_kernel_tests, "bench_in_name", "nothing found: 1 new kernel file, and op_tests/test_rmsnorm_bench_against_aiter.py:1 adds"); }

/* aiter#4821: two main()-style tests in op_tests/flydsl_tests/, which only a label workflow
 * names (not a line that runs anything). */
TEST(flydsl_tests) { run_case(&collector_ci_coverage, "flydsl_tests", "found 4: 2 new test files no CI job runs, 2 pytest"); }
/* op_tests/multigpu_tests/ runs only under the multigpu label. */
TEST(label_gated) { run_case(&collector_ci_coverage, "label_gated", "found 1: 1 new test file no CI job runs, 0"); }
/* Top-level op_tests/ and anything under op_tests/triton_tests/ are run. */
TEST(covered) { run_case(&collector_ci_coverage, "covered", "nothing found: every new test file lands where a CI job runs it"); }

/* No test files at all: each collector says what it did not exercise. */
TEST(no_tests)
{
    const char *diff = "diff --git a/aiter/x.py b/aiter/x.py\n--- a/aiter/x.py\n+++ b/aiter/x.py\n"
                       "@@ -1,1 +1,2 @@\n x = 1\n+y = 2\n";
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    const collector *cs[] = {&collector_test_quality, &collector_kernel_tests, &collector_ci_coverage};
    const char *want[] = {"nothing found: no test file touched",
                          "nothing found: no new kernel file in the change",
                          "nothing found: no new test file in the change, so CI reachability "
                          "was not exercised"};
    for (int i = 0; i < 3; i++) {
        finding_list out = {0};
        collector_ctx ctx = {.chg = c, .out = &out};
        sb_init(&ctx.status);
        collector_run(cs[i], &ctx);
        CHECK_INT(out.n, 0);
        CHECK_STR(ctx.status.buf, want[i]);
        sb_free(&ctx.status);
        findings_clear(&out);
        free(out.items);
    }
    change_free(c);
}

UNIT_MAIN("test_quality", UNIT_CASE(toy_and_loose), UNIT_CASE(no_assert), UNIT_CASE(production),
          UNIT_CASE(untested), UNIT_CASE(test_elsewhere), UNIT_CASE(bench_in_name),
          UNIT_CASE(flydsl_tests), UNIT_CASE(label_gated), UNIT_CASE(covered), UNIT_CASE(no_tests))
