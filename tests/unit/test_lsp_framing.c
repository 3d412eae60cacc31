/* Unit tests of lsp/framing.c: Content-Length framing over arbitrary chunking, header order,
 * bare LF, recovery from every kind of bad header, and the two promises of the framer on the
 * recorded protocol transcripts (the .t files of tests/protocol) with garbage injected
 * between their messages: what comes out is the same at every split point of the stream, and
 * no message that follows a garbage run is lost, each run being reported once. */
#include <dirent.h>

#include "engine/util.h"
#include "lsp/framing.h"
#include "tests/unit/unit.h"

/* Feed a string and take one result; returns framer_next's code, body copied into out. */
static int feed_take(framer *f, const char *in, char *out, size_t outsz, const char **cause)
{
    if (in)
        framer_feed(f, in, strlen(in));
    const char *body = NULL;
    size_t len = 0;
    int rc = framer_next(f, &body, &len, cause);
    if (rc == 1) {
        size_t n = len < outsz - 1 ? len : outsz - 1;
        memcpy(out, body, n);
        out[n] = '\0';
    }
    return rc;
}

/* Drain a framer into an event log: "M<len>:<body>\n" per message, "E<cause>\n" per error. */
static void drain(framer *f, strbuf *log)
{
    const char *body, *cause;
    size_t len;
    int rc;
    while ((rc = framer_next(f, &body, &len, &cause)) != 0) {
        if (rc == 1) {
            sb_addf(log, "M%zu:", len);
            sb_add(log, body, len);
            sb_addc(log, '\n');
        } else {
            sb_addf(log, "E%s\n", cause);
        }
    }
}

/* Split an event log into its messages (appended to msgs as logged) and its error count. */
static size_t log_errors(const char *log, strbuf *msgs)
{
    size_t nerr = 0;
    for (const char *p = log; *p;) {
        if (*p == 'M') {
            /* a body may hold newlines: take its declared length */
            size_t len = strtoul(p + 1, NULL, 10);
            const char *b = strchr(p, ':') + 1;
            if (msgs)
                sb_add(msgs, p, (size_t)(b - p) + len + 1);
            p = b + len + 1;
            continue;
        }
        nerr++;
        const char *e = strchr(p, '\n');
        p = e ? e + 1 : p + strlen(p);
    }
    return nerr;
}

/* The event log of a stream fed in pieces cut at the given offsets (ascending). */
static char *events(const char *s, size_t n, const size_t *cuts, size_t ncuts)
{
    framer f;
    framer_init(&f, 1 << 20);
    strbuf log;
    sb_init(&log);
    size_t at = 0;
    for (size_t i = 0; i <= ncuts; i++) {
        size_t to = i < ncuts ? cuts[i] : n;
        framer_feed(&f, s + at, to - at);
        drain(&f, &log);
        at = to;
    }
    framer_free(&f);
    return sb_detach(&log);
}

TEST(basic_and_split)
{
    framer f;
    framer_init(&f, 0);
    char out[256];
    const char *cause;
    CHECK_INT(feed_take(&f, "Content-Length: 2\r\n\r\n{}", out, sizeof out, &cause), 1);
    CHECK_STR(out, "{}");
    /* Byte by byte. */
    const char *msg = "Content-Length: 7\r\n\r\n[1,2,3]";
    int rc = 0;
    for (const char *p = msg; *p; p++) {
        char c[2] = {*p, 0};
        rc = feed_take(&f, c, out, sizeof out, &cause);
        if (p[1])
            CHECK_INT(rc, 0);
    }
    CHECK_INT(rc, 1);
    CHECK_STR(out, "[1,2,3]");
    framer_free(&f);
}

