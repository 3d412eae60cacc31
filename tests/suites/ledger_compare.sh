# The precision ledger's `compare`: between two runs of the same PRs it names each PR whose
# findings differ (the finding gone and the one new, by rule and place), counts the PRs whose
# status lines differ (printing them with --status), and exits 1 only when a finding differs.
# And its `report --pool`: several runs of disjoint PR sets reported as one, so a figure quoted
# over every set comes from one command. The runs here are the real binary's JSON for a change
# before and after its guard is put back.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo lc
mkdir -p lc/aiter/ops
cat > lc/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0]
    return x * w
P
commit_all lc base
cat > lc/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    return x * w
P
mkdir before after
(cd lc && "$BIN" check --format json) > before/7.json
cp before/7.json before/8.json
cp before/7.json after/8.json
cat > lc/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0], "weight must match the last dimension"
    return x * w
P
(cd lc && "$BIN" check --format json) > after/7.json

out=$(python3 "$ROOT/bench/precision/ledger.py" compare --out after --against before)
rc=$?
expect_rc differing-findings-exit-1 $rc 1
expect_contains names-the-pr "$out" "PR 7: findings differ"
expect_contains shows-the-finding-gone "$out" "  - D4 aiter/ops/norm.py:2 "
expect_not_contains same-pr-not-named "$out" "PR 8:"
expect_contains counts "$out" "2 PRs compared; 1 differ in findings; 1 differ in status lines"
expect_not_contains status-lines-only-on-request "$out" "PR 7: status"
out=$(python3 "$ROOT/bench/precision/ledger.py" compare --out after --against before --status)
expect_contains status-lines-printed "$out" "PR 7: status"
expect_contains status-line-old-side "$out" "  - guards: "

out=$(python3 "$ROOT/bench/precision/ledger.py" compare --out before --against before)
rc=$?
expect_rc same-runs-exit-0 $rc 0
expect_contains same-runs-count "$out" "2 PRs compared; 0 differ in findings; 0 differ in status lines"

L="$ROOT/bench/precision/ledger.py"
printf '7\n' > seven.txt
printf '8\n' > eight.txt
out=$(python3 "$L" report --out before --prs seven.txt)
expect_contains report-one-run "$out" "1 PRs reviewed"
out=$(python3 "$L" report --pool before=seven.txt after=eight.txt)
rc=$?
expect_rc pooled-exit-0 $rc 0
expect_contains pooled-count "$out" "2 PRs reviewed"
# the guard deleted in PR 7 (the run before) and PR 8 (deleted in both runs): 2 D4 findings
d4=$(printf '%s\n' "$out" | grep '^D4 ')
expect_contains pooled-findings "$d4" " 2  100.0 "
out=$(python3 "$L" report --pool before=seven.txt after=eight.txt --markdown)
expect_contains pooled-markdown "$out" "| D4 | 2 | 100.0 |"
out=$(python3 "$L" report --pool before 2>&1)
rc=$?
expect_rc bad-pool-spec-exit $rc 1
expect_contains bad-pool-spec-says "$out" "--pool wants DIR=PRS_FILE"
