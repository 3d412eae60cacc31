/* Unit tests of the change's line arithmetic (engine/diff_lines.c): the map from head lines to
 * the base lines they were, by the diff's hunks, which a base is parsed from its head's tree
 * with. */
#include "engine/diff_lines.h"
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* A 12-line base (l1..l12) and a diff that adds a line at the top, rewrites l5, deletes l8 and
 * adds two lines after l12. */
static const char *BASE = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n";
static const char *DIFF = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n"
                          "@@ -1,3 +1,4 @@\n+l0\n l1\n l2\n l3\n"
                          "@@ -4,5 +5,4 @@\n l4\n-l5\n+L5\n l6\n l7\n-l8\n"
                          "@@ -11,2 +11,4 @@\n l11\n l12\n+l13\n+l14\n";

TEST(head_lines_map_to_the_base_lines_they_were)
{
    char *cause = NULL;
    change *c = diff_parse(DIFF, strlen(DIFF), &cause);
    CHECK(c && c->nfiles == 1);
    if (!c)
        return;
    size_t nmap = 0;
    int *map = diff_lines_head_to_base(&c->files[0], BASE, strlen(BASE), &nmap);
    /* head: l0 l1 l2 l3 l4 L5 l6 l7 l9 l10 l11 l12 l13 l14 (14 lines) */
    static const int want[] = {0, 0, 1, 2, 3, 4, 0, 6, 7, 9, 10, 11, 12, 0, 0};
    CHECK(nmap >= 15);
    for (size_t k = 1; k < 15 && k < nmap; k++) {
        if (map[k] != want[k])
            fprintf(stderr, "  head line %zu: base %d, want %d\n", k, map[k], want[k]);
        CHECK_INT(map[k], want[k]);
    }
    free(map);
    change_free(c);
    free(cause);
}

/* Lines between and after the hunks move by the hunks before them. */
TEST(lines_outside_hunks_shift_by_the_hunks_before_them)
{
    const char *diff = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n"
                       "@@ -2,1 +1,0 @@\n-l2\n";
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    CHECK(c != NULL);
    if (!c)
        return;
    size_t nmap = 0;
    int *map = diff_lines_head_to_base(&c->files[0], BASE, strlen(BASE), &nmap);
    CHECK(nmap >= 12);
    CHECK_INT(map[1], 1);
    CHECK_INT(map[2], 3);  /* l3, right after the deleted l2 */
    CHECK_INT(map[11], 12); /* l12, the last line */
    free(map);
    change_free(c);
    free(cause);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(head_lines_map_to_the_base_lines_they_were),
        UNIT_CASE(lines_outside_hunks_shift_by_the_hunks_before_them),
    };
    return unit_main("diff_lines", cases, sizeof cases / sizeof cases[0]);
}
