/* The index-width collector (rule D9): on the lines a change adds to kernel code, a product
 * computed in 32 bits that reaches a global-memory offset and can pass 2^31 at production
 * scale — aiter#3844's `token_id * num_heads * head_dim`, aiter#3541's physical block times a
 * block stride on a ~150M-row KV pool, the expert offsets of the moe_wgrad kernels.
 *
 * Three questions decide it, each answered structurally:
 *   - Does the product reach a global address? The sinks are the address arguments of loads,
 *     stores and atomics (tl.load's pointer, a buffer load's offset, FlyDSL's buffer_ops), the
 *     index of a tensor subscript, pointer arithmetic on a pointer (`x_ptr + off`,
 *     `out + base`), and what a device helper returns; a local that is used there passes the
 *     question on to the values assigned to it. Shared memory (LDS), C++ local arrays and
 *     Python lists (registers at trace time) are not global memory.
 *   - Is it 32-bit? Not when a factor is already 64-bit: an int64 parameter or local, a cast
 *     (`.to(tl.int64)`, `static_cast<int64_t>`, `(size_t)`), or FlyDSL's index type
 *     (`fx.Index`, `arith.index`, `fx.Int64`). C's left-to-right evaluation is followed:
 *     in `a * b * (int64_t)c`, `a * b` is still 32-bit.
 *   - Can it pass 2^31? Each factor's largest value is estimated from where it comes from
 *     (index_scope.h, index_range.h): a head, lane, warp or tile index is small, a token/row
 *     or KV-block index large, a stride over the token or batch axis large and over a head or
 *     column axis small, values of a FlyDSL builder fixed when the kernel is built. Only the
 *     outermost product that can pass 2^31 is reported, not the harmless one inside it.
 * One finding per kernel and overflowing index (the dominant runtime name of the product);
 * the other places it is multiplied in 32 bits are its related locations. Host code is not
 * reported: Python integers do not wrap and a host product is not a device offset. */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/py_outline.h"
#include "engine/collectors/index_scope.h"
#include "engine/syntax.h"

#define OVERFLOW_BITS 32 /* a < 2^p and b < 2^q give a * b < 2^(p+q): past 2^31 needs p + q >= 32 */
#define MAX_RELATED 8

/* One product that can overflow. */
typedef struct cand {
    uint32_t start, end;
    int line, col, end_line, end_col;
    int bits;
    char *expr;        /* its text, white space folded, truncated */
    char *key;         /* the runtime name that dominates it */
    char *why;         /* its two sides, described */
    int key_line;      /* where the key is declared (0: not known) */
    int sink_line;     /* the address it feeds (0: not known) */
    char *via;         /* the local it feeds that address through ("a, then b" when the
                          address names a later local assigned from it), or NULL */
    ix_scope *kernel;
    bool done;
} cand;

/* An address expression (a sink) and the scope it is in. */
typedef struct addr {
    TSNode n;
    ix_scope *s;
} addr;

typedef struct run {
    collector_file_ctx *fx;
    collector_ctx *ctx;
    char *deleted;         /* the change's deleted code, white space removed (see was_deleted);
                              read on first need, since only then does the file's result
                              depend on the other files of the change */
    bool deleted_read;
    const change_file *f;
    const syntax_doc *d;
    ix_file xf;
    bool *added;       /* added[line] for head lines 1..nlines */
    int nlines;
    addr *addrs;
    size_t naddrs, acap;
    cand *cands;
    size_t ncands, ccap;
    uint32_t *moved_at;    /* start bytes of the moved products seen (each counted once) */
    long feeds;            /* while scanning: the index in addrs of the address scanned, or -1 */
    ix_scope *via_scope;   /* while scanning a local's value: the local and its scope */
    const ix_entry *via;
    size_t nmoved, moved_cap;
    int findings, sites;
} run;

/* --- small tree helpers --------------------------------------------------------------------- */

/* True when the change adds a line in [first, last]. */
static bool touched(const run *r, int first, int last)
{
    for (int l = first < 1 ? 1 : first; l <= last && l <= r->nlines; l++)
        if (r->added[l])
            return true;
    return false;
}

/* Text of a node with runs of white space folded to one space, at most max bytes. */
static char *flat_text(const syntax_doc *d, TSNode n, size_t max)
{
    char *t = syntax_node_text(d, n);
    char *o = t;
    bool sp = false;
    for (char *p = t; *p; p++) {
        if (isspace((unsigned char)*p)) {
            sp = true;
            continue;
        }
        if (sp && o != t && o[-1] != '(' && o[-1] != '[' && *p != ')' && *p != ']')
            *o++ = ' ';
        sp = false;
        *o++ = *p;
    }
    *o = '\0';
    if (strlen(t) > max && max > 3)
        strcpy(t + max - 3, "...");
    return t;
}

/* The identifier at the root of an object expression (`a.b[c]` → a), or a null node. */
static TSNode root_ident(TSNode n)
{
    for (int guard = 0; guard < 16 && !ts_node_is_null(n); guard++) {
        if (syntax_node_is(n, "identifier"))
            return n;
        if (syntax_node_is(n, "attribute"))
            n = syntax_node_field(n, "object");
        else if (syntax_node_is(n, "field_expression") || syntax_node_is(n, "subscript_expression") ||
                 syntax_node_is(n, "pointer_expression"))
            n = syntax_node_field(n, "argument");
        else if (syntax_node_is(n, "subscript"))
            n = syntax_node_field(n, "value");
        else if (syntax_node_is(n, "parenthesized_expression") && ts_node_named_child_count(n))
            n = ts_node_named_child(n, 0);
        else
            break;
    }
    return (TSNode){{0}, NULL, NULL};
}

