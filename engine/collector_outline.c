/* Each changed Python file's outline (py_outline.h), read once per review from its head text
 * for every collector that asks (collector.h collector_outline), and dropped when the file's
 * per-file stages are over. */
#include <stdlib.h>

#include "engine/collector.h"
#include "engine/py_outline.h"
#include "engine/util.h"

struct collector_outline_memo {
    py_outline **items; /* one per file of the change, NULL until asked for */
    size_t n;
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
