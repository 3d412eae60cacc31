#!/bin/sh
# Puts a newer Neovim than Debian 12's on this machine for the headless tests, without
# installing it system-wide: downloads Debian's neovim package of SUITE (trixie: 0.10, sid:
# 0.12) and what it depends on, with a private apt configuration that reads the machine's own
# Debian mirror, unpacks them into a cache directory, and writes a wrapper that starts that
# nvim through the unpacked glibc's loader (the newer builds need a newer glibc than Debian 12
# has). Nothing is committed and nothing outside the cache changes. Prints the wrapper's path;
# exits 1 (with the reason on stderr) when the packages cannot be had.
# Usage: fetch-neovim.sh SUITE   (cache: $REVIEW_LSP_NVIM_CACHE, default ~/.cache/review-lsp-nvim)
set -eu
SUITE=$1
CACHE=${REVIEW_LSP_NVIM_CACHE:-$HOME/.cache/review-lsp-nvim}
D="$CACHE/$SUITE"
if [ -x "$D/nvim" ] && "$D/nvim" --headless --clean -c 'qa!' >/dev/null 2>&1; then
  echo "$D/nvim"; exit 0
fi
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || { echo "no apt-get/dpkg here" >&2; exit 1; }
MIRROR=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$MIRROR" ] || { echo "cannot tell which Debian mirror this machine uses" >&2; exit 1; }
rm -rf "$D"; mkdir -p "$D/apt/lists/partial" "$D/apt/cache/archives/partial" "$D/debs"
echo "deb $MIRROR $SUITE main" > "$D/apt/sources.list"
A="-o Dir::Etc::sourcelist=$D/apt/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$D/apt/lists -o Dir::Cache=$D/apt/cache -o Debug::NoLocking=1"
# shellcheck disable=SC2086
apt-get $A -qq update >&2 || { echo "apt-get update for $SUITE failed" >&2; exit 1; }
# shellcheck disable=SC2086
deps=$(apt-cache $A depends neovim neovim-runtime 2>/dev/null | awk '/Depends:/{print $2}' | grep -v '^<' | sort -u)
# shellcheck disable=SC2086
(cd "$D/debs" && apt-get $A -qq download neovim neovim-runtime $deps libc6 libgcc-s1 >&2) \
  || { echo "apt-get download from $SUITE failed" >&2; exit 1; }
for f in "$D"/debs/*.deb; do dpkg -x "$f" "$D/root"; done
R="$D/root"
cat > "$D/nvim" <<W
#!/bin/sh
VIMRUNTIME=$R/usr/share/nvim/runtime exec $R/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \\
  --library-path $R/usr/lib/x86_64-linux-gnu $R/usr/bin/nvim "\$@"
W
chmod +x "$D/nvim"
rm -rf "$D/debs" "$D/apt/cache"
"$D/nvim" --headless --clean -c 'qa!' >/dev/null 2>&1 || { echo "the unpacked nvim of $SUITE does not start" >&2; exit 1; }
echo "$D/nvim"
