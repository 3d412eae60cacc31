#!/bin/sh
# `make vscode`: packages the VS Code extension in editors/vscode as a platform .vsix
# (linux-x64) that carries the server: bundles extension.js with esbuild (pinned in
# package-lock.json) into dist/extension.js, puts SERVER (a review-lsp linked with an rpath of
# $ORIGIN, see the Makefile) into server/ together with the shared libraries it loads that are
# not part of glibc (so the .vsix needs nothing but glibc 2.36 or newer on the machine), copies
# the project's LICENSE, and runs the pinned @vscode/vsce. npm ci runs when node_modules is
# missing or older than the lock file. Prints the .vsix path on stdout.
# Usage: build.sh SERVER [OUT]   (OUT default: build/review-lsp-<version>-linux-x64.vsix)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SERVER=$1
case "$SERVER" in /*) ;; *) SERVER="$ROOT/$SERVER" ;; esac
VERSION=$(node -p "require('$HERE/package.json').version")
OUT=${2:-$ROOT/build/review-lsp-$VERSION-linux-x64.vsix}
case "$OUT" in /*) ;; *) OUT="$ROOT/$OUT" ;; esac
[ -x "$SERVER" ] || { echo "build.sh: $SERVER is not an executable (run make first)" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
cd "$HERE"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund >&2
  touch node_modules
fi
rm -rf dist server
./node_modules/.bin/esbuild extension.js --bundle --platform=node --format=cjs --target=node18 \
  --external:vscode --log-level=warning --outfile=dist/extension.js >&2
mkdir -p server
cp "$SERVER" server/review-lsp
chmod 755 server/review-lsp
# The shared libraries the server loads, except glibc's own (present on every target).
ldd "$SERVER" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
  case "$name" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|ld-linux*|libutil.so.*|libanl.so.*) continue ;;
  esac
  cp -L "$path" "server/$name"
  chmod 644 "server/$name"
done
cp "$ROOT/LICENSE" LICENSE
./node_modules/.bin/vsce package --target linux-x64 --no-dependencies --out "$OUT" >&2
echo "$OUT"
