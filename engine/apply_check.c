/* The apply check of apply_check.h: git's rules for placing a hunk, on the change model. */
#include "engine/apply_check.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

typedef struct tline {
    const char *s;
    size_t len;
} tline;

/* The target text split into lines (without "\n", a "\r" kept, as the change model keeps
 * them); a final newline ends the last line rather than starting an empty one. */
static tline *split(const char *t, size_t len, size_t *n)
{
    size_t cap = 0;
    tline *v = NULL;
    *n = 0;
    for (const char *p = t, *end = t + len; p < end;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        const char *le = e ? e : end;
        *ARRAY_PUSH(v, *n, cap) = (tline){p, (size_t)(le - p)};
        p = e ? e + 1 : end;
    }
    return v;
}

/* True when the old side of hunk h (its lines of kinds ' ' and '-', pre[0..npre)) matches
 * the target's lines from k. */
static bool matches_at(const tline *tl, size_t nt, const diff_line *const *pre, size_t npre,
                       size_t k)
{
    if (k + npre > nt)
        return false;
    for (size_t i = 0; i < npre; i++)
        if (tl[k + i].len != pre[i]->len || memcmp(tl[k + i].s, pre[i]->text, pre[i]->len))
            return false;
    return true;
}

/* Where hunk h's old side lies in the target, searched outward from its expected line and
 * never before `from` (the end of the previous hunk); -1 when nowhere. */
static long place_hunk(const change_file *f, const diff_hunk *h, const tline *tl, size_t nt,
                       long expect, size_t from)
{
    const diff_line **pre = xcalloc(h->count + 1, sizeof *pre);
    size_t npre = 0, trailing = 0;
    for (size_t i = 0; i < h->count; i++) {
        const diff_line *l = &f->lines[h->first + i];
        if (l->kind == '+') {
            trailing = 0;
            continue;
        }
        pre[npre++] = l;
        trailing = l->kind == ' ' ? trailing + 1 : 0;
    }
    bool at_top = h->old_start <= 1, at_end = trailing == 0;
    long found = -1;
    if (at_top && at_end) {
        if (npre == nt && matches_at(tl, nt, pre, npre, 0))
            found = 0;
    } else if (at_top) {
        if (from == 0 && matches_at(tl, nt, pre, npre, 0))
            found = 0;
    } else if (at_end) {
        if (nt >= npre && nt - npre >= from && matches_at(tl, nt, pre, npre, nt - npre))
            found = (long)(nt - npre);
    } else {
        long span = (long)nt + 1;
        for (long d = 0; d <= span && found < 0; d++) {
            long k1 = expect - d, k2 = expect + d;
            if (k1 >= (long)from && matches_at(tl, nt, pre, npre, (size_t)k1))
                found = k1;
            else if (d && k2 >= (long)from && matches_at(tl, nt, pre, npre, (size_t)k2))
                found = k2;
        }
    }
    free(pre);
    return found < 0 ? -1 : found + (long)npre; /* where the next hunk may start */
}

/* Check one modified, renamed or deleted file against the target's text. 0 with *detail when
 * a hunk finds no place. */
static int check_file(const change_file *f, const char *src, const char *text, size_t len,
                      char **detail)
{
    size_t nt;
    tline *tl = split(text, len, &nt);
    long offset = 0;
    size_t from = 0;
    int ok = 1;
    for (size_t i = 0; i < f->nhunks && ok; i++) {
        const diff_hunk *h = &f->hunks[i];
        long expect = (h->old_start ? h->old_start - 1 : 0) + offset;
        long next = place_hunk(f, h, tl, nt, expect, from);
        if (next < 0) {
            *detail = xasprintf("%s: the hunk at line %d (@@ -%d,%d +%d,%d @@) finds no place "
                                "in the target's version", src, h->old_start, h->old_start,
                                h->old_count, h->new_start, h->new_count);
            ok = 0;
            break;
        }
        size_t nold = 0;
        for (size_t k = 0; k < h->count; k++)
            nold += f->lines[h->first + k].kind != '+';
        offset = next - (long)nold - (h->old_start ? h->old_start - 1 : 0);
        from = (size_t)next;
    }
    free(tl);
    return ok;
}

int apply_check(const change *c, apply_read_fn read, void *arg, char **detail)
{
    *detail = NULL;
    size_t unchecked = 0;
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        const char *src = f->is_renamed && f->old_path ? f->old_path : f->path;
        if (f->is_binary || f->is_skipped) {
            unchecked++;
            continue;
        }
        bool exists = false;
        size_t len = 0;
        char *text = read(arg, f->is_new ? f->path : src, &len, &exists);
        int ok = 1;
        if (f->is_new && exists)
            *detail = xasprintf("%s: the change adds it, and the target already has it", f->path),
            ok = 0;
        else if (!f->is_new && !exists)
            *detail = xasprintf("%s: the change %s it, and the target no longer has it", src,
                                f->is_deleted ? "deletes" : "edits"),
            ok = 0;
        else if (!f->is_new && text)
            ok = check_file(f, src, text, len, detail);
        else if (!f->is_new)
            unchecked++;
        free(text);
        if (!ok)
            return 0;
    }
    if (unchecked)
        *detail = xasprintf("%zu file%s (binary, too large or unreadable) %s not checked",
                            unchecked, unchecked == 1 ? "" : "s", unchecked == 1 ? "was" : "were");
    return 1;
}
