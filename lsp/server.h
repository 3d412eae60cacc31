/* The language server's shared state and the internal API its files use on each other.
 * One `server` struct holds everything mutable (no globals); each lsp/ file implements one
 * concern and exports a few functions with its prefix:
 *
 *   framing.c      Content-Length message framing (pure; see framing.h)
 *   transport.c    stdin/stdout on libuv, the bounded write queue (transport.h; below this
 *                  header: it calls back only through the callbacks rpc.c gives it)
 *   rpc.c          JSON-RPC 2.0: parsing, validation, dispatch table, replies, cancellation
 *   lifecycle.c    initialize / initialized / shutdown / exit and the capabilities
 *   position.c     UTF-8 / UTF-16 position conversion (pure; see position.h)
 *   uri.c          file: URIs <-> paths (pure; see uri.h)
 *   workspaces.c   one repository (engine, watcher, last review) per workspace folder
 *   documents.c    open documents and text synchronisation, overlays into the engine
 *   diagnostics.c  scheduling reviews (debounced), publishing diagnostics, derived-family hints
 *   worker.c       reviews off the loop: the engine handed to a libuv worker thread and back,
 *                  the edits that wait meanwhile, what each review covers
 *   pull.c         textDocument/diagnostic and workspace/diagnostic
 *   hover.c        textDocument/hover
 *   actions.c      textDocument/codeAction and workspace/executeCommand
 *   checklist.c    the review checklist (Markdown) and the rule list
 *   settings.c     the "review" settings: parsing, validation, applying
 *   log.c          the --log file and a sink for the client (log.h; below this header too)
 *   server.c       lsp_main: the loop, arguments, start-up and tear-down
 *
 * Ownership: json_t parameters named `params`/`result`/`data` passed to rpc_respond,
 * rpc_notify and rpc_request are stolen (the callee decrefs); every other json_t parameter is
 * borrowed. Strings are borrowed unless a comment says otherwise. */
#ifndef RL_LSP_SERVER_H
#define RL_LSP_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <uv.h>

#include "engine/engine.h"
#include "engine/util.h"
#include "lsp/log.h"
#include "lsp/position.h"
#include "lsp/transport.h"
#include "lsp/watch.h"

typedef struct server server;

/* JSON-RPC and LSP error codes. */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_INTERNAL_ERROR = -32603,
    RPC_SERVER_NOT_INITIALIZED = -32002,
    RPC_REQUEST_CANCELLED = -32800,
};

typedef enum server_state {
    STATE_UNINITIALIZED, /* before `initialize` */
    STATE_RUNNING,       /* after `initialize` answered */
    STATE_SHUTDOWN,      /* after `shutdown`: only `exit` is meaningful */
} server_state;

/* The "review" settings, as last accepted. Strings are owned; rules_path is as the user wrote
 * it (a relative path is resolved against each workspace folder). The settings the repository
 * file may also give (effective_config.h) stay unset until the user sets them: NULL, 0,
 * HINTS_UNSET; each workspace's engine combines them with its file. */
typedef struct settings {
    char *base, *title, *rules_path;
    char **disabled_rules;        /* NULL-terminated, owned */
    json_t *severity;             /* object rule id -> LSP severity (integer), owned */
    char **severity_levels;       /* the same as "ID=level" for the engine, NULL-terminated */
    int derived_hints;            /* HINTS_FILE, HINTS_LINE, HINTS_OFF or HINTS_UNSET */
    long debounce_ms;
    size_t max_file_bytes;        /* 0: unset */
    int log_level;
    const char *precision_policy; /* REVIEW_LSP_PRECISION_POLICY, read once at start; borrowed */
    bool timing;                  /* REVIEW_LSP_TIMING set at start: step costs on stderr */
    bool one_thread;          /* REVIEW_LSP_PARSE_AHEAD=0 at start: review on one thread */
} settings;

/* What the client said it can do (from initialize). */
typedef struct client_caps {
    bool utf8;                    /* negotiated position encoding is utf-8 */
    bool work_done_progress;
    bool show_document;
    bool configuration;           /* workspace/configuration */
    bool pull_diagnostics;        /* textDocument.diagnostic, with refresh support */
    bool pull_unrefreshable;      /* textDocument.diagnostic without refresh support */
    bool diagnostic_refresh;      /* workspace.diagnostics.refreshSupport */
    bool related_information;
    bool code_description;
    bool markdown_hover;
    bool code_action_literals;
} client_caps;

