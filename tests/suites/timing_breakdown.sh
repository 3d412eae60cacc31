# REVIEW_LSP_TIMING=1: each review step's cost on stderr — the derivation, each collector with
# how many of its files ran and how many came from the cache, and parsing as a step of its own.
# The environment is read by the command line and the server at start; the engine reads none.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo repo
mkdir -p repo/csrc/kernels repo/aiter/ops/triton
cat > repo/csrc/kernels/scale.cu <<'CU'
__global__ void scale_rows(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows) return;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[r * cols + c] = 2.0f * x[r * cols + c];
}
CU
cat > repo/aiter/ops/triton/scale.py <<'PY'
import triton
import triton.language as tl


@triton.jit
def _scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
PY
commit_all repo base
sed -i 's/if (r >= rows) return;/\/\/ rows checked by the caller/' repo/csrc/kernels/scale.cu
sed -i 's/\* 2, mask/* 3, mask/' repo/aiter/ops/triton/scale.py

(cd repo && REVIEW_LSP_TIMING=1 "$BIN" check >/dev/null 2>"$TMPD/timing.txt")
t=$(cat timing.txt)
expect_contains check-times-the-derivation "$t" "review-lsp: derive "
expect_contains check-says-which-files-ran "$t" "review-lsp: collector guards "
expect_contains check-counts-runs-and-cache-hits "$t" "(files: 2 run, 0 cached;"
expect_contains check-times-parsing-apart "$t" "review-lsp: parse "
expect_contains a-python-only-collector-reads-one-file "$t" "review-lsp: collector triton_masks"
# `rules` prints the derivation only: no collector runs for it
(cd repo && REVIEW_LSP_TIMING=1 "$BIN" rules >/dev/null 2>"$TMPD/rules-timing.txt")
r=$(cat rules-timing.txt)
expect_contains rules-times-the-derivation "$r" "review-lsp: derive "
expect_not_contains rules-runs-no-collector "$r" "review-lsp: collector"
# the derivation and twins (which reads only the change and the tree's files) run beside the
# collectors' per-file stages; REVIEW_LSP_PARSE_AHEAD=0 reviews on one thread, all of it
expect_eq derive-runs-beside-the-collectors "$(grep -c 'review-lsp: derive .* ms (beside the collectors)' timing.txt)" "1"
expect_contains twins-runs-beside-the-stages "$t" "(whole change, beside the per-file stages)"
(cd repo && REVIEW_LSP_PARSE_AHEAD=0 REVIEW_LSP_TIMING=1 "$BIN" check >/dev/null 2>"$TMPD/one.txt")
expect_eq one-thread-derives-in-line "$(grep -c 'beside the collectors' one.txt)" "0"
expect_eq one-thread-runs-twins-at-its-turn "$(grep -c 'beside the per-file stages' one.txt)" "0"
expect_contains one-thread-still-runs-twins "$(cat one.txt)" "review-lsp: collector twins "
(cd repo && "$BIN" check >/dev/null 2>"$TMPD/quiet.txt")
expect_eq without-the-variable-nothing "$(grep -c 'review-lsp: derive' quiet.txt)" "0"

# The server: a second review after an edit of the .cu file runs only that file's stages.
timed_server_edits "$TMPD/repo" csrc/kernels/scale.cu cuda 1 || fail server-session "the session failed"
last=$(awk '/review-lsp: review /{n++; next} {print n " " $0}' server.txt | awk -v m="$(grep -c 'review-lsp: review ' server.txt)" '$1 == m - 1' )
expect_eq edit-reruns-the-edited-file-only \
  "$(printf '%s\n' "$last" | grep -cE 'collector guards [0-9.]+ ms \(files: 1 run, 1 cached;')" 1
expect_eq edit-leaves-python-collectors-cached \
  "$(printf '%s\n' "$last" | grep -cE 'collector triton_masks [0-9.]+ ms \(files: 0 run, 1 cached;')" 1
