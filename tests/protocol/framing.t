# Content-Length framing: any header order, Content-Type ignored, bare LF tolerated, header
# names case-insensitive; bad framing gets a ParseError (id null) and the server reads on.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}

# Content-Type first, then Content-Length.
--> framed "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %LEN%\r\n\r\n" {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":2,"result":{"files":"*","findings":"*"}}
# Bare LF line ends.
--> framed "Content-Length: %LEN%\n\n" {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":3,"result":{"files":"*"}}
# Lower-case header name, extra unknown header, spaces around the value.
--> framed "X-Whatever: 1\r\ncontent-length:   %LEN%  \r\n\r\n" {"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":4,"result":{"files":"*"}}
# Two messages in one write.
--> raw "Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]"
<-- {"id":null,"error":{"code":-32600,"message":"re:neither"}}
<-- {"id":null,"error":{"code":-32600,"message":"re:batch"}}

# Missing Content-Length.
--> framed "Content-Type: application/json\r\n\r\n" {"jsonrpc":"2.0","id":90,"method":"shutdown"}
<-- {"id":null,"error":{"code":-32700,"message":"re:without Content-Length"}}
--> {"jsonrpc":"2.0","id":5,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":5,"result":{"files":"*"}}

# Content-Length that is not a number.
--> raw "Content-Length: a\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":91,\"method\":\"shutdown\"}"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid Content-Length"}}
--> {"jsonrpc":"2.0","id":6,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":6,"result":{"files":"*"}}

# Negative Content-Length.
--> raw "Content-Length: -5\r\n\r\n"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid Content-Length"}}
--> {"jsonrpc":"2.0","id":7,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":7,"result":{"files":"*"}}

# Enormous Content-Length (the fuzzer favourite).
--> raw "Content-Length: 99999999999999999999999\r\n\r\n{}"
<-- {"id":null,"error":{"code":-32700,"message":"re:too large"}}
--> {"jsonrpc":"2.0","id":8,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":8,"result":{"files":"*"}}

# Zero length: an empty body is not JSON.
--> raw "Content-Length: 0\r\n\r\n"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid JSON"}}
--> {"jsonrpc":"2.0","id":9,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":9,"result":{"files":"*"}}

# Two Content-Length headers: reported; the second header line is sound on its own, so the
# framer resumes there (a header may begin on any line) and frames the body it announces.
--> raw "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid Content-Length"}}
<-- {"id":null,"error":{"code":-32600,"message":"re:neither"}}
--> {"jsonrpc":"2.0","id":10,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":10,"result":{"files":"*"}}

# Garbage instead of a header, then a header line without a colon.
--> raw "hello, this is not LSP\r\n\r\n"
<-- {"id":null,"error":{"code":-32700,"message":"re:garbage"}}
--> {"jsonrpc":"2.0","id":11,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":11,"result":{"files":"*"}}
--> raw "Content-Length: 2\r\nnot a header\r\n\r\n{}"
<-- {"id":null,"error":{"code":-32700,"message":"re:malformed"}}
--> {"jsonrpc":"2.0","id":12,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":12,"result":{"files":"*"}}

# Truncated body: the declared length swallows the start of the next message, whose rest is
# garbage; the server reports both and answers the message after.
--> raw "Content-Length: 100\r\n\r\n{\"jsonrpc\":"
--> {"jsonrpc":"2.0","id":92,"method":"workspace/executeCommand","params":{"command":"review.rescan","arguments":["padding padding padding padding padding padding padding padding"]}}
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid JSON"}}
<-- {"id":null,"error":{"code":-32700,"message":"re:garbage"}}
--> {"jsonrpc":"2.0","id":13,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":13,"result":{"files":"*"}}

# A bad block and a request in one write: one ParseError, the request answered.
--> raw "Content-Length: x\r\n\r\n{}Content-Length: 86\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":\"x\"}}"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid Content-Length"}}
<-- {"id":20,"error":{"code":-32602}}
# The same bytes split at byte 10: the same answers.
--> raw "Content-Le"
%sleep 50
--> raw "ngth: x\r\n\r\n{}Content-Length: 86\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":\"x\"}}"
<-- {"id":null,"error":{"code":-32700,"message":"re:invalid Content-Length"}}
<-- {"id":21,"error":{"code":-32602}}
# A garbage run of many header-like blocks is one ParseError, not one per block; the
# request after it (at a line start) is answered.
--> raw "Content-Type: a\r\n\r\nFoo: b\r\n\r\nContent-Type: c\r\n\r\nContent-Length: zz\r\n\r\nBar: d\r\n\r\nContent-Type: e\r\n\r\n\n"
--> {"jsonrpc":"2.0","id":22,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":null,"error":{"code":-32700,"message":"re:without Content-Length"}}
<-- {"id":22,"result":{"files":"*"}}

# A message split into single bytes arrives whole.
--> raw "Content-Len"
%sleep 50
--> raw "gth: 98\r"
%sleep 50
--> raw "\n\r\n{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
%sleep 50
--> raw "\"review.rescan\"}}"
<-- {"id":14,"result":{"files":"*"}}

--> {"jsonrpc":"2.0","id":15,"method":"shutdown"}
<-- {"id":15,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
