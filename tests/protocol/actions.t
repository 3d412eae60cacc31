# Hover, code actions and commands on a real finding: a guard the change moved (the guards
# collector's D4 hint with evidence where the guard went; the hover shows the move as a diff
# titled with both functions, linked to both places), plus the derived-family hints.
%sh mkdir -p csrc/py_itfs_cu && printf '#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, "x must not be empty");\n    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");\n    launch(out, x);\n}\n' > csrc/py_itfs_cu/act.cu && git add -A csrc/py_itfs_cu && git commit -q -m act
%sh printf '#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, "x must not be empty");\n    launch(out, x);\n}\n\nvoid helper(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");\n}\n' > csrc/py_itfs_cu/act.cu
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"window":{"showDocument":{"support":true}},"textDocument":{"publishDiagnostics":{"relatedInformation":true},"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix"]}}},"hover":{"contentFormat":["markdown","plaintext"]}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix"]}}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
# The finding comes first on its line, then ONE hint naming the families the file derives.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","diagnostics":[
      {"code":"D4","source":"review","severity":4,"message":"re:^guard moved, not removed: `TORCH_CHECK\\(x.is_contiguous\\(\\)",
       "range":{"start":{"line":4,"character":0},"end":{"line":4,"character":19}},
       "codeDescription":{"href":"re:rules\\.md#L[0-9]+$"},
       "relatedInformation":[{"location":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8,"character":0},"end":{"line":8,"character":59}}},"message":"the guard now"}],
       "data":{"kind":"finding","rule":"D4","collector":"guards"}},
      {"code":"derived","severity":4,"range":{"start":{"line":4}},
       "message":"this change derives modified-kernel, invariant-removed, layout-contiguity — their rules are in the review checklist",
       "data":{"kind":"derived","families":["modified-kernel","invariant-removed","layout-contiguity"]}}]}}

# Hover on the finding's line: D4's text and its evidence, then one line naming the families
# with a link to the checklist; no family's rule text (no A1, no B7), and short.
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":4,"character":6}}}
<-- {"id":2,"result":{"contents":{"kind":"markdown","value":"re:^(?![\\s\\S]*\\*\\*(A1|B7) — )(?=[\\s\\S]{0,3000}$)\\*\\*D4 — [\\s\\S]*\\\n\\\n\\*\\*This\\ finding's\\ evidence\\*\\*\\\n\\\n\\*\\*The\\ guard\\ deleted\\ from\\ `act`,\\ and\\ the\\ one\\ now\\ in\\ `helper`\\*\\*\\\n\\\n```diff\\\n\\-\\ TORCH_CHECK\\(x\\.is_contiguous\\(\\),\\ \"x\\ must\\ be\\ contiguous\"\\);\\\n\\+\\ TORCH_CHECK\\(x\\.is_contiguous\\(\\),\\ \"x\\ must\\ be\\ contiguous\"\\);\\\n```\\\n\\\ndeleted:\\ \\[csrc/py\\\\_itfs\\\\_cu/act\\.cu:5\\]\\(file://[^)]*/act\\.cu#L5\\)\\ ·\\ added:\\ \\[csrc/py\\\\_itfs\\\\_cu/act\\.cu:9\\]\\(file://[^)]*/act\\.cu#L9\\)\\\n\\\n\\-\\-\\-\\n\\n\\*\\*Derived for this file:\\*\\* modified-kernel, invariant-removed, layout-contiguity — \\[open the review checklist\\]\\(command:review\\.showChecklist\\?%5B%7B%22uri%22%3A%22file%3A%2F%2F[^ ]*act\\.cu%22%7D%5D \"[^\"]*\"\\)$"}}}
# Hover on a line with nothing: null.
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":0,"character":0}}}
<-- {"id":3,"result":null}

# Code actions for the D4 diagnostic as the client sends it back: open the rule, its evidence
# (one action carrying every place), ignore it here.
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":2},"end":{"line":4,"character":2}},"context":{"diagnostics":[{"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":19}},"code":"D4","source":"review","message":"guard moved"}]}}}
<-- {"id":4,"result":[
      {"title":"Open rule D4 in rules.md","kind":"quickfix","diagnostics":[{"code":"D4","message":"guard moved"}],
       "command":{"command":"review.openRule","arguments":[{"rule":"D4","uri":"re:^file://.*rules\\.md$","line":"$capture:d4line","range":{"start":{"character":0}},"file":"${WSURI}/csrc/py_itfs_cu/act.cu"}]}},
      {"title":"Go to evidence: the guard now","kind":"quickfix",
       "command":{"command":"review.openLocation","arguments":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8,"character":0}},
         "locations":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","range":{"start":{"line":8}},"message":"the guard now"}]}]}},
      {"title":"Ignore D4 on this line","kind":"quickfix","edit":{"changes":{"${WSURI}/csrc/py_itfs_cu/act.cu":[
        {"range":{"start":{"line":4,"character":19},"end":{"line":4,"character":19}},"newText":" // review: ignore[D4]"}]}}}]}
