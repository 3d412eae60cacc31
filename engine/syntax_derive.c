/* Parsing a text from a related doc's tree (syntax.h syntax_origin_*, syntax_parse_from): the
 * base of a changed file from its head, say. Tree-sitter re-reads only the ranges the edits
 * name and reuses the rest of the old tree, so a file with a few changed lines costs a fraction
 * of a fresh parse. The edits are found by comparing the two parser copies line by line along a
 * line map the caller believes (a diff's), and every line taken as unchanged is checked byte
 * for byte: a wrong map costs time, never a wrong tree. */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_internal.h"
#include "engine/util.h"

struct syntax_origin {
    syn_lang lang;
    TSTree *tree;          /* a copy (tree-sitter copies are cheap and may cross threads) */
    char *parsed;          /* the parser copy the tree was made from */
    size_t len;
    size_t *starts;        /* its line starts: starts[k - 1] is line k's first byte */
    int nlines;
};

syntax_origin *syntax_origin_new(const syntax_doc *d)
{
    syntax_origin *o = xcalloc(1, sizeof *o);
    o->lang = d->lang;
    o->tree = ts_tree_copy(d->tree);
    o->parsed = xmalloc(d->len + 1);
    memcpy(o->parsed, d->parsed, d->len);
    o->parsed[d->len] = '\0';
    o->len = d->len;
    o->starts = text_line_starts(o->parsed, o->len, &o->nlines);
    return o;
}

void syntax_origin_free(syntax_origin *o)
{
    if (!o)
        return;
    ts_tree_delete(o->tree);
    free(o->parsed);
    free(o->starts);
    free(o);
}

/* First byte of line k (1-based) of a text of nlines lines and len bytes; len past the end. */
static size_t line_at(const size_t *starts, int nlines, size_t len, int k)
{
    return k <= nlines ? starts[k - 1] : len;
}

/* The row/column of a byte offset that starts a line or ends the text. */
static TSPoint point_of(const size_t *starts, int nlines, size_t off)
{
    int line = syntax_line_in(starts, nlines, off);
    return (TSPoint){(uint32_t)(line - 1), (uint32_t)(off - (nlines > 0 ? starts[line - 1] : 0))};
}

typedef struct line_edit {
    int old_from, old_to, new_from, new_to; /* lines [from, to) of each side */
} line_edit;

/* The runs of lines that differ between the origin and the new copy, in order: the gaps
 * between the line pairs of the map whose bytes are equal (taken in increasing order on both
 * sides). */
static line_edit *find_edits(const syntax_origin *from, const int *line_map, size_t nmap,
                             const char *parsed, size_t len, const size_t *nstarts, int nn,
                             size_t *nedits)
{
    line_edit *out = NULL;
    size_t n = 0, cap = 0;
    int i = 1, j = 1; /* the next line of each side not matched or passed over */
    for (int k = 1; k <= from->nlines && (size_t)k < nmap; k++) {
        int m = line_map[k];
        if (m < j || m > nn || k < i)
            continue;
        size_t oa = line_at(from->starts, from->nlines, from->len, k);
        size_t ob = line_at(from->starts, from->nlines, from->len, k + 1);
        size_t na = line_at(nstarts, nn, len, m), nb = line_at(nstarts, nn, len, m + 1);
        if (ob - oa != nb - na || memcmp(from->parsed + oa, parsed + na, ob - oa) != 0)
            continue;
        if (k > i || m > j)
            *ARRAY_PUSH(out, n, cap) = (line_edit){i, k, j, m};
        i = k + 1;
        j = m + 1;
    }
    if (i <= from->nlines || j <= nn)
        *ARRAY_PUSH(out, n, cap) = (line_edit){i, from->nlines + 1, j, nn + 1};
    *nedits = n;
    return out;
}

syntax_doc *syntax_parse_from(const syntax_origin *from, const int *line_map, size_t nmap,
                              syn_lang lang, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause)
{
    if (!syntax_parse_checks(lang, len, cause))
        return NULL;
    pp_range *hidden;
    size_t nhidden;
    char *parsed = syntax_parser_copy(lang, text ? text : "", text ? len : 0, o, &hidden, &nhidden);
    if (!from || from->lang != lang)
        return syntax_parse_copy(lang, text, len, o, parsed, hidden, nhidden, NULL, cause);
    if (!line_map)
        nmap = 0; /* no map: every line is an edit, which is a fresh parse */
    int nn;
    size_t *nstarts = text_line_starts(parsed, len, &nn);
    size_t nedits;
    line_edit *ed = find_edits(from, line_map, nmap, parsed, len, nstarts, nn, &nedits);
    TSTree *old = ts_tree_copy(from->tree);
    size_t reread = 0;
    /* last edit first: the offsets of the ones before it stay those of the origin */
    for (size_t e = nedits; e-- > 0;) {
        size_t oa = line_at(from->starts, from->nlines, from->len, ed[e].old_from);
        size_t ob = line_at(from->starts, from->nlines, from->len, ed[e].old_to);
        size_t na = line_at(nstarts, nn, len, ed[e].new_from);
        size_t nb = line_at(nstarts, nn, len, ed[e].new_to);
        TSPoint start = point_of(from->starts, from->nlines, oa);
        TSPoint old_end = point_of(from->starts, from->nlines, ob);
        TSPoint new_start = point_of(nstarts, nn, na), new_end = point_of(nstarts, nn, nb);
        /* the new end, in the coordinates of the tree as edited so far: rows shift by where
         * the edit starts on each side (equal before it) */
        TSPoint end = {start.row + (new_end.row - new_start.row),
                       new_end.row == new_start.row ? start.column + (new_end.column - new_start.column)
                                                    : new_end.column};
        TSInputEdit edit = {
            .start_byte = (uint32_t)oa,
            .old_end_byte = (uint32_t)ob,
            .new_end_byte = (uint32_t)(oa + (nb - na)),
            .start_point = start,
            .old_end_point = old_end,
            .new_end_point = end,
        };
        ts_tree_edit(old, &edit);
        reread += nb - na;
    }
    free(ed);
    free(nstarts);
    syntax_doc *d = syntax_parse_copy(lang, text, len, o, parsed, hidden, nhidden, old, cause);
    ts_tree_delete(old);
    if (d)
        d->reread = reread;
    return d;
}
