# window/logMessage honours review.logLevel; the --log file gets everything regardless.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"review":{"logLevel":"warning"}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
%watch window/logMessage
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}
# An info-level line ("not reviewing ...") is not sent at level warning...
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:1","languageId":"cuda","version":1,"text":"x"}}}
%quiet 300
%log info +not reviewing untitled:1
# ... a warning is.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/nowhere.cu","version":2},"contentChanges":[]}}
<-- {"method":"window/logMessage","params":{"type":2,"message":"re:not open"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"logLevel":"info"}}}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:2","languageId":"cuda","version":1,"text":"x"}}}
<-- {"method":"window/logMessage","params":{"type":3,"message":"re:not reviewing untitled:2"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"logLevel":"off"}}}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/nowhere.cu","version":3},"contentChanges":[]}}
%quiet 300
%ignore window/logMessage
--> {"jsonrpc":"2.0","id":2,"method":"shutdown"}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
