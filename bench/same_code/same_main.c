/* A driver for bench/same_code/ast_check.py: exit 0 when the two Python files it is given are
 * the same code by engine/same_code_py.c, 1 when not, 2 when one cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/same_code.h"
#include "engine/util.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: same_main BASE HEAD\n");
        return 2;
    }
    size_t na = 0, nb = 0;
    char *cause = NULL;
    char *a = read_file(argv[1], 0, &na, &cause);
    char *b = a ? read_file(argv[2], 0, &nb, &cause) : NULL;
    if (!a || !b)
        fprintf(stderr, "same_main: %s\n", cause ? cause : "cannot read");
    int rc = a && b ? (same_code_py(a, na, b, nb) ? 0 : 1) : 2;
    free(cause);
    free(a);
    free(b);
    return rc;
}
