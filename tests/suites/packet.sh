# `review-lsp packet --out DIR` on fixture repositories and diff files: every file of the
# review-pr work directory is written; rules.txt is what `rules` prints; rules_expanded.txt
# holds exactly the derived rules' text from the rules file in use (the repository's own when
# it has one); each evidence axis shows a found, a nothing-found and (where the axis can lack
# its input) a SKIPPED case; lowered findings are marked candidates; applies.txt and
# merge_target.txt come from libgit2 in repository mode and with --diff --base, and say
# SKIPPED without a target; evidence.txt lists the call sites and handling of a parameter made
# optional (tests/fixtures/packet/optional_param).
. "$ROOT/tests/lib.sh"
cd "$TMPD"

FILES="rules.txt rules_expanded.txt applies.txt merge_target.txt guards.txt siblings.txt
flydsl_bounds.txt aot_pairing.txt symbols.txt twins.txt test_quality.txt kernel_tests.txt
ci_coverage.txt perf_claims.txt struct_abi.txt comment_only.txt evidence.txt"

# build_case SRC DIR: a repository at DIR with SRC/base committed and SRC/head laid over it.
build_case() {
  new_repo "$2"
  [ -d "$1/base" ] && cp -R "$1/base/." "$2/"
  git -C "$2" add -A && git -C "$2" commit -q --allow-empty -m base
  cp -R "$1/head/." "$2/"
  if [ -f "$1/post-build.sh" ]; then (cd "$2" && sh "$1/post-build.sh"); fi
}

# state FILE: SKIPPED, found or nothing, from the packet file's first and closing lines.
state() {
  if head -n 1 "$1" | grep -q '^SKIPPED: '; then echo SKIPPED
  elif grep -q '^END [a-z_]*\.txt: 0 items' "$1"; then echo nothing
  elif grep -q '^END [a-z_]*\.txt: [1-9][0-9]* item' "$1"; then echo found
  else echo "unreadable"; fi
}

# all_files NAME DIR: every file of the packet exists and is not empty.
all_files() {
  missing=""
  for f in $FILES; do [ -s "$2/$f" ] || missing="$missing $f"; done
  expect_eq "$1.every-file" "$missing" ""
}

# packet_of CASE: build tests/fixtures/CASE as a repository and write its packet (repo mode).
packet_of() {
  dir="$TMPD/r-$(echo "$1" | tr / _)"
  [ -d "$dir" ] || build_case "$ROOT/tests/fixtures/$1" "$dir"
  (cd "$dir" && "$BIN" packet --out "$dir.pk" > "$dir.out" 2> "$dir.err")
  echo "$dir"
}

# diff_of DIR: the uncommitted change of the repository DIR as a diff file, DIR.diff.
diff_of() {
  git -C "$1" add -A && git -C "$1" diff --cached > "$1.diff" && git -C "$1" reset -q
}

# --- usage --------------------------------------------------------------------------------------
"$BIN" packet 2>err.txt; expect_rc usage.no-out-exit-2 $? 2
expect_contains usage.no-out-message "$(cat err.txt)" "--out DIR is required"
"$BIN" packet --out x --format json 2>err.txt; expect_rc usage.format-exit-2 $? 2
: > afile
new_repo u; printf 'a\n' > u/a.py; commit_all u base; printf 'b\n' > u/a.py
(cd u && "$BIN" packet --out ../afile/sub 2>../err.txt); expect_rc usage.out-is-a-file-exit-2 $? 2
expect_contains usage.out-is-a-file-message "$(cat err.txt)" "cannot create the directory"
(cd u && "$BIN" packet --out ../deep/er/pk >/dev/null 2>&1); expect_rc usage.out-created $? 0
all_files usage.nested-out "deep/er/pk"
printf 'hello\nthis is not a diff\n' > prose.diff
"$BIN" packet --diff prose.diff --out prose.pk 2>err.txt; expect_rc usage.not-a-diff-exit-2 $? 2
expect_contains usage.not-a-diff-says-why "$(cat err.txt)" "prose.diff: "
out=$("$BIN" --help); expect_contains usage.help-lists-packet "$out" "review-lsp packet --out DIR"

