# Work-done progress around the first scan for a client that supports it.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"window":{"workDoneProgress":true}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"id":"$capture:p","method":"window/workDoneProgress/create","params":{"token":"$capture:token"}}
--> {"jsonrpc":"2.0","id":@{p},"result":null}
<-- {"method":"$/progress","params":{"token":@{token},"value":{"kind":"begin","title":"re:review"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
<-- {"method":"$/progress","params":{"token":@{token},"value":{"kind":"end","message":"re:1 files"}}}
--> {"jsonrpc":"2.0","id":2,"method":"shutdown"}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
