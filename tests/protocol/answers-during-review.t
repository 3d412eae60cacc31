# Reviews run off the loop: while a long review runs (here a change of 1,000 generated kernel
# files), the server keeps reading, and requests about documents that did not change since the
# last complete review are answered from it at once, before the new review is published. A
# request about the document being re-reviewed waits for the fresh review. Edits that arrive
# while a review runs are applied when it is back and reviewed next (the review they
# supersede is not published). shutdown waits for the running review.
%sh mkdir -p csrc/kernels/bulk && i=1 && while [ $i -le 1000 ]; do printf '// Generated kernel %d for a long review.\n__global__ void bulk_kernel_%d(const float *in, float *out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {\n        out[i] = in[i] * %d.0f;\n    }\n}\n' $i $i $i > csrc/kernels/bulk/k$i.cu; i=$((i + 1)); done
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
# The first scan publishes 1,001 files; a hover sent meanwhile waits for it (no review is
# complete yet), so its answer marks the end of the scan.
%ignore textDocument/publishDiagnostics
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"id":2,"result":{"contents":{"value":"re:modified-kernel"}}}
%log published .*: 1001 files in the change
%watch textDocument/publishDiagnostics

# Open act.py: a second long review starts. Change it while that review runs: the change is
# held and reviewed next, and the review of version 1 is not published. Requests about
# attn.cu, untouched since the first review, are answered from it before the new review is
# published; the hover on act.py waits for the review that includes its change.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","languageId":"python","version":1,"text":"def act(x):\n    return x\n"}}}
%sleep 50
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","version":2},"contentChanges":[{"text":"def act(x):\n    y = x\n    return y\n"}]}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py"},"position":{"line":1,"character":0}}}
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":3,"result":{"contents":{"value":"re:^\\*\\*Derived for this file:\\*\\* modified-kernel"}}}
<-- {"id":5,"result":[{"title":"Open review checklist"}]}
# The first publish of act.py is of version 2: version 1 alone was never published.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":2,"diagnostics":[{"code":"derived","range":{"start":{"line":1}}}]}}
<-- {"id":4,"result":{"contents":{"value":"re:ops-wrapper"}}}
%log review of .* superseded by later edits

# shutdown while a review runs: it waits for that review, publishes it, then answers; what the
# client sent after it is handled after that answer, as sent (a request is refused: shut down).
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","version":3},"contentChanges":[{"text":"def act(x):\n    return x\n"}]}}
%sleep 50
--> {"jsonrpc":"2.0","id":6,"method":"shutdown"}
--> {"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":3,"diagnostics":[]}}
<-- {"id":6,"result":null}
<-- {"id":7,"error":{"code":-32600,"message":"re:shut down"}}
%log shutdown waits for the running review
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
