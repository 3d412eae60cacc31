/* lsp_main: the language server's entry point. Parses the flags (--stdio, --log FILE), sets
 * up the one `server` struct and the libuv loop, serves until `exit` (or until stdin closes),
 * then closes every handle and frees everything so the process ends clean under valgrind. */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp.h"
#include "lsp/server.h"

/* Close a timer handle if it is not closing yet. */
static void close_handle(uv_handle_t *h)
{
    if (h->loop && !uv_is_closing(h))
        uv_close(h, NULL);
}

/* uv_walk callback: close whatever is still open at exit. */
static void close_walk(uv_handle_t *h, void *arg)
{
    (void)arg;
    close_handle(h);
}

/* Leave the loop with an exit code; safe to call more than once. */
void server_stop(server *s, int code)
{
    if (s->exit_requested)
        return;
    s->exit_requested = true;
    s->exit_code = code;
    log_msg(&s->log, LOG_LOG, "exiting with code %d", code);
    workspaces_stop_watching(s);
    diagnostics_close(s);
    close_handle((uv_handle_t *)&s->rpc.defer_timer);
    close_handle((uv_handle_t *)&s->wait_timer);
    transport_close(&s->io);
}

/* Print usage to stderr. */
static void usage(void)
{
    fprintf(stderr, "usage: review-lsp [--stdio] [--log FILE]\n"
                    "Serves the Language Server Protocol on stdin/stdout.\n");
}

/* Serve LSP over stdin/stdout until `exit`. */
int lsp_main(int argc, char **argv)
{
    server *s = xcalloc(1, sizeof *s);
    const char *log_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--stdio") == 0 || strcmp(a, "lsp") == 0 || strcmp(a, "serve") == 0) {
            continue;
        } else if (strcmp(a, "--log") == 0 && i + 1 < argc) {
            log_path = argv[++i];
        } else if (strncmp(a, "--log=", 6) == 0) {
            log_path = a + 6;
        } else if (strncmp(a, "--clientProcessId", 17) == 0) {
            if (!strchr(a, '=') && i + 1 < argc)
                i++; /* vscode-languageclient passes it; we notice a dead client by EOF */
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            free(s);
            return 0;
        } else {
            fprintf(stderr, "review-lsp: unknown option %s\n", a);
            usage();
            free(s);
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
#ifdef __GLIBC__
    /* One malloc arena for the server's threads (the loop, the review worker and the parsing
     * thread): each extra arena keeps the memory its thread freed, so three of them held a
     * 1,000-file branch switch at 62-66 MiB where one holds it at 44 MiB, no slower
     * (bench/lsp_bench.py). The batch commands keep glibc's default. */
    mallopt(M_ARENA_MAX, 1);
#endif
    settings_init(&s->cfg);
    s->log.sink = rpc_log_sink;
    s->log.data = s;
    if (log_path) {
        s->log.file = fopen(log_path, "a");
        if (!s->log.file)
            fprintf(stderr, "review-lsp: cannot open log file %s; logging to the client only\n",
                    log_path);
    }
    uv_loop_init(&s->loop);
    diagnostics_init(s);
    rpc_init(s);
    lifecycle_init(s);
    char *cause = NULL;
    int code;
    /* The tests lower the high-water mark to exercise back-pressure without megabytes of
     * output. */
    const char *limit = getenv("REVIEW_LSP_QUEUE_LIMIT");
    size_t high_water = limit && atol(limit) > 0 ? (size_t)atol(limit) : 0;
    if (transport_start(&s->io, &s->loop, &s->log, high_water, &rpc_transport_callbacks, s,
                        &cause) < 0) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
        s->exit_requested = true;
        diagnostics_close(s);
        close_handle((uv_handle_t *)&s->rpc.defer_timer);
        close_handle((uv_handle_t *)&s->wait_timer);
        code = 2;
    } else {
        log_msg(&s->log, LOG_LOG, "review-lsp %s started", REVIEW_LSP_VERSION);
        uv_run(&s->loop, UV_RUN_DEFAULT);
        if (!s->exit_requested)
            server_stop(s, 1);
        code = s->exit_code;
    }
    /* Let close callbacks and the stdout flush finish, then free. */
    while (uv_run(&s->loop, UV_RUN_DEFAULT) != 0)
        ;
    if (uv_loop_close(&s->loop) != 0) {
        uv_walk(&s->loop, close_walk, NULL);
        uv_run(&s->loop, UV_RUN_DEFAULT);
        uv_loop_close(&s->loop);
    }
    rpc_free_all(s);
    documents_free_all(s);
    diagnostics_free_all(s);
    workspaces_free_all(s);
    settings_free(&s->cfg);
    json_decref(s->shutdown_id);
    free(s->client_name);
    free(s->bundled_rules_file);
    if (s->log.file)
        fclose(s->log.file);
    free(s);
    return code;
}
