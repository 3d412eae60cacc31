/* Unit tests for the removed-guards collector (rules D4, B7): each fixture under
 * tests/fixtures/guards/ is a base/head pair reproducing a real review case (the aiter pull
 * request is named per test) or a false positive the collector must not raise; expected.txt
 * holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_guards;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/guards/%s", root ? root : ".", name);
    char *status = NULL;
    CHECK(fx_run(&collector_guards, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

/* aiter#4295: a presence check on an optional became a size check. */
TEST(null_to_size) { run_case("null_to_size", "found 1: 0 gone, 1 changed"); }
/* aiter#4279: a bound halved (tightened, B7) and a divisibility loosened (D4); a check that
 * moved to another tensor (aiter#4573). */
TEST(bound_changed) { run_case("bound_changed", "found 3: 0 gone, 3 changed"); }
/* aiter#5168: an equality became set membership: a widened guard, worth a look (information),
 * not a reversed invariant. */
TEST(eq_to_set) { run_case("eq_to_set", "found 1: 0 gone, 1 changed"); }
/* aiter#5143: the deleted presence assert is still checked at the call site: a hint. */
TEST(optional_checked) { run_case("optional_checked", "found 1: 1 gone"); }
/* aiter#4043: zeros became empty while the (now rewritten) comment required zeros. */
TEST(zeros_to_empty) { run_case("zeros_to_empty", "found 2: 0 gone, 0 changed, 2 zero-init"); }
/* Moved guards, one re-wrapped, one moved to another file (aiter#5235): hints only. */
TEST(moved) { run_case("moved", "nothing found: 3 deleted guard(s), none lost (3 moved"); }
/* static_assert, AITER_CHECK and .contiguous() deleted outright; .contiguous() calls moved
 * from an op into its test (seen on real history) are gone from the op. A dropped
 * .contiguous() is information: on real history kernels took strides or packers copied in
 * every case judged. */
TEST(gone) { run_case("gone", "found 5: 5 gone"); }
/* Comments, docstrings, strings, test files, non-code files, deleted files: nothing. */
TEST(not_guards) { run_case("not_guards", "nothing found: this change deletes no assert"); }

/* aiter#4255: an assert replaced by a stronger named predicate is only a hint. */
TEST(named_predicate) { run_case("named_predicate", "found 1: 0 gone, 1 changed"); }
/* CRLF line ends, and a guard deleted at the very end of a file (clamped to the last line). */
TEST(crlf) { run_case("crlf", "found 2: 2 gone"); }

/* Refactors seen on real history: macro renamed, torch dtype spellings replaced by aiter ones
 * (aiter#4729), message reworded, macro-body checks, a zero-init gone with its buffer or
 * re-shaped: silent; int32 became int64: re-pinned (information); a static_assert on a removed
 * name: hint. */
TEST(kept_reworded) { run_case("kept_reworded", "found 2: 1 gone, 1 changed"); }

/* A literal moved into a named constant with the same value (aiter#4825 moved an arch tuple
 * into a module constant; 64 became the wave size; a constexpr renamed): kept, silent. A
 * constant that drops an arch: tightened (B7); one that adds an arch: widened (D4, information). */
TEST(named_constant) { run_case("named_constant", "found 2: 0 gone, 2 changed"); }

/* Rewrites that keep the condition: conjuncts and equality sides reordered, TORCH_CHECK
 * renamed on its own line over unchanged arguments, a cast added, isinstance merged, doubled
 * brackets dropped, a list become a tuple, a parameter renamed: silent. A conjunct dropped
 * (D4) and a conjunct added (B7) are findings. */
TEST(cosmetic_rewrite) { run_case("cosmetic_rewrite", "found 2: 0 gone, 2 changed"); }

/* "Still checked" only counts on the same path (aiter#4806 relaxed `% 8` in one branch while
 * a sibling `else if` kept its own `% 8`): a check in a sibling branch, or one nested under a
 * condition the deleted guard was not under, does not lower the finding; a check that leaves
 * early (`if ...: raise`) before the guard's place does. A guard re-added in place but under a
 * branch (an if it was not in, the other arm of an if) is reported as now conditional. */
TEST(sibling_branch) { run_case("sibling_branch", "found 4: 1 gone, 1 changed"); }

/* A guard that moved into a helper the change adds and the old place now calls: zero-inits
 * into a table builder that returns the zeroed buffer (the build_p2p_table shape), checks into
 * a validation helper whose parameters are named differently: hints that name the helper. A
 * check the helper weakens (int32 only became any integer) and a zero-init swapped for empty
 * with nothing said are still findings. */
TEST(helper_added) { run_case("helper_added", "found 2: 0 gone, 1 changed, 1 zero-init"); }

/* A function deleted whole takes its guards with it: no finding, and the status line says how
 * many went. A function renamed with its guard dropped (the body is rewritten, not deleted) is
 * still a finding. */
TEST(path_deleted) { run_case("path_deleted", "found 1: 1 gone"); }

/* zeros→empty where the change says why empty is safe (every element is written): a hint that
 * quotes the reason; where a comment next to it says the buffer must start from zero: a
 * warning. */
TEST(zeros_explained) { run_case("zeros_explained", "found 2: 0 gone, 0 changed, 2 zero-init"); }

/* TORCH_CHECK_EQ / _GT / _LE rewritten as early exits (`if (a != b || c != d) throw`, over
 * several lines): each check is still enforced there, a hint; the weight size check dropped
 * outright is a finding. */
TEST(exit_rewrite) { run_case("exit_rewrite", "found 6: 6 gone"); }

/* Guards that go with the code they guarded: an arch-specific branch deleted whole (its
 * condition line too), a layout struct of static_asserts deleted whole and no longer named.
 * A branch that stays while its assert goes, and an assert dropped from a function that stays,
 * are findings. */
TEST(deleted_blocks) { run_case("deleted_blocks", "found 2: 2 gone"); }

/* Guards the new code no longer needs, each lowered to a hint that says why: divisibility
 * checks replaced by rounding the size up, an input the function no longer takes, a CUDA-only
 * check turned into a handled case, a stride equality whose two sides are now both passed to
 * the kernel, an assert lifted with a comment in place; a check split in two (its second half
 * widened: information); .contiguous() calls that a stride-taking kernel, a re-wrapped chain
 * or a new helper keep. */
TEST(now_handled) { run_case("now_handled", "found 7: 6 gone, 1 changed"); }

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(null_to_size), UNIT_CASE(bound_changed), UNIT_CASE(eq_to_set),
        UNIT_CASE(optional_checked), UNIT_CASE(zeros_to_empty), UNIT_CASE(moved),
        UNIT_CASE(gone), UNIT_CASE(not_guards), UNIT_CASE(named_predicate), UNIT_CASE(crlf),
        UNIT_CASE(kept_reworded), UNIT_CASE(named_constant), UNIT_CASE(cosmetic_rewrite), UNIT_CASE(sibling_branch), UNIT_CASE(helper_added), UNIT_CASE(path_deleted), UNIT_CASE(zeros_explained), UNIT_CASE(exit_rewrite), UNIT_CASE(deleted_blocks), UNIT_CASE(now_handled),
    };
    int rc = unit_main("guards", cases, sizeof cases / sizeof cases[0]);
    return rc;
}
