/* Helpers every collector shares (collector.h): the status line, base-text lookups, the parsed
 * documents of a changed file (in the preprocessor view its change needs, with the decoration
 * macros of its headers) and the coverage note for status lines. */
#include "engine/collector.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base_texts.h"
#include "engine/diff_lines.h"
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

void collector_status_code_same(collector_ctx *ctx, size_t n)
{
    if (n)
        sb_addf(&ctx->status, " (besides %zu file(s) whose code did not change: only comments or "
                "layout)", n);
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
    if (ctx->bases)
        return base_texts_get(ctx->bases, ctx->rp, f->old_path, len, cause);
    return repo_base_text(ctx->rp, f->old_path, len, cause);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* True when a diff line is a conditional directive (#if ... #endif): changing one selects no
 * branch by itself. */
static bool conditional_directive(const diff_line *l)
{
    const char *p = l->text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '#')
        return false;
    while (*p == ' ' || *p == '\t')
        p++;
    return str_starts(p, "if") || str_starts(p, "el") || str_starts(p, "endif");
}

/* The lines a view of f must keep: for the head (base false) its added lines and the head line
 * before each deletion; for the base its deleted lines and the base line before each addition
 * (so both sides keep the same #if branch for the same edit). Sorted, a new array. */
static int *view_lines(const change_file *f, bool base, size_t *n)
{
    int *out = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t h = 0; h < f->nhunks; h++) {
        const diff_hunk *hk = &f->hunks[h];
        int prev_old = hk->old_count ? hk->old_start - 1 : hk->old_start;
        for (size_t k = hk->first; k < hk->first + hk->count && k < f->nlines; k++) {
            const diff_line *l = &f->lines[k];
            int line = 0;
            if (l->kind == '+')
                line = base ? prev_old : conditional_directive(l) ? 0 : l->new_no;
            else if (l->kind == '-')
                line = base ? (conditional_directive(l) ? 0 : l->old_no) : l->new_no - 1;
            if (l->kind != '+')
                prev_old = l->old_no;
            if (line >= 1)
                *ARRAY_PUSH(out, *n, cap) = line;
        }
    }
    if (*n > 1)
        qsort(out, *n, sizeof *out, int_cmp);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (k == 0 || out[k - 1] != out[i])
            out[k++] = out[i];
    *n = k;
    return out;
}

/* The text of a header the change holds (an unsaved or changed head), for the header reader. */
static const char *change_text(void *arg, const char *path, size_t *len)
{
    const change_file *f = change_find(arg, path);
    if (!f || !f->head_text || f->is_deleted)
        return NULL;
    *len = f->head_len;
    return f->head_text;
}

int collector_view_count(collector_ctx *ctx, const change_file *f, bool base, const char *text,
                         size_t len)
{
    (void)ctx;
    if (syntax_lang_of_path(base ? f->old_path : f->path) != SYN_CPP)
        return 1;
    size_t n;
    int *lines = view_lines(f, base, &n);
    int views = syntax_view_count(text, len, lines, n);
    free(lines);
    return views;
}

const syntax_doc *collector_doc(collector_ctx *ctx, const change_file *f, bool base,
                                const char *text, size_t len, syntax_doc **owned, char **cause)
{
    return collector_doc_view(ctx, f, base, text, len, 0, owned, cause);
}

/* How a doc of f is asked for: its cache key, language and options (the lines its view must
 * keep, for C/C++). */
typedef struct doc_request {
    char *key;
    syn_lang lang;
    syntax_parse_opts o;
    int *lines;
} doc_request;

static bool doc_request_init(doc_request *rq, const change_file *f, bool base, int view)
{
    const char *path = base ? f->old_path : f->path;
    memset(rq, 0, sizeof *rq);
    rq->lang = syntax_lang_of_path(path);
    if (rq->lang == SYN_NONE)
        return false;
    rq->o.view = view;
    if (rq->lang == SYN_CPP) {
        rq->lines = view_lines(f, base, &rq->o.nkeep);
        rq->o.keep_lines = rq->lines;
    }
    rq->key = view ? xasprintf("%s:%s#%d", base ? "base" : "head", path, view)
                   : xasprintf("%s:%s", base ? "base" : "head", path);
    return true;
}

static void doc_request_free(doc_request *rq)
{
    free(rq->key);
    free(rq->lines);
}

/* The decoration macros of the tree's headers a C/C++ doc of f is parsed with (new string, or
 * NULL); *own_headers gets a header reader made for want of a cache. */
static char *doc_decorations(collector_ctx *ctx, const change_file *f, bool base, const char *text,
                             size_t len, syntax_headers **own_headers)
{
    const char *path = base ? f->old_path : f->path;
    syntax_headers *hs = ctx->syn ? syntax_cache_headers(ctx->syn, ctx->root)
                                  : (*own_headers = syntax_headers_new(ctx->root));
    return syntax_headers_decorations(hs, path, text, len, change_text, (void *)ctx->chg);
}

