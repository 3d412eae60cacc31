/* The batch face of review-lsp: option parsing shared by the commands, the commands
 * themselves (check, rules, explain) and the report formats (text, JSON, SARIF, GitHub
 * workflow annotations, reviewdog's rdjson). Every command reaches the engine through its
 * front door (engine_open_repo / engine_open_diff): the CLI reads files and arguments, the
 * engine parses diffs, chooses the rules file and runs the collectors.
 *
 * Ownership: cli_options borrows the argv strings and owns only its arrays
 * (cli_options_free); a cli_review owns its engine and review (cli_review_close). */
#ifndef RL_CLI_H
#define RL_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"

enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_NOT_A_REPO = 3 };

typedef struct cli_options {
    const char *path;        /* PATH argument, default "." */
    const char *base;
    const char *title;
    bool title_given;
    const char *diff;        /* --diff FILE */
    const char *root;        /* --root DIR */
    const char *format;      /* text | json | sarif | github | rdjson */
    const char *fail_on;     /* warning | information | NULL */
    const char *rules_path;  /* --rules FILE */
    const char **disabled;   /* --disable IDs, NULL-terminated (or NULL) */
    size_t ndisabled;
    const char **severity;   /* --severity ID=LEVEL, NULL-terminated (or NULL) */
    size_t nseverity;
    const char **only;       /* --only PATHs, NULL-terminated (or NULL) */
    size_t nonly;
    size_t max_file_bytes;
    const char *explain_id;
    const char *pr_body;     /* --pr-body FILE: a pull-request description to check for claims */
    const char *precision_policy; /* $REVIEW_LSP_PRECISION_POLICY, or NULL (the bundled policy) */
    bool timing;                  /* $REVIEW_LSP_TIMING set: each step's cost on stderr */
    bool one_thread;          /* $REVIEW_LSP_PARSE_AHEAD=0: review on one thread only */
    bool derive_only;             /* set by `rules`: derive, run no collector */
} cli_options;

/* Parse argv (after the command word). Returns 0, or EXIT_USAGE after printing why. Free o
 * with cli_options_free either way. */
int cli_parse(int argc, char **argv, const char *command, cli_options *o);
void cli_options_free(cli_options *o);
/* Parse argv for command and run it with the options; returns its exit code. */
int cli_command(int argc, char **argv, const char *command, int (*run)(const cli_options *o));

/* Open the engine the options name: the diff of --diff (a file, or "-" for standard input),
 * else the repository holding o->path. Returns 0 and sets *out, or prints a one-line error
 * and returns the exit code. */
int cli_engine_open(const cli_options *o, engine **out);
/* Say on stderr what is wrong with the repository configuration file, if anything (called by
 * cli_engine_open). */
void cli_config_notes(const engine *eng);

/* The review check and rules share: the engine and its review of the change. */
typedef struct cli_review {
    engine *eng;
    review *rev;
} cli_review;
/* Open the engine, warn about --disable ids that name no rule, and review. Returns 0, or
 * prints a one-line error and returns the exit code (an explicit --base that names no commit
 * is EXIT_USAGE). */
int cli_review_open(const cli_options *o, cli_review *out);
/* The same, refusing a --diff file that is not a diff (exit 2 with the reason): for check
 * and packet, which would otherwise review nothing. `rules` reads it as the original does.
 * beside (NULL: none) is work run beside the review once its change is built, with arg
 * (engine_beside_next_review). */
int cli_review_open_strict(const cli_options *o, cli_review *out,
                           void (*beside)(const change *c, void *arg), void *arg);
void cli_review_close(cli_review *cr);

/* Keep only the findings on the files of --only (paths as the user gave them, resolved
 * against the current directory), noting the ones outside the change. Returns 0, or
 * EXIT_USAGE after printing why (a path outside the work tree). */
int cli_only_filter(const cli_options *o, cli_review *cr);

int cmd_check(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_packet(int argc, char **argv);
int cmd_syntax_coverage(int argc, char **argv);

/* JSON strings for the reports that are never NULL: text with invalid UTF-8 replaced
 * (U+FFFD), a path with invalid bytes escaped (\xNN, or %NN with esc '%'). New references. */
json_t *report_json_text(const char *s);
json_t *report_json_path(const char *s, char esc);

void report_text(FILE *out, const cli_review *cr);
void report_json(FILE *out, const cli_review *cr);
void report_sarif(FILE *out, const cli_review *cr);
void report_github(FILE *out, const cli_review *cr);
void report_rdjson(FILE *out, const cli_review *cr);

#endif
