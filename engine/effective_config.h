/* The effective configuration: one precedence, the same in every face — what the command line
 * or the editor says wins over the repository file (repo_config.h), which wins over the
 * defaults. Each value keeps where it came from ("default", "pyproject.toml:12", "--base",
 * "editor setting review.base"), for `review-lsp config` and the server's review.showConfig.
 *
 * One key is the other way round: `rules` in the file names the repository's own rules file
 * and, like .claude/skills/review-pr/rules.md, is used before --rules / rulesPath (a
 * repository's own rule text beats a reader's generic choice; see README "Rules").
 *
 * Lists add up rather than replace: a rule disabled anywhere is disabled, so a --disable on the
 * command line does not re-enable what the repository switched off. Severity is per rule id
 * (or family): the face's level for an id, else the last [[overrides]] entry matching the file
 * that names the id, else the file's top-level severity.
 *
 * Ownership: a config_layer only borrows; an effective_config owns its strings and borrows the
 * repo_config it was built from (which must outlive it). */
#ifndef RL_EFFECTIVE_CONFIG_H
#define RL_EFFECTIVE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/finding.h"
#include "engine/repo_config.h"

/* Which face a layer comes from: it names the sources. */
enum { FACE_COMMAND_LINE = 0, FACE_EDITOR = 1 };

/* What a face says; NULL, 0 and HINTS_UNSET mean "not said". */
typedef struct config_layer {
    int face;
    const char *base;
    const char *rules_path;
    size_t max_file_bytes;
    int derived_hints;
    const char *const *disabled_rules; /* NULL-terminated */
    const char *const *severity;       /* NULL-terminated "ID=level" */
} config_layer;

typedef struct eff_rule {
    char *id;
    severity sev;       /* for severity entries */
    char *source;
    bool from_face;     /* said by the command line or the editor, not the file */
} eff_rule;

typedef struct effective_config {
    const repo_config *file;  /* borrowed; exclude, include and overrides are read from it */
    char *base, *base_source;                 /* base NULL: upstream, origin/main, ... */
    bool base_from_file;                      /* the repository file set the base */
    char *rules, *rules_source;               /* the rules file (absolute); NULL: bundled */
    size_t max_file_bytes;
    char *max_file_bytes_source;
    int derived_hints;
    char *derived_hints_source;
    eff_rule *disable;
    size_t ndisable;
    eff_rule *severity;
    size_t nseverity;
} effective_config;

/* Combine a face's layer (rules_path as given: the face resolves it first) with the file (NULL:
 * none). own_rules is the tree's .claude/skills/review-pr/rules.md when it exists, else NULL. */
void effective_build(effective_config *out, const config_layer *face, const repo_config *file,
                     const char *own_rules);
void effective_clear(effective_config *c);

/* True when a rule is switched off for a path (NULL: switched off everywhere). */
bool effective_disabled(const effective_config *c, const char *id, const char *path);
/* The level configured for a rule or family at a path (NULL: top level only); false when
 * nothing is configured for it. */
bool effective_severity(const effective_config *c, const char *id, const char *path,
                        severity *out);
/* Apply the disables and levels to the findings, in place (removed findings are freed). */
void effective_apply(const effective_config *c, finding_list *l);

/* The configuration as text, one value per line with its source (caller frees). workdir names
 * the repository (or the tree of a diff; NULL: none). */
char *effective_format(const effective_config *c, const char *workdir);

#endif
