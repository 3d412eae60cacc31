# The repository configuration ([tool.review-lsp] in pyproject.toml, or .review-lsp.toml): one
# file read alike by the batch face and the language server. On a real repository built here
# — four kernels and wrappers whose guards the work tree deletes, and a pyproject.toml that
# excludes 3rdparty/, switches D4 off for aiter/ops/, makes it an error elsewhere and a hint
# under csrc/legacy/ — `check` and the server report the same findings; without the file both
# report every deletion at its own level. `review-lsp config` names where each value came from;
# a malformed file is reported with its line and the defaults stand in (batch) or the previous
# configuration stays (server: tests/repo_config/*.t, which also edit the file under a running
# server).
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# --- the repository ------------------------------------------------------------------------------
kernel() { # kernel FILE NAME: a HIP entry point guarded by a TORCH_CHECK on line 5
  cat > "$1" <<EOF
#include <torch/extension.h>

void $2(torch::Tensor q, torch::Tensor k)
{
    TORCH_CHECK(q.size(0) == k.size(0), "q and k disagree on the batch");
    launch_$2(q, k);
}
EOF
}
new_repo team
mkdir -p team/csrc/kernels team/csrc/legacy team/3rdparty/ck team/aiter/ops
kernel team/csrc/kernels/attn.cu attn_fwd
kernel team/csrc/legacy/old_attn.cu old_attn_fwd
kernel team/3rdparty/ck/gemm.cu ck_gemm
printf 'def wrap_shapes(q, k):\n    assert q.shape[0] == k.shape[0]\n    return q, k\n' > team/aiter/ops/wrap.py
cat > team/pyproject.toml <<'EOF'
[build-system]
requires = ["setuptools"]

[tool.review-lsp]
base = "main"
exclude = ["3rdparty/"]
derived-hints = "off"
severity = { D4 = "error" }

[[tool.review-lsp.overrides]]
paths = ["aiter/ops/"]
disable = ["D4"]

[[tool.review-lsp.overrides]]
paths = ["csrc/legacy/"]
severity = { D4 = "hint" }
EOF
commit_all team base
git -C team checkout -q -b work
for f in csrc/kernels/attn.cu csrc/legacy/old_attn.cu 3rdparty/ck/gemm.cu aiter/ops/wrap.py; do
  grep -v 'TORCH_CHECK\|assert' "team/$f" > tmp && mv tmp "team/$f"
done
# the same change with no configuration file
cp -a team bare
git -C bare rm -q pyproject.toml && git -C bare commit -q -m "no configuration"

findings() { python3 "$ROOT/tests/repo_config/findings.py" "$@"; }

# --- batch ---------------------------------------------------------------------------------------
out=$("$BIN" check team 2>err.txt); rc=$?
expect_rc check-exit-0 $rc 0
expect_contains excluded-path-left-out "$out" "# note: 1 changed file left out by exclude/include in pyproject.toml"
expect_not_contains excluded-path-no-finding "$out" "3rdparty/"
expect_not_contains per-path-disable "$out" "aiter/ops/wrap.py:2:1"
expect_contains severity-error "$out" "csrc/kernels/attn.cu:5:1: error [D4] guard removed"
expect_contains per-path-severity "$out" "csrc/legacy/old_attn.cu:5:1: hint [D4] guard removed"
expect_contains summary-counts-errors "$out" "(1 error, 0 warning, 0 information, 1 hint)"
expect_eq no-stderr "$(cat err.txt)" ""
sarif=$("$BIN" check team --format sarif)
expect_contains sarif-error-level "$sarif" '"level": "error"'

batch=$("$BIN" check team --format json | findings batch)
expect_eq batch-findings "$batch" "csrc/kernels/attn.cu:5:D4:1
csrc/legacy/old_attn.cu:5:D4:4"
bare_batch=$("$BIN" check bare --base main --format json | findings batch)
expect_eq without-the-file-every-deletion "$bare_batch" "3rdparty/ck/gemm.cu:5:D4:2
aiter/ops/wrap.py:2:D4:2
csrc/kernels/attn.cu:5:D4:2
csrc/legacy/old_attn.cu:5:D4:2"

# the command line over the file: a --severity for D4 beats the file's overrides too
out=$("$BIN" check team --severity D4=information)
expect_contains flag-beats-file-severity "$out" "csrc/legacy/old_attn.cu:5:1: information [D4]"
expect_contains flag-beats-file-top-level "$out" "csrc/kernels/attn.cu:5:1: information [D4]"
"$BIN" check team --severity D4=loud 2>err.txt; expect_rc bad-severity-flag-exit-2 $? 2
expect_contains bad-severity-flag-message "$(cat err.txt)" "--severity wants ID=LEVEL"
# lists add up: --disable on top of the file's per-path disable
out=$("$BIN" check team --disable D4)
expect_contains disable-flag-adds "$out" "# 0 findings"

# a diff file with --root reads the configuration at the root of that tree
git -C team diff main > team.diff
out=$("$BIN" check --diff team.diff --root team --title t)
expect_contains diff-root-reads-config "$out" "csrc/legacy/old_attn.cu:5:1: hint [D4]"
expect_not_contains diff-root-excludes "$out" "3rdparty/ck/gemm.cu:5"

