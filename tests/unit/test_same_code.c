/* Unit tests of the C/C++ same-code test (engine/same_code.c): comments rewrapped, joined or
 * dropped and white space moved leave the code the same; any change of a token, of a string or
 * character literal's bytes (raw strings too), or of where a preprocessor directive ends does
 * not. */
#include <string.h>

#include "engine/same_code.h"
#include "tests/unit/unit.h"

static bool same(const char *a, const char *b)
{
    return same_code_cpp(a, strlen(a), b, strlen(b));
}

TEST(comments_rewrapped_joined_or_dropped_leave_the_code)
{
    /* the shape of aiter#4061: wrapped // comments joined into one line */
    CHECK(same("// Launch one block per row: each thread\n"
               "// reads four elements.\n"
               "__global__ void k(float* x) {\n"
               "    x[threadIdx.x] = 0; // zero it\n"
               "}\n",
               "// Launch one block per row: each thread reads four elements.\n"
               "__global__ void k(float* x) {\n"
               "    x[threadIdx.x] = 0;\n"
               "}\n"));
    CHECK(same("int a; /* one\n   two */ int b;\n", "int a;\nint b; // one two\n"));
    CHECK(same("int  x =\n\t1;\r\n", "int x = 1;\n"));
    /* a block comment and a continued line inside a directive are part of it */
    CHECK(same("#define N 1 /* n */ \\\n  + 2\nint y;\n", "#define N 1 + 2\nint y;\n"));
    CHECK(same("", "// nothing but a comment\n\n"));
}

TEST(a_token_changed_is_new_code)
{
    CHECK(!same("int x = 1;\n", "int x = 2;\n"));
    CHECK(!same("TORCH_CHECK(n > 0);\n", "// TORCH_CHECK(n > 0);\n"));
    CHECK(!same("a = b;\n", "a = b; c();\n"));
    /* white space between tokens is kept as one space: `a+b` and `a + b` are not told apart
     * from `a++b`, so they count as different (one-sided) */
    CHECK(!same("x = a+b;\n", "x = a + b;\n"));
    CHECK(!same("x = a/**/b;\n", "x = ab;\n"));
}

TEST(literals_are_compared_as_written)
{
    CHECK(!same("s = \"a  b\";\n", "s = \"a b\";\n"));
    CHECK(!same("s = \"a // b\";\n", "s = \"a\";\n"));
    CHECK(!same("s = \"a /* b */ c\";\n", "s = \"a  c\";\n"));
    CHECK(!same("c = ' ';\n", "c = '\t';\n"));
    CHECK(!same("s = R\"x(a // b\n  c)x\";\n", "s = R\"x(a\n c)x\";\n"));
    CHECK(same("s = R\"x(a \" b)x\"; // c\n", "s = R\"x(a \" b)x\";\n"));
    /* an escaped quote does not end the string */
    CHECK(!same("s = \"a\\\" // b\";\n", "s = \"a\\\" \";\n"));
    /* a digit separator is no character literal: the comment after it is still a comment */
    CHECK(same("n = 1'000'000; // a million\n", "n = 1'000'000;\n"));
}

TEST(the_end_of_a_directive_is_kept)
{
    CHECK(!same("#define X 1\n+ 2;\n", "#define X 1 + 2;\n"));
    CHECK(!same("#if A\nint x;\n#endif\n", "#if A int x;\n#endif\n"));
    CHECK(same("#include <a.h> // for a\n#include <b.h>\n", "#include <a.h>\n#include <b.h>\n"));
    /* a comment line dropped right after a directive; the next line re-indented */
    CHECK(same("#include <a.h>\n// why a\nint x;\n", "#include <a.h>\nint x;\n"));
    CHECK(same("#include <a.h>\nint x;\n", "#include <a.h>\n    int x;\n"));
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(comments_rewrapped_joined_or_dropped_leave_the_code),
        UNIT_CASE(a_token_changed_is_new_code),
        UNIT_CASE(literals_are_compared_as_written),
        UNIT_CASE(the_end_of_a_directive_is_kept),
    };
    return unit_main("same_code", cases, sizeof cases / sizeof cases[0]);
}
