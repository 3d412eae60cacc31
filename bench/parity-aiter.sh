#!/bin/sh
# Parity on real history: for the newest N non-merge commits of an aiter clone, compares
# `review-lsp rules --diff` with the original `triage.py rules` on the same diff and title.
# Needs a clone of ROCm/aiter and the original triage.py on this machine (neither is part
# of this repository). Usage: bench/parity-aiter.sh AITER_CLONE TRIAGE_PY [N] [BIN]
set -u
R=$1 T=$2 N=${3:-400} BIN=${4:-build/review-lsp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for sha in $(git -C "$R" log --no-merges --format=%H -"$N"); do
  git -C "$R" diff "$sha^" "$sha" > "$tmp/d.diff" 2>/dev/null || continue
  title=$(git -C "$R" log -1 --format=%s "$sha")
  a=$(python3 "$T" rules "$tmp/d.diff" "$title" 2>/dev/null; echo x)
  b=$("$BIN" rules --diff "$tmp/d.diff" --title "$title" 2>/dev/null; echo x)
  if [ "$a" = "$b" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "differs: $sha $title"; fi
done
echo "$pass passed, $fail failed"
