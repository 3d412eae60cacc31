/* JSON-RPC 2.0 for the language server: turns a message body into a request, notification or
 * response, checks it (valid JSON, an object, "jsonrpc":"2.0", a string method, an integer or
 * string id, structured params), applies the LSP lifecycle rules (ServerNotInitialized before
 * initialize, InvalidRequest after shutdown), dispatches through one table, and keeps the two
 * lists of pending work: requests deferred until the review is fresh (cancellable with
 * $/cancelRequest) and requests the server sent to the client. Exactly one response goes out
 * per request. Deferred requests are bounded in number (RPC_DEFER_MAX: beyond it the oldest is
 * answered at once) and in time (the wait limit): a client that never lets a review happen
 * (no `initialized`, an unanswered workspace/configuration, a flood of edits) still gets its
 * answers, from what is known. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

typedef void (*request_fn)(server *s, json_t *id, json_t *params);
typedef void (*notify_fn)(server *s, json_t *params);

typedef struct request_entry {
    const char *method;
    request_fn fn;
    bool wants_fresh;    /* the answer depends on the review: wait for a pending one */
    bool params_object;  /* params must be an object */
    bool hurries;        /* waiting for a review cuts the debounce short */
} request_entry;

typedef struct notify_entry {
    const char *method;
    notify_fn fn;
} notify_entry;

/* Adapter: `initialized` ignores its params. */
static void note_initialized(server *s, json_t *params)
{
    lifecycle_initialized(s, params);
}

/* Adapter: `exit`. */
static void note_exit(server *s, json_t *params)
{
    (void)params;
    lifecycle_exit(s);
}

#define DEFAULT_WAIT_LIMIT_MS 10000

/* Free one deferred request (already unlinked). */
static void deferred_free(deferred *d)
{
    json_decref(d->id);
    json_decref(d->params);
    free(d->method);
    free(d);
}

/* Unlink *pp from the deferred list and return it. */
static deferred *deferred_unlink(server *s, deferred **pp)
{
    deferred *d = *pp;
    *pp = d->next;
    s->ndeferred--;
    if (!s->deferred_head)
        s->defer_overflowed = false;
    return d;
}

static void on_defer_timeout(uv_timer_t *t);

/* Arm the timer for the oldest deferred request's deadline (or stop it: none wait). */
static void arm_defer_timer(server *s)
{
    if (s->exit_requested)
        return; /* the timer is closed with the other handles */
    if (!s->deferred_head) {
        uv_timer_stop(&s->defer_timer);
        return;
    }
    uint64_t now = uv_now(&s->loop), due = s->deferred_head->deadline;
    uv_timer_start(&s->defer_timer, on_defer_timeout, due > now ? due - now : 0, 0);
}

/* Deadlines passed: answer those requests from what is known (the last review, if any). */
static void on_defer_timeout(uv_timer_t *t)
{
    server *s = t->data;
    uint64_t now = uv_now(&s->loop);
    size_t n = 0;
    char *first = xstrdup(s->deferred_head ? s->deferred_head->method : "");
    while (s->deferred_head && s->deferred_head->deadline <= now && s->state == STATE_RUNNING &&
           !s->exit_requested) {
        deferred *d = deferred_unlink(s, &s->deferred_head);
        rpc_dispatch_request(s, d->id, d->method, d->params);
        deferred_free(d);
        n++;
    }
    if (n)
        log_msg(s, LOG_INFO, "%zu request%s (%s%s) waited %llu ms for a review and %s answered "
                "from what is known", n, n == 1 ? "" : "s", first, n > 1 ? ", ..." : "",
                (unsigned long long)s->wait_limit_ms, n == 1 ? "was" : "were");
    free(first);
    arm_defer_timer(s);
}

/* Set up the deferred-request timer and read the wait limit. */
void rpc_init(server *s)
{
    uv_timer_init(&s->loop, &s->defer_timer);
    s->defer_timer.data = s;
    /* The tests shorten the limit to see it act. */
    const char *v = getenv("REVIEW_LSP_WAIT_LIMIT_MS");
    s->wait_limit_ms = v && atol(v) > 0 ? (uint64_t)atol(v) : DEFAULT_WAIT_LIMIT_MS;
}

