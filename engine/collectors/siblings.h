/* The pieces of the sibling-drift collector (rule A1) shared by its files:
 * siblings_units.c cuts a function into the units the collector compares (statements,
 * parameters, call arguments, lines of code templates held in strings) with a normalised key
 * each; siblings_names.c says which functions are variants of each other and folds the
 * naming suffix that tells two variants apart out of a key; siblings_edits.c recognises the
 * edits that are no fix to copy (renames, dead code removed, a kernel picked into a local);
 * siblings_spelling.c reads two spellings of the same code as one; siblings_refs.c says
 * whether anything in the tree names a variant; siblings_file.c holds one
 * changed file's two sides and what the change did to it; siblings_scope.c says which
 * divergences the change itself explains; siblings.c is the collector.
 *
 * Ownership: documents and functions are borrowed; every list is owned by the caller and
 * released with its *_free; every char * inside a unit is owned by the unit. */
#ifndef RL_SIBLINGS_H
#define RL_SIBLINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"
#include "engine/finding.h"
#include "engine/strset.h"
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
    char *ann;          /* Python SIB_PARAM: its type annotation, white space dropped (left out
                           of key, code and shown: it does nothing once the function runs);
                           else NULL */
    char *ann_shown;    /* with ann: the parameter as written, annotation included, white space
                           collapsed, for messages */
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

/* One token of a unit's code: an identifier or a number whole (ident: an identifier), or one
 * other character; borrowed from the code it was cut from. */
typedef struct sib_tok {
    const char *s;
    size_t n;
    bool ident;
} sib_tok;
/* The tokens of code (spaces dropped), *n of them; a new array (free it), NULL when none. */
sib_tok *sib_tokens(const char *code, size_t *n);

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
/* True when u (a unit a function lost, before: its units in the base) is an edited unit of
 * after (its head units; after_touched[i]) with parameters the change renamed in place
 * (`x` to `x_fp4`, the k-th parameter both times) written under their new names: the same
 * code. */
bool sib_param_renamed(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after,
                       const bool *after_touched);
/* The locals a function's units bind, each with the value of its only binding (see
 * sib_local_renamed); built once per function and side. */
typedef struct sib_locals sib_locals;
sib_locals *sib_locals_of(const sib_unit_list *l, syn_lang lang);
void sib_locals_free(sib_locals *lc);
/* True when u (a unit a function lost; before: the locals of its base units) is an edited
 * unit of after_units (its head units; after_touched[i]; after: their locals) with locals
 * renamed to locals bound to the same code (`idx` split into `input_idx` and
 * `residual_idx`, `residual_idx` keeping idx's value): the same code. Each name must be bound
 * once, alone, on its side. */
bool sib_local_renamed(const sib_unit *u, const sib_locals *before, const sib_locals *after,
                       const sib_unit_list *after_units, const bool *after_touched);
/* True when u, a parameter a function lost, is still a parameter of it in after (its head
 * units) and now has a default where it had none: made optional, the function's own API. */
bool sib_param_made_optional(const sib_unit *u, const sib_unit_list *after);
/* True when every unit a variant's change touched (after: its head units, on added lines of
 * hn; before: its base units, on deleted lines of bn) is one of its base units with a
 * module-level name it only refers to renamed (an import given an alias: `_k` to
 * `_triton_k`), one for one: a sweep over the file, not a look at the variant. */
bool sib_import_renamed_only(const bool *added, int hn, const bool *deleted, int bn, const sib_unit_list *before,
                             const sib_unit_list *after, syn_lang lang);
/* True when u, an argument a function lost, is now the whole value of a local an edited unit
 * of after (its head units; after_touched[i]) binds (`ops = [a, b * k]` passed on by name):
 * hoisted, not rewritten. */
bool sib_hoisted(const sib_unit *u, const sib_unit_list *after, const bool *after_touched);
/* True when u (a unit fn lost) launches or calls a function fn now picks into a local: an
 * edited unit of after (fn's head units; after_touched[i]) is u with the called name replaced
 * by a local that fn binds only to names of functions (`k = gluon_k` in one branch, `k =
 * triton_k` in the other). The launch is the same; which kernel runs is fn's own choice. */
bool sib_callee_selected(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, syn_lang lang);

