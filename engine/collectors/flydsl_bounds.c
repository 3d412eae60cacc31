/* The FlyDSL buffer-bounds collector (rule B8): on the lines a change adds to a FlyDSL Python
 * kernel, a buffer resource or buffer tensor whose bound is not the tensor's real extent, and a
 * 2-D tensor descriptor bounded on its outer dimension but not its inner one.
 *
 * create_buffer_resource / ptr_buffer_resource / make_buffer_tensor take max_size, which
 * defaults to True: the descriptor then covers 0xFFFFFFFF bytes and the hardware's
 * out-of-range check (reads give 0, writes are dropped) never fires for the tensor's own end.
 * A call is bounded when it passes num_records_bytes, when ptr_buffer_resource gets its size
 * as the second positional argument, or when max_size is False — literally, through a local
 * name assigned only False, or through a parameter of the enclosing function defaulting to
 * False. A call with a **kwargs (or a *args covering max_size) splat cannot be judged and is
 * left alone. make_tensor_descriptor_2d with oob_outer_bound but no oob_inner_bound is the
 * e6592c373 case.
 *
 * An unbounded call is a finding only when something shows the bound would matter: for a
 * buffer, an access through it (followed by flydsl_access) that can address past the tensor —
 * not under a run-time guard, offset not clamped, varying per lane and stepping by block, in a
 * kernel with a run-time size argument; for a 2-D descriptor, an inner dimension whose size is
 * a run-time argument. aiter's FlyDSL kernels use max_size=True on purpose with explicit
 * guards, select-clamped or sentinel offsets and scalar metadata reads; those are left out and
 * counted in the status line.
 *
 * A call counts when an added line falls inside it or a line was deleted from inside it, unless
 * the base (when it can be read) has a call in the same function binding the same buffer in the
 * same way: an edit that keeps a deliberate bound is not a new decision, and the status line
 * says how many were left out. The finding sits on the exact argument that unbinds it
 * (max_size=True, oob_outer_bound) or on the callee when max_size is omitted. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collector.h"
#include "engine/diff_lines.h"
#include "engine/collectors/flydsl_access.h"
#include "engine/syntax.h"

/* The calls this collector judges and where their max_size sits positionally. */
typedef struct buffer_call {
    const char *name;
    int max_size_pos;      /* positional index of max_size */
    int size_pos;          /* positional index that gives the size outright, or -1 */
} buffer_call;

static const buffer_call buffer_calls[] = {
    {"create_buffer_resource", 2, -1},
    {"ptr_buffer_resource", 1, 1},
    {"make_buffer_tensor", 1, -1},
};

/* True when path is a Python file under a FlyDSL path (case-insensitive). */
static bool is_flydsl_python(const char *path)
{
    if (!str_ends(path, ".py"))
        return false;
    for (const char *p = path; *p; p++)
        if (strncasecmp(p, "flydsl", 6) == 0)
            return true;
    return false;
}

/* The keyword argument kw of c, or NULL. */
static const syn_arg *kwarg(const syn_call *c, const char *kw)
{
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].keyword && strcmp(c->args[i].keyword, kw) == 0)
            return &c->args[i];
    return NULL;
}

/* The positional argument i of c, or NULL. */
static const syn_arg *positional(const syn_call *c, size_t i)
{
    size_t k = 0;
    for (size_t a = 0; a < c->nargs; a++)
        if (!c->args[a].keyword && k++ == i)
            return &c->args[a];
    return NULL;
}

/* True when c has a "**" splat (any keyword may hide in it). */
static bool has_kw_splat(const syn_call *c)
{
    for (size_t i = 0; i < c->nargs; i++)
        if (!c->args[i].keyword && str_starts(c->args[i].text, "**"))
            return true;
    return false;
}

/* True when a "*" splat appears among the first upto positional arguments. */
static bool has_pos_splat_before(const syn_call *c, size_t upto)
{
    size_t k = 0;
    for (size_t i = 0; i < c->nargs && k <= upto; i++) {
        if (c->args[i].keyword)
            continue;
        if (c->args[i].text[0] == '*' && c->args[i].text[1] != '*')
            return true;
        k++;
    }
    return false;
}

