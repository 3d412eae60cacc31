/* The git side of the change model, through libgit2 in-process (never the git program, never
 * hooks): find the repository, resolve the base (setting, upstream, origin/main,
 * origin/master, main, master, else HEAD; then the merge base with HEAD), and build the change
 * from the base tree to the work tree, with the editor's unsaved buffers laid over it.
 *
 * Ownership: a repo owns its libgit2 handles; strings passed in are borrowed; returned
 * strings and changes belong to the caller. */
#ifndef RL_REPO_H
#define RL_REPO_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"

typedef struct repo repo;

typedef struct overlay {
    const char *path;   /* relative to the work tree */
    const char *text;
    size_t len;
} overlay;

/* Open the repository containing path. Returns NULL with *cause when path is not inside one. */
repo *repo_open(const char *path, char **cause);
void repo_free(repo *r);
const char *repo_workdir(const repo *r);   /* absolute, ends with '/' */

/* Resolve the base for the target setting (NULL: the default chain). Returns 0; notes about
 * fallbacks go to *notes (caller frees, may be NULL). *desc describes the choice. */
int repo_resolve_base(repo *r, const char *target, char **desc, char **notes);
/* True when spec (a ref, a revision expression) names a commit here. */
bool repo_names_commit(repo *r, const char *spec);
/* The resolved base commit id as hex ("" for an unborn branch: everything is new). */
const char *repo_base_id(const repo *r);

/* Build the change: every file that differs between the base and the work tree (with
 * overlays), untracked-not-ignored files as new files, renames and deletions represented,
 * binary files, submodules, symbolic links (never followed: reported with their target) and
 * files or unsaved buffers over max_bytes skipped with a note. Returns NULL with
 * *cause when the repository cannot be read at all. */
change *repo_build_change(repo *r, const overlay *ovl, size_t novl, size_t max_bytes, char **cause);

/* Diff a single path (work tree or overlay text) against the base, for incremental updates.
 * Returns 0 and sets *out to a file (caller frees with change_file_clear + free) or NULL
 * when the path no longer differs; -1 with *cause on error. A symbolic link, a file or a
 * buffer over max_bytes comes back skipped (is_skipped, skip_reason) for the caller to note. */
int repo_diff_path(repo *r, const char *path, const char *text, size_t len, size_t max_bytes,
                   change_file **out, char **cause);

/* True when git ignores path (relative to the work tree). */
bool repo_path_ignored(repo *r, const char *path);

/* The base version of a path (NULL with *cause when it has none). The one call that may be
 * made from two threads at once (the two reading threads of a batch review); the others are
 * made from one thread at a time. */
char *repo_base_text(repo *r, const char *path, size_t *len, char **cause);

/* The default title: newest commit subject since the base, else the branch name, else "". */
char *repo_default_title(repo *r);

/* The merge target (for the review packet). After repo_resolve_base: the commit the base was
 * taken from, as hex, and the name it was chosen by ("origin/main", "HEAD"); "" for both on an
 * unborn branch. */
const char *repo_target_id(const repo *r);
const char *repo_target_name(const repo *r);
/* The commit a revision names, as hex into hex (41 bytes); 0, or -1 when it names none. */
int repo_commit_id(repo *r, const char *spec, char hex[41]);
/* The text of path in the commit hex (a new string, *len set), or NULL: with *exists false
 * when the commit has no such path, true when it has one that is not a text blob. */
char *repo_commit_text(repo *r, const char *hex, const char *path, size_t *len, bool *exists);

#endif
