/* Content-Length message framing for JSON-RPC over a byte stream, as the LSP base protocol
 * defines it: a header block of `Name: value` lines ended by an empty line, then exactly
 * Content-Length bytes of body. Headers may come in any order, Content-Type is accepted and
 * ignored, bare LF is tolerated where the spec asks for CRLF. Pure code: no I/O, unit-tested
 * in tests/unit/test_lsp_framing.c and fuzzed in tests/fuzz/fuzz_framing.c.
 *
 * What comes out depends only on the bytes, never on how reads split them: a decision is taken
 * only when the bytes that decide it are all there. A bad header block (missing, malformed,
 * negative or oversized length, a line that is no header, a block longer than
 * FRAMER_MAX_HEADER) starts a garbage run: the framer skips to the next `Content-Length:` or
 * `Content-Type:` (any case) that starts a line or directly follows the `}` closing a JSON
 * body, keeping every byte that may still begin one, and reads on from there. A run is
 * reported once, however long it is and however many false starts it holds; the next message
 * framed ends it.
 *
 * Ownership: the framer owns its buffer; bodies returned by framer_next are borrowed and valid
 * until the next call to framer_feed, framer_next or framer_free. */
#ifndef RL_LSP_FRAMING_H
#define RL_LSP_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

#define FRAMER_MAX_BODY ((size_t)64 << 20)   /* larger bodies are refused */
#define FRAMER_MAX_HEADER ((size_t)8192)     /* a header block must end within this many bytes */

typedef struct framer {
    char *buf;
    size_t len, cap, start;  /* unread bytes are buf[start, len) */
    size_t max_body;
    bool in_garbage;         /* skipping to the next place a header may start */
    bool reported;           /* this garbage run has been reported */
    unsigned char prev;      /* the byte before buf[start] ('\n' at the start of the stream) */
    size_t no_end;           /* buf[start, start + no_end) holds no end of a header block */
    size_t name_len;         /* buf[start, start + name_len) are header-name characters */
    size_t ready_header;     /* a checked header block of this length waits for its body ... */
    size_t ready_body;       /* ... of this length (valid when ready_header > 0) */
    size_t skipped;          /* bytes discarded as garbage (statistics) */
} framer;

void framer_init(framer *f, size_t max_body);
void framer_free(framer *f);
/* Append bytes read from the stream (copied). */
void framer_feed(framer *f, const char *data, size_t n);
/* Take the next message: 1 with body and len set; 0 when more bytes are needed; -1 when a
 * garbage run begins, with *cause a static description (the run's later bad blocks are
 * skipped silently). Call until 0. */
int framer_next(framer *f, const char **body, size_t *len, const char **cause);
/* Bytes buffered but not yet part of a complete message (for the EOF check). */
size_t framer_pending(const framer *f);

#endif
