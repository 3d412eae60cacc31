#!/bin/sh
# `make fuzz SECONDS=N`: runs every libFuzzer target of BUILD/fuzz for N seconds on its corpus
# (BUILD/fuzz/corpus/TARGET, grown across runs, seeded by tests/fuzz/seeds.py), one after the
# other, and prints per target the executions, the corpus size and the crashes (inputs that
# crash are kept in BUILD/fuzz/crashes/). Exit 1 when a target crashed.
# usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]
set -u
BUILD=${1:-build}
SECS=${2:-60}
shift 2 2>/dev/null || shift $#
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
F="$BUILD/fuzz"
python3 "$ROOT/tests/fuzz/seeds.py" "$F/seeds" || exit 1
mkdir -p "$F/crashes" "$F/logs"
targets=${*:-$(cd "$F" && ls fuzz_* 2>/dev/null | grep -v '\.')}
failed=0
for t in $targets; do
  mkdir -p "$F/corpus/$t"
  log="$F/logs/$t.log"
  "$F/$t" -max_total_time="$SECS" -print_final_stats=1 -timeout=30 -rss_limit_mb=2048 \
      -artifact_prefix="$F/crashes/$t-" "$F/corpus/$t" "$F/seeds/$t" > "$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  crashes=$(ls "$F/crashes" | grep -c "^$t-")
  corpus=$(ls "$F/corpus/$t" | wc -l)
  echo "$t: ${execs:-?} executions in ${SECS} s (${rate:-?}/s), corpus $corpus, crashes $crashes, exit $rc"
  [ "$rc" -ne 0 ] && failed=1
done
exit $failed
