# An open buffer larger than maxFileBytes is skipped as a file on disk would be: no findings
# for it, one log line says why, and the rest of the change is still reviewed. Shrunk under
# the cap, the same buffer is reviewed.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0,"maxFileBytes":1000}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
%watch window/logMessage
# 1,100 bytes, with a line that would raise HK3.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","languageId":"python","version":1,"text":"import sys\nsys.path.insert(0, \"/opt/x\")\ndef act(x):\n    return x\n# padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding padding \n"}}}
<~~ {"method":"window/logMessage","params":{"type":3,"message":"aiter/ops/act.py: open buffer larger than 1000 bytes, not reviewed"}}
# (the path alone still derives its family hint; nothing is read from the buffer)
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":1,"diagnostics":[{"code":"derived"}]}}
# The rest of the change is still there, and requests are answered.
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<~~ {"id":2,"result":{"files":2}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py"},"position":{"line":1,"character":0}}}
<~~ {"id":3,"result":null}
# Under the cap: reviewed.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/aiter/ops/act.py","version":2},"contentChanges":[{"text":"import sys\nsys.path.insert(0, \"/opt/x\")\ndef act(x):\n    return x\n"}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/act.py","version":2,"diagnostics":["$some",{"code":"HK3"}]}}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<~~ {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
