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

# timed_server_edits REPO REL LANGUAGE_ID N: a language-server session on REPO (the real
# binary, a real client: tests/watch/lsp_session.py) with REVIEW_LSP_TIMING on, its timing
# lines appended to $TMPD/server.txt: open REL, ask for its diagnostics, then N times add a
# newline at its end and ask again. Returns non-zero when the session fails.
timed_server_edits() {
  cat > "$TMPD/wrap.sh" <<SH
#!/bin/sh
REVIEW_LSP_TIMING=1 exec "$BIN" "\$@" 2>>"$TMPD/server.txt"
SH
  chmod +x "$TMPD/wrap.sh"
  python3 - "$TMPD/wrap.sh" "$1" "$2" "$3" "$4" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests", "watch"))
from lsp_session import Session
binary, repo, rel, lang, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
s = Session(binary, repo, {"debounceMs": 0},
            {"textDocument": {"diagnostic": {"dynamicRegistration": False}}})
uri = "file://" + os.path.join(os.path.realpath(repo), rel)
text = open(os.path.join(repo, rel)).read()
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})
s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
for v in range(2, n + 2):
    text += "\n"
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                        "contentChanges": [{"text": text}]})
    s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
s.close()
PY
}