# --- the optional-parameter fixture: every file, rules.txt, rules_expanded.txt -------------------
OP=$(packet_of packet/optional_param)
all_files optional.repo "$OP.pk"
expect_eq optional.exit-and-stderr "$(cat "$OP.err")" ""
expect_contains optional.summary "$(cat "$OP.out")" "review packet in $OP.pk"
want=$(cd "$OP" && "$BIN" rules); got=$(cat "$OP.pk/rules.txt")
expect_eq optional.rules-txt-is-rules "$got" "$want"
cmp -s "$OP.pk/rules.txt" /dev/stdin <<EOF
$(cd "$OP" && "$BIN" rules)
EOF
expect_rc optional.rules-txt-bytes $? 0

# rules_expanded.txt: each derived rule's text (what `explain` prints) is in it, and no other
# rule's block or row is.
ids=$(awk '/^ *\[[A-Za-z_-]+ *\]/ { sub(/^[^]]*\] */, ""); for (i = 1; i <= NF; i++) print $i }' \
        "$OP.pk/rules.txt" | grep -E '^[A-Z]+[0-9]+[a-z]?$' | sort -u)
bad=""
for id in $ids; do
  text=$("$BIN" explain "$id" | grep -v '^|---\|^| Check ')
  case "$(cat "$OP.pk/rules_expanded.txt")" in *"$text"*) ;; *) bad="$bad $id" ;; esac
done
expect_eq optional.expanded-has-every-derived-rule "$bad" ""
blocks=$(grep -oE '^\*\*[A-Z]+[0-9]+[a-z]? — |^\| HK[0-9]+[a-z]? — ' "$OP.pk/rules_expanded.txt" |
         sed -E 's/^(\*\*|\| )//; s/ — $//' | sort -u)
expect_eq optional.expanded-has-only-derived-rules "$blocks" "$ids"
expect_eq optional.expanded-headings-once \
  "$(grep '^### ' "$OP.pk/rules_expanded.txt" | sort | uniq -d)" ""
expect_contains optional.summary-rule-bodies "$(cat "$OP.out")" "rules_expanded.txt  $(echo "$ids" | wc -l | tr -d ' ') rule bodies from (bundled rules.md)"

# The repository's own rules file (committed, as aiter ships it) is the one in use: its wording
# lands in rules_expanded.txt.
OWN="$TMPD/own"; new_repo "$OWN"
cp -R "$ROOT/tests/fixtures/packet/optional_param/base/." "$OWN/"
mkdir -p "$OWN/.claude/skills/review-pr"
sed 's/^\*\*D4 — .*/&\nThis repository words D4 its own way./' "$ROOT/rules/rules.md" \
  > "$OWN/.claude/skills/review-pr/rules.md"
commit_all "$OWN" base
cp -R "$ROOT/tests/fixtures/packet/optional_param/head/." "$OWN/"
(cd "$OWN" && "$BIN" packet --out "$OWN.pk" > "$OWN.out" 2>"$OWN.err")
expect_contains own-rules.text-used "$(cat "$OWN.pk/rules_expanded.txt")" "This repository words D4 its own way."
expect_contains own-rules.summary "$(cat "$OWN.out")" "rule bodies from $OWN/.claude/skills/review-pr/rules.md"
# A derived rule the file has no text for is named on stderr (the file has drifted).
grep -v '^\*\*D4 — ' "$ROOT/rules/rules.md" > "$OWN/.claude/skills/review-pr/rules.md"
commit_all "$OWN" "rules without D4"
(cd "$OWN" && "$BIN" packet --out "$OWN.pk2" > "$OWN.out" 2>"$OWN.err")
expect_contains own-rules.missing-text "$(cat "$OWN.err")" "MISSING-RULE-TEXT: D4 derived but not found in"
expect_not_contains own-rules.missing-not-written "$(cat "$OWN.pk2/rules_expanded.txt")" "**D4 — "

