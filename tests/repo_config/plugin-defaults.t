# The editor plugins send every setting, at its default when the user set nothing. Those
# defaults leave the keys to the repository file: its derived-hints = "off" holds (no family
# hint on the kernel), and review.showConfig names the file, not the editor, for it.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"review":{"base":"","title":"","rulesPath":"","severity":{},"disabledRules":[],"derivedHints":"file","debounceMs":0,"maxFileBytes":2097152,"logLevel":"info"}}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"D4","severity":1}]}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showConfig"}}
<~~ {"id":2,"result":{"text":"re:\\nbase            main +pyproject\\.toml:5\\n[\\s\\S]*\\nmax-file-bytes  2097152 +default\\nderived-hints   off +pyproject\\.toml:7\\n"}}
# a value the user did choose wins over the file
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"line","maxFileBytes":4096}}}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":["$some",{"code":"derived"},{"code":"D4","severity":1}]}}
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.showConfig"}}
<~~ {"id":3,"result":{"text":"re:\\nmax-file-bytes  4096 +editor setting review\\.maxFileBytes\\nderived-hints   line +editor setting review\\.derivedHints\\n"}}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<~~ {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
