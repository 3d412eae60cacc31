/* Reading TOML: the repository configuration (repo_config.h) is TOML, and TOML is parsed by
 * cpptoml (Debian's libcpptoml-dev, header-only C++), never by hand. This header is the C face
 * of the one C++ translation unit, engine/toml_read.cpp: it turns a table of the document into
 * JSON values (jansson) and says on which line each key of that table starts, so that a
 * configuration value can be traced back to its line.
 *
 * Ownership: text and table are borrowed; *value, *lines and *cause are new and the caller's
 * (json_decref, free). */
#ifndef RL_TOML_READ_H
#define RL_TOML_READ_H

#include <jansson.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse text (len bytes, not necessarily NUL-terminated) as TOML. table names the table to
 * return as a dotted key path ("tool.review-lsp"), or NULL for the whole document.
 *
 * On success returns 0 with *value the table as a JSON object (NULL when the document has no
 * such table) and *lines an object mapping each key path inside the table to the line
 * (1-based) its statement starts on: "base", "severity.D11", "overrides[0]",
 * "overrides[0].paths". A key whose line cannot be told (a document too large to trace) is
 * missing from *lines.
 *
 * On a malformed document returns -1 with *cause (cpptoml's message) and *line the line it
 * names (0 when it names none); *value and *lines are NULL. Strings, integers, floats and
 * booleans map to their JSON kinds, dates and times to their TOML text, arrays of tables to
 * arrays of objects. */
int toml_read(const char *text, size_t len, const char *table, json_t **value, json_t **lines,
              int *line, char **cause);

#ifdef __cplusplus
}
#endif

#endif