/* Length of the longest run of characters two names share. */
size_t sib_common_run(const char *a, const char *b);
/* True when b is a variant of a (a != b among l's functions): the reference's rule, names
 * sharing a run of at least 8 characters, neither function inside the other; or functions of
 * the same name nested in enclosing functions or classes that are variants (the kernel
 * defined inside each of two `build_..._module` builders). */
bool sib_is_variant(const syn_func *a, const syn_func *b);
/* False when no two functions named a and b (each nested in another function or class or
 * not) can be variants by sib_is_variant, whatever else is known of them: a test on names
 * alone, for a file that is not parsed yet. */
bool sib_names_may_vary(const char *a, bool a_nested, const char *b, bool b_nested);
/* The words that tell a from b apart: the underscore-separated parts of their names (or of
 * the nearest enclosing names that differ) between the parts they share at both ends, as
 * new strings ("stage1" / "stage2", "" / "ksplit"); lower case. */
void sib_naming_words(const syn_func *a, const syn_func *b, char **wa, char **wb);
/* key with word (as returned above; "" does nothing) removed from every identifier that
 * holds it as whole underscore-separated parts, as a new string. */
char *sib_fold(const char *key, const char *word);

/* --- spellings of the same code (siblings_spelling.c) ------------------------------------ */

/* The key of a unit whose code, white space collapsed, is flat: white space dropped, every
 * floating-point literal in one spelling (`0.25f` and `.25` alike) and MLIR type classes
 * written as their FlyDSL alias (`ir.IndexType.get()` as `T.index`). A new string. */
char *sib_canonical_key(const char *flat);
/* The same for any text (len bytes; white space of every kind, newlines included): how two
 * pieces of code that may span lines are compared as keys. A new string. */
char *sib_text_key(const char *text, size_t len);
/* True when after is before (both keys) with trailing zero-literal arguments appended to some
 * of its argument lists (`f<A, B>(x)` to `f<A, B, 0>(x)`, `g(x)` to `g(x, nullptr)`): the
 * callee's defaults written out. */
bool sib_defaults_written(const char *before, const char *after, syn_lang lang);
/* True when u (a unit a function lost) is an edited unit of after (after_touched[i]) with the
 * defaults of its calls written out (sib_defaults_written): the same call. */
bool sib_respelled(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, syn_lang lang);
/* True when u (the first line or an argument line of a statement a function lost, before: its
 * units in the base) belongs to a statement the function still holds as often in after (its
 * units in the head): the statement was only wrapped another way (joined onto one line). */
bool sib_rewrapped(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after);
/* True when u (a Python keyword argument `NAME=value` a function lost) reappears among the
 * lines f added within head lines first..last as a dict entry `"NAME": value`: the call now
 * takes its keywords from a dict (`**kw`), the argument moved. */
bool sib_kwarg_into_dict(const sib_unit *u, const change_file *f, int first, int last, syn_lang lang);

/* --- names the change stopped importing (siblings_unimported.c) ---------------------------- */

/* The names a Python file's base binds at module level (a column-0 import, def, class or
 * assignment, as py_outline reads them) that its head binds nowhere (no import of it at any
 * depth, no def, class or assignment of it): `Enum` once `from .enum import ActivationType,
 * Enum` lost it. Read only when a base line the change deleted (deleted[l], l up to bn) may
 * be part of an import. A new array of *n new strings (free each,
 * then the array); NULL for other languages or when there are none. */
char **sib_unimported_names(const syntax_doc *base, const syntax_doc *head, const bool *deleted, int bn,
                            size_t *n);
/* The first of names (n of them) that u, a parameter unit, names in its annotation; NULL when
 * it names none or is no annotated parameter. */
const char *sib_annotation_names(const sib_unit *u, char *const *names, size_t n);
/* The parameter unit of l of this name, NULL when none. */
const sib_unit *sib_param_named(const sib_unit_list *l, const char *name);

/* --- the changed function's own choices (siblings_choices.c, siblings_followed.c) ---------- */

/* True when the run of changed lines holding diff line di (a line of the lost unit) adds a
 * comment calling the rewrite an optimisation (performance, faster, a speed-up): the author's
 * own word that it is a choice for this function, not a fix. */
