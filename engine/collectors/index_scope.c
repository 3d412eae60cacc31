/* Function scopes for the index-width collector (see index_scope.h): building them from the
 * tree (parameters, assignments, declarations, loop variables) and answering the evaluator's
 * questions about names. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collectors/index_scope.h"
#include "engine/py_outline.h"
#include "engine/syntax.h"
#include "engine/util.h"

/* True when the text contains one of the words (without case). */
static bool mentions_any(const char *text, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcasestr(text, words[i]))
            return true;
    return false;
}

/* Spellings that mark a value as shared memory. */
static const char *const lds_words[] = {"smem", "lds", "shared", "allocator", "get_base", NULL};

/* --- entries -------------------------------------------------------------------------------- */

/* The local entry of scope s named name, or NULL. */
static ix_entry *find_local(ix_scope *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->ents[i].name, name) == 0)
            return &s->ents[i];
    return NULL;
}

/* The entry of s named name, created (declared at line) when absent. The pointer is valid
 * until the next entry is added to s. */
static ix_entry *entry_of(ix_scope *s, const char *name, int line)
{
    ix_entry *e = find_local(s, name);
    if (e)
        return e;
    e = ARRAY_PUSH(s->ents, s->n, s->cap);
    memset(e, 0, sizeof *e);
    e->name = xstrdup(name);
    e->line = line;
    e->param_index = -1;
    return e;
}

/* Mark an entry as the next parameter of s. */
static void make_param(ix_scope *s, ix_entry *e)
{
    if (!e->param)
        e->param_index = s->nparams++;
    e->param = true;
}

/* Record a value bound to the name (creating its entry). */
static ix_entry *add_def(const ix_file *xf, ix_scope *s, TSNode name, TSNode value,
                         ix_def_kind kind)
{
    char *nm = syntax_node_text(xf->d, name);
    int line = syntax_node_line(name);
    ix_entry *e = entry_of(s, nm, line);
    free(nm);
    ix_def *df = ARRAY_PUSH(e->defs, e->ndefs, e->defs_cap);
    df->value = value;
    df->line = line;
    df->kind = kind;
    df->wide = false;
    df->fed = false;
    if (!ts_node_is_null(value) && kind == IX_DEF_VALUE) {
        char *t = syntax_node_text(xf->d, value);
        if (mentions_any(t, lds_words))
            e->lds = true;
        free(t);
        if (syntax_node_is(value, "list") || syntax_node_is(value, "list_comprehension") || syntax_node_is(value, "tuple") ||
            (syntax_node_is(value, "binary_operator") && (syntax_node_is(syntax_node_field(value, "left"), "list") ||
                                              syntax_node_is(syntax_node_field(value, "right"), "list"))))
            e->list = true;
    }
    return e;
}

/* --- Python --------------------------------------------------------------------------------- */

/* True when a Python annotation spells constexpr (`tl.constexpr`, `fx.Constexpr[int]`). */
/* What marks Python device code: a decorator spelling one of these words (any case), or a
 * parameter typed constexpr. The gates (ix_may_touch_device and its unparsed twin) look for the
 * same words, so they never turn away a function ix_build makes device code. */
static const char *const PY_DEVICE_DECORATOR_WORDS[] = {"jit", "kernel", NULL};
#define PY_DEVICE_PARAM_TYPE "constexpr"

static bool is_constexpr_type(const syntax_doc *d, TSNode type)
{
    char *t = syntax_node_text(d, type);
    char *br = strchr(t, '[');
    if (br)
        *br = '\0';
    char *last = strrchr(t, '.');
    char *s = str_strip(last ? last + 1 : t);
    bool c = strcasecmp(s, PY_DEVICE_PARAM_TYPE) == 0;
    free(s);
    free(t);
    return c;
}

/* Read a Python function's parameters into s; *any_constexpr when one is constexpr. */
static void py_params(const ix_file *xf, TSNode fn, ix_scope *s, bool *any_constexpr)
{
    TSNode ps = syntax_node_field(fn, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
        TSNode p = ts_node_named_child(ps, i), name = {{0}, NULL, NULL}, type = name;
        if (syntax_node_is(p, "identifier")) {
            name = p;
        } else if (syntax_node_is(p, "default_parameter") || syntax_node_is(p, "typed_default_parameter")) {
            name = syntax_node_field(p, "name");
            type = syntax_node_field(p, "type");
        } else if (syntax_node_is(p, "typed_parameter")) {
            type = syntax_node_field(p, "type");
            for (uint32_t k = 0; k < ts_node_named_child_count(p); k++) {
                TSNode c = ts_node_named_child(p, k);
                if (syntax_node_is(c, "identifier"))
                    name = c;
                else if ((syntax_node_is(c, "list_splat_pattern") || syntax_node_is(c, "dictionary_splat_pattern")) &&
                         ts_node_named_child_count(c))
                    name = ts_node_named_child(c, 0);
            }
        } else if ((syntax_node_is(p, "list_splat_pattern") || syntax_node_is(p, "dictionary_splat_pattern")) &&
                   ts_node_named_child_count(p)) {
            name = ts_node_named_child(p, 0);
        }
        if (!syntax_node_is(name, "identifier"))
            continue;
        char *nm = syntax_node_text(xf->d, name);
        ix_entry *e = entry_of(s, nm, syntax_node_line(name));
        free(nm);
        make_param(s, e);
        if (!ts_node_is_null(type)) {
            char *tt = syntax_node_text(xf->d, type);
            e->compile_time = is_constexpr_type(xf->d, type) ||
                              !strcmp(tt, "int") || !strcmp(tt, "bool");
            e->wide_decl = ir_wide_type(tt);
            free(tt);
            *any_constexpr |= is_constexpr_type(xf->d, type);
        }
    }
}

