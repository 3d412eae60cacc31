# Findings first: on the line of a struct-layout finding (D11, with two pinning assertions as
# evidence) hover is D11's text, its two places of evidence and one line naming the families
# the header derives, under 3 KB; the line offers four actions (open D11, go to the evidence,
# ignore D11, open the checklist); "Go to evidence" carries both places.
%sh mkdir -p csrc/include && printf '#pragma once\n#include <cstddef>\n#include <cstdint>\nstruct paged_kargs {\n    const void* q_ptr;\n    void* out_ptr;\n    int32_t num_heads;\n    int32_t head_dim;\n};\nstatic_assert(sizeof(paged_kargs) == 24, "read by the assembly kernel");\nstatic_assert(offsetof(paged_kargs, num_heads) == 16, "pinned by the asm");\n' > csrc/include/kargs.h && git add csrc/include && git commit -q -m kargs
%sh printf '#pragma once\n#include <cstddef>\n#include <cstdint>\nstruct paged_kargs {\n    const void* q_ptr;\n    const void* k_scale_ptr;\n    void* out_ptr;\n    int32_t num_heads;\n    int32_t head_dim;\n};\nstatic_assert(sizeof(paged_kargs) == 24, "read by the assembly kernel");\nstatic_assert(offsetof(paged_kargs, num_heads) == 16, "pinned by the asm");\n' > csrc/include/kargs.h
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{"textDocument":{"publishDiagnostics":{"relatedInformation":true},"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix"]}}},"hover":{"contentFormat":["markdown"]}}},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/include/kargs.h","diagnostics":[
      {"code":"D11","severity":2,"range":{"start":{"line":5}},"relatedInformation":[{"location":{"range":{"start":{"line":10}}}},{"location":{"range":{"start":{"line":11}}}}]},
      {"code":"derived","severity":4,"range":{"start":{"line":5}},"message":"re:^this change derives modified-kernel"}]}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
--> {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${WSURI}/csrc/include/kargs.h"},"position":{"line":5,"character":4}}}
<-- {"id":2,"result":{"contents":{"kind":"markdown","value":"re:^(?=[\\s\\S]{200,3000}$)(?![\\s\\S]*\\*\\*(A1|B2|D1|D8|P6) — )\\*\\*D11 — Struct field added or removed with a pinned ABI\\*\\* 🔴\\n[\\s\\S]*\\n\\n\\*\\*This finding's evidence\\*\\*\\n\\n- \\[csrc/include/kargs\\.h:11\\]\\([^)]*#L11\\) — sizeof\\(paged_kargs\\) is pinned here[^\\n]*\\n- \\[csrc/include/kargs\\.h:12\\]\\([^)]*#L12\\) — offsetof\\(paged_kargs, num_heads\\) is pinned here[^\\n]*\\n\\n---\\n\\n\\*\\*Derived for this file:\\*\\* modified-kernel — \\[open the review checklist\\]\\([^\\n]*\\)$"}}}
--> {"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"${WSURI}/csrc/include/kargs.h"},"range":{"start":{"line":5,"character":4},"end":{"line":5,"character":4}},"context":{"diagnostics":[]}}}
<-- {"id":3,"result":[
      {"title":"Open rule D11 in rules.md"},
      {"title":"re:^Go to evidence \\(2 places\\): sizeof\\(paged_kargs\\) is pinned here","command":{"command":"review.openLocation","arguments":[{"uri":"${WSURI}/csrc/include/kargs.h","range":{"start":{"line":10}},
        "locations":[{"range":{"start":{"line":10}},"message":"re:^sizeof"},{"range":{"start":{"line":11}},"message":"re:^offsetof"}]}]}},
      {"title":"Ignore D11 on this line","edit":{"changes":{"${WSURI}/csrc/include/kargs.h":[{"newText":" // review: ignore[D11]"}]}}},
      {"title":"Open review checklist"}]}
--> {"jsonrpc":"2.0","id":4,"method":"shutdown"}
<-- {"id":4,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
