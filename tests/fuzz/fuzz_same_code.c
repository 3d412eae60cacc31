/* libFuzzer target for engine/same_code.c and engine/same_code_py.c: both same-code tests on
 * arbitrary bytes. The input is cut in two texts at its first NUL (or in half); each test must
 * read within both texts and give the same answer both ways round. The C/C++ test must hold for
 * a text and itself; the Python one, which says "not the same" for a text it cannot follow,
 * must never call two texts the same unless it can follow each. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/same_code.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *all = (const char *)data;
    const char *nul = memchr(all, '\0', size);
    size_t na = nul ? (size_t)(nul - all) : size / 2;
    const char *a = all, *b = all + na + (nul ? 1 : 0);
    size_t nb = size - (size_t)(b - all);
    if (!same_code_cpp(a, na, a, na) || !same_code_cpp(b, nb, b, nb))
        abort();
    if (same_code_cpp(a, na, b, nb) != same_code_cpp(b, nb, a, na))
        abort();
    bool py = same_code_py(a, na, b, nb);
    if (py != same_code_py(b, nb, a, na))
        abort();
    if (py && (!same_code_py(a, na, a, na) || !same_code_py(b, nb, b, nb)))
        abort();
    return 0;
}
