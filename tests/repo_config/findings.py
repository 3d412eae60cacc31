#!/usr/bin/env python3
"""The findings of one face of review-lsp, one per line as PATH:LINE:RULE:SEVERITY (LINE 1-based,
SEVERITY as the LSP number: 1 error, 2 warning, 3 information, 4 hint), sorted, so that the two
faces can be compared line for line.

  findings.py server BIN WORKSPACE   run the language server on WORKSPACE (a client with no
                                     special capabilities: it is pushed diagnostics), wait for
                                     the first scan to settle, and list what it published;
                                     window/showMessage lines go to stderr
  findings.py batch < CHECK.json     list what `review-lsp check --format json` reported
"""
import json
import os
import select
import subprocess
import sys
import time
import urllib.parse

SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Reader:
    """Reads framed messages from the server's stdout, with a timeout."""

    def __init__(self, fd):
        self.fd = fd
        self.buf = b""

    def next(self, timeout):
        end = time.monotonic() + timeout
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.buf += chunk


def server_findings(binary, ws):
    ws = os.path.realpath(ws)
    uri = "file://" + urllib.parse.quote(ws)
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    rd = Reader(proc.stdout.fileno())
    send = lambda m: (proc.stdin.write(frame(m)), proc.stdin.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"rootUri": uri, "capabilities": {}, "initializationOptions": {"debounceMs": 0}}})
    published = {}
    # every message until the server has been quiet for a while after its first publish
    while True:
        m = rd.next(3.0 if published else 30.0)
        if m is None:
            break
        if m.get("id") == 1:
            send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        elif m.get("method") == "textDocument/publishDiagnostics":
            published[m["params"]["uri"]] = m["params"]["diagnostics"]
        elif m.get("method") == "window/showMessage":
            print("showMessage %d: %s" % (m["params"]["type"], m["params"]["message"]), file=sys.stderr)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    rd.next(10.0)
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=10)
    out = []
    for u, diags in published.items():
        path = urllib.parse.unquote(u[len(uri) + 1:])
        for d in diags:
            if d.get("code") != "derived":
                out.append("%s:%d:%s:%d" % (path, d["range"]["start"]["line"] + 1, d["code"], d["severity"]))
    return sorted(out)


def batch_findings(report):
    return sorted("%s:%d:%s:%d" % (f["path"], f["range"]["line"], f["rule"], SEVERITY[f["severity"]])
                  for f in report["findings"])


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "server":
        lines = server_findings(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2 and sys.argv[1] == "batch":
        lines = batch_findings(json.load(sys.stdin))
    else:
        sys.exit(__doc__)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
