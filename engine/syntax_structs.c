/* Struct and class fields in order (syntax.h syntax_structs): C++ records found from their
 * keywords with each field's type, array extents and bit widths; Python classes from a query. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- structs --------------------------------------------------------------------------- */

static const char *const py_class_query = "(class_definition name: (identifier) @name body: (block) @body) @s";

typedef struct struct_walk {
    syn_struct_list *out;
} struct_walk;

/* The type text of a field declaration: its qualifiers and type specifier, in order. */
static char *field_type_text(const syntax_doc *d, TSNode decl, bool *is_static)
{
    strbuf sb;
    sb_init(&sb);
    *is_static = false;
    uint32_t n;
    sx_kid *ks = sx_children(decl, &n);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ks[i].node;
        const char *t = ts_node_type(c);
        const char *fname = ks[i].field;
        if (strcmp(t, "storage_class_specifier") == 0) {
            char *s = syntax_node_text(d, c);
            if (strcmp(s, "static") == 0)
                *is_static = true;
            free(s);
            continue;
        }
        bool is_type = fname && strcmp(fname, "type") == 0;
        if (!is_type && strcmp(t, "type_qualifier") != 0)
            continue;
        char *s;
        TSNode body = sx_field(c, "body");
        if (is_type && !ts_node_is_null(body)) {
            /* an inline struct/union definition: keep "struct Name" only */
            TSNode nm = sx_field(c, "name");
            char *nmt = ts_node_is_null(nm) ? xstrdup("") : syntax_node_text(d, nm);
            s = *nmt ? xasprintf("%s %s", t[0] == 'u' ? "union" : t[0] == 'c' ? "class" : "struct", nmt)
                     : xstrdup(t[0] == 'u' ? "union" : t[0] == 'c' ? "class" : "struct");
            free(nmt);
        } else {
            char *raw = syntax_node_text(d, c);
            s = sx_collapse_space(raw);
            free(raw);
        }
        if (sb.len)
            sb_addc(&sb, ' ');
        sb_adds(&sb, s);
        free(s);
    }
    free(ks);
    return sb_detach(&sb);
}

/* Fill a field's name, pointer depth and array dims from its declarator; false when the
 * declarator declares a member function rather than data. */
static bool walk_declarator(const syntax_doc *d, TSNode n, syn_field *f)
{
    strbuf dims;
    sb_init(&dims);
    bool via_pointer = false, ok = true;
    for (int guard = 0; guard < 32 && !ts_node_is_null(n); guard++) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "pointer_declarator") == 0 || strcmp(t, "reference_declarator") == 0) {
            f->pointer_depth++;
            via_pointer = true;
            TSNode next = sx_field(n, "declarator");
            if (ts_node_is_null(next)) {
                uint32_t c = ts_node_named_child_count(n);
                next = c ? ts_node_named_child(n, c - 1) : next;
            }
            n = next;
        } else if (strcmp(t, "array_declarator") == 0) {
            TSNode sz = sx_field(n, "size");
            char *szt = ts_node_is_null(sz) ? xstrdup("") : syntax_node_text(d, sz);
            /* inner dims come first in the text: a[2][3] nests as ((a[2])[3]) */
            char *prev = sb_detach(&dims);
            sb_addf(&dims, "[%s]%s", szt, prev);
            free(prev);
            free(szt);
            n = sx_field(n, "declarator");
        } else if (strcmp(t, "function_declarator") == 0) {
            if (!via_pointer) {
                /* a pointer to function has its '*' inside the parenthesized declarator */
                TSNode inner = sx_field(n, "declarator");
                if (sx_type_is(inner, "parenthesized_declarator")) {
                    n = inner;
                    continue;
                }
                ok = false;
                break;
            }
            n = sx_field(n, "declarator");
        } else if (strcmp(t, "parenthesized_declarator") == 0 || strcmp(t, "attributed_declarator") == 0 ||
                   strcmp(t, "init_declarator") == 0) {
            TSNode next = sx_field(n, "declarator");
            if (ts_node_is_null(next))
                next = ts_node_named_child(n, 0);
            n = next;
        } else {
            f->name = syntax_node_text(d, n);
            f->line = syntax_node_line(n);
            f->col = sx_col(n);
            break;
        }
    }
    f->array_dims = dims.len ? sb_detach(&dims) : NULL;
    sb_free(&dims);
    if (!f->name) {
        f->name = xstrdup("");
        if (!ok)
            return false;
    }
    return ok;
}

/* Free one field's strings. */
static void field_free(syn_field *f)
{
    free(f->name);
    free(f->type);
    free(f->declarator);
    free(f->array_dims);
}

