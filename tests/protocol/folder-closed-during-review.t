# A workspace folder closed while its repository's review runs on the worker: the folder is
# dropped at once (requests no longer see it) and its repository is freed when that review
# comes back, unpublished; shutdown waits for it. Here the second repository (nested, with a
# change of 1,000 generated kernels) is still in its first review when it is closed.
%sh echo nested/ >> .git/info/exclude && mkdir -p nested/second/csrc/kernels/bulk && cd nested/second && git init -q -b main && git config user.email t@example.com && git config user.name t && echo base > README && git add -A && git commit -q -m base && i=1 && while [ $i -le 1000 ]; do printf '// Generated kernel %d for a long review.\n__global__ void bulk_kernel_%d(const float *in, float *out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = in[i] * %d.0f;\n}\n' $i $i $i > csrc/kernels/bulk/k$i.cu; i=$((i + 1)); done
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"workspaceFolders":[{"uri":"${WSURI}","name":"fixture"},{"uri":"${WSURI}/nested/second","name":"second"}],"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
# The fixture repository is reviewed first and published; the second one's review starts then.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[],"removed":[{"uri":"${WSURI}/nested/second","name":"second"}]}}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":0}}}
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":2,"result":{"contents":{"value":"re:modified-kernel"}}}
<-- {"id":3,"result":"re:^(?![\\s\\S]*second)  files=1 [^\\n]*\\n    \\[modified-kernel +\\]"}
%log workspace folder .*/nested/second closed: no longer reviewing
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
%log shutdown waits for the running review
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
