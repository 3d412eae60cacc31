/* Unit tests for the exhibit renderers (lsp/exhibit_render.h), exact renderings of each kind:
 * Markdown at each level of detail (a table with its marked rows and their places as links, a
 * fenced diff with its places, aligned pair lines, a caret line under a highlighted span, a
 * numbered chain), text from the code that would otherwise start Markdown of its own (pipes,
 * backticks, fences), and the aligned plain text of the same exhibits. */
#include <string.h>

#include "engine/finding.h"
#include "engine/util.h"
#include "lsp/exhibit_render.h"
#include "tests/unit/unit.h"

/* Links as the editor makes them (a file: URI with the line). */
static char *file_link(void *ctx, const char *path, int line)
{
    return xasprintf("%s/%s#L%d", (const char *)ctx, path, line);
}

/* A struct's fields and one pin, as the struct ABI collector shows them. */
static finding *layout(finding_list *l)
{
    finding *f = findings_add(l, "D11", SEV_WARNING, "csrc/k.h", 6, "m");
    exhibit *t = finding_add_exhibit(f, EXHIBIT_TABLE, "`paged_kargs` in the base and the head");
    exhibit_columns(t, 4, (const char *const[]){"field", "type", "base", "head"});
    exhibit_add_cells(t, (const char *const[]){"q_ptr", "const void*", "0", "0"});
    exhibit_row_mark(exhibit_add_cells(t, (const char *const[]){"k_scale_ptr", "const void*", "", "8"}), "new");
    exhibit_row_mark(exhibit_add_cells(t, (const char *const[]){"out_ptr", "void*", "8", "16"}), "shifted +8");
    exhibit *p = finding_add_exhibit(f, EXHIBIT_TABLE, "pins");
    exhibit_columns(p, 3, (const char *const[]){"pin", "asserts", "head"});
    exhibit_row *r = exhibit_add_cells(p, (const char *const[]){"sizeof(paged_kargs)", "24", "32"});
    exhibit_row_mark(r, "breaks");
    exhibit_row_place(r, "csrc/k.h", 11);
    return f;
}

TEST(table_markdown_full_and_compact)
{
    finding_list l = {0};
    finding *f = layout(&l);
    strbuf md;
    sb_init(&md);
    CHECK_INT(exhibit_markdown(&md, f->exhibits, f->nexhibits, EXHIBIT_FULL, file_link, "file:///r"), 0);
    CHECK_STR(md.buf,
              "\n\n**`paged_kargs` in the base and the head**\n\n"
              "| field | type | base | head |   |\n"
              "|---|---|---|---|---|\n"
              "| q\\_ptr | const void\\* | 0 | 0 |  |\n"
              "| k\\_scale\\_ptr | const void\\* |  | 8 | **new** |\n"
              "| out\\_ptr | void\\* | 8 | 16 | **shifted +8** |\n\n"
              "**pins**\n\n"
              "| pin | asserts | head |   | at |\n"
              "|---|---|---|---|---|\n"
              "| sizeof(paged\\_kargs) | 24 | 32 | **breaks** | [csrc/k.h:11](file:///r/csrc/k.h#L11) |");
    sb_reset(&md);
    CHECK_INT(exhibit_markdown(&md, f->exhibits, 1, EXHIBIT_COMPACT, NULL, NULL), 1);
    CHECK_STR(md.buf,
              "\n\n**`paged_kargs` in the base and the head**\n\n"
              "| field | type | base | head |   |\n"
              "|---|---|---|---|---|\n"
              "| k\\_scale\\_ptr | const void\\* |  | 8 | **new** |\n"
              "| out\\_ptr | void\\* | 8 | 16 | **shifted +8** |\n\n"
              "*1 more row not shown*");
    sb_reset(&md);
    CHECK_INT(exhibit_markdown(&md, f->exhibits, f->nexhibits, EXHIBIT_TITLES, NULL, NULL), 2);
    CHECK_STR(md.buf, "\n\n- `paged_kargs` in the base and the head\n- pins");
    sb_free(&md);
    findings_clear(&l);
}

