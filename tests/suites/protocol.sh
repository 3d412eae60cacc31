# Protocol transcripts (tests/protocol/*.t) played against the sanitizer build over real pipes,
# on a real git repository built here (tests/protocol/make-fixture.sh).
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/protocol/make-fixture.sh"

if ! command -v node >/dev/null 2>&1; then
  fail node "node is required for the protocol transcripts"; exit 0
fi
make_fixture "$TMPD/fixture"
node "$ROOT/tests/protocol/runner.js" --bin "$BIN" --fixture "$TMPD/fixture" --tmp "$TMPD/runs" "$ROOT"/tests/protocol/*.t
exit 0
