"""Side by side with the original pipeline: review-lsp's `check --diff` against the original
triage.py (rules and its collectors) on real aiter pull requests, both timed in one run as whole
processes, per PR and in total.

Each PR is prepared as bench/precision/ledger.py prepares it (the diff from the merge base of
the PR head with main to the PR head, the PR head checked out into WORK as the root, the head
commit's subject as the title); preparing is not timed. Then, timed:

  ours:     review-lsp check --diff D --root WORK --title T           (one process)
  original: triage.py rules D T; guards D; siblings D WORK; flydslbounds D WORK;
            aotpair D WORK; symbols D WORK; structabi D WORK; citest D WORK; twins D WORK;
            kerneltest D; testquality D; commentonly D                 (one process each)

usage: vs_original.py BINARY AITER_GIT TRIAGE_PY WORK [--prs FILE] [--n 30] [--seed 19]
                      [--only N ...]
AITER_GIT: a clone with PR heads at refs/pull/N/head; TRIAGE_PY: the original triage.py where
it resolves its own tree (four folders deep); WORK: a worktree of AITER_GIT this may check out
into (`git -C AITER_GIT worktree add --detach WORK main`). Nothing of aiter is committed."""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ORIGINAL_STEPS = [  # (subcommand, takes the root)
    ("guards", False), ("siblings", True), ("flydslbounds", True), ("aotpair", True),
    ("symbols", True), ("structabi", True), ("citest", True), ("twins", True),
    ("kerneltest", False), ("testquality", False), ("commentonly", False),
]


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout


def timed(argv, cwd):
    """CPU seconds (user + system) and wall seconds of one whole process, output dropped."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t0, ru.ru_utime + ru.ru_stime


def read_prs(path):
    with open(path) as f:
        return [int(l.split("#")[0]) for l in f if l.split("#")[0].strip()]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("aiter")
    p.add_argument("triage")
    p.add_argument("work")
    p.add_argument("--prs", default=os.path.join(HERE, "precision", "prs.txt"))
    p.add_argument("--n", type=int, default=30)
    p.add_argument("--seed", type=int, default=19)
    p.add_argument("--only", type=int, nargs="*")
    a = p.parse_args()
    binary = os.path.abspath(a.binary)
    prs = a.only or sorted(random.Random(a.seed).sample(read_prs(a.prs), a.n))
    tmp = tempfile.mkdtemp(prefix="vs-original.")
    rows = []
    print("PR      files  lines   ours wall/CPU ms   original wall/CPU ms   ratio (wall)")
    for n in prs:
        head = git(a.aiter, "rev-parse", "refs/pull/%d/head" % n).decode().strip()
        base = git(a.aiter, "merge-base", head, "main", check=False).decode().strip()
        if not base:
            continue
        diff = git(a.aiter, "diff", "--no-color", "--no-ext-diff", base, head)
        d = os.path.join(tmp, "%d.diff" % n)
        with open(d, "wb") as f:
            f.write(diff)
        title = git(a.aiter, "log", "-1", "--format=%s", head).decode().strip()
        git(a.work, "checkout", "-q", "--detach", "-f", head)
        git(a.work, "clean", "-qfdx")
        stat = git(a.aiter, "diff", "--numstat", base, head).decode().splitlines()
        nfiles = len(stat)
        nlines = sum(int(x) for l in stat for x in l.split("\t")[:2] if x.isdigit())
        ow, oc = timed([binary, "check", "--diff", d, "--root", a.work, "--title", title], a.work)
        tw, tc = timed([sys.executable, a.triage, "rules", d, title], a.work)
        for step, root in ORIGINAL_STEPS:
            w, c = timed([sys.executable, a.triage, step, d] + ([a.work] if root else []), a.work)
            tw += w
            tc += c
        rows.append((n, nfiles, nlines, ow, oc, tw, tc))
        print("%-7d %5d %6d   %7.0f / %-7.0f   %8.0f / %-8.0f   %6.1fx"
              % (n, nfiles, nlines, 1e3 * ow, 1e3 * oc, 1e3 * tw, 1e3 * tc, tw / ow), flush=True)
    if not rows:
        return
    ratios = [r[5] / r[3] for r in rows]
    slow = max(rows, key=lambda r: r[3])
    print("%d PRs: ours %.2f s wall (%.2f s CPU) in total, original %.2f s wall (%.2f s CPU); "
          "per PR the original takes median %.1fx ours (min %.1fx); ours median %.0f ms, slowest "
          "%.0f ms (aiter#%d, %d files), %d PR(s) over 200 ms"
          % (len(rows), sum(r[3] for r in rows), sum(r[4] for r in rows),
             sum(r[5] for r in rows), sum(r[6] for r in rows), statistics.median(ratios),
             min(ratios), 1e3 * statistics.median(r[3] for r in rows), 1e3 * slow[3], slow[0],
             slow[1], sum(1 for r in rows if r[3] > 0.2)))


if __name__ == "__main__":
    main()
