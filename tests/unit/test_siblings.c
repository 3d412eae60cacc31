/* Unit tests for the sibling-drift collector (rule A1): each fixture under
 * tests/fixtures/siblings/ is a base/head pair; expected.txt holds the exact findings. */
#include "tests/unit/collector_fixture.h"
#include "tests/unit/unit.h"

extern const collector collector_siblings;

/* Run one fixture and check its findings and that the status line starts with want. */
static void run_case(const char *name, const char *want_status)
{
    const char *root = getenv("ROOT");
    char *dir = xasprintf("%s/tests/fixtures/siblings/%s", root ? root : ".", name);
    char *status = NULL;
    CHECK(fx_run(&collector_siblings, dir, &status));
    if (!str_starts(status, want_status)) {
        fprintf(stderr, "  status: %s\n  want prefix: %s\n", status, want_status);
        CHECK(false);
    }
    free(status);
    free(dir);
}

/* aiter#3841: a HIP decode kernel's 32-bit strided access fixed, the _prefill_opt kernel
 * beside it not: one finding on the variant, both lines as related information; a kernel
 * whose name is no variant keeps the lines silently. */
TEST(hip_3841) { run_case("hip_3841", "found 1 variant(s) still carrying 2 unit(s)"); }
/* Triton _2d fixed, _3d not (found, once, though _4d was fixed the same way), _4d fixed. */
TEST(triton_2d_3d) { run_case("triton_2d_3d", "found 1 variant(s) still carrying 2 unit(s)"); }
/* Methods: forward_decode fixed (including a statement deleted at its end), forward_prefill
 * not. */
TEST(methods) { run_case("methods", "found 1 variant(s) still carrying 2 unit(s)"); }
/* Trivial lines, a statement moved within its function, a function deleted outright, names
 * that share too little, test files: nothing. */
TEST(not_drift) { run_case("not_drift", "nothing found"); }
/* Keyword arguments passing a name along never count, a name-like string is compared as
 * written, a statement carried only through its argument shows the argument, and a rewrite
 * is reported once per variant (four variants here). */
TEST(filters) { run_case("filters", "found 5 variant(s)"); }
/* A parameter dropped (with its use) from the kernel of _build_kernel, still in the kernel of
 * _build_kernel_ksplit: one finding on the parameter, the use as related information; an
 * unused parameter dropped the same way is a clean-up and says nothing. */
TEST(param_dropped) { run_case("param_dropped", "found 1 variant(s) still carrying 2 unit(s)"); }
/* A keyword argument rewritten in _flydsl_stage1_wrapper, still in _flydsl_stage2_wrapper;
 * `stage1_cfg` and `stage2_cfg` are the same name once the variants' own words are folded.
 * The default block size stage 1 re-chose beside it (64 to 128) is its own tuning, not asked
 * of stage 2. */
TEST(kwarg_rewritten) { run_case("kwarg_rewritten", "found 1 variant(s) still carrying 1 unit(s)"); }
/* A tuple-unpacking statement rewritten in _fused_moe_impl, still in fused_moe_2stages. */
TEST(tuple_unpack) { run_case("tuple_unpack", "found 1 variant(s) still carrying 1 unit(s)"); }
/* The output allocation fixed in one asm wrapper, not in its _ps_ twin. */
TEST(asm_twin) { run_case("asm_twin", "found 1 variant(s) still carrying 1 unit(s)"); }
/* A line of the kernel nested in one build_..._module builder fixed, not in the kernel of the
 * other builder of the family. */
TEST(builder_kernel) { run_case("builder_kernel", "found 1 variant(s) still carrying 1 unit(s)"); }
/* Not drift: error-message text reworded in one variant; a rewrite that follows a parameter
 * only one variant has (num_decodes); a statement deleted whose last-line fragment recurs in
 * an unrelated condition of another variant; loop bodies moved into a helper the change adds. */
TEST(not_drift_units) { run_case("not_drift_units", "nothing found"); }

TEST(not_drift_call_moved_into_new_helper)
{
    run_case("not_drift_call_moved_into_new_helper", "found 1 variant(s) still carrying 1 unit(s)");
}
TEST(dropped_from_renested_path)
{
    run_case("dropped_from_renested_path", "found 1 variant(s) still carrying 1 unit(s)");
}
TEST(annotation_names_unimported)
{
    run_case("annotation_names_unimported", "found 2 variant(s) still carrying 2 unit(s)");
}
/* Rewrites that only spell the same code another way are not drift: a call's trailing
 * defaults written out as zeros, a float literal given a suffix or another spelling, a comment
 * added, FlyDSL's `T.index` / `T.f32` for the MLIR type classes, `fx.Int64(x).ir_value()` for
 * `arith.index_cast(T.i64, x)`. A template argument that is not zero, a real change to an
 * offset and a cast whose width changed (`T.i32` to `fx.Int64`), in the same functions, are
 * still reported. */
