# The batch CLI on real git repositories built here: exit codes, the base and title
# resolution, repository states (unborn, detached, shallow, mid-rebase, corrupt index), the
# change model (untracked, renamed, deleted, binary, oversized files), the output formats, and
# diff files that are empty, truncated, not a diff, CRLF, or have odd paths and content.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# --- usage and exit codes ----------------------------------------------------------------------
out=$("$BIN" --version); expect_contains version "$out" "review-lsp "
out=$("$BIN" --help); expect_contains help-lists-check "$out" "review-lsp check"
"$BIN" frobnicate 2>err.txt; expect_rc unknown-command-exit-2 $? 2
expect_contains unknown-command-message "$(cat err.txt)" "unknown command 'frobnicate'"
"$BIN" check --bogus 2>err.txt; expect_rc unknown-option-exit-2 $? 2
"$BIN" check --format xml 2>err.txt; expect_rc bad-format-exit-2 $? 2
expect_contains bad-format-message "$(cat err.txt)" "--format must be text, json, sarif, github or rdjson"
"$BIN" check --base 2>err.txt; expect_rc missing-value-exit-2 $? 2
"$BIN" check --root . 2>err.txt; expect_rc root-without-diff-exit-2 $? 2
mkdir -p notrepo
"$BIN" check notrepo 2>err.txt; expect_rc not-a-repo-exit-3 $? 3
expect_contains not-a-repo-message "$(cat err.txt)" "is not inside a git repository"
"$BIN" rules notrepo 2>/dev/null; expect_rc rules-not-a-repo-exit-3 $? 3

# --- explain -----------------------------------------------------------------------------------
out=$("$BIN" explain D4); expect_contains explain-known "$out" "**D4 — "
out=$("$BIN" explain HK12b); expect_contains explain-housekeeping-row "$out" "| Check | Trigger | Flag |"
"$BIN" explain D44 2>err.txt; expect_rc explain-unknown-exit-2 $? 2
expect_contains explain-near-matches "$(cat err.txt)" "did you mean D4"
"$BIN" explain 2>/dev/null; expect_rc explain-no-id-exit-2 $? 2

# A repository with its own rules file: explain (and every other command) reads that file, in
# the repository and when PATH names it from elsewhere; it wins over --rules, which is then
# said to be unused.
new_repo own
mkdir -p own/.claude/skills/review-pr
cat > own/.claude/skills/review-pr/rules.md <<'R'
### D — Safety

**D4 — Guard removed, team wording** 🔴
**Catches:** our team's own text for the guard rule.
R
printf 'x\n' > own/a.py; commit_all own base
printf '### T\n\n**D4 — From the rules flag** 🔴\ntext\n' > flag-rules.md
out=$(cd own && "$BIN" explain D4)
expect_contains explain-reads-repository-rules "$out" "**D4 — Guard removed, team wording**"
out=$("$BIN" explain D4 own)
expect_contains explain-path-reads-repository-rules "$out" "our team's own text for the guard rule"
out=$(cd own && "$BIN" explain D4 --rules ../flag-rules.md 2>../err.txt)
expect_contains repository-rules-win-over-flag "$out" "team wording"
expect_contains unused-rules-flag-noted "$(cat err.txt)" "rules file ../flag-rules.md is not used: the repository has its own"
out=$("$BIN" explain D4 --rules flag-rules.md)
expect_contains rules-flag-outside-repository "$out" "**D4 — From the rules flag**"
(cd own && "$BIN" explain D8 2>/dev/null); expect_rc explain-unknown-in-repository-rules-exit-2 $? 2