/* $/cancelRequest: answer a deferred request with RequestCancelled; anything else has already
 * been answered, so the notification is ignored, as the spec allows. */
static void note_cancel(server *s, json_t *params)
{
    json_t *id = json_object_get(params, "id");
    if (!id || !(json_is_integer(id) || json_is_string(id)))
        return;
    for (deferred **pp = &s->deferred_head; *pp; pp = &(*pp)->next) {
        if (!json_equal((*pp)->id, id))
            continue;
        deferred *d = deferred_unlink(s, pp);
        rpc_error(s, d->id, RPC_REQUEST_CANCELLED, "request %s cancelled", d->method);
        deferred_free(d);
        arm_defer_timer(s);
        return;
    }
}

static const request_entry request_table[] = {
    {"initialize", lifecycle_initialize, false, true, false},
    {"shutdown", lifecycle_shutdown, false, false, false},
    {"textDocument/hover", hover_request, true, true, true},
    {"textDocument/codeAction", actions_code_action, true, true, true},
    {"textDocument/diagnostic", pull_document, true, true, true},
    {"workspace/diagnostic", pull_workspace, true, true, false},
    {"workspace/executeCommand", actions_execute_command, false, true, false},
};

static const notify_entry notify_table[] = {
    {"initialized", note_initialized},
    {"exit", note_exit},
    {"$/cancelRequest", note_cancel},
    {"textDocument/didOpen", documents_did_open},
    {"textDocument/didChange", documents_did_change},
    {"textDocument/didSave", documents_did_save},
    {"textDocument/didClose", documents_did_close},
    {"workspace/didChangeConfiguration", settings_did_change_configuration},
    {"workspace/didChangeWatchedFiles", workspaces_watched_files},
    {"workspace/didChangeWorkspaceFolders", workspaces_did_change_folders},
};

/* Borrowed string member of an object, or NULL. */
const char *jstr(json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* Walk a dotted path of object members ("a.b.c"); NULL when any step is missing. */
json_t *jpath(json_t *obj, const char *dotted)
{
    char key[128];
    const char *p = dotted;
    while (obj && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (n >= sizeof key)
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        obj = json_is_object(obj) ? json_object_get(obj, key) : NULL;
        p += n + (dot ? 1 : 0);
    }
    return obj;
}

/* True when a dotted path leads to JSON true. */
bool jbool_path(json_t *obj, const char *dotted)
{
    return json_is_true(jpath(obj, dotted));
}

/* Serialise and queue one message (stolen). */
static void send_message(server *s, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return;
    if (s->log_file && s->cfg.log_level >= LOG_LOG)
        fprintf(s->log_file, "<-- %.2000s\n", text);
    transport_send(s, text, strlen(text));
    free(text);
}

/* Send a successful response (result stolen; id borrowed). */
void rpc_respond(server *s, json_t *id, json_t *result)
{
    json_t *msg = json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                            "result", result ? result : json_null());
    send_message(s, msg);
}

/* Send an error response (id borrowed; NULL means null). */
void rpc_error(server *s, json_t *id, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    json_t *msg = json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
                            id ? id : json_null(), "error", "code", code, "message", text);
    free(text);
    if (msg)
        send_message(s, msg);
}

/* Send a notification (params stolen). */
void rpc_notify(server *s, const char *method, json_t *params)
{
    json_t *msg = json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method,
                            "params", params ? params : json_null());
    send_message(s, msg);
}

/* Send a request to the client and remember what to do with its answer. */
void rpc_request(server *s, const char *method, json_t *params,
                 void (*done)(server *s, json_t *result, json_t *error, void *ctx), void *ctx)
{
    server_request *r = xcalloc(1, sizeof *r);
    r->id = ++s->next_request_id;
    r->done = done;
    r->ctx = ctx;
    r->next = s->requests;
    s->requests = r;
    json_t *msg = json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id", (json_int_t)r->id,
                            "method", method, "params", params ? params : json_null());
    send_message(s, msg);
}

