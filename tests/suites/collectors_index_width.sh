# The index-width collector (rule D9) through the real program. Each case under
# tests/fixtures/index_width/ becomes a repository whose HEAD is its base/ tree and whose work
# tree is its head/ tree; `review-lsp check --format text` must print exactly the D9 findings
# (with their related lines) and the collector's status line in the case's expected.txt.
# The cases: products that are small by construction, not global memory, or already 64-bit
# (silent); token/row, batch, expert and KV-block offsets in 32 bits in Triton, Gluon, FlyDSL
# and HIP (reported, once per kernel and index, the other places as related lines); the outer
# product reported and not the harmless one inside it; moved or reformatted code not reported
# again. Some cases also run as a diff file (--diff, --root) with no repository. BLESS=1
# rewrites expected.txt (review it).
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

# d9_only: the D9 findings with their related lines, plus the collector's status line.
d9_only() {
  awk 'index($0, "# collector index_width:") == 1 { print; next }
       /^[^ #]/ { keep = index($0, "[D9]") > 0; if (keep) print; next }
       /^    / && keep { print; next }
       { keep = 0 }'
}

# check_case CASE
check_case() {
  src="$ROOT/tests/fixtures/index_width/$1"
  dir="$TMPD/$1"
  build_case "$src" "$dir"
  got=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err" | d9_only)
  if [ -n "${BLESS:-}" ]; then printf '%s\n' "$got" > "$src/expected.txt"; fi
  expect_eq "index_width.$1" "$got" "$(cat "$src/expected.txt")"
}

# check_case_diff CASE: the same case as a diff file with --root (the head tree).
check_case_diff() {
  src="$ROOT/tests/fixtures/index_width/$1"
  dir="$TMPD/$1"
  [ -d "$dir" ] || build_case "$src" "$dir"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" | d9_only)
  expect_eq "index_width.$1.diff-mode" "$got" "$(cat "$src/expected.txt")"
}

for c in "$ROOT"/tests/fixtures/index_width/*/; do
  check_case "$(basename "$c")"
done
check_case_diff hip_token_offset
check_case_diff triton_moe_wgrad
check_case_diff flydsl_outer_product
check_case_diff moved_code

# --- degraded inputs ---------------------------------------------------------------------------
# A modified file with no head tree: D9 says it could not scan, so it cannot be cleared.
printf 'diff --git a/aiter/ops/flydsl/k.py b/aiter/ops/flydsl/k.py\n--- a/aiter/ops/flydsl/k.py\n+++ b/aiter/ops/flydsl/k.py\n@@ -10,2 +10,3 @@\n x = 1\n+y = tl.load(p + a * b)\n z = 2\n' > nohead.diff
out=$("$BIN" check --diff nohead.diff --format text 2>/dev/null)
expect_contains d9-no-head-skips "$out" "# collector index_width: skipped: aiter/ops/flydsl/k.py: head file not available"
expect_contains d9-no-head-not-cleared "$out" "(D9 cannot be cleared)"
# A new kernel given whole in the diff needs no head tree: blockIdx over rows times a row stride.
printf 'diff --git a/csrc/kernels/n.cu b/csrc/kernels/n.cu\nnew file mode 100644\n--- /dev/null\n+++ b/csrc/kernels/n.cu\n@@ -0,0 +1,3 @@\n+__global__ void k(float* o, int rows, int row_stride) {\n+    o[blockIdx.x * row_stride + threadIdx.x] = 0.f;\n+}\n' > newcu.diff
out=$("$BIN" check --diff newcu.diff --format text 2>/dev/null)
expect_contains d9-new-file-in-diff "$out" "csrc/kernels/n.cu:2:7: warning [D9] \`blockIdx.x * row_stride\` is computed in 32 bits and reaches a global-memory offset"
# threadIdx times a small stride in the same shape is not.
printf 'diff --git a/csrc/kernels/m.cu b/csrc/kernels/m.cu\nnew file mode 100644\n--- /dev/null\n+++ b/csrc/kernels/m.cu\n@@ -0,0 +1,3 @@\n+__global__ void k(float* o, int head_dim) {\n+    o[threadIdx.x * head_dim] = 0.f;\n+}\n' > small.diff
out=$("$BIN" check --diff small.diff --format text 2>/dev/null)
expect_contains d9-lane-times-head-dim-silent "$out" "# collector index_width: nothing found: no 32-bit product that can pass 2^31 reaches a global-memory offset on an added line of 1 file"
# Unparseable code and a test file still get a status line, and nothing crashes.
printf 'diff --git a/aiter/ops/triton/bad.py b/aiter/ops/triton/bad.py\nnew file mode 100644\n--- /dev/null\n+++ b/aiter/ops/triton/bad.py\n@@ -0,0 +1,3 @@\n+@triton.jit\n+def k(x_ptr, stride_xm:\n+    x = tl.load(x_ptr + tl.program_id(0) * stride_xm\n' > bad.diff
out=$("$BIN" check --diff bad.diff --root "$TMPD" --format text 2>/dev/null); rc=$?
expect_rc d9-broken-python-exit "$rc" 0
expect_contains d9-broken-python-status "$out" "# collector index_width: "
