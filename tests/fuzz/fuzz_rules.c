/* libFuzzer target for engine/rules_catalog.c: the rules-file reader (aiter's rules.md block
 * syntax, housekeeping tables) on arbitrary text, then every lookup on what it read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rules_catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *cause = NULL;
    rule_catalog *c = catalog_parse((const char *)data, size, "fuzz/rules.md", &cause);
    free(cause);
    if (!c)
        return 0;
    for (size_t i = 0; i < c->n; i++) {
        if (!c->rules[i].id || catalog_find(c, c->rules[i].id) == NULL)
            abort();
        const char *near[4];
        catalog_near(c, c->rules[i].id, near, 4);
    }
    const char *near[4];
    catalog_near(c, "D4", near, 4);
    catalog_find(c, "");
    catalog_free(c);
    return 0;
}
