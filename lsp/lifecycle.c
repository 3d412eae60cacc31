/* The LSP lifecycle: `initialize` (read the client's capabilities, negotiate the position
 * encoding, take the settings from initializationOptions, open the engine on the workspace,
 * answer with our capabilities), `initialized` (pull settings with workspace/configuration
 * when the client can, then start the first scan), `shutdown` and `exit` (0 after shutdown,
 * 1 without). A client that never sends `initialized` is told so (window/showMessage) once the
 * wait limit passes; one that never answers workspace/configuration gets its first scan
 * anyway, with the settings it gave at initialize (a late answer still applies). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"
#include "lsp/uri.h"

/* True when a JSON array contains the string s. */
static bool array_has(json_t *arr, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
        return true;
    return false;
}

/* Record what the client can do. */
static void read_client_caps(server *s, json_t *caps)
{
    client_caps *c = &s->caps;
    memset(c, 0, sizeof *c);
    c->utf8 = array_has(jpath(caps, "general.positionEncodings"), "utf-8");
    c->work_done_progress = jbool_path(caps, "window.workDoneProgress");
    c->show_document = jbool_path(caps, "window.showDocument.support");
    c->configuration = jbool_path(caps, "workspace.configuration");
    c->pull_diagnostics = json_is_object(jpath(caps, "textDocument.diagnostic"));
    c->diagnostic_refresh = jbool_path(caps, "workspace.diagnostics.refreshSupport");
    c->related_information = jbool_path(caps, "textDocument.publishDiagnostics.relatedInformation");
    c->code_description = jbool_path(caps, "textDocument.publishDiagnostics.codeDescriptionSupport");
    json_t *fmt = jpath(caps, "textDocument.hover.contentFormat");
    c->markdown_hover = !json_is_array(fmt) || array_has(fmt, "markdown");
    c->code_action_literals = json_is_object(jpath(caps, "textDocument.codeAction.codeActionLiteralSupport"));
    s->dynamic_watch = jbool_path(caps, "workspace.didChangeWatchedFiles.dynamicRegistration");
}

/* The workspace root the client named: first workspace folder, else rootUri, else rootPath.
 * Returns an owned path or NULL. */
static char *client_root(server *s, json_t *params)
{
    const char *why = NULL;
    json_t *folders = json_object_get(params, "workspaceFolders");
    const char *uri = NULL;
    if (json_is_array(folders) && json_array_size(folders) > 0) {
        uri = jstr(json_array_get(folders, 0), "uri");
        if (json_array_size(folders) > 1)
            log_msg(s, LOG_INFO, "%zu workspace folders: reviewing the first, %s",
                    json_array_size(folders), uri ? uri : "?");
    }
    if (!uri)
        uri = jstr(params, "rootUri");
    if (uri) {
        char *p = uri_to_path(uri, &why);
        if (!p)
            log_msg(s, LOG_WARNING, "workspace %s refused: %s", uri, why);
        return p;
    }
    const char *path = jstr(params, "rootPath");
    return path ? xstrdup(path) : NULL;
}

/* Open the engine on the workspace and settle the path prefixes used to map URIs. */
static void open_workspace(server *s, char *root)
{
    if (!root) {
        log_msg(s, LOG_WARNING, "no workspace folder: nothing to review");
        return;
    }
    engine_settings es;
    settings_to_engine(&s->cfg, &es);
    char *cause = NULL;
    s->eng = engine_open(root, &es, &cause);
    if (!s->eng) {
        show_message(s, LOG_WARNING, "review-lsp: %s: %s; no findings will be shown", root,
                     cause ? cause : "cannot open the repository");
        free(cause);
        free(root);
        return;
    }
    s->workdir = xstrdup(engine_workdir(s->eng));
    /* Keep the client's spelling of the work tree when it is the same directory (a symlink),
     * so the URIs we send match the ones it knows. */
    char real[PATH_MAX];
    if (realpath(root, real)) {
        char *withslash = xasprintf("%s/", real);
        if (strcmp(withslash, s->workdir) == 0) {
            size_t n = strlen(root);
            s->root = n && root[n - 1] == '/' ? xstrdup(root) : xasprintf("%s/", root);
        }
        free(withslash);
    }
    if (!s->root)
        s->root = xstrdup(s->workdir);
    free(root);
    const char *problem = engine_catalog_problem(s->eng);
    if (problem)
        show_message(s, LOG_WARNING, "review-lsp: %s", problem);
    log_msg(s, LOG_INFO, "review-lsp %s: work tree %s, rules %s, positions in %s",
            REVIEW_LSP_VERSION, s->workdir, engine_catalog(s->eng)->path,
            s->caps.utf8 ? "utf-8" : "utf-16");
}

/* The capabilities we announce. */
static json_t *server_capabilities(server *s)
{
    json_t *cmds = json_array();
    for (size_t i = 0; actions_commands[i]; i++)
        json_array_append_new(cmds, json_string(actions_commands[i]));
    json_t *caps = json_pack(
        "{s:s, s:{s:b, s:i, s:{s:b}}, s:b, s:o, s:{s:o}, s:{s:s, s:b, s:b}}",
        "positionEncoding", s->caps.utf8 ? "utf-8" : "utf-16",
        "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
        "hoverProvider", 1,
        "codeActionProvider",
        s->caps.code_action_literals ? json_pack("{s:[s]}", "codeActionKinds", "quickfix")
                                     : json_true(),
        "executeCommandProvider", "commands", cmds,
        "diagnosticProvider", "identifier", "review", "interFileDependencies", 1,
        "workspaceDiagnostics", 0);
    return caps;
}

