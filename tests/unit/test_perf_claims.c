/* Unit tests for the perf-claims collector (P1, P3): a PR description and a commit message in
 * the change (fixtures under tests/fixtures/change_checks/perf_claims/), and perf_claims_scan_text
 * as `check --pr-body` uses it: table headers carrying the baseline (aiter#4443), duration
 * transitions (aiter#5221), GPU counts and shares that are not claims, Chinese baselines
 * (aiter#5043), git comments and the scissors line. */
#include "engine/collectors/perf_claims.h"
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_perf_claims;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/change_checks/perf_claims/%s", root ? root : ".", name);
    char *status = NULL;
    CHECK(fx_run(&collector_perf_claims, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

TEST(pr_description) { run_case("pr_description", "found 3 of 6 claim lines naming no baseline, and claims nobody could rerun"); }
TEST(commit_message) { run_case("commit_message", "found 1 of 2 claim lines naming no baseline"); }
TEST(no_claims) { run_case("no_claims", "nothing found: no numeric performance claim in 1 description"); }

/* The body text straight: each unbaselined line once, the P3 hint on the first claim; a
 * table header naming torch covers its rows, and a GPU count is not a speedup. */
TEST(scan_text)
{
    const char *body = "Faster decode.\n"
                       "| batch | torch (us) | ours (us) |\n"
                       "| 1 | 10 | 8 |\n"
                       "Peak 1.8 TB/s, 950 GB/s sustained.\n"
                       "Runs at 3.2x.\n"
                       "4x MI355X nodes used.\n";
    finding_list out = {0};
    perf_claims_scan_text("body.md", body, strlen(body), &out);
    CHECK_INT(out.n, 3);
    if (out.n == 3) {
        findings_sort(&out);
        CHECK_STR(out.items[0].rule_id, "P1");
        CHECK_INT(out.items[0].range.line, 4);
        CHECK_STR(out.items[0].message, "950GB/s with nothing said about what it is measured "
                                        "against — name the other side (main, torch, CK, the "
                                        "previous kernel) and the shapes");
        CHECK_STR(out.items[1].rule_id, "P3");
        CHECK_INT(out.items[1].range.line, 4);
        CHECK_STR(out.items[1].message, "2 performance claim lines, but no command or script "
                                        "given — nobody could rerun the "
                                        "measurement");
        CHECK_STR(out.items[2].rule_id, "P1");
        CHECK_INT(out.items[2].range.line, 5);
        CHECK_INT(out.items[2].sev, SEV_HINT);
    }
    findings_clear(&out);
    free(out.items);
    /* empty and odd input: nothing, no crash */
    perf_claims_scan_text("e.md", "", 0, &out);
    const char *odd = "\n\n|||\n\xff\xfe 12x\n";
    perf_claims_scan_text("e.md", odd, strlen(odd), &out);
    CHECK_INT(out.n, 2);
    findings_clear(&out);
    free(out.items);
}

UNIT_MAIN("perf_claims", UNIT_CASE(pr_description), UNIT_CASE(commit_message),
          UNIT_CASE(no_claims), UNIT_CASE(scan_text))
