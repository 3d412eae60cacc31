# The Node client scenario (tests/node-client): review-lsp driven by vscode-jsonrpc and
# vscode-languageserver-protocol from npm, as VS Code's client would, on a multi-root workspace
# of two real git repositories.
# The npm packages (pinned in package-lock.json) are installed on first use.
. "$ROOT/tests/lib.sh"

DIR="$ROOT/tests/node-client"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  fail setup "node and npm are required"; exit 0
fi
if [ ! -d "$DIR/node_modules/vscode-languageserver-protocol" ]; then
  (cd "$DIR" && npm ci --no-audit --no-fund >"$TMPD/npm.log" 2>&1) || {
    fail npm-install "npm ci failed:" "$(tail -5 "$TMPD/npm.log")"; exit 0; }
fi

WS="$TMPD/ws"
new_repo "$WS"
mkdir -p "$WS/csrc/kernels"
printf '// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 1.0f;\n}\n' > "$WS/csrc/kernels/attn.cu"
commit_all "$WS" base
printf '// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 2.0f; // \346\227\245\346\234\254 \360\237\230\200 e\314\201\n}\n' > "$WS/csrc/kernels/attn.cu"

# A second repository for the multi-root workspace: a Triton wrapper whose guard is deleted.
WS2="$TMPD/second"
new_repo "$WS2"
mkdir -p "$WS2/aiter/ops/triton"
printf 'import triton\n\n\ndef scale(x):\n    assert x.is_contiguous()\n    return x\n' > "$WS2/aiter/ops/triton/scale.py"
commit_all "$WS2" base
printf 'import triton\n\n\ndef scale(x):\n    return x * 2\n' > "$WS2/aiter/ops/triton/scale.py"

node "$DIR/client.js" "$BIN" "$WS" "$WS2"
exit 0
