# Debounce: edits that arrive within debounceMs of each other cost one review and one publish
# (of the newest version). A request that depends on the review (hover, code actions, pulled
# diagnostics) does not wait out the debounce: it has the review run at once, then answers.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":400}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":"$absent"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\n"}}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"text":"a\n"}]}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":3},"contentChanges":[{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":0}},"text":"b\n"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":3,"diagnostics":[{"code":"derived","range":{"start":{"line":1},"end":{"line":1,"character":1}}}]}}
%quiet 600
%log review 2:
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":1,"character":0}}}
<-- {"id":2,"result":{"contents":{"value":"re:^\\*\\*Derived for this file:\\*\\* modified-kernel — "}}}
# A debounce of a minute: the hover right after an edit has the review run now.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"debounceMs":60000}}}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":4},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"c\n"}]}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":4,"diagnostics":[{"code":"derived","range":{"start":{"line":0}}}]}}
<-- {"id":3,"result":{"contents":{"value":"re:modified-kernel"}}}
%log review 3:
# So do code actions and pulled diagnostics.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":5},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"d\n"}]}}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":5}}
<-- {"id":4,"result":[{"title":"Open review checklist"}]}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":6},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"e\n"}]}}
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":6}}
<-- {"id":5,"result":{"kind":"full","items":[{"code":"derived","range":{"start":{"line":0}}}]}}
%log review 5:
--> {"jsonrpc":"2.0","id":9,"method":"shutdown"}
<-- {"id":9,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
