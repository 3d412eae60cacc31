"""Where the time goes on large real pull requests: each collector's cost, per PR.

For each PR of a precision-ledger run directory (DIR/N.diff, DIR/N.title, made by
`bench/precision/ledger.py run`), the worktree WT is checked out at the PR head and
`check --diff DIR/N.diff --root WT` runs with REVIEW_LSP_TIMING=1; the script prints the
derivation, each collector's per-file and change-wide cost with the parsing it caused, the
review's total (the parse line says how long the reviewing thread waited for the second
thread), the whole process's wall time, user CPU and peak resident set, and `rules` alone
(with --packet, `packet` is timed instead of `check`). With --callgrind, it also counts
instructions (valgrind's callgrind, parsing ahead off so the count is one thread's) of the
per-file stages of flydsl_bounds, index_width, imports and siblings (and siblings' cutting of
statement units, sib_units), the change-wide stage of guards, and the whole process.

  large_pr_costs.py AITER_GIT WT --ledger DIR [--bin build/review-lsp] [--packet] [--callgrind] PR...

WT is a worktree of the clone made by you (`git -C AITER_GIT worktree add --detach WT main`),
never inside this repository.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FUNCS = ("flydsl_bounds_file", "index_width_file", "imports_file", "guards_change", "siblings_stage",
         "sib_units", "main")


class Run:
    """What one timed process did: its exit code, output, wall time and peak RSS."""


def run_timed(cmd, env):
    """Run cmd; returns (Run, user CPU seconds). The child's own rusage (wait4) gives its user
    CPU and peak resident set, whatever ran before it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        r = Run()
        r.wall = time.monotonic() - t0
        r.returncode = p.returncode
        r.peak_mib = usage.ru_maxrss / 1024.0
        out.seek(0)
        err.seek(0)
        r.stdout = out.read().decode(errors="replace")
        r.stderr = err.read().decode(errors="replace")
    return r, usage.ru_utime


def callgrind(binary, args, env):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = dict(env, REVIEW_LSP_PARSE_AHEAD="0")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary] + args,
                       env=env, capture_output=True)
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                              capture_output=True, text=True).stdout
    counts = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) .*?(\w+)\s*(\[.*\])?$", line)
        if m and m.group(2) in FUNCS and m.group(2) not in counts:
            counts[m.group(2)] = int(m.group(1).replace(",", ""))
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("aiter")
    ap.add_argument("wt")
    ap.add_argument("--ledger", required=True, help="a ledger.py run's output directory")
    ap.add_argument("--bin", default="build/review-lsp")
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--packet", action="store_true", help="time `packet` (into a scratch directory) instead of `check`")
    ap.add_argument("prs", nargs="+", type=int)
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    for pr in a.prs:
        diff = os.path.join(a.ledger, "%d.diff" % pr)
        with open(os.path.join(a.ledger, "%d.title" % pr)) as f:
            title = f.read().strip()
        subprocess.run(["git", "-C", a.wt, "checkout", "-q", "--detach", "-f", "refs/pull/%d/head" % pr],
                       check=True)
        args = ["check", "--diff", diff, "--root", a.wt, "--title", title]
        if a.packet:
            packet_dir = tempfile.mkdtemp(prefix="large-pr-packet-")
            args = ["packet", "--diff", diff, "--root", a.wt, "--base", "main", "--title", title,
                    "--out", packet_dir]
        env = dict(os.environ, REVIEW_LSP_TIMING="1")
        r, cpu = run_timed([binary] + args, env)
        if a.packet:
            shutil.rmtree(packet_dir, ignore_errors=True)
        nlines = sum(1 for _ in open(diff, errors="replace"))
        print("aiter#%d (%d diff lines, %s): wall %.2f s, user CPU %.2f s, peak RSS %.1f MiB"
              % (pr, nlines, args[0], r.wall, cpu, r.peak_mib))
        for line in r.stderr.splitlines():
            if line.startswith("review-lsp: ") and not re.search(r" 0\.\d\d ms \((files: 0|whole)", line):
                print("  " + line[len("review-lsp: "):])
        rr, rcpu = run_timed([binary, "rules", "--diff", diff, "--title", title], env)
        print("  rules alone: user CPU %.2f s%s" % (rcpu, "" if rr.returncode == 0 else " (exit %d)" % rr.returncode))
        if a.callgrind:
            counts = callgrind(binary, args, dict(os.environ))
            print("  instructions (callgrind, inclusive): " +
                  ", ".join("%s %.0fM" % (k, counts[k] / 1e6) for k in FUNCS if k in counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
