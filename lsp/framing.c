/* Content-Length framing (see framing.h): a byte buffer that yields complete message bodies,
 * skipping whatever is not a well-formed header block and reporting each garbage run once.
 * Every decision looks only at bytes already fed, and is taken only once the bytes that
 * decide it are there, which is what makes the output independent of the read chunking. */
#include "lsp/framing.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/util.h"

/* Set up an empty framer that refuses bodies larger than max_body (0: the default cap). */
void framer_init(framer *f, size_t max_body)
{
    memset(f, 0, sizeof *f);
    f->max_body = max_body ? max_body : FRAMER_MAX_BODY;
    f->prev = '\n';
}

/* Release the buffer. */
void framer_free(framer *f)
{
    free(f->buf);
    memset(f, 0, sizeof *f);
}

/* Append bytes, compacting consumed space first so the buffer stays proportional to what is
 * unread. Offsets kept in the framer are relative to start, so compaction leaves them valid. */
void framer_feed(framer *f, const char *data, size_t n)
{
    if (f->start > 0 && (f->start == f->len || f->start > f->cap / 2)) {
        memmove(f->buf, f->buf + f->start, f->len - f->start);
        f->len -= f->start;
        f->start = 0;
    }
    if (f->len + n + 1 > f->cap) {
        size_t cap = f->cap ? f->cap : 4096;
        while (cap < f->len + n + 1)
            cap *= 2;
        f->buf = xrealloc(f->buf, cap);
        f->cap = cap;
    }
    if (n)
        memcpy(f->buf + f->len, data, n);
    f->len += n;
    f->buf[f->len] = '\0';
}

/* Number of unread bytes. */
size_t framer_pending(const framer *f)
{
    return f->len - f->start;
}

/* Consume k bytes, remembering the last one (it decides whether a header may start next). */
static void advance(framer *f, size_t k)
{
    if (k == 0)
        return;
    f->prev = (unsigned char)f->buf[f->start + k - 1];
    f->start += k;
    f->no_end = f->no_end > k ? f->no_end - k : 0;
    f->name_len = 0;
    f->ready_header = 0;
}

/* True for a character allowed in a header field name (an RFC 7230 token, roughly). */
static bool is_token_char(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

/* Does p[0, n) begin with needle (any case)? 1: yes; 2: it is a proper prefix of needle (more
 * bytes decide); 0: no. */
static int match_prefix(const char *p, size_t n, const char *needle)
{
    size_t m = strlen(needle), k = n < m ? n : m;
    if (strncasecmp(p, needle, k) != 0)
        return 0;
    return n >= m ? 1 : 2;
}

/* Skip a garbage run up to the next place a header may begin: `Content-Length:` or
 * `Content-Type:` at a line start or right after a `}`. Returns true when the framer now
 * stands on one; false when more bytes are needed (a possible start is kept). */
static bool skip_garbage(framer *f)
{
    const char *p = f->buf + f->start;
    size_t n = f->len - f->start;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 'c' && p[i] != 'C')
            continue;
        unsigned char before = i ? (unsigned char)p[i - 1] : f->prev;
        if (before != '\n' && before != '}')
            continue;
        int a = match_prefix(p + i, n - i, "content-length:");
        int b = match_prefix(p + i, n - i, "content-type:");
        if (a || b) {
            f->skipped += i;
            advance(f, i);
            if (a == 1 || b == 1) {
                f->in_garbage = false;
                return true;
            }
            return false;
        }
    }
    f->skipped += n;
    advance(f, n);
    return false;
}

/* A bad header block: skip `skip` bytes and resynchronise. -1 (with *cause) for the first
 * problem of a garbage run, -2 for the later ones, which stay silent. */
static int bad(framer *f, size_t skip, const char **cause, const char *why)
{
    f->skipped += skip;
    advance(f, skip);
    f->in_garbage = true;
    if (f->reported)
        return -2;
    f->reported = true;
    *cause = why;
    return -1;
}

/* Parse a Content-Length value: decimal digits only, with optional surrounding blanks. Returns
 * 0, -1 when it is not a number, -2 when it exceeds max. */
static int parse_length(const char *v, size_t n, size_t max, size_t *out)
{
    while (n > 0 && (*v == ' ' || *v == '\t'))
        v++, n--;
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n == 0)
        return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        x = x * 10 + (uint64_t)(v[i] - '0');
        if (x > (uint64_t)max)
            return -2;
    }
    *out = (size_t)x;
    return 0;
}

/* The end of a header block (the offset just past its empty line) among p[from, lim), or 0.
 * Sets *decided to the offset below which no end can start (for the next search). */