const syntax_doc *collector_doc_view(collector_ctx *ctx, const change_file *f, bool base,
                                     const char *text, size_t len, int view, syntax_doc **owned,
                                     char **cause)
{
    *owned = NULL;
    doc_request rq;
    if (!doc_request_init(&rq, f, base, view)) {
        if (cause)
            *cause = xasprintf("%s: not a language the syntax layer parses", base ? f->old_path : f->path);
        return NULL;
    }
    /* another collector of this review asked for the same doc: its headers are known */
    const syntax_doc *d = ctx->syn ? syntax_cache_peek(ctx->syn, rq.key, rq.lang, text, len, &rq.o) : NULL;
    syntax_headers *own_headers = NULL;
    char *deco = NULL;
    if (!d && rq.lang == SYN_CPP) {
        deco = doc_decorations(ctx, f, base, text, len, &own_headers);
        rq.o.decorations = deco;
    }
    if (d) {
    } else if (!ctx->syn) {
        *owned = syntax_parse_with(rq.lang, text, len, &rq.o, cause);
        d = *owned;
    } else if (base && !f->is_new && !f->is_deleted) {
        /* a base is its head with the diff undone: parsed from the head's tree when held */
        doc_request hrq;
        doc_request_init(&hrq, f, false, view);
        size_t nmap;
        int *map = diff_lines_head_to_base(f, text, len, &nmap);
        d = syntax_cache_get_related(ctx->syn, rq.key, rq.lang, text, len, &rq.o, hrq.key, map,
                                     nmap, cause);
        free(map);
        doc_request_free(&hrq);
    } else {
        d = syntax_cache_get_with(ctx->syn, rq.key, rq.lang, text, len, &rq.o, cause);
    }
    syntax_headers_free(own_headers);
    free(deco);
    doc_request_free(&rq);
    return d;
}

/* Queue one side's default-view doc of f to be parsed ahead (when not held already): the
 * base after the head, to start from the head's tree. head is the head text (NULL: none). */
static size_t parse_ahead_side(collector_ctx *ctx, const change_file *f, bool base,
                               const char *head, size_t hlen)
{
    doc_request rq;
    if (!doc_request_init(&rq, f, base, 0))
        return 0;
    size_t len = 0;
    char *text = NULL;
    if (!base) {
        text = head ? xstrndup(head, hlen) : NULL;
        len = hlen;
    } else if (ctx->rp) {
        text = collector_base_text(ctx, f, &len, NULL);
    } else if (head) {
        text = change_base_from_head(f, head, hlen, &len); /* as the collectors make it */
    }
    char *deco = NULL;
    if (text && rq.lang == SYN_CPP) {
        syntax_headers *own_headers = NULL;
        deco = doc_decorations(ctx, f, base, text, len, &own_headers);
        syntax_headers_free(own_headers);
        rq.o.decorations = deco;
    }
    bool queued = false;
    if (text && base && head && !f->is_deleted) {
        doc_request hrq;
        doc_request_init(&hrq, f, false, 0);
        size_t nmap;
        int *map = diff_lines_head_to_base(f, text, len, &nmap);
        queued = syntax_cache_parse_ahead_related(ctx->syn, rq.key, rq.lang, text, len, &rq.o,
                                                  hrq.key, map, nmap);
        free(map);
        doc_request_free(&hrq);
    } else if (text) {
        queued = syntax_cache_parse_ahead(ctx->syn, rq.key, rq.lang, text, len, &rq.o);
    }
    free(deco);
    free(text);
    doc_request_free(&rq);
    return queued ? len : 0;
}

size_t collector_parse_ahead(collector_ctx *ctx, const change_file *f)
{
    if (!ctx->syn || f->is_binary || f->is_skipped || syntax_lang_of_path(f->path) == SYN_NONE)
        return 0;
    size_t n = 0, hlen = 0;
    char *head = f->is_deleted ? NULL : change_head_text(ctx->chg, f, &hlen, NULL);
    if (head)
        n += parse_ahead_side(ctx, f, false, head, hlen);
    if (!f->is_new)
        n += parse_ahead_side(ctx, f, true, head, hlen);
    free(head);
    return n;
}

/* Apply fn to the cache keys of f's default-view docs: its head's and its base's. */
static void each_default_doc(collector_ctx *ctx, const change_file *f, void (*fn)(syntax_cache *, const char *))
{
    if (!ctx->syn)
        return;
    char *head = xasprintf("head:%s", f->path), *base = xasprintf("base:%s", f->old_path);
    fn(ctx->syn, head);
    fn(ctx->syn, base);
    free(head);
    free(base);
}

