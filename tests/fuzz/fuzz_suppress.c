/* libFuzzer target for engine/suppress.c: `review: ignore[...]` comments in arbitrary lines,
 * for an arbitrary rule id, and the line lookup the engine uses to find them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/suppress.h"
#include "engine/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* "ID\nLINE...": the first line is the rule id, the rest the text */
    const char *s = (const char *)data;
    const char *nl = memchr(s, '\n', size);
    size_t idn = nl ? (size_t)(nl - s) : 0;
    char *id = xstrndup(s, idn);
    const char *text = nl ? nl + 1 : s;
    size_t len = size - (size_t)(text - s);
    suppress_line_ignores(text, len, id);
    suppress_line_ignores(text, len, "*");
    for (int lineno = -1; lineno < 6; lineno++) {
        const char *line;
        size_t ll;
        if (text_line_at(text, len, lineno, &line, &ll)) {
            if (line < text || line + ll > text + len)
                abort();
            suppress_line_ignores(line, ll, id);
        }
    }
    free(id);
    return 0;
}
