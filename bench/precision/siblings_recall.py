"""Recall of the siblings collector (A1) against the original pipeline's live sibling pairs.

The original triage.py (not in this repository: give its path) lists, per PR, the pairs
(file, changed function, variant) where a line the diff removed under the changed function's
hunk is still carried, verbatim, by a variant of it in the PR head. A pair is *live* when the
change really took the line out: the function that held it in the base no longer has its text
in the head (white space and end-of-line comments aside, so a reformatted signature or an
edited comment is not a rewrite), and the text is not added again elsewhere in the file
(moved, re-indented, wrapped in a new decorator) -- those are the pairs a reviewer could act
on. This script runs the
original's siblings mode on each PR of a ledger run (`ledger.py run ... --out DIR`: DIR/N.diff
and DIR/N.json), keeps the live pairs, and counts how many review-lsp raised: an A1 finding in
the same file whose variant is the pair's variant (the variant's own name or, for kernels
nested in builders, the builder's). Pairs read and judged false (the divergence is intended)
can be listed in bench/precision/siblings_pairs.tsv (TAB-separated: PR, path, changed
function, variant, verdict true/false/unclear, reason in our words); false ones leave the
denominator and are named in the output.

  siblings_recall.py AITER_GIT --triage /work/aiter-tools/triage.py --out DIR [--work DIR]
                     [--prs FILE] [--only N ...] [--verbose]

Without the original at hand, --recorded scores the same run against the pairs already judged
in siblings_pairs.tsv: the denominator is the pairs recorded true for the PRs of --prs (every
live pair of the fresh3, fresh4 and fresh5 sets was judged, so there it is the same figure).

  siblings_recall.py AITER_GIT --recorded --out DIR --prs FILE [--verbose]
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = os.path.join(HERE, "siblings_pairs.tsv")
PRS = os.path.join(HERE, "prs.txt")


def git(repo, *args):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout.decode(errors="replace")


def load_triage(path):
    """The original's module, loaded from its real location (it resolves its own folders)."""
    real = os.path.join(os.path.dirname(os.path.abspath(path)), ".claude", "skills",
                        "review-pr", "triage.py")
    if not os.path.exists(real):
        real = path
    spec = importlib.util.spec_from_file_location("original_triage", real)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_prs(path):
    with open(path) as f:
        return [int(l.split("#")[0]) for l in f if l.split("#")[0].strip()]


def read_pairs():
    """{(pr, path, changed, variant): (verdict, reason)} from siblings_pairs.tsv."""
    res = {}
    if not os.path.exists(PAIRS):
        return res
    with open(PAIRS) as f:
        for i, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            c = line.rstrip("\n").split("\t")
            if len(c) < 6 or not c[0].isdigit() or c[4] not in ("true", "false", "unclear"):
                sys.exit("%s:%d: want PR, path, changed, variant, verdict, reason" % (PAIRS, i))
            res[(int(c[0]), c[1], c[2], c[3])] = (c[4], c[5])
    return res


DEF = re.compile(r"^(\s*)def\s+(\w+)\s*\(")


def squash(text):
    """text without white space or Python end-of-line comments (a comment edited beside a
    parameter is not a rewrite of it)."""
    out = []
    for line in text.split("\n"):
        cut = line.find("#")
        while cut >= 0 and (line[:cut].count('"') % 2 or line[:cut].count("'") % 2):
            cut = line.find("#", cut + 1)
        out.append(line if cut < 0 else line[:cut])
    return re.sub(r"\s+", "", "\n".join(out))


def spans(text):
    """[(qualified name, first, last)] of every def (0-based lines; a nested def is named
    outer.inner), a def running to the next non-blank line at its indent or shallower."""
    lines = text.splitlines()
    out = []
    for i, l in enumerate(lines):
        m = DEF.match(l)
        if not m:
            continue
        ind, end = len(m.group(1)), len(lines)
        for j in range(i + 1, len(lines)):
            t = lines[j]
            if t.strip() and len(t) - len(t.lstrip()) <= ind and not t.lstrip().startswith(")"):
                end = j
                break
        outer = [o for o in out if o[1] < i <= o[2]]
        name = m.group(2)
        if outer:
            name = max(outer, key=lambda o: o[1])[0] + "." + name
        out.append((name, i, end - 1))
    return out, lines


def removed_line_number(diff, path, line):
    """(base path, base line number 1-based) of the first removed line of path (the head
    path) that reads as line; (None, 0) when there is none."""
    for blk in re.split(r"(?m)^diff --git ", diff)[1:]:
        names = re.match(r"a/(\S+) b/(\S+)", blk)
        if not names or names.group(2) != path:
            continue
        old = 0
        for l in blk.split("\n"):
            h = re.match(r"^@@ -(\d+)", l)
            if h:
                old = int(h.group(1))
                continue
            if not old or l.startswith("+"):
                continue
            if l.startswith("-") and not l.startswith("---"):
                s = l[1:].strip()
                if s == line or (len(line) >= 70 and s.startswith(line)):
                    return names.group(1), old
            old += 1
    return None, 0


def readded(diff, path):
    """The squashed added lines of path in the diff: a removed line whose text comes back
    among them was moved, re-indented or wrapped (a decorator's body), not rewritten."""
    for blk in re.split(r"(?m)^diff --git ", diff)[1:]:
        names = re.match(r"a/(\S+) b/(\S+)", blk)
        if names and names.group(2) == path:
            return {squash(l[1:]) for l in blk.split("\n")
                    if l.startswith("+") and not l.startswith("+++")}
    return set()


