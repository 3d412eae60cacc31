/* Helpers every collector shares (collector.h): the status line and base-text lookups. */
#include "engine/collector.h"

#include <stdarg.h>
#include <stdlib.h>

#include "engine/repo.h"
#include "engine/syntax.h"

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

const syntax_doc *collector_doc(collector_ctx *ctx, const change_file *f, bool base,
                                const char *text, size_t len, syntax_doc **owned, char **cause)
{
    *owned = NULL;
    const char *path = base ? f->old_path : f->path;
    syn_lang lang = syntax_lang_of_path(path);
    if (lang == SYN_NONE) {
        if (cause)
            *cause = xasprintf("%s: not a language the syntax layer parses", path);
        return NULL;
    }
    if (!ctx->syn) {
        *owned = syntax_parse(lang, text, len, cause);
        return *owned;
    }
    char *key = xasprintf("%s:%s", base ? "base" : "head", path);
    const syntax_doc *d = syntax_cache_get(ctx->syn, key, lang, text, len, cause);
    free(key);
    return d;
}
