/* Unified diff reader: turns `git diff` (or plain unified diff) text into the change model.
 * Works line by line; a hunk's extent comes from its header counts, which is what makes
 * content lines starting with "+++"/"---" safe. */
#include "engine/diff_parse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

typedef struct reader {
    const char *p, *end;
    int lineno;
} reader;

/* Read the next line into s and n (without "\n" and one trailing "\r"); false at the end. */
static bool next_line(reader *r, const char **s, size_t *n)
{
    if (r->p >= r->end)
        return false;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    const char *e = nl ? nl : r->end;
    *s = r->p;
    *n = (size_t)(e - r->p);
    if (*n > 0 && (*s)[*n - 1] == '\r')
        (*n)--;
    r->p = nl ? nl + 1 : r->end;
    r->lineno++;
    return true;
}

static bool line_starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

/* Undo git's C-style quoting of a path ("a/foo\tbar"); s points at the opening quote. Returns
 * the unquoted string and advances *end past the closing quote. */
static char *unquote(const char *s, size_t n, size_t *used)
{
    strbuf sb;
    sb_init(&sb);
    size_t i = 1;
    for (; i < n && s[i] != '"'; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            char c = s[++i];
            if (c >= '0' && c <= '7' && i + 2 < n) {
                int v = (c - '0') * 64 + (s[i + 1] - '0') * 8 + (s[i + 2] - '0');
                sb_addc(&sb, (char)v);
                i += 2;
            } else {
                sb_addc(&sb, c == 'n' ? '\n' : c == 't' ? '\t' : c);
            }
        } else {
            sb_addc(&sb, s[i]);
        }
    }
    *used = i < n ? i + 1 : n;
    return sb_detach(&sb);
}

/* Strip the "a/" or "b/" prefix a git diff puts on paths. */
static char *strip_side(char *p)
{
    if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/') {
        char *q = xstrdup(p + 2);
        free(p);
        return q;
    }
    return p;
}

/* Split "diff --git A B" into the two paths. Paths may be quoted, and may contain spaces: then
 * the split is where both halves name the same file ("a/x y" "b/x y"), else the last " b/". */
static bool parse_git_header(const char *s, size_t n, char **a, char **b)
{
    const char *p = s + strlen("diff --git ");
    size_t m = n - (size_t)(p - s);
    *a = *b = NULL;
    if (m > 0 && p[0] == '"') {
        size_t used;
        *a = strip_side(unquote(p, m, &used));
        p += used;
        m -= used;
        while (m > 0 && *p == ' ') {
            p++;
            m--;
        }
        if (m > 0 && p[0] == '"')
            *b = strip_side(unquote(p, m, &used));
        else
            *b = strip_side(xstrndup(p, m));
        return true;
    }
    /* Unquoted: try the symmetric split first. */
    if (m >= 5 && (m - 1) % 2 == 0) {
        size_t half = (m - 1) / 2;
        if (p[half] == ' ' && memcmp(p + 2, p + half + 3, half - 2) == 0 && p[0] == 'a' &&
            p[half + 1] == 'b') {
            *a = strip_side(xstrndup(p, half));
            *b = strip_side(xstrndup(p + half + 1, half));
            return true;
        }
    }
    const char *sep = NULL;
    for (const char *q = p; q + 3 <= p + m; q++)
        if (q[0] == ' ' && q[1] == 'b' && q[2] == '/')
            sep = q;
    if (!sep) {
        const char *sp = memchr(p, ' ', m);
        if (!sp)
            return false;
        sep = sp;
    }
    *a = strip_side(xstrndup(p, (size_t)(sep - p)));
    if (p[0] == '"') {
        size_t used;
        *b = strip_side(unquote(sep + 1, (size_t)(p + m - sep - 1), &used));
    } else {
        *b = strip_side(xstrndup(sep + 1, (size_t)(p + m - sep - 1)));
    }
    return true;
}

/* The path on a "--- X" / "+++ X" line: NULL for /dev/null; tab-separated timestamps dropped. */
static char *marker_path(const char *s, size_t n)
{
    const char *p = s + 4;
    size_t m = n - 4;
    char *path;
    if (m > 0 && p[0] == '"') {
        size_t used;
        path = unquote(p, m, &used);
    } else {
        const char *tab = memchr(p, '\t', m);
        path = xstrndup(p, tab ? (size_t)(tab - p) : m);
    }
    if (strcmp(path, "/dev/null") == 0) {
        free(path);
        return NULL;
    }
    return strip_side(path);
}

