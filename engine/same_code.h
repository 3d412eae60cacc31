/* Whether a change leaves a file's code as it was (same_code.c for C/C++, same_code_py.c for
 * Python): only comments and layout differ. Collectors that judge code have nothing to say
 * about such a file. */
#ifndef RL_SAME_CODE_H
#define RL_SAME_CODE_H

#include <stdbool.h>
#include <stddef.h>

/* True when the two texts of a C/C++ file are the same code: equal once comments are read as
 * white space and every run of white space as one space (a preprocessor directive's line end
 * kept; literals compared as written). False whenever that cannot be told. */
bool same_code_cpp(const char *a, size_t alen, const char *b, size_t blen);

/* True when the two texts of a Python file are the same code (same_code_py.c): equal token by
 * token once comments, blank lines, white space, line breaks inside brackets, indentation
 * widths (not block levels), string quotes and trailing commas that change nothing are set
 * aside. False whenever that cannot be told. */
bool same_code_py(const char *a, size_t alen, const char *b, size_t blen);

#endif
