/* Position encoding: LSP positions are (line, character) where character counts UTF-16 code
 * units by default, or UTF-8 bytes when both sides negotiate "utf-8". The engine speaks byte
 * columns. These functions convert between the two on a line index of the text, counting an
 * invalid UTF-8 byte as one unit (the replacement character a client shows for it) and
 * clamping out-of-range positions to the nearest valid place (end of line, end of text).
 * Lines end at "\n"; a "\r" before it is not part of the line. Pure code.
 *
 * Ownership: a line_index borrows its text (which must outlive it) and owns its array. */
#ifndef RL_LSP_POSITION_H
#define RL_LSP_POSITION_H

#include <stdbool.h>
#include <stddef.h>

typedef struct line_index {
    const char *text;
    size_t len;
    size_t *starts;  /* byte offset of each line's first byte */
    size_t nlines;   /* at least 1 */
} line_index;

void lines_build(line_index *li, const char *text, size_t len);
void lines_free(line_index *li);
/* The bytes of line (0-based; clamped to the last line) without its line break. */
const char *lines_get(const line_index *li, size_t line, size_t *line_len);

/* Units (UTF-16 code units, or bytes when utf8) in the first byte_col bytes of a line. */
size_t pos_units_from_bytes(const char *line, size_t line_len, size_t byte_col, bool utf8);
/* The byte column of a unit offset, snapped back to a character start and clamped to the
 * line's length. */
size_t pos_bytes_from_units(const char *line, size_t line_len, size_t units, bool utf8);
/* The byte offset in the text of an LSP position (negative values clamp to 0; a line past the
 * end gives the text's end). */
size_t pos_to_offset(const line_index *li, long line, long character, bool utf8);

#endif
