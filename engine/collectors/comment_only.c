/* The comment-only collector: a change that is almost all comments (at least 60 changed lines,
 * at most 10% of them code) reduced to the few lines that are code — the whole review of such
 * a change (aiter#4062: 7963 lines, 0 of code once trailing-comment edits are set aside;
 * aiter#4061: 6328 lines, 128 of code).
 *
 * A line counts as prose when it is blank, starts like a comment or docstring, or sits inside
 * a C block comment whose continuation lines carry no leading `*` (aiter#4061's rewritten
 * header).
 * Unlike the original, context lines are followed too, so a block opened above a hunk still
 * makes its changed lines prose. Prose lines stay in the count. A removed and an added code line that differ only in their
 * trailing comment cancel out. The result is file-level Information (id COMMENT-ONLY): one
 * finding per file holding surviving code lines, on the first of them, with the others as
 * related locations; or, when nothing survives, one finding saying the change is prose only. */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"

#define FLOOR 60
#define CODE_SHARE 0.10
#define RELATED_MAX 40

typedef struct cline {
    const change_file *f;
    const diff_line *l;
    bool prose;              /* inside a block comment */
    bool code;               /* neither prose nor a comment-looking line */
    char *key;               /* code without its trailing comment, for cancelling */
    bool cancelled;
} cline;

/* True when a line, stripped, is empty or starts like a comment or docstring. */
static bool looks_like_comment(const char *s)
{
    s = str_lskip(s);
    return !*s || str_starts(s, "#") || str_starts(s, "//") || str_starts(s, "/*") ||
           str_starts(s, "*") || str_starts(s, "\"\"\"") || str_starts(s, "'''");
}

/* Occurrences of needle in s[0..n). */
static int count_str(const char *s, size_t n, const char *needle)
{
    int k = 0;
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, needle, m) == 0) {
            k++;
            i += m - 1;
        }
    return k;
}

/* The line without an unquoted trailing `#` or `//` comment, right-trimmed (caller frees). */
static char *strip_trailing_comment(const char *s, size_t n)
{
    strbuf sb;
    sb_init(&sb);
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (quote) {
            if (ch == '\\' && i + 1 < n) {
                sb_add(&sb, s + i, 2);
                i++;
                continue;
            }
            if (ch == quote)
                quote = 0;
        } else if (ch == '"' || ch == '\'') {
            quote = ch;
        } else if (ch == '#' || (ch == '/' && i + 1 < n && s[i + 1] == '/')) {
            break;
        }
        sb_addc(&sb, ch);
    }
    while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == '\t' ||
                      sb.buf[sb.len - 1] == '\r' || sb.buf[sb.len - 1] == '\n'))
        sb.buf[--sb.len] = '\0';
    return sb_detach(&sb);
}

/* Run the collector over the change. */
static void comment_only_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    size_t total = 0;
    for (size_t i = 0; i < c->nfiles; i++)
        for (size_t k = 0; k < c->files[i].nlines; k++)
            total += c->files[i].lines[k].kind != ' ';
    if (total < FLOOR) {
        collector_status(ctx, "nothing found: %zu changed line%s, fewer than %d, so not a "
                         "comment-dominated change", total, total == 1 ? "" : "s", FLOOR);
        return;
    }
    cline *cl = xcalloc(total, sizeof *cl);
    size_t n = 0, ncode = 0;
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        bool in_block[2] = {false, false}, was[2] = {false, false};
        for (size_t k = 0; k < f->nlines; k++) {
            const diff_line *l = &f->lines[k];
            int opens = count_str(l->text, l->len, "/*"), closes = count_str(l->text, l->len, "*/");
            /* a context line belongs to both sides: a block opened above a hunk's changed
             * lines still makes them prose */
            for (int side = 0; side < 2; side++) {
                if (l->kind != ' ' && side != (l->kind == '+'))
                    continue;
                bool in = in_block[side];
                if (opens > closes)
                    in_block[side] = true;
                else if (closes && in)
                    in_block[side] = false;
                if (l->kind != ' ')
                    was[side] = in;
            }
            if (l->kind == ' ')
                continue;
            int side = l->kind == '+';
            bool was_in = was[side];
            cline *x = &cl[n++];
            x->f = f;
            x->l = l;
            x->prose = was_in;
            x->code = !was_in && !looks_like_comment(l->text);
            ncode += x->code;
        }
    }
    if ((double)ncode / (double)n > CODE_SHARE) {
        collector_status(ctx, "nothing found: not a comment-dominated change (%zu of %zu "
                         "changed lines are code)", ncode, n);
        free(cl);
        return;
    }
    /* a removed and an added line equal but for their trailing comments cancel */
    for (size_t i = 0; i < n; i++)
        if (cl[i].code)
            cl[i].key = strip_trailing_comment(cl[i].l->text, cl[i].l->len);
    for (size_t i = 0; i < n; i++) {
        if (!cl[i].code || cl[i].cancelled)
            continue;
        for (size_t k = i + 1; k < n; k++)
            if (cl[k].code && !cl[k].cancelled && cl[k].f == cl[i].f &&
                cl[k].l->kind != cl[i].l->kind && strcmp(cl[k].key, cl[i].key) == 0) {
                cl[i].cancelled = cl[k].cancelled = true;
                break;
            }
    }
    size_t nreal = 0, nrel = 0;
    for (size_t i = 0; i < n; i++)
        nreal += cl[i].code && !cl[i].cancelled;
    if (!nreal) {
        findings_add(ctx->out, "COMMENT-ONLY", SEV_INFORMATION, cl[0].f->path,
                     cl[0].l->new_no > 0 ? cl[0].l->new_no : 1,
                     "comment-only change: none of its %zu changed lines is code once "
                     "trailing-comment edits are set aside", n);
    }
    for (size_t i = 0; i < n && nreal; i++) {
        if (!cl[i].code || cl[i].cancelled)
            continue;
        /* the first surviving line of a file carries that file's finding */
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            if (cl[k].f == cl[i].f && cl[k].code && !cl[k].cancelled)
                first = false;
        if (!first)
            continue;
        size_t here = 0;
        for (size_t k = i; k < n; k++)
            here += cl[k].f == cl[i].f && cl[k].code && !cl[k].cancelled;
        finding *fd = findings_add(ctx->out, "COMMENT-ONLY", SEV_INFORMATION, cl[i].f->path,
                                   cl[i].l->new_no > 0 ? cl[i].l->new_no : 1,
                                   "comment-dominated change: %zu changed lines, %zu of them code "
                                   "(%.1f%%); %zu of those are in this file and are the lines "
                                   "to review", n, nreal, 100.0 * (double)nreal / (double)n, here);
        for (size_t k = i; k < n && nrel < RELATED_MAX; k++) {
            if (cl[k].f != cl[i].f || !cl[k].code || cl[k].cancelled)
                continue;
            char *q = str_strip(cl[k].l->text);
            if (strlen(q) > 96)
                q[96] = '\0';
            finding_add_related(fd, cl[k].f->path, cl[k].l->new_no > 0 ? cl[k].l->new_no : 1,
                                "%s %s", cl[k].l->kind == '+' ? "added:" : "removed:", q);
            free(q);
            nrel++;
        }
    }
    collector_status(ctx, "found a comment-dominated change: %zu changed lines, %zu of them "
                     "code", n, nreal);
    for (size_t i = 0; i < n; i++)
        free(cl[i].key);
    free(cl);
}

const collector collector_comment_only = {
    .name = "comment_only",
    .rules = "COMMENT-ONLY",
    .run = comment_only_run,
};