void collector_release_docs(collector_ctx *ctx, const change_file *f)
{
    each_default_doc(ctx, f, syntax_cache_drop);
}

void collector_forget_ahead(collector_ctx *ctx, const change_file *f)
{
    each_default_doc(ctx, f, syntax_cache_ahead_forget);
}

#define MODULE_KEY_PREFIX "module:"

char *collector_module_key(const char *path)
{
    return xasprintf(MODULE_KEY_PREFIX "%s", path);
}

void collector_release_modules(collector_ctx *ctx)
{
    if (ctx->syn)
        syntax_cache_drop_prefix(ctx->syn, MODULE_KEY_PREFIX);
}

/* True when one of f's changed lines is an #include (its base may then see other headers). */
static bool edits_include(const change_file *f)
{
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind == ' ')
            continue;
        const char *p = str_lskip(l->text);
        if (*p == '#' && str_starts(str_lskip(p + 1), "include"))
            return true;
    }
    return false;
}

uint64_t collector_decoration_hash(collector_ctx *ctx, const change_file *f)
{
    if (syntax_lang_of_path(f->path) != SYN_CPP || !ctx->syn || !ctx->root)
        return 0;
    syntax_headers *hs = syntax_cache_headers(ctx->syn, ctx->root);
    size_t len = 0;
    char *head = f->is_deleted ? NULL : change_head_text(ctx->chg, f, &len, NULL);
    strbuf all;
    sb_init(&all);
    if (head) {
        char *deco = syntax_headers_decorations(hs, f->path, head, len, change_text, (void *)ctx->chg);
        sb_adds(&all, deco);
        free(deco);
    }
    if (!f->is_new && edits_include(f)) {
        size_t blen = 0;
        char *base = head ? change_base_from_head(f, head, len, &blen) : NULL;
        if (base) {
            char *deco = syntax_headers_decorations(hs, f->old_path, base, blen, change_text,
                                                    (void *)ctx->chg);
            sb_addc(&all, '\n');
            sb_adds(&all, deco);
            free(deco);
        }
        free(base);
    }
    uint64_t h = hash_bytes(all.buf ? all.buf : "", all.len);
    sb_free(&all);
    free(head);
    return h;
}

/* Which of the added lines of f the syntax layer reads as code in one of views [0, nviews):
 * returns how many were asked about and sets *first, *last to the range of those it could not. */
static int file_coverage(collector_ctx *ctx, const change_file *f, const char *text, size_t len,
                         int nviews, int *analysed, int *first, int *last)
{
    int *todo = NULL;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < f->nlines; k++)
        if (f->lines[k].kind == '+')
            *ARRAY_PUSH(todo, n, cap) = f->lines[k].new_no;
    int total = -1;
    *analysed = *first = *last = 0;
    for (int v = 0; v < nviews && n > 0; v++) {
        syntax_doc *owned = NULL;
        char *cause = NULL;
        const syntax_doc *d = collector_doc_view(ctx, f, false, text, len, v, &owned, &cause);
        free(cause);
        if (!d)
            break;
        syn_coverage cv;
        bool *unread = xcalloc(n, sizeof *unread);
        syntax_coverage(d, todo, n, &cv, unread);
        if (total < 0)
            total = cv.lines;
        *analysed += cv.analysed;
        /* keep the lines this view could not read for the next one */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (unread[i])
                todo[k++] = todo[i];
        n = k;
        free(unread);
        syntax_free(owned);
    }
    if (n) {
        *first = todo[0];
        *last = todo[n - 1];
    }
    free(todo);
    return total < 0 ? 0 : total;
}

struct collector_coverage_memo {
    size_t nfiles;
    bool *have;               /* [2 * file + all_views] */
    collector_coverage *cov;
};

collector_coverage_memo *collector_coverage_memo_new(size_t nfiles)
{
    collector_coverage_memo *m = xcalloc(1, sizeof *m);
    m->nfiles = nfiles;
    m->have = xcalloc(2 * nfiles + 1, sizeof *m->have);
    m->cov = xcalloc(2 * nfiles + 1, sizeof *m->cov);
    return m;
}

void collector_coverage_memo_code_same(collector_coverage_memo *m, size_t i)
{
    if (!m || i >= m->nfiles)
        return;
    for (size_t k = 2 * i; k < 2 * i + 2; k++) {
        m->cov[k] = (collector_coverage){0};
        m->have[k] = true;
    }
}

void collector_coverage_memo_merge(collector_coverage_memo *into,
                                   const collector_coverage_memo *from)
{
    if (!into || !from || into->nfiles != from->nfiles)
        return;
    for (size_t k = 0; k < 2 * into->nfiles; k++)
        if (from->have[k] && !into->have[k]) {
            into->cov[k] = from->cov[k];
            into->have[k] = true;
        }
}

