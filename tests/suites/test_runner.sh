# tests/run-all.sh, the runner `make test` uses, on a small tree of its own: it names each test
# as it starts, keeps each one's whole output in build/test-logs/NAME.log, prints one line per
# failing test with that log's path (and, under CI, the end of the log), counts a crashed suite
# as a failure, and closes with "N passed, N failed" and the exit code to match.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

mkdir -p t/tests/suites t/build/tests
cp "$ROOT/tests/run-all.sh" "$ROOT/tests/lib.sh" t/tests/
printf '#!/bin/sh\necho "PASS unit.adds"\n' > t/build/tests/test_unit
chmod +x t/build/tests/test_unit
cat > t/tests/suites/good.sh <<'S'
. "$ROOT/tests/lib.sh"
pass one; pass two
S
cat > t/tests/suites/mixed.sh <<'S'
. "$ROOT/tests/lib.sh"
echo "the precision policy here: $REVIEW_LSP_PRECISION_POLICY" >&2
pass first
fail second "what went wrong, on stderr"
S
cat > t/tests/suites/crash.sh <<'S'
echo "about to crash" >&2
exit 3
S

out=$(BUILD=build CI= sh t/tests/run-all.sh 2>&1); rc=$?
expect_rc runner-exit-1-on-failure $rc 1
expect_contains runner-progress-names "$out" "[1/4] test_unit"
expect_contains runner-progress-suite "$out" "[3/4] good"
expect_contains runner-progress-counts "$out" "  1 passed, 1 failed ("
expect_contains runner-failing-test-with-log "$out" "FAIL mixed.second  (log: build/test-logs/mixed.log)"
expect_contains runner-crash-is-a-failure "$out" "FAIL crash.exit-3  (log: build/test-logs/crash.log)"
expect_eq runner-closing-line "$(printf '%s\n' "$out" | tail -n 1)" "4 passed, 2 failed"
expect_contains runner-log-keeps-stderr "$(cat t/build/test-logs/mixed.log)" "what went wrong, on stderr"
expect_contains runner-log-keeps-crash-output "$(cat t/build/test-logs/crash.log)" "about to crash"
expect_contains runner-keeps-precision-policy "$(cat t/build/test-logs/mixed.log)" "tests/fixtures/precision/every-rule-at-warning.txt"
expect_not_contains runner-quiet-logs-outside-ci "$out" "what went wrong"
out=$(BUILD=build CI=true sh t/tests/run-all.sh 2>&1)
expect_contains runner-ci-shows-log-end "$out" "  |   what went wrong, on stderr"

rm t/tests/suites/mixed.sh t/tests/suites/crash.sh
out=$(BUILD=build sh t/tests/run-all.sh 2>&1); rc=$?
expect_rc runner-exit-0-when-all-pass $rc 0
expect_eq runner-all-pass-line "$(printf '%s\n' "$out" | tail -n 1)" "3 passed, 0 failed"
