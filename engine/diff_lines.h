/* Questions collectors ask of one changed file's diff lines: is a head line added, does the
 * change touch a span of head lines, and which head line stands for a deleted line (in a
 * rewrite, the added line most like it). Shared so every collector places findings about
 * deleted code the same way.
 *
 * Ownership: every function borrows the change_file it is given and keeps nothing. */
#ifndef RL_DIFF_LINES_H
#define RL_DIFF_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"
#include "engine/util.h" /* line_run */

/* True when head line `line` of f is an added line. */
bool diff_lines_added(const change_file *f, int line);
/* True when the change adds a head line in [first, last]. */
bool diff_lines_adds_in(const change_file *f, int first, int last);
/* True when the change adds a head line in [first, last] or deletes one from inside it (a
 * deletion whose head position is in (first, last]). */
bool diff_lines_touches(const change_file *f, int first, int last);
/* A new array of nlines + 2 flags, [line] true for the added head lines 1..nlines (added
 * lines past nlines are left out). */
bool *diff_lines_added_map(const change_file *f, int nlines);
/* The runs of consecutive added head lines of f, in order: out[i] = {first, last} (a new
 * array, *n runs; NULL when none). What syntax_query_touching takes. */
line_run *diff_lines_added_runs(const change_file *f, size_t *n);
/* Length of the longest run of bytes a[0..an) and b[0..bn) share, each read up to cap bytes
 * (at most 160), white space counted as it is. */
/* For each head line k of f (1 <= k < *nmap), the base line it was by the diff's hunks (0
 * for an added line), base_text (the base, base_len bytes) giving the number of lines; lines
 * outside the hunks move by the hunks before them. A new array: the line map a base is parsed
 * from its head's tree with (syntax_parse_from). */
int *diff_lines_head_to_base(const change_file *f, const char *base_text, size_t base_len, size_t *nmap);
size_t diff_lines_text_run(const char *a, size_t an, const char *b, size_t bn, size_t cap);
/* The head line for deleted diff line i of f: in a block of deletions followed by additions
 * (a rewrite), the added line most like it (longest shared run, read up to cap bytes), else
 * the one at the same position in the block; otherwise where the deletion happened. Clamped
 * to [1, last] (last 0: no upper clamp). */
int diff_lines_deleted_head(const change_file *f, size_t i, int last, size_t cap);

#endif