void collector_coverage_memo_free(collector_coverage_memo *m)
{
    if (!m)
        return;
    free(m->have);
    free(m->cov);
    free(m);
}

static void file_coverage_counts(collector_ctx *ctx, const change_file *f, bool all_views,
                                 collector_coverage *out);

void collector_file_coverage(collector_ctx *ctx, const change_file *f, bool all_views,
                             collector_coverage *out)
{
    collector_coverage_memo *m = ctx->coverage;
    ptrdiff_t i = f - ctx->chg->files;
    if (!m || i < 0 || (size_t)i >= m->nfiles || m->nfiles != ctx->chg->nfiles) {
        file_coverage_counts(ctx, f, all_views, out);
        return;
    }
    size_t k = 2 * (size_t)i + all_views;
    if (!m->have[k]) {
        file_coverage_counts(ctx, f, all_views, &m->cov[k]);
        m->have[k] = true;
    }
    *out = m->cov[k];
    out->path = f->path;
}

static void file_coverage_counts(collector_ctx *ctx, const change_file *f, bool all_views,
                                 collector_coverage *out)
{
    /* A line no view reads is unparsed; a collector that reads only the primary view also
     * misses the lines only another preprocessor branch's view reads, counted apart. */
    *out = (collector_coverage){.path = f->path};
    if (f->is_deleted || f->is_skipped || f->nadd == 0 || syntax_lang_of_path(f->path) != SYN_CPP)
        return;
    size_t len = 0;
    char *text = change_head_text(ctx->chg, f, &len, NULL);
    if (!text)
        return;
    int nviews = collector_view_count(ctx, f, false, text, len);
    out->lines = file_coverage(ctx, f, text, len, nviews, &out->readable, &out->first, &out->last);
    out->analysed = out->readable;
    if (!all_views && nviews > 1) {
        int f1 = 0, l1 = 0;
        file_coverage(ctx, f, text, len, 1, &out->analysed, &f1, &l1);
    }
    free(text);
}

void collector_coverage_join(const collector_coverage *files, size_t n, strbuf *out)
{
    int lines = 0, readable = 0, analysed = 0, nwhere = 0;
    strbuf where;
    sb_init(&where);
    for (size_t i = 0; i < n; i++) {
        lines += files[i].lines;
        readable += files[i].readable;
        analysed += files[i].analysed;
        if (files[i].first && nwhere++ < 3)
            sb_addf(&where, "%s%s:%d-%d", where.len ? ", " : "", files[i].path, files[i].first,
                    files[i].last);
    }
    if (lines && analysed < lines) {
        sb_addf(out, "; %d of %d changed C/C++ line(s) analysed", analysed, lines);
        if (readable < lines)
            sb_addf(out, ", %d unparsed (%s%s)", lines - readable, where.buf, nwhere > 3 ? ", ..." : "");
        if (readable > analysed)
            sb_addf(out, ", %d only in another preprocessor branch (not read by this collector)",
                    readable - analysed);
    }
    sb_free(&where);
}

void collector_coverage_note(collector_ctx *ctx, bool all_views, strbuf *out)
{
    collector_coverage *cov = xcalloc(ctx->chg->nfiles + 1, sizeof *cov);
    for (size_t i = 0; i < ctx->chg->nfiles; i++)
        collector_file_coverage(ctx, &ctx->chg->files[i], all_views, &cov[i]);
    collector_coverage_join(cov, ctx->chg->nfiles, out);
    free(cov);
}

void collector_coverage_from_facts(collector_ctx *ctx, const collector_files *files,
                                   size_t cov_offset, strbuf *out)
{
    size_t n = ctx->chg->nfiles;
    collector_coverage *cov = xcalloc(n + 1, sizeof *cov);
    const char **facts = xcalloc(n + 1, sizeof *facts);
    for (size_t k = 0; k < files->n; k++) {
        ptrdiff_t i = files->items[k].f - ctx->chg->files;
        if (i >= 0 && (size_t)i < n)
            facts[i] = files->items[k].facts;
    }
    for (size_t i = 0; i < n; i++) {
        if (facts[i]) {
            memcpy(&cov[i], facts[i] + cov_offset, sizeof cov[i]);
            cov[i].path = ctx->chg->files[i].path; /* the kept count may be an earlier review's */
        } else {
            collector_file_coverage(ctx, &ctx->chg->files[i], false, &cov[i]);
        }
    }
    free(facts);
    collector_coverage_join(cov, n, out);
    free(cov);
}

bool collector_never_parses_ahead(collector_ctx *ctx, const change_file *f, const char *head,
                                  size_t hlen, const struct py_outline *o)
{
    return false;
}