TEST(not_drift_respelled) { run_case("not_drift_respelled", "found 3 variant(s) still carrying 4 unit(s)"); }

/* Functions meant to differ: a method now routed through a registered op whose wrapper runs
 * the out-of-place method that still makes the direct call (the other out-of-place method
 * keeps its own); an entry point that passes a parameter only its callee gained (the
 * blockwise callee has none); a launcher that now picks its kernel into a local; a kernel-id
 * predicate given a range named for it alone; two kernels whose names share only a letter and
 * `_kernel`; an MFMA operand list hoisted into a local. Still reported beside them: a variant calling
 * the same extended callee without the new argument, and a grid size changed in one
 * launcher only. */
TEST(not_drift_routed) { run_case("not_drift_routed", "found 2 variant(s) still carrying 2 unit(s)"); }

/* Parameters renamed throughout the preshuffle entry (`x` to `x_fp4`) are not a rewrite of
 * it, and a variant whose only edit is an import alias applied to its kernel launch was not
 * looked at: the split-K partials the preshuffle entry now zeroes are still reported on the
 * plain entry. The split-K sizing it now reads from its own `K_elems` is its own value. */
TEST(renamed_not_rewritten)
{
    run_case("renamed_not_rewritten", "found 1 variant(s) still carrying 1 unit(s)");
}

/* One fix applied at the fifteen loads of a long kernel (a 64-bit KV offset) loses many units
 * but a small share of the kernel: a fix, not a rewrite, so the variable-context kernel that
 * kept the 32-bit offsets is reported. */
TEST(sweep_fix_long_kernel)
{
    run_case("sweep_fix_long_kernel", "found 1 variant(s) still carrying 15 unit(s)");
}

/* A 64-bit index fixed in the 256n all-reduce kernel: the 1024n kernel, launched, is reported;
 * the 512n kernel, which nothing in the tree launches, is dead code and is not (a macro
 * pasting `_naive` onto a name builds other names, not this one). */
TEST(dead_variant) { run_case("dead_variant", "found 1 variant(s) still carrying 1 unit(s)"); }

/* A call a formatter joined onto one line (its first line and, in a kernel launch, its keyword
 * argument lines lost), and one it split over several lines with a trailing comma, are the
 * same statements: not drift, though the variants keep the other wrapping. A real change to an
 * offset in the same file is still reported. */
TEST(not_drift_rewrapped) { run_case("not_drift_rewrapped", "found 1 variant(s) still carrying 1 unit(s)"); }

/* A local split in two with the residual's offset keeping the old value under a new name
 * (`token_offset` now `residual_offset`, bound to the same code): the load through it is the
 * same code, not drift. The block index changed in the same kernel is still reported. */
