# Nothing outside the tree is ever opened: diff paths that climb out of --root, paths through a
# symbolic link to a directory outside, a link to a file outside, and (repository mode) a
# changed file that is itself a link. Each bait outside the tree is a FIFO with a writer
# waiting on it: if the review opens it for reading, the writer gets through and leaves a
# mark, so an open is seen even when nothing of the file reaches the report. Refusals must be
# notes in the report, and a link in the change is reported as a link with its target.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

writers=""
# bait NAME: a FIFO outside/NAME whose every open for reading appends to opened.NAME.
bait() {
  mkfifo "outside/$1"
  ( while :; do printf '    TORCH_CHECK(num_tokens > 0, "BAIT_%s");\n' "$1" > "outside/$1" || exit 0
      echo opened >> "opened.$1"; done ) &
  writers="$writers $!"
}
stop_writers() { for p in $writers; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; writers=""; }
trap stop_writers EXIT

# --- --diff with --root ------------------------------------------------------------------------
rm -rf root outside; mkdir -p root/csrc outside
printf '// kernel\nvoid launch(int num_tokens) {\n    int x = 1;\n    run(num_tokens);\n}\n' > root/csrc/kern.cu
ln -s "$TMPD/outside" root/viadir
ln -s "$TMPD/outside/direct.cu" root/lnk.cu
bait dotdot.cu; bait kern.cu; bait direct.cu
hunk() { printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -4,2 +4,2 @@\n-    int y = 1;\n+    int y = 2;\n     go(num_tokens);\n' "$1" "$1" "$1" "$1"; }
{
  printf 'diff --git a/csrc/kern.cu b/csrc/kern.cu\n--- a/csrc/kern.cu\n+++ b/csrc/kern.cu\n'
  printf '@@ -1,6 +1,5 @@\n // kernel\n void launch(int num_tokens) {\n-    TORCH_CHECK(num_tokens > 0, "need tokens");\n     int x = 1;\n     run(num_tokens);\n }\n'
  hunk ../outside/dotdot.cu; hunk viadir/kern.cu; hunk lnk.cu
} > escape.diff
for fmt in json text sarif; do
  timeout 120 "$BIN" check --diff escape.diff --root root --format $fmt > "out.$fmt" 2> "err.$fmt"
  expect_rc "diff-root.$fmt.exit-0" $? 0
done
sleep 0.2
for b in dotdot.cu kern.cu direct.cu; do
  if [ -e "opened.$b" ]; then fail "diff-root.never-opens-outside.$b" "the review opened outside/$b"; else pass "diff-root.never-opens-outside.$b"; fi
done
json=$(cat out.json)
expect_not_contains diff-root.no-bait-in-json "$json" "BAIT_"
expect_not_contains diff-root.no-bait-in-text "$(cat out.text)" "BAIT_"
expect_not_contains diff-root.no-bait-in-sarif "$(cat out.sarif)" "BAIT_"
expect_contains diff-root.note-dotdot "$json" '"../outside/dotdot.cu: not read: the path leaves the tree"'
expect_contains diff-root.note-link-on-the-way "$json" '"viadir/kern.cu: not read: a symbolic link is on its way, not followed"'
expect_contains diff-root.note-link-file "$json" "\"lnk.cu: not read: a symbolic link (to $TMPD/outside/direct.cu), not followed\""
expect_contains diff-root.text-notes-too "$(cat out.text)" "# note: ../outside/dotdot.cu: not read: the path leaves the tree"
# The review itself still happens: the deleted guard inside the tree is found.
expect_contains diff-root.rest-reviewed "$json" '"rule": "D4"'
stop_writers

# --- repository mode: a changed file that is a symbolic link -----------------------------------
rm -rf outside opened.*; mkdir -p outside
new_repo repo
mkdir -p repo/csrc
printf '// kernel\nvoid k(int n) {\n    run(n);\n}\n' > repo/csrc/kern.cu
commit_all repo base
bait repo_target.cu
ln -s "$TMPD/outside/repo_target.cu" repo/csrc/evil.cu
printf '// kernel\nvoid k(int n) {\n    run(n + 1);\n}\n' > repo/csrc/kern.cu
timeout 120 "$BIN" check repo --format json > repo.json 2> repo.err
expect_rc repo.exit-0 $? 0
sleep 0.2
if [ -e opened.repo_target.cu ]; then fail repo.link-never-read "the review read through csrc/evil.cu"; else pass repo.link-never-read; fi
json=$(cat repo.json)
expect_not_contains repo.no-bait "$json" "BAIT_"
expect_contains repo.link-reported-with-target "$json" "\"skipped\": \"symbolic link to $TMPD/outside/repo_target.cu, not followed\""
expect_contains repo.link-noted "$json" "\"csrc/evil.cu: symbolic link to $TMPD/outside/repo_target.cu, not followed\""
expect_contains repo.rest-reviewed "$json" '"path": "csrc/kern.cu"'
stop_writers
exit 0