/* A set of paths relative to a work tree (owned strings). */
typedef struct path_set {
    char **v;
    size_t n, cap;
} path_set;

typedef struct held_edit held_edit;
typedef struct review_job review_job;

/* worker.c's part of a workspace: who has the engine, what waits for it, and what the pending
 * and the running review cover (for answering from the last complete review meanwhile). */
typedef struct worker_state {
    review_job *job;              /* the review running on a worker thread, or NULL */
    held_edit *held, *held_last;  /* engine edits that wait for the job, in arrival order */
    path_set pending;             /* changed since the last review began ... */
    bool pending_all;             /* ... or anything may have */
    path_set running;             /* what the running review covers ... */
    bool running_all;             /* ... or everything */
    bool doomed;                  /* the workspace was closed while its review ran */
} worker_state;

/* One repository under review: the git work tree of one or more workspace folders, with its
 * own engine, watcher and latest review. */
typedef struct workspace {
    struct server *owner;         /* the server (for watcher callbacks) */
    int nfolders;                 /* workspace folders inside this work tree */
    char *root;                   /* the folder as the client spelled it, with trailing '/' */
    char *workdir;                /* engine_workdir: absolute, trailing '/' */
    engine *eng;
    watcher *watch;               /* our own work tree watcher (lsp/watch.c), or NULL */
    review *last;                 /* the latest complete (published) review, or NULL */
    worker_state work;            /* worker.c */
    char *rules_file;             /* absolute path of the rules file in use, once known */
    struct workspace *next;
} workspace;

/* One open document. */
typedef struct document {
    char *uri;                    /* as the client sent it */
    workspace *ws;                /* the repository it belongs to */
    char *relpath;                /* relative to the work tree */
    char *lang;                   /* languageId */
    int version;
    char *text;                   /* owned, NUL-terminated, len bytes */
    size_t len;
    struct document *next;
} document;

/* A request whose answer waits for a fresh review (debounce or first scan pending). At most
 * RPC_DEFER_MAX wait, each at most the wait limit; then it is answered from what is known. */
typedef struct deferred {
    json_t *id;                   /* owned */
    char *method;
    json_t *params;               /* owned */
    uint64_t deadline;            /* loop time (ms) after which it is answered anyway */
    struct deferred *next;
} deferred;
#define RPC_DEFER_MAX 256

/* An outstanding server->client request and what to do with its response. */
typedef struct server_request {
    long id;
    void (*done)(server *s, json_t *result, json_t *error, void *ctx);
    void *ctx;
    struct server_request *next;
} server_request;

/* What was last published for a URI, so that stale entries are cleared and repeats skipped. */
typedef struct published {
    char *uri;
    workspace *ws;
    char *relpath;
    char *digest;                 /* the JSON of the diagnostics array */
    int version;                  /* -1 when published without a version */
    bool seen;                    /* marked during a publish pass */
    struct published *next;
} published;

/* One diagnostic computed by the last review, kept for hover and code actions. */
typedef struct stored_diag {
    workspace *ws;
    char *relpath;
    int line0;                    /* 0-based line */
    json_t *diag;                 /* the LSP Diagnostic, owned */
    char *rule_id;                /* a finding's rule, or NULL for a derived-family hint */
    finding *evidence;            /* a deep copy of the finding when it has exhibits (hover and
                                     review.showEvidence render them), else NULL; owned */
} stored_diag;

/* diagnostics.c's part: what was published to the client, and the diagnostics stored for
 * hover, code actions and pulls (others read them through diagnostics_stored and
 * diagnostics_published). */
typedef struct publish_state {
    bool pending;                 /* output is backed up: publish when it drains */
    bool workspace_pull;          /* the client pulls workspace/diagnostic: push nothing */
    stored_diag *diags;
    size_t ndiags, diags_cap;
    published *pubs;              /* ordered by workspace, then path */
} publish_state;

/* diagnostics.c's part: the debounce, the first scan, the review running on the worker. */
typedef struct review_sched {
    uv_timer_t debounce;
    uv_timer_t progress_timeout;
    bool first_scan_done;         /* the first scan has begun */
    bool scan_started;            /* ... or waits for the client's progress token */
    bool progress_open;           /* the first scan's $/progress ends when it is published */
    bool reviewing_here;          /* diagnostics_review_here runs (no job is started meanwhile) */
    size_t closing_reviews;       /* reviews still running for workspaces already closed */
    void (*when_idle)(server *s); /* called once the running review is back (shutdown) */
    unsigned long reviews_run;    /* statistics for the log */
} review_sched;

