/* The Triton masks collector (rules T1, T2; B2 is the same defect in its general form): on the
 * lines a change adds to a Triton or Gluon kernel,
 *   - a tl.load / tl.store (gl.load / gl.store) with no mask= (and no boundary_check= for a
 *     block pointer), whose offsets may run past the end of the tensor (T1, Warning);
 *   - a masked tl.load with no other= whose value reaches a max/min reduction, where the
 *     zeros in the masked-off lanes can win (T2, Information).
 * T1 needs positive evidence that the offsets step over a runtime axis in blocks: a block
 * pointer read without boundary_check=, an arange added to a runtime block index times a
 * block size (`pid * BLOCK_M`, `i_t * BT`), to a loop variable, or through a pointer advanced
 * with += in a loop; or a mask= the change itself took away. A runtime index times a
 * dimension (`i_h * K`, `token * num_heads`: whole heads or rows, which the tensor holds a
 * whole number of) is not tiling. A missing mask is left alone when the access cannot run
 * past the end:
 *   - it sits in a branch of an `if` (or conditional expression) whose condition is made only
 *     of constexpr parameters — the EVEN_K-style specialisation for whole blocks — or in the
 *     body of an `if` that checks at run time that the whole block fits (`row_base +
 *     BLOCK_M * stride <= M`, directly or through a local);
 *   - its offsets are clamped (`tl.minimum(...)`, `% n`) anywhere along the locals they are
 *     built from (tuple-unpacked locals such as `pid_m, pid_n = ...` are followed too);
 *   - it covers a whole constexpr axis, or it is a scalar access (no arange, no block
 *     pointer); a name that cannot be followed is no evidence either way.
 * A masked load whose value passes through tl.where before the reduction is left alone, as is
 * a call with a ** splat. Findings cover the call exactly. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collector.h"
#include "engine/py_outline.h"
#include "engine/diff_lines.h"
#include "engine/strset.h"
#include "engine/syntax.h"

#define MAX_NODES 256

/* --- small tree helpers ------------------------------------------------------------------- */

/* True when the node's text equals s. */
static bool text_is(const syntax_doc *d, TSNode n, const char *s)
{
    size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    return strlen(s) == len && memcmp(d->text + ts_node_start_byte(n), s, len) == 0;
}

/* The last dotted component of a call's callee ("arange" for tl.arange), as a new string. */
static char *callee_name(const syntax_doc *d, TSNode call)
{
    TSNode fn = syntax_node_field(call, "function");
    if (ts_node_is_null(fn))
        return xstrdup("");
    if (syntax_node_is(fn, "attribute")) {
        TSNode a = syntax_node_field(fn, "attribute");
        return ts_node_is_null(a) ? xstrdup("") : syntax_node_text(d, a);
    }
    return syntax_node_text(d, fn);
}

/* One assignment in the function: target name, value, and whether it is an augmented one. */
typedef struct assign {
    char *name;
    TSNode value;
    int line;
    bool augmented;
    bool in_loop;          /* inside a for/while body of the function */
} assign;

/* What the collector knows about the function around a call. */
typedef struct fn_info {
    TSNode node;           /* function_definition, or null at module level */
    strset consts;          /* constexpr parameters and locals with only compile-time values */
    strset params;          /* every parameter */
    strset loopvars;        /* for-loop targets */
    strset runtime_loopvars; /* ... of a loop whose trip count is known only at run time */
    assign *as;
    size_t nas, ascap;
    assign *loops;         /* each for-loop: its target name and its iterable */
    size_t nloops, loopcap;
} fn_info;

/* Free what a fn_info owns. */
static void fn_info_free(fn_info *fi)
{
    strset_free(&fi->consts);
    strset_free(&fi->params);
    strset_free(&fi->loopvars);
    strset_free(&fi->runtime_loopvars);
    for (size_t i = 0; i < fi->nas; i++)
        free(fi->as[i].name);
    free(fi->as);
    for (size_t i = 0; i < fi->nloops; i++)
        free(fi->loops[i].name);
    free(fi->loops);
    memset(fi, 0, sizeof *fi);
}

/* True when a Python annotation spells constexpr. */
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

/* Record one assignment of value to the identifier target. */
static void add_assign(const syntax_doc *d, fn_info *fi, TSNode target, TSNode value, int line,
                       bool augmented)
{
    assign *a = ARRAY_PUSH(fi->as, fi->nas, fi->ascap);
    a->name = syntax_node_text(d, target);
    a->value = value;
    a->line = line;
    a->augmented = augmented;
    a->in_loop = false;
    for (TSNode p = ts_node_parent(target); !ts_node_is_null(p) && !a->in_loop;
         p = ts_node_parent(p)) {
        if (syntax_node_is(p, "function_definition"))
            break;
        a->in_loop = syntax_node_is(p, "for_statement") || syntax_node_is(p, "while_statement");
    }
}

/* Record a tuple-unpacking assignment (`i_n, i_h = tl.program_id(0), tl.program_id(1)`): each
 * name gets its own element when the value is a tuple of the same length, else the whole
 * value (`pid_m, pid_n = pid_grid(...)`), so the names can be followed like any local. */
