#!/bin/sh
# How much of a tree the syntax layer reads: over every C/C++/HIP file (.c .cc .cpp .cxx .h .hpp
# .cuh .cu .hip .inl) and every Python file below DIR, parsed the way the collectors parse them
# (default preprocessor view, HIP words and decoration macros of the file and its first-party
# headers blanked), prints the files with ERROR nodes, the share of bytes inside ERROR nodes, the
# files whose root node is ERROR, the bytes in #if branches the view leaves out, the parse CPU
# time and the ten worst files. Python must stay at 0 errors.
#
# Usage: bench/syntax_coverage.sh DIR [BIN]     (BIN defaults to build/review-lsp)
# One file's ERROR and MISSING nodes: BIN syntax-coverage DIR --show FILE
set -eu
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 DIR [BIN]" >&2
  exit 2
fi
DIR=$1
BIN=${2:-$(dirname "$0")/../build/review-lsp}
if [ ! -x "$BIN" ]; then
  echo "$0: $BIN not built (make)" >&2
  exit 2
fi
exec "$BIN" syntax-coverage "$DIR"
