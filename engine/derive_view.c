/* Builds the derivation's line view of a change (derive_view.h): from the raw diff text when
 * there is one, reproducing the original triage's line reader (Python's universal newlines
 * and str.splitlines, `diff --git a/(\S+) b/(\S+)` headers, a path seen again starting its
 * entry afresh), else from the change model. */
#include "engine/derive_view.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/util.h"

/* Find (or, reset=true, restart) the file entry for path, keeping its first position. */
static dv_file *file_entry(dv_change *v, const char *path, const change_file *cf, bool reset)
{
    for (size_t k = 0; k < v->nfiles; k++) {
        dv_file *f = &v->files[k];
        if (strcmp(f->path, path) != 0)
            continue;
        if (reset) {
            free(f->adds);
            free(f->dels);
            f->adds = f->dels = NULL;
            f->nadds = f->ndels = f->adds_cap = f->dels_cap = 0;
            f->is_new = false;
            f->first_line = 0;
            if (cf)
                f->f = cf;
        }
        return f;
    }
    dv_file *f = ARRAY_PUSH(v->files, v->nfiles, v->files_cap);
    memset(f, 0, sizeof *f);
    f->path = path;
    f->f = cf;
    return f;
}

static void add_line(dv_file *f, char kind, const char *text, size_t len, int head_line)
{
    if (!f->first_line)
        f->first_line = head_line > 0 ? head_line : 1;
    dv_line *d = kind == '+' ? ARRAY_PUSH(f->adds, f->nadds, f->adds_cap)
                             : ARRAY_PUSH(f->dels, f->ndels, f->dels_cap);
    d->text = text;
    d->len = len;
    d->head_line = head_line;
}

static void add_seq(dv_change *v, char kind, const char *path, const char *text, size_t len,
                    int head_line)
{
    dv_seq *s = ARRAY_PUSH(v->seq, v->nseq, v->seq_cap);
    s->kind = kind;
    s->path = path;
    s->text = text;
    s->len = len;
    s->head_line = head_line;
}

/* Length of a line break at p (0 if none): the separators Python's splitlines knows. */
static size_t line_break(const char *p, const char *end)
{
    unsigned char c = (unsigned char)*p;
    if (c == '\r')
        return p + 1 < end && p[1] == '\n' ? 2 : 1;
    if (c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e)
        return 1;
    if (c == 0xC2 && p + 1 < end && (unsigned char)p[1] == 0x85)
        return 2;
    if (c == 0xE2 && p + 2 < end && (unsigned char)p[1] == 0x80 &&
        ((unsigned char)p[2] == 0xA8 || (unsigned char)p[2] == 0xA9))
        return 3;
    return 0;
}

/* The change's paths live as long as the change; raw-mode paths are interned here. */
static const char *intern_path(dv_change *v, const char *s, size_t n)
{
    for (size_t k = 0; k < v->nfiles; k++)
        if (strlen(v->files[k].path) == n && memcmp(v->files[k].path, s, n) == 0)
            return v->files[k].path;
    /* keep it inside raw, which we own: terminate in place (the byte after is a space or
       the end of the header line, which the caller no longer needs) */
    char *p = (char *)s;
    p[n] = '\0';
    return p;
}

static void build_raw(dv_change *v, const change *c)
{
    v->raw = xstrndup(c->raw_diff, c->raw_len);
    char *text = v->raw, *end = v->raw + c->raw_len;
    char *cause = NULL;
    regex *hdr = rx_compile("^diff --git a/(\\S+) b/(\\S+)", false, &cause);
    regex *plus_num = rx_compile("\\+(\\d+)", false, &cause);
    dv_file *cur = NULL;
    const char *cur_path = NULL;
    int new_no = 1;
    char *p = text;
    while (p < end) {
        char *s = p;
        size_t br = 0;
        while (p < end && !(br = line_break(p, end)))
            p++;
        size_t n = (size_t)(p - s);
        char *next = p + br;
        /* terminate the line in place; its break bytes are not needed any more */
        if (br)
            *p = '\0';
        p = next;
        if (n >= 11 && memcmp(s, "diff --git ", 11) == 0) {
            size_t ms, me;
            if (rx_search(hdr, s, n, &ms, &me) == 1) {
                /* group 2: after the last " b/" that the greedy \S+ match leaves: the match
                   ends at me; b-path is the \S+ run ending there */
                size_t b = me;
                while (b > 0 && !(s[b - 1] == '/' && b >= 3 && s[b - 2] == 'b' && s[b - 3] == ' '))
                    b--;
                const char *path = intern_path(v, s + b, me - b);
                const change_file *cf = change_find(c, path);
                cur = file_entry(v, path, cf, true);
                cur->path = path;
                cur_path = path;
                add_seq(v, 'F', path, s, n, 0);
                continue;
            }
        }
        if (!cur)
            continue;
        if (n >= 13 && memcmp(s, "new file mode", 13) == 0) {
            cur->is_new = true;
            continue;
        }
        if (n >= 2 && s[0] == '@' && s[1] == '@') {
            size_t ms, me;
            new_no = 1;
            if (rx_search(plus_num, s, n, &ms, &me) == 1) {
                /* clamped, so that counting lines on from it can never overflow */
                long v = strtol(s + ms + 1, NULL, 10);
                new_no = v < 0 ? 0 : v > (1L << 30) ? (int)(1L << 30) : (int)v;
            }
            add_seq(v, '@', cur_path, s, n, 0);
            continue;
        }
        if (n >= 1 && s[0] == '+') {
            if (n >= 3 && s[1] == '+' && s[2] == '+')
                continue;
            add_line(cur, '+', s + 1, n - 1, new_no);
            add_seq(v, '+', cur_path, s + 1, n - 1, new_no);
            new_no++;
            continue;
        }
        if (n >= 1 && s[0] == '-') {
            if (n >= 3 && s[1] == '-' && s[2] == '-')
                continue;
            add_line(cur, '-', s + 1, n - 1, new_no);
            add_seq(v, '-', cur_path, s + 1, n - 1, new_no);
            continue;
        }
        if (n >= 1 && s[0] == ' ') {
            add_seq(v, ' ', cur_path, s + 1, n - 1, new_no);
            new_no++;
        }
    }
    rx_free(hdr);
    rx_free(plus_num);
}

static void build_model(dv_change *v, const change *c)
{
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *cf = &c->files[i];
        dv_file *f = file_entry(v, cf->path, cf, true);
        f->is_new = cf->is_new;
        add_seq(v, 'F', cf->path, "", 0, 0);
        for (size_t h = 0; h < cf->nhunks; h++) {
            const diff_hunk *hk = &cf->hunks[h];
            add_seq(v, '@', cf->path, hk->section, strlen(hk->section), hk->new_start);
            for (size_t k = hk->first; k < hk->first + hk->count; k++) {
                const diff_line *l = &cf->lines[k];
                /* "+++..." / "---..." read as file headers to a line reader: skipped */
                if (l->kind != ' ' && l->len >= 2 && l->text[0] == l->kind && l->text[1] == l->kind)
                    continue;
                add_seq(v, l->kind, cf->path, l->text, l->len, l->new_no);
                if (l->kind != ' ')
                    add_line(f, l->kind, l->text, l->len, l->new_no);
            }
        }
    }
}

void dv_build(dv_change *v, const change *c, const char *title)
{
    memset(v, 0, sizeof *v);
    v->chg = c;
    if (c->raw_diff)
        build_raw(v, c);
    else
        build_model(v, c);
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
    free(v->seq);
    free(v->title_lower);
    free(v->raw);
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
