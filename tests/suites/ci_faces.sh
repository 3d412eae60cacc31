# The faces of `check` for hooks and CI, on a real repository built here: `--only PATH...`
# (some files' findings, the change still reviewed whole), `--format github` (read against what
# GitHub's toolkit @actions/core writes for the same results), `--format rdjson` (read back by
# @umbrelladocs/rdformat-validator), the complete SARIF (notes, skipped files and collector
# statuses as notifications, the derived families as properties; read back by Microsoft's SARIF
# Multitool) and the pre-commit hook of .pre-commit-hooks.yaml (run by pre-commit itself).
# The npm packages are pinned under tests/tools/ and installed on first use.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo ci
mkdir -p ci/aiter/ops/flydsl/kernels
cat > ci/aiter/ops/flydsl/kernels/copy.py <<'P'
from flydsl import buffer_ops


def copy_kernel(src, dst):
    return src, dst
P
cat > ci/aiter/ops/norm.py <<'P'
def rms_norm(x, w):
    assert x.shape[-1] == w.shape[0]
    return x * w
P
cat > "ci/aiter/ops/odd, name:50%.py" <<'P'
def reshape(x):
    assert x.ndim == 2, "50%: want 2-D, got more"
    return x
P
commit_all ci base
# é (two bytes) before the finding's column: rdjson counts UTF-8 bytes, SARIF code points.
cat > ci/aiter/ops/flydsl/kernels/copy.py <<'P'
from flydsl import buffer_ops, gpu


def copy_kernel(src, dst, n: Int32):
    é_rsrc = buffer_ops.create_buffer_resource(src)
    i = gpu.block_idx.x * 256 + gpu.thread_idx.x
    buffer_ops.buffer_store(buffer_ops.buffer_load(é_rsrc, i), dst, i)
P
printf 'def rms_norm(x, w):\n    return x * w\n' > ci/aiter/ops/norm.py
printf 'def reshape(x):\n    return x\n' > "ci/aiter/ops/odd, name:50%.py"
# a binary file whose name carries a newline and a workflow command
printf '\000\001' > "ci/x
::error::injected.bin"

# --- --only PATH... ------------------------------------------------------------------------------
out=$(cd ci && "$BIN" check --only aiter/ops/norm.py)
expect_contains only-keeps-the-file "$out" "aiter/ops/norm.py:2:1: warning [D4]"
expect_not_contains only-drops-other-files "$out" "[B8]"
expect_contains only-change-still-whole "$out" "in 4 changed files"
expect_contains only-families-still-whole "$out" "# derived [flydsl-kernel]"
out=$(cd ci/aiter/ops && "$BIN" check --only norm.py)
expect_contains only-path-from-subdirectory "$out" "aiter/ops/norm.py:2:1: warning [D4]"
out=$("$BIN" check "$TMPD/ci" --only "$TMPD/ci/aiter/ops/flydsl")
expect_contains only-directory "$out" "[B8]"
expect_not_contains only-directory-drops-others "$out" "[D4]"
out=$(cd ci && "$BIN" check --only aiter/ops/norm.py aiter/ops/flydsl/kernels/copy.py)
expect_contains only-two-files "$out" "# 2 findings"
out=$(cd ci && "$BIN" check --only README.md)
expect_contains only-file-outside-change-noted "$out" "# note: --only README.md: not part of the change; nothing to report there"
expect_contains only-file-outside-change-no-findings "$out" "# 0 findings"
# pre-commit puts the file names after the hook's arguments, options included
(cd ci && "$BIN" check --only --fail-on warning aiter/ops/norm.py >/dev/null); expect_rc only-then-options-then-files $? 1
(cd ci && "$BIN" check --only --fail-on warning README.md >/dev/null); expect_rc only-fail-on-counts-reported-files $? 0
(cd ci && "$BIN" check --only /etc/passwd 2>../err.txt); expect_rc only-outside-tree-exit-2 $? 2
expect_contains only-outside-tree-message "$(cat err.txt)" "--only /etc/passwd is outside the tree under review"
"$BIN" check --only 2>err.txt; expect_rc only-without-path-exit-2 $? 2
"$BIN" rules --only x.py 2>/dev/null; expect_rc only-is-for-check $? 2

# --- --format github -----------------------------------------------------------------------------
# a pull-request description with a claim nobody could rerun: a hint, so a notice
printf 'Decode is 35%% faster.\n' > body.md
(cd ci && "$BIN" check --format github --pr-body ../body.md > ../github.txt) 2>/dev/null
(cd ci && "$BIN" check --format sarif --pr-body ../body.md > ../ci.sarif) 2>/dev/null
commands=$(grep '^::' github.txt | sed -E 's/^(::[a-z]+).*/\1/' | sort | uniq -c | tr -s ' ')
expect_eq github-commands "$commands" " 1 ::endgroup
 1 ::group
 1 ::notice
 3 ::warning"
expect_not_contains github-no-injected-command "$(grep '^::' github.txt)" "::error"
expect_contains github-injected-name-is-plain "$(cat github.txt)" "# ::error::injected.bin: binary file, not reviewed"
expect_contains github-summary-after-group "$(tail -n 1 github.txt)" "# 4 findings (3 warning, 0 information, 1 hint) in 4 changed files"
TOOLS="$ROOT/tests/tools/ci-formats"
if npm_tool "$TOOLS"; then
  want=$(node "$TOOLS/github-expected.js" ci.sarif)
  got=$(grep -E '^::(warning|notice) ' github.txt)
  expect_eq github-annotations-as-actions-toolkit-writes-them "$got" "$want"
  expect_contains github-property-escaped "$got" "file=aiter/ops/odd%2C name%3A50%25.py,line=2"
  expect_contains github-data-escaped "$got" "::guard removed: \`assert x.ndim == 2, \"50%25: want 2-D, got more\"\`"
  expect_contains github-evidence-on-next-line "$got" "rather than returning 0%0Aaiter/ops/flydsl/kernels/copy.py:7: "
