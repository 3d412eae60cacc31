"""Benchmarks of the language server on a synthetic aiter-shaped tree (bench/gen_tree.py),
driven over real pipes: the keystroke path, cold start against `git diff --stat`, a branch
switch, peak RSS and idle CPU. Prints one line per figure.

usage: lsp_bench.py BINARY TREE [--edits 200] [--runs 5] [--idle 30]"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "watch"))
from lsp_session import Session  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stats import pct, vm_hwm  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("binary")
p.add_argument("tree")
p.add_argument("--edits", type=int, default=200)
p.add_argument("--runs", type=int, default=5)
p.add_argument("--idle", type=int, default=30)
a = p.parse_args()
tree = os.path.realpath(a.tree)
CAPS = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}



def git(*args):
    subprocess.run(["git", "-C", tree] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def proc_stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")



def quiet(s, cpu_quiet=1.0, timeout=600):
    """Settled: no publish for a while and the server's CPU time has stopped growing (a review
    that reproduces identical diagnostics publishes nothing, so publishes alone can't tell)."""
    end = time.monotonic() + timeout
    s.settle(quiet=1.0, timeout=timeout)
    last, since = proc_stat(s.proc.pid), time.monotonic()
    while time.monotonic() < end:
        s.pump(0.1)
        now = proc_stat(s.proc.pid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= cpu_quiet:
            return
    raise TimeoutError("server never went quiet")


changed = subprocess.run(["git", "-C", tree, "diff", "--name-only", "main"], check=True,
                         capture_output=True, text=True).stdout.split()

# --- cold start vs git diff --stat ---------------------------------------------------------
cold, gitstat = [], []
for _ in range(a.runs):
    t0 = time.monotonic()
    subprocess.run(["git", "-C", tree, "diff", "--stat", "main"], check=True, stdout=subprocess.DEVNULL)
    gitstat.append(time.monotonic() - t0)
    t0 = time.monotonic()
    s = Session(a.binary, tree, {"debounceMs": 0})
    while not all(c in s.diags for c in changed):
        if not s.pump(60):
            raise TimeoutError("first publish never completed")
    cold.append(s.last_publish - t0)
    s.close()
print("cold start, %d-file change on %s files: median %.1f ms (git diff --stat: median %.1f ms; ratio %.2f)"
      % (len(changed), subprocess.run(["git", "-C", tree, "ls-files"], capture_output=True,
                                      text=True).stdout.count("\n"),
         1000 * statistics.median(cold), 1000 * statistics.median(gitstat),
         statistics.median(cold) / statistics.median(gitstat)))

# --- keystroke path -------------------------------------------------------------------------
s = Session(a.binary, tree, {"debounceMs": 0}, CAPS)
quiet(s)
big = "csrc/kernels/big_kernel.cu"
uri = "file://" + os.path.join(tree, big)
text = open(os.path.join(tree, big)).read()
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
lat = []
line = 5
for i in range(a.edits):
    ins = i % 2 == 0
    edit = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0 if ins else 1}},
            "text": " " if ins else ""}
    t0 = time.monotonic()
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [edit]})
    r = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    lat.append(time.monotonic() - t0)
    assert "result" in r, r
print("keystroke, didChange on a %d-line kernel file to diagnostics (debounce 0, %d edits): median %.2f ms, p99 %.2f ms"
      % (text.count("\n"), a.edits, 1000 * statistics.median(lat), 1000 * pct(lat, 0.99)))

print("peak RSS after cold start and the keystroke run: %.1f MiB" % vm_hwm(s.proc.pid))

# --- branch switch --------------------------------------------------------------------------
git("stash", "-q")
t0 = time.monotonic()
git("checkout", "-q", "wide")
quiet(s)
switch = s.last_publish - t0
nfiles = len([f for f, d in s.diags.items() if d])
wide = subprocess.run(["git", "-C", tree, "diff", "--name-only", "main", "wide"], check=True,
                      capture_output=True, text=True).stdout.split()
print("branch switch touching %d files: settled diagnostics after %.0f ms (%d files with diagnostics)"
      % (len(wide), 1000 * switch, nfiles))
git("checkout", "-q", "feature")
git("stash", "pop", "-q")
quiet(s)

# --- idle CPU and peak RSS ------------------------------------------------------------------
c0 = proc_stat(s.proc.pid)
time.sleep(a.idle)
c1 = proc_stat(s.proc.pid)
print("idle CPU over %d s with nothing changing: %.3f s of CPU (%.3f%%)" % (a.idle, c1 - c0, 100 * (c1 - c0) / a.idle))
print("peak RSS over the keystroke, branch-switch and idle runs: %.1f MiB" % vm_hwm(s.proc.pid))
s.close()
