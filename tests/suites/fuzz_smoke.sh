# The libFuzzer targets of tests/fuzz (built by `make test` when clang with libFuzzer is there),
# each run for a fixed number of inputs from seeds made of the transcripts and fixtures: a
# smoke test that every target builds, starts and survives its corpus. The long campaign is
# `make fuzz SECONDS=N` (README, "Fuzzing").
. "$ROOT/tests/lib.sh"
F="$(dirname "$BIN")/fuzz"
if ! ls "$F"/fuzz_* >/dev/null 2>&1; then
  echo "SKIP $SUITE: no fuzz targets in $F (clang with libFuzzer was not available to make test)"
  exit 0
fi
python3 "$ROOT/tests/fuzz/seeds.py" "$TMPD/seeds" || { fail seeds "seeds.py failed"; exit 0; }
for src in "$ROOT"/tests/fuzz/fuzz_*.c; do
  t=$(basename "$src" .c)
  case $t in fuzz_server) runs=300 ;; fuzz_diff|fuzz_rules) runs=1500 ;; *) runs=4000 ;; esac
  if [ ! -x "$F/$t" ]; then fail "$t.built" "$F/$t is missing"; continue; fi
  mkdir -p "$TMPD/corpus/$t"
  timeout 300 "$F/$t" -runs=$runs -timeout=30 -artifact_prefix="$TMPD/$t-" \
      "$TMPD/corpus/$t" "$TMPD/seeds/$t" > "$TMPD/$t.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then pass "$t.$runs-runs"; else
    fail "$t.$runs-runs" "exit $rc"; tail -n 30 "$TMPD/$t.log" >&2; fi
done
exit 0
