/* Text that is not valid UTF-8, made fit for outputs that require it (JSON, SARIF, LSP)
 * without dropping it: a message keeps every valid character and shows each invalid byte as
 * U+FFFD; a path keeps every byte, invalid ones escaped (\xNN, or %NN inside a URI), so two
 * odd names never collapse into one. Valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF) passes through unchanged.
 *
 * Ownership: arguments are borrowed; every returned string is new (the caller frees it). */
#ifndef RL_UTF8_H
#define RL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s[0, n), or 0 when s[0] does not start one. */
size_t utf8_sequence(const unsigned char *s, size_t n);
bool utf8_valid(const char *s, size_t n);
/* s with each invalid byte replaced by U+FFFD. NULL in, "" out. */
char *utf8_sanitize(const char *s);
/* A path with each invalid byte written as \xNN (escape '\\') or %NN (escape '%'). */
char *utf8_escape_path(const char *s, char escape);

#endif
