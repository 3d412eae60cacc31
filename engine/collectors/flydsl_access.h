/* Following a FlyDSL buffer resource to the loads and stores made through it, and deciding
 * whether any of them can address past the tensor (the evidence rule B8 needs before it calls
 * an unbounded descriptor a defect). Used by the flydsl_bounds collector. */
#ifndef ENGINE_COLLECTORS_FLYDSL_ACCESS_H
#define ENGINE_COLLECTORS_FLYDSL_ACCESS_H

#include <stdbool.h>

#include "engine/syntax.h"

/* Why no access of a descriptor was found able to run past its tensor. */
typedef enum fa_quiet {
    FA_REACHES,        /* an access can run past the tensor: the descriptor is a finding */
    FA_GUARDED,        /* every access is under a run-time guard or has a clamped offset */
    FA_UNIFORM,        /* the unguarded accesses are the same for every lane of a block (a
                          scalar or metadata read at a block or loop index) or do not step
                          by block */
    FA_STATIC,         /* the kernel has no run-time size argument: every extent is fixed
                          when it is compiled */
    FA_UNFOLLOWED,     /* the descriptor is handed on (a helper in another file, a
                          namespace, a layout view) or never used: no access to judge */
} fa_quiet;

/* The verdict on one descriptor. */
typedef struct fa_verdict {
    fa_quiet quiet;
    int line, col;     /* FA_REACHES: the access that can run past the tensor */
    int naccess;       /* accesses found */
} fa_verdict;

/* What judging learns of one file that holds for all its descriptors: its function
 * definitions and each scope's assignments, read once and looked up by name (a kernel file
 * builds many descriptors, each followed through the same functions). Borrows d. */
typedef struct fa_file fa_file;

fa_file *fa_file_new(const syntax_doc *d);
void fa_file_free(fa_file *ff);

/* Judge the descriptor built by the call at byte span [start, end) of ff's doc: follow the
 * name it is assigned to (or the call it is passed to) through the enclosing function, its nested
 * helpers and same-file helpers it is passed to, to the buffer_load / buffer_store calls that
 * use it. An access can run past the tensor when it is not under a run-time guard (an
 * scf.IfOp then-block, an `if` on a comparison), its offset is not clamped (select, min,
 * remainder, mask=), the offset varies per lane and steps by block (a thread or lane index
 * and a block index), and the kernel takes a run-time size argument (Int32, Index, ...). */
void fa_judge(fa_file *ff, uint32_t start, uint32_t end, fa_verdict *out);

/* True when the expression at byte span [start, end) of d names a run-time size: a parameter
 * of an enclosing function annotated Int32 / Int64 / Index, or an i32_ / i64_ local. */
bool fa_runtime_extent(const syntax_doc *d, uint32_t start, uint32_t end);

#endif
