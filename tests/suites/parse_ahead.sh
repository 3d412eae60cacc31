# The second thread: a batch review of a change of many files shares the files out between two
# reading threads, each parsing what it reads; the server, and a batch review of a change of a
# few files, parse the next files on the second thread while the collectors read the current
# one. What a review finds must not depend on it: the same findings, statuses, packet files,
# with it and without it (REVIEW_LSP_PARSE_AHEAD=0), and the timing lines say what the second
# thread did.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo repo
mkdir -p repo/aiter/ops/triton repo/csrc/kernels
i=0
while [ $i -lt 10 ]; do
  cat > repo/aiter/ops/triton/rows_$i.py <<PY
import torch
import triton
import triton.language as tl


@triton.jit
def _rows_kernel_$i(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * $i, mask=offs < n)


def rows_$i(x: torch.Tensor) -> torch.Tensor:
    assert x.is_contiguous(), "rows_$i needs a contiguous input"
    assert x.dim() == 2
    y = torch.zeros_like(x)
    _rows_kernel_$i[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    return y
PY
  i=$((i + 1))
done
i=0
while [ $i -lt 4 ]; do
  cat > repo/csrc/kernels/cols_$i.cu <<CU
#include <hip/hip_runtime.h>

__global__ void cols_kernel_$i(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows) return;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[r * cols + c] = $i.0f * x[r * cols + c];
}

void cols_$i(const float* x, float* y, int rows, int cols) {
    TORCH_CHECK(cols % 8 == 0, "cols must be a multiple of 8");
    hipLaunchKernelGGL(cols_kernel_$i, dim3(rows), dim3(256), 0, 0, x, y, rows, cols);
}
CU
  i=$((i + 1))
done
# a table of tuned configurations, copied below into a new file: twins runs on a thread of its
# own beside the per-file stages (collector.runs_apart) and must find the copy either way
k=0
{ echo "TUNED_CONFIGS = {"
  while [ $k -lt 45 ]; do
    echo "    \"gfx942_rows_config_$k\": dict(block_m=$((16 + k)), block_n=64, warps=4, stages=2),"
    k=$((k + 1))
  done
  echo "}"; } > repo/aiter/ops/triton/rows_configs.py
commit_all repo base
cp repo/aiter/ops/triton/rows_configs.py repo/aiter/ops/triton/rows_configs_gfx950.py
git -C repo add -N aiter/ops/triton/rows_configs_gfx950.py
# every file changed: guards deleted or loosened, loads unmasked, bounds dropped
for f in repo/aiter/ops/triton/rows_*.py; do
  sed -i -e '/assert x.dim() == 2/d' -e 's/x = tl.load(x_ptr + offs, mask=offs < n)/x = tl.load(x_ptr + offs)/' "$f"
done
for f in repo/csrc/kernels/cols_*.cu; do
  sed -i -e 's/cols % 8 == 0/cols % 4 == 0/' -e 's/if (r >= rows) return;/\/\/ rows checked by the caller/' "$f"
done

(cd repo && REVIEW_LSP_TIMING=1 "$BIN" check --format json >"$TMPD/ahead.json" 2>"$TMPD/ahead.err")
(cd repo && REVIEW_LSP_PARSE_AHEAD=0 REVIEW_LSP_TIMING=1 "$BIN" check --format json \
   >"$TMPD/alone.json" 2>"$TMPD/alone.err")
if cmp -s ahead.json alone.json; then pass same-findings-and-statuses-with-and-without; else
  fail same-findings-and-statuses-with-and-without "$(diff ahead.json alone.json | head -20)"; fi
expect_contains the-copied-file-is-found-beside-the-stages "$(cat ahead.json)" "rows_configs_gfx950.py"
expect_contains twins-ran-beside-the-per-file-stages "$(grep 'collector twins' ahead.err)" \
  "(whole change, beside the per-file stages)"
expect_contains the-copied-file-is-named-as-a-twin "$(grep -A16 '"D5"' ahead.json)" "already appear in aiter/ops/triton/rows_configs.py"
n=$(grep -c '"rule"' ahead.json)
if [ "$n" -ge 14 ]; then pass the-change-has-findings-to-compare; else
  fail the-change-has-findings-to-compare "$n findings"; fi
