"""Abuse benchmark: what a careless or hostile client can throw at the language server over
stdio, each case on a fresh server and a real git repository made here. After each abuse the
server must still be alive and answer a following request (a hover, within the time allowed);
at the end it must shut down cleanly (exit 0) with nothing on stderr (so, against the
sanitizer build, no ASan/UBSan report and no leak). Prints one line per case with the time it
took, the server's RSS and what it answered, and exits 1 when a case failed.

usage: abuse.py BINARY [--only NAME...] [--big-mb 50] [--flood 20000]"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stdio_client import Server, make_repo  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("binary")
p.add_argument("--only", nargs="*")
p.add_argument("--big-mb", type=int, default=50)
p.add_argument("--flood", type=int, default=20000)
a = p.parse_args()
BIN = os.path.abspath(a.binary)


def parse_errors(s):
    return s.count.get("error", 0)


# --- the cases: each abuses a started server and returns a short note --------------------------
def garbage_1mb(s):
    rnd = random.Random(1)
    s.raw(bytes(rnd.randrange(256) for _ in range(1 << 20)) + b"\n", chunk=4096)
    return "1 MiB of random bytes"


def garbage_2mb_then_split(s):
    junk = (b"Content-Type: x\r\n\r\nnot json at all {} " * 60000)[:2 << 20] + b"\n"
    s.raw(junk, chunk=1000)
    return "2 MiB of header-like garbage in 1,000-byte writes"


def bad_header_flood(s):
    s.raw(b"Content-Length: x\r\n\r\n{}" * 20000)
    return "20,000 bad header blocks"


def one_byte_writes(s):
    s.raw(s.frame({"jsonrpc": "2.0", "id": "slow", "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": s.uri + "/x.cu"}, "position": {"line": 0, "character": 0}}}), chunk=1)
    return "a request written one byte at a time"


def huge_content_length(s):
    s.raw(b"Content-Length: 99999999999999999999\r\n\r\n{}Content-Length: 1073741824\r\n\r\n")
    return "absurd and 1 GiB Content-Length"


def hover_flood_uninitialized(s):
    for i in range(a.flood):
        s.send({"jsonrpc": "2.0", "id": i, "method": "textDocument/hover",
                "params": {"textDocument": {"uri": s.uri + "/csrc/kernels/attn.cu"}, "position": {"line": 2, "character": 0}}})
    return "%d hovers before `initialized`" % a.flood


def notification_flood(s):
    uri = s.uri + "/aiter/ops/act.py"
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "def act(x):\n    return x\n"}}})
    for i in range(a.flood):
        s.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": i + 2},
                           "contentChanges": [{"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "text": "x" if i % 2 else ""}]}})
    return "%d didChange notifications" % a.flood


def wrong_types(s):
    bad = [
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": "string"},
        {"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": 42, "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": 5}, "position": {"line": "a", "character": None}}},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {"textDocument": {"uri": s.uri + "/csrc/kernels/attn.cu"}, "position": {"line": -7, "character": 2 ** 62}}},
        {"jsonrpc": "2.0", "id": 5, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": s.uri + "/csrc/kernels/attn.cu"}, "range": {"start": {"line": 9, "character": 9}, "end": {"line": 0, "character": -1}}, "context": []}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": None}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": s.uri + "/csrc/kernels/attn.cu", "version": "v"}, "contentChanges": {"text": 1}}},
        {"jsonrpc": "2.0", "id": 6, "method": "workspace/executeCommand", "params": {"command": "review.openRule", "arguments": [[{"rule": ["D4"]}]]}},
        {"jsonrpc": "2.0", "id": 7, "method": "workspace/executeCommand", "params": {"command": "review.openLocation", "arguments": [{"uri": 1, "range": "x"}]}},
        {"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": {"review": {"debounceMs": "fast", "maxFileBytes": -1, "severity": [1], "disabledRules": {"a": 1}}}}},
        {"jsonrpc": "2.0", "id": 8, "result": None},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": [1]}},
        [{"jsonrpc": "2.0", "id": 9, "method": "shutdown"}],
    ]
    for m in bad:
        s.send(m)
    s.raw(s.frame(b'{"jsonrpc":"2.0","id":10,"method":"textDocument/hover","params":{"x":"\xff\xfe"}}'))
    s.raw(s.frame(b"[" * 100000 + b"]" * 100000))
    return "%d messages of the wrong shape, invalid UTF-8, 100,000-deep nesting" % (len(bad) + 2)


def huge_document(s):
    text = ("// padding line for a huge buffer\n" * ((a.big_mb << 20) // 34))
    t0 = time.monotonic()
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": s.uri + "/csrc/kernels/attn.cu", "languageId": "cuda", "version": 1, "text": text}}})
    note = s.wait_for(lambda m: m.get("method") == "window/logMessage" and "open buffer larger" in m["params"]["message"], 120)
    return "a %d MiB buffer (%s, %.1f s)" % (a.big_mb, "skipped with a note" if note else "NO NOTE", time.monotonic() - t0)


def uris_outside(s):
    for uri in ["file:///etc/passwd", "file://otherhost/x.cu", "untitled:Untitled-1",
                s.uri + "/../secret/leak.cu", s.uri + "/%2e%2e/secret/leak.cu", "file:///%00",
                s.uri + "/.git/config", "https://example.com/a.cu"]:
        s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": "TORCH_CHECK(x);\n"}}})
        s.send({"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": [{"uri": uri, "type": 2}]}})
    s.send({"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles",
            "params": {"changes": [{"uri": s.uri + "/../secret/leak.cu", "type": 1}]}})
    return "8 URIs outside the work tree, opened and watched"


def documents_churn(s):
    for i in range(3000):
        uri = s.uri + "/aiter/ops/gen_%d.py" % (i % 300)
        s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "x = %d\n" % i}}})
        if i % 2:
            s.send({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    return "3,000 opens and 1,500 closes over 300 documents"


def long_line(s):
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": s.uri + "/aiter/ops/act.py", "languageId": "python", "version": 1,
                                        "text": "x = '" + "y" * 1500000 + "'\n"}}})
    s.send({"jsonrpc": "2.0", "id": "end", "method": "textDocument/hover",
            "params": {"textDocument": {"uri": s.uri + "/aiter/ops/act.py"}, "position": {"line": 0, "character": 1499999}}})
    return "a 1.5 million-character line"


CASES = [  # (name, function, initialized, server environment)
    ("garbage-1mb", garbage_1mb, True, None),
    ("garbage-2mb-split", garbage_2mb_then_split, True, None),
    ("bad-header-flood", bad_header_flood, True, None),
    ("one-byte-writes", one_byte_writes, True, None),
    ("huge-content-length", huge_content_length, True, None),
    ("hover-flood-no-initialized", hover_flood_uninitialized, False, {"REVIEW_LSP_WAIT_LIMIT_MS": "2000"}),
    ("didchange-flood", notification_flood, True, None),
    ("wrong-types", wrong_types, True, None),
    ("huge-document", huge_document, True, None),
    ("uris-outside", uris_outside, True, None),
    ("documents-churn", documents_churn, True, None),
    ("long-line", long_line, True, None),
]


def main():
    base = tempfile.mkdtemp(prefix="review-lsp-abuse-")
    ws = make_repo(base)
    failed = 0
    for name, fn, initialized, env in CASES:
        if a.only and name not in a.only:
            continue
        s = Server(BIN, ws, env)
        t0 = time.monotonic()
        problems = []
        try:
            s.start(initialized)
            note = fn(s)
            probe = s.hover(timeout=120)
            if not probe:
                problems.append("no answer to the hover that followed")
            if s.proc.poll() is not None:
                problems.append("server died")
        except Exception as e:  # noqa: BLE001 - any failure of the session is a failed case
            note, probe = "", None
            problems.append("session failed: %r" % e)
        took = time.monotonic() - t0
        rss = s.rss_mib()
        rc, err = s.finish()
        if rc != 0:
            problems.append("exit code %s" % rc)
        if err.strip():
            problems.append("stderr: " + err.strip().splitlines()[0][:200])
        leaked = os.listdir(os.path.join(base, "secret")) != ["leak.cu"]
        if leaked:
            problems.append("something was written outside the work tree")
        counts = ", ".join("%s %d" % kv for kv in sorted(s.count.items()))
        print("%-28s %s: %s; %.1f s, RSS %.1f MiB; answered: %s%s" % (
            name, "FAIL" if problems else "ok", note, took, rss, counts,
            "" if not problems else "; " + "; ".join(problems)))
        failed += bool(problems)
    subprocess.run(["rm", "-rf", base])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
