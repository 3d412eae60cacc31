# A plain client (no showDocument, no code-action literals, no related information, plaintext
# hover): commands carry the location instead of opening it, code actions come back as bare
# Commands, evidence is folded into the message, and the hover's exhibits are aligned plain text.
%sh mkdir -p csrc/py_itfs_cu && printf 'void act(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), "c");\n    launch(x);\n}\n' > csrc/py_itfs_cu/act.cu && git add -A csrc/py_itfs_cu && git commit -q -m act
%sh printf 'void act(torch::Tensor x) {\n    launch(x);\n}\n\nvoid helper(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), "c");\n}\n' > csrc/py_itfs_cu/act.cu
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"hover":{"contentFormat":["plaintext"]}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"codeActionProvider":true}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","diagnostics":[{"code":"D4","message":"re:\\ncsrc/py_itfs_cu/act.cu:6: the guard now$","relatedInformation":"$absent"},{"code":"derived","message":"re:^this change derives modified-kernel, invariant-removed, layout-contiguity"}]}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.openRule","arguments":["A1"]}}
<-- {"id":2,"result":{"rule":"A1","uri":"re:^file://.*rules\\.md$","line":"*","range":{"start":{"character":0}},"shown":false}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":3,"result":[{"title":"Open rule D4 in rules.md","command":"review.openRule","arguments":[{"rule":"D4"}]},{"title":"Go to evidence: the guard now","command":"review.openLocation"},{"title":"Open review checklist","command":"review.showChecklist"}]}
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":1,"character":0}}}
<-- {"id":4,"result":{"contents":{"kind":"plaintext","value":"re:D4 — (.|\\n)*\\\n\\\nThis\\ finding's\\ evidence:\\\n\\ \\ The\\ guard\\ deleted\\ from\\ `act`,\\ and\\ the\\ one\\ now\\ in\\ `helper`:\\\n\\ \\ \\ \\ \\-\\ csrc/py_itfs_cu/act\\.cu:2\\ \\ TORCH_CHECK\\(x\\.is_contiguous\\(\\),\\ \"c\"\\);\\\n\\ \\ \\ \\ \\+\\ csrc/py_itfs_cu/act\\.cu:6\\ \\ TORCH_CHECK\\(x\\.is_contiguous\\(\\),\\ \"c\"\\);\\\n\\\n\\-\\-\\-\\n\\nDerived for this file: modified-kernel, invariant-removed, layout-contiguity \\(their rules: the review checklist, command review.showChecklist\\)$"}}}
--> {"jsonrpc":"2.0","id":5,"method":"shutdown"}
<-- {"id":5,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