static void add_unpacked(const syntax_doc *d, fn_info *fi, TSNode left, TSNode right, int line)
{
    uint32_t nl = ts_node_named_child_count(left);
    bool pairwise = (syntax_node_is(right, "expression_list") || syntax_node_is(right, "tuple")) &&
                    ts_node_named_child_count(right) == nl;
    for (uint32_t i = 0; i < nl; i++) {
        TSNode t = ts_node_named_child(left, i);
        if (syntax_node_is(t, "identifier"))
            add_assign(d, fi, t, pairwise ? ts_node_named_child(right, i) : right, line, false);
    }
}

/* Collect assignments and for-loop targets of a body (not entering nested defs/classes). */
static void collect_assigns(const syntax_doc *d, TSNode n, fn_info *fi)
{
    const char *t = ts_node_type(n);
    if (strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0)
        return;
    if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right");
        bool aug = strcmp(t, "augmented_assignment") == 0;
        if (syntax_node_is(left, "identifier") && !ts_node_is_null(right))
            add_assign(d, fi, left, right, syntax_node_line(n), aug);
        else if ((syntax_node_is(left, "pattern_list") || syntax_node_is(left, "tuple_pattern")) && !ts_node_is_null(right))
            add_unpacked(d, fi, left, right, syntax_node_line(n));
    } else if (strcmp(t, "for_statement") == 0) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right");
        if (syntax_node_is(left, "identifier")) {
            char *nm = syntax_node_text(d, left);
            strset_add(&fi->loopvars, nm);
            assign *lp = ARRAY_PUSH(fi->loops, fi->nloops, fi->loopcap);
            lp->name = nm;
            lp->value = right;
            lp->line = syntax_node_line(n);
            lp->augmented = false;
            lp->in_loop = false;
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        collect_assigns(d, ts_node_named_child(n, i), fi);
}

static bool compile_time(const syntax_doc *d, TSNode n, const fn_info *fi);

/* Read the parameters, assignments and compile-time locals of a function. */
static void fn_info_build(const syntax_doc *d, TSNode fn, fn_info *fi)
{
    memset(fi, 0, sizeof *fi);
    fi->node = fn;
    if (ts_node_is_null(fn))
        return;
    TSNode ps = syntax_node_field(fn, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
        TSNode p = ts_node_named_child(ps, i), name = {0}, type = {0};
        if (syntax_node_is(p, "identifier")) {
            name = p;
        } else if (syntax_node_is(p, "default_parameter") || syntax_node_is(p, "typed_default_parameter")) {
            name = syntax_node_field(p, "name");
            type = syntax_node_field(p, "type");
        } else if (syntax_node_is(p, "typed_parameter")) {
            type = syntax_node_field(p, "type");
            for (uint32_t k = 0; k < ts_node_named_child_count(p); k++)
                if (syntax_node_is(ts_node_named_child(p, k), "identifier"))
                    name = ts_node_named_child(p, k);
        }
        if (!syntax_node_is(name, "identifier"))
            continue;
        char *nm = syntax_node_text(d, name);
        strset_add(&fi->params, nm);
        if (!ts_node_is_null(type) && is_constexpr_type(d, type))
            strset_add(&fi->consts, nm);
        free(nm);
    }
    TSNode body = syntax_node_field(fn, "body");
    if (!ts_node_is_null(body))
        collect_assigns(d, body, fi);
    /* locals whose every assignment is compile-time (an arange of constexprs counts) */
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < fi->nas; i++) {
            const char *nm = fi->as[i].name;
            if (strset_has(&fi->consts, nm) || strset_has(&fi->params, nm) ||
                strset_has(&fi->loopvars, nm))
                continue;
            bool all = true;
            for (size_t k = 0; k < fi->nas && all; k++)
                if (strcmp(fi->as[k].name, nm) == 0)
                    all = !fi->as[k].augmented && compile_time(d, fi->as[k].value, fi);
            if (all)
                grew |= strset_add(&fi->consts, nm);
        }
    }
    /* a loop over range()/static_range() of constexprs has a compile-time trip count: its
     * variable steps over a constexpr extent (a conv window, a fixed split), not a runtime
     * axis */
    for (size_t i = 0; i < fi->nloops; i++) {
        TSNode it = fi->loops[i].value, args = syntax_node_is(it, "call") ? syntax_node_field(it, "arguments") : it;
        if (ts_node_is_null(args) || !syntax_node_is(it, "call") || !compile_time(d, args, fi))
            strset_add(&fi->runtime_loopvars, fi->loops[i].name);
    }
}

/* True when every value name in the subtree is compile-time; a call is compile-time only when
 * it is an arange of compile-time bounds (program_id and loads are runtime). */
