/* Content-Length message framing for JSON-RPC over a byte stream, as the LSP base protocol
 * defines it: a header block of `Name: value` lines ended by an empty line, then exactly
 * Content-Length bytes of body. Headers may come in any order, Content-Type is accepted and
 * ignored, bare LF is tolerated where the spec asks for CRLF. A bad header block (missing,
 * malformed, negative or oversized length, a line that is no header) is reported once and the
 * framer resynchronises on the next header it can find, so one bad message never ends the
 * stream. Pure code: no I/O, unit-tested in tests/unit/test_lsp_framing.c.
 *
 * Ownership: the framer owns its buffer; bodies returned by framer_next are borrowed and valid
 * until the next call to framer_feed, framer_next or framer_free. */
#ifndef RL_LSP_FRAMING_H
#define RL_LSP_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

#define FRAMER_MAX_BODY ((size_t)64 << 20)   /* larger bodies are refused */
#define FRAMER_MAX_HEADER ((size_t)8192)     /* a header block longer than this is garbage */

typedef struct framer {
    char *buf;
    size_t len, cap, start;  /* unread bytes are buf[start, len) */
    size_t max_body;
    bool in_garbage;         /* resynchronising; further garbage is not reported again */
    size_t skipped;          /* bytes discarded while resynchronising (statistics) */
} framer;

void framer_init(framer *f, size_t max_body);
void framer_free(framer *f);
/* Append bytes read from the stream (copied). */
void framer_feed(framer *f, const char *data, size_t n);
/* Take the next message: 1 with body and len set; 0 when more bytes are needed; -1 when a bad
 * header block or garbage was dropped, with *cause a static description. Call until 0. */
int framer_next(framer *f, const char **body, size_t *len, const char **cause);
/* Bytes buffered but not yet part of a complete message (for the EOF check). */
size_t framer_pending(const framer *f);

#endif
