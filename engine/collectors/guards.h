/* The removed-guards collector's parts (rules D4 and B7), shared by its files only:
 *   guards.c         reads the change into guard statements and runs the collector;
 *   guards_text.c    what a line of code says: its guard kind, condition, subject, target;
 *   guards_cond.c    whether two conditions say the same thing (reordered, renamed, a named
 *                    constant followed to its value, a cast or a spelling changed);
 *   guards_flow.c    where a guard sits in the tree: which function, which branch, whether a
 *                    check elsewhere dominates it, whether its code path is gone, and the
 *                    helpers the change adds that a guard moved into;
 *   guards_report.c  sorting one deleted guard into kept, moved, changed or gone, and its
 *                    finding.
 *
 * Ownership: every struct here owns its strings; gfile borrows its change_file and owns its
 * head text, docs it parsed itself and function lists. Functions borrow their arguments and
 * return new strings the caller frees unless they say otherwise. */
#ifndef RL_GUARDS_H
#define RL_GUARDS_H

#include "engine/collector.h"
#include "engine/collectors/guard_kind.h"
#include "engine/strset.h"
#include "engine/syntax.h"

#define GUARDS_QUOTE_MAX 120
#define GUARDS_EVIDENCE_MAX 3

/* A changed file as the collector sees it: head and base text, parsed when possible. */
typedef struct gfile {
    const change_file *f;
    collector_ctx *ctx;     /* for reading its trees when first needed (guards_gfile_trees) */
    bool trees_read;        /* its trees were asked for (read, or tried and not parsable) */
    strset defines;         /* names its head text may define (guards_flow.c), built once */
    bool defines_built;
    syn_lang lang;
    char *head;
    size_t head_len;
    const syntax_doc *hdoc; /* from the shared cache, or owned below */
    const syntax_doc *bdoc;
    syntax_doc *hown, *bown;
    syn_func_list hfuncs;   /* functions of hdoc / bdoc (empty without a doc) */
    syn_func_list bfuncs;
    bool funcs_shared;      /* the two lists are the syntax cache's (borrowed), not owned */
    char **dcode;           /* per diff line: its code (comments gone, strings blanked) */
    char **dtext;           /* per diff line: its text with comments blanked, strings kept */
    bool texts_borrowed;    /* dcode and dtext belong to the per-file stage's facts */
    int head_nlines;        /* lines of the parsed head (0 without one) */
    bool head_errors;       /* the parsed head has syntax errors, the first at error_line */
    int error_line;
    bool is_test;
    /* read from the head tree once for every deleted guard a search brings here
     * (guards_flow.c): each head function's calls (parallel to hfuncs, NULL: not yet), and each
     * head line's guard kind (head_nlines + 1 entries, -1: not yet) */
    syn_call_list **hcalls;
    signed char *hkind;
} gfile;

/* A list of words (identifiers). */
typedef struct gwords {
    char **w;
    size_t n, cap;
} gwords;

/* One condition's normal forms, kept between comparisons (guards_cond.c). */
typedef struct gnormal gnormal;

/* A guard statement (deleted or added), or for added lines any statement. */
typedef struct gstmt {
    gfile *gf;
    size_t di;           /* its first diff line */
    int head_line;       /* head line (for a deleted statement: where the deletion happened) */
    int old_line;        /* base line of a deleted statement, 0 for an added one */
    char *text;          /* as written, lines joined by one space, stripped */
    char *norm;          /* without white space, for equality */
    char *code;          /* code view, joined */
    char *bare;          /* comments blanked, strings kept, joined like code */
    char *cond;          /* the condition it checks (guards_condition_in of code and bare) */
    gnormal *nf;         /* its condition's normal forms, kept between comparisons */
    gwords words;        /* a check's: its condition's identifiers (attributes, 4+ letters,
                            lower case), which tell whether two checks share a subject */
    char *call;          /* a check's: the first function its condition calls, or NULL */
    gkind kind;
    bool is_empty_alloc; /* an added allocation with torch.empty / ::empty / new_empty */
    char *target;        /* assignment target, or NULL */
    char *subject;       /* the checked symbol, or NULL */
    int moved_to;        /* for a deleted guard whose function was rewritten elsewhere in its
                            file: that function's first body line, else 0 */
} gstmt;