/* rpc.c's part: requests the server sent, requests waiting for a review, dropped logs. */
typedef struct rpc_state {
    long next_request_id;
    server_request *requests;
    deferred *deferred_head;
    size_t ndeferred;
    bool defer_overflowed;        /* the cap was hit since the queue last emptied (logged once) */
    uv_timer_t defer_timer;       /* answers deferred requests past their deadline */
    size_t logs_dropped;          /* log notifications dropped while output was backed up */
} rpc_state;

struct server {
    uv_loop_t loop;
    transport io;                 /* transport.c: stdin/stdout, framing, back-pressure */
    logger log;                   /* log.c: the --log file; its sink is rpc.c's */
    rpc_state rpc;                /* rpc.c */
    /* protocol */
    server_state state;
    bool exit_requested;
    int exit_code;
    uint64_t wait_limit_ms;       /* REVIEW_LSP_WAIT_LIMIT_MS, default 10 s (read once) */
    uv_timer_t wait_timer;        /* `initialized` / workspace/configuration overdue */
    bool initialized_seen;
    client_caps caps;
    char *client_name;
    bool dynamic_watch;           /* client registers watched-file globs for us */
    /* repositories under review, in the order of the client's workspace folders */
    workspace *wss;
    char *root_hint;              /* the first folder while settings are read in initialize */
    settings cfg;
    char *bundled_rules_file;     /* where the bundled rules were written for links */
    document *docs;
    review_sched rev;             /* diagnostics.c: when reviews run */
    json_t *shutdown_id;          /* lifecycle.c: a shutdown waiting for the running review */
    publish_state pub;            /* diagnostics.c: what was published and stored */
};

/* --- server.c --- */
/* Leave the loop: close every handle (flushing stdout) and make lsp_main return code. */
void server_stop(server *s, int code);

/* --- rpc.c --- */
/* The transport's callbacks: one message (or a framing problem), output drained, the client
 * gone. */