/* --- where memory is: shared, registers, pointers ------------------------------------------- */

/* True when an expression names shared memory (an LDS entry, or an LDS spelling). */
static bool is_lds(run *r, ix_scope *s, TSNode n)
{
    TSNode id = root_ident(n);
    if (ts_node_is_null(id))
        return false;
    ix_entry *e = ix_resolve_node(&r->xf, s, id, NULL);
    if (e && e->lds)
        return true;
    char *nm = syntax_node_text(r->d, id);
    ir_name cls;
    ir_classify(nm, false, IR_DOMAIN_DEFAULT, &cls);
    free(nm);
    return cls.lds;
}

/* True when an expression is a pointer into global memory used as a base of arithmetic. */
static bool is_pointer(run *r, ix_scope *s, TSNode n)
{
    n = ir_unparen(n);
    if (syntax_node_is(n, "cast_expression") || syntax_node_is(n, "call_expression")) {
        TSNode ty = syntax_node_is(n, "cast_expression") ? syntax_node_field(n, "type") : syntax_node_field(syntax_node_field(n, "function"), "arguments");
        if (ts_node_is_null(ty))
            return false;
        char *t = syntax_node_text(r->d, ty);
        bool p = strchr(t, '*') != NULL;
        free(t);
        return p && !is_lds(r, s, syntax_node_is(n, "cast_expression") ? syntax_node_field(n, "value") : n);
    }
    TSNode name = syntax_node_is(n, "identifier") ? n : syntax_node_is(n, "attribute") ? syntax_node_field(n, "attribute")
                  : syntax_node_is(n, "field_expression") ? syntax_node_field(n, "field") : (TSNode){{0}, NULL, NULL};
    if (ts_node_is_null(name))
        return false;
    ix_entry *e = syntax_node_is(n, "identifier") ? ix_resolve_node(&r->xf, s, n, NULL) : NULL;
    if (e && (e->lds || e->array || e->list))
        return false;
    char *nm = syntax_node_text(r->d, name);
    ir_name cls;
    ir_classify(nm, false, IR_DOMAIN_DEFAULT, &cls);
    free(nm);
    return !cls.lds && ((e && e->pointer) || cls.pointer);
}

/* --- sinks ------------------------------------------------------------------------------------ */

/* Record an address expression. */
static void add_addr(run *r, ix_scope *s, TSNode n)
{
    if (ts_node_is_null(n))
        return;
    addr *a = ARRAY_PUSH(r->addrs, r->naddrs, r->acap);
    a->n = n;
    a->s = s;
}

/* Keyword arguments that carry an address or an offset. */
static const char *const address_keywords[] = {
    "offset", "offsets", "voffset", "soffset", "soffset_bytes", "ptr", "pointer", "base", "index",
    "indices", "idx", "addr", "coord", "coords", "offs", NULL,
};

/* True when the callee name is a memory access. */
static bool memory_call(const char *nm)
{
    if (strstr(nm, "lds") || strstr(nm, "smem") || strstr(nm, "shared") || !strncmp(nm, "ds_", 3))
        return false;
    return strstr(nm, "load") || strstr(nm, "store") || strstr(nm, "atomic") ||
           strstr(nm, "gather") || strstr(nm, "scatter") || strstr(nm, "prefetch") ||
           strstr(nm, "make_block_ptr") || strstr(nm, "async_copy");
}

/* The address arguments of a memory call: which positional ones, by API shape. */
static void call_sinks(run *r, ix_scope *s, TSNode call)
{
    char nm[64];
    TSNode fn = syntax_node_field(call, "function");
    ir_callee_name(r->d, fn, nm, sizeof nm);
    if (!memory_call(nm))
        return;
    /* Triton/Gluon (`tl.load(ptr)`, `gl.amd...buffer_load(ptr, offsets)`) put the address
     * first; most other stores take the value first */
    char *recv = syntax_node_is(fn, "attribute") ? syntax_node_text(r->d, syntax_node_field(fn, "object")) : xstrdup("");
    bool triton = !strcmp(recv, "tl") || !strcmp(recv, "gl") || !strncmp(recv, "gl.", 3) ||
                  !strncmp(recv, "tl.", 3) || strstr(recv, "triton") != NULL;
    free(recv);
    bool store = strstr(nm, "store") != NULL;
    int from = 0, to = 64;
    if (triton && !strstr(nm, "buffer"))
        to = 1;
    else if (triton)
        from = store ? 1 : 0, to = store ? 3 : 2;
    else if (store)
        from = 1;
    TSNode args = syntax_node_field(call, "arguments");
    TSNode picked[16];
    int np = 0, pos = 0;
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (syntax_node_is(a, "comment"))
            continue;
        if (syntax_node_is(a, "keyword_argument")) {
            char *k = syntax_node_text(r->d, syntax_node_field(a, "name"));
            bool want = false;
            for (int j = 0; address_keywords[j]; j++)
                want |= !strcmp(k, address_keywords[j]);
            free(k);
            if (want && np < 16)
                picked[np++] = syntax_node_field(a, "value");
            continue;
        }
        if (pos >= from && pos < to && np < 16)
            picked[np++] = a;
        pos++;
    }
    for (int i = 0; i < np; i++)
        if (is_lds(r, s, picked[i]))
            return;
    if (strstr(nm, "load") || strstr(nm, "atomic") || store)
        for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
            if (is_lds(r, s, ts_node_named_child(args, i)) && !triton && !store)
                return;
    for (int i = 0; i < np; i++)
        add_addr(r, s, picked[i]);
}

