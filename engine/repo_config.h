/* The repository configuration: review settings a team writes down once, in the repository, so
 * that the editor, the pre-commit hook and the CI job review alike. It lives in the
 * [tool.review-lsp] table of a pyproject.toml (where aiter already keeps [tool.ruff]) or at the
 * top level of a .review-lsp.toml, and is found by walking up from the reviewed path to the
 * work-tree root: the nearer file wins, and in one directory .review-lsp.toml comes before
 * pyproject.toml. A pyproject.toml without the table does not count.
 *
 * This module finds the file, reads it (TOML through toml_read.h) and checks every key; it
 * keeps the line each value was written on, for messages and for `review-lsp config`. How its
 * values combine with the command line and the editor is effective_config.h.
 *
 * Ownership: string arguments are borrowed; a repo_config owns everything it holds and is
 * released with repo_config_clear; *cause strings are the caller's. */
#ifndef RL_REPO_CONFIG_H
#define RL_REPO_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "engine/finding.h"

/* derivedHints / derived-hints: one hint per file, one per triggering line, or none. */
enum { HINTS_UNSET = -1, HINTS_OFF = 0, HINTS_FILE = 1, HINTS_LINE = 2 };

/* One string of a list (a rule id, a glob) with the line it was written on. */
typedef struct rc_entry {
    char *text;
    int line;
} rc_entry;

typedef struct rc_list {
    rc_entry *items;
    size_t n, cap;
} rc_list;

/* One severity override: a rule id or a family name, and its level. */
typedef struct rc_level {
    char *id;
    severity sev;
    int line;
} rc_level;

typedef struct rc_levels {
    rc_level *items;
    size_t n, cap;
} rc_levels;

/* A compiled list of globs (git pathspecs, relative to the work tree); opaque. */
typedef struct rc_globs rc_globs;

/* [[overrides]]: what applies to the files its paths match. */
typedef struct rc_override {
    int line;
    rc_list paths;
    rc_globs *match;
    rc_list disable;
    rc_levels severity;
} rc_override;

/* A string value and its line (0 when the file does not set it). */
typedef struct rc_string {
    char *value;
    int line;
} rc_string;

typedef struct repo_config {
    char *path;           /* absolute path of the file read; NULL: no file (all defaults) */
    char *name;           /* the file relative to the work tree, for messages */
    char *dir;            /* its directory relative to the work tree: "" or "sub/dir/" */
    rc_string base;
    rc_string rules;      /* absolute (written relative to the file's directory) */
    rc_list disable;
    rc_levels severity;
    rc_list exclude, include;   /* as written */
    rc_globs *exclude_match, *include_match;
    rc_override *overrides;
    size_t noverrides;
    size_t max_file_bytes;      /* 0: unset */
    int max_file_bytes_line;
    int derived_hints;          /* HINTS_UNSET, or a HINTS_ value */
    int derived_hints_line;
    char **warnings;            /* "file:line: ..." for keys it ignored */
    size_t nwarnings;
} repo_config;

/* Find and read the configuration for start (a path relative to the work tree, a file or a
 * directory; "" for the root). workdir is absolute with a trailing '/'. Returns 0 with *out
 * filled (out->path NULL when there is no file), or -1 with *cause "name:line: what is wrong"
 * when the file found is malformed (then *out is empty). A file whose real path leaves the
 * work tree is not read. */
int repo_config_load(const char *workdir, const char *start, repo_config *out, char **cause);

/* Read one configuration file's text (name and dir as in repo_config; pyproject selects the
 * [tool.review-lsp] table, else the top level counts). realdir is the work tree's real path
 * (with '/'), to keep `rules` inside it. Returns 0 (out->path is left for the caller), 1 for a
 * pyproject.toml without the table (out is empty), or -1 with *cause. */
int repo_config_parse(const char *text, size_t len, bool pyproject, const char *name,
                      const char *dir, const char *realdir, repo_config *out, char **cause);

/* What a load from start would look at, as one string (inode and content hash of each
 * candidate file, or its absence), so that a caller can tell cheaply whether a reload is due. */
char *repo_config_stamp(const char *workdir, const char *start);

void repo_config_clear(repo_config *c);

/* True when git pathspec globs match a path relative to the work tree. */
bool rc_globs_match(const rc_globs *g, const char *relpath);

/* True when the configuration leaves a path out of the review (exclude, or not in include). */
bool repo_config_path_excluded(const repo_config *c, const char *relpath);

#endif