# --- a repository with a base commit and an uncommitted change ----------------------------------
new_repo r1
mkdir -p r1/csrc/kernels r1/aiter/ops r1/op_tests
printf 'int f(int x) {\n  return x;\n}\n' > r1/csrc/kernels/a.cu
printf 'def wrap(x):\n    assert x is not None\n    return x\n' > r1/aiter/ops/wrap.py
printf 'stays\n' > r1/notes.txt
printf 'gone soon\n' > r1/old.txt
printf 'renamed content line one\nline two\nline three\n' > r1/before.py
commit_all r1 "base"
printf 'int f(int x) {\n  return x * 2;\n}\n' > r1/csrc/kernels/a.cu
printf 'def wrap(x):\n    return x\n' > r1/aiter/ops/wrap.py
printf 'def test_new():\n    assert True\n' > r1/op_tests/test_new.py
rm r1/old.txt
git -C r1 mv before.py after.py
printf '\000\001\002binary' > r1/blob.bin
out=$(cd r1 && "$BIN" rules)
# Expected output produced by running the original triage.py on the same change's git diff.
expect_eq repo-rules "$out" "  files=6  types=5  rules=10/53
    [modified-kernel     ] A1 B2 D1 D8 P6
    [ops-wrapper         ] B6
    [invariant-removed   ] D4 B7
    [scattered-diff      ] HK2
    [nth-variant         ] HK5"
