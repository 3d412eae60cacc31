# Evidence you can see, in the batch faces: each collector's exhibits on a repository built
# here, rendered by `check --format text` (aligned plain text under the finding), `--format json`
# (the structure itself) and `--format sarif` (the exhibits' places as relatedLocations, their
# Markdown in message.markdown linking to those locations by id; the log valid against the
# SARIF 2.1.0 schema). Exact renderings.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

# block_of RULE: the first RULE finding of a text report (stdin) with its indented lines.
block_of() {
  awk -v rule="[$1]" '
    index($0, rule) && $0 !~ /^[ #]/ && !done { keep = 1; print; next }
    /^    / && keep { print; next }
    keep { keep = 0; done = 1 }'
}
# evidence_json RULE: the evidence of the first RULE finding of a JSON report (stdin), compact.
evidence_json() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d["findings"] if f["rule"] == sys.argv[1]][0]
for e in f["evidence"]:
    print(json.dumps(e, separators=(",", ":"), ensure_ascii=False))' "$1"
}
# sarif_of RULE: the first RULE result of a SARIF log (stdin): its related locations (id,
# line, message) one a line, then its message.markdown.
sarif_of() {
  python3 -c '
import json, sys
r = [r for r in json.load(sys.stdin)["runs"][0]["results"] if r["ruleId"] == sys.argv[1]][0]
for l in r.get("relatedLocations", []):
    p = l["physicalLocation"]
    print(l["id"], p["artifactLocation"]["uri"] + ":" + str(p["region"]["startLine"]), l["message"]["text"])
print(r["message"].get("markdown", "(no markdown)"))' "$1"
}
SARIF_TOOLS="$ROOT/tests/tools/sarif"
# sarif_valid NAME DIR: the SARIF log of DIR validates against the schema.
sarif_valid() {
  if npm_tool "$SARIF_TOOLS"; then
    out=$(cd "$2" && "$BIN" check --format sarif | node "$SARIF_TOOLS/validate.js" 2>&1)
    expect_eq "$1" "$out" "valid"
  else
    fail "$1" "could not install the SARIF schema validator from npm"
  fi
}

# --- struct ABI (D11): the struct's fields in the base and the head, the pins ---------------
new_repo d11
mkdir -p d11/csrc/include d11/csrc/py_itfs_cu
cat > d11/csrc/include/attn_kargs.h <<'H'
#pragma once
#include <cstdint>
struct attn_fwd_kargs {
    const void* q;
    const void* k;
    void* o;
    float scale;
    int32_t seqlen;
    int64_t stride_q;
};
H
cat > d11/csrc/py_itfs_cu/attn_abi.cpp <<'H'
#include <cstddef>
#include "attn_kargs.h"
static_assert(offsetof(attn_fwd_kargs, seqlen) == 28, "asm reads seqlen at 28");
static_assert(sizeof(attn_fwd_kargs) == 40, "asm argument block");
H
commit_all d11 base
sed -i 's/^    float scale;$/    float scale;\n    float softcap;/' d11/csrc/include/attn_kargs.h

got=$(cd d11 && "$BIN" check | block_of D11)
expect_eq d11.text "$got" "$(cat <<'T'
csrc/include/attn_kargs.h:8:1: warning [D11] `attn_fwd_kargs` gains `float softcap` before `seqlen`: pinned layout shifts — `seqlen` +4 (28 → 32), sizeof(attn_fwd_kargs) 40 → 48; 2 layout assertions pin them, and this change updates none of them
    csrc/py_itfs_cu/attn_abi.cpp:3: offsetof(attn_fwd_kargs, seqlen) is pinned here (asserts 28; the head layout gives 32): static_assert(offsetof(attn_fwd_kargs, seqlen) == 28, "asm reads seqlen at 28")
    csrc/py_itfs_cu/attn_abi.cpp:4: sizeof(attn_fwd_kargs) is pinned here (asserts 40; the head layout gives 48): static_assert(sizeof(attn_fwd_kargs) == 40, "asm argument block")
    `attn_fwd_kargs` in the base and the head:
        field     type         base offset  head offset  size
        q         const void*  0            0            8
        k         const void*  8            8            8
        o         void*        16           16           8
        scale     float        24           24           4
      * softcap   float                     28           4        added
      * seqlen    int32_t      28           32           4        shifted +4
      * stride_q  int64_t      32           40           8        shifted +8
      * (sizeof)                                         40 → 48  size +8
    Layout assertions this change leaves as they were:
        pin                               asserts  head layout gives  at
      * offsetof(attn_fwd_kargs, seqlen)  28       32                 csrc/py_itfs_cu/attn_abi.cpp:3  no longer holds
      * sizeof(attn_fwd_kargs)            40       48                 csrc/py_itfs_cu/attn_abi.cpp:4  no longer holds
