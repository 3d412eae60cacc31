/* Unit tests of the Python reader that works without parsing (engine/py_outline.c): the names
 * a module's column-0 statements surely bind (a name spelled in a string, a comment, a
 * bracket, a continuation or an indented block is not listed, so the imports collector still
 * asks the parse about it); logical lines; def blocks, whose extents must hold every line the
 * parse gives the function; and plain column-0 import statements, which must read exactly as
 * syntax_imports reads them, while anything else is refused. */
#include <stdio.h>
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

/* The parse's functions, each held by a def block of the outline with the same name, from at
 * or before its first line to at or after its last. */
static void check_defs_hold_functions(const char *text)
{
    py_outline *o = py_outline_read(text, strlen(text));
    syntax_doc *d = syntax_parse(SYN_PYTHON, text, strlen(text), NULL);
    CHECK(d != NULL);
    syn_func_list fl = {0};
    if (d)
        syntax_functions(d, &fl);
    CHECK_INT((int)o->ndefs, (int)fl.n);
    for (size_t i = 0; i < fl.n && i < o->ndefs; i++) {
        const syn_func *fn = &fl.items[i];
        const py_def *df = &o->defs[i];
        CHECK_STR(df->name, fn->name);
        CHECK_INT(df->name_line, fn->name_line);
        CHECK(df->first_line <= fn->start_line);
        CHECK(df->end_line >= fn->end_line);
        if (unit_failed_now)
            fprintf(stderr, "  %s: outline %d-%d, parse %d-%d\n", fn->name, df->first_line,
                    df->end_line, fn->start_line, fn->end_line);
    }
    syn_func_list_free(&fl);
    syntax_free(d);
    py_outline_free(o);
}

TEST(def_blocks_hold_the_functions_the_parse_finds)
{
    check_defs_hold_functions("import triton\n"
                              "\n"
                              "@triton.jit\n"
                              "@other(\n"
                              "    x=1)\n"
                              "def kernel(a,\n"
                              "           B: tl.constexpr):\n"
                              "    \"\"\"Doc.\n"
                              "def not_a_function():\n"
                              "\"\"\"\n"
                              "    x = (1 +\n"
                              "2)\n"
                              "    def inner():\n"
                              "        return 1\n"
                              "\n"
                              "    # a comment at the body's depth\n"
                              "    return inner()\n"
                              "# a trailing comment\n"
                              "\n"
                              "class K:\n"
                              "    async def method(self): return 2\n"
                              "    def other(self):\n"
                              "        pass\n"
                              "def last(): pass\n");
    check_defs_hold_functions("def a():\n\tif x:\n\t\treturn 1\n\treturn 2\ndef b():\n    pass");
}

TEST(logical_lines_span_brackets_strings_and_continuations)
{
    const char *text = "x = f(\n"        /* 1 */
                       "    1)\n"         /* 2 */
                       "s = '''a\n"       /* 3 */
                       "b'''\n"           /* 4 */
                       "t = 1 + \\\n"     /* 5 */
                       "    2\n"          /* 6 */
                       "\n"               /* 7 */
                       "# c\n"            /* 8 */
                       "    y = 3\n";     /* 9 */
    py_outline *o = py_outline_read(text, strlen(text));
    CHECK_INT(o->nlines, 9);
    CHECK_INT(o->stmt_first[2], 1);
    CHECK_INT(o->stmt_last[1], 2);
    CHECK_INT(o->stmt_first[4], 3);
    CHECK_INT(o->stmt_last[5], 6);
    CHECK_INT(o->stmt_first[7], 7);
    CHECK_INT(o->indent[1], 0);
    CHECK_INT(o->indent[2], -1);
    CHECK_INT(o->indent[8], -1);
    CHECK_INT(o->indent[9], 4);
    CHECK(py_outline_stmt_has_word(o, text, 2, "f"));
    CHECK(!py_outline_stmt_has_word(o, text, 2, "s"));
    CHECK(py_outline_stmt_has_word(o, text, 4, "b"));
    py_outline_free(o);
    /* a bracket or a string left open at the end of the text: the statement ends with it */
    static const char *const open_at_end[] = {"x = f(\n    1\n", "s = \"\"\"a\nb\n", "t = 1 + \\\n", NULL};
    for (size_t i = 0; open_at_end[i]; i++) {
        o = py_outline_read(open_at_end[i], strlen(open_at_end[i]));
        CHECK_INT(o->stmt_last[1], o->nlines);
        CHECK(py_outline_stmt_has_word(o, open_at_end[i], 1, open_at_end[i][0] == 'x' ? "f" : "b") ==
              (open_at_end[i][0] != 't'));
        py_outline_free(o);
    }
}

