# What the C++ syntax layer reads, through the real program on real repositories: each case under
# tests/fixtures/syntax/ becomes a git repository with its base/ tree committed and its head/
# tree as the uncommitted work tree, and `review-lsp check --format text` must report exactly
# the findings (location and rule) of the case's expected.txt and meet its checks.txt: a line
# "+ TEXT" must appear in the report, a line "- TEXT" must not.
#
# The cases: a function after an initializer split by #if, and one whose parameters differ per
# branch (siblings and guards read them); a struct whose fields differ per branch, changed in
# the #else branch, and changed in both branches (D11 on the right lines); a new #if
# definition of a struct beside the legacy one and its own size assertion (which pins only the
# legacy one: no D11); decoration macros
# defined in a header and used in a .cu file; an #if 0 block holding an old copy of a function
# (never read as code); a changed line the grammar cannot read (the status says so), also
# beside a sibling finding in the same file (the siblings status says so too).
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# case_repo SRC DIR: a repository at DIR whose HEAD is SRC/base and whose work tree is SRC/head.
case_repo() {
  new_repo "$2"
  cp -R "$1/base/." "$2/"
  commit_all "$2" "base"
  find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -R "$1/head/." "$2/"
}

# locations: a text report's findings reduced to "path:line:col: severity [ID]" and their
# related locations to "    path:line".
locations() {
  sed -n -e 's/^\([^ #][^]]*\]\).*/\1/p' -e 's/^    \([^ :]*:[0-9]*\):.*/    \1/p'
}

for c in "$ROOT"/tests/fixtures/syntax/*/; do
  name=$(basename "$c")
  dir="$TMPD/$name"
  case_repo "$c" "$dir"
  out=$(cd "$dir" && "$BIN" check --format text 2>"$dir.err")
  expect_eq "$name.findings" "$(printf '%s\n' "$out" | locations)" "$(cat "$c/expected.txt")"
  n=0
  while IFS= read -r check; do
    n=$((n + 1))
    case "$check" in
      "+ "*) expect_contains "$name.check$n" "$out" "${check#+ }" ;;
      "- "*) expect_not_contains "$name.check$n" "$out" "${check#- }" ;;
    esac
  done < "$c/checks.txt"
done

# the same cases as diff files with --root (no repository): the views follow the diff's lines
for name in struct_branch if0_block; do
  dir="$TMPD/$name"
  git -C "$dir" add -A
  git -C "$dir" diff --cached > "$dir.diff"
  git -C "$dir" reset -q
  got=$("$BIN" check --diff "$dir.diff" --root "$dir" --format text 2>"$dir.err" | locations)
  expect_eq "$name.diff-mode" "$got" "$(cat "$ROOT/tests/fixtures/syntax/$name/expected.txt")"
done
