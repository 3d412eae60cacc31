/* Unit tests of the names a Python module surely binds at its top level, read from its text
 * without parsing (engine/py_toplevel.c): what its column-0 statements bind is listed; a name
 * spelled in a string, a comment, a bracket, a continuation or an indented block is not, so
 * the imports collector still asks the parse about it. Each module is also parsed here, and
 * every name listed must be one the tree binds at module level. */
#include <string.h>

#include "engine/py_outline.h"
#include "engine/syntax.h"
#include "tests/unit/unit.h"

/* The names text binds, as one space-separated string in the order found. */
static char *names_of(const char *text)
{
    strset s = {0};
    py_toplevel_names(text, strlen(text), &s);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < s.n; i++) {
        if (i)
            sb_addc(&sb, ' ');
        sb_adds(&sb, strset_at(&s, i));
    }
    strset_free(&s);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

#define CHECK_NAMES(text, want)                                                              \
    do {                                                                                     \
        char *got_ = names_of(text);                                                         \
        CHECK_STR(got_, want);                                                               \
        free(got_);                                                                          \
    } while (0)

TEST(definitions_assignments_and_imports_in_column_0_bind)
{
    CHECK_NAMES("import os\n"
                "import torch.nn as tnn, triton.language\n"
                "from .utils import (\n"
                "    a,\n"
                "    b as bee,  # a comment (with a bracket\n"
                ")\n"
                "from aiter.ops import *\n"
                "@decorator(x=1)\n"
                "def kernel(x):\n"
                "    inner = 1\n"
                "async def fetch(): pass\n"
                "class Config(Base):\n"
                "    field: int = 3\n"
                "BLOCK = 64\n"
                "dtype: str = 'bf16'\n"
                "x = 1; y = 2\n",
                "os tnn triton a bee kernel fetch Config BLOCK dtype x y");
}

TEST(names_in_strings_comments_and_brackets_do_not)
{
    /* a docstring holding code in column 0, a comment, a keyword argument continuing a call,
     * a continued line, and a string whose quotes hide a bracket */
    CHECK_NAMES("\"\"\"Example:\n"
                "def hidden():\n"
                "    pass\n"
                "HIDDEN = 1\n"
                "\"\"\"\n"
                "# COMMENTED = 1\n"
                "configure(\n"
                "kwarg=1,\n"
                ")\n"
                "total = 1 + \\\n"
                "continued\n"
                "s = '(' \n"
                "after = 2\n"
                "r = r'\\'' \n"
                "last = 3\n",
                "total s after r last");
}

TEST(indented_blocks_comparisons_and_attributes_are_left_to_the_parse)
{
    CHECK_NAMES("try:\n"
                "    from fast import impl\n"
                "except ImportError:\n"
                "    impl = None\n"
                "if HAVE_X:\n"
                "    X = 1\n"
                "flag == 1\n"
                "obj.attr = 2\n"
                "table[0] = 3\n"
                "a, b = 1, 2\n"
                "counter += 1\n"
                "__all__ = ['exported']\n",
                "__all__");
}

TEST(an_unterminated_string_ends_at_its_line)
{
    /* a broken one-quote string must not swallow the rest of the module */
    CHECK_NAMES("bad = 'no end\n"
                "good = 1\n",
                "bad good");
    CHECK_NAMES("", "");
    CHECK_NAMES("x", "");
    CHECK_NAMES("\"\"\"never closed\nname = 1\n", "");
}

TEST(every_listed_name_is_bound_at_module_level_in_the_tree)
{
    /* the parse agrees on a module mixing all of the above */
    const char *text = "import os\n"
                       "from m import (a,\n b as c)\n"
                       "\"\"\"\nfake = 1\n\"\"\"\n"
                       "def f():\n    g = 1\n"
                       "class K:\n    h = 2\n"
                       "N: int = 4\n";
    strset s = {0};
    py_toplevel_names(text, strlen(text), &s);
    syntax_doc *d = syntax_parse(SYN_PYTHON, text, strlen(text), NULL);
    CHECK(d != NULL && !d->has_errors);
    CHECK_INT((int)s.n, 6);
    TSNode root = ts_tree_root_node(d->tree);
    for (size_t i = 0; i < s.n; i++) {
        const char *name = strset_at(&s, i);
        /* each name's first occurrence as a whole word lies in a top-level statement that
         * starts in column 0 and is not a string */
        const char *p = strstr(text, name);
        while (p && ((p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) ||
                     p[strlen(name)] == '_' || (p[strlen(name)] >= 'a' && p[strlen(name)] <= 'z')))
            p = strstr(p + 1, name);
        CHECK(p != NULL);
        uint32_t at = (uint32_t)(p - text);
        bool found = false;
        for (uint32_t k = 0; k < ts_node_named_child_count(root); k++) {
            TSNode st = ts_node_named_child(root, k);
            if (ts_node_start_byte(st) <= at && at < ts_node_end_byte(st) &&
                ts_node_start_point(st).column == 0 &&
                strcmp(ts_node_type(st), "expression_statement") != 0)
                found = true;
            if (ts_node_start_byte(st) <= at && at < ts_node_end_byte(st) &&
                strcmp(ts_node_type(st), "expression_statement") == 0 &&
                strcmp(ts_node_type(ts_node_named_child(st, 0)), "assignment") == 0)
                found = true;
        }
        CHECK(found);
    }
    syntax_free(d);
    strset_free(&s);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(definitions_assignments_and_imports_in_column_0_bind),
        UNIT_CASE(names_in_strings_comments_and_brackets_do_not),
        UNIT_CASE(indented_blocks_comparisons_and_attributes_are_left_to_the_parse),
        UNIT_CASE(an_unterminated_string_ends_at_its_line),
        UNIT_CASE(every_listed_name_is_bound_at_module_level_in_the_tree),
    };
    return unit_main("py_toplevel", cases, sizeof cases / sizeof cases[0]);
}
