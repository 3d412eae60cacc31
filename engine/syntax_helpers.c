/* The syntax layer's structural helpers that collectors share: function definitions and
 * their spans, call sites with their arguments, struct/class fields in order, layout pins
 * (static_assert / offsetof / sizeof), imports and comments. Each starts from a tree-sitter
 * query (the patterns below) and walks the matched nodes for the details a query cannot say
 * (qualified names, declarator chains, argument lists). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/util.h"

/* --- small node helpers ---------------------------------------------------------------- */

static bool type_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static TSNode field(TSNode n, const char *name)
{
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/* The capture named name in a match, or a null node. */
static TSNode capture(const TSQuery *q, const TSQueryMatch *m, const char *name)
{
    for (uint16_t i = 0; i < m->capture_count; i++)
        if (strcmp(syntax_capture_name(q, m->captures[i].index), name) == 0)
            return m->captures[i].node;
    TSNode null = {{0}, NULL, NULL};
    return null;
}

static int node_col(TSNode n)
{
    return (int)ts_node_start_point(n).column;
}

static int node_end_col(TSNode n)
{
    return (int)ts_node_end_point(n).column;
}

/* A copy of s with runs of white space (newlines included) squeezed out entirely. */
static char *squeeze(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            sb_addc(&sb, *s);
    return sb_detach(&sb);
}

/* A copy of s with runs of white space collapsed to one space and the ends trimmed. */
static char *collapse_space(const char *s)
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
static char *drop_template_args(const char *s)
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

/* A node's children with their field names (NULL when none), as a new array of *n entries.
 * Walked with a tree cursor: ts_node_field_name_for_child is unreliable in older runtimes. */
typedef struct kid {
    TSNode node;
    const char *field;
} kid;

static kid *children(TSNode parent, uint32_t *n)
{
    uint32_t cap = ts_node_child_count(parent), k = 0;
    kid *out = xcalloc(cap ? cap : 1, sizeof *out);
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
static void query_failed(char *cause)
{
    fprintf(stderr, "review-lsp: syntax: %s\n", cause);
    free(cause);
}

/* --- functions ------------------------------------------------------------------------- */


typedef struct func_walk {
    syn_func_list *out;
} func_walk;

/* The name of the class/namespace/function node n when it scopes a definition, else NULL. */
static char *scope_name(const syntax_doc *d, TSNode n, bool *is_class, bool *is_func)
{
    const char *t = ts_node_type(n);
    *is_class = *is_func = false;
    if (d->lang == SYN_PYTHON) {
        if (strcmp(t, "class_definition") == 0 || strcmp(t, "function_definition") == 0) {
            *is_class = t[0] == 'c';
            *is_func = !*is_class;
            TSNode nm = field(n, "name");
            return ts_node_is_null(nm) ? xstrdup("?") : syntax_node_text(d, nm);
        }
        return NULL;
    }
    if (strcmp(t, "namespace_definition") == 0) {
        TSNode nm = field(n, "name");
        return ts_node_is_null(nm) ? xstrdup("(anonymous)") : syntax_node_text(d, nm);
    }
    if (strcmp(t, "class_specifier") == 0 || strcmp(t, "struct_specifier") == 0 ||
        strcmp(t, "union_specifier") == 0) {
        *is_class = true;
        TSNode nm = field(n, "name");
        if (ts_node_is_null(nm))
            return xstrdup("(anonymous)");
        char *raw = syntax_node_text(d, nm), *r = drop_template_args(raw);
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
static char *qualify(const syntax_doc *d, TSNode n, const char *base, const char *sep,
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

/* Record one Python def. */
static void py_func_add(const syntax_doc *d, func_walk *w, TSNode def)
{
    TSNode name = field(def, "name");
    if (ts_node_is_null(name))
        return;
    TSNode outer = def, p = ts_node_parent(def);
    if (type_is(p, "decorated_definition"))
        outer = p;
    syn_func *f = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(f, 0, sizeof *f);
    f->name = syntax_node_text(d, name);
    f->qualname = qualify(d, def, f->name, ".", &f->depth, &f->is_method, NULL);
    f->start_byte = ts_node_start_byte(outer);
    f->end_byte = ts_node_end_byte(def);
    f->start_line = syntax_node_line(outer);
    f->end_line = syntax_node_end_line(def);
    f->name_line = syntax_node_line(name);
    TSNode body = field(def, "body");
    f->body_line = ts_node_is_null(body) ? f->name_line : syntax_node_line(body);
    TSNode first = ts_node_child(def, 0);
    f->is_async = type_is(first, "async");
}

/* Follow a C++ declarator chain down to its function_declarator (null node if none). */
static TSNode function_declarator(TSNode n)
{
    for (int guard = 0; !ts_node_is_null(n) && guard < 16; guard++) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "function_declarator") == 0)
            return n;
        TSNode next = field(n, "declarator");
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
            TSNode nm = field(n, "name");
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
    TSNode fd = function_declarator(field(def, "declarator"));
    if (ts_node_is_null(fd))
        return;
    TSNode dn = field(fd, "declarator");
    if (ts_node_is_null(dn))
        return;
    TSNode outer = def;
    bool is_template = false;
    for (TSNode p = ts_node_parent(def); type_is(p, "template_declaration"); p = ts_node_parent(p)) {
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
    char *raw = syntax_node_text(d, dn), *sq = squeeze(raw);
    char *full = drop_template_args(sq);
    free(raw);
    free(sq);
    TSNode ln = last_name(dn);
    if (type_is(ln, "template_function")) {
        TSNode nm = field(ln, "name");
        if (!ts_node_is_null(nm))
            ln = nm;
    }
    char *lraw = syntax_node_text(d, ln), *lsq = squeeze(lraw);
    f->name = drop_template_args(lsq);
    free(lraw);
    free(lsq);
    f->qualname = qualify(d, def, full, "::", &f->depth, &f->is_method, w->out);
    if (type_is(dn, "qualified_identifier"))
        f->is_method = true;
    free(full);
    f->start_byte = (uint32_t)s;
    f->end_byte = ts_node_end_byte(def);
    f->start_line = syntax_line_of(d, s);
    f->end_line = syntax_node_end_line(def);
    f->name_line = syntax_node_line(dn);
    TSNode body = field(def, "body");
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
                TSNode body = field(k, "body");
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
    a->col = node_col(value);
    a->end_line = (int)ts_node_end_point(value).row + 1;
    a->end_col = node_end_col(value);
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
    TSNode call = capture(q, m, "call"), fn = capture(q, m, "fn"), args = capture(q, m, "args");
    int line = syntax_node_line(call);
    if ((w->first_line > 0 && line < w->first_line) || (w->last_line > 0 && line > w->last_line))
        return true;
    syn_call *c = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(c, 0, sizeof *c);
    char *raw = syntax_node_text(d, fn), *sq = squeeze(raw);
    c->callee = d->lang == SYN_CPP ? drop_template_args(sq) : xstrdup(sq);
    free(raw);
    free(sq);
    split_callee(c);
    c->line = line;
    c->col = node_col(call);
    c->end_line = (int)ts_node_end_point(call).row + 1;
    c->end_col = node_end_col(call);
    c->args_line = syntax_node_line(args);
    c->args_col = node_col(args);
    size_t cap = 0;
    if (!type_is(args, "argument_list")) {
        add_arg(d, c, &cap, args, NULL); /* f(x for x in y) */
        return true;
    }
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (type_is(a, "comment"))
            continue;
        if (type_is(a, "keyword_argument")) {
            TSNode nm = field(a, "name"), v = field(a, "value");
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
        query_failed(cause);
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
    kid *ks = children(decl, &n);
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
        TSNode body = field(c, "body");
        if (is_type && !ts_node_is_null(body)) {
            /* an inline struct/union definition: keep "struct Name" only */
            TSNode nm = field(c, "name");
            char *nmt = ts_node_is_null(nm) ? xstrdup("") : syntax_node_text(d, nm);
            s = *nmt ? xasprintf("%s %s", t[0] == 'u' ? "union" : t[0] == 'c' ? "class" : "struct", nmt)
                     : xstrdup(t[0] == 'u' ? "union" : t[0] == 'c' ? "class" : "struct");
            free(nmt);
        } else {
            char *raw = syntax_node_text(d, c);
            s = collapse_space(raw);
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
            TSNode next = field(n, "declarator");
            if (ts_node_is_null(next)) {
                uint32_t c = ts_node_named_child_count(n);
                next = c ? ts_node_named_child(n, c - 1) : next;
            }
            n = next;
        } else if (strcmp(t, "array_declarator") == 0) {
            TSNode sz = field(n, "size");
            char *szt = ts_node_is_null(sz) ? xstrdup("") : syntax_node_text(d, sz);
            /* inner dims come first in the text: a[2][3] nests as ((a[2])[3]) */
            char *prev = sb_detach(&dims);
            sb_addf(&dims, "[%s]%s", szt, prev);
            free(prev);
            free(szt);
            n = field(n, "declarator");
        } else if (strcmp(t, "function_declarator") == 0) {
            if (!via_pointer) {
                /* a pointer to function has its '*' inside the parenthesized declarator */
                TSNode inner = field(n, "declarator");
                if (type_is(inner, "parenthesized_declarator")) {
                    n = inner;
                    continue;
                }
                ok = false;
                break;
            }
            n = field(n, "declarator");
        } else if (strcmp(t, "parenthesized_declarator") == 0 || strcmp(t, "attributed_declarator") == 0 ||
                   strcmp(t, "init_declarator") == 0) {
            TSNode next = field(n, "declarator");
            if (ts_node_is_null(next))
                next = ts_node_named_child(n, 0);
            n = next;
        } else {
            f->name = syntax_node_text(d, n);
            f->line = syntax_node_line(n);
            f->col = node_col(n);
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
    kid *ks = children(decl, &n);
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ks[i].node;
        if (type_is(c, "bitfield_clause")) {
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
        f.declarator = collapse_space(raw);
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
        TSNode ty = field(decl, "type");
        if (!ts_node_is_null(ty) && ts_node_is_null(field(ty, "name")) &&
            !ts_node_is_null(field(ty, "body"))) {
            syn_field f;
            memset(&f, 0, sizeof f);
            f.name = xstrdup("");
            f.type = xstrdup(type);
            f.declarator = xstrdup("");
            f.bitfield = -1;
            f.line = syntax_node_line(decl);
            f.col = node_col(decl);
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
    TSNode nm = field(sn, "name");
    TSNode parent = ts_node_parent(sn);
    if (!ts_node_is_null(nm)) {
        char *raw = syntax_node_text(d, nm), *sq = squeeze(raw);
        s->name = drop_template_args(sq);
        free(raw);
        free(sq);
        s->name_line = syntax_node_line(nm);
    } else if (type_is(parent, "type_definition")) {
        TSNode dn = field(parent, "declarator");
        s->name = ts_node_is_null(dn) ? xstrdup("") : syntax_node_text(d, dn);
        s->name_line = ts_node_is_null(dn) ? syntax_node_line(sn) : syntax_node_line(dn);
    } else {
        s->name = xstrdup("");
        s->name_line = syntax_node_line(sn);
    }
    int depth;
    bool in_class;
    s->qualname = *s->name ? qualify(d, sn, s->name, "::", &depth, &in_class, NULL) : xstrdup("");
    TSNode outer = sn;
    for (TSNode p = parent; type_is(p, "template_declaration"); p = ts_node_parent(p)) {
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
    return type_is(n, "struct_specifier") || type_is(n, "class_specifier") ||
           type_is(n, "union_specifier");
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
            TSNode body = field(sn, "body");
            if (type_is(body, "field_declaration_list"))
                cpp_struct_add(d, sn, body, w);
            break;
        }
    }
}

/* Record one Python class with its class-level (annotated) assignments as fields. */
static bool py_class_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    struct_walk *w = arg;
    TSNode sn = capture(q, m, "s"), nm = capture(q, m, "name"), body = capture(q, m, "body");
    syn_struct *s = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(s, 0, sizeof *s);
    s->kind = xstrdup("class");
    s->name = syntax_node_text(d, nm);
    int depth;
    bool in_class;
    s->qualname = qualify(d, sn, s->name, ".", &depth, &in_class, NULL);
    TSNode outer = sn, p = ts_node_parent(sn);
    if (type_is(p, "decorated_definition"))
        outer = p;
    s->start_line = syntax_node_line(outer);
    s->end_line = syntax_node_end_line(sn);
    s->name_line = syntax_node_line(nm);
    s->start_byte = ts_node_start_byte(outer);
    s->end_byte = ts_node_end_byte(sn);
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (!type_is(st, "expression_statement"))
            continue;
        TSNode a = ts_node_named_child(st, 0);
        if (!type_is(a, "assignment"))
            continue;
        TSNode left = field(a, "left"), ty = field(a, "type");
        if (!type_is(left, "identifier"))
            continue;
        syn_field f;
        memset(&f, 0, sizeof f);
        f.name = syntax_node_text(d, left);
        f.type = ts_node_is_null(ty) ? xstrdup("") : syntax_node_text(d, ty);
        f.declarator = xstrdup(f.name);
        f.bitfield = -1;
        f.line = syntax_node_line(left);
        f.col = node_col(left);
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
            query_failed(cause);
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

/* Index just past the ')' matching s[open] == '(' (skipping literals and comments), or 0. */
static size_t match_paren(const char *s, size_t open, size_t len)
{
    int depth = 0;
    for (size_t i = open; i < len;) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            i = skip_literal(s, i, len);
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            const char *e = memmem(s + i + 2, len - i - 2, "*/", 2);
            i = e ? (size_t)(e - s) + 2 : len;
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
    char *raw = xstrndup(s + from, to - from), *r = collapse_space(raw);
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
        if (c == '"' || c == '\'') {
            i = skip_literal(s, i, len);
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            const char *e = memmem(s + i + 2, len - i - 2, "*/", 2);
            i = e ? (size_t)(e - s) + 2 : len;
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

/* --- imports --------------------------------------------------------------------------- */

static const char *const py_import_query =
    "[(import_statement) (import_from_statement) (future_import_statement)] @imp";
static const char *const cpp_import_query = "(preproc_include path: (_) @path) @imp";

typedef struct import_walk {
    syn_import_list *out;
} import_walk;

/* Append one import entry. */
static syn_import *add_import(syn_import_list *l, TSNode at)
{
    syn_import *im = ARRAY_PUSH(l->items, l->n, l->cap);
    memset(im, 0, sizeof *im);
    im->line = syntax_node_line(at);
    im->col = node_col(at);
    return im;
}

/* Split a dotted_name / aliased_import node into name and alias. */
static void name_and_alias(const syntax_doc *d, TSNode n, char **name, char **alias)
{
    if (type_is(n, "aliased_import")) {
        TSNode nm = field(n, "name"), al = field(n, "alias");
        *name = ts_node_is_null(nm) ? xstrdup("") : syntax_node_text(d, nm);
        *alias = ts_node_is_null(al) ? NULL : syntax_node_text(d, al);
    } else {
        *name = syntax_node_text(d, n);
        *alias = NULL;
    }
}

/* Record one Python import statement, one entry per imported name. */
static bool py_import_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    import_walk *w = arg;
    TSNode st = capture(q, m, "imp");
    const char *t = ts_node_type(st);
    uint32_t n;
    kid *ks = children(st, &n);
    if (strcmp(t, "import_statement") == 0) {
        for (uint32_t i = 0; i < n; i++) {
            const char *fn = ks[i].field;
            if (!fn || strcmp(fn, "name") != 0)
                continue;
            TSNode c = ks[i].node;
            syn_import *im = add_import(w->out, c);
            name_and_alias(d, c, &im->module, &im->alias);
        }
        free(ks);
        return true;
    }
    /* from-import: module_name (dotted_name or relative_import), then names or a wildcard */
    char *module = NULL;
    int level = 0;
    if (strcmp(t, "future_import_statement") == 0) {
        module = xstrdup("__future__");
    } else {
        TSNode mn = field(st, "module_name");
        if (type_is(mn, "relative_import")) {
            uint32_t k = ts_node_named_child_count(mn);
            for (uint32_t j = 0; j < k; j++) {
                TSNode c = ts_node_named_child(mn, j);
                if (type_is(c, "import_prefix"))
                    level = (int)(ts_node_end_byte(c) - ts_node_start_byte(c));
                else if (type_is(c, "dotted_name"))
                    module = syntax_node_text(d, c);
            }
            if (!module)
                module = xstrdup("");
        } else {
            module = ts_node_is_null(mn) ? xstrdup("") : syntax_node_text(d, mn);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ks[i].node;
        const char *fn = ks[i].field;
        bool star = type_is(c, "wildcard_import");
        if (!star && (!fn || strcmp(fn, "name") != 0))
            continue;
        syn_import *im = add_import(w->out, c);
        im->module = xstrdup(module);
        im->level = level;
        if (star)
            im->name = xstrdup("*");
        else
            name_and_alias(d, c, &im->name, &im->alias);
    }
    free(ks);
    free(module);
    return true;
}

/* Record one #include. */
static bool cpp_import_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    import_walk *w = arg;
    TSNode st = capture(q, m, "imp"), path = capture(q, m, "path");
    char *raw = syntax_node_text(d, path);
    char *p = str_strip(raw);
    free(raw);
    size_t n = strlen(p);
    syn_import *im = add_import(w->out, st);
    im->is_include = true;
    if (n >= 2 && ((p[0] == '"' && p[n - 1] == '"') || (p[0] == '<' && p[n - 1] == '>'))) {
        im->is_system = p[0] == '<';
        im->module = xstrndup(p + 1, n - 2);
    } else {
        im->module = xstrdup(p); /* #include MACRO */
    }
    free(p);
    return true;
}

/* Every import / #include in the doc. */
void syntax_imports(const syntax_doc *d, syn_import_list *out)
{
    import_walk w = {out};
    char *cause = NULL;
    if (d->lang == SYN_PYTHON) {
        if (syntax_query(d, py_import_query, 0, 0, py_import_match, &w, &cause) < 0)
            query_failed(cause);
    } else if (d->lang == SYN_CPP) {
        if (syntax_query(d, cpp_import_query, 0, 0, cpp_import_match, &w, &cause) < 0)
            query_failed(cause);
    }
}

/* Free an import list's contents and leave it empty. */
void syn_import_list_free(syn_import_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].module);
        free(l->items[i].name);
        free(l->items[i].alias);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* --- comments -------------------------------------------------------------------------- */

typedef struct comment_walk {
    syn_comment_list *out;
    int first_line, last_line;
} comment_walk;

/* Record one comment. */
static bool comment_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    comment_walk *w = arg;
    TSNode c = capture(q, m, "c");
    int line = syntax_node_line(c);
    if ((w->first_line > 0 && line < w->first_line) || (w->last_line > 0 && line > w->last_line))
        return true;
    syn_comment *sc = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    sc->text = syntax_node_text(d, c);
    sc->line = line;
    sc->col = node_col(c);
    sc->end_line = (int)ts_node_end_point(c).row + 1;
    sc->end_col = node_end_col(c);
    return true;
}

/* Every comment starting in a line range. */
void syntax_comments(const syntax_doc *d, int first_line, int last_line, syn_comment_list *out)
{
    comment_walk w = {out, first_line, last_line};
    char *cause = NULL;
    if (d->lang != SYN_NONE && syntax_query(d, "(comment) @c", first_line, last_line, comment_match, &w, &cause) < 0)
        query_failed(cause);
}

/* Free a comment list's contents and leave it empty. */
void syn_comment_list_free(syn_comment_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].text);
    free(l->items);
    memset(l, 0, sizeof *l);
}
