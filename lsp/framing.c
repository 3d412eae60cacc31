/* Content-Length framing (see framing.h): a byte buffer that yields complete message bodies,
 * skipping and reporting whatever is not a well-formed header block. */
#include "lsp/framing.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <stdlib.h>

#include "engine/util.h"

/* Set up an empty framer that refuses bodies larger than max_body (0: the default cap). */
void framer_init(framer *f, size_t max_body)
{
    memset(f, 0, sizeof *f);
    f->max_body = max_body ? max_body : FRAMER_MAX_BODY;
}

/* Release the buffer. */
void framer_free(framer *f)
{
    free(f->buf);
    memset(f, 0, sizeof *f);
}

/* Append bytes, compacting consumed space first so the buffer stays proportional to what is
 * unread. */
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
    memcpy(f->buf + f->len, data, n);
    f->len += n;
    f->buf[f->len] = '\0';
}

/* Number of unread bytes. */
size_t framer_pending(const framer *f)
{
    return f->len - f->start;
}

/* True for a character allowed in a header field name (an RFC 7230 token, roughly). */
static bool is_token_char(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

/* Case-insensitive search for needle in [p, p+n); returns the offset or (size_t)-1. */
static size_t find_ci(const char *p, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (strncasecmp(p + i, needle, m) == 0)
            return i;
    return (size_t)-1;
}

/* Skip garbage at the front: discard up to the next thing that looks like a header (a
 * Content-Length or Content-Type name), keeping a short tail that may be the start of one. */
static int resync(framer *f, const char **cause, const char *why)
{
    const char *p = f->buf + f->start;
    size_t n = f->len - f->start;
    size_t a = find_ci(p + 1, n - 1, "content-length");
    size_t b = find_ci(p + 1, n - 1, "content-type");
    size_t at = a < b ? a : b;
    size_t drop;
    if (at != (size_t)-1)
        drop = at + 1;
    else
        drop = n > 16 ? n - 16 : (n > 0 ? 1 : 0);
    f->start += drop;
    f->skipped += drop;
    bool report = !f->in_garbage;
    f->in_garbage = at == (size_t)-1;
    if (!report)
        return -2; /* still inside a reported run of garbage: resynchronise silently */
    *cause = why;
    return -1;
}

/* Parse a Content-Length value: decimal digits only, with optional surrounding blanks. Returns
 * 0, or -1 when it is not a number or exceeds max. */
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

/* Find the end of the header block starting at p: returns the offset just past the empty line,
 * or 0 when the block is not complete yet. */
static size_t header_end(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\n')
            continue;
        if (i + 1 < n && p[i + 1] == '\n')
            return i + 2;
        if (i + 2 < n && p[i + 1] == '\r' && p[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* Take the next message (see framing.h). */
static int framer_next_once(framer *f, const char **body, size_t *len, const char **cause)
{
    /* Tolerate stray line breaks between messages. */
    while (f->start < f->len && (f->buf[f->start] == '\r' || f->buf[f->start] == '\n'))
        f->start++;
    const char *p = f->buf + f->start;
    size_t n = f->len - f->start;
    if (n == 0)
        return 0;

    /* The first line must begin with a header name and a colon. */
    size_t i = 0;
    while (i < n && is_token_char((unsigned char)p[i]))
        i++;
    if (i == n)
        return n > FRAMER_MAX_HEADER ? resync(f, cause, "garbage instead of a message header") : 0;
    if (i == 0 || p[i] != ':')
        return resync(f, cause, "garbage instead of a message header");

    size_t end = header_end(p, n);
    if (end == 0) {
        if (n > FRAMER_MAX_HEADER)
            return resync(f, cause, "message header too long");
        return 0;
    }
    bool have_len = false, bad_len = false, huge = false;
    size_t body_len = 0;
    size_t pos = 0;
    while (pos < end) {
        size_t eol = pos;
        while (eol < end && p[eol] != '\n')
            eol++;
        size_t ll = eol - pos;
        if (ll > 0 && p[pos + ll - 1] == '\r')
            ll--;
        if (ll > 0) {
            const char *colon = memchr(p + pos, ':', ll);
            size_t k = 0;
            while (k < ll && is_token_char((unsigned char)p[pos + k]))
                k++;
            if (!colon || p + pos + k != colon || k == 0)
                return resync(f, cause, "malformed message header line");
            if (k == 14 && strncasecmp(p + pos, "content-length", 14) == 0) {
                const char *v = colon + 1;
                size_t vn = ll - (size_t)(v - (p + pos));
                int rc = parse_length(v, vn, f->max_body, &body_len);
                if (rc == -2)
                    huge = true;
                else if (rc < 0 || have_len)
                    bad_len = true;
                have_len = true;
            }
            /* Every other header (Content-Type included) is accepted and ignored. */
        }
        pos = eol + 1;
    }
    if (!have_len || bad_len || huge) {
        /* Drop the header block; its body (if any) is garbage we resynchronise over. */
        f->start += end;
        f->in_garbage = false;
        *cause = !have_len ? "message header without Content-Length"
                 : huge    ? "Content-Length too large"
                           : "invalid Content-Length";
        /* A body follows only if the client sent one; skip it as garbage up to a header. */
        if (f->start < f->len) {
            const char *q = f->buf + f->start;
            size_t m = f->len - f->start;
            size_t a = find_ci(q, m, "content-length"), b = find_ci(q, m, "content-type");
            size_t at = a < b ? a : b;
            if (at != (size_t)-1) {
                f->start += at;
                f->skipped += at;
            } else {
                f->skipped += m;
                f->start = f->len;
                f->in_garbage = true;
            }
        } else {
            f->in_garbage = true;
        }
        return -1;
    }
    if (n - end < body_len)
        return 0;
    f->in_garbage = false;
    *body = p + end;
    *len = body_len;
    f->start += end + body_len;
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
