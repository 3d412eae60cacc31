/* Following a FlyDSL buffer resource to its loads and stores (see flydsl_access.h).
 *
 * FlyDSL kernels in aiter mostly build their descriptors with max_size=True and keep every
 * access in range themselves: an scf.IfOp around the tail, an index clamped with
 * `valid.select(idx, 0)` or sent to an out-of-range sentinel, a scalar read of metadata at a
 * block index, or shapes fixed at compile time. The descriptor's size matters only when an
 * access that nothing bounds can address past the tensor: a tile of lanes stepping by block
 * over a size known only at run time (the preshuffle GEMM's per-row scale read at
 * `bx_m + lane` with a ragged M). This module looks for such an access. */
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/flydsl_access.h"
#include "engine/syntax.h"
#include "engine/util.h"

#define FA_MAX_HELPERS 3    /* same-file helpers followed, nested */
#define FA_MAX_BINDS 32     /* helper parameters bound to their call-site arguments */
#define FA_MAX_VISITS 4096  /* expression nodes looked at per access */
#define FA_MAX_EXPAND 10    /* locals followed, nested */
#define FA_MAX_NEST 512     /* syntax-tree depth walked (a pathological file must not
                               exhaust the stack) */

/* A helper parameter and the call-site argument it stands for. */
typedef struct fa_bind {
    char *param;
    TSNode arg;
} fa_bind;

/* A name met in a scope's walk: where its text is, the node it stands for (the value of an
 * assignment to it, or the identifier of a use), and how deep below the scope it sits. */
typedef struct fa_named {
    uint32_t at, len;
    TSNode value;
    int depth;
} fa_named;

/* The assignments of one scope (not of the closures in it), or the identifiers in it that can
 * be uses of a name, in the order a walk of the scope meets them: built once per scope and
 * file, then asked for name after name. */
typedef struct fa_scope_index {
    TSNode scope;
    bool uses;
    fa_named *items;
    size_t n, cap;
} fa_scope_index;

/* A function definition of the file and where its name's text is. */
typedef struct fa_def {
    uint32_t at, len;
    TSNode def;
} fa_def;

/* What judging has learned of one file (see flydsl_access.h). */
struct fa_file {
    const syntax_doc *d;
    fa_scope_index **scopes;  /* the scopes whose assignments or uses were looked up */
    size_t nscopes, scopes_cap;
    fa_def *defs;          /* every function definition of the file, in preorder */
    size_t ndefs, defs_cap;
    bool defs_read;
};

/* The state of one descriptor's walk. */
typedef struct fa_walk {
    fa_file *ff;
    const syntax_doc *d;
    fa_bind binds[FA_MAX_BINDS];
    size_t nbinds;
    TSNode sites[FA_MAX_HELPERS + 1];  /* call sites of the helpers entered */
    size_t nsites;
    int naccess, nguarded, nuniform, nunfollowed;
    bool hit;
    TSNode hit_node;
    int nest;              /* recursion depth of the tree walks */
} fa_walk;

#define FA_MAX_SEEN 128     /* distinct locals followed per offset */

/* What an offset expression is made of. */
typedef struct fa_facts {
    bool clamped, lane, block;
    int visits;
    char *seen[FA_MAX_SEEN];  /* locals already followed (each is expanded once) */
    size_t nseen;
} fa_facts;

/* Mark name as followed; false when it already was (or the set is full). */
static bool first_visit(fa_facts *f, const char *name)
{
    for (size_t i = 0; i < f->nseen; i++)
        if (strcmp(f->seen[i], name) == 0)
            return false;
    if (f->nseen == FA_MAX_SEEN)
        return false;
    f->seen[f->nseen++] = xstrdup(name);
    return true;
}

/* --- small tree helpers ------------------------------------------------------------------- */

/* True when the node's text equals s. */
static bool text_is(const syntax_doc *d, TSNode n, const char *s)
{
    size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    return strlen(s) == len && memcmp(d->text + ts_node_start_byte(n), s, len) == 0;
}

/* True when the node's text contains s. */
static bool text_has(const syntax_doc *d, TSNode n, const char *s)
{
    char *t = syntax_node_text(d, n);
    bool has = strstr(t, s) != NULL;
    free(t);
    return has;
}

