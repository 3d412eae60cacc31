/* Names a Python module surely binds at its top level, read from its text without parsing
 * (py_toplevel.c): the statements that start in column 0 outside any string, bracket or
 * backslash continuation are the module's own statements, so `def NAME`, `class NAME`,
 * `NAME = …`, `NAME: …`, `import a.b as NAME` and `from m import NAME` there bind NAME.
 *
 * The answer is one-sided: a name listed is bound; a name not listed may still be (inside a
 * top-level if/try, in `__all__`, through a star import, as a second assignment target), and
 * the caller asks the parse for those. */
#ifndef RL_PY_TOPLEVEL_H
#define RL_PY_TOPLEVEL_H

#include <stddef.h>

#include "engine/strset.h"

/* Add to out every name the column-0 statements of text [0, len) bind, as above. */
void py_toplevel_names(const char *text, size_t len, strset *out);

#endif