/* Import entries as one line each, "module|name|alias|level|line:col". */
static char *entries(const syn_import_list *l)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < l->n; i++)
        sb_addf(&sb, "%s%s|%s|%s|%d|%d:%d", i ? "\n" : "", l->items[i].module,
                l->items[i].name ? l->items[i].name : "-", l->items[i].alias ? l->items[i].alias : "-",
                l->items[i].level, l->items[i].line, l->items[i].col);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The imports the outline reads from the statement at line, or "refused". */
static char *imports_at(const char *text, int line)
{
    py_outline *o = py_outline_read(text, strlen(text));
    syn_import_list l = {0};
    bool ok = py_outline_imports(o, text, line, &l);
    char *s = ok ? entries(&l) : xstrdup("refused");
    CHECK(ok || l.n == 0);
    syn_import_list_free(&l);
    py_outline_free(o);
    return s;
}

/* The parse's reading of every import of text. */
static char *imports_parsed(const char *text)
{
    syntax_doc *d = syntax_parse(SYN_PYTHON, text, strlen(text), NULL);
    syn_import_list l = {0};
    if (d)
        syntax_imports(d, &l);
    char *s = entries(&l);
    syn_import_list_free(&l);
    syntax_free(d);
    return s;
}

TEST(plain_import_statements_read_as_the_parse_reads_them)
{
    static const char *const plain[] = {
        "import os\n",
        "import torch.nn as tnn, triton.language\n",
        "from . import x\n",
        "from ..ops.sub import (a,\n    b as bee,  # why\n    c,\n)\n",
        "from aiter.ops import *\n",
        "from __future__ import annotations\n",
        "from m import a, \\\n    b\n",
        "from .m import (a)\n",
        NULL};
    for (size_t i = 0; plain[i]; i++) {
        char *lex = imports_at(plain[i], 1), *tree = imports_parsed(plain[i]);
        CHECK_STR(lex, tree);
        CHECK(strcmp(lex, "refused") != 0);
        free(lex);
        free(tree);
    }
}

TEST(other_statements_are_left_to_the_parse)
{
    static const char *const refused[] = {
        "    import os\n",                 /* indented: may be in a try block */
        "import os; import sys\n",         /* two statements */
        "if x: import os\n",
        "x = 'import os'\n",
        "from m import a,\n",             /* broken */
        "from m import\n",
        "import a . b\n",                 /* spaced dotted name: its text has the spaces */
        "from m import a.b\n",
        "import\n",
        NULL};
    for (size_t i = 0; refused[i]; i++) {
        char *lex = imports_at(refused[i], 1);
        CHECK_STR(lex, "refused");
        free(lex);
    }
    /* a line inside a statement, not its first, is refused too */
    char *lex = imports_at("from m import (\n    a,\n)\n", 2);
    CHECK_STR(lex, "refused");
    free(lex);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(definitions_assignments_and_imports_in_column_0_bind),
        UNIT_CASE(names_in_strings_comments_and_brackets_do_not),
        UNIT_CASE(indented_blocks_comparisons_and_attributes_are_left_to_the_parse),
        UNIT_CASE(an_unterminated_string_ends_at_its_line),
        UNIT_CASE(every_listed_name_is_bound_at_module_level_in_the_tree),
        UNIT_CASE(def_blocks_hold_the_functions_the_parse_finds),
        UNIT_CASE(logical_lines_span_brackets_strings_and_continuations),
        UNIT_CASE(plain_import_statements_read_as_the_parse_reads_them),
        UNIT_CASE(other_statements_are_left_to_the_parse),
    };
    return unit_main("py_outline", cases, sizeof cases / sizeof cases[0]);
}