bool sib_labelled_optimisation(const change_file *f, size_t di);
/* True when the rewrite of u (a unit a function lost) is a choice of that function rather than
 * a fix: twin, what u was rewritten as (NULL when nothing was), or an edited unit of after
 * (after_touched[i], the function's units in the head) within head lines first..last (the
 * lines added in u's place) is u with integer literals re-chosen, a product or sum regrouped,
 * a 64-bit widening taken out, gfx targets added, or a cache policy added to a memory access
 * (a non-temporal template argument, `cache_modifier=` or `eviction_policy=`; not `.cv` or
 * `volatile`, which change what a load sees). */
bool sib_own_choice(const sib_unit *u, const sib_unit *twin, const sib_unit_list *after,
                    const bool *after_touched, int first, int last);
/* True when u (a unit a function lost; before: its units in the base, after: in the head) sat
 * under an `if`/`elif`/`while`/`for` testing a toolchain version (a name holding `version`)
 * that no unit of the head function names: code for a version the change stopped
 * supporting. */
bool sib_version_branch_retired(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after);
/* Where key's right-hand side starts: after its first assignment operator (`=`, `+=`, ...,
 * not `==`, `<=`, `>=`, `!=`), or key itself when it assigns nothing. */
const char *sib_right_side(const char *key);
/* The head units of one function and which of them the change edited. */
typedef struct sib_edited_units {
    const sib_unit_list *units;
    const bool *touched;
} sib_edited_units;
/* True when what a function rewrote a unit it lost as (twin; when NULL, every edited unit of
 * the function within head lines first..last, the lines added in the unit's place) reads a
 * local that another edited unit of the function, or of a function enclosing it (a kernel
 * reads its builder's locals), binds to a value it did not compute before, a name new to the
 * file (absent from base, the file's base document), and every name new to the file that code
 * or that unit uses is a local those edited units bind or a parameter: the function
 * restructured its own computation around a value only it has. before: the function's units
 * in the base; scope[0]: its units in the head with the edited ones marked, then those of the
 * functions enclosing it (nscope in all). */
bool sib_reads_new_local(const syntax_doc *base, const sib_unit *twin, const sib_unit_list *before,
                         const sib_edited_units *scope, size_t nscope, int first, int last, syn_lang lang);
/* The first local that u (a unit a function lost and rewrote; before: the function's units in
 * the base) reads and its rewrite no longer does (repl: the lines added in u's place, the
 * rewrite included), which another unit of before binds and whose last binding above head
 * line at (where u was rewritten) in the head function the change put under a branch or loop
 * it edited (after, after_touched): the local is bound on some paths only now, and the line
 * followed it. A new string, NULL when none. A variant binding the same name itself reads its
 * own value there (aiter#4470: `x_scales_desc` built only under a new `if X_SCALE_TDM:`, so
 * the buffer's shape stopped reading it). */
char *sib_follows_rebound(const sib_unit *u, const char *repl, int at, const sib_unit_list *before,
                          const sib_unit_list *after, const bool *after_touched, syn_lang lang);
/* True when u (a Python binding a function lost) binds locals that edited units of after
 * (after_touched) within head lines first..last (the lines added in its place) each bind to
 * a value u bound with a reshape called on it (`.view(`, `.reshape(`, `.permute(` ...), and
 * u reshapes nothing itself. */
bool sib_reshaped_binding(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, int first,
                          int last, syn_lang lang);
/* True when the locals u binds are passed whole to calls in both fn and v (functions of d),
 * and no callee of fn's is one of v's, compared by last name, qualified by the module a
 * function imports in its own body under the receiver's name (`import aiter as ops` and
 * `import aiter.ops.triton.rope.rope as ops` call different `ops.f`): a value laid out for
 * fn's callee says nothing of what v's callees take. */
bool sib_feeds_other_callees(const syntax_doc *d, const syn_func *fn, const syn_func *v, const sib_unit *u);
/* True when a unit of l other than skip binds name. */
bool sib_list_binds(const sib_unit_list *l, const char *name, syn_lang lang, const sib_unit *skip);

/* --- one changed file (siblings_file.c) --------------------------------------------------- */

/* One side (base or head) of a changed file: its doc, its functions and their units, cut on
 * first need (so only the functions the comparison reaches are walked). */
