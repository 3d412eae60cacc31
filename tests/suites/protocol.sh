# Protocol transcripts (tests/protocol/*.t) played against the sanitizer build over real pipes,
# on a real git repository built here: a committed kernel file changed in the work tree on a
# line holding CJK, an emoji and a combining accent, plus an unchanged Python file.
. "$ROOT/tests/lib.sh"

if ! command -v node >/dev/null 2>&1; then
  fail node "node is required for the protocol transcripts"; exit 0
fi

FIX="$TMPD/fixture"
new_repo "$FIX"
mkdir -p "$FIX/csrc/kernels" "$FIX/aiter/ops"
cat > "$FIX/csrc/kernels/attn.cu" <<'SRC'
// Attention kernel used by the protocol tests.
__global__ void attn_kernel(float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = 1.0f;
}
SRC
cat > "$FIX/aiter/ops/act.py" <<'SRC'
def act(x):
    return x
SRC
commit_all "$FIX" "base"
# The change: line 4 of the kernel (0-based line 3) with non-ASCII text after the code.
printf '// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 2.0f; // \346\227\245\346\234\254 \360\237\230\200 e\314\201\n}\n' > "$FIX/csrc/kernels/attn.cu"

node "$ROOT/tests/protocol/runner.js" --bin "$BIN" --fixture "$FIX" --tmp "$TMPD/runs" "$ROOT"/tests/protocol/*.t
exit 0
