# Neovim suite: the editors/nvim plugin driving the real server (sanitizer build) in a real,
# headless Neovim (Debian's 0.7 package, installed here when missing) on the fixture repository
# of tests/e2e/fixture.sh. The checks themselves are in tests/nvim/test_review.lua; this script
# installs Neovim, builds the fixture (plus a committed rules file the plugin names by a
# relative rulesPath, with Neovim started outside the repository), runs it with isolated XDG directories, and fails the run
# when the script did not finish or the server reported a sanitizer error.
. "$ROOT/tests/lib.sh"

if ! command -v nvim >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends neovim; } \
    > "$TMPD/apt.log" 2>&1
  if ! command -v nvim >/dev/null 2>&1; then
    fail install "could not install Debian's neovim"; tail -n 20 "$TMPD/apt.log" >&2; exit 0
  fi
fi
pass install

FIX="$TMPD/repo"
sh "$ROOT/tests/e2e/fixture.sh" "$FIX" > "$TMPD/fixture.log" 2>&1 || { fail fixture "fixture.sh failed"; cat "$TMPD/fixture.log" >&2; exit 0; }
mkdir -p "$TMPD/nongit" && printf 'x = 1\n' > "$TMPD/nongit/plain.py"
# A repository rules file named by a relative rulesPath (the B8 title marked), committed.
mkdir -p "$FIX/docs"
sed 's/^\(\*\*B8 — .*\)\*\*/\1 (repository copy)**/' "$ROOT/rules/rules.md" > "$FIX/docs/review-rules.md"
git -C "$FIX" add docs && git -C "$FIX" commit -q -m "repository rules file"

X="$TMPD/xdg"; mkdir -p "$X/cache" "$X/state" "$X/data" "$X/config"
start=$(date +%s)
( cd "$TMPD" && XDG_CACHE_HOME="$X/cache" XDG_STATE_HOME="$X/state" XDG_DATA_HOME="$X/data" XDG_CONFIG_HOME="$X/config" \
  FIXTURE="$FIX" NONGIT="$TMPD/nongit/plain.py" REVIEW_LSP_BIN="${NVIM_TEST_BIN:-$BIN}" \
  timeout 150 nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$ROOT/editors/nvim" \
    -c "luafile $ROOT/tests/nvim/test_review.lua" ) > "$TMPD/nvim.out" 2> "$TMPD/nvim.err" < /dev/null
rc=$?
# Headless Neovim may print messages on stdout without a newline: keep only our result lines.
sed -n 's/.*\(\(PASS\|FAIL\) nvim\.[A-Za-z0-9._-]*\).*/\1/p' "$TMPD/nvim.out"
cat "$TMPD/nvim.err" >&2
echo "nvim suite: $(( $(date +%s) - start )) s" >&2
if grep -q DONE "$TMPD/nvim.out"; then pass completed; else fail completed "nvim exit $rc before DONE"; cat "$TMPD/nvim.out" >&2; fi
LSPLOG=$(ls "$X"/cache/nvim/lsp.log "$X"/state/nvim/lsp.log 2>/dev/null | head -n 1)
if [ -n "$LSPLOG" ] && grep -q 'Sanitizer\|runtime error' "$LSPLOG"; then
  fail server-clean "the server reported a sanitizer error"; grep -A30 'Sanitizer\|runtime error' "$LSPLOG" | head -n 60 >&2
else
  pass server-clean
fi
exit 0
