# The LSP 3.17 lifecycle: nothing before initialize, capabilities and serverInfo, no second
# initialize, MethodNotFound for unknown requests, silence for unknown notifications, shutdown,
# InvalidRequest after shutdown, exit code 0 after shutdown.

# A request before initialize: ServerNotInitialized.
--> {"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
<-- {"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"*"}}
# A notification before initialize is dropped without a reply.
--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"x"}}}
%quiet 200
# shutdown before initialize is also refused.
--> {"jsonrpc":"2.0","id":"s","method":"shutdown"}
<-- {"jsonrpc":"2.0","id":"s","error":{"code":-32002}}

--> {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":null,"rootUri":"${WSURI}","capabilities":{},"clientInfo":{"name":"transcript"}}}
<-- {"jsonrpc":"2.0","id":2,"result":{
      "capabilities":{"positionEncoding":"utf-16",
        "textDocumentSync":{"openClose":true,"change":2,"save":{"includeText":false}},
        "hoverProvider":true,"codeActionProvider":true,
        "executeCommandProvider":{"commands":["review.openRule","review.openLocation","review.rescan","review.showDerivedRules","review.showChecklist","review.listRules","review.showConfig","review.showEvidence"]},
        "diagnosticProvider":{"identifier":"review","interFileDependencies":true,"workspaceDiagnostics":true},
        "workspace":{"workspaceFolders":{"supported":true,"changeNotifications":true}}},
      "serverInfo":{"name":"review-lsp","version":"re:^\\d+\\.\\d+\\.\\d+"}}}

# initialize twice: InvalidRequest.
--> {"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}
<-- {"jsonrpc":"2.0","id":3,"error":{"code":-32600}}

--> {"jsonrpc":"2.0","method":"initialized","params":{}}
# The first scan publishes the changed kernel file (a derived-family hint).
<-- {"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":"$absent","diagnostics":[{"code":"derived","source":"review","severity":4}]}}

# Unknown request: MethodNotFound; unknown notification: nothing; $/ request: MethodNotFound.
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/definition","params":{"textDocument":{"uri":"${WSURI}/a"},"position":{"line":0,"character":0}}}
<-- {"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"re:textDocument/definition"}}
--> {"jsonrpc":"2.0","method":"custom/somethingElse","params":{}}
--> {"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}
%quiet 200
--> {"jsonrpc":"2.0","id":5,"method":"$/unknownRequest","params":{}}
<-- {"jsonrpc":"2.0","id":5,"error":{"code":-32601}}

--> {"jsonrpc":"2.0","id":6,"method":"shutdown"}
<-- {"jsonrpc":"2.0","id":6,"result":null}
# After shutdown every request is InvalidRequest, notifications are dropped.
--> {"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":0,"character":0}}}
<-- {"jsonrpc":"2.0","id":7,"error":{"code":-32600}}
--> {"jsonrpc":"2.0","id":8,"method":"shutdown"}
<-- {"jsonrpc":"2.0","id":8,"error":{"code":-32600}}
--> {"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}}
%quiet 200
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
