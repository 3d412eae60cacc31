"""Soak benchmark: 100,000 edits to an open kernel through incremental didChange, with the
default debounce, over stdio. Every 1,000 edits a hover must be answered (it waits for the
review of the edits so far) and the server's RSS is sampled. The run passes when every hover
was answered, the server exits cleanly with nothing on stderr, and its memory stays flat:
RSS at the end within 25% (plus 4 MiB) of RSS after the first 10,000 edits.

usage: soak.py BINARY [--edits 100000] [--every 1000]"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stdio_client import Server, make_repo  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("binary")
p.add_argument("--edits", type=int, default=100000)
p.add_argument("--every", type=int, default=1000)
a = p.parse_args()


def main():
    base = tempfile.mkdtemp(prefix="review-lsp-soak-")
    ws = make_repo(base)
    s = Server(a.binary, ws)
    s.start(True, {})  # default settings: the 150 ms debounce
    rel = "csrc/kernels/attn.cu"
    uri = s.uri + "/" + rel
    text = open(os.path.join(ws, rel)).read()
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}})
    samples, missed, t0 = [], 0, time.monotonic()
    version = 1
    for start in range(0, a.edits, a.every):
        batch = []
        for i in range(start, min(a.edits, start + a.every)):
            version += 1
            ins = i % 2 == 0   # insert a character, then delete it: the text stays bounded
            batch.append(Server.frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": 5 + i % 30, "character": 4},
                                              "end": {"line": 5 + i % 30, "character": 4 if ins else 5}},
                                    "text": "x" if ins else ""}]}}))
        s.raw(b"".join(batch))
        if not s.hover(rid="probe-%d" % start, timeout=120):
            missed += 1
        samples.append((min(a.edits, start + a.every), s.rss_mib(), time.monotonic() - t0))
    took = time.monotonic() - t0
    rc, err = s.finish()
    shutil.rmtree(base, ignore_errors=True)
    at = {n: r for n, r, _ in samples}
    ref = at.get(min(10000, a.edits), samples[0][1])
    end = samples[-1][1]
    peak = max(r for _, r, _ in samples)
    flat = end <= ref * 1.25 + 4
    for n in sorted({1000, 10000, 25000, 50000, 75000, 100000, a.edits}):
        if n in at:
            print("after %6d edits: RSS %.1f MiB" % (n, at[n]))
    print("%d edits in %.1f s (%.0f edits/s), %d hovers answered of %d, peak RSS %.1f MiB, exit %s%s"
          % (a.edits, took, a.edits / took, len(samples) - missed, len(samples), peak, rc,
             ", stderr: " + err.strip().splitlines()[0][:200] if err.strip() else ""))
    ok = missed == 0 and rc == 0 and not err.strip() and flat
    print("soak %s: RSS %s (%.1f MiB after %d edits, %.1f MiB at the end)"
          % ("ok" if ok else "FAILED", "flat" if flat else "GREW", ref, min(10000, a.edits), end))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
