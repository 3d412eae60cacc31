/* Whether a change still applies to another tree (the merge target's), decided as
 * `git apply --check` decides it, for the review packet's applies.txt: each hunk's old side
 * (context and deleted lines) must appear in the target's file exactly, at its stated line or
 * moved by an offset (searched outward from there, hunks in order, never overlapping); a hunk
 * starting at line 1 must match at the top and one without trailing context at the end; a new
 * file must not exist in the target, a modified, renamed or deleted one must. libgit2's own
 * apply does not search offsets and does not anchor hunks at the end, so it disagrees with git
 * on real pull requests; this check does not.
 *
 * Ownership: the change and the reader's argument are borrowed; *detail is the caller's. */
#ifndef RL_APPLY_CHECK_H
#define RL_APPLY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"

/* The target's text of path (a new string the caller frees), or NULL with *exists false when
 * the target has no such file (true when it has one that cannot be read as text). */
typedef char *(*apply_read_fn)(void *arg, const char *path, size_t *len, bool *exists);

/* 1: every file applies (*detail may name files that could not be checked, such as binary
 * ones); 0: a file does not, and *detail says which and where. */
int apply_check(const change *c, apply_read_fn read, void *arg, char **detail);

#endif
