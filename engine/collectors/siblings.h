/* The pieces of the sibling-drift collector (rule A1) shared by its files:
 * siblings_units.c cuts a function into the units the collector compares (statements,
 * parameters, call arguments, lines of code templates held in strings) with a normalised key
 * each; siblings_names.c says which functions are variants of each other and folds the
 * naming suffix that tells two variants apart out of a key; siblings_edits.c recognises the
 * edits that are no fix to copy (renames, dead code removed); siblings.c is the collector.
 *
 * Ownership: documents and functions are borrowed; every list is owned by the caller and
 * released with its *_free; every char * inside a unit is owned by the unit. */
#ifndef RL_SIBLINGS_H
#define RL_SIBLINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/syntax.h"

typedef enum sib_kind {
    SIB_STMT,  /* a simple statement, or the header of a compound one (`if cond:`, `for (...)`) */
    SIB_HEAD,  /* the first line of a statement spanning several (`return tp_all_reduce(`) */
    SIB_PARAM, /* one parameter of the function's own parameter list */
    SIB_ARG,   /* one argument of a call whose arguments span several lines: a keyword
                  argument, or a positional one doing arithmetic */
    SIB_TEXT,  /* one line of a multi-line string that is not a docstring (a code template) */
} sib_kind;

typedef struct sib_unit {
    sib_kind kind;
    int line, end_line; /* first and last line of its own code (1-based) */
    int block_end;      /* SIB_STMT: last line of the whole statement, body included */
    char *key;          /* its code without comments, string contents or white space */
    char *code;         /* its code as keyed, white space collapsed to single spaces */
    char *shown;        /* its code with strings as written, white space collapsed, for messages */
    char *name;         /* SIB_PARAM: the parameter's name; else NULL */
    bool counts;        /* substantial enough to be compared (the reference's line filters) */
} sib_unit;

typedef struct sib_unit_list {
    sib_unit *items; /* in the order met (a statement after the arguments inside it) */
    size_t n, cap;
} sib_unit_list;

/* Append the units of fn (a function of d) to out: its parameters, and the statements,
 * arguments and template lines of its body that belong to it and not to a function nested in
 * it. Nothing when the function's node cannot be found. */
void sib_units(const syntax_doc *d, const syn_func *fn, sib_unit_list *out);
void sib_unit_list_free(sib_unit_list *l);
/* The neighbours of each unit of l within its sequence (parameters among parameters,
 * arguments among arguments, statements and template lines among statements), in line order,
 * as indices into l written to prev[i] and next[i] (-1 at an end). A SIB_HEAD unit has the
 * neighbours of the statement it heads. prev and next hold l->n entries each. */
void sib_neighbours(const sib_unit_list *l, int *prev, int *next);

/* True when the change only marked variables of u (a unit of fn_before it lost) unused: some
 * unit of fn_after that holds an added line (after_touched[i]) is u with plain variables
 * renamed `x` to `_x` or `_`, consistently. Attributes and called names never count. */
bool sib_renamed(const sib_unit *u, const sib_unit_list *after,
                 const bool *after_touched);
/* True when u, the header of an `if` / `elif` / `while` a function lost, lost only its form:
 * its condition reads the same inside twin, what the header was rewritten as (a nested `if`
 * folded into an `and`, `if c: return False` turned into `return not c`), brackets aside. */
bool sib_condition_kept(const sib_unit *u, const sib_unit *twin);
/* True when u, a parameter fn lost, was never read in fn: an unused parameter dropped, a
 * clean-up, not a fix (d is fn's document). */
bool sib_unused_param(const syntax_doc *d, const syn_func *fn, const sib_unit *u);
/* The local names u (an assignment or a declaration) binds, as new strings in a
 * NULL-terminated array (free with sib_names_free); NULL when it binds none or writes an
 * attribute or an element. */
char **sib_bound_names(const sib_unit *u, syn_lang lang);
void sib_names_free(char **names);
/* True when u (a statement fn lost) only bound names that nothing else in fn reads: dead code
 * removed, not a fix (d is fn's document). */
bool sib_dead_store(const syntax_doc *d, const syn_func *fn, const sib_unit *u);

/* Length of the longest run of characters two names share. */
size_t sib_common_run(const char *a, const char *b);
/* True when b is a variant of a (a != b among l's functions): the reference's rule, names
 * sharing a run of at least 8 characters, neither function inside the other; or functions of
 * the same name nested in enclosing functions or classes that are variants (the kernel
 * defined inside each of two `build_..._module` builders). */
bool sib_is_variant(const syn_func *a, const syn_func *b);
/* The words that tell a from b apart: the underscore-separated parts of their names (or of
 * the nearest enclosing names that differ) between the parts they share at both ends, as
 * new strings ("stage1" / "stage2", "" / "ksplit"); lower case. */
void sib_naming_words(const syn_func *a, const syn_func *b, char **wa, char **wb);
/* key with word (as returned above; "" does nothing) removed from every identifier that
 * holds it as whole underscore-separated parts, as a new string. */
char *sib_fold(const char *key, const char *word);

#endif
