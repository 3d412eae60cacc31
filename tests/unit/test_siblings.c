/* Unit tests for the sibling-drift collector (rule A1): each fixture under
 * tests/fixtures/siblings/ is a base/head pair; expected.txt holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_siblings;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/siblings/%s", root ? root : ".", name);
    char *status = NULL;
    CHECK(fx_run(&collector_siblings, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

/* aiter#3841: a HIP decode kernel's 32-bit strided access fixed, the _prefill_opt kernel
 * beside it not; a kernel whose name is no variant keeps the line silently. */
TEST(hip_3841) { run_case("hip_3841", "found 2 line(s) in 1 variant(s)"); }
/* Triton _2d fixed, _3d not (found), _4d fixed the same way (silent). */
TEST(triton_2d_3d) { run_case("triton_2d_3d", "found 2 line(s) in 1 variant(s)"); }
/* Methods: forward_decode fixed (including a line deleted at its end), forward_prefill not. */
TEST(methods) { run_case("methods", "found 2 line(s) in 1 variant(s)"); }
/* Trivial lines, a line moved within its function, a function deleted outright, names that
 * share too little, test files: nothing. */
TEST(not_drift) { run_case("not_drift", "nothing found"); }

/* Keyword pass-through lines never count, strings are compared as written (equal length is
 * not equal text), and a changed line is reported in at most 3 variants. */
TEST(filters) { run_case("filters", "found 4 line(s) in 4 variant(s)"); }

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(hip_3841), UNIT_CASE(triton_2d_3d), UNIT_CASE(methods), UNIT_CASE(not_drift),
        UNIT_CASE(filters),
    };
    int rc = unit_main("siblings", cases, sizeof cases / sizeof cases[0]);
    return rc;
}