# Without a context diagnostic: the finding's three, then the hint's one, "Open review checklist".
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":5,"result":[{"title":"Open rule D4 in rules.md"},{"title":"Go to evidence: the guard now"},{"title":"Ignore D4 on this line"},
      {"title":"Open review checklist","kind":"quickfix","command":{"command":"review.showChecklist","arguments":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"}]},"diagnostics":[{"code":"derived"}]}]}

# The derived families of the whole change, in the original rules.txt format.
--> {"jsonrpc":"2.0","id":10,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":10,"result":"re:^  files=2 .*\\n    \\[modified-kernel +\\] A1 B2 D1 D8 P6\\n.*\\[invariant-removed +\\] D4 B7\\n"}

# The review checklist: every derived rule as a box with its text, grouped by family in the
# derivation's order, each family with the lines that triggered it.
--> {"jsonrpc":"2.0","id":12,"method":"workspace/executeCommand","params":{"command":"review.showChecklist","arguments":[{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"}]}}
<-- {"id":12,"result":{"title":"Review checklist","markdown":"re:^# Review checklist\\n[\\s\\S]*\\nBase: main \\(merge base [0-9a-f]+\\) · 2 changed files · [\\s\\S]*\\n## modified-kernel\\n\\nTriggered at csrc/kernels/attn\\.cu:4, csrc/py_itfs_cu/act\\.cu:5\\n\\n- \\[ \\] \\*\\*A1 — [^\\n]*\\n\\n  \\*\\*Catches:\\*\\*[\\s\\S]*- \\[ \\] \\*\\*B2 — [\\s\\S]*- \\[ \\] \\*\\*D1 — [\\s\\S]*- \\[ \\] \\*\\*D8 — [\\s\\S]*- \\[ \\] \\*\\*P6 — [\\s\\S]*\\n## invariant-removed\\n\\nTriggered at csrc/py_itfs_cu/act\\.cu:5\\n\\n- \\[ \\] \\*\\*D4 — [\\s\\S]*- \\[ \\] \\*\\*B7 — [\\s\\S]*\\n## layout-contiguity\\n\\nTriggered at csrc/py_itfs_cu/act\\.cu:9\\n\\n- \\[ \\] "}}

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

# derivedHints "line": one hint per triggering line, naming the families that start there.
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"line"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","diagnostics":[
      {"code":"D4"},
      {"code":"derived","range":{"start":{"line":4}},"data":{"families":["modified-kernel","invariant-removed"]}},
      {"code":"derived","range":{"start":{"line":8}},"data":{"families":["layout-contiguity"]}}]}}
--> {"jsonrpc":"2.0","id":13,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":13,"result":[{"title":"Open rule D4 in rules.md"},{"title":"Go to evidence: the guard now"},{"title":"Ignore D4 on this line"},{"title":"Open review checklist"}]}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"file"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","diagnostics":[{"code":"D4"},{"code":"derived","range":{"start":{"line":4}}}]}}


# Apply the ignore edit in the buffer: D4 goes away (git now pairs the lines differently, so
# the guard counts as kept), and hover on the id inside the comment shows the rule.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","languageId":"cuda","version":1,"text":"#include <torch/extension.h>\n\nvoid act(torch::Tensor out, torch::Tensor x) {\n    TORCH_CHECK(x.size(0) > 0, \"x must not be empty\");\n    launch(out, x); // review: ignore[D4]\n}\n\nvoid helper(torch::Tensor x) {\n    TORCH_CHECK(x.is_contiguous(), \"x must be contiguous\");\n}\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu","version":1,"diagnostics":[{"code":"derived","range":{"start":{"line":4}}}]}}
--> {"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"position":{"line":4,"character":39}}}
<-- {"id":8,"result":{"contents":{"value":"re:^\\*\\*D4 — "},"range":{"start":{"line":4,"character":38},"end":{"line":4,"character":40}}}}
# A hint alone offers the checklist, once; no rule of a family, no ignore (a family is not one rule).
--> {"jsonrpc":"2.0","id":9,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/py_itfs_cu/act.cu"},"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":0}},"context":{"diagnostics":[]}}}
<-- {"id":9,"result":[{"title":"Open review checklist"}]}

--> {"jsonrpc":"2.0","id":11,"method":"shutdown"}
<-- {"id":11,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
