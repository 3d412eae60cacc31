# A workspace that is not a git repository (here: its .git removed, then a corrupt HEAD in a
# second session would behave the same): the server says so once, answers every request with
# empty results, and keeps running.
%sh rm -rf .git
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:no findings will be shown"}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"x\n"}}}
%quiet 300
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":3,"result":[]}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<-- {"id":4,"result":{"kind":"full","items":[]}}
--> {"jsonrpc":"2.0","id":5,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":5,"result":{"files":0,"findings":0}}
--> {"jsonrpc":"2.0","id":6,"method":"workspace/executeCommand","params":{"command":"review.openRule","arguments":["A1"]}}
<-- {"id":6,"error":{"code":-32602}}
--> {"jsonrpc":"2.0","id":7,"method":"shutdown"}
<-- {"id":7,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
