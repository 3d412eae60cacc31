/* Suppression comment matching (suppress.h). */
#include "engine/suppress.h"

#include <string.h>
#include <strings.h>

bool text_line_at(const char *text, size_t len, int lineno, const char **line, size_t *line_len)
{
    if (lineno < 1 || !text)
        return false;
    const char *p = text, *end = text + len;
    for (int i = 1; i < lineno; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return false;
        p = nl + 1;
    }
    if (p > end || (p == end && lineno > 1))
        return false;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *line = p;
    *line_len = (size_t)((nl ? nl : end) - p);
    return true;
}

bool suppress_line_ignores(const char *line, size_t len, const char *id)
{
    static const char key[] = "review: ignore[";
    size_t klen = sizeof key - 1;
    size_t idlen = strlen(id);
    for (size_t i = 0; i + klen <= len; i++) {
        if (memcmp(line + i, key, klen) != 0)
            continue;
        size_t j = i + klen;
        while (j < len && line[j] != ']') {
            while (j < len && (line[j] == ' ' || line[j] == ','))
                j++;
            size_t s = j;
            while (j < len && line[j] != ',' && line[j] != ']' && line[j] != ' ')
                j++;
            size_t n = j - s;
            if ((n == 1 && line[s] == '*') || (n == idlen && strncasecmp(line + s, id, n) == 0))
                return true;
        }
    }
    return false;
}