/* A response from the client to one of our requests. */
static void handle_response(server *s, json_t *msg)
{
    json_t *id = json_object_get(msg, "id");
    if (!json_is_integer(id)) {
        log_msg(s, LOG_LOG, "response with an id the server never used; ignored");
        return;
    }
    for (server_request **pp = &s->requests; *pp; pp = &(*pp)->next) {
        server_request *r = *pp;
        if (r->id != (long)json_integer_value(id))
            continue;
        *pp = r->next;
        json_t *err = json_object_get(msg, "error");
        if (err)
            log_msg(s, LOG_LOG, "client answered request %ld with an error: %s", r->id,
                    jstr(err, "message") ? jstr(err, "message") : "?");
        if (r->done)
            r->done(s, err ? NULL : json_object_get(msg, "result"), err, r->ctx);
        free(r);
        return;
    }
    log_msg(s, LOG_LOG, "response to unknown request; ignored");
}

/* Look up a request method. */
static const request_entry *find_request(const char *method)
{
    for (size_t i = 0; i < sizeof request_table / sizeof request_table[0]; i++)
        if (strcmp(request_table[i].method, method) == 0)
            return &request_table[i];
    return NULL;
}

/* Run the handler of an accepted request. */
void rpc_dispatch_request(server *s, json_t *id, const char *method, json_t *params)
{
    const request_entry *e = find_request(method);
    if (e)
        e->fn(s, id, params);
    else
        rpc_error(s, id, RPC_METHOD_NOT_FOUND, "unknown method %s", method);
}

/* Queue a request until the review is fresh; past the cap, the oldest is answered now. */
static void defer_request(server *s, json_t *id, const char *method, json_t *params)
{
    if (s->ndeferred >= RPC_DEFER_MAX) {
        if (!s->defer_overflowed)
            log_msg(s, LOG_INFO, "%d requests already wait for a review: answering the oldest "
                    "ones from what is known", RPC_DEFER_MAX);
        s->defer_overflowed = true;
        deferred *old = deferred_unlink(s, &s->deferred_head);
        rpc_dispatch_request(s, old->id, old->method, old->params);
        deferred_free(old);
    }
    deferred *d = xcalloc(1, sizeof *d);
    d->id = json_incref(id);
    d->method = xstrdup(method);
    d->params = json_incref(params);
    d->deadline = uv_now(&s->loop) + s->wait_limit_ms;
    deferred **pp = &s->deferred_head;
    while (*pp)
        pp = &(*pp)->next;
    *pp = d;
    s->ndeferred++;
    arm_defer_timer(s);
}

/* Answer every deferred request, oldest first. */
void rpc_run_deferred(server *s)
{
    while (s->deferred_head && !diagnostics_stale(s) && s->state == STATE_RUNNING) {
        deferred *d = deferred_unlink(s, &s->deferred_head);
        rpc_dispatch_request(s, d->id, d->method, d->params);
        deferred_free(d);
    }
    arm_defer_timer(s);
}

/* Answer every deferred request with RequestCancelled (shutdown before a review could run). */
void rpc_cancel_deferred(server *s, const char *why)
{
    while (s->deferred_head) {
        deferred *d = deferred_unlink(s, &s->deferred_head);
        rpc_error(s, d->id, RPC_REQUEST_CANCELLED, "%s", why);
        deferred_free(d);
    }
    arm_defer_timer(s);
}

/* Handle a request (id valid) according to the lifecycle state. */
static void handle_request(server *s, json_t *id, const char *method, json_t *params)
{
    const request_entry *e = find_request(method);
    if (s->state == STATE_UNINITIALIZED && strcmp(method, "initialize") != 0) {
        rpc_error(s, id, RPC_SERVER_NOT_INITIALIZED, "server not initialized: %s before initialize",
                  method);
        return;
    }
    if (s->state == STATE_SHUTDOWN) {
        rpc_error(s, id, RPC_INVALID_REQUEST, "server is shut down: %s after shutdown", method);
        return;
    }
    if (s->state == STATE_RUNNING && strcmp(method, "initialize") == 0) {
        rpc_error(s, id, RPC_INVALID_REQUEST, "initialize sent twice");
        return;
    }
    if (!e) {
        rpc_error(s, id, RPC_METHOD_NOT_FOUND, "unknown method %s", method);
        return;
    }
    if (e->params_object && !json_is_object(params)) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "%s: params must be an object", method);
        return;
    }
    if (e->wants_fresh && diagnostics_stale(s)) {
        if (e->hurries)
            diagnostics_hurry(s);
        defer_request(s, id, method, params);
        return;
    }
    e->fn(s, id, params);
}

