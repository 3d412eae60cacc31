# workspace/diagnostic: a client that pulls the workspace gets a report for every file of the
# change, with result ids: what it already holds
# comes back "unchanged". From its first workspace pull on, nothing is pushed any more, and
# what was pushed before is cleared, so nothing shows twice.
%sh printf 'def act(x):\n    return x * 2\n' > aiter/ops/act.py
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"diagnostic":{"dynamicRegistration":false}},"workspace":{"diagnostics":{"refreshSupport":true}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"diagnosticProvider":{"identifier":"review","workspaceDiagnostics":true}}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","diagnostics":[{"code":"derived"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
<-- {"id":"$capture:r1","method":"workspace/diagnostic/refresh"}
--> {"jsonrpc":"2.0","id":@{r1},"result":null}
# The first workspace pull: the pushed copies are cleared, then the report has both files.
--> {"jsonrpc":"2.0","id":2,"method":"workspace/diagnostic","params":{"previousResultIds":[]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","diagnostics":[]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
<-- {"id":"$capture:r2","method":"workspace/diagnostic/refresh"}
<-- {"id":2,"result":{"items":[
      {"kind":"full","uri":"${WSURI}/aiter/ops/act.py","version":null,"resultId":"$capture:ra","items":[{"code":"derived","message":"re:derives ops-wrapper"}]},
      {"kind":"full","uri":"${WSURI}/csrc/kernels/attn.cu","version":null,"resultId":"$capture:rb","items":[{"code":"derived","range":{"start":{"line":3}}}]}]}}
--> {"jsonrpc":"2.0","id":@{r2},"result":null}
# Pulling again with those ids: both unchanged.
--> {"jsonrpc":"2.0","id":3,"method":"workspace/diagnostic","params":{"previousResultIds":[{"uri":"${WSURI}/aiter/ops/act.py","value":@{ra}},{"uri":"${WSURI}/csrc/kernels/attn.cu","value":@{rb}}]}}
<-- {"id":3,"result":{"items":[{"kind":"unchanged","uri":"${WSURI}/aiter/ops/act.py","resultId":@{ra},"items":"$absent"},{"kind":"unchanged","uri":"${WSURI}/csrc/kernels/attn.cu","resultId":@{rb}}]}}
# A file leaves the change on disk: no push; the next pull reports it empty, the other unchanged.
# (The server's own watcher and the client's event may each cause a review and a refresh.)
%ignore workspace/diagnostic/refresh
%sh git checkout -- aiter/ops/act.py
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/aiter/ops/act.py","type":2}]}}
%quiet 600
--> {"jsonrpc":"2.0","id":4,"method":"workspace/diagnostic","params":{"previousResultIds":[{"uri":"${WSURI}/aiter/ops/act.py","value":@{ra}},{"uri":"${WSURI}/csrc/kernels/attn.cu","value":@{rb}}]}}
<-- {"id":4,"result":{"items":[{"kind":"full","uri":"${WSURI}/aiter/ops/act.py","items":[]},{"kind":"unchanged","uri":"${WSURI}/csrc/kernels/attn.cu"}]}}
# An open document is in the workspace report too, with its version (a client may re-pull
# only the workspace), and can be pulled on its own; edits push nothing.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// changed\n"}}}
%quiet 300
--> {"jsonrpc":"2.0","id":5,"method":"workspace/diagnostic","params":{"previousResultIds":[]}}
<-- {"id":5,"result":{"items":[{"kind":"full","uri":"${WSURI}/aiter/ops/act.py","items":[]},{"kind":"full","uri":"${WSURI}/csrc/kernels/attn.cu","version":1,"items":[{"code":"derived","range":{"start":{"line":0}}}]}]}}
--> {"jsonrpc":"2.0","id":6,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<-- {"id":6,"result":{"kind":"full","items":[{"code":"derived","range":{"start":{"line":0}}}]}}
--> {"jsonrpc":"2.0","id":7,"method":"shutdown"}
<-- {"id":7,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