here=$(sed -n 's/.*two reading threads: \([0-9]*\) read here, \([0-9]*\) on the second.*/\1/p' ahead.err)
second=$(sed -n 's/.*two reading threads: \([0-9]*\) read here, \([0-9]*\) on the second.*/\2/p' ahead.err)
if [ -n "$here" ] && [ "$here" -ge 1 ] && [ "$second" -ge 1 ] && [ $((here + second)) -eq 15 ]; then
  pass the-files-are-shared-out-between-two-threads; else
  fail the-files-are-shared-out-between-two-threads "$(grep 'review-lsp: files' ahead.err)"; fi
expect_contains switched-off-parses-nothing-ahead "$(cat alone.err)" ", 0 parsed ahead;"
expect_eq switched-off-shares-nothing-out "$(grep -c 'two reading threads' alone.err)" "0"
p1=$(sed -n 's/.*cache totals: \([0-9]*\) parses.*/\1/p' ahead.err)
p0=$(sed -n 's/.*cache totals: \([0-9]*\) parses.*/\1/p' alone.err)
expect_eq no-file-parsed-twice "$p1" "$p0"

# the packet of the same change as a diff with its tree: every file the same
git -C repo diff > change.diff
"$BIN" packet --diff change.diff --root repo --title "rows and cols" --out packet-ahead >/dev/null 2>&1
REVIEW_LSP_PARSE_AHEAD=0 "$BIN" packet --diff change.diff --root repo --title "rows and cols" \
  --out packet-alone >/dev/null 2>&1
if [ -s packet-ahead/guards.txt ] && diff -r packet-ahead packet-alone >/dev/null; then
  pass packet-the-same-with-and-without; else
  fail packet-the-same-with-and-without "$(diff -r packet-ahead packet-alone | head -20)"; fi

# --diff mode, a change of three files (too few to share out): a base is its head with the
# diff undone, queued after the head as in a repository (and parsed from the head's tree), so
# while the first file (a long one) is read the next two files' heads and bases are parsed
# ahead: more than their heads alone (2)
k=0
{ while [ $k -lt 1500 ]; do
    echo "def scale_$k(x):"; echo "    assert x is not None"; echo "    return x * $k"; echo
    k=$((k + 1))
  done; } > repo/aiter/ops/triton/a_long.py
git -C repo add aiter/ops/triton/a_long.py && git -C repo commit -q -m long
sed -i 's/    assert x is not None/    pass/' repo/aiter/ops/triton/a_long.py
git -C repo diff -- aiter/ops/triton/a_long.py aiter/ops/triton/rows_1.py \
  aiter/ops/triton/rows_2.py > three.diff
(cd repo && REVIEW_LSP_TIMING=1 "$BIN" check --diff ../three.diff --root . --format json \
   >"$TMPD/diff.json" 2>"$TMPD/diff.err")
diff_ahead=$(sed -n 's/.*, \([0-9]*\) parsed ahead;.*/\1/p' diff.err)
if [ -n "$diff_ahead" ] && [ "$diff_ahead" -ge 3 ]; then
  pass diff-mode-parses-bases-ahead-too; else
  fail diff-mode-parses-bases-ahead-too "$(grep 'review-lsp: parse' diff.err)"; fi
expect_eq three-files-are-not-shared-out "$(grep -c 'two reading threads' diff.err)" "0"
git -C repo checkout -q -- aiter/ops/triton/a_long.py

# The server keeps per-file results and trees: reviews after an edit of one file parse nothing
# again, ahead or not (tests/unit/test_parse_ahead_runner.c covers trees given back).
timed_server_edits "$TMPD/repo" aiter/ops/triton/rows_3.py python 2 || fail server-session "the session failed"
ahead_counts=$(sed -n 's/.*, \([0-9]*\) parsed ahead;.*/\1/p' server.txt | tr '\n' ' ')
parses=$(sed -n 's/.*cache totals: \([0-9]*\) parses.*/\1/p' server.txt | tr '\n' ' ')
set -- $ahead_counts
if [ $# -ge 3 ] && [ "$1" -ge 10 ] && [ "$1" = "$3" ]; then pass server-edits-queue-nothing-it-keeps; else
  fail server-edits-queue-nothing-it-keeps "parsed ahead after each review: $ahead_counts (parses: $parses)"; fi
set -- $parses
if [ $# -ge 3 ] && [ "$3" = "$1" ]; then pass server-edit-parses-nothing-new-from-scratch; else
  fail server-edit-parses-nothing-new-from-scratch "parses after each review: $parses"; fi
