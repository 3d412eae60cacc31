/* Suppression comments: `review: ignore[ID]` (or `ignore[ID1, ID2]`, `ignore[*]`) in a line's
 * comment silences those rules' findings on that line, in every face of the tool. */
#ifndef RL_SUPPRESS_H
#define RL_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

/* True when the line (len bytes) carries a suppression naming rule id (or *). */
bool suppress_line_ignores(const char *line, size_t len, const char *id);
/* The text of line number lineno (1-based) in text, as a pointer and length; false if absent. */
bool text_line_at(const char *text, size_t len, int lineno, const char **line, size_t *line_len);

#endif
