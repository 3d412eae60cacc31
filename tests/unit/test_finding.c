/* Unit tests for the finding model's exhibits (engine/finding.h): building each kind, the row
 * and length caps, cleaning of text from the code (invalid UTF-8, control characters), a
 * highlight kept in view on a long line, and deep copies that share nothing with the source. */
#include <string.h>

#include "engine/finding.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* A finding with one exhibit of each kind, as a collector would build them. */
static void build(finding_list *l)
{
    finding *f = findings_add(l, "D11", SEV_WARNING, "csrc/k.h", 6, "layout shifts");
    finding_add_related(f, "csrc/k.h", 11, "pinned here");
    exhibit *t = finding_add_exhibit(f, EXHIBIT_TABLE, "`%s` in the base and the head", "kargs");
    exhibit_columns(t, 3, (const char *const[]){"field", "base", "head"});
    exhibit_add_cells(t, (const char *const[]){"q_ptr", "0", "0"});
    exhibit_row_mark(exhibit_add_cells(t, (const char *const[]){"out_ptr", "8", "16"}), "shifted +%d", 8);
    exhibit *d = finding_add_exhibit(f, EXHIBIT_DIFF, "in `row_softmax`");
    exhibit_add_line(d, "-", "a.py", 17, "assert x.is_contiguous()");
    exhibit *c = finding_add_exhibit(f, EXHIBIT_CODE, "this call");
    exhibit_add_code(c, "g.py", 5, "r = create_buffer_resource(src)", 27, 30);
}

TEST(builds_each_kind)
{
    finding_list l = {0};
    build(&l);
    finding *f = &l.items[0];
    CHECK_INT(f->nexhibits, 3);
    exhibit *t = &f->exhibits[0];
    CHECK_INT(t->kind, EXHIBIT_TABLE);
    CHECK_STR(t->title, "`kargs` in the base and the head");
    CHECK_INT(t->ncolumns, 3);
    CHECK_STR(t->columns[2], "head");
    CHECK_INT(t->nrows, 2);
    CHECK_STR(t->rows[1].cells[0], "out_ptr");
    CHECK(t->rows[0].mark == NULL);
    CHECK_STR(t->rows[1].mark, "shifted +8");
    CHECK_STR(f->exhibits[1].rows[0].label, "-");
    CHECK_STR(f->exhibits[1].rows[0].path, "a.py");
    CHECK_INT(f->exhibits[1].rows[0].line, 17);
    exhibit_row *c = &f->exhibits[2].rows[0];
    CHECK_INT(c->hl_start, 27);
    CHECK_INT(c->hl_end, 30);
    CHECK_STR(exhibit_kind_name(EXHIBIT_CHAIN), "chain");
    findings_clear(&l);
}

TEST(copy_is_deep)
{
    finding_list l = {0}, m = {0};
    build(&l);
    finding *copy = findings_copy(&m, &l.items[0]);
    /* the source goes away entirely: the copy must still hold every string */
    findings_clear(&l);
    CHECK_STR(copy->rule_id, "D11");
    CHECK_STR(copy->related[0].message, "pinned here");
    CHECK_INT(copy->nexhibits, 3);
    CHECK_STR(copy->exhibits[0].columns[1], "base");
    CHECK_STR(copy->exhibits[0].rows[1].mark, "shifted +8");
    CHECK_STR(copy->exhibits[0].rows[1].cells[2], "16");
    CHECK_STR(copy->exhibits[1].rows[0].text, "assert x.is_contiguous()");
    CHECK_STR(copy->exhibits[2].rows[0].path, "g.py");
    /* and it grows on its own */
    exhibit_add_line(&copy->exhibits[1], "+", "a.py", 17, "assert x.is_contiguous() or x.numel() == 0");
    CHECK_INT(copy->exhibits[1].nrows, 2);
    findings_clear(&m);
}