/* True when an argument's text is the literal None. */
static bool is_none(const syn_arg *a)
{
    return a && strcmp(a->text, "None") == 0;
}

/* What the buffer is called in messages: the first positional argument (cut), else a
 * ptr/tensor/global_ptr keyword, else "?". A new string. */
static char *buffer_name(const syn_call *c)
{
    const syn_arg *a = positional(c, 0);
    static const char *const kws[] = {"ptr", "tensor", "global_ptr", "buffer", "base", NULL};
    for (int i = 0; !a && kws[i]; i++)
        a = kwarg(c, kws[i]);
    if (!a)
        return xstrdup("?");
    char *flat = xstrdup(a->text);
    for (char *p = flat; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = ' ';
    if (strlen(flat) > 48)
        strcpy(flat + 45, "...");
    return flat;
}

/* --- resolving a max_size that is a name --------------------------------------------------- */

typedef struct name_lookup {
    const char *name;
    int before_line;       /* only assignments before this line count */
    int nfalse, nother;    /* assignments of the literal False / of anything else */
    int line;              /* the last assignment's line */
    bool is_param;
    char *param_default;   /* the parameter's default text, or NULL */
    int param_line;
    const syn_func_list *module_only;  /* when set, count only assignments outside functions */
} name_lookup;

static const char *const py_assign_query =
    "(assignment left: (identifier) @n right: (_) @v)";
static const char *const py_param_query =
    "[(default_parameter name: (identifier) @n value: (_) @v)"
    " (typed_default_parameter name: (identifier) @n value: (_) @v)"
    " (parameters (identifier) @n)"
    " (typed_parameter (identifier) @n)]";

/* The node captured as name in match m, or a null node. */
static TSNode capture_node(const TSQuery *q, const TSQueryMatch *m, const char *name)
{
    for (uint16_t i = 0; i < m->capture_count; i++)
        if (strcmp(syntax_capture_name(q, m->captures[i].index), name) == 0)
            return m->captures[i].node;
    TSNode null = {0};
    return null;
}

/* Count one assignment to the looked-up name. */
static bool on_assign(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    name_lookup *nl = arg;
    TSNode n = capture_node(q, m, "n"), v = capture_node(q, m, "v");
    if (ts_node_is_null(n) || ts_node_is_null(v) || syntax_node_line(n) >= nl->before_line)
        return true;
    if (nl->module_only && syntax_enclosing_function(nl->module_only, syntax_node_line(n)))
        return true;
    char *nt = syntax_node_text(d, n);
    if (strcmp(nt, nl->name) == 0) {
        char *vt = syntax_node_text(d, v);
        if (strcmp(vt, "False") == 0)
            nl->nfalse++;
        else
            nl->nother++;
        nl->line = syntax_node_line(n);
        free(vt);
    }
    free(nt);
    return true;
}

/* Record the looked-up name when it is a parameter of the enclosing function. */
static bool on_param(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    name_lookup *nl = arg;
    TSNode n = capture_node(q, m, "n"), v = capture_node(q, m, "v");
    if (ts_node_is_null(n) || nl->is_param)
        return true;
    char *nt = syntax_node_text(d, n);
    if (strcmp(nt, nl->name) == 0) {
        nl->is_param = true;
        nl->param_line = syntax_node_line(n);
        nl->param_default = ts_node_is_null(v) ? NULL : syntax_node_text(d, v);
    }
    free(nt);
    return true;
}

/* True when text is a plain Python identifier. */
static bool is_identifier(const char *s)
{
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* Look a name up in the function enclosing line (its parameters and earlier assignments), then,
 * when the function says nothing of it, among the module's top-level assignments. */
static void lookup_name(const syntax_doc *d, const syn_func_list *fns, const syn_func *fn,
                        const char *name, int line, name_lookup *nl)
{
    memset(nl, 0, sizeof *nl);
    nl->name = name;
    nl->before_line = line;
    if (fn) {
        (void)syntax_query(d, py_param_query, fn->start_line, fn->body_line, on_param, nl, NULL);
        (void)syntax_query(d, py_assign_query, fn->start_line, fn->end_line, on_assign, nl, NULL);
        if (nl->is_param || nl->nfalse || nl->nother)
            return;
        nl->before_line = d->nlines + 1;  /* a module constant may sit below the function */
    }
    nl->module_only = fns;
    (void)syntax_query(d, py_assign_query, 0, 0, on_assign, nl, NULL);
}

/* --- judging one call ---------------------------------------------------------------------- */

typedef struct verdict {
    bool flag;
    const syn_arg *at;     /* the argument to point at, or NULL for the callee */
    char *why;             /* the reason (owned) */
    int related_line;      /* a line that explains it (assignment, parameter), or 0 */
    char *related_msg;
} verdict;

/* Decide whether a buffer call is bounded; fills v when it is not. */
static void judge_buffer_call(const syntax_doc *d, const syn_func_list *fns, const syn_call *c,
                              const buffer_call *bc, verdict *v)
{
    memset(v, 0, sizeof *v);
    if (has_kw_splat(c) || has_pos_splat_before(c, (size_t)bc->max_size_pos))
        return;
    const syn_arg *nrb = kwarg(c, "num_records_bytes");
    if (nrb && !is_none(nrb))
        return;
    if (bc->size_pos >= 0 && c->npositional > (size_t)bc->size_pos)
        return;
    const syn_arg *ms = kwarg(c, "max_size");
    if (!ms)
        ms = positional(c, (size_t)bc->max_size_pos);
    if (!ms) {
        v->flag = true;
        v->why = xstrdup("max_size omitted, so the descriptor covers 0xFFFFFFFF bytes (the "
                         "default is max_size=True)");
        return;
    }
    if (strcmp(ms->text, "False") == 0)
        return;
    v->at = ms;
    if (strcmp(ms->text, "True") == 0) {
        v->flag = true;
        v->why = xstrdup("max_size=True, so the descriptor covers 0xFFFFFFFF bytes");
        return;
    }
    if (is_identifier(ms->text)) {
        name_lookup nl;
        const syn_func *fn = syntax_enclosing_function(fns, c->line);
        lookup_name(d, fns, fn, ms->text, c->line, &nl);
        if (nl.nfalse && !nl.nother && !nl.is_param) {
            free(nl.param_default);
            return;
        }
        if (nl.is_param && !nl.nfalse && !nl.nother) {
            if (nl.param_default && strcmp(nl.param_default, "False") == 0) {
                free(nl.param_default);
                return;
            }
            v->flag = true;
            v->why = xasprintf("max_size comes from parameter `%s` of `%s`%s%s), so unless "
                               "callers pass False the descriptor covers 0xFFFFFFFF bytes",
                               ms->text, fn ? fn->name : "?",
                               nl.param_default ? " (default " : " (no default",
                               nl.param_default ? nl.param_default : "");
            v->related_line = nl.param_line;
            v->related_msg = xasprintf("parameter `%s` is declared here", ms->text);
            free(nl.param_default);
            return;
        }
        free(nl.param_default);
        if (nl.nother && !nl.nfalse) {
            v->flag = true;
            v->why = xasprintf("max_size=%s, and `%s` is never False here, so the descriptor "
                               "covers 0xFFFFFFFF bytes", ms->text, ms->text);
            v->related_line = nl.line;
            v->related_msg = xasprintf("`%s` is assigned here", ms->text);
            return;
        }
    }
    v->flag = true;
    v->why = xasprintf("max_size=%s is not the literal False, so the descriptor may cover "
                       "0xFFFFFFFF bytes", ms->text);
}

/* Decide whether a 2-D descriptor is bounded on both dimensions; fills v when it is not. */
static void judge_descriptor(const syn_call *c, verdict *v)
{
    memset(v, 0, sizeof *v);
    if (has_kw_splat(c))
        return;
    const syn_arg *outer = kwarg(c, "oob_outer_bound"), *inner = kwarg(c, "oob_inner_bound");
    if (!outer || is_none(outer) || (inner && !is_none(inner)))
        return;
    v->flag = true;
    v->at = outer;
    v->why = xstrdup(inner ? "oob_outer_bound set but oob_inner_bound=None, so the inner "
                             "dimension, whose size is a run-time argument, is not bounds-checked"
                           : "oob_outer_bound set, oob_inner_bound missing, so the inner "
                             "dimension, whose size is a run-time argument, is not "
                             "bounds-checked");
}

/* --- calls the change carried over unchanged ------------------------------------------------- */

typedef struct sig_list {
    char **items;
    size_t n, cap;
} sig_list;

/* Append an argument's text with all white space removed, or "-" when absent. */
static void add_squeezed(strbuf *sb, const syn_arg *a)
{
    if (!a) {
        sb_adds(sb, "-");
        return;
    }
    for (const char *p = a->text; *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            sb_addc(sb, *p);
}

/* What decides a call's bound, as one string: the enclosing function, the callee, the buffer
 * and every bound-related argument. Two calls with the same signature bind the same way. */
static char *bound_signature(const syn_func_list *fns, const syn_call *c)
{
    const syn_func *fn = syntax_enclosing_function(fns, c->line);
    strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "%s\x1f%s\x1f", fn ? fn->qualname : "", c->name);
    add_squeezed(&sb, positional(c, 0));
    static const char *const kws[] = {"max_size", "num_records_bytes", "oob_outer_bound",
                                      "oob_inner_bound", NULL};
    for (int i = 0; kws[i]; i++) {
        sb_addc(&sb, '\x1f');
        add_squeezed(&sb, kwarg(c, kws[i]));
    }
    for (size_t i = 1; i < 3; i++) {
        sb_addc(&sb, '\x1f');
        add_squeezed(&sb, positional(c, i));
    }
    return sb_detach(&sb);
}

/* Ascending ints, for qsort. */
static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* True for a call this collector judges. */
static bool is_judged_call(const syn_call *c)
{
    for (size_t k = 0; k < sizeof buffer_calls / sizeof buffer_calls[0]; k++)
        if (strcmp(c->name, buffer_calls[k].name) == 0)
            return true;
    return strcmp(c->name, "make_tensor_descriptor_2d") == 0;
}

/* The calls that start on the lines of d where a call around an occurrence of a judged
 * name starts, in source order (a superset of the judged calls, with other calls on those
 * lines: check_file skips those). A call's name is the last component of its callee, so its
 * text occurs inside the call and the call encloses that occurrence. Reading only those lines
 * for calls matters: syntax_calls over a whole kernel file copies every argument of every
 * call, which was most of this collector's time on a large change. */
static void judged_calls(const syntax_doc *d, syn_call_list *out)
{
    static const char *const names[] = {"create_buffer_resource", "ptr_buffer_resource",
                                        "make_buffer_tensor", "make_tensor_descriptor_2d", NULL};
    int *lines = NULL;
    size_t nlines = 0, cap = 0;
    for (int k = 0; names[k]; k++) {
        size_t nl = strlen(names[k]);
        for (const char *p = memmem(d->text, d->len, names[k], nl); p;
             p = memmem(p + 1, d->len - (size_t)(p + 1 - d->text), names[k], nl)) {
            size_t at = (size_t)(p - d->text);
            TSNode n = syntax_node_at(d, at, at + nl);
            for (; !ts_node_is_null(n); n = ts_node_parent(n))
                if (syntax_node_is(n, "call"))
                    *ARRAY_PUSH(lines, nlines, cap) = syntax_node_line(n);
        }
    }
    if (nlines > 1)
        qsort(lines, nlines, sizeof *lines, int_cmp);
    for (size_t i = 0; i < nlines; i++)
        if (i == 0 || lines[i] != lines[i - 1])
            syntax_calls(d, lines[i], lines[i], out);
    free(lines);
}

/* The bound signatures of the judged calls in the base version of f (empty when the base is not
 * available: a new file, or a diff read without its repository). */
static void base_signatures(collector_ctx *ctx, const change_file *f, sig_list *out)
{
    if (f->is_new)
        return;
    size_t len;
    char *text = collector_base_text(ctx, f, &len, NULL);
    if (!text)
        return;
    syntax_doc *owned = NULL;
    const syntax_doc *d = collector_doc(ctx, f, true, text, len, &owned, NULL);
    free(text);
    if (!d)
        return;
    syn_call_list calls = {0};
    judged_calls(d, &calls);
    syn_func_list fns = {0};
    syntax_functions(d, &fns);
    for (size_t i = 0; i < calls.n; i++)
        if (is_judged_call(&calls.items[i]))
            *ARRAY_PUSH(out->items, out->n, out->cap) = bound_signature(&fns, &calls.items[i]);
    syn_func_list_free(&fns);
    syn_call_list_free(&calls);
    syntax_free(owned);
}

/* Take s out of the list (each base call accounts for one head call); false when absent. */
static bool sig_take(sig_list *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i] && strcmp(l->items[i], s) == 0) {
            free(l->items[i]);
            l->items[i] = NULL;
            return true;
        }
    return false;
}

