# Severity follows precision: with the bundled policy (rules/precision.txt, written from the
# ledger in bench/precision/), a rule the ledger has not certified reports what its collector
# raises as a Warning as an Information candidate, in every face (text, JSON, SARIF, the
# server's diagnostics and hover); a policy that allows the rule keeps the Warning.
. "$ROOT/tests/lib.sh"
cd "$TMPD"
unset REVIEW_LSP_PRECISION_POLICY

new_repo pp
mkdir -p pp/aiter/ops
cat > pp/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0]
    return x * w
P
commit_all pp base
cat > pp/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    return x * w
P

# A policy that lowers D4 (judged 40%) and one that allows it.
printf 'D4\t25\t10\t15\t40\tinformation\n' > low.txt
printf 'D4\t25\t24\t1\t96\twarning\n' > high.txt

out=$(cd pp && REVIEW_LSP_PRECISION_POLICY="$TMPD/low.txt" "$BIN" check)
expect_contains lowered-rule-is-information-candidate "$out" \
  "aiter/ops/norm.py:2:1: information [D4] candidate to check: "
out=$(cd pp && REVIEW_LSP_PRECISION_POLICY="$TMPD/high.txt" "$BIN" check)
expect_contains certified-rule-keeps-warning "$out" "aiter/ops/norm.py:2:1: warning [D4] "
expect_not_contains certified-rule-not-a-candidate "$out" "candidate to check"
(cd pp && REVIEW_LSP_PRECISION_POLICY="$TMPD/low.txt" "$BIN" check --fail-on warning >/dev/null)
expect_rc lowered-rule-does-not-fail-on-warning $? 0

# The bundled policy: whatever it says of D4 today, the text, JSON and SARIF faces agree with it.
allowed=$(awk -F'\t' '$1=="D4" {print $6}' "$ROOT/rules/precision.txt")
json=$(cd pp && "$BIN" check --format json)
got=$(printf '%s' "$json" | python3 -c '
import json,sys
d=[f for f in json.load(sys.stdin)["findings"] if f["rule"]=="D4"][0]
print(d["severity"], "note" if d.get("severityNote") else "no-note")')
if [ "$allowed" = warning ]; then want="warning no-note"; else want="information note"; fi
expect_eq bundled-policy-json "$got" "$want"
if [ "$allowed" != warning ]; then
  sarif=$(cd pp && "$BIN" check --format sarif)
  got=$(printf '%s' "$sarif" | python3 -c '
import json,sys
r=[r for r in json.load(sys.stdin)["runs"][0]["results"] if r["ruleId"]=="D4"][0]
print(r["level"], r["properties"]["candidate"], "80%" in r["properties"]["severityNote"])')
  expect_eq bundled-policy-sarif "$got" "note True True"
fi

# The server: the diagnostic is Information and the hover on its line explains the lowering.
got=$(REVIEW_LSP_PRECISION_POLICY="$TMPD/low.txt" python3 - "$BIN" "$TMPD/pp" "$ROOT" <<'PY'
import os, sys, time
sys.path.insert(0, os.path.join(sys.argv[3], "tests", "watch"))
from lsp_session import Session
s = Session(sys.argv[1], sys.argv[2])
end = time.monotonic() + 30
while "aiter/ops/norm.py" not in s.diags and time.monotonic() < end:
    s.pump(0.5)
d = [x for x in s.diags.get("aiter/ops/norm.py", []) if x.get("code") == "D4"]
uri = "file://" + s.root + "/aiter/ops/norm.py"
h = s.request("textDocument/hover", {"textDocument": {"uri": uri},
                                     "position": {"line": d[0]["range"]["start"]["line"], "character": 0}}) if d else {}
text = ((h.get("result") or {}).get("contents") or {}).get("value", "")
print(d[0]["severity"] if d else "none", "judged precision on real aiter history is 40%" in text)
s.request("shutdown", None)
s.notify("exit", None)
PY
)
expect_eq server-diagnostic-information-and-hover-note "$got" "3 True"