/* A subscript of a tensor, pointer or global array: its indices are addresses. Python lists,
 * C++ local arrays and shared memory are not global memory. */
static void subscript_sinks(run *r, ix_scope *s, TSNode n)
{
    TSNode obj = syntax_node_field(n, r->xf.py ? "value" : "argument");
    TSNode id = root_ident(obj);
    if (is_lds(r, s, obj))
        return;
    if (!ts_node_is_null(id)) {
        ix_entry *e = ix_resolve_node(&r->xf, s, id, NULL);
        if (r->xf.py && (!e || e->list || e->compile_time || !ts_node_eq(id, obj)))
            return;
        if (e && (e->array || e->list))
            return;
    } else if (r->xf.py) {
        return;
    }
    TSNode idx = r->xf.py ? n : syntax_node_field(n, "indices");
    for (uint32_t i = 0; !ts_node_is_null(idx) && i < ts_node_named_child_count(idx); i++) {
        TSNode c = ts_node_named_child(idx, i);
        if (r->xf.py && ts_node_eq(c, obj))
            continue;
        if (syntax_node_is(c, "slice") || syntax_node_is(c, "none") || syntax_node_is(c, "ellipsis"))
            return;
    }
    for (uint32_t i = 0; !ts_node_is_null(idx) && i < ts_node_named_child_count(idx); i++) {
        TSNode c = ts_node_named_child(idx, i);
        if (!(r->xf.py && ts_node_eq(c, obj)) && !syntax_node_is(c, "comment"))
            add_addr(r, s, c);
    }
}

/* Collect the terms of a +/- chain (through parentheses). */
static void sum_terms(TSNode n, TSNode *out, size_t *nout, size_t max)
{
    n = ir_unparen(n);
    if ((syntax_node_is(n, "binary_operator") || syntax_node_is(n, "binary_expression")) &&
        (!strcmp(syntax_node_operator(n), "+") || !strcmp(syntax_node_operator(n), "-"))) {
        sum_terms(syntax_node_field(n, "left"), out, nout, max);
        sum_terms(syntax_node_field(n, "right"), out, nout, max);
    } else if (*nout < max) {
        out[(*nout)++] = n;
    }
}

/* Pointer arithmetic: in a +/- chain with a pointer term, the other terms are addresses. */
static void pointer_sinks(run *r, ix_scope *s, TSNode n)
{
    TSNode parent = ts_node_parent(n);
    while (syntax_node_is(parent, "parenthesized_expression"))
        parent = ts_node_parent(parent);
    if ((syntax_node_is(parent, "binary_operator") || syntax_node_is(parent, "binary_expression")) &&
        (!strcmp(syntax_node_operator(parent), "+") || !strcmp(syntax_node_operator(parent), "-")))
        return; /* not the top of the chain */
    TSNode terms[32];
    size_t nt = 0;
    sum_terms(n, terms, &nt, 32);
    bool ptr = false;
    for (size_t i = 0; i < nt && !ptr; i++)
        ptr = is_pointer(r, s, terms[i]);
    if (!ptr)
        return;
    for (size_t i = 0; i < nt; i++)
        if (!is_pointer(r, s, terms[i]))
            add_addr(r, s, terms[i]);
}

