# "Ignore ID on this line" in a Python file: it extends an existing review: ignore[...] comment
# rather than adding a second one, the engine honours the result, and on a line without a
# comment it appends "  # review: ignore[ID]".
%sh printf 'def f(x):\n    assert x.is_contiguous()\n    return g(x)\n' > aiter/ops/act.py && git add aiter/ops/act.py && git commit -q -m guard
%sh printf 'def f(x):\n    return g(x)  # review: ignore[B7]\n' > aiter/ops/act.py
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix"]}}}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","diagnostics":["$some",{"code":"D4","severity":2,"range":{"start":{"line":1}}}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py"},"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"context":{"diagnostics":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":35}},"code":"D4","source":"review","message":"guard removed"}]}}}
<-- {"id":2,"result":["$some",{"title":"Ignore D4 on this line","edit":{"changes":{"${WSURI}/aiter/ops/act.py":[{"range":{"start":{"line":1,"character":36},"end":{"line":1,"character":36}},"newText":", D4"}]}}}]}
# With the edit applied the finding is suppressed.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","languageId":"python","version":1,"text":"def f(x):\n    return g(x)  # review: ignore[B7, D4]\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":1,"diagnostics":[{"code":"derived","message":"re:derives ops-wrapper, invariant-removed "}]}}
# Without the comment the finding returns, and the action appends a Python comment.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","version":2},"contentChanges":[{"text":"def f(x):\n    return g(x)\n"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":2,"diagnostics":["$some",{"code":"D4"}]}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py"},"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":3,"result":["$some",{"title":"Ignore D4 on this line","edit":{"changes":{"${WSURI}/aiter/ops/act.py":[{"range":{"start":{"line":1,"character":15},"end":{"line":1,"character":15}},"newText":"  # review: ignore[D4]"}]}}}]}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
