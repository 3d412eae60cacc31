#!/bin/sh
# `make bench`: generates a 5,000-file aiter-shaped tree under BUILD/bench-tree (once) and runs
# the server benchmarks (bench/lsp_bench.py, bench/hover_during_review.py), the batch benchmark
# (bench/batch_bench.sh), the abuse cases (bench/abuse.py) and the 100,000-edit soak
# (bench/soak.py). With AITER set (a real aiter checkout holding an uncommitted change), the
# real-tree benchmarks (bench/aiter_bench.py); with AITER_GIT (a clone with PR heads), TRIAGE
# (the original triage.py) and AITER_WORK (a worktree of that clone) too, the side-by-side run
# on 30 PRs (bench/vs_original.py).
set -eu
BUILD=${1:-build}
TREE="$BUILD/bench-tree"
if [ ! -d "$TREE/.git" ]; then
  python3 bench/gen_tree.py "$TREE" --files 5000 --change 10 --wide 1000 >/dev/null
fi
python3 bench/lsp_bench.py "$BUILD/review-lsp" "$TREE" "$@"
python3 bench/hover_during_review.py "$TREE" "$BUILD/review-lsp"
if [ -n "${AITER:-}" ]; then python3 bench/aiter_bench.py "$BUILD/review-lsp" "$AITER"; fi
if [ -n "${AITER_GIT:-}" ] && [ -n "${TRIAGE:-}" ] && [ -n "${AITER_WORK:-}" ]; then
  python3 bench/vs_original.py "$BUILD/review-lsp" "$AITER_GIT" "$TRIAGE" "$AITER_WORK" --n 30
fi
sh bench/batch_bench.sh "$BUILD/review-lsp"
# Abuse cases (against the sanitizer build when it is there: a report on stderr fails a case)
# and the 100,000-edit soak.
if [ -x "$BUILD/review-lsp-san" ]; then python3 bench/abuse.py "$BUILD/review-lsp-san"; else python3 bench/abuse.py "$BUILD/review-lsp"; fi
python3 bench/soak.py "$BUILD/review-lsp"
