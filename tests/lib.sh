# Shared helpers for the shell test suites in tests/suites/: each check prints one
# "PASS name" or "FAIL name" line, which tests/run-all.sh counts. Sourced, not run.
# Every suite gets: $BIN (sanitizer build of review-lsp), $BIN_OPT (normal build),
# $ROOT (the checkout), $TMPD (a scratch directory removed at the end of the run).

pass() { echo "PASS $SUITE.$1"; }
fail() { echo "FAIL $SUITE.$1"; shift; [ $# -gt 0 ] && printf '  %s\n' "$@" >&2; return 0; }

# expect_eq NAME GOT WANT
expect_eq() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"; printf '  --- want\n%s\n  --- got\n%s\n' "$3" "$2" >&2; fi
}
# expect_contains NAME HAYSTACK NEEDLE
expect_contains() {
  case "$2" in *"$3"*) pass "$1" ;; *) fail "$1"; printf '  want to contain: %s\n  got:\n%s\n' "$3" "$2" >&2 ;; esac
}
# expect_not_contains NAME HAYSTACK NEEDLE
expect_not_contains() {
  case "$2" in *"$3"*) fail "$1"; printf '  must not contain: %s\n  got:\n%s\n' "$3" "$2" >&2 ;; *) pass "$1" ;; esac
}
# expect_rc NAME GOT WANT
expect_rc() { if [ "$2" -eq "$3" ]; then pass "$1"; else fail "$1" "exit code $2, want $3"; fi; }

# new_repo DIR: an empty git repository with a fixed identity, on branch main.
new_repo() {
  rm -rf "$1"; mkdir -p "$1"
  git -C "$1" init -q -b main
  git -C "$1" config user.email t@example.com
  git -C "$1" config user.name tester
  git -C "$1" config commit.gpgsign false
}
# commit_all DIR MESSAGE
commit_all() { git -C "$1" add -A && git -C "$1" commit -q -m "$2"; }
# npm_tool DIR: install the npm packages pinned in DIR/package-lock.json on first use (npm ci).
# Returns 0 when DIR/node_modules is there.
npm_tool() {
  [ -d "$1/node_modules" ] && return 0
  command -v npm >/dev/null 2>&1 || return 1
  (cd "$1" && npm ci --no-audit --no-fund --silent >/dev/null 2>&1) || { rm -rf "$1/node_modules"; return 1; }
}