/* The last dotted component of a call's callee, as a new string ("" when there is none). */
static char *callee_last(const syntax_doc *d, TSNode call)
{
    TSNode fn = syntax_node_field(call, "function");
    if (syntax_node_is(fn, "attribute"))
        fn = syntax_node_field(fn, "attribute");
    return syntax_node_is(fn, "identifier") ? syntax_node_text(d, fn) : xstrdup("");
}

/* The function_definition around n, or a null node. */
static TSNode enclosing_def(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (syntax_node_is(p, "function_definition"))
            return p;
    TSNode none = {0};
    return none;
}

/* True when the bytes [at, at + len) of d's text spell s. */
static bool span_is(const syntax_doc *d, uint32_t at, uint32_t len, const char *s)
{
    return strlen(s) == len && memcmp(d->text + at, s, len) == 0;
}

/* Record the function definitions in the subtree of n, in preorder (nested ones too). */
static void collect_defs(fa_file *ff, TSNode n, int nest)
{
    if (nest > FA_MAX_NEST)
        return;
    if (syntax_node_is(n, "function_definition")) {
        TSNode nm = syntax_node_field(n, "name");
        if (!ts_node_is_null(nm)) {
            fa_def *df = ARRAY_PUSH(ff->defs, ff->ndefs, ff->defs_cap);
            df->at = ts_node_start_byte(nm);
            df->len = ts_node_end_byte(nm) - df->at;
            df->def = n;
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        collect_defs(ff, ts_node_named_child(n, i), nest + 1);
}

/* The first function_definition named name in the file, in preorder, or a null node. The
 * definitions are listed once per file: a descriptor passed to many calls asks for each. */
static TSNode find_def(fa_walk *w, const char *name)
{
    fa_file *ff = w->ff;
    if (!ff->defs_read) {
        collect_defs(ff, ts_tree_root_node(ff->d->tree), 0);
        ff->defs_read = true;
    }
    for (size_t i = 0; i < ff->ndefs; i++)
        if (span_is(ff->d, ff->defs[i].at, ff->defs[i].len, name))
            return ff->defs[i].def;
    TSNode none = {0};
    return none;
}

/* The name a parameter node declares, or a null node (splats, the bare `*`). */
static TSNode param_name(TSNode p)
{
    if (syntax_node_is(p, "identifier"))
        return p;
    if (syntax_node_is(p, "default_parameter") || syntax_node_is(p, "typed_default_parameter"))
        return syntax_node_field(p, "name");
    if (syntax_node_is(p, "typed_parameter"))
        for (uint32_t k = 0; k < ts_node_named_child_count(p); k++)
            if (syntax_node_is(ts_node_named_child(p, k), "identifier"))
                return ts_node_named_child(p, k);
    TSNode none = {0};
    return none;
}

/* --- kernels with run-time sizes ---------------------------------------------------------- */

/* True when a parameter's annotation is a run-time integer of the DSL (Int32, fx.Int64,
 * fx.Index); a Python `int` is a compile-time argument of a builder. */
static bool runtime_int_annotation(const syntax_doc *d, TSNode p)
{
    TSNode type = syntax_node_field(p, "type");
    if (ts_node_is_null(type))
        return false;
    return text_has(d, type, "Int32") || text_has(d, type, "Int64") ||
           text_has(d, type, "Index") || text_has(d, type, "Uint32");
}

/* True when some function enclosing n takes a run-time integer argument. */
static bool kernel_has_runtime_size(const syntax_doc *d, TSNode n)
{
    for (TSNode f = enclosing_def(n); !ts_node_is_null(f); f = enclosing_def(f)) {
        TSNode ps = syntax_node_field(f, "parameters");
        for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++)
            if (runtime_int_annotation(d, ts_node_named_child(ps, i)))
                return true;
    }
    return false;
}

/* True when name is a parameter of a function enclosing n annotated as a run-time integer. */
static bool runtime_param(const syntax_doc *d, TSNode n, const char *name)
{
    for (TSNode f = enclosing_def(n); !ts_node_is_null(f); f = enclosing_def(f)) {
        TSNode ps = syntax_node_field(f, "parameters");
        for (uint32_t i = 0; !ts_node_is_null(ps) && i < ts_node_named_child_count(ps); i++) {
            TSNode p = ts_node_named_child(ps, i), nm = param_name(p);
            if (!ts_node_is_null(nm) && text_is(d, nm, name))
                return runtime_int_annotation(d, p);
        }
    }
    return false;
}

/* --- following a name to its assigned values ---------------------------------------------- */

/* Calls fn(value) for every assignment of name in the functions enclosing at (and, with no
 * enclosing function, in the module). */
typedef void (*value_fn)(fa_walk *w, TSNode value, void *arg);

/* Record one name of the scope being indexed. */
static void add_named(fa_scope_index *ix, TSNode target, TSNode value, int depth)
{
    fa_named *a = ARRAY_PUSH(ix->items, ix->n, ix->cap);
    a->at = ts_node_start_byte(target);
    a->len = ts_node_end_byte(target) - a->at;
    a->value = value;
    a->depth = depth;
}

/* Index the assignments of the subtree of n (depth levels below the scope), not going into
 * nested function definitions: another closure's locals are its own. */
static void index_assignments(fa_scope_index *ix, TSNode n, int depth)
{
    if (depth > FA_MAX_NEST)
        return;
    if (syntax_node_is(n, "assignment")) {
        TSNode left = syntax_node_field(n, "left"), right = syntax_node_field(n, "right");
        if (!ts_node_is_null(right)) {
            if (syntax_node_is(left, "identifier"))
                add_named(ix, left, right, depth);
            else if (syntax_node_is(left, "pattern_list") || syntax_node_is(left, "tuple_pattern"))
                for (uint32_t i = 0; i < ts_node_named_child_count(left); i++)
                    add_named(ix, ts_node_named_child(left, i), right, depth);
        }
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (!syntax_node_is(c, "function_definition"))
            index_assignments(ix, c, depth + 1);
    }
}

static void index_uses(fa_scope_index *ix, TSNode n, int depth);

/* The index of scope's assignments (uses: of the identifiers that can be uses of a name),
 * built on first need and kept for the file's other descriptors: it depends only on the
 * tree. */
static const fa_scope_index *scope_index(fa_walk *w, TSNode scope, bool uses)
{
    fa_file *ff = w->ff;
    for (size_t i = 0; i < ff->nscopes; i++)
        if (ff->scopes[i]->uses == uses && ts_node_eq(ff->scopes[i]->scope, scope))
            return ff->scopes[i];
    fa_scope_index *ix = xcalloc(1, sizeof *ix);
    ix->scope = scope;
    ix->uses = uses;
    if (uses)
        index_uses(ix, scope, 0);
    else
        index_assignments(ix, scope, 0);
    *ARRAY_PUSH(ff->scopes, ff->nscopes, ff->scopes_cap) = ix;
    return ix;
}

/* Call fn for each assignment of name in scope n, in the order of a walk of n, as deep in the
 * walk's nesting as that walk would have been (the nesting bound holds as it did). */
static void assignments_in(fa_walk *w, TSNode n, const char *name, value_fn fn, void *arg)
{
    const fa_scope_index *ix = scope_index(w, n, false);
    int nest = w->nest;
    for (size_t i = 0; i < ix->n; i++) {
        const fa_named *a = &ix->items[i];
        if (nest + a->depth > FA_MAX_NEST || !span_is(w->d, a->at, a->len, name))
            continue;
        w->nest = nest + a->depth + 1;
        fn(w, a->value, arg);
        w->nest = nest;
    }
}

/* The iterable of the for-loop enclosing n that binds name, or a null node. */
static TSNode loop_binding(const syntax_doc *d, TSNode n, const char *name)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (syntax_node_is(p, "function_definition"))
            break;
        if (syntax_node_is(p, "for_statement")) {
            TSNode left = syntax_node_field(p, "left");
            if (syntax_node_is(left, "identifier") && text_is(d, left, name))
                return syntax_node_field(p, "right");
        }
    }
    TSNode none = {0};
    return none;
}

