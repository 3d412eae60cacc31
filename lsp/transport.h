/* The byte transport of the language server: stdin and stdout on a libuv loop. Reading feeds
 * the framer (framing.h) and hands each complete message to on_message; writing never blocks
 * the loop: messages are queued with uv_write, and when the client stops reading and the
 * queue passes a high-water mark the transport stops reading (so replies stop growing) until
 * it drains, then calls on_drained so held output can go. stdin or stdout may also be plain
 * files (replaying a transcript): a file is read with uv_fs_read and written with blocking
 * write(2). The transport knows nothing of JSON-RPC: it calls back only through the callbacks
 * below, with the data pointer it was given.
 *
 * Ownership: the transport is a caller-owned struct; it borrows the loop, the logger and the
 * callbacks' data, which must outlive it. Bodies passed to on_message are valid only during
 * the call; transport_send copies what it is given. */
#ifndef RL_LSP_TRANSPORT_H
#define RL_LSP_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "lsp/framing.h"
#include "lsp/log.h"

typedef struct transport_callbacks {
    /* One message: body[0, len) (borrowed), or body NULL with problem set (a static
     * description) when a garbage run begins in the input. */
    void (*on_message)(void *data, const char *body, size_t len, const char *problem);
    /* The write queue drained below a quarter of the high-water mark. */
    void (*on_drained)(void *data);
    /* The input ended (failed false) or a read or write failed (failed true): the client is
     * gone. Called at most once. */
    void (*on_closed)(void *data, bool failed);
} transport_callbacks;

typedef struct transport {
    uv_loop_t *loop;
    transport_callbacks cb;
    void *data;
    logger *log;
    uv_stream_t *in_stream;       /* stdin as a pipe or tty, or NULL when stdin is a file */
    uv_pipe_t in_pipe;
    uv_tty_t in_tty;
    uv_fs_t in_file_req;
    char in_file_buf[65536];
    bool in_is_file, reading, in_eof;
    bool held;                    /* transport_hold: no message is handed on until released */
    bool closed;                  /* transport_close ran: nothing more is read or handed on */
    uv_pipe_t out_pipe;
    uv_tty_t out_tty;
    uv_stream_t *out_stream;
    bool out_broken;              /* a write failed: the client is gone */
    int out_fd;                   /* used with blocking writes when stdout is a file */
    size_t out_queued;            /* bytes handed to uv_write and not yet written */
    size_t out_high_water;        /* above this: reading pauses */
    framer fr;
} transport;

/* Open stdin and stdout on the loop and start reading. Returns 0, or -1 with *cause (caller
 * frees). high_water 0: the default (16 MiB). */
int transport_start(transport *t, uv_loop_t *loop, logger *log, size_t high_water,
                    const transport_callbacks *cb, void *data, char **cause);
/* Queue one framed message (body is borrowed; copied). Never blocks. */
void transport_send(transport *t, const char *body, size_t len);
/* True when the write queue is above the high-water mark. */
bool transport_backed_up(const transport *t);
/* Hold back incoming messages (hold true: they stay buffered, reading stops) or hand them on
 * again (false; the buffered ones at the next loop turn). */
void transport_hold(transport *t, bool hold);
/* Stop reading, flush what is queued, and close both ends. */
void transport_close(transport *t);

#endif
