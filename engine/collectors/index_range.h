/* Value ranges for the index-width collector (rule D9): what a name in kernel code most likely
 * counts, and how large it can get. A kernel's names carry the axis they index or stride over
 * (`pid_m`, `cur_head`, `stride_o_h`, `num_kv_heads`, `token_id`, `physical_block`), so the
 * largest value of a factor is estimated, in bits, from that axis at production scale: a
 * token/row index up to ~2^17 (long-context prefill), a KV-cache block or slot up to ~2^24 (a
 * ~150M-row pool), a head index up to 2^7, a lane up to 2^10; a stride over a token axis is a
 * row (up to ~2^15 elements), over a batch or expert axis a whole matrix (~2^24), over a head
 * or column axis small. The collector multiplies these estimates through an expression and
 * reports a 32-bit product only when it can pass 2^31.
 *
 * The estimates are deliberately generous for outer axes and tight for inner ones; the
 * precision ledger (bench/precision/judged/D9.tsv) is what they are tuned against.
 *
 * Ownership: names are borrowed; nothing is kept. */
#ifndef RL_INDEX_RANGE_H
#define RL_INDEX_RANGE_H

#include <stdbool.h>

typedef enum ir_role {
    IR_UNKNOWN = 0,
    IR_ROW,       /* a token, row or sequence position */
    IR_BATCH,     /* a batch entry, sequence or request */
    IR_BLOCK,     /* a KV-cache block or page */
    IR_SLOT,      /* a KV-cache slot: one row of a paged pool (blocks times their rows) */
    IR_EXPERT,    /* an expert */
    IR_HEAD,      /* an attention head */
    IR_KV_HEAD,   /* a KV head (or a head group) */
    IR_LANE,      /* a thread or lane of a workgroup */
    IR_WARP,      /* a warp or wave */
    IR_COLUMN,    /* a column or feature (n, k, hidden size) */
    IR_DIM,       /* a position inside one head (head_dim) */
    IR_TILE,      /* a tile, chunk or loop-step index, or a tile size */
    IR_SMALL,     /* top-k, ranks, GPUs, splits */
    IR_VOCAB,     /* a vocabulary position */
    IR_SPATIAL,   /* a height/width position of an image (convolutions) */
    IR_NROLES
} ir_role;

/* What a name says about its value. */
typedef struct ir_name {
    ir_role role;      /* the axis it indexes, counts or strides over (IR_UNKNOWN: none) */
    bool stride;       /* a stride: elements between consecutive indices of that axis */
    bool offsetish;    /* spelled as an element offset or address (off, base, ptr, bytes):
                          its value is not bounded by its axis */
    bool lds;          /* spelled as shared memory (lds, smem, shared) */
    bool pointer;      /* spelled as a pointer (ptr, ptrs, pointer) */
    bool floatish;     /* spelled as a floating-point value (f32, scale, eps, ...) */
    bool known;        /* role or stride came from the spelling (not the default) */
    bool by_letter;    /* ... from a single letter (`v`, `i_n`), a weaker sign than a word */
    bool size_like;    /* spelled as a size rather than an index (`N_OUT`, `num_heads`, `seq_len`) */
    int bits;          /* estimated log2 of its largest value */
} ir_name;

/* The kind of kernel a name is read in, where a few letters change meaning. */
typedef enum ir_domain {
    IR_DOMAIN_DEFAULT = 0,
    IR_DOMAIN_CONV,     /* convolution: n is the batch, h/w/p/q/r/s positions inside one
                           image, c/k channels */
    IR_DOMAIN_ATTN,     /* attention: n is the key/value sequence (stride_kn, offs_n) */
} ir_domain;

/* Classify a name. compile_time says it is a compile-time value (a constexpr, a template
 * parameter, a Python value of the builder), where "block" and "tile" spell a tile size. */
void ir_classify(const char *name, bool compile_time, ir_domain domain, ir_name *out);

/* The domain of a file from its path (conv..., attention/attn/mha/mla/paged ...). */
ir_domain ir_domain_of_path(const char *path);

/* True when a name is spelled as shared memory (lds, smem, shared). */
bool ir_name_says_lds(const char *name);

/* The estimated log2 of the largest index on an axis (the axis's extent). */
int ir_extent_bits(ir_role role);

/* A short phrase for a factor of the role: "a token/row index", "a row stride", ... */
const char *ir_phrase(ir_role role, bool stride);

#endif
