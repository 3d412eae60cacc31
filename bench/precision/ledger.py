"""The precision ledger: how often review-lsp's findings are right on real aiter history.

The judged sample lives in bench/precision/judged/RULE.tsv (one finding per line, tab-separated:
rule, PR, path, line, verdict true/false/unclear, reason — our words, no aiter code); the PRs reviewed in bench/precision/prs.txt.
This script re-runs the tool on those PRs from a clone of ROCm/aiter (fetched on this machine,
never committed; PR heads at refs/pull/N/head), draws random findings to judge, and reports per
rule: findings per 100 PRs, how many judged findings still fire, and precision. `report
--write-policy` writes rules/precision.txt, which the engine reads to decide which rules may
report at Warning (see README "Precision").

  ledger.py select AITER_GIT [--n 300] [--seed 19] [--exclude FILE]  > prs.txt
  ledger.py run AITER_GIT [--bin build/review-lsp] [--out build/precision] [--prs FILE] [--jobs 2]
  ledger.py sample --rule D9 [--n 25] [--seed 19] [--out build/precision]
  ledger.py report [--out build/precision] [--markdown] [--write-policy rules/precision.txt]
  ledger.py report --pool DIR=PRS_FILE ... [--markdown]   (several runs' PRs as one)
  ledger.py show PR [--out build/precision]           (the findings of one PR)
  ledger.py compare --out DIR --against DIR [--status] (which PRs' findings two runs disagree on)

A PR is reviewed as the original pipeline reviewed it: the diff from the merge base of the PR
head with the clone's main to the PR head (`check --diff`), the PR head's tree as `--root`, and
the head commit's subject as the title (the PR title itself is not in git)."""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
JUDGED_DIR = os.path.join(HERE, "judged")
HOLDS = os.path.join(HERE, "holds.tsv")
PRS = os.path.join(HERE, "prs.txt")
VERDICTS = ("true", "false", "unclear")
# A rule may report at Warning only when its judged precision is at least this (percent) ...
POLICY_PRECISION = 80
# ... over at least this many judged findings, or over every finding of the rule in the
# corpus when it fires less often (but never fewer than POLICY_MIN_JUDGED_RARE).
POLICY_MIN_JUDGED = 25
POLICY_MIN_JUDGED_RARE = 5


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout


def pr_numbers(repo):
    out = git(repo, "for-each-ref", "--format=%(refname)", "refs/pull").decode()
    nums = []
    for ref in out.split():
        parts = ref.split("/")
        if len(parts) == 4 and parts[3] == "head" and parts[2].isdigit():
            nums.append(int(parts[2]))
    return sorted(nums)


def pr_base_head(repo, n):
    head = git(repo, "rev-parse", "refs/pull/%d/head" % n).decode().strip()
    base = git(repo, "merge-base", head, "main", check=False).decode().strip()
    return base, head


def read_prs(path):
    prs = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                prs.append(int(line))
    return prs


def cmd_select(a):
    """Random PRs whose diff from the merge base touches reviewed code (csrc/, aiter/,
    op_tests/) and is under 20,000 changed lines."""
    exclude = set(read_prs(a.exclude)) if a.exclude else set()
    nums = [n for n in pr_numbers(a.aiter) if n not in exclude]
    rng = random.Random(a.seed)
    rng.shuffle(nums)
    picked = []
    for n in nums:
        if len(picked) >= a.n:
            break
        base, head = pr_base_head(a.aiter, n)
        if not base or base == head:
            continue
        stat = git(a.aiter, "diff", "--numstat", base, head, check=False).decode().splitlines()
        paths = [l.split("\t")[2] for l in stat if l.count("\t") >= 2]
        lines = sum(int(l.split("\t")[0]) + int(l.split("\t")[1])
                    for l in stat if l.split("\t")[0].isdigit())
        if not paths or lines > 20000:
            continue
        if not any(p.startswith(("csrc/", "aiter/", "op_tests/")) for p in paths):
            continue
        picked.append(n)
    print("# PRs reviewed by bench/precision/ledger.py: random draw, seed %d, from %s refs/pull"
          % (a.seed, os.path.basename(os.path.normpath(a.aiter))))
    for n in sorted(picked):
        print(n)


