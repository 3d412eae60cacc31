"""Hover latency while a long review runs (the review is off the loop: bench figure, not a
test). On the `wide` branch of a bench tree (bench/gen_tree.py: a change of 1,000 files, so
every review takes a while), it opens two files of the change, edits one, and, until the hover
on the edited file comes back (it waits for the fresh review), hovers the other one every
10 ms (an impatient user's pace, not a flood that would compete with the review for the CPU),
timing each answer. Prints, per binary, the review's duration and the hover latencies
during it; a binary that reviews on the loop answers nothing during the review (its first
hover waits for it). The tree is returned to its branch and stash afterwards.

usage: hover_during_review.py TREE BINARY [BINARY...] [--edits 5] [--every 0.010]"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "watch"))
from lsp_session import Session  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stats import pct  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("tree")
p.add_argument("binaries", nargs="+")
p.add_argument("--edits", type=int, default=5)
p.add_argument("--every", type=float, default=0.010, help="seconds between hovers")
a = p.parse_args()
tree = os.path.realpath(a.tree)


def git(*args):
    r = subprocess.run(["git", "-C", tree] + list(args), check=True, capture_output=True, text=True)
    return r.stdout



def send_request(s, method, params):
    rid = s.next_id
    s.next_id += 1
    s.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    return rid


def wait_for(s, rid, timeout=600):
    end = time.monotonic() + timeout
    while rid not in s.responses:
        if not s.pump(end - time.monotonic()):
            raise TimeoutError("no answer to request %d" % rid)
    return s.responses.pop(rid)


def hover_params(uri):
    return {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}


def one_binary(binary, edited, other):
    s = Session(binary, tree, {"debounceMs": 0})
    uris = {}
    for rel in (edited, other):
        uris[rel] = "file://" + os.path.join(tree, rel)
        text = open(os.path.join(tree, rel)).read()
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uris[rel], "languageId": "cuda",
                                                           "version": 1, "text": text}})
    wait_for(s, send_request(s, "textDocument/hover", hover_params(uris[edited])))  # first scan
    reviews, during, waited = [], [], []
    for i in range(a.edits):
        t0 = time.monotonic()
        s.notify("textDocument/didChange", {
            "textDocument": {"uri": uris[edited], "version": i + 2},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                          "end": {"line": 0, "character": 0}}, "text": "// edit\n"}]})
        fresh = send_request(s, "textDocument/hover", hover_params(uris[edited]))
        first = True
        while fresh not in s.responses:
            h0 = time.monotonic()
            rid = send_request(s, "textDocument/hover", hover_params(uris[other]))
            wait_for(s, rid)
            dt = time.monotonic() - h0
            if fresh in s.responses and first:
                waited.append(dt)      # answered only after the review: it waited for it
            elif fresh not in s.responses:
                during.append(dt)
            first = False
            s.pump(max(0.0, a.every - (time.monotonic() - h0)))
        reviews.append(time.monotonic() - t0)
        s.responses.pop(fresh)
    s.close()
    return reviews, during, waited


wide = git("diff", "--name-only", "main", "wide").split()
kernels = [f for f in wide if f.endswith(".cu")]
edited, other = kernels[0], kernels[1]
branch = git("rev-parse", "--abbrev-ref", "HEAD").strip()
before = git("stash", "list")
git("stash", "-q")
stashed = git("stash", "list") != before
git("checkout", "-q", "wide")
try:
    for binary in a.binaries:
        reviews, during, waited = one_binary(binary, edited, other)
        line = "%s: review of the %d-file change after an edit: median %.0f ms over %d edits; " % (
            binary, len(wide), 1000 * statistics.median(reviews), len(reviews))
        if during:
            line += "%d hovers answered during it: median %.2f ms, p99 %.2f ms, max %.2f ms" % (
                len(during), 1000 * statistics.median(during), 1000 * pct(during, 0.99), 1000 * max(during))
        else:
            line += "no hover answered during it"
        if waited:
            line += "; %d hovers waited for the review (median %.0f ms)" % (
                len(waited), 1000 * statistics.median(waited))
        print(line, flush=True)
finally:
    git("checkout", "-q", branch)
    if stashed:
        git("stash", "pop", "-q")
