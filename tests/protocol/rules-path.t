# rulesPath in initializationOptions, relative to the workspace: used from the first scan.
%sh printf '### A — Ours\n\n**A1 — Our sibling rule** 🔴\nFix every sibling.\n' > team.md
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"rulesPath":"team.md"}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.openRule","arguments":["A1"]}}
<-- {"id":2,"result":{"uri":"${WSURI}/team.md","line":3}}
--> {"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"review.listRules","arguments":[{"uri":"${WSURI}"}]}}
<-- {"id":4,"result":[{"id":"A1","title":"Our sibling rule","line":3,"uri":"${WSURI}/team.md"}]}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