def review_one(a, n, work):
    """Check out PR n into work, review it, store out/N.json (+ .diff, .title)."""
    out = os.path.join(a.out, "%d.json" % n)
    base, head = pr_base_head(a.aiter, n)
    if not base:
        return n, "no merge base", 0.0
    diff = git(a.aiter, "diff", "--no-color", "--no-ext-diff", base, head)
    dpath = os.path.join(a.out, "%d.diff" % n)
    with open(dpath, "wb") as f:
        f.write(diff)
    title = git(a.aiter, "log", "-1", "--format=%s", head).decode().strip()
    with open(os.path.join(a.out, "%d.title" % n), "w") as f:
        f.write(title + "\n")
    git(work, "checkout", "-q", "--detach", "-f", head)
    git(work, "clean", "-qfdx")
    t0 = time.monotonic()
    r = subprocess.run([a.bin, "check", "--diff", dpath, "--root", work, "--title", title,
                        "--format", "json"], capture_output=True)
    dt = time.monotonic() - t0
    if r.returncode not in (0, 1):
        return n, "exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[:200]), dt
    doc = json.loads(r.stdout)
    doc["ledger"] = {"pr": n, "base": base, "head": head, "title": title, "seconds": dt}
    with open(out, "w") as f:
        json.dump(doc, f)
    return n, None, dt


def cmd_run(a):
    os.makedirs(a.out, exist_ok=True)
    prs = read_prs(a.prs)
    if a.only:
        prs = [n for n in prs if n in set(a.only)]
    works = []
    for j in range(a.jobs):
        w = os.path.abspath(os.path.join(a.out, "work%d" % j))
        if not os.path.isdir(w):
            git(a.aiter, "worktree", "add", "-q", "--detach", w, "main")
        works.append(w)
    todo = list(prs)
    errors = 0
    total = 0.0

    def worker(w):
        res = []
        while True:
            try:
                n = todo.pop(0)
            except IndexError:
                return res
            res.append(review_one(a, n, w))

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for res in ex.map(worker, works):
            for n, err, dt in res:
                total += dt
                if err:
                    errors += 1
                    print("PR %d: %s" % (n, err), file=sys.stderr)
    print("reviewed %d PRs (%d failed), %.1f s of review-lsp in all" % (len(prs), errors, total))


def load_findings(out, prs):
    """{pr: [finding dicts, each with its line at "line"]} for the PRs that have a result."""
    res = {}
    for n in prs:
        p = os.path.join(out, "%d.json" % n)
        if os.path.exists(p):
            with open(p) as f:
                fs = json.load(f).get("findings", [])
            for x in fs:
                x["line"] = x["range"]["line"]
                # The collector's own severity, before the precision policy lowered it.
                x["collector_severity"] = "warning" if x.get("severityNote") else x["severity"]
            res[n] = fs
    return res


def read_judged():
    rows = []
    if not os.path.isdir(JUDGED_DIR):
        return rows
    for name in sorted(os.listdir(JUDGED_DIR)):
        if not name.endswith(".tsv"):
            continue
        path = os.path.join(JUDGED_DIR, name)
        with open(path) as f:
            for i, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                cols = line.rstrip("\n").split("\t")
                if len(cols) < 6 or cols[4] not in VERDICTS or not cols[1].isdigit():
                    sys.exit("%s:%d: want rule, PR, path, line, verdict (%s), reason"
                             % (path, i, "/".join(VERDICTS)))
                rows.append({"rule": cols[0], "pr": int(cols[1]), "path": cols[2],
                             "line": int(cols[3]), "verdict": cols[4], "reason": cols[5]})
    return rows


