/* The byte transport (transport.h): stdin and stdout on the libuv loop. Reading feeds the
 * framer and hands each complete message to on_message. Writing never blocks the loop:
 * messages are queued with uv_write, and when the client stops reading and the queue passes a
 * high-water mark the transport stops reading (so replies stop growing) and calls on_drained
 * once the queue is low again, so the layer above can send what it held back (diagnostics
 * publishes, log notifications). */
#include "lsp/transport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/util.h"

#define OUT_HIGH_WATER ((size_t)16 << 20)

typedef struct write_req {
    uv_write_t req;
    transport *t;
    size_t len;
    char data[];
} write_req;

static void start_reading(transport *t);

/* True when messages may be handed on now. */
static bool delivering(const transport *t)
{
    return !t->closed && !t->held;
}

/* Stop reading stdin (a pending file read finishes and is kept in the framer). */
static void stop_reading(transport *t)
{
    if (t->in_stream && t->reading)
        uv_read_stop(t->in_stream);
    if (t->in_stream)
        t->reading = false;
}

/* Hand every complete message in the framer to on_message. */
static void drain_framer(transport *t)
{
    const char *body, *cause;
    size_t len;
    int rc;
    while (delivering(t) && (rc = framer_next(&t->fr, &body, &len, &cause)) != 0) {
        if (rc < 0) {
            log_msg(t->log, LOG_WARNING, "framing: %s", cause);
            t->cb.on_message(t->data, NULL, 0, cause);
            continue;
        }
        /* Copy: handlers may send, and sending never touches the framer, but a body is only
         * valid until the next framer call. */
        char *copy = xstrndup(body, len);
        t->cb.on_message(t->data, copy, len, NULL);
        free(copy);
        if (!t->closed && transport_backed_up(t) && t->reading) {
            log_msg(t->log, LOG_LOG, "output backed up (%zu bytes queued): pausing input",
                    t->out_queued);
            stop_reading(t);
            break;
        }
    }
}

/* Note the end of input: the client is gone (or the transcript ended). */
static void input_ended(transport *t, bool failed)
{
    t->in_eof = true;
    t->reading = false;
    if (framer_pending(&t->fr) > 0)
        log_msg(t->log, LOG_WARNING, "input ended inside a message (%zu bytes dropped)",
                framer_pending(&t->fr));
    if (!t->closed)
        t->cb.on_closed(t->data, failed);
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
    transport *t = st->data;
    if (nread > 0) {
        framer_feed(&t->fr, buf->base, (size_t)nread);
        free(buf->base);
        drain_framer(t);
        return;
    }
    free(buf->base);
    if (nread == 0)
        return;
    if (nread != UV_EOF)
        log_msg(t->log, LOG_ERROR, "reading stdin: %s", uv_strerror((int)nread));
    uv_read_stop(st);
    input_ended(t, false);
}

/* uv_fs_read callback for a stdin that is a regular file. */
static void on_file_read(uv_fs_t *req)
{
    transport *t = req->data;
    ssize_t n = req->result;
    uv_fs_req_cleanup(req);
    t->reading = false;
    if (t->closed)
        return;
    if (n > 0) {
        framer_feed(&t->fr, t->in_file_buf, (size_t)n);
        drain_framer(t);
        if (!t->closed && !t->held && !transport_backed_up(t))
            start_reading(t);
        return;
    }
    if (n < 0)
        log_msg(t->log, LOG_ERROR, "reading stdin: %s", uv_strerror((int)n));
    input_ended(t, false);
}

/* (Re)start reading stdin. */
static void start_reading(transport *t)
{
    if (t->reading || t->in_eof || t->closed)
        return;
    t->reading = true;
    if (t->in_is_file) {
        uv_buf_t b = uv_buf_init(t->in_file_buf, sizeof t->in_file_buf);
        t->in_file_req.data = t;
        if (uv_fs_read(t->loop, &t->in_file_req, 0, &b, 1, -1, on_file_read) < 0) {
            t->reading = false;
            input_ended(t, true);
        }
    } else {
        uv_read_start(t->in_stream, on_alloc, on_read);
    }
}

/* Open one end (fd 0 or 1) as a pipe, a tty or a file. Returns 0 or -1. */
static int open_end(transport *t, int fd, uv_pipe_t *pipe, uv_tty_t *tty, uv_stream_t **stream,
                    bool *is_file)
{
    uv_handle_type type = uv_guess_handle(fd);
    if (type == UV_NAMED_PIPE || type == UV_TCP) {
        uv_pipe_init(t->loop, pipe, 0);
        if (uv_pipe_open(pipe, fd) < 0)
            return -1;
        *stream = (uv_stream_t *)pipe;
    } else if (type == UV_TTY) {
        if (uv_tty_init(t->loop, tty, fd, fd == 0) < 0)
            return -1;
        *stream = (uv_stream_t *)tty;
    } else if (type == UV_FILE) {
        *is_file = true;
        return 0;
    } else {
        return -1;
    }
    (*stream)->data = t;
    return 0;
}