extern const transport_callbacks rpc_transport_callbacks;
/* The logger's sink: forwards log lines and messages to the client when it may be told. */
void rpc_log_sink(void *data, bool show, int level, const char *text);
void rpc_respond(server *s, json_t *id, json_t *result);
void rpc_error(server *s, json_t *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void rpc_notify(server *s, const char *method, json_t *params);
/* Send a request to the client; done runs with its result or error (either may be NULL). */
void rpc_request(server *s, const char *method, json_t *params,
                 void (*done)(server *s, json_t *result, json_t *error, void *ctx), void *ctx);
/* Set up the deferred-request timer and the wait limit. */
void rpc_init(server *s);
/* Answer every deferred request now that the review is fresh. */
void rpc_run_deferred(server *s);
/* Answer every deferred request now with an error (shutdown before any review). */
void rpc_cancel_deferred(server *s, const char *why);
/* Run a request handler (used by rpc.c's table and for deferred requests). */
void rpc_dispatch_request(server *s, json_t *id, const char *method, json_t *params);
void rpc_free_all(server *s);

/* --- lifecycle.c --- */
void lifecycle_init(server *s);
void lifecycle_initialize(server *s, json_t *id, json_t *params);
void lifecycle_initialized(server *s, json_t *params);
void lifecycle_shutdown(server *s, json_t *id, json_t *params);
void lifecycle_exit(server *s);

/* --- settings.c --- */
void settings_init(settings *c);
void settings_free(settings *c);
/* Apply a "review" settings object (borrowed); warns about invalid values and keeps the old
 * ones. Returns a mask of what changed. */
enum { SET_ENGINE = 1, SET_PUBLISH = 2 };
int settings_apply(server *s, json_t *review_obj);
/* Fill engine settings for a workspace folder (root, with trailing '/'; may be NULL): strings
 * are borrowed from c, except a resolved rulesPath, returned in *tmp for the caller to free. */
void settings_to_engine(const settings *c, const char *root, engine_settings *out, char **tmp);
void settings_changed(server *s, int mask);
void settings_did_change_configuration(server *s, json_t *params);
void settings_request_configuration(server *s, void (*then)(server *s));

/* --- workspaces.c --- */
/* Open the repository holding a folder (borrowed path) and add it, unless its work tree is
 * reviewed already. Returns the workspace, or NULL (told to the user). */
workspace *workspaces_add(server *s, const char *root);
/* Hand the current settings to a workspace's engine. */
void workspaces_configure(server *s, workspace *ws);
/* Start our own watcher on every workspace not watched yet; stop them all. */
void workspaces_watch(server *s);
void workspaces_stop_watching(server *s);
void workspaces_free_all(server *s);
/* Free a workspace already unlinked from the server (its review, engine, watcher). */
void workspaces_release(workspace *ws);
/* Map a client URI to its workspace and a path relative to its work tree (owned), or NULL
 * with *why (static text). */
char *workspaces_relpath(server *s, const char *uri, workspace **ws, const char **why);
/* The workspace a command argument's URI (a folder or a file) names; NULL or unknown: the
 * first workspace (NULL when there is none). */
workspace *workspaces_for_uri(server *s, const char *uri);
/* The rules file of a workspace for links: absolute path (borrowed) or NULL. */
const char *workspaces_rules_file(server *s, workspace *ws);
void workspaces_watched_files(server *s, json_t *params);
void workspaces_did_change_folders(server *s, json_t *params);

/* --- documents.c --- */
void documents_did_open(server *s, json_t *params);
void documents_did_change(server *s, json_t *params);
void documents_did_save(server *s, json_t *params);
void documents_did_close(server *s, json_t *params);
document *documents_find(server *s, const workspace *ws, const char *relpath);
void documents_free_all(server *s);
/* Drop the documents of a workspace that goes away. */
void documents_forget(server *s, const workspace *ws);
/* The head text of a file for position conversion: open buffer, else the review's head text,
 * else the disk. Returns an owned copy or NULL. */
char *documents_text(server *s, workspace *ws, const char *relpath, size_t *len);
/* A file URI for a path relative to a work tree (caller frees). */
char *documents_uri(server *s, workspace *ws, const char *relpath);
/* A place of a workspace as a Markdown link target, its file URI with "#L<line>" (an
 * exhibit_link_fn; ctx is a place_ctx). */
typedef struct place_ctx {
    server *s;
    workspace *ws;
} place_ctx;
char *documents_place_link(void *ctx, const char *relpath, int line);

/* --- worker.c --- */
/* Engine edits from the loop: applied at once when the engine is idle, else held until its
 * review comes back (strings copied). relpath NULL for worker_mark_dirty: everything. */
void worker_set_overlay(workspace *ws, const char *relpath, const char *text, size_t len);
void worker_drop_overlay(workspace *ws, const char *relpath);
void worker_mark_dirty(workspace *ws, const char *relpath);
void worker_configure(workspace *ws, const engine_settings *es);
void worker_set_incremental(workspace *ws);
/* A path the watcher reported (relpath NULL: anything): marked dirty when git does not ignore
 * it — at once when the engine is idle, else when the review comes back. Returns true when it
 * was marked now (the caller schedules a review); a held one is noted as a change when it is
 * applied. */
bool worker_watched(workspace *ws, const char *relpath);
/* For the watcher: is relpath ignored by git? While a review runs the engine cannot be asked,
 * and the answer is false (worker_watched checks again later). */
bool worker_path_ignored(void *ws, const char *relpath);
/* Note that relpath (NULL: anything) changed since the last review began. */
void worker_note_change(workspace *ws, const char *relpath);
/* True when something changed that no review has begun to cover. */
bool worker_due(const workspace *ws);
bool worker_busy(const workspace *ws);
/* True when an answer about relpath (NULL: about anything in ws) from the last complete
 * review could differ from a fresh one: it changed since, or a review covering it is pending
 * or running, or no review is complete yet while one is pending or running. */
bool worker_stale(const workspace *ws, const char *relpath);
/* Called on the loop when a review is back: out (owned by the callee) or NULL with cause
 * (owned); superseded when edits arrived meanwhile (its result no longer matches the
 * documents). Called after the held edits were applied. */
typedef void (*worker_done_fn)(server *s, workspace *ws, review *out, char *cause, double ms,
                               bool superseded);
/* Start reviewing ws on a worker thread (the caller checks nothing runs). */
void worker_start(server *s, workspace *ws, worker_done_fn done);
/* Review ws on the loop thread itself (nothing may be running), for shutdown. */
void worker_review_here(server *s, workspace *ws, worker_done_fn done);
/* Free what the worker keeps for a workspace (no job may be running). */
void worker_free(workspace *ws);

/* --- diagnostics.c --- */
void diagnostics_init(server *s);
/* Stop the review timers (shutdown) / close them (exit). */
void diagnostics_stop_timers(server *s);
void diagnostics_close(server *s);
/* True once the first scan has begun / has been asked for (diagnostics_first_scan). */
bool diagnostics_scan_begun(const server *s);
bool diagnostics_scan_started(const server *s);
/* A workspace closed while its review runs: freed when that review is back. */
void diagnostics_release_later(server *s, workspace *ws);
/* Note that relpath (NULL: anything) changed in ws (NULL: in every workspace); re-review after
 * debounceMs (0: at the next loop turn). */
void diagnostics_schedule(server *s, workspace *ws, const char *relpath);
/* A request wants a fresh answer: review at the next loop turn instead of after the debounce. */
void diagnostics_hurry(server *s);
/* Start the next review that is due, on the worker (none while one runs). */
void diagnostics_review_now(server *s);
/* Review everything due on the loop itself and publish (nothing may run: shutdown). */
void diagnostics_review_here(server *s);
/* True when a review runs on the worker. */
bool diagnostics_busy(const server *s);
/* Call fn once no review runs: now, or when the running one is back. */
void diagnostics_when_idle(server *s, void (*fn)(server *s));
/* Republish from the last reviews (settings that only change presentation). */
void diagnostics_republish(server *s);
void diagnostics_first_scan(server *s);
/* True when an answer about uri (NULL: about anything) from the last complete reviews could
 * differ from a fresh one, so a request about it waits. */
bool diagnostics_stale(server *s, const char *uri);
void diagnostics_free_all(server *s);
/* Clear what was published for a workspace that goes away. */
void diagnostics_forget(server *s, workspace *ws);
/* The LSP range for an engine range in a text (new object). */
json_t *diagnostics_range(server *s, const char *text, size_t len, const text_range *r);
/* The write queue drained: publish what was held back. */
void diagnostics_output_drained(server *s);
/* The diagnostics the last publish pass stored (borrowed, valid until the next pass). */
const stored_diag *diagnostics_stored(const server *s, size_t *n);
/* What was last published per file (borrowed list). */
const published *diagnostics_published(const server *s);
/* The client pulls workspace/diagnostic: push nothing from now on (pushed copies cleared). */
void diagnostics_pull_workspace(server *s);
/* The derived families whose sites include a file, in family order (caller frees the array;
 * the families are borrowed from ws->last). */
const derived_family **diagnostics_file_families(server *s, workspace *ws, const char *relpath,
                                                 size_t *n);
/* True when a rule is switched off for a workspace (its settings and repository file). */
bool diagnostics_rule_disabled(workspace *ws, const char *id);
/* The derivedHints mode in force for a workspace (HINTS_OFF, HINTS_FILE or HINTS_LINE). */
int diagnostics_hints_mode(workspace *ws);

/* --- pull.c --- */
void pull_document(server *s, json_t *id, json_t *params);
void pull_workspace(server *s, json_t *id, json_t *params);

/* --- checklist.c --- */
/* The review checklist of a workspace (NULL: every one) as Markdown (caller frees). */
char *checklist_markdown(server *s, workspace *ws);
/* review.listRules: every rule of a workspace's rules file (new array). */
json_t *checklist_rules(server *s, workspace *ws);
/* Append one finding as the checklist shows it: a heading (`hashes` deep) with its rule and
 * linked place, a box with its message, its exhibits in full and the related locations they
 * do not show. */
void checklist_finding(server *s, workspace *ws, strbuf *md, const finding *f, const char *hashes);
/* review.showEvidence: the findings with exhibits on a 0-based line of a file, each in full,
 * as Markdown (caller frees). */
char *checklist_evidence(server *s, workspace *ws, const char *relpath, long line);

/* --- hover.c --- */
void hover_request(server *s, json_t *id, json_t *params);

/* --- actions.c --- */
void actions_code_action(server *s, json_t *id, json_t *params);
void actions_execute_command(server *s, json_t *id, json_t *params);
/* An executeCommand request arrived (review.rescan marks everything changed). */
void actions_command_arrived(server *s, json_t *params);
/* True when an executeCommand request waits for fresh reviews (params borrowed). */
bool actions_command_wants_fresh(json_t *params);
/* The executeCommand command names (NULL-terminated). */
extern const char *const actions_commands[];

/* --- shared JSON helpers (rpc.c) --- */
const char *jstr(json_t *obj, const char *key);
json_t *jpath(json_t *obj, const char *dotted);
bool jbool_path(json_t *obj, const char *dotted);

#endif
