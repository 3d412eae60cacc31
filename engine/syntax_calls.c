/* Call sites with their arguments (syntax.h syntax_calls), from a tree-sitter query per
 * language, keyword arguments and the callee's receiver split out. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- calls ----------------------------------------------------------------------------- */

static const char *const py_call_query = "(call function: (_) @fn arguments: (_) @args) @call";
static const char *const cpp_call_query =
    "(call_expression function: (_) @fn arguments: (argument_list) @args) @call";

typedef struct call_walk {
    syn_call_list *out;
    int first_line, last_line;
} call_walk;

/* Append an argument built from a value node (and an optional keyword). */
static void add_arg(const syntax_doc *d, syn_call *c, size_t *cap, TSNode value, char *keyword)
{
    syn_arg *a = ARRAY_PUSH(c->args, c->nargs, *cap);
    a->keyword = keyword;
    a->text = syntax_node_text(d, value);
    a->line = syntax_node_line(value);
    a->col = sx_col(value);
    a->end_line = (int)ts_node_end_point(value).row + 1;
    a->end_col = sx_end_col(value);
    if (!keyword)
        c->npositional++;
}

/* Split a callee text at its last '.', '::' or '->' into receiver and name. */
static void split_callee(syn_call *c)
{
    const char *s = c->callee, *cut = NULL;
    size_t cutlen = 0;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth > 0)
            depth--;
        else if (depth == 0 && *p == '.') {
            cut = p;
            cutlen = 1;
        } else if (depth == 0 && ((p[0] == ':' && p[1] == ':') || (p[0] == '-' && p[1] == '>'))) {
            cut = p;
            cutlen = 2;
            p++;
        }
    }
    if (cut) {
        c->name = xstrdup(cut + cutlen);
        c->receiver = cut > s ? xstrndup(s, (size_t)(cut - s)) : NULL;
    } else {
        c->name = xstrdup(s);
        c->receiver = NULL;
    }
}

/* Record one call. */
static bool call_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    call_walk *w = arg;
    TSNode call = sx_capture(q, m, "call"), fn = sx_capture(q, m, "fn"), args = sx_capture(q, m, "args");
    int line = syntax_node_line(call);
    if ((w->first_line > 0 && line < w->first_line) || (w->last_line > 0 && line > w->last_line))
        return true;
    syn_call *c = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(c, 0, sizeof *c);
    char *raw = syntax_node_text(d, fn), *sq = sx_squeeze(raw);
    c->callee = d->lang == SYN_CPP ? sx_drop_template_args(sq) : xstrdup(sq);
    free(raw);
    free(sq);
    split_callee(c);
    c->line = line;
    c->col = sx_col(call);
    c->end_line = (int)ts_node_end_point(call).row + 1;
    c->end_col = sx_end_col(call);
    c->args_line = syntax_node_line(args);
    c->args_col = sx_col(args);
    size_t cap = 0;
    if (!sx_type_is(args, "argument_list")) {
        add_arg(d, c, &cap, args, NULL); /* f(x for x in y) */
        return true;
    }
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (sx_type_is(a, "comment"))
            continue;
        if (sx_type_is(a, "keyword_argument")) {
            TSNode nm = sx_field(a, "name"), v = sx_field(a, "value");
            if (!ts_node_is_null(nm) && !ts_node_is_null(v)) {
                add_arg(d, c, &cap, v, syntax_node_text(d, nm));
                continue;
            }
        }
        add_arg(d, c, &cap, a, NULL);
    }
    return true;
}

static int call_cmp(const void *a, const void *b)
{
    const syn_call *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* Every call starting in a line range. */
void syntax_calls(const syntax_doc *d, int first_line, int last_line, syn_call_list *out)
{
    call_walk w = {out, first_line, last_line};
    char *cause = NULL;
    size_t first = out->n;
    const char *src = d->lang == SYN_PYTHON ? py_call_query : d->lang == SYN_CPP ? cpp_call_query : NULL;
    if (src && syntax_query(d, src, first_line, last_line, call_match, &w, &cause) < 0)
        sx_query_failed(cause);
    if (out->n > first)
        qsort(out->items + first, out->n - first, sizeof *out->items, call_cmp);
}

void syntax_calls_touching(const syntax_doc *d, const line_run *runs, size_t nruns,
                           syn_call_list *out)
{
    call_walk w = {out, 0, 0};
    char *cause = NULL;
    size_t first = out->n;
    const char *src = d->lang == SYN_PYTHON ? py_call_query : d->lang == SYN_CPP ? cpp_call_query : NULL;
    if (src && syntax_query_touching(d, src, "call", runs, nruns, call_match, &w, &cause) < 0)
        sx_query_failed(cause);
    if (out->n > first)
        qsort(out->items + first, out->n - first, sizeof *out->items, call_cmp);
}

/* The positional argument i or the keyword argument kw. */
const syn_arg *syntax_call_arg(const syn_call *c, int i, const char *kw)
{
    if (kw)
        for (size_t k = 0; k < c->nargs; k++)
            if (c->args[k].keyword && strcmp(c->args[k].keyword, kw) == 0)
                return &c->args[k];
    if (i < 0)
        return NULL;
    int pos = 0;
    for (size_t k = 0; k < c->nargs; k++) {
        if (c->args[k].keyword || str_starts(c->args[k].text, "*"))
            continue;
        if (pos++ == i)
            return &c->args[k];
    }
    return NULL;
}

/* Free a call list's contents and leave it empty. */
void syn_call_list_free(syn_call_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        syn_call *c = &l->items[i];
        free(c->callee);
        free(c->name);
        free(c->receiver);
        for (size_t k = 0; k < c->nargs; k++) {
            free(c->args[k].keyword);
            free(c->args[k].text);
        }
        free(c->args);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
