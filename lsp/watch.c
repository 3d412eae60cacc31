/* Work tree watching on libuv (watch.h): a uv_fs_event per directory. */
#include "lsp/watch.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/util.h"

typedef struct dir_watch {
    uv_fs_event_t handle;
    char *rel;          /* directory relative to the work tree, "" for the root, ends in '/' */
    bool is_git;        /* .git or one of its ref directories */
    bool closing;
    struct watcher *w;
} dir_watch;

struct watcher {
    uv_loop_t *loop;
    char *workdir;
    watch_fn fn;
    watch_ignored_fn ignored;
    void *data;
    dir_watch **dirs;
    size_t ndirs, cap;
    bool limit_hit;
    char *warning;
    bool stopping;
    size_t open_handles;
};

static void add_tree(watcher *w, const char *rel);

/* True for directories never worth watching whatever .gitignore says. */
static bool skip_dir_name(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, ".git") == 0;
}

static dir_watch *find_dir(watcher *w, const char *rel)
{
    for (size_t i = 0; i < w->ndirs; i++)
        if (w->dirs[i] && strcmp(w->dirs[i]->rel, rel) == 0)
            return w->dirs[i];
    return NULL;
}

/* Free a closed handle's record; the watcher goes when its last handle is closed. */
static void on_closed(uv_handle_t *h)
{
    dir_watch *d = h->data;
    watcher *w = d->w;
    free(d->rel);
    free(d);
    if (--w->open_handles == 0 && w->stopping) {
        free(w->dirs);
        free(w->workdir);
        free(w->warning);
        free(w);
    }
}

static void release(watcher *w, size_t i)
{
    dir_watch *d = w->dirs[i];
    w->dirs[i] = NULL;
    if (!d || d->closing)
        return;
    d->closing = true;
    uv_fs_event_stop(&d->handle);
    uv_close((uv_handle_t *)&d->handle, on_closed);
}

/* git files whose change means HEAD, the refs or the index moved. */
static bool git_state_file(const char *rel_in_git)
{
    static const char *const names[] = {"HEAD", "index", "packed-refs", "ORIG_HEAD",
                                        "MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD",
                                        "rebase-merge", "rebase-apply", "FETCH_HEAD"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(rel_in_git, names[i]) == 0)
            return true;
    return false;
}

static void on_event(uv_fs_event_t *h, const char *filename, int events, int status);

/* Watch one directory (rel relative to the work tree, ending in '/'). */
static bool watch_dir(watcher *w, const char *rel, bool is_git)
{
    if (find_dir(w, rel) || w->limit_hit)
        return false;
    dir_watch *d = xcalloc(1, sizeof *d);
    d->rel = xstrdup(rel);
    d->is_git = is_git;
    d->w = w;
    uv_fs_event_init(w->loop, &d->handle);
    d->handle.data = d;
    w->open_handles++;
    char *abs = xasprintf("%s%s", w->workdir, rel);
    int rc = uv_fs_event_start(&d->handle, on_event, abs, 0);
    free(abs);
    if (rc < 0) {
        if (rc == UV_ENOSPC && !w->limit_hit) {
            w->limit_hit = true;
            w->warning = xstrdup(
                "review-lsp: the system's inotify watch limit is reached, so some directories "
                "are not watched; raise it with `sudo sysctl fs.inotify.max_user_watches=524288` "
                "(changes there still arrive through the editor's watched-file events)");
        }
        d->closing = true;
        uv_close((uv_handle_t *)&d->handle, on_closed);
        return false;
    }
    *ARRAY_PUSH(w->dirs, w->ndirs, w->cap) = d;
    return true;
}

/* Watch rel and every directory below it that git does not ignore. */
static void add_tree(watcher *w, const char *rel)
{
    if (!watch_dir(w, rel, false))
        return;
    char *abs = xasprintf("%s%s", w->workdir, rel);
    DIR *dp = opendir(abs);
    free(abs);
    if (!dp)
        return;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (skip_dir_name(de->d_name))
            continue;
        bool is_dir = de->d_type == DT_DIR;
        if (de->d_type == DT_UNKNOWN) {
            struct stat st;
            char *p = xasprintf("%s%s%s", w->workdir, rel, de->d_name);
            is_dir = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
            free(p);
        }
        if (!is_dir)
            continue;
        char *sub = xasprintf("%s%s/", rel, de->d_name);
        if (!w->ignored(w->data, sub))
            add_tree(w, sub);
        free(sub);
    }
    closedir(dp);
}