/* Free a signature list's contents. */
static void sig_list_free(sig_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* --- the collector ------------------------------------------------------------------------ */

/* Unbounded calls left out, by why no access of theirs can run past the tensor. */
typedef struct left_out {
    int carried;           /* edited, but bound exactly as in the base */
    int guarded, uniform, fixed, unfollowed;
} left_out;

/* The byte span of a call's argument, or of its element i when it is a tuple (i >= 0). */
static bool arg_span(const syntax_doc *d, const syn_arg *a, int i, uint32_t *s, uint32_t *e)
{
    size_t bs = syntax_line_start(d, a->line) + (size_t)a->col;
    size_t be = syntax_line_start(d, a->end_line) + (size_t)a->end_col;
    TSNode n = syntax_node_at(d, bs, be);
    if (ts_node_is_null(n))
        return false;
    if (i >= 0) {
        while (strcmp(ts_node_type(n), "parenthesized_expression") == 0)
            n = ts_node_named_child(n, 0);
        if (strcmp(ts_node_type(n), "tuple") != 0 || ts_node_named_child_count(n) <= (uint32_t)i)
            return false;
        n = ts_node_named_child(n, (uint32_t)i);
    }
    *s = ts_node_start_byte(n);
    *e = ts_node_end_byte(n);
    return true;
}

/* Whether an unbounded call is a finding: some access through the descriptor can run past
 * the tensor (a buffer), or the unbounded inner dimension has a run-time size (a 2-D
 * descriptor). Otherwise counts it in *lo and returns false; *acc_line gets the access. */
static bool reaches_past(const syntax_doc *d, fa_file **ff, const syn_call *c, bool is_desc,
                         left_out *lo, int *acc_line)
{
    *acc_line = 0;
    if (is_desc) {
        const syn_arg *shape = kwarg(c, "tensor_shape");
        if (!shape)
            shape = kwarg(c, "shape");
        uint32_t s, e;
        if (shape && arg_span(d, shape, 1, &s, &e) && fa_runtime_extent(d, s, e))
            return true;
        lo->fixed++;
        return false;
    }
    fa_verdict fv;
    uint32_t s = (uint32_t)(syntax_line_start(d, c->line) + (size_t)c->col);
    uint32_t e = (uint32_t)(syntax_line_start(d, c->end_line) + (size_t)c->end_col);
    if (!*ff)
        *ff = fa_file_new(d);
    fa_judge(*ff, s, e, &fv);
    switch (fv.quiet) {
    case FA_REACHES:
        *acc_line = fv.line;
        return true;
    case FA_GUARDED:
        lo->guarded++;
        break;
    case FA_UNIFORM:
        lo->uniform++;
        break;
    case FA_STATIC:
        lo->fixed++;
        break;
    case FA_UNFOLLOWED:
        lo->unfollowed++;
        break;
    }
    return false;
}

/* --- evidence -------------------------------------------------------------------------------- */

/* Append an argument's text with runs of white space folded to one space. */
static void add_folded(strbuf *sb, const char *t)
{
    bool sp = false;
    for (; *t; t++) {
        if (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') {
            sp = true;
            continue;
        }
        if (sp && sb->len)
            sb_addc(sb, ' ');
        sp = false;
        sb_addc(sb, *t);
    }
}

/* The flagged line with the finding's range highlighted (leading white space left out). */
static void add_call_line(finding *fd, exhibit *e, const syntax_doc *d)
{
    size_t ll = 0;
    const char *lt = syntax_line_text(d, fd->range.line, &ll);
    if (!lt)
        return;
    char *line = xstrndup(lt, ll);
    size_t lead = strspn(line, " \t");
    size_t a = (size_t)fd->range.col, b = fd->range.end_line == fd->range.line
                                               ? (size_t)fd->range.end_col : ll;
    a = a > lead ? a - lead : 0;
    b = b > lead ? b - lead : 0;
    exhibit_add_code(e, fd->path, fd->range.line, line + lead, a, b);
    free(line);
}

/* The same call written bounded, as one line, the bounding argument fix highlighted: in place
 * of the flagged argument (or of the keyword fix names), else added at the end. An example:
 * it has no place. */
static void add_bounded_example(exhibit *e, const syn_call *c, const syn_arg *flagged,
                                const char *fix)
{
    size_t kl = strcspn(fix, "=");
    strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "%s(", c->callee);
    size_t hl_start = 0, hl_end = 0, n = 0;
    for (size_t i = 0; i < c->nargs; i++) {
        const syn_arg *a = &c->args[i];
        bool same_kw = a->keyword && strlen(a->keyword) == kl && !strncmp(a->keyword, fix, kl);
        sb_adds(&sb, n++ ? ", " : "");
        if (a != flagged && !same_kw) {
            if (a->keyword)
                sb_addf(&sb, "%s=", a->keyword);
            add_folded(&sb, a->text);
            continue;
        }
        hl_start = sb.len;
        /* a positional max_size stays positional */
        sb_adds(&sb, a->keyword || !fix[kl] ? fix : fix + kl + 1);
        hl_end = sb.len;
    }
    if (hl_end == 0) {
        sb_adds(&sb, n ? ", " : "");
        hl_start = sb.len;
        sb_adds(&sb, fix);
        hl_end = sb.len;
    }
    sb_addc(&sb, ')');
    exhibit_add_code(e, NULL, 0, sb.buf, hl_start, hl_end);
    sb_free(&sb);
}