/* Walk a function body for address expressions (not into nested functions). */
static void find_sinks(run *r, ix_scope *s, TSNode n)
{
    const char *t = ts_node_type(n);
    if (!strcmp(t, "function_definition") || !strcmp(t, "lambda") ||
        !strcmp(t, "lambda_expression") || !strcmp(t, "class_definition"))
        return;
    if (!strcmp(t, "call") || !strcmp(t, "call_expression")) {
        call_sinks(r, s, n);
    } else if (!strcmp(t, "subscript") || !strcmp(t, "subscript_expression")) {
        subscript_sinks(r, s, n);
    } else if ((!strcmp(t, "binary_operator") || !strcmp(t, "binary_expression")) &&
               (!strcmp(syntax_node_operator(n), "+") || !strcmp(syntax_node_operator(n), "-"))) {
        pointer_sinks(r, s, n);
    } else if ((!strcmp(t, "augmented_assignment") || !strcmp(t, "assignment_expression")) &&
               (!strcmp(syntax_node_operator(n), "+=") || !strcmp(syntax_node_operator(n), "-="))) {
        if (is_pointer(r, s, syntax_node_field(n, "left")))
            add_addr(r, s, syntax_node_field(n, "right"));
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        find_sinks(r, s, ts_node_named_child(n, i));
}

/* --- what feeds an address ------------------------------------------------------------------- */

/* True when an address expression is already recorded. */
static bool has_addr(const run *r, TSNode n)
{
    for (size_t i = 0; i < r->naddrs; i++)
        if (ts_node_eq(r->addrs[i].n, n))
            return true;
    return false;
}

/* Record the returned expressions of a function body as addresses (not nested functions). */
static void return_addrs(run *r, ix_scope *s, TSNode n)
{
    if (syntax_node_is(n, "function_definition") || syntax_node_is(n, "lambda") || syntax_node_is(n, "lambda_expression") ||
        syntax_node_is(n, "class_definition"))
        return;
    if (syntax_node_is(n, "return_statement")) {
        /* a returned offset is an address; a returned element (`return s[i]`) is a value,
         * whose own subscript is judged where it is */
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode v = ir_unparen(ts_node_named_child(n, i));
            if (syntax_node_is(v, "subscript") || syntax_node_is(v, "subscript_expression") ||
                syntax_node_is(v, "pointer_expression"))
                continue;
            if (!has_addr(r, ts_node_named_child(n, i)))
                add_addr(r, s, ts_node_named_child(n, i));
        }
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        return_addrs(r, s, ts_node_named_child(n, i));
}

/* Mark the locals named in an expression of scope s as feeding an address, and the
 * functions of the file it calls as returning one; true if anything was newly marked. */
static bool mark_feeding(run *r, ix_scope *s, TSNode n)
{
    if (ts_node_is_null(n))
        return false;
    if (syntax_node_is(n, "identifier")) {
        ix_entry *e = ix_resolve_node(&r->xf, s, n, NULL);
        if (e && !e->feeding) {
            e->feeding = true;
            return true;
        }
        return false;
    }
    if (syntax_node_is(n, "attribute"))
        return mark_feeding(r, s, syntax_node_field(n, "object"));
    if (syntax_node_is(n, "keyword_argument"))
        return mark_feeding(r, s, syntax_node_field(n, "value"));
    if (syntax_node_is(n, "function_definition") || syntax_node_is(n, "lambda") || syntax_node_is(n, "lambda_expression"))
        return false;
    bool grew = false;
    if (syntax_node_is(n, "call") || syntax_node_is(n, "call_expression")) {
        ix_scope *callee = ix_callee(&r->xf, s, n, NULL);
        if (callee && !callee->returns_feed && !ir_name_says_lds(callee->fname)) {
            callee->returns_feed = grew = true;
            size_t before = r->naddrs;
            return_addrs(r, callee, syntax_node_field(callee->fn, "body"));
            for (size_t i = before; i < r->naddrs; i++)
                mark_feeding(r, callee, r->addrs[i].n);
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        grew |= mark_feeding(r, s, ts_node_named_child(n, i));
    return grew;
}

/* Arguments passed for a parameter that feeds an address are addresses of the caller. */
static bool feed_arguments(run *r)
{
    bool grew = false;
    for (size_t i = 0; i < r->xf.ncalls; i++) {
        const ix_call *c = &r->xf.calls[i];
        for (size_t k = 0; k < c->callee->n; k++) {
            const ix_entry *e = &c->callee->ents[k];
            if (!e->param || !e->feeding)
                continue;
            TSNode a = ix_call_arg(&r->xf, c, e);
            if (ts_node_is_null(a) || has_addr(r, a))
                continue;
            add_addr(r, c->caller, a);
            mark_feeding(r, c->caller, a);
            grew = true;
        }
    }
    return grew;
}

/* Mark everything that feeds an address, through the values of the locals that do, the
 * arguments of parameters that do and the returns of functions whose result does. */
static void propagate_feeding(run *r)
{
    for (size_t i = 0; i < r->naddrs; i++)
        mark_feeding(r, r->addrs[i].s, r->addrs[i].n);
    bool grew = true;
    for (int pass = 0; grew && pass < 64; pass++) {
        grew = feed_arguments(r);
        for (size_t k = 0; k < r->xf.n; k++) {
            ix_scope *s = r->xf.scopes[k];
            for (size_t j = 0; j < s->n; j++) {
                if (!s->ents[j].feeding)
                    continue;
                for (size_t d = 0; d < s->ents[j].ndefs; d++) {
                    ix_def *df = &s->ents[j].defs[d];
                    if (df->kind != IX_DEF_BOUND && !df->fed) {
                        df->fed = true;
                        grew |= mark_feeding(r, s, df->value);
                    }
                }
            }
        }
    }
}

/* --- judging products ------------------------------------------------------------------------ */

/* Collect the factors of a `*` chain (parentheses around inner products looked through). */
static void factors(TSNode n, TSNode *out, size_t *nout, size_t max)
{
    n = ir_unparen(n);
    if (ir_is_product(n)) {
        factors(syntax_node_field(n, "left"), out, nout, max);
        factors(syntax_node_field(n, "right"), out, nout, max);
    } else if (*nout < max) {
        out[(*nout)++] = n;
    }
}

/* The factor that indexes: the largest runtime factor that is not a stride. */
static size_t main_factor(run *r, ix_scope *s, const TSNode *fs, size_t nf)
{
    size_t main = 0;
    int best = -1;
    for (size_t i = 0; i < nf; i++) {
        ir_val x = ix_eval(&r->xf, s, fs[i]);
        int score = !x.runtime ? -1 : x.bits + (x.stride ? 0 : 64);
        if (score > best)
            best = score, main = i;
    }
    return main;
}

/* Describe one side of a product: "`text` (a token/row index, up to ~2^17)". */
static void describe(run *r, strbuf *sb, const char *text, const ir_val *v)
{
    const char *what = !v->runtime ? "fixed when the kernel is built" : ir_phrase(v->role, v->stride);
    sb_addf(sb, "`%s` (%s, up to ~2^%d)", text, what, v->bits);
}

/* True when the subtree n of scope s names entry e. */
static bool names_entry(const run *r, ix_scope *s, TSNode n, const ix_entry *e)
{
    if (syntax_node_is(n, "identifier"))
        return ix_resolve_node(&r->xf, s, n, NULL) == e;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (names_entry(r, s, ts_node_named_child(n, i), e))
            return true;
    return false;
}

/* The index in addrs of the first address that uses local e of scope s, directly or through
 * up to depth other locals of s assigned from it (*named: the local the address names); -1
 * when none is found. */
static long use_in_address(const run *r, ix_scope *s, const ix_entry *e, int depth,
                           const ix_entry **named)
{
    if (!e->feeding || depth <= 0)
        return -1;
    for (size_t i = 0; i < r->naddrs; i++)
        if (r->addrs[i].s == s && names_entry(r, s, r->addrs[i].n, e)) {
            *named = e;
            return (long)i;
        }
    for (size_t k = 0; k < s->n; k++) {
        const ix_entry *o = &s->ents[k];
        if (o == e || !o->feeding)
            continue;
        for (size_t j = 0; j < o->ndefs; j++) {
            if (o->defs[j].kind == IX_DEF_BOUND || o->defs[j].kind == IX_DEF_OPAQUE ||
                !names_entry(r, s, o->defs[j].value, e))
                continue;
            long at = use_in_address(r, s, o, depth - 1, named);
            if (at >= 0)
                return at;
        }
    }
    return -1;
}

/* Record a product that can overflow (once per product). */
static void add_cand(run *r, ix_scope *s, TSNode n, const ir_val *v)
{
    uint32_t st = ts_node_start_byte(n), en = ts_node_end_byte(n);
    for (size_t i = 0; i < r->ncands; i++)
        if (r->cands[i].start <= st && r->cands[i].end >= en)
            return;
    TSNode fs[32];
    size_t nf = 0;
    factors(n, fs, &nf, 32);
    size_t main = main_factor(r, s, fs, nf);
    ir_val mv = ix_eval(&r->xf, s, fs[main]);
    ir_val rest = ir_val_of(v->bits - mv.bits, false);
    size_t other = main == 0 ? 1 : 0;
    if (nf == 2) {
        rest = ix_eval(&r->xf, s, fs[other]);
    } else {
        for (size_t i = 0; i < nf; i++)
            if (i != main)
                rest.runtime |= ix_eval(&r->xf, s, fs[i]).runtime;
        ir_val big = ir_val_of(0, false);
        for (size_t i = 0; i < nf; i++) {
            ir_val x = ix_eval(&r->xf, s, fs[i]);
            if (i != main && x.bits >= big.bits)
                big = x;
        }
        rest.role = big.role;
        rest.stride = big.stride;
    }
    cand *c = ARRAY_PUSH(r->cands, r->ncands, r->ccap);
    memset(c, 0, sizeof *c);
    c->start = st;
    c->end = en;
    TSPoint sp = ts_node_start_point(n), ep = ts_node_end_point(n);
    c->line = (int)sp.row + 1;
    c->col = (int)sp.column;
    c->end_line = (int)ep.row + 1;
    c->end_col = (int)ep.column;
    c->bits = v->bits;
    c->expr = flat_text(r->d, n, 100);
    c->kernel = ix_kernel_of(s);
    const ix_entry *named = NULL;
    long at = r->via ? use_in_address(r, r->via_scope, r->via, 4, &named) : r->feeds;
    c->sink_line = at >= 0 ? syntax_node_line(r->addrs[at].n) : 0;
    c->via = !r->via ? NULL
             : named && named != r->via ? xasprintf("%s, then %s", r->via->name, named->name)
                                        : xstrdup(r->via->name);
    if (mv.key_end) {
        TSNode k = syntax_node_at(r->d, mv.key_start, mv.key_end);
        c->key = flat_text(r->d, k, 60);
        ix_entry *e = syntax_node_is(k, "identifier") ? ix_resolve_node(&r->xf, s, k, NULL) : NULL;
        c->key_line = e ? e->line : 0;
    } else {
        c->key = flat_text(r->d, fs[main], 60);
    }
    strbuf why;
    sb_init(&why);
    char *mt = flat_text(r->d, fs[main], 60);
    describe(r, &why, mt, &mv);
    free(mt);
    sb_adds(&why, " times ");
    if (nf == 2) {
        char *ot = flat_text(r->d, fs[other], 60);
        describe(r, &why, ot, &rest);
        free(ot);
    } else {
        rest.bits = v->bits - mv.bits;
        describe(r, &why, "the other factors", &rest);
    }
    c->why = sb_detach(&why);
    sb_free(&why);
}

static void scan(run *r, ix_scope *s, TSNode n);

/* Append text to sb without its white space. */
static void add_squeezed(strbuf *sb, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isspace((unsigned char)text[i]))
            sb_addc(sb, text[i]);
}

/* The deleted code of the whole change, white space removed, one run of deleted lines per
 * line: a product found there was moved or reformatted, not written by the change. */
static char *deleted_code(const change *c)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        bool in_run = false;
        for (size_t k = 0; k < f->nlines; k++) {
            if (f->lines[k].kind == '-') {
                add_squeezed(&sb, f->lines[k].text, f->lines[k].len);
                in_run = true;
            } else if (f->lines[k].kind == ' ' && in_run) {
                sb_adds(&sb, "\n");
                in_run = false;
            }
        }
        if (in_run)
            sb_adds(&sb, "\n");
    }
    char *out = sb_detach(&sb);
    sb_free(&sb);
    return out ? out : xstrdup("");
}

