/* Unit tests of the derivation (engine/derive.c) beyond byte parity, which the parity corpus
 * covers: the first triggering line recorded per file, the fail-open statuses, and the same
 * answer from the raw diff and from the change model. */
#include "engine/derive.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static const char DIFF[] =
    "diff --git a/aiter/ops/triton/mm.py b/aiter/ops/triton/mm.py\n"
    "--- a/aiter/ops/triton/mm.py\n"
    "+++ b/aiter/ops/triton/mm.py\n"
    "@@ -10,3 +10,4 @@ def _mm_kernel(a_ptr, b_ptr):\n"
    "     pid = tl.program_id(0)\n"
    "-    a = tl.load(a_ptr, mask=m, other=0.0)\n"
    "+    a = tl.load(a_ptr)\n"
    "+    acc = tl.zeros((16, 16), dtype=tl.float32)\n"
    "     return a\n"
    "diff --git a/csrc/kernels/mm.cu b/csrc/kernels/mm.cu\n"
    "--- a/csrc/kernels/mm.cu\n"
    "+++ b/csrc/kernels/mm.cu\n"
    "@@ -40,2 +40,2 @@\n"
    " int a;\n"
    "-TORCH_CHECK(n % 16 == 0);\n"
    "+int b;\n";

static const derived_family *family(const derive_result *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->fams[i].name, name) == 0)
            return &r->fams[i];
    return NULL;
}

static int site_line(const derived_family *f, const char *path)
{
    for (size_t i = 0; f && i < f->nsites; i++)
        if (strcmp(f->sites[i].path, path) == 0)
            return f->sites[i].line;
    return -1;
}

TEST(first_triggering_line_per_file)
{
    derive_table *families = derive_table_load();
    CHECK(derive_table_error(families) == NULL);
    change *c = diff_parse(DIFF, strlen(DIFF), NULL);
    derive_result r;
    derive_run(families, c, "", &r);
    CHECK_INT(r.status, DERIVE_OK);
    const derived_family *mask = family(&r, "triton-mask-bounds");
    CHECK(mask != NULL);
    CHECK_INT(site_line(mask, "aiter/ops/triton/mm.py"), 11);
    const derived_family *acc = family(&r, "triton-accum-prec");
    CHECK_INT(site_line(acc, "aiter/ops/triton/mm.py"), 12);
    const derived_family *inv = family(&r, "invariant-removed");
    CHECK_INT(site_line(inv, "csrc/kernels/mm.cu"), 41);
    CHECK_INT(site_line(inv, "aiter/ops/triton/mm.py"), -1);
    const derived_family *mk = family(&r, "modified-kernel");
    CHECK_INT(site_line(mk, "csrc/kernels/mm.cu"), 41);
    CHECK_INT(site_line(mk, "aiter/ops/triton/mm.py"), 11);
    derive_result_clear(&r);
    change_free(c);
    derive_table_free(families);
}

TEST(model_and_raw_agree)
{
    derive_table *families = derive_table_load();
    CHECK(derive_table_error(families) == NULL);
    change *c = diff_parse(DIFF, strlen(DIFF), NULL);
    derive_result a, b;
    derive_run(families, c, "perf: fuse", &a);
    free(c->raw_diff); /* view the same change through its model, as repository mode does */
    c->raw_diff = NULL;
    derive_run(families, c, "perf: fuse", &b);
    strbuf x, y;
    sb_init(&x);
    sb_init(&y);
    derive_format(&a, &x);
    derive_format(&b, &y);
    CHECK_STR(x.buf, y.buf);
    CHECK(strstr(x.buf, "[perf                ] P1 P2 P3 P5 P6\n") != NULL);
    sb_free(&x);
    sb_free(&y);
    derive_result_clear(&a);
    derive_result_clear(&b);
    change_free(c);
    derive_table_free(families);
}

TEST(fail_open_lines)
{
    derive_table *families = derive_table_load();
    CHECK(derive_table_error(families) == NULL);
    derive_result r = {0};
    strbuf sb;
    sb_init(&sb);
    r.status = DERIVE_FAILED;
    derive_format(&r, &sb);
    CHECK(str_starts(sb.buf, "    [derivation-failed     ] A1 A2 A3 "));
    CHECK(str_ends(sb.buf, " D11 HK12 HK12b STEP4\n"));
    sb_reset(&sb);
    r.status = DERIVE_TOO_LARGE;
    derive_format(&r, &sb);
    CHECK(str_starts(sb.buf, "    [diff-too-large        ] A1 "));
    sb_free(&sb);
    const char *body = "{\"message\":\"Sorry, the diff exceeded the maximum number of lines (20000)\"}";
    change *c = diff_parse(body, strlen(body), NULL);
    derive_run(families, c, "", &r);
    CHECK_INT(r.status, DERIVE_TOO_LARGE);
    derive_result_clear(&r);
    change_free(c);
    derive_table_free(families);
}

UNIT_MAIN("derive", UNIT_CASE(first_triggering_line_per_file), UNIT_CASE(model_and_raw_agree),
          UNIT_CASE(fail_open_lines))
