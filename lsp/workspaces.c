/* The repositories under review. Each workspace folder the client names (workspaceFolders in
 * initialize, later workspace/didChangeWorkspaceFolders; else rootUri or rootPath) is opened as
 * the git work tree that holds it, with its own engine, watcher and latest review, so a
 * multi-root workspace spanning two repositories gets two reviews. Folders inside the same work
 * tree share one. Also maps client URIs to (repository, path relative to its work tree),
 * refusing politely anything that is not a local file inside one of them, and knows where each
 * repository's rules file lies, writing the bundled catalogue to a cache file so links and
 * showDocument have something to open. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/path_gate.h"
#include "lsp/server.h"
#include "lsp/uri.h"

/* A path with a trailing '/' (new string). */
static char *with_slash(const char *p)
{
    size_t n = strlen(p);
    return n && p[n - 1] == '/' ? xstrdup(p) : xasprintf("%s/", p);
}

/* Hand the current settings to a workspace's engine (a relative rulesPath resolved against
 * its folder). */
void workspaces_configure(server *s, workspace *ws)
{
    engine_settings es;
    char *tmp = NULL;
    settings_to_engine(&s->cfg, ws->root, &es, &tmp);
    engine_configure(ws->eng, &es);
    free(tmp);
    free(ws->rules_file);
    ws->rules_file = NULL;
}

/* The workspace whose work tree is workdir, or NULL. */
static workspace *find_workdir(server *s, const char *workdir)
{
    for (workspace *w = s->wss; w; w = w->next)
        if (strcmp(w->workdir, workdir) == 0)
            return w;
    return NULL;
}

/* Open the repository holding the folder root (borrowed) and add it, unless a workspace for
 * that work tree exists already. Returns the workspace, or NULL (told to the user). */
workspace *workspaces_add(server *s, const char *root)
{
    engine_settings es;
    char *tmp = NULL;
    settings_to_engine(&s->cfg, root, &es, &tmp);
    char *cause = NULL;
    engine *eng = engine_open_repo(root, &es, &cause);
    free(tmp);
    if (!eng) {
        show_message(s, LOG_WARNING, "review-lsp: %s: %s; no findings will be shown", root,
                     cause ? cause : "cannot open the repository");
        free(cause);
        return NULL;
    }
    workspace *old = find_workdir(s, engine_workdir(eng));
    if (old) {
        log_msg(s, LOG_INFO, "%s is inside the work tree %s, reviewed already", root, old->workdir);
        old->nfolders++;
        engine_free(eng);
        return old;
    }
    workspace *ws = xcalloc(1, sizeof *ws);
    ws->eng = eng;
    ws->workdir = xstrdup(engine_workdir(eng));
    ws->nfolders = 1;
    /* Keep the client's spelling of the work tree when it is the same directory (a symlink),
     * so the URIs we send match the ones it knows. */
    char real[PATH_MAX];
    if (realpath(root, real)) {
        char *r = with_slash(real);
        if (strcmp(r, ws->workdir) == 0)
            ws->root = with_slash(root);
        free(r);
    }
    if (!ws->root)
        ws->root = xstrdup(ws->workdir);
    workspace **pp = &s->wss;
    while (*pp)
        pp = &(*pp)->next;
    *pp = ws;
    const char *problem = engine_catalog_problem(eng);
    if (problem)
        show_message(s, LOG_WARNING, "review-lsp: %s", problem);
    log_msg(s, LOG_INFO, "review-lsp %s: work tree %s, rules %s, positions in %s",
            REVIEW_LSP_VERSION, ws->workdir, engine_catalog(eng)->path,
            s->caps.utf8 ? "utf-8" : "utf-16");
    return ws;
}

/* A watched path changed (NULL: anything may have): mark it and review after the debounce. */
static void on_watch(void *data, const char *relpath)
{
    workspace *ws = data;
    if (relpath)
        engine_mark_dirty(ws->eng, relpath);
    else
        engine_mark_all_dirty(ws->eng);
    diagnostics_schedule(ws->owner, ws);
}

/* Watch each work tree not watched yet (not every client sends watched-file events); with
 * the watcher running, the engine re-diffs only what changed. */
void workspaces_watch(server *s)
{
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        if (ws->watch)
            continue;
        char *warning = NULL;
        ws->owner = s;
        ws->watch = watcher_start(&s->loop, ws->eng, ws->workdir, on_watch, ws, &warning);
        if (warning) {
            log_msg(s, LOG_WARNING, "%s", warning);
            show_message(s, LOG_WARNING, "%s", warning);
            free(warning);
        }
        if (ws->watch)
            engine_set_incremental(ws->eng, true);
        log_msg(s, LOG_LOG, "watching %zu directories of %s", watcher_count(ws->watch), ws->workdir);
    }
}