/* The wait limit passed: `initialized` or the configuration answer is overdue. */
static void on_wait_timeout(uv_timer_t *t)
{
    server *s = t->data;
    if (s->state != STATE_RUNNING || s->exit_requested || s->scan_started)
        return;
    if (!s->initialized_seen) {
        show_message(s, LOG_WARNING, "review-lsp: the client has not sent `initialized` %llu ms "
                     "after `initialize`, so no review runs; requests are answered without findings",
                     (unsigned long long)s->wait_limit_ms);
        return;
    }
    log_msg(s, LOG_WARNING, "workspace/configuration unanswered after %llu ms: scanning with the "
            "settings given at initialize", (unsigned long long)s->wait_limit_ms);
    diagnostics_first_scan(s);
}

/* Set up the timer that watches for an overdue `initialized` or configuration answer. */
void lifecycle_init(server *s)
{
    uv_timer_init(&s->loop, &s->wait_timer);
    s->wait_timer.data = s;
}

/* initialize: see the file comment. */
void lifecycle_initialize(server *s, json_t *id, json_t *params)
{
    s->state = STATE_RUNNING; /* logMessage is allowed while initialize runs */
    read_client_caps(s, json_object_get(params, "capabilities"));
    const char *cname = jstr(jpath(params, "clientInfo"), "name");
    s->client_name = xstrdup(cname ? cname : "unknown client");
    char *root = client_root(s, params);
    json_t *opts = json_object_get(params, "initializationOptions");
    if (json_is_object(opts)) {
        /* A relative rulesPath is relative to the workspace the client named. */
        size_t n = root ? strlen(root) : 0;
        s->root = !root ? NULL : n && root[n - 1] == '/' ? xstrdup(root) : xasprintf("%s/", root);
        json_t *review = json_object_get(opts, "review");
        settings_apply(s, review ? review : opts);
        free(s->root);
        s->root = NULL;
    }
    open_workspace(s, root);
    json_t *result = json_pack("{s:o, s:{s:s, s:s}}", "capabilities", server_capabilities(s),
                               "serverInfo", "name", "review-lsp", "version", REVIEW_LSP_VERSION);
    rpc_respond(s, id, result);
    uv_timer_start(&s->wait_timer, on_wait_timeout, s->wait_limit_ms, 0);
}

/* Register for watched-file events when the client can do it dynamically. */
static void register_watchers(server *s)
{
    json_t *opts = json_pack("{s:[{s:s}]}", "watchers", "globPattern", "**/*");
    json_t *params = json_pack("{s:[{s:s, s:s, s:o}]}", "registrations", "id", "review-watch",
                               "method", "workspace/didChangeWatchedFiles", "registerOptions", opts);
    rpc_request(s, "client/registerCapability", params, NULL, NULL);
}

/* A watched path changed (NULL: anything may have): mark it and review after the debounce. */
static void on_watch(void *data, const char *relpath)
{
    server *s = data;
    if (!s->eng)
        return;
    if (relpath)
        engine_mark_dirty(s->eng, relpath);
    else
        engine_mark_all_dirty(s->eng);
    diagnostics_schedule(s);
}

/* Watch the work tree ourselves (not every client sends watched-file events); with the
 * watcher running, the engine re-diffs only what changed. */
static void start_watching(server *s)
{
    char *warning = NULL;
    s->watch = watcher_start(&s->loop, s->eng, s->workdir, on_watch, s, &warning);
    if (warning) {
        log_msg(s, LOG_WARNING, "%s", warning);
        show_message(s, LOG_WARNING, "%s", warning);
        free(warning);
    }
    if (s->watch)
        engine_set_incremental(s->eng, true);
    log_msg(s, LOG_LOG, "watching %zu directories of %s", watcher_count(s->watch), s->workdir);
}

/* The configuration answer arrived: scan, or (it came after the wait limit, and the scan ran
 * with the initialize settings) apply it as a settings change. */
static void after_configuration(server *s)
{
    if (!s->scan_started)
        diagnostics_first_scan(s);
    else
        settings_changed(s, SET_ENGINE | SET_PUBLISH);
}

/* initialized: the client is ready for our requests. */
void lifecycle_initialized(server *s, json_t *params)
{
    (void)params;
    if (s->scan_started || s->initialized_seen)
        return;
    s->initialized_seen = true;
    uv_timer_stop(&s->wait_timer);
    if (s->eng && !s->watch)
        start_watching(s);
    if (s->eng && s->dynamic_watch)
        register_watchers(s);
    if (s->caps.configuration) {
        settings_request_configuration(s, after_configuration);
        uv_timer_start(&s->wait_timer, on_wait_timeout, s->wait_limit_ms, 0);
    } else {
        diagnostics_first_scan(s);
    }
}

/* shutdown: answer what is pending, then refuse everything but exit. */
void lifecycle_shutdown(server *s, json_t *id, json_t *params)
{
    (void)params;
    if (diagnostics_stale(s) && s->scan_started)
        diagnostics_review_now(s);
    rpc_run_deferred(s);
    /* the first scan never ran: nothing fresh to answer with */
    rpc_cancel_deferred(s, "server shutting down");
    s->state = STATE_SHUTDOWN;
    uv_timer_stop(&s->debounce);
    uv_timer_stop(&s->wait_timer);
    rpc_respond(s, id, json_null());
}

/* exit: leave with 0 after shutdown, 1 otherwise. */
void lifecycle_exit(server *s)
{
    server_stop(s, s->state == STATE_SHUTDOWN ? 0 : 1);
}
