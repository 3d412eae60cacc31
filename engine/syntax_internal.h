/* Internals shared by the files of the syntax layer (syntax.c, syntax_pp.c, syntax_mask.c,
 * syntax_headers.c, syntax_cache.c); nothing outside engine/syntax*.c includes this. They build
 * the copy of a C/C++ text the parser reads: the preprocessor view (syntax_pp.c) and the
 * blanking of HIP syntax and decoration macros (syntax_mask.c), both keeping every byte offset
 * and newline; and the compiled queries docs share (syntax.c).
 *
 * Ownership: as in syntax.h; a pp_map or deco_set is owned by its creator and freed with its
 * *_free; strings passed in are borrowed. */
#ifndef RL_SYNTAX_INTERNAL_H
#define RL_SYNTAX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/syntax.h"

/* --- preprocessor views (syntax_pp.c) --------------------------------------------------- */

typedef struct pp_range {
    uint32_t start, end;     /* bytes [start, end) */
} pp_range;

typedef struct pp_map pp_map;

/* The #if/#ifdef/#ifndef/#elif/#else/#endif blocks of a text (comments and continuation lines
 * understood; stray or unclosed directives tolerated). Never NULL. */
pp_map *pp_scan(const char *s, size_t len);
void pp_free(pp_map *m);
/* How many views it takes to keep every line of keep[0..nkeep) (1 when they never fall in two
 * branches of one block). */
int pp_view_count(pp_map *m, const int *keep, size_t nkeep);
/* Blank, in s (the text the map was built from, or a same-length masked copy of it), every
 * conditional directive and every branch that view `view` leaves out; append the left-out
 * branch contents to *hidden (unsorted, disjoint). */
void pp_apply(pp_map *m, const int *keep, size_t nkeep, int view, char *s, size_t len,
              pp_range **hidden, size_t *nhidden, size_t *cap);
/* Advance over one physical line from i, tracking block comments across lines in
 * *in_comment; returns the index of the line's "\n" (or len). */
size_t pp_scan_line(const char *s, size_t len, size_t i, bool *in_comment);
/* The next preprocessor line (a logical line: continuations included) from *i on: sets
 * [*start, *end) ("\n" excluded), moves *i past it and returns true; false at the end. Start
 * with *i = 0 and *in_comment = false. */
bool pp_next_directive(const char *s, size_t len, size_t *i, bool *in_comment, size_t *start,
                       size_t *end);

/* --- decoration macros and HIP syntax (syntax_mask.c) ----------------------------------- */

/* A set of macro names that expand to declaration decorations only (qualifiers, attributes,
 * HIP words, other such macros, or nothing). fnlike names are blanked with their (...). */
typedef struct deco_set deco_set;

deco_set *deco_new(void);
void deco_free(deco_set *s);
void deco_add(deco_set *s, const char *name, size_t n, bool fnlike);
/* True when name[0..n) is in the set (*fnlike says how it is invoked). */
bool deco_has(const deco_set *s, const char *name, size_t n, bool *fnlike);
/* Add the names of a decorations string ("A B( C": space separated, "(" after a function-like
 * one), as syntax_headers_decorations returns. */
void deco_add_list(deco_set *s, const char *list);
/* Append to out the set as a decorations string, sorted (for comparing two sets). */
char *deco_list(const deco_set *s);
/* Learn the decoration macros #defined in text, given those already in known: every name all
 * of whose definitions expand to decorations only is added to known; a name the text defines
 * as anything else is removed from it. */
void deco_learn(deco_set *known, const char *text, size_t len);
/* The #define lines of a text, each followed by "\n" (a new string, *out_len its length): all
 * deco_learn needs of a header, kept instead of its whole text. */
char *deco_defines_text(const char *text, size_t len, size_t *out_len);
/* Blank in s (same length, newlines kept) the HIP words the C++ grammar does not know
 * (`__global__`, `__launch_bounds__(n)`, ...), every use of a decoration macro of set (may be
 * NULL), and `<<<...>>>` launch configurations; preprocessor lines are left alone. */
void deco_mask(char *s, size_t len, const deco_set *set);

/* --- constructs the grammar lacks (syntax_gaps.c) -------------------------------------- */

/* Rewrite in s (the blanked copy, same length and newlines kept) the constructs the pinned
 * grammar cannot read into ones it can: `= {}` default arguments, built-in types as call
 * arguments, statement macros without ";", the ";" after a function body. */
void gaps_rewrite(char *s, size_t len);

/* --- compiled queries (syntax.c) ------------------------------------------------------- */

/* A set of compiled queries, each compiled on first use: a syntax cache's, shared by its docs
 * (syntax_cache.c), or a lone doc's own. */
typedef struct syntax_queries syntax_queries;
syntax_queries *syntax_queries_new(void);
void syntax_queries_free(syntax_queries *qs);

/* --- parsing in two steps (syntax.c), for a parse that starts from another tree -------- */

/* The 1-based line holding byte offset `byte` of a text whose lines start at starts[0..nlines)
 * (1 for a text without lines). */
int syntax_line_in(const size_t *starts, int nlines, size_t byte);
/* False with *cause when text of this language and length cannot be parsed at all. */
bool syntax_parse_checks(syn_lang lang, size_t len, char **cause);
/* The copy of text the parser reads for options o (C++: the view, HIP words and decoration
 * macros blanked; every offset and newline kept), with the branches it leaves out. */
char *syntax_parser_copy(syn_lang lang, const char *text, size_t len, const syntax_parse_opts *o,
                         pp_range **hidden, size_t *nhidden);
/* A doc of text from its parser copy (parsed and hidden are taken over): parsed afresh when
 * old is NULL, else reusing old, a copy of a related tree edited to match parsed. */
syntax_doc *syntax_parse_copy(syn_lang lang, const char *text, size_t len, const syntax_parse_opts *o,
                              char *parsed, pp_range *hidden, size_t nhidden, const TSTree *old,
                              char **cause);

#endif
