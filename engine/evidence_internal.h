/* Private to the evidence module (evidence.h): function signatures read from a text
 * (evidence_sig.c), the lexical call-site search over the head tree (evidence_calls.c), the
 * removed guards (evidence_guards.c), and the state and helpers they share with evidence.c.
 *
 * Ownership: lists own their items and every string in them. */
#ifndef RL_EVIDENCE_INTERNAL_H
#define RL_EVIDENCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/evidence.h"
#include "engine/syntax.h"

/* One parameter of a signature. */
typedef struct ev_param {
    char *name;        /* "" when unnamed (a C++ declaration may omit it) */
    char *text;        /* as written, white space collapsed, comments removed */
    char *key;         /* text without any white space, for comparison */
    char *dflt;        /* the default value's text, or NULL */
    bool splat;        /* Python *args / **kwargs; C++ ... */
    bool kw_only;      /* Python: after * or *args, so passed by keyword only */
} ev_param;

/* A function definition or declaration: its name and parameter list. */
typedef struct ev_sig {
    char *name;        /* plain name (last component, template arguments dropped) */
    int line;          /* line of the name */
    int first, last;   /* lines of the parameter list */
    int def_first, def_last; /* lines of the whole definition; 0, 0 for a declaration */
    char *params;      /* the parameter list as written, collapsed: "(a, b)" */
    char *key;         /* the same without white space */
    ev_param *p;
    size_t np;
    bool is_method;    /* Python: the first parameter is self or cls */
} ev_sig;

typedef struct ev_sig_list {
    ev_sig *items;
    size_t n, cap;
} ev_sig_list;

/* Every function definition and declaration of a C++ or Python text (lists inside function
 * bodies and ALL-CAPS names, which are macro uses, are left out). */
void ev_signatures(syn_lang lang, const char *text, size_t len, ev_sig_list *out);
void ev_sig_list_free(ev_sig_list *l);

/* The index of the parameter named name in s, or -1. */
int ev_param_index(const ev_sig *s, const char *name);

/* A function whose call sites are wanted, and the parameters each call is asked about. */
typedef struct ev_target {
    const char *name;
    syn_lang lang;
    const ev_sig *sig;          /* its head signature (parameter positions) */
    const char *const *params;  /* the parameter names that matter, NULL-terminated */
    evidence_item *item;        /* where the call lines go (set once every item exists) */
    size_t item_index;          /* its index in the report */
} ev_target;

/* Search every Python and C/C++ file under root (NULL: the changed files of c only) for calls
 * of the targets, adding one "call" line per call to its item. Returns how many files were
 * read. */
size_t ev_find_calls(const change *c, const char *root, ev_target *t, size_t nt);

/* Helpers shared by the three files. */
/* True when root/rel is not a regular file of the tree (a symbolic link, say): never read. */
bool ev_not_regular(const char *root, const char *rel);
void ev_add_line(evidence_item *it, const char *path, int line, const char *role,
                 const char *text, size_t len, char *detail);
void ev_add_what(evidence_item *it, char *what);
/* text with runs of white space collapsed to one space and the ends trimmed (a new string). */
char *ev_collapse(const char *text, size_t len);
/* True for a byte that can be part of an identifier. */
bool ev_ident_char(char c);
/* How a value passed for an optional-looking parameter is handled: "checked", "nothing",
 * "unwrapped unchecked", or NULL. */
const char *ev_value_handling(const char *value);

/* --- the report's state, shared by evidence.c and evidence_guards.c --------------------------- */

/* A changed file with its two texts and their signatures. */
typedef struct ev_file {
    const change_file *f;
    syn_lang lang;
    char *head, *base;
    size_t hlen, blen;
    ev_sig_list hs, bs;
    bool is_test;
} ev_file;

typedef struct ev_state {
    const change *c;
    ev_file *files;
    size_t nfiles;
    evidence_report *out;
    ev_target *targets;
    size_t ntargets, targets_cap;
    char ***param_sets;  /* the NULL-terminated name arrays the targets point at */
    size_t nsets, sets_cap;
    char **added;        /* every added line of the change, collapsed, sorted (built lazily) */
    size_t nadded;
    bool have_added;
} ev_state;

/* A new item in the report, or NULL past the cap (counted in nleft). */
evidence_item *ev_new_item(evidence_report *r, bool sig, const char *subject, syn_lang lang);
/* The item of a subject: a signature's by name and language; a guard's by subject alone. */
evidence_item *ev_find_item(evidence_report *r, bool sig, const char *subject, syn_lang lang);
/* Keep a NULL-terminated array of the n parameter names (taken over) for a target. */
const char *const *ev_keep_names(ev_state *st, char **names, size_t n);
/* Ask for the call sites of name (its head signature sig) with the given parameters, the
 * lines going to item it. */
void ev_add_target(ev_state *st, const char *name, syn_lang lang, const ev_sig *sig,
                   const char *const *params, const evidence_item *it);
/* One item per subject of the guards the change deletes (evidence_guards.c). */
void ev_trace_guards(ev_state *st);

/* The caps of the report. */
#define EV_LINES_MAX 24    /* lines per item (the rest are counted) */
#define EV_ITEMS_MAX 40    /* items per report */

#endif