/* Hunks must end below this line number, so that every line number the reader and the
 * collectors compute from one (the line after it, the end of a range) stays far from
 * INT_MAX: no file under review has a billion lines. */
#define DIFF_MAX_LINE (1L << 30)

/* Read a hunk number: decimal digits only, at most DIFF_MAX_LINE. Returns false otherwise. */
static bool hunk_number(char **p, int *out)
{
    if (**p < '0' || **p > '9')
        return false;
    long v = 0;
    while (**p >= '0' && **p <= '9') {
        v = v * 10 + (**p - '0');
        if (v > DIFF_MAX_LINE)
            return false;
        (*p)++;
    }
    *out = (int)v;
    return true;
}

/* Parse "@@ -a[,b] +c[,d] @@ section". False when malformed or out of range. */
static bool parse_hunk_header(const char *s, size_t n, int *a, int *b, int *c, int *d,
                              char **section)
{
    char *line = xstrndup(s, n);
    char *p = line + 2;
    bool ok = false;
    *b = *d = 1;
    while (*p == ' ')
        p++;
    if (*p++ != '-' || !hunk_number(&p, a) || (*p == ',' && (++p, !hunk_number(&p, b))))
        goto out;
    while (*p == ' ')
        p++;
    if (*p++ != '+' || !hunk_number(&p, c) || (*p == ',' && (++p, !hunk_number(&p, d))))
        goto out;
    while (*p == ' ')
        p++;
    if (strncmp(p, "@@", 2) != 0)
        goto out;
    p += 2;
    if (*p == ' ')
        p++;
    *section = xstrdup(p);
    ok = (long)*a + *b < DIFF_MAX_LINE && (long)*c + *d < DIFF_MAX_LINE;
out:
    free(line);
    return ok;
}

/* The reader's state between lines: the file being read and the hunk's counts. */
typedef struct parser {
    change *c;
    reader r;
    change_file *cur;
    bool saw_header;
    int old_left, new_left, old_no, new_no;
    char *pending_minus;         /* path from a "---" line of a plain diff */
    bool have_pending_minus;
} parser;

/* A line inside a hunk (the counts say which lines belong to it): true when taken. A line
 * that cannot belong to the hunk ends it early (noted) and is read as a header line. */
static bool hunk_line(parser *p, const char *s, size_t n)
{
    if (p->old_left <= 0 && p->new_left <= 0)
        return false;
    char k = n ? s[0] : ' ';
    if (n == 0 || k == ' ') {
        change_file_add_line(p->cur, ' ', p->old_no++, p->new_no++, n ? s + 1 : s, n ? n - 1 : 0);
        p->old_left--;
        p->new_left--;
        return true;
    }
    if (k == '+' && p->new_left > 0) {
        change_file_add_line(p->cur, '+', 0, p->new_no++, s + 1, n - 1);
        p->new_left--;
        return true;
    }
    if (k == '-' && p->old_left > 0) {
        change_file_add_line(p->cur, '-', p->old_no++, p->new_no, s + 1, n - 1);
        p->old_left--;
        return true;
    }
    if (k == '\\')
        return true;
    change_note(p->c, "%s: hunk ended early at diff line %d (truncated or miscounted diff)",
                p->cur->path, p->r.lineno);
    p->old_left = p->new_left = 0;
    return false;
}

/* "diff --git a/X b/Y": a new file. */
static void git_header(parser *p, const char *s, size_t n)
{
    char *a, *b;
    p->saw_header = true;
    p->have_pending_minus = false;
    if (!parse_git_header(s, n, &a, &b)) {
        change_note(p->c, "diff line %d: cannot read the file names of '%.*s'", p->r.lineno,
                    (int)(n > 80 ? 80 : n), s);
        p->cur = NULL;
        return;
    }
    p->cur = change_add_file(p->c, b);
    free(p->cur->old_path);
    p->cur->old_path = a;
    free(b);
}

