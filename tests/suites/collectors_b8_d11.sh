# The FlyDSL bounds (B8) and struct ABI (D11) collectors on fixture repositories: each case
# under tests/fixtures/flydsl/ and tests/fixtures/struct_abi/ is committed from its base/ tree,
# its head/ files laid over it as uncommitted work, and `review-lsp check --format text` run;
# the rule's finding lines (with their related lines) and the collector's status line must
# equal the case's expected.txt. Some cases are also run as a diff file (--diff, --root) with
# no repository, where the struct ABI collector rebuilds the base from the head and the diff.
# BLESS=1 rewrites expected.txt from the current output (review the diff before committing).
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# build_case SRC DIR: a repository at DIR with SRC/base committed and SRC/head laid over it.
build_case() {
  new_repo "$2"
  cp -R "$1/base/." "$2/"
  commit_all "$2" "base"
  cp -R "$1/head/." "$2/"
  if [ -f "$1/head/.deleted" ]; then
    while read -r p; do rm -f "$2/$p"; done < "$1/head/.deleted"
    rm -f "$2/.deleted"
  fi
}

# findings_of RULE COLLECTOR: keep the RULE findings with their related lines, and the
# collector's status line, from a text report on stdin.
findings_of() {
  awk -v rule="[$1]" -v coll="# collector $2:" '
    index($0, rule) && $0 !~ /^[ #]/ { keep = 1; print; next }
    /^    / && keep { print; next }
    { keep = 0 }
    index($0, coll) == 1 { print }'
}

# check_case KIND RULE COLLECTOR CASE
check_case() {
  src="$ROOT/tests/fixtures/$1/$4"
  dir="$TMPD/$1-$4"
  build_case "$src" "$dir"
  got=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err" | findings_of "$2" "$3")
  if [ -n "${BLESS:-}" ]; then printf '%s\n' "$got" > "$src/expected.txt"; fi
  expect_eq "$1.$4" "$got" "$(cat "$src/expected.txt")"
}

# check_case_diff KIND RULE COLLECTOR CASE: the same case as a diff file with --root.
check_case_diff() {
  src="$ROOT/tests/fixtures/$1/$4"
  dir="$TMPD/$1-$4"
  [ -d "$dir" ] || build_case "$src" "$dir"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" |
        findings_of "$2" "$3" | grep -v '^# collector')
  want=$(grep -v '^# collector' "$src/expected.txt")
  expect_eq "$1.$4.diff-mode" "$got" "$want"
}

for c in "$ROOT"/tests/fixtures/struct_abi/*/; do
  check_case struct_abi D11 struct_abi "$(basename "$c")"
done
for c in "$ROOT"/tests/fixtures/flydsl/*/; do
  check_case flydsl B8 flydsl_bounds "$(basename "$c")"
done
check_case_diff struct_abi D11 struct_abi pa_sparse_insert
check_case_diff struct_abi D11 struct_abi reshape
check_case_diff flydsl B8 flydsl_bounds motivating

# --- degraded inputs ---------------------------------------------------------------------------
# A diff with no head tree: the struct ABI collector says what it skipped, and never crashes.
printf 'diff --git a/csrc/a.h b/csrc/a.h\n--- a/csrc/a.h\n+++ b/csrc/a.h\n@@ -1,3 +1,4 @@\n struct s {\n     int a;\n+    int b;\n     int c;\n' > nohead.diff
out=$("$BIN" check --diff nohead.diff --format text 2>/dev/null)
expect_contains struct-abi-no-head-skips "$out" "# collector struct_abi: skipped: "
# A FlyDSL file given whole in the diff (a new file) needs no head tree.
printf 'diff --git a/aiter/ops/flydsl/k.py b/aiter/ops/flydsl/k.py\nnew file mode 100644\n--- /dev/null\n+++ b/aiter/ops/flydsl/k.py\n@@ -0,0 +1,3 @@\n+def k(view, n: fx.Int32):\n+    t = fx.make_buffer_tensor(view)\n+    return fx.slice(t, (fx.block_idx.x * 64 + fx.thread_idx.x, None))\n' > newfile.diff
out=$("$BIN" check --diff newfile.diff --format text 2>/dev/null)
expect_contains flydsl-new-file-in-diff "$out" "aiter/ops/flydsl/k.py:2:9: warning [B8] make_buffer_tensor(view): max_size omitted"
# Unparseable Python still gets a status line and no crash.
printf 'diff --git a/aiter/ops/flydsl/bad.py b/aiter/ops/flydsl/bad.py\nnew file mode 100644\n--- /dev/null\n+++ b/aiter/ops/flydsl/bad.py\n@@ -0,0 +1,2 @@\n+def k(view:\n+    t = fx.make_buffer_tensor(view, max_size=False\n' > bad.diff
out=$("$BIN" check --diff bad.diff --format text 2>/dev/null)
expect_contains flydsl-broken-python-status "$out" "# collector flydsl_bounds: nothing found"
# An offset nested thousands of parentheses deep is walked only so far: no crash, a status line.
python3 -c '
d = 3000
lines = ["def k(a, n: Int32):", "    r = buffer_ops.create_buffer_resource(a)",
         "    o = " + "(" * d + "bid * 64 + tid" + ")" * d, "    return buffer_ops.buffer_load(r, o)"]
print("diff --git a/aiter/ops/flydsl/deep.py b/aiter/ops/flydsl/deep.py\nnew file mode 100644")
print("--- /dev/null\n+++ b/aiter/ops/flydsl/deep.py\n@@ -0,0 +1,%d @@" % len(lines))
print("\n".join("+" + l for l in lines))' > deep.diff
out=$("$BIN" check --diff deep.diff --format text 2>/dev/null); rc=$?
expect_rc flydsl-deep-nesting-exit "$rc" 0
expect_contains flydsl-deep-nesting-status "$out" "# collector flydsl_bounds: nothing found"
