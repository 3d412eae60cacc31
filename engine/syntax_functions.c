/* Function definitions and their spans (syntax.h syntax_functions): Python defs and C/C++
 * definitions with their qualified names, walked from the tree (classes, namespaces, nested
 * functions), sorted by position. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- functions ------------------------------------------------------------------------- */


typedef struct func_walk {
    syn_func_list *out;
} func_walk;


/* Record one Python def. */
static void py_func_add(const syntax_doc *d, func_walk *w, TSNode def)
{
    TSNode name = sx_field(def, "name");
    if (ts_node_is_null(name))
        return;
    TSNode outer = def, p = ts_node_parent(def);
    if (sx_type_is(p, "decorated_definition"))
        outer = p;
    syn_func *f = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(f, 0, sizeof *f);
    f->name = syntax_node_text(d, name);
    f->qualname = sx_qualify(d, def, f->name, ".", &f->depth, &f->is_method, NULL);
    f->start_byte = ts_node_start_byte(outer);
    f->end_byte = ts_node_end_byte(def);
    f->start_line = syntax_node_line(outer);
    f->end_line = syntax_node_end_line(def);
    f->name_line = syntax_node_line(name);
    TSNode body = sx_field(def, "body");
    f->body_line = ts_node_is_null(body) ? f->name_line : syntax_node_line(body);
    TSNode first = ts_node_child(def, 0);
    f->is_async = sx_type_is(first, "async");
}

/* Follow a C++ declarator chain down to its function_declarator (null node if none). */
static TSNode function_declarator(TSNode n)
{
    for (int guard = 0; !ts_node_is_null(n) && guard < 16; guard++) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "function_declarator") == 0)
            return n;
        TSNode next = sx_field(n, "declarator");
        if (ts_node_is_null(next)) {
            uint32_t c = ts_node_named_child_count(n);
            next = c ? ts_node_named_child(n, c - 1) : next;
            if (strcmp(t, "pointer_declarator") != 0 && strcmp(t, "reference_declarator") != 0 &&
                strcmp(t, "parenthesized_declarator") != 0 &&
                strcmp(t, "attributed_declarator") != 0)
                break;
        }
        n = next;
    }
    TSNode null = {{0}, NULL, NULL};
    return null;
}

/* The innermost plain-name node of a C++ function name (qualified, template, destructor…). */
static TSNode last_name(TSNode n)
{
    for (int guard = 0; guard < 16; guard++) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "qualified_identifier") == 0 || strcmp(t, "template_function") == 0 ||
            strcmp(t, "template_method") == 0) {
            TSNode nm = sx_field(n, "name");
            if (ts_node_is_null(nm))
                break;
            n = nm;
            continue;
        }
        break;
    }
    return n;
}

/* True when the original text in [from, to) contains word as a whole identifier. */
static bool text_has_word(const syntax_doc *d, size_t from, size_t to, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = from; i + n <= to; i++) {
        if (memcmp(d->text + i, word, n) != 0)
            continue;
        bool left = i == 0 || !(d->text[i - 1] == '_' || (d->text[i - 1] >= 'a' && d->text[i - 1] <= 'z') ||
                                (d->text[i - 1] >= 'A' && d->text[i - 1] <= 'Z') ||
                                (d->text[i - 1] >= '0' && d->text[i - 1] <= '9'));
        char r = i + n < d->len ? d->text[i + n] : ' ';
        bool right = !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
                       (r >= '0' && r <= '9'));
        if (left && right)
            return true;
    }
    return false;
}

