/* Layout pin sites (syntax.h syntax_layout_sites): the static_assert / offsetof / sizeof
 * expressions of a doc, read lexically inside the matched nodes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- layout pins ----------------------------------------------------------------------- */

/* Skip a string or character literal starting at s[i] (a quote); return the index after it. */
static size_t skip_literal(const char *s, size_t i, size_t len)
{
    char q = s[i++];
    while (i < len && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < len)
            i++;
        i++;
    }
    return i < len ? i + 1 : len;
}

/* Index just past the string or character literal or the comment that starts at s[i], or i
 * when code starts there. */
static size_t skip_non_code(const char *s, size_t i, size_t len)
{
    char c = s[i];
    if (c == '"' || c == '\'')
        return skip_literal(s, i, len);
    if (c == '/' && i + 1 < len && s[i + 1] == '/') {
        while (i < len && s[i] != '\n')
            i++;
        return i;
    }
    if (c == '/' && i + 1 < len && s[i + 1] == '*') {
        const char *e = memmem(s + i + 2, len - i - 2, "*/", 2);
        return e ? (size_t)(e - s) + 2 : len;
    }
    return i;
}

/* Index just past the ')' matching s[open] == '(' (skipping literals and comments), or 0. */
static size_t match_paren(const char *s, size_t open, size_t len)
{
    int depth = 0;
    for (size_t i = open; i < len;) {
        char c = s[i];
        size_t past = skip_non_code(s, i, len);
        if (past != i) {
            i = past;
            continue;
        }
        if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            return i + 1;
        i++;
    }
    return 0;
}

/* Offset of the last top-level ',' in s[from, to) (parens, brackets, braces and literals
 * nest), or to when there is none. */
static size_t last_top_comma(const char *s, size_t from, size_t to)
{
    int depth = 0;
    size_t found = to;
    for (size_t i = from; i < to;) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            i = skip_literal(s, i, to);
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            depth--;
        else if (c == ',' && depth == 0)
            found = i;
        i++;
    }
    return found;
}

/* A trimmed copy of s[from, to) with white space collapsed. */
static char *trimmed(const char *s, size_t from, size_t to)
{
    char *raw = xstrndup(s + from, to - from), *r = sx_collapse_space(raw);
    free(raw);
    return r;
}

/* True when the doc's tree puts byte off inside a #define. */
static bool in_define(const syntax_doc *d, size_t off)
{
    TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(d->tree), (uint32_t)off,
                                                 (uint32_t)off + 1);
    for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "preproc_def") == 0 || strcmp(t, "preproc_function_def") == 0)
            return true;
    }
    return false;
}

/* Every static_assert / offsetof / sizeof in code, macro bodies included: a lexical scan
 * (tree-sitter leaves #define bodies unparsed) that skips comments and literals. */
void syntax_layout_sites(const syntax_doc *d, syn_site_list *out)
{
    static const struct {
        const char *word;
        syn_site_kind kind;
    } words[] = {
        {"static_assert", SYN_STATIC_ASSERT}, {"_Static_assert", SYN_STATIC_ASSERT},
        {"offsetof", SYN_OFFSETOF},           {"__builtin_offsetof", SYN_OFFSETOF},
        {"sizeof", SYN_SIZEOF},
    };
    if (d->lang != SYN_CPP)
        return;
    const char *s = d->parsed;
    size_t len = d->len;
    size_t first = out->n;
    for (size_t i = 0; i < len;) {
        char c = s[i];
        size_t past = skip_non_code(s, i, len);
        if (past != i) {
            i = past;
            continue;
        }
        bool ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!ident) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < len && (s[e] == '_' || (s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z') ||
                           (s[e] >= '0' && s[e] <= '9')))
            e++;
        int w = -1;
        for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
            if (strlen(words[k].word) == e - i && memcmp(s + i, words[k].word, e - i) == 0)
                w = (int)k;
        if (w < 0) {
            i = e;
            continue;
        }
        size_t p = e;
        while (p < len && (s[p] == ' ' || s[p] == '\t'))
            p++;
        syn_site site;
        memset(&site, 0, sizeof site);
        site.kind = words[w].kind;
        size_t end;
        if (p < len && s[p] == '(') {
            end = match_paren(s, p, len);
            if (!end) {
                i = e;
                continue;
            }
            size_t in0 = p + 1, in1 = end - 1;
            size_t comma = site.kind == SYN_SIZEOF ? in1 : last_top_comma(s, in0, in1);
            if (site.kind == SYN_STATIC_ASSERT && comma < in1) {
                size_t m = comma + 1;
                while (m < in1 && (s[m] == ' ' || s[m] == '\t' || s[m] == '\n' || s[m] == '\r' || s[m] == '\\'))
                    m++;
                /* the message is a string literal (possibly prefixed u8/L); else no message */
                if (!(m < in1 && (s[m] == '"' || s[m] == 'u' || s[m] == 'L' || s[m] == 'R')))
                    comma = in1;
            }
            site.arg1 = trimmed(d->text, in0, comma);
            site.arg2 = comma < in1 ? trimmed(d->text, comma + 1, in1) : NULL;
        } else if (site.kind == SYN_SIZEOF && p < len && (s[p] == '_' || (s[p] >= 'a' && s[p] <= 'z') ||
                                                          (s[p] >= 'A' && s[p] <= 'Z'))) {
            end = p;
            while (end < len && (s[end] == '_' || (s[end] >= 'a' && s[end] <= 'z') ||
                                 (s[end] >= 'A' && s[end] <= 'Z') || (s[end] >= '0' && s[end] <= '9')))
                end++;
            site.arg1 = xstrndup(d->text + p, end - p);
        } else {
            i = e;
            continue;
        }
        site.text = trimmed(d->text, i, end);
        site.line = syntax_line_of(d, i);
        site.col = (int)(i - syntax_line_start(d, site.line));
        site.end_line = syntax_line_of(d, end > 0 ? end - 1 : 0);
        site.end_col = (int)(end - syntax_line_start(d, site.end_line));
        site.in_macro = in_define(d, i);
        site.assert_index = -1;
        for (size_t k = out->n; k > first; k--) {
            syn_site *a = &out->items[k - 1];
            if (a->kind != SYN_STATIC_ASSERT)
                continue;
            size_t a0 = syntax_line_start(d, a->line) + (size_t)a->col;
            size_t a1 = syntax_line_start(d, a->end_line) + (size_t)a->end_col;
            if (a0 <= i && i < a1) {
                site.assert_index = (int)(k - 1);
                break;
            }
        }
        *ARRAY_PUSH(out->items, out->n, out->cap) = site;
        /* keep scanning inside the site: a static_assert holds sizeof/offsetof sites */
        i = e;
    }
}

/* Free a site list's contents and leave it empty. */
void syn_site_list_free(syn_site_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].text);
        free(l->items[i].arg1);
        free(l->items[i].arg2);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
