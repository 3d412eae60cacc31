/* The engine's one front door: what the server and the batch CLI call. An engine is opened on
 * a repository (engine_open_repo) or on a unified diff file (engine_open_diff) and is the same
 * engine either way: it reads the repository configuration (pyproject.toml [tool.review-lsp]
 * or .review-lsp.toml, under the caller's settings: effective_config.h) and keeps it current,
 * chooses the rules file once (the tree's own — named by that file, else
 * .claude/skills/review-pr/rules.md —, else the rules_path setting, else the bundled one), keeps
 * the editor's unsaved buffers as overlays and a pull-request description as side buffers, and
 * produces a review: the change (less what the configuration excludes), the derived rule
 * families and the findings of every collector, with the rule catalogue used to describe
 * them.
 *
 * Ownership: engine_* functions borrow their string arguments (copying what they keep);
 * a review is owned by the caller and freed with review_free. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"
#include "engine/derive.h"
#include "engine/effective_config.h"
#include "engine/finding.h"
#include "engine/rules_catalog.h"

/* What the caller (the command line, the editor) says. base, rules_path, max_file_bytes,
 * disabled_rules, severity and derived_hints are its layer of the configuration: NULL or 0 leave
 * a key to the repository file, then to the default. */
typedef struct engine_settings {
    const char *base;        /* target ref; NULL: upstream, origin/main, origin/master, main, master, HEAD */
    const char *title;       /* NULL: newest commit subject since the base, else branch name */
    const char *rules_path;  /* used when the tree has no rules file of its own; NULL: bundled */
    size_t max_file_bytes;   /* 0: default 2 MiB */
    const char *const *disabled_rules; /* NULL-terminated, or NULL */
    const char *precision_policy; /* policy file (precision_policy.h); NULL: the bundled one */
    int face;                      /* FACE_COMMAND_LINE (0) or FACE_EDITOR: names the sources */
    const char *const *severity;   /* "ID=level" (error, warning, information, hint), or NULL */
    const char *derived_hints;     /* "file", "line", "off", or NULL */
    bool timing;                   /* each review step's cost on stderr (the caller reads
                                      REVIEW_LSP_TIMING: the engine reads no environment) */
    bool derive_only;              /* the derivation alone: no collector runs, no findings and
                                      no collector status (`rules`, which prints only that) */
    bool one_thread;               /* review on one thread only (the caller reads
                                      REVIEW_LSP_PARSE_AHEAD=0); by default a second thread
                                      reads half the files of a batch review's change, or
                                      parses the next files of a change ahead of the
                                      collectors (collector_runner_set_second_thread), and the
                                      derivation, twins and the caller's work beside the
                                      review run on threads of their own */
    bool one_review;               /* the engine reviews once (a batch command): the collectors
                                      keep nothing for a next review (memos, indexes), which
                                      only costs a review that has none */
} engine_settings;

typedef struct review {
    change *chg;
    derive_result derived;
    finding_list findings;   /* sorted by path and line; suppressions and disabled rules removed,
                                configured levels applied */
    char **collector_status; /* one line per collector, "name: status" */
    size_t ncollectors;
    char *base_desc;         /* e.g. "origin/main (merge base 1a2b3c4)" */
    char *base_error;        /* the base setting names no commit here (the default was used
                                instead), or NULL */
    char *config_problem;    /* the repository configuration file is malformed ("name:line:
                                ...; the previous configuration stays in force"), or NULL */
    char *config_warnings;   /* keys of that file that were skipped, one per line, or NULL */
} review;

typedef struct engine engine;

/* Open the repository containing path. Returns NULL with *cause when path does not exist, is
 * not inside a git repository, or the repository cannot be read. */
