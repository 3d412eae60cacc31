# Pull diagnostics: a client with textDocument.diagnostic pulls open documents; files that are
# not open are still pushed, and a pushed copy is cleared when the file opens, so nothing is
# shown twice. After each review the server asks the client to re-pull.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"diagnostic":{"dynamicRegistration":false}},"workspace":{"diagnostics":{"refreshSupport":true}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"diagnosticProvider":{"identifier":"review"}}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
<-- {"id":"$capture:r1","method":"workspace/diagnostic/refresh"}
--> {"jsonrpc":"2.0","id":@{r1},"result":null}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 3.0f;\n}\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
<-- {"id":"$capture:r2","method":"workspace/diagnostic/refresh"}
--> {"jsonrpc":"2.0","id":@{r2},"result":null}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<-- {"id":2,"result":{"kind":"full","resultId":"$capture:rid","items":[{"code":"derived","range":{"start":{"line":3},"end":{"line":3,"character":29}}}]}}
# Pulling again with that result id: unchanged.
--> {"jsonrpc":"2.0","id":20,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"previousResultId":@{rid}}}
<-- {"id":20,"result":{"kind":"unchanged","resultId":@{rid},"items":"$absent"}}
--> {"jsonrpc":"2.0","id":21,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"previousResultId":"stale"}}
<-- {"id":21,"result":{"kind":"full","resultId":@{rid}}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py"}}}
<-- {"id":3,"result":{"kind":"full","items":[]}}
--> {"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":"$absent","diagnostics":[{"code":"derived","range":{"end":{"character":41}}}]}}
<-- {"id":"$capture:r3","method":"workspace/diagnostic/refresh"}
--> {"jsonrpc":"2.0","id":@{r3},"result":null}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
