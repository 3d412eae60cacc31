# Neovim suite: the editors/nvim plugin driving the real server (sanitizer build) in real,
# headless Neovims: Debian 12's 0.7 (installed here when missing), and 0.10 and 0.12 (Debian's
# trixie and sid packages, unpacked into a cache by tests/nvim/fetch-neovim.sh, never
# installed system-wide); a release that cannot be had is reported as SKIP, by name. On each:
# tests/nvim/test_review.lua on the fixture repository of tests/e2e/fixture.sh (plus a
# committed rules file the plugin names by a relative rulesPath, with Neovim started outside
# the repository), with isolated XDG directories; and tests/nvim/test_readme_setup.lua on a
# `make install` into a scratch HOME: the README's init.lua lines as written, and on 0.10 and
# newer the README's lazy.nvim spec, loaded the way lazy.nvim loads a spec. A run fails when its
# script did not finish or the server reported a sanitizer error.
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
RULES_COUNT=$(grep -c '^\*\*[A-Z][A-Za-z0-9.-]* — .*\*\*\|^| [A-Z][A-Za-z0-9.-]* — ' "$FIX/docs/review-rules.md")

# run_nvim NAME NVIM SCRIPT [ENV=VALUE...]: one headless run, its PASS/FAIL lines kept.
run_nvim() {
  name=$1 nv=$2 script=$3; shift 3
  X="$TMPD/xdg-$name"; mkdir -p "$X/cache" "$X/state" "$X/data" "$X/config"
  start=$(date +%s)
  ( cd "$TMPD" && env XDG_CACHE_HOME="$X/cache" XDG_STATE_HOME="$X/state" XDG_DATA_HOME="$X/data" XDG_CONFIG_HOME="$X/config" \
    FIXTURE="$FIX" NONGIT="$TMPD/nongit/plain.py" REVIEW_LSP_BIN="${NVIM_TEST_BIN:-$BIN}" RULES_COUNT="$RULES_COUNT" "$@" \
    timeout 150 "$nv" --headless -u NONE -i NONE -n --cmd "set rtp^=$ROOT/editors/nvim" \
      -c "luafile $script" ) > "$TMPD/$name.out" 2> "$TMPD/$name.err" < /dev/null
  rc=$?
  # Headless Neovim may print messages on stdout without a newline: keep only our result lines.
  sed -n 's/.*\(\(PASS\|FAIL\) nvim\.[A-Za-z0-9._-]*\).*/\1/p' "$TMPD/$name.out"
  sed "s/^/[$name] /" "$TMPD/$name.err" >&2
  echo "nvim suite, $name: $(( $(date +%s) - start )) s" >&2
  if grep -q DONE "$TMPD/$name.out"; then pass "$name.completed"; else fail "$name.completed" "nvim exit $rc before DONE"; cat "$TMPD/$name.out" >&2; fi
  LSPLOG=$(ls "$X"/cache/nvim/lsp.log "$X"/state/nvim/lsp.log 2>/dev/null | head -n 1)
  if [ -n "$LSPLOG" ] && grep -q 'Sanitizer\|runtime error' "$LSPLOG"; then
    fail "$name.server-clean" "the server reported a sanitizer error"; grep -A30 'Sanitizer\|runtime error' "$LSPLOG" | head -n 60 >&2
  else
    pass "$name.server-clean"
  fi
}

# A scratch HOME with `make install PREFIX=$HOME/.local` in it, for the README's set-up as
# written (~/.local/share/review-lsp/nvim, review-lsp on PATH).
LHOME="$TMPD/home"
if make -s -C "$ROOT" install PREFIX="$LHOME/.local" BIN_SRC="${NVIM_TEST_BIN:-$BIN}" > "$TMPD/install.log" 2>&1; then
  pass readme-setup.install
else
  fail readme-setup.install "make install failed"; tail -n 20 "$TMPD/install.log" >&2
fi
readme_setup() { # NAME NVIM SNIPPET
  run_nvim "$1" "$2" "$ROOT/tests/nvim/test_readme_setup.lua" HOME="$LHOME" PATH="$LHOME/.local/bin:$PATH" \
    README="$ROOT/README.md" SNIPPET="$3"
}

run_nvim v0.7 nvim "$ROOT/tests/nvim/test_review.lua"
readme_setup v0.7-init nvim init

for suite in trixie sid; do
  if nv=$(sh "$ROOT/tests/nvim/fetch-neovim.sh" "$suite" 2> "$TMPD/fetch-$suite.log"); then
    tag=$("$nv" --headless --clean -c 'lua io.stdout:write(string.format("v%d.%d", vim.version().major, vim.version().minor))' -c 'qa!' 2>/dev/null)
    run_nvim "$tag" "$nv" "$ROOT/tests/nvim/test_review.lua"
    readme_setup "$tag-init" "$nv" init
    readme_setup "$tag-lazy" "$nv" lazy
  else
    echo "SKIP nvim.$suite: Debian's $suite neovim package could not be fetched ($(tail -n 1 "$TMPD/fetch-$suite.log"))"
  fi
done
exit 0
