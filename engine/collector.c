/* Helpers every collector shares (collector.h): the status line and base-text lookups. */
#include "engine/collector.h"

#include <stdarg.h>
#include <stdlib.h>

#include "engine/repo.h"

void collector_status(collector_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    sb_reset(&ctx->status);
    sb_adds(&ctx->status, s);
    free(s);
}

char *collector_base_text(collector_ctx *ctx, const change_file *f, size_t *len, char **cause)
{
    if (f->is_new) {
        if (cause)
            *cause = xasprintf("%s: new file, no base version", f->path);
        return NULL;
    }
    if (!ctx->rp) {
        if (cause)
            *cause = xasprintf("%s: base text not available without a repository", f->path);
        return NULL;
    }
    return repo_base_text(ctx->rp, f->old_path, len, cause);
}
