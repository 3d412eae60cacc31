/* Small tree-sitter node helpers the syntax extractors share (syntax_nodes.h): a node's type
 * and fields, a query's captures, columns, and the text normalisations their names need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax_nodes.h"
#include "engine/util.h"

bool sx_type_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

TSNode sx_field(TSNode n, const char *name)
{
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

bool syntax_node_is(TSNode n, const char *type)
{
    return sx_type_is(n, type);
}

TSNode syntax_node_field(TSNode n, const char *name)
{
    return sx_field(n, name);
}

const char *syntax_node_operator(TSNode n)
{
    TSNode o = sx_field(n, "operator");
    return ts_node_is_null(o) ? "" : ts_node_type(o);
}

/* The capture named name in a match, or a null node. */
TSNode sx_capture(const TSQuery *q, const TSQueryMatch *m, const char *name)
{
    for (uint16_t i = 0; i < m->capture_count; i++)
        if (strcmp(syntax_capture_name(q, m->captures[i].index), name) == 0)
            return m->captures[i].node;
    TSNode null = {{0}, NULL, NULL};
    return null;
}

int sx_col(TSNode n)
{
    return (int)ts_node_start_point(n).column;
}

int sx_end_col(TSNode n)
{
    return (int)ts_node_end_point(n).column;
}

/* A copy of s with runs of white space (newlines included) squeezed out entirely. */
char *sx_squeeze(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            sb_addc(&sb, *s);
    return sb_detach(&sb);
}

/* A copy of s with runs of white space collapsed to one space and the ends trimmed. */
char *sx_collapse_space(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    bool space = false;
    for (s = str_lskip(s); *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
            space = true;
            continue;
        }
        if (space && sb.len)
            sb_addc(&sb, ' ');
        space = false;
        sb_addc(&sb, *s);
    }
    return sb_detach(&sb);
}

/* A copy of s without its balanced <...> groups (template arguments). */
char *sx_drop_template_args(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    int depth = 0;
    for (; *s; s++) {
        if (*s == '<' && s[1] != '<' && s[1] != '=')
            depth++;
        else if (*s == '>' && depth > 0)
            depth--;
        else if (depth == 0)
            sb_addc(&sb, *s);
    }
    return sb_detach(&sb);
}

sx_kid *sx_children(TSNode parent, uint32_t *n)
{
    uint32_t cap = ts_node_child_count(parent), k = 0;
    sx_kid *out = xcalloc(cap ? cap : 1, sizeof *out);
    TSTreeCursor c = ts_tree_cursor_new(parent);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do {
            if (k == cap)
                break;
            out[k].node = ts_tree_cursor_current_node(&c);
            out[k].field = ts_tree_cursor_current_field_name(&c);
            k++;
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    *n = k;
    return out;
}

/* Report a query that does not compile: it is a constant, so this is a programming error. */
void sx_query_failed(char *cause)
{
    fprintf(stderr, "review-lsp: syntax: %s\n", cause);
    free(cause);
}

/* The name of the class/namespace/function node n when it scopes a definition, else NULL. */
static char *scope_name(const syntax_doc *d, TSNode n, bool *is_class, bool *is_func)
{
    const char *t = ts_node_type(n);
    *is_class = *is_func = false;
    if (d->lang == SYN_PYTHON) {
        if (strcmp(t, "class_definition") == 0 || strcmp(t, "function_definition") == 0) {
            *is_class = t[0] == 'c';
            *is_func = !*is_class;
            TSNode nm = sx_field(n, "name");
            return ts_node_is_null(nm) ? xstrdup("?") : syntax_node_text(d, nm);
        }
        return NULL;
    }
    if (strcmp(t, "namespace_definition") == 0) {
        TSNode nm = sx_field(n, "name");
        return ts_node_is_null(nm) ? xstrdup("(anonymous)") : syntax_node_text(d, nm);
    }
    if (strcmp(t, "class_specifier") == 0 || strcmp(t, "struct_specifier") == 0 ||
        strcmp(t, "union_specifier") == 0) {
        *is_class = true;
        TSNode nm = sx_field(n, "name");
        if (ts_node_is_null(nm))
            return xstrdup("(anonymous)");
        char *raw = syntax_node_text(d, nm), *r = sx_drop_template_args(raw);
        free(raw);
        return r;
    }
    if (strcmp(t, "function_definition") == 0) {
        *is_func = true;
        return xstrdup("(function)"); /* local classes only; replaced by the caller */
    }
    return NULL;
}

/* Prefix the names of the enclosing scopes of n onto base, joined by sep; set depth and
 * whether the nearest scope is a class. */
char *sx_qualify(const syntax_doc *d, TSNode n, const char *base, const char *sep,
                 int *depth, bool *in_class, const syn_func_list *known)
{
    char *q = xstrdup(base);
    bool first = true;
    *depth = 0;
    *in_class = false;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        bool is_class, is_func;
        char *nm = scope_name(d, p, &is_class, &is_func);
        if (!nm)
            continue;
        if (is_func && d->lang == SYN_CPP) {
            /* a C++ function scoping a local class: use the function's own name */
            free(nm);
            nm = NULL;
            for (size_t i = 0; known && i < known->n; i++)
                if (known->items[i].start_byte <= ts_node_start_byte(p) &&
                    known->items[i].end_byte >= ts_node_end_byte(p))
                    nm = xstrdup(known->items[i].name);
            if (!nm)
                nm = xstrdup("(function)");
        }
        if (first)
            *in_class = is_class;
        first = false;
        if (is_class || is_func)
            (*depth)++;
        char *next = xasprintf("%s%s%s", nm, sep, q);
        free(nm);
        free(q);
        q = next;
    }
    return q;
}
