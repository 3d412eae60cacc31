"""A small LSP client over real pipes for the watching tests: starts the server binary,
frames messages, answers the server's requests (configuration, registerCapability), and keeps
the latest publishDiagnostics per file so a test can wait for the tree to settle."""
import json
import os
import select
import subprocess
import time


class Session:
    def __init__(self, binary, root, init_options=None, capabilities=None):
        self.root = os.path.realpath(root)
        self.proc = subprocess.Popen([os.path.abspath(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=self.root)
        self.buf = b""
        self.next_id = 1
        self.diags = {}          # relpath -> list of diagnostics (latest publish)
        self.last_publish = time.monotonic()
        self.responses = {}
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": "file://" + self.root,
            "capabilities": capabilities or {},
            "initializationOptions": {"review": dict({"debounceMs": 50}, **(init_options or {}))},
        })
        self.notify("initialized", {})

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=30):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        end = time.monotonic() + timeout
        while rid not in self.responses:
            if not self.pump(end - time.monotonic()):
                raise TimeoutError(method)
        return self.responses.pop(rid)

    def _read_message(self, timeout):
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = 0
                for line in head.split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v)
                if len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            if timeout <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], timeout)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError("server closed its output")
            self.buf += chunk

    def pump(self, timeout):
        """Handle one message (waiting up to timeout seconds); False when none came."""
        msg = self._read_message(max(timeout, 0))
        if msg is None:
            return False
        if "method" in msg and "id" in msg:          # a request from the server
            result = None
            if msg["method"] == "workspace/configuration":
                result = [None for _ in msg["params"]["items"]]
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        elif msg.get("method") == "textDocument/publishDiagnostics":
            uri = msg["params"]["uri"]
            rel = uri[len("file://" + self.root) + 1:]
            self.diags[rel] = msg["params"]["diagnostics"]
            self.last_publish = time.monotonic()
        elif "id" in msg:
            self.responses[msg["id"]] = msg
        return True

    def settle(self, quiet=1.0, timeout=30):
        """Wait until no diagnostics were published for `quiet` seconds."""
        end = time.monotonic() + timeout
        start = time.monotonic()
        self.last_publish = start
        while time.monotonic() < end:
            self.pump(0.1)
            if time.monotonic() - self.last_publish >= quiet:
                return
        raise TimeoutError("diagnostics never settled")

    def changed_files(self):
        """The files that currently carry diagnostics."""
        return sorted(p for p, d in self.diags.items() if d)

    def codes(self, rel):
        return sorted({d.get("code") for d in self.diags.get(rel, [])})

    def families(self, rel):
        """The derived families the file's hint names."""
        return sorted({f for d in self.diags.get(rel, []) if d.get("code") == "derived"
                       for f in (d.get("data") or {}).get("families", [])})

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        return self.proc.returncode
