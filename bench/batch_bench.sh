#!/bin/sh
# Batch budget: derivation plus every collector on a diff of about 1,000 lines
# (`check --diff --root`), median of 11 runs. Usage: batch_bench.sh BIN
set -eu
BIN=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import os, subprocess, sys
root = sys.argv[1]
repo = os.path.join(root, "repo")
os.makedirs(os.path.join(repo, "csrc/kernels"))
os.makedirs(os.path.join(repo, "aiter/ops/triton"))
def w(rel, text):
    with open(os.path.join(repo, rel), "w") as f:
        f.write(text)
def kern(i, n):
    return "".join("__global__ void k%d_%d(const float* x, float* y, int n, int s) {\n"
                   "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= n) return;\n"
                   "    y[t * s + %d] = x[t * s];\n}\n\n" % (i, j, j) for j in range(n))
for i in range(4):
    w("csrc/kernels/k%d.cu" % i, kern(i, 21))
for i in range(4):
    w("aiter/ops/triton/t%d.py" % i, "".join(
        "@triton.jit\ndef _k%d_%d(x_ptr, n, BLOCK: tl.constexpr):\n    pid = tl.program_id(0)\n"
        "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs, mask=offs < n)\n"
        "    tl.store(x_ptr + offs, x, mask=offs < n)\n\n" % (i, j) for j in range(14)))
g = lambda *a: subprocess.run(["git", "-C", repo] + list(a), check=True, stdout=subprocess.DEVNULL)
g("init", "-q", "-b", "main"); g("config", "user.email", "b@e"); g("config", "user.name", "b")
g("add", "-A"); g("commit", "-q", "-m", "base")
for i in range(4):
    p = os.path.join(repo, "csrc/kernels/k%d.cu" % i)
    t = open(p).read().replace("y[t * s", "y[(int64_t)t * s").replace("    if (t >= n) return;\n", "")
    open(p, "w").write(t)
    p = os.path.join(repo, "aiter/ops/triton/t%d.py" % i)
    open(p, "w").write(open(p).read().replace(", mask=offs < n)", ")"))
d = subprocess.run(["git", "-C", repo, "diff"], check=True, capture_output=True, text=True).stdout
open(os.path.join(root, "change.diff"), "w").write(d)
open(os.path.join(root, "lines"), "w").write(str(d.count("\n")))
PY
i=0
: > "$tmp/times"
while [ $i -lt 11 ]; do
  s=$(date +%s%N)
  "$BIN" check --diff "$tmp/change.diff" --root "$tmp/repo" >/dev/null
  e=$(date +%s%N)
  echo $(( (e - s) / 1000 )) >> "$tmp/times"
  i=$((i + 1))
done
sort -n "$tmp/times" | awk -v lines="$(cat "$tmp/lines")" '{a[NR]=$1} END {printf "batch: check --diff on a %d-line diff (derivation and every collector, whole process): median %.1f ms over %d runs\n", lines, a[int((NR+1)/2)]/1000, NR}'
