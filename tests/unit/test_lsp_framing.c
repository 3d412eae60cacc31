/* Unit tests of lsp/framing.c: Content-Length framing over arbitrary chunking, header order,
 * bare LF, and recovery from every kind of bad header. */
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
        "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        "Content-Type: x\r\n\r\n{\"a\":1}",
        "Content-Length: 2\r\nno colon here\r\n\r\n{}",
        "garbage garbage\r\n\r\n",
        "{\"jsonrpc\":\"2.0\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        framer f;
        framer_init(&f, 1 << 20);
        char out[256];
        const char *cause = NULL;
        int rc = feed_take(&f, bad[i], out, sizeof out, &cause);
        CHECK_INT(rc, -1);
        CHECK(cause != NULL);
        /* Whatever is left of the bad message is skipped; the next good one comes through. */
        int got = 0;
        framer_feed(&f, "Content-Length: 4\r\n\r\nnext", 25);
        for (int k = 0; k < 5 && got != 1; k++)
            got = feed_take(&f, NULL, out, sizeof out, &cause);
        CHECK_INT(got, 1);
        CHECK_STR(out, "next");
        framer_free(&f);
    }
}

TEST(oversized_body_refused)
{
    framer f;
    framer_init(&f, 10);
    char out[64];
    const char *cause = NULL;
    CHECK_INT(feed_take(&f, "Content-Length: 11\r\n\r\n01234567890", out, sizeof out, &cause), -1);
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
    CHECK_INT(feed_take(&f, "Content-Length: 2\r\n\r\nok", out, sizeof out, &cause), 1);
    CHECK_STR(out, "ok");
    framer_free(&f);
}

UNIT_MAIN("lsp_framing", UNIT_CASE(basic_and_split), UNIT_CASE(header_order_case_and_lf),
          UNIT_CASE(bad_lengths_recover), UNIT_CASE(oversized_body_refused),
          UNIT_CASE(garbage_reported_once))