/* --- what an offset is made of ------------------------------------------------------------- */

static void offset_facts(fa_walk *w, TSNode n, fa_facts *f, int depth);

typedef struct expand_arg {
    fa_facts *f;
    int depth;
    int found;
} expand_arg;

static void expand_value(fa_walk *w, TSNode value, void *arg)
{
    expand_arg *ea = arg;
    ea->found++;
    offset_facts(w, value, ea->f, ea->depth + 1);
}

/* Classify the name of an index source: a call or attribute spelling the thread or block id
 * (gpu.thread_id("x"), fx.block_idx.x). */
static void source_facts(const char *t, fa_facts *f)
{
    if (strstr(t, "thread_id") || strstr(t, "lane_id"))
        f->lane = true;
    if (strstr(t, "block_id"))
        f->block = true;
}

/* Classify an index name whose value cannot be followed (a parameter): a lane (per-thread)
 * index or a block index, by the names FlyDSL kernels give them. */
static void name_facts(const char *t, fa_facts *f)
{
    if (!strcmp(t, "tid") || !strcmp(t, "tx") || !strcmp(t, "ty") || strstr(t, "thread") ||
        str_starts(t, "lane") || strstr(t, "_lane"))
        f->lane = true;
    if (!strcmp(t, "bid") || !strcmp(t, "bx") || !strcmp(t, "by") || !strcmp(t, "bz") ||
        !strcmp(t, "pid") || str_starts(t, "bid_") || str_starts(t, "bx_") ||
        str_starts(t, "by_") || str_starts(t, "blk_") || str_starts(t, "pid_") ||
        strstr(t, "block_id") || strstr(t, "block_idx"))
        f->block = true;
}