static size_t header_end(const char *p, size_t from, size_t lim, size_t *decided)
{
    for (size_t i = from; i < lim; i++) {
        if (p[i] != '\n')
            continue;
        if (i + 1 < lim && p[i + 1] == '\n')
            return i + 2;
        if (i + 2 < lim && p[i + 1] == '\r' && p[i + 2] == '\n')
            return i + 3;
    }
    *decided = lim >= 2 ? lim - 2 : 0;
    return 0;
}

/* Check the lines of a complete header block p[0, end). Returns NULL and the body length, or
 * the problem and how much to skip: never past a place where a header could still begin, and
 * never to a place that would run into the same problem again (a start before a bad line has
 * that line in its block). So a malformed line is skipped to, a bad or oversized value is
 * skipped past, a second Content-Length is skipped to, and a block with no Content-Length at
 * all is skipped whole. */
static const char *check_block(const framer *f, const char *p, size_t end, size_t *body_len,
                               size_t *skip)
{
    bool have_len = false;
    for (size_t pos = 0; pos < end;) {
        size_t eol = pos;
        while (eol < end && p[eol] != '\n')
            eol++;
        size_t ll = eol - pos;
        if (ll > 0 && p[pos + ll - 1] == '\r')
            ll--;
        if (ll > 0) {
            size_t k = 0;
            while (k < ll && is_token_char((unsigned char)p[pos + k]))
                k++;
            if (k == 0 || k == ll || p[pos + k] != ':') {
                *skip = pos > 0 ? pos : 1;
                return "malformed message header line";
            }
            if (k == 14 && strncasecmp(p + pos, "content-length", 14) == 0) {
                if (have_len) {
                    *skip = pos;
                    return "invalid Content-Length";
                }
                int rc = parse_length(p + pos + k + 1, ll - k - 1, f->max_body, body_len);
                if (rc < 0) {
                    *skip = eol + 1;
                    return rc == -2 ? "Content-Length too large" : "invalid Content-Length";
                }
                have_len = true;
            }
            /* Every other header (Content-Type included) is accepted and ignored. */
        }
        pos = eol + 1;
    }
    *skip = end;
    return have_len ? NULL : "message header without Content-Length";
}

/* One framing step (see framing.h); -2 means "a silent resynchronisation step, call again". */
static int framer_next_once(framer *f, const char **body, size_t *len, const char **cause)
{
    if (f->in_garbage && !skip_garbage(f))
        return 0;
    if (f->ready_header == 0) {
        /* Tolerate stray line breaks between messages. */
        while (f->start < f->len && (f->buf[f->start] == '\r' || f->buf[f->start] == '\n'))
            advance(f, 1);
        const char *p = f->buf + f->start;
        size_t n = f->len - f->start;
        if (n == 0)
            return 0;
        size_t lim = n < FRAMER_MAX_HEADER ? n : FRAMER_MAX_HEADER;
        /* The first line must begin with a header name and a colon (the part already seen is
         * remembered, so a stream fed byte by byte is not scanned again and again). */
        size_t i = f->name_len;
        while (i < lim && is_token_char((unsigned char)p[i]))
            i++;
        f->name_len = i;
        if (i == lim)
            return n >= FRAMER_MAX_HEADER ? bad(f, 1, cause, "garbage instead of a message header") : 0;
        if (i == 0 || p[i] != ':')
            return bad(f, 1, cause, "garbage instead of a message header");
        size_t decided = 0;
        size_t end = header_end(p, f->no_end, lim, &decided);
        if (end == 0) {
            f->no_end = decided;
            return n >= FRAMER_MAX_HEADER ? bad(f, 1, cause, "message header too long") : 0;
        }
        size_t body_len = 0;
        size_t skip = 0;
        const char *why = check_block(f, p, end, &body_len, &skip);
        if (why)
            return bad(f, skip, cause, why);
        f->ready_header = end;
        f->ready_body = body_len;
    }
    size_t end = f->ready_header, body_len = f->ready_body;
    if (f->len - f->start - end < body_len)
        return 0;
    *body = f->buf + f->start + end;
    *len = body_len;
    advance(f, end + body_len);
    f->reported = false; /* a message framed: the garbage run, if any, is over */
    return 1;
}

/* Take the next message, looping over silent resynchronisation steps. */
int framer_next(framer *f, const char **body, size_t *len, const char **cause)
{
    for (;;) {
        int rc = framer_next_once(f, body, len, cause);
        if (rc != -2)
            return rc;
    }
}
