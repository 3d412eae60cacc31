/* Unit tests for the index-width collector (rule D9) and its value ranges: what a name says
 * it indexes (index_range), and on changes built from unified diffs (new files carry their
 * whole head text) which products are reported — a token/row, batch, expert or KV-block index
 * times a row, batch or block stride in 32 bits reaching global memory — and which are not:
 * small by construction, not global memory, already 64-bit, fixed when the kernel is built,
 * stored as an index, a grid-stride step, moved code, host code and test files. Every silent
 * case has a reported twin that differs only in what makes it silent. */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/collectors/index_range.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/collector_diff.h"
#include "tests/unit/unit.h"

extern const collector collector_index_width;

/* Run the collector over a diff (no repository, no head tree). */
static result run(const char *diff)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    collector_ctx ctx = {.chg = c, .out = &r.out};
    sb_init(&ctx.status);
    collector_run(&collector_index_width, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    return r;
}

/* Run the collector over one new file and return its result. */
static result run_new(const char *path, const char *const *src)
{
    char *d = new_file_diff(path, src);
    result r = run(d);
    free(d);
    return r;
}

/* True when some finding's message contains needle. */
static bool any_message(const result *r, const char *needle)
{
    for (size_t i = 0; i < r->out.n; i++)
        if (str_contains(r->out.items[i].message, needle))
            return true;
    return false;
}

TEST(names_read_as_axes_and_sizes)
{
    ir_name n;
    ir_classify("pid_hk", false, IR_DOMAIN_DEFAULT, &n);
    CHECK_INT(n.role, IR_KV_HEAD);
    ir_classify("cur_head", false, IR_DOMAIN_DEFAULT, &n);
    CHECK_INT(n.role, IR_HEAD);
    CHECK_INT(n.bits, 7);
    ir_classify("v_stride_h", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.stride);
    CHECK_INT(n.role, IR_HEAD);
    CHECK_INT(n.bits, 8);
    ir_classify("stride_am", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.stride && n.role == IR_ROW && n.bits == 15);
    ir_classify("stride_out_batch", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.stride && n.role == IR_BATCH && n.bits == 24);
    ir_classify("stride_b", false, IR_DOMAIN_DEFAULT, &n); /* GEMM tensor B, not a batch */
    CHECK(n.stride && n.role == IR_UNKNOWN);
    ir_classify("stride_ascale_m", false, IR_DOMAIN_DEFAULT, &n); /* a short row of scales */
    CHECK_INT(n.bits, 8);
    ir_classify("num_kv_heads", false, IR_DOMAIN_DEFAULT, &n);
    CHECK_INT(n.role, IR_KV_HEAD);
    CHECK(n.size_like);
    ir_classify("token_id", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.role == IR_ROW && n.bits == 17 && !n.size_like);
    ir_classify("physical_block", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.role == IR_BLOCK && n.bits == 22);
    ir_classify("slot", false, IR_DOMAIN_DEFAULT, &n); /* a row of the paged pool */
    CHECK(n.role == IR_SLOT && n.bits == 26);
    ir_classify("max_blks", false, IR_DOMAIN_DEFAULT, &n); /* the blocks of one sequence */
    CHECK_INT(n.role, IR_TILE);
    ir_classify("BLOCK_M", true, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.role == IR_TILE && n.bits == 8);
    ir_classify("pid_m", false, IR_DOMAIN_DEFAULT, &n); /* an M tile, not a row */
    CHECK(n.role == IR_TILE && n.bits == 12);
    ir_classify("seq_idx", false, IR_DOMAIN_DEFAULT, &n); /* which sequence of the batch */
    CHECK_INT(n.role, IR_BATCH);
    ir_classify("NUM_SEGMENTS_PER_SEQ", true, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.role == IR_TILE && n.bits == 8);
    ir_classify("k_load_lane_in_row", false, IR_DOMAIN_DEFAULT, &n);
    CHECK_INT(n.role, IR_LANE);
    ir_classify("lds_row", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.lds);
    ir_classify("x_ptr", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.pointer && n.offsetish);
    ir_classify("val_f32", false, IR_DOMAIN_DEFAULT, &n);
    CHECK(n.floatish);
    /* letters change meaning with the kind of kernel */
    ir_classify("stride_kn", false, IR_DOMAIN_DEFAULT, &n);
    CHECK_INT(n.role, IR_COLUMN);
    ir_classify("stride_kn", false, IR_DOMAIN_ATTN, &n);
    CHECK_INT(n.role, IR_ROW);
    ir_classify("stride_x_n", false, IR_DOMAIN_CONV, &n);
    CHECK_INT(n.role, IR_BATCH);
    ir_classify("base_ih", false, IR_DOMAIN_CONV, &n);
    CHECK(n.role == IR_SPATIAL && !n.offsetish);
    CHECK_INT(ir_domain_of_path("aiter/ops/triton/_triton_kernels/conv/conv_3x3.py"),
              IR_DOMAIN_CONV);
    CHECK_INT(ir_domain_of_path("aiter/ops/flydsl/causal_conv1d_flydsl.py"), IR_DOMAIN_DEFAULT);
    CHECK_INT(ir_domain_of_path("aiter/ops/triton/_triton_kernels/attention/mha.py"),
              IR_DOMAIN_ATTN);
}