TEST(header_order_case_and_lf)
{
    framer f;
    framer_init(&f, 0);
    char out[256];
    const char *cause;
    CHECK_INT(feed_take(&f, "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 3\r\n\r\nabc", out, sizeof out, &cause), 1);
    CHECK_STR(out, "abc");
    CHECK_INT(feed_take(&f, "content-length:4\n\nabcd", out, sizeof out, &cause), 1);
    CHECK_STR(out, "abcd");
    CHECK_INT(feed_take(&f, "\r\nCONTENT-LENGTH: 1 \r\n\r\nx", out, sizeof out, &cause), 1);
    CHECK_STR(out, "x");
    /* Two messages in one chunk. */
    CHECK_INT(feed_take(&f, "Content-Length: 1\r\n\r\naContent-Length: 1\r\n\r\nb", out, sizeof out, &cause), 1);
    CHECK_STR(out, "a");
    CHECK_INT(feed_take(&f, NULL, out, sizeof out, &cause), 1);
    CHECK_STR(out, "b");
    CHECK_INT(feed_take(&f, NULL, out, sizeof out, &cause), 0);
    framer_free(&f);
}

TEST(bad_lengths_recover)
{
    static const char *const bad[] = {
        "Content-Length: a\r\n\r\n{}",
        "Content-Length: -1\r\n\r\n",
        "Content-Length: 99999999999999999999999999\r\n\r\n{}",
        "Content-Length: 5\r\nContent-Length: 5\r\n\r\n{\"a\"}",
        "Content-Type: x\r\n\r\n{\"a\":1}",
        "Content-Length: 2\r\nno colon here\r\n\r\n{}",
        "garbage garbage\r\n\r\n",
        "{\"jsonrpc\":\"2.0\"}",
        "eContent-Length: 4\r\n\r\nnope\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        framer f;
        framer_init(&f, 1 << 20);
        char out[256];
        const char *cause = NULL;
        int rc = feed_take(&f, bad[i], out, sizeof out, &cause);
        CHECK_INT(rc, -1);
        CHECK(cause != NULL);
        /* Whatever is left of the bad message is skipped (or, when a header line inside it is
         * sound, framed: a second Content-Length); the next good one comes through, and the
         * run is not reported again. */
        int got = 0, errors = 0;
        framer_feed(&f, "Content-Length: 4\r\n\r\nnext", 25);
        out[0] = '\0';
        for (int k = 0; k < 5 && strcmp(out, "next") != 0; k++) {
            got = feed_take(&f, NULL, out, sizeof out, &cause);
            errors += got == -1;
        }
        if (strcmp(out, "next") != 0)
            fprintf(stderr, "  lost the message after: %s\n", bad[i]);
        CHECK_STR(out, "next");
        CHECK_INT(errors, 0);
        framer_free(&f);
    }
}

TEST(oversized_body_refused)
{
    framer f;
    framer_init(&f, 10);
    char out[64];
    const char *cause = NULL;
    CHECK_INT(feed_take(&f, "Content-Length: 11\r\n\r\n01234567890\n", out, sizeof out, &cause), -1);
    CHECK(cause && strstr(cause, "too large"));
    CHECK_INT(feed_take(&f, "Content-Length: 10\r\n\r\n0123456789", out, sizeof out, &cause), 1);
    CHECK_STR(out, "0123456789");
    framer_free(&f);
}

TEST(garbage_reported_once)
{
    /* A run of garbage (here 4000 bytes in 100 reads) is one error, and what is kept of it
     * while waiting for a header stays small. */
    framer f;
    framer_init(&f, 0);
    char out[64];
    const char *cause = NULL;
    int errors = 0;
    for (int i = 0; i < 100; i++) {
        framer_feed(&f, "not lsp at all; not lsp at all; not lsp!", 40);
        int rc;
        while ((rc = feed_take(&f, NULL, out, sizeof out, &cause)) != 0)
            errors += rc == -1;
    }
    CHECK_INT(errors, 1);
    CHECK(framer_pending(&f) <= 16);
    CHECK_INT(feed_take(&f, "\nContent-Length: 2\r\n\r\nok", out, sizeof out, &cause), 1);
    CHECK_STR(out, "ok");
    framer_free(&f);
}

/* Header-like garbage (1 MiB of blocks that each lack or spoil Content-Length) is still one
 * run: one error, not one per block. */