typedef struct gstmt_list {
    gstmt *items;
    size_t n, cap;
} gstmt_list;

/* What the classification counted, for the status line. */
typedef struct gcounts {
    int gone, changed, zero, moved, hinted, in_tests, in_deleted, kept, dropped, path_gone;
    int conditional;   /* re-added in place, but under a branch it was not under */
} gcounts;

/* --- guards.c ---------------------------------------------------------------------------- */

/* Read a file's head and base trees (and function lists) if not read yet. The change-wide
 * stage reads them only for the files a deleted guard can be judged from: its own file, files
 * with an added guard, and files whose head text names what a search looks for. */
void guards_gfile_trees(gfile *gf);

/* --- guards_text.c ------------------------------------------------------------------------ */

/* Position of word w in s as a whole identifier (or as a prefix of one when prefix is set),
 * or NULL (borrowed from s). */
const char *guards_find_word(const char *s, const char *w, bool prefix);
/* True when a line of code allocates without initialising. */
bool guards_is_empty_alloc(const char *code);
/* A copy of s without any white space. */
char *guards_no_space(const char *s);
/* A copy of s, stripped, shortened to GUARDS_QUOTE_MAX bytes with "…" when longer. */
char *guards_quote(const char *s);
/* Net count of opening minus closing brackets in code. */
int guards_paren_balance(const char *code);
/* True when a path is a test (its asserts check results, they guard nothing). */
bool guards_is_test_path(const char *p);
/* Noise identifiers that say nothing about what a guard checks. */
bool guards_is_noise(const char *w);
/* The condition a check tests: after its keyword, up to its first top-level ','; for
 * TORCH_CHECK_EQ(a, b) and its kin, "a == b". */
char *guards_condition(const char *code);
/* The name of the first function a check's condition calls (noise aside), or NULL. */
char *guards_first_call(const char *code);
/* The same, its places found in code and its text taken from text (the same statement with
 * only comments blanked, string literals kept) when the two have the same length. */
char *guards_condition_in(const char *code, const char *text);
/* The symbol a statement guards, or NULL. */
char *guards_subject(const char *code, gkind k, const char *target);
/* The assignment target of a statement, or NULL. */
char *guards_target(const char *code);
/* True when code tests a name against None / nullptr / has_value (a presence check). */
bool guards_is_presence_check(const char *code);
/* True when a condition is one call of a named function. */
bool guards_named_predicate(const char *cond);
/* Identifiers of code (not numbers), de-duplicated, skipping noise; with attrs false also
 * skipping attribute names; min_len bounds their length; lower folds case. Appends. */
void guards_idents(const char *code, bool attrs, size_t min_len, bool lower, gwords *out);
bool guards_words_has(const gwords *ws, const char *w);
void guards_words_free(gwords *ws);

/* --- guards_cond.c ------------------------------------------------------------------------ */

/* Where a condition is read: its doc and line (for the named constants in scope and the
 * function's parameters), and an optional substitution of names (a helper's parameters by the
 * caller's arguments). */
typedef struct gscope {
    const syntax_doc *doc;      /* may be NULL: no constant is followed, no rename seen */
    const syn_func_list *funcs; /* the doc's functions, or NULL */
    int line;
    const char *const *from;    /* nsubst names and what stands for them */
    const char *const *to;
    size_t nsubst;
    bool follow;                /* follow named constants to their values */
    gnormal *memo;              /* where the normal forms of the one condition read in this
                                   scope are kept between comparisons, or NULL (see
                                   guards_normal_new); unused when names are substituted */
} gscope;

typedef enum gcmp {
    GC_SAME,     /* the same condition, written differently */
    GC_STRICTER, /* fewer values pass now (a conjunct added, a disjunct dropped) */
    GC_LOOSER,   /* more values pass now (a conjunct dropped, a disjunct added) */
    GC_OTHER,    /* different */
} gcmp;

/* The condition in a normal form: spellings, casts, redundant brackets, leading underscores
 * of called names folded; named constants in scope followed to their values; conjuncts and
 * disjuncts sorted. */
