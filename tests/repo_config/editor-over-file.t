# The editor's settings sit over the repository file, key by key: a severity set in the editor
# beats the file's levels (its [[overrides]] too), and review.showConfig names each source.
# Taking the setting away gives the file's level back; derived hints the file switched off
# come back when the editor asks for them (by line: "file" is the default,
# which plugins send for "not set", and leaves the key to the file).
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0,"severity":{"D4":"information"}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/legacy/old_attn.cu","diagnostics":[{"code":"D4","severity":3}]}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showConfig","arguments":[{"uri":"${WSURI}"}]}}
<-- {"id":2,"result":{"text":"re:\\nbase            main +pyproject\\.toml:5\\n[\\s\\S]*\\nseverity        D4 = information +editor setting review\\.severity\\n"}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"severity":{}}}}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/legacy/old_attn.cu","diagnostics":[{"code":"D4","severity":4}]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"line"}}}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":["$some",{"code":"derived"},{"code":"D4","severity":1}]}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<~~ {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
