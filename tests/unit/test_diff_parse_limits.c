/* Unit tests of the diff reader's limits (engine/diff_parse.c): hunk headers whose line
 * numbers sit at or beyond INT_MAX are refused with a note instead of overflowing (this test
 * runs under UBSan, which aborts on signed overflow), the rest of the diff is still read, and
 * the derivation runs over what was read. */
#include "engine/derive.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* A diff with one hunk header, then a sound second file. */
static change *parse_with(const char *hunk_header, char **cause)
{
    char *text = xasprintf("diff --git a/csrc/k.cu b/csrc/k.cu\n--- a/csrc/k.cu\n+++ b/csrc/k.cu\n"
                           "%s\n a\n-b\n+B\n c\n"
                           "diff --git a/csrc/ok.cu b/csrc/ok.cu\n--- a/csrc/ok.cu\n+++ b/csrc/ok.cu\n"
                           "@@ -3,2 +3,2 @@\n-x\n+y\n z\n",
                           hunk_header);
    change *c = diff_parse(text, strlen(text), cause);
    free(text);
    return c;
}

/* True when a note of c contains needle. */
static bool noted(const change *c, const char *needle)
{
    for (size_t i = 0; i < c->nnotes; i++)
        if (strstr(c->notes[i], needle))
            return true;
    return false;
}

TEST(hunks_near_int_max_are_refused_with_a_note)
{
    static const char *const headers[] = {
        "@@ -2147483647,3 +2147483647,3 @@",
        "@@ -2147483647 +2147483647 @@",
        "@@ -1,3 +2147483647,0 @@",
        "@@ -2147483646,3 +1,3 @@",
        "@@ -99999999999999999999,3 +1,3 @@",
        "@@ -1,3 +1,4294967298 @@",
        "@@ -1073741823,3 +1073741823,3 @@",
    };
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
        char *cause = NULL;
        change *c = parse_with(headers[i], &cause);
        CHECK(cause == NULL);
        if (!noted(c, "malformed hunk header"))
            fprintf(stderr, "  no note for %s\n", headers[i]);
        CHECK(noted(c, "malformed hunk header"));
        const change_file *ok = change_find(c, "csrc/ok.cu");
        CHECK(ok != NULL);
        if (ok) {
            CHECK_INT(ok->nhunks, 1);
            CHECK_INT(ok->nadd, 1);
            CHECK_INT(ok->lines[1].new_no, 3);
        }
        derive_table *families = derive_table_load();
        derive_result dr;
        derive_run(families, c, "a title", &dr);
        derive_result_clear(&dr);
        derive_table_free(families);
        change_free(c);
        free(cause);
    }
}

TEST(large_but_sane_hunks_are_read)
{
    char *cause = NULL;
    change *c = parse_with("@@ -100000000,3 +100000001,3 @@ kern", &cause);
    CHECK(!noted(c, "malformed hunk header"));
    const change_file *f = change_find(c, "csrc/k.cu");
    CHECK(f && f->nlines == 4);
    if (f && f->nlines == 4) {
        CHECK_INT(f->lines[0].old_no, 100000000);
        CHECK_INT(f->lines[3].new_no, 100000003);
    }
    derive_table *families = derive_table_load();
    derive_result dr;
    derive_run(families, c, "a title", &dr);
    derive_result_clear(&dr);
    derive_table_free(families);
    change_free(c);
    free(cause);
}

UNIT_MAIN("diff_parse_limits", UNIT_CASE(hunks_near_int_max_are_refused_with_a_note),
          UNIT_CASE(large_but_sane_hunks_are_read))
