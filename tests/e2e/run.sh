#!/usr/bin/env bash
# `make e2e`: the VS Code extension in the real VS Code workbench. Installs what it needs into
# a cache outside the repository (tests/e2e/setup.sh: chromium, libkrb5-dev, Node 24, pinned
# code-server and playwright-core), packages the extension (editors/vscode/build.sh), installs
# it and the probe extension (tests/e2e/probe) into an isolated code-server profile, serves the
# fixture repository (tests/e2e/fixture.sh) on 127.0.0.1 and drives it with headless Chromium
# (tests/e2e/driver.js). Every process started here is stopped by its pid at the end, pass or
# fail. Prints PASS/FAIL lines and "N passed, N failed"; exit 1 on any failure.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) B="$BUILD" ;; *) B="$ROOT/$BUILD" ;; esac
BIN="$B/review-lsp"
RUN="$B/e2e"
RESULTS="$RUN/results.txt"
START=$(date +%s)
CS_PID=
DESCENDANTS=

rm -rf "$RUN"; mkdir -p "$RUN/shots" "$RUN/tmp"
: > "$RESULTS"
say() { echo "$@" | tee -a "$RESULTS"; }
t() { echo "# $(( $(date +%s) - START ))s $*" >&2; }

# All descendants of a pid (children first found, deepest last), by /proc.
descendants() {
  local kids k
  kids=$(ps -o pid= --ppid "$1" 2>/dev/null)
  for k in $kids; do echo "$k"; descendants "$k"; done
}
cleanup() {
  if [ -n "$CS_PID" ]; then
    local all="$CS_PID $(descendants "$CS_PID") $DESCENDANTS"
    kill $all 2>/dev/null
    for _ in $(seq 1 50); do
      local alive=
      for p in $all; do kill -0 "$p" 2>/dev/null && alive=1; done
      [ -z "$alive" ] && break
      sleep 0.1
    done
    kill -9 $all 2>/dev/null
    wait "$CS_PID" 2>/dev/null
    CS_PID=
  fi
}
finish() {
  cleanup
  local p f
  p=$(grep -c '^PASS' "$RESULTS"); f=$(grep -c '^FAIL' "$RESULTS")
  echo "screenshots and logs: $RUN"
  echo "make e2e: $(( $(date +%s) - START )) s"
  echo "$p passed, $f failed"
  [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
}
trap 'finish; exit $?' EXIT
trap 'exit 1' INT TERM

[ -x "$BIN" ] || { say "FAIL e2e.binary"; echo "  $BIN missing: run make first" >&2; exit 1; }

# 1. tools (cached)
if ! ENVS=$(bash "$ROOT/tests/e2e/setup.sh"); then say "FAIL e2e.setup"; exit 1; fi
eval "$ENVS"
say "PASS e2e.setup"; t "tools ready"
export PATH="$E2E_NODE24/bin:$E2E_CS/bin:$PATH"

# 2. the extension, packaged
[ -x "$B/vsix/review-lsp" ] || { say "FAIL e2e.vsix-server"; echo "  $B/vsix/review-lsp missing: run make e2e" >&2; exit 1; }
if ! VSIX=$(sh "$ROOT/editors/vscode/build.sh" "$B/vsix/review-lsp" "$RUN/review-lsp.vsix" 2> "$RUN/vsix.log" | tail -n 1) || [ ! -f "$VSIX" ]; then
  say "FAIL e2e.vsix"; tail -n 30 "$RUN/vsix.log" >&2; exit 1
fi
say "PASS e2e.vsix"; t "vsix packaged"

# 3. a fresh, isolated profile (no review.* setting at all: the extension must find the server
# it carries) with both extensions, and the fixture repository
sh "$ROOT/tests/e2e/fixture.sh" "$RUN/ws" > "$RUN/fixture.log" 2>&1 || { say "FAIL e2e.fixture"; exit 1; }
echo ".vscode/" >> "$RUN/ws/.git/info/exclude"   # the driver changes a setting there
DATA="$RUN/profile"; EXTS="$RUN/extensions"
mkdir -p "$DATA/User" "$EXTS" "$RUN/xdg/data" "$RUN/xdg/config" "$RUN/xdg/cache"
cat > "$DATA/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.enableExperiments": false,
  "workbench.tips.enabled": false,
  "chat.disableAIFeatures": true,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "editor.suggestOnTriggerCharacters": false,
  "editor.acceptSuggestionOnEnter": "off",
  "editor.wordBasedSuggestions": "off",
  "editor.autoClosingBrackets": "never",
  "editor.autoClosingQuotes": "never",
  "editor.hover.delay": 100,
  "files.autoSave": "off"
}
JSON
: > "$RUN/cs.yaml"
export XDG_DATA_HOME="$RUN/xdg/data" XDG_CONFIG_HOME="$RUN/xdg/config" XDG_CACHE_HOME="$RUN/xdg/cache" TMPDIR="$RUN/tmp"
CSOPTS=(--config "$RUN/cs.yaml" --user-data-dir "$DATA" --extensions-dir "$EXTS")
# the probe, packaged with the extension's pinned vsce
rm -rf "$RUN/probe-src" && cp -r "$ROOT/tests/e2e/probe" "$RUN/probe-src"
if ! (cd "$RUN/probe-src" && "$ROOT/editors/vscode/node_modules/.bin/vsce" package --skip-license --allow-missing-repository \
        --out "$RUN/probe.vsix") > "$RUN/probe-vsix.log" 2>&1; then
  say "FAIL e2e.probe-vsix"; tail -n 20 "$RUN/probe-vsix.log" >&2; exit 1
