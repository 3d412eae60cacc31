#!/bin/sh
# `make bench`: generates a 5,000-file aiter-shaped tree under BUILD/bench-tree (once) and runs
# the server benchmarks (bench/lsp_bench.py), the batch benchmark (bench/batch_bench.sh), the
# abuse cases (bench/abuse.py) and the 100,000-edit soak (bench/soak.py).
set -eu
BUILD=${1:-build}
TREE="$BUILD/bench-tree"
if [ ! -d "$TREE/.git" ]; then
  python3 bench/gen_tree.py "$TREE" --files 5000 --change 10 --wide 1000 >/dev/null
fi
python3 bench/lsp_bench.py "$BUILD/review-lsp" "$TREE" "$@"
sh bench/batch_bench.sh "$BUILD/review-lsp"
# Abuse cases (against the sanitizer build when it is there: a report on stderr fails a case)
# and the 100,000-edit soak.
if [ -x "$BUILD/review-lsp-san" ]; then python3 bench/abuse.py "$BUILD/review-lsp-san"; else python3 bench/abuse.py "$BUILD/review-lsp"; fi
python3 bench/soak.py "$BUILD/review-lsp"
