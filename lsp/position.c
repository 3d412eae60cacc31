/* UTF-8 / UTF-16 position conversion over a line index (see position.h). */
#include "lsp/position.h"

#include <string.h>

#include <stdlib.h>

#include "engine/util.h"

/* Index the line starts of text. */
void lines_build(line_index *li, const char *text, size_t len)
{
    size_t cap = 16;
    li->text = text;
    li->len = len;
    li->starts = xmalloc(cap * sizeof *li->starts);
    li->nlines = 0;
    li->starts[li->nlines++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n')
            continue;
        if (li->nlines == cap) {
            cap *= 2;
            li->starts = xrealloc(li->starts, cap * sizeof *li->starts);
        }
        li->starts[li->nlines++] = i + 1;
    }
}

/* Release the index (not the text). */
void lines_free(line_index *li)
{
    free(li->starts);
    memset(li, 0, sizeof *li);
}

/* Return the bytes of a line without its line break. */
const char *lines_get(const line_index *li, size_t line, size_t *line_len)
{
    if (line >= li->nlines)
        line = li->nlines - 1;
    size_t a = li->starts[line];
    size_t b = line + 1 < li->nlines ? li->starts[line + 1] - 1 : li->len;
    if (b > a && li->text[b - 1] == '\r')
        b--;
    *line_len = b - a;
    return li->text + a;
}

/* Length in bytes of the UTF-8 sequence at s (at most n bytes), and its UTF-16 length; an
 * invalid sequence is one byte and one unit. */
static size_t utf8_seq(const unsigned char *s, size_t n, size_t *u16)
{
    unsigned char c = s[0];
    size_t len;
    unsigned cp;
    *u16 = 1;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07;
    else
        return 1;
    if (len > n)
        return 1;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 1;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* Reject overlong forms and surrogates so the count matches what a decoder shows. */
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 1;
    *u16 = len == 4 ? 2 : 1;
    return len;
}

/* Count the units in the first byte_col bytes of a line. */
size_t pos_units_from_bytes(const char *line, size_t line_len, size_t byte_col, bool utf8)
{
    if (byte_col > line_len)
        byte_col = line_len;
    if (utf8)
        return byte_col;
    const unsigned char *s = (const unsigned char *)line;
    size_t i = 0, units = 0;
    while (i < byte_col) {
        size_t u16;
        size_t l = utf8_seq(s + i, line_len - i, &u16);
        i += l;
        units += u16;
    }
    return units;
}

/* Convert a unit offset to a byte column, snapping back inside a character. */
size_t pos_bytes_from_units(const char *line, size_t line_len, size_t units, bool utf8)
{
    const unsigned char *s = (const unsigned char *)line;
    size_t i = 0, u = 0;
    while (i < line_len) {
        size_t u16;
        size_t l = utf8_seq(s + i, line_len - i, &u16);
        size_t w = utf8 ? l : u16;
        if (u + w > units)
            return i;
        u += w;
        i += l;
    }
    return line_len;
}

/* Convert an LSP position to a byte offset in the text. */
size_t pos_to_offset(const line_index *li, long line, long character, bool utf8)
{
    if (line < 0)
        return 0;
    if ((size_t)line >= li->nlines)
        return li->len;
    size_t ll;
    const char *p = lines_get(li, (size_t)line, &ll);
    size_t col = character < 0 ? 0 : pos_bytes_from_units(p, ll, (size_t)character, utf8);
    return (size_t)(p - li->text) + col;
}