/* Stop watching every work tree (at exit). */
void workspaces_stop_watching(server *s)
{
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        watcher_stop(ws->watch);
        ws->watch = NULL;
    }
}

/* Release one workspace. */
static void ws_free(workspace *ws)
{
    watcher_stop(ws->watch);
    if (ws->last)
        review_free(ws->last);
    engine_free(ws->eng);
    free(ws->root);
    free(ws->workdir);
    free(ws->rules_file);
    free(ws);
}

/* Free every workspace at exit. */
void workspaces_free_all(server *s)
{
    while (s->wss) {
        workspace *ws = s->wss;
        s->wss = ws->next;
        ws_free(ws);
    }
}

/* Relative path of an absolute path under prefix, or NULL. */
static char *under(const char *path, const char *prefix)
{
    if (!prefix || !str_starts(path, prefix) || !path[strlen(prefix)])
        return NULL;
    return xstrdup(path + strlen(prefix));
}

/* True when a path has "." or ".." components, which a textual prefix test cannot trust. */
static bool has_dot_component(const char *p)
{
    return str_contains(p, "/../") || str_contains(p, "/./") || str_ends(p, "/..") ||
           str_ends(p, "/.");
}

/* The path of `path` relative to the work tree that holds it most closely (nested
 * repositories: the inner one), setting *out. NULL when none holds it. */
static char *relative_to_any(server *s, const char *path, workspace **out)
{
    char *best = NULL;
    size_t best_len = 0;
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        const char *prefixes[2] = {ws->root, ws->workdir};
        for (int k = 0; k < 2; k++) {
            char *rel = under(path, prefixes[k]);
            if (rel && strlen(ws->workdir) > best_len) {
                free(best);
                best = rel;
                best_len = strlen(ws->workdir);
                *out = ws;
            } else {
                free(rel);
            }
        }
    }
    return best;
}

/* The path relative to a work tree of an absolute path, resolving symlinks (the file itself
 * may not exist yet: resolve its directory). */
static char *resolve_relative(server *s, char *path, workspace **out)
{
    char *rel = has_dot_component(path) ? NULL : relative_to_any(s, path, out);
    if (rel)
        return rel;
    char real[PATH_MAX];
    char *slash = strrchr(path, '/');
    if (realpath(path, real))
        return relative_to_any(s, real, out);
    if (slash && slash != path) {
        *slash = '\0';
        if (realpath(path, real)) {
            char *full = xasprintf("%s/%s", real, slash + 1);
            if (!has_dot_component(full))
                rel = relative_to_any(s, full, out);
            free(full);
        }
        *slash = '/';
    }
    return rel;
}

/* Map a client URI to a workspace and a path relative to its work tree. */
char *workspaces_relpath(server *s, const char *uri, workspace **ws, const char **why)
{
    if (!s->wss) {
        *why = "no git repository is open";
        return NULL;
    }
    char *path = uri_to_path(uri, why);
    if (!path)
        return NULL;
    workspace *w = NULL;
    char *rel = resolve_relative(s, path, &w);
    free(path);
    if (!rel) {
        *why = "outside the workspace's git work tree";
        return NULL;
    }
    /* git's commit buffers are read for perf claims (the engine never adds them to the change);
       everything else inside .git is not ours to review */
    bool commit_buffer = strcmp(rel, ".git/COMMIT_EDITMSG") == 0 || strcmp(rel, ".git/MERGE_MSG") == 0;
    if (!commit_buffer && (str_starts(rel, ".git/") || strcmp(rel, ".git") == 0)) {
        free(rel);
        *why = "inside .git";
        return NULL;
    }
    *ws = w;
    return rel;
}

/* The workspace a command argument names: a URI of a folder or file inside it (NULL or
 * unknown: the first workspace). */
workspace *workspaces_for_uri(server *s, const char *uri)
{
    if (!uri)
        return s->wss;
    char *path = uri_to_path(uri, &(const char *){NULL});
    workspace *w = NULL;
    if (path) {
        char *withslash = with_slash(path);
        for (workspace *ws = s->wss; ws && !w; ws = ws->next)
            if (strcmp(withslash, ws->root) == 0 || strcmp(withslash, ws->workdir) == 0)
                w = ws;
        free(withslash);
        if (!w) {
            char *rel = resolve_relative(s, path, &w);
            free(rel);
        }
    }
    free(path);
    return w ? w : s->wss;
}

