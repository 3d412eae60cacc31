"""The server follows the work tree by itself (its own inotify watches, no client events):
files changed, created, deleted and renamed by other processes, a new directory with files,
git checkout, commit, stash and pop, and a rebase stopped on a conflict. Each step asserts the
published diagnostics once the tree has settled. Prints PASS/FAIL lines."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lsp_session import Session  # noqa: E402

BIN, TMP = sys.argv[1], sys.argv[2]
failures = 0


def check(name, got, want):
    global failures
    if got == want:
        print("PASS lsp_watch." + name)
    else:
        failures += 1
        print("FAIL lsp_watch." + name)
        print("  got:  %r\n  want: %r" % (got, want), file=sys.stderr)
    sys.stdout.flush()


def git(repo, *args):
    subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def write(repo, rel, text):
    path = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


KERNEL = "__global__ void k%d(float *o, int n) {\n    int i = threadIdx.x;\n    o[i] = %d;\n}\n"

repo = os.path.join(TMP, "watched")
os.makedirs(repo)
git(repo, "init", "-q", "-b", "main")
git(repo, "config", "user.email", "t@example.com")
git(repo, "config", "user.name", "t")
for i in range(3):
    write(repo, "csrc/kernels/k%d.cu" % i, KERNEL % (i, i))
write(repo, "aiter/ops/op.py", "def op(x):\n    return x\n")
git(repo, "add", "-A")
git(repo, "commit", "-q", "-m", "base")
git(repo, "checkout", "-q", "-b", "feature")

s = Session(BIN, repo)
s.settle()
check("starts-clean", s.changed_files(), [])

write(repo, "csrc/kernels/k0.cu", KERNEL % (0, 42))
s.settle()
check("file-changed-by-another-process", s.changed_files(), ["csrc/kernels/k0.cu"])
check("changed-file-derives-modified-kernel", "modified-kernel" in s.families("csrc/kernels/k0.cu"), True)

write(repo, "csrc/kernels/k9.cu", KERNEL % (9, 9))
s.settle()
check("file-created", "new-kernel" in s.families("csrc/kernels/k9.cu"), True)

os.remove(os.path.join(repo, "csrc/kernels/k9.cu"))
s.settle()
check("created-file-deleted-clears", s.changed_files(), ["csrc/kernels/k0.cu"])

os.rename(os.path.join(repo, "aiter/ops/op.py"), os.path.join(repo, "aiter/ops/op2.py"))
s.settle()
check("file-renamed-shows-new-path", "aiter/ops/op2.py" in s.changed_files(), True)
os.rename(os.path.join(repo, "aiter/ops/op2.py"), os.path.join(repo, "aiter/ops/op.py"))
s.settle()
check("rename-undone", s.changed_files(), ["csrc/kernels/k0.cu"])

write(repo, "csrc/kernels/newdir/a.cu", KERNEL % (5, 5))
write(repo, "csrc/kernels/newdir/b.cu", KERNEL % (6, 6))
s.settle()
check("new-directory-with-files", [p for p in s.changed_files() if "newdir" in p],
      ["csrc/kernels/newdir/a.cu", "csrc/kernels/newdir/b.cu"])
write(repo, "csrc/kernels/newdir/b.cu", KERNEL % (6, 7))
s.settle()
check("new-directory-is-watched", "csrc/kernels/newdir/b.cu" in s.changed_files(), True)
subprocess.run(["rm", "-rf", os.path.join(repo, "csrc/kernels/newdir")], check=True)
s.settle()
check("directory-removed-clears", s.changed_files(), ["csrc/kernels/k0.cu"])

# git commit: the base is main, so the committed change stays under review
git(repo, "commit", "-q", "-am", "tweak k0")
s.settle()
check("commit-with-upstream-base-keeps", s.changed_files(), ["csrc/kernels/k0.cu"])

# git checkout main: HEAD moves; main has none of the change
git(repo, "checkout", "-q", "main")
s.settle()
check("checkout-main-clears", s.changed_files(), [])
git(repo, "checkout", "-q", "feature")
s.settle()
check("checkout-feature-restores", s.changed_files(), ["csrc/kernels/k0.cu"])

# stash and pop an uncommitted change
write(repo, "csrc/kernels/k1.cu", KERNEL % (1, 11))
s.settle()
check("uncommitted-shows", s.changed_files(), ["csrc/kernels/k0.cu", "csrc/kernels/k1.cu"])
git(repo, "stash")
s.settle()
check("stash-hides", s.changed_files(), ["csrc/kernels/k0.cu"])
git(repo, "stash", "pop")
s.settle()
check("stash-pop-restores", s.changed_files(), ["csrc/kernels/k0.cu", "csrc/kernels/k1.cu"])
git(repo, "checkout", "--", "csrc/kernels/k1.cu")
s.settle()
check("revert-clears", s.changed_files(), ["csrc/kernels/k0.cu"])

# a rebase stopped on a conflict: main changed k0 too
git(repo, "checkout", "-q", "main")
write(repo, "csrc/kernels/k0.cu", KERNEL % (0, 7))
git(repo, "commit", "-q", "-am", "main edits k0")
git(repo, "checkout", "-q", "feature")
s.settle()
r = subprocess.run(["git", "-C", repo, "rebase", "main"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
s.settle()
check("rebase-conflict-stops", r.returncode != 0, True)
check("rebase-conflict-reviews-tree", "csrc/kernels/k0.cu" in s.changed_files(), True)
git(repo, "rebase", "--abort")
s.settle()
check("rebase-aborted", s.changed_files(), ["csrc/kernels/k0.cu"])

# on main itself the base is HEAD: committing the change moves the base past it
git(repo, "checkout", "-q", "main")
s.settle()
write(repo, "csrc/kernels/k2.cu", KERNEL % (2, 22))
s.settle()
check("base-head-shows-uncommitted", s.changed_files(), ["csrc/kernels/k2.cu"])
git(repo, "commit", "-q", "-am", "k2 on main")
s.settle()
check("commit-with-head-base-clears", s.changed_files(), [])

# a storm: 300 files rewritten at once settle into one consistent picture
for i in range(300):
    write(repo, "csrc/kernels/storm/s%d.cu" % i, KERNEL % (i, i))
s.settle()
check("event-storm-settles", len([p for p in s.changed_files() if "/storm/" in p]), 300)

# an open commit buffer is checked for perf claims but never joins the change; an open file
# that git ignores does not join it either
with open(os.path.join(repo, ".gitignore"), "w") as f:
    f.write("build/\n")
git(repo, "add", ".gitignore")
git(repo, "commit", "-q", "-m", "ignore build")
s.settle()
os.makedirs(os.path.join(repo, "build"), exist_ok=True)
s.notify("textDocument/didOpen", {"textDocument": {
    "uri": "file://" + os.path.join(s.root, ".git/COMMIT_EDITMSG"), "languageId": "gitcommit",
    "version": 1, "text": "Speed up decode\n\nDecode now takes 12.5 us per token, 35% faster.\n"}})
s.notify("textDocument/didOpen", {"textDocument": {
    "uri": "file://" + os.path.join(s.root, "build/gen.py"), "languageId": "python",
    "version": 1, "text": "import os\nX = os.environ.get('AITER_FOO')\n"}})
s.settle()
check("commit-buffer-perf-claims", any(c in ("P1", "P3") for c in s.codes(".git/COMMIT_EDITMSG")), True)
check("ignored-open-file-not-in-change", s.diags.get("build/gen.py", []), [])

rc = s.close()
check("exit-code-after-shutdown", rc, 0)
sys.exit(1 if failures else 0)