TEST(lines_markdown)
{
    finding_list l = {0};
    finding *f = findings_add(&l, "X", SEV_WARNING, "a.py", 1, "m");
    exhibit *d = finding_add_exhibit(f, EXHIBIT_DIFF, "deleted from `row_softmax`");
    exhibit_add_line(d, "-", "a.py", 17, "assert x.is_contiguous()");
    exhibit_add_line(d, "+", "a.py", 30, "assert x.stride(-1) == 1");
    exhibit *p = finding_add_exhibit(f, EXHIBIT_PAIR, "`fwd` and its variant");
    exhibit_add_line(p, "before", "a.py", 12, "y = x * scale");
    exhibit_add_line(p, "after", "a.py", 12, "y = x * scale.float()");
    exhibit_add_line(p, "variant", "b.py", 40, "y = x * scale");
    exhibit *c = finding_add_exhibit(f, EXHIBIT_CODE, "this call");
    exhibit_add_code(c, "g.py", 5, "r = make(\xC3\xA9, src)", 13, 16);
    exhibit *x = finding_add_exhibit(f, EXHIBIT_CODE, "a bounded call");
    exhibit_add_code(x, NULL, 0, "make(src, max_size=False)", 10, 24);
    exhibit *ch = finding_add_exhibit(f, EXHIBIT_CHAIN, "to the pointer");
    exhibit_add_line(ch, "product", "k.py", 20, "pid * stride_m");
    exhibit_add_line(ch, "parameter", "k.py", 5, "stride_m");
    strbuf md;
    sb_init(&md);
    CHECK_INT(exhibit_markdown(&md, f->exhibits, f->nexhibits, EXHIBIT_COMPACT, file_link, "L"), 0);
    CHECK_STR(md.buf,
              "\n\n**deleted from `row_softmax`**\n\n"
              "```diff\n- assert x.is_contiguous()\n+ assert x.stride(-1) == 1\n```\n\n"
              "deleted: [a.py:17](L/a.py#L17) · added: [a.py:30](L/a.py#L30)"
              "\n\n**`fwd` and its variant**\n\n"
              "```\nbefore   y = x * scale\nafter    y = x * scale.float()\nvariant  y = x * scale\n```\n\n"
              "before, after: [a.py:12](L/a.py#L12) · variant: [b.py:40](L/b.py#L40)"
              "\n\n**this call**\n\n"
              "```\nr = make(\xC3\xA9, src)\n            ^^^\n```\n\n"
              "at [g.py:5](L/g.py#L5)"
              "\n\n**a bounded call**\n\n"
              "```\nmake(src, max_size=False)\n          ^^^^^^^^^^^^^^\n```"
              "\n\n**to the pointer**\n\n"
              "1. **product** — [k.py:20](L/k.py#L20): `pid * stride_m`\n"
              "2. **parameter** — [k.py:5](L/k.py#L5): `stride_m`");
    sb_free(&md);
    findings_clear(&l);
}

TEST(code_text_cannot_start_markdown)
{
    finding_list l = {0};
    finding *f = findings_add(&l, "X", SEV_WARNING, "a.py", 1, "m");
    exhibit *t = finding_add_exhibit(f, EXHIBIT_TABLE, "t");
    exhibit_columns(t, 1, (const char *const[]){"a|b"});
    exhibit_add_cells(t, (const char *const[]){"x | y <b>[z](u)"});
    exhibit *d = finding_add_exhibit(f, EXHIBIT_DIFF, "d");
    exhibit_add_line(d, "-", NULL, 0, "s = \"```\"");
    exhibit *ch = finding_add_exhibit(f, EXHIBIT_CHAIN, "c");
    exhibit_add_line(ch, "a*b", NULL, 0, "`x` + y");
    strbuf md;
    sb_init(&md);
    exhibit_markdown(&md, f->exhibits, f->nexhibits, EXHIBIT_FULL, file_link, "L");
    CHECK_STR(md.buf,
              "\n\n**t**\n\n| a\\|b |\n|---|\n| x \\| y \\<b\\>\\[z\\](u) |"
              "\n\n**d**\n\n````diff\n- s = \"```\"\n````"
              "\n\n**c**\n\n1. **a\\*b**: `` `x` + y ``");
    sb_free(&md);
    findings_clear(&l);
}

TEST(plain_text_aligned)
{
    finding_list l = {0};
    finding *f = layout(&l);
    exhibit *d = finding_add_exhibit(f, EXHIBIT_DIFF, "deleted from `row_softmax`");
    exhibit_add_line(d, "-", "a.py", 17, "assert x.is_contiguous()");
    exhibit *c = finding_add_exhibit(f, EXHIBIT_CODE, "this call");
    exhibit_add_code(c, "g.py", 5, "r = make(src)", 9, 12);
    exhibit *ch = finding_add_exhibit(f, EXHIBIT_CHAIN, "to the pointer");
    exhibit_add_line(ch, "product", "k.py", 20, "pid * stride_m");
    exhibit_add_line(ch, "run-time parameter", "k.py", 5, "stride_m");
    strbuf out;
    sb_init(&out);
    exhibit_text(&out, f->exhibits, f->nexhibits, 4);
    CHECK_STR(out.buf,
              "    `paged_kargs` in the base and the head:\n"
              "        field        type         base  head\n"
              "        q_ptr        const void*  0     0\n"
              "      * k_scale_ptr  const void*        8     new\n"
              "      * out_ptr      void*        8     16    shifted +8\n"
              "    pins:\n"
              "        pin                  asserts  head  at\n"
              "      * sizeof(paged_kargs)  24       32    csrc/k.h:11  breaks\n"
              "    deleted from `row_softmax`:\n"
              "      - a.py:17  assert x.is_contiguous()\n"
              "    this call:\n"
              "      g.py:5: r = make(src)\n"
              "                       ^^^\n"
              "    to the pointer:\n"
              "      1. product             k.py:20  pid * stride_m\n"
              "      2. run-time parameter  k.py:5   stride_m\n");
    sb_free(&out);
    findings_clear(&l);
}

TEST(places_shown)
{
    finding_list l = {0};
    finding *f = layout(&l);
    CHECK(exhibit_shows_place(f->exhibits, f->nexhibits, "csrc/k.h", 11));
    CHECK(!exhibit_shows_place(f->exhibits, f->nexhibits, "csrc/k.h", 12));
    CHECK_INT(exhibit_width("\xC3\xA9t\xC3\xA9", SIZE_MAX), 3);
    findings_clear(&l);
}

UNIT_MAIN("exhibit_render", UNIT_CASE(table_markdown_full_and_compact), UNIT_CASE(lines_markdown),
          UNIT_CASE(code_text_cannot_start_markdown), UNIT_CASE(plain_text_aligned),
          UNIT_CASE(places_shown))
