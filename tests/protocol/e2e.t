# End to end on a real git repository: open a changed file, edit it, save it, close it, revert
# it, create a new kernel, delete a kernel on disk. The published diagnostics are right at each
# step, open documents carry their version, and nothing goes stale. After a change on disk the
# server's own watcher may publish intermediate states (a file half written by git), so those
# steps wait for the settled state (<~~).
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"publishDiagnostics":{"relatedInformation":true,"codeDescriptionSupport":true}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
# The working tree's change: the kernel file, with its derived-family hint on the changed line.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":"$absent","diagnostics":[
      {"code":"derived","source":"review","severity":4,
       "message":"this change derives modified-kernel — their rules are in the review checklist",
       "range":{"start":{"line":3,"character":0},"end":{"line":3,"character":41}},
       "codeDescription":"$absent",
       "data":{"kind":"derived","families":["modified-kernel"]}}]}}

# Open it: same diagnostics, now with the document's version.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 2.0f; // 日本 😀 e\u0301\n}\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":1,"diagnostics":[{"code":"derived","range":{"start":{"line":3}}}]}}

# Edit the first line too (unsaved): the hint moves to the first changed line, from the buffer.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":3},"end":{"line":0,"character":12}},"text":"Flash-attention"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":2,"diagnostics":[{"code":"derived","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":53}}}]}}

# Undo the edit in the buffer (a whole-text change back to the base text): the file no longer
# differs, so its diagnostics are cleared, although the disk still holds the change.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":3},"contentChanges":[{"text":"// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 1.0f;\n}\n"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":3,"diagnostics":[]}}

# Save it (the disk now equals the base too): nothing new to say.
%sh git checkout -- csrc/kernels/attn.cu
--> {"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
%quiet 300
# Close it while identical to the base: an empty publish without a version.
--> {"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":"$absent","diagnostics":[]}}

# A new kernel file appears on disk (never opened): pushed as soon as the client reports it
# (collectors may add findings of their own beside the hint).
%sh printf '__global__ void fresh(float *o) { o[0] = 0.0f; }\n' > csrc/kernels/fresh.cu
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/csrc/kernels/fresh.cu","type":1}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/fresh.cu","version":"$absent","diagnostics":["$some",{"code":"derived","message":"re:derives new-kernel","range":{"start":{"line":0}}}]}}

# Change the kernel on disk again, outside the editor.
%sh printf '// edited outside\n' >> csrc/kernels/attn.cu
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/csrc/kernels/attn.cu","type":2}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","range":{"start":{"line":5}}}]}}

# Delete the new file: it no longer differs from the base, so it is cleared.
%sh rm csrc/kernels/fresh.cu
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/csrc/kernels/fresh.cu","type":3}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/fresh.cu","diagnostics":[]}}

# Delete the committed kernel on disk: the deletion is part of the change; its hint sits at
# the top of the (gone) file, where the Problems panel can still list it.
%sh rm csrc/kernels/attn.cu
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/csrc/kernels/attn.cu","type":3}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","range":{"start":{"line":0,"character":0}}}]}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":2,"result":"re:files=1"}

# Restore it: identical to the base again, cleared.
%sh git checkout -- csrc/kernels/attn.cu
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[]}}
<-- {"id":3,"result":{"files":0,"findings":0}}

# Open an unchanged file: one empty publish with its version ("looked at, nothing found").
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","languageId":"python","version":7,"text":"def act(x):\n    return x\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":7,"diagnostics":[]}}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
