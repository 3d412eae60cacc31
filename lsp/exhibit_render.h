/* Rendering a finding's exhibits (engine/finding.h) for the faces of the tool, each in its own
 * idiom. Pure code, shared by the server and the batch CLI:
 *
 *   exhibit_md.c    Markdown: GitHub-style tables, fenced diff blocks, aligned lines in a
 *                   fence, a caret line under a highlighted span, numbered chains of linked
 *                   places. Hover (within its byte budget, at a lower level of detail when the
 *                   whole does not fit), the review checklist and "Show evidence" (whole), and
 *                   SARIF's message.markdown.
 *   exhibit_text.c  aligned plain text: `check --format text`, the review packet, and hovers
 *                   for clients that take no Markdown.
 *
 * A place (path, line) becomes a Markdown link through the caller's function, since a link
 * differs by face: a file: URI with #L in the editor, a related location's id in SARIF.
 *
 * Ownership: exhibits and the link context are borrowed; output is appended to the caller's
 * strbuf; a link function returns a new string (or NULL: the place is shown as plain text). */
#ifndef RL_LSP_EXHIBIT_RENDER_H
#define RL_LSP_EXHIBIT_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/finding.h"
#include "engine/util.h"

typedef char *(*exhibit_link_fn)(void *ctx, const char *path, int line);

typedef enum exhibit_detail {
    EXHIBIT_FULL,     /* every row */
    EXHIBIT_COMPACT,  /* tables keep their marked rows (the rest counted); other kinds whole */
    EXHIBIT_TITLES,   /* each exhibit's title only */
} exhibit_detail;

/* Append n exhibits as Markdown at a level of detail, each as its own block (starting with a
 * blank line). Returns how many rows or exhibits were left out (0: all shown; rows the model
 * itself capped count too). */
size_t exhibit_markdown(strbuf *md, const exhibit *ex, size_t n, exhibit_detail detail,
                        exhibit_link_fn link, void *ctx);

/* Append n exhibits as plain text, every line starting with `indent` spaces, each exhibit a
 * title line ending in ":" and its rows indented two more. */
void exhibit_text(strbuf *out, const exhibit *ex, size_t n, int indent);

/* Display width of a UTF-8 string in code points (each counts one column). */
size_t exhibit_width(const char *s, size_t n);

/* Whether the place (path, line) is shown by one of the exhibits (so a list of related
 * locations beside them need not repeat it). */
bool exhibit_shows_place(const exhibit *ex, size_t n, const char *path, int line);

#endif