/* Watch .git itself and its ref directories. */
static void add_git(watcher *w)
{
    watch_dir(w, ".git/", true);
    static const char *const refs[] = {".git/refs/", ".git/refs/heads/", ".git/refs/remotes/",
                                       ".git/refs/stash"};
    for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
        struct stat st;
        char *p = xasprintf("%s%s", w->workdir, refs[i]);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            watch_dir(w, refs[i], true);
        free(p);
    }
    /* each remote's directory under refs/remotes */
    char *p = xasprintf("%s.git/refs/remotes", w->workdir);
    DIR *dp = opendir(p);
    free(p);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL)
            if (!skip_dir_name(de->d_name)) {
                char *sub = xasprintf(".git/refs/remotes/%s/", de->d_name);
                watch_dir(w, sub, true);
                free(sub);
            }
        closedir(dp);
    }
}

static void on_event(uv_fs_event_t *h, const char *filename, int events, int status)
{
    dir_watch *d = h->data;
    watcher *w = d->w;
    if (w->stopping || d->closing)
        return;
    if (status < 0 || !filename) {
        w->fn(w->data, NULL);
        return;
    }
    if (d->is_git) {
        /* lock files and objects come and go on every git command; the states that matter
           are HEAD, the index and the refs (anything in a ref directory) */
        bool in_refs = str_starts(d->rel, ".git/refs/");
        if (in_refs || git_state_file(filename)) {
            if (in_refs && !str_ends(filename, ".lock")) {
                char *sub = xasprintf("%s%s/", d->rel, filename);
                char *abs = xasprintf("%s%s", w->workdir, sub);
                struct stat st;
                if (stat(abs, &st) == 0 && S_ISDIR(st.st_mode))
                    watch_dir(w, sub, true);
                free(abs);
                free(sub);
            }
            w->fn(w->data, NULL);
        }
        return;
    }
    char *rel = xasprintf("%s%s", d->rel, filename);
    char *abs = xasprintf("%s%s", w->workdir, rel);
    struct stat st;
    bool exists = lstat(abs, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        /* a new (or renamed-in) directory: watch it, and let a full rescan find its files */
        char *sub = xasprintf("%s/", rel);
        if (!skip_dir_name(filename) && !w->ignored(w->data, sub))
            add_tree(w, sub);
        free(sub);
        w->fn(w->data, NULL);
    } else if (!exists && (events & UV_RENAME)) {
        /* maybe a watched directory went away: release it and everything below */
        char *sub = xasprintf("%s/", rel);
        bool was_dir = false;
        for (size_t i = 0; i < w->ndirs; i++)
            if (w->dirs[i] && str_starts(w->dirs[i]->rel, sub)) {
                release(w, i);
                was_dir = true;
            }
        free(sub);
        w->fn(w->data, was_dir ? NULL : rel);
    } else if (!w->ignored(w->data, rel)) {
        w->fn(w->data, rel);
    }
    free(abs);
    free(rel);
}

watcher *watcher_start(uv_loop_t *loop, const char *workdir, watch_fn fn, watch_ignored_fn ignored,
                       void *data, char **warning)
{
    watcher *w = xcalloc(1, sizeof *w);
    w->loop = loop;
    w->ignored = ignored;
    w->workdir = xstrdup(workdir);
    w->fn = fn;
    w->data = data;
    add_tree(w, "");
    add_git(w);
    if (warning)
        *warning = w->warning ? xstrdup(w->warning) : NULL;
    if (w->ndirs == 0) {
        w->stopping = true;
        if (w->open_handles == 0) {
            free(w->dirs);
            free(w->workdir);
            free(w->warning);
            free(w);
        }
        return NULL;
    }
    return w;
}

size_t watcher_count(const watcher *w)
{
    size_t n = 0;
    for (size_t i = 0; w && i < w->ndirs; i++)
        n += w->dirs[i] != NULL;
    return n;
}

void watcher_stop(watcher *w)
{
    if (!w)
        return;
    w->stopping = true;
    for (size_t i = 0; i < w->ndirs; i++)
        release(w, i);
    if (w->open_handles == 0) {
        free(w->dirs);
        free(w->workdir);
        free(w->warning);
        free(w);
    }
}
