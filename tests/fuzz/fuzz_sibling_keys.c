/* libFuzzer target for the sibling-drift collector's unit keys and rewrite kinds
 * (engine/collectors/siblings_spelling.c, siblings_choices.c): the input is cut in two code
 * lines at its first NUL (or in half). A canonical key holds no white space, and no line is its
 * own rewrite: a unit compared with itself is never a choice of the changed function. Every
 * byte read stays within the texts. (Cutting a key again is not asked to change nothing: white
 * space dropped can join two numbers into one, `1e-6 2` into `1e-062`.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

static sib_unit unit_of(const char *text)
{
    sib_unit u = {.kind = SIB_STMT, .line = 1, .end_line = 1};
    u.key = sib_canonical_key(text);
    u.code = u.key;
    u.shown = (char *)text;
    return u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *all = (const char *)data;
    const char *nul = memchr(all, '\0', size);
    size_t na = nul ? (size_t)(nul - all) : size / 2;
    char *a = xstrndup(all, na);
    const char *rest = all + na + (nul ? 1 : 0);
    char *b = xstrndup(rest, size - (size_t)(rest - all));
    sib_unit ua = unit_of(a), ub = unit_of(b);
    if (strchr(ua.key, ' ') || strchr(ub.key, ' '))
        abort();
    bool touched = true;
    sib_unit_list self = {.items = &ua, .n = 1, .cap = 1};
    if (sib_own_choice(&ua, &ua, &self, &touched, 1, 1))
        abort();
    sib_unit_list other = {.items = &ub, .n = 1, .cap = 1};
    (void)sib_own_choice(&ua, &ub, &other, &touched, 1, 1);
    (void)sib_own_choice(&ub, &ua, &self, &touched, 1, 1);
    size_t n = 0;
    free(sib_tokens(b, &n));
    free(ua.key);
    free(ub.key);
    free(a);
    free(b);
    return 0;
}
