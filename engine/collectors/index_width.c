/* The index-width collector (rule D9): on the lines a change adds to device code, a product
 * that feeds pointer or index arithmetic, where a factor is a runtime kernel parameter and
 * nothing widens the product to 64 bits, so it wraps once the tensor passes 2^31 elements
 * (aiter#3844's `token_id * num_heads * head_dim`, the moe_wgrad offsets of aiter#4978).
 *
 * The check is structural, never a list of suspicious names (a name list found none of
 * aiter#4978's four real lines among 390 candidates):
 *   - device code is a Python function with a `constexpr`-annotated parameter or a decorator
 *     spelled with "jit" or "kernel" (Triton, Gluon, FlyDSL), a C++ `__global__`/`__device__`
 *     function, or anything nested in one; other functions are host code, reported as Hints;
 *   - runtime parameters are the function's (and enclosing functions') parameters that are
 *     not `constexpr` (C++: not template parameters); compile-time names are constexpr
 *     parameters, template parameters, `constexpr` locals and locals only ever assigned
 *     compile-time values, where an arange of constexpr bounds and threadIdx count as bounded
 *     (program_id, blockIdx and loads do not);
 *   - a product is the whole chain of `*` factors; it feeds index arithmetic when it is an
 *     operand of `+`/`-`, the value of `+=`/`-=`, a subscript index, or the value of a local
 *     that is later used in one of those places;
 *   - it is reported when at least two factors are not compile-time, a factor names a runtime
 *     parameter directly (not as the object of an attribute or a call), and nothing widens it:
 *     no 64-bit type or cast inside it (int64, int64_t, i64, long, size_t, `.to(tl.int64)`,
 *     `static_cast<int64_t>`, ...), no factor that is a 64-bit parameter, and no factor that is
 *     a local widened on an earlier line (also through another widened local).
 * Only products with an added line are reported, once (not again for a product nested in a
 * reported one); the finding covers the product exactly and names the runtime parameters in
 * it. Host products are Hints, and in Python only in files that hold a kernel, since Python
 * integers do not wrap until they become a kernel's offset. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collector.h"
#include "engine/syntax.h"

/* Spellings (compared without case) of the 64-bit types and casts that widen a product. */
static const char *const wide_words[] = {
    "int64", "int64_t", "uint64", "uint64_t", "i64", "long", "size_t", "ssize_t",
    "ptrdiff_t", "intptr_t", "uintptr_t", "index_t64", "long_index_t", NULL,
};

/* A set of names; a widened local also records the line it was widened on. */
typedef struct name_set {
    char **names;
    int *lines;
    size_t n, cap, lcap;
} name_set;

/* Add a name (with a line) unless present; keeps the earliest line. */
static void set_add(name_set *s, const char *name, int line)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) {
            if (line < s->lines[i])
                s->lines[i] = line;
            return;
        }
    *ARRAY_PUSH(s->names, s->n, s->cap) = xstrdup(name);
    grow_array((void **)&s->lines, &s->lcap, s->n, sizeof *s->lines);
    s->lines[s->n - 1] = line;
}

/* The line a name was added with, or -1 when absent. */
static int set_line(const name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return s->lines[i];
    return -1;
}

/* Free a set's contents. */
static void set_free(name_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->lines);
    memset(s, 0, sizeof *s);
}

/* Copy every name of src into dst. */
static void set_union(name_set *dst, const name_set *src)
{
    for (size_t i = 0; i < src->n; i++)
        set_add(dst, src->names[i], src->lines[i]);
}

/* What one function scope knows about its names. */
typedef struct scope {
    bool device;
    const char *fname;
    name_set runtime;     /* runtime parameters (line: the parameter's) */
    name_set consts;      /* compile-time names */
    name_set widened;     /* 64-bit parameters (line 0) and widened locals (their line) */
    name_set fed;         /* locals used in index arithmetic (line: first use) */
    name_set ct_ok;       /* locals assigned a compile-time (bounded) value somewhere */
    name_set ct_bad;      /* locals assigned anything else, or advanced with += */
} scope;

