# Evidence you can see, in the batch faces: each collector's exhibits on a repository built
# here, rendered by `check --format text` (aligned plain text under the finding), `--format json`
# (the structure itself) and `--format sarif` (the exhibits' places as relatedLocations, their
# Markdown in message.markdown linking to those locations by id; the log valid against the
# SARIF 2.1.0 schema). Exact renderings: D11's tables; D9's chain of places (product, where its
# run-time value comes from, the address it reaches); B8's highlighted call and its bounded form.
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
# line, message, "(exhibit)" for a place only the evidence shows) one a line, then its
# message.markdown.
sarif_of() {
  python3 -c '
import json, sys
r = [r for r in json.load(sys.stdin)["runs"][0]["results"] if r["ruleId"] == sys.argv[1]][0]
for l in r.get("relatedLocations", []):
    p = l["physicalLocation"]
    print(l["id"], p["artifactLocation"]["uri"] + ":" + str(p["region"]["startLine"]), l["message"]["text"]
          + (" (exhibit)" if l.get("properties", {}).get("exhibit") else ""))
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

# --- index width (D9) and FlyDSL bounds (B8): a chain of places, a highlighted call ----------
new_repo k
mkdir -p k/aiter/ops/triton/_triton_kernels k/aiter/ops/flydsl/kernels
printf 'import triton\nimport triton.language as tl\n' > k/aiter/ops/triton/_triton_kernels/scale_rows.py
printf 'from flydsl import buffer_ops, gpu\n' > k/aiter/ops/flydsl/kernels/copy_tiles.py
commit_all k base
cat >> k/aiter/ops/triton/_triton_kernels/scale_rows.py <<'P'


@triton.jit
def _scale_rows(x_ptr, out_ptr, stride_xm, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row_off = pid * stride_xm
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row_off + offs, mask=offs < N)
    tl.store(out_ptr + offs, x * 2, mask=offs < N)
P
cat >> k/aiter/ops/flydsl/kernels/copy_tiles.py <<'P'


def copy_tiles(src, dst, n: Int32):
    src_rsrc = buffer_ops.create_buffer_resource(src, max_size=True)
    dst_rsrc = buffer_ops.create_buffer_resource(dst, max_size=False)
    row = gpu.block_idx.x * 64 + gpu.thread_idx.x
    buffer_ops.buffer_store(buffer_ops.buffer_load(src_rsrc, row), dst_rsrc, row)
P

got=$(cd k && "$BIN" check --format json | evidence_json D9)
expect_eq d9.json "$got" "$(cat <<'T'
{"kind":"chain","title":"From `pid` to the global-memory offset","rows":[{"label":"the 32-bit product","text":"pid * stride_xm","path":"aiter/ops/triton/_triton_kernels/scale_rows.py","line":8},{"label":"pid comes from","text":"pid = tl.program_id(0)","path":"aiter/ops/triton/_triton_kernels/scale_rows.py","line":7},{"label":"it reaches the address through row_off","text":"x = tl.load(x_ptr + row_off + offs, mask=offs < N)","path":"aiter/ops/triton/_triton_kernels/scale_rows.py","line":10}]}
T
)"
got=$(cd k && "$BIN" check --format sarif | sarif_of D9)
expect_eq d9.sarif "$got" "$(cat <<'T'
0 aiter/ops/triton/_triton_kernels/scale_rows.py:7 `pid` comes from here
1 aiter/ops/triton/_triton_kernels/scale_rows.py:8 the 32-bit product (exhibit)
2 aiter/ops/triton/_triton_kernels/scale_rows.py:10 it reaches the address through row_off (exhibit)
`pid * stride_xm` is computed in 32 bits and reaches a global-memory offset: `pid` (a token/row index, up to ~2^17) times `stride_xm` (a row stride, up to ~2^15) can reach ~2^32, past 2^31, and wrap; widen `pid` to 64 bits before the multiply

**From `pid` to the global-memory offset**

1. **the 32-bit product** — [aiter/ops/triton/\_triton\_kernels/scale\_rows.py:8](1): `pid * stride_xm`
2. **pid comes from** — [aiter/ops/triton/\_triton\_kernels/scale\_rows.py:7](0): `pid = tl.program_id(0)`
3. **it reaches the address through row\_off** — [aiter/ops/triton/\_triton\_kernels/scale\_rows.py:10](2): `x = tl.load(x_ptr + row_off + offs, mask=offs < N)`
T
)"
got=$(cd k && "$BIN" check --format json | evidence_json B8)
expect_eq b8.json "$got" "$(cat <<'T'
{"kind":"code","title":"The call, its max_size highlighted","rows":[{"text":"src_rsrc = buffer_ops.create_buffer_resource(src, max_size=True)","path":"aiter/ops/flydsl/kernels/copy_tiles.py","line":5,"highlight":{"start":50,"end":63}}]}
{"kind":"code","title":"A bounded call: max_size=False sizes the descriptor to `src`","rows":[{"text":"buffer_ops.create_buffer_resource(src, max_size=False)","highlight":{"start":39,"end":53}}]}
T
)"
got=$(cd k && "$BIN" check --format sarif | sarif_of B8)
expect_eq b8.sarif "$got" "$(cat <<'T'
0 aiter/ops/flydsl/kernels/copy_tiles.py:8 this access steps by block over a size known only at run time, with no guard or clamp on its offset
1 aiter/ops/flydsl/kernels/copy_tiles.py:5 The call, its max_size highlighted (exhibit)
create_buffer_resource(src): max_size=True, so the descriptor covers 0xFFFFFFFF bytes instead of the extent of `src`: out-of-range offsets read and write past it rather than returning 0

**The call, its max_size highlighted**

```
src_rsrc = buffer_ops.create_buffer_resource(src, max_size=True)
                                                  ^^^^^^^^^^^^^
```

at [aiter/ops/flydsl/kernels/copy\_tiles.py:5](1)

**A bounded call: max_size=False sizes the descriptor to `src`**

```
buffer_ops.create_buffer_resource(src, max_size=False)
                                       ^^^^^^^^^^^^^^
```
T
)"
sarif_valid k.sarif-valid k
exit 0
