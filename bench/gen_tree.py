"""Generates a synthetic git repository shaped like aiter for the benchmarks: HIP kernels under
csrc/kernels, headers under csrc/include included widely (some structs pinned by
static_assert/offsetof), Python wrappers and Triton kernels under aiter/ops, tests under
op_tests, plus one 2,000-line kernel file. Commits it on `main`, then makes a `feature` branch
with a change of CHANGE files left uncommitted, and a `wide` branch that differs from main in
WIDE files (for the branch-switch benchmark).

usage: gen_tree.py DIR [--files 5000] [--change 10] [--wide 1000]"""
import argparse
import os
import random
import subprocess

p = argparse.ArgumentParser()
p.add_argument("dir")
p.add_argument("--files", type=int, default=5000)
p.add_argument("--change", type=int, default=10)
p.add_argument("--wide", type=int, default=1000)
a = p.parse_args()
rnd = random.Random(7)
root = os.path.abspath(a.dir)


def write(rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def git(*args):
    subprocess.run(["git", "-C", root] + list(args), check=True, stdout=subprocess.DEVNULL)


def header(i):
    pinned = i % 10 == 0
    body = "#pragma once\n#include <cstdint>\n#include <cstddef>\n"
    body += "struct kargs_%d {\n    const void* in_ptr;\n    void* out_ptr;\n    int32_t n;\n    int32_t stride;\n};\n" % i
    if pinned:
        body += "static_assert(sizeof(kargs_%d) == 24, \"shared with asm\");\n" % i
        body += "static_assert(offsetof(kargs_%d, n) == 16, \"pinned\");\n" % i
    return body


def kernel(i, lines=40):
    inc = "".join('#include "h%d.h"\n' % rnd.randrange(0, 300) for _ in range(3))
    out = [inc]
    fn = 0
    while len("".join(out).splitlines()) < lines:
        out.append(
            "__global__ void kern_%d_%d(const float* x, float* y, int n, int stride) {\n"
            "    int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (tid >= n) return;\n"
            "    int off = tid * stride + %d;\n"
            "    y[off] = x[off] * 2.0f;\n"
            "}\n\n" % (i, fn, fn))
        fn += 1
    return "".join(out)


def triton(i):
    return ("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
            "def _k%d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
            "    pid = tl.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
            "    mask = offs < n\n    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n"
            "    tl.store(y_ptr + offs, x * 2, mask=mask)\n" % i)


def op(i):
    return ("import torch\n\n\ndef op_%d(x, y=None):\n    assert x.is_contiguous()\n"
            "    out = torch.empty_like(x)\n    return out\n" % i)


def test(i):
    return ("import torch\nimport pytest\n\n\n@pytest.mark.parametrize('n', [128, 4096])\n"
            "def test_op_%d(n):\n    x = torch.randn(n)\n    torch.testing.assert_close(x, x)\n" % i)


os.makedirs(root, exist_ok=True)
git("init", "-q", "-b", "main")
git("config", "user.email", "bench@example.com")
git("config", "user.name", "bench")
n = a.files
counts = {"h": 300, "cu": int(n * 0.3), "tri": int(n * 0.24), "op": int(n * 0.1)}
counts["test"] = n - sum(counts.values()) - 1
for i in range(counts["h"]):
    write("csrc/include/h%d.h" % i, header(i))
for i in range(counts["cu"]):
    write("csrc/kernels/k%d.cu" % i, kernel(i))
for i in range(counts["tri"]):
    write("aiter/ops/triton/t%d.py" % i, triton(i))
for i in range(counts["op"]):
    write("aiter/ops/op%d.py" % i, op(i))
for i in range(counts["test"]):
    write("op_tests/test_op%d.py" % i, test(i))
write("csrc/kernels/big_kernel.cu", kernel(99999, 2000))
git("add", "-A")
git("commit", "-q", "-m", "base")

# wide: a branch that rewrites WIDE kernel files
git("checkout", "-q", "-b", "wide")
for i in range(min(a.wide, counts["cu"])):
    write("csrc/kernels/k%d.cu" % i, kernel(i) + "// wide %d\n" % i)
git("commit", "-q", "-am", "wide change")
git("checkout", "-q", "main")

# feature: an uncommitted change of CHANGE files, including the big kernel
git("checkout", "-q", "-b", "feature")
changed = ["csrc/kernels/big_kernel.cu"] + ["csrc/kernels/k%d.cu" % i for i in range(1, a.change // 2)]
changed += ["aiter/ops/op%d.py" % i for i in range(a.change - len(changed))]
for rel in changed:
    path = os.path.join(root, rel)
    text = open(path).read()
    if rel.endswith(".cu"):
        text = text.replace("int off = tid * stride", "int64_t off = (int64_t)tid * stride", 3)
    else:
        text = text.replace("    assert x.is_contiguous()\n", "")
    write(rel, text)
print(root)
