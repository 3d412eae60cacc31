/* Unit tests for the pattern-rules collector (D3 C2 C4 D7 D10 D10b G1b HK1 HK3 HK7 HK8 HK9
 * HK11 T8): each fixture under tests/fixtures/issue7b/pattern_rules/ is a base/head pair with
 * the real cases (aiter#3937 C4, #3956 C4 skip, #3870 capability check, #4015 C2, #3987 D10,
 * #3944 D10b, #5137 T8, #3593 HK9) beside the false positives the rule text lists; expected.txt
 * holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_pattern_rules;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/issue7b/pattern_rules/%s", root ? root : ".", name);
    char *status = NULL;
    CHECK(fx_run(&collector_pattern_rules, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

/* D3 on an added hipblaslt row only (not the removed one, not Python); HK11 new packages but
 * not version bumps; HK1 runperf/test_local_ scripts but not a .github/ script. */
TEST(configs) { run_case("configs", "found "); }
/* C2 fp8 maxima outside dtype/arch-pinned paths (aiter#4015); C4 a first arch literal in a
 * file (aiter#3937), not one beside an existing literal (aiter#3956), not a docstring or a
 * capability check that raises (aiter#3870). */
TEST(numerics) { run_case("numerics", "found "); }
/* D7 compile ops without fakes (gen_fake=, _fake found), HK8 develop=True, D10 compile result
 * never called on the miss branch (aiter#3987) and its cleared forms, D10b (aiter#3944). */
TEST(compile_and_flydsl) { run_case("compile_and_flydsl", "found "); }
/* G1b worker loops, HK3 sys.path outside __main__ and tests, HK7 in new paths only, HK9 new
 * knobs only (Python and C++), T8 literals outside triton.Config and configs (aiter#5137). */
TEST(housekeeping) { run_case("housekeeping", "found "); }

/* A change with no added line any rule reads says so. */
TEST(nothing)
{
    const char *diff = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                       "@@ -1,1 +1,2 @@\n text\n+more text\n";
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    finding_list out = {0};
    collector_ctx ctx = {.chg = c, .out = &out};
    sb_init(&ctx.status);
    collector_pattern_rules.run(&ctx);
    CHECK_INT(out.n, 0);
    CHECK_STR(ctx.status.buf, "nothing found: no pattern rule fires on the added lines of 1 file");
    sb_free(&ctx.status);
    findings_clear(&out);
    free(out.items);
    change_free(c);
}

/* A finding's range is the matched text on its line. */
TEST(exact_range)
{
    const char *diff = "diff --git a/aiter/x.py b/aiter/x.py\nnew file mode 100644\n--- /dev/null\n"
                       "+++ b/aiter/x.py\n@@ -0,0 +1,2 @@\n+import sys\n+sys.path.insert(0, '.')\n";
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    finding_list out = {0};
    collector_ctx ctx = {.chg = c, .out = &out};
    sb_init(&ctx.status);
    collector_pattern_rules.run(&ctx);
    CHECK_INT(out.n, 1);
    if (out.n) {
        CHECK_STR(out.items[0].rule_id, "HK3");
        CHECK_INT(out.items[0].range.line, 2);
        CHECK_INT(out.items[0].range.col, 0);
        CHECK_INT(out.items[0].range.end_col, 16);
    }
    CHECK_STR(ctx.status.buf, "found 1 (HK3 1)");
    sb_free(&ctx.status);
    findings_clear(&out);
    free(out.items);
    change_free(c);
}

UNIT_MAIN("pattern_rules", UNIT_CASE(configs), UNIT_CASE(numerics), UNIT_CASE(compile_and_flydsl),
          UNIT_CASE(housekeeping), UNIT_CASE(nothing), UNIT_CASE(exact_range))
