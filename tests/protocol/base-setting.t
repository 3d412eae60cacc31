# A base setting that names no commit is an error the user sees (window/showMessage, type 1),
# once while it stays the same; the server keeps serving, reviewed against the default base.
# Fixing the setting clears it; a different wrong base is shown again.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"base":"origin/mian"}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"window/showMessage","params":{"type":1,"message":"re:^review\\.base: base 'origin/mian' does not name a commit in .*; reviewing against main \\(merge base [0-9a-f]+\\) meanwhile$"}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
# the same wrong base on the next review: no second message
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":2,"result":{"files":"*","findings":"*","repositories":1}}
%quiet 300
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"base":"main"}}}}
%quiet 500
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"base":"no-such-branch"}}}}
<-- {"method":"window/showMessage","params":{"type":1,"message":"re:^review\\.base: base 'no-such-branch' does not name a commit"}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