TEST(triton_token_offset_is_reported_once_with_its_other_sites)
{
    static const char *const src[] = {
        "@triton.jit",                                                      /* 1 */
        "def _rows(x_ptr, y_ptr, stride_xm, stride_ym, BLOCK: tl.constexpr):", /* 2 */
        "    pid = tl.program_id(0)",                                       /* 3 */
        "    offs = tl.arange(0, BLOCK)",                                   /* 4 */
        "    x = tl.load(x_ptr + pid * stride_xm + offs)",                  /* 5 */
        "    tl.store(y_ptr + pid * stride_ym + offs, x)",                  /* 6 */
        NULL};
    result r = run_new("aiter/ops/triton/_triton_kernels/rows.py", src);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 5);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule_id, "D9");
        CHECK_INT(f->sev, SEV_WARNING);
        CHECK_STR(f->collector, "index_width");
        CHECK_INT(f->range.col, 24);
        CHECK_INT(f->range.end_line, 5);
        CHECK_INT(f->range.end_col, 39);
        CHECK(str_starts(f->message, "`pid * stride_xm` is computed in 32 bits and reaches a "
                                     "global-memory offset: `pid` (a token/row index, up to ~2^17)"
                                     " times `stride_xm` (a row stride, up to ~2^15)"));
        CHECK(str_contains(f->message, "widen `pid` to 64 bits before the multiply; `pid` is "
                                       "multiplied the same way at 1 more place in `_rows`"));
        CHECK_INT(f->nrelated, 2);
        if (f->nrelated == 2) {
            CHECK_INT(f->related[0].range.line, 3);
            CHECK_STR(f->related[0].message, "`pid` comes from here");
            CHECK_INT(f->related[1].range.line, 6);
            CHECK_STR(f->related[1].message, "also 32-bit: `pid * stride_ym`");
        }
    }
    CHECK_STR(r.status, "found 1 32-bit offset that can pass 2^31 (2 products) on added lines");
    result_free(&r);
}

/* The kernel of the test above marked each way ix_build reads device code (a constexpr
 * parameter alone, a decorator spelling KERNEL in capitals, an enclosing jit function), then
 * as host code: only the host twin is silent. */