# --- evidence.txt: the optional parameter, its call sites and its handling ----------------------
ev=$(cat "$OP.pk/evidence.txt")
expect_eq optional.evidence-state "$(state "$OP.pk/evidence.txt")" found
expect_contains optional.evidence-guard-cpp "$ev" "removed at csrc/kernels/rope_cache.cu:28: TORCH_CHECK(q_out.defined()"
expect_contains optional.evidence-guard-py "$ev" "removed at aiter/ops/rope_cache.py:14: assert q_out is not None"
expect_contains optional.evidence-kernel-guard "$ev" "csrc/kernels/rope_cache.cu:19  checks  if (q_out != nullptr)"
expect_contains optional.evidence-unwrap-half "$ev" "csrc/kernels/rope_cache.cu:35  checked unwrap  reinterpret_cast<at::Half*>(q_out.has_value() ? q_out->data_ptr() : nullptr),
        in argument 4 of rope_cache_kernel (the call at line 32)"
expect_contains optional.evidence-unwrap-bf16 "$ev" "csrc/kernels/rope_cache.cu:41  checked unwrap  reinterpret_cast<at::BFloat16*>(q_out.has_value() ? q_out->data_ptr() : nullptr),
        in argument 4 of rope_cache_kernel (the call at line 38)"
expect_contains optional.evidence-optional-header "$ev" "csrc/include/rope_cache.h:9  declares optional  std::optional<torch::Tensor> q_out);"
expect_contains optional.evidence-signature-cpp "$ev" "q_out: \`torch::Tensor& q_out\` → \`std::optional<torch::Tensor> q_out\`"
expect_contains optional.evidence-signature-py "$ev" "q_out: \`q_out: Tensor\` → \`q_out: Optional[Tensor] = None\`"
# every call site of the Python entry point, with what it passes for q_out (one in a file the
# change does not touch)
expect_contains optional.evidence-call-untouched-file "$ev" "aiter/ops/mla_rope.py:6  call  return rope_cache(q, cos, sin, out)
        passes: q_out ← out"
expect_contains optional.evidence-call-test "$ev" "op_tests/test_rope_cache.py:11  call  rope_cache(q, cos, sin, out)
        passes: q_out ← out"
expect_contains optional.evidence-call-default "$ev" "op_tests/test_rope_cache.py:19  call  rope_cache(q, cos, sin)
        passes: q_out not passed (default None)"
expect_contains optional.evidence-call-wrapper "$ev" "aiter/ops/rope_cache.py:15  call  rope_cache_fwd(q, cos, sin, q_out)
        passes: q_out ← q_out"
expect_not_contains optional.evidence-no-definition-as-call "$ev" "call  def rope_cache"

# A call in a file reached through a symbolic link leaving the tree is never read.
mkdir -p "$TMPD/outside"; printf 'from aiter.ops.rope_cache import rope_cache\nrope_cache(1, 2, 3, 4)\n' > "$TMPD/outside/evil.py"
ln -s "$TMPD/outside/evil.py" "$OP/aiter/ops/linked.py"
ln -s "$TMPD/outside" "$OP/aiter/linkdir"
(cd "$OP" && "$BIN" packet --out "$OP.pk-links" >/dev/null 2>&1)
expect_not_contains optional.evidence-no-symlink-reads "$(cat "$OP.pk-links/evidence.txt")" "rope_cache(1, 2, 3, 4)"
rm "$OP/aiter/ops/linked.py" "$OP/aiter/linkdir"

# Signature shapes: a method declared in its struct and defined out of line, a kernel whose
# parameter list carries comments, a Python method whose keyword-only parameter is new, a
# macro at namespace scope (not a function), calls after a comment line and in a comment.
SS=$(packet_of packet/signature_shapes)
ev=$(cat "$SS.pk/evidence.txt")
expect_contains shapes.kernel-width "$ev" "cols: \`int cols\` → \`int64_t cols\`"
expect_contains shapes.kernel-launch "$ev" "csrc/kernels/norm.cu:30  call  rms_norm_kernel<float><<<rows, 64>>>(x, y, cols, eps);
        passes: cols ← cols"
