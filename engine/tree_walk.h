/* Walking the head tree for the tree-wide indexes that collectors keep (include fan-in,
 * twins): every file under a root whose name a collector wants, in sorted order, skipping the
 * directories no review looks into (dot directories such as .git, build*, node_modules,
 * 3rdparty) and symbolic links to directories.
 *
 * Ownership: strings passed in are borrowed; the path handed to the callback is valid only
 * during the call. */
#ifndef RL_TREE_WALK_H
#define RL_TREE_WALK_H

#include <stdbool.h>

/* True when a directory name is never walked. */
bool tree_walk_skips_dir(const char *name);
/* True when a relative path lies inside a directory the walk skips. */
bool tree_walk_in_skipped_dir(const char *rel);
/* Call visit(data, rel) for every file below root (rel relative to root) whose base name
 * passes want(name). */
void tree_walk(const char *root, bool (*want)(const char *name),
               void (*visit)(void *data, const char *rel), void *data);

#endif