TEST(not_drift_local_renamed)
{
    run_case("not_drift_local_renamed", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A parameter made optional (given a default, moved to the end) in the single-page entry is
 * that entry's own API, not drift; the clamp added beside it is still reported on the general
 * entry. */
TEST(not_drift_param_optional)
{
    run_case("not_drift_param_optional", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A 64-bit row index fixed in the stage-1 Triton kernel: the stage-2 kernel, which the
 * launcher imports, is reported, and so is a private kernel named only in a string of its
 * module (reachable by getattr); the private single-pass kernel nothing names is dead code. */
TEST(dead_private_kernel)
{
    run_case("dead_private_kernel", "found 2 variant(s) still carrying 2 unit(s)");
}

/* A stage-2 builder taught a new output mode (`need_fp8_out = out_s == "fp8"`, a value the
 * a16w4 builder never tests out_s against): the lines rewritten to follow the flag, in the
 * builder and in the kernel it emits, serve a mode only it has, not drift. The 64-bit byte
 * count fixed beside them is still reported on the a16w4 kernel. */
TEST(not_drift_new_mode) { run_case("not_drift_new_mode", "found 1 variant(s) still carrying 1 unit(s)"); }
/* The same change where the a16w4 builder already accepts "fp8" for out_s: it knows the mode
 * and still sizes its output for two-byte types, so every rewritten line is reported. */
TEST(new_mode_variant_accepts)
{
    run_case("new_mode_variant_accepts", "found 2 variant(s) still carrying 3 unit(s)");
}

/* Stage 1 learns a gather mode: its scale-row count now branches on `cfg.grouped_gather_m`,
 * an attribute it never read before and stage 2 never reads, so the rewritten count serves a
 * mode only stage 1 has. The packing factor it also changed (`cfg.k_pack`, read outside any
 * branch) is still reported on stage 2. */
TEST(not_drift_branch_attribute)
{
    run_case("not_drift_branch_attribute", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A local whose name starts with `if` (`if_rows = cfg.padded_max_m`) is an assignment, not a
 * branch: the attribute it reads is no switch, and the padded row count stage 2 still lacks is
 * reported. */
TEST(assignment_named_like_if)
{
    run_case("assignment_named_like_if", "found 1 variant(s) still carrying 1 unit(s)");
}

/* Rewrites that are the changed function's own choice: a wait count re-chosen in the
 * compute-bound kernel, a scale product regrouped in the preshuffle kernel, a 64-bit widening
 * dropped from the decode kernel, gfx950 added to the forward check. None is asked of the
 * variant. Still reported beside them: a loop bound the compute-bound kernel now takes from
 * NUM_BUFFERS (a new loop it gained elsewhere, alike but for its numbers, is no rewrite of
 * it), a sum regrouped so the arithmetic changes (`(a + b) * 2`), a widening the decode
 * kernel gained, and gfx950 added to the decode path together with a new condition. */
TEST(not_drift_own_choice) { run_case("not_drift_own_choice", "found 5 variant(s) still carrying 5 unit(s)"); }

/* A cache policy added to a memory access is the changed kernel's own choice: a non-temporal
 * template argument on the silu kernel's loads (`GROUP_NT`), `cache_modifier=".cg"` on one
 * Triton kernel's load and `eviction_policy=` on its store are not asked of their variants.
 * Still reported: the bound the silu kernel's inner loop gained, a `.cv` load (a coherent
 * read: what the load sees, not how fast) and a store whose value gained a cast beside its
 * policy. */
/* A line that stops reading a local the change bound anew follows that local: the decode
 * kernel builds its scale descriptor only under a new `if X_SCALE_TDM:`, so its buffer shape
 * no longer reads the descriptor (aiter#4470's shape). The prefill kernel builds its own
 * descriptor and is not asked; the persistent kernel is handed its descriptor by its caller
 * and is. The row offset the decode kernel widened, without touching the local it read
 * before, is reported on both. */
TEST(not_drift_follows_rebound_local)
{
    run_case("not_drift_follows_rebound_local", "found 2 variant(s) still carrying 3 unit(s)");
}

/* Code for a toolchain version retired: the v2 reduce kernel drops its `else:` path for
 * Triton before 3.6 and its `if not TRITON_VERSION_GE_3_6_0:` permute, keeping the other
 * layout (aiter#2692's shape). The ps kernel, which never had the test, wrote its own layout
 * and is not asked. Still reported: the old-Triton path of the split-k kernel, which keeps
 * its version test and widened that path's offset. */
TEST(not_drift_version_branch_retired)
{
    run_case("not_drift_version_branch_retired", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A value reshaped for the changed function's own callee: forward_triton now hands its rope
 * kernels 2-D views of the cos/sin caches (aiter#2657's shape). forward_hip feeds the same
 * tables to another module's kernel, imported under the same name `ops` with the same last
 * name, and is not asked; forward_triton_decode feeds the same Triton kernel and is. ALiBi
 * slopes scaled on their way to a view are other values, and forward_hip is asked of them. */
TEST(not_drift_reshaped_for_own_callee)
{
    run_case("not_drift_reshaped_for_own_callee", "found 2 variant(s) still carrying 2 unit(s)");
}

TEST(not_drift_cache_policy) { run_case("not_drift_cache_policy", "found 2 variant(s) still carrying 3 unit(s)"); }

/* A kernel body moved into a __device__ function that now takes the block index as a
 * parameter (called through its template arguments, `rows_norm_impl<T, num_rows>(...,
 * blockIdx.x)`): the row offset still runs, through the callee, with the value the kernel
 * passes, so the scale kernel's `num_rows * blockIdx.x` is not drift from it. The 64-bit row
 * offset the bias kernel gained is, and is reported on the scale kernel. */
TEST(not_drift_moved_into_device_fn)
{
    run_case("not_drift_moved_into_device_fn", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A fake (meta) op whose only edits give it the real op's new parameter (and a comment beside
 * it) mirrors the real op, and its checks were not looked at: the fake-tensor function still
 * rejecting the layout the real one now accepts is reported (aiter#3418's shape). The meta
 * function, whose body was edited too, was looked at; the paged function, no fake, whose only
 * edit is the same parameter, keeps its own checks. Neither is reported. */
TEST(fake_op_signature_mirrored)
{
    run_case("fake_op_signature_mirrored", "found 1 variant(s) still carrying 1 unit(s)");
}

/* A rewrite that reads a value the changed function now computes itself, in a local the
 * change binds and nothing new feeds: split-K sized from `K_elems = 2 * K` in the preshuffle
 * entry, a HIP loop bound taken from `constexpr int OUT_PER_LANE`, a layout check extended by
 * the new `is_vec_k_col_v`. The plain entry, the experimental kernel and the paged op keep
 * their own values: not reported. Still reported: the norm wrapper that reads rows through the
 * new helper `_as_rows` (a fix the other wrapper could share), the fake-tensor op, which
 * mirrors the real op's checks and still rejects the new layout, the prefill offsets, whose
 * decode twin now reads a row widened to 64 bits in a new local (`row64`), and the prefill
 * load, whose decode twin is now masked by a new local bounds test (`in_rows = offs < n`).
 * A kernel nested in a builder reads its builder's locals: stage 2's body sized from the new
 * `lds_stride_bytes` its builder binds is its own value (stage 1's body not reported), while
 * the body sized from `padded_k_bytes`, which a new helper computes, is still asked of stage 1. */
TEST(not_drift_own_value) { run_case("not_drift_own_value", "found 5 variant(s) still carrying 5 unit(s)"); }

/* An argument means nothing outside its call: the atomic-add epilogue's address slice is
 * rewritten, and the store epilogue, which passes the same slice text to another function
 * (`store_vec8`, not `atomic_add_vec8`), is not asked to follow. The ksplit epilogue, which
 * passes it to the same function, is reported (aiter#3582's shape). */
TEST(not_drift_other_call) { run_case("not_drift_other_call", "found 1 variant(s) still carrying 1 unit(s)"); }
/* A check the stage-1 entry dropped (moved into a new helper that first clamps the chunk), still
 * in the ragged entry between an assignment to `cfg` and one to `grid` whose values differ
 * from stage 1's: the same bindings around it anchor it (aiter#3617's shape). The varlen
 * entry's copy, followed by other code, is not anchored and not reported; nor is an index
 * computation (not a check) between the same bindings with other values (`coord = ...`,
 * `idx_bytes = ...`), rewritten in the mxfp4 loader only. */
TEST(carried_between_same_bindings)
{
    run_case("carried_between_same_bindings", "found 1 variant(s) still carrying 1 unit(s)");
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(hip_3841),      UNIT_CASE(triton_2d_3d),  UNIT_CASE(methods),
        UNIT_CASE(not_drift),     UNIT_CASE(filters),       UNIT_CASE(param_dropped),
        UNIT_CASE(kwarg_rewritten), UNIT_CASE(tuple_unpack), UNIT_CASE(asm_twin),
        UNIT_CASE(builder_kernel), UNIT_CASE(not_drift_units), UNIT_CASE(not_drift_respelled), UNIT_CASE(annotation_names_unimported), UNIT_CASE(dropped_from_renested_path), UNIT_CASE(not_drift_call_moved_into_new_helper),
        UNIT_CASE(not_drift_routed), UNIT_CASE(renamed_not_rewritten),
        UNIT_CASE(sweep_fix_long_kernel), UNIT_CASE(dead_variant), UNIT_CASE(not_drift_rewrapped),
        UNIT_CASE(not_drift_local_renamed), UNIT_CASE(not_drift_param_optional), UNIT_CASE(dead_private_kernel), UNIT_CASE(not_drift_new_mode), UNIT_CASE(new_mode_variant_accepts), UNIT_CASE(not_drift_branch_attribute), UNIT_CASE(assignment_named_like_if),
        UNIT_CASE(not_drift_own_choice), UNIT_CASE(not_drift_cache_policy), UNIT_CASE(not_drift_reshaped_for_own_callee), UNIT_CASE(not_drift_version_branch_retired), UNIT_CASE(not_drift_follows_rebound_local), UNIT_CASE(not_drift_moved_into_device_fn),
        UNIT_CASE(fake_op_signature_mirrored), UNIT_CASE(not_drift_own_value),
        UNIT_CASE(not_drift_other_call), UNIT_CASE(carried_between_same_bindings),
    };
    int rc = unit_main("siblings", cases, sizeof cases / sizeof cases[0]);
    return rc;
}