TEST(header_like_flood_is_one_error)
{
    static const char *const blocks[] = {"Content-Type: x\r\n\r\n", "Foo: bar\r\n\r\n",
                                         "Content-Length: z\r\n\r\n{}", "content-length\r\n"};
    strbuf s;
    sb_init(&s);
    for (size_t i = 0; s.len < (1u << 20); i++)
        sb_adds(&s, blocks[i % 4]);
    sb_adds(&s, "Content-Length: 2\r\n\r\n{}");
    size_t cuts[] = {10, 4096, 65536, 700000};
    char *log = events(s.buf, s.len, cuts, 4);
    CHECK_STR(log, "Emessage header without Content-Length\nM2:{}\n");
    free(log);
    sb_free(&s);
}

/* 2 MiB of binary garbage, then a request: answered, after one error. */
TEST(long_garbage_then_message)
{
    strbuf s;
    sb_init(&s);
    for (unsigned i = 0; s.len < (2u << 20); i++)
        sb_addc(&s, (char)(i * 2654435761u >> 24 | 1));
    sb_adds(&s, "\nContent-Length: 13\r\n\r\n{\"id\":\"last\"}");
    size_t cuts[] = {1, 100000, 1048576};
    char *log = events(s.buf, s.len, cuts, 3);
    strbuf msgs;
    sb_init(&msgs);
    CHECK_INT(log_errors(log, &msgs), 1);
    CHECK_STR(msgs.buf, "M13:{\"id\":\"last\"}\n");
    sb_free(&msgs);
    free(log);
    sb_free(&s);
}

/* The case: a bad block and a valid message, in one write or split at byte 10. */
TEST(split_at_byte_ten_is_the_same)
{
    const char *s = "Content-Length: x\r\n\r\n{}Content-Length: 2\r\n\r\n[]";
    size_t n = strlen(s);
    char *one = events(s, n, NULL, 0);
    for (size_t k = 0; k <= n; k++) {
        char *two = events(s, n, &k, 1);
        CHECK_STR(two, one);
        free(two);
    }
    CHECK_STR(one, "Einvalid Content-Length\nM2:[]\n");
    free(one);
}

/* Garbage injected between transcript messages: each kind must cost one error and lose
 * nothing after it. */
static const char *const garbage[] = {
    "hello, this is not LSP\r\n\r\n",
    "Content-Length: a\r\n\r\n{\"x\":1}",
    "Content-Length: 99999999999999999999\r\n\r\n{}",
    "Content-Len\r\n",
    "X-Header: 1\r\n\r\n[1]\n",
    "Content-Length: 2\r\nnot a header\r\n\r\n{}",
    "\x01\xff\xfe garbage with content-length: 5 inside and Content-Le}",
    "eContent-Length: 5\r\n\r\nhello\n",
    "Content-Type: text/plain\r\n\r\nContent-Length: 3 in a body\r\n",
};
#define NGARBAGE (sizeof garbage / sizeof garbage[0])

/* Undo a transcript's raw "..." escapes (\r \n \t \" \\ \xNN). */
static void add_unescaped(strbuf *sb, const char *p, const char *end)
{
    for (; p < end; p++) {
        if (*p != '\\' || p + 1 >= end) {
            sb_addc(sb, *p);
            continue;
        }
        char c = *++p;
        if (c == 'x' && p + 2 < end) {
            char hex[3] = {p[1], p[2], 0};
            sb_addc(sb, (char)strtol(hex, NULL, 16));
            p += 2;
        } else {
            sb_addc(sb, c == 'r' ? '\r' : c == 'n' ? '\n' : c == 't' ? '\t' : c);
        }
    }
}

/* Append one Content-Length framed body. */
static void add_framed(strbuf *sb, const char *body, size_t n)
{
    sb_addf(sb, "Content-Length: %zu\r\n\r\n", n);
    sb_add(sb, body, n);
}

/* Build from a transcript: `full` gets every client message as recorded (JSON framed, raw
 * bytes as written), with a garbage kind injected after each; `clean` gets only the JSON
 * messages, each followed by a garbage kind, and `bodies` their expected event log. */