fi
if ! code-server "${CSOPTS[@]}" --install-extension "$VSIX" --install-extension "$RUN/probe.vsix" > "$RUN/install.log" 2>&1; then
  say "FAIL e2e.install-extension"; tail -n 20 "$RUN/install.log" >&2; exit 1
fi
say "PASS e2e.install-extension"; t "extensions installed"

# 4. serve on 127.0.0.1 (a port the kernel picks), the probe writing to PROBE
PROBE="$RUN/probe.jsonl"; : > "$PROBE"
DIAG_PROBE_OUT="$PROBE" code-server "${CSOPTS[@]}" --auth none --bind-addr 127.0.0.1:0 \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$RUN/ws" > "$RUN/cs.log" 2>&1 < /dev/null &
CS_PID=$!
PORT=
for _ in $(seq 1 300); do
  PORT=$(sed -n 's|.*HTTP server listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$RUN/cs.log" | head -n 1)
  [ -n "$PORT" ] && curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$CS_PID" 2>/dev/null || break
  sleep 0.2
done
if [ -z "$PORT" ]; then say "FAIL e2e.serve"; tail -n 30 "$RUN/cs.log" >&2; exit 1; fi
say "PASS e2e.serve"; t "code-server on port $PORT"

# 5. drive it. The driver runs in the background so that its pid, and those of the Chromium
# processes it starts (sampled while it runs), can be stopped by id whatever happens.
NODE_PATH="$E2E_PW" CS_URL="http://127.0.0.1:$PORT/?folder=$RUN/ws" OUT_DIR="$RUN/shots" PROBE="$PROBE" WS="$RUN/ws" \
  RULES_MD="$ROOT/rules/rules.md" SETTINGS_JSON="$RUN/ws/.vscode/settings.json" \
  node "$ROOT/tests/e2e/driver.js" < /dev/null > "$RUN/driver.out" 2> "$RUN/driver.err" &
DRV_PID=$!
: > "$RUN/driver-pids"
( while kill -0 "$DRV_PID" 2>/dev/null; do descendants "$DRV_PID" >> "$RUN/driver-pids"; sleep 1; done ) &
WATCH_PID=$!
( sleep "${E2E_DRIVER_TIMEOUT:-420}"; kill "$DRV_PID" 2>/dev/null && echo timeout > "$RUN/driver-timeout" ) &
TIMER_PID=$!
wait "$DRV_PID"; drc=$?
kill "$TIMER_PID" "$WATCH_PID" 2>/dev/null; wait "$TIMER_PID" "$WATCH_PID" 2>/dev/null
for p in $(sort -u "$RUN/driver-pids"); do   # Chromium left behind (e.g. after a timeout)
  if tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline" | grep -q chromium; then kill "$p" 2>/dev/null; fi
done
cat "$RUN/driver.out" >> "$RESULTS"
cat "$RUN/driver.out"
cat "$RUN/driver.err" >&2
[ -f "$RUN/driver-timeout" ] && say "FAIL e2e.driver-timeout"
DESCENDANTS=$(descendants "$CS_PID" | tr '\n' ' ')
# the server that ran is the one inside the installed .vsix
if ps -o args= -p $DESCENDANTS 2>/dev/null | grep -q "^$EXTS/review-lsp\.review-lsp-[0-9.]*\(-linux-x64\)\{0,1\}/server/review-lsp"; then
  say "PASS e2e.server-spawned-from-vsix"
else
  say "FAIL e2e.server-spawned-from-vsix"; ps -o args= -p $DESCENDANTS >&2
fi
t "driver done (exit $drc)"