/* Append the data members declared by one field_declaration. */
static void add_cpp_fields(const syntax_doc *d, syn_struct *s, TSNode decl)
{
    bool is_static;
    int bitfield = -1;
    uint32_t n;
    sx_kid *ks = sx_children(decl, &n);
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ks[i].node;
        if (sx_type_is(c, "bitfield_clause")) {
            TSNode num = ts_node_named_child(c, 0);
            char *t = ts_node_is_null(num) ? xstrdup("") : syntax_node_text(d, num);
            char *end;
            long v = strtol(t, &end, 0);
            bitfield = (*t && !*end && v >= 0 && v < 1 << 16) ? (int)v : 0;
            free(t);
        }
    }
    char *type = field_type_text(d, decl, &is_static);
    for (uint32_t i = 0; i < n; i++) {
        const char *fname = ks[i].field;
        if (!fname || strcmp(fname, "declarator") != 0)
            continue;
        TSNode dn = ks[i].node;
        syn_field f;
        memset(&f, 0, sizeof f);
        f.bitfield = bitfield;
        if (!walk_declarator(d, dn, &f)) {
            field_free(&f);
            continue;
        }
        f.type = xstrdup(type);
        char *raw = syntax_node_text(d, dn);
        f.declarator = sx_collapse_space(raw);
        free(raw);
        if (bitfield >= 0) {
            char *withbits = xasprintf("%s : %d", f.declarator, bitfield);
            free(f.declarator);
            f.declarator = withbits;
        }
        f.is_static = is_static;
        f.start_byte = ts_node_start_byte(decl);
        f.end_byte = ts_node_end_byte(decl);
        *ARRAY_PUSH(s->fields, s->nfields, s->fields_cap) = f;
        any = true;
    }
    if (!any) {
        /* an anonymous struct/union member takes space; a named nested type does not */
        TSNode ty = sx_field(decl, "type");
        if (!ts_node_is_null(ty) && ts_node_is_null(sx_field(ty, "name")) &&
            !ts_node_is_null(sx_field(ty, "body"))) {
            syn_field f;
            memset(&f, 0, sizeof f);
            f.name = xstrdup("");
            f.type = xstrdup(type);
            f.declarator = xstrdup("");
            f.bitfield = -1;
            f.line = syntax_node_line(decl);
            f.col = sx_col(decl);
            f.start_byte = ts_node_start_byte(decl);
            f.end_byte = ts_node_end_byte(decl);
            *ARRAY_PUSH(s->fields, s->nfields, s->fields_cap) = f;
        }
    }
    free(ks);
    free(type);
}

/* Walk a struct body (and the #if blocks inside it) for data members. */
static void walk_cpp_body(const syntax_doc *d, syn_struct *s, TSNode body, int depth)
{
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n && depth < 8; i++) {
        TSNode c = ts_node_named_child(body, i);
        const char *t = ts_node_type(c);
        if (strcmp(t, "field_declaration") == 0)
            add_cpp_fields(d, s, c);
        else if (str_starts(t, "preproc_if") || strcmp(t, "preproc_else") == 0 ||
                 strcmp(t, "preproc_elif") == 0 || strcmp(t, "preproc_elifdef") == 0)
            walk_cpp_body(d, s, c, depth + 1);
    }
}

/* Record one C++ struct/class/union with a body. */
static void cpp_struct_add(const syntax_doc *d, TSNode sn, TSNode body, struct_walk *w)
{
    syn_struct *s = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(s, 0, sizeof *s);
    const char *t = ts_node_type(sn);
    s->kind = xstrdup(t[0] == 'u' ? "union" : t[0] == 'c' ? "class" : "struct");
    TSNode nm = sx_field(sn, "name");
    TSNode parent = ts_node_parent(sn);
    if (!ts_node_is_null(nm)) {
        char *raw = syntax_node_text(d, nm), *sq = sx_squeeze(raw);
        s->name = sx_drop_template_args(sq);
        free(raw);
        free(sq);
        s->name_line = syntax_node_line(nm);
    } else if (sx_type_is(parent, "type_definition")) {
        TSNode dn = sx_field(parent, "declarator");
        s->name = ts_node_is_null(dn) ? xstrdup("") : syntax_node_text(d, dn);
        s->name_line = ts_node_is_null(dn) ? syntax_node_line(sn) : syntax_node_line(dn);
    } else {
        s->name = xstrdup("");
        s->name_line = syntax_node_line(sn);
    }
    int depth;
    bool in_class;
    s->qualname = *s->name ? sx_qualify(d, sn, s->name, "::", &depth, &in_class, NULL) : xstrdup("");
    TSNode outer = sn;
    for (TSNode p = parent; sx_type_is(p, "template_declaration"); p = ts_node_parent(p)) {
        outer = p;
        s->is_template = true;
    }
    s->start_line = syntax_node_line(outer);
    s->end_line = syntax_node_end_line(sn);
    s->start_byte = ts_node_start_byte(outer);
    s->end_byte = ts_node_end_byte(sn);
    walk_cpp_body(d, s, body, 0);
}

