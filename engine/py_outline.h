/* A Python text read without parsing (py_outline.c): its logical lines, the names its
 * column-0 statements bind, its def blocks and its module-level import statements.
 *
 * One pass follows what ends a logical line (strings, comments, brackets, backslash
 * continuations), as Python's tokenizer does. Collectors use it to decide, before asking for
 * a parse, whether a file can hold anything they look for, and where the answer is plain
 * (an import statement in column 0, a name a column-0 statement binds) to take it from here.
 * Every answer is one-sided: what is listed is there; what is not listed is for the parse to
 * decide. The extents of def blocks hold at least the lines the parse gives the function. */
#ifndef RL_PY_OUTLINE_H
#define RL_PY_OUTLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/strset.h"
#include "engine/syntax.h"

typedef struct py_def {
    char *name;
    int first_line;   /* its first decorator's line, else name_line */
    int name_line;    /* the line of `def` */
    int header_end;   /* the last line of the def statement (up to its `:`) */
    int end_line;     /* the line before the next statement indented as much or less (or the
                         last line): at least the end of its body */
    int indent;       /* columns before `def` (a tab to the next multiple of 8) */
} py_def;

typedef struct py_outline {
    int nlines;
    size_t *line_off;  /* [1..nlines+1]: where each line starts (nlines+1: the text's end) */
    int *stmt_first;   /* [1..nlines]: the first line of the logical line holding each line
                          (a blank or comment line is its own) */
    int *stmt_last;    /* [1..nlines]: its last line */
    int *indent;       /* [1..nlines]: the indentation of the statement starting there, -1
                          where none starts (blank, comment, continuation, inside a string) */
    py_def *defs;      /* in source order */
    size_t ndefs;
    strset top_names;  /* what the column-0 statements surely bind: `def NAME`, `class NAME`,
                          `NAME = …`, `NAME: …`, `import a.b as NAME`, `from m import NAME` */
} py_outline;

/* Read text [0, len). Never fails; a text that is not Python gives some outline. */
py_outline *py_outline_read(const char *text, size_t len);
void py_outline_free(py_outline *o);

/* True when the statement holding line (1-based) spells word as a whole identifier in its raw
 * text (strings and comments included, so a call inside an f-string counts). */
bool py_outline_stmt_has_word(const py_outline *o, const char *text, int line, const char *word);

/* Append the imports of the statement starting at line when it is a simple import statement
 * in column 0 (`import a.b as c, d`, `from ..m import (x as y, z)`, `from m import *`) that
 * this reader fully knows: one entry per name, as syntax_imports gives them (module, name,
 * alias, level, line and column of the name). False, with nothing appended, for anything
 * else: the caller asks the parse. */
bool py_outline_imports(const py_outline *o, const char *text, int line, syn_import_list *out);

/* Add to out the names text's column-0 statements surely bind (top_names of its outline). */
void py_toplevel_names(const char *text, size_t len, strset *out);

#endif