engine *engine_open_repo(const char *path, const engine_settings *s, char **cause);
/* Open a unified diff (text, len; copied) as the change to review, with the post-change files
 * under root (NULL: none; new files are rebuilt from the diff and collectors that need more say
 * so). text NULL: no change at all, for a caller that wants only the rules. Never fails: a
 * text that is not a usable diff reviews as an empty change, and engine_diff_problem says why. */
engine *engine_open_diff(const char *text, size_t len, const char *root, const engine_settings *s);
/* Why the diff of engine_open_diff is not usable ("the diff is empty", "not a unified diff"),
 * or NULL (borrowed). Always NULL for a repository. */
const char *engine_diff_problem(const engine *e);
void engine_free(engine *e);
/* Replace the settings (copied). Re-resolves the base on the next review. */
void engine_configure(engine *e, const engine_settings *s);
/* The work tree (absolute, with a trailing '/'); for a diff, its root as given (with a
 * trailing '/'), or NULL without one. */
const char *engine_workdir(const engine *e);
const rule_catalog *engine_catalog(const engine *e);
/* A message explaining a rules-file fallback, or NULL (borrowed). */
const char *engine_catalog_problem(const engine *e);
/* True when id names a rule of the catalogue in use or one a collector reports. */
bool engine_knows_rule(const engine *e, const char *id);

/* A pull-request description to review beside the change (perf claims and the like), read
 * whole; name labels its findings. Replaces an earlier one; text NULL drops it. */
void engine_set_description(engine *e, const char *name, const char *text, size_t len);

/* The configuration in force: the face's settings over the repository file (pyproject.toml
 * [tool.review-lsp] or .review-lsp.toml, re-read when it changes) over the defaults, with the
 * source of each value (borrowed, valid until the next engine_configure or review). */
const effective_config *engine_config(const engine *e);
/* Why the repository configuration file on disk is not the one in force ("pyproject.toml:12:
 * ...; the previous configuration stays in force" or "...; the defaults stand in"), or NULL
 * (borrowed). */
const char *engine_config_problem(const engine *e);

/* Unsaved editor text for a path relative to the work tree; it replaces the disk content. */
void engine_set_overlay(engine *e, const char *relpath, const char *text, size_t len);
void engine_drop_overlay(engine *e, const char *relpath);

/* Review the whole change (base → work tree with overlays; or the diff). Returns 0, or -1 with
 * *cause.
 * By default every review rebuilds the change from the whole work tree. In incremental mode
 * (for a caller that watches the tree and reports what changed), a review re-diffs only the
 * paths marked dirty and the overlays set or dropped since the last review, and rebuilds
 * everything only when marked all-dirty or when the base commit moved. */
int engine_review(engine *e, review **out, char **cause);
/* Work of the caller's to run beside the next review, on a thread of its own (or at once on
 * this one when no thread can be started, or the engine reviews on one thread): fn(change,
 * arg) is called once that review's change is built, and has returned before engine_review
 * does. fn may read the change, never change it, and nothing else of the engine's. For the
 * next review only; a review that fails before its change is built does not call it. */
void engine_beside_next_review(engine *e, void (*fn)(const change *c, void *arg), void *arg);
/* The part of a review that changes what engine_catalog, engine_config and
 * engine_catalog_problem return: the repository configuration re-read, the rules file
 * reloaded when it changed. engine_review does it itself unless this ran since the last
 * review. A caller that runs engine_review on another thread calls this first on its own
 * thread; while that review runs it may then read those three and engine_workdir (the review
 * only reads them too), and must call nothing else on the engine. */
void engine_prepare_review(engine *e);
void engine_set_incremental(engine *e, bool on);
/* A path (relative to the work tree) changed on disk. */
void engine_mark_dirty(engine *e, const char *relpath);
/* Anything may have changed (HEAD, refs, index, a directory, an event overflow). */
void engine_mark_all_dirty(engine *e);
/* True when git ignores the path (relative to the work tree), for a watcher to skip it. */
bool engine_path_ignored(engine *e, const char *relpath);

void review_free(review *r);

#endif
