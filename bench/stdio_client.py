"""A client for the language server over stdio pipes, for the abuse and soak benchmarks: a
git repository to serve (make_repo: a kernel with a deleted guard, a Python op, and a file
outside the work tree that must never be touched), and Server, which frames what it is given
(or writes raw bytes, in chunks of any size) while a reader thread collects every message, so
the server's output never backs up however much is thrown at it."""
import json
import os
import queue
import subprocess
import tempfile
import threading
import time

def sh(cmd, cwd):
    subprocess.run(cmd, shell=True, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def make_repo(base):
    ws = os.path.join(base, "ws")
    os.makedirs(os.path.join(ws, "csrc", "kernels"))
    os.makedirs(os.path.join(ws, "aiter", "ops"))
    sh("git init -q -b main && git config user.email a@example.com && git config user.name abuse", ws)
    k = os.path.join(ws, "csrc", "kernels", "attn.cu")
    body = "".join("    acc += in[i * %d + j];\n" % n for n in range(40))
    open(k, "w").write("__global__ void attn(float *out, const float *in, int n, int j) {\n"
                       "    int i = threadIdx.x;\n    TORCH_CHECK(n > 0);\n    float acc = 0;\n"
                       + body + "    out[i] = acc;\n}\n")
    open(os.path.join(ws, "aiter", "ops", "act.py"), "w").write("def act(x):\n    return x\n")
    sh("git add -A && git commit -q -m base", ws)
    src = open(k).read().replace("    TORCH_CHECK(n > 0);\n", "")
    open(k, "w").write(src)
    os.makedirs(os.path.join(base, "secret"))
    open(os.path.join(base, "secret", "leak.cu"), "w").write("TORCH_CHECK(secret_marker > 0);\n")
    return ws


class Server:
    """The server on pipes; a reader thread collects every message so floods never block it."""

    def __init__(self, binary, ws, env=None):
        self.ws = ws
        self.uri = "file://" + ws
        self.err = tempfile.TemporaryFile()
        e = dict(os.environ, XDG_CACHE_HOME=os.path.join(os.path.dirname(ws), "cache"))
        e.update(env or {})
        self.proc = subprocess.Popen([os.path.abspath(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, cwd=ws, env=e)
        self.msgs = queue.Queue()
        self.count = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        out = self.proc.stdout
        while True:
            chunk = os.read(out.fileno(), 1 << 16)
            if not chunk:
                self.msgs.put(None)
                return
            buf += chunk
            while True:
                head, sep, rest = buf.partition(b"\r\n\r\n")
                if not sep:
                    break
                n = int(head.split(b":")[1])
                if len(rest) < n:
                    break
                msg = json.loads(rest[:n])
                buf = rest[n:]
                kind = msg.get("method") or ("error" if "error" in msg else "result")
                self.count[kind] = self.count.get(kind, 0) + 1
                self.msgs.put(msg)

    def raw(self, data, chunk=None):
        if chunk is None:
            self.proc.stdin.write(data)
        else:
            for i in range(0, len(data), chunk):
                self.proc.stdin.write(data[i:i + chunk])
                self.proc.stdin.flush()
        self.proc.stdin.flush()

    @staticmethod
    def frame(msg):
        body = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, msg):
        self.raw(self.frame(msg))

    def wait_for(self, pred, timeout):
        end = time.monotonic() + timeout
        while True:
            try:
                m = self.msgs.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                return None
            if m is None:
                return None
            if pred(m):
                return m
            if time.monotonic() > end:
                return None

    def start(self, initialized=True, options=None):
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                   "params": {"rootUri": self.uri, "capabilities": {},
                              "initializationOptions": {"review": options or {"debounceMs": 20}}}})
        if not self.wait_for(lambda m: m.get("id") == "init", 60):
            raise RuntimeError("no answer to initialize")
        if initialized:
            self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def hover(self, rid="probe", timeout=60):
        self.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": self.uri + "/csrc/kernels/attn.cu"},
                              "position": {"line": 2, "character": 0}}})
        return self.wait_for(lambda m: m.get("id") == rid, timeout)

    def rss_mib(self):
        try:
            for line in open("/proc/%d/status" % self.proc.pid):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return 0.0

    def finish(self):
        """shutdown + exit; returns (exit code, stderr text)."""
        try:
            self.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
            self.wait_for(lambda m: m.get("id") == "bye", 60)
            self.send({"jsonrpc": "2.0", "method": "exit"})
            self.proc.stdin.close()
            rc = self.proc.wait(timeout=120)
        except Exception:
            self.proc.kill()
            rc = self.proc.wait()
        self.err.seek(0)
        return rc, self.err.read().decode(errors="replace")


