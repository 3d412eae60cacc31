# Settings under "review": initializationOptions, workspace/didChangeConfiguration. Invalid
# values get a window/showMessage warning naming the setting and the old value stays; a change
# re-runs what it affects and republishes.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"review":{"debounceMs":"fast","derivedHints":true}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.debounceMs: .*keeping 150"}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","severity":4}]}}

# derivedHints off: the hint goes away (an empty publish), on again: it comes back. The old
# booleans still work (false = "off", true = "file").
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":false}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":true,"debounceMs":0}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","severity":4}]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"off"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
# With hints off, hover on the line has nothing to say either.
--> {"jsonrpc":"2.0","id":20,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"id":20,"result":null}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"file"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","severity":4}]}}

# Per-rule (or per-family) severity override.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"severity":{"modified-kernel":"warning"}}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"code":"derived","severity":2}]}}

# Invalid values: each named, each keeps the previous value (no republish).
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"severity":{"A1":"loud"}}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.severity: "}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"yes"}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.derivedHints: .*keeping file"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"disabledRules":"A1"}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.disabledRules: "}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"maxFileBytes":-1}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.maxFileBytes: .*keeping 2097152"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"logLevel":"loud"}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.logLevel: .*keeping info"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"rulesPath":"/nonexistent/rules.md"}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.rulesPath: cannot read /nonexistent/rules.md"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"base":42,"title":["x"]}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.base: expected a string"}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.title: expected a string"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":"everything"}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review: settings must be an object"}}
%quiet 300

# disabledRules re-reviews: A1 leaves the checklist; a family whose every rule is off leaves the
# hint (here the only one: an empty publish).
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"disabledRules":["A1"]}}}}
%quiet 300
--> {"jsonrpc":"2.0","id":21,"method":"workspace/executeCommand","params":{"command":"review.showChecklist"}}
<-- {"id":21,"result":{"markdown":"re:^(?![\\s\\S]*\\*\\*A1 — )[\\s\\S]*## modified-kernel\\n\\nTriggered at csrc/kernels/attn\\.cu:4\\n\\n- \\[ \\] \\*\\*B2 — "}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"disabledRules":["A1","B2","D1","D8","P6"]}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"disabledRules":[]}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}

# A workspace rules file (rulesPath relative to the workspace): titles, lines and links come
# from it (review.listRules, the checklist).
%sh printf '# Team rules\n\n### B — Bounds\n\n**B2 — Our own mask rule** 🔴\nMask every tail block.\n' > team-rules.md && git add team-rules.md && git commit -q -m rules
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"rulesPath":"team-rules.md"}}}}
--> {"jsonrpc":"2.0","id":22,"method":"workspace/executeCommand","params":{"command":"review.listRules"}}
<-- {"id":22,"result":[{"id":"B2","title":"Our own mask rule","category":"B — Bounds","severity":"warning","line":5,"uri":"${WSURI}/team-rules.md"}]}
--> {"jsonrpc":"2.0","id":23,"method":"workspace/executeCommand","params":{"command":"review.showChecklist","arguments":[{"uri":"${WSURI}/csrc/kernels/attn.cu"}]}}
<-- {"id":23,"result":{"markdown":"re:\\n- \\[ \\] \\*\\*B2 — Our own mask rule\\*\\* 🔴\\n\\n  Mask every tail block\\.\\n\\n- \\[ \\] \\*\\*D1\\*\\* — not in the rules file"}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