/* A directory we own: created 0700 when missing, then trusted only when lstat shows a real
 * directory (not a link) owned by this user that nobody else can write. Returns 0, or -1 with
 * *why (caller frees). */
static int own_private_dir(const char *dir, char **why)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        *why = xasprintf("%s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0) {
        *why = xasprintf("%s: %s", dir, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode))
        *why = xasprintf("%s is a symbolic link", dir);
    else if (!S_ISDIR(st.st_mode))
        *why = xasprintf("%s is not a directory", dir);
    else if (st.st_uid != getuid())
        *why = xasprintf("%s belongs to user %u", dir, (unsigned)st.st_uid);
    else if (st.st_mode & 077)
        *why = xasprintf("%s can be written or read by others (mode %03o)", dir,
                         (unsigned)(st.st_mode & 0777));
    else
        return 0;
    return -1;
}

/* The directory for the copy of the bundled rules: $XDG_CACHE_HOME/review-lsp, else
 * ~/.cache/review-lsp, else (neither set: a service account, a bare CI shell) a per-user
 * directory under $XDG_RUNTIME_DIR, $TMPDIR or /tmp. A shared temporary directory is a place
 * where others can plant a link or a directory of their own under a predictable name, so
 * there every directory is checked with own_private_dir. Returns the versioned directory
 * (caller frees), or NULL with *why. */
static char *rules_cache_dir(char **why)
{
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *runtime = getenv("XDG_RUNTIME_DIR"), *tmp = getenv("TMPDIR");
    bool shared = !(cache && *cache) && !(home && *home);
    char *dir = cache && *cache ? xasprintf("%s/review-lsp", cache)
                : home && *home ? xasprintf("%s/.cache/review-lsp", home)
                : runtime && *runtime ? xasprintf("%s/review-lsp", runtime)
                : xasprintf("%s/review-lsp-%u", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
    char *vdir = xasprintf("%s/%s", dir, REVIEW_LSP_VERSION);
    int rc = 0;
    if (shared) {
        rc = own_private_dir(dir, why);
        if (rc == 0)
            rc = own_private_dir(vdir, why);
    } else {
        char *parent = xstrdup(dir);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0700);
        }
        free(parent);
        mkdir(dir, 0700);
        mkdir(vdir, 0700);
    }
    free(dir);
    if (rc != 0) {
        free(vdir);
        return NULL;
    }
    return vdir;
}

