/* The path gate: the one door through which the engine opens a file under a root (the work
 * tree, or the --root of a diff). Paths come from outside — diff headers, URIs, watched-file
 * events, collectors following imports — so each is first normalised lexically ("a//./b" is
 * "a/b", "a/../b" is "b"; "" is the root itself) and refused when it is absolute or climbs
 * out of the root.
 * Opening then resolves the path beneath the root without following any symbolic link:
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel has it (checked at each
 * call: ENOSYS or EPERM falls back), else a component-by-component walk with O_NOFOLLOW.
 * A symbolic link anywhere on the way is refused (ELOOP); a refused or missing file comes
 * back with a cause worth showing as a note. Only regular files are read (a FIFO would block).
 *
 * Ownership: string arguments are borrowed; returned strings are the caller's (free), as are
 * returned descriptors and DIR handles. No state is kept between calls. */
#ifndef RL_PATH_GATE_H
#define RL_PATH_GATE_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* The normalised form of a relative path (a new string; "" for the root itself), or NULL with
 * *why (static text) when it is absolute or leaves the root. */
char *gate_normalize(const char *rel, const char **why);

/* Open root/rel with flags (O_RDONLY, or O_DIRECTORY for a directory; O_NOFOLLOW and
 * O_CLOEXEC are always added). Returns a descriptor, or -1 with errno: EXDEV when the path
 * leaves the root, ELOOP when a symbolic link is on the way, else the open error. */
int gate_open(const char *root, const char *rel, int flags);
/* The same through the O_NOFOLLOW walk only (what kernels without openat2 get; for tests). */
int gate_open_walk(const char *root, const char *rel, int flags);

/* Read the regular file root/rel whole, refusing it above max_bytes (0: no limit). Returns
 * the text (NUL-terminated; its length in *len) or NULL with *cause (caller frees; may be
 * NULL), which names the path and says why: outside the tree, a symbolic link (with its
 * target), not a regular file, too large, or the system error. */
char *gate_read(const char *root, const char *rel, size_t max_bytes, size_t *len, char **cause);

/* lstat of root/rel reached through the gate (the last component is not followed). Returns 0,
 * or -1 with errno as gate_open. */
int gate_lstat(const char *root, const char *rel, struct stat *st);
/* True when root/rel is a regular file / a directory (reached through the gate, no links). */
bool gate_is_file(const char *root, const char *rel);
bool gate_is_dir(const char *root, const char *rel);

/* Open the directory root/rel ("" for the root) for readdir; NULL with errno when refused. */
DIR *gate_opendir(const char *root, const char *rel);

/* The target string of the symbolic link root/rel (never followed), or NULL. */
char *gate_readlink(const char *root, const char *rel);

/* Why root/rel cannot be read, as a note ("PATH: not read: ..."), or NULL when it can (or is
 * simply absent). Used to report refusals of paths a change names. */
char *gate_refusal(const char *root, const char *rel);

#endif
