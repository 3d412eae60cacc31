# A client that never answers workspace/configuration: after the wait limit the first scan
# runs anyway with the settings given at initialize, and the request that waited for it is
# answered from it. A late answer is still applied. (The limit is 10 s; the test shortens it.)
%env REVIEW_LSP_WAIT_LIMIT_MS=400
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"workspace":{"configuration":true}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"id":"$capture:cfg","method":"workspace/configuration"}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
<-- {"id":2,"result":{"contents":"*"}}
%log workspace/configuration unanswered after 400 ms
# The answer comes late: its settings (hints off) apply.
--> {"jsonrpc":"2.0","id":@{cfg},"result":[{"derivedHints":false}]}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
