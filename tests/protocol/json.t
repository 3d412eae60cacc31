# Malformed JSON-RPC: every case gets the specified error (or is dropped, for a notification),
# and the next request is answered correctly.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}

# Invalid JSON.
--> framed "Content-Length: %LEN%\r\n\r\n" {"jsonrpc":"2.0","id":90,
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid JSON"}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":2,"result":{"files":"*"}}

# Invalid UTF-8 inside a string.
--> raw "Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":91,\"method\":\"x\",\"params\":\"\xff\xfe\"}"
<-- {"id":null,"error":{"code":-32700}}
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":3,"result":{"files":"*"}}

# Not an object: a number, a string, null, a batch.
--> 42
<-- {"id":null,"error":{"code":-32600,"message":"re:object"}}
--> "initialize"
<-- {"id":null,"error":{"code":-32600}}
--> null
<-- {"id":null,"error":{"code":-32600}}
--> [{"jsonrpc":"2.0","id":92,"method":"shutdown"},{"jsonrpc":"2.0","method":"exit"}]
<-- {"id":null,"error":{"code":-32600,"message":"re:batch"}}
--> {"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":4,"result":{"files":"*"}}

# Wrong or missing "jsonrpc", method of the wrong type, ids of the wrong type.
--> {"jsonrpc":"1.0","id":93,"method":"shutdown"}
<-- {"id":93,"error":{"code":-32600,"message":"re:jsonrpc"}}
--> {"id":94,"method":"shutdown"}
<-- {"id":94,"error":{"code":-32600}}
--> {"jsonrpc":"2.0","id":95,"method":5}
<-- {"id":95,"error":{"code":-32600,"message":"re:method"}}
--> {"jsonrpc":"2.0","id":1.5,"method":"shutdown"}
<-- {"id":null,"error":{"code":-32600,"message":"re:id"}}
--> {"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}
<-- {"id":null,"error":{"code":-32600}}
--> {"jsonrpc":"2.0","id":96}
<-- {"id":96,"error":{"code":-32600}}
# Neither method nor id: InvalidRequest. Malformed notifications are dropped silently.
--> {"jsonrpc":"2.0"}
<-- {"id":null,"error":{"code":-32600}}
--> {"method":"exit"}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":"a string"}
%quiet 200
--> {"jsonrpc":"2.0","id":5,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":5,"result":{"files":"*"}}

# Wrong parameter types.
--> {"jsonrpc":"2.0","id":97,"method":"textDocument/hover","params":"hello"}
<-- {"id":97,"error":{"code":-32602}}
--> {"jsonrpc":"2.0","id":98,"method":"textDocument/hover","params":[1,2]}
<-- {"id":98,"error":{"code":-32602}}
--> {"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":"line 3"}}
<-- {"id":99,"error":{"code":-32602,"message":"re:position"}}
--> {"jsonrpc":"2.0","id":100,"method":"textDocument/codeAction","params":{"textDocument":{"uri":42},"range":{}}}
<-- {"id":100,"error":{"code":-32602}}
--> {"jsonrpc":"2.0","id":101,"method":"workspace/executeCommand","params":{"command":"review.nope"}}
<-- {"id":101,"error":{"code":-32602,"message":"re:unknown command"}}
--> {"jsonrpc":"2.0","id":102,"method":"workspace/executeCommand","params":{"command":"review.openRule","arguments":[{"rule":"ZZ99"}]}}
<-- {"id":102,"error":{"code":-32602,"message":"re:unknown rule ZZ99"}}
--> {"jsonrpc":"2.0","id":103,"method":"textDocument/diagnostic","params":{"textDocument":{}}}
<-- {"id":103,"error":{"code":-32602}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/x.cu","text":5}}}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"text":"never opened"}]}}
--> {"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":7}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:review"}}
# A response to a request the server never sent.
--> {"jsonrpc":"2.0","id":12345,"result":{}}
%quiet 300
--> {"jsonrpc":"2.0","id":6,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":6,"result":{"files":"*"}}

# NUL characters and deep nesting.
--> {"jsonrpc":"2.0","id":7,"method":"workspace/executeCommand","params":{"command":"review.rescan","arguments":["a\u0000b"]}}
<-- {"id":7,"result":{"files":"*"}}
--> {"jsonrpc":"2.0","id":104,"method":"x","params":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
<-- {"id":104,"error":{"code":-32601}}
--> {"jsonrpc":"2.0","id":8,"method":"shutdown"}
<-- {"id":8,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
