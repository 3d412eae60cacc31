# The server's command line and stdio edge cases: stdin and stdout as regular files (replaying
# a session from a file), an unwritable --log path, unknown flags, --help, and a client that
# disappears mid-session.
. "$ROOT/tests/lib.sh"

WS="$TMPD/ws"
new_repo "$WS"
mkdir -p "$WS/csrc/kernels"
printf 'int a;\n' > "$WS/csrc/kernels/k.cu"
commit_all "$WS" base
printf 'int b;\n' > "$WS/csrc/kernels/k.cu"

# frame JSON: one Content-Length message.
frame() { printf 'Content-Length: %s\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
session() {
  frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://'"$WS"'","capabilities":{}}}'
  frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}'
  frame '{"jsonrpc":"2.0","id":3,"method":"shutdown"}'
  frame '{"jsonrpc":"2.0","method":"exit"}'
}
session > "$TMPD/in.bin"

export XDG_CACHE_HOME="$TMPD/cache"
(cd "$WS" && "$BIN" --log "$TMPD/server.log" < "$TMPD/in.bin" > "$TMPD/out.bin" 2> "$TMPD/err.txt"); rc=$?
expect_rc file-stdio-exit $rc 0
out=$(cat "$TMPD/out.bin")
expect_contains file-stdio-publish "$out" '"method":"textDocument/publishDiagnostics"'
expect_contains file-stdio-derived "$out" '[modified-kernel'
expect_contains file-stdio-shutdown "$out" '{"jsonrpc":"2.0","id":3,"result":null}'
expect_contains log-file "$(cat "$TMPD/server.log")" 'exiting with code 0'

(cd "$WS" && "$BIN" --log /nonexistent/dir/server.log < "$TMPD/in.bin" > "$TMPD/out2.bin" 2> "$TMPD/err2.txt"); rc=$?
expect_rc bad-log-path-exit $rc 0
expect_contains bad-log-path-warns "$(cat "$TMPD/err2.txt")" 'cannot open log file'
expect_contains bad-log-path-serves "$(cat "$TMPD/out2.bin")" '"id":3,"result":null'

"$BIN" --bogus < /dev/null > /dev/null 2> "$TMPD/err3.txt"; rc=$?
[ $rc -ne 0 ] && pass unknown-flag-exit || fail unknown-flag-exit "exit code 0 for an unknown flag"
expect_contains unknown-flag-named "$(cat "$TMPD/err3.txt")" '--bogus'
"$BIN" --help > /dev/null 2>&1; expect_rc help-exit $? 0

# Input that ends without exit (the client died): exit code 1, no sanitizer report.
head -c 300 "$TMPD/in.bin" > "$TMPD/cut.bin"
(cd "$WS" && "$BIN" < "$TMPD/cut.bin" > /dev/null 2> "$TMPD/err4.txt"); rc=$?
expect_rc eof-exit $rc 1
expect_not_contains eof-clean "$(cat "$TMPD/err4.txt")" 'Sanitizer'

# A client that closes its end of stdout while the server still writes: no crash, exit 1.
{ session; sleep 1; } | (cd "$WS" && "$BIN" 2> "$TMPD/err5.txt" | head -c 10 > /dev/null); rc=$?
expect_not_contains closed-stdout-clean "$(cat "$TMPD/err5.txt")" 'Sanitizer'
exit 0
