/* Each changed Python file's outline (py_outline.h), read once per review from its head text
 * for every collector that asks (collector.h collector_outline), and dropped when the file's
 * per-file stages are over; and the names each module read by path binds at its top level,
 * kept for the whole review (collector_module_names). */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/py_outline.h"
#include "engine/util.h"

struct collector_outline_memo {
    py_outline **items; /* one per file of the change, NULL until asked for */
    size_t n;
    strset paths;       /* modules whose names were listed, in the order asked */
    strset **names;     /* names[i]: what paths[i] binds (py_toplevel_names); each apart, so
                           a list handed out stays put as more are added */
    size_t ncap;
};

collector_outline_memo *collector_outline_memo_new(size_t nfiles)
{
    collector_outline_memo *m = xcalloc(1, sizeof *m);
    m->items = xcalloc(nfiles + 1, sizeof *m->items);
    m->n = nfiles;
    return m;
}

void collector_outline_memo_free(collector_outline_memo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        py_outline_free(m->items[i]);
    free(m->items);
    for (size_t i = 0; i < m->paths.n; i++) {
        strset_free(m->names[i]);
        free(m->names[i]);
    }
    free(m->names);
    strset_free(&m->paths);
    free(m);
}

/* f's index in ctx's change, or -1 when it is not one of its files. */
static long file_index(const collector_ctx *ctx, const change_file *f)
{
    if (!ctx->chg || f < ctx->chg->files || f >= ctx->chg->files + ctx->chg->nfiles)
        return -1;
    return (long)(f - ctx->chg->files);
}

const py_outline *collector_outline(collector_ctx *ctx, const change_file *f, const char *text,
                                    size_t len, py_outline **owned)
{
    *owned = NULL;
    long i = file_index(ctx, f);
    if (!ctx->outlines || i < 0 || (size_t)i >= ctx->outlines->n)
        return *owned = py_outline_read(text, len);
    if (!ctx->outlines->items[i])
        ctx->outlines->items[i] = py_outline_read(text, len);
    return ctx->outlines->items[i];
}

void collector_forget_outline(collector_ctx *ctx, const change_file *f)
{
    long i = file_index(ctx, f);
    if (!ctx->outlines || i < 0 || (size_t)i >= ctx->outlines->n)
        return;
    py_outline_free(ctx->outlines->items[i]);
    ctx->outlines->items[i] = NULL;
}

const strset *collector_module_names(collector_ctx *ctx, const char *path, const char *text,
                                     size_t len, strset *owned)
{
    collector_outline_memo *m = ctx->outlines;
    if (!m) {
        py_toplevel_names(text, len, owned);
        return owned;
    }
    long at = strset_find(&m->paths, path);
    if (at >= 0)
        return m->names[at];
    size_t i = strset_add_val(&m->paths, path, 0);
    grow_array((void **)&m->names, &m->ncap, m->paths.n, sizeof *m->names);
    m->names[i] = xcalloc(1, sizeof *m->names[i]);
    py_toplevel_names(text, len, m->names[i]);
    return m->names[i];
}