/* True for a struct, class or union specifier node. */
static bool is_record_specifier(TSNode n)
{
    return sx_type_is(n, "struct_specifier") || sx_type_is(n, "class_specifier") ||
           sx_type_is(n, "union_specifier");
}

/* Every struct, class or union specifier with a body, found from its keyword: each whole-word
 * `struct`, `class` or `union` of the text the parser read is looked up in the tree, which
 * costs a few node steps per keyword where a query visits every node of the file. */
static void cpp_structs_by_keyword(const syntax_doc *d, struct_walk *w)
{
    static const char *const kws[] = {"struct", "class", "union"};
    const char *t = d->parsed ? d->parsed : d->text;
    TSNode root = ts_tree_root_node(d->tree);
    for (size_t i = 0; i < d->len; i++) {
        if (t[i] != 's' && t[i] != 'c' && t[i] != 'u')
            continue;
        if (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
            continue;
        for (size_t k = 0; k < sizeof kws / sizeof kws[0]; k++) {
            size_t n = strlen(kws[k]);
            if (i + n > d->len || memcmp(t + i, kws[k], n) != 0 ||
                (i + n < d->len && (isalnum((unsigned char)t[i + n]) || t[i + n] == '_')))
                continue;
            TSNode leaf = ts_node_descendant_for_byte_range(root, (uint32_t)i, (uint32_t)(i + n));
            TSNode sn = is_record_specifier(leaf) ? leaf : ts_node_parent(leaf);
            if (!is_record_specifier(sn) || ts_node_start_byte(sn) != i)
                break;
            TSNode body = sx_field(sn, "body");
            if (sx_type_is(body, "field_declaration_list"))
                cpp_struct_add(d, sn, body, w);
            break;
        }
    }
}

/* Record one Python class with its class-level (annotated) assignments as fields. */
static bool py_class_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    struct_walk *w = arg;
    TSNode sn = sx_capture(q, m, "s"), nm = sx_capture(q, m, "name"), body = sx_capture(q, m, "body");
    syn_struct *s = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(s, 0, sizeof *s);
    s->kind = xstrdup("class");
    s->name = syntax_node_text(d, nm);
    int depth;
    bool in_class;
    s->qualname = sx_qualify(d, sn, s->name, ".", &depth, &in_class, NULL);
    TSNode outer = sn, p = ts_node_parent(sn);
    if (sx_type_is(p, "decorated_definition"))
        outer = p;
    s->start_line = syntax_node_line(outer);
    s->end_line = syntax_node_end_line(sn);
    s->name_line = syntax_node_line(nm);
    s->start_byte = ts_node_start_byte(outer);
    s->end_byte = ts_node_end_byte(sn);
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (!sx_type_is(st, "expression_statement"))
            continue;
        TSNode a = ts_node_named_child(st, 0);
        if (!sx_type_is(a, "assignment"))
            continue;
        TSNode left = sx_field(a, "left"), ty = sx_field(a, "type");
        if (!sx_type_is(left, "identifier"))
            continue;
        syn_field f;
        memset(&f, 0, sizeof f);
        f.name = syntax_node_text(d, left);
        f.type = ts_node_is_null(ty) ? xstrdup("") : syntax_node_text(d, ty);
        f.declarator = xstrdup(f.name);
        f.bitfield = -1;
        f.line = syntax_node_line(left);
        f.col = sx_col(left);
        f.start_byte = ts_node_start_byte(st);
        f.end_byte = ts_node_end_byte(st);
        *ARRAY_PUSH(s->fields, s->nfields, s->fields_cap) = f;
    }
    return true;
}

static int struct_cmp(const void *a, const void *b)
{
    const syn_struct *x = a, *y = b;
    return x->start_byte < y->start_byte ? -1 : x->start_byte > y->start_byte;
}

/* Every struct/class definition in the doc. */
void syntax_structs(const syntax_doc *d, syn_struct_list *out)
{
    struct_walk w = {out};
    char *cause = NULL;
    size_t first = out->n;
    if (d->lang == SYN_CPP) {
        cpp_structs_by_keyword(d, &w);
    } else if (d->lang == SYN_PYTHON) {
        if (syntax_query(d, py_class_query, 0, 0, py_class_match, &w, &cause) < 0)
            sx_query_failed(cause);
    }
    if (out->n > first)
        qsort(out->items + first, out->n - first, sizeof *out->items, struct_cmp);
}

/* The first struct with this plain or qualified name. */
const syn_struct *syntax_find_struct(const syn_struct_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].name, name) == 0 || strcmp(l->items[i].qualname, name) == 0)
            return &l->items[i];
    return NULL;
}

/* Free a struct list's contents and leave it empty. */
void syn_struct_list_free(syn_struct_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        syn_struct *s = &l->items[i];
        free(s->name);
        free(s->qualname);
        free(s->kind);
        for (size_t k = 0; k < s->nfields; k++)
            field_free(&s->fields[k]);
        free(s->fields);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