def firing_severity(findings, row):
    """None when the judged finding is no longer reported, else the collector's severity of the
    finding that reports it ("warning" when several do and one of them is a Warning). A judged
    line is reported by a finding of the same rule on that path and line, or by one in the same
    file that lists it as a related location reporting the same issue there (its message starts
    with "also", as D9 lists the other places one kernel multiplies the same index)."""
    sev = None
    for f in findings.get(row["pr"], []):
        if f["rule"] != row["rule"] or f["path"] != row["path"]:
            continue
        hit = f["line"] == row["line"]
        for r in f.get("related", []) if not hit else []:
            line = r["range"]["line"] if "range" in r else r.get("line", 0)
            if r.get("path") == row["path"] and line == row["line"] and \
                    r.get("message", "").startswith("also"):
                hit = True
        if hit and (sev is None or f["collector_severity"] == "warning"):
            sev = f["collector_severity"]
    return sev


def cmd_sample(a):
    prs = read_prs(a.prs)
    findings = load_findings(a.out, prs)
    judged = {(r["rule"], r["pr"], r["path"], r["line"]) for r in read_judged()}
    pool = []
    for n in sorted(findings):
        for f in findings[n]:
            if f["rule"] == a.rule and (a.rule, n, f["path"], f["line"]) not in judged:
                if a.severity and f["collector_severity"] != a.severity:
                    continue
                pool.append((n, f))
    rng = random.Random(a.seed)
    rng.shuffle(pool)
    print("# %d unjudged %s findings; drawing %d with seed %d" % (len(pool), a.rule, a.n, a.seed))
    for n, f in pool[:a.n]:
        print("%s\t%d\t%s\t%d\t?\t%s [%s]" % (a.rule, n, f["path"], f["line"],
                                             f["message"].replace("\t", " ")[:300],
                                             f["collector_severity"]))


def report_findings(a):
    """The findings report reads: the run --out of the PRs of --prs, or, with --pool, every
    run given as DIR=PRS_FILE (disjoint sets of PRs, reviewed by one binary), merged into one."""
    runs = [(a.out, a.prs)]
    if a.pool:
        runs = []
        for spec in a.pool:
            out, sep, prs = spec.partition("=")
            if not sep or not out or not prs:
                sys.exit("--pool wants DIR=PRS_FILE, got %r" % spec)
            runs.append((os.path.abspath(out), prs))
    findings = {}
    for out, prs in runs:
        findings.update(load_findings(out, read_prs(prs)))
    return findings


def rule_stats(a):
    """Per rule: findings, findings its collector raises as Warning, and the judged rows that
    still fire — over all severities ("firing", "true", ...) and over those still raised as
    Warnings ("w_firing", "w_true", ...), which is what the severity policy certifies."""
    findings = report_findings(a)
    reviewed = len(findings)
    stats = {}

    def entry(rule):
        return stats.setdefault(rule, {"findings": 0, "warnings": 0, "judged": 0,
                                       "warning_sites": set()})

    for n, fs in findings.items():
        for f in fs:
            s = entry(f["rule"])
            s["findings"] += 1
            if f["collector_severity"] in ("warning", "error"):
                s["warnings"] += 1
                s["warning_sites"].add((n, f["path"], f["line"]))
    for r in read_judged():
        s = entry(r["rule"])
        s["judged"] += 1
        sev = firing_severity(findings, r) if r["pr"] in findings else None
        if sev is None:
            continue
        s[r["verdict"]] = s.get(r["verdict"], 0) + 1
        s["firing"] = s.get("firing", 0) + 1
        if sev == "warning":
            s["w_" + r["verdict"]] = s.get("w_" + r["verdict"], 0) + 1
            s["w_firing"] = s.get("w_firing", 0) + 1
    for rule, reason in read_holds().items():
        entry(rule)["held"] = reason
    return reviewed, stats


def read_holds():
    """{rule: reason} for rules held at Information whatever the pooled figure says."""
    holds = {}
    if os.path.exists(HOLDS):
        with open(HOLDS) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    rule, _, reason = line.rstrip("\n").partition("\t")
                    holds[rule] = reason
    return holds


def precision(s, prefix=""):
    t, f = s.get(prefix + "true", 0), s.get(prefix + "false", 0)
    return None if t + f == 0 else 100.0 * t / (t + f)


