# The removed-guards (D4, B7) and sibling-drift (A1) collectors through the real program: each
# case under tests/fixtures/guards/ and tests/fixtures/siblings/ becomes a repository with its
# base/ tree committed and its head/ tree as the uncommitted work tree, and
# `review-lsp check --format text` must print exactly the findings of the case's expected.txt
# (the same file the C unit tests compare, there in --diff style with a rebuilt base; here
# with the base read from git). A few cases also run as --diff files, and degraded inputs
# (no head tree, unparsable files) must still give a status line.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# build_case SRC DIR: a repository at DIR whose HEAD is SRC/base and whose work tree is SRC/head.
build_case() {
  new_repo "$2"
  cp -R "$1/base/." "$2/"
  commit_all "$2" "base"
  find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -R "$1/head/." "$2/"
}

# rule_findings RULES: the findings of the given rules (space separated) with their related
# lines, from a text report on stdin.
rule_findings() {
  awk -v rules=" $1 " '
    /^[^ #]/ { keep = 0; if (match($0, /\[[A-Z0-9]+\]/)) { id = substr($0, RSTART + 1, RLENGTH - 2);
               if (index(rules, " " id " ")) { keep = 1; print } } next }
    /^    / && keep { print; next }
    { keep = 0 }'
}

# as_cli FILE: expected.txt in the text format of check (column 1, related lines indented).
as_cli() {
  sed -e 's/^\([^ ][^:]*:[0-9][0-9]*\): /\1:1: /' -e 's/^  -> /    /' "$1"
}

# check_case KIND RULES COLLECTOR CASE
check_case() {
  src="$ROOT/tests/fixtures/$1/$4"
  dir="$TMPD/$1-$4"
  build_case "$src" "$dir"
  out=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err")
  got=$(printf '%s\n' "$out" | rule_findings "$2")
  expect_eq "$1.$4" "$got" "$(as_cli "$src/expected.txt")"
  expect_contains "$1.$4.status" "$out" "# collector $3: "
}

# check_case_diff KIND RULES CASE: the same case as a diff file with --root (no repository).
check_case_diff() {
  src="$ROOT/tests/fixtures/$1/$3"
  dir="$TMPD/$1-$3"
  [ -d "$dir" ] || build_case "$src" "$dir"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" | rule_findings "$2")
  expect_eq "$1.$3.diff-mode" "$got" "$(as_cli "$src/expected.txt")"
}

for c in "$ROOT"/tests/fixtures/guards/*/; do
  check_case guards "D4 B7" guards "$(basename "$c")"
done
for c in "$ROOT"/tests/fixtures/siblings/*/; do
  check_case siblings A1 siblings "$(basename "$c")"
done
check_case_diff guards "D4 B7" zeros_to_empty
check_case_diff guards "D4 B7" optional_checked
check_case_diff siblings A1 hip_3841
check_case_diff siblings A1 methods
check_case_diff siblings A1 kwarg_rewritten
check_case_diff siblings A1 builder_kernel
check_case_diff siblings A1 not_drift_units
check_case_diff siblings A1 param_suffix_renamed
check_case_diff siblings A1 not_drift_respelled
check_case_diff siblings A1 not_drift_routed
check_case_diff siblings A1 renamed_not_rewritten
check_case_diff siblings A1 sweep_fix_long_kernel
check_case_diff siblings A1 dead_variant
# the status line says a variant was left out as dead code
out=$(cd "$TMPD/siblings-dead_variant" && "$BIN" check --format text 2>/dev/null)
expect_contains siblings-dead-variant-status "$out" "1 variant(s) still carrying a rewritten unit not reported: defined but named nowhere else in the tree (dead code)"

# --- degraded inputs ---------------------------------------------------------------------------
# A diff with no head tree: deleted guards are still read from the diff lines.
printf 'diff --git a/aiter/ops/a.py b/aiter/ops/a.py\n--- a/aiter/ops/a.py\n+++ b/aiter/ops/a.py\n@@ -1,4 +1,3 @@\n def f(x):\n-    assert x.dim() == 3, "x must be 3-D"\n     return g(x)\n \n' > nohead.diff
out=$("$BIN" check --diff nohead.diff --format text 2>/dev/null)
expect_contains guards-no-head "$out" "aiter/ops/a.py:2:1: warning [D4] guard removed: \`assert x.dim() == 3, \"x must be 3-D\"\`"
expect_contains siblings-no-head-status "$out" "# collector siblings: skipped: the head text of the 1 changed file(s) is not available"
# Unparsable files: a status line, no crash, and the diff-level guard still reported.
printf 'diff --git a/csrc/bad.cu b/csrc/bad.cu\n--- a/csrc/bad.cu\n+++ b/csrc/bad.cu\n@@ -1,3 +1,2 @@\n void f( {{{\n-  TORCH_CHECK(n > 0, "n");\n   )))\n' > bad.diff
out=$("$BIN" check --diff bad.diff --format text 2>/dev/null); rc=$?
expect_rc bad-input-exit "$rc" 0
expect_contains bad-input-guard "$out" "csrc/bad.cu:2:1: warning [D4] guard removed: \`TORCH_CHECK(n > 0, \"n\");\`"
# A comment-only deletion in a diff with no head tree is not a guard.
printf 'diff --git a/csrc/c.cu b/csrc/c.cu\n--- a/csrc/c.cu\n+++ b/csrc/c.cu\n@@ -1,3 +1,2 @@\n int x;\n-// TORCH_CHECK(n > 0);\n int y;\n' > comment.diff
out=$("$BIN" check --diff comment.diff --format text 2>/dev/null)
expect_contains comment-not-guard "$out" "# collector guards: nothing found: this change deletes no assert"
# Prose that mentions an assert with nothing after it ("check it with an assert, or ...") in an
# added Markdown line, beside a real deleted guard: an empty condition, no crash.
new_repo prose
cp -R "$ROOT/tests/fixtures/packet/optional_param/base/." prose/
commit_all prose base
cp -R "$ROOT/tests/fixtures/packet/optional_param/head/." prose/
mkdir -p prose/doc
printf '| X1 | a rule | check it with an assert, or send it to the log |\n' > prose/doc/notes.md
out=$(cd prose && "$BIN" check 2>&1); rc=$?
expect_rc empty-condition-in-prose-exit "$rc" 0
expect_not_contains empty-condition-in-prose-no-runtime-error "$out" "runtime error"
