/* Unit tests of the unified diff reader (engine/diff_parse.c): line numbers, hunk sections,
 * file flags, quoting, content lines that look like headers, CRLF, truncation. */
#include "engine/diff_parse.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static change *parse(const char *s, char **cause)
{
    return diff_parse(s, strlen(s), cause);
}

TEST(line_numbers_and_sections)
{
    char *cause = NULL;
    change *c = parse("diff --git a/k.cu b/k.cu\n"
                      "index 1..2 100644\n"
                      "--- a/k.cu\n"
                      "+++ b/k.cu\n"
                      "@@ -10,4 +10,4 @@ __global__ void kern(int n)\n"
                      " a\n"
                      "-b\n"
                      "+B\n"
                      " c\n"
                      " d\n",
                      &cause);
    CHECK(cause == NULL);
    CHECK_INT(c->nfiles, 1);
    const change_file *f = &c->files[0];
    CHECK_STR(f->path, "k.cu");
    CHECK_INT(f->nhunks, 1);
    CHECK_STR(f->hunks[0].section, "__global__ void kern(int n)");
    CHECK_INT(f->nlines, 5);
    CHECK_INT(f->lines[0].old_no, 10);
    CHECK_INT(f->lines[0].new_no, 10);
    CHECK_INT(f->lines[1].kind, '-');
    CHECK_INT(f->lines[1].old_no, 11);
    CHECK_INT(f->lines[1].new_no, 11); /* the head line where the deletion happened */
    CHECK_INT(f->lines[2].kind, '+');
    CHECK_INT(f->lines[2].new_no, 11);
    CHECK_INT(f->lines[4].new_no, 13);
    CHECK_INT(f->nadd, 1);
    CHECK_INT(f->ndel, 1);
    change_free(c);
}

TEST(flags_new_deleted_renamed_binary)
{
    char *cause = NULL;
    change *c = parse("diff --git a/n.py b/n.py\n"
                      "new file mode 100644\n"
                      "--- /dev/null\n"
                      "+++ b/n.py\n"
                      "@@ -0,0 +1,2 @@\n"
                      "+x = 1\n"
                      "+y = 2\n"
                      "diff --git a/gone.py b/gone.py\n"
                      "deleted file mode 100644\n"
                      "--- a/gone.py\n"
                      "+++ /dev/null\n"
                      "@@ -1 +0,0 @@\n"
                      "-z = 3\n"
                      "diff --git a/old.py b/new.py\n"
                      "similarity index 100%\n"
                      "rename from old.py\n"
                      "rename to new.py\n"
                      "diff --git a/img.png b/img.png\n"
                      "Binary files a/img.png and b/img.png differ\n",
                      &cause);
    CHECK(cause == NULL);
    CHECK_INT(c->nfiles, 4);
    CHECK(c->files[0].is_new);
    CHECK_INT(c->files[0].lines[1].new_no, 2);
    CHECK(c->files[1].is_deleted);
    CHECK_STR(c->files[1].path, "gone.py");
    CHECK_INT(c->files[1].lines[0].new_no, 1);
    CHECK(c->files[2].is_renamed);
    CHECK_STR(c->files[2].path, "new.py");
    CHECK_STR(c->files[2].old_path, "old.py");
    CHECK(c->files[3].is_binary);
    CHECK(c->files[3].is_skipped);
    change_free(c);
}

TEST(header_lookalikes_inside_hunks_are_content)
{
    change *c = parse("diff --git a/a.py b/a.py\n"
                      "--- a/a.py\n"
                      "+++ b/a.py\n"
                      "@@ -1,2 +1,2 @@\n"
                      "---- old\n"
                      "+++++ new\n"
                      " same\n",
                      NULL);
    CHECK_INT(c->nfiles, 1);
    CHECK_INT(c->files[0].nlines, 3);
    CHECK_STR(c->files[0].lines[0].text, "--- old");
    CHECK_STR(c->files[0].lines[1].text, "++++ new");
    change_free(c);
}

TEST(crlf_and_quoted_and_spaced_paths)
{
    change *c = parse("diff --git \"a/dir/t\\303\\251st.py\" \"b/dir/t\\303\\251st.py\"\r\n"
                      "--- \"a/dir/t\\303\\251st.py\"\r\n"
                      "+++ \"b/dir/t\\303\\251st.py\"\r\n"
                      "@@ -1 +1 @@\r\n"
                      "-a\r\n"
                      "+b\r\n"
                      "diff --git a/my dir/x y.py b/my dir/x y.py\n"
                      "--- a/my dir/x y.py\n"
                      "+++ b/my dir/x y.py\n"
                      "@@ -1 +1 @@\n"
                      "-p\n"
                      "+q\n",
                      NULL);
    CHECK_INT(c->nfiles, 2);
    CHECK_STR(c->files[0].path, "dir/t\xC3\xA9st.py");
    CHECK_STR(c->files[0].lines[1].text, "b");
    CHECK_STR(c->files[1].path, "my dir/x y.py");
    change_free(c);
}

TEST(plain_unified_diff)
{
    change *c = parse("--- a/op.py\t2024-01-01\n+++ b/op.py\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n", NULL);
    CHECK_INT(c->nfiles, 1);
    CHECK_STR(c->files[0].path, "op.py");
    change_free(c);
}

TEST(empty_not_a_diff_and_truncated)
{
    char *cause = NULL;
    change *c = parse("", &cause);
    CHECK_STR(cause, "the diff is empty");
    free(cause);
    change_free(c);
    c = parse("just words\n", &cause);
    CHECK(cause && strstr(cause, "not a unified diff"));
    free(cause);
    change_free(c);
    c = parse("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n", &cause);
    CHECK(cause == NULL);
    CHECK_INT(c->files[0].nlines, 2);
    CHECK_INT(c->nnotes, 1);
    CHECK(strstr(c->notes[0], "truncated") != NULL);
    change_free(c);
}

TEST(head_text_rebuilt_for_new_files)
{
    change *c = parse("diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n"
                      "@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n"
                      "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -5,2 +5,2 @@\n a\n-b\n+c\n",
                      NULL);
    size_t len;
    char *cause = NULL;
    char *t = change_head_text(c, &c->files[0], &len, &cause);
    CHECK_STR(t, "x = 1\ny = 2\n");
    free(t);
    t = change_head_text(c, &c->files[1], &len, &cause);
    CHECK(t == NULL);
    CHECK(cause && strstr(cause, "--root"));
    free(cause);
    change_free(c);
}

UNIT_MAIN("diff_parse", UNIT_CASE(line_numbers_and_sections), UNIT_CASE(flags_new_deleted_renamed_binary),
          UNIT_CASE(header_lookalikes_inside_hunks_are_content), UNIT_CASE(crlf_and_quoted_and_spaced_paths),
          UNIT_CASE(plain_unified_diff), UNIT_CASE(empty_not_a_diff_and_truncated),
          UNIT_CASE(head_text_rebuilt_for_new_files))