static size_t record(const char *text, strbuf *full, strbuf *clean, strbuf *bodies)
{
    size_t nmsg = 0;
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        const char *end = eol ? eol : line + strlen(line);
        if (strncmp(line, "--> {", 5) == 0) {
            add_framed(full, line + 4, (size_t)(end - line - 4));
            sb_adds(full, garbage[nmsg % NGARBAGE]);
            add_framed(clean, line + 4, (size_t)(end - line - 4));
            sb_addf(bodies, "M%zu:", (size_t)(end - line - 4));
            sb_add(bodies, line + 4, (size_t)(end - line - 4));
            sb_addc(bodies, '\n');
            /* the last one is followed by garbage too: its error ends the log */
            sb_adds(clean, garbage[nmsg % NGARBAGE]);
            nmsg++;
        } else if (strncmp(line, "--> raw \"", 9) == 0) {
            const char *q = end;
            while (q > line + 9 && *q != '"')
                q--;
            add_unescaped(full, line + 9, q);
        }
        line = eol ? eol + 1 : end;
    }
    return nmsg;
}

/* Every .t file of tests/protocol, read whole; *n set to how many (caller frees each). */
static char **transcripts(size_t *n)
{
    const char *root = getenv("ROOT") ? getenv("ROOT") : ".";
    char *dir = xasprintf("%s/tests/protocol", root);
    DIR *d = opendir(dir);
    char **out = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (str_ends(de->d_name, ".t")) {
            char *p = xasprintf("%s/%s", dir, de->d_name);
            char *t = read_file(p, 0, NULL, NULL);
            if (t)
                *ARRAY_PUSH(out, *n, cap) = t;
            free(p);
        }
    if (d)
        closedir(d);
    free(dir);
    return out;
}

TEST(transcripts_same_at_every_split_point)
{
    size_t nt;
    char **ts = transcripts(&nt);
    CHECK(nt >= 20);
    for (size_t i = 0; i < nt; i++) {
        strbuf full, clean, bodies;
        sb_init(&full);
        sb_init(&clean);
        sb_init(&bodies);
        record(ts[i], &full, &clean, &bodies);
        char *one = events(full.buf, full.len, NULL, 0);
        for (size_t k = 0; k <= full.len; k++) {
            char *two = events(full.buf, full.len, &k, 1);
            if (strcmp(one, two) != 0) {
                fprintf(stderr, "  transcript %zu: split at byte %zu of %zu changes the result\n", i, k,
                        full.len);
                CHECK(0);
                free(two);
                break;
            }
            free(two);
        }
        /* and byte by byte */
        size_t *cuts = xmalloc((full.len + 1) * sizeof *cuts);
        for (size_t k = 0; k < full.len; k++)
            cuts[k] = k + 1;
        char *bytes = events(full.buf, full.len, cuts, full.len ? full.len - 1 : 0);
        CHECK_STR(bytes, one);
        free(bytes);
        free(cuts);
        free(one);
        sb_free(&full);
        sb_free(&clean);
        sb_free(&bodies);
        free(ts[i]);
    }
    free(ts);
}

TEST(transcripts_lose_nothing_after_garbage)
{
    size_t nt;
    char **ts = transcripts(&nt);
    for (size_t i = 0; i < nt; i++) {
        strbuf full, clean, bodies;
        sb_init(&full);
        sb_init(&clean);
        sb_init(&bodies);
        size_t nmsg = record(ts[i], &full, &clean, &bodies);
        char *got = events(clean.buf, clean.len, NULL, 0);
        /* the messages, in order, each followed by exactly one error */
        strbuf bodies_only;
        sb_init(&bodies_only);
        size_t nerr = log_errors(got, &bodies_only);
        CHECK_STR(bodies_only.buf ? bodies_only.buf : "", bodies.buf ? bodies.buf : "");
        CHECK_INT(nerr, nmsg);
        free(got);
        sb_free(&bodies_only);
        sb_free(&full);
        sb_free(&clean);
        sb_free(&bodies);
        free(ts[i]);
    }
    free(ts);
}

UNIT_MAIN("lsp_framing", UNIT_CASE(basic_and_split), UNIT_CASE(header_order_case_and_lf),
          UNIT_CASE(bad_lengths_recover), UNIT_CASE(oversized_body_refused),
          UNIT_CASE(garbage_reported_once), UNIT_CASE(header_like_flood_is_one_error),
          UNIT_CASE(long_garbage_then_message), UNIT_CASE(split_at_byte_ten_is_the_same),
          UNIT_CASE(transcripts_same_at_every_split_point),
          UNIT_CASE(transcripts_lose_nothing_after_garbage))
