# The precision ledger's `report --pool`: several runs of disjoint PR sets reported as one, so
# a figure quoted over every set comes from one command. The runs hold the real binary's JSON
# for a change that deletes a guard (D4) and for one that keeps it.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo lp
mkdir -p lp/aiter/ops
cat > lp/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0]
    return x * w
P
commit_all lp base
cat > lp/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    return x * w
P
mkdir one two
(cd lp && "$BIN" check --format json) > one/7.json
cp one/7.json two/9.json
git -C lp checkout -q -- aiter/ops/norm.py
(cd lp && "$BIN" check --format json) > two/8.json
printf '7\n' > one.txt
printf '8\n9\n' > two.txt

L="$ROOT/bench/precision/ledger.py"
out=$(python3 "$L" report --out one --prs one.txt)
expect_contains one-run-count "$out" "1 PRs reviewed"
out=$(python3 "$L" report --pool one=one.txt two=two.txt)
rc=$?
expect_rc pooled-exit-0 $rc 0
expect_contains pooled-count "$out" "3 PRs reviewed"
d4=$(printf '%s\n' "$out" | grep '^D4 ')
# two D4 findings (PRs 7 and 9) over three PRs: 66.7 per 100
expect_contains pooled-findings "$d4" " 2   66.7 "
out=$(python3 "$L" report --pool one=one.txt two=two.txt --markdown)
expect_contains pooled-markdown "$out" "| D4 | 2 | 66.7 |"
out=$(python3 "$L" report --pool one 2>&1)
rc=$?
expect_rc bad-pool-spec-exit $rc 1
expect_contains bad-pool-spec-says "$out" "--pool wants DIR=PRS_FILE"