/* "@@ -a,b +c,d @@": a hunk of the current file (of the pending "---" file in a plain diff). */
static void hunk_header(parser *p, const char *s, size_t n)
{
    int a, b, cc, d;
    char *section = NULL;
    if (!p->cur && p->have_pending_minus) {
        p->cur = change_add_file(p->c, p->pending_minus ? p->pending_minus : "");
        p->have_pending_minus = false;
    }
    if (!p->cur || !parse_hunk_header(s, n, &a, &b, &cc, &d, &section)) {
        free(section);
        change_note(p->c, "diff line %d: malformed hunk header", p->r.lineno);
        return;
    }
    change_file_add_hunk(p->cur, a, b, cc, d, section);
    free(section);
    p->old_left = b;
    p->new_left = d;
    p->old_no = b == 0 ? a + 1 : a;
    p->new_no = d == 0 ? cc + 1 : cc;
    if (p->new_no < 1)
        p->new_no = 1;
}

/* "+++ path": in a plain unified diff the ---/+++ pair starts a file. */
static void plus_marker(parser *p, const char *s, size_t n)
{
    char *plus = marker_path(s, n);
    if (!p->cur || p->cur->nhunks > 0) {
        p->saw_header = true;
        p->cur = change_add_file(p->c, plus ? plus : (p->pending_minus ? p->pending_minus : ""));
        if (p->pending_minus) {
            free(p->cur->old_path);
            p->cur->old_path = xstrdup(p->pending_minus);
        }
        if (p->have_pending_minus && !p->pending_minus)
            p->cur->is_new = true;
        if (!plus)
            p->cur->is_deleted = true;
    } else if (!plus) {
        p->cur->is_deleted = true;
    }
    p->have_pending_minus = false;
    free(plus);
}

/* The extended header lines of git's diff: new, deleted, renamed, copied, binary. */
static void extended_header(change_file *cur, const char *s, size_t n)
{
    if (line_starts(s, n, "new file mode"))
        cur->is_new = true;
    else if (line_starts(s, n, "deleted file mode"))
        cur->is_deleted = true;
    else if (line_starts(s, n, "rename from ") || line_starts(s, n, "copy from ")) {
        cur->is_renamed = true;
        free(cur->old_path);
        const char *p = memchr(s, ' ', n) + 1;
        p = memchr(p, ' ', (size_t)(s + n - p)) + 1;
        cur->old_path = xstrndup(p, (size_t)(s + n - p));
    } else if (line_starts(s, n, "rename to ") || line_starts(s, n, "copy to ")) {
        cur->is_renamed = true;
    } else if (line_starts(s, n, "Binary files ") || line_starts(s, n, "GIT binary patch")) {
        cur->is_binary = true;
        cur->is_skipped = true;
        free(cur->skip_reason);
        cur->skip_reason = xstrdup("binary file");
    }
}

change *diff_parse(const char *text, size_t len, char **cause)
{
    parser p = {.c = change_new(), .r = {text, text + len, 0}};
    change *c = p.c;
    c->raw_diff = xstrndup(text, len);
    c->raw_len = len;
    const char *s;
    size_t n;
    while (next_line(&p.r, &s, &n)) {
        if (hunk_line(&p, s, n) || (n && s[0] == '\\'))
            continue;
        if (line_starts(s, n, "diff --git ")) {
            git_header(&p, s, n);
        } else if (line_starts(s, n, "@@ ") || line_starts(s, n, "@@-")) {
            hunk_header(&p, s, n);
        } else if (line_starts(s, n, "--- ")) {
            free(p.pending_minus);
            p.pending_minus = marker_path(s, n);
            p.have_pending_minus = true;
        } else if (line_starts(s, n, "+++ ")) {
            plus_marker(&p, s, n);
        } else if (p.cur) {
            extended_header(p.cur, s, n);
        }
    }
    if (p.old_left > 0 || p.new_left > 0)
        change_note(c, "%s: the diff ends inside a hunk (truncated diff)", p.cur->path);
    free(p.pending_minus);
    for (size_t i = 0; i < c->nfiles; i++)
        if (c->files[i].is_deleted) {
            free(c->files[i].path);
            c->files[i].path = xstrdup(c->files[i].old_path);
        }
    if (cause) {
        *cause = NULL;
        if (len == 0 || !str_lskip(c->raw_diff)[0])
            *cause = xstrdup("the diff is empty");
        else if (!p.saw_header)
            *cause = xstrdup("not a unified diff (no 'diff --git' or '---'/'+++' file header)");
    }
    return c;
}
