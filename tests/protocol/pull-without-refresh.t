# A client that can pull diagnostics but cannot be asked to pull again (no
# workspace.diagnostics.refreshSupport, as Neovim 0.10) would keep stale diagnostics after a
# change it did not make itself (a setting, the disk, git): it is offered no diagnosticProvider
# and gets pushes for open documents too.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"diagnostic":{"dynamicRegistration":false}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":{"diagnosticProvider":"$absent","hoverProvider":true}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived"}]}}
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// changed\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":1,"diagnostics":[{"code":"derived","range":{"start":{"line":0}}}]}}
--> {"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"review":{"derivedHints":"off"}}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":1,"diagnostics":[]}}
--> {"jsonrpc":"2.0","id":2,"method":"shutdown"}
<-- {"id":2,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
