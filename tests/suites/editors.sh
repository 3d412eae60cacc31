# Editor packaging checks that need no editor: the VS Code extension's settings schema covers
# every setting the server reads (lsp/settings.c) with a description, its lock file carries no
# registry URLs and pins every dependency, its metadata names a real licence (the LICENSE at
# the root, MIT) and no placeholder host; `editors/vscode/build.sh` bundles it with esbuild into
# one file and packages a linux-x64 .vsix that carries the server and the shared libraries it
# loads: unpacked anywhere, the server runs with an empty environment and loads every
# non-glibc library from the package. `make install` into a scratch prefix puts the server,
# the rules and the Neovim plugin where the README says.
. "$ROOT/tests/lib.sh"
EXT="$ROOT/editors/vscode"

if ! command -v node >/dev/null 2>&1; then fail node "node is required"; exit 0; fi

# 1. settings schema
server_keys=$(grep -o 'json_object_get(obj, "[A-Za-z]*")' "$ROOT/lsp/settings.c" | sed 's/.*"\(.*\)")/\1/' | sort -u)
missing=$(node -e '
  const p = require(process.argv[1]).contributes.configuration.properties;
  const bad = [];
  for (const k of process.argv.slice(2)) {
    const s = p["review." + k];
    if (!s || !(s.description || s.markdownDescription)) bad.push(k);
  }
  for (const [k, s] of Object.entries(p)) if (!(s.description || s.markdownDescription)) bad.push(k);
  console.log(bad.join(" "));' "$EXT/package.json" $server_keys)
expect_eq vscode.settings-schema "$missing" ""
expect_eq vscode.derived-hints-values "$(node -p 'require(process.argv[1]).contributes.configuration.properties["review.derivedHints"].enum.join(" ")' "$EXT/package.json")" "file line off"

# 2. lock file: no "resolved" registry URLs; pinned dependency versions
expect_eq vscode.lockfile-no-resolved "$(grep -c '"resolved"' "$EXT/package-lock.json")" "0"
unpinned=$(node -e '
  const p = require(process.argv[1]);
  const all = Object.assign({}, p.dependencies, p.devDependencies);
  console.log(Object.entries(all).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v)).map(([k]) => k).join(" "));' "$EXT/package.json")
expect_eq vscode.pinned-deps "$unpinned" ""

# 3. metadata: the MIT licence of the root LICENSE, no placeholder repository host
expect_eq vscode.license "$(node -p 'require(process.argv[1]).license' "$EXT/package.json")" "MIT"
if head -n 1 "$ROOT/LICENSE" | grep -q '^MIT License$'; then pass license-file; else fail license-file "LICENSE is not the MIT licence"; fi
repo=$(node -p 'JSON.stringify(require(process.argv[1]).repository)' "$EXT/package.json")
case "$repo" in *example.*|*.invalid*|*placeholder*|undefined) fail vscode.repository "placeholder: $repo" ;; *) pass vscode.repository ;; esac

# 4. sources parse
if node --check "$EXT/extension.js" 2> "$TMPD/check.err" && node --check "$ROOT/tests/e2e/driver.js" 2>> "$TMPD/check.err" \
   && node --check "$ROOT/tests/e2e/probe/extension.js" 2>> "$TMPD/check.err"; then
  pass vscode.sources-parse
else
  fail vscode.sources-parse "$(cat "$TMPD/check.err")"
fi

# 5. the platform .vsix, with the server inside
SERVER="$ROOT/${BUILD:-build}/vsix/review-lsp"
if [ ! -x "$SERVER" ]; then
  fail vscode.vsix "$SERVER missing (make test builds it)"