/* True when the change deleted this very product somewhere (the code moved or was only
 * reformatted): the risk is not new. */
static bool was_deleted(run *r, TSNode n)
{
    if (!r->deleted_read) {
        r->deleted_read = true;
        r->deleted = deleted_code(collector_file_change(r->fx));
    }
    if (!r->deleted || !*r->deleted)
        return false;
    char *t = syntax_node_text(r->d, n);
    strbuf sb;
    sb_init(&sb);
    add_squeezed(&sb, t, strlen(t));
    free(t);
    bool found = sb.buf && strstr(r->deleted, sb.buf) != NULL;
    sb_free(&sb);
    return found;
}

/* True when a factor role is a tile, lane, warp or small count rather than a stride or a
 * size: an index times it is a position on the index's own axis, not an element offset. */
static bool tile_like(const ir_val *v)
{
    return !v->stride && (v->role == IR_TILE || v->role == IR_LANE || v->role == IR_WARP ||
                          v->role == IR_SMALL);
}

/* True when a product is an index times a tile size (`pid_m * BLOCK_M`, `j * TILE_SIZE`): the
 * factors other than the dominant one are all tile-like. */
static bool times_tile_size(run *r, ix_scope *s, TSNode n, const ir_val *v)
{
    (void)v;
    TSNode fs[32];
    size_t nf = 0;
    factors(n, fs, &nf, 32);
    size_t main = main_factor(r, s, fs, nf);
    bool any_other = false;
    for (size_t i = 0; i < nf; i++) {
        if (i == main)
            continue;
        ir_val x = ix_eval(&r->xf, s, fs[i]);
        if (!tile_like(&x) && x.bits > 2)
            return false;
        any_other = true;
    }
    return any_other;
}

