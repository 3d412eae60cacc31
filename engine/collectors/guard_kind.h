/* What kind of guard a line of code holds: a check (assert, static_assert, TORCH_CHECK,
 * AITER_CHECK, TORCH_INTERNAL_ASSERT), a zero-initialisation or a .contiguous(). Implemented
 * with the removed-guards collector (guards_text.c) and public to the other collectors, so
 * that every one of them means the same by "a check" (siblings anchors a carried check more
 * loosely than other statements). */
#ifndef RL_GUARD_KIND_H
#define RL_GUARD_KIND_H

typedef enum gkind { GK_NONE, GK_CHECK, GK_ZERO, GK_CONTIG } gkind;

/* The kind of guard a line of code holds (strings and comments already blanked). */
gkind guards_kind(const char *code);

#endif