/* Record one C++ function definition. */
static void cpp_func_add(const syntax_doc *d, func_walk *w, TSNode def)
{
    TSNode fd = function_declarator(sx_field(def, "declarator"));
    if (ts_node_is_null(fd))
        return;
    TSNode dn = sx_field(fd, "declarator");
    if (ts_node_is_null(dn))
        return;
    TSNode outer = def;
    bool is_template = false;
    for (TSNode p = ts_node_parent(def); sx_type_is(p, "template_declaration"); p = ts_node_parent(p)) {
        outer = p;
        is_template = true;
    }
    /* HIP decorations before the definition were blanked for the parser: take them back. */
    size_t start = ts_node_start_byte(outer);
    size_t s = start;
    while (s > 0 && (d->parsed[s - 1] == ' ' || d->parsed[s - 1] == '\t' ||
                     d->parsed[s - 1] == '\n' || d->parsed[s - 1] == '\r'))
        s--;
    while (s < start && d->parsed[s] == d->text[s])
        s++;
    /* s is now the first blanked byte before the definition (or start itself) */
    size_t name_start = ts_node_start_byte(dn);
    syn_func *f = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(f, 0, sizeof *f);
    char *raw = syntax_node_text(d, dn), *sq = sx_squeeze(raw);
    char *full = sx_drop_template_args(sq);
    free(raw);
    free(sq);
    TSNode ln = last_name(dn);
    if (sx_type_is(ln, "template_function")) {
        TSNode nm = sx_field(ln, "name");
        if (!ts_node_is_null(nm))
            ln = nm;
    }
    char *lraw = syntax_node_text(d, ln), *lsq = sx_squeeze(lraw);
    f->name = sx_drop_template_args(lsq);
    free(lraw);
    free(lsq);
    f->qualname = sx_qualify(d, def, full, "::", &f->depth, &f->is_method, w->out);
    if (sx_type_is(dn, "qualified_identifier"))
        f->is_method = true;
    free(full);
    f->start_byte = (uint32_t)s;
    f->end_byte = ts_node_end_byte(def);
    f->start_line = syntax_line_of(d, s);
    f->end_line = syntax_node_end_line(def);
    f->name_line = syntax_node_line(dn);
    TSNode body = sx_field(def, "body");
    f->body_line = ts_node_is_null(body) ? f->name_line : syntax_node_line(body);
    f->is_template = is_template;
    f->is_kernel = text_has_word(d, s, name_start, "__global__");
    f->is_device = text_has_word(d, s, name_start, "__device__") ||
                   text_has_word(d, s, name_start, "CK_TILE_DEVICE") ||
                   text_has_word(d, s, name_start, "CK_TILE_HOST_DEVICE");
}

static int func_cmp(const void *a, const void *b)
{
    const syn_func *x = a, *y = b;
    if (x->start_byte != y->start_byte)
        return x->start_byte < y->start_byte ? -1 : 1;
    return x->end_byte > y->end_byte ? -1 : x->end_byte < y->end_byte;
}

/* True for the node types that can hold a function definition somewhere below them without
 * it being inside another function's body (C++) or an expression (Python). */
static bool holds_functions(syn_lang lang, const char *t)
{
    static const char *const py[] = {
        "module", "block", "decorated_definition", "class_definition", "if_statement",
        "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause",
        "with_statement", "for_statement", "while_statement", "match_statement", "case_clause",
        "ERROR", NULL,
    };
    static const char *const cpp[] = {
        "translation_unit", "namespace_definition", "declaration_list", "linkage_specification",
        "template_declaration", "class_specifier", "struct_specifier", "union_specifier",
        "field_declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
        "preproc_elifdef", "declaration", "type_definition", "field_declaration", "ERROR", NULL,
    };
    const char *const *list = lang == SYN_PYTHON ? py : cpp;
    for (int i = 0; list[i]; i++)
        if (strcmp(t, list[i]) == 0)
            return true;
    return false;
}

/* Walk the statement-level skeleton of the tree for function definitions. A query would visit
 * every node of every function body; this walk skips bodies (C++) and expressions (Python),
 * which makes it an order of magnitude faster on large kernel files. */
static void walk_functions(const syntax_doc *d, func_walk *w, TSNode n, int depth)
{
    if (depth > 200)
        return;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        const char *t = ts_node_type(k);
        if (strcmp(t, "function_definition") == 0) {
            if (d->lang == SYN_PYTHON) {
                py_func_add(d, w, k);
                TSNode body = sx_field(k, "body");
                if (!ts_node_is_null(body))
                    walk_functions(d, w, body, depth + 1); /* nested defs */
            } else {
                cpp_func_add(d, w, k);
            }
        } else if (holds_functions(d->lang, t)) {
            walk_functions(d, w, k, depth + 1);
        }
    }
}

/* Every function definition in the doc, outer before inner. */
void syntax_functions(const syntax_doc *d, syn_func_list *out)
{
    func_walk w = {out};
    size_t first = out->n;
    if (d->lang != SYN_NONE)
        walk_functions(d, &w, ts_tree_root_node(d->tree), 0);
    if (out->n > first)
        qsort(out->items + first, out->n - first, sizeof *out->items, func_cmp);
}

/* The innermost function containing a line. */
const syn_func *syntax_enclosing_function(const syn_func_list *l, int line)
{
    const syn_func *best = NULL;
    for (size_t i = 0; i < l->n; i++) {
        const syn_func *f = &l->items[i];
        if (f->start_line <= line && line <= f->end_line &&
            (!best || f->start_byte >= best->start_byte))
            best = f;
    }
    return best;
}

/* Free a function list's contents and leave it empty. */
void syn_func_list_free(syn_func_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].name);
        free(l->items[i].qualname);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
