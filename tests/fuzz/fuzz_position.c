/* libFuzzer target for lsp/position.c: line indexing and UTF-8 / UTF-16 position conversion
 * over arbitrary bytes (invalid UTF-8, lone CRs, NULs). Offsets never leave the text, and
 * converting a position to bytes and back settles at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    long line = (long)(data[0] % 8) - 1;
    long ch = (long)data[1] * 3 - 8;
    bool utf8 = data[2] & 1;
    const char *text = (const char *)data + 3;
    size_t len = size - 3;
    line_index li;
    lines_build(&li, text, len);
    if (li.nlines < 1)
        abort();
    size_t off = pos_to_offset(&li, line, ch, utf8);
    if (off > len)
        abort();
    for (size_t l = 0; l < li.nlines && l < 16; l++) {
        size_t ll;
        const char *p = lines_get(&li, l, &ll);
        if (p < text || p + ll > text + len)
            abort();
        for (size_t u = 0; u <= ll * 2 + 2; u += 1 + u / 4) {
            size_t b = pos_bytes_from_units(p, ll, u, utf8);
            if (b > ll)
                abort();
            size_t back = pos_units_from_bytes(p, ll, b, utf8);
            if (back > u || pos_bytes_from_units(p, ll, back, utf8) != b)
                abort(); /* not settled */
        }
    }
    lines_free(&li);
    return 0;
}
