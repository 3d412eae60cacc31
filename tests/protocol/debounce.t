# Debounce: edits that arrive within debounceMs of each other cost one review and one publish
# (of the newest version); requests wait for that review instead of answering from stale state.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":400}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":"$absent"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\n"}}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"text":"a\n"}]}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":3},"contentChanges":[{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":0}},"text":"b\n"}]}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":1,"character":0}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":3,"diagnostics":[{"code":"modified-kernel","range":{"start":{"line":1},"end":{"line":1,"character":1}}}]}}
<-- {"id":2,"result":{"contents":{"value":"re:A1"}}}
%quiet 600
%log review 2:
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
