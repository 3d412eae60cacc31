/* The units of functions kept between reviews (siblings_memo.c): while an author types in one
 * function of a file, its variants' text does not change, so their units are cut once and
 * reused. Kept by the server (the collector's state); a batch review keeps none. */
#ifndef RL_SIBLINGS_MEMO_H
#define RL_SIBLINGS_MEMO_H

#include "engine/collectors/siblings.h"

typedef struct sib_memo sib_memo;

sib_memo *sib_memo_new(void);
void sib_memo_free(void *memo); /* a collector's free_state */
/* The units of fn, a function of d: those cut for a function of the same text (its whole
 * lines, what the parser read of them, the view's hidden ranges and decorations) at the same
 * line, else cut now and kept. Borrowed: valid until sib_memo_trim or sib_memo_free. NULL when
 * d cannot be memoised (a tree with errors, a NUL byte in the function): cut them yourself. */
const sib_unit_list *sib_memo_units(sib_memo *m, const syntax_doc *d, const syn_func *fn);
/* Drop the units not asked for since the last trim (the end of a review). */
void sib_memo_trim(sib_memo *m);
/* How many functions' units are kept, and how many were reused since sib_memo_new. */
size_t sib_memo_size(const sib_memo *m);
size_t sib_memo_hits(const sib_memo *m);

#endif
