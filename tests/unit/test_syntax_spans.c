/* Unit tests of the comment and string spans behind syntax_line_code and friends (syntax.c):
 * a question about one line reads only the top-level definition it is in, and the answers are
 * the same whichever lines were asked about first — strings over several lines, docstrings,
 * comments between definitions, a '#' inside a string, C++ block comments. */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static const char *const python_text =
    "\"\"\"Module docstring, # not a comment.\"\"\"\n"        /* 1 */
    "import torch  # a trailing comment\n"                 /* 2 */
    "\n"                                                   /* 3 */
    "\n"                                                   /* 4 */
    "def first(x):\n"                                      /* 5 */
    "    msg = \"\"\"spans\n"                              /* 6 */
    "    # inside the string\n"                            /* 7 */
    "    lines\"\"\"\n"                                    /* 8 */
    "    return x  # done\n"                               /* 9 */
    "\n"                                                   /* 10 */
    "# a comment between definitions\n"                    /* 11 */
    "def second(y):\n"                                     /* 12 */
    "    \"\"\"Doc of second.\"\"\"\n"                     /* 13 */
    "    s = '#' + y  # hash in a string\n"                /* 14 */
    "    return s\n";                                      /* 15 */

/* Every line's code of a fresh parse, asked in the order given (lines 1..n, or n..1). */
static char **codes(const char *text, syn_lang lang, bool backwards, int *n)
{
    char *cause = NULL;
    syntax_doc *d = syntax_parse(lang, text, strlen(text), &cause);
    *n = d ? d->nlines : 0;
    char **out = xcalloc((size_t)*n + 1, sizeof *out);
    for (int k = 0; k < *n; k++) {
        int line = backwards ? *n - k : k + 1;
        char *code = syntax_line_code(d, line);
        char *bare = syntax_line_nocomment(d, line);
        out[line - 1] = xasprintf("%s|%s|%d", code ? code : "", bare ? bare : "",
                                  syntax_line_has_code(d, line));
        free(code);
        free(bare);
    }
    syntax_free(d);
    free(cause);
    return out;
}

TEST(answers_do_not_depend_on_which_lines_were_asked_first)
{
    static const char *const cpp_text = "/* file comment\n"
                                        "   over lines */\n"
                                        "#include <x.h>\n"
                                        "int f(int a) {\n"
                                        "    const char* s = \"// not a comment\";\n"
                                        "    return a; // trailing\n"
                                        "}\n"
                                        "// between\n"
                                        "int g() { return 1; }\n";
    const char *texts[] = {python_text, cpp_text};
    syn_lang langs[] = {SYN_PYTHON, SYN_CPP};
    for (int t = 0; t < 2; t++) {
        int n1, n2;
        char **fw = codes(texts[t], langs[t], false, &n1), **bw = codes(texts[t], langs[t], true, &n2);
        CHECK_INT(n1, n2);
        for (int i = 0; i < n1 && i < n2; i++)
            CHECK_STR(fw[i], bw[i]);
        for (int i = 0; i < n1; i++)
            free(fw[i]);
        for (int i = 0; i < n2; i++)
            free(bw[i]);
        free(fw);
        free(bw);
    }
}

TEST(strings_comments_and_docstrings_are_told_apart)
{
    char *cause = NULL;
    syntax_doc *d = syntax_parse(SYN_PYTHON, python_text, strlen(python_text), &cause);
    CHECK(d != NULL);
    if (!d)
        return;
    /* asked first: a line inside a string that starts on the line above */
    char *c7 = syntax_line_code(d, 7);
    CHECK(c7 && !strchr(c7, '#'));
    CHECK(!syntax_in_comment(d, 7, 4));
    CHECK(syntax_in_comment(d, 11, 0));
    CHECK(syntax_in_comment(d, 14, 17));
    CHECK(!syntax_in_comment(d, 14, 9)); /* the '#' in quotes */
    CHECK(!syntax_line_has_code(d, 13)); /* a docstring */
    CHECK(!syntax_line_has_code(d, 1));
    CHECK(syntax_line_has_code(d, 2));
    char *c9 = syntax_line_code(d, 9);
    CHECK_STR(c9, "    return x        ");
    free(c7);
    free(c9);
    syntax_free(d);
    free(cause);
}

TEST(a_line_reads_only_the_definition_it_is_in)
{
    /* a long module: 200 definitions with a comment and a string each */
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 200; i++)
        sb_addf(&sb, "def f%d(x):\n    # step %d\n    return x + len(\"s%d\")\n\n\n", i, i, i);
    char *cause = NULL;
    syntax_doc *d = syntax_parse(SYN_PYTHON, sb.buf, sb.len, &cause);
    CHECK(d != NULL);
    if (!d) {
        sb_free(&sb);
        return;
    }
    /* line 502 is the comment of f100 */
    char *c = syntax_line_code(d, 502);
    CHECK_STR(c, "              "); /* "    # step 100", blanked */
    free(c);
    size_t asked_one = d->nspans;
    CHECK(asked_one > 0 && asked_one <= 4);
    for (int line = 1; line <= d->nlines; line++) {
        char *all = syntax_line_code(d, line);
        free(all);
    }
    CHECK_INT(d->nspans, 400);
    syntax_free(d);
    sb_free(&sb);
    free(cause);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(answers_do_not_depend_on_which_lines_were_asked_first),
        UNIT_CASE(strings_comments_and_docstrings_are_told_apart),
        UNIT_CASE(a_line_reads_only_the_definition_it_is_in),
    };
    return unit_main("syntax_spans", cases, sizeof cases / sizeof cases[0]);
}