def still_carried(base_text, head_text, lineno, line):
    """Whether the function that held the removed line in the base still has its text in the
    head (spaces ignored, so a signature split over lines counts as kept)."""
    bspans, _ = spans(base_text)
    inner = [s for s in bspans if s[1] < lineno - 1 <= s[2]]
    if not inner:
        return False
    name = max(inner, key=lambda s: s[1])[0]
    hspans, hlines = spans(head_text)
    want = squash(line)
    for n, a, b in hspans:
        if n == name and want in squash("\n".join(hlines[a:b + 1])):
            return True
    return False


def live_pairs(tri, diff, work, base):
    """The original's pairs for one PR, each with whether it is live: the change really took
    the line out of the function that held it (not moved within it, not reformatted)."""
    rows = tri.sibling_variants(diff, work)
    out = []
    for path, changed, sib, line in rows:
        try:
            with open(os.path.join(work, path), errors="replace") as f:
                head_text = f.read()
        except OSError:
            continue
        bpath, lineno = removed_line_number(diff, path, line)
        live = (bool(lineno) and squash(line) not in readded(diff, path)
                and not still_carried(git(work, "show", "%s:%s" % (base, bpath)), head_text,
                                      lineno, line))
        out.append((path, changed, sib, line, live))
    return out


def our_lines(json_path):
    """{path: set of head lines} where review-lsp's A1 findings say a variant still carries
    something (the finding's line and its "still has" related locations)."""
    res = {}
    with open(json_path) as f:
        doc = json.load(f)
    for fi in doc.get("findings", []):
        if fi.get("rule") != "A1":
            continue
        lines = res.setdefault(fi["path"], set())
        lines.add(fi["range"]["line"])
        for r in fi.get("related", []):
            if r.get("path") == fi["path"] and r.get("message", "").startswith("still has"):
                lines.add(r["range"]["line"])
    return res


def raised(ours, work, path, sib):
    """Whether a line review-lsp flags lies inside a def named sib in the head of path: the
    variant itself, or (for the builders the original pairs) a kernel nested in it."""
    flagged = ours.get(path)
    if not flagged:
        return False
    try:
        with open(os.path.join(work, path), errors="replace") as f:
            sp, _ = spans(f.read())
    except OSError:
        return False
    return any(q.split(".")[-1] == sib and any(a < n - 1 <= b for n in flagged)
               for q, a, b in sp)


def recorded(a):
    """Recall against the true pairs of siblings_pairs.tsv, head files read from AITER_GIT."""
    judged = read_pairs()
    prs = set(read_prs(a.prs))
    live = hit = 0
    for (n, path, changed, sib), (verdict, _why) in sorted(judged.items()):
        jpath = os.path.join(a.out, "%d.json" % n)
        if n not in prs or verdict != "true" or not os.path.exists(jpath):
            continue
        with open(jpath) as f:
            head = json.load(f)["ledger"]["head"]
        live += 1
        flagged = our_lines(jpath).get(path)
        ok = False
        if flagged:
            try:
                sp, _ = spans(git(a.aiter, "show", "%s:%s" % (head, path)))
            except RuntimeError:
                sp = []
            ok = any(q.split(".")[-1] == sib and any(x < m - 1 <= y for m in flagged)
                     for q, x, y in sp)
        hit += ok
        if a.verbose or not ok:
            print("%s %d %s %s -> %s" % ("HIT " if ok else "missed", n, path, changed, sib))
    pct = 100.0 * hit / live if live else float("nan")
    print("%d PRs; pairs recorded true: %d; raised by review-lsp: %d of %d = %.1f%%"
          % (len(prs), live, hit, live, pct))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("aiter")
    ap.add_argument("--triage")
    ap.add_argument("--recorded", action="store_true",
                    help="score against the true pairs of siblings_pairs.tsv, not the original")
    ap.add_argument("--out", required=True, help="a ledger.py run's output directory")
    ap.add_argument("--work", default="/work/aiter-wt/siblings")
    ap.add_argument("--prs", default=PRS)
    ap.add_argument("--only", type=int, nargs="*")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    if a.recorded:
        return recorded(a)
    if not a.triage:
        ap.error("--triage is needed unless --recorded is given")
    tri = load_triage(a.triage)
    judged = read_pairs()
    prs = [n for n in read_prs(a.prs) if not a.only or n in a.only]
    total = live = hit = excluded = 0
    missed = []
    for n in prs:
        dpath = os.path.join(a.out, "%d.diff" % n)
        jpath = os.path.join(a.out, "%d.json" % n)
        if not (os.path.exists(dpath) and os.path.exists(jpath)):
            continue
        with open(dpath, errors="replace") as f:
            diff = f.read()
        with open(jpath) as f:
            led = json.load(f)["ledger"]
        head, base = led["head"], led["base"]
        git(a.work, "checkout", "-q", "--detach", "-f", head)
        ours = our_lines(jpath)
        for path, changed, sib, line, is_live in live_pairs(tri, diff, a.work, base):
            total += 1
            if not is_live:
                continue
            verdict, why = judged.get((n, path, changed, sib), ("", ""))
            if verdict == "false":
                excluded += 1
                print("excluded %d %s %s -> %s: %s" % (n, path, changed, sib, why))
                continue
            live += 1
            ok = raised(ours, a.work, path, sib)
            hit += ok
            if not ok:
                missed.append((n, path, changed, sib, line))
            if a.verbose:
                print("%s %d %s %s -> %s: %s" % ("HIT " if ok else "MISS", n, path, changed,
                                                 sib, line))
    for n, path, changed, sib, line in missed:
        print("missed %d %s %s -> %s: %s" % (n, path, changed, sib, line))
    pct = 100.0 * hit / live if live else float("nan")
    print("%d PRs; the original's pairs: %d, live: %d (%d judged false, left out); raised by "
          "review-lsp: %d of %d = %.1f%%" % (len(prs), total, live + excluded, excluded, hit,
                                             live, pct))


if __name__ == "__main__":
    main()