typedef struct sib_side {
    const syntax_doc *d;
    const syn_func_list *fl;
    sib_unit_list **units; /* per function index */
    bool *borrowed;        /* per function index: its units are the memo's, not the side's */
    struct sib_memo *memo; /* units kept between reviews (siblings_memo.h), or NULL */
    strset touched_keys;   /* keys of the touched functions' units, each with its count */
    const syn_func **touched_of; /* the function list touched_keys was counted over, or NULL */
} sib_side;

/* A side with no memo (set s->memo to share units kept between reviews). */
void sib_side_init(sib_side *s, const syntax_doc *d, const syn_func_list *fl);
void sib_side_free(sib_side *s);
/* The units of fn, a function of s (borrowed; valid until sib_side_free). */
const sib_unit_list *sib_units_of(sib_side *s, const syn_func *fn);
/* How many units of fn have this key. */
int sib_key_count(sib_side *s, const syn_func *fn, const char *key);
/* The function of `to` matching fn of `from`: same qualified name (the k-th of that name for
 * the k-th, for overloads), else the only function of that plain name; NULL when none. */
const syn_func *sib_counterpart(const syn_func_list *from, const syn_func *fn, const syn_func_list *to);

/* What the change did to one file: its deleted (base) and added (head) lines and the
 * functions owning them. */
typedef struct sib_change {
    const change_file *f;
    bool *deleted; /* per base line */
    bool *added;   /* per head line */
    bool *changed; /* per head line: added, or where a deletion happened */
    int bn, hn;
    const syn_func **touched_b, **touched_h; /* functions owning deleted / added lines */
    size_t ntb, nth, cap_b, cap_h;
} sib_change;

void sib_change_init(sib_change *c, const change_file *f, const sib_side *b, const sib_side *h);
void sib_change_free(sib_change *c);
/* True when lines [l0, l1] hold a marked line (marks has n + 1 entries, 1-based). */
bool sib_any_marked(const bool *marks, int n, int l0, int l1);
/* How often key occurs in the units of the n functions fns of side s (counted once per side
 * and list: the touched functions of the file). */
int sib_touched_count(sib_side *s, const syn_func **fns, size_t n, const char *key);
/* True when the change wrote key again somewhere in the file (moved, not rewritten). */
bool sib_written_again(sib_change *fc, sib_side *b, sib_side *h, const char *key);
/* True when u (a unit hf lost) was rewritten as twin only by taking a piece of code out or
 * putting one in (at least MOVED_PIECE characters), and another function the change touched
 * gained or lost that same piece: the code moved between a caller and its callee (a cast
 * dropped from a kernel's load and added to the quant op it calls), not a fix to copy. */
#define MOVED_PIECE 6
bool sib_piece_moved(sib_change *fc, sib_side *b, sib_side *h, const syn_func *hf, const sib_unit *u,
                     const sib_unit *twin);
/* The diff index of the first deleted line within base lines [l0, l1], or f->nlines. */
size_t sib_first_deleted(const change_file *f, int l0, int l1);
/* The run of changed lines (deleted or added, no context between) holding diff line i of f,
 * as diff indices [*s, *e). */
void sib_changed_run(const change_file *f, size_t i, size_t *s, size_t *e);
/* The code of the added lines of the block of changed lines holding diff line i (new string). */
char *sib_replacement(const change_file *f, size_t i);
/* The head lines of the added lines of the block of changed lines holding diff line i, from
 * *first to *last; false when the block adds none. */
bool sib_block_added(const change_file *f, size_t i, int *first, int *last);
/* True when text holds word as a whole identifier. */
bool sib_has_word(const char *text, const char *word);
/* True when outer is inner or encloses it. */
bool sib_within(const syn_func *outer, const syn_func *inner);
/* The outermost function of h holding fn (fn itself at top level). */
const syn_func *sib_outermost(const sib_side *h, const syn_func *fn);

/* --- what the change explains (siblings_scope.c) ---------------------------------------- */