T
)"

got=$(cd d11 && "$BIN" check --format json | evidence_json D11)
expect_eq d11.json "$got" "$(cat <<'T'
{"kind":"table","title":"`attn_fwd_kargs` in the base and the head","columns":["field","type","base offset","head offset","size"],"rows":[{"cells":["q","const void*","0","0","8"]},{"cells":["k","const void*","8","8","8"]},{"cells":["o","void*","16","16","8"]},{"cells":["scale","float","24","24","4"]},{"cells":["softcap","float","","28","4"],"mark":"added"},{"cells":["seqlen","int32_t","28","32","4"],"mark":"shifted +4"},{"cells":["stride_q","int64_t","32","40","8"],"mark":"shifted +8"},{"cells":["(sizeof)","","","","40 → 48"],"mark":"size +8"}]}
{"kind":"table","title":"Layout assertions this change leaves as they were","columns":["pin","asserts","head layout gives"],"rows":[{"cells":["offsetof(attn_fwd_kargs, seqlen)","28","32"],"mark":"no longer holds","path":"csrc/py_itfs_cu/attn_abi.cpp","line":3},{"cells":["sizeof(attn_fwd_kargs)","40","48"],"mark":"no longer holds","path":"csrc/py_itfs_cu/attn_abi.cpp","line":4}]}
T
)"

got=$(cd d11 && "$BIN" check --format sarif | sarif_of D11)
expect_eq d11.sarif "$got" "$(cat <<'T'
0 csrc/py_itfs_cu/attn_abi.cpp:3 offsetof(attn_fwd_kargs, seqlen) is pinned here (asserts 28; the head layout gives 32): static_assert(offsetof(attn_fwd_kargs, seqlen) == 28, "asm reads seqlen at 28")
1 csrc/py_itfs_cu/attn_abi.cpp:4 sizeof(attn_fwd_kargs) is pinned here (asserts 40; the head layout gives 48): static_assert(sizeof(attn_fwd_kargs) == 40, "asm argument block")
`attn_fwd_kargs` gains `float softcap` before `seqlen`: pinned layout shifts — `seqlen` +4 (28 → 32), sizeof(attn_fwd_kargs) 40 → 48; 2 layout assertions pin them, and this change updates none of them

**`attn_fwd_kargs` in the base and the head**

| field | type | base offset | head offset | size |   |
|---|---|---|---|---|---|
| q | const void\* | 0 | 0 | 8 |  |
| k | const void\* | 8 | 8 | 8 |  |
| o | void\* | 16 | 16 | 8 |  |
| scale | float | 24 | 24 | 4 |  |
| softcap | float |  | 28 | 4 | **added** |
| seqlen | int32\_t | 28 | 32 | 4 | **shifted +4** |
| stride\_q | int64\_t | 32 | 40 | 8 | **shifted +8** |
| (sizeof) |  |  |  | 40 → 48 | **size +8** |

**Layout assertions this change leaves as they were**

| pin | asserts | head layout gives |   | at |
|---|---|---|---|---|
| offsetof(attn\_fwd\_kargs, seqlen) | 28 | 32 | **no longer holds** | [csrc/py\_itfs\_cu/attn\_abi.cpp:3](0) |
| sizeof(attn\_fwd\_kargs) | 40 | 48 | **no longer holds** | [csrc/py\_itfs\_cu/attn\_abi.cpp:4](1) |
T
)"
sarif_valid d11.sarif-valid d11
exit 0
