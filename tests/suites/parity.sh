#!/bin/sh
# Parity with the original rule deriver (`triage.py rules <diff> <title>` in ROCm/aiter's
# review-pr skill). Every case in tests/parity/cases/ is three files:
#   NAME.diff      the input diff, exactly as `git diff` / `gh pr diff` would hand it over
#   NAME.title     the PR title on one line (the file may be empty)
#   NAME.expected  the exact bytes the original printed on stdout for that diff and title
# Our `rules` command must print the same bytes and exit 0, as the original always does
# in this mode. Run as: SUITE=parity sh tests/suites/parity.sh (see tests/run-all.sh).
. "$ROOT/tests/lib.sh"

CASES="$ROOT/tests/parity/cases"
count=0
for diff in "$CASES"/*.diff; do
  [ -f "$diff" ] || continue
  base=${diff%.diff}
  name=$(basename "$base")
  count=$((count + 1))
  if [ ! -f "$base.title" ] || [ ! -f "$base.expected" ]; then
    fail "$name" "case is missing $name.title or $name.expected"
    continue
  fi
  # $(cat) drops the title file's trailing newline, which is what the original was given.
  title=$(cat "$base.title")
  out="$TMPD/$name.out"
  err="$TMPD/$name.err"
  "$BIN" rules --diff "$diff" --title "$title" > "$out" 2> "$err"
  rc=$?
  if [ "$rc" -eq 0 ] && cmp -s "$base.expected" "$out"; then
    pass "$name"
  else
    if [ "$rc" -ne 0 ]; then fail "$name" "exit code $rc, want 0"; else fail "$name"; fi
    diff -u "$base.expected" "$out" >&2
    if [ -s "$err" ]; then
      echo "  --- stderr (last lines)" >&2
      tail -n 5 "$err" >&2
    fi
  fi
done

if [ "$count" -eq 0 ]; then
  fail corpus "no cases found in $CASES"
fi
exit 0
