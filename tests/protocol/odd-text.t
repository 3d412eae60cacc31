# Text the server must survive and position correctly: CRLF line ends (the "\r" is not part of
# the line), invalid UTF-8 on disk (one unit per bad byte), an enormous line, a binary file.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}

# A new kernel with an invalid byte: "ab\xffcd" is 5 UTF-16 units.
%sh printf 'ab\377cd\n' > csrc/kernels/bad.cu
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/bad.cu","diagnostics":["$some",{"code":"derived","message":"re:derives new-kernel","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":5}}}]}}
<~~ {"id":2,"result":"*"}

# The kernel opened with CRLF line ends: every line differs from the base, the hint sits on
# line 0 and ends before the "\r" (47 units).
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\r\n__global__ void attn_kernel(float *out, int n) {\r\n    int i = threadIdx.x;\r\n    if (i < n) out[i] = 1.0f;\r\n}\r\n"}}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":1,"diagnostics":[{"code":"derived","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":47}}}]}}
# An edit at the end of a CRLF line (character 999 clamps before the "\r").
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":999},"end":{"line":0,"character":999}},"text":"!"}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"version":2,"diagnostics":[{"range":{"end":{"line":0,"character":48}}}]}}

# One 200,000-character line and a binary file with NUL bytes.
%sh awk 'BEGIN { s = "x"; for (i = 0; i < 200000; i++) printf "y"; printf "\n" }' > csrc/kernels/long.cu && printf '\000\001\002binary\000' > csrc/kernels/blob.cu
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<~~ {"id":3,"result":{"files":"*"}}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/long.cu"},"position":{"line":0,"character":150000}}}
<~~ {"id":4,"result":"*"}
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/blob.cu"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}
<~~ {"id":5,"result":"*"}
# A document whose text holds NUL characters.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/blob.cu","languageId":"cuda","version":1,"text":"a\u0000b\n"}}}
--> {"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/blob.cu"},"position":{"line":0,"character":2}}}
<~~ {"id":6,"result":"*"}
--> {"jsonrpc":"2.0","id":7,"method":"shutdown"}
<~~ {"id":7,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