TEST(take_moves_in_order_and_empties_the_source)
{
    finding_list dst = {0}, src = {0};
    findings_add(&dst, "A1", SEV_INFORMATION, "a.py", 3, "first");
    build(&src);
    findings_add(&src, "B8", SEV_WARNING, "k.py", 9, "second");
    size_t moved = src.n;
    findings_take(&dst, &src);
    CHECK_INT(src.n, 0);
    CHECK(src.items == NULL);
    CHECK_INT(dst.n, 1 + moved);
    CHECK_STR(dst.items[0].message, "first");
    CHECK_STR(dst.items[1].rule_id, "D11");
    CHECK_INT(dst.items[1].nexhibits, 3);
    CHECK_STR(dst.items[dst.n - 1].message, "second");
    /* taking from an empty list changes nothing */
    findings_take(&dst, &src);
    CHECK_INT(dst.n, 1 + moved);
    findings_clear(&dst); /* each finding freed once: the sanitizer build would see a double */
}

TEST(rows_are_capped_and_counted)
{
    finding_list l = {0};
    finding *f = findings_add(&l, "D11", SEV_WARNING, "k.h", 1, "m");
    exhibit *t = finding_add_exhibit(f, EXHIBIT_TABLE, "fields");
    exhibit_columns(t, 1, (const char *const[]){"field"});
    for (int i = 0; i < EXHIBIT_MAX_ROWS + 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        exhibit_row_mark(exhibit_add_cells(t, (const char *const[]){name}), "x"); /* NULL past the cap */
    }
    CHECK_INT(t->nrows, EXHIBIT_MAX_ROWS);
    CHECK_INT(t->nomitted, 5);
    findings_clear(&l);
}

TEST(text_is_cleaned_and_cut)
{
    finding_list l = {0};
    finding *f = findings_add(&l, "D4", SEV_WARNING, "a.py", 1, "m");
    exhibit *d = finding_add_exhibit(f, EXHIBIT_DIFF, "bad \xC3(title)");
    exhibit_add_line(d, "-", NULL, 7, "assert\tx\x01 > 0, \"caf\xE9\"");
    CHECK_STR(d->title, "bad \xEF\xBF\xBD(title)");
    CHECK_STR(d->rows[0].text, "assert x  > 0, \"caf\xEF\xBF\xBD\"");
    CHECK(d->rows[0].path == NULL);
    CHECK_INT(d->rows[0].line, 0); /* no place, no line */
    char longline[600];
    memset(longline, 'a', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    longline[EXHIBIT_TEXT_MAX - 1] = '\xC3'; /* a two-byte character across the cut */
    longline[EXHIBIT_TEXT_MAX] = '\xA9';
    exhibit_row *r = exhibit_add_line(d, "+", "a.py", 2, longline);
    size_t n = strlen(r->text);
    CHECK(n <= EXHIBIT_TEXT_MAX + 3);
    CHECK(strcmp(r->text + n - 3, "\xE2\x80\xA6") == 0);
    CHECK_INT(n, EXHIBIT_TEXT_MAX - 1 + 3); /* the character that would not fit is left out */
    findings_clear(&l);
}

TEST(highlight_stays_in_view_on_a_long_line)
{
    finding_list l = {0};
    finding *f = findings_add(&l, "B8", SEV_WARNING, "g.py", 1, "m");
    exhibit *c = finding_add_exhibit(f, EXHIBIT_CODE, "this call");
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 60; i++)
        sb_adds(&sb, "pad_");
    size_t at = sb.len;
    sb_adds(&sb, "create_buffer_resource(src)");
    exhibit_row *r = exhibit_add_code(c, "g.py", 3, sb.buf, at + 23, at + 26);
    CHECK(strncmp(r->text, "\xE2\x80\xA6", 3) == 0);
    CHECK(r->hl_end > r->hl_start);
    CHECK(strncmp(r->text + r->hl_start, "src", 3) == 0);
    CHECK_INT(r->hl_end - r->hl_start, 3);
    /* a span past the end of the text is clamped to it */
    exhibit_row *r2 = exhibit_add_code(c, "g.py", 4, "f(x)", 2, 99);
    CHECK_INT(r2->hl_start, 2);
    CHECK_INT(r2->hl_end, 4);
    sb_free(&sb);
    findings_clear(&l);
}

UNIT_MAIN("finding", UNIT_CASE(builds_each_kind), UNIT_CASE(copy_is_deep),
          UNIT_CASE(take_moves_in_order_and_empties_the_source),
          UNIT_CASE(rows_are_capped_and_counted), UNIT_CASE(text_is_cleaned_and_cut),
          UNIT_CASE(highlight_stays_in_view_on_a_long_line))
