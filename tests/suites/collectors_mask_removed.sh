# triton_masks: a change that takes the mask= off a load or store is a T1 finding even where
# the offsets look like a whole constexpr block (the softmax shape: BLOCK = next_power_of_2
# of a runtime row length), and a call whose mask stays is quiet.
. "$ROOT/tests/lib.sh"
cd "$TMPD"
new_repo mr
mkdir -p mr/aiter/ops/triton
cat > mr/aiter/ops/triton/rownorm.py <<'P'
import triton
import triton.language as tl


@triton.jit
def _rownorm(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + offs, x / tl.sum(x, axis=0), mask=mask)
P
commit_all mr base
cat > mr/aiter/ops/triton/rownorm.py <<'P'
import triton
import triton.language as tl


@triton.jit
def _rownorm(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs)
    tl.store(y_ptr + row * n_cols + offs, x / tl.sum(x, axis=0), mask=offs < n_cols)
P
out=$(cd mr && "$BIN" check)
expect_contains mask-removed-load "$out" "aiter/ops/triton/rownorm.py:9:9: warning [T1] \`tl.load\` with no mask=: this change removed its mask="
expect_not_contains mask-kept-store-quiet "$out" "rownorm.py:10:5: warning [T1]"