/* B8's evidence: the call with what unbinds it highlighted, and the same call bounded — for a
 * buffer, max_size=False (the descriptor then covers the tensor's own bytes), or for a raw
 * pointer, which has no extent to take, its size in bytes; for a 2-D descriptor, the inner
 * bound beside the outer one. */
static void add_evidence(finding *fd, const syntax_doc *d, const syn_call *c,
                         const buffer_call *bc, const verdict *v, const char *buf)
{
    exhibit *e;
    if (!bc)
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "The descriptor bounds the outer dimension "
                                "only: `oob_inner_bound` is %s",
                                kwarg(c, "oob_inner_bound") ? "None" : "missing");
    else if (v->at)
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "The call, its max_size highlighted");
    else
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "The call leaves max_size out (the default "
                                "is True)");
    add_call_line(fd, e, d);
    if (!bc) {
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "A call bounded on both dimensions");
        add_bounded_example(e, c, NULL, "oob_inner_bound=<inner extent>");
    } else if (bc->size_pos >= 0) {
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "A bounded call: the size of `%s` given in "
                                "bytes", buf);
        add_bounded_example(e, c, v->at, "num_records_bytes=<bytes of the buffer>");
    } else {
        e = finding_add_exhibit(fd, EXHIBIT_CODE, "A bounded call: max_size=False sizes the "
                                "descriptor to `%s`", buf);
        add_bounded_example(e, c, v->at, "max_size=False");
    }
}