/* The bound a product gets from the local it is stored in: `bos = i_n * T` is a token
 * number, bounded by the token axis, not an element offset (64: no bound). */
static int stored_bound(const run *r, TSNode n)
{
    TSNode p = ts_node_parent(n), name = {{0}, NULL, NULL};
    while (syntax_node_is(p, "parenthesized_expression"))
        n = p, p = ts_node_parent(p);
    if ((syntax_node_is(p, "assignment") || syntax_node_is(p, "assignment_expression")) &&
        ts_node_eq(syntax_node_field(p, "right"), n) && (syntax_node_is(p, "assignment") || !strcmp(syntax_node_operator(p), "=")))
        name = syntax_node_field(p, "left");
    else if (syntax_node_is(p, "init_declarator") && ts_node_eq(syntax_node_field(p, "value"), n))
        name = syntax_node_field(p, "declarator");
    if (!syntax_node_is(name, "identifier"))
        return 64;
    char *nm = syntax_node_text(r->d, name);
    ir_name cls;
    ir_classify(nm, false, r->xf.domain, &cls);
    free(nm);
    return cls.known && !cls.by_letter && !cls.stride && !cls.offsetish && cls.role != IR_UNKNOWN
               ? cls.bits : 64;
}

/* Judge a product chain: report it when it is 32-bit, depends on a runtime value and can pass
 * 2^31; when a factor makes it 64-bit, judge the 32-bit products inside it instead. */
static void check_chain(run *r, ix_scope *s, TSNode n)
{
    ir_val v = ix_eval(&r->xf, s, n);
    if (v.nonint || v.grid)
        return; /* not an integer offset; a grid-stride step, bounded by its loop's total */
    if (v.wide) {
        TSNode sides[2] = {ir_unparen(syntax_node_field(n, "left")), ir_unparen(syntax_node_field(n, "right"))};
        for (int i = 0; i < 2; i++)
            if (ir_is_product(sides[i]))
                check_chain(r, s, sides[i]);
            else
                scan(r, s, sides[i]);
        return;
    }
    int bound = stored_bound(r, n);
    if (v.bits > bound)
        v.bits = bound;
    if (v.runtime && v.bits >= OVERFLOW_BITS && !times_tile_size(r, s, n, &v)) {
        if (!touched(r, syntax_node_line(n), syntax_node_end_line(n)))
            return;
        if (was_deleted(r, n)) {
            bool seen = false;
            for (size_t i = 0; i < r->nmoved; i++)
                seen |= r->moved_at[i] == ts_node_start_byte(n);
            if (!seen)
                *ARRAY_PUSH(r->moved_at, r->nmoved, r->moved_cap) = ts_node_start_byte(n);
        } else
            add_cand(r, s, n, &v);
        return;
    }
    TSNode fs[32];
    size_t nf = 0;
    factors(n, fs, &nf, 32);
    for (size_t i = 0; i < nf; i++)
        scan(r, s, fs[i]);
}

/* Look for the outermost products in an expression. */
static void scan(run *r, ix_scope *s, TSNode n)
{
    if (ts_node_is_null(n) || syntax_node_is(n, "function_definition") || syntax_node_is(n, "lambda") ||
        syntax_node_is(n, "lambda_expression"))
        return;
    if (!touched(r, syntax_node_line(n), syntax_node_end_line(n)))
        return;
    if (ir_is_product(n)) {
        check_chain(r, s, n);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        scan(r, s, ts_node_named_child(n, i));
}

/* What of a value bound to an address-feeding local is an address: all of it, except for a
 * C++ buffer built from a pointer and a size (`make_gmem(p + off, n * sizeof(T))`), whose
 * size counts elements of a 32-bit buffer record, not an offset. */
static TSNode address_part(const run *r, TSNode value)
{
    if (r->xf.py || !syntax_node_is(value, "call_expression"))
        return value;
    char nm[64];
    ir_callee_name(r->d, syntax_node_field(value, "function"), nm, sizeof nm);
    TSNode args = syntax_node_field(value, "arguments");
    if ((strstr(nm, "gmem") || strstr(nm, "buffer_resource") || strstr(nm, "make_buffer")) &&
        !ts_node_is_null(args) && ts_node_named_child_count(args))
        return ts_node_named_child(args, 0);
    return value;
}

/* --- the evidence chain ------------------------------------------------------------------------ */

/* Add a chain step: line of the file, its code trimmed. */
static void chain_step(const run *r, exhibit *e, const char *label, int line)
{
    size_t len = 0;
    const char *t = syntax_line_text(r->d, line, &len);
    while (t && len && (*t == ' ' || *t == '\t')) {
        t++;
        len--;
    }
    char *code = t ? xstrndup(t, len) : NULL;
    exhibit_add_line(e, label, r->f->path, line, code ? code : "");
    free(code);
}

/* D9's evidence: the product, where its dominant run-time value comes from, and the address
 * it reaches, as a chain of places (labels are plain text: the faces escape them). */
static void add_chain(const run *r, finding *f, const cand *c)
{
    exhibit *e = finding_add_exhibit(f, EXHIBIT_CHAIN, "From `%s` to the global-memory offset",
                                     c->key);
    exhibit_add_line(e, "the 32-bit product", r->f->path, c->line, c->expr);
    if (c->key_line > 0) {
        char *l = xasprintf("%s comes from", c->key);
        chain_step(r, e, l, c->key_line);
        free(l);
    }
    if (c->sink_line > 0) {
        char *l = c->via ? xasprintf("it reaches the address through %s", c->via)
                         : xstrdup("it reaches the address");
        chain_step(r, e, l, c->sink_line);
        free(l);
    }
}

/* --- reporting ------------------------------------------------------------------------------- */

/* Order candidates by kernel, then by position. */
static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->kernel->first_line != y->kernel->first_line)
        return x->kernel->first_line < y->kernel->first_line ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col - y->col;
}

