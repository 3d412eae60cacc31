# Position encoding UTF-8, negotiated: the client offers utf-8 first. Line 3 of
# the kernel holds "日本" (2 units), "😀" (a surrogate pair: 2 units, 4 bytes) and "é" written
# as e + U+0301 (2 units). Every position the server sends or reads is in bytes.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}},"initializationOptions":{"review":{"debounceMs":0}}}}
<-- {"id":1,"result":{"capabilities":{"positionEncoding":"utf-8"}}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
# The hint covers the whole changed line: 48 bytes.
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu","diagnostics":[{"code":"derived","range":{"start":{"line":3,"character":0},"end":{"line":3,"character":48}}}]}}

--> {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","languageId":"cuda","version":1,"text":"// Attention kernel used by the protocol tests.\n__global__ void attn_kernel(float *out, int n) {\n    int i = threadIdx.x;\n    if (i < n) out[i] = 2.0f; // 日本 😀 e\u0301\n}\n"}}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":1,"diagnostics":[{"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":48}}}]}}

# Insert a suppression comment right after the emoji: byte 44.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":2},"contentChanges":[{"range":{"start":{"line":3,"character":44},"end":{"line":3,"character":44}},"text":"review: ignore[A1]"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":2,"diagnostics":[{"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":66}}}]}}
# Hover on "A1" inside the comment: the rule's text, with the id's range (59..61).
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":60}}}
<-- {"id":2,"result":{"contents":{"kind":"markdown","value":"re:^\\*\\*A1 — "},"range":{"start":{"line":3,"character":59},"end":{"line":3,"character":61}}}}

# A position inside the emoji (byte 42) snaps back to its start (byte 40).
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":3},"contentChanges":[{"range":{"start":{"line":3,"character":42},"end":{"line":3,"character":42}},"text":"Q"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":3,"diagnostics":[{"range":{"end":{"line":3,"character":67}}}]}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":61}}}
<-- {"id":3,"result":{"range":{"start":{"line":3,"character":60},"end":{"line":3,"character":62}}}}

# A character past the end of the line clamps to the line's end; a line past the end of the
# text clamps to the end of the text.
--> {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu","version":4},"contentChanges":[{"range":{"start":{"line":3,"character":999},"end":{"line":3,"character":1000}},"text":"Z"},{"range":{"start":{"line":99,"character":5},"end":{"line":120,"character":0}},"text":"// tail\n"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"version":4,"diagnostics":[{"range":{"end":{"line":3,"character":68}}}]}}
# Hover past the end of the line and of the file: nothing, no error.
--> {"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":3,"character":5000}}}
<-- {"id":4,"result":{"contents":{"kind":"markdown"}}}
--> {"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/kernels/attn.cu"},"position":{"line":500,"character":-3}}}
<-- {"id":5,"result":null}
--> {"jsonrpc":"2.0","id":6,"method":"shutdown"}
<-- {"id":6,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
