# Requests that wait for a review wait a bounded time, and only so many wait: a client that
# never sends `initialized` still gets its answers (without findings: no review has run), is
# told once with window/showMessage, and a flood of such requests does not pile up: past 256
# waiting, the oldest is answered at once. (The wait limit is 10 s; the test shortens it.)
%env REVIEW_LSP_WAIT_LIMIT_MS=400
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":1,"result":{"capabilities":"*"}}
%repeat 300 {"jsonrpc":"2.0","id":"h%i%","method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
%expect-repeat 44 {"id":"h%i%","result":null}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:has not sent `initialized`"}}
<-- {"id":"h45","result":null}
<~~ {"id":"h300","result":null}
# Once the client does finish initialising, everything works as usual.
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"id":2,"result":{"contents":"*"}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<-- {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
