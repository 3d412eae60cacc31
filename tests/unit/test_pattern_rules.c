/* Unit tests for the pattern-rules collector (D3 C2 C4 D7 D10 D10b G1b HK1 HK3 HK7 HK9
 * HK11 T8): each fixture under tests/fixtures/change_checks/pattern_rules/ is a base/head pair with
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
    char *dir = xasprintf("%s/tests/fixtures/change_checks/pattern_rules/%s", root ? root : ".", name);
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
/* D7 compile ops returning tensors without fakes (gen_fake=, _fake found), not ops returning
 * nothing, an int or untyped, nor a stub that builds its outputs; no HK8 for develop=True
 * (aiter's torch-free pybind path, not an experiment); D10 compile result never called on the
 * miss branch (aiter#3987) and its cleared forms; D10b on an fx numeric parameter
 * (aiter#3944). */
TEST(compile_and_flydsl) { run_case("compile_and_flydsl", "found "); }
/* G1b worker loops, HK3 sys.path outside __main__ and tests, HK7 in new paths only, HK9 new
 * knobs only (Python and C++), T8 literals outside triton.Config and configs (aiter#5137). */
TEST(housekeeping) { run_case("housekeeping", "found "); }

/* D3 on a new hipblaslt row of a tuned CSV or YAML only: not on a row the change merely moved
 * (a re-sorted table), not on `-lhipblaslt` in a build config, not on a CI workflow. */
TEST(tuning_rows) { run_case("tuning_rows", "found "); }
/* D10b reads the operand (arith.bitcast's second argument, or in_=), never the result type,
 * and fires only on a FlyDSL numeric (an fx.Int32/Float32 call, a name bound to one, a
 * parameter annotated with one), not on arith/buffer results, unwrapped values or names it
 * cannot trace. */
TEST(flydsl_bitcast) { run_case("flydsl_bitcast", "found "); }
/* HK7 on TODO/FIXME, function stubs (also with a signature over several lines) and raises
 * that say the case is not done yet; not on guards that refuse unsupported inputs, no-op
 * dispatch arms, `with` bodies, abstract methods, test doubles or words in a string. */
TEST(unfinished_paths) { run_case("unfinished_paths", "found "); }
/* HK9 on a knob new to the tree; not on one whose read moved into a helper or another module,
 * nor in a tuner that saves, sets and restores it. */
TEST(env_knobs) { run_case("env_knobs", "found "); }

/* T8 on launch knobs of a Triton launch; not on a tl.range(num_stages=) loop attribute inside
 * the kernel, on waves_per_eu=0 (Triton's no-hint default), nor on the same keyword in a
 * FlyDSL builder. */
TEST(launch_knobs) { run_case("launch_knobs", "found "); }

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
    collector_run(&collector_pattern_rules, &ctx);
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
    collector_run(&collector_pattern_rules, &ctx);
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
          UNIT_CASE(housekeeping), UNIT_CASE(tuning_rows), UNIT_CASE(flydsl_bitcast),
          UNIT_CASE(unfinished_paths), UNIT_CASE(env_knobs), UNIT_CASE(launch_knobs),
          UNIT_CASE(nothing), UNIT_CASE(exact_range))
