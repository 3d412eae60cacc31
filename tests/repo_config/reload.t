# The server reads the repository's pyproject.toml [tool.review-lsp] as `check` does, re-reads it
# when it changes on disk and republishes. A malformed file is an error naming its line, and
# the configuration before it stays in force until the file is mended, which is said too.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"D4","severity":1}]}}
# the team makes D4 a warning: the review follows the file
%sh sed -i 's/D4 = "error"/D4 = "warning"/' pyproject.toml
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"D4","severity":2}]}}
# a wrong value: said with its line; D4 stays a warning, 3rdparty/ stays excluded
%sh sed -i 's/derived-hints = "off"/derived-hints = "sometimes"/; s/exclude = \["3rdparty\/"\]/exclude = []/' pyproject.toml
<~~ {"method":"window/showMessage","params":{"type":1,"message":"re:^review-lsp: pyproject\\.toml:7: derived-hints: expected \"file\", \"line\" or \"off\"; the previous configuration stays in force$"}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showConfig"}}
<-- {"id":2,"result":{"text":"re:\\nseverity        D4 = warning +pyproject\\.toml:8\\nexclude         3rdparty/ +pyproject\\.toml:6\\n[\\s\\S]*# not in force: pyproject\\.toml:7: derived-hints"}}
--> {"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<-- {"id":3,"result":{"files":"*","findings":2,"repositories":1}}
# mended: said once, and the file as it now reads applies (3rdparty/ is reviewed again)
%sh sed -i 's/derived-hints = "sometimes"/derived-hints = "off"/' pyproject.toml
<~~ {"method":"window/showMessage","params":{"type":3,"message":"re:reads cleanly again"}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/3rdparty/ck/gemm.cu","diagnostics":[{"code":"D4","severity":2}]}}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