static bool compile_time(const syntax_doc *d, TSNode n, const fn_info *fi)
{
    if (syntax_node_is(n, "call")) {
        char *c = callee_name(d, n);
        bool ar = strcmp(c, "arange") == 0;
        free(c);
        TSNode args = syntax_node_field(n, "arguments");
        return ar && (ts_node_is_null(args) || compile_time(d, args, fi));
    }
    if (syntax_node_is(n, "attribute"))
        return true; /* tl.float32, x.dtype: not an offset */
    if (syntax_node_is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        bool c = strset_has(&fi->consts, t);
        free(t);
        return c;
    }
    if (syntax_node_is(n, "keyword_argument")) {
        TSNode v = syntax_node_field(n, "value");
        return ts_node_is_null(v) || compile_time(d, v, fi);
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (!compile_time(d, ts_node_named_child(n, i), fi))
            return false;
    return true;
}

/* --- following a pointer expression through its locals ------------------------------------ */

typedef struct expansion {
    TSNode nodes[MAX_NODES];
    size_t n;
    strset seen;
    bool advanced;        /* a name along the way is advanced with += */
} expansion;

/* True when n is a load call (tl.load, gl.load, a gather): its value is data, not an offset. */
static bool is_load_call(const syntax_doc *d, TSNode n)
{
    char *c = callee_name(d, n);
    bool load = strcmp(c, "load") == 0;
    free(c);
    return load;
}

/* Add the identifiers of n that are locals (their assigned values), recursively. */
static void expand_names(const syntax_doc *d, TSNode n, const fn_info *fi, expansion *ex)
{
    if (syntax_node_is(n, "attribute")) {
        expand_names(d, syntax_node_field(n, "object"), fi, ex);
        return;
    }
    if (syntax_node_is(n, "call")) {
        if (is_load_call(d, n))
            return; /* a loaded value is data: how its own address was formed is not ours */
        TSNode fn = syntax_node_field(n, "function");
        if (syntax_node_is(fn, "attribute"))
            expand_names(d, syntax_node_field(fn, "object"), fi, ex);
        TSNode args = syntax_node_field(n, "arguments");
        if (!ts_node_is_null(args))
            expand_names(d, args, fi, ex);
        return;
    }
    if (syntax_node_is(n, "keyword_argument")) {
        TSNode v = syntax_node_field(n, "value");
        if (!ts_node_is_null(v))
            expand_names(d, v, fi, ex);
        return;
    }
    if (syntax_node_is(n, "identifier")) {
        char *nm = syntax_node_text(d, n);
        if (!strset_add(&ex->seen, nm)) {
            free(nm);
            return;
        }
        for (size_t i = 0; i < fi->nas; i++) {
            if (strcmp(fi->as[i].name, nm) != 0)
                continue;
            if (fi->as[i].augmented && fi->as[i].in_loop)
                ex->advanced = true;  /* a pointer stepped each iteration, not a one-off shift */
            if (ex->n < MAX_NODES)
                ex->nodes[ex->n++] = fi->as[i].value;
            expand_names(d, fi->as[i].value, fi, ex);
        }
        free(nm);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        expand_names(d, ts_node_named_child(n, i), fi, ex);
}

typedef struct offs_facts {
    bool arange, block_ptr, clamped, tiled;
} offs_facts;

/* True when n is an arange call, or such a call subscripted (`tl.arange(0, B)[:, None]`), or a
 * name assigned one. */
static bool arange_like(const syntax_doc *d, TSNode n, const fn_info *fi, int depth)
{
    while (syntax_node_is(n, "subscript") || syntax_node_is(n, "parenthesized_expression"))
        n = syntax_node_is(n, "subscript") ? syntax_node_field(n, "value") : ts_node_named_child(n, 0);
    if (syntax_node_is(n, "call")) {
        char *c = callee_name(d, n);
        bool ar = strcmp(c, "arange") == 0;
        free(c);
        TSNode fn = syntax_node_field(n, "function");
        /* offs.to(tl.int64) is still offs */
        if (!ar && syntax_node_is(fn, "attribute") && depth < 8)
            ar = arange_like(d, syntax_node_field(fn, "object"), fi, depth + 1);
        return ar;
    }
    if (syntax_node_is(n, "argument_list") && depth < 8) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (arange_like(d, ts_node_named_child(n, i), fi, depth + 1))
                return true;
        return false;
    }
    if (syntax_node_is(n, "binary_operator") && depth < 8)
        return arange_like(d, syntax_node_field(n, "left"), fi, depth + 1) ||
               arange_like(d, syntax_node_field(n, "right"), fi, depth + 1);
    if (syntax_node_is(n, "identifier") && depth < 8) {
        for (size_t i = 0; i < fi->nas; i++)
            if (text_is(d, n, fi->as[i].name) && arange_like(d, fi->as[i].value, fi, depth + 1))
                return true;
    }
    return false;
}

/* True when n mentions the variable of a loop with a run-time trip count. */
static bool is_loopvar(const syntax_doc *d, TSNode n, const fn_info *fi)
{
    if (syntax_node_is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        bool lv = strset_has(&fi->runtime_loopvars, t);
        free(t);
        return lv;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (is_loopvar(d, ts_node_named_child(n, i), fi))
            return true;
    return false;
}

/* True when an identifier names a block (tile) size rather than a dimension of the tensor:
 * BLOCK_M, BLOCK_SIZE_N, block_rows, TILE_K, CHUNK, PACKED_BLOCK_M_X, and the short FLA-style
 * BT / BK / BV / BM (a B and one or two capitals); K, V, H, HEAD_DIM, num_heads are not. */
static bool block_size_name(const syntax_doc *d, TSNode id)
{
    char *t = syntax_node_text(d, id);
    bool block = false;
    static const char *const parts[] = {"block", "blk", "tile", "chunk", NULL};
    for (int i = 0; parts[i] && !block; i++)
        block = strcasestr(t, parts[i]) != NULL;
    size_t n = strlen(t);
    if (!block && (n == 2 || n == 3) && t[0] == 'B') {
        block = true;
        for (size_t i = 1; i < n; i++)
            block &= t[i] >= 'A' && t[i] <= 'Z';
    }
    free(t);
    return block;
}

/* True when n moves an arange along its own axis as a run-time loop advances: the loop
 * variable added in (`k + ...`), or times a block size (`k * BLOCK_K`). A loop variable times
 * a stride or a dimension (`(bos + t) * stride_tok`) steps whole rows instead. */
static bool slides(const syntax_doc *d, TSNode n, const fn_info *fi)
{
    while (syntax_node_is(n, "parenthesized_expression"))
        n = ts_node_named_child(n, 0);
    if (syntax_node_is(n, "identifier"))
        return is_loopvar(d, n, fi);
    if (!syntax_node_is(n, "binary_operator"))
        return false;
    TSNode o = syntax_node_field(n, "operator"), l = syntax_node_field(n, "left"), r = syntax_node_field(n, "right");
    const char *op = ts_node_is_null(o) ? "" : ts_node_type(o);
    if (strcmp(op, "+") == 0 || strcmp(op, "-") == 0)
        return slides(d, l, fi) || slides(d, r, fi);
    if (strcmp(op, "*") == 0)
        return (syntax_node_is(l, "identifier") && block_size_name(d, l) && slides(d, r, fi)) ||
               (syntax_node_is(r, "identifier") && block_size_name(d, r) && slides(d, l, fi));
    return false;
}

/* Gather facts about the offsets in one expression node (recursively). */
static void facts_of(const syntax_doc *d, TSNode n, const fn_info *fi, offs_facts *of)
{
    if (syntax_node_is(n, "call")) {
        char *c = callee_name(d, n);
        bool load = strcmp(c, "load") == 0;
        if (strcmp(c, "arange") == 0) {
            of->arange = true;
        } else if (strcmp(c, "make_block_ptr") == 0 || strcmp(c, "advance") == 0 ||
                   strcmp(c, "make_tensor_descriptor") == 0) {
            of->block_ptr = true;
        } else if ((strcmp(c, "minimum") == 0 || strcmp(c, "clamp") == 0) &&
                   arange_like(d, syntax_node_field(n, "arguments"), fi, 0)) {
            of->clamped = true;
        }
        free(c);
        if (load)
            return; /* a gathered index is data; its own address is another access */
    } else if (syntax_node_is(n, "binary_operator")) {
        TSNode o = syntax_node_field(n, "operator");
        const char *op = ts_node_is_null(o) ? "" : ts_node_type(o);
        TSNode l = syntax_node_field(n, "left"), r = syntax_node_field(n, "right");
        /* a wrap or clamp of the arange offsets themselves; `% n` in a program-id swizzle
         * does not bound the tile built from it */
        if (strcmp(op, "%") == 0 && arange_like(d, l, fi, 0))
            of->clamped = true;
        if (strcmp(op, "*") == 0 && !ts_node_is_null(l) && !ts_node_is_null(r)) {
            /* pid * BLOCK: a runtime block index stepping by a constexpr block size. A
             * constexpr that is a dimension (`i_h * K` with K the head size) steps over whole
             * rows or heads, which the tensor holds a whole number of: no tiling. */
            bool lc = compile_time(d, l, fi), rc = compile_time(d, r, fi);
            bool lblock = syntax_node_is(l, "identifier") && lc && block_size_name(d, l);
            bool rblock = syntax_node_is(r, "identifier") && rc && block_size_name(d, r);
            if ((lblock && !rc) || (rblock && !lc))
                of->tiled = true;
        }
        if (strcmp(op, "+") == 0 && !ts_node_is_null(l) && !ts_node_is_null(r)) {
            /* k + arange with k a loop variable: the arange slides along the axis */
            if ((arange_like(d, l, fi, 0) && slides(d, r, fi)) ||
                (arange_like(d, r, fi, 0) && slides(d, l, fi)))
                of->tiled = true;
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        facts_of(d, ts_node_named_child(n, i), fi, of);
}

/* --- the checks --------------------------------------------------------------------------- */

/* True when the call sits in a branch of an if / conditional expression whose condition is
 * made of constexpr names only; *cond gets its text (new string). */
static bool constexpr_branch(const syntax_doc *d, TSNode call, const fn_info *fi, char **cond)
{
    for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, fi->node);
         p = ts_node_parent(p)) {
        TSNode c = {0};
        if (syntax_node_is(p, "if_statement") || syntax_node_is(p, "elif_clause"))
            c = syntax_node_field(p, "condition");
        else if (syntax_node_is(p, "conditional_expression") && ts_node_named_child_count(p) == 3)
            c = ts_node_named_child(p, 1);
        if (ts_node_is_null(c) || (ts_node_start_byte(call) >= ts_node_start_byte(c) &&
                                   ts_node_end_byte(call) <= ts_node_end_byte(c)))
            continue;
        bool any = false;
        /* every identifier in the condition is a constexpr parameter */
        TSNode stack[64];
        size_t sp = 0;
        bool ok = true;
        stack[sp++] = c;
        while (sp && ok) {
            TSNode x = stack[--sp];
            if (syntax_node_is(x, "identifier")) {
                char *t = syntax_node_text(d, x);
                ok = strset_has(&fi->consts, t) && strset_has(&fi->params, t);
                any = true;
                free(t);
                continue;
            }
            if (syntax_node_is(x, "call") || syntax_node_is(x, "attribute") || syntax_node_is(x, "subscript"))
                ok = false;
            for (uint32_t i = 0; i < ts_node_named_child_count(x) && sp < 64; i++)
                stack[sp++] = ts_node_named_child(x, i);
        }
        if (ok && any) {
            *cond = syntax_node_text(d, c);
            return true;
        }
    }
    return false;
}

/* True when the subtree mentions a constexpr whose name is a block size. */
static bool mentions_block_size(const syntax_doc *d, TSNode n, const fn_info *fi)
{
    if (syntax_node_is(n, "identifier")) {
        char *t = syntax_node_text(d, n);
        bool c = strset_has(&fi->consts, t);
        free(t);
        return c && block_size_name(d, n);
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (mentions_block_size(d, ts_node_named_child(n, i), fi))
            return true;
    return false;
}

/* True when a condition checks that a whole block fits: an ordering comparison (<, <=, >, >=)
 * with a block size on one side (`row_base + BLOCK_M * stride <= M`), directly or through a
 * local it names (`is_full = ...; if is_full and not PADDED:`). */
static bool full_tile_cond(const syntax_doc *d, TSNode n, const fn_info *fi, int depth)
{
    if (syntax_node_is(n, "comparison_operator")) {
        bool ordering = false;
        for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
            const char *t = ts_node_type(ts_node_child(n, i));
            ordering |= strcmp(t, "<") == 0 || strcmp(t, "<=") == 0 || strcmp(t, ">") == 0 ||
                        strcmp(t, ">=") == 0;
        }
        if (ordering && mentions_block_size(d, n, fi))
            return true;
    }
    if (syntax_node_is(n, "identifier") && depth < 3) {
        for (size_t i = 0; i < fi->nas; i++)
            if (!fi->as[i].augmented && text_is(d, n, fi->as[i].name) &&
                full_tile_cond(d, fi->as[i].value, fi, depth + 1))
                return true;
        return false;
    }
    if (syntax_node_is(n, "call"))
        return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (full_tile_cond(d, ts_node_named_child(n, i), fi, depth))
            return true;
    return false;
}

/* True when the call sits in the body of an `if` whose condition checks at run time that the
 * whole block is in range (the fast path of a kernel whose else branch masks). */
static bool full_tile_branch(const syntax_doc *d, TSNode call, const fn_info *fi)
{
    TSNode child = call;
    for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, fi->node);
         child = p, p = ts_node_parent(p)) {
        if (!syntax_node_is(p, "if_statement"))
            continue;
        TSNode body = syntax_node_field(p, "consequence"), c = syntax_node_field(p, "condition");
        if (!ts_node_is_null(body) && ts_node_eq(body, child) && !ts_node_is_null(c) &&
            full_tile_cond(d, c, fi, 0))
            return true;
    }
    return false;
}

