# Settings under "review": initializationOptions, workspace/didChangeConfiguration. Invalid
# values get a window/showMessage warning naming the setting and the old value stays; a change
# re-runs what it affects and republishes.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"review":{"debounceMs":"fast","derivedHints":true}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.debounceMs: .*keeping 150"}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"modified-kernel","severity":4}]}}

# derivedHints off: the hint goes away (an empty publish), on again: it comes back.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":false}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":true,"debounceMs":0}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"modified-kernel","severity":4}]}}

# Per-rule (or per-family) severity override.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"severity":{"modified-kernel":"warning"}}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"code":"modified-kernel","severity":2}]}}

# Invalid values: each named, each keeps the previous value (no republish).
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"severity":{"A1":"loud"}}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.severity: "}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"yes"}}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review\\.derivedHints: .*keeping true"}}
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

# disabledRules re-reviews: the family's message no longer lists A1.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"disabledRules":["A1"]}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"code":"modified-kernel","message":"re:^this change derives modified-kernel: B2 — ","data":{"rules":["B2","D1","D8","P6"]}}]}}

# A workspace rules file (rulesPath relative to the workspace): titles and links come from it.
%sh printf '# Team rules\n\n### B — Bounds\n\n**B2 — Our own mask rule** 🔴\nMask every tail block.\n' > team-rules.md && git add team-rules.md && git commit -q -m rules
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"rulesPath":"team-rules.md"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"message":"re:B2 — Our own mask rule; D1;","codeDescription":{"href":"${WSURI}/team-rules.md#L5"}}]}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"id":2,"result":{"contents":{"value":"re:^\\*\\*B2 — Our own mask rule\\*\\* 🔴\\n\\nMask every tail block\\.\\n\\n.*team-rules\\.md:5"}}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
