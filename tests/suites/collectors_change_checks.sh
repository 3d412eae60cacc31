# The change-wide checks through `review-lsp check --format text` on fixture repositories (twins, test quality, kernel tests, CI coverage, performance claims, comment-only changes, core tiers, pattern rules):
# each case under tests/fixtures/change_checks/<collector>/ is committed from its base/ tree, its
# head/ files laid over it as uncommitted work, and the collector's finding lines (with their
# related lines) and status line must equal the case's check.txt. A few cases also run as a
# diff file (--diff, --root) with no repository. BLESS=1 rewrites check.txt from the output.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# rules_of COLLECTOR: the rule ids the collector reports, as an awk regex.
rules_of() {
  case "$1" in
    twins) echo 'D5' ;;
    test_quality) echo 'P2|HK19' ;;
    kernel_tests) echo 'HK6' ;;
    ci_coverage) echo 'HK12|HK12b' ;;
    comment_only) echo 'COMMENT-ONLY' ;;
    core_tiers) echo 'STEP4' ;;
    perf_claims) echo 'P1|P3' ;;
    pattern_rules) echo 'D3|C2|C4|D7|D10|D10b|G1b|HK1|HK3|HK7|HK8|HK9|HK11|T8' ;;
  esac
}

# keep COLLECTOR: the collector's findings with their related lines, and its status line.
keep() {
  awk -v ids="^($(rules_of "$1"))$" -v coll="# collector $1:" '
    /^[^ #]/ { id = $0; sub(/^[^[]*\[/, "", id); sub(/\].*/, "", id)
               keep = (id ~ ids); if (keep) print; next }
    /^    / && keep { print; next }
    { keep = 0 }
    index($0, coll) == 1 { print }'
}

# build_case SRC DIR: a repository at DIR with SRC/base committed and SRC/head laid over it.
build_case() {
  new_repo "$2"
  cp -R "$1/base/." "$2/"
  git -C "$2" add -A && git -C "$2" commit -q --allow-empty -m base
  cp -R "$1/head/." "$2/"
}

for c in "$ROOT"/tests/fixtures/change_checks/*/*/; do
  coll=$(basename "$(dirname "$c")"); name=$(basename "$c")
  dir="$TMPD/$coll-$name"
  build_case "$c" "$dir"
  got=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err" | keep "$coll")
  if [ -n "${BLESS:-}" ]; then printf '%s\n' "$got" > "$c/check.txt"; fi
  expect_eq "$coll.$name" "$got" "$(cat "$c/check.txt")"
done

# --diff mode with --root: the same findings as in repository mode.
for case in twins/copy_variant ci_coverage/flydsl_tests core_tiers/header_fanin pattern_rules/housekeeping; do
  coll=${case%%/*}; name=${case#*/}
  dir="$TMPD/$coll-$name"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" |
        keep "$coll" | grep -v '^# collector')
  want=$(grep -v '^# collector' "$ROOT/tests/fixtures/change_checks/$case/check.txt")
  expect_eq "$coll.$name.diff-mode" "$got" "$want"
done

# --- degraded inputs ------------------------------------------------------------------------
# A diff with no head tree: the tree readers say what they skipped; nothing crashes.
{
  printf 'diff --git a/op_tests/flydsl_tests/test_a.py b/op_tests/flydsl_tests/test_a.py\n'
  printf 'new file mode 100644\n--- /dev/null\n+++ b/op_tests/flydsl_tests/test_a.py\n@@ -0,0 +1,45 @@\n'
  i=0; while [ $i -lt 45 ]; do printf '+value_number_%02d = compute_the_thing(%d)\n' $i $i; i=$((i+1)); done
} > nohead.diff
out=$("$BIN" check --diff nohead.diff --format text 2>/dev/null)
expect_contains twins-no-head-skips "$out" "# collector twins: skipped: no head tree to compare 1 new file against"
expect_contains ci-no-head-skips "$out" "# collector ci_coverage: found 1 new test file pytest collects nothing from; skipped HK12: no head tree"
# A binary-looking, CRLF, unterminated pattern-rules line is read without a crash.
printf 'diff --git a/aiter/x.py b/aiter/x.py\nnew file mode 100644\n--- /dev/null\n+++ b/aiter/x.py\n@@ -0,0 +1,3 @@\n+import sys\r\n+sys.path.append("\377\376")\r\n+x = os.environ.get("AITER_\n' > odd.diff
out=$("$BIN" check --diff odd.diff --format text 2>/dev/null)
expect_contains pattern-rules-odd-input "$out" "aiter/x.py:2:1: information [HK3]"
# A tree whose .github/workflows holds no workflow cannot be judged: HK12 says it skipped.
new_repo emptyci; mkdir -p emptyci/.github/workflows emptyci/op_tests; : > emptyci/.github/workflows/.keep
commit_all emptyci base
printf 'def test_x():\n    assert True\n' > emptyci/op_tests/test_new.py
out=$(cd emptyci && "$BIN" check --format text 2>/dev/null)
expect_contains ci-no-workflows-skips "$out" "# collector ci_coverage: skipped HK12: the tree has no .github/workflows"