/* Check one FlyDSL file; returns the number of findings, or -1 (with *why) when skipped.
 * *lo counts the unbounded calls left out, and why. */
static int check_file(collector_ctx *ctx, const change_file *f, char **why, left_out *lo)
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
    syn_call_list calls = {0};
    judged_calls(d, &calls);
    syn_func_list fns = {0};
    bool have_fns = false, have_base = false;
    sig_list base = {0};
    fa_file *ff = NULL;    /* what judging learned of the file, for its next descriptor */
    int found = 0;
    for (size_t i = 0; i < calls.n; i++) {
        const syn_call *c = &calls.items[i];
        const buffer_call *bc = NULL;
        for (size_t k = 0; k < sizeof buffer_calls / sizeof buffer_calls[0]; k++)
            if (strcmp(c->name, buffer_calls[k].name) == 0)
                bc = &buffer_calls[k];
        bool is_desc = strcmp(c->name, "make_tensor_descriptor_2d") == 0;
        if ((!bc && !is_desc) || !diff_lines_touches(f, c->line, c->end_line))
            continue;
        if (!have_fns) {
            syntax_functions(d, &fns);
            have_fns = true;
        }
        verdict v;
        if (bc)
            judge_buffer_call(d, &fns, c, bc, &v);
        else
            judge_descriptor(c, &v);
        if (!v.flag)
            continue;
        if (!have_base) {
            base_signatures(ctx, f, &base);
            have_base = true;
            /* the calls the change did not touch account for their own base calls first */
            for (size_t k = 0; k < calls.n && base.n; k++) {
                const syn_call *u = &calls.items[k];
                if (!is_judged_call(u) || diff_lines_touches(f, u->line, u->end_line))
                    continue;
                char *us = bound_signature(&fns, u);
                sig_take(&base, us);
                free(us);
            }
        }
        char *sig = bound_signature(&fns, c);
        bool same_as_base = sig_take(&base, sig);
        free(sig);
        int acc_line = 0;
        if (same_as_base || !reaches_past(d, &ff, c, is_desc, lo, &acc_line)) {
            /* the change edited the call but bound it exactly as before, in the same function;
             * or nothing shows an access that the descriptor's size would have to stop */
            if (same_as_base)
                lo->carried++;
            free(v.why);
            free(v.related_msg);
            continue;
        }
        char *buf = buffer_name(c);
        finding *fd = findings_add(ctx->out, "B8", SEV_WARNING, f->path,
                                   v.at ? v.at->line : c->line, "%s(%s): %s%s%s%s",
                                   c->name, buf, v.why,
                                   bc ? " instead of the extent of `" : "", bc ? buf : "",
                                   bc ? "`: out-of-range offsets read and write past it rather "
                                        "than returning 0" : "");
        if (v.at) {
            fd->range = (text_range){v.at->line, v.at->col, v.at->end_line, v.at->end_col};
            if (v.at->keyword) {
                /* cover the keyword too: its last occurrence before the value on that line */
                size_t ll = 0, kl = strlen(v.at->keyword);
                const char *lt = syntax_line_text(d, v.at->line, &ll);
                for (int k = v.at->col - (int)kl; lt && k >= 0; k--)
                    if ((size_t)k + kl <= ll && memcmp(lt + k, v.at->keyword, kl) == 0) {
                        fd->range.col = k;
                        break;
                    }
            }
        } else {
            fd->range = (text_range){c->line, c->col, c->args_line, c->args_col};
        }
        if (v.related_line)
            finding_add_related(fd, f->path, v.related_line, "%s", v.related_msg);
        if (acc_line)
            finding_add_related(fd, f->path, acc_line, "this access steps by block over a size "
                                "known only at run time, with no guard or clamp on its offset");
        add_evidence(fd, d, c, bc, &v, buf);
        free(buf);
        free(v.why);
        free(v.related_msg);
        found++;
    }
    sig_list_free(&base);
    fa_file_free(ff);
    syn_func_list_free(&fns);
    syn_call_list_free(&calls);
    syntax_free(owned);
    return found;
}

