# The report formats of `check` on a change with real findings: the text line format, JSON,
# SARIF validated against the SARIF 2.1.0 schema (the schema file shipped in the npm package
# @microsoft/jest-sarif, checked with ajv; installed here on first use), --fail-on, and
# suppression comments.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo fr
mkdir -p fr/aiter/ops/flydsl/kernels fr/aiter/ops
cat > fr/aiter/ops/flydsl/kernels/copy.py <<'P'
from flydsl import buffer_ops


def copy_kernel(src, dst):
    return src, dst
P
cat > fr/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0]
    return x * w
P
commit_all fr base
cat > fr/aiter/ops/flydsl/kernels/copy.py <<'P'
from flydsl import buffer_ops, gpu


def copy_kernel(src, dst, n: Int32):
    src_rsrc = buffer_ops.create_buffer_resource(src)
    dst_rsrc = buffer_ops.create_buffer_resource(dst)  # review: ignore[B8]
    i = gpu.block_idx.x * 256 + gpu.thread_idx.x
    buffer_ops.buffer_store(buffer_ops.buffer_load(src_rsrc, i), dst_rsrc, i)
P
cat > fr/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    return x * w
P

out=$(cd fr && "$BIN" check)
expect_contains text-line-format "$out" "aiter/ops/flydsl/kernels/copy.py:5:"
expect_contains text-severity-and-id "$out" ": warning [B8] create_buffer_resource(src)"
expect_not_contains suppression-honoured "$out" "create_buffer_resource(dst)"
expect_contains text-guard-finding "$out" "aiter/ops/norm.py:2:1: warning [D4]"
(cd fr && "$BIN" check --fail-on warning >/dev/null); expect_rc fail-on-warning-exit-1 $? 1
(cd fr && "$BIN" check --fail-on information >/dev/null); expect_rc fail-on-information-exit-1 $? 1
(cd fr && "$BIN" check --disable B8 --disable D4 --fail-on warning >/dev/null); expect_rc disabled-rules-exit-0 $? 0
out=$(cd fr && "$BIN" check --disable B8)
expect_not_contains disable-drops-rule "$out" "[B8]"

json=$(cd fr && "$BIN" check --format json)
v=$(printf '%s' "$json" | python3 -c '
import json,sys
d=json.load(sys.stdin)
b8=[f for f in d["findings"] if f["rule"]=="B8"]
print(len(b8), b8[0]["range"]["line"], b8[0]["severity"], b8[0]["collector"], d["derivation"])')
expect_eq json-findings "$v" "1 5 warning flydsl_bounds ok"

TOOLS="$ROOT/tests/tools/sarif"
if [ ! -d "$TOOLS/node_modules/ajv" ]; then
  (cd "$TOOLS" && npm ci --no-audit --no-fund --silent >/dev/null 2>&1) || true
fi
if [ -d "$TOOLS/node_modules/ajv" ]; then
  out=$(cd fr && "$BIN" check --format sarif | node "$TOOLS/validate.js" 2>&1)
  expect_eq sarif-validates-against-schema "$out" "valid"
  out=$(printf '{"version":"2.1.0","runs":[{"tool":{}}]}' | node "$TOOLS/validate.js" 2>&1)
  expect_contains sarif-validator-rejects-bad-log "$out" "should have required property 'driver'"
else
  fail sarif-validates-against-schema "could not install the SARIF schema validator from npm"
fi
v=$(cd fr && "$BIN" check --format sarif | python3 -c '
import json,sys
r=json.load(sys.stdin)["runs"][0]
ids=[x["id"] for x in r["tool"]["driver"]["rules"]]
full=all(x["fullDescription"]["text"].startswith("**"+x["id"]+" ") for x in r["tool"]["driver"]["rules"])
print(sorted(ids), full, sorted({x["ruleId"] for x in r["results"]}))')
expect_eq sarif-rules-carry-full-text "$v" "['B8', 'D4'] True ['B8', 'D4']"

# --pr-body: perf claims in a pull-request description with no baseline (P1), in batch
cat > body.md <<'B'
## Summary
Fused the epilogue into the GEMM kernel.

This makes decode 35% faster and cuts latency to 12.5 us.
B
out=$(cd fr && "$BIN" check --pr-body ../body.md)
expect_contains pr-body-claim-flagged "$out" "body.md:4:"
expect_contains pr-body-rule "$out" "hint [P3]"
# The description goes through the engine like a commit message: the collector's status counts
# it, and --disable applies to its findings too.
expect_contains pr-body-in-collector-status "$out" "# collector perf_claims: found 0 of 1 claim line"
out=$(cd fr && "$BIN" check --pr-body ../body.md --disable P3)
expect_not_contains pr-body-disable-applies "$out" "[P3]"
(cd fr && "$BIN" check --pr-body ../no-such-body.md >/dev/null 2>&1); expect_rc pr-body-missing-exit-2 $? 2
