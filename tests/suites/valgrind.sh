# The batch faces under valgrind (the normal build): no invalid reads or writes, no leaks
# that the program owns, on a repository with findings and on a diff file (a change of four
# files: a batch review shares them out between two reading threads).
. "$ROOT/tests/lib.sh"
cd "$TMPD"
if ! command -v valgrind >/dev/null 2>&1; then
  fail valgrind-installed "valgrind is not installed (make test installs it with the other packages)"
  exit 0
fi
export REVIEW_LSP_NO_JIT=1  # pcre2 JIT code confuses valgrind
VG="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
new_repo vg
mkdir -p vg/aiter/ops/flydsl/kernels vg/csrc/include
printf 'def k(src):\n    return src\n' > vg/aiter/ops/flydsl/kernels/k.py
printf 'struct S { int a; int b; };\nstatic_assert(sizeof(S) == 8, "pinned");\n' > vg/csrc/include/s.h
printf 'def f(x):\n    assert x > 0\n    return x\n' > vg/aiter/ops/f.py
printf 'def g(x):\n    assert x.dim() == 2\n    return x\n' > vg/aiter/ops/g.py
commit_all vg base
printf 'from flydsl import buffer_ops\ndef k(src, n: Int32):\n    r = buffer_ops.create_buffer_resource(src)\n    return buffer_ops.buffer_load(r, bid * 64 + tid)\n' > vg/aiter/ops/flydsl/kernels/k.py
printf 'struct S { int z; int a; int b; };\nstatic_assert(sizeof(S) == 8, "pinned");\n' > vg/csrc/include/s.h
printf 'def f(x):\n    return x\n' > vg/aiter/ops/f.py
printf 'def g(x):\n    return x\n' > vg/aiter/ops/g.py
(cd vg && REVIEW_LSP_TIMING=1 $VG "$BIN_OPT" check >out.txt 2>vg.txt); rc=$?
expect_rc valgrind-check-clean $rc 0
[ $rc -eq 0 ] || cat vg/vg.txt >&2
expect_contains valgrind-check-found-something "$(cat vg/out.txt)" "[B8]"
# shared out: the second reader's set-up and hand-back ran under valgrind (how many files it
# read before this thread reached them all depends on valgrind's scheduling, so not checked)
expect_contains valgrind-check-shares-files-out-between-two-threads "$(cat vg/vg.txt)" \
  "files shared out between two reading threads"
(cd vg && git diff > ../vg.diff)
$VG "$BIN_OPT" rules --diff vg.diff --title "perf: x" >/dev/null 2>vg2.txt; rc=$?
expect_rc valgrind-rules-clean $rc 0
[ $rc -eq 0 ] || cat vg2.txt >&2
$VG "$BIN_OPT" check --diff vg.diff --root vg --format sarif >/dev/null 2>vg3.txt; rc=$?
expect_rc valgrind-check-diff-sarif-clean $rc 0
[ $rc -eq 0 ] || cat vg3.txt >&2
$VG "$BIN_OPT" explain D44 >/dev/null 2>vg4.txt; rc=$?
expect_rc valgrind-explain-unknown-exit-2 $rc 2