/* True for the calls that clamp or choose an index (`valid.select(i, 0)`, arith.minui). */
static bool clamp_call(const char *c)
{
    static const char *const names[] = {"select", "minui", "minsi", "min", "minimum", "umin",
                                        "smin", "clamp", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(c, names[i]) == 0)
            return true;
    return false;
}

/* Gather what the expression n is built from, following locals (and helper parameters bound
 * to their call-site arguments) but not into the address of a load: a loaded index is data. */
static void offset_facts_at(fa_walk *w, TSNode n, fa_facts *f, int depth);

static void offset_facts(fa_walk *w, TSNode n, fa_facts *f, int depth)
{
    if (ts_node_is_null(n) || ++f->visits > FA_MAX_VISITS || w->nest > FA_MAX_NEST)
        return;
    w->nest++;
    offset_facts_at(w, n, f, depth);
    w->nest--;
}

static void offset_facts_at(fa_walk *w, TSNode n, fa_facts *f, int depth)
{
    if (syntax_node_is(n, "call")) {
        char *c = callee_last(w->d, n);
        bool load = strstr(c, "load") != NULL || strstr(c, "ds_read") != NULL;
        if (clamp_call(c))
            f->clamped = true;
        source_facts(c, f);
        free(c);
        if (load)
            return;
        TSNode fn = syntax_node_field(n, "function");
        if (syntax_node_is(fn, "attribute"))
            offset_facts(w, syntax_node_field(fn, "object"), f, depth);
        offset_facts(w, syntax_node_field(n, "arguments"), f, depth);
        return;
    }
    if (syntax_node_is(n, "attribute")) {
        TSNode a = syntax_node_field(n, "attribute");
        if (!ts_node_is_null(a)) {
            char *t = syntax_node_text(w->d, a);
            source_facts(t, f);
            free(t);
        }
        offset_facts(w, syntax_node_field(n, "object"), f, depth);
        return;
    }
    if (syntax_node_is(n, "identifier")) {
        char *t = syntax_node_text(w->d, n);
        bool followed = false;
        if (depth < FA_MAX_EXPAND && first_visit(f, t)) {
            for (size_t i = w->nbinds; i-- > 0 && !followed;)
                if (strcmp(w->binds[i].param, t) == 0) {
                    followed = true;
                    offset_facts(w, w->binds[i].arg, f, depth + 1);
                }
            TSNode it = {0};
            if (!followed)
                it = loop_binding(w->d, n, t);
            if (!ts_node_is_null(it)) {
                followed = true;
                offset_facts(w, it, f, depth + 1);
            }
            expand_arg ea = {f, depth, 0};
            TSNode scope = enclosing_def(n);
            for (; !followed && !ts_node_is_null(scope); scope = enclosing_def(scope))
                assignments_in(w, scope, t, expand_value, &ea);
            followed |= ea.found > 0;
        } else {
            followed = true;  /* already counted */
        }
        if (!followed)
            name_facts(t, f);
        free(t);
        return;
    }
    if (syntax_node_is(n, "keyword_argument")) {
        offset_facts(w, syntax_node_field(n, "value"), f, depth);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        offset_facts(w, ts_node_named_child(n, i), f, depth);
}

/* --- guards ------------------------------------------------------------------------------- */

typedef struct cond_arg {
    bool found;
    int depth;
} cond_arg;

static bool runtime_check(fa_walk *w, TSNode cond, int depth);

static void cond_value(fa_walk *w, TSNode value, void *arg)
{
    cond_arg *ca = arg;
    if (!ca->found)
        ca->found = runtime_check(w, value, ca->depth + 1);
}

/* True when a condition is a run-time comparison: a comparison operator, an arith.cmpi, or a
 * local assigned one (`tok_ok = token < m; if tok_ok:`). const_expr(...) is compile time. */
static bool runtime_check_at(fa_walk *w, TSNode cond, int depth);

static bool runtime_check(fa_walk *w, TSNode cond, int depth)
{
    if (ts_node_is_null(cond) || depth > 4 || w->nest > FA_MAX_NEST)
        return false;
    w->nest++;
    bool r = runtime_check_at(w, cond, depth);
    w->nest--;
    return r;
}

static bool runtime_check_at(fa_walk *w, TSNode cond, int depth)
{
    if (syntax_node_is(cond, "comparison_operator"))
        return true;
    if (syntax_node_is(cond, "call")) {
        char *c = callee_last(w->d, cond);
        bool cmp = str_starts(c, "cmp"), ce = strcmp(c, "const_expr") == 0;
        free(c);
        if (cmp || ce)
            return cmp;
    }
    if (syntax_node_is(cond, "identifier")) {
        char *t = syntax_node_text(w->d, cond);
        cond_arg ca = {false, depth};
        for (TSNode s = enclosing_def(cond); !ts_node_is_null(s) && !ca.found; s = enclosing_def(s))
            assignments_in(w, s, t, cond_value, &ca);
        free(t);
        return ca.found;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(cond); i++)
        if (runtime_check(w, ts_node_named_child(cond, i), depth))
            return true;
    return false;
}

/* True when n runs only under a run-time guard: the then-block of an scf.IfOp entered with
 * `with ir.InsertionPoint(if_op.then_block)` (or a helper of that shape), the body of an `if`
 * or the chosen arm of a conditional expression on a run-time comparison. */
static bool guarded_at(fa_walk *w, TSNode n)
{
    TSNode child = n;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); child = p, p = ts_node_parent(p)) {
        if (syntax_node_is(p, "with_statement")) {
            for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
                TSNode c = ts_node_named_child(p, i);
                if (syntax_node_is(c, "with_clause") &&
                    (text_has(w->d, c, "then_block") || text_has(w->d, c, "_if_then") ||
                     text_has(w->d, c, "IfOp")))
                    return true;
            }
        } else if (syntax_node_is(p, "if_statement") || syntax_node_is(p, "elif_clause")) {
            TSNode body = syntax_node_field(p, "consequence");
            if (!ts_node_is_null(body) && ts_node_eq(body, child) &&
                runtime_check(w, syntax_node_field(p, "condition"), 0))
                return true;
        } else if (syntax_node_is(p, "conditional_expression") && ts_node_named_child_count(p) == 3) {
            if (ts_node_eq(ts_node_named_child(p, 0), child) &&
                runtime_check(w, ts_node_named_child(p, 1), 0))
                return true;
        }
    }
    return false;
}

