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

change *diff_parse(const char *text, size_t len, char **cause)
{
    change *c = change_new();
    c->raw_diff = xstrndup(text, len);
    c->raw_len = len;
    reader r = {text, text + len, 0};
    const char *s;
    size_t n;
    change_file *cur = NULL;
    bool saw_header = false;
    int old_left = 0, new_left = 0, old_no = 0, new_no = 0;
    char *pending_minus = NULL;  /* path from a "---" line of a plain diff */
    bool have_pending_minus = false;

    while (next_line(&r, &s, &n)) {
        if (old_left > 0 || new_left > 0) {
            /* Inside a hunk: the counts say which lines belong to it. */
            char k = n ? s[0] : ' ';
            if (n == 0 || k == ' ') {
                const char *t = n ? s + 1 : s;
                size_t tn = n ? n - 1 : 0;
                change_file_add_line(cur, ' ', old_no, new_no, t, tn);
                old_no++;
                new_no++;
                old_left--;
                new_left--;
                continue;
            }
            if (k == '+' && new_left > 0) {
                change_file_add_line(cur, '+', 0, new_no, s + 1, n - 1);
                new_no++;
                new_left--;
                continue;
            }
            if (k == '-' && old_left > 0) {
                change_file_add_line(cur, '-', old_no, new_no, s + 1, n - 1);
                old_no++;
                old_left--;
                continue;
            }
            if (k == '\\')
                continue;
            change_note(c, "%s: hunk ended early at diff line %d (truncated or miscounted diff)",
                        cur->path, r.lineno);
            old_left = new_left = 0;
            /* fall through: treat this line as a header line */
        }
        if (n && s[0] == '\\')
            continue;
        if (line_starts(s, n, "diff --git ")) {
            char *a, *b;
            saw_header = true;
            have_pending_minus = false;
            if (!parse_git_header(s, n, &a, &b)) {
                change_note(c, "diff line %d: cannot read the file names of '%.*s'", r.lineno,
                            (int)(n > 80 ? 80 : n), s);
                cur = NULL;
                continue;
            }
            cur = change_add_file(c, b);
            free(cur->old_path);
            cur->old_path = a;
            free(b);
            continue;
        }
        if (line_starts(s, n, "@@ ") || line_starts(s, n, "@@-")) {
            int a, b, cc, d;
            char *section = NULL;
            if (!cur && have_pending_minus) {
                cur = change_add_file(c, pending_minus ? pending_minus : "");
                have_pending_minus = false;
            }
            if (!cur || !parse_hunk_header(s, n, &a, &b, &cc, &d, &section)) {
                free(section);
                change_note(c, "diff line %d: malformed hunk header", r.lineno);
                continue;
            }
            change_file_add_hunk(cur, a, b, cc, d, section);
            free(section);
            old_left = b;
            new_left = d;
            old_no = b == 0 ? a + 1 : a;
            new_no = d == 0 ? cc + 1 : cc;
            if (new_no < 1)
                new_no = 1;
            continue;
        }
        if (line_starts(s, n, "--- ")) {
            free(pending_minus);
            pending_minus = marker_path(s, n);
            have_pending_minus = true;
            continue;
        }
        if (line_starts(s, n, "+++ ")) {
            char *plus = marker_path(s, n);
            if (!cur || (cur->nhunks > 0)) {
                /* A plain unified diff: the ---/+++ pair starts a file. */
                saw_header = true;
                cur = change_add_file(c, plus ? plus : (pending_minus ? pending_minus : ""));
                if (pending_minus) {
                    free(cur->old_path);
                    cur->old_path = xstrdup(pending_minus);
                }
                if (have_pending_minus && !pending_minus)
                    cur->is_new = true;
                if (!plus)
                    cur->is_deleted = true;
            } else if (!plus) {
                cur->is_deleted = true;
            }
            have_pending_minus = false;
            free(plus);
            continue;
        }
        if (!cur)
            continue;
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
    if (old_left > 0 || new_left > 0)
        change_note(c, "%s: the diff ends inside a hunk (truncated diff)", cur->path);
    free(pending_minus);
    for (size_t i = 0; i < c->nfiles; i++)
        if (c->files[i].is_deleted) {
            free(c->files[i].path);
            c->files[i].path = xstrdup(c->files[i].old_path);
        }
    if (cause) {
        *cause = NULL;
        if (len == 0 || !str_lskip(c->raw_diff)[0])
            *cause = xstrdup("the diff is empty");
        else if (!saw_header)
            *cause = xstrdup("not a unified diff (no 'diff --git' or '---'/'+++' file header)");
    }
    return c;
}