/* Free a scope's sets. */
static void scope_free(scope *s)
{
    set_free(&s->runtime);
    set_free(&s->consts);
    set_free(&s->widened);
    set_free(&s->fed);
    set_free(&s->ct_ok);
    set_free(&s->ct_bad);
}

typedef struct file_run {
    collector_ctx *ctx;
    const change_file *f;
    bool *added;          /* added[line] for head lines 1..nlines */
    int nlines;
    bool has_device;      /* the file defines some device function */
    uint32_t *spans;      /* byte spans already reported (start, end pairs) */
    size_t nspans, spans_cap;
    const syntax_doc *d;
    const syn_func_list *fns;
    bool py;
    int device_hits, host_hits;
} file_run;

/* --- small tree helpers -------------------------------------------------------------------- */

/* True when n has the given type. */
static bool is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

/* A named field of n. */
static TSNode fld(TSNode n, const char *name)
{
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/* The operator token of a binary or assignment node, as text ("" when none). */
static const char *op_of(TSNode n)
{
    TSNode o = fld(n, "operator");
    return ts_node_is_null(o) ? "" : ts_node_type(o);
}

/* True when the node's text equals one of the wide words (without case). */
static bool is_wide_word(const char *s)
{
    for (int i = 0; wide_words[i]; i++)
        if (strcasecmp(s, wide_words[i]) == 0)
            return true;
    return false;
}

/* True when a leaf is a name-like token (identifier, type, field, primitive type). */
static bool is_name_leaf(TSNode n)
{
    const char *t = ts_node_type(n);
    return strcmp(t, "identifier") == 0 || strcmp(t, "type_identifier") == 0 ||
           strcmp(t, "field_identifier") == 0 || strcmp(t, "primitive_type") == 0 ||
           strcmp(t, "namespace_identifier") == 0 || strcmp(t, "long") == 0;
}

/* True when some name in the subtree is a 64-bit type or cast spelling. */
static bool widens(const syntax_doc *d, TSNode n)
{
    if (ts_node_child_count(n) == 0 || is(n, "primitive_type") || is(n, "sized_type_specifier")) {
        if (!is_name_leaf(n) && !is(n, "sized_type_specifier"))
            return false;
        char *t = syntax_node_text(d, n);
        bool w = is_wide_word(t) || (is(n, "sized_type_specifier") && str_contains(t, "long"));
        free(t);
        return w;
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++)
        if (widens(d, ts_node_child(n, i)))
            return true;
    return false;
}

/* True when some identifier in the subtree is in the set with a line before `before`
 * (before <= 0: any line). */
static bool mentions(const syntax_doc *d, TSNode n, const name_set *s, int before)
{
    if (is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        int l = set_line(s, t);
        free(t);
        return l >= 0 && (before <= 0 || l < before);
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (mentions(d, ts_node_named_child(n, i), s, before))
            return true;
    return false;
}

/* Add to out the identifiers of the subtree that are in s and are used as values (not the
 * object of an attribute or field access, not a callee, not an attribute name). */
static void value_names(const syntax_doc *d, TSNode n, const name_set *s, name_set *out)
{
    if (is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        if (set_line(s, t) >= 0)
            set_add(out, t, 0);
        free(t);
        return;
    }
    if (is(n, "attribute") || is(n, "field_expression"))
        return;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if ((is(n, "call") || is(n, "call_expression")) && ts_node_eq(c, fld(n, "function")))
            continue;
        value_names(d, c, s, out);
    }
}

/* True when every value name in the subtree is compile-time (or there is none); a callee
 * (`tl.arange` in `tl.arange(0, BLOCK)`) is not a value. */
static bool compile_time(const syntax_doc *d, TSNode n, const scope *sc)
{
    if (is(n, "call") || is(n, "call_expression")) {
        /* only an arange is bounded by its (compile-time) arguments; any other call, such as
         * program_id, yields a runtime value */
        TSNode fn = fld(n, "function"), args = fld(n, "arguments");
        char *callee = ts_node_is_null(fn) ? xstrdup("") : syntax_node_text(d, fn);
        const char *dot = strrchr(callee, '.');
        bool arange = strcmp(dot ? dot + 1 : callee, "arange") == 0;
        free(callee);
        return arange && (ts_node_is_null(args) || compile_time(d, args, sc));
    }
    if (is(n, "field_expression")) {
        /* threadIdx.x is bounded by the block size, like an arange */
        TSNode arg = fld(n, "argument");
        if (is(arg, "identifier")) {
            char *t = syntax_node_text(d, arg);
            bool tid = strcmp(t, "threadIdx") == 0;
            free(t);
            if (tid)
                return true;
        }
    }
    if (is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        bool c = set_line(&sc->consts, t) >= 0 ||
                 (set_line(&sc->ct_ok, t) >= 0 && set_line(&sc->ct_bad, t) < 0);
        free(t);
        return c;
    }
    if (is(n, "field_identifier"))
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (!compile_time(d, ts_node_named_child(n, i), sc))
            return false;
    return true;
}

/* Strip parentheses around an expression. */
static TSNode unparen(TSNode n)
{
    while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

/* True when n is a multiplication. */
static bool is_product(TSNode n)
{
    return (is(n, "binary_operator") || is(n, "binary_expression")) && strcmp(op_of(n), "*") == 0;
}

/* Collect the factors of a `*` chain (parentheses around inner products looked through). */
static void factors(TSNode n, TSNode *out, size_t *nout, size_t max)
{
    n = unparen(n);
    if (is_product(n)) {
        factors(fld(n, "left"), out, nout, max);
        factors(fld(n, "right"), out, nout, max);
    } else if (*nout < max) {
        out[(*nout)++] = n;
    }
}

/* True when the change adds a line in [first, last]. */
static bool touched(const file_run *fr, int first, int last)
{
    for (int l = first < 1 ? 1 : first; l <= last && l <= fr->nlines; l++)
        if (fr->added[l])
            return true;
    return false;
}

/* Text of a node with runs of white space folded to one space. A new string. */
static char *flat_text(const syntax_doc *d, TSNode n)
{
    char *t = syntax_node_text(d, n);
    char *o = t;
    bool sp = false;
    for (char *p = t; *p; p++) {
        if (isspace((unsigned char)*p)) {
            sp = true;
            continue;
        }
        if (sp && o != t)
            *o++ = ' ';
        sp = false;
        *o++ = *p;
    }
    *o = '\0';
    return t;
}

/* --- judging a product ----------------------------------------------------------------------- */

/* Report the product n when it qualifies; how says how it feeds index arithmetic. */
static void judge(file_run *fr, const scope *sc, TSNode n, const char *how)
{
    const syntax_doc *d = fr->d;
    int line = syntax_node_line(n), end = syntax_node_end_line(n);
    if (!touched(fr, line, end) || widens(d, n) || mentions(d, n, &sc->widened, line))
        return;
    /* Python integers do not wrap: a host product matters only as a kernel's offset, so
     * only files that hold a kernel get host hints */
    if (!sc->device && fr->py && !fr->has_device)
        return;
    /* a product inside one already reported, ((a * b + c) * d), is the same finding */
    for (size_t i = 0; i + 1 < fr->nspans; i += 2)
        if (ts_node_start_byte(n) >= fr->spans[i] && ts_node_end_byte(n) <= fr->spans[i + 1])
            return;
    TSNode fs[32];
    size_t nf = 0;
    factors(n, fs, &nf, 32);
    size_t runtime_factors = 0;
    for (size_t i = 0; i < nf; i++)
        if (!compile_time(d, fs[i], sc))
            runtime_factors++;
    if (runtime_factors < 2)
        return;
    name_set names = {0};
    value_names(d, n, &sc->runtime, &names);
    if (!names.n) {
        set_free(&names);
        return;
    }
    strbuf list;
    sb_init(&list);
    for (size_t i = 0; i < names.n; i++)
        sb_addf(&list, "%s%s", i ? ", " : "", names.names[i]);
    char *expr = flat_text(d, n);
    if (strlen(expr) > 120)
        strcpy(expr + 117, "...");
    finding *f;
    if (sc->device) {
        f = findings_add(fr->ctx->out, "D9", SEV_WARNING, fr->f->path, line,
                         "`%s` %s, computed in 32 bits from runtime parameter%s %s of `%s` "
                         "with nothing widening it to 64 bits — it wraps once the offset passes "
                         "2^31; cast a factor to int64 before the multiply",
                         expr, how, names.n == 1 ? "" : "s", list.buf, sc->fname);
        fr->device_hits++;
    } else {
        f = findings_add(fr->ctx->out, "D9", SEV_HINT, fr->f->path, line,
                         "`%s` %s, computed from runtime parameter%s %s of host function `%s` "
                         "with no 64-bit widening — D9 only if it becomes a device offset",
                         expr, how, names.n == 1 ? "" : "s", list.buf, sc->fname);
        fr->host_hits++;
    }
    TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
    f->range = (text_range){line, (int)s.column, (int)e.row + 1, (int)e.column};
    *ARRAY_PUSH(fr->spans, fr->nspans, fr->spans_cap) = ts_node_start_byte(n);
    *ARRAY_PUSH(fr->spans, fr->nspans, fr->spans_cap) = ts_node_end_byte(n);
    for (size_t i = 0; i < names.n; i++) {
        int pl = set_line(&sc->runtime, names.names[i]);
        if (pl > 0 && pl != line)
            finding_add_related(f, fr->f->path, pl, "runtime parameter `%s`", names.names[i]);
    }
    free(expr);
    sb_free(&list);
    set_free(&names);
}

/* --- scopes ------------------------------------------------------------------------------- */

/* The identifier a C++ declarator declares (through pointers, references, arrays, inits). */
static TSNode declared_name(TSNode n)
{
    while (!ts_node_is_null(n) && !is(n, "identifier") && !is(n, "field_identifier")) {
        TSNode next = fld(n, "declarator");
        if (ts_node_is_null(next)) {
            TSNode none = {0};
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                if (is(ts_node_named_child(n, i), "identifier"))
                    return ts_node_named_child(n, i);
            return none;
        }
        n = next;
    }
    return n;
}

/* True when a Python annotation spells constexpr (`tl.constexpr`, `constexpr`,
 * `fx.Constexpr[int]`). */
static bool is_constexpr_type(const syntax_doc *d, TSNode type)
{
    char *t = syntax_node_text(d, type);
    char *br = strchr(t, '[');
    if (br)
        *br = '\0';
    char *last = strrchr(t, '.');
    char *s = str_strip(last ? last + 1 : t);
    bool c = strcasecmp(s, "constexpr") == 0;
    free(s);
    free(t);
    return c;
}

/* Read the parameters of a Python function into the scope. */
static void py_params(const syntax_doc *d, TSNode fn, scope *sc, bool *any_constexpr)
{
    TSNode ps = fld(fn, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
        TSNode p = ts_node_named_child(ps, i);
        TSNode name = {0}, type = {0};
        if (is(p, "identifier")) {
            name = p;
        } else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
            name = fld(p, "name");
            type = fld(p, "type");
        } else if (is(p, "typed_parameter")) {
            type = fld(p, "type");
            for (uint32_t k = 0; k < ts_node_named_child_count(p); k++) {
                TSNode c = ts_node_named_child(p, k);
                if (is(c, "identifier"))
                    name = c;
                else if ((is(c, "list_splat_pattern") || is(c, "dictionary_splat_pattern")) &&
                         ts_node_named_child_count(c))
                    name = ts_node_named_child(c, 0);
            }
        } else if ((is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern")) &&
                   ts_node_named_child_count(p)) {
            name = ts_node_named_child(p, 0);
        }
        if (ts_node_is_null(name) || !is(name, "identifier"))
            continue;
        char *nm = syntax_node_text(d, name);
        int line = syntax_node_line(name);
        if (!ts_node_is_null(type) && is_constexpr_type(d, type)) {
            set_add(&sc->consts, nm, line);
            *any_constexpr = true;
        } else {
            set_add(&sc->runtime, nm, line);
            if (!ts_node_is_null(type) && widens(d, type))
                set_add(&sc->widened, nm, 0);
        }
        free(nm);
    }
}

/* True when a Python function's decorators mention jit or kernel. */
static bool py_decorated_device(const syntax_doc *d, TSNode fn)
{
    TSNode parent = ts_node_parent(fn);
    if (!is(parent, "decorated_definition"))
        return false;
    bool dev = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(parent) && !dev; i++) {
        TSNode dec = ts_node_named_child(parent, i);
        if (!is(dec, "decorator"))
            continue;
        char *t = syntax_node_text(d, dec);
        char *paren = strchr(t, '(');
        if (paren)
            *paren = '\0';
        for (char *p = t; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        dev = strstr(t, "jit") || strstr(t, "kernel");
        free(t);
    }
    return dev;
}

/* Read the parameters (and template parameters) of a C++ function into the scope. */
static void cpp_params(const syntax_doc *d, TSNode fn, scope *sc)
{
    TSNode decl = fld(fn, "declarator");
    while (!ts_node_is_null(decl) && !is(decl, "function_declarator"))
        decl = fld(decl, "declarator");
    TSNode ps = ts_node_is_null(decl) ? decl : fld(decl, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
        TSNode p = ts_node_named_child(ps, i);
        if (!is(p, "parameter_declaration") && !is(p, "optional_parameter_declaration"))
            continue;
        TSNode name = declared_name(fld(p, "declarator"));
        if (ts_node_is_null(name))
            continue;
        char *nm = syntax_node_text(d, name);
        set_add(&sc->runtime, nm, syntax_node_line(name));
        TSNode type = fld(p, "type");
        if (!ts_node_is_null(type) && widens(d, type))
            set_add(&sc->widened, nm, 0);
        free(nm);
    }
    for (TSNode t = ts_node_parent(fn); is(t, "template_declaration"); t = ts_node_parent(t)) {
        TSNode tl = fld(t, "parameters");
        for (uint32_t i = 0; !ts_node_is_null(tl) && i < ts_node_named_child_count(tl); i++) {
            TSNode p = ts_node_named_child(tl, i);
            TSNode name = is(p, "parameter_declaration") || is(p, "optional_parameter_declaration")
                              ? declared_name(fld(p, "declarator")) : fld(p, "name");
            if (ts_node_is_null(name) || !is(name, "identifier"))
                continue;
            char *nm = syntax_node_text(d, name);
            set_add(&sc->consts, nm, syntax_node_line(name));
            free(nm);
        }
    }
}

/* True when a C++ declaration carries the constexpr specifier. */
static bool cpp_is_constexpr_decl(const syntax_doc *d, TSNode decl)
{
    for (uint32_t i = 0; i < ts_node_child_count(decl); i++) {
        TSNode c = ts_node_child(decl, i);
        if (is(c, "type_qualifier") || is(c, "storage_class_specifier")) {
            char *t = syntax_node_text(d, c);
            bool ce = strcmp(t, "constexpr") == 0;
            free(t);
            if (ce)
                return true;
        }
    }
    return false;
}

/* First pass over a body: widened locals, constexpr locals and locals that feed index
 * arithmetic. Does not enter nested functions or classes. Returns whether it grew a set. */
static bool collect_locals(const syntax_doc *d, TSNode n, scope *sc)
{
    bool grew = false;
    const char *t = ts_node_type(n);
    if (strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0 ||
        strcmp(t, "decorated_definition") == 0)
        return false;
    size_t before = sc->widened.n + sc->consts.n + sc->fed.n + sc->ct_ok.n + sc->ct_bad.n;
    if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0 ||
        strcmp(t, "assignment_expression") == 0) {
        TSNode left = fld(n, "left"), right = fld(n, "right"), type = fld(n, "type");
        if (is(left, "identifier") && !ts_node_is_null(right)) {
            char *nm = syntax_node_text(d, left);
            int line = syntax_node_line(n);
            bool plain = strcmp(t, "assignment") == 0 || strcmp(op_of(n), "=") == 0;
            if (plain && compile_time(d, right, sc))
                set_add(&sc->ct_ok, nm, line);
            else
                set_add(&sc->ct_bad, nm, line);
            if (widens(d, right) || (!ts_node_is_null(type) && widens(d, type)) ||
                mentions(d, right, &sc->widened, line + 1))
                set_add(&sc->widened, nm, line);
            free(nm);
        }
    } else if (strcmp(t, "declaration") == 0) {
        TSNode type = fld(n, "type");
        bool wide_type = !ts_node_is_null(type) && widens(d, type);
        bool ce = cpp_is_constexpr_decl(d, n);
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode c = ts_node_named_child(n, i);
            if (!is(c, "init_declarator") && !is(c, "identifier"))
                continue;
            TSNode name = declared_name(c);
            if (ts_node_is_null(name))
                continue;
            TSNode value = is(c, "init_declarator") ? fld(c, "value") : c;
            char *nm = syntax_node_text(d, name);
            int line = syntax_node_line(c);
            if (ce)
                set_add(&sc->consts, nm, line);
            else if (is(c, "init_declarator") && !ts_node_is_null(value) && compile_time(d, value, sc))
                set_add(&sc->ct_ok, nm, line);
            else
                set_add(&sc->ct_bad, nm, line);
            if (wide_type || (is(c, "init_declarator") && !ts_node_is_null(value) &&
                              (widens(d, value) || mentions(d, value, &sc->widened, line + 1))))
                set_add(&sc->widened, nm, line);
            free(nm);
        }
    }
    /* a local that is an operand of +/- or a subscript index feeds index arithmetic */
    if ((strcmp(t, "binary_operator") == 0 || strcmp(t, "binary_expression") == 0) &&
        (strcmp(op_of(n), "+") == 0 || strcmp(op_of(n), "-") == 0)) {
        TSNode sides[2] = {unparen(fld(n, "left")), unparen(fld(n, "right"))};
        for (int i = 0; i < 2; i++)
            if (is(sides[i], "identifier")) {
                char *nm = syntax_node_text(d, sides[i]);
                set_add(&sc->fed, nm, syntax_node_line(n));
                free(nm);
            }
    } else if (strcmp(t, "subscript_argument_list") == 0 || strcmp(t, "augmented_assignment") == 0 ||
               (strcmp(t, "assignment_expression") == 0 &&
                (strcmp(op_of(n), "+=") == 0 || strcmp(op_of(n), "-=") == 0))) {
        TSNode v = strcmp(t, "subscript_argument_list") == 0 && ts_node_named_child_count(n)
                       ? ts_node_named_child(n, 0) : fld(n, "right");
        v = unparen(v);
        if (is(v, "identifier") && (strcmp(t, "subscript_argument_list") == 0 ||
                                    strcmp(op_of(n), "+=") == 0 || strcmp(op_of(n), "-=") == 0)) {
            char *nm = syntax_node_text(d, v);
            set_add(&sc->fed, nm, syntax_node_line(n));
            free(nm);
        }
    }
    grew = sc->widened.n + sc->consts.n + sc->fed.n + sc->ct_ok.n + sc->ct_bad.n != before;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        grew |= collect_locals(d, ts_node_named_child(n, i), sc);
    return grew;
}

