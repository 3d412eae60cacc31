#!/bin/sh
# Fetches one tree-sitter grammar package from the npm registry at a pinned version, checks
# its sha512 integrity hash, and unpacks its src/ into DEST. Usage: fetch-grammar.sh NAME@VER SHA512 DEST
set -eu
spec=$1 want=$2 dest=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && npm pack --silent "$spec" >/dev/null 2>npm.err ) || {
  echo "error: could not fetch $spec from the npm registry:" >&2; cat "$tmp/npm.err" >&2; exit 1; }
tgz=$(ls "$tmp"/*.tgz)
got=$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tgz")
if [ "$got" != "$want" ]; then
  echo "error: $spec integrity mismatch (got sha512-$got, pinned sha512-$want)" >&2; exit 1
fi
rm -rf "$dest"; mkdir -p "$dest"
tar xzf "$tgz" -C "$dest" --strip-components=1 package/src
echo "fetched $spec (sha512 verified) into $dest"
