# lsp/ stays layered: the transport, the framer and the log know nothing of the server struct
# and call nothing above them, and lsp/'s include graph has no cycle
# (scripts/check-lsp-layers.py). The checker runs on this checkout (it must pass) and on
# copies of lsp/ broken in each way it guards against (each must fail, naming the problem).
. "$ROOT/tests/lib.sh"
CHECK="$ROOT/scripts/check-lsp-layers.py"

out=$(python3 "$CHECK" "$ROOT" 2>&1); rc=$?
expect_rc layers_hold_in_this_tree "$rc" 0
expect_eq layers_hold_in_this_tree_quietly "$out" ""

# broken_copy NAME: a fresh copy of lsp/ under $TMPD/NAME (echoes the root).
broken_copy() {
  rm -rf "$TMPD/$1"; mkdir -p "$TMPD/$1"
  cp -a "$ROOT/lsp" "$TMPD/$1/lsp"
  echo "$TMPD/$1"
}

# check_fails NAME ROOT NEEDLE: the checker fails on ROOT and says NEEDLE.
check_fails() {
  out=$(python3 "$CHECK" "$2" 2>&1); rc=$?
  expect_rc "$1" "$rc" 1
  expect_contains "$1_says_why" "$out" "$3"
}

r=$(broken_copy direct_include)
sed -i 's|#include "lsp/transport.h"|#include "lsp/transport.h"\n#include "lsp/server.h"|' "$r/lsp/transport.c"
check_fails transport_including_server_h_fails "$r" "lsp/transport.c includes lsp/server.h"

r=$(broken_copy indirect_include)
sed -i 's|#include <stdio.h>|#include <stdio.h>\n\n#include "lsp/watch.h"|' "$r/lsp/log.h"
sed -i 's|#include <uv.h>|#include <uv.h>\n\n#include "lsp/server.h"|' "$r/lsp/watch.h"
check_fails log_reaching_server_h_through_a_header_fails "$r" "lsp/log.c includes lsp/server.h"

r=$(broken_copy upward_call)
printf '\nvoid framer_poke(void *s)\n{\n    rpc_notify(s, "x", 0);\n}\n' >> "$r/lsp/framing.c"
check_fails framing_calling_rpc_fails "$r" "lsp/framing.c calls upward: rpc_notify()"

r=$(broken_copy comment_mentions)
printf '\n/* rpc_notify(s, ...) in a comment and "diagnostics_schedule(" in a string are no calls */\n' >> "$r/lsp/transport.c"
out=$(python3 "$CHECK" "$r" 2>&1); rc=$?
expect_rc names_in_comments_are_not_calls "$rc" 0

r=$(broken_copy cycle)
sed -i 's|#include <stddef.h>|#include <stddef.h>\n\n#include "lsp/uri.h"|' "$r/lsp/position.h"
sed -i 's|#define RL_LSP_URI_H|#define RL_LSP_URI_H\n\n#include "lsp/position.h"|' "$r/lsp/uri.h"
check_fails include_cycle_fails "$r" "include cycle in lsp/"
exit 0
