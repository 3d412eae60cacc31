/* The byte transport: stdin and stdout on the libuv loop. Reading feeds the framer and hands
 * each complete message to rpc.c. Writing never blocks the loop: messages are queued with
 * uv_write, and when the client stops reading and the queue passes a high-water mark the
 * server stops reading requests (so replies stop growing), holds diagnostics publishes (they
 * are re-sent from the latest state when the queue drains, so nothing is lost) and drops log
 * notifications with a count. stdin or stdout may also be plain files (replaying a
 * transcript): a file is read with uv_fs_read and written with blocking write(2). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/server.h"

#define OUT_HIGH_WATER ((size_t)16 << 20)

typedef struct write_req {
    uv_write_t req;
    server *s;
    size_t len;
    char data[];
} write_req;

static void start_reading(server *s);

/* Hand every complete message in the framer to the dispatcher. */
static void drain_framer(server *s)
{
    const char *body, *cause;
    size_t len;
    int rc;
    while (!s->exit_requested && (rc = framer_next(&s->fr, &body, &len, &cause)) != 0) {
        if (rc < 0) {
            log_msg(s, LOG_WARNING, "framing: %s", cause);
            json_t *null = json_null();
            rpc_error(s, null, RPC_PARSE_ERROR, "%s", cause);
            json_decref(null);
            continue;
        }
        /* Copy: handlers may send, and sending never touches the framer, but a body is only
         * valid until the next framer call. */
        char *copy = xstrndup(body, len);
        rpc_handle_message(s, copy, len);
        free(copy);
        if (!s->exit_requested && transport_backed_up(s) && s->reading) {
            log_msg(s, LOG_LOG, "output backed up (%zu bytes queued): pausing input", s->out_queued);
            if (s->in_stream)
                uv_read_stop(s->in_stream);
            s->reading = false;
            break;
        }
    }
}

/* Note the end of input: the client is gone (or the transcript ended). */
static void input_ended(server *s)
{
    s->in_eof = true;
    s->reading = false;
    if (framer_pending(&s->fr) > 0)
        log_msg(s, LOG_WARNING, "input ended inside a message (%zu bytes dropped)",
                framer_pending(&s->fr));
    if (!s->exit_requested) {
        log_msg(s, LOG_INFO, "input closed without exit");
        server_stop(s, s->state == STATE_SHUTDOWN ? 0 : 1);
    }
}

/* libuv allocation callback: a fresh buffer for each read. */
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)h;
    if (suggested < 65536)
        suggested = 65536;
    buf->base = xmalloc(suggested);
    buf->len = suggested;
}

/* libuv read callback for a pipe or tty stdin. */
static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
    server *s = st->data;
    if (nread > 0) {
        framer_feed(&s->fr, buf->base, (size_t)nread);
        free(buf->base);
        drain_framer(s);
        return;
    }
    free(buf->base);
    if (nread == 0)
        return;
    if (nread != UV_EOF)
        log_msg(s, LOG_ERROR, "reading stdin: %s", uv_strerror((int)nread));
    uv_read_stop(st);
    input_ended(s);
}

/* uv_fs_read callback for a stdin that is a regular file. */
static void on_file_read(uv_fs_t *req)
{
    server *s = req->data;
    ssize_t n = req->result;
    uv_fs_req_cleanup(req);
    s->reading = false;
    if (s->exit_requested)
        return;
    if (n > 0) {
        framer_feed(&s->fr, s->in_file_buf, (size_t)n);
        drain_framer(s);
        if (!s->exit_requested && !transport_backed_up(s))
            start_reading(s);
        return;
    }
    if (n < 0)
        log_msg(s, LOG_ERROR, "reading stdin: %s", uv_strerror((int)n));
    input_ended(s);
}

/* (Re)start reading stdin. */
static void start_reading(server *s)
{
    if (s->reading || s->in_eof || s->exit_requested)
        return;
    s->reading = true;
    if (s->in_is_file) {
        uv_buf_t b = uv_buf_init(s->in_file_buf, sizeof s->in_file_buf);
        s->in_file_req.data = s;
        if (uv_fs_read(&s->loop, &s->in_file_req, 0, &b, 1, -1, on_file_read) < 0) {
            s->reading = false;
            input_ended(s);
        }
    } else {
        uv_read_start(s->in_stream, on_alloc, on_read);
    }
}

