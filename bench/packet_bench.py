"""Times `review-lsp packet` on real aiter pull requests (budget: under 1 s per PR).

Each PR is reviewed as bench/precision/ledger.py reviews it: the diff from the merge base of
the PR head with the clone's main to the PR head, the PR head checked out as the head tree, the
head commit's subject as the title. Three runs per PR, each timed as a whole process:

  diff mode:  packet WT --diff PR.diff --root WT --base main --title T --out DIR
  repo mode:  (in WT) packet --base main --title T --out DIR
  check:      check --diff PR.diff --root WT --title T   (the review alone, for comparison)

WT is a worktree of the clone, made once by you (never committed, never inside this repo):
  git -C AITER_GIT worktree add --detach WT main

  packet_bench.py AITER_GIT WT [--bin build/review-lsp] [--prs bench/precision/prs.txt ...]
                  [--n 60 | --largest N] [--seed 7] [--out build/packet-bench] [--triage TRIAGE_PY]

--n times that many PRs drawn at random from the --prs files; --largest times the N whose
merge-base diffs have the most lines (the ones a budget per PR is hardest on).

--triage names the original triage.py: each packet's rules_expanded.txt is then compared, byte
for byte, with `triage.py expand rules.txt RULES_MD` for the rules file the packet used."""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, ".."))


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout


def read_prs(path):
    with open(path) as f:
        return [int(l.split("#")[0]) for l in f if l.split("#")[0].strip()]


def timed(cmd, cwd=None):
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True)
    return time.monotonic() - t0, r


def summary_line(out_dir, name):
    """What the packet's summary (its stdout) says of one file."""
    try:
        with open(os.path.join(out_dir, "summary.txt")) as f:
            for line in f:
                if line.strip().startswith(name + " "):
                    return line.strip()[len(name):].strip()
    except OSError:
        pass
    return "?"


def compare_expand(a, pdir, wt):
    """Whether rules_expanded.txt equals the original triage's expand for the same input."""
    own = os.path.join(wt, ".claude", "skills", "review-pr", "rules.md")
    used = summary_line(pdir, "rules_expanded.txt")
    md = own if own in used else os.path.join(REPO, "rules", "rules.md")
    r = subprocess.run([sys.executable, a.triage, "expand", os.path.join(pdir, "rules.txt"), md],
                       capture_output=True)
    with open(os.path.join(pdir, "rules_expanded.txt"), "rb") as f:
        return f.read() == r.stdout


def merge_base_diff(a, n):
    """PR n's head, and its diff from the merge base with main (None when there is no base)."""
    head = git(a.aiter, "rev-parse", "refs/pull/%d/head" % n).decode().strip()
    base = git(a.aiter, "merge-base", head, "main", check=False).decode().strip()
    if not base:
        return head, None
    return head, git(a.aiter, "diff", "--no-color", "--no-ext-diff", base, head)


def largest(a, prs, k):
    """The k PRs of prs whose merge-base diffs have the most lines."""
    sized = []
    for n in prs:
        _, diff = merge_base_diff(a, n)
        if diff is not None:
            sized.append((diff.count(b"\n"), n))
    sized.sort(reverse=True)
    return [n for _, n in sized[:k]]


def one_pr(a, n, wt):
    head, diff = merge_base_diff(a, n)
    if diff is None:
        return None
    dpath = os.path.join(a.out, "%d.diff" % n)
    with open(dpath, "wb") as f:
        f.write(diff)
    title = git(a.aiter, "log", "-1", "--format=%s", head).decode().strip()
    git(wt, "checkout", "-q", "--detach", "-f", head)
    git(wt, "clean", "-qfdx")
    res = {"pr": n, "lines": diff.count(b"\n")}
    dt, r = timed([a.bin, "check", "--diff", dpath, "--root", wt, "--title", title])
    res["check"] = dt
    for mode in ("diff", "repo"):
        pdir = os.path.join(a.out, "%d-%s" % (n, mode))
        if mode == "diff":
            cmd = [a.bin, "packet", wt, "--diff", dpath, "--root", wt, "--base", "main",
                   "--title", title, "--out", pdir]
            dt, r = timed(cmd)
        else:
            cmd = [a.bin, "packet", "--base", "main", "--title", title, "--out", pdir]
            dt, r = timed(cmd, cwd=wt)
        os.makedirs(pdir, exist_ok=True)
        with open(os.path.join(pdir, "summary.txt"), "wb") as f:
            f.write(r.stdout)
        res[mode] = dt
        res[mode + "_rc"] = r.returncode
        res[mode + "_files"] = len([x for x in os.listdir(pdir) if x.endswith(".txt")]) - 1
        if mode == "diff":
            res["applies"] = summary_line(pdir, "applies.txt").split(" ")[0]
            if a.triage:
                res["expand_same"] = compare_expand(a, pdir, wt)
    return res


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("aiter")
    ap.add_argument("worktree")
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "review-lsp"))
    ap.add_argument("--prs", nargs="+", default=[os.path.join(HERE, "precision", "prs.txt")])
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--largest", type=int)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(REPO, "build", "packet-bench"))
    ap.add_argument("--triage")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    a.out = os.path.abspath(a.out)
    wt = os.path.abspath(a.worktree)
    os.makedirs(a.out, exist_ok=True)
    a.load0 = " ".join(open("/proc/loadavg").read().split()[:3])
    prs = list(dict.fromkeys(n for path in a.prs for n in read_prs(path)))  # file order, once each
    if a.largest:
        chosen = largest(a, prs, a.largest)
    else:
        random.Random(a.seed).shuffle(prs)
        chosen = prs[:a.n]
    rows = []
    for n in sorted(chosen):
        r = one_pr(a, n, wt)
        if not r:
            continue
        rows.append(r)
        print("PR %5d  %6d diff lines  check %.3f s  diff mode %.3f s  repo mode %.3f s  files %d/%d"
              "  rc %d/%d  applies %s%s" % (n, r["lines"], r["check"], r["diff"], r["repo"],
                                            r["diff_files"],
                                  r["repo_files"], r["diff_rc"], r["repo_rc"], r["applies"],
                                  "" if "expand_same" not in r else
                                  "  expand %s" % ("same" if r["expand_same"] else "DIFFERS")),
              flush=True)
    print("load average before: %s; after: %s" % (a.load0, " ".join(open("/proc/loadavg").read().split()[:3])))
    for mode in ("check", "diff", "repo"):
        v = [r[mode] for r in rows]
        print("%s mode over %d PRs: median %.3f s, p90 %.3f s, max %.3f s (PR %d); %d over 1 s; "
              "%d non-zero exits" % (mode, len(v), statistics.median(v), pct(v, 90), max(v),
                                     max(rows, key=lambda r: r[mode])["pr"],
                                     sum(1 for x in v if x > 1.0),
                                     sum(1 for r in rows if r.get(mode + "_rc", 0) != 0)))
    extra = [r["diff"] - r["check"] for r in rows]
    print("packet (diff mode) minus check, per PR: median %+.3f s, max %+.3f s"
          % (statistics.median(extra), max(extra)))
    if a.triage:
        same = sum(1 for r in rows if r.get("expand_same"))
        print("rules_expanded.txt equal to the original triage's expand: %d of %d" % (same, len(rows)))


if __name__ == "__main__":
    main()