/* True when a Python function's decorators mention jit or kernel. */
static bool py_decorated_device(const ix_file *xf, TSNode fn)
{
    TSNode parent = ts_node_parent(fn);
    if (!syntax_node_is(parent, "decorated_definition"))
        return false;
    bool dev = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(parent) && !dev; i++) {
        TSNode dec = ts_node_named_child(parent, i);
        if (!syntax_node_is(dec, "decorator"))
            continue;
        char *t = syntax_node_text(xf->d, dec);
        char *paren = strchr(t, '(');
        if (paren)
            *paren = '\0';
        for (char *p = t; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        for (int k = 0; PY_DEVICE_DECORATOR_WORDS[k] && !dev; k++)
            dev = strstr(t, PY_DEVICE_DECORATOR_WORDS[k]) != NULL;
        free(t);
    }
    return dev;
}

/* True when a call is a range over a loop (`range`, `tl.range`, `static_range`,
 * `range_constexpr`); *bound is its upper bound. */
static bool range_bound(const ix_file *xf, TSNode call, TSNode *bound)
{
    if (!syntax_node_is(call, "call"))
        return false;
    char *fn = syntax_node_text(xf->d, syntax_node_field(call, "function"));
    const char *last = strrchr(fn, '.') ? strrchr(fn, '.') + 1 : fn;
    bool r = strstr(last, "range") != NULL;
    free(fn);
    if (!r)
        return false;
    TSNode args = syntax_node_field(call, "arguments");
    TSNode pos[2];
    int n = 0;
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args) && n < 2;
         i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!syntax_node_is(a, "keyword_argument") && !syntax_node_is(a, "comment"))
            pos[n++] = a;
    }
    if (!n)
        return false;
    *bound = pos[n - 1];
    return true;
}

/* Bind the names of an assignment or loop target (a name, or a tuple of names) to value. */
static void bind_target(const ix_file *xf, ix_scope *s, TSNode target, TSNode value,
                        ix_def_kind kind)
{
    if (syntax_node_is(target, "identifier")) {
        add_def(xf, s, target, value, kind);
        return;
    }
    if (!syntax_node_is(target, "pattern_list") && !syntax_node_is(target, "tuple_pattern") &&
        !syntax_node_is(target, "expression_list") && !syntax_node_is(target, "tuple"))
        return;
    uint32_t nt = ts_node_named_child_count(target);
    bool same = !ts_node_is_null(value) && kind == IX_DEF_VALUE &&
                (syntax_node_is(value, "expression_list") || syntax_node_is(value, "tuple")) &&
                ts_node_named_child_count(value) == nt;
    for (uint32_t i = 0; i < nt; i++) {
        TSNode t = ts_node_named_child(target, i);
        if (same)
            bind_target(xf, s, t, ts_node_named_child(value, i), IX_DEF_VALUE);
        else
            bind_target(xf, s, t, value, kind == IX_DEF_BOUND && i == 0 ? kind : IX_DEF_OPAQUE);
    }
}

static void build_function(ix_file *xf, TSNode fn, ix_scope *parent, const syn_func_list *fns);

/* Collect the bindings of a Python body into s; nested functions get their own scopes. */
static void collect_py(ix_file *xf, ix_scope *s, TSNode n, const syn_func_list *fns)
{
    const char *t = ts_node_type(n);
    if (!strcmp(t, "function_definition")) {
        build_function(xf, n, s, fns);
        return;
    }
    if (!strcmp(t, "lambda"))
        return;
    if (!strcmp(t, "assignment")) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right"), type = syntax_node_field(n, "type");
        if (!ts_node_is_null(right) && syntax_node_is(right, "assignment")) {
            /* a = b = value: bind both to the innermost value */
            TSNode v = right;
            while (syntax_node_is(v, "assignment") && !ts_node_is_null(syntax_node_field(v, "right")))
                v = syntax_node_field(v, "right");
            bind_target(xf, s, left, v, IX_DEF_VALUE);
        } else if (!ts_node_is_null(right)) {
            bind_target(xf, s, left, right, IX_DEF_VALUE);
        }
        if (syntax_node_is(left, "identifier") && !ts_node_is_null(type)) {
            char *nm = syntax_node_text(xf->d, left), *tt = syntax_node_text(xf->d, type);
            ix_entry *e = entry_of(s, nm, syntax_node_line(left));
            e->wide_decl |= ir_wide_type(tt);
            e->compile_time |= is_constexpr_type(xf->d, type);
            free(nm);
            free(tt);
        }
    } else if (!strcmp(t, "augmented_assignment")) {
        TSNode left = syntax_node_field(n, "left");
        if (syntax_node_is(left, "identifier"))
            add_def(xf, s, left, syntax_node_field(n, "right"), IX_DEF_AUG);
    } else if (!strcmp(t, "call") && syntax_node_is(syntax_node_field(n, "function"), "attribute")) {
        /* lst.append(v) / lst.insert(i, v): v is a value of the list */
        TSNode fn = syntax_node_field(n, "function"), obj = syntax_node_field(fn, "object");
        char *m = syntax_node_text(xf->d, syntax_node_field(fn, "attribute"));
        TSNode args = syntax_node_field(n, "arguments");
        uint32_t na = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
        if (syntax_node_is(obj, "identifier") && na && (!strcmp(m, "append") || !strcmp(m, "insert")))
            add_def(xf, s, obj, ts_node_named_child(args, na - 1), IX_DEF_VALUE);
        free(m);
    } else if (!strcmp(t, "named_expression")) {
        add_def(xf, s, syntax_node_field(n, "name"), syntax_node_field(n, "value"), IX_DEF_VALUE);
    } else if (!strcmp(t, "for_statement")) {
        TSNode bound;
        TSNode right = syntax_node_field(n, "right");
        if (range_bound(xf, right, &bound))
            bind_target(xf, s, syntax_node_field(n, "left"), bound, IX_DEF_BOUND);
        else if (syntax_node_is(right, "list") || syntax_node_is(right, "tuple"))
            bind_target(xf, s, syntax_node_field(n, "left"), right, IX_DEF_VALUE); /* one of its items */
        else
            bind_target(xf, s, syntax_node_field(n, "left"), right, IX_DEF_OPAQUE);
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        collect_py(xf, s, ts_node_named_child(n, i), fns);
}

