/* Builds the derivation's line view of a change (derive_view.h). */
#include "engine/derive_view.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

void dv_build(dv_change *v, const change *c, const char *title)
{
    memset(v, 0, sizeof *v);
    v->chg = c;
    v->files = xcalloc(c->nfiles + 1, sizeof *v->files);
    /* The original keys files by path: a path seen twice is one file. */
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *cf = &c->files[i];
        dv_file *f = NULL;
        for (size_t k = 0; k < v->nfiles && !f; k++)
            if (strcmp(v->files[k].path, cf->path) == 0)
                f = &v->files[k];
        if (!f) {
            f = &v->files[v->nfiles++];
            f->f = cf;
            f->path = cf->path;
            f->first_line = 0;
        }
        f->is_new = f->is_new || cf->is_new;
        for (size_t k = 0; k < cf->nlines; k++) {
            const diff_line *l = &cf->lines[k];
            if (l->kind == ' ')
                continue;
            if (!f->first_line)
                f->first_line = l->new_no > 0 ? l->new_no : 1;
            /* "+++..." / "---..." look like file headers to a line-oriented reader. */
            if (l->len >= 2 && l->text[0] == l->kind && l->text[1] == l->kind)
                continue;
            dv_line *d = l->kind == '+' ? ARRAY_PUSH(f->adds, f->nadds, f->adds_cap)
                                        : ARRAY_PUSH(f->dels, f->ndels, f->dels_cap);
            d->text = l->text;
            d->len = l->len;
            d->head_line = l->new_no;
        }
    }
    const char *t = title ? title : "";
    v->title_lower = xstrdup(t);
    for (char *p = v->title_lower; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

void dv_free(dv_change *v)
{
    for (size_t i = 0; i < v->nfiles; i++) {
        free(v->files[i].adds);
        free(v->files[i].dels);
    }
    free(v->files);
    free(v->title_lower);
    memset(v, 0, sizeof *v);
}

char *dv_join(const dv_line *lines, size_t n, size_t *len)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_addc(&sb, '\n');
        sb_add(&sb, lines[i].text, lines[i].len);
    }
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}

bool dv_is_comment_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    const char *p = s + i;
    size_t m = n - i;
    if (m == 0)
        return true;
    return p[0] == '#' || p[0] == '*' || (m >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*')) ||
           (m >= 3 && (memcmp(p, "\"\"\"", 3) == 0 || memcmp(p, "'''", 3) == 0));
}