/* Handle a notification according to the lifecycle state; unknown ones are ignored. */
static void handle_notification(server *s, const char *method, json_t *params)
{
    if (strcmp(method, "exit") == 0) {
        lifecycle_exit(s);
        return;
    }
    if (s->state != STATE_RUNNING) {
        log_msg(s, LOG_LOG, "%s dropped: server %s", method,
                s->state == STATE_SHUTDOWN ? "is shut down" : "not initialized");
        return;
    }
    for (size_t i = 0; i < sizeof notify_table / sizeof notify_table[0]; i++) {
        if (strcmp(notify_table[i].method, method) != 0)
            continue;
        if (!json_is_object(params) && strcmp(method, "initialized") != 0) {
            log_msg(s, LOG_WARNING, "%s: params must be an object; dropped", method);
            return;
        }
        notify_table[i].fn(s, params);
        return;
    }
    log_msg(s, LOG_LOG, "notification %s ignored", method);
}

/* Parse and handle one message body. */
void rpc_handle_message(server *s, const char *body, size_t len)
{
    json_error_t err;
    json_t *msg = json_loadb(body, len, JSON_ALLOW_NUL | JSON_DECODE_ANY, &err);
    if (s->log_file && s->cfg.log_level >= LOG_LOG)
        fprintf(s->log_file, "--> %.*s\n", len > 2000 ? 2000 : (int)len, body);
    if (!msg) {
        log_msg(s, LOG_WARNING, "invalid JSON at byte %d: %s", err.position, err.text);
        rpc_error(s, NULL, RPC_PARSE_ERROR, "invalid JSON: %s", err.text);
        return;
    }
    if (!json_is_object(msg)) {
        rpc_error(s, NULL, RPC_INVALID_REQUEST,
                  json_is_array(msg) ? "batch messages are not supported"
                                     : "a message must be a JSON object");
        json_decref(msg);
        return;
    }
    json_t *id = json_object_get(msg, "id");
    json_t *jmethod = json_object_get(msg, "method");
    json_t *params = json_object_get(msg, "params");
    const char *version = jstr(msg, "jsonrpc");
    bool id_ok = id && (json_is_integer(id) || json_is_string(id));
    json_t *reply_id = id_ok ? id : NULL;

    if (!jmethod && id && (json_object_get(msg, "result") || json_object_get(msg, "error"))) {
        handle_response(s, msg);
    } else if (!id && !jmethod) {
        rpc_error(s, NULL, RPC_INVALID_REQUEST, "message with neither method nor id");
    } else if (!version || strcmp(version, "2.0") != 0) {
        if (id)
            rpc_error(s, reply_id, RPC_INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");
        else
            log_msg(s, LOG_WARNING, "message without \"jsonrpc\":\"2.0\" dropped");
    } else if (!json_is_string(jmethod)) {
        if (id || jmethod)
            rpc_error(s, reply_id, RPC_INVALID_REQUEST,
                      jmethod ? "\"method\" must be a string" : "message without a method");
        else
            log_msg(s, LOG_WARNING, "message without method or id dropped");
    } else if (id && !id_ok) {
        rpc_error(s, NULL, RPC_INVALID_REQUEST, "\"id\" must be an integer or a string");
    } else if (params && !json_is_object(params) && !json_is_array(params) && !json_is_null(params)) {
        if (id)
            rpc_error(s, id, RPC_INVALID_PARAMS, "\"params\" must be an object or an array");
        else
            log_msg(s, LOG_WARNING, "%s: params must be structured; dropped",
                    json_string_value(jmethod));
    } else if (id) {
        handle_request(s, id, json_string_value(jmethod), params);
    } else {
        handle_notification(s, json_string_value(jmethod), params);
    }
    json_decref(msg);
}

/* Free pending lists at shutdown (no responses are sent any more). */
void rpc_free_all(server *s)
{
    while (s->deferred_head)
        deferred_free(deferred_unlink(s, &s->deferred_head));
    while (s->requests) {
        server_request *r = s->requests;
        s->requests = r->next;
        if (r->done)
            r->done(s, NULL, NULL, r->ctx); /* lets the callback free its context */
        free(r);
    }
}