git -C r1 add -A
( cd r1 && git diff --cached > ../r1.diff ) ; git -C r1 reset -q
out_diff=$("$BIN" rules --diff r1.diff)
out_repo=$(cd r1 && "$BIN" rules)
# git diff --cached shows the rename with its new path, and the binary file as "Binary files differ".
expect_eq repo-mode-equals-diff-mode "$out_repo" "$out_diff"
json=$(cd r1 && "$BIN" check --format json)
flags=$(printf '%s' "$json" | python3 -c '
import json,sys
d=json.load(sys.stdin)
f={x["path"]:x for x in d["files"]}
print(f["op_tests/test_new.py"]["new"], f["old.txt"]["deleted"], f["after.py"]["renamed"], f["after.py"].get("oldPath"), f["blob.bin"].get("skipped"))')
expect_eq change-model-flags "$flags" "True True True before.py binary file"
out=$(cd r1 && "$BIN" check)
expect_contains check-notes-binary "$out" "# note: blob.bin: binary file, not reviewed"
expect_contains check-summary "$out" "in 6 changed files; base main (merge base"

# A file over the size cap is skipped and reported.
head -c 3000 /dev/zero | tr '\0' 'x' > r1/big.py
out=$(cd r1 && "$BIN" check --max-file-bytes 1000)
expect_contains oversize-skipped "$out" "big.py: larger than 1000 bytes, not reviewed"
rm r1/big.py

# --- title and base resolution -----------------------------------------------------------------
new_repo r2
printf 'a\n' > r2/a.py; commit_all r2 "base"
git -C r2 checkout -q -b feature
printf 'a\nb\n' > r2/a.py; commit_all r2 "perf: fuse the epilogue"
out=$(cd r2 && "$BIN" rules)
expect_contains title-from-newest-commit "$out" "[perf                ] P1 P2 P3 P5 P6"
out=$(cd r2 && "$BIN" rules --title "plain title")
expect_not_contains title-flag-overrides "$out" "[perf"
out=$(cd r2 && "$BIN" check --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["base"])')
expect_contains base-is-main "$out" "main (merge base"
# No commit since the base: the branch name is the title.
git -C r2 checkout -q -b perf-branch main
printf 'a\nc\n' > r2/a.py
out=$(cd r2 && "$BIN" rules)
expect_contains title-from-branch-name "$out" "[perf "
# origin/main wins over local main when there is a remote; upstream wins over both.
git clone -q --bare r2 r2.git
new_repo r3
git -C r3 remote add origin "$TMPD/r2.git"
git -C r3 fetch -q origin
git -C r3 checkout -q -b work origin/feature 2>/dev/null
out=$(cd r3 && "$BIN" check --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["base"])')
expect_contains base-is-upstream "$out" "origin/feature"
git -C r3 branch -q --unset-upstream
out=$(cd r3 && "$BIN" check --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["base"])')
expect_contains base-is-origin-main "$out" "origin/main"
out=$(cd r3 && "$BIN" check --base HEAD~1 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["base"])')
expect_contains base-flag "$out" "HEAD~1"
# An explicit base that names no commit is an error (a mistyped base must not review the wrong
# change quietly); so is a PATH that does not exist.
out=$(cd r3 && "$BIN" check --base origin/mian 2>&1); rc=$?
expect_rc unresolved-base-exit-2 $rc 2
expect_contains unresolved-base-message "$out" "base 'origin/mian' does not name a commit in"
(cd r3 && "$BIN" rules --base origin/mian >/dev/null 2>&1); expect_rc unresolved-base-rules-exit-2 $? 2
(cd r3 && "$BIN" check --base HEAD~1 >/dev/null 2>&1); expect_rc resolved-base-exit-0 $? 0
"$BIN" check "$TMPD/no/such/dir" 2>err.txt; expect_rc missing-path-exit-3 $? 3
expect_contains missing-path-says-so "$(cat err.txt)" "$TMPD/no/such/dir does not exist"
# An unknown --disable id is reported with the nearest ids; the review still runs.
out=$(cd r3 && "$BIN" check --disable D44 --disable B8 2>&1 >/dev/null); rc=$?
expect_contains unknown-disable-warns "$out" "warning: --disable D44 names no rule; did you mean D4"
expect_not_contains known-disable-quiet "$out" "--disable B8"
(cd r3 && "$BIN" check --disable D44 >/dev/null 2>&1); expect_rc unknown-disable-exit-0 $? 0

# --- repository states -------------------------------------------------------------------------
new_repo unborn
printf 'print(1)\n' > unborn/x.py
out=$(cd unborn && "$BIN" rules); rc=$?
expect_rc unborn-exit-0 $rc 0
out=$(cd unborn && "$BIN" check --format json | python3 -c 'import json,sys; print([(f["path"], f["new"]) for f in json.load(sys.stdin)["files"]])')
expect_eq unborn-counts-new-file "$out" "[('x.py', True)]"
out=$(cd unborn && "$BIN" check)
expect_contains unborn-base "$out" "base empty tree"

new_repo detached
printf 'a\n' > detached/k.cu; commit_all detached one
printf 'b\n' > detached/k.cu; commit_all detached two
git -C detached branch -q -m main trunk
git -C detached checkout -q --detach HEAD
printf 'c\n' > detached/k.cu
out=$(cd detached && "$BIN" check 2>&1); rc=$?
expect_rc detached-exit-0 $rc 0
expect_contains detached-says-so "$out" "HEAD is detached and no main/master branch exists"
expect_contains detached-reviews-uncommitted "$out" "in 1 changed file;"
expect_contains detached-empty-title-noted "$out" "# note: the title is empty: HEAD is detached and has no commit since the base"
out=$(cd detached && "$BIN" check --title "perf: x" 2>&1)
expect_not_contains titled-no-empty-title-note "$out" "the title is empty"

git clone -q --depth 1 "file://$TMPD/r2" shallow 2>/dev/null
printf 'z\n' >> shallow/a.py
out=$(cd shallow && "$BIN" check --format json); rc=$?
expect_rc shallow-exit-0 $rc 0
out=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print([f["path"] for f in d["files"]], d["base"].split(" ")[0])')
expect_eq shallow-reviews-change "$out" "['a.py'] origin/perf-branch"

new_repo rebasing
printf 'one\n' > rebasing/f.py; commit_all rebasing base
git -C rebasing checkout -q -b topic
printf 'topic\n' > rebasing/f.py; commit_all rebasing topic
git -C rebasing checkout -q main
printf 'main\n' > rebasing/f.py; commit_all rebasing main-change
git -C rebasing checkout -q topic
git -C rebasing rebase -q main >/dev/null 2>&1
out=$(cd rebasing && "$BIN" check 2>&1); rc=$?
expect_rc mid-rebase-exit-0 $rc 0
expect_contains mid-rebase-noted "$out" "rebase is in progress"
git -C rebasing rebase --abort

new_repo corrupt
printf 'a\n' > corrupt/a.py; commit_all corrupt base
printf 'b\n' > corrupt/a.py
printf 'garbage that is not an index' > corrupt/.git/index
out=$(cd corrupt && "$BIN" check 2>&1); rc=$?
expect_rc corrupt-index-exit-0 $rc 0
expect_contains corrupt-index-noted "$out" "the index cannot be read"
expect_contains corrupt-index-still-reviews "$out" "changed file"

# --- formats and --fail-on ---------------------------------------------------------------------
sarif=$(cd r1 && "$BIN" check --format sarif)
v=$(printf '%s' "$sarif" | python3 -c '
import json,sys
d=json.load(sys.stdin)
r=d["runs"][0]
ok = d["version"]=="2.1.0" and r["tool"]["driver"]["name"]=="review-lsp" and isinstance(r["results"],list)
print("ok" if ok else "bad")')
expect_eq sarif-shape "$v" "ok"
(cd r2 && "$BIN" check --fail-on warning >/dev/null); expect_rc fail-on-without-findings-exit-0 $? 0
"$BIN" check --fail-on error 2>/dev/null; expect_rc fail-on-bad-value-exit-2 $? 2

# --- diff files --------------------------------------------------------------------------------
: > empty.diff
out=$("$BIN" rules --diff empty.diff 2>err.txt); rc=$?
expect_rc empty-diff-rules-exit-0 $rc 0
expect_eq empty-diff-underivable "$out" "    [underivable           ] $("$BIN" rules --diff empty.diff 2>/dev/null | sed 's/.*] //')"
expect_contains empty-diff-note "$(cat err.txt)" "the diff is empty"
"$BIN" check --diff empty.diff 2>err.txt; expect_rc empty-diff-check-exit-2 $? 2
printf 'hello\nthis is not a diff\n' > prose.diff
"$BIN" check --diff prose.diff 2>err.txt; expect_rc not-a-diff-exit-2 $? 2
expect_contains not-a-diff-message "$(cat err.txt)" "not a unified diff"
"$BIN" rules --diff no-such-file.diff 2>err.txt; expect_rc missing-diff-file-exit-2 $? 2

cat > trunc.diff <<'D'
diff --git a/csrc/kernels/x.cu b/csrc/kernels/x.cu
index 1111111..2222222 100644
--- a/csrc/kernels/x.cu
+++ b/csrc/kernels/x.cu
@@ -1,5 +1,6 @@
 int a;
-TORCH_CHECK(n > 0);
+int b;
D
out=$("$BIN" rules --diff trunc.diff); rc=$?
expect_rc truncated-exit-0 $rc 0
expect_contains truncated-keeps-what-it-has "$out" "[invariant-removed   ] D4 B7"
out=$("$BIN" check --diff trunc.diff)
expect_contains truncated-noted "$out" "truncated"

printf 'diff --git a/csrc/kernels/x.cu b/csrc/kernels/x.cu\r\n--- a/csrc/kernels/x.cu\r\n+++ b/csrc/kernels/x.cu\r\n@@ -1,2 +1,2 @@\r\n int a;\r\n-TORCH_CHECK(a > 0);\r\n+int b;\r\n' > crlf.diff
out=$("$BIN" rules --diff crlf.diff)
expect_eq crlf-diff "$out" "  files=1  types=2  rules=7/53
    [modified-kernel     ] A1 B2 D1 D8 P6
    [invariant-removed   ] D4 B7"

cat > spaces.diff <<'D'
diff --git a/aiter/ops/my op.py b/aiter/ops/my op.py
--- a/aiter/ops/my op.py
+++ b/aiter/ops/my op.py
@@ -1,2 +1,2 @@
 x = 1
-assert x
+y = 2
D
out=$("$BIN" check --diff spaces.diff --format json | python3 -c 'import json,sys; print([f["path"] for f in json.load(sys.stdin)["files"]])')
expect_eq path-with-spaces "$out" "['aiter/ops/my op.py']"

cat > plusplus.diff <<'D'
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -1,3 +1,3 @@
 x = 1
---- assert x
+++++ y
 z = 3
D
out=$("$BIN" check --diff plusplus.diff --format json | python3 -c '
import json,sys
d=json.load(sys.stdin); f=d["files"][0]; print(len(d["files"]), f["added"], f["deleted_lines"])')
expect_eq plusplus-content-lines-are-content "$out" "1 1 1"

awk 'BEGIN{printf "diff --git a/k.py b/k.py\n--- a/k.py\n+++ b/k.py\n@@ -0,0 +1 @@\n+"; for(i=0;i<200000;i++) printf "x"; printf "\n"}' > longline.diff
"$BIN" rules --diff longline.diff >/dev/null; rc=$?
expect_rc long-line-exit-0 $rc 0
out=$("$BIN" check --diff longline.diff --format json | python3 -c 'import json,sys; print([(f["path"], f["added"]) for f in json.load(sys.stdin)["files"]])')
expect_eq long-line-read "$out" "[('k.py', 1)]"