/* True when n, or any helper call site that led to it, is guarded. */
static bool guarded(fa_walk *w, TSNode n)
{
    if (guarded_at(w, n))
        return true;
    for (size_t i = 0; i < w->nsites; i++)
        if (guarded_at(w, w->sites[i]))
            return true;
    return false;
}

/* --- the uses of a descriptor ------------------------------------------------------------- */

static void follow_name(fa_walk *w, const char *name, TSNode scope, TSNode skip, int depth);

/* True for the buffer accesses: buffer_load, buffer_store, buffer_atomic_*, raw_buffer_*,
 * and fx.slice of a buffer tensor at coordinates (the copy that follows reads there). */
static bool access_name(const char *c)
{
    return strcmp(c, "buffer_load") == 0 || strcmp(c, "buffer_store") == 0 ||
           str_starts(c, "buffer_atomic") || str_starts(c, "raw_buffer_") ||
           strcmp(c, "slice") == 0;
}

/* True for wrappers that only unwrap a value (`_raw(rsrc)`). */
static bool transparent_name(const char *c)
{
    return strcmp(c, "_raw") == 0 || strcmp(c, "_to_raw") == 0 || strcmp(c, "raw") == 0 ||
           strcmp(c, "_unwrap_value") == 0 || strcmp(c, "_unwrap_val") == 0 ||
           strcmp(c, "_unwrap") == 0;
}