/* --- C++ ------------------------------------------------------------------------------------ */

/* The identifier a C++ declarator declares (through pointers, references, arrays, inits), and
 * whether a pointer or array declarator was passed on the way. */
static TSNode declared_name(TSNode n, bool *pointer, bool *array)
{
    while (!ts_node_is_null(n) && !syntax_node_is(n, "identifier") && !syntax_node_is(n, "field_identifier")) {
        if (syntax_node_is(n, "pointer_declarator") && pointer)
            *pointer = true;
        if (syntax_node_is(n, "array_declarator") && array)
            *array = true;
        TSNode next = syntax_node_field(n, "declarator");
        if (ts_node_is_null(next)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                if (syntax_node_is(ts_node_named_child(n, i), "identifier"))
                    return ts_node_named_child(n, i);
            return (TSNode){{0}, NULL, NULL};
        }
        n = next;
    }
    return n;
}

/* True when a C++ type spelling is a 32-bit-or-narrower integer. */
static bool narrow_int_type(const char *t)
{
    static const char *const narrow[] = {
        "int", "unsigned", "short", "char", "int32_t", "uint32_t", "int16_t", "uint16_t",
        "int8_t", "uint8_t", "index_t", "uint", "int32", "uint32", NULL,
    };
    if (ir_wide_type(t))
        return false;
    const char *last = t;
    for (const char *p = t; *p; p++)
        if (*p == ' ' || *p == ':')
            last = p + 1;
    for (int i = 0; narrow[i]; i++)
        if (!strcmp(last, narrow[i]))
            return true;
    return false;
}

/* Apply a C++ declaration's type to an entry. */
static void cpp_type(const ix_file *xf, ix_entry *e, TSNode type, bool pointer, bool array)
{
    e->pointer |= pointer;
    e->array |= array;
    if (ts_node_is_null(type) || pointer || array)
        return;
    char *tt = syntax_node_text(xf->d, type);
    e->wide_decl |= ir_wide_type(tt);
    e->narrow_decl |= narrow_int_type(tt);
    free(tt);
}

/* Read a C++ function's parameters and template parameters into s. */
static void cpp_params(const ix_file *xf, TSNode fn, ix_scope *s)
{
    TSNode decl = syntax_node_field(fn, "declarator");
    while (!ts_node_is_null(decl) && !syntax_node_is(decl, "function_declarator"))
        decl = syntax_node_field(decl, "declarator");
    TSNode ps = ts_node_is_null(decl) ? decl : syntax_node_field(decl, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
        TSNode p = ts_node_named_child(ps, i);
        if (!syntax_node_is(p, "parameter_declaration") && !syntax_node_is(p, "optional_parameter_declaration"))
            continue;
        bool pointer = false, array = false;
        TSNode name = declared_name(syntax_node_field(p, "declarator"), &pointer, &array);
        if (ts_node_is_null(name))
            continue;
        char *nm = syntax_node_text(xf->d, name);
        ix_entry *e = entry_of(s, nm, syntax_node_line(name));
        free(nm);
        make_param(s, e);
        cpp_type(xf, e, syntax_node_field(p, "type"), pointer, array);
    }
    for (TSNode t = ts_node_parent(fn); syntax_node_is(t, "template_declaration"); t = ts_node_parent(t)) {
        TSNode tl = syntax_node_field(t, "parameters");
        for (uint32_t i = 0; !ts_node_is_null(tl) && i < ts_node_named_child_count(tl); i++) {
            TSNode p = ts_node_named_child(tl, i);
            TSNode name = syntax_node_is(p, "parameter_declaration") || syntax_node_is(p, "optional_parameter_declaration")
                              ? declared_name(syntax_node_field(p, "declarator"), NULL, NULL)
                              : syntax_node_field(p, "name");
            if (!syntax_node_is(name, "identifier") && !syntax_node_is(name, "type_identifier"))
                continue;
            char *nm = syntax_node_text(xf->d, name);
            ix_entry *e = entry_of(s, nm, syntax_node_line(name));
            free(nm);
            e->param = e->compile_time = true;
        }
    }
}

