"""How T2's follow-up of a masked load grows with the locals computed from it: a Triton kernel
added by a change, whose masked load (no other=) feeds N locals, each the sum of the three before
it (FAN before it with --fan), and whose reduction reads none of them (so every path is followed
to the depth limit). For each N, a repository with that change is reviewed (`check`, whole process), and the median of
RUNS runs and the triton_masks collector's own time (REVIEW_LSP_TIMING) are printed. Without a
kept answer per (local, depth) the work grows as the number of paths between the locals (about
FAN^6 scans of the kernel per load); with it, as N scans.

  t2_local_mesh.py BIN [--sizes 4 8 16 32 64] [--fan 3] [--runs 5]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("bin")
p.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32, 64])
p.add_argument("--fan", type=int, default=3)
p.add_argument("--runs", type=int, default=5)
a = p.parse_args()
BIN = os.path.abspath(a.bin)


def kernel(n):
    lines = ["@triton.jit",
             "def _mesh(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):",
             "    pid = tl.program_id(0)",
             "    offs = pid * BLOCK + tl.arange(0, BLOCK)",
             "    inb = offs < n",
             "    t0 = tl.load(x_ptr + offs, mask=inb)",
             "    w = tl.load(w_ptr + offs, mask=inb, other=0.0)"]
    for i in range(1, n + 1):
        terms = ["t%d" % k for k in range(max(0, i - a.fan), i)]
        lines.append("    t%d = %s * w" % (i, " + ".join(terms)))
    lines.append("    peak = tl.max(w, axis=0)")
    lines.append("    tl.store(out_ptr + pid, tl.sum(t%d, axis=0) + peak)" % n)
    return "\n".join(lines) + "\n"


def git(repo, *args):
    subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.DEVNULL)


HEAD = "import triton\nimport triton.language as tl\n\n\n"
with tempfile.TemporaryDirectory() as tmp:
    print("locals (each from %d before)  check median (ms)  triton_masks (ms)" % a.fan)
    for n in a.sizes:
        repo = os.path.join(tmp, "r%d" % n)
        os.makedirs(os.path.join(repo, "aiter/ops/triton"))
        path = os.path.join(repo, "aiter/ops/triton/mesh.py")
        with open(path, "w") as f:
            f.write(HEAD)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "user.email", "b@e")
        git(repo, "config", "user.name", "b")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        with open(path, "a") as f:
            f.write(kernel(n))
        walls, own = [], []
        for _ in range(a.runs):
            t0 = time.monotonic()
            r = subprocess.run([BIN, "check"], cwd=repo, capture_output=True, text=True,
                               env=dict(os.environ, REVIEW_LSP_TIMING="1"))
            walls.append(1000 * (time.monotonic() - t0))
            m = re.search(r"collector triton_masks ([0-9.]+) ms", r.stderr)
            own.append(float(m.group(1)) if m else float("nan"))
        print("%27d  %19.1f  %17.1f" % (n, statistics.median(walls), statistics.median(own)))
