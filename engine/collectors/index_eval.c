/* Expression value ranges for the index-width collector (see index_eval.h). One evaluator for
 * both grammars: the Python and C++ node types that mean the same thing (binary operators,
 * calls, parentheses, conditionals, subscripts) share their rules; casts, index types and the
 * GPU's built-in indices are recognised by spelling. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collectors/index_eval.h"
#include "engine/syntax.h"
#include "engine/util.h"

#define IR_MAX_BITS 64
#define IR_MAX_DEPTH 24

/* Spellings (compared without case, as whole words) of 64-bit integer and index types. */
static const char *const wide_words[] = {
    "int64", "int64_t", "uint64", "uint64_t", "i64", "long", "size_t", "ssize_t", "ptrdiff_t",
    "intptr_t", "uintptr_t", "index", "long_index_t", "index_t64", NULL,
};

bool ir_wide_type(const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p && !isalnum((unsigned char)*p) && *p != '_')
            p++;
        const char *s = p;
        while (*p && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        size_t l = (size_t)(p - s);
        for (int i = 0; l && wide_words[i]; i++)
            if (strlen(wide_words[i]) == l && strncasecmp(s, wide_words[i], l) == 0)
                return true;
    }
    return false;
}

bool ir_is_product(TSNode n)
{
    return (syntax_node_is(n, "binary_operator") || syntax_node_is(n, "binary_expression")) && strcmp(syntax_node_operator(n), "*") == 0;
}

