# The language server under valgrind (normal build): the lifecycle, malformed input, the end to
# end document scenario, the code actions, multi-root workspaces, workspace pulls and the
# findings' evidence (hover, Show evidence), with no memory errors and no definite or
# indirect leaks at exit.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/protocol/make-fixture.sh"

if ! command -v valgrind >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  fail setup "valgrind and node are required"; exit 0
fi
make_fixture "$TMPD/fixture"
P="$ROOT/tests/protocol"
node "$P/runner.js" --suite lsp_valgrind --valgrind --bin "$BIN_OPT" --fixture "$TMPD/fixture" --tmp "$TMPD/runs" \
  "$P/lifecycle.t" "$P/framing.t" "$P/json.t" "$P/e2e.t" "$P/actions.t" "$P/cancel.t" "$P/settings.t" \
  "$P/multi-root.t" "$P/pull-workspace.t" "$P/evidence-hover.t"
exit 0
