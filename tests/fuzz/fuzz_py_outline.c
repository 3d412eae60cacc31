/* libFuzzer target for engine/py_outline.c: the Python reader that works without parsing, on
 * arbitrary bytes. Every table it gives must stay inside the text (statement extents, line
 * offsets, def blocks), every line's statement must be asked about without reading past the
 * text, and the import reader must either refuse a statement or give entries on its lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/py_outline.h"
#include "engine/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    py_outline *o = py_outline_read(text, size);
    for (int l = 1; l <= o->nlines; l++) {
        if (o->stmt_first[l] < 1 || o->stmt_first[l] > l || o->stmt_last[l] < l ||
            o->stmt_last[l] > o->nlines || o->line_off[l] > o->line_off[l + 1] ||
            o->line_off[l + 1] > size)
            abort();
        py_outline_stmt_has_word(o, text, l, "import");
        syn_import_list ims = {0};
        if (py_outline_imports(o, text, l, &ims))
            for (size_t i = 0; i < ims.n; i++)
                if (ims.items[i].line < l || ims.items[i].line > o->stmt_last[l] || ims.items[i].col < 0)
                    abort();
        syn_import_list_free(&ims);
    }
    for (size_t i = 0; i < o->ndefs; i++) {
        const py_def *d = &o->defs[i];
        if (d->first_line < 1 || d->first_line > d->name_line || d->name_line > d->header_end ||
            d->header_end > d->end_line || d->end_line > o->nlines || !d->name || !*d->name)
            abort();
    }
    py_outline_free(o);
    strset names = {0};
    py_toplevel_names(text, size, &names);
    strset_free(&names);
    return 0;
}