else
  fail github-annotations-as-actions-toolkit-writes-them "could not install @actions/core from npm"
fi

# --- --format rdjson -----------------------------------------------------------------------------
(cd ci && "$BIN" check --format rdjson > ../ci.rdjson) 2>/dev/null
v=$(python3 - ci.rdjson ci.sarif <<'PY'
import json, sys
rd = json.load(open(sys.argv[1])); sarif = json.load(open(sys.argv[2]))
d = {x["code"]["value"]: x for x in rd["diagnostics"]}
b8 = d["B8"]; start = b8["location"]["range"]["start"]
res = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "B8"][0]
cp = res["locations"][0]["physicalLocation"]["region"]["startColumn"]
print(rd["source"]["name"], sorted(d), b8["severity"], d["HK13" if "HK13" in d else "D4"]["severity"],
      b8["location"]["path"], start["line"], start["column"] - cp,
      b8["related_locations"][0]["location"]["range"]["start"]["line"])
PY
)
expect_eq rdjson-diagnostics "$v" "review-lsp ['B8', 'D4'] WARNING WARNING aiter/ops/flydsl/kernels/copy.py 5 1 7"
if npm_tool "$TOOLS"; then
  out=$(node "$TOOLS/node_modules/@umbrelladocs/rdformat-validator/bin/rdformat-validator.js" --strict ci.rdjson 2>&1); rc=$?
  expect_rc rdjson-validates $rc 0
  expect_contains rdjson-validator-says-valid "$out" "All files are valid RDFormat"
  printf '{"diagnostics":[{"message":"m","location":{"range":{"start":{"line":1}}}}]}' > bad.rdjson
  node "$TOOLS/node_modules/@umbrelladocs/rdformat-validator/bin/rdformat-validator.js" --strict bad.rdjson >/dev/null 2>&1
  expect_rc rdjson-validator-rejects-bad-input $? 1
else
  fail rdjson-validates "could not install @umbrelladocs/rdformat-validator from npm"
fi

# --- SARIF: everything the text report says ------------------------------------------------------
v=$(python3 - ci.sarif <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
inv = run["invocations"][0]
notes = inv["toolExecutionNotifications"]
kinds = {}
for n in notes:
    kinds.setdefault(n["descriptor"]["id"], []).append(n)
desc = [d["id"] for d in run["tool"]["driver"]["notifications"]]
ok_ref = all(desc[n["descriptor"]["index"]] == n["descriptor"]["id"] for n in notes)
skipped = kinds["skipped-file"][0]
fams = [f["family"] for f in run["properties"]["derivedFamilies"]]
print(inv["executionSuccessful"], len(kinds["collector-status"]), ok_ref,
      skipped["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "x%0A%3A%3Aerror%3A%3Ainjected.bin",
      "change-note" in kinds, run["properties"]["derivation"], "invariant-removed" in fams,
      run["properties"]["derivedFamilies"][0]["rules"][0])
PY
)
ncollectors=$(cd ci && "$BIN" check 2>/dev/null | grep -c '^# collector ')
expect_eq sarif-notifications-and-properties "$v" "True $ncollectors True True False ok True B6"
# notes (a detached HEAD with no title) become change-note notifications
git -C ci stash -q -u && git -C ci checkout -q --detach && git -C ci stash pop -q
v=$(cd ci && "$BIN" check --format sarif 2>/dev/null | python3 -c '
import json,sys
n=json.load(sys.stdin)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
print([x["message"]["text"][:20] for x in n if x["descriptor"]["id"]=="change-note"])')
expect_eq sarif-change-notes "$v" "['the title is empty: ']"
git -C ci checkout -q main 2>/dev/null
MT="$ROOT/tests/tools/sarif-multitool"
if npm_tool "$MT"; then
  out=$(node "$MT/validate.js" ci.sarif 2>/dev/null)
  expect_eq sarif-multitool-reads-it-back "$out" "valid"
  printf '{"version":"2.1.0","runs":[{"tool":{}}]}' > bad.sarif
  out=$(node "$MT/validate.js" bad.sarif 2>/dev/null)
  expect_contains sarif-multitool-rejects-bad-log "$out" "JSON1002 error"
  printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","notifications":[{"id":"n"}]}},"results":[]}]}' > thin.sarif
  out=$(node "$MT/validate.js" thin.sarif 2>/dev/null)
  expect_contains sarif-multitool-wants-descriptions "$out" "GH2012 error"
else
  fail sarif-multitool-reads-it-back "could not install @microsoft/sarif-multitool from npm"
fi

# --- the pre-commit hook -------------------------------------------------------------------------
if command -v pre-commit >/dev/null 2>&1; then
  mkdir -p bin && ln -sf "$BIN" bin/review-lsp
  git -C ci add -A
  out=$(cd ci && PATH="$TMPD/bin:$PATH" PRE_COMMIT_HOME="$TMPD/pre-commit-home" \
        pre-commit try-repo "$ROOT" review-lsp --files aiter/ops/norm.py 2>&1); rc=$?
  expect_rc pre-commit-hook-advisory-exit-0 $rc 0
  expect_contains pre-commit-hook-reports-the-file "$out" "aiter/ops/norm.py:2:1: warning [D4]"
  expect_not_contains pre-commit-hook-only-that-file "$out" "[B8]"
else
  fail pre-commit-hook-advisory-exit-0 "pre-commit is not installed (scripts/deps.sh installs it)"
fi