TEST(device_code_is_scanned_however_it_is_marked)
{
    static const char *const marks[][2] = {
        {"", "def _rows(x_ptr, y_ptr, stride_xm, stride_ym, BLOCK: tl.constexpr):"},
        {"@gluon.KERNEL", "def _rows(x_ptr, y_ptr, stride_xm, stride_ym, BLOCK):"},
        {"@functools.cache", "def _rows(x_ptr, y_ptr, stride_xm, stride_ym, BLOCK):"},
    };
    for (size_t m = 0; m < 3; m++) {
        const char *src[] = {
            marks[m][0],                                          /* 1 */
            marks[m][1],                                          /* 2 */
            "    pid = tl.program_id(0)",                         /* 3 */
            "    offs = tl.arange(0, BLOCK)",                     /* 4 */
            "    x = tl.load(x_ptr + pid * stride_xm + offs)",    /* 5 */
            "    return x",                                       /* 6 */
            NULL};
        result r = run_new("aiter/ops/triton/_triton_kernels/rows.py", src);
        CHECK_INT(r.out.n, m < 2 ? 1 : 0);
        CHECK(m == 2 || at_line(&r, 5) != NULL);
        result_free(&r);
    }
    /* a helper nested in a jit builder is device code through its parent */
    static const char *const nested[] = {
        "@triton.jit",                                            /* 1 */
        "def _outer(x_ptr, stride_xm, BLOCK):",                   /* 2 */
        "    def _rows(x_ptr, stride_xm, BLOCK):",                /* 3 */
        "        pid = tl.program_id(0)",                         /* 4 */
        "        offs = tl.arange(0, BLOCK)",                     /* 5 */
        "        return tl.load(x_ptr + pid * stride_xm + offs)", /* 6 */
        "    return _rows(x_ptr, stride_xm, BLOCK)",              /* 7 */
        NULL};
    result r = run_new("aiter/ops/triton/_triton_kernels/rows.py", nested);
    CHECK(at_line(&r, 6) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(small_products_are_silent_and_their_twins_are_not)
{
    static const char *const src[] = {
        "@triton.jit",                                                             /* 1 */
        "def _heads(v_ptr, o_ptr, v_stride_t, v_stride_h, stride_o_h, hidden_size,", /* 2 */
        "           BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr):",                 /* 3 */
        "    pid_t = tl.program_id(0)",                                            /* 4 */
        "    pid_hk = tl.program_id(1)",                                           /* 5 */
        "    cur_head = pid_hk * 2",                                               /* 6 */
        "    warp_id = tl.program_id(2) % 4",                                      /* 7 */
        "    offs = tl.arange(0, BLOCK_D)",                                        /* 8 */
        "    row = pid_t.to(tl.int64) * v_stride_t",                               /* 9 */
        "    a = tl.load(v_ptr + row + pid_hk * v_stride_h + offs)",               /* 10 */
        "    b = tl.load(v_ptr + row + cur_head * stride_o_h + offs)",             /* 11 */
        "    c = tl.load(v_ptr + row + warp_id * hidden_size + offs)",             /* 12 */
        "    d = tl.load(v_ptr + pid_t * BLOCK_N + offs)",                         /* 13 */
        "    e = tl.load(v_ptr + tl.arange(0, BLOCK_N) * v_stride_t)",             /* 14 */
        "    tl.store(o_ptr + pid_t * v_stride_t + offs, a + b + c + d + e)",      /* 15 */
        NULL};
    result r = run_new("aiter/ops/triton/_triton_kernels/heads.py", src);
    /* only the token index times the token stride, un-widened, on line 15 */
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 15) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(shared_memory_registers_and_python_lists_are_not_global_memory)
{
    static const char *const src[] = {
        "__global__ void k(float* __restrict__ out, int row_stride, int lds_stride)", /* 1 */
        "{",                                                                        /* 2 */
        "    __shared__ float tile[4096];",                                         /* 3 */
        "    extern __shared__ char smem_buf[];",                                   /* 4 */
        "    float* s_view = reinterpret_cast<float*>(smem_buf);",                  /* 5 */
        "    float* s_alias = reinterpret_cast<float*>(s_view);",                   /* 6 */
        "    float acc[64];",                                                       /* 7 */
        "    const int row = blockIdx.x;",                                          /* 8 */
        "    tile[row * lds_stride] = 1.f;",                                        /* 9 */
        "    s_alias[row * row_stride] = 2.f;",                                     /* 10 */
        "    acc[row * row_stride] = 3.f;",                                         /* 11 */
        "    out[row * row_stride] = tile[0] + acc[0];",                            /* 12 */
        "}",                                                                        /* 13 */
        NULL};
    result r = run_new("csrc/kernels/lds.cu", src);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 12) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
    static const char *const py[] = {
        "@flyc.kernel",                                                            /* 1 */
        "def k(x: fx.Tensor, s_tile: fx.Tensor, row_stride: fx.Int32):",           /* 2 */
        "    row = gpu.block_idx.x",                                               /* 3 */
        "    lds_buf = SmemPtr(base, 0, T.i32)",                                   /* 4 */
        "    vector.load_op(ty, lds_buf, [row * row_stride])",                     /* 5 */
        "    frags = [None] * 4",                                                  /* 6 */
        "    frags[row * row_stride] = 1",                                         /* 7 */
        "    x[row * row_stride] = 0",                                             /* 8 */
        NULL};
    r = run_new("aiter/ops/flydsl/kernels/lds.py", py);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 8) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(flydsl_index_types_and_builder_values)
{
    static const char *const src[] = {
        "def compile_rows(M: int, N: int):",                                       /* 1 */
        "    n_bytes = M * N * 2",                                                 /* 2 */
        "    @flyc.kernel",                                                        /* 3 */
        "    def rows(x: fx.Tensor, rows_rt: fx.Int32):",                          /* 4 */
        "        bid = gpu.block_idx.x",                                           /* 5 */
        "        rsrc = buffer_ops.create_buffer_resource(x, max_size=True)",      /* 6 */
        "        wide = fx.Int64(bid)",                                            /* 7 */
        "        buffer_ops.buffer_load(rsrc, wide * fx.Int32(N))",                /* 8 */
        "        buffer_ops.buffer_load(rsrc, fx.Index(bid) * fx.Index(N))",       /* 9 */
        "        buffer_ops.buffer_load(rsrc, bid * arith.index(N))",              /* 10 */
        "        buffer_ops.buffer_load(rsrc, fx.Int32(M * N))",                   /* 11 */
        "        buffer_ops.buffer_load(rsrc, fx.Int32(bid) * fx.Int32(N))",       /* 12 */
        "    return rows, n_bytes",                                                /* 13 */
        NULL};
    result r = run_new("aiter/ops/flydsl/kernels/rows.py", src);
    /* the builder's own M * N * 2 is a Python int; only the i32 row offset is reported */
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 12);
    CHECK(f != NULL);
    if (f)
        CHECK(str_contains(f->message, "`fx.Int32(N)` (fixed when the kernel is built"));
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(the_outer_product_is_reported_not_the_harmless_inner_one)
{
    static const char *const src[] = {
        "@flyc.jit",                                                               /* 1 */
        "def b_base(rsrc, e, n_block_idx, *, N_OUT=4096, BN=128, K_HALF=3584):",   /* 2 */
        "    v = (e * fx.Int32(N_OUT) + n_block_idx * fx.Int32(BN)) * fx.Int32(K_HALF)", /* 3 */
        "    return buffer_ops.buffer_load(rsrc, fx.Int32(0), soffset_bytes=v)",   /* 4 */
        NULL};
    result r = run_new("aiter/ops/flydsl/kernels/moe_b.py", src);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 3);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(f->range.col, 8);
        CHECK_INT(f->range.end_col, 77);
        CHECK(str_contains(f->message, "(an expert index, up to ~2^24)"));
        CHECK(str_contains(f->message, "widen `e` to 64 bits"));
    }
    result_free(&r);
}

