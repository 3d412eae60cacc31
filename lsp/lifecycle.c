/* The LSP lifecycle: `initialize` (read the client's capabilities, negotiate the position
 * encoding, take the settings from initializationOptions, open one engine per repository of
 * the workspace folders, answer with our capabilities), `initialized` (pull settings with
 * workspace/configuration when the client can, then start the first scan), `shutdown` and
 * `exit` (0 after shutdown, 1 without). A client that never sends `initialized` is told so
 * (window/showMessage) once the wait limit passes; one that never answers
 * workspace/configuration gets its first scan anyway, with the settings it gave at initialize
 * (a late answer still applies). */
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
    c->diagnostic_refresh = jbool_path(caps, "workspace.diagnostics.refreshSupport");
    /* A client that pulls but cannot be asked to pull again (Neovim 0.10) would keep stale
     * diagnostics after a change it did not make (settings, the disk, git): it gets pushes,
     * and no diagnosticProvider to pull from. */
    c->pull_unrefreshable = json_is_object(jpath(caps, "textDocument.diagnostic")) && !c->diagnostic_refresh;
    c->pull_diagnostics = json_is_object(jpath(caps, "textDocument.diagnostic")) && c->diagnostic_refresh;
    c->related_information = jbool_path(caps, "textDocument.publishDiagnostics.relatedInformation");
    c->code_description = jbool_path(caps, "textDocument.publishDiagnostics.codeDescriptionSupport");
    json_t *fmt = jpath(caps, "textDocument.hover.contentFormat");
    c->markdown_hover = !json_is_array(fmt) || array_has(fmt, "markdown");
    c->code_action_literals = json_is_object(jpath(caps, "textDocument.codeAction.codeActionLiteralSupport"));
    s->dynamic_watch = jbool_path(caps, "workspace.didChangeWatchedFiles.dynamicRegistration");
}

/* The folders the client named: every workspace folder, else rootUri, else rootPath. Returns
 * a NULL-terminated array of owned paths (possibly empty). */
static char **client_folders(server *s, json_t *params)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    json_t *folders = json_object_get(params, "workspaceFolders");
    size_t i;
    json_t *f;
    json_array_foreach(folders, i, f) {
        const char *uri = jstr(f, "uri");
        const char *why = NULL;
        char *p = uri ? uri_to_path(uri, &why) : NULL;
        if (p)
            *ARRAY_PUSH(v, n, cap) = p;
        else
            log_msg(s, LOG_WARNING, "workspace folder %s refused: %s", uri ? uri : "(no uri)",
                    why ? why : "no uri");
    }
    if (n == 0 && jstr(params, "rootUri")) {
        const char *why = NULL;
        char *p = uri_to_path(jstr(params, "rootUri"), &why);
        if (p)
            *ARRAY_PUSH(v, n, cap) = p;
        else
            log_msg(s, LOG_WARNING, "workspace %s refused: %s", jstr(params, "rootUri"), why);
    } else if (n == 0 && !json_is_array(folders) && jstr(params, "rootPath")) {
        *ARRAY_PUSH(v, n, cap) = xstrdup(jstr(params, "rootPath"));
    }
    *ARRAY_PUSH(v, n, cap) = NULL;
    return v;
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
        "workspaceDiagnostics", 1);
    if (s->caps.pull_unrefreshable)
        json_object_del(caps, "diagnosticProvider");
    json_object_set_new(caps, "workspace",
                        json_pack("{s:{s:b, s:b}}", "workspaceFolders", "supported", 1,
                                  "changeNotifications", 1));
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
    char **folders = client_folders(s, params);
    json_t *opts = json_object_get(params, "initializationOptions");
    if (json_is_object(opts)) {
        /* A relative rulesPath is relative to the workspace the client named. */
        s->root_hint = folders[0];
        json_t *review = json_object_get(opts, "review");
        settings_apply(s, review ? review : opts);
        s->root_hint = NULL;
    }
    if (!folders[0])
        log_msg(s, LOG_WARNING, "no workspace folder: nothing to review");
    for (size_t i = 0; folders[i]; i++) {
        workspaces_add(s, folders[i]);
        free(folders[i]);
    }
    free(folders);
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
    workspaces_watch(s);
    if (s->wss && s->dynamic_watch)
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