# --- the server reads the same file and publishes the same findings ------------------------------
server=$(findings server "$BIN" team 2>server-msgs.txt)
expect_eq server-same-findings-as-batch "$server" "$batch"
bare_server=$(findings server "$BIN" bare 2>/dev/null)
expect_eq server-without-the-file-same-as-batch "$bare_server" "$bare_batch"

# --- review-lsp config ----------------------------------------------------------------------------
out=$("$BIN" config team)
expect_contains config-file-named "$out" "# repository file: pyproject.toml [tool.review-lsp]"
expect_contains config-base-source "$out" "base            main                               pyproject.toml:5"
expect_contains config-hints-source "$out" "derived-hints   off                                pyproject.toml:7"
expect_contains config-severity-source "$out" "severity        D4 = error                         pyproject.toml:8"
expect_contains config-exclude-source "$out" "exclude         3rdparty/                          pyproject.toml:6"
expect_contains config-override-source "$out" "overrides[1]    paths csrc/legacy/; severity D4=hint pyproject.toml:14"
expect_contains config-default-source "$out" "max-file-bytes  2097152                            default"
out=$("$BIN" config team --base origin/dev --disable HK13 --max-file-bytes 4096)
expect_contains config-flag-beats-file "$out" "base            origin/dev                         --base"
expect_contains config-flag-disable "$out" "disable         HK13                               --disable"
expect_contains config-flag-size "$out" "max-file-bytes  4096                               --max-file-bytes"
out=$("$BIN" config bare)
expect_contains config-no-file "$out" "# repository file: none"
expect_contains config-no-file-defaults "$out" "base            (upstream, origin/main, origin/master, main, master, HEAD) default"

# a nearer .review-lsp.toml wins for a path below it
printf 'base = "main"\nmax-file-bytes = 1000\n' > team/aiter/.review-lsp.toml
out=$("$BIN" config team/aiter/ops)
expect_contains nearer-file-wins "$out" "max-file-bytes  1000                               aiter/.review-lsp.toml:2"
rm team/aiter/.review-lsp.toml

# --- a malformed file: said with its line, the defaults stand in, the exit code is unchanged ------
cp -a team broken
sed -i 's/derived-hints = "off"/derived-hints = "sometimes"/' broken/pyproject.toml
out=$("$BIN" check broken --base main 2>err.txt); rc=$?
expect_rc malformed-exit-unchanged $rc 0
expect_contains malformed-says-where "$(cat err.txt)" "review-lsp: warning: pyproject.toml:7: derived-hints: expected"
expect_contains malformed-defaults-stand-in "$(cat err.txt)" "the defaults stand in"
expect_contains malformed-defaults-used "$out" "3rdparty/ck/gemm.cu:5:1: warning [D4]"
cp -a team broken2
printf 'exclude = [\n' >> broken2/pyproject.toml
"$BIN" check broken2 --base main >/dev/null 2>err.txt
expect_contains unparsable-says-where "$(cat err.txt)" "review-lsp: warning: pyproject.toml:1"
cp -a team typo
sed -i 's/^exclude =/excluded =/' typo/pyproject.toml
out=$("$BIN" check typo 2>err.txt)
expect_contains unknown-key-warned "$(cat err.txt)" "review-lsp: warning: pyproject.toml:6: excluded: unknown key"
expect_contains unknown-key-rest-applies "$out" "csrc/legacy/old_attn.cu:5:1: hint [D4]"

# --- the demo repository carries a configuration, and the demo shows it at work -----------------
mkdir -p demo-build && ln -sf "$BIN_OPT" demo-build/review-lsp
out=$(sh "$ROOT/scripts/demo.sh" demo-build 2>&1)
expect_contains demo-shows-config "$out" "severity        D11 = error                        pyproject.toml:8"
expect_contains demo-d11-error "$out" "csrc/include/kargs.h:6:1: error [D11]"
expect_contains demo-vendored-left-out "$out" "# note: 1 changed file left out by exclude/include in pyproject.toml"

# --- valgrind: the TOML reader, the globs and the precedence leak nothing and read nothing wrong ---
if command -v valgrind >/dev/null 2>&1; then
  VG="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
  REVIEW_LSP_NO_JIT=1 $VG "$BIN_OPT" check team --severity A1=hint >/dev/null 2>vg.txt
  expect_rc valgrind-check-with-config $? 0
  REVIEW_LSP_NO_JIT=1 $VG "$BIN_OPT" config typo >/dev/null 2>vg2.txt
  expect_rc valgrind-config-with-warnings $? 0
  REVIEW_LSP_NO_JIT=1 $VG "$BIN_OPT" check broken2 --base main >/dev/null 2>vg3.txt
  expect_rc valgrind-check-unparsable-config $? 0
  grep -v "^review-lsp: warning" vg.txt vg2.txt vg3.txt >&2
else
  fail valgrind-installed "valgrind is not installed"
fi

# --- the server over time: the file edited, broken and mended under it ---------------------------
if command -v node >/dev/null 2>&1; then
  node "$ROOT/tests/protocol/runner.js" --suite "$SUITE" --bin "$BIN" --fixture "$TMPD/team" \
    --tmp "$TMPD/runs" "$ROOT"/tests/repo_config/*.t
  node "$ROOT/tests/protocol/runner.js" --suite "$SUITE.valgrind" --valgrind --bin "$BIN_OPT" \
    --fixture "$TMPD/team" --tmp "$TMPD/vgruns" "$ROOT"/tests/repo_config/reload.t
else
  fail transcripts "node is required for the transcripts"
fi
exit 0