TEST(hip_left_to_right_widening_and_stored_indices)
{
    static const char *const src[] = {
        "__global__ void k(float* out, int num_heads, int head_dim, int T, int64_t s64)", /* 1 */
        "{",                                                                       /* 2 */
        "    const int token_id = blockIdx.x;",                                    /* 3 */
        "    const int i_n = blockIdx.y;",                                         /* 4 */
        "    const int bos = i_n * T;",                                            /* 5 */
        "    out[static_cast<int64_t>(token_id) * num_heads * head_dim] = 0.f;",   /* 6 */
        "    out[token_id * num_heads * s64] = 0.f;",                              /* 7 */
        "    out[token_id * num_heads * head_dim] = 0.f;",                         /* 8 */
        "    out[(size_t)bos * head_dim + threadIdx.x * head_dim] = 0.f;",         /* 9 */
        "    for (int sq = 0; sq < 4; ++sq)",                                      /* 10 */
        "        out[sq * num_heads * head_dim + bos] = 1.f;",                     /* 11 */
        "}",                                                                       /* 12 */
        NULL};
    result r = run_new("csrc/kernels/tokens.cu", src);
    /* line 5 is a token number, 6 widens first, 7 multiplies token by heads (small) before the
     * 64-bit factor, 9 is widened and a lane, 11 is a short loop: only line 8 */
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 8);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(f->range.col, 8);
        CHECK_INT(f->range.end_col, 39);
        CHECK(str_contains(f->message, "`token_id` (a token/row index, up to ~2^17)"));
    }
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(batch_expert_and_kv_block_offsets)
{
    static const char *const src[] = {
        "@triton.jit",                                                             /* 1 */
        "def _k(x_ptr, w_ptr, kv_ptr, table_ptr, stride_xb, stride_we, stride_kv_block,", /* 2 */
        "       stride_kv_head, BLOCK: tl.constexpr):",                              /* 3 */
        "    pid_b = tl.program_id(0)",                                            /* 4 */
        "    expert = tl.program_id(1)",                                           /* 5 */
        "    kv_head = tl.program_id(2)",                                          /* 6 */
        "    offs = tl.arange(0, BLOCK)",                                          /* 7 */
        "    physical_block = tl.load(table_ptr + pid_b)",                         /* 8 */
        "    x = tl.load(x_ptr + pid_b * stride_xb + offs)",                       /* 9 */
        "    w = tl.load(w_ptr + expert * stride_we + offs)",                      /* 10 */
        "    kv = tl.load(kv_ptr + physical_block * stride_kv_block + kv_head * stride_kv_head)", /* 11 */
        "    tl.store(x_ptr + offs, x + w + kv)",                                  /* 12 */
        NULL};
    result r = run_new("aiter/ops/triton/_triton_kernels/moe/offsets.py", src);
    CHECK_INT(r.out.n, 3);
    CHECK(at_line(&r, 9) && str_contains(at_line(&r, 9)->message, "a batch stride"));
    CHECK(at_line(&r, 10) && str_contains(at_line(&r, 10)->message, "an expert stride"));
    CHECK(at_line(&r, 11) &&
          str_contains(at_line(&r, 11)->message, "`physical_block` (a KV-cache block index"));
    CHECK(!any_message(&r, "kv_head *"));
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(helper_arguments_and_returns_carry_addresses)
{
    static const char *const src[] = {
        "__device__ int row_offset(int row, int ld)",                              /* 1 */
        "{",                                                                       /* 2 */
        "    return row * ld;",                                                    /* 3 */
        "}",                                                                       /* 4 */
        "__device__ int lane_offset(int lane, int ld)",                            /* 5 */
        "{",                                                                       /* 6 */
        "    return lane * ld;",                                                   /* 7 */
        "}",                                                                       /* 8 */
        "__global__ void k(float* out, int ld)",                                   /* 9 */
        "{",                                                                       /* 10 */
        "    out[row_offset(blockIdx.x, ld)] = 0.f;",                              /* 11 */
        "    out[lane_offset(threadIdx.x & 7, ld)] = 0.f;",                        /* 12 */
        "}",                                                                       /* 13 */
        NULL};
    result r = run_new("csrc/kernels/helpers.cu", src);
    /* the helper's return feeds an address; its row comes from blockIdx.x (rows), the other
     * helper's lane from threadIdx & 7 (eight lanes) */
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 3) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(grid_stride_steps_floats_and_host_code_are_silent)
{
    static const char *const src[] = {
        "@flyc.kernel",                                                            /* 1 */
        "def zero(rsrc, total: fx.Int32, row_stride: fx.Int32):",                  /* 2 */
        "    gid = gpu.block_idx.x * fx.Int32(256) + gpu.thread_idx.x",            /* 3 */
        "    step = gpu.grid_dim.x * fx.Int32(256)",                               /* 4 */
        "    for i in range(0, total):",                                           /* 5 */
        "        buffer_ops.buffer_store(0, rsrc, gid + i * step)",                /* 6 */
        "    val_f32 = buffer_ops.buffer_load(rsrc, gid)",                         /* 7 */
        "    buffer_ops.buffer_store(val_f32 * row_stride, rsrc, gid)",            /* 8 */
        "",                                                                        /* 9 */
        "def launch(rows, row_stride):",                                           /* 10 */
        "    return rows * row_stride + 1",                                        /* 11 */
        NULL};
    result r = run_new("aiter/ops/flydsl/kernels/zero.py", src);
    CHECK_INT(r.out.n, 0);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(moved_products_and_test_files_are_not_reported)
{
    const char *d =
        "diff --git a/aiter/ops/triton/k.py b/aiter/ops/triton/k.py\n"
        "--- a/aiter/ops/triton/k.py\n"
        "+++ b/aiter/ops/triton/k.py\n"
        "@@ -1,4 +1,7 @@\n"
        " @triton.jit\n"
        " def k(x_ptr, stride_xm, stride_ym):\n"
        "     pid = tl.program_id(0)\n"
        "-    x = tl.load(x_ptr + pid * stride_xm)\n"
        "+    x = tl.load(\n"
        "+        x_ptr + pid * stride_xm\n"
        "+    )\n"
        "+    tl.store(x_ptr + pid * stride_ym, x)\n";
    result r = run(d);
    CHECK(str_starts(r.status, "skipped: aiter/ops/triton/k.py: head file not available"));
    CHECK(str_ends(r.status, "(D9 cannot be cleared)"));
    result_free(&r);
    /* the same as a new file whose old text was deleted elsewhere in the change */
    const char *d2 =
        "diff --git a/aiter/ops/triton/old.py b/aiter/ops/triton/old.py\n"
        "deleted file mode 100644\n"
        "--- a/aiter/ops/triton/old.py\n"
        "+++ /dev/null\n"
        "@@ -1,3 +0,0 @@\n"
        "-def k(x_ptr, stride_xm):\n"
        "-    pid = tl.program_id(0)\n"
        "-    x = tl.load(x_ptr + pid * stride_xm)\n"
        "diff --git a/aiter/ops/triton/k.py b/aiter/ops/triton/k.py\n"
        "new file mode 100644\n"
        "--- /dev/null\n"
        "+++ b/aiter/ops/triton/k.py\n"
        "@@ -0,0 +1,7 @@\n"
        "+@triton.jit\n"
        "+def k(x_ptr, stride_xm, stride_ym):\n"
        "+    pid = tl.program_id(0)\n"
        "+    x = tl.load(\n"
        "+        x_ptr + pid * stride_xm\n"
        "+    )\n"
        "+    tl.store(x_ptr + pid * stride_ym, x)\n";
    r = run(d2);
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 7) != NULL);
    CHECK_STR(r.status, "found 1 32-bit offset that can pass 2^31 (1 product) on added lines "
                        "(1 such product only moved or reformatted, not reported)");
    result_free(&r);
    static const char *const src[] = {
        "@triton.jit",
        "def k(x_ptr, stride_xm):",
        "    x = tl.load(x_ptr + tl.program_id(0) * stride_xm)",
        NULL};
    r = run_new("op_tests/triton_tests/test_k.py", src);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: no Python or C/C++ file gains lines");
    result_free(&r);
}