expect_not_contains shapes.no-call-in-comment "$ev" "norm.cu:29"
expect_contains shapes.method-decl-and-def "$ev" "  csrc/kernels/norm.cu:11: declaration"
expect_contains shapes.method-def "$ev" "  csrc/kernels/norm.cu:27: definition"
expect_contains shapes.method-param-moved "$ev" "eps moved from parameter 4 to 5"
expect_contains shapes.member-call-multiline "$ev" "csrc/kernels/norm_api.cu:7  call  l.launch(x, y, rows,
        passes: cols ← 128; eps ← 1e-6f"
expect_contains shapes.python-self-shift "$ev" "aiter/ops/norm.py:18  call  return norm.forward(x, out=out)
        passes: out ← out; residual not passed (default None)"
expect_contains shapes.python-keyword-only "$ev" "passes: out not passed (default None); residual ← r"
expect_not_contains shapes.python-marker-not-a-parameter "$ev" "added \`*\`"
expect_not_contains shapes.macro-not-a-function "$ev" "REGISTER_NORM"
expect_contains shapes.end-count "$ev" "END evidence.txt: 3 items (0 removed guard lines on 0 subjects, 4 changed signatures of 3 functions)"

# The same change as a diff file with the head tree: the same packet but for the git files.
diff_of "$OP"
"$BIN" packet --diff "$OP.diff" --root "$OP" --out "$OP.pkd" >/dev/null 2>&1
all_files optional.diff-root "$OP.pkd"
same=""
for f in $FILES; do
  case $f in applies.txt|merge_target.txt) continue ;; esac
  cmp -s "$OP.pk/$f" "$OP.pkd/$f" || same="$same $f"
done
expect_eq optional.diff-mode-same-packet "$same" ""
expect_eq optional.diff-rules-is-rules "$(cat "$OP.pkd/rules.txt")" "$("$BIN" rules --diff "$OP.diff")"

# Without the head tree the axes that read it say SKIPPED, and why.
"$BIN" packet --diff "$OP.diff" --out "$OP.pkn" >/dev/null 2>&1
all_files optional.diff-no-root "$OP.pkn"
for f in siblings struct_abi symbols index_width triton_masks evidence applies merge_target; do
  expect_eq "skipped.$f" "$(head -c 9 "$OP.pkn/$f.txt")" "SKIPPED: "
done
expect_contains skipped.evidence-why "$(head -n 1 "$OP.pkn/evidence.txt")" "head text of 4 changed files is not available"
expect_contains skipped.applies-why "$(head -n 1 "$OP.pkn/applies.txt")" "names no merge target (add --base REF"
expect_eq skipped.guards-still-read-from-diff "$(state "$OP.pkn/guards.txt")" found

# --- lowered findings are candidates --------------------------------------------------------------
(cd "$OP" && REVIEW_LSP_PRECISION_POLICY="" "$BIN" packet --out "$OP.pk-bundled" >/dev/null 2>&1)
g=$(cat "$OP.pk-bundled/guards.txt")
expect_contains candidate.marked "$g" "csrc/kernels/rope_cache.cu:28  [D4] candidate (information; lowered from warning by the precision policy)
  candidate to check: guard removed:"
expect_contains candidate.why "$g" "  why a candidate: Reported as a candidate (Information, not Warning): D4"
ncand=$(grep -c '^[^ ].*\] candidate (' "$OP.pk-bundled/guards.txt")
expect_contains candidate.counted "$g" "END guards.txt: 2 items (0 warning, $ncand candidate,"
(cd "$OP" && REVIEW_LSP_PRECISION_POLICY="$ROOT/tests/fixtures/precision/every-rule-at-warning.txt" \
  "$BIN" packet --out "$OP.pk-warn" >/dev/null 2>&1)
expect_contains candidate.policy-allows-warning "$(cat "$OP.pk-warn/guards.txt")" "csrc/kernels/rope_cache.cu:28  [D4] warning"

