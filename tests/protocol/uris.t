# URIs that are not local files inside the work tree are refused politely: no diagnostics,
# null hover, no code actions, empty pulls, a log line; the server keeps answering.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
%watch window/logMessage
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:Untitled-1","languageId":"cuda","version":1,"text":"__global__ void k() {}\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:not reviewing untitled:Untitled-1: not a file: URI"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///etc/hosts","languageId":"text","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:outside the workspace"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://elsewhere/tmp/x.cu","languageId":"cuda","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:another host"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/../escape.cu","languageId":"cuda","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:outside the workspace"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/.git/config","languageId":"ini","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:inside .git"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"https://example.com/a.cu","languageId":"cuda","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:not a file: URI"}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/%zz","languageId":"cuda","version":1,"text":"x\n"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:percent"}}
%ignore window/logMessage

--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:Untitled-1"},"position":{"line":0,"character":0}}}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///etc/hosts"},"position":{"line":0,"character":0}}}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///etc/hosts"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":4,"result":[]}
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"untitled:Untitled-1"}}}
<-- {"id":5,"result":{"kind":"full","items":[]}}
%quiet 200

# Percent-encoding inside the workspace is decoded: %2E is ".".
--> {"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn%2Ecu"},"position":{"line":3,"character":2}}}
<-- {"id":6,"result":{"contents":{"kind":"markdown","value":"re:^\\*\\*Derived for this file:\\*\\* modified-kernel"}}}
--> {"jsonrpc":"2.0","id":7,"method":"shutdown"}
<-- {"id":7,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
