#!/bin/sh
# `make vscode`: packages the VS Code extension in editors/vscode as OUT (default
# build/review-lsp-<version>.vsix) with the pinned @vscode/vsce from package-lock.json.
# Installs the npm dependencies (npm ci) when node_modules is missing or older than the lock
# file, and copies the bundled rules file (rules/rules.md) into the package for the rule picker.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VERSION=$(node -p "require('$HERE/package.json').version")
OUT=${1:-$ROOT/build/review-lsp-$VERSION.vsix}
case "$OUT" in /*) ;; *) OUT="$ROOT/$OUT" ;; esac
mkdir -p "$(dirname "$OUT")"
cd "$HERE"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund >&2
  touch node_modules
fi
cp "$ROOT/rules/rules.md" "$HERE/rules.md"
./node_modules/.bin/vsce package --skip-license --out "$OUT" >&2
echo "$OUT"