static void walk_function(file_run *fr, TSNode fn, const scope *parent);

/* Second pass over a body: judge the products in index position; recurse into nested
 * functions with this scope as their parent. */
static void find_products(file_run *fr, TSNode n, const scope *sc)
{
    const syntax_doc *d = fr->d;
    const char *t = ts_node_type(n);
    if (strcmp(t, "function_definition") == 0) {
        walk_function(fr, n, sc);
        return;
    }
    if (strcmp(t, "class_definition") == 0)
        return;
    if ((strcmp(t, "binary_operator") == 0 || strcmp(t, "binary_expression") == 0) &&
        (strcmp(op_of(n), "+") == 0 || strcmp(op_of(n), "-") == 0)) {
        TSNode sides[2] = {unparen(fld(n, "left")), unparen(fld(n, "right"))};
        for (int i = 0; i < 2; i++)
            if (is_product(sides[i]))
                judge(fr, sc, sides[i], "feeds pointer/index arithmetic");
    } else if (strcmp(t, "augmented_assignment") == 0 ||
               (strcmp(t, "assignment_expression") == 0 &&
                (strcmp(op_of(n), "+=") == 0 || strcmp(op_of(n), "-=") == 0))) {
        TSNode v = unparen(fld(n, "right"));
        if ((strcmp(op_of(n), "+=") == 0 || strcmp(op_of(n), "-=") == 0) && is_product(v))
            judge(fr, sc, v, "advances a pointer/offset");
    } else if (strcmp(t, "subscript_argument_list") == 0 && ts_node_named_child_count(n)) {
        TSNode v = unparen(ts_node_named_child(n, 0));
        if (is_product(v))
            judge(fr, sc, v, "indexes memory");
    } else if (strcmp(t, "assignment") == 0 || strcmp(t, "init_declarator") == 0 ||
               (strcmp(t, "assignment_expression") == 0 && strcmp(op_of(n), "=") == 0)) {
        TSNode left = strcmp(t, "init_declarator") == 0 ? declared_name(n) : fld(n, "left");
        TSNode v = unparen(fld(n, strcmp(t, "init_declarator") == 0 ? "value" : "right"));
        if (is(left, "identifier") && is_product(v)) {
            char *nm = syntax_node_text(d, left);
            int fed = set_line(&sc->fed, nm);
            if (fed > syntax_node_line(n)) {
                char *how = xasprintf("is stored in `%s`, which feeds index arithmetic", nm);
                judge(fr, sc, v, how);
                free(how);
            }
            free(nm);
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        find_products(fr, ts_node_named_child(n, i), sc);
}

/* Build the scope of one function (inheriting parent) and look for products in its body. */
static void walk_function(file_run *fr, TSNode fn, const scope *parent)
{
    const syntax_doc *d = fr->d;
    scope sc = {0};
    if (parent) {
        set_union(&sc.runtime, &parent->runtime);
        set_union(&sc.consts, &parent->consts);
        set_union(&sc.widened, &parent->widened);
        sc.device = parent->device;
    }
    TSNode name = fr->py ? fld(fn, "name") : declared_name(fld(fn, "declarator"));
    char *fname = ts_node_is_null(name) ? xstrdup("?") : syntax_node_text(d, name);
    sc.fname = fname;
    if (fr->py) {
        bool any_ce = false;
        py_params(d, fn, &sc, &any_ce);
        sc.device |= any_ce || py_decorated_device(d, fn);
    } else {
        cpp_params(d, fn, &sc);
        for (size_t i = 0; i < fr->fns->n; i++)
            if (fr->fns->items[i].end_byte == ts_node_end_byte(fn))
                sc.device |= fr->fns->items[i].is_kernel || fr->fns->items[i].is_device;
    }
    TSNode body = fld(fn, "body");
    if (!ts_node_is_null(body) && touched(fr, syntax_node_line(fn), syntax_node_end_line(fn))) {
        for (int pass = 0; pass < 4 && collect_locals(d, body, &sc); pass++)
            ;
        find_products(fr, body, &sc);
    }
    free(fname);
    scope_free(&sc);
}

/* True when some function under n is device code by its own parameters or decorators. */
static bool any_device(const syntax_doc *d, TSNode n)
{
    if (is(n, "function_definition")) {
        scope sc = {0};
        bool ce = false;
        py_params(d, n, &sc, &ce);
        scope_free(&sc);
        if (ce || py_decorated_device(d, n))
            return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (any_device(d, ts_node_named_child(n, i)))
            return true;
    return false;
}

/* Walk the top of a file (and classes) for functions. */
static void walk_top(file_run *fr, TSNode n)
{
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (is(c, "function_definition"))
            walk_function(fr, c, NULL);
        else
            walk_top(fr, c);
    }
}

/* --- the collector ------------------------------------------------------------------------ */

/* Check one file; returns 0, or -1 (with *why) when skipped. */
static int check_file(collector_ctx *ctx, const change_file *f, file_run *fr, char **why)
{
    size_t len;
    char *text = change_head_text(ctx->chg, f, &len, why);
    if (!text)
        return -1;
    syntax_doc *owned = NULL;
    const syntax_doc *d = collector_doc(ctx, f, false, text, len, &owned, why);
    free(text);
    if (!d)
        return -1;
    syn_func_list fns = {0};
    if (d->lang == SYN_CPP)
        syntax_functions(d, &fns);
    fr->ctx = ctx;
    fr->f = f;
    fr->nlines = 0;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > fr->nlines)
            fr->nlines = f->lines[i].new_no;
    fr->added = xcalloc((size_t)fr->nlines + 1, sizeof *fr->added);
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > 0)
            fr->added[f->lines[i].new_no] = true;
    fr->d = d;
    fr->fns = &fns;
    fr->py = d->lang == SYN_PYTHON;
    fr->has_device = fr->py && any_device(d, ts_tree_root_node(d->tree));
    walk_top(fr, ts_tree_root_node(d->tree));
    syn_func_list_free(&fns);
    free(fr->added);
    fr->added = NULL;
    free(fr->spans);
    fr->spans = NULL;
    fr->nspans = fr->spans_cap = 0;
    syntax_free(owned);
    return 0;
}