/* The argument given by keyword kw or at positional index pos (-1: none), or NULL. */
static const syn_arg *arg_of(const syn_call *c, const char *kw, int pos)
{
    const syn_arg *a = syntax_call_arg(c, -1, kw);
    if (a)
        return a;
    if (pos < 0)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < c->nargs; i++)
        if (!c->args[i].keyword && k++ == (size_t)pos)
            return c->args[i].text[0] == '*' ? NULL : &c->args[i];
    return NULL;
}

/* The call node of c (the smallest call covering its span). */
static TSNode call_node(const syntax_doc *d, const syn_call *c)
{
    size_t s = syntax_line_start(d, c->line) + (size_t)c->col;
    size_t e = syntax_line_start(d, c->end_line) + (size_t)c->end_col;
    TSNode n = syntax_node_at(d, s, e);
    while (!ts_node_is_null(n) && !syntax_node_is(n, "call"))
        n = ts_node_parent(n);
    return n;
}

/* The function_definition around node, or a null node. */
static TSNode enclosing_def(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (syntax_node_is(p, "function_definition"))
            return p;
    TSNode none = {0};
    return none;
}

/* What reaches_reduction answered for one (name, depth) within one body: a kernel whose
 * locals feed one another (`x1 = x0 * w`, `x2 = x1 + b`, ...) would otherwise be rescanned once
 * per path between them, which grows as their count to the power of the depth followed. */
