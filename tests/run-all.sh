#!/bin/sh
# Runs every test: the C unit tests (build/tests/test_*), then every shell suite in
# tests/suites/*.sh. Each prints PASS/FAIL lines; this script counts them and closes with
# the standard line "N passed, N failed". Exit 1 when anything failed or a suite crashed.
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
LOG="$TMPROOT/results.txt"
: > "$LOG"
crashed=0

for t in "$ROOT/$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  "$t" > "$TMPROOT/$name.out" 2> "$TMPROOT/$name.err"; rc=$?
  cat "$TMPROOT/$name.out" >> "$LOG"
  if [ $rc -ne 0 ] && ! grep -q "^FAIL" "$TMPROOT/$name.out"; then crashed=1; echo "FAIL $name.exit-$rc" >> "$LOG"; fi
  [ -s "$TMPROOT/$name.err" ] && { echo "== $name stderr"; cat "$TMPROOT/$name.err"; }
done

for s in "$ROOT"/tests/suites/*.sh; do
  [ -f "$s" ] || continue
  name=$(basename "$s" .sh)
  export TMPD="$TMPROOT/$name"; mkdir -p "$TMPD"
  SUITE=$name sh "$s" > "$TMPROOT/$name.out" 2> "$TMPROOT/$name.err"; rc=$?
  cat "$TMPROOT/$name.out" >> "$LOG"
  if [ $rc -ne 0 ]; then echo "FAIL $name.suite-exit-$rc" >> "$LOG"; fi
  if grep -q '^FAIL' "$TMPROOT/$name.out" || [ $rc -ne 0 ]; then
    echo "== $name stderr"; tail -n 80 "$TMPROOT/$name.err"
  fi
done

grep '^FAIL' "$LOG"
passed=$(grep -c '^PASS' "$LOG")
failed=$(grep -c '^FAIL' "$LOG")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$crashed" -eq 0 ] && [ "$passed" -gt 0 ]
