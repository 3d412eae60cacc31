/* libFuzzer target for the diff reader and the derivation (engine/diff_parse.c,
 * engine/derive*.c): any text is read into the change model, the rule families are derived
 * from it in the original's rules.txt format, and each file's base is rebuilt from the head
 * the diff implies. Runs under UBSan: no signed overflow, whatever the hunk numbers say. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/derive.h"
#include "engine/diff_parse.h"
#include "engine/util.h"

/* The family table, compiled once for the whole run (libFuzzer calls the target millions of
 * times; the engine compiles it once per engine). */
static derive_table *families(void)
{
    static derive_table *t;
    if (!t)
        t = derive_table_load();
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *cause = NULL;
    change *c = diff_parse((const char *)data, size, &cause);
    free(cause);
    const char *title = size && data[0] == 'p' ? "perf: 2x faster" : "fix kernel";
    derive_result dr;
    derive_run(families(), c, title, &dr);
    strbuf out;
    sb_init(&out);
    derive_format(&dr, &out);
    sb_free(&out);
    derive_result_clear(&dr);
    for (size_t i = 0; i < c->nfiles; i++) {
        size_t hlen = 0, blen = 0;
        char *why = NULL;
        char *head = change_head_text(c, &c->files[i], &hlen, &why);
        free(why);
        if (head) {
            char *base = change_base_from_head(&c->files[i], head, hlen, &blen);
            free(base);
        }
        free(head);
    }
    change_free(c);
    return 0;
}
