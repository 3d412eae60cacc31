/* The head's handling of what a change takes away, for the review packet's evidence.txt (the
 * original pipeline's `evidence` step, which a reviewer used to withdraw a wrong "guard
 * removed" finding, aiter#5143):
 *
 * - for every guard the change deletes (an assert, TORCH_CHECK / AITER_CHECK, a zero-init or
 *   a .contiguous() call, outside test files, that did not come back unchanged), the places in
 *   the head of the changed files that declare its subject optional, check it or unwrap it,
 *   and, when the subject is a parameter of the function the guard was in, every call site of
 *   that function with the argument it passes;
 * - for every function whose parameter list the change alters (C++ definitions and
 *   declarations, Python defs), what changed (each parameter's old and new text) and every
 *   call site in the head tree with the argument it now passes for each changed parameter
 *   (`q_out.has_value() ? q_out->data_ptr() : nullptr`, or "not passed").
 *
 * Call sites are found lexically over the head tree (every Python and C/C++ file under the
 * root, changed files from the change's head text), so a call in a file the change does not
 * touch is found too; without a root only the changed files are searched, and the report says
 * so. Nothing outside the root is read (regular files only, no symbolic links).
 *
 * Ownership: evidence_collect borrows the change and root; the report owns every string. */
#ifndef RL_EVIDENCE_H
#define RL_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"

typedef struct evidence_line {
    char *path;      /* relative to the root */
    int line;        /* 1-based head line */
    char *role;      /* "checks", "checked unwrap", "declares optional", "unwraps", "uses",
                        "call" */
    char *text;      /* the head line, trimmed, at most EVIDENCE_TEXT_MAX bytes */
    char *detail;    /* for a call: what it passes for each parameter that matters; else NULL */
} evidence_line;

typedef struct evidence_item {
    bool is_signature;   /* a changed parameter list; else a removed guard's subject */
    char *subject;       /* the guard's subject, or the function's name */
    char *lang;          /* "C++" or "Python" */
    char **what;         /* removed guards: "path:line: the deleted line"; a signature: where
                            it is, its base and head parameter lists, each parameter change */
    size_t nwhat, what_cap;
    evidence_line *lines;/* the head's handling, in path and line order */
    size_t nlines, lines_cap;
    size_t nmore;        /* places left out over the cap */
    char *note;          /* what the search could not see, or NULL */
} evidence_item;

typedef struct evidence_report {
    evidence_item *items;
    size_t n, cap;
    size_t nguards;      /* removed guard lines traced */
    size_t nsignatures;  /* changed parameter lists traced */
    size_t nfiles;       /* files searched for call sites */
    size_t nleft;        /* subjects left out over the cap */
    size_t nheads;       /* changed code files whose head text was read */
    size_t nno_head;     /* changed code files whose head text is not available (--diff
                            without --root): their signatures and lines are not seen */
    char *limits;        /* what was not searched and why (no head tree, ...), or NULL */
} evidence_report;

#define EVIDENCE_TEXT_MAX 160

/* Trace every removed guard and changed signature of the change c, searching call sites under
 * root (NULL: only the changed files). Fills out (zeroed first). With timing, each step's cost
 * goes to stderr. */
void evidence_collect(const change *c, const char *root, bool timing, evidence_report *out);
void evidence_report_free(evidence_report *r);

#endif
