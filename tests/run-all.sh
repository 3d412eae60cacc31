#!/bin/sh
# Runs every test: the C unit tests (build/tests/test_*), then every shell suite in
# tests/suites/*.sh. Each prints PASS/FAIL lines; this script shows each one's name as it
# starts and its counts as it ends, keeps its whole output (stdout and stderr) in
# build/test-logs/NAME.log, prints one line per failing test with that log's path, and closes
# with the standard line "N passed, N failed". Exit 1 when anything failed or a suite crashed.
# With CI set (a CI run, whose files are gone afterwards), the end of each failing log is
# printed too.
set -u
BUILD=${BUILD:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT
export BIN="$ROOT/$BUILD/review-lsp-san"
export BIN_OPT="$ROOT/$BUILD/review-lsp"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
# Collector tests check what each collector decides; the precision policy that may lower it is
# tested on its own (tests/suites/precision_policy.sh unsets this).
export REVIEW_LSP_PRECISION_POLICY="$ROOT/tests/fixtures/precision/every-rule-at-warning.txt"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
TMPROOT=$(mktemp -d /tmp/review-lsp-tests.XXXXXX)
trap 'rm -rf "$TMPROOT"' EXIT INT TERM
LOGS="$ROOT/$BUILD/test-logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"
RESULTS="$TMPROOT/results.txt"
: > "$RESULTS"
crashed=0
total=$(ls "$ROOT/$BUILD"/tests/test_* "$ROOT"/tests/suites/*.sh 2>/dev/null | wc -l)
n=0

# finish NAME RC KIND: count what the log of NAME says, report its failures with the log's path.
finish() {
  log="$LOGS/$1.log"
  if [ "$2" -ne 0 ] && { [ "$3" = suite ] || ! grep -q '^FAIL' "$log"; }; then
    echo "FAIL $1.exit-$2" >> "$log"
    crashed=1
  fi
  grep -E '^(PASS|FAIL) ' "$log" >> "$RESULTS"
  p=$(grep -c '^PASS ' "$log")
  f=$(grep -c '^FAIL ' "$log")
  printf '  %s passed, %s failed (%ss)\n' "$p" "$f" "$(( $(date +%s) - start ))"
  grep '^FAIL ' "$log" | while read -r _ t; do
    echo "FAIL $t  (log: ${log#"$ROOT"/})"
  done
  if [ "$f" -gt 0 ] && [ -n "${CI:-}" ]; then
    echo "  --- end of ${log#"$ROOT"/}"
    tail -n 60 "$log" | sed 's/^/  | /'
  fi
}

for t in "$ROOT/$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  n=$((n + 1)); start=$(date +%s)
  echo "[$n/$total] $name"
  "$t" > "$LOGS/$name.log" 2>&1
  finish "$name" $? unit
done

for s in "$ROOT"/tests/suites/*.sh; do
  [ -f "$s" ] || continue
  name=$(basename "$s" .sh)
  n=$((n + 1)); start=$(date +%s)
  echo "[$n/$total] $name"
  export TMPD="$TMPROOT/$name"; mkdir -p "$TMPD"
  SUITE=$name sh "$s" > "$LOGS/$name.log" 2>&1
  finish "$name" $? suite
done

passed=$(grep -c '^PASS ' "$RESULTS")
failed=$(grep -c '^FAIL ' "$RESULTS")
if [ "$failed" -gt 0 ]; then
  echo "failing tests (logs under ${LOGS#"$ROOT"/}/):"
  grep '^FAIL ' "$RESULTS" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$crashed" -eq 0 ] && [ "$passed" -gt 0 ]
