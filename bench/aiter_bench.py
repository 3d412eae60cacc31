"""Benchmarks on a real aiter checkout (ROCm/aiter, fetched on this machine, never committed),
driven the way a new user would meet the tool: the checkout holds an uncommitted change (the
issue's case: e4048607's parent with e4048607 re-applied, a 5-file change), and the figures are

  - batch: `review-lsp check --base HEAD` on that change, whole process, wall and CPU time,
    beside `git diff --stat` on the same tree;
  - cold start: `initialize` to the last first publish, beside `git diff --stat`;
  - keystroke: `didChange` to pulled diagnostics (debounce 0) on a C++/HIP kernel file and on a
    Triton kernel file, a space typed at the end of a line inside a kernel and taken back;
  - the server's peak RSS over all of it.

usage: aiter_bench.py BINARY AITER [--edits 200] [--runs 5] [--cu PATH] [--py PATH]
(PATHs relative to AITER; `make bench AITER=/path/to/aiter` runs it after the synthetic tree.)"""
import argparse
import os
import resource
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
p.add_argument("aiter")
p.add_argument("--edits", type=int, default=200)
p.add_argument("--runs", type=int, default=5)
p.add_argument("--cu", default="csrc/kernels/inverse_rope_group_quant.cu")
p.add_argument("--py", default="aiter/ops/triton/_triton_kernels/attention/pa_decode.py")
a = p.parse_args()
tree = os.path.realpath(a.aiter)
binary = os.path.abspath(a.binary)
CAPS = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}



def timed(argv):
    """Wall and CPU seconds (user + system) of one whole process, its output dropped."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError("%s exited %d" % (argv, os.waitstatus_to_exitcode(status)))
    return wall, ru.ru_utime + ru.ru_stime



def git_stat():
    return timed(["git", "-C", tree, "diff", "--stat", "HEAD"])


changed = subprocess.run(["git", "-C", tree, "diff", "--name-only", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.split()
if not changed:
    sys.exit("aiter_bench: %s has no uncommitted change to review" % tree)
lines = sum(int(x) for l in subprocess.run(["git", "-C", tree, "diff", "--numstat", "HEAD"],
                                            check=True, capture_output=True, text=True).stdout.splitlines()
            for x in l.split("\t")[:2] if x.isdigit())
print("aiter checkout %s: %d-file change, %d changed lines" % (tree, len(changed), lines))

# --- batch check, whole process -------------------------------------------------------------
walls, cpus, gwalls = [], [], []
for _ in range(a.runs):
    gwalls.append(git_stat()[0])
    w, c = timed([binary, "check", "--base", "HEAD"])
    walls.append(w)
    cpus.append(c)
print("batch: check --base HEAD, whole process: median %.0f ms wall, %.0f ms CPU "
      "(git diff --stat: median %.0f ms wall) over %d runs"
      % (1000 * statistics.median(walls), 1000 * statistics.median(cpus),
         1000 * statistics.median(gwalls), a.runs))
print("batch: peak RSS of the check processes: %.1f MiB"
      % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0))

# --- cold start -----------------------------------------------------------------------------
cold, gitstat = [], []
for _ in range(a.runs):
    gitstat.append(git_stat()[0])
    t0 = time.monotonic()
    s = Session(binary, tree, {"debounceMs": 0})
    while not all(c in s.diags for c in changed):
        if not s.pump(120):
            raise TimeoutError("first publish never completed")
    cold.append(s.last_publish - t0)
    s.close()
print("cold start, %d-file change: median %.0f ms (git diff --stat: median %.0f ms; ratio %.1f)"
      % (len(changed), 1000 * statistics.median(cold), 1000 * statistics.median(gitstat),
         statistics.median(cold) / statistics.median(gitstat)))


# --- keystrokes -----------------------------------------------------------------------------
def edit_line(text, lang):
    """A line near the middle of the file inside a kernel body: an indented code line."""
    ls = text.split("\n")
    mid = len(ls) // 2
    for off in range(len(ls)):
        for i in (mid + off, mid - off):
            if 0 <= i < len(ls):
                l = ls[i]
                if l.startswith(("    ", "\t")) and l.strip() and not l.strip().startswith(("#", "//")):
                    return i, len(l)
    return 0, 0


def keystrokes(s, rel, lang):
    uri = "file://" + os.path.join(tree, rel)
    text = open(os.path.join(tree, rel)).read()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1,
                                                       "text": text}})
    s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=120)
    line, col = edit_line(text, lang)
    lat = []
    for i in range(a.edits):
        ins = i % 2 == 0
        edit = {"range": {"start": {"line": line, "character": col},
                          "end": {"line": line, "character": col if ins else col + 1}},
                "text": " " if ins else ""}
        t0 = time.monotonic()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2},
                                            "contentChanges": [edit]})
        r = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=120)
        lat.append(time.monotonic() - t0)
        assert "result" in r, r
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    print("keystroke on %s (%d lines, %s the change), didChange to diagnostics (debounce 0, %d "
          "edits at line %d): median %.2f ms, p99 %.2f ms"
          % (rel, text.count("\n"), "in" if rel in changed else "not in", a.edits, line + 1,
             1000 * statistics.median(lat), 1000 * pct(lat, 0.99)))


s = Session(binary, tree, {"debounceMs": 0}, CAPS)
while not all(c in s.diags for c in changed):
    if not s.pump(120):
        raise TimeoutError("first publish never completed")
keystrokes(s, a.cu, "cuda")
keystrokes(s, a.py, "python")
print("server peak RSS over the cold start and the keystroke runs: %.1f MiB" % vm_hwm(s.proc.pid))
s.close()
