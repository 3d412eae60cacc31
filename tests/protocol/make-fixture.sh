# Builds the repository the protocol transcripts run on (sourced by the suites, after
# tests/lib.sh): a committed kernel file changed in the work tree on a line holding CJK, an
# emoji and a combining accent (0-based line 3: 41 UTF-16 units, 48 bytes), plus an unchanged
# Python file. Usage: make_fixture DIR
make_fixture() {
  new_repo "$1"
  mkdir -p "$1/csrc/kernels" "$1/aiter/ops"
  printf '// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 1.0f;\n}\n' > "$1/csrc/kernels/attn.cu"
  printf 'def act(x):\n    return x\n' > "$1/aiter/ops/act.py"
  commit_all "$1" "base"
  printf '// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 2.0f; // \346\227\245\346\234\254 \360\237\230\200 e\314\201\n}\n' > "$1/csrc/kernels/attn.cu"
}