/* The position of arg among the positional arguments of args (-1: a keyword or after a
 * splat, which cannot be mapped). */
static int positional_index(TSNode args, TSNode arg)
{
    int k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (ts_node_eq(a, arg))
            return k;
        if (syntax_node_is(a, "list_splat") || syntax_node_is(a, "dictionary_splat"))
            return -1;
        if (!syntax_node_is(a, "keyword_argument") && !syntax_node_is(a, "comment"))
            k++;
    }
    return -1;
}

/* The positional argument k of args, or the keyword argument kw; a null node when absent. */
static TSNode arg_at(const syntax_doc *d, TSNode args, int k, const char *kw)
{
    int n = 0;
    TSNode none = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (syntax_node_is(a, "keyword_argument")) {
            TSNode nm = syntax_node_field(a, "name");
            if (kw && !ts_node_is_null(nm) && text_is(d, nm, kw))
                return syntax_node_field(a, "value");
        } else if (!syntax_node_is(a, "comment") && n++ == k && k >= 0) {
            return a;
        }
    }
    return none;
}

/* Judge one access: `call` uses the descriptor as its argument `arg`. */
static void judge_access(fa_walk *w, TSNode call, TSNode arg)
{
    w->naccess++;
    TSNode args = syntax_node_field(call, "arguments");
    int k = positional_index(args, arg);
    TSNode off = k >= 0 ? arg_at(w->d, args, k + 1, "offset") : arg_at(w->d, args, -1, "offset");
    bool masked = !ts_node_is_null(arg_at(w->d, args, -1, "mask"));
    if (ts_node_is_null(off)) {
        w->nunfollowed++;
        return;
    }
    if (masked || guarded(w, call)) {
        w->nguarded++;
        return;
    }
    fa_facts f;
    memset(&f, 0, sizeof f);
    offset_facts(w, off, &f, 0);
    for (size_t i = 0; i < f.nseen; i++)
        free(f.seen[i]);
    if (f.clamped) {
        w->nguarded++;
        return;
    }
    if (!f.lane || !f.block) {
        w->nuniform++;
        return;
    }
    if (!w->hit) {
        w->hit = true;
        w->hit_node = call;
    }
}

