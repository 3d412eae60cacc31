# workspace/configuration: a client that supports it is asked for the "review" section before
# the first scan, and again when it signals a change without the values.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"workspace":{"configuration":true}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"id":"$capture:cfg","method":"workspace/configuration","params":{"items":[{"section":"review","scopeUri":"${WSURI}"}]}}
--> {"jsonrpc":"2.0","id":@{cfg},"result":[{"derivedHints":false,"debounceMs":0}]}
# With the hints off the change has nothing to show: no publish at all.
%quiet 400
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":null}}
<-- {"id":"$capture:cfg2","method":"workspace/configuration"}
--> {"jsonrpc":"2.0","id":@{cfg2},"result":[{"derivedHints":true}]}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
# A client that answers with an error or garbage leaves the settings as they were.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{}}}
<-- {"id":"$capture:cfg3","method":"workspace/configuration"}
--> {"jsonrpc":"2.0","id":@{cfg3},"error":{"code":-32603,"message":"no"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{}}}
<-- {"id":"$capture:cfg4","method":"workspace/configuration"}
--> {"jsonrpc":"2.0","id":@{cfg4},"result":"what"}
%quiet 300
--> {"jsonrpc":"2.0","id":2,"method":"shutdown"}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