TEST(correlated_sizes_lds_helpers_and_buffer_sizes)
{
    static const char *const src[] = {
        "__device__ float tile_row(const float* s, int row, int ld)",              /* 1 */
        "{",                                                                       /* 2 */
        "    return s[row * ld];",                                                 /* 3 */
        "}",                                                                       /* 4 */
        "__global__ void k(const float* gate, float* out, int seq_len, int num_heads,", /* 5 */
        "                  int row_stride, int rows)",                             /* 6 */
        "{",                                                                       /* 7 */
        "    __shared__ float smem[4096];",                                        /* 8 */
        "    const int batch_idx = blockIdx.y;",                                   /* 9 */
        "    const int row = blockIdx.x;",                                         /* 10 */
        "    float g = gate[batch_idx * seq_len * num_heads + threadIdx.x];",      /* 11 */
        "    g += tile_row(smem, row, row_stride);",                               /* 12 */
        "    auto buf = make_gmem(out, rows * row_stride * sizeof(float));",       /* 13 */
        "    buf.store(g, row * row_stride);",                                     /* 14 */
        "}",                                                                       /* 15 */
        NULL};
    result r = run_new("csrc/kernels/correlated.cu", src);
    /* batch times sequence length counts tokens (11); the helper only ever reads shared
     * memory (3); a buffer's element count is not an offset (13); the row offset is (14) */
    CHECK_INT(r.out.n, 1);
    CHECK(at_line(&r, 14) != NULL);
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

TEST(status_lines)
{
    result r = run("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                   "@@ -1 +1,2 @@\n x\n+y\n");
    CHECK_STR(r.status, "nothing found: no Python or C/C++ file gains lines");
    result_free(&r);
    static const char *const src[] = {"def f(a, b):", "    return a * b", NULL};
    r = run_new("aiter/ops/x.py", src);
    CHECK_STR(r.status, "nothing found: no 32-bit product that can pass 2^31 reaches a "
                        "global-memory offset on an added line of 1 file");
    result_free(&r);
}

TEST(locals_named_as_prefixes_of_one_another_are_told_apart)
{
    /* `o` is looked up among locals declared before it whose names start like it (`o_h`),
     * and feeds the load only through `oo`, which needs a second round of marking: only
     * `pid * stride_xm` reaches an address; `pid_h * stride_xm` (four heads) is small and
     * feeds the store. */
    static const char *const src[] = {
        "@triton.jit",                                                /* 1 */
        "def _chain(x_ptr, y_ptr, stride_xm, BLOCK: tl.constexpr):",  /* 2 */
        "    pid = tl.program_id(0)",                                 /* 3 */
        "    pid_h = tl.program_id(1) % 4",                           /* 4 */
        "    o_h = pid_h * stride_xm",                                /* 5 */
        "    o = pid * stride_xm",                                    /* 6 */
        "    oo = o + 1",                                             /* 7 */
        "    offs = tl.arange(0, BLOCK)",                             /* 8 */
        "    x = tl.load(x_ptr + oo + offs)",                         /* 9 */
        "    tl.store(y_ptr + o_h + offs, x)",                        /* 10 */
        NULL};
    result r = run_new("aiter/ops/triton/_triton_kernels/chain.py", src);
    CHECK_INT(r.out.n, 1);
    const finding *f = at_line(&r, 6);
    CHECK(f != NULL);
    if (f)
        CHECK(str_starts(f->message, "`pid * stride_xm` is computed in 32 bits"));
    if (unit_failed_now)
        dump_findings(&r);
    result_free(&r);
}

UNIT_MAIN("test_index_width",
          UNIT_CASE(names_read_as_axes_and_sizes),
          UNIT_CASE(triton_token_offset_is_reported_once_with_its_other_sites),
          UNIT_CASE(device_code_is_scanned_however_it_is_marked),
        UNIT_CASE(small_products_are_silent_and_their_twins_are_not),
          UNIT_CASE(shared_memory_registers_and_python_lists_are_not_global_memory),
          UNIT_CASE(flydsl_index_types_and_builder_values),
          UNIT_CASE(the_outer_product_is_reported_not_the_harmless_inner_one),
          UNIT_CASE(hip_left_to_right_widening_and_stored_indices),
          UNIT_CASE(batch_expert_and_kv_block_offsets),
          UNIT_CASE(helper_arguments_and_returns_carry_addresses),
          UNIT_CASE(grid_stride_steps_floats_and_host_code_are_silent),
          UNIT_CASE(moved_products_and_test_files_are_not_reported),
          UNIT_CASE(correlated_sizes_lds_helpers_and_buffer_sizes),
          UNIT_CASE(status_lines),
          UNIT_CASE(locals_named_as_prefixes_of_one_another_are_told_apart))
