/* Whether a change leaves a file's code as it was (same_code.c): only comments and white space
 * differ. Collectors that judge code have nothing to say about such a file. */
#ifndef RL_SAME_CODE_H
#define RL_SAME_CODE_H

#include <stdbool.h>
#include <stddef.h>

/* True when the two texts of a C/C++ file are the same code: equal once comments are read as
 * white space and every run of white space as one space (a preprocessor directive's line end
 * kept; literals compared as written). False whenever that cannot be told. */
bool same_code_cpp(const char *a, size_t alen, const char *b, size_t blen);

#endif
