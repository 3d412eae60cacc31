/* Rule derivation: which review rule families apply to a change, computed exactly as the
 * original triage (`triage.py rules`) does — the family table in rules/families.txt (data,
 * compiled once with pcre2) plus a few named detectors — and printed in its rules.txt format.
 * Each derived family also records, per file, the first head line that triggered it.
 *
 * Ownership: a derive_table is its loader's, freed with derive_table_free; a derive_result
 * owns its arrays, family names and rule strings (site paths are borrowed from the change). */
#ifndef RL_DERIVE_H
#define RL_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"
#include "engine/util.h"

typedef enum derive_status {
    DERIVE_OK,              /* families derived (possibly the NONE early exits) */
    DERIVE_UNDERIVABLE,     /* nothing derived: fail open to every rule */
    DERIVE_TOO_LARGE,       /* the "diff" is GitHub's too-large JSON error: every rule */
    DERIVE_FAILED,          /* internal failure: every rule */
} derive_status;

typedef struct derive_site {
    const char *path;       /* borrowed from the change */
    int line;               /* head line (1-based); 0 when the trigger is not a line */
} derive_site;

typedef struct derived_family {
    const char *name;       /* owned by the result (a copy of the table's), freed with it */
    const char *rules;      /* space separated rule ids, as printed; owned like name */
    derive_site *sites;     /* at most one per file */
    size_t nsites, sites_cap;
} derived_family;

typedef struct derive_result {
    derive_status status;
    char *failure;          /* for DERIVE_FAILED, the reason */
    derived_family *fams;
    size_t n, cap;
    size_t nfiles;          /* number of files as the original counts them */
} derive_result;

/* The family table compiled (its regexes with pcre2), once per engine. Never NULL: a table that
 * cannot be read (a bug in the shipped data) says why in derive_table_error, and every
 * derivation with it fails open. */
typedef struct derive_table derive_table;
derive_table *derive_table_load(void);
const char *derive_table_error(const derive_table *t);
void derive_table_free(derive_table *t);

/* Derive for the change with table t. title may be NULL (the change's title is used). */
void derive_run(const derive_table *t, const change *c, const char *title, derive_result *out);
void derive_result_clear(derive_result *r);

/* Print in the original rules.txt format (summary line, one "[family] ids" line each). */
void derive_format(const derive_result *r, strbuf *out);
/* The "every rule" list the fail-open outputs print. */
const char *derive_all_rules(void);

#endif