/* The status line's account of the unbounded calls left out. */
static void describe_left_out(strbuf *tail, const left_out *lo)
{
    if (lo->carried)
        sb_addf(tail, "; %d edited call%s bound exactly as in the base left out", lo->carried,
                lo->carried == 1 ? "" : "s");
    int n = lo->guarded + lo->uniform + lo->fixed + lo->unfollowed;
    if (!n)
        return;
    sb_addf(tail, "; %d unbounded with no access shown to run past the tensor left out (", n);
    const char *sep = "";
    if (lo->guarded) {
        sb_addf(tail, "%d guarded or clamped", lo->guarded);
        sep = ", ";
    }
    if (lo->uniform) {
        sb_addf(tail, "%s%d uniform or not block-tiled", sep, lo->uniform);
        sep = ", ";
    }
    if (lo->fixed) {
        sb_addf(tail, "%s%d with compile-time sizes", sep, lo->fixed);
        sep = ", ";
    }
    if (lo->unfollowed)
        sb_addf(tail, "%s%d whose accesses were not followed", sep, lo->unfollowed);
    sb_adds(tail, ")");
}

/* What one file's stage found, for the status line. */
typedef struct fb_facts {
    int found;
    left_out lo;
} fb_facts;

/* The files it reads: FlyDSL Python files the change edits. */
static bool reads(const change_file *f)
{
    return is_flydsl_python(f->path) && !f->is_deleted && !f->is_skipped && f->nadd + f->ndel;
}

