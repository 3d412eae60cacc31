# Multi-root workspaces: each workspace folder's repository is reviewed on its own (its own
# base, change, families and rules), here the fixture repository and a second repository
# nested inside it (excluded from the outer one), plus a folder outside any repository, which
# is refused with a message while the others work. Folders come and go with
# workspace/didChangeWorkspaceFolders.
%sh echo nested/ >> .git/info/exclude && mkdir -p nested/second/aiter/ops/triton ../outside && cd nested/second && git init -q -b main && git config user.email t@example.com && git config user.name t && printf 'import triton\n\n\ndef scale(x):\n    return x\n' > aiter/ops/triton/scale.py && git add -A && git commit -q -m base && printf 'import triton\n\n\ndef scale(x):\n    assert x.is_contiguous()\n    return x * 2\n' > aiter/ops/triton/scale.py
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"window":{"showDocument":{"support":true}}},"workspaceFolders":[{"uri":"${WSURI}","name":"fixture"},{"uri":"${WSURI}/nested/second","name":"second"},{"uri":"${WSURI}/../outside","name":"outside"}],"initializationOptions":{"debounceMs":0}}}
<-- {"method":"window/showMessage","params":{"type":2,"message":"re:^review-lsp: .*/outside: .*no findings will be shown"}}
<-- {"id":1,"result":{"capabilities":{"workspace":{"workspaceFolders":{"supported":true,"changeNotifications":true}}}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
# Both repositories published, each file under its own work tree.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","message":"re:derives modified-kernel "}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","diagnostics":[{"code":"derived","range":{"start":{"line":4}},"message":"re:derives "}]}}
%log review 2: .* /\S*/nested/second/, base main
# The derived families of each repository, each under its work tree.
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":2,"result":"re:^# /\\S*/ws/\\n  files=1 [^\\n]*\\n    \\[modified-kernel +\\] A1 B2 D1 D8 P6\\n\\n# /\\S*/ws/nested/second/\\n  files=1 "}
# The checklist of one repository, named by a file in it.
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.showChecklist","arguments":[{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py"}]}}
<-- {"id":3,"result":{"markdown":"re:^(?![\\s\\S]*attn\\.cu)[\\s\\S]*Triggered at aiter/ops/triton/scale\\.py:5"}}
# Without an argument: both, each under a heading naming its work tree.
--> {"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"review.showChecklist"}}
<-- {"id":4,"result":{"markdown":"re:\\n## Repository /\\S*/ws/\\n[\\s\\S]*\\n### modified-kernel\\n\\nTriggered at csrc/kernels/attn\\.cu:4\\n[\\s\\S]*\\n## Repository /\\S*/ws/nested/second/\\n[\\s\\S]*Triggered at aiter/ops/triton/scale\\.py:5"}}
--> {"jsonrpc":"2.0","id":5,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":5,"result":{"files":2,"repositories":2}}
# An edit in the second repository re-reviews it, with the document's version.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","languageId":"python","version":3,"text":"import triton\n\n\ndef scale(x):\n    return x\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","version":3,"diagnostics":[]}}
--> {"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py"},"position":{"line":4,"character":0}}}
<-- {"id":6,"result":null}
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","version":4},"contentChanges":[{"text":"import triton\n\n\ndef scale(x):\n    return x + 1\n"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","version":4,"diagnostics":[{"code":"derived","range":{"start":{"line":4}}}]}}
--> {"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py"},"position":{"line":4,"character":0}}}
<-- {"id":7,"result":{"contents":{"value":"re:^\\*\\*Derived for this file:\\*\\* "}}}
# The second folder closes: its files are cleared; the first repository is untouched.
--> {"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[],"removed":[{"uri":"${WSURI}/nested/second","name":"second"}]}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","diagnostics":[]}}
--> {"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py"},"position":{"line":4,"character":0}}}
<-- {"id":8,"result":null}
--> {"jsonrpc":"2.0","id":9,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":9,"result":{"files":1,"repositories":1}}
# It comes back: reviewed again from the disk.
--> {"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"${WSURI}/nested/second","name":"second"}],"removed":[]}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/nested/second/aiter/ops/triton/scale.py","version":"$absent","diagnostics":[{"code":"derived","range":{"start":{"line":4}}}]}}
--> {"jsonrpc":"2.0","id":10,"method":"shutdown"}
<-- {"id":10,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