/* Open stdin and stdout on the loop and start reading. Returns 0, or -1 with *cause. */
int transport_start(server *s, char **cause)
{
    framer_init(&s->fr, 0);
    s->out_fd = -1;
    s->out_high_water = OUT_HIGH_WATER;
    /* The tests lower the mark to exercise back-pressure without megabytes of output. */
    const char *limit = getenv("REVIEW_LSP_QUEUE_LIMIT");
    if (limit && atol(limit) > 0)
        s->out_high_water = (size_t)atol(limit);
    uv_handle_type in = uv_guess_handle(0), out = uv_guess_handle(1);
    if (in == UV_NAMED_PIPE || in == UV_TCP) {
        uv_pipe_init(&s->loop, &s->in_pipe, 0);
        if (uv_pipe_open(&s->in_pipe, 0) < 0)
            goto bad_in;
        s->in_stream = (uv_stream_t *)&s->in_pipe;
    } else if (in == UV_TTY) {
        if (uv_tty_init(&s->loop, &s->in_tty, 0, 1) < 0)
            goto bad_in;
        s->in_stream = (uv_stream_t *)&s->in_tty;
    } else if (in == UV_FILE) {
        s->in_is_file = true;
    } else {
        goto bad_in;
    }
    if (s->in_stream)
        s->in_stream->data = s;

    if (out == UV_NAMED_PIPE || out == UV_TCP) {
        uv_pipe_init(&s->loop, &s->out_pipe, 0);
        if (uv_pipe_open(&s->out_pipe, 1) < 0)
            goto bad_out;
        s->out_stream = (uv_stream_t *)&s->out_pipe;
    } else if (out == UV_TTY) {
        if (uv_tty_init(&s->loop, &s->out_tty, 1, 0) < 0)
            goto bad_out;
        s->out_stream = (uv_stream_t *)&s->out_tty;
    } else if (out == UV_FILE) {
        s->out_fd = 1;
    } else {
        goto bad_out;
    }
    if (s->out_stream)
        s->out_stream->data = s;
    start_reading(s);
    return 0;
bad_in:
    *cause = xstrdup("stdin is not a pipe, terminal or file");
    return -1;
bad_out:
    *cause = xstrdup("stdout is not a pipe, terminal or file");
    return -1;
}

/* True when the write queue is above the high-water mark. */
bool transport_backed_up(const server *s)
{
    return s->out_queued > s->out_high_water;
}

/* uv_write completion: account for the bytes and resume reading when the queue drains. */
static void on_written(uv_write_t *req, int status)
{
    write_req *w = (write_req *)req;
    server *s = w->s;
    s->out_queued -= w->len;
    free(w);
    if (status < 0 && status != UV_ECANCELED) {
        if (!s->exit_requested) {
            s->out_broken = true; /* the client is gone; later sends are dropped */
            log_msg(s, LOG_ERROR, "writing stdout: %s", uv_strerror(status));
            server_stop(s, 1);
        }
        return;
    }
    if (s->out_queued < s->out_high_water / 4 && !s->exit_requested) {
        if (!s->reading && !s->in_eof) {
            log_msg(s, LOG_LOG, "output drained: resuming input");
            start_reading(s);
            drain_framer(s);
        }
        diagnostics_output_drained(s);
    }
}

/* Queue one message with its header. */
void transport_send(server *s, const char *body, size_t len)
{
    char hdr[64];
    int hl = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", len);
    if (s->out_fd >= 0) {
        /* A regular file: a blocking write cannot stall on a reader. */
        const char *parts[2] = {hdr, body};
        size_t lens[2] = {(size_t)hl, len};
        for (int i = 0; i < 2; i++) {
            size_t off = 0;
            while (off < lens[i]) {
                ssize_t n = write(s->out_fd, parts[i] + off, lens[i] - off);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    return;
                off += (size_t)n;
            }
        }
        return;
    }
    if (!s->out_stream || s->out_broken || uv_is_closing((uv_handle_t *)s->out_stream))
        return;
    write_req *w = xmalloc(sizeof *w + (size_t)hl + len);
    memcpy(w->data, hdr, (size_t)hl);
    memcpy(w->data + hl, body, len);
    w->s = s;
    w->len = (size_t)hl + len;
    uv_buf_t b = uv_buf_init(w->data, (unsigned)w->len);
    s->out_queued += w->len;
    int rc = uv_write(&w->req, s->out_stream, &b, 1, on_written);
    if (rc < 0) {
        s->out_queued -= w->len;
        free(w);
    }
}

/* uv_shutdown callback: stdout is flushed; close it. */
static void on_out_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    uv_close((uv_handle_t *)req->handle, NULL);
    free(req);
}

/* Stop reading, flush what is queued, and close both ends. */
void transport_close(server *s)
{
    if (s->in_stream && !uv_is_closing((uv_handle_t *)s->in_stream)) {
        uv_read_stop(s->in_stream);
        uv_close((uv_handle_t *)s->in_stream, NULL);
    }
    s->reading = false;
    if (s->out_stream && !uv_is_closing((uv_handle_t *)s->out_stream)) {
        uv_shutdown_t *req = xmalloc(sizeof *req);
        if (uv_shutdown(req, s->out_stream, on_out_shutdown) < 0) {
            free(req);
            uv_close((uv_handle_t *)s->out_stream, NULL);
        }
    }
    framer_free(&s->fr);
}