TSNode ir_unparen(TSNode n)
{
    while ((syntax_node_is(n, "parenthesized_expression") || syntax_node_is(n, "parenthesized_list_splat")) &&
           ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

ir_val ir_val_of(int bits, bool runtime)
{
    ir_val v = {0};
    v.bits = bits;
    v.runtime = runtime;
    return v;
}

/* The bit length of a non-negative number. */
static int bit_length(unsigned long long v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

/* A literal's value; *nonint when it is not an integer, *wide for a 64-bit suffix (C). */
static ir_val literal(const ir_env *env, TSNode n)
{
    char *t = syntax_node_text(env->d, n);
    ir_val v = ir_val_of(0, false);
    char clean[64];
    size_t k = 0;
    for (const char *p = t; *p && k + 1 < sizeof clean; p++)
        if (*p != '_' && *p != '\'')
            clean[k++] = *p;
    clean[k] = '\0';
    bool hex = clean[0] == '0' && (clean[1] == 'x' || clean[1] == 'X');
    if (!hex && (strpbrk(clean, ".eE") || (!env->py && strpbrk(clean, "fF")))) {
        v.nonint = true;
    } else {
        char *end = NULL;
        unsigned long long x = strtoull(clean, &end, 0);
        v.bits = bit_length(x);
        for (const char *s = end; s && *s; s++)
            if (*s == 'l' || *s == 'L')
                v.wide = true;
    }
    free(t);
    return v;
}

/* Cap a bit count to the range we track. */
static int cap(int b)
{
    return b < 0 ? 0 : b > IR_MAX_BITS ? IR_MAX_BITS : b;
}

/* The runtime name with the most bits of the two (runtime ones first). */
static void pick_key(ir_val *out, const ir_val *a, const ir_val *b)
{
    const ir_val *k = a;
    if (!a->key_end || (b->key_end && (a->key_size != b->key_size ? a->key_size
                                                                   : b->key_bits > a->key_bits)))
        k = b;
    out->key_start = k->key_start;
    out->key_end = k->key_end;
    out->key_bits = k->key_bits;
    out->key_size = k->key_size;
    out->role = k->key_end ? k->role : (a->bits >= b->bits ? a->role : b->role);
    out->stride = k->key_end ? k->stride : (a->bits >= b->bits ? a->stride : b->stride);
}


/* An integer literal's value (looking through parentheses, a unary minus is not followed);
 * false when n is not one. */
static bool int_literal(const ir_env *env, TSNode n, long long *out)
{
    n = ir_unparen(n);
    if (!syntax_node_is(n, "integer") && !syntax_node_is(n, "number_literal"))
        return false;
    ir_val v = literal(env, n);
    if (v.nonint)
        return false;
    char *t = syntax_node_text(env->d, n);
    *out = strtoll(t, NULL, 0);
    free(t);
    return true;
}

/* An integer literal, also wrapped in a constant constructor (`arith.constant(24, ...)`,
 * `fx.Int32(24)`). */
static bool int_literal_deep(const ir_env *env, TSNode n, long long *out)
{
    n = ir_unparen(n);
    if (int_literal(env, n, out))
        return true;
    if (!syntax_node_is(n, "call"))
        return false;
    TSNode args = syntax_node_field(n, "arguments");
    if (ts_node_is_null(args) || !ts_node_named_child_count(args))
        return false;
    return int_literal(env, ts_node_named_child(args, 0), out);
}

/* The merge of two alternatives (either may be the value). */
static ir_val either(ir_val a, ir_val b)
{
    ir_val v = a.bits >= b.bits ? a : b;
    v.runtime = a.runtime || b.runtime;
    v.opaque = a.opaque || b.opaque;
    v.grid = a.grid || b.grid;
    v.wide = a.wide && b.wide;
    v.nonint = a.nonint && b.nonint;
    pick_key(&v, &a, &b);
    return v;
}

/* The value of a binary operation. */
static ir_val binary(const ir_env *env, TSNode n, int depth)
{
    const char *op = syntax_node_operator(n);
    TSNode l = syntax_node_field(n, "left"), r = syntax_node_field(n, "right");
    ir_val a = ir_eval(env, l, depth), b = ir_eval(env, r, depth);
    /* a word read from memory may use all 32 bits: masks and shifts cut that, not a guess */
    int a_full = a.opaque && (!strcmp(op, "&") || !strcmp(op, "%") || !strcmp(op, ">>"))
                     ? 31 : a.bits;
    ir_val v = ir_val_of(0, a.runtime || b.runtime);
    v.nonint = a.nonint || b.nonint;
    v.opaque = false; /* arithmetic on a read is not itself a read of unknown size */
    v.grid = a.grid || b.grid;
    v.wide = a.wide || b.wide;
    pick_key(&v, &a, &b);
    long long k = 0;
    bool lit = int_literal(env, r, &k);
    /* the name that dominates: of a sum, the larger term's; of a product, the larger name */
    const ir_val *ks = NULL;
    if (!strcmp(op, "+") || !strcmp(op, "-"))
        ks = a.bits >= b.bits ? (a.key_end ? &a : &b) : (b.key_end ? &b : &a);
    if (ks) {
        v.key_start = ks->key_start, v.key_end = ks->key_end, v.key_size = ks->key_size;
        v.role = ks->role, v.stride = ks->stride;
    }
    if (!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "|") || !strcmp(op, "^")) {
        /* a sum doubles only when its terms are of a size */
        int m = a.bits > b.bits ? a.bits : b.bits, d = a.bits - b.bits;
        v.bits = cap(!strcmp(op, "+") && a.bits && b.bits && d <= 1 && d >= -1 ? m + 1 : m);
        if (v.key_end)
            v.key_bits = v.bits;
    } else if (!strcmp(op, "*")) {
        v.bits = cap(a.bits + b.bits);
        /* a batch index times a sequence length (or the reverse) counts tokens: batches
         * and their lengths are not both at their largest */
        if (!a.stride && !b.stride && ((a.role == IR_BATCH && b.role == IR_ROW) ||
                                       (a.role == IR_ROW && b.role == IR_BATCH)))
            v.bits = cap((a.bits > b.bits ? a.bits : b.bits) + 1);
        v.key_bits = v.bits; /* the name that leads a product stands for all of it */
    } else if (!strcmp(op, "//") || (!env->py && !strcmp(op, "/"))) {
        /* only a divisor fixed when the kernel is built is known to be at least its size */
        v.bits = b.runtime ? a.bits : cap(a.bits - (b.bits ? b.bits - 1 : 0));
        v.role = a.role, v.stride = a.stride;
    } else if (!strcmp(op, "/")) {
        v.nonint = true;
        v.bits = a.bits;
    } else if (!strcmp(op, "%")) {
        v.bits = a_full < b.bits ? a_full : b.bits;
        v.role = a.role, v.stride = a.stride;
    } else if (!strcmp(op, "&")) {
        v.bits = a_full < b.bits ? a_full : b.bits;
    } else if (!strcmp(op, ">>")) {
        v.bits = lit ? cap(a_full - (int)(k > 64 ? 64 : k)) : a.bits;
    } else if (!strcmp(op, "<<")) {
        v.bits = cap(a.bits + (lit ? (int)(k > 64 ? 64 : k) : 8));
    } else if (!strcmp(op, "**")) {
        v.bits = cap(a.bits * (lit ? (int)(k > 8 ? 8 : k) : 2));
    } else {
        /* comparisons and logic: a truth value */
        v = ir_val_of(1, a.runtime || b.runtime);
        v.nonint = true;
    }
    return v;
}

void ir_callee_name(const syntax_doc *d, TSNode fn, char *buf, size_t size)
{
    TSNode last = fn;
    for (int guard = 0; guard < 8 && !ts_node_is_null(last); guard++) {
        if (syntax_node_is(last, "attribute"))
            last = syntax_node_field(last, "attribute");
        else if (syntax_node_is(last, "field_expression"))
            last = syntax_node_field(last, "field");
        else if (syntax_node_is(last, "qualified_identifier") || syntax_node_is(last, "template_function") ||
                 syntax_node_is(last, "template_method"))
            last = syntax_node_field(last, "name");
        else if (syntax_node_is(last, "dependent_name") && ts_node_named_child_count(last))
            last = ts_node_named_child(last, 0);
        else
            break;
    }
    buf[0] = '\0';
    if (ts_node_is_null(last) || !size)
        return;
    char *t = syntax_node_text(d, last);
    size_t i = 0;
    for (; t[i] && i + 1 < size; i++)
        buf[i] = (char)tolower((unsigned char)t[i]);
    buf[i] = '\0';
    free(t);
}

/* The positional arguments of a call (up to max) and the node of keyword kw (or null). */
static size_t call_args(TSNode call, TSNode *pos, size_t max, const char *kw, const ir_env *env,
                        TSNode *kwv)
{
    TSNode args = syntax_node_field(call, "arguments");
    size_t n = 0;
    if (kwv)
        *kwv = (TSNode){{0}, NULL, NULL};
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (syntax_node_is(a, "keyword_argument")) {
            if (kw && kwv) {
                char *nm = syntax_node_text(env->d, syntax_node_field(a, "name"));
                if (!strcmp(nm, kw))
                    *kwv = syntax_node_field(a, "value");
                free(nm);
            }
            continue;
        }
        if (syntax_node_is(a, "comment"))
            continue;
        if (n < max)
            pos[n] = a;
        n++;
    }
    return n < max ? n : max;
}

/* True when a Python receiver is a module (`tl`, `gl`, `triton.language`), so that
 * `tl.cast(x, t)` is a function and `x.to(t)` a method. */
static bool module_receiver(const ir_env *env, TSNode fn)
{
    if (!syntax_node_is(fn, "attribute"))
        return false;
    TSNode obj = syntax_node_field(fn, "object");
    char *t = syntax_node_text(env->d, obj);
    bool m = !strcmp(t, "tl") || !strcmp(t, "gl") || !strcmp(t, "triton.language") ||
             !strcmp(t, "arith") || !strcmp(t, "fx") || !strcmp(t, "torch");
    free(t);
    return m;
}

/* A cast of value to the type spelled by type_node (null: keep the width). */
static ir_val cast_to(const ir_env *env, TSNode value, TSNode type_node, int depth)
{
    ir_val v = ts_node_is_null(value) ? ir_val_of(0, false) : ir_eval(env, value, depth);
    if (ts_node_is_null(type_node))
        return v;
    char *t = syntax_node_text(env->d, type_node);
    bool chosen = env->py && syntax_node_is(type_node, "identifier") && !strstr(t, "32") &&
                  !strstr(t, "16") && !strstr(t, "8");
    if (ir_wide_type(t) || chosen) {
        /* a 64-bit type, or (Python) a dtype the author picks in a variable (`index_type`) */
        v.wide = true;
    } else if (strstr(t, "float") || strstr(t, "f32") || strstr(t, "f16") || strstr(t, "bf16") ||
               strstr(t, "double") || strstr(t, "half")) {
        v.nonint = true;
        v.wide = false;
    } else {
        v.wide = false;
    }
    free(t);
    return v;
}

/* The merge of several arguments: the largest, runtime if any is. */
static ir_val merge_args(const ir_env *env, const TSNode *a, size_t n, size_t from, int depth)
{
    ir_val v = ir_val_of(0, false);
    bool any = false;
    for (size_t i = from; i < n; i++) {
        ir_val x = ir_eval(env, a[i], depth);
        v = any ? either(v, x) : x;
        any = true;
    }
    return v;
}

/* A built-in grid index: program_id / blockIdx along an axis (0/x: rows, else tiles). */
static ir_val grid_index(bool first_axis)
{
    ir_val v = ir_val_of(first_axis ? ir_extent_bits(IR_ROW) : ir_extent_bits(IR_TILE), true);
    v.role = first_axis ? IR_ROW : IR_TILE;
    return v;
}

/* Give a call's value v through out: the call is one the helper knows. */
static bool found(ir_val *out, ir_val v)
{
    *out = v;
    return true;
}

/* A call being valued: its callee's name, its arguments, and for a Python method call the
 * object it is called on. */
typedef struct call_site {
    const ir_env *env;
    TSNode n, fn, obj, kwv;
    char nm[64];
    TSNode a[8];
    size_t na;
    bool method;
    int depth;
} call_site;

/* Grid, lane and warp indices, and calls whose value is not an integer; false for others. */
static bool call_index_builtin(const call_site *c, ir_val *out)
{
    const ir_env *env = c->env;
    const char *nm = c->nm;
    const TSNode *a = c->a;
    size_t na = c->na;
    int depth = c->depth;
    if (!strcmp(nm, "program_id")) {
        long long axis = 0;
        return found(out, grid_index(na == 0 || (int_literal(env, a[0], &axis) && axis == 0)));
    }
    if (!strcmp(nm, "num_programs") || strstr(nm, "grid_dim") || strstr(nm, "griddim") ||
        strstr(nm, "num_groups") || strstr(nm, "num_blocks")) {
        ir_val v = grid_index(true);
        v.grid = true;
        return found(out, v);
    }
    if (!strcmp(nm, "float32") || !strcmp(nm, "float16") || !strcmp(nm, "bfloat16") ||
        !strcmp(nm, "float") || !strcmp(nm, "f32") || !strcmp(nm, "f16") || !strcmp(nm, "bf16") ||
        !strcmp(nm, "fp32") || !strcmp(nm, "exp") || !strcmp(nm, "exp2") || !strcmp(nm, "log") ||
        !strcmp(nm, "sqrt") || !strcmp(nm, "rsqrt") || !strcmp(nm, "dot") || !strcmp(nm, "mfma")) {
        ir_val v = ir_val_of(0, true);
        v.nonint = true;
        return found(out, v);
    }
    if (strstr(nm, "block_id") || strstr(nm, "blockidx") || strstr(nm, "workgroup_id") ||
        strstr(nm, "group_id")) {
        size_t l = strlen(nm);
        return found(out, grid_index(l && nm[l - 1] != 'y' && nm[l - 1] != 'z'));
    }
    if (strstr(nm, "thread_id") || strstr(nm, "threadidx") || strstr(nm, "lane_id") ||
        strstr(nm, "local_id")) {
        ir_val v = ir_val_of(ir_extent_bits(IR_LANE), true);
        v.role = IR_LANE;
        return found(out, v);
    }
    if (strstr(nm, "warp_id") || strstr(nm, "wave_id")) {
        ir_val v = ir_val_of(ir_extent_bits(IR_WARP), true);
        v.role = IR_WARP;
        return found(out, v);
    }
    if (!strcmp(nm, "arange")) {
        ir_val v = na ? ir_eval(env, a[na > 1 ? 1 : 0], depth) : ir_val_of(8, false);
        v.role = IR_TILE;
        v.key_start = v.key_end = 0;
        return found(out, v);
    }
    return false;
}

/* Casts and integer constructors (their width decides 32 or 64 bits); false for others. */
static bool call_cast(const call_site *c, ir_val *out)
{
    const ir_env *env = c->env;
    const char *nm = c->nm;
    TSNode a[8];
    memcpy(a, c->a, sizeof a);
    size_t na = c->na;
    TSNode fn = c->fn, obj = c->obj, kwv = c->kwv, n = c->n;
    bool method = c->method;
    int depth = c->depth;
    if (!strcmp(nm, "to") || !strcmp(nm, "astype") || !strcmp(nm, "cast") ||
        !strcmp(nm, "bitcast")) {
        if (method)
            return found(out, cast_to(env, obj, na ? a[0] : kwv, depth));
        return found(out, cast_to(env, na ? a[0] : obj, na > 1 ? a[1] : kwv, depth));
    }
    if (!strcmp(nm, "index_cast") || !strcmp(nm, "extsi") || !strcmp(nm, "extui") ||
        !strcmp(nm, "trunci")) {
        if (method)
            return found(out, cast_to(env, obj, na ? a[0] : kwv, depth));
        TSNode none = {{0}, NULL, NULL};
        return found(out, cast_to(env, na > 1 ? a[1] : none, na ? a[0] : kwv, depth));
    }
    if (!strcmp(nm, "static_cast") || !strcmp(nm, "reinterpret_cast") ||
        !strcmp(nm, "bit_cast") || !strcmp(nm, "type_convert")) {
        TSNode targs = syntax_node_is(fn, "template_function") ? syntax_node_field(fn, "arguments") : fn;
        return found(out, cast_to(env, na ? a[0] : (TSNode){{0}, NULL, NULL}, targs, depth));
    }
    bool wide_ctor = !strcmp(nm, "int64") || !strcmp(nm, "uint64") || !strcmp(nm, "index") ||
                     !strcmp(nm, "long") || !strcmp(nm, "i64");
    bool narrow_ctor = !strcmp(nm, "int32") || !strcmp(nm, "uint32") || !strcmp(nm, "int16") ||
                       !strcmp(nm, "int8") || !strcmp(nm, "i32") || !strcmp(nm, "int") ||
                       !strcmp(nm, "arithvalue") || !strcmp(nm, "value") ||
                       !strcmp(nm, "unwrap") || !strcmp(nm, "readfirstlane") ||
                       strstr(nm, "readfirstlane") || !strcmp(nm, "__shfl");
    if (wide_ctor || narrow_ctor) {
        ir_val v = na ? ir_eval(env, a[na - 1], depth) : ir_val_of(0, false);
        v.wide = wide_ctor || (v.wide && strcmp(nm, "int32") && strcmp(nm, "i32") &&
                               strcmp(nm, "uint32") && strcmp(nm, "int"));
        return found(out, v);
    }
    if (!strcmp(nm, "constant")) {
        ir_val v = na ? ir_eval(env, a[0], depth) : ir_val_of(0, false);
        TSNode ty, ix;
        call_args(n, a, 0, "type", env, &ty);
        call_args(n, a, 0, "index", env, &ix);
        if (!ts_node_is_null(ty) || na > 1) {
            char *t = syntax_node_text(env->d, ts_node_is_null(ty) ? a[1] : ty);
            v.wide = ir_wide_type(t);
            free(t);
        }
        if (!ts_node_is_null(ix)) {
            char *t = syntax_node_text(env->d, ix);
            v.wide |= !strcmp(t, "True");
            free(t);
        }
        v.runtime = false;
        return found(out, v);
    }
    return false;
}

/* Shifts, min/max, ceil-divisions, selects and loads; false for others. */
static bool call_math(const call_site *c, ir_val *out)
{
    const ir_env *env = c->env;
    const char *nm = c->nm;
    const TSNode *a = c->a;
    size_t na = c->na;
    bool method = c->method;
    int depth = c->depth;
    if ((!strcmp(nm, "shrui") || !strcmp(nm, "shrsi") || !strcmp(nm, "shli")) && na == 2) {
        /* arith.shrui(x, k): x shifted by a constant */
        ir_val x = ir_eval(env, a[0], depth);
        long long k = 0;
        if (x.opaque && nm[2] != 'l')
            x.bits = 31;
        if (int_literal_deep(env, a[1], &k)) {
            x.bits = cap(nm[2] == 'l' ? x.bits + (int)(k > 64 ? 64 : k)
                                      : x.bits - (int)(k > 64 ? 64 : k));
            x.opaque = false;
        }
        return found(out, x);
    }
    if (!strcmp(nm, "minimum") || !strcmp(nm, "min") || !strcmp(nm, "umin")) {
        ir_val v = na ? ir_eval(env, a[0], depth) : ir_val_of(0, false);
        for (size_t i = 1; i < na; i++) {
            ir_val x = ir_eval(env, a[i], depth);
            if (x.bits < v.bits && !x.nonint)
                v.bits = x.bits;
            v.runtime |= x.runtime;
        }
        return found(out, v);
    }
    if (!strcmp(nm, "cdiv") || !strcmp(nm, "ceil_div") || !strcmp(nm, "div_up") ||
        !strcmp(nm, "ceildiv") || !strcmp(nm, "divup")) {
        ir_val x = na ? ir_eval(env, a[0], depth) : ir_val_of(0, false);
        ir_val y = na > 1 ? ir_eval(env, a[1], depth) : ir_val_of(0, false);
        if (!y.runtime && y.bits)
            x.bits = cap(x.bits - y.bits + 1);
        x.runtime |= y.runtime;
        return found(out, x);
    }
    if (!strcmp(nm, "len") || !strcmp(nm, "sizeof"))
        return found(out, ir_val_of(8, false));
    if (!strcmp(nm, "where") || !strcmp(nm, "select"))
        return found(out, merge_args(env, a, na, method || na < 3 ? 0 : 1, depth));
    if (!strcmp(nm, "maximum") || !strcmp(nm, "max") || !strcmp(nm, "umax") ||
        !strcmp(nm, "convert_layout") || !strcmp(nm, "multiple_of") ||
        !strcmp(nm, "max_contiguous") || !strcmp(nm, "broadcast_to"))
        return found(out, merge_args(env, a, na, 0, depth));
    if (strstr(nm, "load") || strstr(nm, "gather") || strstr(nm, "atomic") || strstr(nm, "ldg")) {
        ir_val v = ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
        v.opaque = true;
        return found(out, v);
    }
    return false;
}

/* The value of a Python or C++ call. */
static ir_val call(const ir_env *env, TSNode n, int depth)
{
    call_site c = {.env = env, .n = n, .fn = syntax_node_field(n, "function"), .depth = depth};
    ir_callee_name(env->d, c.fn, c.nm, sizeof c.nm);
    c.na = call_args(n, c.a, 8, "dtype", env, &c.kwv);
    c.method = env->py && syntax_node_is(c.fn, "attribute") && !module_receiver(env, c.fn);
    c.obj = c.method ? syntax_node_field(c.fn, "object") : (TSNode){{0}, NULL, NULL};
    ir_val v;
    if (call_index_builtin(&c, &v) || call_cast(&c, &v) || call_math(&c, &v))
        return v;
    /* any other call: as large as its arguments (a helper of index math) */
    v = merge_args(env, c.a, c.na, 0, depth);
    if (c.method) {
        ir_val o = ir_eval(env, c.obj, depth);
        v = c.na ? either(v, o) : o;
    }
    if (!c.na && !c.method)
        v = ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
    return v;
}

/* A C++ field of a built-in (threadIdx.x, blockIdx.y, blockDim.x, gridDim.x); false if not. */
static bool builtin_field(const ir_env *env, TSNode n, ir_val *out)
{
    char *t = syntax_node_text(env->d, n);
    char *dot = strrchr(t, '.');
    bool ok = false;
    if (dot) {
        *dot = '\0';
        const char *obj = strrchr(t, '.') ? strrchr(t, '.') + 1 : t;
        bool x = dot[1] == 'x';
        if (!strcmp(obj, "threadIdx") || !strcmp(obj, "thread_idx") || !strcmp(obj, "blockDim") ||
            !strcmp(obj, "block_dim")) {
            *out = ir_val_of(ir_extent_bits(IR_LANE), true);
            out->role = IR_LANE;
            ok = true;
        } else if (!strcmp(obj, "blockIdx") || !strcmp(obj, "block_idx") ||
                   !strcmp(obj, "block_id")) {
            *out = grid_index(x);
            ok = true;
        } else if (!strcmp(obj, "gridDim") || !strcmp(obj, "grid_dim")) {
            *out = grid_index(true);
            out->grid = true;
            ok = true;
        }
    }
    free(t);
    return ok;
}

/* The value of a member access: a built-in index, a type, or a named value whose object
 * decides whether it is known at build time. */
static ir_val member(const ir_env *env, TSNode n, int depth)
{
    ir_val v;
    if (builtin_field(env, n, &v))
        return v;
    if (env->field && env->field(env->ctx, n, depth, &v))
        return v;
    TSNode obj = syntax_node_field(n, env->py ? "object" : "argument");
    TSNode name = syntax_node_field(n, env->py ? "attribute" : "field");
    char *nm = ts_node_is_null(name) ? xstrdup("") : syntax_node_text(env->d, name);
    static const char *const types[] = {"int64", "int32", "int16", "int8", "uint32", "uint64",
                                        "i32", "i64", "index", "float32", "float16", "bfloat16",
                                        "f32", "f16", "bf16", "dtype", "shape", NULL};
    for (int i = 0; types[i]; i++)
        if (!strcmp(nm, types[i])) {
            free(nm);
            v = ir_val_of(0, false);
            v.nonint = true;
            return v;
        }
    TSNode root = obj;
    while (syntax_node_is(root, "attribute") || syntax_node_is(root, "field_expression"))
        root = syntax_node_field(root, env->py ? "object" : "argument");
    bool runtime = false;
    if (syntax_node_is(root, "identifier")) {
        char *rt = syntax_node_text(env->d, root);
        bool self = !strcmp(rt, "self") || !strcmp(rt, "cfg") || !strcmp(rt, "this");
        free(rt);
        runtime = !self && env->ident(env->ctx, root, depth + 1).runtime;
    }
    ir_name cls;
    ir_classify(nm, !runtime, env->domain, &cls);
    v = ir_val_of(cls.bits, runtime);
    v.role = cls.role;
    v.stride = cls.stride;
    if (runtime) {
        v.key_start = ts_node_start_byte(n);
        v.key_end = ts_node_end_byte(n);
        v.key_bits = v.bits;
        v.key_size = cls.size_like;
    }
    free(nm);
    return v;
}

/* The value of a subscript: a slice or broadcast keeps the value, an element of a value fixed
 * at build time (a Python list) is that value, anything else is read from memory. */
static ir_val subscript(const ir_env *env, TSNode n, int depth)
{
    TSNode obj = syntax_node_field(n, env->py ? "value" : "argument");
    ir_val v = ir_eval(env, obj, depth);
    bool all_slices = env->py, any_runtime = false;
    TSNode idx = env->py ? n : syntax_node_field(n, "indices");
    for (uint32_t i = 0; !ts_node_is_null(idx) && i < ts_node_named_child_count(idx); i++) {
        TSNode c = ts_node_named_child(idx, i);
        if (env->py && ts_node_eq(c, obj))
            continue;
        if (!syntax_node_is(c, "slice") && !syntax_node_is(c, "none") && !syntax_node_is(c, "ellipsis"))
            all_slices = false;
        if (ir_eval(env, c, depth).runtime)
            any_runtime = true;
    }
    if (all_slices || (!v.runtime && !any_runtime) || (env->py && !any_runtime))
        return v;
    v = ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
    v.opaque = true;
    return v;
}

/* The value of the named children of n merged (a list, a tuple, an initializer). */
static ir_val children(const ir_env *env, TSNode n, int depth)
{
    ir_val v = ir_val_of(0, false);
    bool any = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (syntax_node_is(c, "comment"))
            continue;
        ir_val x = ir_eval(env, c, depth);
        v = any ? either(v, x) : x;
        any = true;
    }
    return v;
}