/* Collect a C++ declaration's names (with their types and values) into s. */
static void cpp_declaration(ix_file *xf, ix_scope *s, TSNode n)
{
    char *text = syntax_node_text(xf->d, n);
    bool shared = strstr(text, "__shared__") != NULL;
    /* HIP's __shared__ is blanked before parsing, so it sits just before the node */
    size_t llen = 0;
    const char *line = syntax_line_text(xf->d, syntax_node_line(n), &llen);
    uint32_t col = ts_node_start_point(n).column;
    if (line && col <= llen) {
        char *before = xstrndup(line, col);
        shared |= strstr(before, "__shared__") != NULL;
        free(before);
    }
    bool ce = false;
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        TSNode c = ts_node_child(n, i);
        if (syntax_node_is(c, "type_qualifier") || syntax_node_is(c, "storage_class_specifier")) {
            char *q = syntax_node_text(xf->d, c);
            ce |= !strcmp(q, "constexpr");
            free(q);
        }
    }
    free(text);
    TSNode type = syntax_node_field(n, "type");
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (ts_node_eq(c, type) || syntax_node_is(c, "type_qualifier") || syntax_node_is(c, "storage_class_specifier") ||
            syntax_node_is(c, "attribute_specifier") || syntax_node_is(c, "comment"))
            continue;
        bool pointer = false, array = false;
        TSNode name = declared_name(c, &pointer, &array);
        if (ts_node_is_null(name) || !syntax_node_is(name, "identifier"))
            continue;
        TSNode value = syntax_node_is(c, "init_declarator") ? syntax_node_field(c, "value") : (TSNode){{0}, NULL, NULL};
        if (syntax_node_is(value, "argument_list") || syntax_node_is(value, "initializer_list"))
            value = ts_node_named_child_count(value) == 1 ? ts_node_named_child(value, 0) : value;
        ix_entry *e;
        if (!ts_node_is_null(value)) {
            e = add_def(xf, s, name, value, IX_DEF_VALUE);
        } else {
            char *nm = syntax_node_text(xf->d, name);
            e = entry_of(s, nm, syntax_node_line(name));
            free(nm);
        }
        cpp_type(xf, e, type, pointer, array);
        e->lds |= shared;
        e->compile_time |= ce;
    }
}

/* Collect the bindings of a C++ body into s. */
static void collect_cpp(ix_file *xf, ix_scope *s, TSNode n)
{
    const char *t = ts_node_type(n);
    if (!strcmp(t, "lambda_expression") || !strcmp(t, "function_definition"))
        return;
    if (!strcmp(t, "declaration")) {
        cpp_declaration(xf, s, n);
    } else if (!strcmp(t, "assignment_expression")) {
        TSNode left = syntax_node_field(n, "left");
        if (syntax_node_is(left, "identifier") ||
            (syntax_node_is(left, "field_expression") && syntax_node_is(syntax_node_field(left, "argument"), "identifier")))
            add_def(xf, s, left, syntax_node_field(n, "right"),
                    strcmp(syntax_node_operator(n), "=") == 0 ? IX_DEF_VALUE : IX_DEF_AUG);
    } else if (!strcmp(t, "for_statement")) {
        /* the initializer first (it declares the variable), then the bound in the condition */
        TSNode init = syntax_node_field(n, "initializer");
        if (!ts_node_is_null(init))
            collect_cpp(xf, s, init);
        TSNode cond = syntax_node_field(n, "condition");
        if (syntax_node_is(cond, "binary_expression") && syntax_node_is(syntax_node_field(cond, "left"), "identifier") &&
            (!strcmp(syntax_node_operator(cond), "<") || !strcmp(syntax_node_operator(cond), "<=") ||
             !strcmp(syntax_node_operator(cond), "!="))) {
            char *nm = syntax_node_text(xf->d, syntax_node_field(cond, "left"));
            if (find_local(s, nm))
                add_def(xf, s, syntax_node_field(cond, "left"), syntax_node_field(cond, "right"), IX_DEF_BOUND);
            free(nm);
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode c = ts_node_named_child(n, i);
            if (!ts_node_eq(c, init))
                collect_cpp(xf, s, c);
        }
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        collect_cpp(xf, s, ts_node_named_child(n, i));
}

/* --- building -------------------------------------------------------------------------------- */

/* Build the scope of one function (and, through its body, of the functions nested in it). */
static void build_function(ix_file *xf, TSNode fn, ix_scope *parent, const syn_func_list *fns)
{
    ix_scope *s = xcalloc(1, sizeof *s);
    s->parent = parent;
    s->fn = fn;
    s->first_line = syntax_node_line(fn);
    s->last_line = syntax_node_end_line(fn);
    *ARRAY_PUSH(xf->scopes, xf->n, xf->cap) = s;
    TSNode name;
    if (xf->py) {
        name = syntax_node_field(fn, "name");
    } else {
        name = declared_name(syntax_node_field(fn, "declarator"), NULL, NULL);
    }
    s->fname = ts_node_is_null(name) ? xstrdup("?") : syntax_node_text(xf->d, name);
    if (xf->py) {
        bool any_ce = false;
        py_params(xf, fn, s, &any_ce);
        /* a new way to be device code goes into ix_may_touch_device too */
        s->device = (parent && parent->device) || any_ce || py_decorated_device(xf, fn);
    } else {
        cpp_params(xf, fn, s);
        for (size_t i = 0; fns && i < fns->n; i++)
            if (fns->items[i].end_byte == ts_node_end_byte(fn)) {
                s->device = fns->items[i].is_kernel || fns->items[i].is_device;
                s->kernel = fns->items[i].is_kernel;
            }
    }
    TSNode body = syntax_node_field(fn, "body");
    if (ts_node_is_null(body))
        return;
    if (xf->py)
        collect_py(xf, s, body, fns);
    else
        collect_cpp(xf, s, body);
}

/* Walk the top of a file (namespaces, classes, templates) for functions. */
static void build_top(ix_file *xf, TSNode n, ix_scope *parent, const syn_func_list *fns)
{
    /* a cursor over the children: the i-th named child is found by walking the first i, and
     * a module holds hundreds of definitions */
    TSTreeCursor cur = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        if (!ts_node_is_named(c))
            continue;
        if (syntax_node_is(c, "function_definition"))
            build_function(xf, c, parent, fns);
        else if (!syntax_node_is(c, "comment") && !syntax_node_is(c, "expression_statement") && !syntax_node_is(c, "string"))
            build_top(xf, c, parent, fns);
    }
    ts_tree_cursor_delete(&cur);
}

