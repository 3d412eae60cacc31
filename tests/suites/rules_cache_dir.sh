# Where the server writes its copy of the bundled rules (for rule links) when HOME and
# XDG_CACHE_HOME are unset: a per-user directory under the temporary directory, created 0700
# and used only when lstat shows a real directory of ours that nobody else can write. A link
# or a directory planted there under the predictable name is refused (the log says why, rule
# links are left out) and nothing is written through it. Checked with TMPDIR pointing here,
# and, where a private mount namespace can be had, on a private /tmp with TMPDIR unset.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo ws
mkdir -p ws/csrc/kernels
# a deleted guard: its finding links to the rule in the rules file
printf '__global__ void k(float *o, int n) {\n    TORCH_CHECK(n > 0);\n    o[0] = 1.0f;\n}\n' > ws/csrc/kernels/k.cu
commit_all ws base
printf '__global__ void k(float *o, int n) {\n    o[0] = 2.0f;\n}\n' > ws/csrc/kernels/k.cu

frame() { printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
{
  frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://'"$TMPD"'/ws","capabilities":{}}}'
  frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  frame '{"jsonrpc":"2.0","method":"exit"}'
} > in.lsp
uid=$(id -u)

# serve NAME TMPDIR: one session with HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR unset.
serve() {
  env -u HOME -u XDG_CACHE_HOME -u XDG_RUNTIME_DIR TMPDIR="$2" "$BIN" --log "$1.log" < in.lsp > "$1.out" 2> "$1.err"
}

# A fresh temporary directory: the cache is created there, private, and links point into it.
mkdir t1
serve fresh "$TMPD/t1"
expect_rc fresh.exit-0 $? 0
expect_contains fresh.links-into-private-dir "$(cat fresh.out)" "\"href\":\"file://$TMPD/t1/review-lsp-$uid/0.1.0/rules.md#L"
expect_eq fresh.dir-mode-700 "$(stat -c %a "t1/review-lsp-$uid" 2>&1)" 700
if cmp -s t1/review-lsp-$uid/0.1.0/rules.md "$ROOT/rules/rules.md"; then pass fresh.rules-written; else fail fresh.rules-written; fi

# A link planted under the predictable name: refused, nothing written through it.
mkdir t2 attacker
ln -s "$TMPD/attacker" "t2/review-lsp-$uid"
serve planted-link "$TMPD/t2"
expect_rc planted-link.exit-0 $? 0
expect_eq planted-link.nothing-written-through "$(ls -A attacker)" ""
expect_not_contains planted-link.no-links "$(cat planted-link.out)" '"href"'
expect_contains planted-link.said-why "$(cat planted-link.log)" "review-lsp-$uid is a symbolic link"
expect_contains planted-link.still-publishes "$(cat planted-link.out)" '"method":"textDocument/publishDiagnostics"'

# A directory planted with room for others to write: refused.
mkdir -p t3/review-lsp-$uid && chmod 777 t3/review-lsp-$uid
serve open-dir "$TMPD/t3"
expect_eq open-dir.nothing-written "$(ls -A t3/review-lsp-$uid)" ""
expect_contains open-dir.said-why "$(cat open-dir.log)" "can be written or read by others (mode 777)"

# A directory of another user: refused (needs root to plant).
if [ "$uid" = 0 ]; then
  mkdir -p t4/review-lsp-0 && chmod 700 t4/review-lsp-0 && chown 65534 t4/review-lsp-0
  serve other-user "$TMPD/t4"
  expect_eq other-user.nothing-written "$(ls -A t4/review-lsp-0)" ""
  expect_contains other-user.said-why "$(cat other-user.log)" "belongs to user 65534"
fi

# The real /tmp, TMPDIR unset, in a private mount namespace (so other users of /tmp are not
# disturbed): a link planted at /tmp/review-lsp-UID is refused.
if [ "$uid" = 0 ]; then ns="unshare -m"; else ns="unshare -rm"; fi
if $ns true 2>/dev/null; then
  mkdir -p fake attacker2
  inner="$TMPD/fake"
  # the binary is run from a copy in TMPD (bound into the new /tmp below): the build tree
  # itself may live under /tmp, hidden once /tmp is replaced
  cp "$BIN" "$TMPD/review-lsp-copy"
  case "$TMPD" in /tmp/*) mkdir -p "$inner${TMPD#/tmp}" ;; esac
  $ns sh -c '
    set -e
    case "$1" in /tmp/*) mount --bind "$1" "$2${1#/tmp}" ;; esac
    mount --rbind "$2" /tmp
    ln -s "$1/attacker2" "/tmp/review-lsp-$(id -u)"
    env -u HOME -u XDG_CACHE_HOME -u XDG_RUNTIME_DIR -u TMPDIR "$3" --log "$1/real-tmp.log" < "$1/in.lsp" > "$1/real-tmp.out"
  ' sh "$TMPD" "$inner" "$TMPD/review-lsp-copy" 2> real-tmp.err
  expect_rc real-tmp.exit-0 $? 0
  expect_eq real-tmp.nothing-written-through "$(ls -A attacker2)" ""
  expect_not_contains real-tmp.no-links "$(cat real-tmp.out)" '"href"'
  expect_contains real-tmp.said-why "$(cat real-tmp.log)" "is a symbolic link"
else
  echo "SKIP $SUITE.real-tmp: no private mount namespace here (unshare refused)"
fi
exit 0
