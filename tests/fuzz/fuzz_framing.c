/* libFuzzer target for lsp/framing.c. The input is a byte stream; the oracle is the framer's
 * promise that what comes out depends only on the bytes: the stream fed in one piece, byte by
 * byte, and in pieces cut where the input's own bytes say, must give the same messages and the
 * same errors. Every body handed out must lie inside what was fed and respect the size cap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"
#include "lsp/framing.h"

#define MAX_BODY 4096

/* Drain the framer into log ("M<len>:<body>" per message, "E<cause>" per error). */
static void drain(framer *f, strbuf *log)
{
    const char *body, *cause;
    size_t len;
    int rc;
    while ((rc = framer_next(f, &body, &len, &cause)) != 0) {
        if (rc == 1) {
            if (len > MAX_BODY || body < f->buf || body + len > f->buf + f->len)
                abort();
            sb_addf(log, "M%zu:", len);
            sb_add(log, body, len);
        } else if (rc == -1) {
            sb_addf(log, "E%s", cause);
        } else {
            abort();
        }
        sb_addc(log, '\n');
    }
}

/* Feed data in pieces: step(i) says how long piece i is (0: the rest). */
static char *run(const uint8_t *data, size_t size, size_t (*step)(const uint8_t *, size_t, size_t))
{
    framer f;
    framer_init(&f, MAX_BODY);
    strbuf log;
    sb_init(&log);
    for (size_t at = 0, i = 0; at < size; i++) {
        size_t n = step(data, size, i);
        if (n == 0 || n > size - at)
            n = size - at;
        framer_feed(&f, (const char *)data + at, n);
        drain(&f, &log);
        at += n;
    }
    framer_free(&f);
    return sb_detach(&log);
}

static size_t whole(const uint8_t *d, size_t n, size_t i)
{
    (void)d, (void)i;
    return n;
}

static size_t bytes(const uint8_t *d, size_t n, size_t i)
{
    (void)d, (void)n, (void)i;
    return 1;
}

/* Piece lengths taken from the input itself (1..64), so the fuzzer explores cut points. */
static size_t chosen(const uint8_t *d, size_t n, size_t i)
{
    return n ? (size_t)(d[(i * 7) % n] & 63) + 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *a = run(data, size, whole);
    char *b = run(data, size, bytes);
    char *c = run(data, size, chosen);
    if (strcmp(a, b) != 0 || strcmp(a, c) != 0)
        abort(); /* the result depends on how the stream was cut */
    free(a);
    free(b);
    free(c);
    return 0;
}
