/* The evidence of a sibling-drift finding: for each line the variant still carries, the
 * changed function's line before and after the change, aligned over the variant's line that
 * kept the old text, each with its place. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/suppress.h" /* text_line_at */
#include "engine/util.h"

/* A line of text, stripped (new string; "" when the line is not there). */
static char *stripped_line(const char *text, size_t len, int line)
{
    const char *l;
    size_t n;
    if (!text_line_at(text, len, line, &l, &n))
        return xstrdup("");
    char *raw = xstrndup(l, n), *st = str_strip(raw);
    free(raw);
    return st;
}

/* True when a diff line holds no code: blank, or only a comment. */
static bool no_code(const diff_line *l)
{
    size_t k = 0;
    while (k < l->len && isspace((unsigned char)l->text[k]))
        k++;
    const char *t = l->text + k;
    size_t n = l->len - k;
    return n == 0 || t[0] == '#' || t[0] == '*' || (n > 1 && t[0] == '/' && (t[1] == '/' || t[1] == '*'));
}

/* The added line that took deleted diff line i's place: in the run of added lines right after
 * its run of deleted lines, the code line (comments and blank lines skipped) at the same
 * position (the last when there are fewer), or -1 when the change adds no code there. */
static long replacement_of(const change_file *f, size_t i)
{
    size_t first = i, end = i;
    while (first > 0 && f->lines[first - 1].kind == '-')
        first--;
    while (end < f->nlines && f->lines[end].kind == '-')
        end++;
    long pick = -1;
    size_t ncode = 0;
    for (size_t k = end; k < f->nlines && f->lines[k].kind == '+'; k++) {
        if (no_code(&f->lines[k]))
            continue;
        if (ncode++ <= i - first)
            pick = (long)k;
    }
    return pick;
}

void sib_add_exhibit(finding *fi, const change_file *f, size_t di, int at, const char *fn, const char *var,
                     const char *head, size_t hlen, int var_line)
{
    if (di >= f->nlines)
        return;
    exhibit *e = finding_add_exhibit(fi, EXHIBIT_PAIR, "`%s` rewrote a line `%s` still has", fn, var);
    char *before = xstrndup(f->lines[di].text, f->lines[di].len), *b = str_strip(before);
    exhibit_add_line(e, "before", f->path, at, b);
    free(before);
    free(b);
    long r = replacement_of(f, di);
    if (r >= 0) {
        char *after = stripped_line(head, hlen, f->lines[r].new_no);
        exhibit_add_line(e, "after", f->path, f->lines[r].new_no, after);
        free(after);
    } else {
        exhibit_add_line(e, "after", NULL, 0, "(deleted)");
    }
    char *kept = stripped_line(head, hlen, var_line);
    exhibit_add_line(e, "variant", f->path, var_line, kept);
    free(kept);
}