def certified(s):
    """Warning allowed: >= 80% over the judged findings still raised as Warnings, at least 25
    of them, or all of the rule's Warning lines when it raises fewer (but at least 5). A
    judgment covers one line, so Warnings sharing a line count once."""
    if s.get("held"):
        return False
    p = precision(s, "w_")
    if p is None or p < POLICY_PRECISION:
        return False
    sites = len(s["warning_sites"])
    need = POLICY_MIN_JUDGED if sites >= POLICY_MIN_JUDGED else max(POLICY_MIN_JUDGED_RARE, sites)
    return s.get("w_firing", 0) >= need


def cmd_report(a):
    reviewed, stats = rule_stats(a)
    rows = []
    for rule in sorted(stats):
        s = stats[rule]
        p, pw = precision(s), precision(s, "w_")
        rows.append((rule, s["findings"], 100.0 * s["findings"] / max(reviewed, 1),
                     s["warnings"], s["judged"], s.get("firing", 0), s.get("true", 0),
                     s.get("false", 0), s.get("unclear", 0),
                     "—" if p is None else "%.0f%%" % p,
                     "%d/%d" % (s.get("w_true", 0), s.get("w_true", 0) + s.get("w_false", 0)),
                     "—" if pw is None else "%.0f%%" % pw,
                     "yes" if certified(s) else ("no (held)" if s.get("held") else "no")))
    hdr = ("rule", "findings", "per 100 PRs", "raised as Warning", "judged", "still firing",
           "true", "false", "unclear", "precision", "Warnings judged right",
           "Warning precision", "Warning allowed")
    if a.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for r in rows:
            print("| %s | %d | %.1f | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s |" % r)
    else:
        print("%d PRs reviewed" % reviewed)
        print("%-18s %8s %6s %8s %6s %6s %5s %5s %7s %6s %8s %6s %s" % (
            "rule", "found", "/100PR", "asWarn", "judged", "firing", "true", "false", "unclear",
            "prec", "W right", "W prec", "W allowed"))
        for r in rows:
            print("%-18s %8d %6.1f %8d %6d %6d %5d %5d %7d %6s %8s %6s %s" % r)
    # A judged true finding the binary no longer raises is a loss of recall: name each one.
    findings = report_findings(a)
    lost = [r for r in read_judged() if r["verdict"] == "true" and r["pr"] in findings
            and firing_severity(findings, r) is None]
    print("%sjudged true findings no longer raised: %d" % ("" if not a.markdown else "\n", len(lost)))
    for r in lost:
        print("  %s %d %s:%d" % (r["rule"], r["pr"], r["path"], r["line"]))
    if a.write_policy:
        with open(a.write_policy, "w") as f:
            f.write("# Written by bench/precision/ledger.py report --write-policy; do not edit.\n"
                    "# Rules whose judged precision on real aiter history allows Warning: >= %d%%"
                    " over >= %d judged\n# findings still raised as Warnings (or all of a rarer"
                    " rule's Warnings, at least %d).\n# Columns: rule, judged Warnings still"
                    " firing, true, false, precision %%, allowed level.\n"
                    % (POLICY_PRECISION, POLICY_MIN_JUDGED, POLICY_MIN_JUDGED_RARE))
            for rule in sorted(stats):
                s = stats[rule]
                if s.get("w_firing", 0) == 0:
                    continue
                pw = precision(s, "w_")
                f.write("%s\t%d\t%d\t%d\t%d\t%s\n" % (
                    rule, s.get("w_firing", 0), s.get("w_true", 0), s.get("w_false", 0),
                    -1 if pw is None else round(pw),
                    "warning" if certified(s) else "information"))


def cmd_show(a):
    p = os.path.join(a.out, "%d.json" % a.pr)
    with open(p) as f:
        doc = json.load(f)
    print("PR %d: %s" % (a.pr, doc["ledger"]["title"]))
    for f in doc.get("findings", []):
        if a.rule and f["rule"] != a.rule:
            continue
        print("%s:%d: %s [%s] %s" % (f["path"], f["range"]["line"], f["severity"], f["rule"],
                                     f["message"]))
        for r in f.get("related", []):
            line = r["range"]["line"] if "range" in r else r.get("line", 0)
            print("    %s:%d: %s" % (r["path"], line, r.get("message", "")))