/* The per-file stage: judge the buffer resources and descriptors on the file's changed lines. */
static void flydsl_bounds_file(collector_file_ctx *fx)
{
    fb_facts *t = xcalloc(1, sizeof *t);
    t->found = check_file(fx->review, fx->f, &fx->skip, &t->lo);
    if (t->found < 0) {
        free(t);
        return;
    }
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void flydsl_bounds_change(collector_ctx *ctx, const collector_files *files)
{
    if (collector_files_status(ctx, files, "no FlyDSL Python file in the change"))
        return;
    int total = 0;
    left_out lo = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < files->n; i++) {
        const fb_facts *t = files->items[i].facts;
        if (!t)
            continue;
        total += t->found;
        lo.carried += t->lo.carried;
        lo.guarded += t->lo.guarded;
        lo.uniform += t->lo.uniform;
        lo.fixed += t->lo.fixed;
        lo.unfollowed += t->lo.unfollowed;
    }
    size_t nread = files->n - files->nskipped;
    strbuf tail;
    sb_init(&tail);
    describe_left_out(&tail, &lo);
    if (files->nskipped)
        sb_addf(&tail, "; skipped: %s", files->first_skip);
    if (total)
        collector_status(ctx, "found %d unbounded buffer resource%s or descriptor%s with an access "
                         "that can run past the tensor on changed lines%s", total,
                         total == 1 ? "" : "s", total == 1 ? "" : "s", tail.len ? tail.buf : "");
    else
        collector_status(ctx, "nothing found: no unbounded buffer resource or descriptor with an "
                         "access that can run past the tensor on a changed line of %zu FlyDSL "
                         "file%s%s", nread, nread == 1 ? "" : "s", tail.len ? tail.buf : "");
    sb_free(&tail);
}

const collector collector_flydsl_bounds = {
    .name = "flydsl_bounds",
    .rules = "B8",
    .langs = COLLECT_PYTHON,
    .reads = reads,
    .file_stage = flydsl_bounds_file,
    .change_stage = flydsl_bounds_change,
};