/* One finding per kernel and key, the key's other products as related locations. */
static void report(run *r)
{
    if (r->ncands > 1)
        qsort(r->cands, r->ncands, sizeof *r->cands, cand_cmp);
    for (size_t i = 0; i < r->ncands; i++) {
        cand *c = &r->cands[i];
        if (c->done)
            continue;
        size_t more = 0;
        for (size_t j = i + 1; j < r->ncands; j++)
            if (r->cands[j].kernel == c->kernel && !strcmp(r->cands[j].key, c->key))
                more++;
        strbuf tail;
        sb_init(&tail);
        if (more)
            sb_addf(&tail, "; `%s` is multiplied the same way at %zu more place%s in `%s`", c->key,
                    more, more == 1 ? "" : "s", c->kernel->fname);
        finding *f = findings_add(
            r->ctx->out, "D9", SEV_WARNING, r->f->path, c->line,
            "`%s` is computed in 32 bits and reaches a global-memory offset: %s can reach ~2^%d, "
            "past 2^31, and wrap; widen `%s` to 64 bits before the multiply%s",
            c->expr, c->why, c->bits, c->key, tail.buf ? tail.buf : "");
        sb_free(&tail);
        f->range = (text_range){c->line, c->col, c->end_line, c->end_col};
        if (c->key_line > 0 && c->key_line != c->line)
            finding_add_related(f, r->f->path, c->key_line, "`%s` comes from here", c->key);
        size_t shown = 0;
        for (size_t j = i + 1; j < r->ncands; j++) {
            cand *o = &r->cands[j];
            if (o->kernel != c->kernel || strcmp(o->key, c->key))
                continue;
            o->done = true;
            if (shown++ < MAX_RELATED)
                finding_add_related(f, r->f->path, o->line, "also 32-bit: `%s`", o->expr);
        }
        add_chain(r, f, c);
        r->findings++;
        r->sites += (int)more + 1;
    }
}

/* --- the collector --------------------------------------------------------------------------- */

/* Free what a run holds. */
static void run_free(run *r)
{
    for (size_t i = 0; i < r->ncands; i++) {
        free(r->cands[i].expr);
        free(r->cands[i].key);
        free(r->cands[i].why);
        free(r->cands[i].via);
    }
    free(r->cands);
    free(r->addrs);
    free(r->moved_at);
    free(r->added);
    free(r->deleted);
    ix_file_free(&r->xf);
}

/* True when an added line of the file may be in device code (the only code it scans): asked
 * of index_scope.c, which decides what device code is; fns is the C/C++ function list, the
 * Python one is taken here (the cache's, when the doc is the cache's). */
static bool may_touch_device(collector_ctx *ctx, const run *r, const syntax_doc *d,
                             const syn_func_list *cpp_fns, bool doc_owned)
{
    if (d->lang == SYN_CPP)
        return ix_may_touch_device(d, cpp_fns, r->added, r->nlines);
    syn_func_list local = {0};
    const syn_func_list *fns = NULL;
    if (ctx->syn && !doc_owned) {
        fns = syntax_cache_functions(ctx->syn, d);
    } else {
        syntax_functions(d, &local);
        fns = &local;
    }
    bool device = fns && ix_may_touch_device(d, fns, r->added, r->nlines);
    syn_func_list_free(&local);
    return device;
}

/* may_touch_device for a Python head not parsed yet (ix_may_touch_device_unparsed). */
static bool may_touch_device_unparsed(collector_ctx *ctx, const change_file *f, const char *text, size_t len)
{
    py_outline *own = NULL;
    const py_outline *o = collector_outline(ctx, f, text, len, &own);
    bool *added = xcalloc((size_t)o->nlines + 2, sizeof *added);
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > 0 && f->lines[i].new_no <= o->nlines)
            added[f->lines[i].new_no] = true;
    bool may = ix_may_touch_device_unparsed(o, text, added, o->nlines);
    free(added);
    py_outline_free(own);
    return may;
}

/* The runner parses a Python file ahead only when an added line may be in device code. */
static bool parse_ahead(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const py_outline *o)
{
    return !o || may_touch_device_unparsed(ctx, f, head, hlen);
}

