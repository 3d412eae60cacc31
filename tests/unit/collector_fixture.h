/* Fixture runner for collector unit tests: a fixture is a directory with base/ and head/
 * trees (a file only in head/ is new, only in base/ is deleted) and expected.txt. The runner
 * diffs the trees in-process with libgit2, reads the diff back with diff_parse (as --diff mode
 * does, head root = head/), runs one collector and compares its findings, printed as
 *   path:line: severity [ID] message
 *     -> path:line: related message
 *       (its exhibits as `check --format text` shows them, four spaces in)
 * with expected.txt. REVIEW_BLESS=1 in the environment rewrites expected.txt instead.
 * Included by one test file each; everything here is static. */
#ifndef RL_COLLECTOR_FIXTURE_H
#define RL_COLLECTOR_FIXTURE_H

#include <dirent.h>
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "lsp/exhibit_render.h"
#include "tests/unit/unit.h"

/* Stand-ins for the engine's collector helpers, used only until the engine defines them
 * (the engine's strong definitions win at link time). */
__attribute__((weak)) void collector_status(collector_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    sb_reset(&ctx->status);
    sb_adds(&ctx->status, s);
    free(s);
}

__attribute__((weak)) char *collector_base_text(collector_ctx *ctx, const change_file *f,
                                                size_t *len, char **cause)
{
    (void)ctx;
    (void)f;
    (void)len;
    *cause = xstrdup("no repository (fixture)");
    return NULL;
}

typedef struct fx_paths {
    char **p;
    size_t n, cap;
} fx_paths;

/* Collect the relative paths of regular files under root/rel, recursively. */
static void fx_walk(const char *root, const char *rel, fx_paths *out)
{
    char *dir = *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *r = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        char *full = xasprintf("%s/%s", root, r);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            fx_walk(root, r, out);
            free(r);
        } else {
            bool dup = false;
            for (size_t i = 0; i < out->n; i++)
                dup |= strcmp(out->p[i], r) == 0;
            if (dup)
                free(r);
            else
                *ARRAY_PUSH(out->p, out->n, out->cap) = r;
        }
        free(full);
    }
    closedir(d);
    free(dir);
}

static int fx_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The unified diff between dir/base and dir/head, as git would print it. */
static char *fx_diff(const char *dir)
{
    char *base = xasprintf("%s/base", dir), *head = xasprintf("%s/head", dir);
    fx_paths ps = {0};
    fx_walk(base, "", &ps);
    fx_walk(head, "", &ps);
    if (ps.n)
        qsort(ps.p, ps.n, sizeof *ps.p, fx_cmp);
    strbuf out;
    sb_init(&out);
    git_libgit2_init();
    for (size_t i = 0; i < ps.n; i++) {
        char *bp = xasprintf("%s/%s", base, ps.p[i]), *hp = xasprintf("%s/%s", head, ps.p[i]);
        size_t bl = 0, hl = 0;
        char *cause = NULL;
        char *bt = read_file(bp, 0, &bl, &cause);
        free(cause);
        cause = NULL;
        char *ht = read_file(hp, 0, &hl, &cause);
        free(cause);
        git_patch *patch = NULL;
        git_diff_options opts;
        git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
        if (git_patch_from_buffers(&patch, bt, bl, bt ? ps.p[i] : NULL, ht, hl, ht ? ps.p[i] : NULL,
                                   &opts) == 0 && patch) {
            git_buf b = {0};
            if (git_patch_to_buf(&b, patch) == 0 && b.size) {
                if (!bt || !ht) {
                    /* libgit2 prints no new/deleted marker for buffers: add git's */
                    sb_addf(&out, "diff --git a/%s b/%s\n%s file mode 100644\n", ps.p[i], ps.p[i],
                            bt ? "deleted" : "new");
                    const char *p = strstr(b.ptr, "\n---");
                    sb_adds(&out, p ? p + 1 : b.ptr);
                } else {
                    sb_add(&out, b.ptr, b.size);
                }
            }
            git_buf_dispose(&b);
            git_patch_free(patch);
        }
        free(bt);
        free(ht);
        free(bp);
        free(hp);
        free(ps.p[i]);
    }
    git_libgit2_shutdown();
    free(ps.p);
    free(base);
    free(head);
    return sb_detach(&out);
}

/* Print findings in the fixture format. */
static char *fx_format(const finding_list *l)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < l->n; i++) {
        const finding *f = &l->items[i];
        sb_addf(&sb, "%s:%d: %s [%s] %s\n", f->path, f->range.line, severity_name(f->sev),
                f->rule_id, f->message);
        for (size_t k = 0; k < f->nrelated; k++)
            sb_addf(&sb, "  -> %s:%d: %s\n", f->related[k].path, f->related[k].range.line,
                    f->related[k].message);
        exhibit_text(&sb, f->exhibits, f->nexhibits, 4);
    }
    return sb_detach(&sb);
}

/* Run collector c on fixture dir (relative to the checkout) and compare with expected.txt;
 * the status line is returned in *status (caller frees). Returns true when they match. */
static bool fx_run(const collector *c, const char *dir, char **status)
{
    char *diff = fx_diff(dir);
    char *cause = NULL;
    change *chg = diff_parse(diff, strlen(diff), &cause);
    if (cause) {
        fprintf(stderr, "  %s: diff_parse: %s\n", dir, cause);
        free(cause);
    }
    chg->head_root = xasprintf("%s/head", dir);
    finding_list out = {0};
    collector_ctx ctx = {.chg = chg, .rp = NULL, .root = chg->head_root, .out = &out};
    sb_init(&ctx.status);
    collector_run(c, &ctx);
    findings_sort(&out);
    char *got = fx_format(&out);
    /* the same run through a shared syntax cache (as the engine runs it), twice: the second
     * time every doc comes from the cache; the findings must not change */
    syntax_cache *syn = syntax_cache_new();
    for (int pass = 0; pass < 2; pass++) {
        finding_list out2 = {0};
        collector_ctx ctx2 = {.chg = chg, .rp = NULL, .root = chg->head_root, .out = &out2, .syn = syn};
        sb_init(&ctx2.status);
        collector_run(c, &ctx2);
        findings_sort(&out2);
        char *got2 = fx_format(&out2);
        if (strcmp(got, got2) != 0) {
            fprintf(stderr, "  %s: findings differ with a syntax cache (pass %d)\n%s", dir, pass, got2);
            CHECK(false);
        }
        free(got2);
        findings_clear(&out2);
        sb_free(&ctx2.status);
    }
    syntax_cache_free(syn);
    char *exp_path = xasprintf("%s/expected.txt", dir);
    bool ok;
    if (getenv("REVIEW_BLESS")) {
        FILE *fp = fopen(exp_path, "w");
        if (fp) {
            fputs(got, fp);
            fclose(fp);
        }
        ok = true;
    } else {
        size_t n;
        char *want = read_file(exp_path, 0, &n, &cause);
        if (!want) {
            fprintf(stderr, "  %s: %s\n", exp_path, cause);
            free(cause);
            want = xstrdup("(missing)");
        }
        ok = strcmp(got, want) == 0;
        if (!ok)
            fprintf(stderr, "  %s: findings differ\n  --- want\n%s  --- got\n%s  --- status: %s\n", dir,
                    want, got, ctx.status.buf ? ctx.status.buf : "");
        free(want);
    }
    *status = xstrdup(ctx.status.buf ? ctx.status.buf : "");
    free(exp_path);
    free(got);
    findings_clear(&out);
    free(out.items);
    sb_free(&ctx.status);
    change_free(chg);
    free(diff);
    return ok;
}

#endif