/* True when scope a is s or encloses it. */
static bool encloses(const ix_scope *a, const ix_scope *s)
{
    for (; s; s = s->parent)
        if (s == a)
            return true;
    return false;
}

ix_scope *ix_callee(const ix_file *xf, ix_scope *s, TSNode call, int *shift)
{
    TSNode fn = syntax_node_field(call, "function");
    bool self = false;
    if (syntax_node_is(fn, "attribute")) {
        char *obj = syntax_node_text(xf->d, syntax_node_field(fn, "object"));
        self = !strcmp(obj, "self");
        free(obj);
        if (!self)
            return NULL;
        fn = syntax_node_field(fn, "attribute");
    } else if (syntax_node_is(fn, "template_function")) {
        fn = syntax_node_field(fn, "name");
    }
    if (!syntax_node_is(fn, "identifier"))
        return NULL;
    char *nm = syntax_node_text(xf->d, fn);
    ix_scope *best = NULL;
    for (size_t i = 0; i < xf->n; i++) {
        ix_scope *c = xf->scopes[i];
        if (strcmp(c->fname, nm) != 0 || (c->parent && !encloses(c->parent, s)))
            continue;
        if (!best || (c->parent && (!best->parent || encloses(best->parent, c->parent))))
            best = c;
    }
    free(nm);
    if (best && shift) {
        ix_entry *first = NULL;
        for (size_t i = 0; i < best->n; i++)
            if (best->ents[i].param_index == 0)
                first = &best->ents[i];
        *shift = self && first && !strcmp(first->name, "self") ? 1 : 0;
    }
    return best;
}

TSNode ix_call_arg(const ix_file *xf, const ix_call *c, const ix_entry *e)
{
    TSNode args = syntax_node_field(c->call, "arguments");
    int pos = 0;
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (syntax_node_is(a, "comment"))
            continue;
        if (syntax_node_is(a, "keyword_argument")) {
            char *k = syntax_node_text(xf->d, syntax_node_field(a, "name"));
            bool match = !strcmp(k, e->name);
            free(k);
            if (match)
                return syntax_node_field(a, "value");
            continue;
        }
        if (syntax_node_is(a, "list_splat") || syntax_node_is(a, "dictionary_splat"))
            return (TSNode){{0}, NULL, NULL};
        if (pos + c->shift == e->param_index)
            return a;
        pos++;
    }
    return (TSNode){{0}, NULL, NULL};
}