/* Write the bundled rules to path unless it already holds them. Returns 0, or -1 with *why. */
static int write_rules_copy(const rule_catalog *cat, const char *path, char **why)
{
    size_t len = 0;
    char *old = read_file(path, 0, &len, NULL);
    bool same = old && len == cat->source_len && memcmp(old, cat->source, len) == 0;
    free(old);
    if (same)
        return 0;
    char *tmp = xasprintf("%s.%d.tmp", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = f && fwrite(cat->source, 1, cat->source_len, f) == cat->source_len;
    if (f && fclose(f) != 0)
        ok = false;
    else if (!f && fd >= 0)
        close(fd);
    if (!ok || rename(tmp, path) != 0) {
        *why = xasprintf("%s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* The bundled catalogue written to a cache file (once per version), or NULL (and the log
 * says why, once, when the cache cannot be used safely: links are then left out). */
static const char *bundled_rules_file(server *s, const rule_catalog *cat)
{
    if (s->bundled_rules_file) /* "" records an earlier failure */
        return *s->bundled_rules_file ? s->bundled_rules_file : NULL;
    char *why = NULL;
    char *vdir = rules_cache_dir(&why);
    char *path = vdir ? xasprintf("%s/rules.md", vdir) : NULL;
    free(vdir);
    if (path && write_rules_copy(cat, path, &why) != 0) {
        free(path);
        path = NULL;
    }
    if (!path) {
        log_msg(s, LOG_WARNING, "not writing the bundled rules to a cache directory (%s); rule "
                "links are left out", why ? why : "unknown error");
        free(why);
        s->bundled_rules_file = xstrdup("");
        return NULL;
    }
    s->bundled_rules_file = path;
    return path;
}

/* The absolute path of a workspace's rules file, for links; NULL when there is none. */
const char *workspaces_rules_file(server *s, workspace *ws)
{
    if (!ws)
        return NULL;
    const rule_catalog *cat = engine_catalog(ws->eng);
    if (!cat || !cat->path)
        return NULL;
    if (cat->path[0] == '(') /* "(bundled ...)" names the compiled-in catalogue */
        return bundled_rules_file(s, cat);
    if (cat->path[0] == '/')
        return cat->path;
    if (!ws->rules_file)
        ws->rules_file = xasprintf("%s%s", ws->workdir, cat->path);
    return ws->rules_file;
}

/* workspace/didChangeWatchedFiles: the client saw files change on disk; mark them (events
 * our own watcher also saw coalesce into the same dirty set) and review after the debounce. */
void workspaces_watched_files(server *s, json_t *params)
{
    json_t *changes = json_object_get(params, "changes");
    size_t i;
    json_t *c;
    if (!json_is_array(changes)) {
        for (workspace *ws = s->wss; ws; ws = ws->next)
            engine_mark_all_dirty(ws->eng);
        diagnostics_schedule(s, NULL);
        return;
    }
    json_array_foreach(changes, i, c) {
        const char *why = NULL;
        const char *uri = jstr(c, "uri") ? jstr(c, "uri") : "";
        char *path = uri_to_path(uri, &why);
        workspace *w = NULL;
        size_t at = 0; /* the length of the prefix that matched (root or work tree spelling) */
        for (workspace *ws = s->wss; path && ws; ws = ws->next) {
            size_t n = str_starts(path, ws->workdir) ? strlen(ws->workdir)
                       : str_starts(path, ws->root)  ? strlen(ws->root)
                                                     : 0;
            if (n > at)
                w = ws, at = n;
        }
        /* a path under a work tree is normalised by the path gate: one that climbs out of
         * it (ws/../secret) is refused and never enters the change */
        char *rel = w ? gate_normalize(path + at, &why) : NULL;
        if (w && !rel) {
            log_msg(s, LOG_WARNING, "watched-file event for %s ignored: %s", uri, why);
        } else if (w) {
            if (*rel)
                engine_mark_dirty(w->eng, rel);
            else
                engine_mark_all_dirty(w->eng);
            diagnostics_schedule(s, w);
        } else if (path) {
            for (workspace *ws = s->wss; ws; ws = ws->next)
                engine_mark_all_dirty(ws->eng);
            diagnostics_schedule(s, NULL);
        }
        free(rel);
        free(path);
    }
}

/* Remove the workspace of a folder the client closed (when no other folder shares it). */
static void remove_folder(server *s, const char *uri)
{
    const char *why = NULL;
    char *path = uri_to_path(uri, &why);
    if (!path)
        return;
    char *slashed = with_slash(path);
    char real[PATH_MAX];
    char *rslashed = realpath(path, real) ? with_slash(real) : xstrdup(slashed);
    free(path);
    /* The folder's repository: the innermost work tree holding it. */
    workspace **best = NULL;
    for (workspace **pp = &s->wss; *pp; pp = &(*pp)->next)
        if ((str_starts(slashed, (*pp)->root) || str_starts(rslashed, (*pp)->workdir)) &&
            (!best || strlen((*pp)->workdir) > strlen((*best)->workdir)))
            best = pp;
    if (best && --(*best)->nfolders == 0) {
        workspace *ws = *best;
        log_msg(s, LOG_INFO, "workspace folder %s closed: no longer reviewing %s", uri, ws->workdir);
        diagnostics_forget(s, ws);
        documents_forget(s, ws);
        *best = ws->next;
        ws_free(ws);
    }
    free(slashed);
    free(rslashed);
}

/* workspace/didChangeWorkspaceFolders: open the added folders' repositories, drop the
 * removed ones (clearing their diagnostics), and review what is new. */
void workspaces_did_change_folders(server *s, json_t *params)
{
    json_t *ev = json_object_get(params, "event");
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(ev, "removed"), i, f) if (jstr(f, "uri"))
        remove_folder(s, jstr(f, "uri"));
    json_array_foreach(json_object_get(ev, "added"), i, f) {
        const char *why = NULL;
        char *path = jstr(f, "uri") ? uri_to_path(jstr(f, "uri"), &why) : NULL;
        if (!path) {
            log_msg(s, LOG_WARNING, "workspace folder %s refused: %s",
                    jstr(f, "uri") ? jstr(f, "uri") : "(no uri)", why ? why : "no uri");
            continue;
        }
        workspace *ws = workspaces_add(s, path);
        free(path);
        if (ws && !ws->last) {
            workspaces_watch(s);
            diagnostics_schedule(s, ws);
        }
    }
}
