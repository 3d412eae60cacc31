/* Thin wrapper over pcre2 with the semantics the original Python triage relies on: Unicode
 * \w, \b and \s (PCRE2_UCP), no multiline unless the pattern says (?m), and tolerance of
 * invalid UTF-8 in the subject. Patterns are JIT-compiled once. A compiled regex is
 * immutable and may be used from several threads at once. */
#ifndef RL_REGEX_H
#define RL_REGEX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct regex regex;

/* Compile pattern; NULL with *cause ("what at offset N") on a bad pattern. */
regex *rx_compile(const char *pattern, bool caseless, char **cause);
void rx_free(regex *rx);
/* Search subject; returns 1 on a match (setting start and end when non-NULL), 0 on none,
 * -1 on a matching error (limits), never crashes on bad UTF-8. */
int rx_search(const regex *rx, const char *subject, size_t len, size_t *start, size_t *end);
/* Convenience: true when it matches the NUL-terminated s. */
bool rx_test(const regex *rx, const char *s);
const char *rx_pattern(const regex *rx);

#endif