/* Check one file; returns 0, or -1 (with *why) when skipped. */
static int check_file(collector_ctx *ctx, const change_file *f, run *r, char **why)
{
    size_t len;
    char *text = change_head_text(ctx->chg, f, &len, why);
    if (!text)
        return -1;
    if (syntax_lang_of_path(f->path) == SYN_PYTHON && !may_touch_device_unparsed(ctx, f, text, len)) {
        free(text); /* no added line in a function that can be device code: not parsed */
        return 0;
    }
    syntax_doc *owned = NULL;
    const syntax_doc *d = collector_doc(ctx, f, false, text, len, &owned, why);
    free(text);
    if (!d)
        return -1;
    syn_func_list fns = {0};
    if (d->lang == SYN_CPP)
        syntax_functions(d, &fns);
    r->ctx = ctx;
    r->f = f;
    r->d = d;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > r->nlines)
            r->nlines = f->lines[i].new_no;
    r->added = xcalloc((size_t)r->nlines + 1, sizeof *r->added);
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > 0)
            r->added[f->lines[i].new_no] = true;
    if (!may_touch_device(ctx, r, d, &fns, owned != NULL)) {
        /* no added line is in a function ix_build could make device code: nothing to scan */
        syn_func_list_free(&fns);
        syntax_free(owned);
        return 0;
    }
    ix_build(&r->xf, d, &fns, ir_domain_of_path(f->path));
    for (size_t i = 0; i < r->xf.n; i++) {
        ix_scope *s = r->xf.scopes[i];
        if (s->device && touched(r, s->first_line, s->last_line))
            find_sinks(r, s, syntax_node_field(s->fn, "body"));
    }
    propagate_feeding(r);
    for (size_t i = 0; i < r->xf.n; i++) {
        ix_scope *s = r->xf.scopes[i];
        if (!s->device || !touched(r, s->first_line, s->last_line))
            continue;
        for (size_t k = 0; k < r->naddrs; k++)
            if (r->addrs[k].s == s) {
                r->feeds = (long)k;
                scan(r, s, r->addrs[k].n);
            }
        r->via_scope = s;
        for (size_t k = 0; k < s->n; k++) {
            r->via = &s->ents[k];
            for (size_t j = 0; s->ents[k].feeding && j < s->ents[k].ndefs; j++)
                if (s->ents[k].defs[j].kind != IX_DEF_BOUND &&
                    s->ents[k].defs[j].kind != IX_DEF_OPAQUE)
                    scan(r, s, address_part(r, s->ents[k].defs[j].value));
        }
        r->via = NULL;
    }
    report(r);
    syn_func_list_free(&fns);
    syntax_free(owned);
    return 0;
}

/* True for a test file: its kernels run on test shapes, far from 2^31 elements. */
static bool is_test_path(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    return !strncmp(path, "op_tests/", 9) || strstr(path, "/tests/") || !strncmp(path, "tests/", 6) ||
           !strncmp(base, "test_", 5);
}

/* The files it reads: Python and C/C++ files that gain lines, tests aside. */
static bool reads(const change_file *f)
{
    return syntax_lang_of_path(f->path) != SYN_NONE && !f->is_deleted && !f->is_skipped && f->nadd &&
           !is_test_path(f->path);
}

/* What one file's stage found, for the status line. */
typedef struct iw_facts {
    int findings, sites, moved;
    collector_coverage cov;  /* how much of its added C/C++ code the parser read */
} iw_facts;

/* The per-file stage: the 32-bit products that can pass 2^31 on the file's added lines. */
static void index_width_file(collector_file_ctx *fx)
{
    run r = {.feeds = -1, .fx = fx};
    if (check_file(fx->review, fx->f, &r, &fx->skip) < 0) {
        run_free(&r);
        return;
    }
    iw_facts *t = xcalloc(1, sizeof *t);
    t->findings = r.findings;
    t->sites = r.sites;
    t->moved = (int)r.nmoved;
    collector_file_coverage(fx->review, fx->f, false, &t->cov);
    fx->facts = t;
    run_free(&r);
}

/* The change-wide stage: the status line from every file's counts. */
static void index_width_change(collector_ctx *ctx, const collector_files *files)
{
    size_t nfiles = files->n, nskipped = files->nskipped;
    const char *first_skip = files->first_skip;
    int findings = 0, sites = 0, moved = 0;
    for (size_t i = 0; i < files->n; i++) {
        const iw_facts *t = files->items[i].facts;
        if (!t)
            continue;
        findings += t->findings;
        sites += t->sites;
        moved += t->moved;
    }
    const char *sep = nskipped ? "; not scanned (D9 cannot be cleared there): " : "";
    const char *skip = nskipped && first_skip ? first_skip : "";
    if (!nfiles)
        collector_status(ctx, "nothing found: no Python or C/C++ file gains lines");
    else if (nskipped == nfiles)
        collector_status(ctx, "skipped: %s (D9 cannot be cleared)",
                         first_skip ? first_skip : "head text not available");
    else if (findings)
        collector_status(ctx, "found %d 32-bit offset%s that can pass 2^31 (%d product%s) on "
                         "added lines%s%s", findings, findings == 1 ? "" : "s", sites,
                         sites == 1 ? "" : "s", sep, skip);
    else
        collector_status(ctx, "nothing found: no 32-bit product that can pass 2^31 reaches a "
                         "global-memory offset on an added line of %zu file%s%s%s",
                         nfiles - nskipped, nfiles - nskipped == 1 ? "" : "s", sep, skip);
    if (moved && nfiles > nskipped)
        sb_addf(&ctx->status, " (%d such product%s only moved or reformatted, not reported)",
                moved, moved == 1 ? "" : "s");
    if (nfiles > nskipped)
        /* C/C++ lines the parser could not read */
        collector_coverage_from_facts(ctx, files, offsetof(iw_facts, cov), &ctx->status);
}

const collector collector_index_width = {
    .name = "index_width",
    .rules = "D9",
    .langs = COLLECT_PYTHON | COLLECT_CPP,
    .reads = reads,
    .judges_code = true,
    .file_stage = index_width_file,
    .parse_ahead = parse_ahead,
    .change_stage = index_width_change,
};