/* Follow the descriptor into a same-file helper it is passed to as argument `arg` of `call`. */
static void follow_into_helper(fa_walk *w, TSNode call, TSNode arg, TSNode kw, TSNode def,
                               int depth)
{
    TSNode args = syntax_node_field(call, "arguments"), ps = syntax_node_field(def, "parameters");
    char *pname = NULL;
    if (!ts_node_is_null(kw)) {
        pname = syntax_node_text(w->d, syntax_node_field(kw, "name"));
    } else {
        int k = positional_index(args, arg), n = 0;
        for (uint32_t i = 0; k >= 0 && i < ts_node_named_child_count(ps) && !pname; i++) {
            TSNode nm = param_name(ts_node_named_child(ps, i));
            if (!ts_node_is_null(nm) && n++ == k)
                pname = syntax_node_text(w->d, nm);
        }
    }
    if (!pname || w->nsites > FA_MAX_HELPERS) {
        free(pname);
        w->nunfollowed++;
        return;
    }
    /* bind the helper's other parameters to this call's arguments, for its offsets */
    size_t saved = w->nbinds;
    int n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(ps) && w->nbinds < FA_MAX_BINDS; i++) {
        TSNode nm = param_name(ts_node_named_child(ps, i));
        if (ts_node_is_null(nm))
            continue;
        char *pn = syntax_node_text(w->d, nm);
        TSNode a = arg_at(w->d, args, n++, pn);
        if (!ts_node_is_null(a)) {
            w->binds[w->nbinds].param = pn;
            w->binds[w->nbinds++].arg = a;
        } else {
            free(pn);
        }
    }
    w->sites[w->nsites++] = call;
    follow_name(w, pname, def, syntax_node_field(def, "parameters"), depth + 1);
    w->nsites--;
    while (w->nbinds > saved)
        free(w->binds[--w->nbinds].param);
    free(pname);
}

/* Classify one use of the descriptor (an identifier, or the descriptor call itself). */
static void classify_use(fa_walk *w, TSNode n, int depth)
{
    for (;;) {  /* climb through wrappers that only unwrap the value */
        TSNode p = ts_node_parent(n);
        TSNode call = syntax_node_is(p, "argument_list") ? ts_node_parent(p) : p;
        if (!syntax_node_is(p, "argument_list") || ts_node_named_child_count(p) != 1 || !syntax_node_is(call, "call"))
            break;
        char *c = callee_last(w->d, call);
        bool t = transparent_name(c);
        free(c);
        if (!t)
            break;
        n = call;
    }
    TSNode p = ts_node_parent(n), kw = {0};
    if (syntax_node_is(p, "keyword_argument")) {
        kw = p;
        p = ts_node_parent(p);
    }
    if (syntax_node_is(p, "argument_list")) {
        TSNode call = ts_node_parent(p);
        char *c = callee_last(w->d, call);
        TSNode def = {0};
        if (access_name(c) && ts_node_is_null(kw))
            judge_access(w, call, n);
        else if (*c && !ts_node_is_null(def = find_def(w, c)))
            follow_into_helper(w, call, n, kw, def, depth);
        else
            w->nunfollowed++;
        free(c);
        return;
    }
    if (syntax_node_is(p, "assignment") && ts_node_eq(syntax_node_field(p, "right"), n) && syntax_node_is(syntax_node_field(p, "left"), "identifier") &&
        depth < FA_MAX_HELPERS + 2) {
        char *alias = syntax_node_text(w->d, syntax_node_field(p, "left"));
        TSNode scope = enclosing_def(p);
        follow_name(w, alias, ts_node_is_null(scope) ? ts_tree_root_node(w->d->tree) : scope,
                    syntax_node_field(p, "left"), depth + 1);
        free(alias);
        return;
    }
    if (syntax_node_is(p, "assignment") && ts_node_eq(syntax_node_field(p, "left"), n))
        return;  /* rebound: not a use */
    w->nunfollowed++;
}

/* Index the identifiers of the subtree of n (depth levels below the scope) that can be a use
 * of their name: not a parameter, a keyword's own name or an attribute's name (`x.name`). */
