/* Watching the work tree with libuv, for a server whose client may send no watched-file
 * events (Debian's Neovim 0.7): one inotify watch per directory (Linux watches are not
 * recursive), skipping what git ignores and the insides of .git except HEAD, the refs and
 * the index; directories created later are picked up, removed ones released. Each change is
 * reported as a path relative to the work tree, or as "everything" (NULL) for git state
 * changes (checkout, commit, rebase, stash, pull) and for new directories. When the system's
 * watch limit is reached the watcher says so once and keeps what it has.
 *
 * Ownership: the watcher borrows the loop and the callbacks' data (both must outlive it);
 * strings passed to the callbacks are valid only during the call. */
#ifndef RL_LSP_WATCH_H
#define RL_LSP_WATCH_H

#include <stdbool.h>
#include <uv.h>

typedef struct watcher watcher;

/* relpath: a changed path relative to the work tree, or NULL when anything may have changed. */
typedef void (*watch_fn)(void *data, const char *relpath);

/* True when git ignores relpath (a directory ends in '/'): it is neither watched nor reported. */
typedef bool (*watch_ignored_fn)(void *data, const char *relpath);

/* Start watching workdir (absolute, ending in '/'). Returns NULL only when nothing at all can
 * be watched. *warning (caller frees) is set once when some directories could not be watched,
 * naming the sysctl to raise. */
watcher *watcher_start(uv_loop_t *loop, const char *workdir, watch_fn fn, watch_ignored_fn ignored,
                       void *data, char **warning);
/* Number of directories watched (for logs and tests). */
size_t watcher_count(const watcher *w);
/* Stop and release every handle; the memory goes once libuv has closed them. */
void watcher_stop(watcher *w);

#endif
