"""Times two review-lsp binaries against each other on the same aiter pull requests: the
packet, runs alternating between the binaries so that a machine whose speed drifts over minutes
weighs on both alike, and the median of each binary's runs per PR and mode. A step meant to
change only speed must leave the packet as it was: each PR's line says whether the two
binaries' packets (their last runs) are byte for byte the same.

  packet_paired.py AITER_GIT WT --old BIN --new BIN [--runs 5] [--mode diff|repo|both]
                   [--out build/packet-paired] PR...

Each PR is reviewed as bench/packet_bench.py reviews it (the diff from the merge base of the PR
head with main, the head checked out in the worktree WT, the head commit's subject as the
title); see that file for the two modes' commands. WT is a worktree of the clone made by you
(`git -C AITER_GIT worktree add --detach WT main`), never inside this repository."""
import argparse
import os
import statistics
import sys

from packet_bench import REPO, git, merge_base_diff, timed


def packet_differences(a, b):
    """The files of two packet directories whose bytes differ (or that only one has)."""
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    differ = []
    for name in names:
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not (os.path.isfile(pa) and os.path.isfile(pb)):
            differ.append(name)
            continue
        with open(pa, "rb") as fa, open(pb, "rb") as fb:
            if fa.read() != fb.read():
                differ.append(name)
    return differ


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("aiter")
    ap.add_argument("worktree")
    ap.add_argument("prs", nargs="+", type=int)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", choices=("diff", "repo", "both"), default="diff")
    ap.add_argument("--out", default=os.path.join(REPO, "build", "packet-paired"))
    a = ap.parse_args()
    wt, out = os.path.abspath(a.worktree), os.path.abspath(a.out)
    bins = {"old": os.path.abspath(a.old), "new": os.path.abspath(a.new)}
    os.makedirs(out, exist_ok=True)
    modes = ("diff", "repo") if a.mode == "both" else (a.mode,)
    print("load average before: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    for n in a.prs:
        head, diff = merge_base_diff(a, n)
        if diff is None:
            print("PR %d: no merge base with main, not timed" % n)
            continue
        dpath = os.path.join(out, "%d.diff" % n)
        with open(dpath, "wb") as f:
            f.write(diff)
        title = git(a.aiter, "log", "-1", "--format=%s", head).decode().strip()
        git(wt, "checkout", "-q", "--detach", "-f", head)
        git(wt, "clean", "-qfdx")
        for mode in modes:
            times = {"old": [], "new": []}
            for _ in range(a.runs):
                for which in ("old", "new"):
                    pdir = os.path.join(out, "%d-%s-%s" % (n, mode, which))
                    if mode == "diff":
                        dt, r = timed([bins[which], "packet", wt, "--diff", dpath, "--root", wt,
                                       "--base", "main", "--title", title, "--out", pdir])
                    else:
                        dt, r = timed([bins[which], "packet", "--base", "main", "--title", title,
                                       "--out", pdir], cwd=wt)
                    if r.returncode != 0:
                        print("PR %d %s %s: exit %d" % (n, mode, which, r.returncode))
                    times[which].append(dt)
            mo, mn = statistics.median(times["old"]), statistics.median(times["new"])
            differ = packet_differences(os.path.join(out, "%d-%s-old" % (n, mode)),
                                        os.path.join(out, "%d-%s-new" % (n, mode)))
            print("PR %5d  %s mode  old median %.3f s  new median %.3f s  (%+.0f%%)  packets %s"
                  % (n, mode, mo, mn, 100.0 * (mn - mo) / mo,
                     "the same" if not differ else "DIFFER: " + " ".join(differ)), flush=True)
    print("load average after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
