# Editor packaging checks that need no editor: the VS Code extension's settings schema covers
# every setting the server reads (lsp/settings.c) with a description, its lock file carries no
# registry URLs, its sources parse; the rule picker's parser (editors/vscode/rules.js) and the
# Neovim plugin's (review_lsp.parse_rules, when nvim is present) find in rules/rules.md exactly
# the rules the server knows (`review-lsp explain ID` succeeds for each, and the count agrees).
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

# 2. lock file: no "resolved" registry URLs; pinned dependency versions
expect_eq vscode.lockfile-no-resolved "$(grep -c '"resolved"' "$EXT/package-lock.json")" "0"
unpinned=$(node -e '
  const p = require(process.argv[1]);
  const all = Object.assign({}, p.dependencies, p.devDependencies);
  console.log(Object.entries(all).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v)).map(([k]) => k).join(" "));' "$EXT/package.json")
expect_eq vscode.pinned-deps "$unpinned" ""

# 3. sources parse
if node --check "$EXT/extension.js" 2> "$TMPD/check.err" && node --check "$EXT/rules.js" 2>> "$TMPD/check.err" \
   && node --check "$ROOT/tests/e2e/driver.js" 2>> "$TMPD/check.err" && node --check "$ROOT/tests/e2e/probe/extension.js" 2>> "$TMPD/check.err"; then
  pass vscode.sources-parse
else
  fail vscode.sources-parse "$(cat "$TMPD/check.err")"
fi

# 4. the rule pickers' parsers agree with the server's catalogue
node -e 'for (const r of require(process.argv[1]).readRules(process.argv[2])) console.log(r.id + "\t" + r.line)' \
  "$EXT/rules.js" "$ROOT/rules/rules.md" > "$TMPD/js-rules.txt"
n=$(wc -l < "$TMPD/js-rules.txt")
unknown=
while IFS="$(printf '\t')" read -r id line; do
  "$BIN_OPT" explain "$id" > /dev/null 2>&1 || unknown="$unknown $id"
  sed -n "${line}p" "$ROOT/rules/rules.md" | grep -q "^\(\*\*\|| \)$id — " || unknown="$unknown $id@$line"
done < "$TMPD/js-rules.txt"
expect_eq vscode.rules-parser-ids-known "$unknown" ""
# every bold heading / table row of the file is found (nothing silently skipped)
want=$(grep -c '^\*\*[A-Z][A-Za-z0-9.-]* — .*\*\*\|^| [A-Z][A-Za-z0-9.-]* — ' "$ROOT/rules/rules.md")
expect_eq vscode.rules-parser-count "$n" "$want"
if command -v nvim >/dev/null 2>&1; then
  lua_n=$(cd "$TMPD" && nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$ROOT/editors/nvim" \
    -c "lua io.stdout:write(#require('review_lsp').parse_rules('$ROOT/rules/rules.md') .. '\n')" -c 'qa!' 2>/dev/null | tr -dc '0-9')
  expect_eq nvim.rules-parser-count "$lua_n" "$n"
fi
exit 0
