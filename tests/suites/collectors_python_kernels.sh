# The Python-kernel collectors through the real program: Triton masks (T1, T2), imports that do not resolve (UNRESOLVED-IMPORT) and AOT pairing (D12). Each
# case under tests/fixtures/python_kernels/<kind>/ becomes a repository whose HEAD is its base/ tree
# and whose work tree is its head/ tree (then its post-build.sh, if any, runs there); `review-lsp check --format text` must print exactly the
# collector's findings (with related lines) and its status line, as in the case's
# expected.txt. Some cases also run as a diff file (--diff, --root) with no repository, and
# degraded inputs must still give a status line. BLESS=1 rewrites expected.txt (review it).
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# build_case SRC DIR: a repository at DIR whose HEAD is SRC/base and whose work tree is SRC/head.
build_case() {
  new_repo "$2"
  cp -R "$1/base/." "$2/"
  commit_all "$2" "base"
  find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -R "$1/head/." "$2/"
  if [ -f "$1/post-build.sh" ]; then (cd "$2" && sh "$1/post-build.sh"); fi
}

# rules_of COLLECTOR: the rule ids the collector reports.
rules_of() {
  case "$1" in
    triton_masks) echo "T1 T2" ;; imports) echo "UNRESOLVED-IMPORT" ;;
    aot_pairing) echo "D12" ;;
  esac
}

# select_rules RULES COLLECTOR: findings of RULES with related lines, plus the status line.
select_rules() {
  awk -v rules=" $1 " -v coll="# collector $2:" '
    index($0, coll) == 1 { print; next }
    /^[^ #]/ { keep = 0; if (match($0, /\[[A-Z0-9-]+\]/)) {
               id = substr($0, RSTART + 1, RLENGTH - 2)
               if (index(rules, " " id " ")) { keep = 1; print } } next }
    /^    / && keep { print; next }
    { keep = 0 }'
}

# check_case KIND COLLECTOR CASE
check_case() {
  src="$ROOT/tests/fixtures/python_kernels/$1/$3"
  dir="$TMPD/$1-$3"
  build_case "$src" "$dir"
  got=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err" | select_rules "$(rules_of "$2")" "$2")
  if [ -n "${BLESS:-}" ]; then printf '%s\n' "$got" > "$src/expected.txt"; fi
  expect_eq "$1.$3" "$got" "$(cat "$src/expected.txt")"
}

# check_case_diff KIND COLLECTOR CASE: the same case as a diff file with --root (the head tree).
check_case_diff() {
  src="$ROOT/tests/fixtures/python_kernels/$1/$3"
  dir="$TMPD/$1-$3"
  [ -d "$dir" ] || build_case "$src" "$dir"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" |
        select_rules "$(rules_of "$2")" "$2" | grep -v '^# collector')
  want=$(grep -v '^# collector' "$src/expected.txt")
  expect_eq "$1.$3.diff-mode" "$got" "$want"
}

for kind in aot:aot_pairing imports:imports triton:triton_masks; do
  k=${kind%%:*}; coll=${kind#*:}
  [ -d "$ROOT/tests/fixtures/python_kernels/$k" ] || continue
  for c in "$ROOT/tests/fixtures/python_kernels/$k"/*/; do
    check_case "$k" "$coll" "$(basename "$c")"
  done
done
check_case_diff aot aot_pairing tile_resolver
check_case_diff aot aot_pairing import_forms
check_case_diff imports imports rebase_signal
check_case_diff triton triton_masks mask_shapes

# --- degraded inputs ---------------------------------------------------------------------------
# A diff of a modified file with no head tree: imports and AOT pairing say what they lacked,
# and nothing crashes (D9's own degraded inputs are in collectors_index_width.sh).
printf 'diff --git a/aiter/ops/flydsl/k.py b/aiter/ops/flydsl/k.py\n--- a/aiter/ops/flydsl/k.py\n+++ b/aiter/ops/flydsl/k.py\n@@ -10,2 +10,3 @@\n x = 1\n+from aiter.ops.gone import y\n z = tl.load(p + a * b)\n' > nohead.diff
out=$("$BIN" check --diff nohead.diff --format text 2>/dev/null)
expect_contains imports-no-root-skips "$out" "# collector imports: skipped: no repository and no root directory"
expect_contains aot-no-root-skips "$out" "# collector aot_pairing: skipped: no repository and no root directory"
expect_contains masks-no-head-skips "$out" "# collector triton_masks: skipped: "
# Unparseable Python still gets a status line from every collector here, and no crash.
printf 'diff --git a/aiter/ops/triton/bad.py b/aiter/ops/triton/bad.py\nnew file mode 100644\n--- /dev/null\n+++ b/aiter/ops/triton/bad.py\n@@ -0,0 +1,3 @@\n+def k(x_ptr, n:\n+    x = tl.load(x_ptr + pid * n\n+from . import (\n' > bad.diff
out=$("$BIN" check --diff bad.diff --root "$TMPD" --format text 2>/dev/null); rc=$?
expect_rc broken-python-exit "$rc" 0
for c in triton_masks imports aot_pairing; do
  expect_contains "broken-python-status-$c" "$out" "# collector $c: "
done
