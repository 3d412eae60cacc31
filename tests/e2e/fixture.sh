#!/bin/sh
# Builds the fixture repository the editor tests (tests/nvim, tests/e2e) open: a base commit
# of aiter-shaped files, then an uncommitted change carrying three findings at known places:
#   aiter/ops/flydsl/kernels/gather.py:5  B8  (create_buffer_resource without max_size, read at a
#                                             block-tiled row with a run-time row count)
#   aiter/ops/triton/softmax.py:17        D4  (the contiguity assert deleted)
#   csrc/include/kargs.h:6                D11 (a field added before pinned members)
# Usage: fixture.sh DIR   (DIR is removed and recreated)
set -eu
DIR=$1
rm -rf "$DIR"; mkdir -p "$DIR"; cd "$DIR"
git init -q -b main
git config user.email editors@example.com
git config user.name "review-lsp editor tests"
git config commit.gpgsign false
mkdir -p csrc/include aiter/ops/triton aiter/ops/flydsl/kernels

cat > csrc/include/kargs.h <<'H'
#pragma once
#include <cstddef>
#include <cstdint>
struct paged_kargs {
    const void* q_ptr;
    void* out_ptr;
    int32_t num_heads;
    int32_t head_dim;
};
static_assert(sizeof(paged_kargs) == 24, "paged_kargs is read by the assembly kernel");
static_assert(offsetof(paged_kargs, num_heads) == 16, "offset pinned by the asm");
H
cat > aiter/ops/triton/softmax.py <<'P'
import torch
import triton
import triton.language as tl


@triton.jit
def _row_softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    y = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + offs, y / tl.sum(y, axis=0), mask=mask)


def row_softmax(x):
    assert x.is_contiguous(), "row_softmax needs a contiguous input"
    out = torch.empty_like(x)
    _row_softmax[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out
P
git add -A
git commit -q -m "base: layout pins, a Triton softmax"

# The change under review, uncommitted.
cat > csrc/include/kargs.h <<'H'
#pragma once
#include <cstddef>
#include <cstdint>
struct paged_kargs {
    const void* q_ptr;
    const void* k_scale_ptr;
    void* out_ptr;
    int32_t num_heads;
    int32_t head_dim;
};
static_assert(sizeof(paged_kargs) == 24, "paged_kargs is read by the assembly kernel");
static_assert(offsetof(paged_kargs, num_heads) == 16, "offset pinned by the asm");
H
cat > aiter/ops/triton/softmax.py <<'P'
import torch
import triton
import triton.language as tl


@triton.jit
def _row_softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    y = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + offs, y / tl.sum(y, axis=0), mask=mask)


def row_softmax(x):
    out = torch.empty_like(x)
    _row_softmax[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out
P
cat > aiter/ops/flydsl/kernels/gather.py <<'P'
from flydsl import buffer_ops, gpu


def gather_rows(src, dst, n: Int32):
    src_rsrc = buffer_ops.create_buffer_resource(src)
    dst_rsrc = buffer_ops.create_buffer_resource(dst, max_size=False)
    row = gpu.block_idx.x * 64 + gpu.thread_idx.x
    buffer_ops.buffer_store(buffer_ops.buffer_load(src_rsrc, row), dst_rsrc, row)
P
