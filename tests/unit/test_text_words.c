/* Unit tests of the whole-identifier search every collector shares (util.h str_find_word,
 * str_ident_char): a word is found only with no identifier character on either side, within
 * the length given (a text need not end with a NUL there), never for an empty word. */
#include <string.h>

#include "engine/util.h"
#include "tests/unit/unit.h"

TEST(a_word_is_found_only_whole)
{
    const char *s = "out_ = out_scale + out; scale_out(out)";
    const char *p = str_find_word(s, strlen(s), "out");
    CHECK(p == s + 19);
    CHECK(str_find_word(s, strlen(s), "scale") == NULL);
    CHECK(str_find_word(s, strlen(s), "scale_out") == s + 24);
    CHECK(str_find_word(s, strlen(s), "") == NULL);
    CHECK(str_find_word("x", 1, "x") != NULL);
    CHECK(str_ident_char('_') && str_ident_char('7') && !str_ident_char('.') && !str_ident_char(' '));
}

TEST(the_length_bounds_the_search)
{
    /* "outer" cut after "out": within the first three bytes it is the word out */
    const char *s = "outer";
    CHECK(str_find_word(s, 3, "out") == s);
    CHECK(str_find_word(s, 5, "out") == NULL);
    CHECK(str_find_word(s, 2, "out") == NULL);
    /* a NUL inside the range does not end the search */
    const char t[] = "a\0 beta";
    CHECK(str_find_word(t, sizeof t - 1, "beta") == t + 3);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(a_word_is_found_only_whole),
        UNIT_CASE(the_length_bounds_the_search),
    };
    return unit_main("text_words", cases, sizeof cases / sizeof cases[0]);
}