ir_val ir_eval(const ir_env *env, TSNode n, int depth)
{
    if (ts_node_is_null(n) || depth > IR_MAX_DEPTH)
        return ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
    const char *t = ts_node_type(n);
    if (!strcmp(t, "integer") || !strcmp(t, "number_literal"))
        return literal(env, n);
    if (!strcmp(t, "identifier"))
        return env->ident(env->ctx, n, depth + 1);
    if (!strcmp(t, "parenthesized_expression") || !strcmp(t, "keyword_argument") ||
        !strcmp(t, "unary_operator") || !strcmp(t, "unary_expression") ||
        !strcmp(t, "update_expression") || !strcmp(t, "comma_expression")) {
        TSNode inner = !strcmp(t, "keyword_argument") ? syntax_node_field(n, "value")
                       : !strcmp(t, "comma_expression") ? syntax_node_field(n, "right")
                       : !strcmp(t, "parenthesized_expression")
                           ? ts_node_named_child(n, ts_node_named_child_count(n) - 1)
                           : syntax_node_field(n, "argument");
        return ir_eval(env, inner, depth);
    }
    if (!strcmp(t, "binary_operator") || !strcmp(t, "binary_expression"))
        return binary(env, n, depth);
    if (!strcmp(t, "call") || !strcmp(t, "call_expression"))
        return call(env, n, depth);
    if (!strcmp(t, "attribute") || !strcmp(t, "field_expression"))
        return member(env, n, depth);
    if (!strcmp(t, "subscript") || !strcmp(t, "subscript_expression"))
        return subscript(env, n, depth);
    if (!strcmp(t, "cast_expression"))
        return cast_to(env, syntax_node_field(n, "value"), syntax_node_field(n, "type"), depth);
    if (!strcmp(t, "sizeof_expression") || !strcmp(t, "alignof_expression")) {
        ir_val v = ir_val_of(3, false); /* a size_t: makes the product 64-bit */
        v.role = IR_SMALL;
        v.wide = true;
        return v;
    }
    if (!strcmp(t, "char_literal"))
        return ir_val_of(8, false);
    if (!strcmp(t, "conditional_expression")) {
        if (env->py && ts_node_named_child_count(n) == 3)
            return either(ir_eval(env, ts_node_named_child(n, 0), depth),
                          ir_eval(env, ts_node_named_child(n, 2), depth));
        return either(ir_eval(env, syntax_node_field(n, "consequence"), depth),
                      ir_eval(env, syntax_node_field(n, "alternative"), depth));
    }
    if (!strcmp(t, "qualified_identifier") || !strcmp(t, "template_function")) {
        TSNode name = syntax_node_field(n, "name");
        char *nm = ts_node_is_null(name) ? xstrdup("") : syntax_node_text(env->d, name);
        ir_name cls;
        ir_classify(nm, true, env->domain, &cls);
        free(nm);
        ir_val v = ir_val_of(cls.bits, false);
        v.role = cls.role;
        return v;
    }
    if (!strcmp(t, "list") || !strcmp(t, "tuple") || !strcmp(t, "expression_list") ||
        !strcmp(t, "initializer_list") || !strcmp(t, "argument_list"))
        return children(env, n, depth);
    ir_val v = ir_val_of(0, false);
    v.nonint = true;
    if (!strcmp(t, "true") || !strcmp(t, "false") || !strcmp(t, "this") ||
        !strcmp(t, "nullptr") || !strcmp(t, "null"))
        v.bits = 1;
    else if (!strcmp(t, "pointer_expression")) {
        v = ir_val_of(ir_extent_bits(IR_UNKNOWN), true);
        v.opaque = true;
    }
    return v;
}
