/* The batch face of review-lsp: option parsing shared by the commands, the commands
 * themselves (check, rules, explain) and the report formats (text, JSON, SARIF). */
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
    const char *format;      /* text | json | sarif */
    const char *fail_on;     /* warning | information | NULL */
    const char *rules_path;  /* --rules FILE */
    const char *disabled[64];
    int ndisabled;
    size_t max_file_bytes;
    const char *explain_id;
    const char *pr_body;     /* --pr-body FILE: a pull-request description to check for claims */
    const char *precision_policy; /* $REVIEW_LSP_PRECISION_POLICY, or NULL (the bundled policy) */
} cli_options;

/* Parse argv (after the command word). Returns 0, or EXIT_USAGE after printing why. */
int cli_parse(int argc, char **argv, const char *command, cli_options *o);

/* The review both check and rules need: from --diff or from the repository at o->path.
 * Returns 0 and sets *out; or prints a one-line error and returns the exit code. *cat is the
 * catalogue to describe rules with (owned by *eng when eng is set, else by the caller). */
typedef struct cli_review {
    engine *eng;             /* NULL in --diff mode */
    rule_catalog *own_cat;   /* the catalogue in --diff mode */
    const rule_catalog *cat;
    review *rev;
    char *diff_problem;      /* "the diff is empty" and such, or NULL */
} cli_review;
int cli_review_open(const cli_options *o, cli_review *out);
void cli_review_close(cli_review *cr);

int cmd_check(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_syntax_coverage(int argc, char **argv);

/* JSON strings for the reports that are never NULL: text with invalid UTF-8 replaced
 * (U+FFFD), a path with invalid bytes escaped (\xNN, or %NN with esc '%'). New references. */
json_t *report_json_text(const char *s);
json_t *report_json_path(const char *s, char esc);

void report_text(FILE *out, const cli_review *cr);
void report_json(FILE *out, const cli_review *cr);
void report_sarif(FILE *out, const cli_review *cr);

#endif
