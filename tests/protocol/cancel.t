# $/cancelRequest: a request waiting for a pending review (a long debounce after an edit) is
# answered with RequestCancelled; a request already answered is unaffected; the others get
# their answers when the review runs.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"review":{"debounceMs":60000}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// a\n"}}}
# The review waits for the debounce: hover and code actions wait with it.
--> {"jsonrpc":"2.0","id":"h1","method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
--> {"jsonrpc":"2.0","id":"h2","method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}
%quiet 300
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}
<-- {"id":"h1","error":{"code":-32800}}
# Cancelling twice, or an unknown id, does nothing.
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":424242}}
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}
%quiet 200
# A rescan runs the review now: the waiting code-action request gets its answer.
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":1,"diagnostics":[{"code":"modified-kernel","range":{"start":{"line":0}}}]}}
<-- {"id":"h2","result":["$some",{"title":"Open rule A1 in rules.md"}]}
<-- {"id":2,"result":{"files":1}}
# Cancelling an answered request is ignored.
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h2"}}
%quiet 200
# shutdown answers what still waits before it answers itself.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"text":"// b\n"}]}}
--> {"jsonrpc":"2.0","id":"h3","method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":2}}
<-- {"id":"h3","result":{"contents":{"value":"re:A1"}}}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
