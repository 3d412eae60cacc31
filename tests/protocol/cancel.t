# $/cancelRequest: a request waiting for a review that has not run yet (the first scan waits
# for the client to answer window/workDoneProgress/create) is answered with RequestCancelled;
# a request already answered is unaffected; the others get their answers when the review runs.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"window":{"workDoneProgress":true}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"id":"$capture:p","method":"window/workDoneProgress/create","params":{"token":"$capture:token"}}
# The first scan waits for that answer: hover and code actions wait with it.
--> {"jsonrpc":"2.0","id":"h1","method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
--> {"jsonrpc":"2.0","id":"h2","method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":0}},"context":{"diagnostics":[]}}}
%quiet 300
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}
<-- {"id":"h1","error":{"code":-32800}}
# Cancelling twice, or an unknown id, does nothing.
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":424242}}
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}
%quiet 200
# The client answers: the scan runs and the waiting code-action request gets its answer.
--> {"jsonrpc":"2.0","id":@{p},"result":null}
<-- {"method":"$/progress","params":{"token":@{token},"value":{"kind":"begin"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"code":"derived","range":{"start":{"line":3}}}]}}
<-- {"id":"h2","result":[{"title":"Open review checklist","command":"review.showChecklist","arguments":[{"uri":"${WSURI}/csrc/kernels/attn.cu"}]}]}
<-- {"method":"$/progress","params":{"token":@{token},"value":{"kind":"end"}}}
# Cancelling an answered request is ignored.
--> {"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h2"}}
%quiet 200
# shutdown answers what still waits before it answers itself.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":2,"text":"// b\n"}}}
--> {"jsonrpc":"2.0","id":"h3","method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":2}}
<-- {"id":"h3","result":{"contents":{"value":"re:^\\*\\*Derived for this file:\\*\\* modified-kernel — "}}}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
