/* Builds the change model (change.h) from a unified diff text: `git diff` output (with
 * `diff --git` headers, new/deleted/rename/binary markers) or a plain `---`/`+++` diff.
 * Hunks are read by their line counts, so content lines that begin with `+++` or `---` are
 * content, CRLF line ends are accepted, and a truncated diff keeps what was complete.
 *
 * Ownership: the text is borrowed; the returned change is the caller's (change_free). */
#ifndef RL_DIFF_PARSE_H
#define RL_DIFF_PARSE_H

#include <stddef.h>

#include "engine/change.h"

/* Parse text. Always returns a change (possibly with no files). *cause is set (caller frees)
 * when the text is empty or holds no file header ("not a unified diff"), and notes are added
 * to the change for recoverable problems (a truncated hunk, a malformed header). */
change *diff_parse(const char *text, size_t len, char **cause);

#endif