/* The files it reads: Python and C/C++ files that gain lines. */
static bool reads(const change_file *f)
{
    return syntax_lang_of_path(f->path) != SYN_NONE && !f->is_deleted && !f->is_skipped && f->nadd;
}

/* What one file's stage found, for the status line. */
typedef struct iw_facts {
    int device, host;
} iw_facts;

/* The per-file stage: the un-widened products on the file's added lines. */
static void index_width_file(collector_file_ctx *fx)
{
    file_run fr = {0};
    if (check_file(fx->review, fx->f, &fr, &fx->skip) < 0)
        return;
    iw_facts *t = xcalloc(1, sizeof *t);
    t->device = fr.device_hits;
    t->host = fr.host_hits;
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void index_width_change(collector_ctx *ctx, const collector_files *files)
{
    size_t nfiles = files->n, nskipped = files->nskipped;
    const char *first_skip = files->first_skip;
    int device = 0, host = 0;
    for (size_t i = 0; i < files->n; i++) {
        const iw_facts *t = files->items[i].facts;
        if (!t)
            continue;
        device += t->device;
        host += t->host;
    }
    if (!nfiles)
        collector_status(ctx, "nothing found: no Python or C/C++ file gains lines");
    else if (nskipped == nfiles)
        collector_status(ctx, "skipped: %s (D9 cannot be cleared)", first_skip);
    else if (device || host)
        collector_status(ctx, "found %d un-widened runtime product%s in device code and %d in "
                         "host code on added lines%s%s", device, device == 1 ? "" : "s", host,
                         nskipped ? "; not scanned (D9 cannot be cleared there): " : "",
                         nskipped ? first_skip : "");
    else
        collector_status(ctx, "nothing found: no un-widened product of runtime parameters feeds "
                         "index arithmetic on an added line of %zu file%s%s%s",
                         nfiles - nskipped, nfiles - nskipped == 1 ? "" : "s",
                         nskipped ? "; not scanned (D9 cannot be cleared there): " : "",
                         nskipped ? first_skip : "");
}

const collector collector_index_width = {
    .name = "index_width",
    .rules = "D9",
    .langs = COLLECT_PYTHON | COLLECT_CPP,
    .reads = reads,
    .file_stage = index_width_file,
    .change_stage = index_width_change,
};
