# Hover, code actions and commands on a real finding: a guard the change moved (the guards
# collector's D4 hint with evidence where the guard went), plus the derived-family hints.
%sh mkdir -p csrc/py_itfs_cu && printf '#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, "x must not be empty");\n    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");\n    launch(out, x);\n}\n' > csrc/py_itfs_cu/act.cu && git add -A csrc/py_itfs_cu && git commit -q -m act
%sh printf '#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, "x must not be empty");\n    launch(out, x);\n}\n\nvoid helper(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");\n}\n' > csrc/py_itfs_cu/act.cu
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"window":{"showDocument":{"support":true}},"textDocument":{"publishDiagnostics":{"relatedInformation":true},"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix"]}}},"hover":{"contentFormat":["markdown","plaintext"]}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix"]}}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
# The finding comes first on its line, then the hints, in family order.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","diagnostics":[
      {"code":"D4","source":"review","severity":4,"message":"re:^guard moved, not removed: `TORCH_CHECK\\(x.is_contiguous\\(\\)",
       "range":{"start":{"line":4,"character":0},"end":{"line":4,"character":19}},
       "codeDescription":{"href":"re:rules\\.md#L[0-9]+$"},
       "relatedInformation":[{"location":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8,"character":0},"end":{"line":8,"character":59}}},"message":"the guard now"}],
       "data":{"kind":"finding","rule":"D4","collector":"guards"}},
      {"code":"modified-kernel","severity":4,"range":{"start":{"line":4}}},
      {"code":"invariant-removed","severity":4,"message":"re:derives invariant-removed: D4 — .*; B7 — ","range":{"start":{"line":4}}},
      {"code":"layout-contiguity","range":{"start":{"line":8}}}]}}

# Hover on the finding's line: every rule involved, D4 (the finding) first, each once.
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":4,"character":6}}}
<-- {"id":2,"result":{"contents":{"kind":"markdown","value":"re:^\\*\\*D4 — (?!.*\\*\\*D4 — ).*\\*\\*A1 — .*\\*\\*B7 — "}}}
# Hover on a line with nothing: null.
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":0,"character":0}}}
<-- {"id":3,"result":null}

# Code actions for the D4 diagnostic as the client sends it back.
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":2},"end":{"line":4,"character":2}},"context":{"diagnostics":[{"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":19}},"code":"D4","source":"review","message":"guard moved"}]}}}
<-- {"id":4,"result":[
      {"title":"Open rule D4 in rules.md","kind":"quickfix","diagnostics":[{"code":"D4","message":"guard moved"}],
       "command":{"command":"review.openRule","arguments":[{"rule":"D4","uri":"re:^file://.*rules\\.md$","line":"$capture:d4line","range":{"start":{"character":0}}}]}},
      {"title":"Go to evidence: the guard now","kind":"quickfix",
       "command":{"command":"review.openLocation","arguments":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8,"character":0}}}]}},
      {"title":"Ignore D4 on this line","kind":"quickfix","edit":{"changes":{"${WSURI}/csrc/py_itfs_cu/act.cu":[
        {"range":{"start":{"line":4,"character":19},"end":{"line":4,"character":19}},"newText":" // review: ignore[D4]"}]}}}]}
# Without a context diagnostic: actions for everything on the line (D4 and the hints' rules).
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":5,"result":["$some",{"title":"Open rule D4 in rules.md"},{"title":"Open rule P6 in rules.md"},{"title":"Open rule B7 in rules.md"},{"title":"Ignore D4 on this line"}]}

# The derived families of the whole change, in the original rules.txt format.
--> {"jsonrpc":"2.0","id":10,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":10,"result":"re:^  files=2 .*\\n    \\[modified-kernel +\\] A1 B2 D1 D8 P6\\n.*\\[invariant-removed +\\] D4 B7\\n"}

# review.openRule: the client can show documents, so the server asks it to, with the rule's
# line selected, and returns the location too.
--> {"jsonrpc":"2.0","id":6,"method":"workspace/executeCommand","params":{"command":"review.openRule","arguments":[{"rule":"D4"}]}}
<-- {"id":"$capture:sd","method":"window/showDocument","params":{"uri":"re:rules\\.md$","takeFocus":true,"selection":{"start":{"line":"*","character":0},"end":{"character":0}}}}
<-- {"id":6,"result":{"rule":"D4","uri":"re:rules\\.md$","line":@{d4line},"shown":true}}
--> {"jsonrpc":"2.0","id":@{sd},"result":{"success":true}}
--> {"jsonrpc":"2.0","id":7,"method":"workspace/executeCommand","params":{"command":"review.openLocation","arguments":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8,"character":0},"end":{"line":8,"character":4}}}]}}
<-- {"id":"$capture:sd2","method":"window/showDocument","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","selection":{"start":{"line":8}}}}
<-- {"id":7,"result":{"shown":true}}
--> {"jsonrpc":"2.0","id":@{sd2},"result":{"success":false}}

# Apply the ignore edit in the buffer: D4 goes away (git now pairs the lines differently, so
# the guard counts as kept), and hover on the id inside the comment shows the rule.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","languageId":"cuda","version":1,"text":"#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, \"x must not be empty\");\n    launch(out, x); // review: ignore[D4]\n}\n\nvoid helper(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), \"x must be contiguous\");\n}\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","version":1,"diagnostics":[{"code":"modified-kernel","range":{"start":{"line":4}}}]}}
--> {"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":4,"character":39}}}
<-- {"id":8,"result":{"contents":{"value":"re:^\\*\\*D4 — "},"range":{"start":{"line":4,"character":38},"end":{"line":4,"character":40}}}}
# Hints offer their rules; they have no ignore action (a family is not one rule).
--> {"jsonrpc":"2.0","id":9,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":9,"result":[{"title":"Open rule A1 in rules.md"},{"title":"Open rule B2 in rules.md"},{"title":"Open rule D1 in rules.md"},{"title":"Open rule D8 in rules.md"},{"title":"Open rule P6 in rules.md"}]}

--> {"jsonrpc":"2.0","id":11,"method":"shutdown"}
<-- {"id":11,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