# --- each axis: found, nothing found, SKIPPED ---------------------------------------------------
# axis CASE FILE STATE...: the packet of fixture CASE has FILE in the state given (several
# FILE STATE pairs may follow).
axis() {
  d=$(packet_of "$1"); shift
  while [ $# -ge 2 ]; do
    expect_eq "axis.$1.$2.$(basename "$d")" "$(state "$d.pk/$1")" "$2"; shift 2
  done
}
axis packet/optional_param guards.txt found test_quality.txt found evidence.txt found \
  siblings.txt nothing flydsl_bounds.txt nothing aot_pairing.txt nothing symbols.txt nothing \
  twins.txt nothing kernel_tests.txt nothing ci_coverage.txt nothing struct_abi.txt nothing \
  comment_only.txt nothing index_width.txt nothing triton_masks.txt nothing \
  pattern_rules.txt nothing core_tiers.txt nothing perf_claims.txt SKIPPED
axis siblings/hip_3841 siblings.txt found guards.txt nothing test_quality.txt nothing \
  evidence.txt nothing
axis flydsl/preshuffle flydsl_bounds.txt found aot_pairing.txt SKIPPED
axis python_kernels/aot/tile_resolver aot_pairing.txt found
axis python_kernels/imports/rebase_signal symbols.txt found
axis change_checks/twins/copy_variant twins.txt found
axis change_checks/kernel_tests/untested kernel_tests.txt found ci_coverage.txt SKIPPED
axis change_checks/ci_coverage/flydsl_tests ci_coverage.txt found
axis change_checks/perf_claims/pr_description perf_claims.txt found
axis change_checks/perf_claims/no_claims perf_claims.txt nothing
axis struct_abi/pa_sparse_insert struct_abi.txt found
axis change_checks/comment_only/prose comment_only.txt found
axis index_width/hip_token_offset index_width.txt found
# an axis file shows each finding's evidence as the text report does (D9: its chain of places)
expect_contains axis.index_width.evidence-chain "$(cat "$TMPD/r-index_width_hip_token_offset.pk/index_width.txt")" "  From \`token_id\` to the global-memory offset:
    1. the 32-bit product      csrc/kernels/kv_scatter.cu:20  token_id * num_heads * head_dim
    2. token_id comes from     csrc/kernels/kv_scatter.cu:13  const int token_id = blockIdx.x;
    3. it reaches the address  csrc/kernels/kv_scatter.cu:20  const T w = in[token_id * num_heads * head_dim + h * head_dim + d];"
axis python_kernels/triton/mask_shapes triton_masks.txt found
axis change_checks/pattern_rules/env_knobs pattern_rules.txt found
axis change_checks/core_tiers/header_fanin core_tiers.txt found
# the kernel_tests fixture has no .github: the CI question could not be asked
expect_contains axis.ci-skipped-why "$(head -n 1 "$TMPD/r-change_checks_kernel_tests_untested.pk/ci_coverage.txt")" \
  "SKIPPED: HK12: the tree has no .github/workflows"
# FlyDSL files read from the diff alone: bounds cannot be judged without the head tree.
FD="$TMPD/r-flydsl_preshuffle"; diff_of "$FD"
"$BIN" packet --diff "$FD.diff" --out "$FD.pkn" >/dev/null 2>&1
expect_eq axis.flydsl_bounds.skipped-without-head "$(state "$FD.pkn/flydsl_bounds.txt")" SKIPPED
# A new file with no head tree to compare it against: twins cannot answer.
TW="$TMPD/r-change_checks_twins_copy_variant"; diff_of "$TW"
"$BIN" packet --diff "$TW.diff" --out "$TW.pkn" >/dev/null 2>&1
expect_eq axis.twins.skipped-without-head "$(state "$TW.pkn/twins.txt")" SKIPPED

# A PR description given with --pr-body feeds perf_claims.txt.
printf 'Fuses the epilogue.\n\nThe fused kernel reaches 212 TFLOPS.\n' > body.md
(cd "$OP" && "$BIN" packet --pr-body "$TMPD/body.md" --out "$OP.pk-body" >/dev/null 2>&1)
pc=$(cat "$OP.pk-body/perf_claims.txt")
expect_eq pr-body.found "$(state "$OP.pk-body/perf_claims.txt")" found
expect_contains pr-body.claim "$pc" "$TMPD/body.md:3  [P1] hint"
printf 'No numbers here.\n' > plain.md
(cd "$OP" && "$BIN" packet --pr-body "$TMPD/plain.md" --out "$OP.pk-plain" >/dev/null 2>&1)
expect_eq pr-body.nothing "$(state "$OP.pk-plain/perf_claims.txt")" nothing
(cd "$OP" && "$BIN" packet --pr-body "$TMPD/none.md" --out "$OP.pk-none" >/dev/null 2>&1)
expect_rc pr-body.unreadable-exit-2 $? 2

# --- applies.txt and merge_target.txt -----------------------------------------------------------
new_repo g
printf 'def scale(x):\n    return x * 2\n\n\ndef shift(x):\n    return x + 1\n' > g/ops.py
printf 'unrelated\n' > g/notes.txt
commit_all g base
git -C g checkout -q -b feature
printf 'def scale(x):\n    return x * 3\n\n\ndef shift(x):\n    return x + 1\n' > g/ops.py
commit_all g "feature: scale by three"
tip=$(git -C g rev-parse main); mb=$(git -C g merge-base feature main)
(cd g && "$BIN" packet --base main --out ../g.pk1 >/dev/null 2>&1)
expect_contains git.applies-up-to-date "$(cat g.pk1/applies.txt)" "APPLIES: the merge base is the tip of the merge target main ($tip)"
expect_contains git.target "$(cat g.pk1/merge_target.txt)" "MERGE TARGET: main at $tip"
expect_contains git.merge-base "$(cat g.pk1/merge_target.txt)" "reviewed from the merge base $mb"
# main moves elsewhere: the change still applies
git -C g checkout -q main; printf 'still unrelated\n' > g/notes.txt; commit_all g "main moves"
git -C g checkout -q feature
tip=$(git -C g rev-parse main)
(cd g && "$BIN" packet --base main --out ../g.pk2 >/dev/null 2>&1)
expect_contains git.applies-after-move "$(cat g.pk2/applies.txt)" "APPLIES: the change still applies to the merge target main at $tip"
# main adds a file the work tree holds untracked: untracked files are part of the change
git -C g checkout -q main; printf 'y = 2\n' > g/extra.py; commit_all g "main adds extra"
git -C g checkout -q feature; printf 'y = 3\n' > g/extra.py
(cd g && "$BIN" packet --base main --out ../g.pk3 >/dev/null 2>&1)
expect_contains git.stale-untracked "$(cat g.pk3/applies.txt)" "first failure: extra.py:"
rm g/extra.py
# main rewrites the line the change rewrites: stale, naming the file
git -C g checkout -q main; printf 'def scale(x):\n    return x * 4\n\n\ndef shift(x):\n    return x + 1\n' > g/ops.py
commit_all g "main rescales"; git -C g checkout -q feature
tip=$(git -C g rev-parse main)
(cd g && "$BIN" packet --base main --out ../g.pk4 >/dev/null 2>&1)
ap=$(cat g.pk4/applies.txt)
expect_contains git.stale "$ap" "STALE: the change no longer applies to the merge target main at $tip"
expect_contains git.stale-file "$ap" "first failure: ops.py:"
git -C g diff main...feature > g.diff
# --diff with --base: the diff is checked against REF in the repository at PATH
"$BIN" packet g --diff g.diff --base main --out g.pk5 >/dev/null 2>&1
expect_contains git.diff-base-stale "$(cat g.pk5/applies.txt)" "STALE: the change no longer applies to the merge target main at $tip"
expect_contains git.diff-base-target "$(cat g.pk5/merge_target.txt)" "MERGE TARGET: main at $tip"
"$BIN" packet g --diff g.diff --base "main~1" --out g.pk6 >/dev/null 2>&1
expect_contains git.diff-base-applies "$(cat g.pk6/applies.txt)" "APPLIES: the change still applies to the merge target main~1"
"$BIN" packet g --diff g.diff --base nosuchref --out g.pk7 >/dev/null 2>&1
expect_contains git.diff-base-unknown "$(cat g.pk7/applies.txt)" "SKIPPED: --base nosuchref names no commit in"
"$BIN" packet notrepo --diff g.diff --base main --out g.pk8 >/dev/null 2>&1
expect_contains git.diff-base-no-repo "$(cat g.pk8/merge_target.txt)" "SKIPPED: --base main was given, but notrepo is not inside a git repository"
# Hunks moved by lines the target added above them apply at an offset; a hunk appending at the
# end of a file must meet the end there; a hunk starting at line 1 must meet the top. Each case
# agrees with git apply --check run on the same diff in a checkout of the target.
# apply_case NAME BASE FEATURE MAIN WANT: files of one line per word, a.txt
apply_case() {
  new_repo "ap-$1"; printf '%s\n' $2 > "ap-$1/a.txt"; commit_all "ap-$1" base
  git -C "ap-$1" checkout -q -b feature; printf '%s\n' $3 > "ap-$1/a.txt"; commit_all "ap-$1" feature
  git -C "ap-$1" diff main feature > "ap-$1.diff"
  git -C "ap-$1" checkout -q main; printf '%s\n' $4 > "ap-$1/a.txt"; commit_all "ap-$1" main
  if git -C "ap-$1" apply --check "../ap-$1.diff" 2>/dev/null; then g=APPLIES; else g=STALE; fi
  git -C "ap-$1" checkout -q feature
  (cd "ap-$1" && "$BIN" packet --base main --out "../ap-$1.pk" >/dev/null 2>&1)
  got=$(head -n 1 "ap-$1.pk/applies.txt" | cut -d: -f1)
  expect_eq "git.apply-$1" "$got" "$5"
  expect_eq "git.apply-$1-as-git" "$got" "$g"
}
apply_case offset "1 2 3 4 5 6 7 8 9 10" "1 2 3 4 5 6 7 eight 9 10" "0 1 2 3 4 5 6 7 8 9 10" APPLIES
apply_case far-offset "1 2 3 4 5 6 7 8 9 10 11 12" "1 2 3 4 5 6 7 8 9 ten 11 12" "1 2 x y z 3 4 5 6 7 8 9 10 11 12" APPLIES
apply_case end-anchored "1 2 3 4" "1 2 3 4 5" "1 2 3 4 x" STALE
apply_case top-anchored "1 2 3 4 5 6 7 8" "one 2 3 4 5 6 7 8" "0 1 2 3 4 5 6 7 8" STALE
apply_case context-changed "1 2 3 4 5 6 7 8 9 10" "1 2 3 4 5 six 7 8 9 10" "1 2 3 4 five 6 7 8 9 10" STALE
expect_contains git.stale-names-hunk "$(cat ap-end-anchored.pk/applies.txt)" "first failure: a.txt: the hunk at line 2 (@@ -2,3 +2,4 @@) finds no place"
# an unborn branch has no target
new_repo ub; printf 'x = 1\n' > ub/a.py
(cd ub && "$BIN" packet --out ../ub.pk >/dev/null 2>&1)
expect_contains git.unborn-skipped "$(cat ub.pk/applies.txt)" "SKIPPED: the branch has no commit yet"
all_files git.unborn "ub.pk"

# --- valgrind: no invalid access and no leak the program owns, in both modes --------------------
if command -v valgrind >/dev/null 2>&1; then
  VG="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
  (cd "$OP" && REVIEW_LSP_NO_JIT=1 $VG "$BIN_OPT" packet --base main --out "$OP.pk-vg" >/dev/null 2>"$OP.vg")
  rc=$?; expect_rc valgrind.repo-mode $rc 0; [ $rc -eq 0 ] || cat "$OP.vg" >&2
  (cd "$OP" && REVIEW_LSP_NO_JIT=1 $VG "$BIN_OPT" packet . --diff "$OP.diff" --root . --base main \
     --out "$OP.pkd-vg" >/dev/null 2>"$OP.vgd")
  rc=$?; expect_rc valgrind.diff-mode $rc 0; [ $rc -eq 0 ] || cat "$OP.vgd" >&2
fi
