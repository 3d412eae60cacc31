/* Expression value ranges for the index-width collector (rule D9): how large an integer
 * expression of a kernel (Python: Triton, Gluon, FlyDSL; C++: HIP) can get, in bits, whether it
 * is already 64-bit, and whether it depends on a runtime value. Literals give their own size;
 * `+` adds a bit, `*` adds the sizes, `//`, `%`, `>>` and `&` by constants shrink; program ids,
 * blockIdx/threadIdx and aranges have the extents of their axes; casts and FlyDSL's index
 * types (`fx.Index`, `arith.index`, `fx.Int64`, `.to(tl.int64)`, `static_cast<int64_t>`) make
 * a value 64-bit. Names are answered by the caller (ir_env.ident), which knows the scopes.
 *
 * Ownership: the env and nodes are borrowed for the call. */
#ifndef RL_INDEX_EVAL_H
#define RL_INDEX_EVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "engine/collectors/index_range.h"
#include "engine/syntax.h"

/* What is known about one expression's value. */
typedef struct ir_val {
    int bits;          /* estimated log2 of its largest value */
    bool wide;         /* 64-bit (or an index type) */
    bool runtime;      /* depends on a runtime value (else fixed when the kernel is built) */
    bool nonint;       /* not an integer offset: a float, a bool, a type, a string */
    bool opaque;       /* a value read from memory */
    bool grid;         /* derived from the grid size (a grid-stride loop's step) */
    ir_role role;      /* the axis of the factor that dominates it */
    bool stride;       /* ... which is a stride */
    uint32_t key_start, key_end; /* bytes of the runtime name that dominates it (0, 0: none) */
    int key_bits;
    bool key_size;     /* ... which is spelled as a size (an index is a better name to widen) */
} ir_val;

typedef struct ir_env {
    const syntax_doc *d;
    bool py;
    ir_domain domain;  /* the kind of kernel (see ir_classify) */
    /* The value of an identifier at its use (node is the identifier). */
    ir_val (*ident)(void *ctx, TSNode ident, int depth);
    /* The value of a member access the caller tracks as a local (`d.row = ...` in C++),
     * true with *out set; NULL or false: not tracked. */
    bool (*field)(void *ctx, TSNode member, int depth, ir_val *out);
    void *ctx;
} ir_env;

/* Evaluate an expression. depth bounds the recursion through names (pass 0). */
ir_val ir_eval(const ir_env *env, TSNode n, int depth);

/* A value of the given size, with nothing else known. */
ir_val ir_val_of(int bits, bool runtime);

/* True when a type or cast spelling names a 64-bit integer or an index type. */
bool ir_wide_type(const char *text);

/* The last component of a callee, lower-cased into buf (`tl.program_id` → program_id,
 * `std::min` → min, `static_cast<int64_t>` → static_cast, `g.template load<4>` → load). */
void ir_callee_name(const syntax_doc *d, TSNode fn, char *buf, size_t size);

/* True when n is a multiplication. */
bool ir_is_product(TSNode n);

/* n without the parentheses around it. */
TSNode ir_unparen(TSNode n);

#endif