/* Open stdin and stdout on the loop and start reading. Returns 0, or -1 with *cause. */
int transport_start(transport *t, uv_loop_t *loop, logger *log, size_t high_water,
                    const transport_callbacks *cb, void *data, char **cause)
{
    memset(t, 0, sizeof *t);
    t->loop = loop;
    t->log = log;
    t->cb = *cb;
    t->data = data;
    framer_init(&t->fr, 0);
    t->out_fd = -1;
    t->out_high_water = high_water ? high_water : OUT_HIGH_WATER;
    if (open_end(t, 0, &t->in_pipe, &t->in_tty, &t->in_stream, &t->in_is_file) < 0) {
        *cause = xstrdup("stdin is not a pipe, terminal or file");
        return -1;
    }
    bool out_file = false;
    if (open_end(t, 1, &t->out_pipe, &t->out_tty, &t->out_stream, &out_file) < 0) {
        *cause = xstrdup("stdout is not a pipe, terminal or file");
        return -1;
    }
    if (out_file)
        t->out_fd = 1;
    start_reading(t);
    return 0;
}

/* True when the write queue is above the high-water mark. */
bool transport_backed_up(const transport *t)
{
    return t->out_queued > t->out_high_water;
}

/* uv_write completion: account for the bytes and resume reading when the queue drains. */
static void on_written(uv_write_t *req, int status)
{
    write_req *w = (write_req *)req;
    transport *t = w->t;
    t->out_queued -= w->len;
    free(w);
    if (status < 0 && status != UV_ECANCELED) {
        if (!t->closed && !t->out_broken) {
            t->out_broken = true; /* the client is gone; later sends are dropped */
            log_msg(t->log, LOG_ERROR, "writing stdout: %s", uv_strerror(status));
            t->cb.on_closed(t->data, true);
        }
        return;
    }
    if (t->out_queued < t->out_high_water / 4 && !t->closed) {
        if (!t->reading && !t->in_eof && !t->held) {
            log_msg(t->log, LOG_LOG, "output drained: resuming input");
            start_reading(t);
            drain_framer(t);
        }
        if (!t->closed)
            t->cb.on_drained(t->data);
    }
}

/* Write a message to a stdout that is a regular file: a blocking write cannot stall on a
 * reader. */
static void write_file(transport *t, const char *hdr, size_t hl, const char *body, size_t len)
{
    const char *parts[2] = {hdr, body};
    size_t lens[2] = {hl, len};
    for (int i = 0; i < 2; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            ssize_t n = write(t->out_fd, parts[i] + off, lens[i] - off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return;
            off += (size_t)n;
        }
    }
}

/* Queue one message with its header. */
void transport_send(transport *t, const char *body, size_t len)
{
    char hdr[64];
    int hl = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", len);
    if (t->out_fd >= 0) {
        write_file(t, hdr, (size_t)hl, body, len);
        return;
    }
    if (!t->out_stream || t->out_broken || uv_is_closing((uv_handle_t *)t->out_stream))
        return;
    write_req *w = xmalloc(sizeof *w + (size_t)hl + len);
    memcpy(w->data, hdr, (size_t)hl);
    memcpy(w->data + hl, body, len);
    w->t = t;
    w->len = (size_t)hl + len;
    uv_buf_t b = uv_buf_init(w->data, (unsigned)w->len);
    t->out_queued += w->len;
    int rc = uv_write(&w->req, t->out_stream, &b, 1, on_written);
    if (rc < 0) {
        t->out_queued -= w->len;
        free(w);
    }
}

/* Hold back incoming messages, or hand them on again (the buffered ones at once). */
void transport_hold(transport *t, bool hold)
{
    if (t->closed || t->held == hold)
        return;
    t->held = hold;
    if (hold) {
        stop_reading(t);
        return;
    }
    drain_framer(t);
    if (!t->closed && !t->held && !transport_backed_up(t))
        start_reading(t);
}

/* uv_shutdown callback: stdout is flushed; close it. */
static void on_out_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    uv_close((uv_handle_t *)req->handle, NULL);
    free(req);
}

/* Stop reading, flush what is queued, and close both ends. */
void transport_close(transport *t)
{
    if (t->closed)
        return;
    t->closed = true;
    if (t->in_stream && !uv_is_closing((uv_handle_t *)t->in_stream)) {
        uv_read_stop(t->in_stream);
        uv_close((uv_handle_t *)t->in_stream, NULL);
    }
    t->reading = false;
    if (t->out_stream && !uv_is_closing((uv_handle_t *)t->out_stream)) {
        uv_shutdown_t *req = xmalloc(sizeof *req);
        if (uv_shutdown(req, t->out_stream, on_out_shutdown) < 0) {
            free(req);
            uv_close((uv_handle_t *)t->out_stream, NULL);
        }
    }
    framer_free(&t->fr);
}
