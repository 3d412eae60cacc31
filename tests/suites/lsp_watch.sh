# The server watching the work tree by itself: tests/watch/test_watch.py drives the real
# binary over pipes while git and plain file operations change a real repository.
. "$ROOT/tests/lib.sh"
python3 "$ROOT/tests/watch/test_watch.py" "$BIN" "$TMPD" || true
