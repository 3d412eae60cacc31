# A client that stops reading: the server's write queue passes its limit (lowered here to
# 64 KiB), so it stops reading requests instead of growing; when the client reads again every
# response arrives, in order, none lost.
%env REVIEW_LSP_QUEUE_LIMIT=65536
--> {"jsonrpc":"2.0","id":"init","method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":"init","result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}
%pause
# Each answer is a few hundred bytes (the family summary and its link): 300 of them are beyond
# the limit.
%repeat 300 {"jsonrpc":"2.0","id":%i%,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
%sleep 1500
%log output backed up \(\d+ bytes queued\): pausing input
%resume
%expect-repeat 300 {"id":%i%,"result":{"contents":{"kind":"markdown","value":"re:^\\*\\*Derived for this file:\\*\\* modified-kernel — "}}}
%log output drained: resuming input
--> {"jsonrpc":"2.0","id":"bye","method":"shutdown"}
<-- {"id":"bye","result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
