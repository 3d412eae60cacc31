/* The change model of change.h: building it up, looking files up, and reading head text. */
#include "engine/change.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/path_gate.h"
#include "engine/util.h"

change *change_new(void)
{
    change *c = xcalloc(1, sizeof *c);
    c->title = xstrdup("");
    return c;
}

void change_file_clear(change_file *f)
{
    free(f->path);
    free(f->old_path);
    free(f->skip_reason);
    for (size_t i = 0; i < f->nlines; i++)
        free(f->lines[i].text);
    free(f->lines);
    for (size_t i = 0; i < f->nhunks; i++)
        free(f->hunks[i].section);
    free(f->hunks);
    free(f->head_text);
    memset(f, 0, sizeof *f);
}

void change_free(change *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nfiles; i++)
        change_file_clear(&c->files[i]);
    free(c->files);
    free(c->title);
    free(c->head_root);
    free(c->raw_diff);
    for (size_t i = 0; i < c->nnotes; i++)
        free(c->notes[i]);
    free(c->notes);
    free(c);
}

change_file *change_add_file(change *c, const char *path)
{
    change_file *f = ARRAY_PUSH(c->files, c->nfiles, c->files_cap);
    memset(f, 0, sizeof *f);
    f->path = xstrdup(path);
    f->old_path = xstrdup(path);
    return f;
}

void change_drop_last(change *c)
{
    if (c->nfiles)
        change_file_clear(&c->files[--c->nfiles]);
}

diff_hunk *change_file_add_hunk(change_file *f, int old_start, int old_count, int new_start,
                                int new_count, const char *section)
{
    diff_hunk *h = ARRAY_PUSH(f->hunks, f->nhunks, f->hunks_cap);
    h->old_start = old_start;
    h->old_count = old_count;
    h->new_start = new_start;
    h->new_count = new_count;
    h->section = xstrdup(section ? section : "");
    h->first = f->nlines;
    h->count = 0;
    return h;
}

void change_file_add_line(change_file *f, char kind, int old_no, int new_no, const char *text,
                          size_t len)
{
    diff_line *l = ARRAY_PUSH(f->lines, f->nlines, f->lines_cap);
    l->kind = kind;
    l->old_no = old_no;
    l->new_no = new_no;
    l->text = xstrndup(text, len);
    l->len = len;
    if (f->nhunks)
        f->hunks[f->nhunks - 1].count++;
    if (kind == '+')
        f->nadd++;
    else if (kind == '-')
        f->ndel++;
}

change_file *change_copy_file(change *c, const change_file *src)
{
    change_file *f = change_add_file(c, src->path);
    free(f->old_path);
    f->old_path = xstrdup(src->old_path);
    f->is_new = src->is_new;
    f->is_deleted = src->is_deleted;
    f->is_renamed = src->is_renamed;
    f->is_binary = src->is_binary;
    f->is_skipped = src->is_skipped;
    f->skip_reason = src->skip_reason ? xstrdup(src->skip_reason) : NULL;
    for (size_t h = 0; h < src->nhunks; h++) {
        const diff_hunk *sh = &src->hunks[h];
        change_file_add_hunk(f, sh->old_start, sh->old_count, sh->new_start, sh->new_count, sh->section);
        for (size_t k = sh->first; k < sh->first + sh->count; k++) {
            const diff_line *l = &src->lines[k];
            change_file_add_line(f, l->kind, l->old_no, l->new_no, l->text, l->len);
        }
    }
    if (src->head_text) {
        f->head_text = xstrndup(src->head_text, src->head_len);
        f->head_len = src->head_len;
    }
    return f;
}

void change_note(change *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvasprintf(fmt, ap);
    va_end(ap);
    *ARRAY_PUSH(c->notes, c->nnotes, c->notes_cap) = msg;
}

const change_file *change_find(const change *c, const char *path)
{
    for (size_t i = 0; i < c->nfiles; i++)
        if (strcmp(c->files[i].path, path) == 0)
            return &c->files[i];
    return NULL;
}

/* True when the hunks cover the whole head file: a single hunk starting at line 1 with no
 * deleted or context lines, which is how a new file's diff looks. */
static bool diff_has_whole_head(const change_file *f)
{
    if (f->is_new && !f->is_binary)
        return true;
    if (f->nhunks != 1 || f->hunks[0].new_start > 1)
        return false;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind != '+')
            return false;
    return true;
}

void change_note_refusals(change *c)
{
    for (size_t i = 0; c->head_root && i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (f->is_deleted || f->head_text)
            continue;
        char *why = gate_refusal(c->head_root, f->path);
        if (why)
            change_note(c, "%s", why);
        free(why);
    }
}

char *change_head_text(const change *c, const change_file *f, size_t *len, char **cause)
{
    if (f->head_text) {
        if (len)
            *len = f->head_len;
        return xstrndup(f->head_text, f->head_len);
    }
    if (f->is_deleted) {
        if (cause)
            *cause = xasprintf("%s: deleted in the head", f->path);
        return NULL;
    }
    if (c->head_root)
        return gate_read(c->head_root, f->path, 0, len, cause);
    if (diff_has_whole_head(f)) {
        strbuf sb;
        sb_init(&sb);
        for (size_t i = 0; i < f->nlines; i++) {
            if (f->lines[i].kind == '-')
                continue;
            sb_add(&sb, f->lines[i].text, f->lines[i].len);
            sb_addc(&sb, '\n');
        }
        if (len)
            *len = sb.len;
        return sb_detach(&sb);
    }
    if (cause)
        *cause = xasprintf("%s: head file not available (give --root DIR with the post-change tree)",
                           f->path);
    return NULL;
}

char *change_base_from_head(const change_file *f, const char *head, size_t hlen, size_t *blen)
{
    strbuf out;
    sb_init(&out);
    const char *p = head, *end = head + hlen;
    int hline = 1;
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        while (hline < l->new_no && p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *next = nl ? nl + 1 : end;
            sb_add(&out, p, (size_t)(next - p));
            p = next;
            hline++;
        }
        if (l->kind == '-') {
            sb_add(&out, l->text, l->len);
            sb_addc(&out, '\n');
            continue;
        }
        if (p >= end) {
            sb_free(&out);
            return NULL;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        size_t n = (size_t)((nl ? nl : end) - p), ln = l->len;
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (ln > 0 && l->text[ln - 1] == '\r')
            ln--;
        if (n != ln || memcmp(p, l->text, n) != 0) {
            sb_free(&out);
            return NULL;
        }
        if (l->kind == ' ')
            sb_add(&out, p, (size_t)(next - p));
        p = next;
        hline++;
    }
    sb_add(&out, p, (size_t)(end - p));
    *blen = out.len;
    return sb_detach(&out);
}
