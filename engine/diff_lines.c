/* The diff-line questions of diff_lines.h, answered by scanning one file's diff lines. */
#include "engine/diff_lines.h"

#include <string.h>

#include "engine/util.h"

#define RUN_CAP_MAX 160

bool diff_lines_added(const change_file *f, int line)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no == line)
            return true;
    return false;
}

bool diff_lines_adds_in(const change_file *f, int first, int last)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no >= first && f->lines[i].new_no <= last)
            return true;
    return false;
}

bool diff_lines_touches(const change_file *f, int first, int last)
{
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind == '+' && l->new_no >= first && l->new_no <= last)
            return true;
        if (l->kind == '-' && l->new_no > first && l->new_no <= last)
            return true;
    }
    return false;
}

bool *diff_lines_added_map(const change_file *f, int nlines)
{
    bool *added = xcalloc((size_t)(nlines > 0 ? nlines : 0) + 2, sizeof *added);
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no >= 1 && f->lines[i].new_no <= nlines)
            added[f->lines[i].new_no] = true;
    return added;
}

size_t diff_lines_text_run(const char *a, size_t an, const char *b, size_t bn, size_t cap)
{
    if (cap > RUN_CAP_MAX)
        cap = RUN_CAP_MAX;
    if (an > cap)
        an = cap;
    if (bn > cap)
        bn = cap;
    size_t best = 0, prev[RUN_CAP_MAX + 1] = {0}, cur[RUN_CAP_MAX + 1] = {0};
    for (size_t i = 1; i <= an; i++) {
        for (size_t j = 1; j <= bn; j++) {
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
            if (cur[j] > best)
                best = cur[j];
        }
        memcpy(prev, cur, (bn + 1) * sizeof *prev);
    }
    return best;
}

int diff_lines_deleted_head(const change_file *f, size_t i, int last, size_t cap)
{
    size_t s = i, e = i;
    while (s > 0 && f->lines[s - 1].kind == '-')
        s--;
    while (e < f->nlines && f->lines[e].kind == '-')
        e++;
    size_t a = e;
    while (a < f->nlines && f->lines[a].kind == '+')
        a++;
    int line = f->lines[i].new_no;
    if (a > e) {
        /* the added line most like the deleted one (longest shared run of text), else the
         * one at the same position in the block */
        size_t k = i - s, pick = k < a - e ? e + k : a - 1, best = 0;
        if (e - s <= 24 && a - e <= 24)
            for (size_t j = e; j < a; j++) {
                size_t run = diff_lines_text_run(f->lines[i].text, f->lines[i].len,
                                                 f->lines[j].text, f->lines[j].len, cap);
                if (run > best || (run == best && run > 0 && j == e + k)) {
                    best = run;
                    pick = j;
                }
            }
        if (best >= 8 || k < a - e)
            line = f->lines[pick].new_no;
    }
    if (last > 0 && line > last)
        line = last;
    return line < 1 ? 1 : line;
}

line_run *diff_lines_added_runs(const change_file *f, size_t *n)
{
    line_run *runs = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+' || l->new_no < 1)
            continue;
        if (*n && runs[*n - 1].last + 1 >= l->new_no) {
            if (l->new_no > runs[*n - 1].last)
                runs[*n - 1].last = l->new_no;
        } else {
            *ARRAY_PUSH(runs, *n, cap) = (line_run){l->new_no, l->new_no};
        }
    }
    return runs;
}

int *diff_lines_head_to_base(const change_file *f, const char *base_text, size_t base_len, size_t *nmap)
{
    long nbase = 1;
    for (size_t i = 0; i < base_len; i++)
        nbase += base_text[i] == '\n';
    long nhead = nbase + (long)f->nadd - (long)f->ndel + 1;
    if (nhead < 1)
        nhead = 1;
    int *map = xcalloc((size_t)nhead + 1, sizeof *map);
    long h = 1, off = 0;
    for (size_t k = 0; k < f->nhunks; k++) {
        const diff_hunk *hk = &f->hunks[k];
        long os = hk->old_count ? hk->old_start : hk->old_start + 1;
        long ns = hk->new_count ? hk->new_start : hk->new_start + 1;
        for (; h < ns && h <= nhead; h++)
            map[h] = (int)(h + (os - ns));
        for (size_t i = hk->first; i < hk->first + hk->count && i < f->nlines; i++) {
            const diff_line *l = &f->lines[i];
            if (l->kind != '-' && l->new_no >= 1 && l->new_no <= nhead)
                map[l->new_no] = l->kind == ' ' ? l->old_no : 0;
        }
        if (ns + hk->new_count > h)
            h = ns + hk->new_count;
        off = (os + hk->old_count) - (ns + hk->new_count);
    }
    for (; h <= nhead; h++)
        map[h] = (int)(h + off);
    *nmap = (size_t)nhead + 1;
    return map;
}
