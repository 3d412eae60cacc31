/* Unit tests of engine/utf8.c: what counts as valid UTF-8 (RFC 3629), replacement of invalid
 * bytes by U+FFFD in messages and their escaping in paths. */
#include "engine/utf8.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

#define FFFD "\xEF\xBF\xBD"

TEST(validity_follows_rfc_3629)
{
    static const char *const good[] = {"", "ascii", "\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80",
                                       "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"};
    static const char *const bad[] = {"\xFF", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80",
                                      "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xC3", "\xE6\x97",
                                      "\x80", "a\xF0\x9F\x98"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK(utf8_valid(good[i], strlen(good[i])));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!utf8_valid(bad[i], strlen(bad[i])));
}

TEST(messages_replace_paths_escape)
{
    char *m = utf8_sanitize("bad \xFF input \xE6\x97\xA5 \xC3");
    CHECK_STR(m, "bad " FFFD " input \xE6\x97\xA5 " FFFD);
    free(m);
    m = utf8_sanitize(NULL);
    CHECK_STR(m, "");
    free(m);
    char *p = utf8_escape_path("csrc/b\xFE.cu", '\\');
    CHECK_STR(p, "csrc/b\\xfe.cu");
    free(p);
    p = utf8_escape_path("csrc/b\xFE\xE6\x97\xA5.cu", '%');
    CHECK_STR(p, "csrc/b%FE\xE6\x97\xA5.cu");
    free(p);
    p = utf8_escape_path("plain/path.cu", '\\');
    CHECK_STR(p, "plain/path.cu");
    free(p);
}

UNIT_MAIN("utf8", UNIT_CASE(validity_follows_rfc_3629), UNIT_CASE(messages_replace_paths_escape))
