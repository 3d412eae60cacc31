"""Checks the Python same-code test (engine/same_code_py.c) against Python's own parser on real
aiter history: every modified .py file of a PR that the test calls "the same code" (base at the
merge base with main, head at the PR head) must have an equal AST (ast.dump of both). A file the
test calls the same whose AST differs is a false "same" — collectors that judge code would have
left out a real change — and makes the script exit 1.

  python3 bench/same_code/ast_check.py AITER_GIT PRS_FILE...   (e.g. bench/precision/prs*.txt)

AITER_GIT is a clone of ROCm/aiter with refs/pull/N/head (fetched on this machine, never
committed). The driver is compiled into build/same_code_main with cc."""
import ast
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True).stdout


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    repo, lists = sys.argv[1], sys.argv[2:]
    driver = os.path.join(REPO, "build", "same_code_main")
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-I", REPO, "-o", driver,
                    os.path.join(HERE, "same_main.c"),
                    os.path.join(REPO, "engine", "same_code_py.c"),
                    os.path.join(REPO, "engine", "util.c")], check=True)
    prs = sorted({int(line.split()[0]) for f in lists for line in open(f)
                  if line.strip() and not line.startswith("#") and line.split()[0].isdigit()})
    same = differ = false_same = unparsable = 0
    with tempfile.TemporaryDirectory() as tmp:
        a_path, b_path = os.path.join(tmp, "base.py"), os.path.join(tmp, "head.py")
        for pr in prs:
            head = "refs/pull/%d/head" % pr
            base = git(repo, "merge-base", head, "main").decode().strip()
            if not base:
                continue
            names = git(repo, "diff", "--name-only", "--diff-filter=M", base, head, "--", "*.py")
            for path in names.decode().split():
                a, b = git(repo, "show", base + ":" + path), git(repo, "show", head + ":" + path)
                with open(a_path, "wb") as fa, open(b_path, "wb") as fb:
                    fa.write(a)
                    fb.write(b)
                if subprocess.run([driver, a_path, b_path]).returncode != 0:
                    differ += 1
                    continue
                same += 1
                try:
                    equal = ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
                except (SyntaxError, ValueError):
                    unparsable += 1
                    continue
                if not equal:
                    false_same += 1
                    print("FALSE SAME: aiter#%d %s" % (pr, path))
    print("%d PRs: %d modified Python files the same code, %d not; %d of the same with a "
          "different AST (false same), %d the parser could not read" %
          (len(prs), same, differ, false_same, unparsable))
    return 1 if false_same else 0


if __name__ == "__main__":
    sys.exit(main())
