/* libFuzzer target for engine/same_code.c: the C/C++ same-code test on arbitrary bytes. The
 * input is cut in two texts at its first NUL (or in half); the test must read within both, hold
 * for a text and itself, and give the same answer both ways round. */
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
    return 0;
}