def finding_key(f):
    """A finding as a comparable line: rule, place, severity and message."""
    return "%s %s:%d %s %s" % (f["rule"], f["path"], f["range"]["line"], f["severity"], f["message"][:120])


def cmd_compare(a):
    """Print each PR whose findings, or whose collectors' status lines, differ between two runs
    of the same PRs (--out and --against), then the counts. Exits 1 when a finding differs."""
    compared = findings_differ = status_differ = 0
    for name in sorted(os.listdir(a.out), key=lambda n: (len(n), n)):
        other = os.path.join(a.against, name)
        if not name.endswith(".json") or not os.path.exists(other):
            continue
        with open(os.path.join(a.out, name)) as f:
            new = json.load(f)
        with open(other) as f:
            old = json.load(f)
        compared += 1
        pr = name[:-len(".json")]
        if json.dumps(new.get("findings", []), sort_keys=True) != json.dumps(old.get("findings", []), sort_keys=True):
            findings_differ += 1
            before = {finding_key(f) for f in old.get("findings", [])}
            after = {finding_key(f) for f in new.get("findings", [])}
            print("PR %s: findings differ" % pr)
            for k in sorted(before - after):
                print("  - " + k)
            for k in sorted(after - before):
                print("  + " + k)
            if before == after:
                print("  (the same findings; their related places or evidence differ)")
        if new.get("collectors") != old.get("collectors"):
            status_differ += 1
            if a.status:
                for x, y in zip(old.get("collectors", []), new.get("collectors", [])):
                    if x != y:
                        print("PR %s: status\n  - %s\n  + %s" % (pr, x, y))
    print("%d PRs compared; %d differ in findings; %d differ in status lines" %
          (compared, findings_differ, status_differ))
    sys.exit(1 if findings_differ else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select")
    s.add_argument("aiter")
    s.add_argument("--n", type=int, default=300)
    s.add_argument("--seed", type=int, default=19)
    s.add_argument("--exclude")
    s.set_defaults(fn=cmd_select)
    s = sub.add_parser("run")
    s.add_argument("aiter")
    s.add_argument("--bin", default=os.path.join(REPO, "build", "review-lsp"))
    s.add_argument("--out", default=os.path.join(REPO, "build", "precision"))
    s.add_argument("--prs", default=PRS)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--only", type=int, nargs="*")
    s.set_defaults(fn=cmd_run)
    s = sub.add_parser("compare")
    s.add_argument("--out", required=True)
    s.add_argument("--against", required=True)
    s.add_argument("--status", action="store_true", help="print the status lines that differ")
    s.set_defaults(fn=cmd_compare)
    for name, fn in (("sample", cmd_sample), ("report", cmd_report), ("show", cmd_show)):
        s = sub.add_parser(name)
        s.add_argument("--out", default=os.path.join(REPO, "build", "precision"))
        s.add_argument("--prs", default=PRS)
        s.add_argument("--rule")
        if name == "sample":
            s.add_argument("--n", type=int, default=25)
            s.add_argument("--seed", type=int, default=19)
            s.add_argument("--severity")
        if name == "report":
            s.add_argument("--markdown", action="store_true")
            s.add_argument("--pool", nargs="+", metavar="DIR=PRS_FILE",
                           help="report over several runs at once (disjoint PR sets), instead of --out/--prs")
            s.add_argument("--write-policy")
        if name == "show":
            s.add_argument("pr", type=int)
        s.set_defaults(fn=fn)
    a = p.parse_args()
    if hasattr(a, "bin"):
        a.bin = os.path.abspath(a.bin)
    if hasattr(a, "out"):
        a.out = os.path.abspath(a.out)
    a.fn(a)


if __name__ == "__main__":
    main()
