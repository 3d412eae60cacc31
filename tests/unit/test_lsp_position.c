/* Unit tests of lsp/position.c and lsp/uri.c: UTF-16 / UTF-8 conversion with CJK, emoji
 * (surrogate pairs), combining characters and invalid bytes; clamping; file: URIs. */
#include <stdlib.h>

#include "lsp/position.h"
#include "lsp/uri.h"
#include "tests/unit/unit.h"

/* "a日😀e\u0301" then invalid 0xFF then "z". */
static const char line[] = "a\xe6\x97\xa5\xf0\x9f\x98\x80" "e\xcc\x81" "\xff" "z";

TEST(units_from_bytes)
{
    size_t n = strlen(line);
    CHECK_INT(n, 13);
    CHECK_INT(pos_units_from_bytes(line, n, 0, false), 0);
    CHECK_INT(pos_units_from_bytes(line, n, 1, false), 1);   /* after a */
    CHECK_INT(pos_units_from_bytes(line, n, 4, false), 2);   /* after 日 */
    CHECK_INT(pos_units_from_bytes(line, n, 8, false), 4);   /* after 😀 (surrogate pair) */
    CHECK_INT(pos_units_from_bytes(line, n, 11, false), 6);  /* after e + U+0301 */
    CHECK_INT(pos_units_from_bytes(line, n, 12, false), 7);  /* invalid byte counts one */
    CHECK_INT(pos_units_from_bytes(line, n, 13, false), 8);
    CHECK_INT(pos_units_from_bytes(line, n, 99, false), 8);  /* clamped */
    CHECK_INT(pos_units_from_bytes(line, n, 8, true), 8);
    CHECK_INT(pos_units_from_bytes(line, n, 99, true), 13);
}

TEST(bytes_from_units)
{
    size_t n = strlen(line);
    CHECK_INT(pos_bytes_from_units(line, n, 2, false), 4);
    CHECK_INT(pos_bytes_from_units(line, n, 3, false), 4);   /* inside the pair: its start */
    CHECK_INT(pos_bytes_from_units(line, n, 4, false), 8);
    CHECK_INT(pos_bytes_from_units(line, n, 5, false), 9);   /* between e and the accent */
    CHECK_INT(pos_bytes_from_units(line, n, 7, false), 12);
    CHECK_INT(pos_bytes_from_units(line, n, 1000, false), 13);
    CHECK_INT(pos_bytes_from_units(line, n, 6, true), 4);    /* inside 😀 (bytes 4..8) */
    CHECK_INT(pos_bytes_from_units(line, n, 2, true), 1);    /* inside 日 */
    CHECK_INT(pos_bytes_from_units(line, n, 1000, true), 13);
}

TEST(offsets_and_lines)
{
    const char *t = "ab\r\n\xf0\x9f\x98\x80x\nlast";
    line_index li;
    lines_build(&li, t, strlen(t));
    CHECK_INT(li.nlines, 3);
    size_t ll;
    const char *p = lines_get(&li, 0, &ll);
    CHECK_INT(ll, 2); /* the \r is not part of the line */
    CHECK(p == t);
    CHECK_INT(pos_to_offset(&li, 0, 99, false), 2);
    CHECK_INT(pos_to_offset(&li, 1, 2, false), 8);
    CHECK_INT(pos_to_offset(&li, 1, 1, false), 4);
    CHECK_INT(pos_to_offset(&li, 1, 4, true), 8);
    CHECK_INT(pos_to_offset(&li, 7, 0, false), strlen(t));
    CHECK_INT(pos_to_offset(&li, -1, 0, false), 0);
    CHECK_INT(pos_to_offset(&li, 2, -5, false), 10);
    lines_free(&li);
    lines_build(&li, "", 0);
    CHECK_INT(li.nlines, 1);
    CHECK_INT(pos_to_offset(&li, 0, 3, false), 0);
    lines_free(&li);
}

TEST(uris)
{
    const char *why = NULL;
    char *p = uri_to_path("file:///tmp/a%20b/%E6%97%A5.cu", &why);
    CHECK_STR(p, "/tmp/a b/\xe6\x97\xa5.cu");
    char *u = uri_from_path(p);
    CHECK_STR(u, "file:///tmp/a%20b/%E6%97%A5.cu");
    free(p);
    free(u);
    p = uri_to_path("file://localhost/x", &why);
    CHECK_STR(p, "/x");
    free(p);
    CHECK(uri_to_path("untitled:Untitled-1", &why) == NULL);
    CHECK(uri_to_path("file://host/x", &why) == NULL);
    CHECK(uri_to_path("file:///x%2", &why) == NULL);
    CHECK(uri_to_path("file:///x%00y", &why) == NULL);
    CHECK(uri_to_path("https://example.com/x", &why) == NULL);
    p = uri_to_path("FILE:///a#frag", &why);
    CHECK_STR(p, "/a");
    free(p);
}

UNIT_MAIN("lsp_position", UNIT_CASE(units_from_bytes), UNIT_CASE(bytes_from_units),
          UNIT_CASE(offsets_and_lines), UNIT_CASE(uris))
