/* Function scopes for the index-width collector (rule D9): for every function of a parsed
 * file (Python or C++), its parameters and locals with every value assigned to them, and what
 * their declarations say (64-bit, 32-bit, pointer, local array, shared memory, Python list,
 * fixed at build time). Nested Python functions see their enclosing function's names; a
 * device function nested in a host builder (FlyDSL's `compile_…(M: int)` around its
 * `@flyc.kernel`) sees the builder's names as values fixed when the kernel is built.
 *
 * ix_eval gives an expression's value range (index_eval.h) with names answered from the
 * scopes: a parameter from the arguments the file's calls pass it (else from its spelling),
 * a local from the values assigned to it (bounded by what its name says it indexes), a loop
 * variable from its loop bound.
 *
 * Ownership: an ix_file borrows the syntax_doc (and the function list) it was built from and
 * must be freed (ix_file_free) before them. */
#ifndef RL_INDEX_SCOPE_H
#define RL_INDEX_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "engine/collectors/index_eval.h"
#include "engine/syntax.h"

typedef enum ix_def_kind {
    IX_DEF_VALUE,   /* x = value */
    IX_DEF_AUG,     /* x += value (and other compound assignments) */
    IX_DEF_BOUND,   /* a loop variable below value (range(...) / i < value) */
    IX_DEF_OPAQUE,  /* bound to something we do not follow (unpacking a call, a for over a list) */
} ix_def_kind;

typedef struct ix_def {
    TSNode value;
    int line;
    ix_def_kind kind;
    bool wide;      /* the value assigned is 64-bit (computed with the entry's value) */
    int state;      /* memo of its value: 0 not computed, 1 in progress, 2 done */
    ir_val val;
    bool fed;       /* its value was walked for what feeds an address: what that walk marks
                       only ever grows, so walking it again would mark nothing new */
} ix_def;

typedef struct ix_entry {
    char *name;
    int line;             /* where it is declared (its parameter, or its first assignment) */
    bool param;
    bool compile_time;    /* a constexpr / template parameter or a constexpr local */
    bool wide_decl;       /* declared with a 64-bit type */
    bool narrow_decl;     /* declared with a 32-bit (or narrower) integer type (C++) */
    bool pointer;         /* a pointer (C++ declarator, or spelled ptr) */
    bool array;           /* a C++ local array (registers) */
    bool lds;             /* shared memory (__shared__, or derived from an LDS allocation) */
    bool list;            /* a Python list or tuple (trace-time registers) */
    bool feeding;         /* used, directly or through other locals, in a global address */
    int param_index;      /* position among the function's parameters (-1: a local) */
    ix_def *defs;
    size_t ndefs, defs_cap;
    int state;            /* memo of a parameter's value: 0 not computed, 1 in progress, 2 done */
    ir_val val;
} ix_entry;

typedef struct ix_scope {
    struct ix_scope *parent;
    TSNode fn;
    char *fname;
    bool device;          /* kernel or device code */
    bool kernel;          /* a C++ __global__ function */
    bool returns_feed;    /* a call of it feeds a global address (its returns are addresses) */
    int nparams;
    int first_line, last_line;
    ix_entry *ents;
    size_t n, cap;
} ix_scope;

/* A call of a function of the file from another (or the same) function of the file. */
typedef struct ix_call {
    TSNode call;
    ix_scope *caller, *callee;
    int shift;            /* 1 when `self.f(...)` calls a method whose first parameter is self */
} ix_call;

typedef struct ix_file {
    const syntax_doc *d;
    bool py;
    ir_domain domain;     /* the kind of kernel the file holds (how letters read) */
    ix_scope **scopes;    /* in source order, outer before inner */
    size_t n, cap;
    ix_call *calls;       /* every call between functions of the file */
    size_t ncalls, calls_cap;
} ix_file;

/* Build the scopes of every function in the doc; fns is the doc's syntax_functions list
 * (C++ kernel/device flags come from it; unused for Python); domain: how its names read. */
void ix_build(ix_file *xf, const syntax_doc *d, const syn_func_list *fns, ir_domain domain);
void ix_file_free(ix_file *xf);
/* True when one of the lines marked in added[1..nlines] may lie in a scope ix_build makes
 * device code, without building any: for C/C++, in a function fns marks __global__ or
 * __device__; for Python, in a function (or one enclosing it) whose decorator lines spell jit
 * or kernel, or whose header spells constexpr, in any case. A superset of what ix_build
 * decides (build_function), kept beside it: false means no scope to scan. fns is the doc's
 * syntax_functions list. */
bool ix_may_touch_device(const syntax_doc *d, const syn_func_list *fns, const bool *added,
                         int nlines);
/* The same for a Python text not parsed yet, from its outline: its def blocks hold at least
 * the lines of the functions the parse finds, so this is false only where
 * ix_may_touch_device would be. */
struct py_outline;
bool ix_may_touch_device_unparsed(const struct py_outline *o, const char *text, const bool *added,
                                  int nlines);

/* The entry a name resolves to from scope s (searching outwards), with its scope in *owner;
 * NULL when the name is not a parameter or local of s or an enclosing function. */
ix_entry *ix_resolve(const ix_file *xf, ix_scope *s, const char *name, ix_scope **owner);

/* The same for an identifier node. */
ix_entry *ix_resolve_node(const ix_file *xf, ix_scope *s, TSNode ident, ix_scope **owner);

/* The argument a call passes for parameter e of its callee (a null node when none). */
TSNode ix_call_arg(const ix_file *xf, const ix_call *c, const ix_entry *e);

/* The function of the file a call node calls, as seen from scope s (NULL: not one of ours). */
ix_scope *ix_callee(const ix_file *xf, ix_scope *s, TSNode call, int *shift);

/* The value range of an expression of scope s. */
ir_val ix_eval(const ix_file *xf, ix_scope *s, TSNode n);

/* The outermost device scope enclosing s (s itself when none encloses it). */
ix_scope *ix_kernel_of(ix_scope *s);

#endif