elif VSIX=$(sh "$EXT/build.sh" "$SERVER" "$TMPD/review-lsp.vsix" 2> "$TMPD/vsix.log" | tail -n 1) && [ -f "$VSIX" ]; then
  pass vscode.vsix
  mkdir -p "$TMPD/unpacked" && (cd "$TMPD/unpacked" && node -e '
    // unzip with the modes kept, as VS Code installs a .vsix
    const fs = require("fs"), zlib = require("zlib"), path = require("path");
    const b = fs.readFileSync(process.argv[1]);
    let eocd = b.length - 22; while (b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
    let off = b.readUInt32LE(eocd + 16); const n = b.readUInt16LE(eocd + 10);
    for (let i = 0; i < n; i++) {
      const method = b.readUInt16LE(off + 10), csize = b.readUInt32LE(off + 20);
      const nlen = b.readUInt16LE(off + 28), xlen = b.readUInt16LE(off + 30), clen = b.readUInt16LE(off + 32);
      const mode = b.readUInt32LE(off + 38) >>> 16, lho = b.readUInt32LE(off + 42);
      const name = b.toString("utf8", off + 46, off + 46 + nlen);
      const data0 = lho + 30 + b.readUInt16LE(lho + 26) + b.readUInt16LE(lho + 28);
      const raw = b.subarray(data0, data0 + csize);
      fs.mkdirSync(path.dirname(name), { recursive: true });
      fs.writeFileSync(name, method === 8 ? zlib.inflateRawSync(raw) : raw);
      if (mode) fs.chmodSync(name, mode & 0o777);
      off += 46 + nlen + xlen + clen;
    }' "$VSIX")
  X="$TMPD/unpacked/extension"
  expect_eq vscode.vsix-target "$(grep -o 'TargetPlatform="[a-z0-9-]*"' "$TMPD/unpacked/extension.vsixmanifest")" 'TargetPlatform="linux-x64"'
  files=$(cd "$X" && find . -type f | sort | tr '\n' ' ')
  case "$files" in *node_modules*) fail vscode.vsix-bundled "unbundled files: $files" ;; *) pass vscode.vsix-bundled ;; esac
  expect_eq vscode.vsix-one-script "$(cd "$X" && find . -name '*.js' | tr '\n' ' ')" "./dist/extension.js "
  [ -f "$X/LICENSE.txt" ] || [ -f "$X/LICENSE" ] && pass vscode.vsix-license || fail vscode.vsix-license "no LICENSE in the .vsix: $files"
  ver=$(env -i "$X/server/review-lsp" --version 2>&1)
  expect_contains vscode.vsix-server-runs "$ver" "review-lsp "
  outside=$(ldd "$X/server/review-lsp" | awk '$2 == "=>" {print $1, $3}' | grep -v "^\(libc\|libm\|libpthread\|libdl\|librt\|libresolv\)\.so" | grep -v " $X/server/" || true)
  expect_eq vscode.vsix-libraries-inside "$outside" ""
  expect_eq vscode.vsix-rpath "$(readelf -d "$X/server/review-lsp" | sed -n 's/.*Library rpath: \[\(.*\)\]/\1/p')" '$ORIGIN'
else
  fail vscode.vsix "build.sh failed"; tail -n 20 "$TMPD/vsix.log" >&2
fi

# 6. make install into a scratch prefix
P="$TMPD/prefix"
if make -s -C "$ROOT" install PREFIX="$P" > "$TMPD/install.log" 2>&1; then
  got=$(cd "$P" && find . -type f | sort | tr '\n' ' ')
  expect_eq install.files "$got" "./bin/review-lsp ./share/review-lsp/LICENSE ./share/review-lsp/families.txt ./share/review-lsp/nvim/lua/review_lsp/health.lua ./share/review-lsp/nvim/lua/review_lsp/init.lua ./share/review-lsp/rules.md "
  expect_contains install.runs "$("$P/bin/review-lsp" --version 2>&1)" "review-lsp "
  if cmp -s "$P/share/review-lsp/rules.md" "$ROOT/rules/rules.md"; then pass install.rules; else fail install.rules "rules.md differs"; fi
else
  fail install "make install failed"; tail -n 20 "$TMPD/install.log" >&2
fi
exit 0