static void index_uses(fa_scope_index *ix, TSNode n, int depth)
{
    if (ts_node_is_null(n) || depth > FA_MAX_NEST || syntax_node_is(n, "parameters"))
        return;
    if (syntax_node_is(n, "identifier")) {
        add_named(ix, n, n, depth);
        return;
    }
    if (syntax_node_is(n, "keyword_argument")) {
        index_uses(ix, syntax_node_field(n, "value"), depth + 1);
        return;
    }
    if (syntax_node_is(n, "attribute")) {
        index_uses(ix, syntax_node_field(n, "object"), depth + 1);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        index_uses(ix, ts_node_named_child(n, i), depth + 1);
}

/* Visit the uses of name inside body, in tree order, skipping skip (the binding itself: an
 * identifier, or a helper's parameter list). Each is classified as deep in the nesting as a
 * walk of the body would have met it; the body's identifiers are indexed once per file. */
static void uses_in(fa_walk *w, TSNode body, const char *name, TSNode skip, int depth)
{
    const fa_scope_index *ix = scope_index(w, body, true);
    int nest = w->nest;
    for (size_t i = 0; i < ix->n; i++) {
        const fa_named *u = &ix->items[i];
        if (nest + u->depth > FA_MAX_NEST || !span_is(w->d, u->at, u->len, name) ||
            ts_node_eq(u->value, skip))
            continue;
        w->nest = nest + u->depth + 1;
        classify_use(w, u->value, depth);
        w->nest = nest;
    }
}

static void follow_name(fa_walk *w, const char *name, TSNode scope, TSNode skip, int depth)
{
    TSNode body = syntax_node_is(scope, "function_definition") ? syntax_node_field(scope, "body") : scope;
    if (!ts_node_is_null(body))
        uses_in(w, body, name, skip, depth);
}

/* --- entry points ------------------------------------------------------------------------- */

fa_file *fa_file_new(const syntax_doc *d)
{
    fa_file *ff = xcalloc(1, sizeof *ff);
    ff->d = d;
    return ff;
}

void fa_file_free(fa_file *ff)
{
    if (!ff)
        return;
    for (size_t i = 0; i < ff->nscopes; i++) {
        free(ff->scopes[i]->items);
        free(ff->scopes[i]);
    }
    free(ff->scopes);
    free(ff->defs);
    free(ff);
}

void fa_judge(fa_file *ff, uint32_t start, uint32_t end, fa_verdict *out)
{
    const syntax_doc *d = ff->d;
    memset(out, 0, sizeof *out);
    out->quiet = FA_UNFOLLOWED;
    TSNode call = syntax_node_at(d, start, end);
    while (!ts_node_is_null(call) && !syntax_node_is(call, "call"))
        call = ts_node_parent(call);
    if (ts_node_is_null(call))
        return;
    fa_walk w;
    memset(&w, 0, sizeof w);
    w.ff = ff;
    w.d = d;
    TSNode n = call, p = ts_node_parent(call);
    while (syntax_node_is(p, "parenthesized_expression")) {
        n = p;
        p = ts_node_parent(p);
    }
    if (syntax_node_is(p, "assignment") && ts_node_eq(syntax_node_field(p, "right"), n) && syntax_node_is(syntax_node_field(p, "left"), "identifier")) {
        char *name = syntax_node_text(d, syntax_node_field(p, "left"));
        TSNode scope = enclosing_def(p);
        follow_name(&w, name, ts_node_is_null(scope) ? ts_tree_root_node(d->tree) : scope,
                    syntax_node_field(p, "left"), 0);
        free(name);
    } else {
        classify_use(&w, n, 0);
    }
    while (w.nbinds)
        free(w.binds[--w.nbinds].param);
    out->naccess = w.naccess;
    if (w.hit && kernel_has_runtime_size(d, call)) {
        out->quiet = FA_REACHES;
        TSPoint pt = ts_node_start_point(w.hit_node);
        out->line = (int)pt.row + 1;
        out->col = (int)pt.column;
    } else if (w.hit) {
        out->quiet = FA_STATIC;
    } else if (w.nuniform) {
        out->quiet = FA_UNIFORM;
    } else if (w.nguarded) {
        out->quiet = FA_GUARDED;
    }
}

bool fa_runtime_extent(const syntax_doc *d, uint32_t start, uint32_t end)
{
    TSNode n = syntax_node_at(d, start, end);
    if (ts_node_is_null(n))
        return false;
    /* every identifier of the expression, and of the locals it is computed from */
    TSNode stack[64];
    size_t sp = 0;
    stack[sp++] = n;
    while (sp) {
        TSNode x = stack[--sp];
        if (syntax_node_is(x, "identifier")) {
            char *t = syntax_node_text(d, x);
            bool rt = str_starts(t, "i32_") || str_starts(t, "i64_") || runtime_param(d, x, t);
            free(t);
            if (rt)
                return true;
            continue;
        }
        if (syntax_node_is(x, "attribute")) {
            if (sp < 64)
                stack[sp++] = syntax_node_field(x, "object");
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(x) && sp < 64; i++)
            stack[sp++] = ts_node_named_child(x, i);
    }
    return false;
}
