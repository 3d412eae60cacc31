/* A driver for bench/same_code/ast_check.py: exit 0 when the two Python files it is given are
 * the same code by engine/same_code_py.c, 1 when not, 2 when one cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/same_code.h"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        size_t got = fread(buf + *n, 1, cap - *n, f);
        *n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: same_main BASE HEAD\n");
        return 2;
    }
    size_t na = 0, nb = 0;
    char *a = slurp(argv[1], &na), *b = slurp(argv[2], &nb);
    int rc = a && b ? (same_code_py(a, na, b, nb) ? 0 : 1) : 2;
    free(a);
    free(b);
    return rc;
}
