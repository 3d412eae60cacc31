/* Unit tests of the Python same-code test (engine/same_code_py.c): what a formatter does (lines
 * wrapped or joined inside brackets, quotes swapped, trailing commas added, indentation width
 * changed, comments and blank lines edited) leaves the code the same; a changed token, string
 * body, block level or a trailing comma that makes a tuple does not; a text the reader cannot
 * follow is never the same as anything. */
#include <string.h>

#include "engine/same_code.h"
#include "tests/unit/unit.h"

static bool same(const char *a, const char *b)
{
    return same_code_py(a, strlen(a), b, strlen(b));
}

TEST(a_formatter_sweep_leaves_the_code)
{
    /* the shape of aiter#4062: ruff format over a launcher */
    CHECK(same("def launch(x, y, BLOCK_M = 64, grid = None):\n"
               "    out = torch.empty_like(x) # scratch\n"
               "    kernel[grid](x, y, out, BLOCK_M=BLOCK_M, num_warps=4, num_stages=2)\n"
               "    return out\n",
               "def launch(\n"
               "    x,\n"
               "    y,\n"
               "    BLOCK_M=64,\n"
               "    grid=None,\n"
               "):\n"
               "    out = torch.empty_like(x)  # scratch\n"
               "\n"
               "    kernel[grid](\n"
               "        x, y, out, BLOCK_M=BLOCK_M, num_warps=4, num_stages=2,\n"
               "    )\n"
               "    return out\n"));
    /* quotes swapped, prefixes in another case or order, a u prefix dropped */
    CHECK(same("s = 'ab'\nt = Rb'\\d'\nu = u'x'\nd = '''doc'''\n",
               "s = \"ab\"\nt = br\"\\d\"\nu = \"x\"\nd = \"\"\"doc\"\"\"\n"));
    /* a backslash continuation and a re-indented body */
    CHECK(same("if a and \\\n   b:\n  x = 1\n  if c:\n      y = 2\n",
               "if a and b:\n    x = 1\n    if c:\n        y = 2\n"));
    /* comments, blank lines and CRLF line ends */
    CHECK(same("# header\n\nimport os\n\n\n\nx = 1\n", "import os\r\n# why x\r\nx = 1\r\n"));
    CHECK(same("", "# only a comment\n\n"));
}

TEST(trailing_commas_that_change_nothing)
{
    CHECK(same("f(a)\n", "f(a,)\n"));
    CHECK(same("def f(a, b): pass\n", "def f(a, b,): pass\n"));
    CHECK(same("x = [1, 2]\ny = {1}\nz = {'k': 1}\n", "x = [1, 2,]\ny = {1,}\nz = {'k': 1,}\n"));
    CHECK(same("t = (a, b)\n", "t = (a, b,)\n"));
    CHECK(same("v = m[a, b]\n", "v = m[a, b,]\n"));
    /* a one-item tuple or tuple index keeps its comma, after a keyword too */
    CHECK(!same("t = (a,)\n", "t = (a)\n"));
    CHECK(!same("v = m[a,]\n", "v = m[a]\n"));
    CHECK(!same("return (a,)\n", "return (a)\n"));
    /* a comma outside brackets makes a tuple */
    CHECK(!same("x = a,\n", "x = a\n"));
}

TEST(a_token_or_block_changed_is_new_code)
{
    CHECK(!same("x = 1\n", "x = 2\n"));
    CHECK(!same("assert n > 0\n", "# assert n > 0\n"));
    CHECK(!same("s = 'a  b'\n", "s = 'a b'\n"));
    CHECK(!same("s = 'a'\n", "s = b'a'\n"));
    CHECK(!same("s = f'{x}'\n", "s = '{x}'\n"));
    CHECK(!same("s = 'a' 'b'\n", "s = 'ab'\n"));
    /* a statement moved out of its block, or two statements joined by a semicolon */
    CHECK(!same("if a:\n    x = 1\n    y = 2\n", "if a:\n    x = 1\ny = 2\n"));
    CHECK(!same("x = 1\ny = 2\n", "x = 1; y = 2\n"));
    /* a line break outside brackets ends a statement */
    CHECK(!same("x = (1\n+ 2)\n", "x = 1\n+ 2\n"));
    CHECK(!same("x = a if b else c\n", "x = aif b else c\n"));
    CHECK(!same("x = a ** b\n", "x = a * * b\n"));
    CHECK(!same("n = 1e-5\n", "n = 1e - 5\n"));
}

TEST(strings_are_read_whole)
{
    /* a # inside a string is no comment, a bracket inside one opens nothing */
    CHECK(!same("s = 'a # b'\n", "s = 'a '\n"));
    CHECK(same("s = '('\nx = 1\n", "s = \"(\"\nx = 1  # one\n"));
    /* an f-string's replacement field may hold strings, even with the outer quote (3.12) */
    CHECK(!same("s = f\"{d['#']} # x\"\n", "s = f\"{d['#']}\"\n"));
    CHECK(!same("s = f\"{d[\"k\"]} # x\"\n", "s = f\"{d[\"k\"]}\"\n"));
    CHECK(!same("s = f\"{d[\"#\"]}\" + a\n", "s = f\"{d[\"#\"]}\" + b\n"));
    CHECK(same("s = f\"{x:>{w}} {y!r}\"  # c\n", "s = f'{x:>{w}} {y!r}'\n"));
    /* a quote in a format spec is literal */
    CHECK(!same("s = f\"{x:'>10} # a\"\n", "s = f\"{x:'>10}\"\n"));
    /* a body is compared as written: the escape a quote swap needs counts as a change */
    CHECK(!same("s = 'a\"b'\n", "s = \"a\\\"b\"\n"));
    /* a triple-quoted body keeps its line breaks and indentation */
    CHECK(!same("d = '''a\n    b'''\n", "d = '''a\nb'''\n"));
}

TEST(what_cannot_be_read_is_never_the_same)
{
    /* an unterminated string, a dedent to no open block */
    CHECK(!same("s = 'abc\n", "s = 'abc\n"));
    CHECK(!same("s = '''abc\n", "s = '''abc\n"));
    CHECK(!same("if a:\n        x = 1\n    y = 2\n", "if a:\n        x = 1\n    y = 2\n"));
    /* brackets nested past the reader's depth */
    char deep[1200], deeper[1200];
    memset(deep, '(', 600);
    strcpy(deep + 600, "\n");
    memcpy(deeper, deep, sizeof deep);
    CHECK(!same(deep, deeper));
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(a_formatter_sweep_leaves_the_code),
        UNIT_CASE(trailing_commas_that_change_nothing),
        UNIT_CASE(a_token_or_block_changed_is_new_code),
        UNIT_CASE(strings_are_read_whole),
        UNIT_CASE(what_cannot_be_read_is_never_the_same),
    };
    return unit_main("same_code_py", cases, sizeof cases / sizeof cases[0]);
}