/* Record the calls of the file's functions made in a body (not in nested functions). */
static void collect_calls(ix_file *xf, ix_scope *s, TSNode n)
{
    if (syntax_node_is(n, "function_definition") || syntax_node_is(n, "lambda") || syntax_node_is(n, "lambda_expression") ||
        syntax_node_is(n, "class_definition"))
        return;
    if (syntax_node_is(n, "call") || syntax_node_is(n, "call_expression")) {
        int shift = 0;
        ix_scope *callee = ix_callee(xf, s, n, &shift);
        if (callee) {
            ix_call *c = ARRAY_PUSH(xf->calls, xf->ncalls, xf->calls_cap);
            c->call = n;
            c->caller = s;
            c->callee = callee;
            c->shift = shift;
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        collect_calls(xf, s, ts_node_named_child(n, i));
}

/* True when an expression is a view of, a cast of or a pointer into a shared-memory entry
 * seen from scope s (`reinterpret_cast<float *>(s_k)`, `lds.s_k.peek().view(...)`). */
static bool lds_view(const ix_file *xf, ix_scope *s, TSNode n)
{
    for (int guard = 0; guard < 16 && !ts_node_is_null(n); guard++) {
        if (syntax_node_is(n, "identifier")) {
            ix_entry *e = ix_resolve_node(xf, s, n, NULL);
            return e && e->lds;
        }
        if (syntax_node_is(n, "parenthesized_expression") && ts_node_named_child_count(n))
            n = ts_node_named_child(n, 0);
        else if (syntax_node_is(n, "cast_expression"))
            n = syntax_node_field(n, "value");
        else if (syntax_node_is(n, "attribute"))
            n = syntax_node_field(n, "object");
        else if (syntax_node_is(n, "field_expression") || syntax_node_is(n, "subscript_expression") ||
                 syntax_node_is(n, "pointer_expression"))
            n = syntax_node_field(n, "argument");
        else if (syntax_node_is(n, "subscript"))
            n = syntax_node_field(n, "value");
        else if (syntax_node_is(n, "binary_expression") || syntax_node_is(n, "binary_operator"))
            n = syntax_node_field(n, "left"); /* pointer + offset */
        else if (syntax_node_is(n, "call") && syntax_node_is(syntax_node_field(n, "function"), "attribute"))
            n = syntax_node_field(syntax_node_field(n, "function"), "object");
        else if (syntax_node_is(n, "call_expression") && syntax_node_is(syntax_node_field(n, "function"), "template_function") &&
                 ts_node_named_child_count(syntax_node_field(n, "arguments")))
            n = ts_node_named_child(syntax_node_field(n, "arguments"), 0);
        else
            return false;
    }
    return false;
}

/* True when every call of s in the file passes shared memory for pointer parameter e (and
 * there is at least one such call). */
static bool lds_everywhere(const ix_file *xf, ix_scope *s, const ix_entry *e)
{
    bool any = false;
    for (size_t i = 0; i < xf->ncalls; i++) {
        const ix_call *c = &xf->calls[i];
        if (c->callee != s)
            continue;
        TSNode a = ix_call_arg(xf, c, e);
        if (ts_node_is_null(a) || !lds_view(xf, c->caller, a))
            return false;
        any = true;
    }
    return any;
}

/* A pointer or view built from shared memory is shared memory (`s_A = (float *)s_k`); so is a
 * helper's pointer parameter every caller passes shared memory to. */
static void spread_lds(ix_file *xf)
{
    bool grew = true;
    for (int pass = 0; grew && pass < 8; pass++) {
        grew = false;
        for (size_t i = 0; i < xf->n; i++) {
            ix_scope *s = xf->scopes[i];
            for (size_t k = 0; k < s->n; k++) {
                ix_entry *e = &s->ents[k];
                if (!e->lds && e->param && e->pointer && lds_everywhere(xf, s, e))
                    e->lds = grew = true;
                for (size_t j = 0; !e->lds && j < e->ndefs; j++)
                    if (e->defs[j].kind == IX_DEF_VALUE && !ts_node_is_null(e->defs[j].value) &&
                        lds_view(xf, s, e->defs[j].value))
                        e->lds = grew = true;
            }
        }
    }
}

/* True when text[0..len) holds word, in any case. */
static bool holds_word_anycase(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if (strncasecmp(text + i, word, n) == 0)
            return true;
    return false;
}

/* True when text[0, len) holds one of the NULL-terminated words, in any case. */
static bool holds_any_anycase(const char *text, size_t len, const char *const *words)
{
    for (int k = 0; words[k]; k++)
        if (holds_word_anycase(text, len, words[k]))
            return true;
    return false;
}

/* True when lines [first, last] of d hold one of the words, in any case. */
static bool lines_hold_anycase(const syntax_doc *d, int first, int last, const char *const *words)
{
    if (first < 1 || first > last || first > d->nlines)
        return false;
    size_t a = syntax_line_start(d, first);
    size_t b = last < d->nlines ? syntax_line_start(d, last + 1) : d->len;
    return b > a && holds_any_anycase(d->text + a, b - a, words);
}

/* True when a line of [first, last] is marked in added[1..nlines]. */
static bool any_added(const bool *added, int nlines, int first, int last)
{
    for (int l = first < 1 ? 1 : first; l <= last && l <= nlines; l++)
        if (added[l])
            return true;
    return false;
}

bool ix_may_touch_device(const syntax_doc *d, const syn_func_list *fns, const bool *added,
                         int nlines)
{
    for (size_t i = 0; i < fns->n; i++) {
        /* an enclosing function holds the line too, so each is asked for its own marks (the
         * words py_decorated_device and py_params look for; C++ takes fns' flags as is) */
        const syn_func *fn = &fns->items[i];
        if (!any_added(added, nlines, fn->start_line, fn->end_line))
            continue;
        static const char *const param_type[] = {PY_DEVICE_PARAM_TYPE, NULL};
        if (d->lang == SYN_CPP ? fn->is_kernel || fn->is_device
                               : lines_hold_anycase(d, fn->start_line, fn->name_line - 1,
                                                    PY_DEVICE_DECORATOR_WORDS) ||
                                     lines_hold_anycase(d, fn->name_line, fn->body_line, param_type))
            return true;
    }
    return false;
}

bool ix_may_touch_device_unparsed(const py_outline *o, const char *text, const bool *added,
                                  int nlines)
{
    for (size_t i = 0; i < o->ndefs; i++) {
        const py_def *fn = &o->defs[i];
        if (!any_added(added, nlines, fn->first_line, fn->end_line))
            continue;
        /* the header up to the first line of the body (past blank and comment lines) */
        int body = fn->header_end + 1;
        while (body <= o->nlines && o->indent[body] < 0)
            body++;
        if (body > o->nlines)
            body = o->nlines;
        size_t d0 = o->line_off[fn->first_line], d1 = o->line_off[fn->name_line];
        size_t h0 = d1, h1 = o->line_off[body + 1];
        if (holds_any_anycase(text + d0, d1 - d0, PY_DEVICE_DECORATOR_WORDS) ||
            holds_word_anycase(text + h0, h1 - h0, PY_DEVICE_PARAM_TYPE))
            return true;
    }
    return false;
}

void ix_build(ix_file *xf, const syntax_doc *d, const syn_func_list *fns, ir_domain domain)
{
    memset(xf, 0, sizeof *xf);
    xf->d = d;
    xf->py = d->lang == SYN_PYTHON;
    xf->domain = domain;
    build_top(xf, ts_tree_root_node(d->tree), NULL, fns);
    for (size_t i = 0; i < xf->n; i++) {
        TSNode body = syntax_node_field(xf->scopes[i]->fn, "body");
        if (!ts_node_is_null(body))
            collect_calls(xf, xf->scopes[i], body);
    }
    spread_lds(xf);
}

void ix_file_free(ix_file *xf)
{
    for (size_t i = 0; i < xf->n; i++) {
        ix_scope *s = xf->scopes[i];
        for (size_t k = 0; k < s->n; k++) {
            free(s->ents[k].name);
            free(s->ents[k].defs);
        }
        free(s->ents);
        free(s->fname);
        free(s);
    }
    free(xf->scopes);
    free(xf->calls);
    memset(xf, 0, sizeof *xf);
}

ix_entry *ix_resolve(const ix_file *xf, ix_scope *s, const char *name, ix_scope **owner)
{
    (void)xf;
    for (; s; s = s->parent) {
        ix_entry *e = find_local(s, name);
        if (e) {
            if (owner)
                *owner = s;
            return e;
        }
    }
    return NULL;
}

ix_entry *ix_resolve_node(const ix_file *xf, ix_scope *s, TSNode ident, ix_scope **owner)
{
    /* compared in place (no copy: this is asked for every identifier of every walk), up to a
     * NUL as a copy of the node's text would be */
    uint32_t b = ts_node_start_byte(ident), e = ts_node_end_byte(ident);
    if (e > xf->d->len)
        e = (uint32_t)xf->d->len;
    if (b > e)
        b = e;
    const char *t = xf->d->text + b;
    size_t len = strnlen(t, e - b);
    char first = len ? t[0] : '\0';
    for (; s; s = s->parent)
        for (size_t i = 0; i < s->n; i++) {
            const char *nm = s->ents[i].name;
            /* the first byte turns most names away before a comparison is called */
            if (nm[0] == first && strncmp(nm, t, len) == 0 && nm[len] == '\0') {
                if (owner)
                    *owner = s;
                return &s->ents[i];
            }
        }
    return NULL;
}

ix_scope *ix_kernel_of(ix_scope *s)
{
    ix_scope *k = s;
    for (ix_scope *p = s; p; p = p->parent)
        if (p->device)
            k = p;
    return k;
}

/* --- values of names ------------------------------------------------------------------------- */

typedef struct ix_ctx {
    const ix_file *xf;
    ix_scope *s;
} ix_ctx;

static ir_val ident_value(void *ctx, TSNode ident, int depth);
static bool field_value(void *ctx, TSNode member, int depth, ir_val *out);

/* Evaluate an expression of scope s. */
static ir_val eval_in(const ix_file *xf, ix_scope *s, TSNode n, int depth)
{
    ix_ctx c = {xf, s};
    ir_env env = {xf->d, xf->py, xf->domain, ident_value, field_value, &c};
    return ir_eval(&env, n, depth);
}

/* A parameter's value: what the file's calls of its function pass it (bounded by what its
 * name says), or what its name says when the file never calls the function. */
static ir_val param_value(const ix_file *xf, ix_scope *owner, ix_entry *e, const ir_name *cls,
                          ir_val by_name, int depth)
{
    ir_val m = ir_val_of(0, false);
    bool any = false, all_wide = true;
    for (size_t i = 0; i < xf->ncalls; i++) {
        const ix_call *c = &xf->calls[i];
        if (c->callee != owner)
            continue;
        TSNode a = ix_call_arg(xf, c, e);
        if (ts_node_is_null(a))
            return by_name; /* a default or a splat: not every value is seen */
        ir_val x = eval_in(xf, c->caller, a, depth);
        all_wide &= x.wide;
        if (!any) {
            m = x;
        } else {
            if (x.bits > m.bits)
                m.bits = x.bits, m.role = x.role, m.stride = x.stride;
            m.runtime |= x.runtime;
            m.nonint &= x.nonint;
            m.opaque |= x.opaque;
            m.grid |= x.grid;
        }
        any = true;
    }
    if (!any)
        return by_name;
    if (cls->known && !cls->offsetish && (!cls->stride || cls->role != IR_UNKNOWN || xf->domain == IR_DOMAIN_CONV) &&
        m.bits > cls->bits)
        m.bits = cls->bits;
    if (cls->known)
        m.role = cls->role, m.stride = cls->stride;
    m.wide = all_wide;
    m.key_start = m.key_end = 0;
    return m;
}

/* The value one binding gives (memoised on the binding; a cycle gets fallback). */
static ir_val def_value(const ix_file *xf, ix_scope *owner, ix_def *df, ir_val fallback,
                        int depth)
{
    if (df->state == 2)
        return df->val;
    if (df->state == 1)
        return fallback;
    df->state = 1;
    ir_val x;
    if (df->kind == IX_DEF_OPAQUE || ts_node_is_null(df->value)) {
        x = ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
        x.opaque = true;
    } else {
        x = eval_in(xf, owner, df->value, depth);
    }
    df->wide = x.wide;
    if (df->kind == IX_DEF_AUG && x.bits)
        x.bits++;
    df->val = x;
    df->state = 2;
    return x;
}

/* True when binding i of e is one the value at a use on line could come from: the latest
 * plain binding before the line (a loop bound on the line itself counts) and every compound
 * one; every binding when none comes before. */
static bool def_reaches(const ix_entry *e, size_t i, int line)
{
    if (line <= 0 || e->defs[i].kind == IX_DEF_AUG)
        return true;
    const ix_def *best = NULL;
    for (size_t k = 0; k < e->ndefs; k++) {
        const ix_def *d = &e->defs[k];
        bool before = d->kind == IX_DEF_BOUND ? d->line <= line : d->line < line;
        if (d->kind != IX_DEF_AUG && before && (!best || d->line >= best->line))
            best = d;
    }
    return !best || best == &e->defs[i];
}

/* The value of an entry of scope owner at a use on line (0: over all its bindings). */
static ir_val entry_value(const ix_file *xf, ix_scope *owner, ix_entry *e, int line, int depth)
{
    ir_name cls;
    ir_classify(e->name, e->compile_time || !owner->device, xf->domain, &cls);
    ir_val v = ir_val_of(cls.bits, !e->compile_time);
    v.role = cls.role;
    v.stride = cls.stride;
    if (e->param) {
        if (e->state == 2)
            return e->val;
        if (e->state == 1 || e->compile_time)
            return v; /* a cycle through its own calls: what its name says */
        e->state = 1;
        e->val = param_value(xf, owner, e, &cls, v, depth);
        e->state = 2;
        return e->val;
    }
    if (!e->ndefs)
        return v;
    ir_val m = ir_val_of(0, false);
    bool any = false, bounded = false, opaque = false;
    int bound_bits = 0;
    for (size_t i = 0; i < e->ndefs; i++) {
        if (!def_reaches(e, i, line))
            continue;
        ix_def *df = &e->defs[i];
        ir_val x = def_value(xf, owner, df, v, depth);
        if (df->kind == IX_DEF_BOUND) {
            bounded = true;
            bound_bits = x.bits > bound_bits ? x.bits : bound_bits;
        }
        opaque |= x.opaque;
        if (!any) {
            m = x;
        } else {
            if (x.bits > m.bits)
                m.bits = x.bits, m.role = x.role, m.stride = x.stride;
            m.runtime |= x.runtime;
            m.nonint &= x.nonint;
            m.opaque |= x.opaque;
            m.grid |= x.grid;
        }
        any = true;
    }
    if (bounded)
        m.bits = bound_bits;
    else if (opaque && cls.known)
        m.bits = cls.bits;
    else if (cls.known && (!cls.by_letter || cls.role == IR_DIM || cls.role == IR_HEAD) &&
             !cls.offsetish && (!cls.stride || cls.role != IR_UNKNOWN || xf->domain == IR_DOMAIN_CONV) && m.bits > cls.bits)
        m.bits = cls.bits; /* bounded by the axis its name indexes or strides over (a letter
                              only for the small axes it names: `v`, `d`, `h`) */
    /* a block index computed from the grid, not read from a block table, is a workgroup */
    if (cls.known && !(cls.role == IR_BLOCK && !opaque))
        m.role = cls.role, m.stride = cls.stride;
    if (e->compile_time)
        m.runtime = false;
    m.key_start = m.key_end = 0;
    m.wide = false;
    return m;
}

/* Whether a local is 64-bit where it is used: its declaration, else the latest value bound
 * to it before the line (the first one when none is before). */
static bool wide_at(const ix_entry *e, int line)
{
    if (e->narrow_decl)
        return false;
    if (e->wide_decl)
        return true;
    if (e->param)
        return e->state == 2 && e->val.wide;
    if (!e->ndefs)
        return false;
    const ix_def *best = NULL;
    for (size_t i = 0; i < e->ndefs; i++)
        if (e->defs[i].line < line && (!best || e->defs[i].line >= best->line))
            best = &e->defs[i];
    if (!best)
        best = &e->defs[0];
    return best->wide;
}

/* The evaluator's question: the value of an identifier used in the context's scope. */
static ir_val ident_value(void *ctx, TSNode ident, int depth)
{
    ix_ctx *c = ctx;
    ix_scope *owner = NULL;
    ix_entry *e = ix_resolve_node(c->xf, c->s, ident, &owner);
    ir_val v;
    if (!e) {
        /* a module constant, a macro, a builtin: fixed when the kernel is built */
        char *nm = syntax_node_text(c->xf->d, ident);
        ir_name cls;
        ir_classify(nm, true, c->xf->domain, &cls);
        free(nm);
        v = ir_val_of(cls.bits, false);
        v.role = cls.role;
        v.stride = cls.stride;
        return v;
    }
    v = entry_value(c->xf, owner, e, syntax_node_line(ident), depth);
    v.wide = wide_at(e, syntax_node_line(ident));
    if (!owner->device && c->s->device) {
        /* a Python value of the host builder: a constant of the kernel, of the op's width */
        v.runtime = false;
        v.wide = false;
    }
    ir_name cls;
    ir_classify(e->name, true, c->xf->domain, &cls);
    if (cls.floatish)
        v.nonint = true;
    if (v.runtime) {
        v.key_start = ts_node_start_byte(ident);
        v.key_end = ts_node_end_byte(ident);
        v.key_bits = v.bits;
        v.key_size = cls.size_like;
    }
    return v;
}

/* The evaluator's question about a member access: a tracked struct field of a local. */
static bool field_value(void *ctx, TSNode member, int depth, ir_val *out)
{
    ix_ctx *c = ctx;
    if (c->xf->py)
        return false;
    if (!ix_resolve_node(c->xf, c->s, member, NULL))
        return false;
    *out = ident_value(ctx, member, depth);
    return true;
}

ir_val ix_eval(const ix_file *xf, ix_scope *s, TSNode n)
{
    return eval_in(xf, s, n, 0);
}