typedef struct reach_entry {
    char *name;
    int depth;
    bool hit;
    int red;
    char *redname;
} reach_entry;

typedef struct reach_memo {
    reach_entry *items;
    size_t n, cap;
} reach_memo;

static void reach_memo_free(reach_memo *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->items[i].name);
        free(m->items[i].redname);
    }
    free(m->items);
}

/* True when n (a value) reaches a max/min reduction in the function without passing through
 * tl.where; *red gets the reduction's line. Follows locals assigned from it. */
static bool reaches_reduction(const syntax_doc *d, TSNode body, const char *name, int depth,
                              int *red, char **redname, reach_memo *m);

/* Look for reductions of name (or of locals derived from it) inside n. */
static bool scan_uses(const syntax_doc *d, TSNode n, const char *name, int depth, int *red,
                      char **redname, TSNode body, reach_memo *m)
{
    /* innermost first, so tl.maximum(m, tl.max(x)) names the max that reads x */
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (scan_uses(d, ts_node_named_child(n, i), name, depth, red, redname, body, m))
            return true;
    if (syntax_node_is(n, "call")) {
        char *c = callee_name(d, n);
        bool reduce = strcmp(c, "max") == 0 || strcmp(c, "min") == 0 ||
                      strcmp(c, "argmax") == 0 || strcmp(c, "argmin") == 0 ||
                      strcmp(c, "maximum") == 0 || strcmp(c, "minimum") == 0;
        bool where = strcmp(c, "where") == 0;
        if (where) {
            free(c);
            return false;
        }
        if (reduce) {
            TSNode args = syntax_node_field(n, "arguments");
            TSNode stack[64];
            size_t sp = 0;
            if (!ts_node_is_null(args))
                stack[sp++] = args;
            while (sp) {
                TSNode x = stack[--sp];
                if (syntax_node_is(x, "identifier") && text_is(d, x, name)) {
                    *red = syntax_node_line(n);
                    *redname = c;
                    return true;
                }
                if (syntax_node_is(x, "call")) {
                    char *cc = callee_name(d, x);
                    bool w = strcmp(cc, "where") == 0;
                    free(cc);
                    if (w)
                        continue;
                }
                for (uint32_t i = 0; i < ts_node_named_child_count(x) && sp < 64; i++)
                    stack[sp++] = ts_node_named_child(x, i);
            }
        }
        free(c);
    }
    if (syntax_node_is(n, "assignment") && depth < 6) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right");
        if (syntax_node_is(left, "identifier") && !ts_node_is_null(right) && !text_is(d, left, name)) {
            /* a local computed from the value (not through tl.where) carries it on */
            bool uses = false, where = false;
            TSNode stack[64];
            size_t sp = 0;
            stack[sp++] = right;
            while (sp) {
                TSNode x = stack[--sp];
                if (syntax_node_is(x, "identifier") && text_is(d, x, name))
                    uses = true;
                if (syntax_node_is(x, "call")) {
                    char *cc = callee_name(d, x);
                    where |= strcmp(cc, "where") == 0;
                    free(cc);
                }
                for (uint32_t i = 0; i < ts_node_named_child_count(x) && sp < 64; i++)
                    stack[sp++] = ts_node_named_child(x, i);
            }
            if (uses && !where) {
                char *l = syntax_node_text(d, left);
                bool r = reaches_reduction(d, body, l, depth + 1, red, redname, m);
                free(l);
                if (r)
                    return true;
            }
        }
    }
    return false;
}

