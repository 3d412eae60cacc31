/* What the parser could not read, for the syntax layer's callers: the bytes inside ERROR nodes,
 * the branches a preprocessor view leaves out, and, for a set of lines (the lines a change
 * touches), how many of them a doc reads as code. Collectors put the latter in their status
 * line so that a region left unparsed is never silent. */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_internal.h"
#include "engine/util.h"

#define MAX_DEPTH 400

/* Sum the bytes of the outermost ERROR nodes under n. */
static size_t error_bytes_under(TSNode n, int depth)
{
    if (strcmp(ts_node_type(n), "ERROR") == 0)
        return ts_node_end_byte(n) - ts_node_start_byte(n);
    if (!ts_node_has_error(n) || depth > MAX_DEPTH)
        return 0;
    size_t sum = 0;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        sum += error_bytes_under(ts_node_child(n, i), depth + 1);
    return sum;
}

size_t syntax_error_bytes(const syntax_doc *d, bool *root_is_error)
{
    TSNode root = ts_tree_root_node(d->tree);
    if (root_is_error)
        *root_is_error = strcmp(ts_node_type(root), "ERROR") == 0;
    return error_bytes_under(root, 0);
}

size_t syntax_hidden_bytes(const syntax_doc *d)
{
    size_t sum = 0;
    for (size_t i = 0; i < d->nhidden; i++)
        sum += d->hidden[i].end - d->hidden[i].start;
    return sum;
}

/* True when byte off lies in one of the sorted, disjoint ranges r[0..n). */
static bool in_ranges(const pp_range *r, size_t n, size_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r[mid].end <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && r[lo].start <= off && off < r[lo].end;
}

bool syntax_line_hidden(const syntax_doc *d, int line)
{
    if (line < 1 || line > d->nlines || !d->nhidden)
        return false;
    return in_ranges(d->hidden, d->nhidden, syntax_line_start(d, line));
}

int *syntax_hidden_lines(const syntax_doc *d, size_t *n)
{
    int *out = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < d->nhidden; i++) {
        int lo = syntax_line_of(d, d->hidden[i].start);
        if (syntax_line_start(d, lo) < d->hidden[i].start)
            lo++;
        int hi = d->hidden[i].end ? syntax_line_of(d, d->hidden[i].end - 1) : 0;
        if (lo > hi)
            continue;
        *ARRAY_PUSH(out, *n, cap) = lo;
        *ARRAY_PUSH(out, *n, cap) = hi;
    }
    return out;
}

int syntax_view_count(const char *text, size_t len, const int *keep, size_t nkeep)
{
    if (!nkeep)
        return 1;
    pp_map *m = pp_scan(text, len);
    int n = pp_view_count(m, keep, nkeep);
    pp_free(m);
    return n;
}

/* The unreadable byte ranges of a tree: outermost ERROR nodes, and each MISSING node widened
 * to its line. Appended in document order. */
static void collect_errors(const syntax_doc *d, TSNode n, int depth, pp_range **out, size_t *nout,
                           size_t *cap)
{
    if (strcmp(ts_node_type(n), "ERROR") == 0) {
        *ARRAY_PUSH(*out, *nout, *cap) = (pp_range){ts_node_start_byte(n), ts_node_end_byte(n)};
        return;
    }
    if (ts_node_is_missing(n)) {
        int line = syntax_line_of(d, ts_node_start_byte(n));
        size_t a = syntax_line_start(d, line), b = syntax_line_start(d, line + 1);
        *ARRAY_PUSH(*out, *nout, *cap) = (pp_range){(uint32_t)a, (uint32_t)(b > a ? b : a + 1)};
        return;
    }
    if (!ts_node_has_error(n) || depth > MAX_DEPTH)
        return;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        collect_errors(d, ts_node_child(n, i), depth + 1, out, nout, cap);
}

/* True when a non-blank byte of line lies in one of the sorted ranges r[0..n). */
static bool line_hits(const syntax_doc *d, int line, const pp_range *r, size_t n)
{
    size_t len;
    const char *t = syntax_line_text(d, line, &len);
    if (!t || !n)
        return false;
    size_t base = (size_t)(t - d->text);
    for (size_t i = 0; i < len; i++)
        if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && in_ranges(r, n, base + i))
            return true;
    return false;
}

static int range_order(const void *a, const void *b)
{
    const pp_range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

void syntax_coverage(const syntax_doc *d, const int *lines, size_t n, syn_coverage *out,
                     bool *unread)
{
    memset(out, 0, sizeof *out);
    pp_range *err = NULL;
    size_t nerr = 0, cap = 0;
    if (d->has_errors)
        collect_errors(d, ts_tree_root_node(d->tree), 0, &err, &nerr, &cap);
    if (nerr > 1) {
        /* sorted and merged, as in_ranges wants them */
        qsort(err, nerr, sizeof *err, range_order);
        size_t k = 0;
        for (size_t i = 1; i < nerr; i++) {
            if (err[i].start <= err[k].end) {
                if (err[i].end > err[k].end)
                    err[k].end = err[i].end;
            } else {
                err[++k] = err[i];
            }
        }
        nerr = k + 1;
    }
    for (size_t i = 0; i < n; i++) {
        int line = lines[i];
        if (unread)
            unread[i] = false;
        if (line < 1 || line > d->nlines)
            continue;
        out->lines++;
        bool bad = true;
        if (syntax_line_hidden(d, line))
            out->hidden++;
        else if (line_hits(d, line, err, nerr))
            out->in_error++;
        else
            bad = false;
        if (!bad) {
            out->analysed++;
            continue;
        }
        if (unread)
            unread[i] = true;
        if (!out->first_bad || line < out->first_bad)
            out->first_bad = line;
        if (line > out->last_bad)
            out->last_bad = line;
    }
    free(err);
}
