#!/bin/sh
# `make demo`: builds a small aiter-shaped example repository under BUILD/demo (a base commit,
# then an uncommitted change with the kinds of mistakes review-lsp exists to catch) and
# reviews it with the freshly built binary: first the repository's own configuration (its
# pyproject.toml [tool.review-lsp] table), then the derived rule families, then findings.
set -eu
BUILD=${1:-build}
BIN="$(pwd)/$BUILD/review-lsp"
DEMO="$(pwd)/$BUILD/demo"
rm -rf "$DEMO"
mkdir -p "$DEMO"
cd "$DEMO"
git init -q -b main
git config user.email demo@example.com
git config user.name "review-lsp demo"
git config commit.gpgsign false
mkdir -p csrc/kernels csrc/include aiter/ops/triton aiter/ops/flydsl/kernels op_tests 3rdparty/ck

cat > pyproject.toml <<'T'
[tool.ruff]
line-length = 120

[tool.review-lsp]
# Written down once, read alike by the editor, the pre-commit hook and CI.
base = "main"
exclude = ["3rdparty/"]          # vendored code is reviewed where it comes from
severity = { D11 = "error" }     # a shifted pinned layout breaks the assembly kernels

[[tool.review-lsp.overrides]]
paths = ["op_tests/"]
disable = ["P2"]                 # the op tests keep their own assertion style
T

cat > 3rdparty/ck/ck_tile.hpp <<'V'
#pragma once
struct ck_tile_args { int m; int n; };
static_assert(sizeof(ck_tile_args) == 8, "vendored layout");
V

cat > csrc/include/kargs.h <<'H'
#pragma once
#include <cstddef>
#include <cstdint>
struct decode_kargs {
    const void* q_ptr;
    void* out_ptr;
    int32_t num_heads;
    int32_t head_dim;
};
static_assert(sizeof(decode_kargs) == 24, "decode_kargs is shared with the assembly kernel");
static_assert(offsetof(decode_kargs, num_heads) == 16, "pinned by the asm");
H

cat > csrc/kernels/cache_kernels.cu <<'K'
#include "kargs.h"
__global__ void reshape_and_cache_kernel(const float* key, float* cache, int num_tokens, int stride) {
    int token = blockIdx.x;
    if (token >= num_tokens) return;
    int slot = token * stride + threadIdx.x;
    cache[slot] = key[token * stride + threadIdx.x];
}

__global__ void reshape_and_cache_flash_kernel(const float* key, float* cache, int num_tokens, int stride) {
    int token = blockIdx.x;
    if (token >= num_tokens) return;
    int slot = token * stride + threadIdx.x;
    cache[slot] = key[token * stride + threadIdx.x];
}
K

cat > aiter/ops/triton/softmax.py <<'P'
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    y = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + offs, y / tl.sum(y, axis=0), mask=mask)


def softmax(x):
    assert x.is_contiguous(), "softmax wants a contiguous input"
    out = torch.empty_like(x)
    _softmax_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out
P
git add -A
git commit -q -m "base: kernels, wrapper and layout pins"

# The change under review: left uncommitted, as an author would have it while typing.
cat > csrc/include/kargs.h <<'H'
#pragma once
#include <cstddef>
#include <cstdint>
struct decode_kargs {
    const void* q_ptr;
    const void* k_scale_ptr;
    void* out_ptr;
    int32_t num_heads;
    int32_t head_dim;
};
static_assert(sizeof(decode_kargs) == 24, "decode_kargs is shared with the assembly kernel");
static_assert(offsetof(decode_kargs, num_heads) == 16, "pinned by the asm");
H

cat > csrc/kernels/cache_kernels.cu <<'K'
#include "kargs.h"
__global__ void reshape_and_cache_kernel(const float* key, float* cache, int num_tokens, int stride) {
    int token = blockIdx.x;
    if (token >= num_tokens) return;
    int64_t slot = (int64_t)token * stride + threadIdx.x;
    cache[slot] = key[(int64_t)token * stride + threadIdx.x];
}

__global__ void reshape_and_cache_flash_kernel(const float* key, float* cache, int num_tokens, int stride) {
    int token = blockIdx.x;
    if (token >= num_tokens) return;
    int slot = token * stride + threadIdx.x;
    cache[slot] = key[token * stride + threadIdx.x];
}
K

cat > aiter/ops/triton/softmax.py <<'P'
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs)
    y = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + offs, y / tl.sum(y, axis=0))


def softmax(x):
    out = torch.empty_like(x)
    _softmax_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]), num_warps=8)
    return out
P

cat > aiter/ops/flydsl/kernels/gather.py <<'P'
from flydsl import buffer_ops


def gather_kernel(src, dst, n):
    src_rsrc = buffer_ops.create_buffer_resource(src)
    dst_rsrc = buffer_ops.create_buffer_resource(dst, max_size=False)
    return src_rsrc, dst_rsrc
P

# a vendored header changes too: the configuration keeps it out of the review
cat > 3rdparty/ck/ck_tile.hpp <<'V'
#pragma once
struct ck_tile_args { int k; int m; int n; };
static_assert(sizeof(ck_tile_args) == 8, "vendored layout");
V

echo "== review-lsp config  (the repository's [tool.review-lsp] in pyproject.toml, and where each value comes from)"
"$BIN" config
echo
echo "== review-lsp rules  (the rule families this change derives, in triage's rules.txt format)"
"$BIN" rules --title "Fix int32 overflow in reshape_and_cache"
echo
echo "== review-lsp check  (findings, file:line:col: severity [ID] message)"
"$BIN" check --title "Fix int32 overflow in reshape_and_cache"
echo
echo "The example repository is $DEMO; open it in an editor with review-lsp set up to see the same inline."