char *guards_canonical(const char *cond, const gscope *sc);
/* Compare an old condition with a new one. When they differ only by parameters the change
 * renamed (the same function with as many parameters, the name at the same place changed),
 * they are the same. *how (may be NULL) gets a description of the difference for GC_STRICTER /
 * GC_LOOSER, else NULL. */
gcmp guards_compare(const char *old_cond, const gscope *old_sc, const char *new_cond,
                    const gscope *new_sc, char **how);
/* A place to keep one condition's normal forms, for a statement compared with many others
 * (a deleted guard with every added one): set as gscope.memo, the condition is normalised once
 * per scope it is read in instead of once per comparison. */
gnormal *guards_normal_new(void);
void guards_normal_free(gnormal *m);

/* --- guards_flow.c ------------------------------------------------------------------------ */

/* The innermost function of a doc's list containing line, or NULL. */
const syn_func *guards_function_at(const syn_func_list *l, int line);
/* True when the check on line e of doc d runs on every path through line g of the same doc:
 * same function, not in a branch (if/elif/else, switch case, loop, try/except) that g is not
 * in; a check in an if's condition covers the if's branches, and the code after it when the
 * branch ends by raising or returning. */
bool guards_dominates(const syntax_doc *d, const syn_func_list *fl, int e, int g);
/* True when line e of doc d can run before line g on the way there: same function, and every
 * branch e sits in either holds g too or is over before g (a pad done only when needed,
 * then used) — never a sibling branch of g's. */
bool guards_reaches(const syntax_doc *d, const syn_func_list *fl, int e, int g);
/* The head line standing for a deleted statement's place in the code: the deletion point,
 * moved back into the deleted statement's block when the next line is outside it. */
int guards_anchor_line(const gfile *gf, const gstmt *del);
/* The parameter names of a function of doc d, in order (NULL for one without a plain name);
 * returns how many (at most max), each a new string. */
size_t guards_param_names(const syntax_doc *d, const syn_func *fn, char **out, size_t max);
/* The function of the head that holds what the deleted guard's function became (the same
 * qualified name in the same file), or NULL. */
const syn_func *guards_head_function(const gfile *gf, const gstmt *del);
/* When the function that held a deleted guard was deleted where it was and written again
 * elsewhere in its file under the same name, that function (else NULL): the guard's finding
 * belongs there, not at the unrelated code now at the deletion point. */
const syn_func *guards_relocated(const gfile *gf, const gstmt *del);
/* True when the function that held a deleted guard is gone from every changed file's head
 * (the guarded code path was deleted with it). */
bool guards_path_deleted(gfile *files, size_t nfiles, const gstmt *del);

typedef struct genforce {
    const gfile *gf;
    int line;
    char *text;
} genforce;

/* Lines of the changed files' heads that still enforce del's invariant on the path the
 * deleted guard was on (see guards_dominates; also a caller's check dominating its call of
 * the guard's function), skipping line skip of skip_gf (the changed guard's new form). At
 * most GUARDS_EVIDENCE_MAX; returns how many. */
size_t guards_find_enforcement(gfile *files, size_t nfiles, const gstmt *del,
                               const gfile *skip_gf, int skip, genforce *out);
void guards_enforcement_free(genforce *ev, size_t n);

/* True when a guard in a function the deleted guard's function now calls (one call deeper at
 * most), defined in a changed file, keeps what del enforced once the helper's parameters are
 * read as the call's arguments; *helper gets the helper's name (caller frees), *where and
 * *line the guard's place, *added whether the change adds the helper. */
bool guards_helper_move(gfile *files, size_t nfiles, const gstmt *del, char **helper,
                        const gfile **where, int *line, bool *added);
/* The tensor a .contiguous() in code is called on, at the root of its chain of calls and
 * views (`block_residual` in `block_residual.reshape(-1, D).contiguous()`), or NULL. */
char *guards_contig_root(const char *code);

/* --- guards_report.c ---------------------------------------------------------------------- */

/* Sort one deleted guard into kept, moved, changed, gone (or quiet: its code path deleted)
 * and add its finding. */
void guards_report(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                   const gstmt_list *added, const gstmt_list *test_added, gcounts *c);

#endif