/* Entry of the use scan over a whole body, answered once per (name, depth) (m: the answers so
 * far for this body). */
static bool reaches_reduction(const syntax_doc *d, TSNode body, const char *name, int depth,
                              int *red, char **redname, reach_memo *m)
{
    for (size_t i = 0; i < m->n; i++) {
        const reach_entry *e = &m->items[i];
        if (e->depth == depth && strcmp(e->name, name) == 0) {
            if (e->hit) {
                *red = e->red;
                free(*redname);
                *redname = xstrdup(e->redname);
            }
            return e->hit;
        }
    }
    int r = 0;
    char *rn = NULL;
    bool hit = scan_uses(d, body, name, depth, &r, &rn, body, m);
    *ARRAY_PUSH(m->items, m->n, m->cap) =
        (reach_entry){.name = xstrdup(name), .depth = depth, .hit = hit, .red = r, .redname = rn ? xstrdup(rn) : NULL};
    if (hit) {
        *red = r;
        free(*redname);
        *redname = rn;
    } else {
        free(rn);
    }
    return hit;
}

/* True when name is reassigned through tl.where on a line in (from, to]: the masked lanes
 * are replaced before the reduction reads them. */
static bool neutralised(const syntax_doc *d, TSNode n, const char *name, int from, int to)
{
    if (syntax_node_is(n, "assignment")) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right");
        int line = syntax_node_line(n);
        if (syntax_node_is(left, "identifier") && text_is(d, left, name) && line > from && line <= to &&
            !ts_node_is_null(right)) {
            TSNode stack[64];
            size_t sp = 0;
            stack[sp++] = right;
            while (sp) {
                TSNode x = stack[--sp];
                if (syntax_node_is(x, "call")) {
                    char *c = callee_name(d, x);
                    bool w = strcmp(c, "where") == 0;
                    free(c);
                    if (w)
                        return true;
                }
                for (uint32_t i = 0; i < ts_node_named_child_count(x) && sp < 64; i++)
                    stack[sp++] = ts_node_named_child(x, i);
            }
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (neutralised(d, ts_node_named_child(n, i), name, from, to))
            return true;
    return false;
}

typedef struct file_counts {
    int t1, t2;
} file_counts;

/* s without white space, as a new string. */
static char *squeeze(const char *s, size_t n)
{
    char *out = xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            out[k++] = s[i];
    out[k] = '\0';
    return out;
}

/* True when the change deleted a masked form of this call: a run of deleted lines holding
 * `name(POINTER` (white space ignored) with a mask= shortly after. A mask the change takes
 * away is a finding whatever the offsets look like: the axis did not change, the guard did. */
static bool mask_removed(const change_file *f, const char *name, const char *ptr_text)
{
    char *ptr = squeeze(ptr_text, strlen(ptr_text));
    char *key = xasprintf("%s(%s", name, ptr);
    bool found = false;
    for (size_t i = 0; i < f->nlines && !found;) {
        if (f->lines[i].kind != '-') {
            i++;
            continue;
        }
        strbuf run;
        sb_init(&run);
        for (; i < f->nlines && f->lines[i].kind == '-'; i++)
            sb_add(&run, f->lines[i].text, f->lines[i].len);
        char *flat = squeeze(run.buf ? run.buf : "", run.len);
        for (const char *at = strstr(flat, key); at && !found; at = strstr(at + 1, key)) {
            const char *m = strstr(at, "mask=");
            found = m && m - at < 240;
        }
        free(flat);
        sb_free(&run);
    }
    free(key);
    free(ptr);
    return found;
}

/* Judge one load/store call. */
static void judge_call(collector_ctx *ctx, const change_file *f, const syntax_doc *d,
                       const syn_call *c, TSNode call, const fn_info *fip, file_counts *fc)
{
    bool load = strcmp(c->name, "load") == 0;
    for (size_t i = 0; i < c->nargs; i++)
        if (!c->args[i].keyword && str_starts(c->args[i].text, "**"))
            return;
    const fn_info fi = *fip;
    const syn_arg *mask = arg_of(c, "mask", load ? 1 : 2);
    const syn_arg *bc = arg_of(c, "boundary_check", -1);
    text_range range = {c->line, c->col, c->end_line, c->end_col};
    if (!mask && !bc) {
        char *cond = NULL;
        if (constexpr_branch(d, call, &fi, &cond)) {
            free(cond);
            return;
        }
        if (full_tile_branch(d, call, &fi))
            return;
        const syn_arg *ptr = arg_of(c, "pointer", 0);
        expansion ex;
        memset(&ex, 0, sizeof ex);
        offs_facts of = {0};
        if (ptr) {
            size_t s = syntax_line_start(d, ptr->line) + (size_t)ptr->col;
            size_t e = syntax_line_start(d, ptr->end_line) + (size_t)ptr->end_col;
            TSNode pn = syntax_node_at(d, s, e);
            facts_of(d, pn, &fi, &of);
            expand_names(d, pn, &fi, &ex);
            for (size_t i = 0; i < ex.n; i++)
                facts_of(d, ex.nodes[i], &fi, &of);
        }
        /* Only positive evidence makes a finding: a name that cannot be followed, or an
         * arange bound not seen to be constexpr (Triton only compiles constexpr bounds), says
         * nothing about the axis, and a scalar access cannot run past a block. */
        const char *why = NULL;
        if (!ptr || of.clamped)
            why = NULL;
        else if (of.block_ptr)
            why = "it reads a block pointer without boundary_check=";
        else if (of.arange && (of.tiled || ex.advanced))
            why = "its offsets tile a runtime axis in blocks";
        else if (mask_removed(f, c->name, ptr->text))
            why = "this change removed its mask= and nothing in the offsets replaces it";
        bool flag = why != NULL;
        if (flag) {
            finding *fd = findings_add(
                ctx->out, "T1", SEV_WARNING, f->path, c->line,
                "`%s` with no mask=: %s, so unless that axis is a whole number of blocks the "
                "last block %s past the end of the tensor (B2) — %s, or show the axis is a "
                "constexpr multiple of the block", c->callee, why, load ? "reads" : "writes",
                of.block_ptr ? "pass boundary_check=" : load ? "add mask= (and other=)"
                                                             : "add mask=");
            fd->range = range;
            fc->t1++;
        }
        strset_free(&ex.seen);
        return;
    }
    if (load && mask && !arg_of(c, "other", 2) && !ts_node_is_null(fi.node)) {
        /* where does the loaded value go? */
        TSNode p = ts_node_parent(call);
        while (syntax_node_is(p, "call") || syntax_node_is(p, "attribute") || syntax_node_is(p, "argument_list") ||
               syntax_node_is(p, "parenthesized_expression") || syntax_node_is(p, "binary_operator"))
            p = ts_node_parent(p);
        int red = 0;
        char *redname = NULL;
        bool hit = false;
        TSNode body = syntax_node_field(fi.node, "body");
        /* nested directly in a reduction */
        for (TSNode q = ts_node_parent(call); !ts_node_is_null(q) && !hit; q = ts_node_parent(q)) {
            if (syntax_node_is(q, "call")) {
                char *cn = callee_name(d, q);
                if (strcmp(cn, "where") == 0) {
                    free(cn);
                    break;
                }
                if (strcmp(cn, "max") == 0 || strcmp(cn, "min") == 0 || strcmp(cn, "argmax") == 0 ||
                    strcmp(cn, "argmin") == 0 || strcmp(cn, "maximum") == 0 ||
                    strcmp(cn, "minimum") == 0) {
                    hit = true;
                    red = syntax_node_line(q);
                    redname = cn;
                    break;
                }
                free(cn);
            }
            if (syntax_node_is(q, "expression_statement") || syntax_node_is(q, "block"))
                break;
        }
        if (!hit && syntax_node_is(p, "assignment") && !ts_node_is_null(body)) {
            TSNode left = syntax_node_field(p, "left");
            if (syntax_node_is(left, "identifier")) {
                char *nm = syntax_node_text(d, left);
                reach_memo m = {0};
                hit = reaches_reduction(d, body, nm, 0, &red, &redname, &m) &&
                      !neutralised(d, body, nm, c->line, red);
                reach_memo_free(&m);
                free(nm);
            }
        }
        if (hit) {
            finding *fd = findings_add(
                ctx->out, "T2", SEV_INFORMATION, f->path, c->line,
                "`%s` is masked but has no other=: masked-off lanes read as 0 and flow into "
                "`%s` on line %d, where a 0 can win — give other= the reduction's neutral "
                "value (-inf for a max, +inf for a min)", c->callee, redname, red);
            fd->range = range;
            if (red != c->line)
                finding_add_related(fd, f->path, red, "the reduction the masked lanes reach");
            fc->t2++;
        }
        free(redname);
    }
}

/* True when a call is a Triton/Gluon load or store (tl.load, gl.store, ...). */
static bool is_load_store(const syn_call *c)
{
    if (strcmp(c->name, "load") != 0 && strcmp(c->name, "store") != 0)
        return false;
    if (!c->receiver)
        return false;
    const char *r = strrchr(c->receiver, '.');
    r = r ? r + 1 : c->receiver;
    return strcmp(r, "tl") == 0 || strcmp(r, "gl") == 0 || strcmp(r, "language") == 0;
}

/* True when an added line of f (head text [0, len)) is in a statement that spells load or
 * store: a call the stage judges overlaps an added line, and so lies in that line's
 * statement. */
static bool may_judge(collector_ctx *ctx, const change_file *f, const char *text, size_t len)
{
    if (!memmem(text, len, "load", 4) && !memmem(text, len, "store", 5))
        return false;
    py_outline *own = NULL;
    const py_outline *o = collector_outline(ctx, f, text, len, &own);
    bool may = false;
    int seen = 0;
    for (size_t i = 0; i < f->nlines && !may; i++) {
        int l = f->lines[i].new_no;
        if (f->lines[i].kind != '+' || l < 1 || l > o->nlines || o->stmt_first[l] <= seen)
            continue;
        seen = o->stmt_first[l];
        may = py_outline_stmt_has_word(o, text, l, "load") || py_outline_stmt_has_word(o, text, l, "store");
    }
    py_outline_free(own);
    return may;
}

/* The runner parses a file ahead only when the stage may judge a call in it. */
static bool parse_ahead(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const py_outline *o)
{
    return may_judge(ctx, f, head, hlen);
}

/* Check one file; returns the number of load/store calls judged, or -1 when skipped. */
static int check_file(collector_ctx *ctx, const change_file *f, file_counts *fc, char **why)
{
    size_t len;
    char *text = change_head_text(ctx->chg, f, &len, why);
    if (!text)
        return -1;
    /* a file where no added line's statement spells load or store has no call to judge: not
     * parsed or walked */
    if (!may_judge(ctx, f, text, len)) {
        free(text);
        return 0;
    }
    syntax_doc *owned = NULL;
    const syntax_doc *d = collector_doc(ctx, f, false, text, len, &owned, why);
    free(text);
    if (!d)
        return -1;
    /* only the calls an added line is in are judged: the others are not listed */
    size_t nruns;
    line_run *runs = diff_lines_added_runs(f, &nruns);
    syn_call_list calls = {0};
    syntax_calls_touching(d, runs, nruns, &calls);
    free(runs);
    int judged = 0;
    fn_info fi;
    bool have_fi = false;
    for (size_t i = 0; i < calls.n; i++) {
        const syn_call *c = &calls.items[i];
        if (!is_load_store(c) || !diff_lines_adds_in(f, c->line, c->end_line))
            continue;
        TSNode call = call_node(d, c);
        if (ts_node_is_null(call))
            continue;
        judged++;
        /* consecutive calls mostly share their function: read it once */
        TSNode def = enclosing_def(call);
        if (!have_fi || !ts_node_eq(def, fi.node)) {
            if (have_fi)
                fn_info_free(&fi);
            fn_info_build(d, def, &fi);
            have_fi = true;
        }
        judge_call(ctx, f, d, c, call, &fi, fc);
    }
    if (have_fi)
        fn_info_free(&fi);
    syn_call_list_free(&calls);
    syntax_free(owned);
    return judged;
}

/* What one file's stage found, for the status line. */
typedef struct tm_facts {
    int judged;
    file_counts fc;
} tm_facts;

/* The files it reads: Python files that gain lines. */
static bool reads(const change_file *f)
{
    return str_ends(f->path, ".py") && !f->is_deleted && !f->is_skipped && f->nadd;
}

/* The per-file stage: judge the loads and stores on the file's added lines. */
static void triton_masks_file(collector_file_ctx *fx)
{
    file_counts fc = {0, 0};
    int n = check_file(fx->review, fx->f, &fc, &fx->skip);
    if (n < 0)
        return;
    tm_facts *t = xcalloc(1, sizeof *t);
    t->judged = n;
    t->fc = fc;
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void triton_masks_change(collector_ctx *ctx, const collector_files *files)
{
    if (collector_files_status(ctx, files, "no Python file gains lines"))
        return;
    int judged = 0;
    file_counts fc = {0, 0};
    for (size_t i = 0; i < files->n; i++) {
        const tm_facts *t = files->items[i].facts;
        if (!t)
            continue;
        judged += t->judged;
        fc.t1 += t->fc.t1;
        fc.t2 += t->fc.t2;
    }
    if (!judged)
        collector_status(ctx, "nothing found: no tl.load or tl.store on an added line");
    else if (fc.t1 + fc.t2)
        collector_status(ctx, "found %d unmasked load/store%s (T1) and %d masked load%s with no "
                         "other= feeding a max/min (T2) among %d on added lines", fc.t1,
                         fc.t1 == 1 ? "" : "s", fc.t2, fc.t2 == 1 ? "" : "s", judged);
    else
        collector_status(ctx, "nothing found: the %d tl.load/tl.store call%s on added lines are "
                         "masked, clamped, whole constexpr blocks or scalar", judged,
                         judged == 1 ? "" : "s");
}

const collector collector_triton_masks = {
    .name = "triton_masks",
    .rules = "T1 T2 B2",
    .langs = COLLECT_PYTHON,
    .reads = reads,
    .file_stage = triton_masks_file,
    .parse_ahead = parse_ahead,
    .change_stage = triton_masks_change,
};