/* A unit the change rewrote or removed in a changed function. */
typedef struct sib_removed {
    const sib_unit *u;          /* in the base */
    const sib_unit *prev, *next; /* its neighbours there (NULL at an end) */
    int at;                     /* head line where it changed */
    char *repl;                 /* the added lines of its block */
    size_t di;                  /* diff index of its first deleted line (f->nlines: none) */
    bool own_value;             /* rewritten to read a value only fn computes (sib_reads_new_local):
                                   not asked of variants, but for a fake op mirroring fn */
    bool reshaped;              /* rewritten to bind the same locals to a reshaped view
                                   (sib_reshaped_binding): not asked of a variant feeding them
                                   to other callees */
    char *follows;              /* a local fn re-bound that the rewrite stopped reading
                                   (sib_follows_rebound): not asked of a variant binding it */
    bool dropped_from_moved;    /* dropped outright (nothing rewrites it) from code the change
                                   moved: both its neighbours are written again in fn's edited
                                   units (a block re-nested under a new branch lost this line) */
} sib_removed;

/* True when code starts a statement that controls a block (`if`, `elif`, `while`, `for`,
 * `with`). */
bool sib_controls_block(const char *code);
/* True when code mentions one of names (n of them). */
bool sib_mentions_any(const char *code, char *const *names, size_t n);
/* True when the rewrite of r follows names only the changed function has (own, nown of them):
 * its replacement uses one, or r bound one. Never for a unit dropped from moved code: a new
 * branch explains what it holds, not a line the re-nested old path no longer has. */
bool sib_explained(const sib_removed *r, char *const *own, size_t nown, syn_lang lang);
/* The names only fn (head side) has against variant v, as new strings in an array of *n (free
 * each, then the array). */
char **sib_own_names(sib_change *fc, sib_side *b, sib_side *h, const syn_func *fn, const syn_func *v, size_t *n);
/* True when the change made fn delegate to v (v is its implementation, not its sibling). */
bool sib_delegates_to(sib_change *fc, sib_side *h, const syn_func *fn, const syn_func *v);
/* The functions of h the change made fn reach: those an edited unit of fn calls, and those
 * they call in turn (a registered op's wrapper and the method it runs), as an array of *n
 * (free the array). */
const syn_func **sib_reached(sib_change *fc, sib_side *h, const syn_func *fn, size_t *n);
/* True when f (a function of side h) has a parameter of this name. */
bool sib_has_param(sib_side *h, const syn_func *f, const char *name);
/* True when one of name's underscore-separated words, lower-cased, is word (lower case). */
bool sib_name_has_word(const char *name, const char *word);
/* True when the variant's unit x calls another function of the file than the call r rewrote,
 * and the change gave that rewritten call's callee parameters (b: the base side) x's callee
 * lacks: the rewrite
 * passes a new argument the variant's callee has no place for (split-K passed to the
 * preshuffle kernel's binding, not to the blockscale one's). */
bool sib_callee_extended(sib_side *b, sib_side *h, const sib_removed *r, const sib_unit *x);
/* True when the rewrite r brings in a name that holds the changed function's naming word wa
 * (`..._SPLITK_KID_MAX` in `opus_kid_is_splitk`), defined in the file (h), and the file has
 * no counterpart of it for the variant's word wb (no `..._PERSISTENT_KID_MAX`): the fix
 * follows something only the changed function has. A name defined elsewhere proves nothing. */
bool sib_named_for_fn(const sib_removed *r, const sib_side *h, const char *wa, const char *wb);
/* True when the change rewrote bf (base side) rather than fixed it (it lost nlost of its
 * ncounted compared units; renamed_lines of its deleted lines only renamed its parameters). */
bool sib_rewritten(const sib_change *fc, const syn_func *bf, size_t nlost, size_t ncounted, int renamed_lines);

/* --- whether anything runs a variant (siblings_refs.c) ---------------------------------- */

/* True when v, a top-level C++ function of the changed file (path, head doc hd), is named
 * nowhere else: not in hd's code outside its definition, not in any other source file under
 * root (the head tree), and built by no token pasting. False without a root, for a nested
 * function or a method, and for Python (reached by name at run time). */
bool sib_unused_variant(const char *root, const char *path, const syntax_doc *hd, const syn_func *v);

/* --- evidence (siblings_exhibit.c) --------------------------------------------------------- */

/* Add to fi the evidence of one carried line: the changed function fn's line before (deleted
 * diff line di of f, at head line at) and after the change (the added code line that took its
 * place, or "(deleted)"), over the variant var's line var_line of the head text. Nothing when
 * di is not a line of f. */
void sib_add_exhibit(finding *fi, const change_file *f, size_t di, int at, const char *fn, const char *var,
                     const char *head, size_t hlen, int var_line);

#endif
